"""Compiled (numba) spatial operations on flat arrays, for the kernels' hot path.

Each helper writes into an ``out`` argument and allocates nothing, so an algorithm kernel can apply one spatial
operation per line and still read like its textbook table. Conventions are those of the classes in this package:
spatial vectors ``[linear; angular]``; a placement ``aMb`` is a pair ``(R, p)`` with ``p_A = R p_B + p``.
Inertias in the world-convention algorithms are the 10 linear parameters ``(m, h = m c, I_o)`` about the frame
origin, stored as ``Y[0] = m``, ``Y[1:4] = h``, ``Y[4:13] = I_o`` (3x3 row-major).
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

SERIES_ANGLE = 0.1  # below this angle, coefficients that suffer cancellation use their Taylor series


# ------------------------------------------------------------------------------------------------ SO(3) coefficients
@njit(cache=True)
def sin_over_t(t):
    """``sin(t) / t``."""
    return np.sin(t) / t if t != 0.0 else 1.0


@njit(cache=True)
def one_minus_cos_over_t2(t):
    """``(1 - cos t) / t^2``, written ``2 sin^2(t/2) / t^2`` to avoid cancellation."""
    return 0.5 * sin_over_t(0.5 * t) ** 2


@njit(cache=True)
def t_minus_sin_over_t3(t):
    """``(t - sin t) / t^3``."""
    if t < SERIES_ANGLE:
        t2 = t * t
        return 1 / 6 - t2 * (1 / 120 - t2 * (1 / 5040 - t2 * (1 / 362880 - t2 / 39916800)))
    return (t - np.sin(t)) / t**3


@njit(cache=True)
def jlog_coefficient(t):
    """``1/t^2 - (1 + cos t) / (2 t sin t)``: the ``w_x^2`` coefficient of ``Jexp3(w)^-1`` (finite at pi)."""
    if t < SERIES_ANGLE:
        t2 = t * t
        return 1 / 12 + t2 * (1 / 720 + t2 * (1 / 30240 + t2 / 1209600))
    half = 0.5 * t
    return 1.0 / (t * t) - np.cos(half) / (2.0 * t * np.sin(half))


@njit(cache=True, forceinline=True)
def axis_rotation_entries(a, c, s):
    """The entries, row by row, of ``R = I + s a_x + (1 - c) a_x^2``: the rotation about the unit axis ``a`` with
    ``c = cos q``, ``s = sin q``."""
    x, y, z = a[0], a[1], a[2]
    t = 1.0 - c
    return (c + t * x * x, t * x * y - s * z, t * x * z + s * y,
            t * x * y + s * z, c + t * y * y, t * y * z - s * x,
            t * x * z - s * y, t * y * z + s * x, c + t * z * z)


@njit(cache=True, forceinline=True)
def axis_rotation(a, c, s, R):
    """``R = I + s a_x + (1 - c) a_x^2`` (:func:`axis_rotation_entries`) into ``R`` (3, 3)."""
    R[0, 0], R[0, 1], R[0, 2], R[1, 0], R[1, 1], R[1, 2], R[2, 0], R[2, 1], R[2, 2] = axis_rotation_entries(a, c, s)


@njit(cache=True, forceinline=True)
def placed_axis_rotation(P, a, c, s, out):
    """``out = P * (R, 0)`` for a placement ``P`` ``[R_P | p]`` ``(3, 4)`` and the rotation ``R`` of
    :func:`axis_rotation`: ``[R_P R | p]``, the products of :func:`se3_compose` less those with a zero translation."""
    r00, r01, r02, r10, r11, r12, r20, r21, r22 = axis_rotation_entries(a, c, s)
    for r in range(3):
        p0, p1, p2, p3 = P[r, 0], P[r, 1], P[r, 2], P[r, 3]
        out[r, 0] = p0 * r00 + p1 * r10 + p2 * r20
        out[r, 1] = p0 * r01 + p1 * r11 + p2 * r21
        out[r, 2] = p0 * r02 + p1 * r12 + p2 * r22
        out[r, 3] = p3


@njit(cache=True)
def quat_mul(a, b, out):
    """Hamilton product ``out = a * b`` of ``[x, y, z, w]`` quaternions (``out`` may not alias ``a`` or ``b``)."""
    out[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1]
    out[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0]
    out[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3]
    out[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2]


@njit(cache=True)
def quat_exp(w, out):
    """Unit quaternion of the rotation vector ``w``: ``[sin(t/2) w/t, cos(t/2)]``, ``t = |w|``."""
    t = np.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
    half = 0.5 * t
    k = 0.5 - t * t / 48.0 if t < 1e-4 else np.sin(half) / t  # sin(t/2)/t, series below 1e-4
    out[0], out[1], out[2], out[3] = k * w[0], k * w[1], k * w[2], np.cos(half)


@njit(cache=True)
def quat_log(q, out):
    """Rotation vector (angle in [0, pi]) of the unit quaternion ``q``."""
    s = np.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2])
    w = q[3]
    sign = 1.0 if w >= 0.0 else -1.0
    half = np.arctan2(s, sign * w)
    k = 2.0 * sign * (half / s if s > 1e-12 else 1.0 / (sign * w))
    out[0], out[1], out[2] = k * q[0], k * q[1], k * q[2]


@njit(cache=True)
def quat_normalize(q):
    """In place ``q = q / |q|``."""
    n = np.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3])
    for k in range(4):
        q[k] /= n


@njit(cache=True, forceinline=True)
def rotation_entries(x, y, z, w):
    """The entries of the rotation matrix of the unit quaternion ``[x, y, z, w]``, row by row (nine scalars)."""
    return (1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w),
            2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w),
            2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y))


@njit(cache=True, forceinline=True)
def quat_rotation(q, R):
    """Rotation matrix of the unit quaternion ``q = [x, y, z, w]``."""
    (R[0, 0], R[0, 1], R[0, 2], R[1, 0], R[1, 1], R[1, 2],
     R[2, 0], R[2, 1], R[2, 2]) = rotation_entries(q[0], q[1], q[2], q[3])


@njit(cache=True, forceinline=True)
def se3_compose(A, B, out):
    """``out = A * B`` for placements stored as ``(3, 4)`` arrays ``[R | p]``. ``B`` and each row of ``A`` are read
    before ``out`` is written: the compiler cannot tell that ``out`` is another array, and would read them again
    after every store."""
    b00, b01, b02, b03 = B[0, 0], B[0, 1], B[0, 2], B[0, 3]
    b10, b11, b12, b13 = B[1, 0], B[1, 1], B[1, 2], B[1, 3]
    b20, b21, b22, b23 = B[2, 0], B[2, 1], B[2, 2], B[2, 3]
    for r in range(3):
        a0, a1, a2, a3 = A[r, 0], A[r, 1], A[r, 2], A[r, 3]
        out[r, 0] = a0 * b00 + a1 * b10 + a2 * b20
        out[r, 1] = a0 * b01 + a1 * b11 + a2 * b21
        out[r, 2] = a0 * b02 + a1 * b12 + a2 * b22
        out[r, 3] = a0 * b03 + a1 * b13 + a2 * b23 + a3


# A motion [v; w] and a force [f; tau] move alike, with their halves' roles swapped (the duality of crm and crf):
# one half only rotates (w, f), the other rotates and gains p x that half (v, tau). ``rotated``, ``shifted``: the
# offsets (0 or 3) of the two halves in the 6-vector.
@njit(cache=True, forceinline=True)
def act_halves(M, x, out, rotated, shifted):
    """``out[rotated:] = R x[rotated:]``, ``out[shifted:] = R x[shifted:] + p x out[rotated:]`` (3 entries each)."""
    for r in range(3):
        out[rotated + r] = M[r, 0] * x[rotated] + M[r, 1] * x[rotated + 1] + M[r, 2] * x[rotated + 2]
        out[shifted + r] = M[r, 0] * x[shifted] + M[r, 1] * x[shifted + 1] + M[r, 2] * x[shifted + 2]
    px, py, pz = M[0, 3], M[1, 3], M[2, 3]
    ax, ay, az = out[rotated], out[rotated + 1], out[rotated + 2]
    out[shifted] += py * az - pz * ay
    out[shifted + 1] += pz * ax - px * az
    out[shifted + 2] += px * ay - py * ax


@njit(cache=True, forceinline=True)
def act_inv_halves(M, x, out, rotated, shifted):
    """The inverse of :func:`act_halves`: ``out[rotated:] = R^T x[rotated:]``, ``out[shifted:] = R^T (x[shifted:] -
    p x x[rotated:])``."""
    px, py, pz = M[0, 3], M[1, 3], M[2, 3]
    a0, a1, a2 = x[rotated], x[rotated + 1], x[rotated + 2]
    sx = x[shifted] - (py * a2 - pz * a1)
    sy = x[shifted + 1] - (pz * a0 - px * a2)
    sz = x[shifted + 2] - (px * a1 - py * a0)
    for c in range(3):
        out[shifted + c] = M[0, c] * sx + M[1, c] * sy + M[2, c] * sz
        out[rotated + c] = M[0, c] * a0 + M[1, c] * a1 + M[2, c] * a2


@njit(cache=True, forceinline=True)
def motion_act(M, m, out):
    """``out = aXb m``: ``w' = R w``, ``v' = R v + p x w'`` (``M`` is ``[R | p]``, ``(3, 4)``)."""
    act_halves(M, m, out, 3, 0)


@njit(cache=True, forceinline=True)
def force_act(M, f, out):
    """``out = aXb* f``: ``f' = R f``, ``tau' = R tau + p x f'``; ``phi . nu`` is kept:
    ``(aXb* f) . (aXb m) = f . m``."""
    act_halves(M, f, out, 0, 3)


@njit(cache=True, forceinline=True)
def motion_act_inv(M, m, out):
    """``out = aXb^-1 m``: ``w' = R^T w``, ``v' = R^T (v - p x w)``."""
    act_inv_halves(M, m, out, 3, 0)


@njit(cache=True, forceinline=True)
def force_act_inv(M, f, out):
    """``out = aXb^-* f``: ``f' = R^T f``, ``tau' = R^T (tau - p x f)``; the dual of :func:`motion_act_inv`, as
    :func:`force_act` is of :func:`motion_act`."""
    act_inv_halves(M, f, out, 0, 3)


@njit(cache=True, forceinline=True)
def motion_cross(a, b, out):
    """``out = a x b`` (motion x motion): ``[v_a x w_b + w_a x v_b; w_a x w_b]``."""
    o0 = a[1] * b[5] - a[2] * b[4] + a[4] * b[2] - a[5] * b[1]
    o1 = a[2] * b[3] - a[0] * b[5] + a[5] * b[0] - a[3] * b[2]
    o2 = a[0] * b[4] - a[1] * b[3] + a[3] * b[1] - a[4] * b[0]
    o3 = a[4] * b[5] - a[5] * b[4]
    o4 = a[5] * b[3] - a[3] * b[5]
    o5 = a[3] * b[4] - a[4] * b[3]
    out[0], out[1], out[2], out[3], out[4], out[5] = o0, o1, o2, o3, o4, o5


@njit(cache=True, forceinline=True)
def force_cross(m, f, out):
    """``out = m x* f`` (motion x force): ``[w x f; w x tau + v x f]``."""
    o0 = m[4] * f[2] - m[5] * f[1]
    o1 = m[5] * f[0] - m[3] * f[2]
    o2 = m[3] * f[1] - m[4] * f[0]
    o3 = m[4] * f[5] - m[5] * f[4] + m[1] * f[2] - m[2] * f[1]
    o4 = m[5] * f[3] - m[3] * f[5] + m[2] * f[0] - m[0] * f[2]
    o5 = m[3] * f[4] - m[4] * f[3] + m[0] * f[1] - m[1] * f[0]
    out[0], out[1], out[2], out[3], out[4], out[5] = o0, o1, o2, o3, o4, o5


@njit(cache=True, forceinline=True)
def inertia_apply(Y, m, out):
    """``out = Y m`` for ``Y = (m, h, I_o)``: ``f = m v - h x w``, ``tau = h x v + I_o w``."""
    mass, hx, hy, hz = Y[0], Y[1], Y[2], Y[3]
    v0, v1, v2, w0, w1, w2 = m[0], m[1], m[2], m[3], m[4], m[5]
    out[0] = mass * v0 - (hy * w2 - hz * w1)
    out[1] = mass * v1 - (hz * w0 - hx * w2)
    out[2] = mass * v2 - (hx * w1 - hy * w0)
    out[3] = hy * v2 - hz * v1 + Y[4] * w0 + Y[5] * w1 + Y[6] * w2
    out[4] = hz * v0 - hx * v2 + Y[7] * w0 + Y[8] * w1 + Y[9] * w2
    out[5] = hx * v1 - hy * v0 + Y[10] * w0 + Y[11] * w1 + Y[12] * w2


@njit(cache=True, forceinline=True)
def inertia_act(M, Y, out):
    """``out = aMb.act(Y)`` for ``Y = (m, h, I_o)`` about B's origin: ``h' = R h + m p`` and
    ``I_o' = R I_o R^T - (R h)_x p_x - p_x (R h)_x - m p_x p_x`` (parallel axes, Pinocchio's cheat sheet "Inertia")."""
    mass = Y[0]
    Rh = (
        M[0, 0] * Y[1] + M[0, 1] * Y[2] + M[0, 2] * Y[3],
        M[1, 0] * Y[1] + M[1, 1] * Y[2] + M[1, 2] * Y[3],
        M[2, 0] * Y[1] + M[2, 1] * Y[2] + M[2, 2] * Y[3],
    )
    px, py, pz = M[0, 3], M[1, 3], M[2, 3]
    out[0] = mass
    out[1] = Rh[0] + mass * px
    out[2] = Rh[1] + mass * py
    out[3] = Rh[2] + mass * pz
    # rotate: R I_o R^T
    for r in range(3):
        for c in range(3):
            acc = 0.0
            for k in range(3):
                acc += M[r, k] * (Y[4 + 3 * k] * M[c, 0] + Y[5 + 3 * k] * M[c, 1] + Y[6 + 3 * k] * M[c, 2])
            out[4 + 3 * r + c] = acc
    # shift the origin by p: I_o' += -(p_x (R h)_x + (R h)_x p_x) - m p_x p_x, with a_x b_x = b a^T - (a.b) I
    p = (px, py, pz)
    hp = Rh[0] * px + Rh[1] * py + Rh[2] * pz
    pp = px * px + py * py + pz * pz
    for r in range(3):
        for c in range(3):
            delta = -(Rh[r] * p[c] + p[r] * Rh[c]) - mass * p[r] * p[c]
            if r == c:
                delta += 2.0 * hp + mass * pp
            out[4 + 3 * r + c] += delta


@njit(cache=True, forceinline=True)
def inertia_to_matrix(Y, out):
    """``(6, 6)`` matrix of ``Y = (m, h, I_o)``: ``[[m 1, -h_x], [h_x, I_o]]``."""
    mass, hx, hy, hz = Y[0], Y[1], Y[2], Y[3]
    for r in range(6):
        for c in range(6):
            out[r, c] = 0.0
    out[0, 0] = out[1, 1] = out[2, 2] = mass
    out[0, 4] = out[4, 0] = hz  # -h_x above, h_x below the diagonal: the same entries, mirrored
    out[0, 5] = out[5, 0] = -hy
    out[1, 3] = out[3, 1] = -hz
    out[1, 5] = out[5, 1] = hx
    out[2, 3] = out[3, 2] = hy
    out[2, 4] = out[4, 2] = -hx
    for r in range(3):
        for c in range(3):
            out[3 + r, 3 + c] = Y[4 + 3 * r + c]


@njit(cache=True, forceinline=True)
def dot6(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] + a[4] * b[4] + a[5] * b[5]


# ---------------------------------------------------------------------------------------------- 6x6 blocks
@njit(cache=True, forceinline=True)
def matvec6(A, x, out):
    """``out = A x`` for a 6x6 ``A``."""
    for r in range(6):
        out[r] = A[r, 0] * x[0] + A[r, 1] * x[1] + A[r, 2] * x[2] + A[r, 3] * x[3] + A[r, 4] * x[4] + A[r, 5] * x[5]


@njit(cache=True, forceinline=True)
def matvec6_transpose(A, x, out):
    """``out = A^T x`` for a 6x6 ``A``."""
    for c in range(6):
        out[c] = A[0, c] * x[0] + A[1, c] * x[1] + A[2, c] * x[2] + A[3, c] * x[3] + A[4, c] * x[4] + A[5, c] * x[5]


@njit(cache=True, forceinline=True)
def matvec6_add(A, x, out, transpose):
    """``out += A x`` (or ``A^T x``) for a 6x6 ``A``."""
    for r in range(6):
        acc = 0.0
        for k in range(6):
            acc += (A[k, r] if transpose else A[r, k]) * x[k]
        out[r] += acc


@njit(cache=True, forceinline=True)
def add6(out, x):
    """``out += x`` for 6-vectors (or 6x6 blocks, row by row)."""
    for r in range(out.shape[0]):
        out[r] += x[r]


@njit(cache=True, forceinline=True)
def add6_to(a, b, out):
    """``out = a + b`` for 6-vectors."""
    for k in range(6):
        out[k] = a[k] + b[k]


@njit(cache=True, forceinline=True)
def axpy6(alpha, x, out):
    """``out += alpha x`` for 6-vectors."""
    for k in range(6):
        out[k] += alpha * x[k]


@njit(cache=True, forceinline=True)
def motion_act_add(M, m, out):
    """``out += M.act(m)`` for a placement ``M`` (3, 4) and a motion ``m``."""
    R, p = M[:, :3], M[:, 3]
    w0 = R[0, 0] * m[3] + R[0, 1] * m[4] + R[0, 2] * m[5]
    w1 = R[1, 0] * m[3] + R[1, 1] * m[4] + R[1, 2] * m[5]
    w2 = R[2, 0] * m[3] + R[2, 1] * m[4] + R[2, 2] * m[5]
    out[0] += R[0, 0] * m[0] + R[0, 1] * m[1] + R[0, 2] * m[2] + p[1] * w2 - p[2] * w1
    out[1] += R[1, 0] * m[0] + R[1, 1] * m[1] + R[1, 2] * m[2] + p[2] * w0 - p[0] * w2
    out[2] += R[2, 0] * m[0] + R[2, 1] * m[1] + R[2, 2] * m[2] + p[0] * w1 - p[1] * w0
    out[3] += w0
    out[4] += w1
    out[5] += w2


@njit(cache=True, forceinline=True)
def add6x6(out, A):
    """``out += A`` for 6x6 blocks."""
    for r in range(6):
        for c in range(6):
            out[r, c] += A[r, c]


@njit(cache=True, forceinline=True)
def gram(X, Y, out):
    """``out = X Y^T`` ``(n, n)`` for row stacks ``X``, ``Y`` ``(n, 6)`` (``S^T U`` when the rows are the columns of
    ``S`` and ``U``)."""
    for a in range(X.shape[0]):
        for b in range(Y.shape[0]):
            out[a, b] = dot6(X[a], Y[b])


@njit(cache=True, forceinline=True)
def subtract_outer6(A, X, Y):
    """``A -= X^T Y`` for a 6x6 ``A`` and row stacks ``X``, ``Y`` ``(n, 6)`` (``A -= U D^-1 U^T`` with ``X`` the
    columns of ``U D^-1`` and ``Y`` those of ``U``)."""
    for r in range(6):
        for c in range(6):
            acc = 0.0
            for b in range(X.shape[0]):
                acc += X[b, r] * Y[b, c]
            A[r, c] -= acc


@njit(cache=True, forceinline=True)
def combine_rows(C, X, out):
    """``out[a] = sum_b C[b, a] X[b]``: the columns of ``U C`` as rows, for ``X`` the columns of ``U`` as rows
    ``(n, 6)`` and ``C`` ``(n, n)``."""
    for a in range(X.shape[0]):
        for r in range(6):
            acc = 0.0
            for b in range(X.shape[0]):
                acc += X[b, r] * C[b, a]
            out[a, r] = acc


@njit(cache=True, forceinline=True)
def velocity_variation(Y, ov, h, B, e, t):
    """``B = ov x* Y - Y ov x + (. x* h)`` for a symmetric 6x6 ``Y`` and ``h = Y ov``: ``d/dt (Y x) = Y dx/dt + B x``.
    As ``-Y (ov x) = (ov x* Y)^T`` for a symmetric ``Y``, ``B = P + P^T + (. x* h)`` with ``P = ov x* Y``, whose
    columns are force cross products (``e``, ``t`` (6,) scratch)."""
    for c in range(6):
        for x in range(6):
            e[x] = 1.0 if x == c else 0.0
        force_cross(e, h, t)
        for x in range(6):
            B[x, c] = t[x]
    for c in range(6):
        force_cross(ov, Y[:, c], t)
        for x in range(6):
            B[x, c] += t[x]
            B[c, x] += t[x]
