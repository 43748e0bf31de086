"""Planar joint in the xy plane: ``q = [x, y, cos theta, sin theta]``, ``v = [vx, vy, wz]`` in the child frame.

``M = (Rz(theta), [x, y, 0])``, ``S`` selects ``vx, vy, wz``, ``c_J = 0``. The Lie group is SE(2) acting on
the right: ``integrate(q, v) = q * exp(v)`` and ``difference(q0, q1) = log(q0^-1 q1)``.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from . import revolute_unbounded
from .base import JointType, SE3SubgroupJoint


@njit(cache=True)
def calc(params, q, v, M, S, vJ, cJ):
    c, s = q[2], q[3]
    M[0, 0], M[0, 1], M[0, 2], M[0, 3] = c, -s, 0.0, q[0]
    M[1, 0], M[1, 1], M[1, 2], M[1, 3] = s, c, 0.0, q[1]
    M[2, 0], M[2, 1], M[2, 2], M[2, 3] = 0.0, 0.0, 1.0, 0.0
    for r in range(3):
        for k in range(6):
            S[r, k] = 0.0
    S[0, 0] = S[1, 1] = S[2, 5] = 1.0
    for k in range(6):
        vJ[k] = cJ[k] = 0.0
    vJ[0], vJ[1], vJ[5] = v[0], v[1], v[2]


@njit(cache=True)
def _se2_coefficients(theta):
    """``(sin t / t, (1 - cos t) / t)``, with series for small ``t``."""
    if abs(theta) < 1e-4:
        t2 = theta * theta
        return 1.0 - t2 / 6.0, theta * (0.5 - t2 / 24.0)
    return np.sin(theta) / theta, (1.0 - np.cos(theta)) / theta


@njit(cache=True)
def integrate(q, v, out):
    theta = v[2]
    a, b = _se2_coefficients(theta)
    dx, dy = a * v[0] - b * v[1], b * v[0] + a * v[1]  # translation of exp(v) in the body frame
    c, s = q[2], q[3]
    dc, ds = np.cos(theta), np.sin(theta)
    c1, s1 = c * dc - s * ds, s * dc + c * ds
    n = np.sqrt(c1 * c1 + s1 * s1)
    out[0] = q[0] + c * dx - s * dy
    out[1] = q[1] + s * dx + c * dy
    out[2], out[3] = c1 / n, s1 / n


@njit(cache=True)
def difference(q0, q1, out):
    c0, s0 = q0[2], q0[3]
    # relative placement q0^-1 q1
    dx, dy = q1[0] - q0[0], q1[1] - q0[1]
    px, py = c0 * dx + s0 * dy, -s0 * dx + c0 * dy
    theta = np.arctan2(c0 * q1[3] - s0 * q1[2], c0 * q1[2] + s0 * q1[3])
    a, b = _se2_coefficients(theta)
    det = a * a + b * b  # V = [[a, -b], [b, a]], V^-1 = [[a, b], [-b, a]] / det
    out[0] = (a * px + b * py) / det
    out[1] = (-b * px + a * py) / det
    out[2] = theta


@njit(cache=True)
def neutral(out):
    out[0] = out[1] = 0.0
    revolute_unbounded.neutral(out[2:4])  # the rotation (cos, sin): SO(2), as the unbounded revolute joint's


@njit(cache=True)
def normalize(q):
    revolute_unbounded.normalize(q[2:4])


class JointModelPlanar(SE3SubgroupJoint):
    """Planar joint (x, y translation and rotation about z); ``nq = 4``, ``nv = 3``."""

    type = JointType.PLANAR
    nq, nv = 4, 3

    def random(self, rng, lower, upper):
        """A random configuration drawn with ``rng``: the translation uniform in ``[lower, upper]`` where it
        has one, the rotation uniform."""
        theta = rng.uniform(-np.pi, np.pi)
        return np.array([rng.uniform(lower[0], upper[0]), rng.uniform(lower[1], upper[1]), np.cos(theta), np.sin(theta)])
