"""Translation joint (three prismatic DoF): ``M(q) = (1, q)``, ``S = [1; 0]``, ``c_J = 0``."""

from __future__ import annotations

from .._native.jit import njit

from .base import JointModel, JointType


@njit(cache=True)
def calc(params, q, v, M, S, vJ, cJ):
    for r in range(3):
        for c in range(3):
            M[r, c] = 1.0 if r == c else 0.0
            S[r, c] = 1.0 if r == c else 0.0
            S[r, 3 + c] = 0.0
        M[r, 3] = q[r]
        vJ[r] = v[r]
        vJ[3 + r] = cJ[r] = cJ[3 + r] = 0.0


class JointModelTranslation(JointModel):
    """Three-DoF translation joint; ``nq = nv = 3``."""

    type = JointType.TRANSLATION
    nq = nv = 3
