"""Pinocchio's spatial classes and functions over :mod:`rbda.spatial`: ``SE3``, ``Motion``, ``Force``, ``Inertia``,
``Symmetric3``, ``PseudoInertia``, ``LogCholeskyParameters``, ``Quaternion``, ``AngleAxis``, the exponential and
logarithm maps and the ``XYZQUAT`` conversions.

The classes are rbda's with Pinocchio's names, constructors and in-place setters added (``setRandom``,
``actInv``, ``isApprox``, ``np``, ...); every computation is rbda's. Conventions are the same in both libraries
(``[linear; angular]`` vectors, ``aMb`` maps B to A, quaternions stored ``(x, y, z, w)``), with one difference
that the classes convert: Eigen's ``Quaternion(w, x, y, z)`` takes the scalar first, its ``coeffs()`` return it
last. Column vectors ``(n, 1)`` are accepted wherever Pinocchio accepts them.
"""

from __future__ import annotations

import numpy as np

from .. import spatial as _s
from ..spatial.so3 import ReferenceFrame
from ._convert import edited, register, to_pin, vector

_rng = np.random.default_rng()  # the random objects' generator (Pinocchio draws from its own, unseeded)


def _vec3(x, name: str) -> np.ndarray:
    return _s._validate.as_array(vector(x), (3,), name)


def _assign(target: np.ndarray, value, name: str) -> None:
    """``target[...] = value``, for the setters of parts of a vector (``linear``, ``angular``), which write into the
    vector as Pinocchio's do."""
    value = np.asarray(vector(value), dtype=np.float64)
    if value.shape != target.shape:
        raise ValueError(f"{name}: expected shape {target.shape}, got {value.shape}")
    target[...] = value


def _stored(slot, shape: tuple, name: str) -> property:
    """A property over rbda's ``slot`` whose setter takes Pinocchio's shapes (a column vector for a vector) and
    stores a copy of the value (of ``shape``; Pinocchio's setters copy too)."""

    def set_value(self, value):
        value = np.array(vector(value), dtype=np.float64)
        if value.shape != shape:
            raise ValueError(f"{name}: expected shape {shape}, got {value.shape}")
        slot.__set__(self, value)
        edited(self)

    return property(slot.__get__, set_value)


# ------------------------------------------------------------------------------------------------------ SE3
@register
class SE3(_s.SE3):
    """Pinocchio's ``SE3``: rbda's :class:`rbda.SE3` with Pinocchio's constructors and names.

    ``SE3()`` and ``SE3(1)`` are the identity, ``SE3(R, p)`` from a rotation matrix or a :class:`Quaternion` and a
    translation, ``SE3(H)`` from a ``(4, 4)`` homogeneous matrix, ``SE3(M)`` a copy. ``M * x`` composes with an
    SE3, acts on a point ``(3,)``, a Motion, a Force or an Inertia.
    """

    __slots__ = ()

    def __init__(self, *args):
        if not args or (len(args) == 1 and isinstance(args[0], (int, np.integer)) and not isinstance(args[0], bool)):
            if args and args[0] != 1:
                raise ValueError("SE3(n): only SE3(1), the identity, is defined")
            super().__init__()
        elif len(args) == 1 and isinstance(args[0], _s.SE3):
            super().__init__(args[0].rotation, args[0].translation)
        elif len(args) == 1:
            super().__init__(np.asarray(args[0], dtype=np.float64))
        elif len(args) == 2:
            R = args[0].matrix() if isinstance(args[0], Quaternion) else args[0]
            super().__init__(R, _vec3(args[1], "translation"))
        else:
            raise TypeError(f"SE3: expected (), (1), (R, p), (quaternion, p), (H) or (SE3), got {len(args)} arguments")

    @classmethod
    def Identity(cls) -> "SE3":
        return cls()

    @classmethod
    def Random(cls) -> "SE3":
        """A uniformly random rotation and a translation uniform in ``[-1, 1]^3``."""
        return to_pin(_s.SE3.Random(_rng))

    @classmethod
    def Interpolate(cls, A, B, t: float) -> "SE3":
        return to_pin(_s.SE3.Interpolate(A, B, t))

    def setIdentity(self) -> "SE3":
        self.rotation, self.translation = np.eye(3), np.zeros(3)
        return self

    def setRandom(self) -> "SE3":
        M = _s.SE3.Random(_rng)
        self.rotation, self.translation = M.rotation, M.translation
        return self

    translation = _stored(_s.SE3.translation, (3,), "translation")
    rotation = _stored(_s.SE3.rotation, (3, 3), "rotation")

    def inverse(self) -> "SE3":
        return to_pin(super().inverse())

    def act(self, x):
        return to_pin(super().act(vector(x)))

    def actInv(self, x):
        """``self.act_inv(x)``: ``x`` (point, SE3, Motion, Force, Inertia) given in A, expressed in B."""
        if isinstance(x, (str, bytes)):
            raise TypeError(f"SE3.actInv: expected a point, SE3, Motion, Force or Inertia, got {type(x).__name__}")
        return to_pin(self.act_inv(vector(x)))

    def __mul__(self, other):
        if isinstance(other, (_s.SE3, _s.Motion, _s.Force, _s.Inertia)):
            return to_pin(super().__mul__(other))
        if isinstance(other, np.ndarray) or isinstance(other, (list, tuple)):
            return self.act(other)
        return NotImplemented

    def __invert__(self) -> "SE3":
        return self.inverse()

    def __ne__(self, other) -> bool:
        return not self == other

    def isApprox(self, other, prec: float = 1e-12) -> bool:
        return self.is_approx(other, prec)

    def isIdentity(self, prec: float = 1e-12) -> bool:
        return self.is_identity(prec)

    def normalized(self) -> "SE3":
        return self.copy().normalize()

    @property
    def np(self) -> np.ndarray:
        """The ``(4, 4)`` homogeneous matrix (Pinocchio's ``.np``)."""
        return self.homogeneous

    def toHomogeneousMatrix(self) -> np.ndarray:
        return self.homogeneous

    def toActionMatrix(self) -> np.ndarray:
        return self.action

    def toActionMatrixInverse(self) -> np.ndarray:
        return self.action_inverse

    def toDualActionMatrix(self) -> np.ndarray:
        return self.dual_action

    @property
    def dualAction(self) -> np.ndarray:
        return self.dual_action

    @property
    def actionInverse(self) -> np.ndarray:
        return self.action_inverse

    def __array__(self, dtype=None, copy=None):
        H = self.homogeneous
        return H if dtype is None else H.astype(dtype)

    def __str__(self) -> str:
        return f"  R =\n{self.rotation}\n  p = {self.translation}\n"

    def __reduce__(self):
        return (SE3, (self.rotation.copy(), self.translation.copy()))


# ------------------------------------------------------------------------------------------------------ Motion, Force
class _PinSpatialVector:
    """Pinocchio's constructors and setters of ``Motion`` and ``Force`` (mixed into the rbda classes)."""

    __slots__ = ()

    def __init__(self, *args):
        if len(args) == 1 and isinstance(args[0], _s.motion._SpatialVector):
            args = (args[0].vector,)
        args = tuple(vector(a) for a in args)
        super().__init__(*args)

    @classmethod
    def Random(cls):
        return cls(_rng.uniform(-1.0, 1.0, 6))

    def setZero(self):
        self.vector[...] = 0.0
        return self

    def setRandom(self):
        self.vector[...] = _rng.uniform(-1.0, 1.0, 6)
        return self

    vector = _stored(_s.motion._SpatialVector.vector, (6,), "vector")

    @property
    def linear(self) -> np.ndarray:
        return self.vector[:3]

    @linear.setter
    def linear(self, value) -> None:
        _assign(self.vector[:3], value, "linear")

    @property
    def angular(self) -> np.ndarray:
        return self.vector[3:]

    @angular.setter
    def angular(self, value) -> None:
        _assign(self.vector[3:], value, "angular")

    def isApprox(self, other, prec: float = 1e-12) -> bool:
        return self.is_approx(other, prec)

    def isZero(self, prec: float = 1e-12) -> bool:
        return bool(np.linalg.norm(self.vector) <= prec)

    def se3Action(self, M):
        return to_pin(M.act(self))

    def se3ActionInverse(self, M):
        return to_pin(M.act_inv(self))

    def __add__(self, other):
        return to_pin(super().__add__(other))

    def __sub__(self, other):
        return to_pin(super().__sub__(other))

    def __neg__(self):
        return to_pin(super().__neg__())

    def __ne__(self, other) -> bool:
        return not self == other

    def __str__(self) -> str:
        return f"  {self._linear_name} = {self.linear}\n  {self._angular_name} = {self.angular}\n"

    def __reduce__(self):
        return (type(self), (self.vector.copy(),))


@register
class Motion(_PinSpatialVector, _s.Motion):
    """Pinocchio's ``Motion``: ``Motion()`` zero, ``Motion(vector6)``, ``Motion(linear, angular)``; ``m ^ x`` is the
    spatial cross product with a Motion or a Force."""

    __slots__ = ()
    _linear_name, _angular_name = "v", "w"

    @property
    def np(self) -> np.ndarray:
        return self.vector

    def cross(self, other):
        return to_pin(super().cross(other))

    def __xor__(self, other):
        if not isinstance(other, (_s.Motion, _s.Force)):
            raise TypeError(f"Motion ^ x: expected a Motion or a Force, got {type(other).__name__}")
        return self.cross(other)

    @property
    def homogeneous(self) -> np.ndarray:
        """The ``(4, 4)`` matrix of the twist in se(3): ``[[w_x, v], [0, 0]]``."""
        H = np.zeros((4, 4))
        H[:3, :3], H[:3, 3] = _s.skew(self.angular), self.linear
        return H

    def toActionMatrix(self) -> np.ndarray:
        return self.action

    def toDualActionMatrix(self) -> np.ndarray:
        return self.dual_action


@register
class Force(_PinSpatialVector, _s.Force):
    """Pinocchio's ``Force``: ``Force()`` zero, ``Force(vector6)``, ``Force(linear, angular)``."""

    __slots__ = ()
    _linear_name, _angular_name = "f", "tau"

    @property
    def np(self) -> np.ndarray:
        return self.vector


# ------------------------------------------------------------------------------------------------------ Inertia
@register
class Inertia(_s.Inertia):
    """Pinocchio's ``Inertia``: ``Inertia(mass, lever, inertia)`` (rotational inertia about the CoM), ``Inertia(Y)``
    a copy; ``Y * m`` is the momentum of a Motion."""

    __slots__ = ()

    def __init__(self, *args):
        if len(args) == 1 and isinstance(args[0], _s.Inertia):
            args = (args[0].mass, args[0].lever, args[0].inertia)
        mass, lever, inertia = args
        super().__init__(mass, vector(lever), inertia)

    @classmethod
    def Random(cls) -> "Inertia":
        return to_pin(_s.Inertia.Random(_rng))

    def setZero(self) -> "Inertia":
        self.mass, self.lever, self.inertia = 0.0, np.zeros(3), np.zeros((3, 3))
        return self

    def setIdentity(self) -> "Inertia":
        self.mass, self.lever, self.inertia = 1.0, np.zeros(3), np.eye(3)
        return self

    def setRandom(self) -> "Inertia":
        Y = _s.Inertia.Random(_rng)
        self.mass, self.lever, self.inertia = Y.mass, Y.lever, Y.inertia
        return self

    lever = _stored(_s.Inertia.lever, (3,), "lever")

    def __setattr__(self, name, value) -> None:
        super().__setattr__(name, value)
        edited(self)

    @property
    def np(self) -> np.ndarray:
        return self.matrix()

    def __mul__(self, motion):
        return to_pin(super().__mul__(motion))

    def __add__(self, other):
        return to_pin(super().__add__(other))

    def vxiv(self, motion):
        return to_pin(super().vxiv(motion))

    def toDynamicParameters(self) -> np.ndarray:
        return self.to_dynamic_parameters()

    @classmethod
    def FromDynamicParameters(cls, params) -> "Inertia":
        return to_pin(_s.Inertia.FromDynamicParameters(vector(params)))

    def toPseudoInertia(self) -> "PseudoInertia":
        return PseudoInertia.FromInertia(self)

    @classmethod
    def FromPseudoInertia(cls, pseudo) -> "Inertia":
        return to_pin(_s.Inertia.FromPseudoInertia(np.asarray(pseudo)))

    @classmethod
    def FromLogCholeskyParameters(cls, params) -> "Inertia":
        theta = params.parameters if isinstance(params, LogCholeskyParameters) else vector(params)
        return to_pin(_s.Inertia.FromLogCholeskyParameters(theta))

    def toLogCholeskyParameters(self) -> "LogCholeskyParameters":
        return LogCholeskyParameters(self.to_log_cholesky_parameters())

    def isApprox(self, other, prec: float = 1e-12) -> bool:
        return self.is_approx(other, prec)

    def isZero(self, prec: float = 1e-12) -> bool:
        return self.is_zero(prec)

    def se3Action(self, M) -> "Inertia":
        return to_pin(M.act(self))

    def se3ActionInverse(self, M) -> "Inertia":
        return to_pin(M.act_inv(self))

    def __ne__(self, other) -> bool:
        return not self == other

    def __array__(self, dtype=None, copy=None):
        Y = self.matrix()
        return Y if dtype is None else Y.astype(dtype)

    def __str__(self) -> str:
        return f"  m = {self.mass}\n  c = {self.lever}\n  I = \n{self.inertia}\n"

    def __reduce__(self):
        return (Inertia, (self.mass, self.lever.copy(), self.inertia.copy()))


def _dynamic_parameters_of_pseudo_inertia(J: np.ndarray) -> np.ndarray:
    """The dynamic parameters ``(m, m c, I_o)`` of a pseudo-inertia ``[[Sigma, h], [h^T, m]]`` (linear in it):
    ``I_o = tr(Sigma) 1 - Sigma``."""
    Io = np.trace(J[:3, :3]) * np.eye(3) - J[:3, :3]
    return np.array([J[3, 3], *J[:3, 3], Io[0, 0], Io[0, 1], Io[1, 1], Io[0, 2], Io[1, 2], Io[2, 2]])


class PseudoInertia:
    """Pinocchio's ``PseudoInertia``: the ``(4, 4)`` matrix ``[[sigma, h], [h^T, mass]]`` of a body, with
    ``sigma = tr(I_o)/2 1 - I_o`` (rbda's :meth:`rbda.Inertia.to_pseudo_inertia`)."""

    def __init__(self, mass=None, h=None, sigma=None):
        if isinstance(mass, PseudoInertia):
            mass, h, sigma = mass.mass, mass.h, mass.sigma
        self.mass = float(mass)
        self.h = _vec3(h, "h").copy()
        self.sigma = _s._validate.as_array(sigma, (3, 3), "sigma").copy()

    @classmethod
    def FromMatrix(cls, J) -> "PseudoInertia":
        J = _s._validate.as_array(J, (4, 4), "J")
        return cls(J[3, 3], J[:3, 3], J[:3, :3])

    @classmethod
    def FromInertia(cls, inertia) -> "PseudoInertia":
        return cls.FromMatrix(inertia.to_pseudo_inertia())

    @classmethod
    def FromDynamicParameters(cls, params) -> "PseudoInertia":
        return cls.FromInertia(_s.Inertia.FromDynamicParameters(vector(params)))

    def toMatrix(self) -> np.ndarray:
        J = np.empty((4, 4))
        J[:3, :3], J[:3, 3], J[3, :3], J[3, 3] = self.sigma, self.h, self.h, self.mass
        return J

    def toDynamicParameters(self) -> np.ndarray:
        return _dynamic_parameters_of_pseudo_inertia(self.toMatrix())

    def toInertia(self) -> Inertia:
        return to_pin(_s.Inertia.FromPseudoInertia(self.toMatrix()))

    def __array__(self, dtype=None, copy=None):
        return self.toMatrix() if dtype is None else self.toMatrix().astype(dtype)


class LogCholeskyParameters:
    """Pinocchio's ``LogCholeskyParameters``: ``(alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3)``, the parameters
    of the pseudo-inertia ``U U^T`` (rbda's :meth:`rbda.Inertia.FromLogCholeskyParameters`), always physically
    consistent."""

    def __init__(self, parameters):
        self.parameters = _s._validate.as_array(vector(parameters), (10,), "parameters").copy()

    def _factor(self) -> np.ndarray:
        alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3 = self.parameters
        return np.exp(alpha) * np.array([[np.exp(d1), s12, s13, t1], [0.0, np.exp(d2), s23, t2],
                                         [0.0, 0.0, np.exp(d3), t3], [0.0, 0.0, 0.0, 1.0]])

    def toInertia(self) -> Inertia:
        return Inertia.FromLogCholeskyParameters(self)

    def toPseudoInertia(self) -> PseudoInertia:
        U = self._factor()
        return PseudoInertia.FromMatrix(U @ U.T)

    def toDynamicParameters(self) -> np.ndarray:
        return self.toPseudoInertia().toDynamicParameters()

    def calculateJacobian(self) -> np.ndarray:
        """``(10, 10)`` derivative of :meth:`toDynamicParameters` with respect to the parameters: the pseudo-inertia
        ``J = U U^T`` varies as ``dU U^T + U dU^T``, and the dynamic parameters are linear in ``J``."""
        U = self._factor()
        a = np.exp(self.parameters[0])
        e = np.exp(self.parameters[1:4])
        cells = [None, (0, 0), (1, 1), (2, 2), (0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3)]
        out = np.empty((10, 10))
        for k in range(10):
            if k == 0:
                dU = U
            else:
                dU = np.zeros((4, 4))
                dU[cells[k]] = a * (e[k - 1] if k <= 3 else 1.0)
            out[:, k] = _dynamic_parameters_of_pseudo_inertia(dU @ U.T + U @ dU.T)
        return out

    def __array__(self, dtype=None, copy=None):
        return self.parameters.copy() if dtype is None else self.parameters.astype(dtype)


class Symmetric3:
    """Pinocchio's ``Symmetric3``: a symmetric ``(3, 3)`` matrix stored as ``data = (xx, xy, yy, xz, yz, zz)``."""

    _INDEX = ((0, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2))

    def __init__(self, data=None):
        if isinstance(data, Symmetric3):
            data = data.data
        elif data is not None and np.shape(data) == (3, 3):
            data = [np.asarray(data)[i] for i in self._INDEX]
        self.data = np.zeros(6) if data is None else _s._validate.as_array(vector(data), (6,), "data").copy()

    @classmethod
    def Zero(cls) -> "Symmetric3":
        return cls()

    @classmethod
    def Identity(cls) -> "Symmetric3":
        return cls(np.eye(3))

    @classmethod
    def Random(cls) -> "Symmetric3":
        return cls().setRandom()

    def setZero(self) -> "Symmetric3":
        self.data[...] = 0.0
        return self

    def setIdentity(self) -> "Symmetric3":
        self.data[...] = Symmetric3(np.eye(3)).data
        return self

    def setRandom(self) -> "Symmetric3":
        self.data[...] = _rng.uniform(-1.0, 1.0, 6)
        return self

    def setDiagonal(self, diagonal) -> "Symmetric3":
        self.data[[0, 2, 5]] = _vec3(diagonal, "diagonal")
        return self

    def matrix(self) -> np.ndarray:
        S = np.empty((3, 3))
        for value, (i, j) in zip(self.data, self._INDEX):
            S[i, j] = S[j, i] = value
        return S

    def __array__(self, dtype=None, copy=None):
        return self.matrix() if dtype is None else self.matrix().astype(dtype)


# ------------------------------------------------------------------------------------------------------ rotations
class Quaternion:
    """Eigen's ``Quaternion`` as Pinocchio's Python API has it: ``Quaternion(w, x, y, z)`` (scalar *first*, as
    Eigen's constructor), ``Quaternion(coeffs)`` from ``(x, y, z, w)`` (scalar *last*, Eigen's storage and
    rbda's), ``Quaternion(R)`` from a rotation matrix, ``Quaternion(AngleAxis)``. ``coeffs()`` is ``(x, y, z, w)``."""

    def __init__(self, *args):
        if len(args) == 4:
            w, x, y, z = (float(a) for a in args)
            self._q = np.array([x, y, z, w])
        elif len(args) == 1 and isinstance(args[0], Quaternion):
            self._q = args[0]._q.copy()
        elif len(args) == 1 and isinstance(args[0], _s.AngleAxis):
            self._q = _s.quat_exp3(args[0].angle * args[0].axis)
        elif len(args) == 1 and np.shape(args[0]) == (3, 3):
            self._q = _s.matrix_to_quat(args[0])
        elif len(args) == 1:
            self._q = _s._validate.as_array(vector(args[0]), (4,), "coeffs").copy()
        else:
            raise TypeError("Quaternion: expected (w, x, y, z), (coeffs (x, y, z, w)), (R) or (AngleAxis)")

    @classmethod
    def Identity(cls) -> "Quaternion":
        return cls(1.0, 0.0, 0.0, 0.0)

    @classmethod
    def FromTwoVectors(cls, a, b) -> "Quaternion":
        """The rotation of least angle taking direction ``a`` to direction ``b``."""
        a, b = _vec3(a, "a"), _vec3(b, "b")
        a, b = a / np.linalg.norm(a), b / np.linalg.norm(b)
        axis, c = np.cross(a, b), float(a @ b)
        if np.linalg.norm(axis) < 1e-12:  # parallel or opposite
            if c > 0:
                return cls.Identity()
            axis = np.cross(a, np.eye(3)[np.argmin(np.abs(a))])
            return cls(_s.AngleAxis(np.pi, axis))
        return cls(_s.AngleAxis(np.arctan2(np.linalg.norm(axis), c), axis))

    x = property(lambda self: float(self._q[0]))
    y = property(lambda self: float(self._q[1]))
    z = property(lambda self: float(self._q[2]))
    w = property(lambda self: float(self._q[3]))

    def coeffs(self) -> np.ndarray:
        return self._q.copy()

    def vec(self) -> np.ndarray:
        return self._q[:3].copy()

    def norm(self) -> float:
        return float(np.linalg.norm(self._q))

    def squaredNorm(self) -> float:
        return float(self._q @ self._q)

    def normalize(self) -> "Quaternion":
        self._q /= np.linalg.norm(self._q)
        return self

    def normalized(self) -> "Quaternion":
        return Quaternion(self._q / np.linalg.norm(self._q))

    def conjugate(self) -> "Quaternion":
        return Quaternion(_s.quat_conjugate(self._q))

    def inverse(self) -> "Quaternion":
        return Quaternion(_s.quat_conjugate(self._q) / self.squaredNorm())

    def dot(self, other: "Quaternion") -> float:
        return float(self._q @ other._q)

    def matrix(self) -> np.ndarray:
        """The rotation matrix (of the normalised quaternion)."""
        return _s.quat_to_matrix(self._q / np.linalg.norm(self._q))

    toRotationMatrix = matrix

    def angularDistance(self, other: "Quaternion") -> float:
        return float(np.linalg.norm(_s.quat_log3(_s.quat_multiply(_s.quat_conjugate(self.normalized()._q),
                                                                   other.normalized()._q))))

    def slerp(self, t: float, other: "Quaternion") -> "Quaternion":
        return Quaternion(_s.quat_slerp(self.normalized()._q, other.normalized()._q, t))

    def isApprox(self, other: "Quaternion", prec: float = 1e-12) -> bool:
        d = np.linalg.norm(self._q - other._q)
        return bool(d <= prec * min(self.norm(), other.norm()))

    def setIdentity(self) -> "Quaternion":
        self._q[...] = (0.0, 0.0, 0.0, 1.0)
        return self

    def __mul__(self, other):
        if isinstance(other, Quaternion):
            return Quaternion(_s.quat_multiply(self._q, other._q))
        return self.matrix() @ _vec3(other, "vector")

    def __eq__(self, other) -> bool:
        return isinstance(other, Quaternion) and bool(np.array_equal(self._q, other._q))

    __hash__ = None

    def __repr__(self) -> str:
        x, y, z, w = self._q
        return f"Quaternion(w={w}, x={x}, y={y}, z={z})"

    def __reduce__(self):
        return (Quaternion, (self._q.copy(),))


class AngleAxis(_s.AngleAxis):
    """Eigen's ``AngleAxis``: ``AngleAxis(angle, axis)``, ``AngleAxis(R)``, ``AngleAxis(Quaternion)``."""

    __slots__ = ()

    def __init__(self, *args):
        if len(args) == 1:
            R = args[0].matrix() if isinstance(args[0], Quaternion) else args[0]
            other = _s.AngleAxis.from_matrix(R)
            args = (other.angle, other.axis)
        super().__init__(args[0], vector(args[1]))

    def toRotationMatrix(self) -> np.ndarray:
        return self.matrix()

    def inverse(self) -> "AngleAxis":
        return AngleAxis(-self.angle, self.axis)

    def __mul__(self, other):
        if isinstance(other, _s.AngleAxis):
            return Quaternion(self.matrix() @ other.matrix())
        return self.matrix() @ _vec3(other, "vector")


# ------------------------------------------------------------------------------------------------------ functions
def _rotation(x) -> np.ndarray:
    """A rotation given as a matrix, a :class:`Quaternion` (or Eigen's, through eigenpy) or coefficients
    ``(x, y, z, w)``."""
    if hasattr(x, "toRotationMatrix"):
        return np.asarray(x.toRotationMatrix())
    if np.shape(x) in ((4,), (4, 1)):
        return _s.quat_to_matrix(vector(np.asarray(x, dtype=np.float64)))
    return x


def skew(u) -> np.ndarray:
    return _s.skew(vector(u))


def unSkew(S) -> np.ndarray:
    return _s.unskew(S)


def skewSquare(u, v=None) -> np.ndarray:
    """``skew(u) @ skew(v)`` (``v = u`` when omitted)."""
    return _s.skew_square(vector(u), vector(u if v is None else v))


def exp3(w) -> np.ndarray:
    return _s.exp3(vector(w))


def exp3_quat(w) -> np.ndarray:
    """The unit quaternion ``(x, y, z, w)`` of the rotation vector ``w``."""
    return _s.quat_exp3(vector(w))


def log3(R) -> np.ndarray:
    """The rotation vector of a rotation matrix, a quaternion or its coefficients ``(x, y, z, w)``."""
    return _s.log3(_rotation(R))


def Jexp3(w) -> np.ndarray:
    return _s.Jexp3(vector(w))


def Jlog3(R) -> np.ndarray:
    return _s.Jlog3(_rotation(R))


def exp6(nu) -> SE3:
    return to_pin(_s.exp6(vector(getattr(nu, "vector", nu))))


def log6(M) -> Motion:
    return to_pin(_s.log6(M))


def log6_quat(xyzquat) -> Motion:
    """``log6`` of the placement ``[x, y, z, qx, qy, qz, qw]``."""
    return log6(XYZQUATToSE3(xyzquat))


def Jexp6(nu) -> np.ndarray:
    return _s.Jexp6(vector(getattr(nu, "vector", nu)))


def Jlog6(M) -> np.ndarray:
    return _s.Jlog6(M)


def SE3ToXYZQUAT(M) -> np.ndarray:
    return _s.se3_to_xyzquat(M)


se3ToXYZQUAT = SE3ToXYZQUAT


def SE3ToXYZQUATtuple(M) -> tuple:
    return tuple(float(x) for x in _s.se3_to_xyzquat(M))


def XYZQUATToSE3(xyzquat) -> SE3:
    x = np.asarray(vector(np.asarray(xyzquat, dtype=np.float64)))
    if x.shape != (7,):
        raise ValueError(f"xyzquat: expected 7 numbers [x, y, z, qx, qy, qz, qw], got shape {x.shape}")
    return to_pin(_s.xyzquat_to_se3(x))


def classicAcceleration(velocity, acceleration, placement=None) -> np.ndarray:
    """The classical acceleration ``a_lin + w x v`` of the frame (of the frame at ``placement`` in it)."""
    return _s.classic_acceleration(velocity, acceleration, placement)


__all__ = [
    "SE3", "Motion", "Force", "Inertia", "PseudoInertia", "LogCholeskyParameters", "Symmetric3", "Quaternion",
    "AngleAxis", "ReferenceFrame", "skew", "unSkew", "skewSquare", "exp3", "exp3_quat", "log3", "Jexp3", "Jlog3",
    "exp6", "log6", "log6_quat", "Jexp6", "Jlog6", "SE3ToXYZQUAT", "se3ToXYZQUAT", "SE3ToXYZQUATtuple",
    "XYZQUATToSE3", "classicAcceleration",
]
