"""Compiled derivatives of constrained forward dynamics and of impulse dynamics
(``algorithms/constrained_derivatives.py`` states the implicit-function-theorem formulas; this module evaluates
them in one kernel per call, the impulses with the same constraint partials and KKT row solve).

After the RNEA derivatives at ``(q, v, ddq)`` (``kernels/derivatives.py``, no external forces) every quantity is
in the world frame: body twists ``ov``, accelerations ``oa_gf`` (gravity included: it cancels in every
difference below), world columns ``s = J_c``, and their partials ``dVdq``, ``dAdq``, ``dAdv``. Moving dof ``c``
of a joint that supports body ``i`` varies its twist and acceleration (at the world origin) by

    dov/dq_c = s x ov + dVdq_c,   doa/dq_c = s x oa + dAdq_c + dVdq_c x ov,   doa/dv_c = dAdv_c + s x ov,

and its frames rigidly with ``s``. A constraint's acceleration ``c = J ddq + gamma``, velocity error ``e_v`` and
placement error ``e_p`` are world quantities mapped to the constraint's frame, so each of their columns is the
map of the world column plus the variation of the map itself:

- 6D: ``W = ov1 - ov2``, ``A = oa1 - oa2``. LOCAL: ``c = Ad(oMc1)^-1 (A - ov1 x W)``, ``e_v = Ad^-1 W`` (and
  ``d(Ad^-1 y) = Ad^-1 (dy - s1 x y)``); LOCAL_WORLD_ALIGNED: ``c``, ``e_v`` are ``A``, ``W`` taken at ``p1`` in
  world axes (``p1`` moving at ``dp1 = s1_lin + s1_ang x p1``); WORLD: ``c = A``, ``e_v = W``. ``e_p = -log6(Y)``,
  ``Y = c1Mc2 Pd^-1``: ``d e_p = Jlog6(Y) Ad(Y)^-1 J_local``, then rotated or moved with c1.
- 3D: the points' world velocities ``pv_i`` and classical accelerations ``pa_i = oa_lin + oa_ang x p_i + ov_ang
  x pv_i``; ``c = pa1 - pa2``, ``e_v = pv1 - pv2``, ``e_p = p1 - p2 + R1 t``, rotated by ``R1^T`` for LOCAL
  (``d(R1^T y) = R1^T (dy - s1_ang x y)``).

The force term: ``d(J^T lambda)/dq_c`` row ``r`` is ``s_r . dW_c + (s_c x s_r) . W`` for the world wrench ``W`` of
each body (the second term where dof ``c`` supports dof ``r``'s joint).
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..spatial.compiled import force_act, force_cross, matvec6, motion_act, motion_act_inv, motion_cross
from .configuration import DIFFERENCE_Q1, se3_jacobian
from .constrained import constraint_dynamics as constrained_dynamics
from .constrained import impulse_dynamics
from .constrained import (CONTACT_3D, LOCAL, WORLD, OMC1, OMC2, C1MC2, F_GAINS, F_PD, MU, RESTITUTION,
                          SINGULAR_SET, delassus_in, dense_cholesky, point_velocity, se3_compose_inverse, se3_log)
from .derivatives import column_partials, derivative_views, forward_derivatives, rnea_derivatives
from ..model.layout import data_views, model_views
from .sparse import cholesky_minv, cholesky_solve_block
from .._native.views import borrowed, view

SCRATCH = 12
E = 84  # floats of the small scratch ``e``  # (nv, 6) columns per constraint side


def work_size(m: int, nv: int) -> int:
    """The size of the derivative ``work`` for constraints of ``m`` rows in all."""
    return 2 * m * nv + 4 * m * nv + 2 * nv * nv + m * m + nv * nv + SCRATCH * 6 * nv + E


@njit(cache=True, forceinline=True)
def cross3(a, b, out):
    """``out = a x b`` (3-vectors, ``out`` distinct from both)."""
    out[0] = a[1] * b[2] - a[2] * b[1]
    out[1] = a[2] * b[0] - a[0] * b[2]
    out[2] = a[0] * b[1] - a[1] * b[0]


@njit(cache=True, forceinline=True)
def add_cross3(a, b, out, sign):
    """``out += sign a x b``."""
    out[0] += sign * (a[1] * b[2] - a[2] * b[1])
    out[1] += sign * (a[2] * b[0] - a[0] * b[2])
    out[2] += sign * (a[0] * b[1] - a[1] * b[0])


@njit(cache=True)
def body_columns(m, d, g, joint, sign, dV, dA, dAv, Sv):
    """Add ``sign`` times the partials of body ``joint``'s world twist (``dV``: d/dq), acceleration (``dA``: d/dq,
    ``dAv``: d/dv) and of its frames (``Sv``: the columns ``s``) to the ``(nv, 6)`` columns, over the dofs that
    support it (module docstring)."""
    ov, oa = d.ov[joint], d.oa_gf[joint]
    x, y, z, t = d.v6[4], d.v6[5], d.v6[6], d.v6[7]
    i = joint
    while i > 0:
        for c in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            s = d.J[c]
            column_partials(s, ov, oa, g.dVdq[c], g.dAdq[c], g.dAdv[c], x, y, z, t)
            for k in range(6):
                dV[c, k] += sign * x[k]
                dA[c, k] += sign * y[k]
                dAv[c, k] += sign * z[k]
                Sv[c, k] += sign * s[k]
        i = m.parents[i]


@njit(cache=True)
def point_columns(m, d, g, joint, sign, p, Pv, Pq, Cq, Cv, t6):
    """Add ``sign`` times the partials of the world velocity (``Pv``: d/dv, ``Pq``: d/dq) and classical
    acceleration (``Cq``, ``Cv``) of the point ``p`` (world) fixed on body ``joint`` to the ``(nv, 3)`` columns;
    ``t6 (7, 6)`` scratch."""
    ov, oa = d.ov[joint], d.oa_gf[joint]
    pv, dp, dov, doa, x = t6[0, :3], t6[0, 3:], t6[1, :3], t6[1, 3:], t6[2, :3]
    w, alpha = ov[3:], oa[3:]
    point_velocity(ov, p, pv)
    i = joint
    while i > 0:
        for c in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            s = d.J[c]
            point_velocity(s, p, dp)  # the point's velocity along the column
            column_partials(s, ov, oa, g.dVdq[c], g.dAdq[c], g.dAdv[c], t6[3], t6[5], t6[4], t6[6])  # dov/dq_c,
            point_velocity(t6[3], p, dov)  # doa/dq_c, doa/dv_c
            add_cross3(w, dp, dov, 1.0)  # dpv/dq = dov_lin + dov_ang x p + w x dp
            point_velocity(t6[5], p, doa)
            add_cross3(alpha, dp, doa, 1.0)
            add_cross3(t6[3, 3:], pv, doa, 1.0)
            add_cross3(w, dov, doa, 1.0)  # dpa/dq = doa_lin + doa_ang x p + alpha x dp + dw x pv + w x dpv
            point_velocity(t6[4], p, x)
            add_cross3(s[3:], pv, x, 1.0)
            add_cross3(w, dp, x, 1.0)  # dpa/dv = doa_lin + doa_ang x p + s_ang x pv + w x dp
            for k in range(3):
                Pv[c, k] += sign * dp[k]
                Pq[c, k] += sign * dov[k]
                Cq[c, k] += sign * doa[k]
                Cv[c, k] += sign * x[k]
        i = m.parents[i]


@njit(cache=True)
def chain_columns(m, d, joint, out):
    """The world columns ``s`` of the dofs supporting body ``joint`` into those rows of ``out (nv, 6)``."""
    i = joint
    while i > 0:
        for c in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            for k in range(6):
                out[c, k] = d.J[c, k]
        i = m.parents[i]


@njit(cache=True)
def support_columns(m, j1, j2, cols):
    """The dofs supporting joint ``j1`` or ``j2`` into ``cols``, sorted; returns their count."""
    n = 0
    for joint in (j1, j2):
        i = joint
        while i > 0:
            for c in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
                known = False
                for k in range(n):
                    known |= cols[k] == c
                if not known:
                    cols[n] = c
                    n += 1
            i = m.parents[i]
    return n


@njit(cache=True)
def force_terms(m, d, joint, sign, W, dW, r1q, Y, cols):
    """``r1q -= sign d(J_joint^T W)/dq`` for the world wrench ``sign W`` on body ``joint`` with q-partials
    ``sign dW (nv, 6)`` (zero outside ``cols``): row ``r`` (a dof supporting the body) gets ``s_r . dW_c`` minus
    ``s_r . (s_c x* W)`` when dof ``c`` supports dof ``r``'s joint. ``Y (nv, 6)``: scratch. Scalar indexing
    throughout: a row view per entry costs more than the 6-term product."""
    for c in cols:
        for k in range(6):
            Y[c, k] = dW[c, k]
    i = joint
    while i > 0:  # Y_c = dW_c - s_c x* W on the body's supporting dofs, dW_c elsewhere
        for c in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            force_cross(d.J[c], W, Y[c])
            for k in range(6):
                Y[c, k] = dW[c, k] - Y[c, k]
        i = m.parents[i]
    a = joint
    while a > 0:
        end = m.idx_v[a] + m.nvs[a]  # the dofs supporting a's are below end on this chain
        for r in range(m.idx_v[a], end):
            s0, s1, s2, s3, s4, s5 = d.J[r, 0], d.J[r, 1], d.J[r, 2], d.J[r, 3], d.J[r, 4], d.J[r, 5]
            for c in cols:
                if c < end:  # a dof below end supports a's joint if it supports the body
                    x = s0 * Y[c, 0] + s1 * Y[c, 1] + s2 * Y[c, 2] + s3 * Y[c, 3] + s4 * Y[c, 4] + s5 * Y[c, 5]
                else:
                    x = (s0 * dW[c, 0] + s1 * dW[c, 1] + s2 * dW[c, 2] + s3 * dW[c, 3] + s4 * dW[c, 4]
                         + s5 * dW[c, 5])
                r1q[r, c] -= sign * x
        a = m.parents[a]


@njit(cache=True)
def constraint_partials(m, d, g, ci, cf, rec, lam, Jrows, r2, r1q, S, e, all_cols, wc, Kp, Kd):
    """One constraint's rows of the partials of ``r2 = wc c - a_c`` (``c = J ddq + gamma``, ``a_c = a_des - Kp e_p
    - Kd (e_v - v_des)``), ``r2 = [dr2/dq, dr2/dv]`` side by side, and its force term in ``r1q`` (the first
    ``nv`` columns of each row, none when ``lam = 0``: it depends on ``q`` alone); ``rec`` its record
    (placements) at the state; ``S (SCRATCH, nv, 6)`` and ``e (84,)`` scratch. The dynamics take ``(wc, Kp, Kd)
    = (1, corrector gains)``; the impulses ``(0, 0, 1)``, the partials of the velocity error ``J w`` at the
    kinematics' velocity ``w``."""
    kind, rf, j1, j2 = ci[0], ci[1], ci[2], ci[3]
    n, nv = r2.shape[0], m.nv
    oMc1, oMc2, X = view(rec, OMC1, (3, 4)), view(rec, OMC2, (3, 4)), view(rec, C1MC2, (3, 4))
    R1, p1, p2 = oMc1[:, :3], oMc1[:, 3], oMc2[:, 3]
    cols = all_cols[:support_columns(m, j1, j2, all_cols)]  # the other columns of every partial are zero
    forced = False  # no force term for lam = 0
    for k in range(n):
        forced |= lam[k] != 0.0
    for k in range(SCRATCH):  # the rows outside cols are never read
        for c in cols:
            for h in range(6):
                S[k, c, h] = 0.0
    dc_q, dc_v, dev, dep = S[4], S[5], S[6], S[7]  # (nv, 6), the first n columns used
    dW, t6 = S[8], view(e, 0, (6, 6))  # the wrench's q-partials; six 6-vectors of scratch
    x, y, z, W = d.v6[0], d.v6[1], d.v6[2], d.v6[3]
    if kind == CONTACT_3D:
        Pv, Pq, Cq, Cv = S[0], S[1], S[2], S[3]  # (nv, 6), the first 3 columns used
        cw, ev, ep, f = x[:3], x[3:], y[:3], y[3:]
        pv, pa = t6[0, :3], t6[0, 3:]
        S1 = S[10]
        chain_columns(m, d, j1, S1)
        for k in range(3):
            cw[k] = ev[k] = 0.0
        for joint, sign, p in ((j1, 1.0, p1), (j2, -1.0, p2)):
            if joint > 0:
                point_columns(m, d, g, joint, sign, p, Pv, Pq, Cq, Cv, view(e, 0, (7, 6)))
            ov, oa = d.ov[joint], d.oa_gf[joint]
            point_velocity(ov, p, pv)
            point_velocity(oa, p, pa)
            add_cross3(ov[3:], pv, pa, 1.0)
            for k in range(3):
                cw[k] += sign * pa[k]
                ev[k] += sign * pv[k]
        t = cf[F_PD + 3:F_PD + 12:4]  # the desired placement's translation
        for r in range(3):
            z[r] = R1[r, 0] * t[0] + R1[r, 1] * t[1] + R1[r, 2] * t[2]  # R1 t
            ep[r] = p1[r] - p2[r] + z[r]
        for c in cols:  # d e_p = dp1 - dp2 + s1_ang x (R1 t)
            for k in range(3):
                dep[c, k] = Pv[c, k]
            add_cross3(S1[c, 3:], z, dep[c], 1.0)
        if rf == LOCAL:  # d(R1^T y) = R1^T (dy - s1_ang x y)
            for c in cols:
                for xs, val in ((Cq[c], cw), (Pq[c], ev), (dep[c], ep)):
                    add_cross3(S1[c, 3:], val, xs, -1.0)
            for c in cols:
                for xs in (Cq[c], Cv[c], Pq[c], dep[c]):
                    z[0], z[1], z[2] = xs[0], xs[1], xs[2]
                    for r in range(3):
                        xs[r] = R1[0, r] * z[0] + R1[1, r] * z[1] + R1[2, r] * z[2]
        for r in range(3):  # the force in world axes
            f[r] = R1[r, 0] * lam[0] + R1[r, 1] * lam[1] + R1[r, 2] * lam[2] if rf == LOCAL else lam[r]
        for c in cols:
            for k in range(3):
                dc_q[c, k], dc_v[c, k], dev[c, k] = Cq[c, k], Cv[c, k], Pq[c, k]
        for joint, sign, p in ((j1, 1.0, p1), (j2, -1.0, p2)):  # the wrench [f; p x f] on each body
            if joint == 0 or not forced:
                continue
            W[:3] = f
            cross3(p, f, W[3:])
            for c in cols:
                for k in range(6):
                    dW[c, k] = 0.0
            i = joint
            while i > 0:  # the point moves with the body: d(p x f) = dp x f
                for c in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
                    point_velocity(d.J[c], p, z)
                    add_cross3(z, f, dW[c, 3:], 1.0)
                i = m.parents[i]
            if rf == LOCAL:  # f = R1 lambda turns with c1: df = s1_ang x f, and p x df
                for c in cols:
                    cross3(S1[c, 3:], f, z)
                    for k in range(3):
                        dW[c, k] += z[k]
                    add_cross3(p, z, dW[c, 3:], 1.0)
            force_terms(m, d, joint, sign, W, dW, r1q, S[9], cols)
    else:
        dV, dA, dAv, Sv, V1, S1 = S[0], S[1], S[2], S[3], S[10], S[11]
        if j1 > 0:
            body_columns(m, d, g, j1, 1.0, V1, S[8], S[8], S1)  # body 1's own: dov1/dq, s1
        for c in cols:
            for k in range(6):
                S[8, c, k] = 0.0
        for joint, sign in ((j1, 1.0), (j2, -1.0)):
            if joint > 0:
                body_columns(m, d, g, joint, sign, dV, dA, dAv, Sv)
        ov1 = d.ov[j1]
        Wt, A = t6[0], t6[1]  # W = ov1 - ov2, A = oa1 - oa2
        for k in range(6):
            Wt[k] = ov1[k] - d.ov[j2, k]
            A[k] = d.oa_gf[j1, k] - d.oa_gf[j2, k]
        Y, nu, Jl = view(e, 72, (3, 4)), t6[4], view(e, 36, (6, 6))
        se3_compose_inverse(X, view(cf, F_PD, (3, 4)), Y)
        se3_log(Y, nu)  # e_p local = -nu
        se3_jacobian(DIFFERENCE_Q1, nu, Jl)  # Jlog6(Y)
        yv = t6[3]
        if rf == LOCAL:
            motion_cross(ov1, Wt, yv)
            for k in range(6):
                yv[k] = A[k] - yv[k]  # y = A - ov1 x W, c = Ad^-1 y
        for c in cols:
            motion_act_inv(oMc1, Sv[c], x)  # the local Jacobian column
            motion_act_inv(Y, x, z)
            matvec6(Jl, z, y)  # d e_p local
            if rf == LOCAL:
                motion_cross(V1[c], Wt, z)
                for k in range(6):
                    dA[c, k] -= z[k]
                motion_cross(ov1, dV[c], z)
                for k in range(6):
                    dA[c, k] -= z[k]
                motion_cross(S1[c], yv, z)
                for k in range(6):
                    dA[c, k] -= z[k]
                motion_cross(S1[c], Wt, z)
                for k in range(6):
                    dAv[c, k] -= z[k]
                    dV[c, k] -= z[k]
                motion_cross(ov1, Sv[c], z)
                for k in range(6):
                    dAv[c, k] -= z[k]
                motion_act_inv(oMc1, dA[c], dc_q[c])
                motion_act_inv(oMc1, dAv[c], dc_v[c])
                motion_act_inv(oMc1, dV[c], dev[c])
                dep[c, :] = y
            elif rf == WORLD:
                dc_q[c, :], dc_v[c, :], dev[c, :] = dA[c], dAv[c], dV[c]
                motion_act_inv(oMc1, S1[c], x)  # d e_p = Ad(oMc1) (d e_pL + s1L x e_pL)
                for k in range(6):
                    z[k] = -nu[k]
                motion_cross(x, z, W)
                for k in range(6):
                    y[k] += W[k]
                motion_act(oMc1, y, dep[c])
            else:  # LOCAL_WORLD_ALIGNED: at p1 in world axes, p1 moving at dp1
                point_velocity(S1[c], p1, z)  # dp1
                for dst, src, val in ((dc_q[c], dA[c], A), (dev[c], dV[c], Wt)):
                    point_velocity(src, p1, dst[:3])
                    dst[3:] = src[3:]
                    add_cross3(val[3:], z, dst[:3], 1.0)
                point_velocity(dAv[c], p1, dc_v[c, :3])
                dc_v[c, 3:] = dAv[c, 3:]
                for h in range(2):  # d(R1 e) = R1 de + s1_ang x (R1 e), e = e_pL's block h
                    for r in range(3):
                        dep[c, 3 * h + r] = (R1[r, 0] * y[3 * h] + R1[r, 1] * y[3 * h + 1]
                                             + R1[r, 2] * y[3 * h + 2])
                        x[r] = -(R1[r, 0] * nu[3 * h] + R1[r, 1] * nu[3 * h + 1] + R1[r, 2] * nu[3 * h + 2])
                    add_cross3(S1[c, 3:], x[:3], dep[c, 3 * h:3 * h + 3], 1.0)
        for c in cols:  # the wrench of c1 on body 1 (and its opposite on body 2), world, at the origin
            for k in range(6):
                dW[c, k] = 0.0
        if rf == LOCAL:  # W = Ad*(oMc1) lambda turns with c1: dW = s1 x* W
            force_act(oMc1, lam, W)
            for c in cols:
                force_cross(S1[c], W, dW[c])
        elif rf == WORLD:
            W[:] = lam
        else:  # [lambda_lin; p1 x lambda_lin + lambda_ang]: d = [0; dp1 x lambda_lin]
            W[:3] = lam[:3]
            cross3(p1, lam[:3], W[3:])
            for k in range(3):
                W[3 + k] += lam[3 + k]
            for c in cols:
                point_velocity(S1[c], p1, z)
                add_cross3(z, lam[:3], dW[c, 3:], 1.0)
        for joint, sign in ((j1, 1.0), (j2, -1.0)):
            if joint > 0 and forced:
                force_terms(m, d, joint, sign, W, dW, r1q, S[9], cols)
    for k in range(n):  # r2 = c - a_c with a_c = a_des - Kp e_p - Kd (e_v - v_des), de_v/dv = J
        row = r2[k]
        for c in range(nv):
            row[c], row[nv + c] = 0.0, Kd * Jrows[k, c]
        for c in cols:
            row[c] = wc * dc_q[c, k] + Kp * dep[c, k] + Kd * dev[c, k]
            row[nv + c] += wc * dc_v[c, k]


@njit(cache=True)
def dense_solve_rows(Lc, U):
    """In place ``U = (Lc Lc^T)^-1 U`` for ``U (n, k)``, each step a row operation over the k columns."""
    n = U.shape[0]
    for i in range(n):
        ui = U[i]
        for k in range(i):
            w, uk = Lc[i, k], U[k]
            for c in range(ui.shape[0]):
                ui[c] -= w * uk[c]
        w = 1.0 / Lc[i, i]
        for c in range(ui.shape[0]):
            ui[c] *= w
    for i in range(n - 1, -1, -1):
        ui = U[i]
        for k in range(i + 1, n):
            w, uk = Lc[k, i], U[k]
            for c in range(ui.shape[0]):
                ui[c] -= w * uk[c]
        w = 1.0 / Lc[i, i]
        for c in range(ui.shape[0]):
            ui[c] *= w


@njit(cache=True, forceinline=True)
def add_products(A, B, out, sign):
    """``out += sign A B`` (``A (p, r)``, ``B (r, k)``), row by row, skipping the zeros of ``A``."""
    for i in range(A.shape[0]):
        oi = out[i]
        for r in range(A.shape[1]):
            w = sign * A[i, r]
            if w != 0.0:
                br = B[r]
                for c in range(oi.shape[0]):
                    oi[c] += w * br[c]


@njit(cache=True)
def layout(work, n, nv):
    """The views of ``work`` (:func:`work_size`) for ``n`` constraint rows: ``P (nv, n)``, ``Z (n, nv)``, ``r2``,
    ``U (n, 2 nv)``, ``T (nv, 2 nv)``, ``Gf (n, n)``, ``Minv (nv, nv)``, ``S (SCRATCH, nv, 6)``, ``e (E,)``."""
    w2 = 2 * nv  # the q and v partials side by side
    P, Z = view(work, 0, (nv, n)), view(work, n * nv, (n, nv))
    o = 2 * n * nv
    r2, U = view(work, o, (n, w2)), view(work, o + n * w2, (n, w2))
    o += 2 * n * w2
    T = view(work, o, (nv, w2))
    o += nv * w2
    Gf, Minv = view(work, o, (n, n)), view(work, o + n * n, (nv, nv))
    o += n * n + nv * nv
    S = view(work, o, (SCRATCH, nv, 6))
    o += SCRATCH * 6 * nv
    return P, Z, r2, U, T, Gf, Minv, S, work[o:o + E]


@njit(cache=True)
def solve_kkt_rows(m, L, Dinv, Jc, P, G, Gf, r2, T, U, mu, r1_v_is_minus_M):
    """The implicit-function step for the partials ``T = [dr1/dq, dr1/dv] (nv, 2 nv)``, ``r2 (n, 2 nv)``:
    ``[[M, -J^T], [J, 0]] [dx; dlambda] = -[r1; r2]`` gives ``U = dlambda = G^-1 (J M^-1 r1 - r2)`` and
    ``T = -dx = M^-1 r1 - M^-1 J^T dlambda``, with ``P = M^-1 J^T`` and ``Gf`` the factor of ``G + mu I``. ``M``'s
    sparse factor ``(L, Dinv)`` and the Delassus matrix ``G`` are those of the forward call (same ``q``).
    ``r1_v_is_minus_M``: ``dr1/dv = -M`` (the impulses), not read from ``T``: ``M^-1 dr1/dv = -I``.
    Returns SINGULAR_SET for a singular set with ``mu = 0``, else 0."""
    n, nv = Jc.shape
    for i in range(n):
        for j in range(n):
            Gf[i, j] = G[i, j] + (mu if i == j else 0.0)
    if not dense_cholesky(Gf, n):
        return SINGULAR_SET
    for i in range(nv):
        for r in range(n):
            P[i, r] = Jc[r, i]
    if r1_v_is_minus_M:
        cholesky_solve_block(L, Dinv, m.dof_parents, T[:, :nv])  # M^-1 r1_q
        for i in range(nv):
            for c in range(nv):
                T[i, nv + c] = -1.0 if i == c else 0.0
    else:
        cholesky_solve_block(L, Dinv, m.dof_parents, T)  # M^-1 r1
    cholesky_solve_block(L, Dinv, m.dof_parents, P)  # M^-1 J^T
    for r in range(n):
        for c in range(T.shape[1]):
            U[r, c] = -r2[r, c]
    add_products(Jc, T, U, 1.0)
    dense_solve_rows(Gf, U)  # dlambda
    add_products(P, U, T, -1.0)
    return 0


@njit(cache=True)
def constraint_dynamics_derivatives(I, F, ws, dws, L, D, Dinv, q, v, ddq, CI, CF, R, Jc, fwork, mu, work,
                                    ddq_dtau, dlam_dq, dlam_dv, dlam_dtau):
    """The partials of :func:`kernels.constrained.constraint_dynamics` at its solution ``(ddq, lambda)``, read
    from that call's outputs: ``M``'s factor ``(L, D, Dinv)``, the records ``R``, the Jacobian ``Jc (m, nv)`` and
    its ``work`` ``fwork`` (``lambda`` and the Delassus matrix). ``ddq_dq``, ``ddq_dv`` go into the derivative
    workspace (``derivative_views``), ``ddq_dtau (nv, nv)`` and ``dlam_* (m, nv)`` as given; ``work`` of
    :func:`work_size`. Returns the input status, or SINGULAR_SET for a singular constraint set with ``mu = 0``."""
    status = rnea_derivatives(I, F, ws, dws, q, v, ddq, np.zeros((0, 6)))
    if status:
        return status
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    g = derivative_views(borrowed(dws), m.nj, m.nv)[0]
    work, CI, CF, R, Jc, fwork, L, D, Dinv = borrowed(work), borrowed(CI), borrowed(CF), borrowed(R), \
        borrowed(Jc), borrowed(fwork), borrowed(L), borrowed(D), borrowed(Dinv)  # no reference counting on the
    ddq_dtau, dlam_dq, dlam_dv, dlam_dtau = borrowed(ddq_dtau), borrowed(dlam_dq), borrowed(dlam_dv), \
        borrowed(dlam_dtau)  # many rows sliced below
    nv, nc, n = m.nv, CI.shape[0], Jc.shape[0]
    lam = fwork[:n]
    P, Z, r2, U, T, Gf, Minv, S, e = layout(work, n, nv)
    cols = np.empty(nv, dtype=np.int64)
    for i in range(nv):  # r1 = [dr1/dq, dr1/dv] side by side: the RNEA partials, then the force terms
        for c in range(nv):
            T[i, c], T[i, nv + c] = g.dtau_dq[i, c], g.dtau_dv[i, c]
    r = 0
    for k in range(nc):
        s = 3 if CI[k, 0] == CONTACT_3D else 6
        constraint_partials(m, d, g, CI[k], CF[k], R[k], lam[r:r + s], Jc[r:r + s], r2[r:r + s], T, S, e, cols,
                            1.0, CF[k, F_GAINS], CF[k, F_GAINS + 1])
        r += s
    status = solve_kkt_rows(m, L, Dinv, Jc, P, delassus_in(fwork, n, nv), Gf, r2, T, U, mu, False)
    if status:
        return status
    # ddq_dtau = M^-1 - M^-1 J^T Z with Z = G^-1 J M^-1 (symmetric: the lower half, then mirrored)
    for r in range(n):
        for k in range(nv):
            Z[r, k] = P[k, r]
    dense_solve_rows(Gf, Z)
    cholesky_minv(L, D, m.dof_parents, Minv)
    for i in range(nv):
        mi = Minv[i]
        for r in range(n):
            w, zr = P[i, r], Z[r]
            for c in range(i + 1):
                mi[c] -= w * zr[c]
    for i in range(nv):
        for c in range(nv):
            g.ddq_dq[i, c], g.ddq_dv[i, c] = -T[i, c], -T[i, nv + c]
            ddq_dtau[i, c] = Minv[i, c] if c <= i else Minv[c, i]
    for r in range(n):
        for c in range(nv):
            dlam_dq[r, c], dlam_dv[r, c], dlam_dtau[r, c] = U[r, c], U[r, nv + c], -Z[r, c]
    return 0


@njit(cache=True)
def impulse_dynamics_derivatives(I, F0, ws, dws, L, D, Dinv, q, v, r_coeff, v_after, CI, CF, R, Jc, fwork, mu, work,
                                 dv_dq, dv_dv, dP_dq, dP_dv):
    """The partials of :func:`kernels.constrained.impulse_dynamics` at its solution ``(v+, P)`` (``r_coeff`` the
    restitution ``e``), read from that call's outputs as :func:`constraint_dynamics_derivatives` (``fwork``
    holds the impulses): the KKT system ``r1 = M(q) (v+ - v) - J^T P``, ``r2 = J (v+ + e v)`` with
    ``dr1/dq = d(M (v+ - v))/dq - d(J^T P)/dq`` (the RNEA partials at ``(q, 0, v+ - v)`` without gravity),
    ``dr1/dv = -M``, ``dr2/dq`` the velocity-error partials at ``w = v+ + e v`` (the forward derivative pass at
    ``(q, w, 0)``) and ``dr2/dv = e J``. Into ``dv_* (nv, nv)`` and ``dP_* (m, nv)``; ``work`` of
    :func:`work_size`. ``F0``: the model's packed floats with the gravity zeroed (:func:`without_gravity`), so
    that ``ID(q, 0, x) = M(q) x``. Statuses as :func:`constraint_dynamics_derivatives`."""
    nv, nc, n = v.shape[0], CI.shape[0], Jc.shape[0]
    m = model_views(borrowed(I), borrowed(F0))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    g = derivative_views(borrowed(dws), m.nj, m.nv)[0]
    work, CI, CF, R, Jc, fwork = borrowed(work), borrowed(CI), borrowed(CF), borrowed(R), borrowed(Jc), \
        borrowed(fwork)
    impulse = fwork[:n]
    P, Z, r2, U, T, Gf, Minv, S, e = layout(work, n, nv)
    x, zero = Z[0], Z[1]  # scratch unused here (Z has n >= 3 rows)
    for k in range(nv):
        x[k], zero[k] = v_after[k] - v[k], 0.0
    status = rnea_derivatives(I, F0, ws, dws, q, zero, x, np.zeros((0, 6)))
    if status:
        return status
    for i in range(nv):  # r1 = [dr1/dq, -M]: the RNEA partials, the impulses' force terms (-M: in the solve)
        for c in range(nv):
            T[i, c] = g.dtau_dq[i, c]
    for k in range(nv):
        x[k] = v_after[k] + r_coeff * v[k]
    status = forward_derivatives(I, F0, ws, dws, q, x, zero, np.zeros((0, 6)), False, False, True)  # M stays
    if status:
        return status
    cols = np.empty(nv, dtype=np.int64)
    r = 0
    for k in range(nc):  # r2 = [d(J w)/dq, J] at the kinematics of w; the force terms depend on q alone
        s = 3 if CI[k, 0] == CONTACT_3D else 6
        constraint_partials(m, d, g, CI[k], CF[k], R[k], impulse[r:r + s], Jc[r:r + s], r2[r:r + s], T, S, e,
                            cols, 0.0, 0.0, 1.0)
        r += s
    for r in range(n):
        for c in range(nv):
            r2[r, nv + c] *= r_coeff
    status = solve_kkt_rows(m, L, Dinv, Jc, P, delassus_in(fwork, n, nv), Gf, r2, T, U, mu, True)
    if status:
        return status
    for i in range(nv):
        for c in range(nv):
            dv_dq[i, c], dv_dv[i, c] = -T[i, c], -T[i, nv + c]
    for r in range(n):
        for c in range(nv):
            dP_dq[r, c], dP_dv[r, c] = U[r, c], U[r, nv + c]
    return 0


@njit(cache=True)
def derivatives_into(I, F, ws, dws, L, D, Dinv, q, v, tau, CI, CF, settings, R, Jc, rhs, work, stats, dwork, ddq_dq,
                     ddq_dv, ddq_dtau, dlam_dq, dlam_dv, dlam_dtau):
    """:func:`kernels.constrained.constraint_dynamics` then :func:`constraint_dynamics_derivatives` at one state,
    every partial written into the given arrays; returns the status of the first that fails, else 0."""
    status = constrained_dynamics(I, F, ws, L, D, Dinv, q, v, tau, CI, CF, settings, R, Jc, rhs, work, stats)
    if status:
        return status
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    status = constraint_dynamics_derivatives(I, F, ws, dws, L, D, Dinv, q, v, d.ddq, CI, CF, R, Jc, work, settings[MU],
                                             dwork, ddq_dtau, dlam_dq, dlam_dv, dlam_dtau)
    g = derivative_views(borrowed(dws), m.nj, m.nv)[0]
    for i in range(m.nv):
        for k in range(m.nv):
            ddq_dq[i, k], ddq_dv[i, k] = g.ddq_dq[i, k], g.ddq_dv[i, k]
    return status


@njit(cache=True, nogil=True)
def batch_constraint_dynamics_derivatives(I, F, WS, DWS, L, D, Dinv, Q, V, TAU, CI, CF, settings, R, Jc, rhs, work,
                                          stats, dwork, DDQ_DQ, DDQ_DV, DDQ_DTAU, DLAM_DQ, DLAM_DV, DLAM_DTAU, STATUS,
                                          first, last):
    """:func:`derivatives_into` at each state of ``Q, V, TAU (B, .)``, for the chunks ``first .. last - 1``, one set of
    buffers (leading axis) per chunk, into ``DDQ_* (B, nv, nv)`` and ``DLAM_* (B, m, nv)``."""
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in range(first, last):
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = derivatives_into(I, F, WS[c], DWS[c], L[c], D[c], Dinv[c], Q[b], V[b], TAU[b], CI, CF,
                                         settings, R[c], Jc[c], rhs[c], work[c], stats[c], dwork[c], DDQ_DQ[b],
                                         DDQ_DV[b], DDQ_DTAU[b], DLAM_DQ[b], DLAM_DV[b], DLAM_DTAU[b])


def without_gravity(F):
    """A copy of the model's packed floats ``F`` with the gravity (its first 6 entries) zeroed."""
    F0 = F.copy()
    F0[:6] = 0.0
    return F0


@njit(cache=True)
def impulse_derivatives_into(I, F, F0, ws, dws, L, D, Dinv, q, v, CI, CF, settings, R, Jc, rhs, work, stats, dwork,
                             v_after, dv_dq, dv_dv, dP_dq, dP_dv):
    """:func:`kernels.constrained.impulse_dynamics` (``settings = [mu, accuracy, max_iter, e]``, the velocity after
    the impact into ``v_after``) then :func:`impulse_dynamics_derivatives` (``F0`` the gravity-free ``F``) at one
    state; returns the status of the first that fails, else 0."""
    status = impulse_dynamics(I, F, ws, L, D, Dinv, q, v, CI, CF, settings, R, Jc, rhs, work, stats, v_after)
    if status:
        return status
    return impulse_dynamics_derivatives(I, F0, ws, dws, L, D, Dinv, q, v, settings[RESTITUTION], v_after, CI, CF, R,
                                        Jc, work, settings[MU], dwork, dv_dq, dv_dv, dP_dq, dP_dv)


@njit(cache=True, nogil=True)
def batch_impulse_dynamics_derivatives(I, F, F0, WS, DWS, L, D, Dinv, Q, V, CI, CF, settings, R, Jc, rhs, work, stats,
                                       dwork, V_AFTER, DV_DQ, DV_DV, DP_DQ, DP_DV, STATUS, first, last):
    """:func:`impulse_derivatives_into` at each state of ``Q, V (B, .)``, for the chunks ``first .. last - 1``, one set of
    buffers (leading axis) per chunk, into ``V_AFTER (B, nv)``, ``DV_* (B, nv, nv)`` and ``DP_* (B, m, nv)``."""
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in range(first, last):
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = impulse_derivatives_into(I, F, F0, WS[c], DWS[c], L[c], D[c], Dinv[c], Q[b], V[b], CI, CF,
                                                 settings, R[c], Jc[c], rhs[c], work[c], stats[c], dwork[c],
                                                 V_AFTER[b], DV_DQ[b], DV_DV[b], DP_DQ[b], DP_DV[b])
