"""Batched kernels: the single-state kernels run over a leading batch axis with ``prange``.

The batch is cut into one contiguous chunk per workspace (one workspace per thread); each chunk runs the
single-state kernel state after state and copies its result out, element by element (a slice assignment
compiles numba's shape-mismatch error path, seconds per kernel). No Python work per state.
"""

from __future__ import annotations

from numba import njit, prange

from . import dynamics, kinematics
from .layout import data_views, model_views


@njit(cache=True, parallel=True)
def rnea(I, F, WS, Q, V, A, OUT, STATUS):
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf)[0]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = dynamics.rnea(I, F, WS[c], Q[b], V[b], A[b], None)
            for k in range(m.nv):
                OUT[b, k] = d.tau[k]


@njit(cache=True, parallel=True)
def aba(I, F, WS, Q, V, TAU, OUT, STATUS):
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf)[0]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = dynamics.aba(I, F, WS[c], Q[b], V[b], TAU[b], None)
            for k in range(m.nv):
                OUT[b, k] = d.ddq[k]


@njit(cache=True, parallel=True)
def crba(I, F, WS, Q, OUT, STATUS):
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf)[0]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = dynamics.crba(I, F, WS[c], Q[b])
            for r in range(m.nv):
                for k in range(m.nv):
                    OUT[b, r, k] = d.M[r, k]


@njit(cache=True, parallel=True)
def minverse(I, F, WS, Q, OUT, STATUS):
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf)[0]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = dynamics.minverse(I, F, WS[c], Q[b])
            for r in range(m.nv):
                for k in range(m.nv):
                    OUT[b, r, k] = d.Minv[r, k]


@njit(cache=True, parallel=True)
def forward_kinematics(I, F, WS, Q, OUT, STATUS):
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf)[0]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = kinematics.forward_kinematics_q(I, F, WS[c], Q[b])
            for i in range(m.nj):
                for r in range(3):
                    for k in range(4):
                        OUT[b, i, r, k] = d.oMi[i, r, k]


@njit(cache=True, parallel=True)
def joint_jacobians(I, F, WS, Q, OUT, STATUS):
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf)[0]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = kinematics.compute_joint_jacobians(I, F, WS[c], Q[b])
            for r in range(6):
                for k in range(m.nv):
                    OUT[b, r, k] = d.J[k, r]
