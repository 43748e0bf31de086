"""Prismatic joint along a unit axis ``a``: ``M(q) = (1, a q)``, ``S = [a; 0]``, ``c_J = 0``."""

from __future__ import annotations

from .._native.jit import njit

from .base import AxisJoint, JointType, axis_joint_family


@njit(cache=True, forceinline=True)
def calc(params, q, v, M, S, vJ, cJ):
    for r in range(3):
        for c in range(3):
            M[r, c] = 1.0 if r == c else 0.0
        M[r, 3] = params[r] * q[0]
        S[0, r] = params[r]
        S[0, 3 + r] = 0.0
    for k in range(6):
        vJ[k] = S[0, k] * v[0]
        cJ[k] = 0.0


class JointModelPrismaticUnaligned(AxisJoint):
    """Prismatic joint along an arbitrary unit axis; ``nq = nv = 1``."""

    type = JointType.PRISMATIC
    nq = nv = 1


axis_joint_family(JointModelPrismaticUnaligned, "JointModelP", globals())
JointModelPX, JointModelPY, JointModelPZ = globals()["JointModelPX"], globals()["JointModelPY"], globals()["JointModelPZ"]
