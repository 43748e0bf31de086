"""Compiled dispatch on the joint type code: the kernels call these with the joint's slice of q and v.

An unknown code cannot reach here (the model builder only accepts :class:`JointModel` subclasses); it raises
rather than falling through.
"""

from __future__ import annotations

from .._native.jit import njit

from . import free_flyer, helical, planar, prismatic, revolute, revolute_unbounded, spherical, spherical_zyx
from . import translation, universal
from ..spatial.compiled import quat_normalize
from .base import JointType, vector_difference, vector_integrate

# the codes as plain ints (numba folds module-level ints into the kernels as constants), from the one enum
REVOLUTE, REVOLUTE_UNBOUNDED, PRISMATIC = int(JointType.REVOLUTE), int(JointType.REVOLUTE_UNBOUNDED), int(JointType.PRISMATIC)
HELICAL, UNIVERSAL, SPHERICAL = int(JointType.HELICAL), int(JointType.UNIVERSAL), int(JointType.SPHERICAL)
SPHERICAL_ZYX, TRANSLATION, PLANAR = int(JointType.SPHERICAL_ZYX), int(JointType.TRANSLATION), int(JointType.PLANAR)
FREE_FLYER, COMPOSITE = int(JointType.FREE_FLYER), int(JointType.COMPOSITE)


@njit(cache=True, forceinline=True)
def joint_calc(code, params, q, v, M, S, vJ, cJ):
    """Fill ``M`` (3, 4) ``[R | p]``, ``S`` (nv, 6) (one row per column of S), ``vJ`` and ``cJ`` (6,).

    Revolute and prismatic joints (most joints of most robots) are inlined into the calling kernel (LLVM
    ``alwaysinline``: a call costs more than their closed forms); the other types are one call away."""
    if code == REVOLUTE:
        revolute.calc(params, q, v, M, S, vJ, cJ)
    elif code == PRISMATIC:
        prismatic.calc(params, q, v, M, S, vJ, cJ)
    else:
        other_joint_calc(code, params, q, v, M, S, vJ, cJ)


@njit(cache=True, forceinline=False)  # explicit: numba would otherwise inherit forceinline from joint_calc
def other_joint_calc(code, params, q, v, M, S, vJ, cJ):
    """:func:`joint_calc` for the joint types other than revolute and prismatic."""
    if code == FREE_FLYER:
        free_flyer.calc(params, q, v, M, S, vJ, cJ)
    elif code == REVOLUTE_UNBOUNDED:
        revolute_unbounded.calc(params, q, v, M, S, vJ, cJ)
    elif code == HELICAL:
        helical.calc(params, q, v, M, S, vJ, cJ)
    elif code == SPHERICAL:
        spherical.calc(params, q, v, M, S, vJ, cJ)
    elif code == UNIVERSAL:
        universal.calc(params, q, v, M, S, vJ, cJ)
    elif code == SPHERICAL_ZYX:
        spherical_zyx.calc(params, q, v, M, S, vJ, cJ)
    elif code == TRANSLATION:
        translation.calc(params, q, v, M, S, vJ, cJ)
    elif code == PLANAR:
        planar.calc(params, q, v, M, S, vJ, cJ)
    else:
        raise ValueError("unknown joint type code")


@njit(cache=True)
def joint_integrate(code, q, v, out):
    """``out = q (+) v`` on the joint's configuration manifold."""
    if code == FREE_FLYER:
        free_flyer.integrate(q, v, out)
    elif code == SPHERICAL:
        spherical.integrate(q, v, out)
    elif code == REVOLUTE_UNBOUNDED:
        revolute_unbounded.integrate(q, v, out)
    elif code == PLANAR:
        planar.integrate(q, v, out)
    else:
        vector_integrate(q, v, out)


@njit(cache=True)
def joint_difference(code, q0, q1, out):
    """``out = q1 (-) q0``."""
    if code == FREE_FLYER:
        free_flyer.difference(q0, q1, out)
    elif code == SPHERICAL:
        spherical.difference(q0, q1, out)
    elif code == REVOLUTE_UNBOUNDED:
        revolute_unbounded.difference(q0, q1, out)
    elif code == PLANAR:
        planar.difference(q0, q1, out)
    else:
        vector_difference(q0, q1, out)


@njit(cache=True)
def joint_neutral(code, out):
    """The identity configuration."""
    if code == FREE_FLYER:
        free_flyer.neutral(out)
    elif code == SPHERICAL:
        spherical.neutral(out)
    elif code == REVOLUTE_UNBOUNDED:
        revolute_unbounded.neutral(out)
    elif code == PLANAR:
        planar.neutral(out)
    else:
        for k in range(out.shape[0]):
            out[k] = 0.0


@njit(cache=True)
def joint_normalize(code, q):
    """Project ``q`` (in place) back onto the manifold."""
    if code == FREE_FLYER:
        free_flyer.normalize(q)
    elif code == SPHERICAL:
        quat_normalize(q)
    elif code == REVOLUTE_UNBOUNDED:
        revolute_unbounded.normalize(q)
    elif code == PLANAR:
        planar.normalize(q)


@njit(cache=True)
def joint_normalization_error(code, q):
    """Distance of the unit-norm part of ``q`` from norm 1 (0 for vector-space joints)."""
    if code == FREE_FLYER:
        return abs(q[3] * q[3] + q[4] * q[4] + q[5] * q[5] + q[6] * q[6] - 1.0)
    if code == SPHERICAL:
        return abs(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1.0)
    if code == REVOLUTE_UNBOUNDED:
        return abs(q[0] * q[0] + q[1] * q[1] - 1.0)
    if code == PLANAR:
        return abs(q[2] * q[2] + q[3] * q[3] - 1.0)
    return 0.0
