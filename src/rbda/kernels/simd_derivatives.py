"""The first-order RNEA and ABA derivatives at SIMD width: ``kernels/derivatives.py``'s algorithm (Carpentier &
Mansard, RSS 2018, in the world frame) over blocks of ``W`` states laid out as ``kernels/simd.py``'s, every
quantity with the lane (state of the block) last, for the models :func:`rbda.kernels.simd.accepts` takes.

Per dof ``c`` of joint ``i`` (parent ``λ``), world column ``s = J_c``:

    dVdq_c = ov_λ x s,    dAdq_c = oa_λ x s + ov_λ x dVdq_c,    dAdv_c = ov_i x s + dVdq_c,

and from the leaves up, with the subtree sums ``Yc`` (world inertias), ``Bc`` (their velocity variations
``B = ov x* Y - Y ov x + (. x* h)``) and ``F`` (body forces)::

    dtau_j/dq_c = J_j^T (Yc_i dAdq_c + Bc_i dVdq_c + s x* F_i)    (j an ancestor of i; without s x* F_i for j = i)
    dtau_c/dq_j = (Yc_i s)^T dAdq_j + (Bc_i^T s)^T dVdq_j
    dtau_j/dv_c = J_j^T (Yc_i dAdv_c + Bc_i s)                     dtau_c/dv_j = (Yc_i s)^T dAdv_j + (Bc_i^T s)^T J_j

The ABA derivatives are ``-M^-1`` times those of RNEA at ``ddq = ABA(q, v, tau)``, and ``M^-1`` itself, from the
sparse factor ``M = L^T D L`` over the lanes (``simd.factor_and_invert``), through which ``-M^-1 dtau/dq``
and ``-M^-1 dtau/dv`` are solved (two sparse triangular sweeps: on branched robots fewer operations than the
product with ``M^-1``).
"""

from __future__ import annotations

import numpy as np

from .._native.jit import njit
from ..model.layout import model_views
from .simd import (W, aba_block, ancestors_sub, cross_add, cross_to, dot, factor_and_invert, force_cross_to,
                   lane_count, lanes, load, matvec, rows_scale, rows_sub, statuses, store_matrix, store_symmetric,
                   subtree_ends, world_inertia, world_motion, world_root)
from .._native.views import borrowed


# ---------------------------------------------------------------------------------------------- per-lane helpers
@lanes
def matvec2(A, x, B, y, out):
    """``out = A x + B y`` for ``A, B`` ``(6, 6, W)``, ``x, y`` ``(6, W)``."""
    for w in range(x.shape[1]):
        x0, x1, x2, x3, x4, x5 = x[0, w], x[1, w], x[2, w], x[3, w], x[4, w], x[5, w]
        y0, y1, y2, y3, y4, y5 = y[0, w], y[1, w], y[2, w], y[3, w], y[4, w], y[5, w]
        for r in range(6):
            out[r, w] = (A[r, 0, w] * x0 + A[r, 1, w] * x1 + A[r, 2, w] * x2 + A[r, 3, w] * x3 + A[r, 4, w] * x4
                         + A[r, 5, w] * x5) + (B[r, 0, w] * y0 + B[r, 1, w] * y1 + B[r, 2, w] * y2
                                               + B[r, 3, w] * y3 + B[r, 4, w] * y4 + B[r, 5, w] * y5)


@lanes
def matvec_transpose(A, x, out):
    """``out = A^T x`` for ``A`` ``(6, 6, W)``."""
    for w in range(x.shape[1]):
        x0, x1, x2, x3, x4, x5 = x[0, w], x[1, w], x[2, w], x[3, w], x[4, w], x[5, w]
        for c in range(6):
            out[c, w] = (A[0, c, w] * x0 + A[1, c, w] * x1 + A[2, c, w] * x2 + A[3, c, w] * x3 + A[4, c, w] * x4
                         + A[5, c, w] * x5)


@lanes
def dot2(x, y, z, u, out):
    """``out[w] = x . y + z . u`` (6-vectors per lane)."""
    for w in range(x.shape[1]):
        out[w] = (x[0, w] * y[0, w] + x[1, w] * y[1, w] + x[2, w] * y[2, w] + x[3, w] * y[3, w] + x[4, w] * y[4, w]
                  + x[5, w] * y[5, w]) + (z[0, w] * u[0, w] + z[1, w] * u[1, w] + z[2, w] * u[2, w]
                                          + z[3, w] * u[3, w] + z[4, w] * u[4, w] + z[5, w] * u[5, w])


@lanes
def velocity_variation(Y, v, h, B):
    """``B = P + P^T + (. x* h)`` with ``P = v x* Y`` (column by column), ``h = Y v`` (``spatial/compiled.py``'s
    ``velocity_variation`` over the lanes): ``d/dt (Y x) = Y dx/dt + B x`` for the world inertia ``Y`` moving with
    the twist ``v``. Column ``c`` of ``(. x* h)`` is ``e_c x* h``: ``[[0, K(f)], [K(f), K(tau)]]`` with
    ``K(f) = -f x`` for ``h = [f; tau]``."""
    for w in range(v.shape[1]):
        f0, f1, f2, t0, t1, t2 = h[0, w], h[1, w], h[2, w], h[3, w], h[4, w], h[5, w]
        for r in range(3):
            for c in range(3):
                B[r, c, w] = 0.0
        for o in (0, 3):  # K(f) in the two off-diagonal blocks
            B[o + 0, 3 - o + 0, w], B[o + 0, 3 - o + 1, w], B[o + 0, 3 - o + 2, w] = 0.0, f2, -f1
            B[o + 1, 3 - o + 0, w], B[o + 1, 3 - o + 1, w], B[o + 1, 3 - o + 2, w] = -f2, 0.0, f0
            B[o + 2, 3 - o + 0, w], B[o + 2, 3 - o + 1, w], B[o + 2, 3 - o + 2, w] = f1, -f0, 0.0
        B[3, 3, w], B[3, 4, w], B[3, 5, w] = 0.0, t2, -t1
        B[4, 3, w], B[4, 4, w], B[4, 5, w] = -t2, 0.0, t0
        B[5, 3, w], B[5, 4, w], B[5, 5, w] = t1, -t0, 0.0
    for c in range(6):  # P's column c = v x* Y[:, c], added to column c and row c
        for w in range(v.shape[1]):
            v0, v1, v2, w0, w1, w2 = v[0, w], v[1, w], v[2, w], v[3, w], v[4, w], v[5, w]
            y0, y1, y2, y3, y4, y5 = Y[0, c, w], Y[1, c, w], Y[2, c, w], Y[3, c, w], Y[4, c, w], Y[5, c, w]
            p0 = w1 * y2 - w2 * y1
            p1 = w2 * y0 - w0 * y2
            p2 = w0 * y1 - w1 * y0
            p3 = w1 * y5 - w2 * y4 + v1 * y2 - v2 * y1
            p4 = w2 * y3 - w0 * y5 + v2 * y0 - v0 * y2
            p5 = w0 * y4 - w1 * y3 + v0 * y1 - v1 * y0
            P = (p0, p1, p2, p3, p4, p5)
            for r in range(6):
                B[r, c, w] += P[r]
                B[c, r, w] += P[r]


# ---------------------------------------------------------------------------------------------- RNEA derivatives
@lanes
def rnea_derivatives_block(I, F, q, qd, qdd, R, p, oR, op, ov, oa, of, Yc, Bc, J, dV, dA, dAv, Ys, Zs, Xq, Xv, T, S,
                           dtau_dq, dtau_dv, M):
    """At the ``W`` states ``q, qd, qdd``: ``dtau_dq``, ``dtau_dv`` and ``M = dtau/dqdd``
    ``(nv, nv, W)`` (entries off the joints' supports left as they are: zero), as ``kernels/derivatives.py``'s
    ``rnea_derivatives``. Fills ``liMi`` (``R, p``), ``oMi`` (``oR, op``), ``ov``, ``oa`` (with ``-g``), the
    world Jacobian columns ``J`` and per dof ``dV = dVdq``, ``dA = dAdq``, ``dAv = dAdv``, ``Ys = Yc S``,
    ``Zs = Bc^T S``, ``Xq``, ``Xv`` ``(nv, 6, W)``; ``of``, ``Yc``, ``Bc`` end as the subtree sums. ``T``
    ``(32, W)``, ``S`` ``(6, 6)`` scratch."""
    m = model_views(borrowed(I), borrowed(F))
    q, qd, qdd, R, p, oR, op = borrowed(q), borrowed(qd), borrowed(qdd), borrowed(R), borrowed(p), borrowed(oR), \
        borrowed(op)
    ov, oa, of, Yc, Bc, J = borrowed(ov), borrowed(oa), borrowed(of), borrowed(Yc), borrowed(Bc), borrowed(J)
    dV, dA, dAv, Ys, Zs, Xq, Xv = borrowed(dV), borrowed(dA), borrowed(dAv), borrowed(Ys), borrowed(Zs), \
        borrowed(Xq), borrowed(Xv)
    T, S, dtau_dq, dtau_dv, M = borrowed(T), borrowed(S), borrowed(dtau_dq), borrowed(dtau_dv), borrowed(M)
    ovJ, tmp, h, cs, G = T[0:6], T[6:12], T[12:18], T[18:20], T[20:26]
    world_root(m, oR, op, ov, oa)
    for i in range(1, m.nj):  # forward: kinematics, dVdq, dAdq, dAdv, world inertias, body forces, B
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        world_motion(m, i, q, qd, R, p, oR, op, J, ov, ovJ, S, cs)
        cross_to(ov[parent], ovJ, tmp)  # oa_i = oa_parent + ov_parent x ovJ + J qdd (cJ = 0)
        for r in range(6):
            for w in range(W):
                acc = oa[parent, r, w] + tmp[r, w]
                for k in range(nvi):
                    acc += J[iv + k, r, w] * qdd[iv + k, w]
                oa[i, r, w] = acc
        for c in range(iv, iv + nvi):
            cross_to(ov[parent], J[c], dV[c])  # dVdq = ov_p x s
            cross_to(oa[parent], J[c], dA[c])  # dAdq = oa_p x s + ov_p x dVdq
            cross_add(ov[parent], dV[c], dA[c])
            cross_to(ov[i], J[c], dAv[c])  # dAdv = ov_i x s + dVdq
            for r in range(6):
                for w in range(W):
                    dAv[c, r, w] += dV[c, r, w]
        world_inertia(m.inertias[i], oR[i], op[i], Yc[i])  # Y_i, h_i = Y_i ov_i, f_i = Y_i oa_i + ov_i x* h_i
        matvec(Yc[i], ov[i], h)
        matvec(Yc[i], oa[i], of[i])
        force_cross_to(ov[i], h, tmp)
        for r in range(6):
            for w in range(W):
                of[i, r, w] += tmp[r, w]
        velocity_variation(Yc[i], ov[i], h, Bc[i])
    for i in range(m.nj - 1, 0, -1):  # backward: the columns of joint i, then the subtree sums onto the parent
        iv, nvi, parent = m.idx_v[i], m.nvs[i], m.parents[i]
        for c in range(iv, iv + nvi):
            matvec(Yc[i], J[c], Ys[c])
            matvec_transpose(Bc[i], J[c], Zs[c])
            matvec2(Yc[i], dA[c], Bc[i], dV[c], Xq[c])  # Xq = Yc dAdq + Bc dVdq
            matvec2(Yc[i], dAv[c], Bc[i], J[c], Xv[c])  # Xv = Yc dAdv + Bc s
        for c in range(iv, iv + nvi):  # the joint's own block
            for r in range(iv, iv + nvi):
                dot(J[r], Xq[c], dtau_dq[r, c])
                dot(J[r], Xv[c], dtau_dv[r, c])
                dot(J[r], Ys[c], M[r, c])
            for w in range(W):
                M[c, c, w] += m.armature[c]
        for c in range(iv, iv + nvi):  # blocks with the ancestors
            force_cross_to(J[c], of[i], G)
            for r in range(6):
                for w in range(W):
                    G[r, w] += Xq[c, r, w]
            j = parent
            while j > 0:
                for r in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
                    dot(J[r], G, dtau_dq[r, c])
                    dot(J[r], Xv[c], dtau_dv[r, c])
                    dot(J[r], Ys[c], M[r, c])
                    dot2(Ys[c], dA[r], Zs[c], dV[r], dtau_dq[c, r])
                    dot2(Ys[c], dAv[r], Zs[c], J[r], dtau_dv[c, r])
                    for w in range(W):
                        M[c, r, w] = M[r, c, w]
                j = m.parents[j]
        if parent > 0:  # subtree sums (one world frame: no transform)
            for r in range(6):
                for w in range(W):
                    of[parent, r, w] += of[i, r, w]
                for k in range(6):
                    for w in range(W):
                        Yc[parent, r, k, w] += Yc[i, r, k, w]
                        Bc[parent, r, k, w] += Bc[i, r, k, w]


@njit(cache=True, nogil=True)
def rnea_derivatives_chunk(I, F, Q, V, A, OUT_Q, OUT_V, OUT_A, STATUS, first, last):
    """``OUT_Q[b], OUT_V[b], OUT_A[b]`` = ``dtau/dq``, ``dtau/dv``, ``M`` at ``(Q[b], V[b], A[b])`` and
    ``STATUS[b]`` its input status, for the states of the blocks ``first .. last - 1`` (:func:`rnea_derivatives_block`);
    releases the GIL."""
    I, F, Q, V, A, STATUS = borrowed(I), borrowed(F), borrowed(Q), borrowed(V), borrowed(A), borrowed(STATUS)
    OUT_Q, OUT_V, OUT_A = borrowed(OUT_Q), borrowed(OUT_V), borrowed(OUT_A)
    nj, nq, nv = I[0], I[1], I[2]
    q, qd, qdd = np.empty((nq, W)), np.empty((nv, W)), np.empty((nv, W))
    R, p, oR, op = np.empty((nj, 3, 3, W)), np.empty((nj, 3, W)), np.empty((nj, 3, 3, W)), np.empty((nj, 3, W))
    ov, oa, of = np.empty((nj, 6, W)), np.empty((nj, 6, W)), np.empty((nj, 6, W))
    Yc, Bc = np.empty((nj, 6, 6, W)), np.empty((nj, 6, 6, W))
    J, dV, dA, dAv = np.empty((nv, 6, W)), np.empty((nv, 6, W)), np.empty((nv, 6, W)), np.empty((nv, 6, W))
    Ys, Zs, Xq, Xv = np.empty((nv, 6, W)), np.empty((nv, 6, W)), np.empty((nv, 6, W)), np.empty((nv, 6, W))
    dq, dv, M = np.zeros((nv, nv, W)), np.zeros((nv, nv, W)), np.zeros((nv, nv, W))  # (0 off the supports)
    T, S, none = np.zeros((32, W)), np.empty((6, 6)), np.zeros(W)
    m = model_views(I, F)
    for blk in range(first, last):
        b0 = blk * W
        load(Q, b0, q)
        load(V, b0, qd)
        load(A, b0, qdd)
        rnea_derivatives_block(I, F, q, qd, qdd, R, p, oR, op, ov, oa, of, Yc, Bc, J, dV, dA, dAv, Ys, Zs, Xq, Xv, T,
                               S, dq, dv, M)
        statuses(m, q, qd, qdd, b0, none, STATUS)
        store_matrix(dq, b0, OUT_Q)
        store_matrix(dv, b0, OUT_V)
        store_matrix(M, b0, OUT_A)


# ---------------------------------------------------------------------------------------------- ABA derivatives
@lanes
def solve_minus(H, lam, end, dinv, X, nl):
    """``X = -M^-1 X`` in place over the lanes (``X`` ``(nv, nv, W)``, its rows solved together) through the sparse
    factor ``H`` of ``M = L^T D L`` (``simd.ltdl``; Featherstone, RBDA Table 6.3's back and forward substitutions:
    ``L^T y = X`` from the leaves, then ``x = -D^-1 y - L x`` from the root); ``lam`` the dof parents, ``end[k]``
    one past the last dof of dof ``k``'s subtree, ``dinv`` ``(nv, W)`` receives ``-1 / D``. Row ``k`` of ``X``
    (an RNEA derivative) is nonzero only on the ancestors and the subtree of ``k``, and so is row ``k`` of ``y``:
    the back substitution runs over those columns alone. ``nl``: the lane count ``W`` as a run-time value
    (``simd.lane_count``)."""
    H, lam, end, dinv, X = borrowed(H), borrowed(lam), borrowed(end), borrowed(dinv), borrowed(X)
    nv = X.shape[0]
    for k in range(nv):
        for w in range(W):
            dinv[k, w] = -1.0 / H[k, k, w]
    for k in range(nv - 1, -1, -1):  # L^T y = X
        i = lam[k]
        while i >= 0:
            rows_sub(H[k, i], X[k, k:end[k]], X[i, k:end[k]])  # the subtree's columns
            j = lam[k]
            while j >= 0:  # the ancestors' columns
                rows_sub(H[k, i], X[k, j : j + 1], X[i, j : j + 1])
                j = lam[j]
            i = lam[i]
    for k in range(nv):  # x_k = -y_k / D_k - sum_i L_ki x_i over the ancestors i (already negated)
        rows_scale(dinv[k], X[k], nl)
        ancestors_sub(H[k], lam, lam[k], X, 0, X[k])


@njit(cache=True, nogil=True)
def aba_derivatives_chunk(I, F, Q, V, TAU, OUT_Q, OUT_V, OUT_TAU, STATUS, first, last):
    """``OUT_Q[b], OUT_V[b], OUT_TAU[b]`` = ``dddq/dq``, ``dddq/dv``, ``M^-1`` at ``(Q[b], V[b], TAU[b])`` and
    ``STATUS[b]`` for the states of the blocks ``first .. last - 1``: ``ddq`` by ``simd.aba_block``, the RNEA
    derivatives at ``ddq`` (:func:`rnea_derivatives_block`), ``M^-1`` from the sparse factor of their ``M``, and
    ``-M^-1 dtau/dq``, ``-M^-1 dtau/dv`` solved through that factor; releases the GIL."""
    I, F, Q, V, TAU, STATUS = borrowed(I), borrowed(F), borrowed(Q), borrowed(V), borrowed(TAU), borrowed(STATUS)
    OUT_Q, OUT_V, OUT_TAU = borrowed(OUT_Q), borrowed(OUT_V), borrowed(OUT_TAU)
    nj, nq, nv = I[0], I[1], I[2]
    q, qd, tau, ddq = np.empty((nq, W)), np.empty((nv, W)), np.empty((nv, W)), np.empty((nv, W))
    R, p, oR, op = np.empty((nj, 3, 3, W)), np.empty((nj, 3, W)), np.empty((nj, 3, 3, W)), np.empty((nj, 3, W))
    ov, oa, of, oc = np.empty((nj, 6, W)), np.empty((nj, 6, W)), np.empty((nj, 6, W)), np.empty((nj, 6, W))
    Yc, Bc, D6 = np.empty((nj, 6, 6, W)), np.empty((nj, 6, 6, W)), np.empty((6, 6, W))
    J, dV, dA, dAv = np.empty((nv, 6, W)), np.empty((nv, 6, W)), np.empty((nv, 6, W)), np.empty((nv, 6, W))
    Ys, Zs, Xq, Xv = np.empty((nv, 6, W)), np.empty((nv, 6, W)), np.empty((nv, 6, W)), np.empty((nv, 6, W))
    dinv, u = np.empty((nv, W)), np.empty((nv, W))
    dq, dv, M = np.zeros((nv, nv, W)), np.zeros((nv, nv, W)), np.zeros((nv, nv, W))  # (0 off the supports)
    Minv, T, S = np.empty((nv, nv, W)), np.zeros((32, W)), np.empty((6, 6))
    m = model_views(I, F)
    nl = lane_count(Q)
    lam = m.dof_parents
    end = subtree_ends(lam)
    for blk in range(first, last):
        b0 = blk * W
        load(Q, b0, q)
        load(V, b0, qd)
        load(TAU, b0, tau)
        # ABA's arrays: ov, oc, the bias forces (of), oa, the articulated inertias (Yc), U (Ys), 1/D, u
        aba_block(I, F, q, qd, tau, R, p, oR, op, ov, oc, of, oa, Yc, D6, J, Ys, dinv, u, T, S, ddq)
        for w in range(W):
            T[31, w] = T[21, w]  # the lanes where ABA met a pivot that is not positive
        dq[:, :, :] = 0.0  # the last block's solves filled the entries off the supports
        dv[:, :, :] = 0.0
        rnea_derivatives_block(I, F, q, qd, ddq, R, p, oR, op, ov, oa, of, Yc, Bc, J, dV, dA, dAv, Ys, Zs, Xq, Xv, T,
                               S, dq, dv, M)
        factor_and_invert(M, lam, end, T[30], T[29], Minv, nl)  # M factored in place (rewritten at each block)
        for w in range(W):
            T[31, w] += T[30, w]
        statuses(m, q, qd, tau, b0, T[31], STATUS)
        solve_minus(M, lam, end, dinv, dq, nl)
        store_matrix(dq, b0, OUT_Q)
        solve_minus(M, lam, end, dinv, dv, nl)
        store_matrix(dv, b0, OUT_V)
        store_symmetric(Minv, b0, OUT_TAU)
