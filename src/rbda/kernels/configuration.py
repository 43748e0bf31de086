"""Compiled configuration-space operations, joint by joint on the joints' Lie groups."""

from __future__ import annotations

from numba import njit

from ..joints.dispatch import joint_difference, joint_integrate, joint_neutral, joint_normalize
from .checks import all_finite, configuration_status
from .layout import model_views


@njit(cache=True)
def integrate(I, F, q, v, out):
    """``out = q (+) v``; status 1 (q), 2 (q off the manifold) or 3 (v) on bad input."""
    m = model_views(I, F)
    status = configuration_status(m, q)
    if status == 0 and not all_finite(v):
        status = 3
    if status:
        return status
    for i in range(1, m.nj):
        iq, iv, nq = m.idx_q[i], m.idx_v[i], m.nqs[i]
        joint_integrate(m.types[i], q[iq : iq + nq], v[iv : iv + m.nvs[i]], out[iq : iq + nq])
    return 0


@njit(cache=True)
def difference(I, F, q0, q1, out):
    """``out = q1 (-) q0``; status codes for ``q0`` (1, 2) and ``q1`` (3, 4)."""
    m = model_views(I, F)
    status = configuration_status(m, q0)
    if status:
        return status
    status = configuration_status(m, q1)
    if status:
        return status + 2
    for i in range(1, m.nj):
        iq, iv, nq = m.idx_q[i], m.idx_v[i], m.nqs[i]
        joint_difference(m.types[i], q0[iq : iq + nq], q1[iq : iq + nq], out[iv : iv + m.nvs[i]])
    return 0


@njit(cache=True)
def neutral(I, F, out):
    m = model_views(I, F)
    for i in range(1, m.nj):
        iq = m.idx_q[i]
        joint_neutral(m.types[i], out[iq : iq + m.nqs[i]])


@njit(cache=True)
def normalize(I, F, q):
    """Project ``q`` onto the manifold in place."""
    m = model_views(I, F)
    for i in range(1, m.nj):
        iq = m.idx_q[i]
        joint_normalize(m.types[i], q[iq : iq + m.nqs[i]])
