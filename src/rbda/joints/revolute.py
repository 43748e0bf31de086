"""Revolute joint about a unit axis ``a``: ``M(q) = (exp3(a q), 0)``, ``S = [0; a]``, ``c_J = 0``."""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..spatial.compiled import axis_rotation, placed_axis_rotation
from .base import AxisJoint, JointType, angular_row, axis_joint_family, one_dof_velocity


@njit(cache=True, forceinline=True)
def calc(params, q, v, M, S, vJ, cJ):
    axis_rotation(params[0:3], np.cos(q[0]), np.sin(q[0]), M[:, :3])
    M[0, 3] = M[1, 3] = M[2, 3] = 0.0
    subspace(params, v, S, vJ, cJ)


@njit(cache=True, forceinline=True)
def calc_placed(params, q, v, placement, liMi, S, vJ, cJ):
    """:func:`calc` with the joint placement applied: ``liMi = placement * M(q)`` in closed form, without forming
    ``M(q)`` (the kernels' per-joint step: no product with a zero translation)."""
    placed_axis_rotation(placement, params, np.cos(q[0]), np.sin(q[0]), liMi)
    subspace(params, v, S, vJ, cJ)


@njit(cache=True, forceinline=True)
def subspace(params, v, S, vJ, cJ):
    """``S = [0; a]``, ``vJ = S v``, ``cJ = 0``."""
    angular_row(S, 0, params[0], params[1], params[2])
    one_dof_velocity(S, v, vJ, cJ)


class JointModelRevoluteUnaligned(AxisJoint):
    """Revolute joint about an arbitrary unit axis (normalised on construction); ``nq = nv = 1``."""

    type = JointType.REVOLUTE
    nq = nv = 1


JointModelRX, JointModelRY, JointModelRZ = axis_joint_family(JointModelRevoluteUnaligned, "JointModelR", __name__)
