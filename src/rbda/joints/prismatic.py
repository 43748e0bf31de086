"""Prismatic joint along a unit axis ``a``: ``M(q) = (1, a q)``, ``S = [a; 0]``, ``c_J = 0``."""

from __future__ import annotations

from .._native.jit import njit

from .base import AxisJoint, JointType, axis_joint_family, one_dof_velocity


@njit(cache=True, forceinline=True)
def calc(params, q, v, M, S, vJ, cJ):
    for r in range(3):
        for c in range(3):
            M[r, c] = 1.0 if r == c else 0.0
        M[r, 3] = params[r] * q[0]
        S[0, r] = params[r]
        S[0, 3 + r] = 0.0
    one_dof_velocity(S, v, vJ, cJ)


class JointModelPrismaticUnaligned(AxisJoint):
    """Prismatic joint along an arbitrary unit axis; ``nq = nv = 1``."""

    type = JointType.PRISMATIC
    nq = nv = 1


JointModelPX, JointModelPY, JointModelPZ = axis_joint_family(JointModelPrismaticUnaligned, "JointModelP", __name__)
