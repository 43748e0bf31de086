"""Batched kernels at SIMD width: blocks of ``W`` states laid out as structures of arrays, the state index innermost.

The per-state batched kernels (``kernels/batch.py``) run one state after another; here a block of ``W`` states
runs the algorithm together: every quantity of a joint is stored with the lane (state of the block) last,
``v[i, k, w]``, and each step of the textbook table is one loop over the lanes with scalar temporaries, which
LLVM turns into vector instructions (``W`` doubles: one AVX-512 register, two AVX2 ones). A chunk function
(``rnea_chunk``, ``aba_chunk``, ``crba_chunk``, ``minverse_chunk``, ``kinematics_chunk``) runs a contiguous run of blocks with its own block arrays (tens of KB: L1/L2),
allocated there with the lane count a compile-time constant, and the block's algorithm inlined: LLVM then knows
the distance between rows and vectorises each lane loop without run-time overlap checks (twice as fast). The chunk
releases the GIL; ``rbda.batch`` runs one per thread (``_native/threads.py``; a numba ``prange`` over chunks compiled
the chunk a second time, 3-5 s, for the same speed).

The layout needs the joint's motion subspace ``S`` constant and the joint transform in closed form, without a
per-lane branch on the type, so it takes the models whose joints are all revolute or prismatic (one dof, ``S``
a constant 6-vector in the joint frame) under an optional free-flyer root: :func:`accepts` says which; every
other model keeps the per-state kernels. A tail block shorter than ``W`` repeats its last state in the unused
lanes and writes back only the states it holds.

Per joint ``i`` (parent ``λ``): ``X_i = [R_i | p_i]`` is the placement of ``i`` in ``λ`` (``liMi``), and the
helpers below are the per-lane forms of ``spatial/compiled.py``'s ``motion_act_inv``, ``force_act``,
``motion_cross``, ``force_cross``, ``inertia_apply``.
"""

from __future__ import annotations

import numpy as np

from .._native.jit import njit
from .._native.lanes import W, NoAliasCompiler, sub_scaled, sub_scaled2
from .._native.views import borrowed
from ..joints.dispatch import FREE_FLYER, PRISMATIC, REVOLUTE
from .checks import NORMALIZATION_TOL, SINGULAR
from ..model.layout import model_views
from .sparse import subtree_ends

def lanes(fn):
    """The decorator of the lane helpers and the blocks' algorithms: inlined, noalias, and numpy's error model (a
    zero pivot divides to inf, flagged by the caller, instead of a Python exception check in the loop, which would
    keep it scalar). One ``njit`` per function, when it is decorated: ``kernels/simd_derivatives.py`` may be
    imported after numba is loaded, this module before."""
    return njit(cache=True, forceinline=True, error_model="numpy", pipeline_class=NoAliasCompiler)(fn)


def accepts(model) -> bool:
    """Whether the structure-of-arrays kernels take ``model``: every joint revolute or prismatic (one dof), but
    for an optional free-flyer first joint on the world, and no mimic joints."""
    types = [int(j.type) for j in model.joints[1:]]
    if model.nv_extended != model.nv or model.njoints < 2:
        return False
    start = 1 if types[0] == FREE_FLYER and model.parents[1] == 0 else 0
    return all(t in (REVOLUTE, PRISMATIC) for t in types[start:])


# ---------------------------------------------------------------------------------------------- per-lane helpers
@njit(cache=True, forceinline=True)
def subspace(m, i, S):
    """``S`` ``(nv_i, 6)``: joint ``i``'s motion subspace rows in its own frame, ``[0; a]`` revolute, ``[a; 0]``
    prismatic, ``1_6`` free flyer."""
    t, a = m.types[i], m.params[i]
    for j in range(S.shape[0]):
        for k in range(6):
            S[j, k] = 1.0 if (t == FREE_FLYER and j == k) else 0.0
    if t == REVOLUTE:
        S[0, 3], S[0, 4], S[0, 5] = a[0], a[1], a[2]
    elif t == PRISMATIC:
        S[0, 0], S[0, 1], S[0, 2] = a[0], a[1], a[2]


# cos and sin over the lanes, vectorised: libm's scalar calls took over half of a block's RNEA. Cody-Waite
# reduction x = k pi/2 + r, |r| <= pi/4, with pi/2 split in three 33-bit parts (k pi/2 exact for |k| < 2^20),
# then the minimax polynomials of sin and cos on [-pi/4, pi/4] (Remez; the coefficients of fdlibm's kernels):
# within an ulp of libm for |x| < REDUCE_MAX (checked against np.cos/np.sin in the tests); beyond it, libm.
PIO2_1, PIO2_2, PIO2_3 = 1.57079632673412561417e+00, 6.07710050630396597660e-11, 2.02226624871116645580e-21
TWO_OVER_PI = 6.36619772367581382433e-01
SIN_C = (-1.66666666666666324348e-01, 8.33333333332248946124e-03, -1.98412698298579493134e-04,
         2.75573137070700676789e-06, -2.50507602534068634195e-08, 1.58969099521155010221e-10)
COS_C = (4.16666666666666019037e-02, -1.38888888888741095749e-03, 2.48015872894767294178e-05,
         -2.75573143513906633035e-07, 2.08757232129817482790e-09, -1.13596475577881948265e-11)
REDUCE_MAX = 1.0e5


@lanes
def sincos(x, c, s):
    """``c[w], s[w] = cos x[w], sin x[w]`` over the lanes."""
    small = True
    for w in range(x.shape[0]):
        small &= abs(x[w]) < REDUCE_MAX
    if not small:
        for w in range(x.shape[0]):
            c[w], s[w] = np.cos(x[w]), np.sin(x[w])
        return
    for w in range(x.shape[0]):
        k = np.floor(x[w] * TWO_OVER_PI + 0.5)
        r = ((x[w] - k * PIO2_1) - k * PIO2_2) - k * PIO2_3
        z = r * r
        sr = r + r * z * (SIN_C[0] + z * (SIN_C[1] + z * (SIN_C[2] + z * (SIN_C[3] + z * (SIN_C[4] + z * SIN_C[5])))))
        hz = 0.5 * z
        one_minus = 1.0 - hz
        cr = one_minus + (((1.0 - one_minus) - hz) + z * z * (COS_C[0] + z * (COS_C[1] + z * (COS_C[2] + z * (
            COS_C[3] + z * (COS_C[4] + z * COS_C[5]))))))
        n = k - 4.0 * np.floor(0.25 * k)  # the quadrant, 0..3
        odd = n == 1.0 or n == 3.0
        sv, cv = (cr if odd else sr), (sr if odd else cr)
        s[w] = -sv if n >= 2.0 else sv
        c[w] = -cv if (n == 1.0 or n == 2.0) else cv


@lanes
def placement(m, i, q, R, p, S, cs):
    """``R``, ``p`` ``(3, 3, W)``, ``(3, W)``: joint ``i``'s ``liMi = placement_i * M_J(q)`` over the lanes, and
    ``S`` ``(nv_i, 6)``: its motion subspace in its own frame (constant for these joint types); ``cs`` ``(2, W)``
    scratch."""
    P, a, iq, t = m.placements[i], m.params[i], m.idx_q[i], m.types[i]
    subspace(m, i, S)
    if t == REVOLUTE:  # M_J = (exp3(a q), 0): R = P_R (1 + s a_x + (1 - c) a_x^2), p = P_p
        x, y, z = a[0], a[1], a[2]
        sincos(q[iq], cs[0], cs[1])
        for w in range(R.shape[2]):
            c, s = cs[0, w], cs[1, w]
            u = 1.0 - c
            J00, J01, J02 = c + u * x * x, u * x * y - s * z, u * x * z + s * y
            J10, J11, J12 = u * x * y + s * z, c + u * y * y, u * y * z - s * x
            J20, J21, J22 = u * x * z - s * y, u * y * z + s * x, c + u * z * z
            for r in range(3):
                R[r, 0, w] = P[r, 0] * J00 + P[r, 1] * J10 + P[r, 2] * J20
                R[r, 1, w] = P[r, 0] * J01 + P[r, 1] * J11 + P[r, 2] * J21
                R[r, 2, w] = P[r, 0] * J02 + P[r, 1] * J12 + P[r, 2] * J22
                p[r, w] = P[r, 3]
    elif t == PRISMATIC:  # M_J = (1, a q): R = P_R, p = P_R a q + P_p
        for w in range(R.shape[2]):
            d = q[iq, w]
            for r in range(3):
                for col in range(3):
                    R[r, col, w] = P[r, col]
                p[r, w] = (P[r, 0] * a[0] + P[r, 1] * a[1] + P[r, 2] * a[2]) * d + P[r, 3]
    else:  # free flyer: M_J = (R(quat), x)
        for w in range(R.shape[2]):
            qx, qy, qz, qw = q[iq + 3, w], q[iq + 4, w], q[iq + 5, w], q[iq + 6, w]
            J00, J01, J02 = 1.0 - 2.0 * (qy * qy + qz * qz), 2.0 * (qx * qy - qz * qw), 2.0 * (qx * qz + qy * qw)
            J10, J11, J12 = 2.0 * (qx * qy + qz * qw), 1.0 - 2.0 * (qx * qx + qz * qz), 2.0 * (qy * qz - qx * qw)
            J20, J21, J22 = 2.0 * (qx * qz - qy * qw), 2.0 * (qy * qz + qx * qw), 1.0 - 2.0 * (qx * qx + qy * qy)
            x0, x1, x2 = q[iq, w], q[iq + 1, w], q[iq + 2, w]
            for r in range(3):
                R[r, 0, w] = P[r, 0] * J00 + P[r, 1] * J10 + P[r, 2] * J20
                R[r, 1, w] = P[r, 0] * J01 + P[r, 1] * J11 + P[r, 2] * J21
                R[r, 2, w] = P[r, 0] * J02 + P[r, 1] * J12 + P[r, 2] * J22
                p[r, w] = P[r, 0] * x0 + P[r, 1] * x1 + P[r, 2] * x2 + P[r, 3]


@lanes
def act_inv(R, p, x, out):
    """``out = X^-1 x`` (motion): ``w' = R^T w``, ``v' = R^T (v - p x w)``."""
    for w in range(x.shape[1]):
        px, py, pz = p[0, w], p[1, w], p[2, w]
        w0, w1, w2 = x[3, w], x[4, w], x[5, w]
        vx = x[0, w] - (py * w2 - pz * w1)
        vy = x[1, w] - (pz * w0 - px * w2)
        vz = x[2, w] - (px * w1 - py * w0)
        for c in range(3):
            out[c, w] = R[0, c, w] * vx + R[1, c, w] * vy + R[2, c, w] * vz
            out[3 + c, w] = R[0, c, w] * w0 + R[1, c, w] * w1 + R[2, c, w] * w2


@lanes
def force_act_add(R, p, f, out):
    """``out += X* f``: ``f' = R f``, ``tau' = R tau + p x f'``."""
    for w in range(f.shape[1]):
        f0, f1, f2, t0, t1, t2 = f[0, w], f[1, w], f[2, w], f[3, w], f[4, w], f[5, w]
        g0 = R[0, 0, w] * f0 + R[0, 1, w] * f1 + R[0, 2, w] * f2
        g1 = R[1, 0, w] * f0 + R[1, 1, w] * f1 + R[1, 2, w] * f2
        g2 = R[2, 0, w] * f0 + R[2, 1, w] * f1 + R[2, 2, w] * f2
        px, py, pz = p[0, w], p[1, w], p[2, w]
        out[0, w] += g0
        out[1, w] += g1
        out[2, w] += g2
        out[3, w] += R[0, 0, w] * t0 + R[0, 1, w] * t1 + R[0, 2, w] * t2 + (py * g2 - pz * g1)
        out[4, w] += R[1, 0, w] * t0 + R[1, 1, w] * t1 + R[1, 2, w] * t2 + (pz * g0 - px * g2)
        out[5, w] += R[2, 0, w] * t0 + R[2, 1, w] * t1 + R[2, 2, w] * t2 + (px * g1 - py * g0)


@lanes
def subspace_apply(S, x, iv, out):
    """``out = S x[iv : iv + nv_i]`` over the lanes (``S`` the ``(nv_i, 6)`` rows)."""
    for k in range(6):
        for w in range(x.shape[1]):
            out[k, w] = 0.0
        for j in range(S.shape[0]):
            s = S[j, k]
            if s != 0.0:
                for w in range(x.shape[1]):
                    out[k, w] += s * x[iv + j, w]


@lanes
def cross_add(a, b, out):
    """``out += a x b`` (motion x motion)."""
    for w in range(a.shape[1]):
        a0, a1, a2, a3, a4, a5 = a[0, w], a[1, w], a[2, w], a[3, w], a[4, w], a[5, w]
        b0, b1, b2, b3, b4, b5 = b[0, w], b[1, w], b[2, w], b[3, w], b[4, w], b[5, w]
        out[0, w] += a1 * b5 - a2 * b4 + a4 * b2 - a5 * b1
        out[1, w] += a2 * b3 - a0 * b5 + a5 * b0 - a3 * b2
        out[2, w] += a0 * b4 - a1 * b3 + a3 * b1 - a4 * b0
        out[3, w] += a4 * b5 - a5 * b4
        out[4, w] += a5 * b3 - a3 * b5
        out[5, w] += a3 * b4 - a4 * b3


@lanes
def body_force(Y, v, a, out):
    """``out = Y a + v x* (Y v)`` for the body inertia ``Y = (m, h, I_o)`` (constant over the lanes)."""
    mass, hx, hy, hz = Y[0], Y[1], Y[2], Y[3]  # (as scalars: LLVM vectorises the loop only with them hoisted)
    I00, I01, I02, I10, I11, I12, I20, I21, I22 = Y[4], Y[5], Y[6], Y[7], Y[8], Y[9], Y[10], Y[11], Y[12]
    for w in range(v.shape[1]):
        v0, v1, v2, w0, w1, w2 = v[0, w], v[1, w], v[2, w], v[3, w], v[4, w], v[5, w]
        a0, a1, a2, b0, b1, b2 = a[0, w], a[1, w], a[2, w], a[3, w], a[4, w], a[5, w]
        f0 = mass * v0 - (hy * w2 - hz * w1)  # Y v
        f1 = mass * v1 - (hz * w0 - hx * w2)
        f2 = mass * v2 - (hx * w1 - hy * w0)
        t0 = hy * v2 - hz * v1 + I00 * w0 + I01 * w1 + I02 * w2
        t1 = hz * v0 - hx * v2 + I10 * w0 + I11 * w1 + I12 * w2
        t2 = hx * v1 - hy * v0 + I20 * w0 + I21 * w1 + I22 * w2
        out[0, w] = mass * a0 - (hy * b2 - hz * b1) + (w1 * f2 - w2 * f1)  # Y a + v x* (Y v)
        out[1, w] = mass * a1 - (hz * b0 - hx * b2) + (w2 * f0 - w0 * f2)
        out[2, w] = mass * a2 - (hx * b1 - hy * b0) + (w0 * f1 - w1 * f0)
        out[3, w] = (hy * a2 - hz * a1 + I00 * b0 + I01 * b1 + I02 * b2
                     + (w1 * t2 - w2 * t1 + v1 * f2 - v2 * f1))
        out[4, w] = (hz * a0 - hx * a2 + I10 * b0 + I11 * b1 + I12 * b2
                     + (w2 * t0 - w0 * t2 + v2 * f0 - v0 * f2))
        out[5, w] = (hx * a1 - hy * a0 + I20 * b0 + I21 * b1 + I22 * b2
                     + (w0 * t1 - w1 * t0 + v0 * f1 - v1 * f0))


# ---------------------------------------------------------------------------------------------- block I/O
@njit(cache=True, forceinline=True)
def load(X, b0, out):
    """``out[k, w] = X[b0 + w, k]``, the last state of the batch repeated past its end."""
    B = X.shape[0]
    for w in range(out.shape[1]):
        b = min(b0 + w, B - 1)
        for k in range(out.shape[0]):
            out[k, w] = X[b, k]


@njit(cache=True, forceinline=True)
def state_status(m, q, v, a, w):
    """The per-state kernels' input status (``kernels/checks.py``): 1 ``q`` not finite, 2 the free flyer's
    quaternion off the unit sphere by more than the tolerance, 3 ``v`` not finite, 5 the third not finite; lane
    ``w`` of the block's inputs."""
    for k in range(q.shape[0]):
        if not np.isfinite(q[k, w]):
            return 1
    if m.types[1] == FREE_FLYER:
        n = q[3, w] * q[3, w] + q[4, w] * q[4, w] + q[5, w] * q[5, w] + q[6, w] * q[6, w]
        if abs(n - 1.0) > NORMALIZATION_TOL:
            return 2
    for k in range(v.shape[0]):
        if not np.isfinite(v[k, w]):
            return 3
    for k in range(a.shape[0]):
        if not np.isfinite(a[k, w]):
            return 5
    return 0


@njit(cache=True, forceinline=True)
def statuses(m, q, x, y, b0, singular, STATUS):
    """``STATUS[b0 + w]`` for the block's states in the batch: that of the inputs ``q, x, y``, else ``SINGULAR``
    where ``singular[w]`` is set."""
    for w in range(min(W, STATUS.shape[0] - b0)):
        STATUS[b0 + w] = state_status(m, q, x, y, w)
        if STATUS[b0 + w] == 0 and singular[w] != 0.0:
            STATUS[b0 + w] = SINGULAR


# ---------------------------------------------------------------------------------------------- RNEA
@njit(cache=True, nogil=True)
def rnea_chunk(I, F, Q, V, A, OUT, STATUS, first, last):
    """``OUT[b] = rnea(Q[b], V[b], A[b])`` and ``STATUS[b]`` its input status for the states of the blocks ``first
    .. last - 1`` of the batch, with their own block arrays (:func:`rnea_block`). Releases the GIL: one call per
    thread runs the batch on every core."""
    I, F, Q, V, A, OUT, STATUS = borrowed(I), borrowed(F), borrowed(Q), borrowed(V), borrowed(A), borrowed(OUT), \
        borrowed(STATUS)
    nj, nq, nv = I[0], I[1], I[2]
    q, qd, qdd, tau = np.empty((nq, W)), np.empty((nv, W)), np.empty((nv, W)), np.empty((nv, W))
    R, p = np.empty((nj, 3, 3, W)), np.empty((nj, 3, W))
    v, a, f = np.zeros((nj, 6, W)), np.empty((nj, 6, W)), np.empty((nj, 6, W))
    T, S = np.zeros((15, W)), np.empty((6, 6))  # (T[14]: no singular states in RNEA)
    for blk in range(first, last):
        b0 = blk * W
        load(Q, b0, q)
        load(V, b0, qd)
        load(A, b0, qdd)
        rnea_block(I, F, q, qd, qdd, R, p, v, a, f, T, S, tau)
        store(I, F, q, qd, qdd, b0, tau, T[14], OUT, STATUS)


@lanes
def rnea_block(I, F, q, qd, qdd, R, p, v, a, f, T, S, tau):
    """``tau`` ``(nv, W)`` = RNEA at the ``W`` states ``q, qd, qdd`` (Featherstone Table 5.1, local frames);
    ``R, p`` receive the joints' ``liMi``, ``v, a, f`` the body velocities, accelerations and forces; ``T``
    ``(14, W)`` and ``S`` ``(6, 6)`` scratch."""
    m = model_views(borrowed(I), borrowed(F))
    q, qd, qdd, R, p, v, a, f = borrowed(q), borrowed(qd), borrowed(qdd), borrowed(R), borrowed(p), borrowed(v), \
        borrowed(a), borrowed(f)
    T, S, tau = borrowed(T), borrowed(S), borrowed(tau)
    vJ, aJ, cs = T[0:6], T[6:12], T[12:14]
    for k in range(6):  # v_0 = 0, a_0 = -g
        for w in range(W):
            v[0, k, w] = 0.0
            a[0, k, w] = -m.gravity[k]
    for i in range(1, m.nj):
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        Si = S[:nvi]
        placement(m, i, q, R[i], p[i], Si, cs)
        subspace_apply(Si, qd, iv, vJ)  # vJ = S qd
        subspace_apply(Si, qdd, iv, aJ)
        act_inv(R[i], p[i], v[parent], v[i])  # v_i = X_i^-1 v_parent + vJ
        act_inv(R[i], p[i], a[parent], a[i])  # a_i = X_i^-1 a_parent + S qdd + v_i x vJ
        for k in range(6):
            for w in range(W):
                v[i, k, w] += vJ[k, w]
                a[i, k, w] += aJ[k, w]
        cross_add(v[i], vJ, a[i])
        body_force(m.inertias[i], v[i], a[i], f[i])  # f_i = Y_i a_i + v_i x* (Y_i v_i)
    for i in range(m.nj - 1, 0, -1):
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        subspace(m, i, S[:nvi])
        for j in range(nvi):  # tau_i = S_i^T f_i + armature qdd
            for w in range(W):
                acc = m.armature[iv + j] * qdd[iv + j, w]
                for k in range(6):
                    acc += S[j, k] * f[i, k, w]
                tau[iv + j, w] = acc
        if parent > 0:
            force_act_add(R[i], p[i], f[i], f[parent])  # f_parent += X_i* f_i


@njit(cache=True, forceinline=True)
def store_matrix(M, b0, OUT):
    """``OUT[b0 + w] = M[:, :, w]`` for the block's states in the batch, the lanes innermost: reading ``M`` lane
    by lane streamed it from L2 once per lane on the large robots (talos' ``M`` block is 92 KB)."""
    for r in range(M.shape[0]):
        for c in range(M.shape[1]):
            for w in range(min(W, OUT.shape[0] - b0)):
                OUT[b0 + w, r, c] = M[r, c, w]


@njit(cache=True, forceinline=True)
def store_symmetric(M, b0, OUT):
    """:func:`store_matrix` for a symmetric ``M`` of which only the upper triangle (row <= column) is set: ``OUT``
    written row by row, its lower triangle read from ``M``'s upper (writing both halves at once, the mirrored
    stores one row apart, took 1.7x as long on talos)."""
    for r in range(M.shape[0]):
        for c in range(M.shape[1]):
            i, j = min(r, c), max(r, c)
            for w in range(min(W, OUT.shape[0] - b0)):
                OUT[b0 + w, r, c] = M[i, j, w]


@njit(cache=True)
def store(I, F, q, x, y, b0, out, singular, OUT, STATUS):
    """``OUT[b0 + w] = out[:, w]`` for the block's states in the batch, with the status of each
    (:func:`statuses`)."""
    m = model_views(borrowed(I), borrowed(F))
    q, x, y, out, OUT, STATUS = borrowed(q), borrowed(x), borrowed(y), borrowed(out), borrowed(OUT), borrowed(STATUS)
    statuses(m, q, x, y, b0, singular, STATUS)
    for w in range(min(W, OUT.shape[0] - b0)):
        for k in range(out.shape[0]):
            OUT[b0 + w, k] = out[k, w]


# ---------------------------------------------------------------------------------------------- ABA (world frame)
@lanes
def compose(R0, p0, R, p, oR, op):
    """``[oR | op] = [R0 | p0] [R | p]`` over the lanes (``oMi = oM_parent liMi``)."""
    for w in range(R.shape[2]):
        for r in range(3):
            a0, a1, a2 = R0[r, 0, w], R0[r, 1, w], R0[r, 2, w]
            for c in range(3):
                oR[r, c, w] = a0 * R[0, c, w] + a1 * R[1, c, w] + a2 * R[2, c, w]
            op[r, w] = a0 * p[0, w] + a1 * p[1, w] + a2 * p[2, w] + p0[r, w]


@lanes
def world_root(m, oR, op, ov, oa):
    """The world-frame passes' joint 0: ``oMi`` the identity, ``ov = 0``, ``oa = -g``."""
    for w in range(W):
        for r in range(3):
            op[0, r, w] = 0.0
            for c in range(3):
                oR[0, r, c, w] = 1.0 if r == c else 0.0
        for k in range(6):
            ov[0, k, w] = 0.0
            oa[0, k, w] = -m.gravity[k]  # a_0 = -g


@lanes
def world_motion(m, i, q, qd, R, p, oR, op, J, ov, ovJ, S, cs):
    """Joint ``i`` of a world-frame forward pass: its ``liMi`` (``R[i], p[i]``), ``oMi = oM_parent liMi`` (``oR[i],
    op[i]``), the world columns ``J = oMi S`` of its dofs, ``ovJ = J qd`` and ``ov_i = ov_parent + ovJ``; ``S``
    ``(6, 6)``, ``cs`` ``(2, W)`` scratch."""
    parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
    placement(m, i, q, R[i], p[i], S[:nvi], cs)
    compose(oR[parent], op[parent], R[i], p[i], oR[i], op[i])
    for k in range(nvi):
        act_constant(oR[i], op[i], S[k], J[iv + k])
    for r in range(6):
        for w in range(W):
            acc = 0.0
            for k in range(nvi):
                acc += J[iv + k, r, w] * qd[iv + k, w]
            ovJ[r, w] = acc
            ov[i, r, w] = ov[parent, r, w] + acc


@lanes
def act_constant(R, p, s, out):
    """``out = X s`` for a motion ``s`` constant over the lanes: ``w' = R w``, ``v' = R v + p x w'``."""
    s0, s1, s2, s3, s4, s5 = s[0], s[1], s[2], s[3], s[4], s[5]
    for w in range(R.shape[2]):
        w0 = R[0, 0, w] * s3 + R[0, 1, w] * s4 + R[0, 2, w] * s5
        w1 = R[1, 0, w] * s3 + R[1, 1, w] * s4 + R[1, 2, w] * s5
        w2 = R[2, 0, w] * s3 + R[2, 1, w] * s4 + R[2, 2, w] * s5
        px, py, pz = p[0, w], p[1, w], p[2, w]
        out[0, w] = R[0, 0, w] * s0 + R[0, 1, w] * s1 + R[0, 2, w] * s2 + (py * w2 - pz * w1)
        out[1, w] = R[1, 0, w] * s0 + R[1, 1, w] * s1 + R[1, 2, w] * s2 + (pz * w0 - px * w2)
        out[2, w] = R[2, 0, w] * s0 + R[2, 1, w] * s1 + R[2, 2, w] * s2 + (px * w1 - py * w0)
        out[3, w], out[4, w], out[5, w] = w0, w1, w2


@lanes
def world_inertia(Y, R, p, IA):
    """``IA`` ``(6, 6, W)`` = the matrix of ``oMi.act(Y)`` for the body inertia ``Y = (m, h, I_o)`` (constant):
    ``h' = R h + m p``, ``I' = R I_o R^T - (R h)_x p_x - p_x (R h)_x - m p_x p_x``, ``[[m 1, -h'_x], [h'_x, I']]``."""
    mass, hx, hy, hz = Y[0], Y[1], Y[2], Y[3]
    I00, I01, I02, I10, I11, I12, I20, I21, I22 = Y[4], Y[5], Y[6], Y[7], Y[8], Y[9], Y[10], Y[11], Y[12]
    for w in range(R.shape[2]):
        R00, R01, R02 = R[0, 0, w], R[0, 1, w], R[0, 2, w]
        R10, R11, R12 = R[1, 0, w], R[1, 1, w], R[1, 2, w]
        R20, R21, R22 = R[2, 0, w], R[2, 1, w], R[2, 2, w]
        px, py, pz = p[0, w], p[1, w], p[2, w]
        r0 = R00 * hx + R01 * hy + R02 * hz  # R h
        r1 = R10 * hx + R11 * hy + R12 * hz
        r2 = R20 * hx + R21 * hy + R22 * hz
        # I_o R^T, column by column (row c of R)
        t00, t10, t20 = I00 * R00 + I01 * R01 + I02 * R02, I10 * R00 + I11 * R01 + I12 * R02, I20 * R00 + I21 * R01 + I22 * R02
        t01, t11, t21 = I00 * R10 + I01 * R11 + I02 * R12, I10 * R10 + I11 * R11 + I12 * R12, I20 * R10 + I21 * R11 + I22 * R12
        t02, t12, t22 = I00 * R20 + I01 * R21 + I02 * R22, I10 * R20 + I11 * R21 + I12 * R22, I20 * R20 + I21 * R21 + I22 * R22
        hp = r0 * px + r1 * py + r2 * pz
        d = 2.0 * hp + mass * (px * px + py * py + pz * pz)
        J00 = R00 * t00 + R01 * t10 + R02 * t20 - 2.0 * r0 * px - mass * px * px + d
        J11 = R10 * t01 + R11 * t11 + R12 * t21 - 2.0 * r1 * py - mass * py * py + d
        J22 = R20 * t02 + R21 * t12 + R22 * t22 - 2.0 * r2 * pz - mass * pz * pz + d
        J01 = R00 * t01 + R01 * t11 + R02 * t21 - (r0 * py + px * r1) - mass * px * py
        J02 = R00 * t02 + R01 * t12 + R02 * t22 - (r0 * pz + px * r2) - mass * px * pz
        J12 = R10 * t02 + R11 * t12 + R12 * t22 - (r1 * pz + py * r2) - mass * py * pz
        gx, gy, gz = r0 + mass * px, r1 + mass * py, r2 + mass * pz  # h'
        IA[0, 4, w] = IA[4, 0, w] = gz  # -h'_x above the diagonal, h'_x below: symmetric
        IA[0, 5, w] = IA[5, 0, w] = -gy
        IA[1, 3, w] = IA[3, 1, w] = -gz
        IA[1, 5, w] = IA[5, 1, w] = gx
        IA[2, 3, w] = IA[3, 2, w] = gy
        IA[2, 4, w] = IA[4, 2, w] = -gx
        IA[3, 3, w], IA[4, 4, w], IA[5, 5, w] = J00, J11, J22
        IA[3, 4, w] = IA[4, 3, w] = J01
        IA[3, 5, w] = IA[5, 3, w] = J02
        IA[4, 5, w] = IA[5, 4, w] = J12
    for r in range(3):  # m 1 and the zero diagonals of the h'_x blocks
        for c in range(3):
            for w in range(R.shape[2]):
                IA[r, c, w] = mass if r == c else 0.0
        for w in range(R.shape[2]):
            IA[r, 3 + r, w] = IA[3 + r, r, w] = 0.0


@lanes
def matvec(A, x, out):
    """``out = A x`` for ``A`` ``(6, 6, W)``, ``x`` ``(6, W)``."""
    for w in range(x.shape[1]):
        x0, x1, x2, x3, x4, x5 = x[0, w], x[1, w], x[2, w], x[3, w], x[4, w], x[5, w]
        for r in range(6):
            out[r, w] = (A[r, 0, w] * x0 + A[r, 1, w] * x1 + A[r, 2, w] * x2 + A[r, 3, w] * x3 + A[r, 4, w] * x4
                         + A[r, 5, w] * x5)


@lanes
def force_cross_to(v, f, out):
    """``out = v x* f`` (motion x force): ``[w x f; w x tau + v x f]``."""
    for w in range(v.shape[1]):
        v0, v1, v2, w0, w1, w2 = v[0, w], v[1, w], v[2, w], v[3, w], v[4, w], v[5, w]
        f0, f1, f2, t0, t1, t2 = f[0, w], f[1, w], f[2, w], f[3, w], f[4, w], f[5, w]
        out[0, w] = w1 * f2 - w2 * f1
        out[1, w] = w2 * f0 - w0 * f2
        out[2, w] = w0 * f1 - w1 * f0
        out[3, w] = w1 * t2 - w2 * t1 + v1 * f2 - v2 * f1
        out[4, w] = w2 * t0 - w0 * t2 + v2 * f0 - v0 * f2
        out[5, w] = w0 * t1 - w1 * t0 + v0 * f1 - v1 * f0


@lanes
def cross_to(a, b, out):
    """``out = a x b`` (motion x motion)."""
    for w in range(a.shape[1]):
        out[0, w] = a[1, w] * b[5, w] - a[2, w] * b[4, w] + a[4, w] * b[2, w] - a[5, w] * b[1, w]
        out[1, w] = a[2, w] * b[3, w] - a[0, w] * b[5, w] + a[5, w] * b[0, w] - a[3, w] * b[2, w]
        out[2, w] = a[0, w] * b[4, w] - a[1, w] * b[3, w] + a[3, w] * b[1, w] - a[4, w] * b[0, w]
        out[3, w] = a[4, w] * b[5, w] - a[5, w] * b[4, w]
        out[4, w] = a[5, w] * b[3, w] - a[3, w] * b[5, w]
        out[5, w] = a[3, w] * b[4, w] - a[4, w] * b[3, w]


@lanes
def dot(x, y, out):
    """``out[w] = x[:, w] . y[:, w]`` (6-vectors)."""
    for w in range(x.shape[1]):
        out[w] = (x[0, w] * y[0, w] + x[1, w] * y[1, w] + x[2, w] * y[2, w] + x[3, w] * y[3, w] + x[4, w] * y[4, w]
                  + x[5, w] * y[5, w])


@lanes
def articulate(IA, U, dinv, c, pA, u, IAp, pAp):
    """One-dof joint of ABA's pass 2 given ``U = IA S``, ``dinv = 1 / (S^T U + armature)``, ``u = tau - S^T pA``:
    ``Ia = IA - U U^T / D`` into ``IA`` and, onto the parent, ``IA_p += Ia``, ``pA_p += pA + Ia c + U u / D``."""
    n = U.shape[1]
    for r in range(6):
        for k in range(6):
            for w in range(n):
                IA[r, k, w] -= U[r, w] * dinv[w] * U[k, w]
                IAp[r, k, w] += IA[r, k, w]
    for r in range(6):
        for w in range(n):
            pAp[r, w] += pA[r, w] + (IA[r, 0, w] * c[0, w] + IA[r, 1, w] * c[1, w] + IA[r, 2, w] * c[2, w]
                                     + IA[r, 3, w] * c[3, w] + IA[r, 4, w] * c[4, w] + IA[r, 5, w] * c[5, w]) \
                + U[r, w] * (u[w] * dinv[w])


@lanes
def solve_spd(D, x, singular):
    """``x = D^-1 x`` per lane for ``D`` ``(n, n, W)`` symmetric positive definite (Gaussian elimination without
    pivoting, in place); ``singular[w] = 1`` where a pivot is not positive."""
    n = D.shape[0]
    for k in range(n):
        for w in range(x.shape[1]):
            if not D[k, k, w] > 0.0:
                singular[w] = 1.0
        for r in range(k + 1, n):
            for w in range(x.shape[1]):
                g = D[r, k, w] / D[k, k, w]
                for c in range(k + 1, n):
                    D[r, c, w] -= g * D[k, c, w]
                x[r, w] -= g * x[k, w]
    for k in range(n - 1, -1, -1):
        for w in range(x.shape[1]):
            acc = x[k, w]
            for c in range(k + 1, n):
                acc -= D[k, c, w] * x[c, w]
            x[k, w] = acc / D[k, k, w]


@njit(cache=True, nogil=True)
def aba_chunk(I, F, Q, V, TAU, OUT, STATUS, first, last):
    """``OUT[b] = aba(Q[b], V[b], TAU[b])`` and ``STATUS[b]`` for the states of the blocks ``first .. last - 1``
    of the batch, with their own block arrays (:func:`aba_block`); releases the GIL."""
    I, F, Q, V, TAU, OUT, STATUS = borrowed(I), borrowed(F), borrowed(Q), borrowed(V), borrowed(TAU), \
        borrowed(OUT), borrowed(STATUS)
    nj, nq, nv = I[0], I[1], I[2]
    q, qd, tau, ddq = np.empty((nq, W)), np.empty((nv, W)), np.empty((nv, W)), np.empty((nv, W))
    R, p, oR, op = np.empty((nj, 3, 3, W)), np.empty((nj, 3, W)), np.empty((nj, 3, 3, W)), np.empty((nj, 3, W))
    ov, oc, pA, oa = np.empty((nj, 6, W)), np.empty((nj, 6, W)), np.empty((nj, 6, W)), np.empty((nj, 6, W))
    IA, D6 = np.empty((nj, 6, 6, W)), np.empty((6, 6, W))
    J, U, dinv, u = np.empty((nv, 6, W)), np.empty((nv, 6, W)), np.empty((nv, W)), np.empty((nv, W))
    T, S = np.empty((22, W)), np.empty((6, 6))
    for blk in range(first, last):
        b0 = blk * W
        load(Q, b0, q)
        load(V, b0, qd)
        load(TAU, b0, tau)
        aba_block(I, F, q, qd, tau, R, p, oR, op, ov, oc, pA, oa, IA, D6, J, U, dinv, u, T, S, ddq)
        store(I, F, q, qd, tau, b0, ddq, T[21], OUT, STATUS)


@lanes
def aba_block(I, F, q, qd, tau, R, p, oR, op, ov, oc, pA, oa, IA, D6, J, U, dinv, u, T, S, ddq):
    """``ddq`` ``(nv, W)`` = ABA at the ``W`` states ``q, qd, tau``, in the world frame as ``kernels/dynamics.py``'s
    ``aba`` (Featherstone Table 7.1 with world-frame quantities: no 6x6 matrix is ever transformed). Fills the
    joints' ``liMi`` (``R, p``) and ``oMi`` (``oR, op``), ``ov``, the bias accelerations ``oc``, the articulated
    inertias ``IA`` and bias forces ``pA``, the accelerations ``oa`` (with gravity), the world Jacobian columns
    ``J``, ``U = IA S``, ``1 / D``, ``u``; ``T`` ``(22, W)`` scratch whose row 21 flags the lanes where an
    articulated block ``D`` is not positive, ``S`` ``(6, 6)`` and ``D6`` ``(6, 6, W)`` scratch (the free flyer's
    ``D``)."""
    m = model_views(borrowed(I), borrowed(F))
    q, qd, tau, R, p, oR, op = borrowed(q), borrowed(qd), borrowed(tau), borrowed(R), borrowed(p), borrowed(oR), \
        borrowed(op)
    ov, oc, pA, oa, IA, D6 = borrowed(ov), borrowed(oc), borrowed(pA), borrowed(oa), borrowed(IA), borrowed(D6)
    J, U, dinv, u, T, S, ddq = borrowed(J), borrowed(U), borrowed(dinv), borrowed(u), borrowed(T), borrowed(S), \
        borrowed(ddq)
    ovJ, f, cs, d, singular = T[0:6], T[6:12], T[12:14], T[14], T[21]
    for w in range(W):
        singular[w] = 0.0
    world_root(m, oR, op, ov, oa)
    for i in range(1, m.nj):  # pass 1: kinematics, bias accelerations oc, world inertias, bias forces pA
        parent = m.parents[i]
        world_motion(m, i, q, qd, R, p, oR, op, J, ov, ovJ, S, cs)
        cross_to(ov[parent], ovJ, oc[i])  # oc = ov_parent x ovJ (cJ = 0)
        world_inertia(m.inertias[i], oR[i], op[i], IA[i])  # IA_i = oY_i
        matvec(IA[i], ov[i], f)  # pA_i = ov x* (oY ov)
        force_cross_to(ov[i], f, pA[i])
    for i in range(m.nj - 1, 0, -1):  # pass 2: articulated inertias and bias forces
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        for k in range(nvi):
            matvec(IA[i], J[iv + k], U[iv + k])  # U = IA S
            dot(J[iv + k], pA[i], d)  # u = tau - S^T pA
            for w in range(W):
                u[iv + k, w] = tau[iv + k, w] - d[w]
        if nvi == 1:
            dot(J[iv], U[iv], d)  # D = S^T U + armature
            for w in range(W):
                D = d[w] + m.armature[iv]
                if not D > 0.0:
                    singular[w] = 1.0
                dinv[iv, w] = 1.0 / D
            if parent > 0:  # IA_parent += IA - U D^-1 U^T, pA_parent += pA + Ia c + U D^-1 u
                articulate(IA[i], U[iv], dinv[iv], oc[i], pA[i], u[iv], IA[parent], pA[parent])
        else:  # the free flyer on the world: D (6, 6) for pass 3
            for r in range(6):
                for c in range(6):
                    dot(J[iv + r], U[iv + c], d)
                    for w in range(W):
                        D6[r, c, w] = d[w] + (m.armature[iv + r] if r == c else 0.0)
    for i in range(1, m.nj):  # pass 3: accelerations
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        for r in range(6):  # a' = a_parent + c
            for w in range(W):
                oa[i, r, w] = oa[parent, r, w] + oc[i, r, w]
        for k in range(nvi):  # ddq = D^-1 (u - U^T a')
            dot(U[iv + k], oa[i], d)
            for w in range(W):
                ddq[iv + k, w] = u[iv + k, w] - d[w]
        if nvi == 1:
            for w in range(W):
                ddq[iv, w] *= dinv[iv, w]
        else:
            solve_spd(D6, ddq[iv : iv + nvi], singular)
        for r in range(6):  # a = a' + S ddq
            for w in range(W):
                acc = oa[i, r, w]
                for k in range(nvi):
                    acc += J[iv + k, r, w] * ddq[iv + k, w]
                oa[i, r, w] = acc


# ---------------------------------------------------------------------------------------------- CRBA (world frame)
@njit(cache=True, nogil=True)
def crba_chunk(I, F, Q, OUT, STATUS, first, last):
    """``OUT[b] = crba(Q[b])`` ``(nv, nv)`` and ``STATUS[b]`` for the states of the blocks ``first .. last - 1``
    (:func:`crba_block`); releases the GIL."""
    I, F, Q, OUT, STATUS = borrowed(I), borrowed(F), borrowed(Q), borrowed(OUT), borrowed(STATUS)
    nj, nq, nv = I[0], I[1], I[2]
    q, none = np.empty((nq, W)), np.empty((0, W))
    R, p, oR, op = np.empty((nj, 3, 3, W)), np.empty((nj, 3, W)), np.empty((nj, 3, 3, W)), np.empty((nj, 3, W))
    Yc, J, M = np.empty((nj, 6, 6, W)), np.empty((nv, 6, W)), np.zeros((nv, nv, W))  # (M: 0 off the supports)
    T, S = np.zeros((15, W)), np.empty((6, 6))  # (T[14]: CRBA has no singular states)
    m = model_views(I, F)
    for blk in range(first, last):
        b0 = blk * W
        load(Q, b0, q)
        crba_block(I, F, q, R, p, oR, op, Yc, J, T, S, M)
        statuses(m, q, none, none, b0, T[14], STATUS)  # (T[14] stays 0)
        store_matrix(M, b0, OUT)


@lanes
def crba_block(I, F, q, R, p, oR, op, Yc, J, T, S, M):
    """``M`` ``(nv, nv, W)`` = CRBA at the ``W`` configurations ``q`` in the world frame, as ``kernels/dynamics.py``'s
    ``crba`` (Featherstone Table 6.2, world convention): composite inertias summed as matrices in the one world
    frame, ``M[support(i), i] = J^T (Ycrb_i J_i)``; fills ``liMi`` (``R, p``), ``oMi`` (``oR, op``), the world
    Jacobian columns ``J``; ``Yc``, ``T`` ``(15, W)`` and ``S`` scratch."""
    m = model_views(borrowed(I), borrowed(F))
    q, R, p, oR, op, Yc, J, T, S, M = borrowed(q), borrowed(R), borrowed(p), borrowed(oR), borrowed(op), \
        borrowed(Yc), borrowed(J), borrowed(T), borrowed(S), borrowed(M)
    Fc, cs = T[0:6], T[12:14]
    for w in range(W):
        for r in range(3):
            op[0, r, w] = 0.0
            for c in range(3):
                oR[0, r, c, w] = 1.0 if r == c else 0.0
    for i in range(1, m.nj):  # forward: oMi, J = oMi S, the bodies' world inertias
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        placement(m, i, q, R[i], p[i], S[:nvi], cs)
        compose(oR[parent], op[parent], R[i], p[i], oR[i], op[i])
        for k in range(nvi):
            act_constant(oR[i], op[i], S[k], J[iv + k])
        world_inertia(m.inertias[i], oR[i], op[i], Yc[i])
    for i in range(m.nj - 1, 0, -1):  # backward: the columns of joint i, then Ycrb_parent += Ycrb_i
        for col in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            matvec(Yc[i], J[col], Fc)  # F = Ycrb_i S_i
            j = i
            while j > 0:  # M[support(i), col] = J_j^T F
                for row in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
                    dot(J[row], Fc, M[row, col])
                    for w in range(W):
                        M[col, row, w] = M[row, col, w]
                j = m.parents[j]
            for w in range(W):
                M[col, col, w] += m.armature[col]
        parent = m.parents[i]
        if parent > 0:
            for r in range(6):
                for c in range(6):
                    for w in range(W):
                        Yc[parent, r, c, w] += Yc[i, r, c, w]


# ---------------------------------------------------------------------------------------------- kinematics
@lanes
def kinematics_block(I, F, q, R, p, oR, op, J, T, S, jacobians):
    """Forward kinematics at the ``W`` configurations ``q``: ``liMi`` (``R, p``), ``oMi`` (``oR, op``, joint 0 the
    identity) and, if ``jacobians``, the world Jacobian columns ``J = oMi S``; ``T`` ``(15, W)``, ``S`` scratch."""
    m = model_views(borrowed(I), borrowed(F))
    q, R, p, oR, op, J, T, S = borrowed(q), borrowed(R), borrowed(p), borrowed(oR), borrowed(op), borrowed(J), \
        borrowed(T), borrowed(S)
    for w in range(W):
        for r in range(3):
            op[0, r, w] = 0.0
            for c in range(3):
                oR[0, r, c, w] = 1.0 if r == c else 0.0
    for i in range(1, m.nj):
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        placement(m, i, q, R[i], p[i], S[:nvi], T[12:14])
        compose(oR[parent], op[parent], R[i], p[i], oR[i], op[i])  # oMi = oM_parent liMi
        if jacobians:
            for k in range(nvi):
                act_constant(oR[i], op[i], S[k], J[iv + k])


@njit(cache=True, nogil=True)
def kinematics_chunk(I, F, Q, jacobians, OUT, STATUS, first, last):
    """For the states of the blocks ``first .. last - 1``: ``OUT[b]`` = the joint placements ``oMi`` ``(nj, 3, 4)``
    ``[R | p]`` at ``Q[b]``, or with ``jacobians`` the world-frame joint Jacobian ``(6, nv)``, flattened, and
    ``STATUS[b]`` (:func:`kinematics_block`); releases the GIL."""
    I, F, Q, OUT, STATUS = borrowed(I), borrowed(F), borrowed(Q), borrowed(OUT), borrowed(STATUS)
    nj, nq, nv = I[0], I[1], I[2]
    q, none = np.empty((nq, W)), np.empty((0, W))
    R, p, oR, op = np.empty((nj, 3, 3, W)), np.empty((nj, 3, W)), np.empty((nj, 3, 3, W)), np.empty((nj, 3, W))
    J, T, S = np.empty((nv if jacobians else 0, 6, W)), np.empty((15, W)), np.empty((6, 6))
    m = model_views(I, F)
    for blk in range(first, last):
        b0 = blk * W
        load(Q, b0, q)
        kinematics_block(I, F, q, R, p, oR, op, J, T, S, jacobians)
        for w in range(min(W, OUT.shape[0] - b0)):
            STATUS[b0 + w] = state_status(m, q, none, none, w)
            if jacobians:
                for r in range(6):
                    for k in range(nv):
                        OUT[b0 + w, r * nv + k] = J[k, r, w]
            else:
                for i in range(nj):
                    for r in range(3):
                        for c in range(3):
                            OUT[b0 + w, 12 * i + 4 * r + c] = oR[i, r, c, w]
                        OUT[b0 + w, 12 * i + 4 * r + 3] = op[i, r, w]


# ---------------------------------------------------------------------------------------------- M^-1
@lanes
def ltdl(H, lam, singular, l, n):
    """``kernels/sparse.py``'s ``ltdl`` over the lanes: in place ``H = L^T D L`` with branch-induced sparsity
    (Featherstone, RBDA Table 6.3), ``lam`` the dof parents; reads and writes only the lower triangle (row >= column).
    ``singular[w] = 1`` where a pivot is not positive; ``l`` ``(W,)`` scratch; ``n``: the lane count ``W`` as a
    run-time value (:func:`lane_count`)."""
    for k in range(H.shape[0] - 1, -1, -1):
        for w in range(n):
            if not H[k, k, w] > 0.0:
                singular[w] = 1.0
        i = lam[k]
        while i >= 0:
            for w in range(n):  # l = H_ki / H_kk, one division per entry of L
                l[w] = H[k, i, w] / H[k, k, w]
            j = i
            while j >= 0:  # H_ij -= l H_kj
                rows_sub(l, H[k, j : j + 1], H[i, j : j + 1])
                j = lam[j]
            for w in range(n):
                H[k, i, w] = l[w]
            i = lam[i]


@lanes
def rows_sub(a, x, y):
    """``y[c] -= a x[c]`` lane by lane for the distinct rows ``x``, ``y`` ``(nc, W)`` of a block matrix."""
    for c in range(x.shape[0]):
        sub_scaled(y[c], x[c], a)


@lanes
def rows_sub2(a, x, b, z, y):
    """``y[c] -= a x[c] + b z[c]`` lane by lane for the distinct rows ``x``, ``z``, ``y`` ``(nc, W)``."""
    for c in range(x.shape[0]):
        sub_scaled2(y[c], x[c], a, z[c], b)


@lanes
def rows_scale(a, x, n):
    """``x[c, w] *= a[w]`` for lanes ``w < n``."""
    for c in range(x.shape[0]):
        for w in range(n):
            x[c, w] *= a[w]


@lanes
def rows_div(a, x, n):
    """``x[c, w] /= a[w]`` for lanes ``w < n``."""
    for c in range(x.shape[0]):
        for w in range(n):
            x[c, w] /= a[w]


@lanes
def ancestors_sub(L, lam, j, X, c, y):
    """``y -= sum_j L[j] X[j, c:]`` over the dof ``j`` and its ancestors (``lam`` the dof parents), two rows at a
    time (:func:`rows_sub2`)."""
    while j >= 0:
        i = lam[j]
        if i >= 0:
            rows_sub2(L[j], X[j, c:], L[i], X[i, c:], y)
            j = lam[i]
        else:
            rows_sub(L[j], X[j, c:], y)
            j = i


@lanes
def minverse_from_factor(H, lam, end, Minv, n):
    """``kernels/sparse.py``'s ``minverse_from_factor`` over the lanes, the upper triangle only (row <= column, the
    rest left as it was: :func:`store_symmetric` writes both halves): ``Minv = L^-1 D^-1 L^-T`` from the factor
    ``H`` of :func:`ltdl`; ``end[i]``: one past the last dof of dof ``i``'s subtree; ``n`` the lane count ``W`` as a
    run-time value (:func:`lane_count`)."""
    nv = H.shape[0]
    for r in range(nv):
        for c in range(r, nv):
            for w in range(n):
                Minv[r, c, w] = 1.0 if r == c else 0.0
    for i in range(nv - 1, -1, -1):  # Z = L^-T (upper triangular)
        j = lam[i]
        while j >= 0:
            rows_sub(H[i, j], Minv[i, i:end[i]], Minv[j, i:end[i]])
            j = lam[j]
    for r in range(nv):  # W = D^-1 Z, then L X = W row by row: X[r, c >= r] takes X[j, c >= r] of the rows j < r
        rows_div(H[r, r], Minv[r, r:], n)
        ancestors_sub(H[r], lam, lam[r], Minv, r, Minv[r, r:])


@njit(cache=True, forceinline=True)
def lane_count(Q):
    """``W``, as a value that LLVM does not know at compile time (``Q`` is a batch: at least one state), for the lane
    loops of the sparse factor that run inside a loop over columns (:func:`rows_scale`, :func:`rows_div`): with the
    constant ``W`` LLVM unrolls the lane loop and vectorises the column loop with scatter stores, with a run-time
    count it vectorises the lanes (the ABA derivatives a third faster on talos). The row updates (:func:`rows_sub`)
    go further: one vector operation per row."""
    return min(W, W * Q.shape[0])


@njit(cache=True, nogil=True)
def minverse_chunk(I, F, Q, OUT, STATUS, first, last):
    """``OUT[b] = M(Q[b])^-1`` ``(nv, nv)`` and ``STATUS[b]`` for the states of the blocks ``first .. last - 1``:
    :func:`crba_block`, the sparse factor ``M = L^T D L`` in place and ``L^-1 D^-1 L^-T`` over the lanes, as
    ``kernels/dynamics.py``'s ``minverse``; releases the GIL."""
    I, F, Q, OUT, STATUS = borrowed(I), borrowed(F), borrowed(Q), borrowed(OUT), borrowed(STATUS)
    nj, nq, nv = I[0], I[1], I[2]
    q, none = np.empty((nq, W)), np.empty((0, W))
    R, p, oR, op = np.empty((nj, 3, 3, W)), np.empty((nj, 3, W)), np.empty((nj, 3, 3, W)), np.empty((nj, 3, W))
    Yc, J, M = np.empty((nj, 6, 6, W)), np.empty((nv, 6, W)), np.zeros((nv, nv, W))  # (M: 0 off the supports)
    Minv, T, S = np.empty((nv, nv, W)), np.zeros((16, W)), np.empty((6, 6))
    m = model_views(I, F)
    nl = lane_count(Q)
    lam = m.dof_parents
    end = subtree_ends(lam)
    for blk in range(first, last):
        b0 = blk * W
        load(Q, b0, q)
        crba_block(I, F, q, R, p, oR, op, Yc, J, T, S, M)  # (rewrites the entries that the factor overwrites)
        factor_and_invert(M, lam, end, T[14], T[15], Minv, nl)
        statuses(m, q, none, none, b0, T[14], STATUS)
        store_symmetric(Minv, b0, OUT)


@lanes
def factor_and_invert(M, lam, end, singular, l, Minv, nl):
    """``M = L^T D L`` factored in place (:func:`ltdl`, its lower triangle; ``singular`` flags the lanes, ``l``
    ``(W,)`` scratch), then the upper triangle of ``Minv`` from it (:func:`minverse_from_factor`); ``nl`` the lane
    count ``W`` as a run-time value (:func:`lane_count`)."""
    M, lam, end, singular, l, Minv = borrowed(M), borrowed(lam), borrowed(end), borrowed(singular), borrowed(l), \
        borrowed(Minv)
    for w in range(W):
        singular[w] = 0.0
    ltdl(M, lam, singular, l, nl)
    minverse_from_factor(M, lam, end, Minv, nl)
