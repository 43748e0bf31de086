"""Spatial motion and force vectors, ``[linear; angular]``.

A :class:`Motion` ``nu = [v; w]`` is a twist (velocity, acceleration); a :class:`Force` ``phi = [f; tau]`` is a
wrench. They are dual: ``phi.dot(nu)`` is a power and does not depend on the frame both are expressed in.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_array
from .skew import cross3, skew


class _SpatialVector:
    """Storage and linear-space operations shared by :class:`Motion` and :class:`Force`."""

    __slots__ = ("vector",)
    __array_ufunc__ = None  # numpy defers to our operators: ``np.float64(2) * m`` is a Motion, not an array

    def __init__(self, linear=None, angular=None):
        """``Cls(vector6)`` or ``Cls(linear3, angular3)``; ``Cls()`` is zero."""
        if angular is None and linear is not None:
            self.vector = as_array(linear, (6,), "vector").copy()
        else:
            self.vector = np.zeros(6)
            if linear is not None:
                self.vector[:3] = as_array(linear, (3,), "linear")
            if angular is not None:
                self.vector[3:] = as_array(angular, (3,), "angular")

    @classmethod
    def _from_storage(cls, vector: np.ndarray):
        """The vector whose storage is ``vector``, a float64 ``(6,)`` array that rbda made (neither copied nor
        checked)."""
        out = cls.__new__(cls)
        out.vector = vector
        return out

    @classmethod
    def Zero(cls):
        """The zero vector."""
        return cls()

    @classmethod
    def Random(cls, rng: np.random.Generator | None = None):
        """Entries uniform in ``[-1, 1]``."""
        rng = np.random.default_rng() if rng is None else rng
        return cls(rng.uniform(-1.0, 1.0, 6))

    @property
    def linear(self) -> np.ndarray:
        """Linear part ``(3,)`` (a view: writing into it changes the vector)."""
        return self.vector[:3]

    @linear.setter
    def linear(self, value) -> None:
        self.vector[:3] = as_array(value, (3,), "linear")

    @property
    def angular(self) -> np.ndarray:
        """Angular part ``(3,)`` (a view)."""
        return self.vector[3:]

    @angular.setter
    def angular(self, value) -> None:
        self.vector[3:] = as_array(value, (3,), "angular")

    @property
    def np(self) -> np.ndarray:
        """The 6-vector ``[linear; angular]`` (Pinocchio's ``.np``)."""
        return self.vector

    def copy(self):
        """An independent copy (also what ``copy.copy`` and ``copy.deepcopy`` give)."""
        return type(self)(self.vector)

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def _same(self, other, op: str):
        if type(other) is not type(self):
            raise TypeError(f"cannot {op} {type(self).__name__} and {type(other).__name__}")
        return other.vector

    def __add__(self, other):
        return type(self)(self.vector + self._same(other, "add"))

    def __sub__(self, other):
        return type(self)(self.vector - self._same(other, "subtract"))

    def __iadd__(self, other):
        self.vector += self._same(other, "add")
        return self

    def __isub__(self, other):
        self.vector -= self._same(other, "subtract")
        return self

    def __neg__(self):
        return type(self)(-self.vector)

    def __mul__(self, s):
        if isinstance(s, (int, float, np.floating, np.integer)):
            return type(self)(self.vector * float(s))
        return NotImplemented

    __rmul__ = __mul__

    def __truediv__(self, s):
        return type(self)(self.vector / float(s))

    def __eq__(self, other):
        return type(other) is type(self) and bool(np.array_equal(self.vector, other.vector))

    __hash__ = None

    def is_approx(self, other, prec: float = 1e-12) -> bool:
        """``|a - b| <= prec * min(|a|, |b|)`` as Eigen's ``isApprox`` (exact zero compares to zero only)."""
        d = np.linalg.norm(self.vector - self._same(other, "compare"))
        return bool(d <= prec * min(np.linalg.norm(self.vector), np.linalg.norm(other.vector)))

    def se3_action(self, M):
        """``M.act(self)``: this vector, given in frame B, expressed in frame A for ``M = aMb``."""
        return M.act(self)

    def se3_action_inverse(self, M):
        """``M.act_inv(self)``: this vector, given in frame A, expressed in frame B for ``M = aMb``."""
        return M.act_inv(self)

    def __array__(self, dtype=None, copy=None):
        return self.vector.astype(dtype) if dtype is not None else self.vector.copy()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(linear={self.linear.tolist()}, angular={self.angular.tolist()})"


class Motion(_SpatialVector):
    """Spatial motion ``nu = [v; w]``: linear velocity of the frame origin and angular velocity."""

    __slots__ = ()

    def cross(self, other):
        """Spatial cross product ``self x other`` (Pinocchio's SE(3) cheat sheet "Cross products"), ``other`` a
        :class:`Motion` or a :class:`Force`.

        ``Motion x Motion = [v1 x w2 + w1 x v2; w1 x w2]`` and ``Motion x Force = [w x f; w x tau + v x f]``.
        """
        v, w = self.vector[:3], self.vector[3:]
        if isinstance(other, Motion):
            return Motion(cross3(v, other.angular) + cross3(w, other.linear), cross3(w, other.angular))
        if isinstance(other, Force):
            return Force(cross3(w, other.linear), cross3(w, other.angular) + cross3(v, other.linear))
        raise TypeError(f"Motion.cross: expected Motion or Force, got {type(other).__name__}")

    __xor__ = cross

    def dot(self, force: "Force") -> float:
        """Power ``phi . nu`` of a force on this motion."""
        if not isinstance(force, Force):
            raise TypeError(f"Motion.dot: expected a Force, got {type(force).__name__}")
        return float(self.vector @ force.vector)

    @property
    def action(self) -> np.ndarray:
        """Matrix ``(6, 6)`` of ``m -> self x m`` on motions (Featherstone's ``crm``, reordered)."""
        return motion_cross_matrix(self.vector)

    @property
    def dual_action(self) -> np.ndarray:
        """Matrix ``(6, 6)`` of ``f -> self x* f`` on forces, equal to ``-action.T`` (Featherstone's ``crf``)."""
        return -motion_cross_matrix(self.vector).T


class Force(_SpatialVector):
    """Spatial force ``phi = [f; tau]``: force and moment about the frame origin.

    ``Force(linear, angular)`` from the force ``linear: (3,)`` and the moment ``angular: (3,)``, or
    ``Force(vector)`` from a ``(6,)`` array ``[f; tau]``; ``Force()`` is zero."""

    __slots__ = ()

    def dot(self, motion: Motion) -> float:
        """Power ``phi . nu`` of this force on a motion."""
        if not isinstance(motion, Motion):
            raise TypeError(f"Force.dot: expected a Motion, got {type(motion).__name__}")
        return float(self.vector @ motion.vector)


def motion_cross_matrix(nu) -> np.ndarray:
    """``(6, 6)`` matrix of ``m -> nu x m`` for ``nu = [v; w]``: ``[[w^, v^], [0, w^]]``."""
    nu = as_array(nu, (6,), "nu")
    vx, wx = skew(nu[:3]), skew(nu[3:])
    X = np.zeros((6, 6))
    X[:3, :3] = wx
    X[:3, 3:] = vx
    X[3:, 3:] = wx
    return X


def force_cross_matrix(nu) -> np.ndarray:
    """``(6, 6)`` matrix of ``f -> nu x* f``; it is ``-motion_cross_matrix(nu).T``."""
    return -motion_cross_matrix(nu).T


def classic_acceleration(velocity: Motion, acceleration: Motion, M=None) -> np.ndarray:
    """Classical linear acceleration ``(3,)`` of the frame origin: ``a_lin + w x v`` (optionally in ``M``'s frame).

    ``velocity`` and ``acceleration`` are the spatial velocity and acceleration of a frame B; with ``M = bMc`` the
    result is the classical acceleration of the origin of C, expressed in C.
    """
    if M is not None:
        velocity, acceleration = M.act_inv(velocity), M.act_inv(acceleration)
    return acceleration.linear + cross3(velocity.angular, velocity.linear)
