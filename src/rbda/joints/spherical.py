"""Spherical (ball) joint, ``q = [x, y, z, w]`` a unit quaternion, ``v = w_local`` (3).

``M = (R(q), 0)``, ``S = [0; 1]``, ``c_J = 0``. The Lie group is SO(3) acting on the right (body velocity):
``integrate(q, v) = q * exp(v)``, ``difference(q0, q1) = log(q0^-1 q1)``.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..spatial.compiled import quat_exp, quat_log, quat_mul, quat_normalize, quat_rotation
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
        """A random configuration drawn with ``rng``: the translation uniform in ``[lower, upper]`` where it
        has one, the rotation uniform."""
        return random_quaternion(rng)
