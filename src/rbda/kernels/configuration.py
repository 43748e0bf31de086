"""Compiled configuration-space operations, joint by joint on the joints' Lie groups."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..joints.dispatch import COMPOSITE, joint_difference, joint_integrate, joint_neutral, joint_normalize
from .checks import all_finite, configuration_status
from .layout import model_views


@njit(cache=True)
def leaf_joints(m, i):
    """``(types, q offsets, v offsets, nqs, nvs)`` of joint i, or of its sub-joints if it is composite."""
    if m.types[i] != COMPOSITE:
        return m.types[i : i + 1], m.idx_q[i : i + 1], m.idx_v[i : i + 1], m.nqs[i : i + 1], m.nvs[i : i + 1]
    s0, s1 = m.sub_first[i], m.sub_first[i] + m.sub_count[i]
    nqs, nvs = m.sub_nqs[s0:s1], m.sub_nvs[s0:s1]
    iq, iv = np.empty(s1 - s0, dtype=np.int64), np.empty(s1 - s0, dtype=np.int64)
    oq, ov = m.idx_q[i], m.idx_v[i]
    for k in range(s1 - s0):
        iq[k], iv[k] = oq, ov
        oq += nqs[k]
        ov += nvs[k]
    return m.sub_types[s0:s1], iq, iv, nqs, nvs


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
        types, iqs, ivs, nqs, nvs = leaf_joints(m, i)
        for k in range(types.shape[0]):
            iq, iv, nq = iqs[k], ivs[k], nqs[k]
            joint_integrate(types[k], q[iq : iq + nq], v[iv : iv + nvs[k]], out[iq : iq + nq])
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
        types, iqs, ivs, nqs, nvs = leaf_joints(m, i)
        for k in range(types.shape[0]):
            iq, iv, nq = iqs[k], ivs[k], nqs[k]
            joint_difference(types[k], q0[iq : iq + nq], q1[iq : iq + nq], out[iv : iv + nvs[k]])
    return 0


@njit(cache=True)
def neutral(I, F, out):
    m = model_views(I, F)
    for i in range(1, m.nj):
        types, iqs, _, nqs, _ = leaf_joints(m, i)
        for k in range(types.shape[0]):
            joint_neutral(types[k], out[iqs[k] : iqs[k] + nqs[k]])


@njit(cache=True)
def normalize(I, F, q):
    """Project ``q`` onto the manifold in place."""
    m = model_views(I, F)
    for i in range(1, m.nj):
        types, iqs, _, nqs, _ = leaf_joints(m, i)
        for k in range(types.shape[0]):
            joint_normalize(types[k], q[iqs[k] : iqs[k] + nqs[k]])
