"""Compiled analytical derivatives of forward kinematics, RNEA and ABA (Carpentier & Mansard, RSS 2018).

Everything is in the world frame, and every joint's motion subspace is constant in its own frame (models with
universal, spherical-ZYX or composite joints are first split into chains of such joints, ``algorithms/derivatives``).
Then moving dof ``k`` (world column ``s = J_k``) moves every body of its subtree rigidly, ``dJ_i/dq_k = s x J_i``, and
only the velocity and acceleration of the parent ``p`` of joint ``k`` stay put. With

    dVdq_k = ov_p x s,    dAdq_k = oa_p x s + ov_p x dVdq_k,    dAdv_k = ov_k x s + dVdq_k,

the body force of any body ``i`` in the subtree of ``k`` varies as

    d f_i/dq_k = s x* f_i + Y_i dAdq_k + B_i dVdq_k,      d f_i/dv_k = Y_i dAdv_k + B_i s,

with ``Y_i`` its world inertia and ``B_i = ov_i x* Y_i - Y_i ov_i x + (. x* h_i)`` (``h_i = Y_i ov_i``). Summing
over subtrees (composite ``Yc``, ``Bc``, ``F``) and projecting on ``tau_j = J_j^T F_j`` gives, for joint ``i``
and ``j`` an ancestor of ``i`` (``s x* F`` cancels against ``dJ_i`` on the diagonal block)::

    dtau_j/dq_i = J_j^T (Yc_i dAdq_i + Bc_i dVdq_i + J_i x* F_i)      dtau_i/dq_i = J_i^T (Yc_i dAdq_i + Bc_i dVdq_i)
    dtau_i/dq_j = (Yc_i J_i)^T dAdq_j + (Bc_i^T J_i)^T dVdq_j
    dtau_j/dv_i = J_j^T (Yc_i dAdv_i + Bc_i J_i)                       dtau_i/dv_j = (Yc_i J_i)^T dAdv_j + (Bc_i^T J_i)^T J_j
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from .._native.jit import njit

from ..spatial.compiled import (
    add6,
    add6x6,
    dot6,
    force_act,
    force_cross,
    inertia_act,
    inertia_to_matrix,
    motion_act,
    motion_act_inv,
    motion_cross,
    matvec6,
    matvec6_add,
    matvec6_transpose,
    se3_compose,
    velocity_variation,
)
from .checks import NEEDS_FACTOR, SINGULAR, begin, left_out
from .frames import ids_status
from .dynamics import aba
from .sparse import inverse_through_factor, minus_minv_products
from .kinematics import calc_joint, world_jacobian_columns
from ..model.layout import data_views, model_views
from .mimic import (add_armature, add_armature_diagonal, compress_columns, compress_matrix, compress_tensor,
                    compress_vector, extended, model_block)
from .._native.views import borrowed, view

DerivativeViews = namedtuple(
    "DerivativeViews", "dVdq dAdq dAdv Yc Zc Xq Xv Bc Yo dtau_dq dtau_dv ddq_dq ddq_dv"
)


@njit(cache=True, inline="always")
def derivative_views(dws, nj, nv):
    """Named views of a derivative workspace, and the number of floats they span."""
    n6, n36, nn = 6 * nv, 36 * nj, nv * nv
    o = 7 * n6 + 2 * n36  # per dof: dVdq dAdq dAdv Yc Zc Xq Xv (nv, 6); per joint: Bc Yo (nj, 6, 6)
    views = DerivativeViews(
        view(dws, 0, (nv, 6)), view(dws, n6, (nv, 6)), view(dws, 2 * n6, (nv, 6)), view(dws, 3 * n6, (nv, 6)),
        view(dws, 4 * n6, (nv, 6)), view(dws, 5 * n6, (nv, 6)), view(dws, 6 * n6, (nv, 6)),
        view(dws, 7 * n6, (nj, 6, 6)), view(dws, 7 * n6 + n36, (nj, 6, 6)),
        view(dws, o, (nv, nv)), view(dws, o + nn, (nv, nv)), view(dws, o + 2 * nn, (nv, nv)),
        view(dws, o + 3 * nn, (nv, nv)),
    )
    return views, o + 4 * nn


def derivative_size(nj: int, nv: int) -> int:
    return 42 * nv + 72 * nj + 4 * nv * nv + second_order_size(nj, nv)


@njit(cache=True)
def forward_derivatives(I, F, ws, dws, q, v, a, fext, gravity, dynamics, kinematics):
    """Forward pass: ``oMi``, ``J``, ``ov``, ``oa_gf`` (with ``-g`` when ``gravity``, else the plain ``oa``, also
    copied to ``oa``), ``dVdq``, ``dAdq``, ``dAdv``; with ``dynamics`` also the world inertias ``Yo``, body forces
    ``of`` (minus ``fext``) and velocity variations ``Bc`` of every body. Without ``kinematics``, after
    :func:`~rbda.kernels.dynamics.aba` at ``a = ddq``: ``oMi``, ``J``, ``ov``, ``oa_gf`` and the world inertias
    ``oYcrb`` are those of its passes (``q`` and ``v`` are then passed empty: ABA checked them)."""
    m, d, jt, status = begin(I, F, ws, q, v, a)
    if status:
        return status
    q, v, a = extended(m, q, d.qx), extended(m, v, d.vx), extended(m, a, d.ax)  # mimic joints: q_ext, G v, G a
    g, _ = derivative_views(borrowed(dws), m.nj, m.nv)
    ovJ, tmp, h, Y13 = d.v6[0], d.v6[1], d.v6[2], d.y13
    for k in range(6):
        d.oa_gf[0, k] = -m.gravity[k] if gravity else 0.0
    for i in range(1, m.nj):
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        Y = d.oYcrb[i]  # the world inertia of body i, ABA's
        if kinematics:
            calc_joint(jt, i, q, v)
            world_jacobian_columns(d.oMi[i], d.S[iv : iv + nvi], d.J[iv : iv + nvi])
            motion_act(d.oMi[i], d.vJ[i], ovJ)
            motion_cross(d.ov[parent], ovJ, tmp)  # oa_i = oa_p + ov_p x ovJ + oMi cJ + J a_i
            for k in range(6):
                d.ov[i, k] = d.ov[parent, k] + ovJ[k]
                d.oa_gf[i, k] = d.oa_gf[parent, k] + tmp[k]
            motion_act(d.oMi[i], d.cJ[i], tmp)
            for k in range(6):
                d.oa_gf[i, k] += tmp[k]
            for c in range(iv, iv + nvi):
                for k in range(6):
                    d.oa_gf[i, k] += d.J[c, k] * a[c]
            Y = Y13
            inertia_act(d.oMi[i], m.inertias[i], Y)
        for c in range(iv, iv + nvi):
            motion_cross(d.ov[parent], d.J[c], g.dVdq[c])
            motion_cross(d.oa_gf[parent], d.J[c], g.dAdq[c])
            motion_cross(d.ov[parent], g.dVdq[c], tmp)
            motion_cross(d.ov[i], d.J[c], g.dAdv[c])
            for k in range(6):
                g.dAdq[c, k] += tmp[k]
                g.dAdv[c, k] += g.dVdq[c, k]
        if not gravity:  # element by element: a slice assignment compiles numba's shape-error path (~3 s)
            for k in range(6):
                d.oa[i, k] = d.oa_gf[i, k]
        if dynamics:  # Y_i, h_i = Y_i ov_i, f_i = Y_i oa_i + ov_i x* h_i - fext, B_i
            inertia_to_matrix(Y, g.Yo[i])
            matvec6(g.Yo[i], d.ov[i], h)
            matvec6(g.Yo[i], d.oa_gf[i], d.of[i])
            force_cross(d.ov[i], h, tmp)
            for k in range(6):
                d.of[i, k] += tmp[k]
            if fext is not None and fext.shape[0]:  # None or empty: no external forces
                force_act(d.oMi[i], fext[i], tmp)
                for k in range(6):
                    d.of[i, k] -= tmp[k]
            velocity_variation(g.Yo[i], d.ov[i], h, g.Bc[i], d.v6[6], d.v6[7])
    return 0


@njit(cache=True)
def rnea_derivatives(I, F, ws, dws, q, v, a, fext):
    """``tau`` into ``d.tau``, ``dtau/dq``, ``dtau/dv`` into the derivative workspace and ``dtau/da = M`` into
    ``d.M`` (see the module docstring for the formulas). With mimic joints the recursion runs over the extended
    columns and the epilogue compresses: ``tau = G^T tau_ext``, ``dtau/dx = G^T (dtau_ext/dx_ext) G`` (``G``
    constant: the chain rule in the tangent space), ``M = G^T M_ext G``, then adds the model's armature."""
    status = forward_derivatives(I, F, ws, dws, q, v, a, fext, True, True, True)
    if status:
        return status
    backward_derivatives(I, F, ws, dws, a)
    return 0


@njit(cache=True)
def static_torque_derivatives(I, F, ws, dws, q, fext):
    """``tau = g(q) - sum J_i^T fext_i`` into ``d.tau`` and its derivative ``dtau/dq`` into the derivative workspace:
    :func:`rnea_derivatives` at ``v = a = 0``, where ``ov = 0``, ``B = 0``, ``dVdq = dAdv = 0`` and every body
    accelerates as ``a_0 = -g``, so ``dAdq_k = a_0 x s_k``; ``dtau/dv`` and ``M`` are not computed."""
    m, d, jt, status = begin(I, F, ws, q, left_out(ws), left_out(ws))
    if status:
        return status
    q = extended(m, q, d.qx)
    g, _ = derivative_views(borrowed(dws), m.nj, m.nv)
    a0, G, tmp, Y13 = d.oa_gf[0], d.v6[0], d.v6[1], d.y13
    for k in range(6):
        a0[k] = -m.gravity[k]
    for i in range(1, m.nj):  # forward: J, dAdq = a_0 x s, Y_i, f_i = Y_i a_0 - fext_i
        iv, nvi = m.idx_v[i], m.nvs[i]
        calc_joint(jt, i, q, d.zeros)
        world_jacobian_columns(d.oMi[i], d.S[iv : iv + nvi], d.J[iv : iv + nvi])
        for c in range(iv, iv + nvi):
            motion_cross(a0, d.J[c], g.dAdq[c])
        inertia_act(d.oMi[i], m.inertias[i], Y13)
        inertia_to_matrix(Y13, g.Yo[i])
        matvec6(g.Yo[i], a0, d.of[i])
        if fext.shape[0]:  # empty: no external forces
            force_act(d.oMi[i], fext[i], tmp)
            for k in range(6):
                d.of[i, k] -= tmp[k]
    if m.nq_mimic:  # the compressed matrix of the last call overlaps entries that the loops below leave alone
        g.dtau_dq[:, :] = 0.0
    Yc, Fc = g.Yo, d.of  # become the subtree sums, from the leaves up
    for i in range(m.nj - 1, 0, -1):  # backward: tau_i = J_i^T F_i, the blocks of dtau/dq
        iv, nvi, parent = m.idx_v[i], m.nvs[i], m.parents[i]
        for c in range(iv, iv + nvi):
            d.tau[c] = dot6(d.J[c], Fc[i])
            matvec6(Yc[i], d.J[c], g.Yc[c])
            matvec6(Yc[i], g.dAdq[c], g.Xq[c])  # Xq = Yc dA/dq
        for c in range(iv, iv + nvi):  # the joint's own block
            for r in range(iv, iv + nvi):
                g.dtau_dq[r, c] = dot6(d.J[r], g.Xq[c])
        for c in range(iv, iv + nvi):  # blocks with the ancestors
            force_cross(d.J[c], Fc[i], G)
            for k in range(6):
                G[k] += g.Xq[c, k]
            j = parent
            while j > 0:
                for r in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
                    g.dtau_dq[r, c] = dot6(d.J[r], G)
                    g.dtau_dq[c, r] = dot6(g.Yc[c], g.dAdq[r])
                j = m.parents[j]
        if parent > 0:  # subtree sums (one world frame: no transform)
            add6(Fc[parent], Fc[i])
            add6x6(Yc[parent], Yc[i])
    compress_vector(m, d.tau)  # mimic joints: tau = G^T tau_ext, dtau/dq = G^T X_ext G
    compress_matrix(m, g.dtau_dq)
    return 0


@njit(cache=True)
def backward_derivatives(I, F, ws, dws, a):
    """The backward pass of :func:`rnea_derivatives` after its forward pass (:func:`forward_derivatives`)."""
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    g, _ = derivative_views(borrowed(dws), m.nj, m.nv)
    a_model, a = a, extended(m, a, d.ax)
    if m.nq_mimic:  # the compressed matrices of the last call overlap entries that the loops below leave alone
        for X in (g.dtau_dq, g.dtau_dv, d.M):
            X[:, :] = 0.0
    Yc, Bc, Fc = g.Yo, g.Bc, d.of  # become the subtree sums, from the leaves up
    G = d.v6[0]
    for i in range(m.nj - 1, 0, -1):
        iv, nvi, parent = m.idx_v[i], m.nvs[i], m.parents[i]
        for c in range(iv, iv + nvi):
            s = d.J[c]
            d.tau[c] = dot6(s, Fc[i]) + m.armature[c] * a[c]
            matvec6(Yc[i], s, g.Yc[c])
            matvec6_transpose(Bc[i], s, g.Zc[c])  # Zc = Bc^T s
            matvec6(Yc[i], g.dAdq[c], g.Xq[c])  # Xq = Yc dA/dq + Bc dV/dq
            matvec6_add(Bc[i], g.dVdq[c], g.Xq[c], False)
            matvec6(Yc[i], g.dAdv[c], g.Xv[c])  # Xv = Yc dA/dv + Bc s
            matvec6_add(Bc[i], s, g.Xv[c], False)
        for c in range(iv, iv + nvi):  # the joint's own block
            for r in range(iv, iv + nvi):
                g.dtau_dq[r, c] = dot6(d.J[r], g.Xq[c])
                g.dtau_dv[r, c] = dot6(d.J[r], g.Xv[c])
                d.M[r, c] = dot6(d.J[r], g.Yc[c])
            d.M[c, c] += m.armature[c]
        for c in range(iv, iv + nvi):  # blocks with the ancestors
            force_cross(d.J[c], Fc[i], G)
            for k in range(6):
                G[k] += g.Xq[c, k]
            j = parent
            while j > 0:
                for r in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
                    g.dtau_dq[r, c] = dot6(d.J[r], G)
                    g.dtau_dv[r, c] = dot6(d.J[r], g.Xv[c])
                    d.M[r, c] = dot6(d.J[r], g.Yc[c])
                    d.M[c, r] = d.M[r, c]
                    g.dtau_dq[c, r] = dot6(g.Yc[c], g.dAdq[r]) + dot6(g.Zc[c], g.dVdq[r])
                    g.dtau_dv[c, r] = dot6(g.Yc[c], g.dAdv[r]) + dot6(g.Zc[c], d.J[r])
                j = m.parents[j]
        if parent > 0:  # subtree sums (one world frame: no transform)
            add6(Fc[parent], Fc[i])
            add6x6(Yc[parent], Yc[i])
            add6x6(Bc[parent], Bc[i])
    compress_vector(m, d.tau)  # mimic joints: tau = G^T tau_ext, X = G^T X_ext G (+ armature)
    add_armature(m, a_model, d.tau)
    compress_matrix(m, g.dtau_dq)
    compress_matrix(m, g.dtau_dv)
    compress_matrix(m, d.M)
    add_armature_diagonal(m, d.M)
    return 0


@njit(cache=True)
def aba_derivatives(I, F, ws, dws, q, v, tau, fext):
    """``ddq = FD(q, v, tau)`` into ``d.ddq``; ``dddq/dq = -M^-1 dtau/dq``, ``dddq/dv = -M^-1 dtau/dv`` at
    ``(q, v, ddq)`` into the derivative workspace and ``dddq/dtau = M^-1`` into ``d.Minv``, through the sparse
    factor of ``M``; with mimic joints these are the model's compressed ``(nv_red, nv_red)`` blocks, and ``ddq``
    comes from that factor too (``aba`` returns ``NEEDS_FACTOR``)."""
    m = model_views(borrowed(I), borrowed(F))  # borrowed: no reference counting on the rows sliced below
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    status = aba(I, F, ws, q, v, tau, fext)
    kinematics = status == NEEDS_FACTOR  # mimic joints: no ABA passes to build on
    if kinematics:  # ddq = M^-1 (tau - b): M and b = RNEA(q, v, 0) from the derivatives' pass at a = 0
        status = rnea_derivatives(I, F, ws, dws, q, v, d.zeros[: m.nv_red], fext)
        Minv = model_block(m, d.Minv)
        if status == 0 and not inverse_through_factor(model_block(m, d.M), m.dof_parents, model_block(m, d.D), Minv):
            status = SINGULAR
        if status == 0:
            for r in range(m.nv_red):
                d.ddq[r] = 0.0
                for c in range(m.nv_red):
                    d.ddq[r] += Minv[r, c] * (tau[c] - d.tau[c])
    if status:
        return status
    # RNEA's derivatives at (q, v, ddq) (reads d.ddq, writes neither it nor d.D); after ABA, on the kinematics,
    # accelerations and world inertias of its passes, with q and v passed empty (ABA checked them)
    if kinematics:
        status = rnea_derivatives(I, F, ws, dws, q, v, d.ddq, fext)
    else:
        status = forward_derivatives(I, F, ws, dws, left_out(ws), left_out(ws), d.ddq, fext, True, True, False)
        if status == 0:
            backward_derivatives(I, F, ws, dws, d.ddq)
    if status:
        return status
    g = derivative_views(borrowed(dws), m.nj, m.nv)[0]
    lam = m.dof_parents
    M, H, Minv = model_block(m, d.M), model_block(m, d.D), model_block(m, d.Minv)  # the model's (nv, nv)
    dtau_dq, dtau_dv = model_block(m, g.dtau_dq), model_block(m, g.dtau_dv)
    ddq_dq, ddq_dv = model_block(m, g.ddq_dq), model_block(m, g.ddq_dv)
    if not inverse_through_factor(M, lam, H, Minv):
        return SINGULAR
    minus_minv_products(Minv, lam, dtau_dq, dtau_dv, ddq_dq, ddq_dv)
    return 0


# ------------------------------------------------------------------------------------ kinematics derivatives
@njit(cache=True)
def forward_kinematics_derivatives(I, F, ws, dws, q, v, a):
    """The forward pass without gravity nor forces: ``oMi``, ``J``, ``ov``, ``oa``, the local ``v``, ``a``
    and the columns ``dVdq``, ``dAdq``, ``dAdv`` that the getters below combine."""
    status = forward_derivatives(I, F, ws, dws, q, v, a, view(ws, 0, (0, 6)), False, False, True)
    if status:
        return status
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    for i in range(1, m.nj):
        motion_act_inv(d.oMi[i], d.ov[i], d.v[i])
        motion_act_inv(d.oMi[i], d.oa[i], d.a[i])
    return 0


@njit(cache=True, inline="always")
def express(x, dq_column, s, X, oMf, rf, out, tmp):
    """Write the world-frame variation ``x`` of a body quantity ``X`` (``ov`` or ``oa``) in reference frame
    ``rf`` (0 WORLD, 1 LOCAL, 2 LOCAL_WORLD_ALIGNED at ``oMf``'s origin) into ``out``. For a variation along a
    configuration column (``dq_column``) the frame itself moves with the world twist ``s``."""
    if rf == 0:
        out[:] = x
    elif rf == 1:  # d(oMf^-1 X) = oMf^-1 (dX - s x X)
        if dq_column:
            motion_cross(s, X, tmp)
            for k in range(6):
                tmp[k] = x[k] - tmp[k]
            motion_act_inv(oMf, tmp, out)
        else:
            motion_act_inv(oMf, x, out)
    else:  # at the frame origin p, world axes: lin' = lin + ang x p, and p moves at s_lin + s_ang x p
        px, py, pz = oMf[0, 3], oMf[1, 3], oMf[2, 3]
        out[0] = x[0] + x[4] * pz - x[5] * py
        out[1] = x[1] + x[5] * px - x[3] * pz
        out[2] = x[2] + x[3] * py - x[4] * px
        out[3], out[4], out[5] = x[3], x[4], x[5]
        if dq_column:
            dpx = s[0] + s[4] * pz - s[5] * py
            dpy = s[1] + s[5] * px - s[3] * pz
            dpz = s[2] + s[3] * py - s[4] * px
            out[0] += X[4] * dpz - X[5] * dpy
            out[1] += X[5] * dpx - X[3] * dpz
            out[2] += X[3] * dpy - X[4] * dpx


@njit(cache=True, inline="always")
def column_partials(s, ov, oa, dVdq, dAdq, dAdv, v_q, a_q, a_v, tmp):
    """The partials along one dof (world column ``s`` and its rows ``dVdq``, ``dAdq``, ``dAdv``) of a body's world
    twist ``ov`` and acceleration ``oa``, the body moving with the dof: ``v_q = s x ov + dVdq``,
    ``a_q = s x oa + dAdq + dVdq x ov``, ``a_v = dAdv + s x ov`` (``d ov/dv = d oa/da = s``)."""
    motion_cross(s, ov, v_q)
    motion_cross(s, oa, a_q)
    motion_cross(dVdq, ov, tmp)
    for k in range(6):
        a_v[k] = dAdv[k] + v_q[k]
        a_q[k] += dAdq[k] + tmp[k]
        v_q[k] += dVdq[k]


VELOCITY_ONLY, SPATIAL_ACCELERATION, POINT_CLASSICAL_ACCELERATION = 0, 1, 2  # motion_derivatives' ``accel``


@njit(cache=True)
def motion_derivatives(I, F, ws, dws, joint, placement, rf, accel, v_dq, v_dv, a_dq, a_dv, a_da):
    """Partial derivatives ``(6, nv)`` of the velocity (and, unless ``accel`` is VELOCITY_ONLY, of the spatial
    acceleration) of the frame at ``placement`` ``(3, 4)`` on ``joint`` (empty: the joint's frame), in ``rf``, from the last
    :func:`forward_kinematics_derivatives`:

        d ov/dq_c = s x ov + dVdq_c,   d ov/dv_c = s,
        d oa/dq_c = s x oa + dAdq_c + dVdq_c x ov,   d oa/dv_c = dAdv_c + s x ov,   d oa/da_c = s

    for the columns ``c`` (world twist ``s``) of the joints that support ``joint``; the other columns are 0. With
    ``accel`` POINT_CLASSICAL_ACCELERATION the linear rows of ``a_dq``, ``a_dv`` hold the derivatives of the
    classical acceleration of the frame's origin, ``a_lin + w x v_lin`` with the frame's velocity ``(v_lin, w)`` in
    ``rf``, by the product rule ``d a_lin + dw x v_lin + w x d v_lin``. The outputs are ``(6, nv_extended)``; with
    mimic joints the model's ``X G`` ``(6, nv_red)`` is left in their first entries."""
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    g, _ = derivative_views(borrowed(dws), m.nj, m.nv)
    oMf = d.tmp[:12].reshape((3, 4))  # scratch: the frame's placement
    if placement.shape[0]:
        se3_compose(d.oMi[joint], placement, oMf)
    else:  # the joint's own frame (element by element: no shape-error path to compile)
        for r in range(3):
            for c in range(4):
                oMf[r, c] = d.oMi[joint, r, c]
    x, y, z, out, tmp, vf = d.v6[8], d.v6[9], d.v6[10], d.v6[11], d.v6[12], d.v6[13]  # scratch
    ov, oa = d.ov[joint], d.oa[joint]
    express(ov, False, ov, ov, oMf, rf, vf, tmp)  # the frame's velocity in rf
    v_dq[:, :] = 0.0
    v_dv[:, :] = 0.0
    if accel:
        a_dq[:, :] = 0.0
        a_dv[:, :] = 0.0
        a_da[:, :] = 0.0
    j = joint
    while j > 0:
        for c in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
            s = d.J[c]
            column_partials(s, ov, oa, g.dVdq[c], g.dAdq[c], g.dAdv[c], x, y, z, tmp)
            express(x, True, s, ov, oMf, rf, out, tmp)
            v_dq[:, c] = out
            express(s, False, s, ov, oMf, rf, out, tmp)
            v_dv[:, c] = out
            if accel:
                a_da[:, c] = out
                express(y, True, s, oa, oMf, rf, out, tmp)
                a_dq[:, c] = out
                express(z, False, s, oa, oMf, rf, out, tmp)
                a_dv[:, c] = out
                if accel == POINT_CLASSICAL_ACCELERATION:
                    add_velocity_product(vf, v_dq[:, c], a_dq[:, c])
                    add_velocity_product(vf, v_dv[:, c], a_dv[:, c])
        j = m.parents[j]
    compress_columns(m, v_dq)  # mimic joints: X = X_ext G
    compress_columns(m, v_dv)
    if accel:
        compress_columns(m, a_dq)
        compress_columns(m, a_dv)
        compress_columns(m, a_da)


@njit(cache=True)
def frame_motion_derivatives(I, F, ws, dws, frame_id, joint_id, P, rf, accel, out):
    """:func:`motion_derivatives` into ``out (5, 6, nv_extended)`` (``v_dq, v_dv, a_dq, a_dv, a_da``; only the first
    two unless ``accel``) of frame ``frame_id``, or if ``frame_id < 0`` of the frame at placement ``P (3, 4)`` on
    joint ``joint_id`` (the joint's own frame if ``P`` is empty); the status NOT_AN_ID for an id out of range."""
    m = model_views(borrowed(I), borrowed(F))
    status = ids_status(m, frame_id, joint_id)
    if status:
        return status
    joint = joint_id
    if frame_id >= 0:
        joint, P = m.frame_parents[frame_id], m.frame_placements[frame_id]
    motion_derivatives(I, F, ws, dws, joint, P, rf, accel, out[0], out[1], out[2], out[3], out[4])
    return 0


@njit(cache=True, inline="always")
def add_velocity_product(vf, dvf, out):
    """``out[:3] += dw x v_lin + w x dv_lin``: the variation of ``w x v_lin`` for the velocity ``vf = (v_lin, w)``
    varied by ``dvf``."""
    out[0] += dvf[4] * vf[2] - dvf[5] * vf[1] + vf[4] * dvf[2] - vf[5] * dvf[1]
    out[1] += dvf[5] * vf[0] - dvf[3] * vf[2] + vf[5] * dvf[0] - vf[3] * dvf[2]
    out[2] += dvf[3] * vf[1] - dvf[4] * vf[0] + vf[3] * dvf[1] - vf[4] * dvf[0]


# ------------------------------------------------------------------------------------ centroidal derivatives
@njit(cache=True, inline="always")
def sub_cross(x, a, b, out):
    """``out = x - a x b`` (3-vectors; ``out`` may be ``x``)."""
    o0 = x[0] - (a[1] * b[2] - a[2] * b[1])
    o1 = x[1] - (a[2] * b[0] - a[0] * b[2])
    o2 = x[2] - (a[0] * b[1] - a[1] * b[0])
    out[0], out[1], out[2] = o0, o1, o2


@njit(cache=True)
def centroidal_derivatives(I, F, ws, dws, q, v, a, dh_dq, dhdot_dq, dhdot_dv, dhdot_da, hg, dhg, com_mass):
    """Partial derivatives ``(6, nv)`` of the centroidal momentum ``hg`` and of its rate ``dhg`` (no gravity).

    About the world origin, a body of the subtree of joint k moves rigidly with column s (module docstring), so
    with the subtree sums ``Yc``, ``Bc``, momentum ``Hc`` and force ``Fc``:
    ``dh_o/dq_c = s x* Hc + Yc dVdq_c``, ``dhdot_o/dq_c = s x* Fc + Yc dAdq_c + Bc dVdq_c``,
    ``dhdot_o/dv_c = Yc dAdv_c + Bc s``, ``dhdot_o/da_c = Yc s``, and the CoM moves by ``(Yc s)_lin / m``.
    Then ``hg = [p; L_o - c x p]`` and ``dhg = [f; n_o - c x f]`` (``dc/dt x p = 0``). ``com_mass`` (4,) receives
    the CoM and the total mass; nothing else is written for a massless model. The outputs are ``(6, nv_extended)``;
    with mimic joints the model's ``X G`` ``(6, nv_red)`` is left in their first entries."""
    status = forward_derivatives(I, F, ws, dws, q, v, a, view(ws, 0, (0, 6)), False, True, True)
    if status:
        return status
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    g, _ = derivative_views(borrowed(dws), m.nj, m.nv)
    Yc, Bc, Fc = g.Yo, g.Bc, d.of
    Hc, tmp, dc = np.empty((m.nj, 6)), np.empty(6), np.empty((m.nv, 3))  # the subtree momenta (data.ov stays)
    for k in range(6):
        Fc[0, k] = 0.0
        Yc[0, k, :] = 0.0
    for i in range(1, m.nj):
        matvec6(Yc[i], d.ov[i], tmp)
        Hc[i, :] = tmp
    Hc[0, :] = 0.0
    for i in range(m.nj - 1, 0, -1):
        parent = m.parents[i]
        for c in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            s = d.J[c]
            force_cross(s, Hc[i], dh_dq[:, c])
            matvec6(Yc[i], g.dVdq[c], tmp)
            dh_dq[:, c] += tmp
            force_cross(s, Fc[i], dhdot_dq[:, c])
            matvec6(Yc[i], g.dAdq[c], tmp)
            dhdot_dq[:, c] += tmp
            matvec6(Bc[i], g.dVdq[c], tmp)
            dhdot_dq[:, c] += tmp
            matvec6(Yc[i], g.dAdv[c], dhdot_dv[:, c])
            matvec6(Bc[i], s, tmp)
            dhdot_dv[:, c] += tmp
            matvec6(Yc[i], s, tmp)
            dhdot_da[:, c] = tmp
            dc[c, :] = tmp[:3]
        for r in range(6):
            Fc[parent, r] += Fc[i, r]
            Hc[parent, r] += Hc[i, r]
            for k in range(6):
                Yc[parent, r, k] += Yc[i, r, k]
                Bc[parent, r, k] += Bc[i, r, k]
    mass = Yc[0, 0, 0]
    com_mass[3] = mass
    if not mass > 0.0:
        return 0
    com = com_mass[:3]
    for k in range(3):  # c = h / m, with h read from the composite inertia [[m, -h_x], [h_x, I_o]]
        com[k] = (Yc[0, 1, 5], -Yc[0, 0, 5], Yc[0, 0, 4])[k] / mass
    p, f = Hc[0, :3], Fc[0, :3]
    hg[:3] = p
    dhg[:3] = f
    sub_cross(Hc[0, 3:], com, p, hg[3:])  # L_o - c x p
    sub_cross(Fc[0, 3:], com, f, dhg[3:])
    dcc = np.empty(3)
    for c in range(m.nv):  # move every column to the CoM
        for k in range(3):
            dcc[k] = dc[c, k] / mass
        sub_cross(dh_dq[3:, c], dcc, p, dh_dq[3:, c])
        sub_cross(dh_dq[3:, c], com, dh_dq[:3, c], dh_dq[3:, c])
        sub_cross(dhdot_dq[3:, c], dcc, f, dhdot_dq[3:, c])
        sub_cross(dhdot_dq[3:, c], com, dhdot_dq[:3, c], dhdot_dq[3:, c])
        sub_cross(dhdot_dv[3:, c], com, dhdot_dv[:3, c], dhdot_dv[3:, c])
        sub_cross(dhdot_da[3:, c], com, dhdot_da[:3, c], dhdot_da[3:, c])
    for X in (dh_dq, dhdot_dq, dhdot_dv, dhdot_da):  # mimic joints: X = X_ext G
        compress_columns(m, X)
    return 0


# ------------------------------------------------------------------------------------ second-order RNEA derivatives
SecondOrderViews = namedtuple("SecondOrderViews", "dJ dV dA dW dYJ dZJ dXq dXv dG hnu dYc dBc dF tmp")


def second_order_size(nj: int, nv: int) -> int:
    return 54 * nv + 6 * nj + 126


@njit(cache=True, inline="always")
def second_order_views(dws, nj, nv):
    """Named views of the second-order part of a derivative workspace (after :func:`derivative_views`' part): per
    dof the variations of the column quantities along one direction, per body ``Yc nu``, and the direction's
    ``dYc``, ``dBc``, ``dF`` at the joint it moves."""
    o, n6 = derivative_views(dws, nj, nv)[1], 6 * nv
    p = o + 9 * n6 + 6 * nj
    return SecondOrderViews(
        view(dws, o, (nv, 6)), view(dws, o + n6, (nv, 6)), view(dws, o + 2 * n6, (nv, 6)),
        view(dws, o + 3 * n6, (nv, 6)), view(dws, o + 4 * n6, (nv, 6)), view(dws, o + 5 * n6, (nv, 6)),
        view(dws, o + 6 * n6, (nv, 6)), view(dws, o + 7 * n6, (nv, 6)), view(dws, o + 8 * n6, (nv, 6)),
        view(dws, o + 9 * n6, (nj, 6)), view(dws, p, (6, 6)),
        view(dws, p + 36, (6, 6)), view(dws, p + 72, (6,)), view(dws, p + 78, (8, 6)),
    )


@njit(cache=True, inline="always")
def vary_operators(Yc, Bc, sigma, nu, along_q, dYc, dBc, scratch):
    """``dYc = sigma x* Yc - Yc sigma x`` (only ``along_q``, else 0) and ``dBc = sigma x* Bc - Bc sigma x +
    B(Yc, nu)``, ``B(Y, nu) = nu x* Y - Y nu x + (. x* Y nu)`` (:func:`velocity_variation`). As ``X (sigma x) =
    -(sigma x* X^T)^T``, with ``Yc`` symmetric ``dYc = P + P^T``, ``P = sigma x* Yc``; each column of these
    products is one force cross product."""
    h, e, t = scratch[0], scratch[1], scratch[2]
    matvec6(Yc, nu, h)
    velocity_variation(Yc, nu, h, dBc, e, t)
    for c in range(6):
        for x in range(6):
            dYc[x, c] = 0.0
    if not along_q:
        return
    for c in range(6):
        force_cross(sigma, Yc[:, c], t)
        for x in range(6):
            dYc[x, c] += t[x]
            dYc[c, x] += t[x]
        force_cross(sigma, Bc[:, c], t)
        for x in range(6):
            dBc[x, c] += t[x]
        force_cross(sigma, Bc[c, :], t)  # row c of (sigma x* Bc^T)^T = -Bc sigma x
        for x in range(6):
            dBc[c, x] += t[x]


@njit(cache=True, inline="always")
def vary_joint(m, d, g, w, r, sigma, nu, alpha, along_q):
    """The direction's variations at joint ``r`` (parent ``p`` fixed): of the composites, ``dYc = sigma ~ Yc``,
    ``dBc = sigma ~ Bc + B(Yc, nu)``, ``dF = sigma x* F + Yc alpha + Bc nu``, and of the own dofs' vectors,
    ``dJ = sigma x J``, ``dV = ov_p x dJ``, ``dA = oa_p x dJ + ov_p x dV``, ``dW = dov_r x J + ov_r x dJ + dV``
    with ``dov_r = sigma x ov_r + nu`` (``sigma = 0`` along ``v``)."""
    p, Yc, Bc, tmp, dov = m.parents[r], g.Yo[r], g.Bc[r], w.tmp[0], w.tmp[1]
    vary_operators(Yc, Bc, sigma, nu, along_q, w.dYc, w.dBc, w.tmp)
    force_cross(sigma, d.of[r], w.dF)
    matvec6_add(Yc, alpha, w.dF, False)
    matvec6_add(Bc, nu, w.dF, False)
    motion_cross(sigma, d.ov[r], dov)
    for k in range(6):
        dov[k] += nu[k]
    for e in range(m.idx_v[r], m.idx_v[r] + m.nvs[r]):
        J = d.J[e]
        motion_cross(sigma, J, w.dJ[e])
        motion_cross(d.ov[p], w.dJ[e], w.dV[e])
        motion_cross(d.oa_gf[p], w.dJ[e], w.dA[e])
        motion_cross(d.ov[p], w.dV[e], tmp)
        w.dA[e] += tmp
        motion_cross(dov, J, w.dW[e])
        motion_cross(d.ov[r], w.dJ[e], tmp)
        for k in range(6):
            w.dW[e, k] += tmp[k] + w.dV[e, k]


@njit(cache=True, inline="always")
def vary_columns(m, d, g, w, r, c, i, along_q):
    """Variations of the column quantities of dof ``c`` (joint ``i``, ``r`` or an ancestor of it, whose composites
    vary as those of ``r``): ``d(Yc J)``, ``d(Bc^T J)``, ``d(Yc A + Bc V)``, ``d(Yc W + Bc J)``, ``d(J x* F)``,
    by the product rule (``dJ, dV, dA, dW`` are 0 above ``r``)."""
    J, Yc, Bc = d.J[c], g.Yo[i], g.Bc[i]
    dYJ, dZJ, dXq, dXv = w.dYJ[c], w.dZJ[c], w.dXq[c], w.dXv[c]
    for x in (dYJ, dZJ, dXq, dXv):
        x[:] = 0.0
    matvec6_add(w.dBc, J, dZJ, True)
    matvec6_add(w.dBc, g.dVdq[c], dXq, False)
    matvec6_add(w.dBc, J, dXv, False)
    force_cross(J, w.dF, w.dG[c])
    if along_q:
        matvec6_add(w.dYc, J, dYJ, False)
        matvec6_add(w.dYc, g.dAdq[c], dXq, False)
        matvec6_add(w.dYc, g.dAdv[c], dXv, False)
    if i == r:
        matvec6_add(Yc, w.dW[c], dXv, False)
        if along_q:
            matvec6_add(Yc, w.dJ[c], dYJ, False)
            matvec6_add(Bc, w.dJ[c], dZJ, True)
            matvec6_add(Yc, w.dA[c], dXq, False)
            matvec6_add(Bc, w.dV[c], dXq, False)
            matvec6_add(Bc, w.dJ[c], dXv, False)
            force_cross(w.dJ[c], d.of[i], w.tmp[0])
            w.dG[c] += w.tmp[0]


@njit(cache=True, inline="always")
def vary_subtree_columns(d, g, w, c, i, sigma, nu, along_q):
    """``d(Yc J)`` and ``d(Bc^T J)`` of dof ``c`` of joint ``i`` strictly below the moved joint: a rigid transport
    and a velocity shift, ``d(Yc J) = sigma x* (Yc J)``, ``d(Bc^T J) = sigma x* (Bc^T J) + B(Yc, nu)^T J`` with
    ``B(Y, nu)^T J = nu x* (Y J) - Y (nu x J) - J x* (Y nu)`` (``Y nu`` in ``hnu``)."""
    J, YJ, dYJ, dZJ, t = d.J[c], g.Yc[c], w.dYJ[c], w.dZJ[c], w.tmp[0]
    force_cross(nu, YJ, dZJ)
    motion_cross(nu, J, t)
    matvec6(g.Yo[i], t, w.tmp[1])
    force_cross(J, w.hnu[i], t)
    for k in range(6):
        dZJ[k] -= w.tmp[1, k] + t[k]
    if along_q:
        force_cross(sigma, YJ, dYJ)
        force_cross(sigma, g.Zc[c], t)
        dZJ += t


@njit(cache=True, inline="always")
def entries_above(m, d, g, w, r, k, c, i, along_q, T_qq, T_vv, T_qv, T_aq):
    """Page ``k`` entries that pair dof ``c`` (joint ``i``, ``r`` or an ancestor of it) with the dofs ``e`` of
    ``i`` and of its ancestors (``e`` strictly above ``i``: ``strict``); a value whose other derivative index is
    a strictly higher dof also fills its mirror (entries of ``rnea_second_order_derivatives``)."""
    own_c, dXqG = i == r, w.tmp[2]
    for x in range(6):
        dXqG[x] = w.dXq[c, x] + w.dG[c, x]
    j = i
    while j > 0:
        strict = j != i
        for e in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
            Je = d.J[e]
            v1 = dot6(Je, dXqG if strict else w.dXq[c])
            v3 = dot6(Je, w.dXv[c])
            if along_q:
                v5 = dot6(Je, w.dYJ[c])
                if e >= m.idx_v[r]:  # e of joint r: then c is too
                    v1 += dot6(w.dJ[e], g.Xq[c])
                    v5 += dot6(w.dJ[e], g.Yc[c])
                T_qq[e, c, k] = v1
                T_aq[e, c, k] = v5
                T_aq[c, e, k] = v5
                if not own_c:
                    T_qq[e, k, c] = v1
                    T_qv[e, k, c] = v3
                if strict:
                    v2 = dot6(w.dYJ[c], g.dAdq[e]) + dot6(w.dZJ[c], g.dVdq[e])
                    T_qq[c, e, k] = v2
                    T_qq[c, k, e] = v2
                    T_qv[c, k, e] = dot6(w.dYJ[c], g.dAdv[e]) + dot6(w.dZJ[c], Je)
            else:
                T_qv[e, c, k] = v1
                T_vv[e, c, k] = v3
                if not own_c:
                    T_vv[e, k, c] = v3
                if strict:
                    T_qv[c, e, k] = dot6(w.dZJ[c], g.dVdq[e])
                    v4 = dot6(w.dZJ[c], Je)
                    T_vv[c, e, k] = v4
                    T_vv[c, k, e] = v4
        j = m.parents[j]


@njit(cache=True, inline="always")
def entries_below(m, d, g, w, r, k, c, along_q, T_qq, T_vv, T_qv, T_aq):
    """Page ``k`` entries that pair dof ``c`` strictly below joint ``r`` with the dofs ``e`` of ``r`` and of its
    ancestors: only row ``c`` varies with ``c``'s side (``Yc J``, ``Bc^T J``) and, for ``e`` of ``r``, with ``e``'s."""
    j = r
    while j > 0:
        for e in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
            Je, own_e = d.J[e], j == r
            if along_q:
                v2 = dot6(w.dYJ[c], g.dAdq[e]) + dot6(w.dZJ[c], g.dVdq[e])
                v5 = dot6(w.dYJ[c], Je)
                if own_e:
                    v2 += dot6(g.Yc[c], w.dA[e]) + dot6(g.Zc[c], w.dV[e])
                    v5 += dot6(g.Yc[c], w.dJ[e])
                else:
                    T_qq[c, k, e] = v2
                    T_qv[c, k, e] = dot6(w.dYJ[c], g.dAdv[e]) + dot6(w.dZJ[c], Je)
                T_qq[c, e, k] = v2
                T_aq[e, c, k] = v5
                T_aq[c, e, k] = v5
            else:
                T_qv[c, e, k] = dot6(w.dZJ[c], g.dVdq[e])
                v4 = dot6(w.dZJ[c], Je)
                if own_e:
                    v4 += dot6(g.Yc[c], w.dW[e])
                else:
                    T_vv[c, k, e] = v4
                T_vv[c, e, k] = v4
        j = m.parents[j]


@njit(cache=True, inline="always")
def vary_direction(m, d, g, w, r, end, k, along_q, T_qq, T_vv, T_qv, T_aq):
    """Page ``k`` (dof ``k`` of joint ``r``, whose subtree is joints ``r .. end - 1``) along ``q_k`` or ``v_k``:
    the entries whose other derivative index is ``r``'s dof or an ancestor's, the rest by symmetry from the pages
    of the deeper dofs."""
    if along_q:
        sigma, nu, alpha = d.J[k], g.dVdq[k], g.dAdq[k]
    else:
        sigma, nu, alpha = w.tmp[7], d.J[k], g.dAdv[k]
    vary_joint(m, d, g, w, r, sigma, nu, alpha, along_q)
    i = r
    while i > 0:
        for c in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            vary_columns(m, d, g, w, r, c, i, along_q)
            entries_above(m, d, g, w, r, k, c, i, along_q, T_qq, T_vv, T_qv, T_aq)
        i = m.parents[i]
    for i in range(r + 1, end):
        matvec6(g.Yo[i], nu, w.hnu[i])
        for c in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            vary_subtree_columns(d, g, w, c, i, sigma, nu, along_q)
            entries_below(m, d, g, w, r, k, c, along_q, T_qq, T_vv, T_qv, T_aq)


@njit(cache=True)
def rnea_second_order_derivatives(I, F, ws, dws, q, v, a, fext, d2tau_dqdq, d2tau_dvdv, dtau_dqdv, dtau_dadq):
    """Second-order partial derivatives of RNEA, ``(nv, nv, nv)`` each, page ``k`` (last index) the derivative
    along ``q_k`` or ``v_k`` of a first-order matrix of :func:`rnea_derivatives` (Pinocchio's layout)::

        d2tau_dqdq[:, :, k] = d(dtau/dq)/dq_k     d2tau_dvdv[:, :, k] = d(dtau/dv)/dv_k
        dtau_dqdv[:, :, k]  = d(dtau/dq)/dv_k     dtau_dadq[:, :, k]  = dM/dq_k

    Every first-order entry is a dot product of per-dof world vectors (module docstring): for ``e`` a dof of an
    ancestor of ``c``'s joint, ``dtau_e/dq_c = J_e.(Xq_c + J_c x* F_c)``, ``dtau_c/dq_e = (Yc J)_c.A_e +
    (Bc^T J)_c.V_e``, ``dtau_e/dv_c = J_e.Xv_c``, ``dtau_c/dv_e = (Yc J)_c.W_e + (Bc^T J)_c.J_e``,
    ``M_ec = J_e.(Yc J)_c`` (the same-joint block without ``J_c x* F_c``), with ``V, A, W = dVdq, dAdq, dAdv``,
    ``Xq = Yc A + Bc V``, ``Xv = Yc W + Bc J``. So each second-order entry is the product rule over these
    vectors. A direction along dof ``k`` of joint ``r`` varies only the subtree of ``r``, and varies it in one way,
    the first-order rule again: a rigid transport by ``sigma`` with a velocity shift ``nu`` and acceleration shift
    ``alpha``, ``(sigma, nu, alpha) = (J_k, V_k, A_k)`` along ``q_k`` and ``(0, J_k, W_k)`` along ``v_k``::

        dov_i = sigma x ov_i + nu,    doa_i = sigma x oa_i + alpha + nu x ov_i,    dJ_e = sigma x J_e
        dYc_i = sigma x* Yc_i - Yc_i sigma x,   dBc_i = sigma x* Bc_i - Bc_i sigma x + B(Yc_i, nu),
        dF_i = sigma x* F_i + Yc_i alpha + Bc_i nu

    (``B(Y, nu) = nu x* Y - Y nu x + (. x* Y nu)``, as ``d f/dq_k`` of the module docstring), and the ancestors
    of ``r`` see the variation of its sums, ``dYc_j = dYc_r`` etc. Only dofs on a path through ``r`` change.
    Page ``k`` computes only the entries whose other derivative index is a dof of ``r`` or of an ancestor (and
    the ``dtau/dv`` variations along ``q_k`` whose ``v`` index is strictly above ``r``): the others follow by
    the symmetry of mixed partials (``d2tau_dqdq`` across joints, ``d2tau_dvdv``, ``dtau_dqdv`` read as
    ``d(dtau/dv)/dq``) from the page of the deeper dof. Then a row ``c`` strictly below ``r`` pairs only with
    a frozen or ``r``'s column, and its vectors vary as a rigid transport plus a shift, ``d(Yc J) = sigma x*
    (Yc J)``, ``d(Bc^T J) = sigma x* (Bc^T J) + B(Yc, nu)^T J``; above ``r`` only the composites vary. Each
    direction costs O(d) per dof of its path and O(1) per entry: O(N d^2) in all. ``fext`` (world, moving with
    its body) enters through ``F``. Also leaves the first-order results as :func:`rnea_derivatives` does. The
    outputs are ``(nv_extended,) * 3``; with mimic joints each is compressed on its three dof axes, the model's
    ``(nv_red,) * 3`` tensor left in its first entries."""
    status = rnea_derivatives(I, F, ws, dws, q, v, a, fext)
    if status:
        return status
    m = model_views(borrowed(I), borrowed(F))  # borrowed: no reference counting on the many slices below
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    g, _ = derivative_views(borrowed(dws), m.nj, m.nv)
    w = second_order_views(borrowed(dws), m.nj, m.nv)
    T_qq, T_vv, T_qv, T_aq = borrowed(d2tau_dqdq), borrowed(d2tau_dvdv), borrowed(dtau_dqdv), borrowed(dtau_dadq)
    w.tmp[7, :] = 0.0
    for T in (T_qq, T_vv, T_qv, T_aq):
        T[:, :, :] = 0.0
    for r in range(1, m.nj):
        end = r + 1
        while end < m.nj and m.parents[end] >= r:
            end += 1
        for k in range(m.idx_v[r], m.idx_v[r] + m.nvs[r]):
            vary_direction(m, d, g, w, r, end, k, True, T_qq, T_vv, T_qv, T_aq)
            vary_direction(m, d, g, w, r, end, k, False, T_qq, T_vv, T_qv, T_aq)
    for T in (T_qq, T_vv, T_qv, T_aq):  # mimic joints: T_ijk G_ia G_jb G_kc
        compress_tensor(m, T)
    return 0


# ------------------------------------------------------------------------------------ batched
@njit(cache=True)
def rnea_derivatives_into(I, F, ws, dws, q, v, a, out_q, out_v, out_a):
    """:func:`rnea_derivatives` with its three matrices copied out (the views stay out of the parallel loop,
    whose array analysis cannot follow them)."""
    status = rnea_derivatives(I, F, ws, dws, q, v, a, view(ws, 0, (0, 6)))
    m = model_views(borrowed(I), borrowed(F))
    g = derivative_views(borrowed(dws), m.nj, m.nv)[0]
    out_q[:, :] = model_block(m, g.dtau_dq)
    out_v[:, :] = model_block(m, g.dtau_dv)
    out_a[:, :] = model_block(m, data_views(ws, m.nj, m.nv, m.nf, m.nq_mimic)[0].M)
    return status


@njit(cache=True)
def aba_derivatives_into(I, F, ws, dws, q, v, tau, out_q, out_v, out_tau):
    """:func:`aba_derivatives` with its three matrices copied out."""
    status = aba_derivatives(I, F, ws, dws, q, v, tau, view(ws, 0, (0, 6)))
    m = model_views(borrowed(I), borrowed(F))
    g = derivative_views(borrowed(dws), m.nj, m.nv)[0]
    out_q[:, :] = model_block(m, g.ddq_dq)
    out_v[:, :] = model_block(m, g.ddq_dv)
    out_tau[:, :] = model_block(m, data_views(ws, m.nj, m.nv, m.nf, m.nq_mimic)[0].Minv)
    return status


@njit(cache=True, nogil=True)
def batch_rnea_derivatives(I, F, WS, DWS, Q, V, A, OUT_Q, OUT_V, OUT_A, STATUS, first, last):
    """``compute_rnea_derivatives`` over a batch, one contiguous chunk of states per workspace pair."""
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in range(first, last):
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = rnea_derivatives_into(I, F, WS[c], DWS[c], Q[b], V[b], A[b], OUT_Q[b], OUT_V[b], OUT_A[b])


@njit(cache=True, nogil=True)
def batch_aba_derivatives(I, F, WS, DWS, Q, V, TAU, OUT_Q, OUT_V, OUT_TAU, STATUS, first, last):
    """``compute_aba_derivatives`` over a batch."""
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in range(first, last):
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = aba_derivatives_into(I, F, WS[c], DWS[c], Q[b], V[b], TAU[b], OUT_Q[b], OUT_V[b], OUT_TAU[b])


@njit(cache=True)
def rnea_second_order_derivatives_into(I, F, ws, dws, q, v, a, T, out_qq, out_vv, out_qv, out_aq):
    """:func:`rnea_second_order_derivatives` straight into the outputs, or with mimic joints into the scratch
    tensors ``T`` ``(4, nv_extended, nv_extended, nv_extended)`` and their compressed blocks copied out."""
    m = model_views(borrowed(I), borrowed(F))
    if not m.nq_mimic:
        return rnea_second_order_derivatives(I, F, ws, dws, q, v, a, view(ws, 0, (0, 6)), out_qq, out_vv, out_qv, out_aq)
    status = rnea_second_order_derivatives(I, F, ws, dws, q, v, a, view(ws, 0, (0, 6)), T[0], T[1], T[2], T[3])
    n = out_qq.size
    for t, out in enumerate((out_qq, out_vv, out_qv, out_aq)):
        out.reshape(n)[:] = T[t].reshape(T[t].size)[:n]
    return status


@njit(cache=True, nogil=True)
def batch_rnea_second_order_derivatives(I, F, WS, DWS, T, Q, V, A, OUT_QQ, OUT_VV, OUT_QV, OUT_AQ, STATUS, first, last):
    """``compute_rnea_second_order_derivatives`` over a batch (``T``: per chunk the scratch tensors of a model
    with mimic joints, empty without)."""
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in range(first, last):
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = rnea_second_order_derivatives_into(I, F, WS[c], DWS[c], Q[b], V[b], A[b], T[c],
                                                           OUT_QQ[b], OUT_VV[b], OUT_QV[b], OUT_AQ[b])
