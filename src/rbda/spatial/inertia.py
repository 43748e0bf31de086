"""Spatial inertia of a rigid body, ``Y = (m, c, I)`` (Pinocchio's SE(3) cheat sheet "Inertia").

``m`` is the mass, ``c`` the centre of mass (the *lever*) in the body frame, ``I`` the rotational inertia about
the centre of mass, in body axes. As a ``(6, 6)`` matrix on ``[v; w]``::

    Y = [[ m 1,   m c_x^T          ],
         [ m c_x, I + m c_x c_x^T  ]]

Besides the (m, c, I) triple, an inertia converts to and from the 10 dynamic parameters
``[m, m c, Ixx, Ixy, Iyy, Ixz, Iyz, Izz]`` (rotational inertia about the frame origin), the 4x4 pseudo-inertia
``J = [[Sigma, m c], [m c^T, m]]`` with ``Sigma = tr(I_o)/2 1 - I_o``, and the log-Cholesky parameters
``(alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3)`` of Rucker & Wensing (2022), for which ``J = U U^T`` with
``U = e^alpha [[e^d1, s12, s13, t1], [0, e^d2, s23, t2], [0, 0, e^d3, t3], [0, 0, 0, 1]]``.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_array, as_scalar, positive
from .motion import Force, Motion, force_cross_matrix, motion_cross_matrix
from .skew import cross3, skew


class Inertia:
    """Spatial inertia ``(mass, lever, inertia)``; see the module docstring for the conventions."""

    __slots__ = ("mass", "lever", "inertia")

    def __init__(self, mass: float, lever, inertia):
        """``mass >= 0`` scalar, ``lever: (3,)`` centre of mass, ``inertia: (3, 3)`` symmetric, about the CoM."""
        self.mass = as_scalar(mass, "mass")
        self.lever = as_array(lever, (3,), "lever").copy()
        inertia = as_array(inertia, (3, 3), "inertia")
        if not np.allclose(inertia, inertia.T, rtol=1e-9, atol=1e-12):
            raise ValueError("inertia: rotational inertia must be a symmetric (3, 3) matrix")
        self.inertia = 0.5 * (inertia + inertia.T)

    # ------------------------------------------------------------------------------------------ factories
    @classmethod
    def Zero(cls) -> "Inertia":
        return cls(0.0, np.zeros(3), np.zeros((3, 3)))

    @classmethod
    def Identity(cls) -> "Inertia":
        """Unit mass at the origin with unit rotational inertia: the ``(6, 6)`` identity."""
        return cls(1.0, np.zeros(3), np.eye(3))

    @classmethod
    def Random(cls, rng: np.random.Generator | None = None) -> "Inertia":
        """A physically consistent random inertia (principal moments from random point masses)."""
        rng = np.random.default_rng() if rng is None else rng
        mass = rng.uniform(0.1, 2.0)
        a, b, c = rng.uniform(0.05, 1.0, 3)
        principal = np.array([b + c, a + c, a + b]) * mass / 5.0  # a solid ellipsoid's moments
        Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
        return cls(mass, rng.uniform(-0.5, 0.5, 3), Q @ np.diag(principal) @ Q.T)

    @classmethod
    def FromSphere(cls, mass: float, radius: float) -> "Inertia":
        """Solid sphere centred at the origin."""
        m, r = positive(mass, "mass"), positive(radius, "radius")
        return cls(m, np.zeros(3), 0.4 * m * r * r * np.eye(3))

    @classmethod
    def FromEllipsoid(cls, mass: float, x: float, y: float, z: float) -> "Inertia":
        """Solid ellipsoid with semi-axes ``x, y, z`` along the frame axes."""
        m = positive(mass, "mass")
        x, y, z = (positive(s, n) for s, n in ((x, "x"), (y, "y"), (z, "z")))
        return cls(m, np.zeros(3), np.diag([y * y + z * z, x * x + z * z, x * x + y * y]) * m / 5.0)

    @classmethod
    def FromBox(cls, mass: float, x: float, y: float, z: float) -> "Inertia":
        """Solid box with side lengths ``x, y, z`` along the frame axes."""
        m = positive(mass, "mass")
        x, y, z = (positive(s, n) for s, n in ((x, "x"), (y, "y"), (z, "z")))
        return cls(m, np.zeros(3), np.diag([y * y + z * z, x * x + z * z, x * x + y * y]) * m / 12.0)

    @classmethod
    def FromCylinder(cls, mass: float, radius: float, length: float) -> "Inertia":
        """Solid cylinder of axis z, centred at the origin."""
        m, r, h = positive(mass, "mass"), positive(radius, "radius"), positive(length, "length")
        lateral = m * (3 * r * r + h * h) / 12.0
        return cls(m, np.zeros(3), np.diag([lateral, lateral, 0.5 * m * r * r]))

    @classmethod
    def FromCapsule(cls, mass: float, radius: float, height: float) -> "Inertia":
        """Solid capsule of axis z: a cylinder of ``height`` capped by two hemispheres, uniform density."""
        m, r, h = positive(mass, "mass"), positive(radius, "radius"), as_scalar(height, "height")
        if h < 0:
            raise ValueError(f"height: must be >= 0, got {h}")
        v_cyl, v_sph = np.pi * r * r * h, 4.0 / 3.0 * np.pi * r**3
        m_cyl = m * v_cyl / (v_cyl + v_sph)
        m_sph = m - m_cyl
        # each hemisphere: 2/5 m r^2 about the sphere centre, shifted by h/2 (its CoM sits 3r/8 from the face)
        lateral = m_cyl * (3 * r * r + h * h) / 12.0 + m_sph * (0.4 * r * r + 0.25 * h * h + 0.375 * h * r)
        axial = 0.5 * m_cyl * r * r + 0.4 * m_sph * r * r
        return cls(m, np.zeros(3), np.diag([lateral, lateral, axial]))

    # ------------------------------------------------------------------------------------------ parameterisations
    @classmethod
    def FromDynamicParameters(cls, params) -> "Inertia":
        """From ``[m, m cx, m cy, m cz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz]`` (inertia about the origin)."""
        p = as_array(params, (10,), "params")
        m = p[0]
        c = p[1:4] / m if m != 0.0 else np.zeros(3)
        I_origin = np.array([[p[4], p[5], p[7]], [p[5], p[6], p[8]], [p[7], p[8], p[9]]])
        return cls(m, c, I_origin + m * (skew(c) @ skew(c)))  # I_c = I_o + m c_x c_x

    def to_dynamic_parameters(self) -> np.ndarray:
        """``(10,)``: ``[m, m cx, m cy, m cz, Ixx, Ixy, Iyy, Ixz, Iyz, Izz]`` with I about the frame origin."""
        I = self.inertia_about_origin()
        return np.concatenate([[self.mass], self.mass * self.lever, [I[0, 0], I[0, 1], I[1, 1], I[0, 2], I[1, 2], I[2, 2]]])

    @classmethod
    def FromPseudoInertia(cls, J) -> "Inertia":
        """From the ``(4, 4)`` pseudo-inertia ``[[Sigma, h], [h^T, m]]``."""
        J = as_array(J, (4, 4), "J")
        m, h, Sigma = J[3, 3], J[:3, 3], J[:3, :3]
        I_origin = np.trace(Sigma) * np.eye(3) - Sigma
        c = h / m if m != 0.0 else np.zeros(3)
        return cls(m, c, I_origin + m * (skew(c) @ skew(c)))

    def to_pseudo_inertia(self) -> np.ndarray:
        """``(4, 4)`` pseudo-inertia ``[[Sigma, m c], [m c^T, m]]``, ``Sigma = tr(I_o)/2 1 - I_o``."""
        I = self.inertia_about_origin()
        J = np.empty((4, 4))
        J[:3, :3] = 0.5 * np.trace(I) * np.eye(3) - I
        J[:3, 3] = J[3, :3] = self.mass * self.lever
        J[3, 3] = self.mass
        return J

    @classmethod
    def FromLogCholeskyParameters(cls, theta) -> "Inertia":
        """From ``(alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3)``; always physically consistent."""
        alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3 = as_array(theta, (10,), "theta")
        U = np.exp(alpha) * np.array(
            [[np.exp(d1), s12, s13, t1], [0.0, np.exp(d2), s23, t2], [0.0, 0.0, np.exp(d3), t3], [0.0, 0.0, 0.0, 1.0]]
        )
        return cls.FromPseudoInertia(U @ U.T)

    def to_log_cholesky_parameters(self) -> np.ndarray:
        """``(10,)`` log-Cholesky parameters; raises ``ValueError`` if the inertia is not physically consistent."""
        J = self.to_pseudo_inertia()
        if not np.all(np.linalg.eigvalsh(J) > 0):
            raise ValueError("inertia: log-Cholesky parameters need a positive-definite pseudo-inertia")
        # J = U U^T with U upper triangular: flip, take the lower Cholesky factor, flip back
        P = np.eye(4)[::-1]
        U = P @ np.linalg.cholesky(P @ J @ P) @ P
        alpha = np.log(U[3, 3])
        U = U / U[3, 3]
        return np.array(
            [alpha, np.log(U[0, 0]), np.log(U[1, 1]), np.log(U[2, 2]), U[0, 1], U[1, 2], U[0, 2], U[0, 3], U[1, 3], U[2, 3]]
        )

    def is_physically_consistent(self, tol: float = 0.0) -> bool:
        """Whether the inertia is physical: mass above ``tol``, positive-definite rotational inertia and the triangle
        inequalities of its principal moments (each within ``tol``)."""
        if not self.mass > tol:
            return False
        moments = np.linalg.eigvalsh(self.inertia)
        if not moments[0] > tol:
            return False
        a, b, c = moments
        return bool(a + b >= c - tol and a + c >= b - tol and b + c >= a - tol)

    # ------------------------------------------------------------------------------------------ algebra
    def inertia_about_origin(self) -> np.ndarray:
        """Rotational inertia ``(3, 3)`` about the frame origin: ``I - m c_x c_x``."""
        C = skew(self.lever)
        return self.inertia - self.mass * (C @ C)

    def matrix(self) -> np.ndarray:
        """The ``(6, 6)`` spatial inertia matrix on ``[v; w]``."""
        m, C = self.mass, skew(self.lever)
        Y = np.empty((6, 6))
        Y[:3, :3] = m * np.eye(3)
        Y[:3, 3:] = -m * C
        Y[3:, :3] = m * C
        Y[3:, 3:] = self.inertia - m * (C @ C)
        return Y

    @property
    def np(self) -> np.ndarray:
        return self.matrix()

    def __mul__(self, motion: Motion) -> Force:
        """``Y nu = [m (v - c x w); c x f + I w]`` (Pinocchio's SE(3) cheat sheet "Motion-to-force map")."""
        if not isinstance(motion, Motion):
            return NotImplemented
        v, w = motion.linear, motion.angular
        f = self.mass * (v - cross3(self.lever, w))
        return Force(f, cross3(self.lever, f) + self.inertia @ w)

    def vxiv(self, motion: Motion) -> Force:
        """``nu x* (Y nu)`` (a :class:`Force`) for ``motion = nu``, in the cheap form of Pinocchio's SE(3) cheat sheet, with ``beta = m c x w``."""
        v, w = motion.linear, motion.angular
        mv_beta = self.mass * v - self.mass * cross3(self.lever, w)
        return Force(
            cross3(w, mv_beta),
            cross3(w, cross3(self.lever, mv_beta) + self.inertia @ w) - cross3(v, self.mass * cross3(self.lever, w)),
        )

    def vtiv(self, motion: Motion) -> float:
        """``nu^T Y nu`` for ``motion = nu`` (twice the kinetic energy)."""
        return float(motion.vector @ (self * motion).vector)

    def vxi(self, motion: Motion) -> np.ndarray:
        """``(6, 6)`` matrix ``nu x* Y`` for ``motion = nu``."""
        return force_cross_matrix(motion.vector) @ self.matrix()

    def ivx(self, motion: Motion) -> np.ndarray:
        """``(6, 6)`` matrix ``Y (nu x)`` for the :class:`Motion` ``motion = nu``."""
        return self.matrix() @ motion_cross_matrix(motion.vector)

    def variation(self, motion: Motion) -> np.ndarray:
        """``(6, 6)`` time derivative of Y, fixed in a body moving with ``motion = nu``: ``nu x* Y - Y nu x``."""
        return self.vxi(motion) - self.ivx(motion)

    def __add__(self, other: "Inertia") -> "Inertia":
        """Inertia of two bodies rigidly joined (both expressed in the same frame)."""
        if not isinstance(other, Inertia):
            return NotImplemented
        m = self.mass + other.mass
        if m == 0.0:
            return Inertia(0.0, np.zeros(3), self.inertia + other.inertia)
        c = (self.mass * self.lever + other.mass * other.lever) / m
        D = skew(self.lever - other.lever)
        return Inertia(m, c, self.inertia + other.inertia - (self.mass * other.mass / m) * (D @ D))

    def inverse(self) -> np.ndarray:
        """``(6, 6)`` inverse of the spatial inertia matrix (needs a positive mass and a PD rotational inertia)."""
        if not self.mass > 0:
            raise ValueError("Inertia.inverse: mass must be positive")
        return np.linalg.inv(self.matrix())

    def se3_action(self, M) -> "Inertia":
        """``M.act(self)``: ``(m, p + R c, R I R^T)`` for ``M = aMb``."""
        return M.act(self)

    def se3_action_inverse(self, M) -> "Inertia":
        """``M.act_inv(self)``: ``(m, R^T (c - p), R^T I R)``."""
        return M.act_inv(self)

    def copy(self) -> "Inertia":
        """An independent copy (also what ``copy.copy`` and ``copy.deepcopy`` give), of the same class."""
        return type(self)(self.mass, self.lever, self.inertia)

    __copy__ = copy

    def __deepcopy__(self, memo) -> "Inertia":
        return self.copy()

    def is_approx(self, other: "Inertia", prec: float = 1e-12) -> bool:
        """Whether the ``(6, 6)`` matrices of ``self`` and ``other`` differ by at most ``prec`` times the smaller
        norm (Eigen's relative ``isApprox``)."""
        d = np.linalg.norm(self.matrix() - other.matrix())
        return bool(d <= prec * min(np.linalg.norm(self.matrix()), np.linalg.norm(other.matrix())))

    def is_zero(self, prec: float = 1e-12) -> bool:
        """Whether the ``(6, 6)`` matrix's norm is at most ``prec``."""
        return bool(np.linalg.norm(self.matrix()) <= prec)

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Inertia)
            and self.mass == other.mass
            and np.array_equal(self.lever, other.lever)
            and np.array_equal(self.inertia, other.inertia)
        )

    __hash__ = None

    def __repr__(self) -> str:
        return f"Inertia(mass={self.mass!r}, lever={self.lever.tolist()}, inertia={self.inertia.tolist()})"


def _inertia(mass: float, lever: np.ndarray, inertia: np.ndarray) -> Inertia:
    """An Inertia from trusted values (a float mass >= 0, new finite arrays ``(3,)`` and ``(3, 3)``, the latter
    symmetric to rounding): what the constructor makes of them, symmetrised, without its checks (which are what
    turns an overflow in a model file into an error: use it only on sums of a model's own inertias)."""
    Y = Inertia.__new__(Inertia)
    Y.mass, Y.lever, Y.inertia = float(mass), lever, 0.5 * (inertia + inertia.T)
    return Y
