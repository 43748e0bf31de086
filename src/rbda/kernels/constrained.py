"""Compiled constrained dynamics: the constraint kinematics, the Delassus matrix through the sparse factor of M,
and the proximal solve of the KKT system (``algorithms/constrained.py`` states the equations and conventions).

Packed constraints: ``CI (nc, 4)`` int rows ``[type, reference frame, joint1, joint2]``; ``CF (nc, 50)`` float
rows ``[P1 (3x4), P2 (3x4), Kp, Kd, Pd (3x4), v_des (6), a_des (6)]``. Each constraint's results go to its row of
the records ``R (nc, 78)`` (offsets below), its Jacobian rows to ``Jc (m, nv)`` and ``gamma - a_c`` to ``rhs``.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..spatial.compiled import jlog_coefficient, motion_act, motion_act_inv, motion_cross, se3_compose, sin_over_t
from .checks import SINGULAR, all_finite
from .dynamics import crba, crba_after_kinematics, rnea
from .kinematics import forward_kinematics_qva
from ..model.layout import data_views, model_views
from .sparse import cholesky_decompose, cholesky_minv, cholesky_solve
from .._native.views import borrowed, view

CONTACT_3D, WORLD, LOCAL = 0, 0, 1
CONSTRAINT_INTS, CONSTRAINT_FLOATS = 4, 50
F_P1, F_P2, F_GAINS, F_PD, F_VD, F_AD = 0, 12, 24, 26, 38, 44  # offsets in a CF row
OMC1, OMC2, C1MC2, V1, V2, EP, EV, FORCE, DRIFT, DESIRED, RECORD = 0, 12, 24, 36, 42, 48, 54, 60, 66, 72, 78
SINGULAR_SET = 96  # the Delassus matrix plus mu is not positive definite: a redundant set with mu = 0
NONFINITE_CONSTRAINT = 95  # a constraint's placements, gains or targets hold NaN or inf
STATS = 3  # iterations, absolute residual, relative residual
#: a call's settings, a float64 vector (``proximal_values``): its entries by name (RESTITUTION: impulses only)
MU, ACCURACY, MAX_ITER, RESTITUTION = 0, 1, 2, 3


def proximal_values(settings, restitution=None, out=None) -> np.ndarray:
    """The settings vector the kernels read (``MU``, ``ACCURACY``, ``MAX_ITER``, and ``RESTITUTION`` if
    ``restitution`` is given) of ``settings``, a :class:`~rbda.model.constraints.ProximalSettings`; written into
    ``out`` if given (float64, long enough), else into a new vector (3,) or (4,)."""
    if out is None:
        out = np.empty(3 if restitution is None else 4)
    out[MU], out[ACCURACY], out[MAX_ITER] = settings.mu, settings.absolute_accuracy, settings.max_iter
    if restitution is not None:
        out[RESTITUTION] = restitution
    return out


# ------------------------------------------------------------------------------------------------ small helpers
@njit(cache=True, forceinline=True)
def se3_inverse_compose(A, B, out):
    """``out = A^-1 B``: ``R = RA^T RB``, ``p = RA^T (pB - pA)``."""
    for r in range(3):
        for c in range(3):
            out[r, c] = A[0, r] * B[0, c] + A[1, r] * B[1, c] + A[2, r] * B[2, c]
        out[r, 3] = A[0, r] * (B[0, 3] - A[0, 3]) + A[1, r] * (B[1, 3] - A[1, 3]) + A[2, r] * (B[2, 3] - A[2, 3])


@njit(cache=True, forceinline=True)
def se3_compose_inverse(A, B, out):
    """``out = A B^-1``: ``R = RA RB^T``, ``p = pA - R pB``."""
    for r in range(3):
        for c in range(3):
            out[r, c] = A[r, 0] * B[c, 0] + A[r, 1] * B[c, 1] + A[r, 2] * B[c, 2]
    for r in range(3):
        out[r, 3] = A[r, 3] - (out[r, 0] * B[0, 3] + out[r, 1] * B[1, 3] + out[r, 2] * B[2, 3])


@njit(cache=True)
def se3_log(M, out):
    """``out = log6(M) = [V(w)^-1 p; w]``, ``w = log3(R)`` (angle in [0, pi], the symmetric part near pi)."""
    c = min(1.0, max(-1.0, 0.5 * (M[0, 0] + M[1, 1] + M[2, 2] - 1.0)))
    sx, sy, sz = 0.5 * (M[2, 1] - M[1, 2]), 0.5 * (M[0, 2] - M[2, 0]), 0.5 * (M[1, 0] - M[0, 1])
    t = np.arctan2(np.sqrt(sx * sx + sy * sy + sz * sz), c)
    if c > -0.5:
        k = 1.0 / sin_over_t(t)
        wx, wy, wz = k * sx, k * sy, k * sz
    else:  # (R + R^T)/2 - cos(t) I = (1 - cos t) axis axis^T
        i = 0
        for r in range(1, 3):
            if M[r, r] > M[i, i]:
                i = r
        b0, b1, b2 = 0.5 * (M[0, i] + M[i, 0]), 0.5 * (M[1, i] + M[i, 1]), 0.5 * (M[2, i] + M[i, 2])
        if i == 0:
            b0 -= c
        elif i == 1:
            b1 -= c
        else:
            b2 -= c
        if b0 * sx + b1 * sy + b2 * sz < 0.0:
            b0, b1, b2 = -b0, -b1, -b2
        n = np.sqrt(b0 * b0 + b1 * b1 + b2 * b2)
        wx, wy, wz = t * b0 / n, t * b1 / n, t * b2 / n
    px, py, pz = M[0, 3], M[1, 3], M[2, 3]
    D = jlog_coefficient(t)  # V^-1 = 1 - w^/2 + D w^2
    cx, cy, cz = wy * pz - wz * py, wz * px - wx * pz, wx * py - wy * px
    out[0] = px - 0.5 * cx + D * (wy * cz - wz * cy)
    out[1] = py - 0.5 * cy + D * (wz * cx - wx * cz)
    out[2] = pz - 0.5 * cz + D * (wx * cy - wy * cx)
    out[3], out[4], out[5] = wx, wy, wz


@njit(cache=True, forceinline=True)
def rotate(R, x, out, transpose):
    """``out = R x`` (or ``R^T x``) for a 3-vector; ``out`` may be ``x``."""
    x0, x1, x2 = x[0], x[1], x[2]
    for r in range(3):
        if transpose:
            out[r] = R[0, r] * x0 + R[1, r] * x1 + R[2, r] * x2
        else:
            out[r] = R[r, 0] * x0 + R[r, 1] * x1 + R[r, 2] * x2


@njit(cache=True, forceinline=True)
def point_velocity(u, p, out):
    """``out = u_lin + u_ang x p``: the velocity at the point ``p`` of the twist ``u`` taken at the origin."""
    out[0] = u[0] + u[4] * p[2] - u[5] * p[1]
    out[1] = u[1] + u[5] * p[0] - u[3] * p[2]
    out[2] = u[2] + u[3] * p[1] - u[4] * p[0]


@njit(cache=True, forceinline=True)
def classical(v, a, R, out):
    """``out = R (a_lin + w x v_lin)``: the classical acceleration of a frame's origin, rotated by ``R``."""
    out[0] = a[0] + v[4] * v[2] - v[5] * v[1]
    out[1] = a[1] + v[5] * v[0] - v[3] * v[2]
    out[2] = a[2] + v[3] * v[1] - v[4] * v[0]
    rotate(R, out, out, False)


# ------------------------------------------------------------------------------------------------ kinematics
@njit(cache=True)
def frame_motion(d, joint, P, v_out, a_out):
    """Velocity and drift acceleration of the frame ``P`` on ``joint``, in the frame (zero on the world)."""
    if joint == 0:
        for k in range(6):
            v_out[k] = a_out[k] = 0.0
        return
    motion_act_inv(P, d.v[joint], v_out)
    motion_act_inv(P, d.a[joint], a_out)


@njit(cache=True)
def add_columns(m, d, joint, sign, rf, R1, p, rows, u_p):
    """``rows += sign T(J_joint)``: the world columns of the joint's supporting dofs taken at the point ``p``
    (the first 3 rows for a 3D constraint), in c1's axes for LOCAL, unshifted for WORLD."""
    i = joint
    while i > 0:
        for col in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            u = d.J[col]
            for k in range(6):
                u_p[k] = u[k]
            if rf != WORLD:
                point_velocity(u, p, u_p)
            if rf == LOCAL:
                rotate(R1, u_p[0:3], u_p[0:3], True)
                rotate(R1, u_p[3:6], u_p[3:6], True)
            for r in range(rows.shape[0]):
                rows[r, col] += sign * u_p[r]
        i = m.parents[i]


@njit(cache=True)
def constraint_rows(m, d, ci, cf, rec, rows, rhs, w):
    """One constraint's rows of J (``rows``), its ``gamma - a_c`` (``rhs``) and its record; ``w`` (10, 6)
    scratch. The formulas are those of ``algorithms/constrained.py: constraint_kinematics``."""
    kind, rf, j1, j2 = ci[0], ci[1], ci[2], ci[3]
    n = rows.shape[0]
    P1, P2, Pd = view(cf, F_P1, (3, 4)), view(cf, F_P2, (3, 4)), view(cf, F_PD, (3, 4))
    oMc1, oMc2, X = view(rec, OMC1, (3, 4)), view(rec, OMC2, (3, 4)), view(rec, C1MC2, (3, 4))
    v1, v2, ep, ev = rec[V1:V1 + 6], rec[V2:V2 + 6], rec[EP:EP + 6], rec[EV:EV + 6]
    drift, desired = rec[DRIFT:DRIFT + 6], rec[DESIRED:DESIRED + 6]
    a1, a2, x1, x2, tmp = w[0], w[1], w[2], w[3], w[4]
    Y = w[5:7].reshape((3, 4))
    se3_compose(d.oMi[j1], P1, oMc1)
    se3_compose(d.oMi[j2], P2, oMc2)
    se3_inverse_compose(oMc1, oMc2, X)  # c1Mc2
    frame_motion(d, j1, P1, v1, a1)
    frame_motion(d, j2, P2, v2, a2)
    R1, R2, p1, p2 = oMc1[:, :3], oMc2[:, :3], oMc1[:, 3], oMc2[:, 3]
    rows[:, :] = 0.0
    for k in range(6):
        ep[k] = ev[k] = drift[k] = desired[k] = 0.0
    if kind == CONTACT_3D:  # the two points, in world axes, then c1's for LOCAL
        add_columns(m, d, j1, 1.0, rf, R1, p1, rows, tmp)
        add_columns(m, d, j2, -1.0, rf, R1, p2, rows, tmp)
        classical(v1, a1, R1, x1)
        classical(v2, a2, R2, x2)
        rotate(R1, v1[0:3], a1, False)
        rotate(R2, v2[0:3], a2, False)
        rotate(R1, Pd[:, 3], ep, False)
        for k in range(3):
            drift[k] = x1[k] - x2[k]  # gamma = R1 c1 - R2 c2
            ev[k] = a1[k] - a2[k]  # e_v = R1 v1 - R2 v2
            ep[k] += p1[k] - p2[k]  # e_p = p1 - p2 + R1 t_d
        if rf == LOCAL:
            for x in (drift, ev, ep):
                rotate(R1, x[0:3], x[0:3], True)
    else:  # twists of c1 relative to c2, at c1
        add_columns(m, d, j1, 1.0, rf, R1, p1, rows, tmp)
        add_columns(m, d, j2, -1.0, rf, R1, p1, rows, tmp)
        motion_act(X, v2, x1)  # X v2
        motion_act(X, a2, x2)  # X a2
        se3_compose_inverse(X, Pd, Y)
        se3_log(Y, ep)
        for k in range(6):
            ep[k] = -ep[k]  # e_p = -log6(X Pd^-1)
            ev[k] = v1[k] - x1[k]  # e_v = v1 - X v2
            drift[k] = a1[k] - x2[k]  # gamma = a1 - X a2 (+ v1 x X v2 in LOCAL)
        if rf == LOCAL:
            motion_cross(v1, x1, tmp)
            for k in range(6):
                drift[k] += tmp[k]
        elif rf == WORLD:  # Ad(oMc1) of the errors, gamma = oa1 - oa2
            motion_act(oMc1, a1, x1)
            motion_act(oMc2, a2, x2)
            for k in range(6):
                drift[k] = x1[k] - x2[k]
            motion_act(oMc1, ev, tmp)
            for k in range(6):  # element by element: a slice assignment compiles numba's shape-error path (~2 s)
                ev[k] = tmp[k]
            motion_act(oMc1, ep, tmp)
            for k in range(6):
                ep[k] = tmp[k]
        else:  # LOCAL_WORLD_ALIGNED: each 3-block rotated by R1
            for x in (drift, ev, ep):
                rotate(R1, x[0:3], x[0:3], False)
                rotate(R1, x[3:6], x[3:6], False)
    Kp, Kd = cf[F_GAINS], cf[F_GAINS + 1]
    for k in range(n):  # a_c = a_des - Kp e_p - Kd (e_v - v_des)
        desired[k] = cf[F_AD + k] - Kp * ep[k] - Kd * (ev[k] - cf[F_VD + k])
        rhs[k] = drift[k] - desired[k]


@njit(cache=True)
def constraint_set(m, d, CI, CF, R, Jc, rhs, w):
    """Every constraint's rows, stacked in list order."""
    r = 0
    for k in range(CI.shape[0]):
        n = 3 if CI[k, 0] == CONTACT_3D else 6
        constraint_rows(m, d, CI[k], CF[k], R[k], Jc[r:r + n], rhs[r:r + n], w)
        r += n


@njit(cache=True)
def constraint_kinematics(I, F, ws, CI, CF, R, Jc, rhs, work):
    """:func:`constraint_set` from the kinematics already in ``ws`` (``oMi``, ``v``, ``a`` at ``ddq = 0``, ``J``);
    ``work`` as for :func:`constraint_dynamics`."""
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    nc, nv = Jc.shape
    constraint_set(m, d, CI, CF, R, Jc, rhs, constraint_scratch(work, nc, nv))


# ------------------------------------------------------------------------------------------------ the solve
@njit(cache=True)
def dense_cholesky(A, n):
    """In place lower Cholesky factor of ``A[:n, :n]``; False if a pivot is not above ``1e-12 max diag``."""
    scale = 0.0
    for i in range(n):
        scale = max(scale, A[i, i])
    for j in range(n):
        s = A[j, j]
        for k in range(j):
            s -= A[j, k] * A[j, k]
        if not s > 1e-12 * scale:
            return False
        A[j, j] = np.sqrt(s)
        for i in range(j + 1, n):
            s = A[i, j]
            for k in range(j):
                s -= A[i, k] * A[j, k]
            A[i, j] = s / A[j, j]
    return True


@njit(cache=True, refcount=False)
def damped_cholesky(G, damping, L, n, floor=0.0):
    """``L[:n, :n]`` lower-triangular with ``L L^T = G[:n, :n] + diag(damping[:n])``, the dense
    Cholesky-Banachiewicz order: row by row, ``L_ij = (A_ij - L_i,:j . L_j,:j) / L_jj``, each dot product over two
    contiguous rows (on a contact problem's tens of rows, faster than LAPACK's call overhead and than the
    tree-sparse factor with a dense pattern). The division is a product with ``1 / L_jj``, which does not wait on
    the dot product: the row's chain of dependent operations then holds multiplications only (30% faster at 12 to
    40 rows). A row's entries left of its first nonzero ``G_if`` are zero in ``L`` too (no fill outside the envelope),
    so its dot products start at ``f``: the terms left out are exact zeros, the factor the same to the bit, and a
    banded problem (the contacts of a stack, in the order of its pairs) costs its band's width squared a row. A row's
    entries are found four at a time (:func:`four_entries`): their dot products share the terms left of the first
    of them and run side by side, each summed in the same order as alone (the same factor to the bit; a dot product
    is a chain of dependent subtractions, four of them keep the multiplier busy). Returns False if the matrix is not
    positive definite (a pivot <= 0 or not finite), or as soon as a pivot ``L_ii^2`` is ``<= floor`` (a caller that
    only wants a well-conditioned factor stops there)."""
    for i in range(n):
        first = i
        for j in range(i):
            if G[i, j] != 0.0:
                first = j
                break
        Li = L[i]
        for j in range(first):
            Li[j] = 0.0
        j = first
        while j + 4 <= i:
            four_entries(G[i], Li, L[j], L[j + 1], L[j + 2], L[j + 3], first, j)
            j += 4
        for j in range(j, i):  # (the loops count from 0: as fast as the full ones on a dense matrix)
            acc, Lj = G[i, j], L[j]
            for k in range(j - first):
                acc -= Li[first + k] * Lj[first + k]
            Li[j] = acc * (1.0 / Lj[j])
        acc = G[i, i] + damping[i]
        for k in range(i - first):
            acc -= Li[first + k] * Li[first + k]
        if not (acc > floor and np.isfinite(acc)):
            return False
        Li[i] = np.sqrt(acc)
        for j in range(i + 1, n):
            Li[j] = 0.0
    return True


@njit(cache=True, refcount=False, forceinline=True)
def four_entries(Gi, Li, L0, L1, L2, L3, first, j):
    """Entries ``j`` to ``j + 3`` of row ``Li`` of :func:`damped_cholesky`'s factor (``Gi`` the row of ``G``, ``L0``
    to ``L3`` rows ``j`` to ``j + 3`` of the factor, ``first`` the row's first nonzero): the four dot products over
    ``first:j`` side by side, then the terms of the entries just found, each ``L_i,j+a = (G_i,j+a - sum_k L_ik
    L_j+a,k) * (1 / L_j+a,j+a)`` with its terms subtracted in the order of ``k``, as one entry alone."""
    a0, a1, a2, a3 = Gi[j], Gi[j + 1], Gi[j + 2], Gi[j + 3]
    for k in range(j - first):
        x = Li[first + k]
        a0 -= x * L0[first + k]
        a1 -= x * L1[first + k]
        a2 -= x * L2[first + k]
        a3 -= x * L3[first + k]
    y0 = a0 * (1.0 / L0[j])
    a1 -= y0 * L1[j]
    a2 -= y0 * L2[j]
    a3 -= y0 * L3[j]
    y1 = a1 * (1.0 / L1[j + 1])
    a2 -= y1 * L2[j + 1]
    a3 -= y1 * L3[j + 1]
    y2 = a2 * (1.0 / L2[j + 2])
    a3 -= y2 * L3[j + 2]
    Li[j], Li[j + 1], Li[j + 2], Li[j + 3] = y0, y1, y2, a3 * (1.0 / L3[j + 3])


@njit(cache=True, refcount=False)
def dense_cholesky_solve(Lc, x, n):
    """In place ``x = (Lc Lc^T)^-1 x``: forward substitution by rows of ``Lc``, four rows at a time (their dot
    products with the solved entries side by side, then the terms among the four, each entry's terms subtracted in
    the order of ``k`` as alone: the same result to the bit), back substitution with ``Lc^T`` column by column (each
    solved entry subtracted from the entries above it along a row of ``Lc``: contiguous, independent updates that
    vectorise, where a dot product down a column of ``Lc`` waits on each addition)."""
    i = 0
    while i + 4 <= n:
        R0, R1, R2, R3 = Lc[i], Lc[i + 1], Lc[i + 2], Lc[i + 3]
        s0, s1, s2, s3 = x[i], x[i + 1], x[i + 2], x[i + 3]
        for k in range(i):
            xk = x[k]
            s0 -= R0[k] * xk
            s1 -= R1[k] * xk
            s2 -= R2[k] * xk
            s3 -= R3[k] * xk
        y0 = s0 * (1.0 / R0[i])  # (the division off the chain of dependent operations, as damped_cholesky)
        s1 -= R1[i] * y0
        s2 -= R2[i] * y0
        s3 -= R3[i] * y0
        y1 = s1 * (1.0 / R1[i + 1])
        s2 -= R2[i + 1] * y1
        s3 -= R3[i + 1] * y1
        y2 = s2 * (1.0 / R2[i + 2])
        s3 -= R3[i + 2] * y2
        x[i], x[i + 1], x[i + 2], x[i + 3] = y0, y1, y2, s3 * (1.0 / R3[i + 3])
        i += 4
    for i in range(i, n):
        s = x[i]
        for k in range(i):
            s -= Lc[i, k] * x[k]
        x[i] = s * (1.0 / Lc[i, i])
    for i in range(n - 1, -1, -1):
        xi = x[i] * (1.0 / Lc[i, i])
        x[i] = xi
        for k in range(i):
            x[k] -= Lc[i, k] * xi


@njit(cache=True)
def dense_cholesky_solve_rows(Lc, X):
    """In place ``X[r] = (Lc Lc^T)^-1 X[r]`` for each row of ``X (k, n)``."""
    for r in range(X.shape[0]):
        dense_cholesky_solve(Lc, X[r], Lc.shape[0])


@njit(cache=True, refcount=False)
def delassus(L, Dinv, lam, Jc, Y, G):
    """``G = J M^-1 J^T = Y^T D^-1 Y`` with ``Y = U^-1 J^T`` (``Y (nv, nc)`` room; ``M = U D U^T``, ``L = U^T``).
    Each step runs over all the rows of ``J`` at once, along a contiguous row of ``Y``, so that it vectorises: the
    triangular solve pushes row ``k`` of ``Y`` to the dof's ancestors (``lam``, the tree of the factor), then each
    dof adds its rank-one term ``D^-1_k y_k y_k^T`` to the lower triangle of ``G``, row ``r`` of it (where
    ``y_kr != 0``) the contiguous update ``(D^-1_k y_kr) y_k[:r + 1]``, and the triangle is mirrored at the end. A
    dof that supports no constrained body has a zero row, skipped in both; the others run from their first nonzero
    entry to their last only (a free body's dofs: the rows of its contacts; the terms left out are exact zeros, the
    result the same to the bit)."""
    nc, nv = Jc.shape
    for k in range(nv):
        for r in range(nc):
            Y[k, r] = Jc[r, k]
    for k in range(nv - 1, -1, -1):  # U^-1 = L^-T (unit diagonal): row k is final here
        yk = Y[k]
        first, last = nonzero_range(yk)
        j = lam[k] if first < last else -1
        while j >= 0:  # (the loops count from 0, as in damped_cholesky)
            yj, l = Y[j], L[k, j]
            for r in range(last - first):
                yj[first + r] -= l * yk[first + r]
            j = lam[j]
    for r in range(nc):
        for s in range(nc):
            G[r, s] = 0.0
    for k in range(nv):
        d, yk = Dinv[k], Y[k]
        first, last = nonzero_range(yk)
        for r in range(first, last):
            if yk[r] != 0.0:
                z, gr = d * yk[r], G[r]
                for s in range(r + 1 - first):
                    gr[first + s] += z * yk[first + s]
    for r in range(nc):
        for s in range(r):
            G[s, r] = G[r, s]


@njit(cache=True, refcount=False)
def nonzero_range(x):
    """``(first, last)``: ``x[first:last]`` holds every nonzero entry of ``x``, from the first to the last (``(0,
    0)`` if none)."""
    n = x.shape[0]
    first = 0
    while first < n and x[first] == 0.0:
        first += 1
    if first == n:
        return 0, 0
    last = n
    while x[last - 1] == 0.0:
        last -= 1
    return first, last


@njit(cache=True)
def proximal_solve(G, Lc, b, mu, accuracy, max_iter, lam_c, previous, residual, stats):
    """``G lambda + b = 0`` by ``(G + mu I) lambda_k+1 = mu lambda_k - b`` from 0 (one exact step for mu = 0);
    stops when the constraint residual and the step are both below ``accuracy``. False if G + mu I is not SPD."""
    n = b.shape[0]
    for i in range(n):
        for j in range(n):
            Lc[i, j] = G[i, j] + (mu if i == j else 0.0)
        lam_c[i] = 0.0
    if not dense_cholesky(Lc, n):
        return False
    iterations = max_iter if mu > 0.0 else 1
    for it in range(1, iterations + 1):
        for i in range(n):
            previous[i] = lam_c[i]
            lam_c[i] = mu * lam_c[i] - b[i]
        dense_cholesky_solve(Lc, lam_c, n)
        step, res = 0.0, 0.0
        for i in range(n):
            step = max(step, abs(lam_c[i] - previous[i]))
            acc = b[i]
            for j in range(n):
                acc += G[i, j] * lam_c[j]
            residual[i] = acc
            res = max(res, abs(acc))
        stats[0], stats[1], stats[2] = it, res, step
        if res <= accuracy and step <= accuracy:
            break
    return True


# The work buffer of a constrained call, for m constraint rows, nv dofs and nq coordinates, in this order (from
# offset 0; kkt_views' names): lambda (m), b (m), previous (m), residual (m), Y (nv, m), G (m, m), Lc (m, m),
# the constraint rows' scratch (7, 6) (constraint_scratch), f (nv), then the call's state q (nq), v (nv), tau (nv)
# (state_offset, keep_state).
@njit(cache=True, forceinline=True)
def state_offset(m, nv):
    """Where the copy of the state ``(q, v, tau)`` of the call starts in ``work`` (:func:`work_size`)."""
    return 4 * m + m * nv + 2 * m * m + 42 + nv


@njit(cache=True, forceinline=True)
def kkt_views(work, m, nv):
    """``(lam, b, previous, residual, Y, G, Lc, f)``: the views of ``work`` (the layout above) that the KKT solve
    uses for ``m`` rows and ``nv`` dofs: the solution ``lambda (m,)``, the right-hand side ``b (m,)``, the previous
    iterate and the residual ``(m,)``, ``Y (nv, m)``, the Delassus matrix ``G (m, m)``, its factor ``Lc (m, m)`` and
    ``f = M^-1 J^T lambda (nv,)``."""
    g = 4 * m + m * nv
    return (work[:m], work[m:2 * m], work[2 * m:3 * m], work[3 * m:4 * m], view(work, 4 * m, (nv, m)),
            view(work, g, (m, m)), view(work, g + m * m, (m, m)), work[g + 2 * m * m + 42:g + 2 * m * m + 42 + nv])


@njit(cache=True, forceinline=True)
def constraint_scratch(work, m, nv):
    """The scratch ``(7, 6)`` of :func:`constraint_set` in ``work`` (the layout above)."""
    return view(work, 4 * m + m * nv + 2 * m * m, (7, 6))


@njit(cache=True)
def keep_state(work, m, q, v, tau):
    """Copy the call's state into ``work`` (the derivatives read it from there): ``q``, ``v``, then ``tau``."""
    o = state_offset(m, v.shape[0])
    for k in range(q.shape[0]):
        work[o + k] = q[k]
    o += q.shape[0]
    for k in range(v.shape[0]):
        work[o + k] = v[k]
    o += v.shape[0]
    for k in range(tau.shape[0]):
        work[o + k] = tau[k]


@njit(cache=True, forceinline=True)
def delassus_in(work, m, nv):
    """The Delassus matrix ``G (m, m)`` of :func:`solve_kkt`'s last solve, a view of its ``work``."""
    return kkt_views(work, m, nv)[5]


@njit(cache=True)
def solve_kkt(lam, L, Dinv, Jc, b, settings, work, stats, x, R, CI):
    """The KKT solve shared by the dynamics and the impulses: ``G lambda + b = 0`` (proximal), then
    ``x += M^-1 J^T lambda``; ``lambda`` is ``work[:m]`` and goes to each constraint's record. False if the
    set is redundant with ``mu = 0``."""
    nc, nv = Jc.shape
    lam_c, _, previous, residual, Y, G, Lc, f = kkt_views(work, nc, nv)
    delassus(L, Dinv, lam, Jc, Y, G)
    if not proximal_solve(G, Lc, b, settings[MU], settings[ACCURACY], int(settings[MAX_ITER]), lam_c, previous,
                          residual, stats):
        return False
    for k in range(nv):  # f = J^T lambda
        acc = 0.0
        for r in range(nc):
            acc += Jc[r, k] * lam_c[r]
        f[k] = acc
    cholesky_solve(L, Dinv, lam, f)
    for k in range(nv):
        x[k] += f[k]
    r = 0
    for c in range(CI.shape[0]):  # each constraint's force in its record
        n = 3 if CI[c, 0] == CONTACT_3D else 6
        for k in range(6):
            R[c, FORCE + k] = lam_c[r + k] if k < n else 0.0
        r += n
    return True


@njit(cache=True)
def kinematics_and_factor(I, F, ws, L, D, Dinv, q, v, CI, CF, R, Jc, rhs, work, with_nle):
    """The kinematics at ``ddq = 0`` (``nle`` too for ``with_nle``: the RNEA's forward pass gives them, else the
    kinematics' alone), ``M`` and its sparse factor, the constraint rows. Returns the input status (SINGULAR: M
    singular)."""
    nc, nv = Jc.shape
    for k in range(CF.shape[0]):
        if not all_finite(CF[k]):
            return NONFINITE_CONSTRAINT
    status = dynamics_and_factor(I, F, ws, L, D, Dinv, q, v, with_nle)
    if status:
        return status
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    constraint_set(m, d, CI, CF, R, Jc, rhs, constraint_scratch(work, nc, nv))
    return 0


@njit(cache=True)
def dynamics_and_factor(I, F, ws, L, D, Dinv, q, v, with_nle):
    """The kinematics at ``ddq = 0`` (``nle`` too for ``with_nle``: the RNEA's forward pass gives them, else the
    kinematics' alone), ``M`` and its sparse factor. Returns the input status (SINGULAR: M singular)."""
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    if not with_nle:
        status = forward_kinematics_qva(I, F, ws, q, v, d.zeros)  # d.a: the drift (ddq = 0, no gravity)
        if status:
            return status
    else:
        status = rnea(I, F, ws, q, v, d.zeros, np.zeros((0, 6)))  # nle = ID(q, v, 0)
        if status:
            return status
        for k in range(d.nle.shape[0]):
            d.nle[k] = d.tau[k]
        g = d.v6[0]
        for i in range(1, m.nj):  # the drift a_i (ddq = 0, no gravity): a_gf_i = a_i + oMi^-1 (-g)
            motion_act_inv(d.oMi[i], m.gravity, g)
            for k in range(6):
                d.a[i, k] = d.a_gf[i, k] + g[k]
    crba_after_kinematics(I, F, ws)  # M at the placements of that pass
    if cholesky_decompose(d.M, m.dof_parents, L, D, Dinv):
        return SINGULAR
    return 0


@njit(cache=True)
def delassus_matrix(I, F, ws, L, D, Dinv, q, CI, CF, R, Jc, rhs, work, mu, Y, G, Lc, Ginv):
    """``G = J M^-1 J^T + mu 1 (m, m)`` at ``q`` of the packed constraint set (:func:`kinematics_and_factor` at
    ``v = 0``: ``Jc``, the records, ``M`` and its factor; :func:`delassus`, ``Y (nv, m)``), and if ``Ginv`` is
    ``(m, m)`` (not empty) its inverse, column by column through the Cholesky factor ``Lc (m, m)`` of ``G``.
    Returns the input status, SINGULAR (97) for a singular M, or SINGULAR_SET for a singular ``G`` when ``Ginv`` is
    asked for."""
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    status = kinematics_and_factor(I, F, ws, L, D, Dinv, q, d.zeros, CI, CF, R, Jc, rhs, work, True)
    if status:
        return status
    nc = Jc.shape[0]
    delassus(L, Dinv, m.dof_parents, Jc, Y, G)
    for r in range(nc):
        G[r, r] += mu
    if Ginv.shape[0] == 0:
        return 0
    Lc[:, :] = G
    if not dense_cholesky(Lc, nc):
        return SINGULAR_SET
    e = Y[0]  # (Y is free again)
    for r in range(nc):
        for s in range(nc):
            e[s] = 1.0 if s == r else 0.0
        dense_cholesky_solve(Lc, e, nc)
        for s in range(nc):
            Ginv[s, r] = e[s]
    return 0


@njit(cache=True)
def kkt_contact_dynamic_matrix_inverse(I, F, ws, L, D, Dinv, q, J, inv_damping, Y, G, X, Z, K):
    """``K (nv + m, nv + m)``: the inverse of the KKT matrix ``[[M, J^T], [J, -inv_damping 1]]`` at ``q`` for
    ``J (m, nv)``, by blocks from the sparse factor of ``M`` (``M`` and ``M^-1`` into ``d.M``, ``d.Minv``) and the
    Schur complement ``S = J M^-1 J^T + inv_damping 1`` (:func:`delassus`, ``Y (nv, m)``, ``G (m, m)``):

        K = [[M^-1 - M^-1 J^T S^-1 J M^-1, M^-1 J^T S^-1], [S^-1 J M^-1, -S^-1]]

    with ``X = J M^-1 (m, nv)`` and ``Z = M^-1 J^T S^-1 (nv, m)``. Returns the input status (3: J), 97 for a
    singular M, or SINGULAR_SET for a singular ``S``."""
    for r in range(J.shape[0]):
        if not all_finite(J[r]):
            return 3
    status = crba(I, F, ws, q)
    if status:
        return status
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    if cholesky_decompose(d.M, m.dof_parents, L, D, Dinv):
        return SINGULAR
    cholesky_minv(L, D, m.dof_parents, d.Minv)
    nc, nv = J.shape
    for r in range(nc):  # X = J M^-1 (row r: M^-1 J_r)
        X[r] = J[r]
        cholesky_solve(L, Dinv, m.dof_parents, X[r])
    delassus(L, Dinv, m.dof_parents, J, Y, G)
    for r in range(nc):
        G[r, r] += inv_damping
    if not dense_cholesky(G, nc):
        return SINGULAR_SET
    for c in range(nv):  # Z = X^T S^-1 (row c: S^-1 X[:, c])
        for r in range(nc):
            Z[c, r] = X[r, c]
        dense_cholesky_solve(G, Z[c], nc)
    for a in range(nv):
        for b in range(nv):
            acc = d.Minv[a, b]
            for r in range(nc):
                acc -= X[r, a] * Z[b, r]
            K[a, b] = acc
        for r in range(nc):
            K[a, nv + r] = K[nv + r, a] = Z[a, r]
    e = Y[0]  # (Y is free again) -S^-1, column by column
    for r in range(nc):
        for s in range(nc):
            e[s] = 1.0 if s == r else 0.0
        dense_cholesky_solve(G, e, nc)
        for s in range(nc):
            K[nv + s, nv + r] = -e[s]
    return 0


@njit(cache=True, forceinline=True)
def free_acceleration(I, F, ws, L, Dinv, tau):
    """``(m, d)``, the model and data views, after ``d.ddq = M^-1 (tau - nle)`` through the factor of ``M`` (the
    acceleration without constraints; ``d.nle`` and the factor from :func:`dynamics_and_factor`)."""
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    for k in range(tau.shape[0]):
        d.ddq[k] = tau[k] - d.nle[k]
    cholesky_solve(L, Dinv, m.dof_parents, d.ddq)
    return m, d


@njit(cache=True)
def forward_dynamics(I, F, ws, L, D, Dinv, q, v, tau, J, gamma, inv_damping, Y, G, lam, work):
    """The dense KKT form (Pinocchio's ``forwardDynamics``): ``ddq`` into ``d.ddq`` and the forces ``lam (m,)``
    with ``M ddq + nle = tau + J^T lam`` and ``J ddq + gamma = inv_damping lam``, for ``J (m, nv)``:

        ddq_free = M^-1 (tau - nle),   (J M^-1 J^T + inv_damping 1) lam = -(J ddq_free + gamma),
        ddq = ddq_free + M^-1 J^T lam

    through the sparse factor of ``M`` (:func:`delassus`, ``Y (nv, m)``, ``G (m, m)``; ``work (nv,)``). Returns the
    input status (5: tau, 7: J, 9: gamma), SINGULAR (97) for a singular M, or SINGULAR_SET for a singular
    ``G + inv_damping 1``."""
    if not all_finite(tau):
        return 5
    for r in range(J.shape[0]):
        if not all_finite(J[r]):
            return 7
    if not all_finite(gamma):
        return 9
    status = dynamics_and_factor(I, F, ws, L, D, Dinv, q, v, True)
    if status:
        return status
    m, d = free_acceleration(I, F, ws, L, Dinv, tau)
    nc, nv = J.shape
    delassus(L, Dinv, m.dof_parents, J, Y, G)
    for r in range(nc):
        G[r, r] += inv_damping
    if not dense_cholesky(G, nc):
        return SINGULAR_SET
    for r in range(nc):  # lam = -(G + inv_damping 1)^-1 (J ddq_free + gamma)
        acc = gamma[r]
        for k in range(nv):
            acc += J[r, k] * d.ddq[k]
        lam[r] = -acc
    dense_cholesky_solve(G, lam, nc)
    for k in range(nv):  # ddq += M^-1 J^T lam
        acc = 0.0
        for r in range(nc):
            acc += J[r, k] * lam[r]
        work[k] = acc
    cholesky_solve(L, Dinv, m.dof_parents, work)
    for k in range(nv):
        d.ddq[k] += work[k]
    return 0


@njit(cache=True)
def constraint_dynamics(I, F, ws, L, D, Dinv, q, v, tau, CI, CF, settings, R, Jc, rhs, work, stats):
    """Constrained forward dynamics into ``d.ddq``, the forces into ``work[:m]`` and the records;
    ``settings``: :func:`proximal_values`, ``work`` of :func:`work_size`, which also receives a copy of
    ``(q, v, tau)``. Returns the input status, SINGULAR (97) for a singular M, or SINGULAR_SET."""
    if not all_finite(tau):
        return 5
    keep_state(work, rhs.shape[0], q, v, tau)
    status = kinematics_and_factor(I, F, ws, L, D, Dinv, q, v, CI, CF, R, Jc, rhs, work, True)
    if status:
        return status
    m, d = free_acceleration(I, F, ws, L, Dinv, tau)
    nc, nv = Jc.shape
    b = kkt_views(work, nc, nv)[1]
    for r in range(nc):  # b = J ddq_free + gamma - a_c
        acc = rhs[r]
        for k in range(nv):
            acc += Jc[r, k] * d.ddq[k]
        b[r] = acc
    if not solve_kkt(m.dof_parents, L, Dinv, Jc, b, settings, work, stats, d.ddq, R, CI):
        return SINGULAR_SET
    return 0


@njit(cache=True)
def impulse_dynamics(I, F, ws, L, D, Dinv, q, v, CI, CF, settings, R, Jc, rhs, work, stats, dq_after):
    """The velocity after an impact into ``dq_after``: ``M (v+ - v) = J^T P``, ``J v+ = -e J v`` with
    ``e = settings[RESTITUTION]``; the impulses into ``work[:m]`` and the records, ``(q, v)`` copied into ``work`` as by
    :func:`constraint_dynamics`. Statuses as :func:`constraint_dynamics`."""
    keep_state(work, rhs.shape[0], q, v, q[:0])
    status = kinematics_and_factor(I, F, ws, L, D, Dinv, q, v, CI, CF, R, Jc, rhs, work, False)
    if status:
        return status
    nc, nv = Jc.shape
    b = kkt_views(work, nc, nv)[1]
    for r in range(nc):  # b = (1 + e) J v
        acc = 0.0
        for k in range(nv):
            acc += Jc[r, k] * v[k]
        b[r] = (1.0 + settings[RESTITUTION]) * acc
    for k in range(nv):
        dq_after[k] = v[k]
    if not solve_kkt(model_views(borrowed(I), borrowed(F)).dof_parents, L, Dinv, Jc, b, settings, work, stats,
                     dq_after, R, CI):
        return SINGULAR_SET
    return 0


def work_size(m: int, nv: int, nq: int) -> int:
    """The size of ``work`` for ``m`` constraint rows (the layout above; the last ``nq + 2 nv``: the state of the
    call)."""
    return state_offset.py_func(m, nv) + nq + 2 * nv


@njit(cache=True, nogil=True)
def batch_constraint_dynamics(I, F, WS, L, D, Dinv, Q, V, TAU, CI, CF, settings, R, Jc, rhs, work, stats, OUT, LAM,
                              STATUS, first, last):
    """:func:`constraint_dynamics` over the states ``Q, V, TAU (B, .)`` for the chunks ``first .. last - 1``, one set of
    buffers (leading axis) per chunk; ``OUT (B, nv)`` the accelerations, ``LAM (B, m)`` the forces."""
    nchunks, B = WS.shape[0], Q.shape[0]
    nc = rhs.shape[1]
    for c in range(first, last):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = constraint_dynamics(I, F, WS[c], L[c], D[c], Dinv[c], Q[b], V[b], TAU[b], CI, CF, settings,
                                            R[c], Jc[c], rhs[c], work[c], stats[c])
            for k in range(m.nv):
                OUT[b, k] = d.ddq[k]
            for k in range(nc):
                LAM[b, k] = work[c, k]


@njit(cache=True, nogil=True)
def batch_impulse_dynamics(I, F, WS, L, D, Dinv, Q, V, CI, CF, settings, R, Jc, rhs, work, stats, OUT, IMPULSES,
                           STATUS, first, last):
    """:func:`impulse_dynamics` over the states ``Q, V (B, .)`` for the chunks ``first .. last - 1``, one set of buffers
    (leading axis) per chunk; ``OUT (B, nv)`` the velocities after the impact, ``IMPULSES (B, m)``."""
    nchunks, B = WS.shape[0], Q.shape[0]
    nc = rhs.shape[1]
    for c in range(first, last):
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = impulse_dynamics(I, F, WS[c], L[c], D[c], Dinv[c], Q[b], V[b], CI, CF, settings, R[c], Jc[c],
                                         rhs[c], work[c], stats[c], OUT[b])
            for k in range(nc):
                IMPULSES[b, k] = work[c, k]
