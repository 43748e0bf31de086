"""Compiled inverse dynamics, joint-space inertia and forward dynamics.

Each kernel is written out in full, without helpers taking the model/data named tuples: numba copies such a
tuple into every inlined call, which cost more than the algorithm itself (measured).

* ``rnea``: the cheat sheet's RNEA table, in local frames (Featherstone Table 5.1).
* ``crba``: the composite-rigid-body algorithm in the world frame: composite inertias are summed as 10-vectors
  ``(m, h, I_o)`` and ``M[support(i), i] = J^T (Ycrb_i J_i)`` (Featherstone Table 6.2, world convention).
* ``aba``: the articulated-body algorithm in the world frame (Featherstone Table 7.1 written with world-frame
  quantities, so that no 6x6 matrix is ever transformed).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..spatial.compiled import (
    dot6,
    force_act,
    force_cross,
    inertia_act,
    inertia_apply,
    inertia_to_matrix,
    motion_act,
    motion_act_inv,
    motion_cross,
)
from .checks import SINGULAR, begin
from .kinematics import body_velocity, calc_joint, joint_acceleration, world_jacobian_columns
from .layout import data_views, model_views
from .views import borrowed


# ---------------------------------------------------------------------------------------------- RNEA
@njit(cache=True)
def rnea(I, F, ws, q, v, a, fext):
    """tau = ID(q, v, a) into ``d.tau``; ``fext`` (nj, 6) in the joint frames, or None."""
    m, d, jt, status = begin(I, F, ws, q, v, a)
    if status:
        return status
    for k in range(6):  # a_0 = -g
        d.a_gf[0, k] = -m.gravity[k]
    Yv, vxYv = d.tmp[12:18], d.tmp[18:24]
    for i in range(1, m.nj):
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        calc_joint(jt, i, q, v)
        body_velocity(d.liMi[i], d.v[parent], d.vJ[i], d.v[i])  # v_i = liMi^-1 v_parent + vJ
        motion_act_inv(d.liMi[i], d.a_gf[parent], d.a_gf[i])  # a_i = liMi^-1 a_parent + S a + cJ + v_i x vJ
        joint_acceleration(d.S[iv : iv + nvi], a[iv : iv + nvi], d.v[i], d.vJ[i], d.cJ[i], d.a_gf[i], Yv)
        inertia_apply(m.inertias[i], d.a_gf[i], d.f[i])  # f_i = Y a_i + v_i x* (Y v_i) - f_ext
        inertia_apply(m.inertias[i], d.v[i], Yv)
        force_cross(d.v[i], Yv, vxYv)
        for k in range(6):
            d.f[i, k] += vxYv[k]
        if fext is not None and fext.shape[0]:  # None or empty: no external forces
            for k in range(6):
                d.f[i, k] -= fext[i, k]
    for i in range(m.nj - 1, 0, -1):
        parent = m.parents[i]
        for j in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):  # tau_i = S^T f_i (+ armature a)
            d.tau[j] = dot6(d.S[j], d.f[i]) + m.armature[j] * a[j]
        if parent > 0:  # f_parent += liMi* f_i
            force_act(d.liMi[i], d.f[i], Yv)
            for k in range(6):
                d.f[parent, k] += Yv[k]
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
    m, d, jt, status = begin(I, F, ws, q, None, None)
    if status:
        return status
    world_jacobians_and_inertias(jt, q, d.zeros, m.inertias, d.J, d.oYcrb)
    F_col = d.tmp[12:18]
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
    return 0


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
    """ddq = FD(q, v, tau) into ``d.ddq``, world-frame ABA; ``fext`` (nj, 6) in the joint frames, or None."""
    m, d, jt, status = begin(I, F, ws, q, v, tau)
    if status:
        return status
    tmp6 = d.tmp[12:18]
    for i in range(1, m.nj):  # pass 1: kinematics, bias accelerations oc, bias forces of
        parent = m.parents[i]
        calc_joint(jt, i, q, v)
        iv, nvi = m.idx_v[i], m.nvs[i]
        world_jacobian_columns(d.oMi[i], d.S[iv : iv + nvi], d.J[iv : iv + nvi])
        ovJ = d.tmp[18:24]
        motion_act(d.oMi[i], d.vJ[i], ovJ)
        for k in range(6):
            d.ov[i, k] = d.ov[parent, k] + ovJ[k]
        motion_cross(d.ov[parent], ovJ, d.oc[i])  # oc = ov_parent x ovJ + oMi.act(cJ)
        motion_act(d.oMi[i], d.cJ[i], tmp6)
        for k in range(6):
            d.oc[i, k] += tmp6[k]
        inertia_act(d.oMi[i], m.inertias[i], d.oYcrb[i])
        inertia_to_matrix(d.oYcrb[i], d.oYaba[i])
        inertia_apply(d.oYcrb[i], d.ov[i], tmp6)  # of = ov x* (oY ov) - oMi.act(fext)
        force_cross(d.ov[i], tmp6, d.of[i])
        if fext is not None and fext.shape[0]:  # None or empty: no external forces
            force_act(d.oMi[i], fext[i], tmp6)
            for k in range(6):
                d.of[i, k] -= tmp6[k]
    for i in range(m.nj - 1, 0, -1):  # pass 2: articulated inertias and bias forces
        iv, nvi, parent = m.idx_v[i], m.nvs[i], m.parents[i]
        Ia, pa = d.oYaba[i], d.of[i]
        for a_ in range(nvi):  # U = Ia S, D = S^T U, u = tau - S^T pa
            for r in range(6):
                acc = 0.0
                for c in range(6):
                    acc += Ia[r, c] * d.J[iv + a_, c]
                d.U[iv + a_, r] = acc
            d.u[iv + a_] = tau[iv + a_] - dot6(d.J[iv + a_], pa)
        D, Dinv = d.D[iv : iv + nvi, iv : iv + nvi], d.Dinv[iv : iv + nvi, iv : iv + nvi]
        for a_ in range(nvi):
            for b in range(nvi):
                D[a_, b] = dot6(d.J[iv + a_], d.U[iv + b])
            D[a_, a_] += m.armature[iv + a_]
        if not spd_inverse(D, nvi, Dinv):
            return SINGULAR
        for a_ in range(nvi):  # UDinv = U D^-1
            for r in range(6):
                acc = 0.0
                for b in range(nvi):
                    acc += d.U[iv + b, r] * Dinv[b, a_]
                d.UDinv[iv + a_, r] = acc
        if parent > 0:
            for r in range(6):  # Ia -= U D^-1 U^T
                for c in range(6):
                    acc = 0.0
                    for b in range(nvi):
                        acc += d.UDinv[iv + b, r] * d.U[iv + b, c]
                    Ia[r, c] -= acc
            for r in range(6):  # pa += Ia c + U D^-1 u
                acc = 0.0
                for c in range(6):
                    acc += Ia[r, c] * d.oc[i, c]
                for b in range(nvi):
                    acc += d.UDinv[iv + b, r] * d.u[iv + b]
                pa[r] += acc
            for r in range(6):
                d.of[parent, r] += pa[r]
                for c in range(6):
                    d.oYaba[parent, r, c] += Ia[r, c]
    for k in range(6):  # pass 3: accelerations, a_0 = -g
        d.oa_gf[0, k] = -m.gravity[k]
    for i in range(1, m.nj):
        iv, nvi, parent = m.idx_v[i], m.nvs[i], m.parents[i]
        for k in range(6):
            d.oa_gf[i, k] = d.oa_gf[parent, k] + d.oc[i, k]
        for a_ in range(nvi):  # ddq = D^-1 u - (U D^-1)^T a
            acc = -dot6(d.UDinv[iv + a_], d.oa_gf[i])
            for b in range(nvi):
                acc += d.Dinv[iv + a_, iv + b] * d.u[iv + b]
            d.ddq[iv + a_] = acc
        for a_ in range(nvi):  # a += S ddq
            for k in range(6):
                d.oa_gf[i, k] += d.J[iv + a_, k] * d.ddq[iv + a_]
    return 0


@njit(cache=True)
def ltdl(H, lam):
    """In place ``H = L^T D L`` exploiting branch-induced sparsity (Featherstone, RBDA Table 6.3): afterwards the
    diagonal of ``H`` holds D and its strictly lower part L (unit diagonal implied); fill-in stays on ancestors.
    False (and ``H`` partly factored) if a pivot is not positive."""
    for k in range(H.shape[0] - 1, -1, -1):
        if not H[k, k] > 0.0:
            return False
        i = lam[k]
        while i >= 0:
            a = H[k, i] / H[k, k]
            j = i
            while j >= 0:
                H[i, j] -= a * H[k, j]
                j = lam[j]
            H[k, i] = a
            i = lam[i]
    return True


@njit(cache=True)
def minverse_from_factor(H, lam, Minv):
    """``Minv = (L^T D L)^-1 = L^-1 D^-1 L^-T`` from the factor ``H`` of :func:`ltdl`, on whole rows (spatial_v2's
    mpyLit, D^-1, mpyLi applied to the identity): each step is a row operation over all nv columns, which
    vectorises, instead of a chain of dependent scalar updates per column."""
    nv = H.shape[0]
    for r in range(nv):
        for c in range(nv):
            Minv[r, c] = 1.0 if r == c else 0.0
    end = np.arange(1, nv + 1)  # row i of L^-T is zero outside the dofs i..end[i]-1 of its subtree
    for i in range(nv - 1, -1, -1):
        if lam[i] >= 0:
            end[lam[i]] = max(end[lam[i]], end[i])
    for i in range(nv - 1, -1, -1):  # Z = L^-T: row i is final once its descendants are done; push it up
        j = lam[i]
        while j >= 0:
            for c in range(i, end[i]):
                Minv[j, c] -= H[i, j] * Minv[i, c]
            j = lam[j]
    for r in range(nv):  # W = D^-1 Z, then L X = W row by row
        for c in range(nv):
            Minv[r, c] /= H[r, r]
        j = lam[r]
        while j >= 0:
            for c in range(nv):
                Minv[r, c] -= H[r, j] * Minv[j, c]
            j = lam[j]


@njit(cache=True)
def minverse(I, F, ws, q):
    """M^-1: CRBA, the sparse factorisation M = L^T D L, then ``L^-1 D^-1 L^-T`` (:func:`minverse_from_factor`)."""
    status = crba(I, F, ws, q)
    if status:
        return status
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf)[0]
    lam = m.dof_parents
    for r in range(m.nv):  # element by element: a slice assignment compiles numba's shape-error path (~3 s)
        for c in range(m.nv):
            d.D[r, c] = d.M[r, c]
    if not ltdl(d.D, lam):
        return SINGULAR
    minverse_from_factor(d.D, lam, d.Minv)
    return 0
