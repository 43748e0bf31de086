"""Spherical (ball) joint, ``q = [x, y, z, w]`` a unit quaternion, ``v = w_local`` (3).

``M = (R(q), 0)``, ``S = [0; 1]``, ``c_J = 0``. The Lie group is SO(3) acting on the right (body velocity):
``integrate(q, v) = q * exp(v)``, ``difference(q0, q1) = log(q0^-1 q1)``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..spatial.compiled import quat_rotation
from .base import JointType, SE3SubgroupJoint, angular_row


@njit(cache=True)
def calc(params, q, v, M, S, vJ, cJ):
    quat_rotation(q, M[:, :3])
    M[0, 3] = M[1, 3] = M[2, 3] = 0.0
    angular_row(S, 0, 1.0, 0.0, 0.0)
    angular_row(S, 1, 0.0, 1.0, 0.0)
    angular_row(S, 2, 0.0, 0.0, 1.0)
    for k in range(3):
        vJ[k] = 0.0
        vJ[3 + k] = v[k]
        cJ[k] = cJ[3 + k] = 0.0


@njit(cache=True)
def quat_mul(a, b, out):
    """Hamilton product ``out = a * b`` of ``[x, y, z, w]`` quaternions (``out`` may not alias ``a`` or ``b``)."""
    out[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1]
    out[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0]
    out[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3]
    out[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]


@njit(cache=True)
def quat_exp(w, out):
    """Unit quaternion of the rotation vector ``w``: ``[sin(t/2) w/t, cos(t/2)]``, ``t = |w|``."""
    t = np.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
    half = 0.5 * t
    k = 0.5 - t * t / 48.0 if t < 1e-4 else np.sin(half) / t  # sin(t/2)/t, series below 1e-4
    out[0], out[1], out[2], out[3] = k * w[0], k * w[1], k * w[2], np.cos(half)


@njit(cache=True)
def quat_log(q, out):
    """Rotation vector (angle in [0, pi]) of the unit quaternion ``q``."""
    s = np.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2])
    w = q[3]
    sign = 1.0 if w >= 0.0 else -1.0
    half = np.arctan2(s, sign * w)
    k = 2.0 * sign * (half / s if s > 1e-12 else 1.0 / (sign * w))
    out[0], out[1], out[2] = k * q[0], k * q[1], k * q[2]


@njit(cache=True)
def quat_normalize(q):
    n = np.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    for k in range(4):
        q[k] /= n


@njit(cache=True)
def integrate(q, v, out):
    dq = np.empty(4)
    quat_exp(v, dq)
    quat_mul(q, dq, out)
    quat_normalize(out)


@njit(cache=True)
def difference(q0, q1, out):
    q0_inv = np.array([-q0[0], -q0[1], -q0[2], q0[3]])
    dq = np.empty(4)
    quat_mul(q0_inv, q1, dq)
    quat_log(dq, out)


@njit(cache=True)
def neutral(out):
    out[0] = out[1] = out[2] = 0.0
    out[3] = 1.0


def random_quaternion(rng: np.random.Generator) -> np.ndarray:
    """Uniformly distributed unit quaternion ``[x, y, z, w]`` (normalised Gaussian sample)."""
    q = rng.normal(size=4)
    return q / np.linalg.norm(q)


class JointModelSpherical(SE3SubgroupJoint):
    """Ball joint with a unit-quaternion configuration; ``nq = 4``, ``nv = 3``."""

    type = JointType.SPHERICAL
    nq, nv = 4, 3

    def random(self, rng, lower, upper):
        return random_quaternion(rng)
