"""Spherical joint parameterised by Euler angles ``q = [z, y, x]``: ``R = Rz(q0) Ry(q1) Rx(q2)``.

With ``c1, s1 = cos, sin q1`` and ``c2, s2 = cos, sin q2`` the angular motion subspace in the child frame is
``[[-s1, 0, 1], [c1 s2, c2, 0], [c1 c2, -s2, 0]]`` (columns for q0, q1, q2) and ``c_J = dS/dt v``.
The configuration space is R^3.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from .base import JointModel, JointType, angular_row


@njit(cache=True)
def calc(params, q, v, M, S, vJ, cJ):
    c0, s0 = np.cos(q[0]), np.sin(q[0])
    c1, s1 = np.cos(q[1]), np.sin(q[1])
    c2, s2 = np.cos(q[2]), np.sin(q[2])
    M[0, 0], M[0, 1], M[0, 2] = c0 * c1, c0 * s1 * s2 - s0 * c2, c0 * s1 * c2 + s0 * s2
    M[1, 0], M[1, 1], M[1, 2] = s0 * c1, s0 * s1 * s2 + c0 * c2, s0 * s1 * c2 - c0 * s2
    M[2, 0], M[2, 1], M[2, 2] = -s1, c1 * s2, c1 * c2
    M[0, 3] = M[1, 3] = M[2, 3] = 0.0
    angular_row(S, 0, -s1, c1 * s2, c1 * c2)
    angular_row(S, 1, 0.0, c2, -s2)
    angular_row(S, 2, 1.0, 0.0, 0.0)
    for k in range(6):
        vJ[k] = S[0, k] * v[0] + S[1, k] * v[1] + S[2, k] * v[2]
    # c_J = (dS0/dt) v0 + (dS1/dt) v1
    cJ[0] = cJ[1] = cJ[2] = 0.0
    cJ[3] = -c1 * v[1] * v[0]
    cJ[4] = (-s1 * s2 * v[1] + c1 * c2 * v[2]) * v[0] - s2 * v[2] * v[1]
    cJ[5] = (-s1 * c2 * v[1] - c1 * s2 * v[2]) * v[0] - c2 * v[2] * v[1]


class JointModelSphericalZYX(JointModel):
    """Spherical joint with ZYX Euler angles ``q = [z, y, x]``; ``nq = nv = 3``."""

    type = JointType.SPHERICAL_ZYX
    nq = nv = 3

    def motion_subspace_derivative(self, q, v) -> np.ndarray:
        """``dS/dt`` ``(6, 3)`` at ``q: (3,)`` along ``v: (3,)``: the first two columns move, the third is constant."""
        _, q1, q2 = self._check_q(q)
        c1, s1, c2, s2 = np.cos(q1), np.sin(q1), np.cos(q2), np.sin(q2)
        _, dq1, dq2 = np.asarray(v, dtype=np.float64)
        dS = np.zeros((6, 3))
        dS[3:, 0] = [-c1 * dq1, -s1 * s2 * dq1 + c1 * c2 * dq2, -s1 * c2 * dq1 - c1 * s2 * dq2]
        dS[3:, 1] = [0.0, -s2 * dq2, -c2 * dq2]
        return dS
