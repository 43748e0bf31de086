"""Compiled centre of mass: subtree masses, centres of mass and their derivatives, the CoM Jacobian
(``data`` buffers: ``kernels/whole_body.py``).
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..spatial.compiled import (
    motion_act_inv,
)
from .dynamics import world_jacobians_and_inertias
from .kinematics import body_velocity, calc_joint, joint_acceleration
from ..model.layout import model_views, whole_body_size, whole_body_views
from .mimic import compress_rows, extended
from .whole_body import begin_whole_body, cross3, rotate, rotate_inv
from .frames import NOT_AN_ID
from .._native.views import borrowed


@njit(cache=True)
def subtree_masses(I, F, ws, wb, masses):
    """``data.mass = masses``: the model's subtree masses ``(njoints,)`` (``model.masses[1]``, summed once per
    model) into the whole-body buffer."""
    m = model_views(borrowed(I), borrowed(F))
    w, _ = whole_body_views(borrowed(wb), m.nj, m.nv)
    for i in range(m.nj):
        w.mass[i] = masses[i]
    return np.int64(0)  # (the int64 status of every kernel: a bare 0 would type as a literal)


@njit(cache=True)
def center_of_mass(I, F, ws, wb, q, v, a):
    """Subtree masses, CoMs and (if ``v``/``a`` are not empty) CoM velocities and accelerations: sums of the
    mass-weighted body terms in the world frame from the leaves up, then averages; entry 0 stays in the world
    frame, subtree i > 0 is expressed in joint i's frame (Pinocchio's convention)."""
    m, d, jt, w, status = begin_whole_body(I, F, ws, wb, q, v, a)
    if status:
        return status
    q, v, a = extended(m, q, d.qx), extended(m, v, d.vx), extended(m, a, d.ax)
    lin, tmp = w.scratch[0], w.scratch[1]
    for k in range(3):
        w.com[0, k] = w.vcom[0, k] = w.acom[0, k] = 0.0
    w.mass[0] = 0.0
    for i in range(1, m.nj):
        parent, Y = m.parents[i], m.inertias[i]
        if v.shape[0] == 0:
            calc_joint(jt, i, q, d.zeros)
        else:
            calc_joint(jt, i, q, v)
            body_velocity(d.liMi[i], d.v[parent], d.vJ[i], d.v[i])
        w.mass[i] = Y[0]
        rotate(d.oMi[i], Y[1:4], w.com[i])  # m c_world = m p + R h
        for k in range(3):
            w.com[i, k] += Y[0] * d.oMi[i, k, 3]
        if v.shape[0] > 0:  # m v_c = R (m v + w x h), v = [v; w] local
            cross3(d.v[i, 3:], Y[1:4], lin)
            for k in range(3):
                lin[k] += Y[0] * d.v[i, k]
            rotate(d.oMi[i], lin, w.vcom[i])
            if a.shape[0] > 0:  # m a_c = R (m a + dw x h + w x (m v + w x h))
                iv, nvi = m.idx_v[i], m.nvs[i]
                motion_act_inv(d.liMi[i], d.a[parent], d.a[i])
                joint_acceleration(d.S[iv : iv + nvi], a[iv : iv + nvi], d.v[i], d.vJ[i], d.cJ[i], d.a[i], tmp)
                cross3(d.v[i, 3:], lin, tmp)
                cross3(d.a[i, 3:], Y[1:4], lin)
                for k in range(3):
                    tmp[k] += lin[k] + Y[0] * d.a[i, k]
                rotate(d.oMi[i], tmp, w.acom[i])
    for i in range(m.nj - 1, 0, -1):  # subtree sums, then averages
        parent = m.parents[i]
        w.mass[parent] += w.mass[i]
        for k in range(3):
            w.com[parent, k] += w.com[i, k]
            if v.shape[0] > 0:
                w.vcom[parent, k] += w.vcom[i, k]
                if a.shape[0] > 0:
                    w.acom[parent, k] += w.acom[i, k]
    for i in range(m.nj):  # averages, world frame; then subtrees i > 0 in their joint frame (as Pinocchio)
        for k in range(3):
            if w.mass[i] > 0.0:
                w.com[i, k] = w.com[i, k] / w.mass[i] - (d.oMi[i, k, 3] if i > 0 else 0.0)
                w.vcom[i, k] = w.vcom[i, k] / w.mass[i] if v.shape[0] > 0 else 0.0
                w.acom[i, k] = w.acom[i, k] / w.mass[i] if a.shape[0] > 0 else 0.0
            else:
                w.com[i, k] = w.vcom[i, k] = w.acom[i, k] = 0.0
        if i > 0:
            rotate_inv(d.oMi[i], w.com[i], w.com[i])
            rotate_inv(d.oMi[i], w.vcom[i], w.vcom[i])
            rotate_inv(d.oMi[i], w.acom[i], w.acom[i])
    return 0


@njit(cache=True)
def jacobian_center_of_mass(I, F, ws, wb, q):
    """``Jcom`` (rows per dof), subtree masses and CoMs; also ``J`` and the composite inertias ``oYcrb``.

    Moving dof k of joint i moves the subtree of i rigidly with the twist ``J_k``, so its mass-weighted CoM moves
    by ``m_sub J_k,lin + J_k,ang x h_sub`` with ``(m_sub, h_sub)`` from the composite inertia of i."""
    m, d, jt, w, status = begin_whole_body(I, F, ws, wb, q, ws[:0], ws[:0])
    if status:
        return status
    q = extended(m, q, d.qx)
    world_jacobians_and_inertias(jt, q, d.zeros, m.inertias, d.J, d.oYcrb)
    for i in range(m.nj - 1, 0, -1):
        Y = d.oYcrb[i]
        for col in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            cross3(d.J[col, 3:], Y[1:4], w.Jcom[col])
            for k in range(3):
                w.Jcom[col, k] += Y[0] * d.J[col, k]
        for k in range(13):
            d.oYcrb[m.parents[i], k] += Y[k]
    total = d.oYcrb[0, 0]
    for col in range(m.nv):
        for k in range(3):
            w.Jcom[col, k] = w.Jcom[col, k] / total if total > 0.0 else 0.0
    if m.nq_mimic:  # mimic joints: Jcom = Jcom_ext G
        compress_rows(m, w.Jcom)
    subtree_coms(d.oYcrb, d.oMi, w.mass, w.com)
    return 0


@njit(cache=True)
def jacobian_subtree_center_of_mass(I, F, ws, wb, q, root, out):
    """``out (3, nv)``: the Jacobian (world frame) of the centre of mass of the subtree of joint ``root``, after
    :func:`jacobian_center_of_mass` (whose fields it fills). A dof of a joint ``i`` inside the subtree moves the
    subtree of ``i`` rigidly: column ``m_i (J_lin + J_ang x c_i) / m_root``; a dof supporting the root moves the
    whole subtree: ``J_lin + J_ang x c_root``; other dofs: 0. With mimic joints, a column of ``data.J`` adds, scaled,
    to the model's dof it moves. Status NOT_AN_ID if ``root`` is not a joint."""
    status = jacobian_center_of_mass(I, F, ws, wb, q)
    if status:
        return status
    m, d, _, w, _ = begin_whole_body(I, F, ws, wb, q, ws[:0], ws[:0])
    if not 0 <= root < m.nj:
        return NOT_AN_ID
    out[:, :] = 0.0
    moved, m_root = d.v6[0], w.mass[root]
    for i in range(1, m.nj):
        a = i
        while a > root:
            a = m.parents[a]
        inside, supporting = a == root, False
        s = m.parents[root]
        while s > 0 and not inside:
            supporting = supporting or s == i
            s = m.parents[s]
        if not (inside or supporting):
            continue
        c = w.com[i] if inside else w.com[root]
        scale = 1.0 if not inside else w.mass[i] / m_root if m_root > 0.0 else 0.0
        for k in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            cross3(d.J[k, 3:], c, moved)  # J_ang x c
            col, s_k = (m.v_col[k], m.v_scale[k]) if m.nq_mimic else (k, 1.0)
            for r in range(3):
                out[r, col] += s_k * (scale * (d.J[k, r] + moved[r]))
    return 0


@njit(cache=True, inline="always")
def subtree_coms(oYcrb, oMi, mass, com):
    """``mass[i]``, ``com[i]`` of the composite inertias ``oYcrb`` (world); a massless subtree: its joint origin."""
    for i in range(oYcrb.shape[0]):
        mass[i] = oYcrb[i, 0]
        for k in range(3):
            com[i, k] = oYcrb[i, 1 + k] / mass[i] if mass[i] > 0.0 else oMi[i, k, 3]


# ---------------------------------------------------------------------------------------------- batches
# One chunk of states per thread, each with its own workspace ``WS[c]`` and whole-body buffer; the chunk loops are
# plain kernels (numba's parallel array analysis cannot follow the views of the buffer). The batches take the
# signature of every batched kernel (kernels/batch.py); ``V``, ``A`` unused.

@njit(cache=True)
def center_of_mass_chunk(I, F, ws, Q, OUT, STATUS, lo, hi):
    m = model_views(I, F)
    wb = np.zeros(whole_body_size(m.nj, m.nv))
    w = whole_body_views(wb, m.nj, m.nv)[0]
    none = np.zeros(0)  # no v, no a
    for b in range(lo, hi):
        STATUS[b] = center_of_mass(I, F, ws, wb, Q[b], none, none)
        for k in range(3):  # element by element: a slice assignment compiles numba's shape-error path (seconds)
            OUT[b, k] = w.com[0, k]


@njit(cache=True)
def jacobian_center_of_mass_chunk(I, F, ws, Q, OUT, STATUS, lo, hi):
    m = model_views(I, F)
    wb = np.zeros(whole_body_size(m.nj, m.nv))
    w = whole_body_views(wb, m.nj, m.nv)[0]
    for b in range(lo, hi):
        STATUS[b] = jacobian_center_of_mass(I, F, ws, wb, Q[b])
        for r in range(3):
            for k in range(m.nv_red):
                OUT[b, r, k] = w.Jcom[k, r]


@njit(cache=True, nogil=True)
def center_of_mass_batch(I, F, WS, Q, V, A, OUT, STATUS, first, last):
    n, B = WS.shape[0], Q.shape[0]
    for c in range(first, last):
        center_of_mass_chunk(I, F, WS[c], Q, OUT, STATUS, c * B // n, (c + 1) * B // n)


@njit(cache=True, nogil=True)
def jacobian_center_of_mass_batch(I, F, WS, Q, V, A, OUT, STATUS, first, last):
    n, B = WS.shape[0], Q.shape[0]
    for c in range(first, last):
        jacobian_center_of_mass_chunk(I, F, WS[c], Q, OUT, STATUS, c * B // n, (c + 1) * B // n)
