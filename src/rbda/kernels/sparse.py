"""Compiled sparse factorisation of the joint-space inertia along the tree (Featherstone, RBDA section 6.5, and
spatial_v2's ``LTL``, ``LTDL``, ``mpyH``, ``mpyL``, ...): ``M = L^T D L`` with ``L`` unit lower-triangular on
M's branch-induced pattern, the products with ``L`` and its inverse, solves, and ``M^-1`` from the factor.

``lam`` is the expanded parent array (0-based, -1 at the root): the nonzeros of row k of a lower-triangular
factor below the diagonal are in columns lam[k], lam[lam[k]], ... (Featherstone, RBDA section 6.5).
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit


@njit(cache=True, refcount=False)
def ltdl(H, lam):
    """In place ``H = L^T D L`` exploiting branch-induced sparsity (Featherstone, RBDA Table 6.3): afterwards the
    diagonal of ``H`` holds D and its strictly lower part L (unit diagonal implied); fill-in stays on ancestors.
    False (and ``H`` partly factored) if a pivot is not positive."""
    for k in range(H.shape[0] - 1, -1, -1):
        if not H[k, k] > 0.0:
            return False
        inverse_pivot = 1.0 / H[k, k]  # one division per row (a division costs several multiplications)
        i = lam[k]
        while i >= 0:
            a = H[k, i] * inverse_pivot
            j = i
            while j >= 0:
                H[i, j] -= a * H[k, j]
                j = lam[j]
            H[k, i] = a
            i = lam[i]
    return True


@njit(cache=True, forceinline=True)
def subtree_ends(lam):
    """``end`` (nv,): the dofs of the subtree of dof k are ``k..end[k]-1`` (depth-first order)."""
    end = np.arange(1, lam.shape[0] + 1)
    for k in range(lam.shape[0] - 1, -1, -1):
        if lam[k] >= 0:
            end[lam[k]] = max(end[lam[k]], end[k])
    return end


@njit(cache=True, forceinline=True)
def row_axpy(alpha, A, src, dst, start, stop):
    """``A[dst, start:stop] += alpha A[src, start:stop]``, on unsigned indices: numba tests each signed index for
    a negative (wrap-around) value, which keeps the loop from vectorising."""
    s, d = np.uint64(src), np.uint64(dst)
    for c in range(np.uint64(start), np.uint64(stop)):
        A[d, c] += alpha * A[s, c]


@njit(cache=True, forceinline=True)
def row_axpy2(alpha, src, beta, src2, A, dst, start, stop):
    """``A[dst, start:stop] += alpha A[src, start:stop] + beta A[src2, start:stop]`` (see :func:`row_axpy`)."""
    s, s2, d = np.uint64(src), np.uint64(src2), np.uint64(dst)
    for c in range(np.uint64(start), np.uint64(stop)):
        A[d, c] += alpha * A[s, c] + beta * A[s2, c]


@njit(cache=True)
def minverse_from_factor(H, lam, Minv):
    """``Minv = (L^T D L)^-1 = L^-1 D^-1 L^-T`` from the factor ``H`` of :func:`ltdl`, on rows (spatial_v2's
    mpyLit, D^-1, mpyLi applied to the identity): each step is a row operation, which vectorises, instead of a
    chain of dependent scalar updates per column. Only the upper triangle is computed, then mirrored, as
    Pinocchio's computeMinverse does: row i of ``Z = L^-T`` is zero outside the dofs i..end[i]-1 of its subtree,
    and the upper part of a row of ``X = L^-1 W`` reads only the upper parts of the rows of its ancestors."""
    nv = H.shape[0]
    end = subtree_ends(lam)
    for r in range(nv):  # the upper triangle of the identity
        row = Minv[r, r:]
        for c in range(row.shape[0]):
            row[c] = 0.0
        row[0] = 1.0
    for i in range(nv - 1, -1, -1):  # Z = L^-T: row i is final once its descendants are done; push it up
        j = lam[i]
        while j >= 0:
            row_axpy(-H[i, j], Minv, i, j, i, end[i])
            j = lam[j]
    for r in range(nv):  # W = D^-1 Z, then L X = W row by row
        row, inverse_pivot = Minv[r, r : end[r]], 1.0 / H[r, r]
        for c in range(row.shape[0]):
            row[c] *= inverse_pivot
        j = lam[r]
        while j >= 0:  # two ancestors a pass: half the loads and stores of row r
            k = lam[j]
            if k < 0:
                row_axpy(-H[r, j], Minv, j, r, r, nv)
                break
            row_axpy2(-H[r, j], j, -H[r, k], k, Minv, r, r, nv)
            j = lam[k]
    for r in range(nv):  # the lower triangle, by symmetry
        row, column = Minv[r, r + 1 :], Minv[r + 1 :, r]
        for c in range(row.shape[0]):
            column[c] = row[c]


@njit(cache=True)
def minus_minv_products(Minv, lam, X, Y, out_x, out_y):
    """``out_x = -M^-1 X`` and ``out_y = -M^-1 Y`` for ``X``, ``Y`` (nv, nv) with the pattern of the tree: ``X[k, c]``
    is zero unless dof k is an ancestor of dof c or in its subtree (as for the RNEA derivatives: moving a dof moves
    only its subtree). With ``M^-1`` symmetric, column c of ``-M^-1 X`` is ``-sum_k X[k, c] M^-1[k]`` over those k
    only (on a humanoid, half the products of the dense ones), each a whole row of ``M^-1``; the columns are
    computed as rows, then transposed in place."""
    nv = Minv.shape[0]
    end = subtree_ends(lam)
    for c in range(nv):
        col_x, col_y = out_x[c], out_y[c]
        for r in range(nv):
            col_x[r] = 0.0
            col_y[r] = 0.0
        k = lam[c]
        while k >= 0:  # the ancestors of c
            minus_minv_row(Minv[k], X[k, c], Y[k, c], col_x, col_y)
            k = lam[k]
        for k in range(c, end[c]):  # its subtree
            minus_minv_row(Minv[k], X[k, c], Y[k, c], col_x, col_y)
    for r in range(nv):
        for c in range(r + 1, nv):
            out_x[r, c], out_x[c, r] = out_x[c, r], out_x[r, c]
            out_y[r, c], out_y[c, r] = out_y[c, r], out_y[r, c]


@njit(cache=True, forceinline=True)
def minus_minv_row(minv_k, x, y, col_x, col_y):
    """``col_x -= x M^-1[k]``, ``col_y -= y M^-1[k]`` (``minv_k`` the row)."""
    for r in range(minv_k.shape[0]):
        col_x[r] -= x * minv_k[r]
        col_y[r] -= y * minv_k[r]


@njit(cache=True, forceinline=True)
def copy_tree_pattern(M, lam, H):
    """``H[k, j] = M[k, j]`` for every dof k and j = k or an ancestor of k: the entries that :func:`ltdl` reads.
    Element by element: a slice assignment compiles numba's shape-error path (~3 s)."""
    for k in range(M.shape[0]):
        H[k, k] = M[k, k]
        j = lam[k]
        while j >= 0:
            H[k, j] = M[k, j]
            j = lam[j]


@njit(cache=True)
def inverse_through_factor(M, lam, H, Minv):
    """``Minv = M^-1`` through the sparse factor ``H`` of ``M`` (:func:`ltdl` of a copy of M's entries on the
    factor's pattern, into ``H``); False if ``M`` is not positive definite."""
    copy_tree_pattern(M, lam, H)
    if not ltdl(H, lam):
        return False
    minverse_from_factor(H, lam, Minv)
    return True


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


@njit(cache=True, refcount=False)
def mpy_li(L, lam, x, y):
    """``y = L^-1 x``: forward substitution over the ancestors (``y`` may be ``x``)."""
    for k in range(L.shape[0]):
        acc = x[k]
        j = lam[k]
        while j >= 0:
            acc -= L[k, j] * y[j]
            j = lam[j]
        y[k] = acc * (1.0 / L[k, k])  # (the division off the chain of dependent operations)


@njit(cache=True, refcount=False)
def mpy_lit(L, lam, x, y):
    """``y = L^-T x``: back substitution, each solved entry pushed to its ancestors (``y`` may be ``x``)."""
    for k in range(L.shape[0]):
        y[k] = x[k]
    for k in range(L.shape[0] - 1, -1, -1):
        y[k] *= 1.0 / L[k, k]
        j = lam[k]
        while j >= 0:
            y[j] -= L[k, j] * y[k]
            j = lam[j]


@njit(cache=True, refcount=False)
def cholesky_decompose(M, lam, L, D, Dinv):
    """``M = L^T D L`` with ``L`` unit lower-triangular of M's branch-induced pattern (Pinocchio's ``U = L^T``);
    reads the lower part of M on that pattern. Returns 0, or 1 if a pivot is not positive (or not finite)."""
    n = M.shape[0]
    for k in range(n):
        for j in range(n):
            L[k, j] = 0.0
    copy_tree_pattern(M, lam, L)
    ltdl(L, lam)
    for k in range(n):
        if not L[k, k] > 0.0 or not np.isfinite(L[k, k]):
            return 1
        D[k], Dinv[k], L[k, k] = L[k, k], 1.0 / L[k, k], 1.0
    return 0


@njit(cache=True, refcount=False)
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
def cholesky_solve_block(L, Dinv, lam, T):
    """In place ``T = M^-1 T`` for ``T (nv, k)`` with ``M = L^T D L`` the sparse factor of
    :func:`cholesky_decompose`: its solve with every step a row operation over the k columns."""
    nv, k_cols = T.shape
    for k in range(nv - 1, -1, -1):  # L^-T: row k pushed to its ancestors j
        j = lam[k]
        while j >= 0:
            row_axpy(-L[k, j], T, k, j, 0, k_cols)
            j = lam[j]
    for k in range(nv):  # D^-1, then L^-1: row k takes its ancestors j
        for c in range(k_cols):
            T[k, c] *= Dinv[k]
        j = lam[k]
        while j >= 0:
            row_axpy(-L[k, j], T, j, k, 0, k_cols)
            j = lam[j]


@njit(cache=True)
def cholesky_minv(L, D, lam, Minv):
    """``Minv = M^-1`` from the unit factor ``L`` and ``D`` of :func:`cholesky_decompose`: the diagonal of ``L`` is
    set to ``D`` for :func:`minverse_from_factor`, then restored."""
    for k in range(L.shape[0]):
        L[k, k] = D[k]
    minverse_from_factor(L, lam, Minv)
    for k in range(L.shape[0]):
        L[k, k] = 1.0
