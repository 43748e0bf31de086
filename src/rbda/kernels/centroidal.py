"""Compiled centroidal quantities: the centroidal map ``Ag``, its time variation, the centroidal momentum and
its rate (``data`` buffers: ``kernels/whole_body.py``).
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..spatial.compiled import (
    force_act,
    force_cross,
    inertia_act,
    inertia_apply,
    motion_act,
    motion_act_inv,
    motion_cross,
)
from .dynamics import world_jacobians_and_inertias
from .kinematics import body_velocity, calc_joint, joint_acceleration, world_jacobian_columns
from ..model.layout import model_views, whole_body_size, whole_body_views
from .mimic import compress_rows, extended
from .whole_body import begin_whole_body, cross3, rotate, shift_to_point
from .center_of_mass import subtree_coms


@njit(cache=True)
def centroidal_map(I, F, ws, wb, q, v):
    """``Ag`` (rows per dof), ``Ig`` and, if ``v`` is not empty, ``hg = Ag v`` (Orin and Goswami's CCRBA).

    Column k is the momentum ``Ycrb_i J_k`` of the subtree moved by dof k (world origin), taken about the CoM."""
    m, d, jt, w, status = begin_whole_body(I, F, ws, wb, q, v, ws[:0])
    if status:
        return status
    q, v = extended(m, q, d.qx), extended(m, v, d.vx)
    world_jacobians_and_inertias(jt, q, d.zeros, m.inertias, d.J, d.oYcrb)
    for i in range(m.nj - 1, 0, -1):
        for col in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            inertia_apply(d.oYcrb[i], d.J[col], w.Ag[col])  # momentum of the subtree, about the world origin
        for k in range(13):
            d.oYcrb[m.parents[i], k] += d.oYcrb[i, k]
    subtree_coms(d.oYcrb, d.oMi, w.mass, w.com)
    c = w.com[0]
    for col in range(m.nv):
        shift_to_point(w.Ag[col], c, w.Ag[col])
    centroidal_inertia(d.oYcrb[0], c, w.Ig)
    if v.shape[0] > 0:
        for k in range(6):
            w.hg[k] = 0.0
        for col in range(m.nv):
            for k in range(6):
                w.hg[k] += w.Ag[col, k] * v[col]
        for k in range(3):
            w.vcom[0, k] = w.hg[k] / w.mass[0] if w.mass[0] > 0.0 else 0.0
    compress_rows(m, w.Ag)  # mimic joints: Ag = Ag_ext G
    return 0


@njit(cache=True, inline="always")
def centroidal_inertia(Y, c, out):
    """``(6, 6)`` matrix of the inertia ``Y = (m, h, I_o)`` (world origin) about its CoM ``c``:
    ``[[m 1, 0], [0, I_o - m (|c|^2 1 - c c^T)]]``."""
    mass = Y[0]
    cc = c[0] * c[0] + c[1] * c[1] + c[2] * c[2]
    for r in range(6):
        for s in range(6):
            out[r, s] = 0.0
    for r in range(3):
        out[r, r] = mass
        for s in range(3):
            out[3 + r, 3 + s] = Y[4 + 3 * r + s] + mass * c[r] * c[s] - (mass * cc if r == s else 0.0)


@njit(cache=True, inline="always")
def inertia_rate(Y, V, out):
    """``out = d/dt Y`` for the inertia ``Y = (m, h, I_o)`` (world origin) of a body moving with the world twist
    ``V = [v; w]``: ``dm = 0``, ``dh = m v + w x h``, ``dI_o = 2 (h.v) 1 - v h^T - h v^T + w_x I_o - I_o w_x``
    (the derivative of ``sum m r_x^T r_x`` with ``dr/dt = v + w x r``)."""
    mass, h, v, w = Y[0], Y[1:4], V[0:3], V[3:6]
    out[0] = 0.0
    out[1] = mass * v[0] + w[1] * h[2] - w[2] * h[1]
    out[2] = mass * v[1] + w[2] * h[0] - w[0] * h[2]
    out[3] = mass * v[2] + w[0] * h[1] - w[1] * h[0]
    hv = h[0] * v[0] + h[1] * v[1] + h[2] * v[2]
    for r in range(3):
        for c in range(3):
            acc = -v[r] * h[c] - h[r] * v[c] + (2.0 * hv if r == c else 0.0)
            for k in range(3):  # (w_x I)[r, c] - (I w_x)[r, c], with w_x[a, b] = -eps_abk w_k
                acc += skew_entry(w, r, k) * Y[4 + 3 * k + c] - Y[4 + 3 * r + k] * skew_entry(w, k, c)
            out[4 + 3 * r + c] = acc


@njit(cache=True, inline="always")
def skew_entry(w, r, c):
    """``(w_x)[r, c]``."""
    if r == c:
        return 0.0
    if r == 0:
        return -w[2] if c == 1 else w[1]
    if r == 1:
        return w[2] if c == 0 else -w[0]
    return -w[1] if c == 0 else w[0]


@njit(cache=True)
def centroidal_map_time_variation(I, F, ws, wb, q, v):
    """``Ag``, ``dAg``, ``hg``, ``Ig``, ``J`` and ``dJ = ov x J`` (the columns' motion with their joint: constant
    subspaces, so a model whose subspaces move runs this on its elementary twin). Column k of joint i:
    ``dAg_k = X_c^* (dYcrb_i J_k + Ycrb_i dJ_k) - [0; dc/dt x (Ycrb_i J_k)_lin]``."""
    m, d, jt, w, status = begin_whole_body(I, F, ws, wb, q, v, ws[:0])
    if status:
        return status
    q, v = extended(m, q, d.qx), extended(m, v, d.vx)
    tmp, dF = w.scratch[0], w.scratch[1]
    for i in range(1, m.nj):
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        calc_joint(jt, i, q, v)
        motion_act(d.oMi[i], d.vJ[i], tmp)  # ov_i = ov_parent + oMi.act(vJ)
        for k in range(6):
            d.ov[i, k] = d.ov[parent, k] + tmp[k]
        world_jacobian_columns(d.oMi[i], d.S[iv : iv + nvi], d.J[iv : iv + nvi])
        for col in range(iv, iv + nvi):
            motion_cross(d.ov[i], d.J[col], d.dJ[col])
        inertia_act(d.oMi[i], m.inertias[i], d.oYcrb[i])
        inertia_rate(d.oYcrb[i], d.ov[i], w.dYcrb[i])
    for k in range(13):
        d.oYcrb[0, k] = w.dYcrb[0, k] = 0.0
    for i in range(m.nj - 1, 0, -1):
        for col in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            inertia_apply(d.oYcrb[i], d.J[col], w.Ag[col])  # F = Ycrb J, about the world origin
            inertia_apply(w.dYcrb[i], d.J[col], dF)  # dF = dYcrb J + Ycrb dJ
            inertia_apply(d.oYcrb[i], d.dJ[col], tmp)
            for k in range(6):
                w.dAg[col, k] = dF[k] + tmp[k]
        for k in range(13):
            d.oYcrb[m.parents[i], k] += d.oYcrb[i, k]
            w.dYcrb[m.parents[i], k] += w.dYcrb[i, k]
    subtree_coms(d.oYcrb, d.oMi, w.mass, w.com)
    c, vc = w.com[0], w.vcom[0]
    for k in range(3):
        vc[k] = w.dYcrb[0, 1 + k] / w.mass[0] if w.mass[0] > 0.0 else 0.0
    for col in range(m.nv):
        shift_to_point(w.dAg[col], c, w.dAg[col])
        cross3(vc, w.Ag[col, 0:3], tmp)
        for k in range(3):
            w.dAg[col, 3 + k] -= tmp[k]
        shift_to_point(w.Ag[col], c, w.Ag[col])
    centroidal_inertia(d.oYcrb[0], c, w.Ig)
    for k in range(6):
        w.hg[k] = 0.0
    for col in range(m.nv):
        for k in range(6):
            w.hg[k] += w.Ag[col, k] * v[col]
    compress_rows(m, w.Ag)  # mimic joints: Ag = Ag_ext G, dAg = dAg_ext G
    compress_rows(m, w.dAg)
    return 0


@njit(cache=True)
def centroidal_momentum(I, F, ws, wb, q, v, a):
    """``hg`` and, if ``a`` is not empty, ``dhg``: the sums of the body momenta ``Y_i v_i`` and of their rates
    ``Y_i a_i + v_i x* Y_i v_i`` (RNEA's forces without gravity), moved to the world frame, about the CoM.
    (About the moving CoM the rate has no extra term: ``dc/dt x h_lin = v_c x m v_c = 0``.)"""
    m, d, jt, w, status = begin_whole_body(I, F, ws, wb, q, v, a)
    if status:
        return status
    q, v, a = extended(m, q, d.qx), extended(m, v, d.vx), extended(m, a, d.ax)
    f, fw, Yv, mc = w.scratch[0], w.scratch[1], w.scratch[2], w.scratch[3]
    for k in range(6):
        w.hg[k] = w.dhg[k] = mc[k] = 0.0
    mass = 0.0
    for i in range(1, m.nj):
        parent, Y = m.parents[i], m.inertias[i]
        calc_joint(jt, i, q, v)
        body_velocity(d.liMi[i], d.v[parent], d.vJ[i], d.v[i])
        inertia_apply(Y, d.v[i], Yv)  # h_i = Y_i v_i
        force_act(d.oMi[i], Yv, fw)
        for k in range(6):
            w.hg[k] += fw[k]
        mass += Y[0]
        rotate(d.oMi[i], Y[1:4], f)  # m c_world = m p + R h
        for k in range(3):
            mc[k] += f[k] + Y[0] * d.oMi[i, k, 3]
        if a.shape[0] > 0:  # f_i = Y_i a_i + v_i x* Y_i v_i
            iv, nvi = m.idx_v[i], m.nvs[i]
            motion_act_inv(d.liMi[i], d.a[parent], d.a[i])
            joint_acceleration(d.S[iv : iv + nvi], a[iv : iv + nvi], d.v[i], d.vJ[i], d.cJ[i], d.a[i], f)
            force_cross(d.v[i], Yv, fw)
            inertia_apply(Y, d.a[i], f)
            for k in range(6):
                f[k] += fw[k]
            force_act(d.oMi[i], f, fw)
            for k in range(6):
                w.dhg[k] += fw[k]
    w.mass[0] = mass
    for k in range(3):
        w.com[0, k] = mc[k] / mass if mass > 0.0 else 0.0
    shift_to_point(w.hg, w.com[0], w.hg)
    for k in range(3):
        w.vcom[0, k] = w.hg[k] / mass if mass > 0.0 else 0.0
    if a.shape[0] > 0:
        shift_to_point(w.dhg, w.com[0], w.dhg)
        for k in range(3):
            w.acom[0, k] = w.dhg[k] / mass if mass > 0.0 else 0.0
    return 0


# ---------------------------------------------------------------------------------------------- batches
# One chunk of states per thread, each with its own workspace ``WS[c]`` and whole-body buffer; the chunk loops are
# plain kernels (numba's parallel array analysis cannot follow the views of the buffer). The batches take the
# signature of every batched kernel (kernels/batch.py); ``A`` unused.

@njit(cache=True)
def ccrba_chunk(I, F, ws, Q, V, OUT, STATUS, lo, hi):
    m = model_views(I, F)
    wb = np.zeros(whole_body_size(m.nj, m.nv))
    w = whole_body_views(wb, m.nj, m.nv)[0]
    for b in range(lo, hi):
        STATUS[b] = centroidal_map(I, F, ws, wb, Q[b], V[b])
        OUT[b, :, :] = w.Ag[: m.nv_red].T


@njit(cache=True)
def centroidal_momentum_chunk(I, F, ws, Q, V, OUT, STATUS, lo, hi):
    m = model_views(I, F)
    wb = np.zeros(whole_body_size(m.nj, m.nv))
    w = whole_body_views(wb, m.nj, m.nv)[0]
    none = np.zeros(0)  # no a
    for b in range(lo, hi):
        STATUS[b] = centroidal_momentum(I, F, ws, wb, Q[b], V[b], none)
        OUT[b, :] = w.hg


@njit(cache=True, nogil=True)
def ccrba_batch(I, F, WS, Q, V, A, OUT, STATUS, first, last):
    n, B = WS.shape[0], Q.shape[0]
    for c in range(first, last):
        ccrba_chunk(I, F, WS[c], Q, V, OUT, STATUS, c * B // n, (c + 1) * B // n)


@njit(cache=True, nogil=True)
def centroidal_momentum_batch(I, F, WS, Q, V, A, OUT, STATUS, first, last):
    n, B = WS.shape[0], Q.shape[0]
    for c in range(first, last):
        centroidal_momentum_chunk(I, F, WS[c], Q, V, OUT, STATUS, c * B // n, (c + 1) * B // n)
