"""Universal joint: rotation ``q0`` about ``axis1`` then ``q1`` about ``axis2`` (two orthogonal unit axes).

``R = R1(q0) R2(q1)``; in the child frame ``S = [[0, 0], [R2^T a1, a2]]`` and
``c_J = [0; v0 v1 (R2^T a1) x a2]`` (the derivative of ``R2^T a1``).
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..spatial._validate import as_array
from ..spatial.compiled import axis_rotation
from .base import NPARAMS, JointModel, JointType, angular_row


@njit(cache=True)
def calc(params, q, v, M, S, vJ, cJ):
    R1 = np.empty((3, 3))
    R2 = np.empty((3, 3))
    axis_rotation(params[0:3], np.cos(q[0]), np.sin(q[0]), R1)
    axis_rotation(params[3:6], np.cos(q[1]), np.sin(q[1]), R2)
    for r in range(3):
        for c in range(3):
            M[r, c] = R1[r, 0] * R2[0, c] + R1[r, 1] * R2[1, c] + R1[r, 2] * R2[2, c]
        M[r, 3] = 0.0
    # R2^T a1
    b0 = R2[0, 0] * params[0] + R2[1, 0] * params[1] + R2[2, 0] * params[2]
    b1 = R2[0, 1] * params[0] + R2[1, 1] * params[1] + R2[2, 1] * params[2]
    b2 = R2[0, 2] * params[0] + R2[1, 2] * params[1] + R2[2, 2] * params[2]
    angular_row(S, 0, b0, b1, b2)
    angular_row(S, 1, params[3], params[4], params[5])
    for k in range(6):
        vJ[k] = S[0, k] * v[0] + S[1, k] * v[1]
        cJ[k] = 0.0
    a0, a1, a2 = params[3], params[4], params[5]
    vv = v[0] * v[1]
    cJ[3] = vv * (b1 * a2 - b2 * a1)
    cJ[4] = vv * (b2 * a0 - b0 * a2)
    cJ[5] = vv * (b0 * a1 - b1 * a0)


class JointModelUniversal(JointModel):
    """Universal (Cardan) joint about ``axis1`` then ``axis2``, which must be orthogonal; ``nq = nv = 2``."""

    type = JointType.UNIVERSAL
    nq = nv = 2

    def __init__(self, axis1, axis2):
        a1 = as_array(axis1, (3,), "axis1")
        a2 = as_array(axis2, (3,), "axis2")
        a1, a2 = a1 / np.linalg.norm(a1), a2 / np.linalg.norm(a2)
        if abs(a1 @ a2) > 1e-9:
            raise ValueError("axis1, axis2: the axes of a universal joint must be orthogonal")
        params = np.zeros(NPARAMS)
        params[:3], params[3:6] = a1, a2
        super().__init__(params)

    def motion_subspace_derivative(self, q, v) -> np.ndarray:
        """``dS/dt`` ``(6, 2)`` at ``q: (2,)`` along ``v: (2,)``: only the first column moves,
        ``d/dt (R2^T a1) = v1 (R2^T a1) x a2``."""
        q, v = self._check_q(q), as_array(v, (2,), "v")
        a2 = self.params[3:6]
        b = self.calc(q)[1][3:, 0]  # R2^T a1
        dS = np.zeros((6, 2))
        dS[3:, 0] = v[1] * np.cross(b, a2)
        return dS

    def __repr__(self) -> str:
        return f"JointModelUniversal(axis1={self.params[:3].tolist()}, axis2={self.params[3:6].tolist()})"
