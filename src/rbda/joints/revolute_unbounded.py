"""Unbounded (continuous) revolute joint, ``q = [cos theta, sin theta]`` on the unit circle, ``nv = 1``.

Kinematics as the revolute joint with ``(cos, sin)`` read from ``q``; the Lie group is SO(2):
``integrate`` rotates the pair by ``v``, ``difference`` is ``atan2`` of the relative rotation.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..spatial.compiled import axis_rotation
from .base import AxisJoint, JointType, angular_row, axis_joint_family, one_dof_velocity


@njit(cache=True)
def calc(params, q, v, M, S, vJ, cJ):
    axis_rotation(params[0:3], q[0], q[1], M[:, :3])
    M[0, 3] = M[1, 3] = M[2, 3] = 0.0
    angular_row(S, 0, params[0], params[1], params[2])
    one_dof_velocity(S, v, vJ, cJ)


@njit(cache=True)
def integrate(q, v, out):
    c, s = np.cos(v[0]), np.sin(v[0])
    c1, s1 = q[0] * c - q[1] * s, q[1] * c + q[0] * s
    n = np.sqrt(c1 * c1 + s1 * s1)  # keeps the pair on the circle despite rounding
    out[0], out[1] = c1 / n, s1 / n


@njit(cache=True)
def difference(q0, q1, out):
    out[0] = np.arctan2(q0[0] * q1[1] - q0[1] * q1[0], q0[0] * q1[0] + q0[1] * q1[1])


@njit(cache=True)
def neutral(out):
    out[0], out[1] = 1.0, 0.0


@njit(cache=True)
def normalize(q):
    n = np.sqrt(q[0] * q[0] + q[1] * q[1])
    q[0] /= n
    q[1] /= n


class JointModelRevoluteUnboundedUnaligned(AxisJoint):
    """Unbounded revolute joint about an arbitrary unit axis; ``q = [cos, sin]``, ``nq = 2``, ``nv = 1``."""

    type = JointType.REVOLUTE_UNBOUNDED
    nq, nv = 2, 1

    def random(self, rng, lower, upper):
        """A random configuration drawn with ``rng``: the angle uniform (``lower``, ``upper`` do not apply)."""
        theta = rng.uniform(-np.pi, np.pi)
        return np.array([np.cos(theta), np.sin(theta)])


JointModelRUBX, JointModelRUBY, JointModelRUBZ = axis_joint_family(JointModelRevoluteUnboundedUnaligned, "JointModelRUB",
                                                                 __name__)
