"""spatial_v2's floating-base functions: ``FDfb``, ``IDfb``, ``fbkin`` and ``fbanim``.

A floating-base model (made by :func:`floatbase`, or following its convention) emulates a 6-DoF joint by the
joints Px, Py, Pz, Rx, Ry, Rz and five massless bodies; body 6 is the floating base. ``FDfb`` and ``IDfb`` replace
that chain by a real 6-DoF joint described by the 13-element state ``xfb = [qn; r; v]``: ``qn`` the unit
quaternion (scalar first) of the base's orientation (``rq(qn) = E``, the rotation from fixed to base
coordinates), ``r`` the base origin in fixed coordinates and ``v = [w; v_O]`` the base's spatial velocity in
fixed coordinates. Its rate is ``xdfb = [rqd(w, qn); v_O + w x r; a]``, ``a`` the spatial acceleration of the
base in fixed coordinates.

In the core the base hangs from the universe by a ``JointModelFreeFlyer`` (``q = [r; qx, qy, qz, qw]``, body-frame
``v``); bodies 7..NB are core joints 2..NB-5.
"""

from __future__ import annotations

import numpy as np

from ..algorithms import aba, crba, forward_kinematics, rnea
from ..joints import JointModelFreeFlyer
from ..model import Model
from ..spatial import SE3

from .arithmetic import _vector, cross3, rq, rqd, rx, ry, rz
from .dynamics import core_fext, has_forces, hybrid_solve, joint_vector
from .model import (
    SystemModel,
    cached,
    check_model,
    core_inertia,
    core_joint,
    core_placement,
    gravity_of,
    joint_code,
)

FLOATING_CHAIN = ("Px", "Py", "Pz", "Rx", "Ry", "Rz")


# ---------------------------------------------------------------------------------------------- core twin
def check_floating(model: SystemModel) -> None:
    """Raise ``ValueError`` unless ``model`` follows floatbase's convention (spatial, joints 1-6 the chain
    Px Py Pz Rx Ry Rz, no body beyond 6 hanging from the massless chain)."""
    if check_model(model):
        raise ValueError("model: the floating-base functions need a spatial model, got a planar one")
    codes = [joint_code(j)[0] for j in model.jtype[:6]]
    if model.NB < 6 or tuple(codes) != FLOATING_CHAIN or model.parent[:6] != [0, 1, 2, 3, 4, 5]:
        raise ValueError("model: expected a floating-base model (see floatbase): joints 1-6 of types "
                         f"{FLOATING_CHAIN} in a chain, got jtype {codes} and parent {model.parent[:6]}")
    if any(p < 6 for p in model.parent[6:]):
        raise ValueError("model.parent: bodies 7..NB must descend from the floating base (body 6)")


def to_rbda_floating(model: SystemModel) -> Model:
    """Core model of a floating-base model with a free-flyer joint for the base: core joint 1 is body 6 (at the
    universe's origin), core joint ``i - 5`` is body ``i`` for ``i >= 7``. The chain's Xtree and inertias are
    unused, as in spatial_v2's ``FDfb``."""
    check_floating(model)
    core = Model("featherstone_floating")
    core.gravity = gravity_of(model)
    base = core.add_joint(0, JointModelFreeFlyer(), SE3.Identity(), "floating_base")
    core.append_body_to_joint(base, core_inertia(model.I[5], False, "model.I[5]"), SE3.Identity())
    for i in range(6, model.NB):
        joint = core.add_joint(model.parent[i] - 5, core_joint(model.jtype[i], f"model.jtype[{i}]"),
                               core_placement(model.Xtree[i], False, f"model.Xtree[{i}]"), f"joint{i + 1}")
        core.append_body_to_joint(joint, core_inertia(model.I[i], False, f"model.I[{i}]"), SE3.Identity())
    return core


def floating_core_of(model: SystemModel):
    """The cached free-flyer core twin of a floating-base model and its data."""
    return cached(model, "floating", to_rbda_floating)


def core_state(model: SystemModel, xfb, q, qd) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(xfb, E, q_core, v_core)``: the checked ``(13,)`` state, the base rotation ``E = rq(qn)`` and the core
    configuration and velocity. The core base velocity is ``[E (v_O + w x r); E w]`` (body frame)."""
    xfb = _vector(xfb, "xfb", (13,))
    E = rq(xfb[:4])  # raises for a zero quaternion
    qn = xfb[:4] / np.linalg.norm(xfb[:4])
    n = model.NB - 6
    q, qd = joint_vector(q, n, "q"), joint_vector(qd, n, "qd")
    r, w, vO = xfb[4:7], xfb[7:10], xfb[10:]
    v_base = np.concatenate([E @ (vO + cross3(w, r)), E @ w])
    return xfb, E, np.concatenate([r, qn[1:], qn[:1], q]), np.concatenate([v_base, qd])


def state_rate(xfb: np.ndarray, E: np.ndarray, a_base: np.ndarray) -> np.ndarray:
    """``xdfb = [rqd(w, qn); v_O + w x r; a]`` from the base's core acceleration ``a_base = [a_v; a_w]`` (body
    frame), which is ``a = [E^T a_w; E^T a_v + r x E^T a_w]`` in fixed coordinates."""
    r, w, vO = xfb[4:7], xfb[7:10], xfb[10:]
    wd = E.T @ a_base[3:]
    a = np.concatenate([wd, E.T @ a_base[:3] + cross3(r, wd)])
    return np.concatenate([rqd(w, xfb[:4]), vO + cross3(w, r), a])


def _fext(core, q_core, f_ext, nb: int):
    if not has_forces(f_ext):
        return None
    forward_kinematics(core.model, core.data, q_core)
    return core_fext(f_ext, nb, core.data.oMi, False, offset=5)


# ---------------------------------------------------------------------------------------------- dynamics
def FDfb(model: SystemModel, xfb, q, qd, tau, f_ext=None) -> tuple[np.ndarray, np.ndarray]:
    """Floating-base forward dynamics by the articulated-body algorithm (spatial_v2 ``FDfb``; ``rbda.aba``).

    ``xfb: (13,)`` (see the module docstring); ``q, qd, tau: (NB - 6,)`` for joints 7..NB; ``f_ext`` NB
    base-coordinate forces, the first five ignored. Returns ``(xdfb: (13,), qdd: (NB - 6,))``.
    """
    core = floating_core_of(model)
    xfb, E, q_core, v_core = core_state(model, xfb, q, qd)
    tau = np.concatenate([np.zeros(6), joint_vector(tau, model.NB - 6, "tau")])
    fext = _fext(core, q_core, f_ext, model.NB)
    a = aba(core.model, core.data, q_core, v_core, tau, fext)
    return state_rate(xfb, E, a[:6]), a[6:].copy()


def IDfb(model: SystemModel, xfb, q, qd, qdd, f_ext=None) -> tuple[np.ndarray, np.ndarray]:
    """Floating-base inverse dynamics (spatial_v2 ``IDfb``, RBDA Table 9.6): the joints' accelerations
    ``qdd: (NB - 6,)`` are given, the base is free. ``xfb: (13,)`` is the base's state (quaternion, position,
    velocity, as :func:`fbkin`), ``q``, ``qd`` ``(NB - 6,)`` the joints' positions and velocities, ``f_ext``
    (optional) one external force per body in base coordinates. Returns ``(xdfb: (13,), tau: (NB - 6,))``.

    Built on the core: ``C = rnea(q, v, [0; qdd])``, ``H = crba(q)``; the base acceleration solves
    ``H_bb a_b = -C_b`` and ``tau = C_j + H_jb a_b``.
    """
    core = floating_core_of(model)
    xfb, E, q_core, v_core = core_state(model, xfb, q, qd)
    n = model.NB - 6
    fext = _fext(core, q_core, f_ext, model.NB)
    C = rnea(core.model, core.data, q_core, v_core, np.concatenate([np.zeros(6), joint_vector(qdd, n, "qdd")]),
                  fext).copy()
    H = crba(core.model, core.data, q_core)
    a_base, tau = hybrid_solve(H, C, np.arange(6 + n) < 6, np.zeros(6 + n))
    return state_rate(xfb, E, a_base), tau


# ---------------------------------------------------------------------------------------------- kinematics
def _orientation(angles: np.ndarray) -> np.ndarray:
    """``E = rz(q6) ry(q5) rx(q4)``: the chain's rotation from fixed to base coordinates."""
    return rz(angles[2]) @ ry(angles[1]) @ rx(angles[0])


def _angles(E: np.ndarray) -> np.ndarray:
    """``[q4, q5, q6]`` of ``E`` with ``q4, q6`` in ``[-pi, pi]`` and ``q5`` in ``[-pi/2, pi/2]``.

    ``E^T = Rx(q4) Ry(q5) Rz(q6)``, so ``E^T[0, 2] = sin q5``, ``E^T[0, :2] = cos q5 [cos q6, -sin q6]`` and
    ``E^T[1:, 2] = cos q5 [-sin q4, cos q4]``.
    """
    R = E.T
    return np.array([np.arctan2(-R[1, 2], R[2, 2]), np.arctan2(R[0, 2], np.hypot(R[0, 0], R[0, 1])),
                     np.arctan2(-R[0, 1], R[0, 0])])


def _axes(angles: np.ndarray) -> np.ndarray:
    """``(3, 3)``: the axes of joints 4, 5, 6 in fixed coordinates, so that ``w = axes @ qd[3:]``."""
    c2 = rx(angles[0]).T[:, 1]
    c3 = (ry(angles[1]) @ rx(angles[0])).T[:, 2]
    return np.column_stack([[1.0, 0.0, 0.0], c2, c3])


def _axes_rate(axes: np.ndarray, rates: np.ndarray) -> np.ndarray:
    """``d(axes)/dt @ rates``: axis k turns with the angular velocity of the joints before it."""
    w1 = rates[0] * axes[:, 0]
    w2 = w1 + rates[1] * axes[:, 1]
    return np.cross(w1, axes[:, 1]) * rates[1] + np.cross(w2, axes[:, 2]) * rates[2]


def _to_x(q, qd=None, qdd=None):
    r, angles = q[:3], q[3:]
    p = np.concatenate([rq(_orientation(angles)), r])
    if qd is None:
        return p
    axes = _axes(angles)
    w = axes @ qd[3:]
    x = np.concatenate([p, w, qd[:3] + np.cross(r, w)])
    if qdd is None:
        return x
    wd = axes @ qdd[3:] + _axes_rate(axes, qd[3:])
    a = np.concatenate([wd, qdd[:3] + np.cross(qd[:3], w) + np.cross(r, wd)])
    return x, np.concatenate([rqd(w, p[:4]), qd[:3], a])


def _to_q(x, xd=None):
    r = x[4:7]
    q = np.concatenate([r, _angles(rq(x[:4]))])
    if x.size == 7:
        return q
    axes = _axes(q[3:])
    w = x[7:10]
    qd = np.concatenate([x[10:] - np.cross(r, w), np.linalg.solve(axes, w)])
    if xd is None:
        return q, qd
    wd = xd[7:10]
    qdd = np.concatenate([xd[10:] - np.cross(qd[:3], w) - np.cross(r, wd),
                          np.linalg.solve(axes, wd - _axes_rate(axes, qd[3:]))])
    return q, qd, qdd


def fbkin(*args):
    """Floating-base kinematics: the 6 chain joints <-> the quaternion state (spatial_v2 ``fbkin``).

    Six call forms, told by the number of arguments and the length of the first:

    - ``x, xd = fbkin(q, qd, qdd)``, ``x = fbkin(q, qd)``, ``p = fbkin(q)``  (``q`` of length 6);
    - ``q, qd, qdd = fbkin(x, xd)``, ``q, qd = fbkin(x)`` (``x`` of length 13), ``q = fbkin(p)`` (length 7).

    ``p = [qn; r]``, ``x = [qn; r; v]`` (13), ``xd = [qnd; rd; a]``. With ``E = rz(q6) ry(q5) rx(q4) = rq(qn)``,
    ``r = q[:3]``, ``w = [x, rx(q4)^T y, (ry(q5) rx(q4))^T z] qd[3:]`` and ``v_O = rd + r x w``. Returned angles:
    ``q4, q6`` in ``[-pi, pi]``, ``q5`` in ``[-pi/2, pi/2]``; rates break down at ``q5 = +-pi/2``.
    """
    if not 1 <= len(args) <= 3:
        raise TypeError(f"fbkin: expected 1 to 3 arguments, got {len(args)}")
    first = np.size(args[0])
    if len(args) == 3 or first == 6:
        vectors = [_vector(a, name, (6,)) for a, name in zip(args, ("q", "qd", "qdd"))]
        return _to_x(*vectors)
    if len(args) == 1:
        return _to_q(_vector(args[0], "x", (13, 7), " (or q of length 6)"))
    return _to_q(_vector(args[0], "x", (13,), " (or q of length 6)"), _vector(args[1], "xd", (13,)))


def _unwrapped(previous: np.ndarray, angles: np.ndarray) -> np.ndarray:
    """The representation of ``angles`` nearest ``previous``: ``(a, b, c)`` and ``(a + pi, pi - b, c + pi)``
    describe the same orientation, and each angle is free up to multiples of ``2 pi``."""
    best = None
    for candidate in (angles, angles + np.array([np.pi, np.pi - 2 * angles[1], np.pi])):
        candidate = candidate + 2 * np.pi * np.round((previous - candidate) / (2 * np.pi))
        if best is None or np.linalg.norm(candidate - previous) < np.linalg.norm(best - previous):
            best = candidate
    return best


def fbanim(X, Qr=None) -> np.ndarray:
    """Wrap-free joint data of floating-base position data (spatial_v2 ``fbanim``).

    ``X``: ``(13, N)``, ``(7, N)``, ``(13, 1, N)`` or ``(7, 1, N)``, each column an ``x`` or ``p`` of
    :func:`fbkin` (only the first 7 rows are used). ``Qr``: optional ``(M, N)`` or ``(M, 1, N)`` data of joints
    7 onwards. Returns ``Q: (6 [+ M], N)``: ``fbkin(p)`` per column, with angles 4-6 continued from the previous
    column (``2 pi`` jumps and the ``q5 = +-pi/2`` fold removed) instead of wrapped.
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim == 3 and X.shape[1] == 1:
        X = X[:, 0, :]
    if X.ndim != 2 or X.shape[0] not in (7, 13):
        raise ValueError(f"X: expected shape (13, N), (7, N), (13, 1, N) or (7, 1, N), got {np.shape(X)}")
    Q = np.column_stack([_to_q(X[:7, k]) for k in range(X.shape[1])])
    for k in range(1, Q.shape[1]):
        Q[3:, k] = _unwrapped(Q[3:, k - 1], Q[3:, k])
    if Qr is None:
        return Q
    Qr = np.asarray(Qr, dtype=np.float64)
    if Qr.ndim == 3 and Qr.shape[1] == 1:
        Qr = Qr[:, 0, :]
    if Qr.ndim != 2 or Qr.shape[1] != X.shape[1]:
        raise ValueError(f"Qr: expected shape (M, {X.shape[1]}) or (M, 1, {X.shape[1]}), got {np.shape(Qr)}")
    return np.vstack([Q, Qr])
