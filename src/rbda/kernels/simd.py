"""Batched kernels at SIMD width: blocks of ``W`` states laid out as structures of arrays, the state index innermost.

The per-state batched kernels (``kernels/batch.py``) run one state after another; here a block of ``W`` states
runs the algorithm together: every quantity of a joint is stored with the lane (state of the block) last,
``v[i, k, w]``, and each step of the textbook table is one loop over the lanes with scalar temporaries, which
LLVM turns into vector instructions (``W`` doubles: one AVX-512 register, two AVX2 ones). ``prange`` runs over
contiguous chunks of blocks, one chunk per thread, each with its own block workspace (a few tens of KB: L1/L2).

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
from numba import njit, prange
from numba.core.compiler import CompilerBase, DefaultPassBuilder

from ..joints.dispatch import FREE_FLYER, PRISMATIC, REVOLUTE
from .checks import NORMALIZATION_TOL
from .layout import model_views
from .views import borrowed

W = 8  # lanes per block: 8 doubles, a multiple of every x86/ARM vector width


class NoAliasCompiler(CompilerBase):
    """numba's nopython pipeline with the array arguments marked ``noalias`` (numba's own flag, which it sets for
    its parallel loop bodies). Without it LLVM guards each lane loop with run-time overlap checks between every
    pair of rows it reads and writes, and takes the vector path only from 72 lanes on (measured: 4.2 ns a lane
    for ``act_inv`` at 8 lanes, 0.9 ns with it). The lane helpers below are called on distinct arrays or rows."""

    def define_pipelines(self):
        self.state.flags.noalias = True
        return [DefaultPassBuilder.define_nopython_pipeline(self.state)]


lanes = njit(cache=True, forceinline=True, pipeline_class=NoAliasCompiler)


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


# ---------------------------------------------------------------------------------------------- RNEA
@njit(cache=True, parallel=True)
def rnea(I, F, nchunks, Q, V, A, OUT, STATUS):
    """``OUT[b] = rnea(Q[b], V[b], A[b])`` and ``STATUS[b]`` its input status, ``W`` states at a time: ``nchunks``
    contiguous runs of blocks, one per thread (:func:`rnea_chunk`)."""
    nblocks = (Q.shape[0] + W - 1) // W
    for c in prange(nchunks):
        rnea_chunk(I, F, Q, V, A, OUT, STATUS, c * nblocks // nchunks, (c + 1) * nblocks // nchunks)


@njit(cache=True)
def rnea_chunk(I, F, Q, V, A, OUT, STATUS, first, last):
    """The blocks ``first .. last - 1`` of the batch, with their own block arrays (:func:`rnea_block`)."""
    I, F, Q, V, A, OUT, STATUS = borrowed(I), borrowed(F), borrowed(Q), borrowed(V), borrowed(A), borrowed(OUT), \
        borrowed(STATUS)
    nj, nq, nv = I[0], I[1], I[2]
    q, qd, qdd, tau = np.empty((nq, W)), np.empty((nv, W)), np.empty((nv, W)), np.empty((nv, W))
    R, p = np.empty((nj, 3, 3, W)), np.empty((nj, 3, W))
    v, a, f = np.zeros((nj, 6, W)), np.empty((nj, 6, W)), np.empty((nj, 6, W))
    T, S = np.empty((14, W)), np.empty((6, 6))
    for blk in range(first, last):
        b0 = blk * W
        load(Q, b0, q)
        load(V, b0, qd)
        load(A, b0, qdd)
        rnea_block(I, F, q, qd, qdd, R, p, v, a, f, T, S, tau)
        store(I, F, q, qd, qdd, b0, tau, OUT, STATUS)


@njit(cache=True, pipeline_class=NoAliasCompiler)
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


@njit(cache=True)
def store(I, F, q, x, y, b0, out, OUT, STATUS):
    """``OUT[b0 + w] = out[:, w]`` for the block's states in the batch, with the input status of each (from the
    block's inputs ``q, x, y``)."""
    m = model_views(borrowed(I), borrowed(F))
    q, x, y, out, OUT, STATUS = borrowed(q), borrowed(x), borrowed(y), borrowed(out), borrowed(OUT), borrowed(STATUS)
    for w in range(min(W, OUT.shape[0] - b0)):
        b = b0 + w
        STATUS[b] = state_status(m, q, x, y, w)
        for k in range(out.shape[0]):
            OUT[b, k] = out[k, w]
