"""Free-flyer joint: ``q = [x, y, z, qx, qy, qz, qw]``, ``v = [v_local; w_local]``.

``M = (R(quat), p)``, ``S = 1_6``, ``c_J = 0``. The Lie group is SE(3) acting on the right:
``integrate(q, v) = q * exp6(v)``, ``difference(q0, q1) = log6(q0^-1 q1)``.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..spatial.compiled import jlog_coefficient, one_minus_cos_over_t2, quat_exp, quat_log, quat_mul, quat_normalize
from ..spatial.compiled import quat_rotation, rotation_entries, t_minus_sin_over_t3
from .base import JointType, SE3SubgroupJoint
from .spherical import random_quaternion


@njit(cache=True)
def calc(params, q, v, M, S, vJ, cJ):
    quat_rotation(q[3:7], M[:, :3])
    for r in range(3):
        M[r, 3] = q[r]
    for r in range(6):
        for c in range(6):
            S[r, c] = 1.0 if r == c else 0.0
        vJ[r] = v[r]
        cJ[r] = 0.0


@njit(cache=True)
def _apply_V(w, x, out):
    """``out = V(w) x`` with ``V(w) = 1 + (1 - cos t)/t^2 w_x + (t - sin t)/t^3 w_x^2``, ``t = |w|``."""
    t = np.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
    B, C = one_minus_cos_over_t2(t), t_minus_sin_over_t3(t)
    wx0 = w[1] * x[2] - w[2] * x[1]
    wx1 = w[2] * x[0] - w[0] * x[2]
    wx2 = w[0] * x[1] - w[1] * x[0]
    wwx0 = w[1] * wx2 - w[2] * wx1
    wwx1 = w[2] * wx0 - w[0] * wx2
    wwx2 = w[0] * wx1 - w[1] * wx0
    out[0] = x[0] + B * wx0 + C * wwx0
    out[1] = x[1] + B * wx1 + C * wwx1
    out[2] = x[2] + B * wx2 + C * wwx2


@njit(cache=True)
def integrate(q, v, out):
    """``out = q * exp6(v)``: the position plus ``R(q) V(w) v_lin``, the quaternion times ``exp3(w)`` normalised;
    ``out`` holds the translation and ``exp3(w)`` on the way (nothing allocated)."""
    _apply_V(v[3:6], v[0:3], out[0:3])  # translation of exp6(v)
    d0, d1, d2 = out[0], out[1], out[2]
    r00, r01, r02, r10, r11, r12, r20, r21, r22 = rotation_entries(q[3], q[4], q[5], q[6])
    out[0] = q[0] + r00 * d0 + r01 * d1 + r02 * d2
    out[1] = q[1] + r10 * d0 + r11 * d1 + r12 * d2
    out[2] = q[2] + r20 * d0 + r21 * d1 + r22 * d2
    quat_exp(v[3:6], out[3:7])
    quat_mul(q[3:7], (out[3], out[4], out[5], out[6]), out[3:7])
    quat_normalize(out[3:7])
    if q[3] * out[3] + q[4] * out[4] + q[5] * out[5] + q[6] * out[6] < 0.0:  # the sign closest to q (as Pinocchio)
        for k in range(3, 7):
            out[k] = -out[k]


@njit(cache=True)
def difference(q0, q1, out):
    q0_inv = np.array([-q0[3], -q0[4], -q0[5], q0[6]])
    dq = np.empty(4)
    quat_mul(q0_inv, q1[3:7], dq)
    quat_log(dq, out[3:6])  # w
    R0 = np.empty((3, 3))
    quat_rotation(q0[3:7], R0)
    dp = np.empty(3)
    for c in range(3):  # relative translation R0^T (p1 - p0)
        dp[c] = R0[0, c] * (q1[0] - q0[0]) + R0[1, c] * (q1[1] - q0[1]) + R0[2, c] * (q1[2] - q0[2])
    # v = V(w)^-1 dp, and V(w)^-1 = 1 - w_x / 2 + (1/t^2 - (1 + cos t) / (2 t sin t)) w_x^2
    w = out[3:6]
    t = np.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
    D = jlog_coefficient(t)
    wx0 = w[1] * dp[2] - w[2] * dp[1]
    wx1 = w[2] * dp[0] - w[0] * dp[2]
    wx2 = w[0] * dp[1] - w[1] * dp[0]
    out[0] = dp[0] - 0.5 * wx0 + D * (w[1] * wx2 - w[2] * wx1)
    out[1] = dp[1] - 0.5 * wx1 + D * (w[2] * wx0 - w[0] * wx2)
    out[2] = dp[2] - 0.5 * wx2 + D * (w[0] * wx1 - w[1] * wx0)


@njit(cache=True)
def neutral(out):
    for k in range(6):
        out[k] = 0.0
    out[6] = 1.0


@njit(cache=True)
def normalize(q):
    quat_normalize(q[3:7])


class JointModelFreeFlyer(SE3SubgroupJoint):
    """Six-DoF free-flyer joint; ``nq = 7``, ``nv = 6``."""

    type = JointType.FREE_FLYER
    nq, nv = 7, 6

    def random(self, rng, lower, upper):
        """A random configuration drawn with ``rng``: the translation uniform in ``[lower, upper]`` where it
        has one, the rotation uniform."""
        return np.concatenate([rng.uniform(lower[:3], upper[:3]), random_quaternion(rng)])
