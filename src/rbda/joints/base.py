"""The joint model contract (Pinocchio's SE(3) cheat sheet "Joint") and the base class every joint type derives from.

A joint between its parent's input frame and its child frame is described by

* ``calc(q, v) -> (M, S, v_J, c_J)``: the placement ``M(q)`` of the child frame in the joint input frame, the
  motion subspace ``S(q)`` (6 x nv, in the child frame), the joint velocity ``v_J = S v`` and the bias
  ``c_J = dS/dt v``;
* its configuration Lie group: ``integrate(q, v)`` (``q (+) v``), ``difference(q0, q1)`` (``q1 (-) q0``),
  ``interpolate``, ``neutral``, ``random``, ``normalize``.

Each joint type lives in its own module with compiled (numba) ``calc`` and Lie-group functions over flat arrays;
``dispatch.py`` selects them by integer type code inside the kernels, and :class:`JointModel` calls the same
compiled functions from Python, so one piece of code serves both.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np
from .._native.jit import njit

from ..spatial import SE3, Motion
from ..spatial._validate import as_array

NPARAMS = 8  # float parameters per joint: axis (3), second axis or pitch, ...


class JointType(IntEnum):
    """Integer codes of the joint types, used by the compiled kernels."""

    REVOLUTE = 1
    REVOLUTE_UNBOUNDED = 2
    PRISMATIC = 3
    HELICAL = 4
    UNIVERSAL = 5
    SPHERICAL = 6
    SPHERICAL_ZYX = 7
    TRANSLATION = 8
    PLANAR = 9
    FREE_FLYER = 10
    COMPOSITE = 11
    MIMIC = 12  # never reaches a kernel: the packed model gives a mimic joint its own joint's type (kernels/mimic.py)


class JointModel:
    """Base class of the joint models: type code, sizes ``nq``/``nv`` and the float parameters ``params``."""

    type: JointType
    nq: int
    nv: int

    def __init__(self, params=None):
        """``params``: the joint's ``NPARAMS`` float parameters (axis, pitch, ...), zero when omitted; the joint
        classes fill them from their own arguments."""
        self.params = np.zeros(NPARAMS) if params is None else np.asarray(params, dtype=np.float64)

    # ---------------------------------------------------------------------------------------- joint model
    def calc(self, q, v=None):
        """``(M: SE3, S: (6, nv), v_J: Motion, c_J: Motion)`` at configuration ``q: (nq,)``, velocity ``v: (nv,)``."""
        from .dispatch import joint_calc

        q = self._check_q(q)
        v = np.zeros(self.nv) if v is None else as_array(v, (self.nv,), "v")
        M, S, vJ, cJ = np.zeros((3, 4)), np.zeros((self.nv, 6)), np.zeros(6), np.zeros(6)
        joint_calc(int(self.type), self.params, q, v, M, S, vJ, cJ)
        return SE3(M[:, :3], M[:, 3]), S.T.copy(), Motion(vJ), Motion(cJ)

    def motion_subspace_derivative(self, q, v) -> np.ndarray:
        """``dS/dt`` ``(6, nv)`` at configuration ``q: (nq,)`` along velocity ``v: (nv,)`` (zero unless ``S``
        depends on ``q``); ``c_J = (dS/dt) v``."""
        return np.zeros((6, self.nv))

    # ---------------------------------------------------------------------------------------- Lie group
    def integrate(self, q, v) -> np.ndarray:
        """``q (+) v``: the configuration reached from ``q: (nq,)`` after a unit time at velocity ``v: (nv,)``."""
        from .dispatch import joint_integrate

        out = np.empty(self.nq)
        joint_integrate(int(self.type), self._check_q(q), as_array(v, (self.nv,), "v"), out)
        return out

    def difference(self, q0, q1) -> np.ndarray:
        """``q1 (-) q0``: the velocity ``(nv,)`` that integrates ``q0`` into ``q1`` in unit time."""
        from .dispatch import joint_difference

        out = np.empty(self.nv)
        joint_difference(int(self.type), self._check_q(q0, "q0"), self._check_q(q1, "q1"), out)
        return out

    def d_integrate(self, q, v) -> tuple[np.ndarray, np.ndarray]:
        """``(J_q, J_v)`` ``(nv, nv)``: derivatives of ``integrate(q, v)`` (``q: (nq,)``, ``v: (nv,)``) with respect
        to ``q`` and to ``v``, from
        the tangent space at ``q`` to the one at the result (Pinocchio's ``dIntegrate`` ARG0, ARG1). Identities
        for a vector space; :class:`SE3SubgroupJoint` overrides them."""
        self._check_q(q)
        as_array(v, (self.nv,), "v")
        return np.eye(self.nv), np.eye(self.nv)

    def d_difference(self, q0, q1) -> tuple[np.ndarray, np.ndarray]:
        """``(J_q0, J_q1)`` ``(nv, nv)``: derivatives of ``difference(q0, q1)`` (``(nq,)`` each) with respect to
        ``q0`` and ``q1``
        in their tangent spaces (Pinocchio's ``dDifference`` ARG0, ARG1)."""
        self._check_q(q0, "q0")
        self._check_q(q1, "q1")
        return -np.eye(self.nv), np.eye(self.nv)

    def interpolate(self, q0, q1, t: float) -> np.ndarray:
        """``q0 (+) t (q1 (-) q0)``; ``t = 0`` gives ``q0``, ``t = 1`` gives ``q1``."""
        return self.integrate(q0, float(t) * self.difference(q0, q1))

    def neutral(self) -> np.ndarray:
        """The neutral configuration ``(nq,)`` (identity element)."""
        from .dispatch import joint_neutral

        out = np.empty(self.nq)
        joint_neutral(int(self.type), out)
        return out

    def normalize(self, q) -> np.ndarray:
        """``q`` projected back onto the configuration manifold (unit quaternions, unit (cos, sin) pairs)."""
        from .dispatch import joint_normalize

        out = as_array(q, (self.nq,), "q").copy()
        joint_normalize(int(self.type), out)
        return out

    def is_normalized(self, q, prec: float = 1e-12) -> bool:
        """Whether ``q`` lies on the configuration manifold to ``prec``."""
        q = as_array(q, (self.nq,), "q")
        return bool(np.all(np.abs(self.normalize(q) - q) <= prec))

    def random(self, rng: np.random.Generator, lower, upper) -> np.ndarray:
        """A random configuration ``(nq,)`` drawn with the generator ``rng``; vector-space components are uniform in
        ``[lower, upper]`` (``(nq,)`` each), rotations uniform on SO(2) or SO(3)."""
        return rng.uniform(lower, upper)

    # ---------------------------------------------------------------------------------------- helpers
    def _check_q(self, q, name: str = "q") -> np.ndarray:
        return as_array(q, (self.nq,), name)

    def shortname(self) -> str:
        """The joint type's name, e.g. ``"JointModelRX"`` (Pinocchio's ``shortname``)."""
        return type(self).__name__

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and bool(np.array_equal(self.params, other.params))

    def __hash__(self):
        return hash((type(self).__name__, self.params.tobytes()))

    def __repr__(self) -> str:
        return f"{self.shortname()}()"


class SE3SubgroupJoint(JointModel):
    """A joint whose configuration space is a subgroup of SE(3) (spherical, planar, free-flyer): ``M(q)`` is the
    group element and the constant ``S`` its tangent basis, ``integrate(q, v) = M(q) exp(S v)`` and
    ``difference(q0, q1) = S^T log(M(q0)^-1 M(q1))``. The subgroup's algebra is invariant under ``ad`` and ``Ad``
    of its elements, so the SE(3) Jacobians restricted to it are the subgroup's own:

        d/dq integrate = Ad(exp(S v))^-1,   d/dv integrate = Jexp(S v),
        d/dq1 difference = Jlog(M),        d/dq0 difference = -Jlog(M) Ad(M)^-1,   M = M(q0)^-1 M(q1).
    """

    def d_integrate(self, q, v):
        from ..spatial import Jexp6, exp6

        S = self.calc(q)[1]
        nu = S @ as_array(v, (self.nv,), "v")
        return S.T @ exp6(nu).action_inverse @ S, S.T @ Jexp6(nu) @ S

    def d_difference(self, q0, q1):
        from ..spatial import Jlog6

        M0, S = self.calc(self._check_q(q0, "q0"))[:2]
        M = M0.inverse() * self.calc(self._check_q(q1, "q1"))[0]
        Jlog = Jlog6(M)
        return -S.T @ Jlog @ M.action_inverse @ S, S.T @ Jlog @ S


class AxisJoint(JointModel):
    """A one-axis joint (revolute, prismatic, helical) with a unit ``axis``; X/Y/Z subclasses fix the axis."""

    _fixed_axis: tuple | None = None

    def __init__(self, axis=None, pitch: float = 0.0):
        """``axis: (3,)`` the joint's axis in its frame, normalised (the X/Y/Z classes fix it and take none);
        ``pitch``: the helical joint's translation per radian (metres), unused by the other types.

        Raises ``TypeError`` for an axis given to an X/Y/Z class or missing elsewhere, ``ValueError`` for a zero
        or non-finite axis."""
        if self._fixed_axis is not None:
            if axis is not None:
                raise TypeError(f"{type(self).__name__}() takes no axis: it is fixed to {self._fixed_axis}")
            axis = self._fixed_axis
        if axis is None:
            raise TypeError(f"{type(self).__name__} needs an axis")
        axis = as_array(axis, (3,), "axis")
        n = float(np.linalg.norm(axis))
        if n < 1e-12:
            raise ValueError("axis: must be a non-zero vector")
        params = np.zeros(NPARAMS)
        params[:3] = axis / n
        params[3] = float(pitch)
        super().__init__(params)

    @property
    def axis(self) -> np.ndarray:
        return self.params[:3].copy()

    def __repr__(self) -> str:
        if self._fixed_axis is not None:
            return f"{type(self).__name__}()"
        return f"{type(self).__name__}(axis={self.axis.tolist()})"


def axis_joint_family(base: type, prefix: str, module: str) -> tuple[type, type, type]:
    """The subclasses ``{prefix}X``, ``{prefix}Y``, ``{prefix}Z`` of ``base`` with fixed axes, defined in the module
    named ``module``."""
    family = []
    for name, axis in (("X", (1.0, 0.0, 0.0)), ("Y", (0.0, 1.0, 0.0)), ("Z", (0.0, 0.0, 1.0))):
        cls = type(f"{prefix}{name}", (base,), {"_fixed_axis": axis, "__module__": module})
        cls.__doc__ = f"{base.__name__} about the {name} axis."
        family.append(cls)
    return tuple(family)


# ------------------------------------------------------------------------------------------------- vector spaces
@njit(cache=True)
def vector_integrate(q, v, out):
    """``out = q + v`` (joints whose configuration space is a vector space)."""
    for k in range(q.shape[0]):
        out[k] = q[k] + v[k]


@njit(cache=True)
def vector_difference(q0, q1, out):
    """``out = q1 - q0``."""
    for k in range(q0.shape[0]):
        out[k] = q1[k] - q0[k]


@njit(cache=True)
def zero_fill(out):
    for k in range(out.shape[0]):
        out[k] = 0.0


@njit(cache=True, forceinline=True)
def one_dof_velocity(S, v, vJ, cJ):
    """``vJ = S v``, ``cJ = 0`` for a joint of one dof whose subspace ``S`` (1, 6) is constant in its frame."""
    for k in range(6):
        vJ[k] = S[0, k] * v[0]
        cJ[k] = 0.0


@njit(cache=True, forceinline=True)
def angular_row(S, row, x, y, z):
    """Set row ``row`` of ``S`` (nv, 6) to the pure rotation ``[0, 0, 0, x, y, z]``."""
    S[row, 0] = 0.0
    S[row, 1] = 0.0
    S[row, 2] = 0.0
    S[row, 3] = x
    S[row, 4] = y
    S[row, 5] = z
