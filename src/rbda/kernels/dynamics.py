"""Compiled inverse dynamics, joint-space inertia and forward dynamics.

Each kernel is written out in full, without helpers taking the model/data named tuples: numba copies such a
tuple into every inlined call, which costs more than the algorithm itself.

* ``rnea``: Pinocchio's SE(3) cheat sheet's RNEA table, in local frames (Featherstone Table 5.1).
* ``crba``: the composite-rigid-body algorithm in the world frame: composite inertias are summed as 10-vectors
  ``(m, h, I_o)`` and ``M[support(i), i] = J^T (Ycrb_i J_i)`` (Featherstone Table 6.2, world convention).
* ``aba``: the articulated-body algorithm in the world frame (Featherstone Table 7.1 written with world-frame
  quantities, so that no 6x6 matrix is ever transformed).
"""

from __future__ import annotations

from .._native.jit import njit

from ..spatial.compiled import (
    add6,
    add6_to,
    add6x6,
    axpy6,
    combine_rows,
    dot6,
    gram,
    matvec6,
    matvec6_add,
    motion_act_add,
    subtract_outer6,
    force_act,
    force_cross,
    inertia_act,
    inertia_apply,
    inertia_to_matrix,
    motion_act,
    motion_act_inv,
    motion_cross,
)
from .checks import NEEDS_FACTOR, SINGULAR, begin, left_out
from .kinematics import body_velocity, calc_joint, joint_acceleration, world_jacobian_columns
from ..model.layout import data_views, model_views
from .mimic import add_armature, add_armature_diagonal, compress_matrix, compress_vector, extended, model_block
from .sparse import inverse_through_factor
from .._native.views import borrowed


# ---------------------------------------------------------------------------------------------- RNEA
@njit(cache=True)
def rnea(I, F, ws, q, v, a, fext):
    """tau = ID(q, v, a) into ``d.tau``; ``fext`` (nj, 6) in the joint frames, or None."""
    m, d, jt, status = begin(I, F, ws, q, v, a)
    if status:
        return status
    a_model = a
    q, v, a = extended(m, q, d.qx), extended(m, v, d.vx), extended(m, a, d.ax)
    for k in range(6):  # a_0 = -g
        d.a_gf[0, k] = -m.gravity[k]
    Yv, vxYv = d.v6[0], d.v6[1]
    for i in range(1, m.nj):
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        calc_joint(jt, i, q, v)
        body_velocity(d.liMi[i], d.v[parent], d.vJ[i], d.v[i])  # v_i = liMi^-1 v_parent + vJ
        motion_act_inv(d.liMi[i], d.a_gf[parent], d.a_gf[i])  # a_i = liMi^-1 a_parent + S a + cJ + v_i x vJ
        joint_acceleration(d.S[iv : iv + nvi], a[iv : iv + nvi], d.v[i], d.vJ[i], d.cJ[i], d.a_gf[i], Yv)
        inertia_apply(m.inertias[i], d.a_gf[i], d.f[i])  # f_i = Y a_i + v_i x* (Y v_i) - f_ext
        inertia_apply(m.inertias[i], d.v[i], Yv)
        force_cross(d.v[i], Yv, vxYv)
        add6(d.f[i], vxYv)
    if fext is not None and fext.shape[0]:  # f_i -= f_ext,i (None or empty: no external forces)
        for i in range(1, m.nj):
            axpy6(-1.0, fext[i], d.f[i])
    for i in range(m.nj - 1, 0, -1):
        parent = m.parents[i]
        for j in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):  # tau_i = S^T f_i (+ armature a)
            d.tau[j] = dot6(d.S[j], d.f[i]) + m.armature[j] * a[j]
        if parent > 0:  # f_parent += liMi* f_i
            force_act(d.liMi[i], d.f[i], Yv)
            add6(d.f[parent], Yv)
    compress_vector(m, d.tau)  # mimic joints: tau = G^T tau_ext (+ armature a)
    add_armature(m, a_model, d.tau)
    return 0


# ---------------------------------------------------------------------------------------------- CRBA
@njit(cache=True, forceinline=True)
def world_jacobians_and_inertias(jt, q, zeros, inertias, J, oYcrb):
    """Forward kinematics at ``q`` (``jt`` the joint tables), the world Jacobian columns ``J`` and the world body
    inertias ``oYcrb`` (10-vectors, entry 0 zero): the forward pass of CRBA and of the centroidal algorithms."""
    for i in range(1, inertias.shape[0]):
        calc_joint(jt, i, q, zeros)
        iv, nvi = jt.idx_v[i], jt.nvs[i]
        world_jacobian_columns(jt.oMi[i], jt.S[iv : iv + nvi], J[iv : iv + nvi])
        inertia_act(jt.oMi[i], inertias[i], oYcrb[i])
    oYcrb[0, :] = 0.0


@njit(cache=True)
def crba(I, F, ws, q):
    """M(q) into ``d.M`` (full, symmetric); also fills ``oMi``, ``J`` and ``oYcrb``."""
    m, d, jt, status = begin(I, F, ws, q, left_out(ws), left_out(ws))
    if status:
        return status
    q = extended(m, q, d.qx)
    world_jacobians_and_inertias(jt, q, d.zeros, m.inertias, d.J, d.oYcrb)
    composite_inertias(m, d)
    return 0


@njit(cache=True)
def crba_after_kinematics(I, F, ws):
    """:func:`crba` at the configuration of the last kinematics pass (``oMi`` and ``S`` current, as after
    :func:`rnea`), without recomputing the joints: the world columns and inertias, then the composite pass."""
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    for i in range(1, m.nj):
        iv, nvi = m.idx_v[i], m.nvs[i]
        world_jacobian_columns(d.oMi[i], d.S[iv : iv + nvi], d.J[iv : iv + nvi])
        inertia_act(d.oMi[i], m.inertias[i], d.oYcrb[i])
    d.oYcrb[0, :] = 0.0
    composite_inertias(m, d)
    return 0


@njit(cache=True)
def free_bodies_after_kinematics(I, F, ws):
    """:func:`crba_after_kinematics` for a model whose joints are all free flyers on the universe (free bodies):
    the world Jacobian columns, and ``M`` block-diagonal, each body's block its spatial inertia in its own frame
    (a leaf's composite inertia is its own, and its motion subspace in local coordinates the identity) plus the
    armature: the same whatever the configuration, without CRBA's round trip through the world frame. Writes the
    bodies' diagonal blocks only (the others stay zero)."""
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    column = d.v6[0]
    for i in range(1, m.nj):
        iv = m.idx_v[i]
        world_jacobian_columns(d.oMi[i], d.S[iv : iv + 6], d.J[iv : iv + 6])
        for c in range(6):
            inertia_apply(m.inertias[i], d.S[iv + c], column)  # the block's column c: Y e_c
            for r in range(6):
                d.M[iv + r, iv + c] = column[r]
            d.M[iv + c, iv + c] += m.armature[iv + c]
    return 0


@njit(cache=True, inline="always")  # a call passing the model/data views costs 0.4 us: inlined
def composite_inertias(m, d):
    """The backward pass of CRBA from the world columns ``d.J`` and body inertias ``d.oYcrb``: composite inertias
    summed as 10-vectors, ``M[support(i), i] = J^T (Ycrb_i J_i)``."""
    if m.nq_mimic:  # the compressed M of the last call overlaps entries that the loop below leaves alone
        d.M[:, :] = 0.0
    F_col = d.v6[0]
    for i in range(m.nj - 1, 0, -1):
        for col in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            inertia_apply(d.oYcrb[i], d.J[col], F_col)  # F = Ycrb_i S_i
            j = i
            while j > 0:  # M[support(i), col] = J_j^T F
                for row in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
                    d.M[row, col] = dot6(d.J[row], F_col)
                    d.M[col, row] = d.M[row, col]
                j = m.parents[j]
            d.M[col, col] += m.armature[col]
        parent = m.parents[i]
        for k in range(13):  # Ycrb_parent += Ycrb_i (same world frame: plain sum)
            d.oYcrb[parent, k] += d.oYcrb[i, k]
    compress_matrix(m, d.M)  # mimic joints: M = G^T M_ext G (+ armature)
    add_armature_diagonal(m, d.M)


# ---------------------------------------------------------------------------------------------- ABA
@njit(cache=True)
def spd_inverse(A, n, out):
    """``out[:n, :n] = A[:n, :n]^-1`` for a small symmetric positive-definite block (Gauss-Jordan, no pivoting);
    False if a pivot is not positive (the block is singular or indefinite)."""
    for r in range(n):
        for c in range(n):
            out[r, c] = 1.0 if r == c else 0.0
    for p in range(n):
        if not A[p, p] > 0.0:
            return False
        inv_pivot = 1.0 / A[p, p]
        for c in range(n):
            A[p, c] *= inv_pivot
            out[p, c] *= inv_pivot
        for r in range(n):
            if r != p:
                factor = A[r, p]
                for c in range(n):
                    A[r, c] -= factor * A[p, c]
                    out[r, c] -= factor * out[p, c]
    return True


@njit(cache=True)
def aba(I, F, ws, q, v, tau, fext):
    """ddq = FD(q, v, tau) into ``d.ddq``, world-frame ABA (Featherstone Table 7.1 with world-frame quantities);
    ``fext`` (nj, 6) in the joint frames, or empty for none. With mimic joints, which couple two branches, there
    is no articulated-body recursion: returns ``NEEDS_FACTOR``, and the caller runs
    :func:`forward_dynamics_through_factor`."""
    m, d, jt, status = begin(I, F, ws, q, v, tau)
    if status:
        return status
    if m.nq_mimic:
        return NEEDS_FACTOR
    ovJ, Yv = d.v6[0], d.v6[1]
    for i in range(1, m.nj):  # pass 1: kinematics, bias accelerations oc, bias forces of
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        calc_joint(jt, i, q, v)
        world_jacobian_columns(d.oMi[i], d.S[iv : iv + nvi], d.J[iv : iv + nvi])
        motion_act(d.oMi[i], d.vJ[i], ovJ)
        add6_to(d.ov[parent], ovJ, d.ov[i])  # ov_i = ov_parent + oMi vJ
        motion_cross(d.ov[parent], ovJ, d.oc[i])  # oc = ov_parent x ovJ + oMi cJ
        motion_act_add(d.oMi[i], d.cJ[i], d.oc[i])
        inertia_act(d.oMi[i], m.inertias[i], d.oYcrb[i])
        inertia_to_matrix(d.oYcrb[i], d.oYaba[i])  # IA_i = oY_i
        inertia_apply(d.oYcrb[i], d.ov[i], Yv)  # pA_i = ov x* (oY ov)
        force_cross(d.ov[i], Yv, d.of[i])
    if fext is not None and fext.shape[0]:  # pA_i -= oMi fext_i (None or empty: no external forces)
        for i in range(1, m.nj):
            force_act(d.oMi[i], fext[i], Yv)
            axpy6(-1.0, Yv, d.of[i])
    for i in range(m.nj - 1, 0, -1):  # pass 2: articulated inertias and bias forces
        iv, nvi, parent = m.idx_v[i], m.nvs[i], m.parents[i]
        IA, pA = d.oYaba[i], d.of[i]
        S, U, UDinv, u = d.J[iv : iv + nvi], d.U[iv : iv + nvi], d.UDinv[iv : iv + nvi], d.u[iv : iv + nvi]
        D, Dinv = d.D[iv : iv + nvi, iv : iv + nvi], d.Dinv[iv : iv + nvi, iv : iv + nvi]
        for k in range(nvi):
            matvec6(IA, S[k], U[k])  # U = IA S
            u[k] = tau[iv + k] - dot6(S[k], pA)  # u = tau - S^T pA
        gram(S, U, D)  # D = S^T U (+ armature)
        for k in range(nvi):
            D[k, k] += m.armature[iv + k]
        if not spd_inverse(D, nvi, Dinv):
            return SINGULAR
        combine_rows(Dinv, U, UDinv)  # U D^-1
        if parent > 0:
            subtract_outer6(IA, UDinv, U)  # Ia = IA - U D^-1 U^T
            matvec6_add(IA, d.oc[i], pA, False)  # pa = pA + Ia c + U D^-1 u
            for k in range(nvi):
                axpy6(u[k], UDinv[k], pA)
            add6x6(d.oYaba[parent], IA)  # IA_parent += Ia, pA_parent += pa (one world frame: no transform)
            add6(d.of[parent], pA)
    for k in range(6):  # pass 3: accelerations, a_0 = -g
        d.oa_gf[0, k] = -m.gravity[k]
    for i in range(1, m.nj):
        iv, nvi, parent = m.idx_v[i], m.nvs[i], m.parents[i]
        S, UDinv, u = d.J[iv : iv + nvi], d.UDinv[iv : iv + nvi], d.u[iv : iv + nvi]
        Dinv, ddq = d.Dinv[iv : iv + nvi, iv : iv + nvi], d.ddq[iv : iv + nvi]
        add6_to(d.oa_gf[parent], d.oc[i], d.oa_gf[i])  # a' = a_parent + c
        for k in range(nvi):  # ddq = D^-1 u - (U D^-1)^T a'
            ddq[k] = -dot6(UDinv[k], d.oa_gf[i])
            for b in range(nvi):
                ddq[k] += Dinv[k, b] * u[b]
        for k in range(nvi):  # a = a' + S ddq
            axpy6(ddq[k], S[k], d.oa_gf[i])
    return 0


@njit(cache=True)
def minverse(I, F, ws, q):
    """M^-1: CRBA, the sparse factorisation M = L^T D L, then ``L^-1 D^-1 L^-T`` (:func:`minverse_from_factor`)."""
    status = crba(I, F, ws, q)
    if status:
        return status
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    lam = m.dof_parents
    if not inverse_through_factor(model_block(m, d.M), lam, model_block(m, d.D), model_block(m, d.Minv)):
        return SINGULAR
    return 0


@njit(cache=True)
def forward_dynamics_through_factor(I, F, ws, q, v, tau, fext):
    """Forward dynamics of a model with mimic joints, where ABA does not apply (a mimic joint couples two
    branches): ``ddq = M^-1 (tau - b)`` with ``b = RNEA(q, v, 0)`` and ``M^-1`` from the factor of ``M``
    (:func:`minverse`, which also fills ``Minv``), then RNEA at ``(q, v, ddq)`` for the accelerations and forces;
    what :func:`aba`'s callers run when it returns ``NEEDS_FACTOR``."""
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    nv = m.nv_red
    status = rnea(I, F, ws, q, v, d.zeros[:nv], fext)
    if status:
        return status
    for k in range(nv):
        d.u[k] = tau[k] - d.tau[k]
    status = minverse(I, F, ws, q)
    if status:
        return status
    Minv = model_block(m, d.Minv)
    for r in range(nv):
        acc = 0.0
        for c in range(nv):
            acc += Minv[r, c] * d.u[c]
        d.ddq[r] = acc
    return rnea(I, F, ws, q, v, d.ddq[:nv], fext)
