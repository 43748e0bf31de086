"""SE(3): rigid placements ``aMb = (R, p)`` with ``p_A = R p_B + p`` (Pinocchio's cheat sheet "Rigid transformation"),
their actions on points, motions, forces and inertias, and the exponential and logarithm maps with Jacobians.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_array, as_points, as_scalar
from .inertia import Inertia
from .motion import Force, Motion
from .skew import cross3, skew
from .so3 import (
    Jexp3,
    as_unit_quat,
    exp3,
    jlog3_of_vector,
    log3,
    matrix_to_quat,
    quat_to_matrix,
)

_ORTHONORMAL_TOL = 1e-6


class SE3:
    """Rigid transformation ``aMb = (rotation, translation)`` from frame B to frame A."""

    __slots__ = ("rotation", "translation")

    def __init__(self, rotation=None, translation=None):
        """``SE3(R: (3, 3), p: (3,))``; ``SE3(H: (4, 4))`` from a homogeneous matrix; ``SE3()`` is the identity.

        Raises ``ValueError`` if ``R`` is not a rotation matrix (orthonormal to 1e-6, determinant +1).
        """
        if rotation is not None and translation is None and np.shape(rotation) == (4, 4):
            H = as_array(rotation, (4, 4), "homogeneous")
            if not np.allclose(H[3], [0.0, 0.0, 0.0, 1.0]):
                raise ValueError("homogeneous: last row of a homogeneous matrix must be [0, 0, 0, 1]")
            rotation, translation = H[:3, :3], H[:3, 3]
        R = np.eye(3) if rotation is None else as_array(rotation, (3, 3), "rotation")
        if np.linalg.norm(R.T @ R - np.eye(3)) > _ORTHONORMAL_TOL or np.linalg.det(R) < 0:
            raise ValueError("rotation: expected a rotation matrix (orthonormal, det +1)")
        self.rotation = R.copy()
        self.translation = np.zeros(3) if translation is None else as_array(translation, (3,), "translation").copy()

    # ------------------------------------------------------------------------------------------ factories
    @classmethod
    def Identity(cls) -> "SE3":
        return cls()

    @classmethod
    def Random(cls, rng: np.random.Generator | None = None) -> "SE3":
        """Uniformly random rotation, translation uniform in ``[-1, 1]^3``."""
        rng = np.random.default_rng() if rng is None else rng
        q = rng.normal(size=4)
        return cls(quat_to_matrix(q / np.linalg.norm(q)), rng.uniform(-1.0, 1.0, 3))

    @classmethod
    def from_homogeneous(cls, H) -> "SE3":
        """From a ``(4, 4)`` homogeneous matrix ``[[R, p], [0, 1]]``."""
        H = as_array(H, (4, 4), "H")
        if not np.allclose(H[3], [0.0, 0.0, 0.0, 1.0]):
            raise ValueError("H: last row of a homogeneous matrix must be [0, 0, 0, 1]")
        return cls(H[:3, :3], H[:3, 3])

    @classmethod
    def from_xyzquat(cls, xyzquat) -> "SE3":
        """From ``[x, y, z, qx, qy, qz, qw]`` (unit quaternion)."""
        v = as_array(xyzquat, (7,), "xyzquat")
        return cls(quat_to_matrix(as_unit_quat(v[3:], "xyzquat[3:7]")), v[:3])

    # ------------------------------------------------------------------------------------------ conversions
    @property
    def homogeneous(self) -> np.ndarray:
        """``(4, 4)`` homogeneous matrix."""
        H = np.eye(4)
        H[:3, :3] = self.rotation
        H[:3, 3] = self.translation
        return H

    to_homogeneous = homogeneous.fget

    def to_xyzquat(self) -> np.ndarray:
        """``(7,)``: ``[x, y, z, qx, qy, qz, qw]`` with ``qw >= 0``."""
        return np.concatenate([self.translation, matrix_to_quat(self.rotation)])

    @property
    def action(self) -> np.ndarray:
        """``(6, 6)`` motion action ``aXb = [[R, p_x R], [0, R]]``: ``nu_A = aXb nu_B``."""
        R, P = self.rotation, skew(self.translation)
        X = np.zeros((6, 6))
        X[:3, :3] = X[3:, 3:] = R
        X[:3, 3:] = P @ R
        return X

    @property
    def action_inverse(self) -> np.ndarray:
        """``(6, 6)`` ``aXb^-1 = bXa = [[R^T, -R^T p_x], [0, R^T]]``."""
        Rt, P = self.rotation.T, skew(self.translation)
        X = np.zeros((6, 6))
        X[:3, :3] = X[3:, 3:] = Rt
        X[:3, 3:] = -Rt @ P
        return X

    @property
    def dual_action(self) -> np.ndarray:
        """``(6, 6)`` force action ``aXb* = aXb^-T = [[R, 0], [p_x R, R]]``: ``phi_A = aXb* phi_B``."""
        return self.action_inverse.T

    @property
    def dual_action_inverse(self) -> np.ndarray:
        """``(6, 6)`` ``aXb^-* = bXa* = [[R^T, 0], [-R^T p_x, R^T]]``."""
        return self.action.T

    # ------------------------------------------------------------------------------------------ group
    def inverse(self) -> "SE3":
        """``bMa = (R^T, -R^T p)``."""
        Rt = self.rotation.T
        return _se3(Rt, -Rt @ self.translation)

    def __mul__(self, other):
        """``aMb * bMc -> aMc``; ``aMb * x`` is ``aMb.act(x)`` for motions, forces and inertias."""
        if isinstance(other, SE3):
            return _se3(self.rotation @ other.rotation, self.translation + self.rotation @ other.translation)
        if isinstance(other, (Motion, Force, Inertia)):
            return self.act(other)
        return NotImplemented

    def act(self, x):
        """Express in A what is given in B: ``x`` an SE3 (composition), a point ``(3,)`` or points ``(N, 3)``,
        a :class:`Motion`, :class:`Force` or :class:`Inertia`; returns the same kind."""
        R, p = self.rotation, self.translation
        if isinstance(x, Motion):
            w = R @ x.angular
            return Motion(R @ x.linear + cross3(p, w), w)
        if isinstance(x, Force):
            f = R @ x.linear
            return Force(f, R @ x.angular + cross3(p, f))
        if isinstance(x, Inertia):
            return Inertia(x.mass, p + R @ x.lever, R @ x.inertia @ R.T)
        if isinstance(x, SE3):
            return self * x
        pts = as_points(x, "points")
        return pts @ R.T + p

    def act_inv(self, x):
        """Express in B what is given in A: ``x`` as in :meth:`act` (its inverse)."""
        R, p = self.rotation, self.translation
        if isinstance(x, Motion):
            return Motion(R.T @ (x.linear - cross3(p, x.angular)), R.T @ x.angular)
        if isinstance(x, Force):
            return Force(R.T @ x.linear, R.T @ (x.angular - cross3(p, x.linear)))
        if isinstance(x, Inertia):
            return Inertia(x.mass, R.T @ (x.lever - p), R.T @ x.inertia @ R)
        if isinstance(x, SE3):
            return _se3(R.T @ x.rotation, R.T @ (x.translation - p))
        pts = as_points(x, "points")
        return (pts - p) @ R

    @staticmethod
    def Interpolate(A: "SE3", B: "SE3", t: float) -> "SE3":
        """Geodesic interpolation ``A exp6(t log6(A^-1 B))``; ``t = 0`` gives A, ``t = 1`` gives B."""
        return A * exp6(as_scalar(t, "t") * log6(A.act_inv(B)).vector)

    interpolate = Interpolate

    def normalize(self) -> "SE3":
        """Project the rotation back onto SO(3) (polar decomposition), in place; returns ``self``."""
        U, _, Vt = np.linalg.svd(self.rotation)
        self.rotation = U @ np.diag([1.0, 1.0, np.linalg.det(U @ Vt)]) @ Vt
        return self

    def is_approx(self, other: "SE3", prec: float = 1e-12) -> bool:
        """Whether ``other``'s rotation and translation equal this one's to ``prec`` (Eigen's relative ``isApprox``,
        absolute near zero)."""
        return bool(
            np.linalg.norm(self.rotation - other.rotation) <= prec * 3.0
            and np.linalg.norm(self.translation - other.translation)
            <= prec * max(1.0, min(np.linalg.norm(self.translation), np.linalg.norm(other.translation)))
        )

    def is_identity(self, prec: float = 1e-12) -> bool:
        """Whether this is the identity to ``prec``."""
        return self.is_approx(SE3(), prec)

    def copy(self) -> "SE3":
        """An independent copy (also what ``copy.copy`` and ``copy.deepcopy`` give), of the same class."""
        M = type(self).__new__(type(self))
        M.rotation, M.translation = self.rotation.copy(), self.translation.copy()
        return M

    __copy__ = copy

    def __deepcopy__(self, memo) -> "SE3":
        return self.copy()

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, SE3)
            and np.array_equal(self.rotation, other.rotation)
            and np.array_equal(self.translation, other.translation)
        )

    __hash__ = None

    def __repr__(self) -> str:
        return f"SE3(rotation={self.rotation.tolist()}, translation={self.translation.tolist()})"


def _se3(R: np.ndarray, p: np.ndarray) -> SE3:
    """Build an SE3 from trusted arrays, without the checks of the constructor."""
    M = SE3.__new__(SE3)
    M.rotation, M.translation = R, p
    return M


# ---------------------------------------------------------------------------------------------- exp / log
def exp6(nu) -> SE3:
    """Exponential of a twist ``nu = [v; w]`` (:class:`Motion` or ``(6,)``): ``(exp3(w), V(w) v)``.

    ``V(w) = I + (1 - cos t)/t^2 w_x + (t - sin t)/t^3 w_x^2`` is the left Jacobian of SO(3), ``Jexp3(-w)``.
    """
    nu = as_array(nu.vector if isinstance(nu, Motion) else nu, (6,), "nu")
    return _se3(exp3(nu[3:]), Jexp3(-nu[3:]) @ nu[:3])


def log6(M) -> Motion:
    """Logarithm of ``M`` (:class:`SE3` or ``(4, 4)``): the twist ``[V(w)^-1 p; w]`` with ``w = log3(R)``."""
    M = M if isinstance(M, SE3) else SE3.from_homogeneous(M)
    w = log3(M.rotation)
    return Motion(jlog3_of_vector(-w) @ M.translation, w)  # V(w)^-1 = Jexp3(-w)^-1


def Jexp6(nu) -> np.ndarray:
    """Right Jacobian ``(6, 6)`` of :func:`exp6`: ``exp6(nu + d) ~= exp6(nu) * exp6(Jexp6(nu) @ d)``.

    Block form ``[[Jr(w), Q], [0, Jr(w)]]``. ``Q`` is the sum of the series ``sum_k (-ad nu)^k / (k+1)!`` for
    ``|w| < 1`` (exact to rounding, no cancellation) and its closed form (Barfoot & Furgale, 2014) beyond.
    """
    nu = as_array(nu.vector if isinstance(nu, Motion) else nu, (6,), "nu")
    v, w = nu[:3], nu[3:]
    t = float(np.linalg.norm(w))
    J = np.zeros((6, 6))
    J[:3, :3] = J[3:, 3:] = Jexp3(w)
    if t < 1.0:
        J[:3, 3:] = _series_right_jacobian(nu)[:3, 3:]
        return J
    V, W = skew(-v), skew(-w)  # right Jacobian at nu = left Jacobian at -nu
    t2 = t * t
    c1 = (t - np.sin(t)) / (t2 * t)
    c2 = (0.5 * t2 + np.cos(t) - 1.0) / (t2 * t2)
    c3 = 0.5 * ((1.0 - 0.5 * t2 - np.cos(t)) / (t2 * t2) - 3.0 * (t - np.sin(t) - t2 * t / 6.0) / (t2 * t2 * t))
    WV, VW = W @ V, V @ W
    J[:3, 3:] = (
        0.5 * V
        + c1 * (WV + VW + W @ VW)
        + c2 * (W @ WV + VW @ W - 3.0 * W @ VW)
        - c3 * (W @ VW @ W + W @ W @ VW)
    )
    return J


def _series_right_jacobian(nu: np.ndarray, terms: int = 24) -> np.ndarray:
    """``sum_{k=0}^{terms} (-ad nu)^k / (k+1)!`` with ``ad nu = [[w_x, v_x], [0, w_x]]``."""
    ad = np.zeros((6, 6))
    ad[:3, :3] = ad[3:, 3:] = skew(nu[3:])
    ad[:3, 3:] = skew(nu[:3])
    term, total = np.eye(6), np.eye(6)
    for k in range(1, terms + 1):
        term = -term @ ad / (k + 1)
        total += term
    return total


def Jlog6(M) -> np.ndarray:
    """Jacobian ``(6, 6)`` of :func:`log6` for right perturbations; the inverse of ``Jexp6(log6(M))``.

    Uses the block inverse ``[[A, B], [0, A]]^-1 = [[A^-1, -A^-1 B A^-1], [0, A^-1]]`` with ``A^-1 = Jlog3``.
    """
    nu = log6(M).vector
    J = Jexp6(nu)
    A_inv = jlog3_of_vector(nu[3:])
    out = np.zeros((6, 6))
    out[:3, :3] = out[3:, 3:] = A_inv
    out[:3, 3:] = -A_inv @ J[:3, 3:] @ A_inv
    return out


def exp(x):
    """The exponential of ``x``: ``exp3`` (a ``(3, 3)`` rotation) for a ``(3,)`` rotation vector, ``exp6`` (an
    :class:`SE3`) for a :class:`Motion` or a ``(6,)`` twist."""
    return exp3(x) if np.shape(getattr(x, "vector", x)) == (3,) else exp6(x)


def log(x):
    """The logarithm of ``x``: ``log3`` (a ``(3,)`` vector) for a ``(3, 3)`` rotation, ``log6`` (a :class:`Motion`)
    for an :class:`SE3` or a ``(4, 4)`` homogeneous matrix."""
    return log3(x) if not isinstance(x, SE3) and np.shape(x) == (3, 3) else log6(x)
