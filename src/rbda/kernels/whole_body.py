"""Compiled whole-body quantities: centre of mass, energies, centroidal momentum and map, torque regressor.

They use the data workspace ``ws`` (``layout.py``) for the kinematics and a second buffer ``wb`` for their own
results, cut by :func:`whole_body_views` (``Data`` keeps it next to ``ws``, so the workspace layout that the
other kernels share is unchanged):

* ``mass (nj,)``, ``com, vcom, acom (nj, 3)``: subtree masses, centres of mass, their velocities and (classical)
  accelerations, world frame; entry 0 is the whole model;
* ``Jcom (nv, 3)``, ``Ag, dAg (nv, 6)``: one row per dof (``data.Jcom``, ``data.Ag`` are the transposed views);
* ``Ig (6, 6)``, ``hg, dhg (6,)``: centroidal inertia, momentum and its rate, ``[linear; angular]`` about the
  CoM in world axes; ``energy (3,)``: kinetic, potential, mechanical;
* ``L (nv, nv)``, ``D, Dinv (nv,)``: the sparse factorisation ``M = L^T D L`` (``data.U = L^T``);
* ``dYcrb (nj, 13)``: rates of the composite inertias (world frame); ``scratch (16, 6)``.

Sums over bodies are taken in the world frame, where composite quantities add without transforms; each body's
mass-weighted CoM terms use ``h = m c`` directly (no division until the end).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit, prange

from ..spatial.compiled import (
    dot6,
    force_act,
    force_cross,
    inertia_act,
    inertia_apply,
    motion_act,
    motion_act_inv,
    motion_cross,
)
from .checks import WRONG_DATA, begin
from .dynamics import ltdl, world_jacobians_and_inertias
from .kinematics import body_velocity, calc_joint, joint_acceleration, world_jacobian_columns
from .layout import model_views
from .views import view

WholeBodyViews = namedtuple("WholeBodyViews", "mass com vcom acom Jcom Ag dAg Ig hg dhg energy L D Dinv dYcrb scratch")


@njit(cache=True, inline="always")
def whole_body_views(wb, nj, nv):
    """Named views of a whole-body buffer, and the number of floats they span."""
    mass = wb[0:nj]
    o = nj
    com, vcom, acom = view(wb, o, (nj, 3)), view(wb, o + 3 * nj, (nj, 3)), view(wb, o + 6 * nj, (nj, 3))
    o += 9 * nj
    Jcom = view(wb, o, (nv, 3))
    o += 3 * nv
    Ag, dAg = view(wb, o, (nv, 6)), view(wb, o + 6 * nv, (nv, 6))
    o += 12 * nv
    Ig = view(wb, o, (6, 6))
    o += 36
    hg, dhg, energy = wb[o : o + 6], wb[o + 6 : o + 12], wb[o + 12 : o + 15]
    o += 15
    L = view(wb, o, (nv, nv))
    o += nv * nv
    D, Dinv = wb[o : o + nv], wb[o + nv : o + 2 * nv]
    o += 2 * nv
    dYcrb = view(wb, o, (nj, 13))
    o += 13 * nj
    scratch = view(wb, o, (16, 6))
    o += 96
    return WholeBodyViews(mass, com, vcom, acom, Jcom, Ag, dAg, Ig, hg, dhg, energy, L, D, Dinv, dYcrb, scratch), o


@njit(cache=True)
def whole_body_size(nj, nv):
    """Number of floats of a whole-body buffer for these sizes (the views of a scratch buffer count them)."""
    return whole_body_views(np.empty(23 * nj + nv * nv + 17 * nv + 147), nj, nv)[1]


@njit(cache=True, inline="always")
def cross3(a, b, out):
    o0, o1, o2 = a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]
    out[0], out[1], out[2] = o0, o1, o2


@njit(cache=True, inline="always")
def rotate(M, x, out):
    """``out = R x`` for the rotation of ``M = [R | p]``."""
    for r in range(3):
        out[r] = M[r, 0] * x[0] + M[r, 1] * x[1] + M[r, 2] * x[2]


@njit(cache=True, inline="always")
def rotate_inv(M, x, out):
    """``out = R^T x`` for the rotation of ``M = [R | p]`` (``out`` may be ``x``)."""
    o0 = M[0, 0] * x[0] + M[1, 0] * x[1] + M[2, 0] * x[2]
    o1 = M[0, 1] * x[0] + M[1, 1] * x[1] + M[2, 1] * x[2]
    o2 = M[0, 2] * x[0] + M[1, 2] * x[1] + M[2, 2] * x[2]
    out[0], out[1], out[2] = o0, o1, o2


@njit(cache=True, inline="always")
def shift_to_point(f, c, out):
    """``out`` = the force ``f`` (about the world origin) taken about the point ``c``: ``tau_c = tau_o - c x f``
    (``out`` may be ``f``)."""
    t0, t1, t2 = c[1] * f[2] - c[2] * f[1], c[2] * f[0] - c[0] * f[2], c[0] * f[1] - c[1] * f[0]
    out[0], out[1], out[2] = f[0], f[1], f[2]
    out[3], out[4], out[5] = f[3] - t0, f[4] - t1, f[5] - t2


@njit(cache=True)
def center_of_mass(I, F, ws, wb, q, v, a):
    """Subtree masses, CoMs and (if ``v``/``a`` are not None) CoM velocities and accelerations: sums of the
    mass-weighted body terms in the world frame from the leaves up, then averages; entry 0 stays in the world
    frame, subtree i > 0 is expressed in joint i's frame (Pinocchio's convention)."""
    m, d, jt, status = begin(I, F, ws, q, v, a)
    w, size = whole_body_views(wb, m.nj, m.nv)
    if size != wb.shape[0]:
        return WRONG_DATA
    if status:
        return status
    lin, tmp = w.scratch[0], w.scratch[1]
    for k in range(3):
        w.com[0, k] = w.vcom[0, k] = w.acom[0, k] = 0.0
    w.mass[0] = 0.0
    for i in range(1, m.nj):
        parent, Y = m.parents[i], m.inertias[i]
        if v is None:
            calc_joint(jt, i, q, d.zeros)
        else:
            calc_joint(jt, i, q, v)
            body_velocity(d.liMi[i], d.v[parent], d.vJ[i], d.v[i])
        w.mass[i] = Y[0]
        rotate(d.oMi[i], Y[1:4], w.com[i])  # m c_world = m p + R h
        for k in range(3):
            w.com[i, k] += Y[0] * d.oMi[i, k, 3]
        if v is not None:  # m v_c = R (m v + w x h), v = [v; w] local
            cross3(d.v[i, 3:], Y[1:4], lin)
            for k in range(3):
                lin[k] += Y[0] * d.v[i, k]
            rotate(d.oMi[i], lin, w.vcom[i])
            if a is not None:  # m a_c = R (m a + dw x h + w x (m v + w x h))
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
            if v is not None:
                w.vcom[parent, k] += w.vcom[i, k]
                if a is not None:
                    w.acom[parent, k] += w.acom[i, k]
    for i in range(m.nj):  # averages, world frame; then subtrees i > 0 in their joint frame (as Pinocchio)
        for k in range(3):
            if w.mass[i] > 0.0:
                w.com[i, k] = w.com[i, k] / w.mass[i] - (d.oMi[i, k, 3] if i > 0 else 0.0)
                w.vcom[i, k] = w.vcom[i, k] / w.mass[i] if v is not None else 0.0
                w.acom[i, k] = w.acom[i, k] / w.mass[i] if a is not None else 0.0
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
    m, d, jt, status = begin(I, F, ws, q, None, None)
    w, size = whole_body_views(wb, m.nj, m.nv)
    if size != wb.shape[0]:
        return WRONG_DATA
    if status:
        return status
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
    subtree_coms(d.oYcrb, d.oMi, w.mass, w.com)
    return 0


@njit(cache=True, inline="always")
def subtree_coms(oYcrb, oMi, mass, com):
    """``mass[i]``, ``com[i]`` of the composite inertias ``oYcrb`` (world); a massless subtree: its joint origin."""
    for i in range(oYcrb.shape[0]):
        mass[i] = oYcrb[i, 0]
        for k in range(3):
            com[i, k] = oYcrb[i, 1 + k] / mass[i] if mass[i] > 0.0 else oMi[i, k, 3]


@njit(cache=True)
def centroidal_map(I, F, ws, wb, q, v):
    """``Ag`` (rows per dof), ``Ig`` and, if ``v`` is not None, ``hg = Ag v`` (Orin and Goswami's CCRBA).

    Column k is the momentum ``Ycrb_i J_k`` of the subtree moved by dof k (world origin), taken about the CoM."""
    m, d, jt, status = begin(I, F, ws, q, v, None)
    w, size = whole_body_views(wb, m.nj, m.nv)
    if size != wb.shape[0]:
        return WRONG_DATA
    if status:
        return status
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
    if v is not None:
        for k in range(6):
            w.hg[k] = 0.0
        for col in range(m.nv):
            for k in range(6):
                w.hg[k] += w.Ag[col, k] * v[col]
        for k in range(3):
            w.vcom[0, k] = w.hg[k] / w.mass[0] if w.mass[0] > 0.0 else 0.0
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
    """``Ag``, ``dAg``, ``hg``, ``Ig``, ``J`` and ``dJ = ov x J`` (the columns' motion with their joint; joints
    whose subspace depends on q add ``oMi.act(dS/dt)`` in Python). Column k of joint i:
    ``dAg_k = X_c^* (dYcrb_i J_k + Ycrb_i dJ_k) - [0; dc/dt x (Ycrb_i J_k)_lin]``."""
    m, d, jt, status = begin(I, F, ws, q, v, None)
    w, size = whole_body_views(wb, m.nj, m.nv)
    if size != wb.shape[0]:
        return WRONG_DATA
    if status:
        return status
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
    return 0


@njit(cache=True)
def centroidal_momentum(I, F, ws, wb, q, v, a):
    """``hg`` and, if ``a`` is not None, ``dhg``: the sums of the body momenta ``Y_i v_i`` and of their rates
    ``Y_i a_i + v_i x* Y_i v_i`` (RNEA's forces without gravity), moved to the world frame, about the CoM.
    (About the moving CoM the rate has no extra term: ``dc/dt x h_lin = v_c x m v_c = 0``.)"""
    m, d, jt, status = begin(I, F, ws, q, v, a)
    w, size = whole_body_views(wb, m.nj, m.nv)
    if size != wb.shape[0]:
        return WRONG_DATA
    if status:
        return status
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
        if a is not None:  # f_i = Y_i a_i + v_i x* Y_i v_i
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
    if a is not None:
        shift_to_point(w.dhg, w.com[0], w.dhg)
        for k in range(3):
            w.acom[0, k] = w.dhg[k] / mass if mass > 0.0 else 0.0
    return 0


@njit(cache=True)
def energy(I, F, ws, wb, q, v):
    """Potential energy ``-g . sum m_i c_i`` and, if ``v`` is not None, kinetic energy
    ``1/2 sum v_i . Y_i v_i + 1/2 sum armature v^2`` (= ``1/2 v^T M v``) into ``energy``."""
    m, d, jt, status = begin(I, F, ws, q, v, None)
    w, size = whole_body_views(wb, m.nj, m.nv)
    if size != wb.shape[0]:
        return WRONG_DATA
    if status:
        return status
    Yv, mc = w.scratch[0], w.scratch[1]
    kinetic = potential = 0.0
    for i in range(1, m.nj):
        Y = m.inertias[i]
        if v is None:
            calc_joint(jt, i, q, d.zeros)
        else:
            calc_joint(jt, i, q, v)
            body_velocity(d.liMi[i], d.v[m.parents[i]], d.vJ[i], d.v[i])
            inertia_apply(Y, d.v[i], Yv)
            kinetic += 0.5 * dot6(d.v[i], Yv)
        rotate(d.oMi[i], Y[1:4], mc)
        for k in range(3):
            potential -= m.gravity[k] * (mc[k] + Y[0] * d.oMi[i, k, 3])
    if v is not None:
        for k in range(m.nv):
            kinetic += 0.5 * m.armature[k] * v[k] * v[k]
    w.energy[0], w.energy[1], w.energy[2] = kinetic, potential, kinetic + potential
    return 0


# ---------------------------------------------------------------------------------------------- regressors
@njit(cache=True)
def body_regressor(v, a, out):
    """``out (10, 6)``: row p is the force ``Y a + v x* Y v`` per unit of the dynamic parameter p of
    ``pi = (m, h, Ixx, Ixy, Iyy, Ixz, Iyz, Izz)`` (inertia about the frame origin). With
    ``alpha = a_lin + w x v_lin``: ``f = m alpha + a_ang x h + w x (w x h)``,
    ``tau = h x alpha + I a_ang + w x (I w)``."""
    w0, w1, w2, b0, b1, b2 = v[3], v[4], v[5], a[3], a[4], a[5]
    al0 = a[0] + w1 * v[2] - w2 * v[1]
    al1 = a[1] + w2 * v[0] - w0 * v[2]
    al2 = a[2] + w0 * v[1] - w1 * v[0]
    for p in range(10):
        for k in range(6):
            out[p, k] = 0.0
    out[0, 0], out[0, 1], out[0, 2] = al0, al1, al2
    for j in range(3):  # h = e_j
        e = (1.0 if j == 0 else 0.0, 1.0 if j == 1 else 0.0, 1.0 if j == 2 else 0.0)
        wxe = (w1 * e[2] - w2 * e[1], w2 * e[0] - w0 * e[2], w0 * e[1] - w1 * e[0])
        out[1 + j, 0] = b1 * e[2] - b2 * e[1] + w1 * wxe[2] - w2 * wxe[1]
        out[1 + j, 1] = b2 * e[0] - b0 * e[2] + w2 * wxe[0] - w0 * wxe[2]
        out[1 + j, 2] = b0 * e[1] - b1 * e[0] + w0 * wxe[1] - w1 * wxe[0]
        out[1 + j, 3] = e[1] * al2 - e[2] * al1
        out[1 + j, 4] = e[2] * al0 - e[0] * al2
        out[1 + j, 5] = e[0] * al1 - e[1] * al0
    # I x for the symmetric basis (xx, xy, yy, xz, yz, zz): columns of d(I x)/d(params)
    for p in range(6):
        Ia = inertia_basis_apply(p, b0, b1, b2)
        Iw = inertia_basis_apply(p, w0, w1, w2)
        out[4 + p, 3] = Ia[0] + w1 * Iw[2] - w2 * Iw[1]
        out[4 + p, 4] = Ia[1] + w2 * Iw[0] - w0 * Iw[2]
        out[4 + p, 5] = Ia[2] + w0 * Iw[1] - w1 * Iw[0]


@njit(cache=True, inline="always")
def inertia_basis_apply(p, x0, x1, x2):
    """``E_p x`` for the symmetric basis matrix ``E_p`` of the parameter p in (xx, xy, yy, xz, yz, zz)."""
    if p == 0:
        return (x0, 0.0, 0.0)
    if p == 1:
        return (x1, x0, 0.0)
    if p == 2:
        return (0.0, x1, 0.0)
    if p == 3:
        return (x2, 0.0, x0)
    if p == 4:
        return (0.0, x2, x1)
    return (0.0, 0.0, x2)


@njit(cache=True)
def joint_torque_regressor(I, F, ws, wb, q, v, a, Y):
    """``Y (nv, 10 (nj - 1))`` with ``rnea(q, v, a) = Y pi + armature * a``: block i holds, on the rows of the
    joints supporting body i, ``J_j^T oMi.act(B_i)`` with ``B_i`` the body regressor at (v_i, a_i - g)."""
    m, d, jt, status = begin(I, F, ws, q, v, a)
    w, size = whole_body_views(wb, m.nj, m.nv)
    if size != wb.shape[0]:
        return WRONG_DATA
    if status:
        return status
    B, tmp = w.scratch[0:10], w.scratch[10]
    for r in range(Y.shape[0]):
        for c in range(Y.shape[1]):
            Y[r, c] = 0.0
    for k in range(6):  # a_0 = -g
        d.a_gf[0, k] = -m.gravity[k]
    for i in range(1, m.nj):
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        calc_joint(jt, i, q, v)
        body_velocity(d.liMi[i], d.v[parent], d.vJ[i], d.v[i])
        motion_act_inv(d.liMi[i], d.a_gf[parent], d.a_gf[i])
        joint_acceleration(d.S[iv : iv + nvi], a[iv : iv + nvi], d.v[i], d.vJ[i], d.cJ[i], d.a_gf[i], tmp)
        world_jacobian_columns(d.oMi[i], d.S[iv : iv + nvi], d.J[iv : iv + nvi])
        body_regressor(d.v[i], d.a_gf[i], B)
        for p in range(10):
            force_act(d.oMi[i], B[p], tmp)
            for k in range(6):
                B[p, k] = tmp[k]
        j = i
        while j > 0:
            for row in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
                for p in range(10):
                    Y[row, 10 * (i - 1) + p] = dot6(d.J[row], B[p])
            j = m.parents[j]
    return 0


# ---------------------------------------------------------------------------------------------- branch-induced sparsity
# ``lam`` is the expanded parent array (0-based, -1 at the root): the nonzeros of row k of a lower-triangular
# factor below the diagonal are in columns lam[k], lam[lam[k]], ... (Featherstone, RBDA section 6.5).
@njit(cache=True)
def ltl(H, lam):
    """In place ``H = L^T L`` (Featherstone, RBDA Table 6.3): afterwards the lower part of ``H`` holds L."""
    for k in range(H.shape[0] - 1, -1, -1):
        H[k, k] = np.sqrt(H[k, k])
        i = lam[k]
        while i >= 0:
            H[k, i] /= H[k, k]
            i = lam[i]
        i = lam[k]
        while i >= 0:
            j = i
            while j >= 0:
                H[i, j] -= H[k, i] * H[k, j]
                j = lam[j]
            i = lam[i]


@njit(cache=True)
def mpy_h(H, lam, x, y):
    """``y = H x`` for a symmetric ``H`` with branch-induced sparsity (its lower part is read)."""
    n = H.shape[0]
    for k in range(n):
        y[k] = H[k, k] * x[k]
    for k in range(n):
        j = lam[k]
        while j >= 0:
            y[k] += H[k, j] * x[j]
            y[j] += H[k, j] * x[k]
            j = lam[j]


@njit(cache=True)
def mpy_l(L, lam, x, y):
    """``y = L x`` (``y`` may be ``x``: rows are done from the last, which only read earlier entries)."""
    for k in range(L.shape[0] - 1, -1, -1):
        acc = L[k, k] * x[k]
        j = lam[k]
        while j >= 0:
            acc += L[k, j] * x[j]
            j = lam[j]
        y[k] = acc


@njit(cache=True)
def mpy_lt(L, lam, x, y):
    """``y = L^T x`` (``y`` may be ``x``: row k is spread to its ancestors before any of them is read)."""
    for k in range(L.shape[0]):
        y[k] = x[k]
    for k in range(L.shape[0]):
        t = y[k]
        y[k] = L[k, k] * t
        j = lam[k]
        while j >= 0:
            y[j] += L[k, j] * t
            j = lam[j]


@njit(cache=True)
def mpy_li(L, lam, x, y):
    """``y = L^-1 x``: forward substitution over the ancestors (``y`` may be ``x``)."""
    for k in range(L.shape[0]):
        acc = x[k]
        j = lam[k]
        while j >= 0:
            acc -= L[k, j] * y[j]
            j = lam[j]
        y[k] = acc / L[k, k]


@njit(cache=True)
def mpy_lit(L, lam, x, y):
    """``y = L^-T x``: back substitution, each solved entry pushed to its ancestors (``y`` may be ``x``)."""
    for k in range(L.shape[0]):
        y[k] = x[k]
    for k in range(L.shape[0] - 1, -1, -1):
        y[k] /= L[k, k]
        j = lam[k]
        while j >= 0:
            y[j] -= L[k, j] * y[k]
            j = lam[j]


@njit(cache=True)
def cholesky_decompose(M, lam, L, D, Dinv):
    """``M = L^T D L`` with ``L`` unit lower-triangular of M's branch-induced pattern (Pinocchio's ``U = L^T``);
    reads the lower part of M on that pattern. Returns 0, or 1 if a pivot is not positive (or not finite)."""
    n = M.shape[0]
    for k in range(n):
        for j in range(n):
            L[k, j] = 0.0
        L[k, k] = M[k, k]
        j = lam[k]
        while j >= 0:
            L[k, j] = M[k, j]
            j = lam[j]
    ltdl(L, lam)
    for k in range(n):
        if not L[k, k] > 0.0 or not np.isfinite(L[k, k]):
            return 1
        D[k], Dinv[k], L[k, k] = L[k, k], 1.0 / L[k, k], 1.0
    return 0


@njit(cache=True)
def cholesky_solve(L, Dinv, lam, x):
    """In place ``x = M^-1 x = L^-1 D^-1 L^-T x``; returns 1 (and leaves x) if x is not finite, else 0."""
    for k in range(x.shape[0]):
        if not np.isfinite(x[k]):
            return 1
    mpy_lit(L, lam, x, x)
    for k in range(x.shape[0]):
        x[k] *= Dinv[k]
    mpy_li(L, lam, x, x)
    return 0


@njit(cache=True)
def cholesky_solve_columns(L, Dinv, lam, X):
    """In place ``X[r] = M^-1 X[r]`` for each row ``r`` of ``X (k, nv)``."""
    status = 0
    for r in range(X.shape[0]):
        status |= cholesky_solve(L, Dinv, lam, X[r])
    return status


@njit(cache=True)
def cholesky_minv(L, Dinv, lam, Minv):
    """``Minv = M^-1``, column by column; ``L^-T e_c`` only touches c and its ancestors."""
    n = L.shape[0]
    for c in range(n):
        x = Minv[c]  # M^-1 is symmetric: row c = column c
        for r in range(n):
            x[r] = 0.0
        x[c] = 1.0
        i = c
        while i >= 0:
            j = lam[i]
            while j >= 0:
                x[j] -= L[i, j] * x[i]
                j = lam[j]
            i = lam[i]
        for r in range(n):
            x[r] *= Dinv[r]
        mpy_li(L, lam, x, x)


# ---------------------------------------------------------------------------------------------- batches
# One chunk of states per thread, each with its own workspace ``WS[c]`` and whole-body buffer; the chunk loops are
# plain kernels (numba's parallel array analysis cannot follow the views of the buffer).
@njit(cache=True)
def center_of_mass_chunk(I, F, ws, Q, OUT, STATUS, lo, hi):
    m = model_views(I, F)
    wb = np.zeros(whole_body_size(m.nj, m.nv))
    w = whole_body_views(wb, m.nj, m.nv)[0]
    for b in range(lo, hi):
        STATUS[b] = center_of_mass(I, F, ws, wb, Q[b], None, None)
        OUT[b, :] = w.com[0]


@njit(cache=True)
def jacobian_center_of_mass_chunk(I, F, ws, Q, OUT, STATUS, lo, hi):
    m = model_views(I, F)
    wb = np.zeros(whole_body_size(m.nj, m.nv))
    w = whole_body_views(wb, m.nj, m.nv)[0]
    for b in range(lo, hi):
        STATUS[b] = jacobian_center_of_mass(I, F, ws, wb, Q[b])
        OUT[b, :, :] = w.Jcom.T


@njit(cache=True)
def ccrba_chunk(I, F, ws, Q, V, OUT, STATUS, lo, hi):
    m = model_views(I, F)
    wb = np.zeros(whole_body_size(m.nj, m.nv))
    w = whole_body_views(wb, m.nj, m.nv)[0]
    for b in range(lo, hi):
        STATUS[b] = centroidal_map(I, F, ws, wb, Q[b], V[b])
        OUT[b, :, :] = w.Ag.T


@njit(cache=True)
def centroidal_momentum_chunk(I, F, ws, Q, V, OUT, STATUS, lo, hi):
    m = model_views(I, F)
    wb = np.zeros(whole_body_size(m.nj, m.nv))
    w = whole_body_views(wb, m.nj, m.nv)[0]
    for b in range(lo, hi):
        STATUS[b] = centroidal_momentum(I, F, ws, wb, Q[b], V[b], None)
        OUT[b, :] = w.hg


@njit(cache=True, parallel=True)
def center_of_mass_batch(I, F, WS, Q, OUT, STATUS):
    n, B = WS.shape[0], Q.shape[0]
    for c in prange(n):
        center_of_mass_chunk(I, F, WS[c], Q, OUT, STATUS, c * B // n, (c + 1) * B // n)


@njit(cache=True, parallel=True)
def jacobian_center_of_mass_batch(I, F, WS, Q, OUT, STATUS):
    n, B = WS.shape[0], Q.shape[0]
    for c in prange(n):
        jacobian_center_of_mass_chunk(I, F, WS[c], Q, OUT, STATUS, c * B // n, (c + 1) * B // n)


@njit(cache=True, parallel=True)
def ccrba_batch(I, F, WS, Q, V, OUT, STATUS):
    n, B = WS.shape[0], Q.shape[0]
    for c in prange(n):
        ccrba_chunk(I, F, WS[c], Q, V, OUT, STATUS, c * B // n, (c + 1) * B // n)


@njit(cache=True, parallel=True)
def centroidal_momentum_batch(I, F, WS, Q, V, OUT, STATUS):
    n, B = WS.shape[0], Q.shape[0]
    for c in prange(n):
        centroidal_momentum_chunk(I, F, WS[c], Q, V, OUT, STATUS, c * B // n, (c + 1) * B // n)
