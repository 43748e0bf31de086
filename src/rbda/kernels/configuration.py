"""Compiled configuration-space operations, joint by joint on the joints' Lie groups, and their Jacobians.

The Jacobians of ``integrate`` and ``difference`` are block-diagonal, one block per joint: the identity (negated
for ``d difference / d q0``) on a vector space, and on a Lie-group joint (spherical SO(3), planar SE(2),
free-flyer SE(3): subgroups of SE(3) whose constant ``S`` selects axes of ``[v; w]``) the SE(3) Jacobians at the
joint's twist ``nu`` restricted to those axes (``joints/base.py``, ``SE3SubgroupJoint``):

    d integrate(q, v) / dq  = Ad(exp nu)^-1,      d integrate(q, v) / dv  = Jr(nu),       nu = S v
    d difference(q0, q1) / dq0 = -Jr(-nu)^-1,    d difference(q0, q1) / dq1 = Jr(nu)^-1,  nu = log(M0^-1 M1)

with ``Jr`` the right Jacobian of ``exp6`` (``spatial/se3.py``, ``Jexp6``); ``-Jlog6(M) Ad(M)^-1 = -Jr(-nu)^-1``
since ``Jr(-nu) = Ad(exp nu) Jr(nu)``. Every so(3) map involved has the form ``1 + a w_x + b w_x^2``.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..joints.dispatch import COMPOSITE, FREE_FLYER, PLANAR, PRISMATIC, REVOLUTE, SPHERICAL
from ..joints.dispatch import joint_difference, joint_integrate, joint_neutral, joint_normalize
from ..spatial.compiled import jlog_coefficient, one_minus_cos_over_t2, sin_over_t, t_minus_sin_over_t3
from .checks import all_finite, configuration_status
from ..model.layout import model_views
from .mimic import model_coordinates
from .._native.views import borrowed, view


@njit(cache=True, forceinline=True)
def leaf_table(types, nqs, nvs, sub_types, sub_nqs, sub_nvs, sub_first, sub_count, i):
    """``(types, nqs, nvs, first, count)``: the rows ``first .. first + count - 1`` of the joint table that hold
    joint i, or of the sub-joint table if it is composite; their coordinates follow each other from
    ``idx_q[i]``, ``idx_v[i]``. (Arrays, not the model views: a helper taking those costs ~60 ns a joint.)"""
    if types[i] == COMPOSITE:
        return sub_types, sub_nqs, sub_nvs, sub_first[i], sub_count[i]
    return types, nqs, nvs, i, 1


@njit(cache=True, inline="always")
def joint_rows(m, i):
    """``(types, nqs, nvs, first, count, iq, iv, own)``: joint ``i``'s rows of the joint table (:func:`leaf_table`),
    where its coordinates start in the model's ``q`` and ``v``, and whether it has coordinates of its own (a mimic
    joint has none: the configuration kernels skip it). Inlined into each loop over the joints."""
    types, nqs, nvs, first, count = leaf_table(m.types, m.nqs, m.nvs, m.sub_types, m.sub_nqs, m.sub_nvs,
                                               m.sub_first, m.sub_count, i)
    iq, iv, own = m.idx_q[i], m.idx_v[i], True
    if m.nq_mimic:
        iq, iv, mimic = model_coordinates(m, i)
        own = not mimic
    return types, nqs, nvs, first, count, iq, iv, own


@njit(cache=True)
def integrate(I, F, q, v, out):
    """``out = q (+) v``; status 1 (q), 2 (q off the manifold) or 3 (v) on bad input."""
    m = model_views(borrowed(I), borrowed(F))  # borrowed: no reference counting on the views
    status = configuration_status(m, q)
    if status == 0 and not all_finite(v):
        status = 3
    if status:
        return status
    for i in range(1, m.nj):
        types, nqs, nvs, first, count, iq, iv, own = joint_rows(m, i)
        if not own:  # a mimic joint
            continue
        for k in range(first, first + count):
            if types[k] == REVOLUTE or types[k] == PRISMATIC:  # most joints: inlined, a call costs more
                out[iq] = q[iq] + v[iv]
            else:
                joint_integrate(types[k], q[iq : iq + nqs[k]], v[iv : iv + nvs[k]], out[iq : iq + nqs[k]])
            iq, iv = iq + nqs[k], iv + nvs[k]
    return 0


@njit(cache=True)
def difference(I, F, q0, q1, out):
    """``out = q1 (-) q0``; status codes for ``q0`` (1, 2) and ``q1`` (3, 4)."""
    m = model_views(borrowed(I), borrowed(F))  # borrowed: no reference counting on the views
    status = configuration_status(m, q0)
    if status:
        return status
    status = configuration_status(m, q1)
    if status:
        return status + 2
    for i in range(1, m.nj):
        types, nqs, nvs, first, count, iq, iv, own = joint_rows(m, i)
        if not own:  # a mimic joint
            continue
        for k in range(first, first + count):
            if types[k] == REVOLUTE or types[k] == PRISMATIC:
                out[iv] = q1[iq] - q0[iq]
            else:
                joint_difference(types[k], q0[iq : iq + nqs[k]], q1[iq : iq + nqs[k]], out[iv : iv + nvs[k]])
            iq, iv = iq + nqs[k], iv + nvs[k]
    return 0


@njit(cache=True)
def neutral(I, F, out):
    """``out`` = the neutral configuration ``(nq,)``."""
    each_joint_configuration(I, F, out, False)


@njit(cache=True)
def normalize(I, F, q):
    """Project ``q`` onto the manifold in place."""
    each_joint_configuration(I, F, q, True)


@njit(cache=True)
def each_joint_configuration(I, F, q, project):
    """Joint by joint: ``q``'s coordinates projected onto the joint's manifold in place if ``project``, else set to
    the joint's neutral configuration."""
    m = model_views(borrowed(I), borrowed(F))  # borrowed: no reference counting on the views
    for i in range(1, m.nj):
        types, nqs, _, first, count, iq, _, own = joint_rows(m, i)
        if not own:  # a mimic joint
            continue
        for k in range(first, first + count):
            if project:
                joint_normalize(types[k], q[iq : iq + nqs[k]])
            else:
                joint_neutral(types[k], q[iq : iq + nqs[k]])
            iq += nqs[k]


@njit(cache=True)
def normalized(I, F, q, out):
    """``out = q`` projected onto the manifold; status 1 if ``q`` is not finite."""
    if not all_finite(q):
        return 1
    out[:] = q
    normalize(I, F, out)
    return 0


@njit(cache=True)
def is_normalized(I, F, q, prec, work, out):
    """``out[0] = 1`` if every unit-norm part of ``q`` has norm 1 to ``prec`` (each entry of ``q`` within ``prec``
    of its projection onto the manifold, computed in ``work (nq,)``), else 0; status 1 if ``q`` is not finite."""
    status = normalized(I, F, q, work)
    if status:
        return status
    out[0] = 1.0
    for k in range(q.shape[0]):
        if not abs(work[k] - q[k]) <= prec:
            out[0] = 0.0
    return 0


@njit(cache=True)
def interpolate(I, F, q0, q1, alpha, d, out):
    """``out = q0 (+) alpha (q1 (-) q0)``, the difference in ``d (nv,)``; the statuses of :func:`difference`, or 5
    if ``alpha`` times it is not finite."""
    status = difference(I, F, q0, q1, d)
    if status:
        return status
    for k in range(d.shape[0]):
        d[k] *= alpha
    return 5 if integrate(I, F, q0, d, out) else 0


@njit(cache=True)
def squared_distance(I, F, q0, q1, d, out):
    """``out[i - 1]``: the squared norm of joint i's part of ``d = difference(q0, q1) (nv,)``, ``out (njoints - 1,)``
    (0 for a mimic joint, which has no coordinate of its own); the statuses of :func:`difference`."""
    status = difference(I, F, q0, q1, d)
    if status:
        return status
    m = model_views(borrowed(I), borrowed(F))  # borrowed: no reference counting on the views
    for i in range(1, m.nj):
        iv, n = m.idx_v[i], m.nvs[i]
        if m.nq_mimic:
            _, iv, mimic = model_coordinates(m, i)
            if mimic:
                n = 0
        total = 0.0
        for k in range(iv, iv + n):
            total += d[k] * d[k]
        out[i - 1] = total
    return 0


@njit(cache=True)
def distance(I, F, q0, q1, d, out):
    """``out[0] = |d|``, ``d = difference(q0, q1) (nv,)``; the statuses of :func:`difference`."""
    status = difference(I, F, q0, q1, d)
    if status:
        return status
    total = 0.0
    for k in range(d.shape[0]):
        total += d[k] * d[k]
    out[0] = np.sqrt(total)
    return 0


@njit(cache=True)
def is_same_configuration(I, F, q0, q1, prec, d, out):
    """``out[0] = 1`` if every entry of ``d = difference(q0, q1) (nv,)`` is within ``prec`` of 0, else 0; the
    statuses of :func:`difference`."""
    status = difference(I, F, q0, q1, d)
    if status:
        return status
    out[0] = 1.0
    for k in range(d.shape[0]):
        if not abs(d[k]) <= prec:
            out[0] = 0.0
    return 0


# ------------------------------------------------------------------------------------------ Jacobians
INTEGRATE_Q, INTEGRATE_V, DIFFERENCE_Q0, DIFFERENCE_Q1 = 0, 1, 2, 3  # which Jacobian: 2 * difference + argument


@njit(cache=True, forceinline=True)
def so3_map(w, a, b, x0, x1, x2):
    """``(1 + a w_x + b w_x^2) x``: ``exp3(w)`` is ``(sin t / t, (1 - cos t) / t^2)``, its transpose negates ``a``,
    ``Jexp3(w)`` is ``(-(1 - cos t) / t^2, (t - sin t) / t^3)``, ``V(w)`` negates that ``a``, ``Jexp3(w)^-1`` is
    ``(1/2, jlog_coefficient(t))``."""
    c0, c1, c2 = w[1] * x2 - w[2] * x1, w[2] * x0 - w[0] * x2, w[0] * x1 - w[1] * x0
    d0, d1, d2 = w[1] * c2 - w[2] * c1, w[2] * c0 - w[0] * c2, w[0] * c1 - w[1] * c0
    return x0 + a * c0 + b * d0, x1 + a * c1 + b * d1, x2 + a * c2 + b * d2


@njit(cache=True, forceinline=True)
def cross(a, b0, b1, b2):
    return a[1] * b2 - a[2] * b1, a[2] * b0 - a[0] * b2, a[0] * b1 - a[1] * b0


@njit(cache=True, forceinline=True)
def alternating_series(t2, first):
    """``sum_k (-1)^k t^2k / (2k + first)!`` for ``t^2 = t2 <= 1`` (terms past k = 9 are below rounding)."""
    term = 1.0
    for j in range(2, first + 1):
        term /= j
    total = term
    for k in range(1, 10):
        term *= -t2 / ((2 * k + first - 1) * (2 * k + first))
        total += term
    return total


@njit(cache=True, forceinline=True)
def jexp_coupling(nu, s, t, x0, x1, x2):
    """``Q x``, ``Q`` the upper-right block of ``Jr(s nu) = [[Jexp3(s w), Q], [0, Jexp3(s w)]]`` (``s = +-1``,
    ``t = |w|``): with ``V = (-s v)_x``, ``W = (-s w)_x`` (Barfoot & Furgale 2014, as ``Jexp6``)
    ``Q = V/2 + c1 (WV + VW + WVW) + c2 (WWV + VWW - 3 WVW) - c3 (WVWW + WWVW)``."""
    a = (-s * nu[0], -s * nu[1], -s * nu[2])
    b = (-s * nu[3], -s * nu[4], -s * nu[5])
    t2 = t * t
    c1 = t_minus_sin_over_t3(t)
    if t < 1.0:
        c2 = alternating_series(t2, 4)
        c3 = 0.5 * (3.0 * alternating_series(t2, 5) - c2)
    else:
        c2 = (0.5 * t2 + np.cos(t) - 1.0) / (t2 * t2)
        c3 = 0.5 * ((1.0 - 0.5 * t2 - np.cos(t)) / (t2 * t2) - 3.0 * (t - np.sin(t) - t2 * t / 6.0) / (t2 * t2 * t))
    Vx = cross(a, x0, x1, x2)
    Wx = cross(b, x0, x1, x2)
    WVx = cross(b, *Vx)
    VWx = cross(a, *Wx)
    WVWx = cross(b, *VWx)
    WWVx = cross(b, *WVx)
    VWWx = cross(a, *cross(b, *Wx))
    WVWWx = cross(b, *VWWx)
    WWVWx = cross(b, *WVWx)
    return (0.5 * Vx[0] + c1 * (WVx[0] + VWx[0] + WVWx[0]) + c2 * (WWVx[0] + VWWx[0] - 3.0 * WVWx[0])
            - c3 * (WVWWx[0] + WWVWx[0]),
            0.5 * Vx[1] + c1 * (WVx[1] + VWx[1] + WVWx[1]) + c2 * (WWVx[1] + VWWx[1] - 3.0 * WVWx[1])
            - c3 * (WVWWx[1] + WWVWx[1]),
            0.5 * Vx[2] + c1 * (WVx[2] + VWx[2] + WVWx[2]) + c2 * (WWVx[2] + VWWx[2] - 3.0 * WVWx[2])
            - c3 * (WVWWx[2] + WWVWx[2]))


@njit(cache=True)
def se3_jacobian(kind, nu, X):
    """``X`` (6, 6) = the Jacobian ``kind`` at the twist ``nu = [v; w]`` (module docstring), column by column."""
    w = nu[3:6]
    t = np.sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2])
    B, C = one_minus_cos_over_t2(t), t_minus_sin_over_t3(t)
    p = so3_map(w, B, C, nu[0], nu[1], nu[2])  # translation of exp(nu)
    A, D = sin_over_t(t), jlog_coefficient(t)
    s = -1.0 if kind == DIFFERENCE_Q0 else 1.0
    for j in range(3):
        e0, e1, e2 = 1.0 if j == 0 else 0.0, 1.0 if j == 1 else 0.0, 1.0 if j == 2 else 0.0
        if kind == INTEGRATE_Q:  # Ad(exp nu)^-1 = [[R^T, -R^T p_x], [0, R^T]]
            d = so3_map(w, -A, B, e0, e1, e2)
            u = so3_map(w, -A, B, *cross(p, e0, e1, e2))
            u = (-u[0], -u[1], -u[2])
        elif kind == INTEGRATE_V:  # Jr(nu) = [[Jexp3, Q], [0, Jexp3]]
            d = so3_map(w, -B, C, e0, e1, e2)
            u = jexp_coupling(nu, 1.0, t, e0, e1, e2)
        else:  # Jr(s nu)^-1 = [[L, -L Q L], [0, L]], L = Jexp3(s w)^-1; times s (s = -1 for DIFFERENCE_Q0)
            d = so3_map(w, 0.5 * s, D, e0, e1, e2)
            u = so3_map(w, 0.5 * s, D, *jexp_coupling(nu, s, t, *d))
            u = (-s * u[0], -s * u[1], -s * u[2])
            d = (s * d[0], s * d[1], s * d[2])
        for r in range(3):
            X[r, j] = X[3 + r, 3 + j] = d[r]
            X[r, 3 + j] = u[r]
            X[3 + r, j] = 0.0


@njit(cache=True, forceinline=True)
def tangent_axes(code):
    """``(axes, n)``: the ``n`` axes of ``[v; w]`` that the constant ``S`` of a Lie-group joint selects, in order
    (``n = 0`` for a vector-space joint)."""
    if code == FREE_FLYER:
        return (0, 1, 2, 3, 4, 5), 6
    if code == SPHERICAL:
        return (3, 4, 5, 0, 0, 0), 3
    if code == PLANAR:
        return (0, 1, 5, 0, 0, 0), 3
    return (0, 0, 0, 0, 0, 0), 0


@njit(cache=True)
def joint_jacobian(code, tangent, kind, nu, X, out):
    """``out[:n, :n]``: the block of a Lie-group joint in the Jacobian ``kind`` at its tangent vector (``v``, or
    ``q1 (-) q0``); ``nu`` (6,) and ``X`` (6, 6) are scratch."""
    axes, n = tangent_axes(code)
    for k in range(6):
        nu[k] = 0.0
    for a in range(n):
        nu[axes[a]] = tangent[a]
    se3_jacobian(kind, nu, X)
    for r in range(n):
        for c in range(n):
            out[r, c] = X[axes[r], axes[c]]


@njit(cache=True, forceinline=True)
def place_block(block, n, iv, out):
    """``out[iv : iv + n, iv : iv + n] = block[:n, :n]``."""
    for r in range(n):
        for c in range(n):
            out[iv + r, iv + c] = block[r, c]


@njit(cache=True)
def configuration_jacobians(I, F, x, y, of_difference, arg, J0, J1, transport, J, JT):
    """The block-diagonal Jacobians of ``integrate(x, y)`` (``of_difference`` False) or ``difference(x, y)`` with
    respect to ``x`` and ``y``: into ``J0`` for ``arg`` 0, ``J1`` for ``arg`` 1, both for 2 ((nv, nv)
    each), or if ``transport`` (integrate only, ``arg`` 0 or 1) the product ``block(arg) @ J`` into ``JT``
    (nv, k), joint block by joint block.
    Returns the input status of :func:`integrate` or :func:`difference`."""
    m = model_views(borrowed(I), borrowed(F))  # borrowed: no reference counting on the views
    status = configuration_status(m, x)
    if status == 0 and of_difference:
        status = configuration_status(m, y)
        status = status + 2 if status else 0
    elif status == 0 and not all_finite(y):
        status = 3
    if status:
        return status
    for r in range(m.nv_red if not transport else 0):
        for c in range(m.nv_red):
            if arg != 1:
                J0[r, c] = 0.0
            if arg != 0:
                J1[r, c] = 0.0
    scratch = np.empty(84)
    nu, tangent, X, block = scratch[0:6], scratch[6:12], view(scratch, 12, (6, 6)), view(scratch, 48, (6, 6))
    for i in range(1, m.nj):
        types, nqs, nvs, first, count, iq, iv, own = joint_rows(m, i)
        if not own:  # a mimic joint
            continue
        for k in range(first, first + count):
            n = nvs[k]
            lie = tangent_axes(types[k])[1] > 0
            if not lie:  # vector space: -1 (d difference / d q0) or 1 on the diagonal; transport copies J's rows
                for r in range(iv, iv + n):
                    for c in range(J.shape[1] if transport else 0):
                        JT[r, c] = J[r, c]
                    if arg != 1 and not transport:
                        J0[r, r] = -1.0 if of_difference else 1.0
                    if arg != 0 and not transport:
                        J1[r, r] = 1.0
                iq, iv = iq + nqs[k], iv + n
                continue
            if of_difference:
                joint_difference(types[k], x[iq : iq + nqs[k]], y[iq : iq + nqs[k]], tangent[:n])
            else:
                for r in range(n):
                    tangent[r] = y[iv + r]
            for a in range(1 if arg == 1 else 0, 1 if arg == 0 else 2):
                joint_jacobian(types[k], tangent, 2 * of_difference + a, nu, X, block)
                if not transport:
                    place_block(block, n, iv, J0 if a == 0 else J1)
                    continue
                for r in range(n):
                    for c in range(J.shape[1]):
                        acc = 0.0
                        for b in range(n):
                            acc += block[r, b] * J[iv + b, c]
                        JT[iv + r, c] = acc
            iq, iv = iq + nqs[k], iv + n
    return 0


@njit(cache=True)
def d_integrate(I, F, q, v, arg, J0, J1):
    """Jacobians of ``integrate(q, v)`` with respect to ``q`` into ``J0`` (``arg`` 0 or 2), to ``v`` into ``J1``
    (``arg`` 1 or 2), (nv, nv) each; status as :func:`integrate`."""
    return configuration_jacobians(I, F, q, v, False, arg, J0, J1, False, J0, J1)


@njit(cache=True)
def d_difference(I, F, q0, q1, arg, J0, J1):
    """Jacobians of ``difference(q0, q1)`` with respect to ``q0`` into ``J0`` (``arg`` 0 or 2), to ``q1`` into
    ``J1`` (``arg`` 1 or 2); status as :func:`difference`."""
    return configuration_jacobians(I, F, q0, q1, True, arg, J0, J1, False, J0, J1)


@njit(cache=True)
def d_integrate_transport(I, F, q, v, arg, J, out):
    """``out = d_integrate(q, v, arg) @ J`` for ``J`` (nv, k), joint block by joint block; the statuses of
    :func:`integrate`, or 5 if ``J`` is not finite."""
    for r in range(J.shape[0]):
        if not all_finite(J[r]):
            return 5
    return configuration_jacobians(I, F, q, v, False, arg, out, out, True, J, out)


# ------------------------------------------------------------------------------------------ batches
@njit(cache=True, nogil=True)
def batch_integrate(I, F, Q, V, OUT, STATUS, first, last):
    """``OUT[b] = Q[b] (+) V[b]`` for the states ``first .. last - 1`` of the batch (``rbda.batch``: a run per
    thread)."""
    for b in range(first, last):
        STATUS[b] = integrate(I, F, Q[b], V[b], OUT[b])


@njit(cache=True, nogil=True)
def batch_difference(I, F, Q0, Q1, OUT, STATUS, first, last):
    """``OUT[b] = Q1[b] (-) Q0[b]``."""
    for b in range(first, last):
        STATUS[b] = difference(I, F, Q0[b], Q1[b], OUT[b])


@njit(cache=True, nogil=True)
def batch_d_integrate(I, F, Q, V, arg, J0, J1, STATUS, first, last):
    """:func:`d_integrate` of each state into ``J0[b]``, ``J1[b]``."""
    for b in range(first, last):
        STATUS[b] = d_integrate(I, F, Q[b], V[b], arg, J0[b], J1[b])


@njit(cache=True, nogil=True)
def batch_d_difference(I, F, Q0, Q1, arg, J0, J1, STATUS, first, last):
    """:func:`d_difference` of each state into ``J0[b]``, ``J1[b]``."""
    for b in range(first, last):
        STATUS[b] = d_difference(I, F, Q0[b], Q1[b], arg, J0[b], J1[b])
