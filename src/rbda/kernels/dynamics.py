"""Compiled inverse dynamics, joint-space inertia and forward dynamics.

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
from .checks import begin
from .kinematics import body_velocity, calc_joint, joint_acceleration, world_jacobian_columns


# ---------------------------------------------------------------------------------------------- RNEA
@njit(cache=True, inline="always")
def rnea_passes(m, d, q, v, a, fext, with_fext):
    """tau = ID(q, v, a) written into ``d.tau``; ``fext`` (nj, 6) in the joint frames if ``with_fext``."""
    # a_0 = -g
    for k in range(6):
        d.a_gf[0, k] = -m.gravity[k]
    for i in range(1, m.nj):
        parent = m.parents[i]
        calc_joint(m, d, i, q, v)
        body_velocity(m, d, i)  # v_i = liMi^-1 v_parent + vJ
        motion_act_inv(d.liMi[i], d.a_gf[parent], d.a_gf[i])  # a_i = liMi^-1 a_parent + S a + cJ + v_i x vJ
        joint_acceleration(m, d, i, a, d.a_gf[i])
        inertia_apply(m.inertias[i], d.a_gf[i], d.f[i])  # f_i = Y a_i + v_i x* (Y v_i) - f_ext
        Yv = d.tmp[12:18]
        inertia_apply(m.inertias[i], d.v[i], Yv)
        vxYv = d.tmp[18:24]
        force_cross(d.v[i], Yv, vxYv)
        for k in range(6):
            d.f[i, k] += vxYv[k]
        if with_fext:
            for k in range(6):
                d.f[i, k] -= fext[i, k]
    for i in range(m.nj - 1, 0, -1):
        parent = m.parents[i]
        for j in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):  # tau_i = S^T f_i (+ armature a)
            d.tau[j] = dot6(d.S[j], d.f[i]) + m.armature[j] * a[j]
        if parent > 0:  # f_parent += liMi* f_i
            liMi_f = d.tmp[12:18]
            force_act(d.liMi[i], d.f[i], liMi_f)
            for k in range(6):
                d.f[parent, k] += liMi_f[k]


@njit(cache=True)
def rnea(I, F, ws, q, v, a):
    m, d, status = begin(I, F, ws, q, v, a)
    if status == 0:
        rnea_passes(m, d, q, v, a, d.f, False)
    return status


@njit(cache=True)
def rnea_fext(I, F, ws, q, v, a, fext):
    m, d, status = begin(I, F, ws, q, v, a)
    if status == 0:
        rnea_passes(m, d, q, v, a, fext, True)
    return status


# ---------------------------------------------------------------------------------------------- CRBA
@njit(cache=True, inline="always")
def crba_passes(m, d, q):
    """M(q) into ``d.M`` (full, symmetric); also fills ``oMi``, ``J`` and ``oYcrb``."""
    for i in range(1, m.nj):
        calc_joint(m, d, i, q, d.zeros)
        world_jacobian_columns(m, d, i)
        inertia_act(d.oMi[i], m.inertias[i], d.oYcrb[i])
    for k in range(13):
        d.oYcrb[0, k] = 0.0
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


@njit(cache=True)
def crba(I, F, ws, q):
    m, d, status = begin(I, F, ws, q, None, None)
    if status == 0:
        crba_passes(m, d, q)
    return status


# ---------------------------------------------------------------------------------------------- ABA
@njit(cache=True)
def spd_inverse(A, n, out):
    """``out[:n, :n] = A[:n, :n]^-1`` for a small symmetric positive-definite block (Gauss-Jordan, no pivoting)."""
    for r in range(n):
        for c in range(n):
            out[r, c] = 1.0 if r == c else 0.0
    for p in range(n):
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


@njit(cache=True, inline="always")
def aba_passes(m, d, q, v, tau, fext, with_fext):
    """ddq = FD(q, v, tau) into ``d.ddq``, world-frame ABA; ``fext`` (nj, 6) in the joint frames."""
    tmp6 = d.tmp[12:18]
    for i in range(1, m.nj):  # pass 1: kinematics, bias accelerations oc, bias forces of
        parent = m.parents[i]
        calc_joint(m, d, i, q, v)
        world_jacobian_columns(m, d, i)
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
        if with_fext:
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
        spd_inverse(D, nvi, Dinv)
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


@njit(cache=True)
def aba(I, F, ws, q, v, tau):
    m, d, status = begin(I, F, ws, q, v, tau)
    if status == 0:
        aba_passes(m, d, q, v, tau, d.f, False)
    return status


@njit(cache=True)
def aba_fext(I, F, ws, q, v, tau, fext):
    m, d, status = begin(I, F, ws, q, v, tau)
    if status == 0:
        aba_passes(m, d, q, v, tau, fext, True)
    return status


@njit(cache=True)
def minverse(I, F, ws, q):
    """M^-1 by CRBA and a dense Cholesky (placeholder for the O(n^2) ABA-based inverse)."""
    m, d, status = begin(I, F, ws, q, None, None)
    if status == 0:
        crba_passes(m, d, q)
        L = np.linalg.cholesky(d.M)
        Linv = np.linalg.inv(L)
        d.Minv[:, :] = Linv.T @ Linv
    return status
