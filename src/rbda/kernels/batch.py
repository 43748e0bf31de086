"""Batched kernels: the single-state kernels run over a leading batch axis with ``prange``.

The batch is cut into one contiguous chunk per workspace (one workspace per thread); each chunk runs the
single-state kernel state after state and copies its result out, element by element (a slice assignment
compiles numba's shape-mismatch error path, seconds per kernel). No Python work per state.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit, prange

from . import dynamics, kinematics
from ..model.layout import data_views, model_views
from .mimic import model_block


@njit(cache=True, parallel=True)
def rnea(I, F, WS, Q, V, A, OUT, STATUS):
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
        no_fext = np.zeros((0, 6))  # the single-state calls' argument types: one compiled overload for both
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = dynamics.rnea(I, F, WS[c], Q[b], V[b], A[b], no_fext)
            for k in range(m.nv_red):
                OUT[b, k] = d.tau[k]


@njit(cache=True, parallel=True)
def aba(I, F, WS, Q, V, TAU, OUT, STATUS):
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
        no_fext = np.zeros((0, 6))
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = dynamics.aba(I, F, WS[c], Q[b], V[b], TAU[b], no_fext)
            for k in range(m.nv_red):
                OUT[b, k] = d.ddq[k]


@njit(cache=True, parallel=True)
def forward_dynamics_through_factor(I, F, WS, Q, V, TAU, OUT, STATUS):
    """:func:`aba` for a model with mimic joints (``dynamics.forward_dynamics_through_factor``)."""
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
        no_fext = np.zeros((0, 6))
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = dynamics.forward_dynamics_through_factor(I, F, WS[c], Q[b], V[b], TAU[b], no_fext)
            for k in range(m.nv_red):
                OUT[b, k] = d.ddq[k]


@njit(cache=True, parallel=True)
def crba(I, F, WS, Q, OUT, STATUS):
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = dynamics.crba(I, F, WS[c], Q[b])
            M = model_block(m, d.M)
            for r in range(m.nv_red):
                for k in range(m.nv_red):
                    OUT[b, r, k] = M[r, k]


@njit(cache=True, parallel=True)
def minverse(I, F, WS, Q, OUT, STATUS):
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = dynamics.minverse(I, F, WS[c], Q[b])
            Minv = model_block(m, d.Minv)
            for r in range(m.nv_red):
                for k in range(m.nv_red):
                    OUT[b, r, k] = Minv[r, k]


@njit(cache=True, parallel=True)
def forward_kinematics(I, F, WS, Q, OUT, STATUS):
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
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
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = kinematics.compute_joint_jacobians(I, F, WS[c], Q[b])
            for r in range(6):
                for k in range(m.nv):
                    OUT[b, r, k] = d.J[k, r]


@njit(cache=True, parallel=True)
def frames_forward_kinematics(I, F, WS, Q, OUT, STATUS):
    """``OUT[b, k] = oMf[k]`` ``[R | p]`` at ``Q[b]``."""
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = kinematics.forward_kinematics_q(I, F, WS[c], Q[b])
            kinematics.update_frame_placements(I, F, WS[c])
            for k in range(m.nf):
                for r in range(3):
                    for x in range(4):
                        OUT[b, k, r, x] = d.oMf[k, r, x]


@njit(cache=True, parallel=True)
def frame_jacobians(I, F, WS, Q, frame, reference_frame, OUT, STATUS):
    """``OUT[b]`` ``(6, nv)``: the Jacobian of frame ``frame`` at ``Q[b]`` in ``reference_frame`` (0 WORLD, 1
    LOCAL, 2 LOCAL_WORLD_ALIGNED), zero outside the columns of the joints that support it."""
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in prange(nchunks):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
        joint = m.frame_parents[frame]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = kinematics.compute_joint_jacobians(I, F, WS[c], Q[b])
            kinematics.update_frame_placements(I, F, WS[c])
            oMf = d.oMf[frame]
            for r in range(6):
                for k in range(m.nv_red):
                    OUT[b, r, k] = 0.0
            j = joint
            while j > 0:
                for k in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
                    express_column(d.J[k], oMf, reference_frame, d.v6[0])  # one signature: C-contiguous out
                    for x in range(6):
                        if m.nq_mimic:  # a mimic joint's column adds, scaled, to its mimicked dof's (J = J_ext G)
                            OUT[b, x, m.v_col[k]] += m.v_scale[k] * d.v6[0, x]
                        else:
                            OUT[b, x, k] = d.v6[0, x]
                j = m.parents[j]


@njit(cache=True, forceinline=True)
def express_column(col, oM, reference_frame, out):
    """A world-frame Jacobian column in ``reference_frame`` at the placement ``oM``: the linear part moved to the
    frame's origin (``v_p = v_0 - p x w``), then, for LOCAL, both parts rotated into the frame's axes."""
    if reference_frame == 0:
        for x in range(6):
            out[x] = col[x]
        return
    p = oM[:, 3]
    lin0 = col[0] - (p[1] * col[5] - p[2] * col[4])
    lin1 = col[1] - (p[2] * col[3] - p[0] * col[5])
    lin2 = col[2] - (p[0] * col[4] - p[1] * col[3])
    if reference_frame == 2:
        out[0], out[1], out[2], out[3], out[4], out[5] = lin0, lin1, lin2, col[3], col[4], col[5]
        return
    for r in range(3):  # R^T
        out[r] = oM[0, r] * lin0 + oM[1, r] * lin1 + oM[2, r] * lin2
        out[3 + r] = oM[0, r] * col[3] + oM[1, r] * col[4] + oM[2, r] * col[5]
