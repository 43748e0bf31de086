"""Spatial_v2's 3-D rotation and spatial/planar vector arithmetic, in spatial_v2's own conventions.

Conventions (Featherstone, *Rigid Body Dynamics Algorithms*, ch. 2, and spatial_v2's function reference):

- spatial vectors are **angular first**: motion ``v = [w; v_O]``, force ``f = [n_O; f]``;
  planar vectors are ``[w_z; v_x; v_y]`` and ``[n_z; f_x; f_y]``;
- a matrix named ``E`` or ``X`` is a **coordinate transform from A to B coordinates**, frame B being located
  relative to frame A: ``E`` is the rotation ``bRa`` (so ``rx(t)`` is the transpose of the usual rotation
  matrix about x), ``r`` is the origin of B in A coordinates, and ``X = plux(E, r) = [[E, 0], [-E r_x, E]]``;
- quaternions are ``[q0; q1; q2; q3]``, scalar first, ``q`` giving the orientation of B relative to A.

Where spatial_v2 counts its arguments or inspects their shape to pick an operation (``rv``, ``rq``, ``rqd``,
``skew``, ``mcI``, ``plnr``, ``plux``, ``pluho``), these functions do the same; several results come back as a
tuple. Vector arguments may be given as ``(n,)``, ``(n, 1)`` or ``(1, n)`` arrays and are returned as ``(n,)``.
"""

from __future__ import annotations

import numpy as np

from rbda.spatial import exp3, log3, matrix_to_quat, quat_to_matrix, unskew
from rbda.spatial import skew as _skew3
from rbda.spatial._validate import as_array, as_scalar
from rbda.spatial.skew import cross3

#: gain of the magnitude-stabilizing term of ``rqd`` (spatial_v2's ``Kstab``)
RQD_STABILIZATION_GAIN = 0.1


# ---------------------------------------------------------------------------------------------- argument checks
def _vector(x, name: str, lengths: tuple[int, ...], alternative: str = "") -> np.ndarray:
    """``x`` as a finite float64 ``(n,)`` array with ``n`` in ``lengths``; accepts ``(n,)``, ``(n, 1)``, ``(1, n)``."""
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name}: expected a real vector, got {type(x).__name__}") from exc
    if a.ndim == 2 and 1 in a.shape:
        a = a.reshape(-1)
    if a.ndim != 1 or a.size not in lengths:
        expected = " or ".join(str(n) for n in lengths)
        raise ValueError(
            f"{name}: expected a vector of length {expected} (shape (n,), (n, 1) or (1, n)){alternative}, "
            f"got shape {np.shape(x)}"
        )
    return as_array(a, (a.size,), name)


def _columns(x, name: str, rows: tuple[int, ...]) -> np.ndarray:
    """``x`` as a finite float64 ``(d, n)`` array with ``d`` in ``rows``; a ``(d,)`` vector becomes ``(d, 1)``."""
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name}: expected a real array, got {type(x).__name__}") from exc
    if a.ndim == 1:
        a = a.reshape(-1, 1)
    if a.ndim != 2 or a.shape[0] not in rows:
        expected = " or ".join(f"({d}, n)" for d in rows)
        raise ValueError(f"{name}: expected shape {expected}, or a 1-D vector of that length, got {np.shape(x)}")
    return as_array(a, (a.shape[0], -1), name)


def _transform(X) -> np.ndarray:
    """``X`` as a finite float64 spatial ``(6, 6)`` or planar ``(3, 3)`` transform."""
    shape = np.shape(X)
    if shape not in ((6, 6), (3, 3)):
        raise ValueError(f"X: expected shape (6, 6) (spatial) or (3, 3) (planar), got {shape}")
    return as_array(X, shape, "X")


def _scalar(x, name: str) -> float:
    """``x`` as a finite float; a size-1 array is accepted, any other shape is a ``ValueError``."""
    if np.size(x) != 1:
        raise ValueError(f"{name}: expected a scalar, got shape {np.shape(x)}")
    return as_scalar(np.asarray(x).reshape(()), name)


def _cos_sin(theta) -> tuple[float, float]:
    t = _scalar(theta, "theta")
    return np.cos(t), np.sin(t)


# ---------------------------------------------------------------------------------------------- 3-D rotations
def rx(theta: float) -> np.ndarray:
    """``(3, 3)`` coordinate rotation from A to B, B rotated by ``theta`` about the common x axis (spatial_v2 ``rx``)."""
    c, s = _cos_sin(theta)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, s], [0.0, -s, c]])


def ry(theta: float) -> np.ndarray:
    """``(3, 3)`` coordinate rotation from A to B, B rotated by ``theta`` about the common y axis (spatial_v2 ``ry``)."""
    c, s = _cos_sin(theta)
    return np.array([[c, 0.0, -s], [0.0, 1.0, 0.0], [s, 0.0, c]])


def rz(theta: float) -> np.ndarray:
    """``(3, 3)`` coordinate rotation from A to B, B rotated by ``theta`` about the common z axis (spatial_v2 ``rz``)."""
    c, s = _cos_sin(theta)
    return np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])


def rv(v_or_E) -> np.ndarray:
    """Rotation vector <-> coordinate rotation (spatial_v2 ``rv``): ``v_or_E`` is either, the other is returned.

    ``rv(v: (3,))`` returns ``E: (3, 3)``, the A-to-B transform of a frame B rotated relative to A by ``|v|``
    about ``v``; ``rv(E: (3, 3))`` returns ``v: (3,)`` with ``|v|`` in ``[0, pi]`` (sign arbitrary at pi).
    ``v`` is common to both frames: ``rv(v) @ v == v``.
    """
    if np.shape(v_or_E) == (3, 3):
        E = as_array(v_or_E, (3, 3), "E")
        return log3(E.T)  # E = bRa is the transpose of the rotation matrix exp3(v) = aRb
    v = _vector(v_or_E, "v", (3,), " or E of shape (3, 3)")
    return exp3(v).T


def rq(q_or_E) -> np.ndarray:
    """Quaternion <-> coordinate rotation (spatial_v2 ``rq``); quaternions are ``[q0; q1; q2; q3]``, scalar first.
    ``q_or_E`` is either a quaternion or a rotation, and the other is returned.

    ``rq(q: (4,))`` returns ``E: (3, 3)`` for any nonzero ``q`` (normalised first); rotating B about the common
    x axis by ``h`` gives ``q = [cos(h/2), sin(h/2), 0, 0]`` and ``rq(q) == rx(h)``.
    ``rq(E: (3, 3))`` returns the unit quaternion ``(4,)`` with ``q0 >= 0``.
    """
    if np.shape(q_or_E) == (3, 3):
        E = as_array(q_or_E, (3, 3), "E")
        x, y, z, w = matrix_to_quat(E.T)  # core quaternions are [x, y, z, w], of aRb = E^T, with w >= 0
        return np.array([w, x, y, z])
    q = _vector(q_or_E, "q", (4,), " or E of shape (3, 3)")
    norm = np.linalg.norm(q)
    if norm == 0.0:
        raise ValueError("q: the quaternion must be nonzero")
    q0, q1, q2, q3 = q / norm
    return quat_to_matrix([q1, q2, q3, q0]).T


def _quat_product(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hamilton product of scalar-first quaternions ``[a0; a] * [b0; b] = [a0 b0 - a.b; a0 b + b0 a + a x b]``."""
    return np.concatenate([[a[0] * b[0] - a[1:] @ b[1:]], a[0] * b[1:] + b[0] * a[1:] + cross3(a[1:], b[1:])])


def rqd(first, second) -> np.ndarray:
    """Quaternion derivative ``(4,)`` from an angular velocity (spatial_v2 ``rqd``).

    ``rqd(wA: (3,), q: (4,))`` or ``rqd(q: (4,), wB: (3,))`` (the arguments ``first`` and ``second``): ``q`` is the orientation of B relative to A (as in
    :func:`rq`), ``wA``/``wB`` the angular velocity of B relative to A in A/B coordinates; the call form is told
    by the length of the first argument. ``qd = 1/2 [s; wA] * q`` or ``qd = 1/2 q * [s; wB]``, where
    ``s = K |w| (1 - |q|)`` (``K = RQD_STABILIZATION_GAIN``) drives ``|q|`` towards 1 under integration.
    """
    w_in_B = np.size(first) == 4
    if w_in_B:
        q = _vector(first, "q", (4,))
        w = _vector(second, "wB", (3,))
    else:
        w = _vector(first, "wA", (3,), " (or q of length 4)")
        q = _vector(second, "q", (4,))
    s = RQD_STABILIZATION_GAIN * np.linalg.norm(w) * (1.0 - np.linalg.norm(q))
    w_quat = np.concatenate([[s], w])
    if w_in_B:
        return 0.5 * _quat_product(q, w_quat)
    return 0.5 * _quat_product(w_quat, q)


def skew(v_or_A) -> np.ndarray:
    """Vector <-> skew-symmetric matrix (spatial_v2 ``skew``): ``v_or_A`` is either, the other is returned.

    ``skew(v: (3,))`` returns ``S: (3, 3)`` with ``S @ b == cross(v, b)``; ``skew(A: (3, 3))`` returns the
    vector ``(3,)`` of the skew-symmetric part ``(A - A^T) / 2`` of any ``A``.
    """
    if np.shape(v_or_A) == (3, 3):
        return unskew(as_array(v_or_A, (3, 3), "A"))
    return _skew3(_vector(v_or_A, "v", (3,), " or A of shape (3, 3)"))


# ---------------------------------------------------------------------------------------------- cross products
def crm(v) -> np.ndarray:
    """Motion cross-product matrix (spatial_v2 ``crm``): ``crm(v) @ m == v x m``.

    ``v: (6,)`` spatial ``[w; v_O]`` gives ``(6, 6) [[w_x, 0], [v_x, w_x]]``; ``v: (3,)`` planar
    ``[w; v_x; v_y]`` gives ``(3, 3)``.
    """
    v = _vector(v, "v", (6, 3))
    if v.size == 3:
        w, vx, vy = v
        return np.array([[0.0, 0.0, 0.0], [vy, 0.0, -w], [-vx, w, 0.0]])
    W = _skew3(v[:3])
    X = np.zeros((6, 6))
    X[:3, :3] = X[3:, 3:] = W
    X[3:, :3] = _skew3(v[3:])
    return X


def crf(v) -> np.ndarray:
    """Force cross-product matrix (spatial_v2 ``crf``): ``crf(v) @ f == v x* f``, equal to ``-crm(v).T``.

    ``v: (6,)`` gives ``(6, 6)``, planar ``v: (3,)`` gives ``(3, 3)``.
    """
    return -crm(v).T


# ---------------------------------------------------------------------------------------------- inertia
def mcI(*args):
    """Rigid-body inertia from/to mass, centre of mass and rotational inertia about it (spatial_v2 ``mcI``).

    ``mcI(m, c: (3,), I: (3, 3))`` returns ``rbi: (6, 6) = [[I + m c_x c_x^T, m c_x], [m c_x^T, m 1]]``;
    ``mcI(m, c: (2,), I: scalar)`` returns the planar ``rbi: (3, 3)``.
    ``mcI(rbi)`` returns ``(m, c, I)`` (spatial or planar from the size of ``rbi``); it needs ``m != 0``.
    """
    if len(args) == 3:
        return _compose_inertia(*args)
    if len(args) == 1:
        return _decompose_inertia(args[0])
    raise TypeError(f"mcI: expected (m, c, I) or (rbi), got {len(args)} arguments")


def _compose_inertia(m, c, I) -> np.ndarray:
    m = _scalar(m, "m")
    c = _vector(c, "c", (3, 2))
    if c.size == 2:
        I = _scalar(I, "I")
        cx, cy = c
        return np.array([[I + m * (cx * cx + cy * cy), -m * cy, m * cx], [-m * cy, m, 0.0], [m * cx, 0.0, m]])
    I = as_array(I, (3, 3), "I")
    C = _skew3(c)
    rbi = np.empty((6, 6))
    rbi[:3, :3] = I + m * C @ C.T
    rbi[:3, 3:] = m * C
    rbi[3:, :3] = m * C.T
    rbi[3:, 3:] = m * np.eye(3)
    return rbi


def _decompose_inertia(rbi) -> tuple[float, np.ndarray, np.ndarray | float]:
    shape = np.shape(rbi)
    if shape not in ((6, 6), (3, 3)):
        raise ValueError(f"rbi: expected shape (6, 6) or (3, 3), got {shape}")
    rbi = as_array(rbi, shape, "rbi")
    m = float(rbi[-1, -1])
    if m == 0.0:
        raise ValueError("rbi: the mass rbi[-1, -1] is zero, so c and I cannot be recovered")
    if shape == (3, 3):
        c = np.array([rbi[0, 2], -rbi[0, 1]]) / m
        return m, c, float(rbi[0, 0] - m * (c @ c))
    c = unskew(rbi[:3, 3:]) / m
    C = _skew3(c)
    return m, c, rbi[:3, :3] - m * C @ C.T


# ---------------------------------------------------------------------------------------------- coordinate transforms
def _rotation_transform(E: np.ndarray) -> np.ndarray:
    X = np.zeros((6, 6))
    X[:3, :3] = X[3:, 3:] = E
    return X


def rotx(theta: float) -> np.ndarray:
    """``(6, 6)`` motion transform A to B, B rotated by ``theta`` about the common x axis (spatial_v2 ``rotx``)."""
    return _rotation_transform(rx(theta))


def roty(theta: float) -> np.ndarray:
    """``(6, 6)`` motion transform A to B, B rotated by ``theta`` about the common y axis (spatial_v2 ``roty``)."""
    return _rotation_transform(ry(theta))


def rotz(theta: float) -> np.ndarray:
    """``(6, 6)`` motion transform A to B, B rotated by ``theta`` about the common z axis (spatial_v2 ``rotz``)."""
    return _rotation_transform(rz(theta))


def xlt(r) -> np.ndarray:
    """``(6, 6)`` motion transform A to B, B's origin at ``r: (3,)`` in A (spatial_v2 ``xlt``): ``[[1, 0], [-r_x, 1]]``."""
    r = _vector(r, "r", (3,))
    X = np.eye(6)
    X[3:, :3] = -_skew3(r)
    return X


def plnr(*args):
    """Planar coordinate transform from/to angle and position (spatial_v2 ``plnr``).

    ``plnr(theta, r: (2,))`` returns ``X: (3, 3)``, the A-to-B transform of planar vectors ``[w; x; y]`` for
    B rotated counter-clockwise by ``theta`` relative to A, with origin at ``r`` in A coordinates:
    ``X = [[1, 0, 0], [s x - c y, c, s], [c x + s y, -s, c]]``. ``plnr(X: (3, 3))`` returns ``(theta, r)``.
    """
    if len(args) == 2:
        c, s = _cos_sin(args[0])
        x, y = _vector(args[1], "r", (2,))
        return np.array([[1.0, 0.0, 0.0], [s * x - c * y, c, s], [c * x + s * y, -s, c]])
    if len(args) == 1:
        X = as_array(args[0], (3, 3), "X")
        c, s = X[1, 1], X[1, 2]
        # [X10; X20] = [[s, -c], [c, s]] r, an orthonormal matrix
        r = np.array([s * X[1, 0] + c * X[2, 0], s * X[2, 0] - c * X[1, 0]])
        return float(np.arctan2(s, c)), r
    raise TypeError(f"plnr: expected (theta, r) or (X), got {len(args)} arguments")


def plux(*args):
    """Plücker coordinate transform from/to rotation and translation (spatial_v2 ``plux``).

    ``plux(E: (3, 3), r: (3,))`` returns ``X = [[E, 0], [-E r_x, E]]: (6, 6)``, the A-to-B motion transform
    for B's origin at ``r`` in A coordinates and ``E`` the A-to-B rotation; ``plux(rx(h), r) ==
    rotx(h) @ xlt(r)``. ``plux(X: (6, 6))`` returns ``(E, r)``.
    """
    if len(args) == 2:
        E = as_array(args[0], (3, 3), "E")
        r = _vector(args[1], "r", (3,))
        X = _rotation_transform(E)
        X[3:, :3] = -E @ _skew3(r)
        return X
    if len(args) == 1:
        X = as_array(args[0], (6, 6), "X")
        E = X[:3, :3].copy()
        r = -unskew(E.T @ X[3:, :3])  # E^T (-E r_x) = -r_x
        return E, r
    raise TypeError(f"plux: expected (E, r) or (X), got {len(args)} arguments")


def pluho(X_or_T) -> np.ndarray:
    """Plücker ``X: (6, 6)`` <-> homogeneous ``T: (4, 4)`` coordinate transform, A to B (spatial_v2 ``pluho``):
    ``X_or_T`` is either, and the other is returned.

    ``T = [[E, -E r], [0, 1]]`` maps homogeneous point coordinates in A to those in B (``p_B = E (p_A - r)``);
    the displacement operator of B relative to A (core ``aMb``) is ``inv(T)``.
    """
    shape = np.shape(X_or_T)
    if shape == (6, 6):
        E, r = plux(X_or_T)
        T = np.eye(4)
        T[:3, :3] = E
        T[:3, 3] = -E @ r
        return T
    if shape == (4, 4):
        T = as_array(X_or_T, (4, 4), "T")
        E = T[:3, :3]
        return plux(E, -E.T @ T[:3, 3])
    raise ValueError(f"X/T: expected a Plücker transform (6, 6) or a homogeneous transform (4, 4), got {shape}")


def XtoV(X) -> np.ndarray:
    """Displacement vector of a coordinate transform (spatial_v2 ``XtoV``).

    ``X: (6, 6)`` gives a spatial ``(6,)``, ``X: (3, 3)`` a planar ``(3,)`` motion ``v`` that carries A to B in
    one time unit (small-angle approximation, exact for parallel frames). ``v`` is an invariant of X:
    ``X @ v == v``. For a small displacement ``X ~= 1 - crm(v)``, so ``v`` is read from the skew-symmetric
    parts of the blocks of ``X``.
    """
    X = _transform(X)
    if X.shape == (3, 3):
        s, c = X[1, 2], X[1, 1]
        return np.array([s, (X[2, 0] + c * X[2, 0] + s * X[1, 0]) / 2, (-X[1, 0] - c * X[1, 0] + s * X[2, 0]) / 2])
    return -np.concatenate([unskew(X[:3, :3]), unskew(X[3:, :3])])


# ---------------------------------------------------------------------------------------------- points
def _like(result: np.ndarray, p) -> np.ndarray:
    """``result: (d, n)`` reshaped as ``p`` was given: ``(d,)`` for a single 1-D point."""
    return result[:, 0] if np.ndim(p) == 1 else result


def Xpt(X, p) -> np.ndarray:
    """Apply a coordinate transform to points (spatial_v2 ``Xpt``).

    ``X: (6, 6)`` with ``p: (3, n)`` or ``(3,)``, or planar ``X: (3, 3)`` with ``p: (2, n)`` or ``(2,)``;
    returns the coordinates in B, ``E (p - r)``, in the shape of ``p``.
    """
    X = _transform(X)
    if X.shape == (3, 3):
        _, r = plnr(X)
        E = X[1:, 1:]  # the planar rotation [[c, s], [-s, c]]
        points = _columns(p, "p", (2,))
    else:
        E, r = plux(X)
        points = _columns(p, "p", (3,))
    return _like(E @ (points - r[:, None]), p)


def Vpt(v, p) -> np.ndarray:
    """Linear velocities at points of a spatial or planar velocity field (spatial_v2 ``Vpt``).

    ``v: (6,)`` or ``(6, n)`` with ``p: (3, n)``: ``v_O + w x p``; planar ``v: (3,)`` or ``(3, n)`` with
    ``p: (2, n)``: ``[v_x - w p_y; v_y + w p_x]``. A single ``v`` applies to every point, otherwise column i
    of ``v`` goes with column i of ``p``. Returns the shape of ``p``.
    """
    v = _columns(v, "v", (6, 3))
    points = _columns(p, "p", (3,) if v.shape[0] == 6 else (2,))
    if v.shape[1] not in (1, points.shape[1]):
        raise ValueError(f"v: expected 1 or {points.shape[1]} columns (one per point of p), got {v.shape[1]}")
    if v.shape[0] == 3:
        w, vx, vy = v
        return _like(np.stack([vx - w * points[1], vy + w * points[0]]), p)
    return _like(v[3:] + np.cross(v[:3], points, axis=0), p)


def Fpt(fp, p) -> np.ndarray:
    """Spatial or planar forces of linear forces acting at points (spatial_v2 ``Fpt``).

    ``fp, p: (3, n)`` give ``f = [p x fp; fp]: (6, n)``; planar ``fp, p: (2, n)`` give
    ``[p_x fp_y - p_y fp_x; fp]: (3, n)``. 1-D ``fp`` and ``p`` give a 1-D result. The resultant of the whole
    system is ``Fpt(fp, p).sum(axis=1)``.
    """
    forces = _columns(fp, "fp", (3, 2))
    points = _columns(p, "p", (forces.shape[0],))
    if points.shape != forces.shape:
        raise ValueError(f"p: expected the shape of fp, {np.shape(fp)}, got {np.shape(p)}")
    if forces.shape[0] == 2:
        moment = points[0] * forces[1] - points[1] * forces[0]
        return _like(np.vstack([moment, forces]), p)
    return _like(np.vstack([np.cross(points, forces, axis=0), forces]), p)
