"""A free flyer's velocity-level time step in coordinates that create no energy.

A free flyer's ``v = [v; w]`` is expressed in its own frame, which turns at ``w``. Two things follow for a step
``v_next = v + dt a``, ``q_next = q (+) dt v_next`` in those coordinates:

- a body in free flight, whose velocity in the parent frame is constant, has the linear acceleration
  ``-w x v`` in its own frame, and one explicit step of it stretches ``|v|`` by ``sqrt(1 + |w|^2 dt^2)``;
- the SE(3) exponential of a rolling body's twist turns it about its contact point, which lowers its centre by
  ``r (1 - cos(|w| dt))``, and the contact's stabilisation pushes it out again.

Both create energy. The step therefore uses, for each free flyer, the velocity ``u = [R (v + w x c); w]``: the
velocity of its body's centre of mass ``c`` (in the joint frame) in the parent frame, and ``w``. With
``v = T u``, ``T = [[R^T, [c]x], [0, 1]]``: ``dT/dt u = [-w x (v + w x c); 0]``, so the equations
``M (T du/dt + dT/dt u) + nle = tau`` give, in the coordinates of the step's start (``T`` fixed over the step),

    v_free = v + dt M^-1 (tau - nle) + dt [w x (v + w x c); 0]                 (:func:`transport`)

and the contact impulses are added to it as before; then the centre of mass moves by ``dt R (v + w x c)`` (a
straight line), the orientation by ``exp3(dt w)``, and the linear velocity is expressed in the new frame
(:func:`advance`). Every other joint steps as ``q (+) dt v``.

The gyroscopic torque ``w x I_c w`` of a free body (in a model of free bodies only, whose ``M`` is each body's
own inertia) is taken by the implicit midpoint rule, ``I_c (w_1 - w_0) = dt (I_c w_m) x w_m + dt tau_c`` with
``w_m = (w_0 + w_1) / 2``, which keeps both the rotational energy and ``|I_c w|`` of a body in free flight
(``w_m . (I_c w_m x w_m) = 0``). Explicitly, the energy grows by ``dt^2 |I_c^-1 (w x I_c w)|^2_{I_c} / 2`` a step
(a box tumbling about its intermediate axis: 5 % in 10 s at ``dt = 1e-3``); linearly implicit,
``(I_c - dt [I_c w]x) w_1 = I_c w_0 + dt tau_c``, it never grows but decays by as much (9 % in the same 10 s).
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..joints.dispatch import FREE_FLYER
from ..spatial.compiled import quat_exp, quat_mul, quat_normalize, rotation_entries
from ..model.layout import model_views
from .._native.views import borrowed

MIDPOINT_ITERATIONS = 8  # Newton's, on a free body's gyroscopic step (it converges in 2 to 4)


@njit(cache=True, forceinline=True)
def centre_of_mass(Y):
    """``(m, c0, c1, c2)`` of a body inertia row ``(m, h, I_o)`` (``c = h / m``; 0 for a massless body)."""
    m = Y[0]
    if m <= 0.0:
        return m, 0.0, 0.0, 0.0
    return m, Y[1] / m, Y[2] / m, Y[3] / m


@njit(cache=True)
def transport(I, F, v, dt, free_bodies, v_free):
    """``v_free += dt [w x (v_lin + w x c); 0]`` on each free flyer's dofs (``v`` the velocity at the step's
    start); with ``free_bodies`` (a model of free bodies only), each body's gyroscopic torque made linearly
    implicit (see the module) where its dofs have no armature."""
    m = model_views(borrowed(I), borrowed(F))
    for i in range(1, m.nj):
        if m.types[i] != FREE_FLYER:
            continue
        k = m.idx_v[i]
        Y = m.inertias[i]
        mass, c0, c1, c2 = centre_of_mass(Y)
        x0, x1, x2, w0, w1, w2 = v[k], v[k + 1], v[k + 2], v[k + 3], v[k + 4], v[k + 5]
        s0, s1, s2 = x0 + w1 * c2 - w2 * c1, x1 + w2 * c0 - w0 * c2, x2 + w0 * c1 - w1 * c0  # v + w x c
        v_free[k] += dt * (w1 * s2 - w2 * s1)
        v_free[k + 1] += dt * (w2 * s0 - w0 * s2)
        v_free[k + 2] += dt * (w0 * s1 - w1 * s0)
        if free_bodies and mass > 0.0 and not np.any(m.armature[k:k + 6]):
            midpoint_gyroscopic(Y, mass, c0, c1, c2, v[k + 3:k + 6], dt, v_free[k:k + 6])


@njit(cache=True, forceinline=True)
def solve3(a00, a01, a02, a10, a11, a12, a20, a21, a22, b0, b1, b2):
    """``A^-1 b`` of a 3x3 system by Cramer's rule (three scalars; NaN for a singular ``A``)."""
    m0, m1, m2 = a11 * a22 - a12 * a21, a10 * a22 - a12 * a20, a10 * a21 - a11 * a20
    det = a00 * m0 - a01 * m1 + a02 * m2
    return ((b0 * m0 - a01 * (b1 * a22 - a12 * b2) + a02 * (b1 * a21 - a11 * b2)) / det,
            (a00 * (b1 * a22 - a12 * b2) - b0 * m1 + a02 * (a10 * b2 - b1 * a20)) / det,
            (a00 * (a11 * b2 - b1 * a21) - a01 * (a10 * b2 - b1 * a20) + b0 * m2) / det)


@njit(cache=True, forceinline=True)
def midpoint_gyroscopic(Y, mass, c0, c1, c2, w, dt, v_free):
    """A free body's ``v_free (6,)`` with its explicit gyroscopic term replaced by the implicit midpoint rule
    (see the module): ``w_e`` the explicit ``w_free``, ``dt tau_c = I_c (w_e - w) + dt w x I_c w``, then Newton's
    method on ``I_c (w_1 - w) - dt (I_c w_m) x w_m - dt tau_c = 0``, ``w_m = (w + w_1) / 2``, from ``w_e``; the
    linear part keeps the centre of mass's velocity, ``v_lin -= (w_1 - w_e) x c``."""
    cc = c0 * c0 + c1 * c1 + c2 * c2  # I_c = I_o - m (|c|^2 1 - c c^T)
    i00, i01, i02 = Y[4] - mass * (cc - c0 * c0), Y[5] + mass * c0 * c1, Y[6] + mass * c0 * c2
    i10, i11, i12 = Y[7] + mass * c1 * c0, Y[8] - mass * (cc - c1 * c1), Y[9] + mass * c1 * c2
    i20, i21, i22 = Y[10] + mass * c2 * c0, Y[11] + mass * c2 * c1, Y[12] - mass * (cc - c2 * c2)
    w0, w1, w2 = w[0], w[1], w[2]
    e0, e1, e2 = v_free[3], v_free[4], v_free[5]
    L0, L1, L2 = i00 * w0 + i01 * w1 + i02 * w2, i10 * w0 + i11 * w1 + i12 * w2, i20 * w0 + i21 * w1 + i22 * w2
    d0, d1, d2 = e0 - w0, e1 - w1, e2 - w2
    t0 = i00 * d0 + i01 * d1 + i02 * d2 + dt * (w1 * L2 - w2 * L1)  # dt tau_c
    t1 = i10 * d0 + i11 * d1 + i12 * d2 + dt * (w2 * L0 - w0 * L2)
    t2 = i20 * d0 + i21 * d1 + i22 * d2 + dt * (w0 * L1 - w1 * L0)
    x0, x1, x2 = e0, e1, e2
    for _ in range(MIDPOINT_ITERATIONS):
        m0, m1, m2 = 0.5 * (w0 + x0), 0.5 * (w1 + x1), 0.5 * (w2 + x2)
        M0, M1, M2 = i00 * m0 + i01 * m1 + i02 * m2, i10 * m0 + i11 * m1 + i12 * m2, i20 * m0 + i21 * m1 + i22 * m2
        y0, y1, y2 = x0 - w0, x1 - w1, x2 - w2
        f0 = i00 * y0 + i01 * y1 + i02 * y2 - dt * (M1 * m2 - M2 * m1) - t0
        f1 = i10 * y0 + i11 * y1 + i12 * y2 - dt * (M2 * m0 - M0 * m2) - t1
        f2 = i20 * y0 + i21 * y1 + i22 * y2 - dt * (M0 * m1 - M1 * m0) - t2
        # the Jacobian I_c - dt/2 ([L_m]x - [w_m]x I_c)
        h = 0.5 * dt
        k00 = i00 - h * (-(m1 * i20 - m2 * i10))
        k01 = i01 - h * (-M2 - (m1 * i21 - m2 * i11))
        k02 = i02 - h * (M1 - (m1 * i22 - m2 * i12))
        k10 = i10 - h * (M2 - (m2 * i00 - m0 * i20))
        k11 = i11 - h * (-(m2 * i01 - m0 * i21))
        k12 = i12 - h * (-M0 - (m2 * i02 - m0 * i22))
        k20 = i20 - h * (-M1 - (m0 * i10 - m1 * i00))
        k21 = i21 - h * (M0 - (m0 * i11 - m1 * i01))
        k22 = i22 - h * (-(m0 * i12 - m1 * i02))
        s0, s1, s2 = solve3(k00, k01, k02, k10, k11, k12, k20, k21, k22, f0, f1, f2)
        if not (np.isfinite(s0) and np.isfinite(s1) and np.isfinite(s2)):
            break
        x0, x1, x2 = x0 - s0, x1 - s1, x2 - s2
        if abs(s0) + abs(s1) + abs(s2) <= 1e-15 * (abs(x0) + abs(x1) + abs(x2)):
            break
    d0, d1, d2 = x0 - e0, x1 - e1, x2 - e2
    v_free[0] -= d1 * c2 - d2 * c1
    v_free[1] -= d2 * c0 - d0 * c2
    v_free[2] -= d0 * c1 - d1 * c0
    v_free[3], v_free[4], v_free[5] = x0, x1, x2


@njit(cache=True)
def advance(I, F, q, dt, q_next, v_next):
    """After ``q_next = q (+) dt v_next`` (its orientations are kept): each free flyer's centre of mass moved by
    ``dt u_lin = dt R(q) (v_lin + w x c)`` instead, its origin placed from it, and its linear velocity expressed
    in its new frame, ``v_lin = R_next^T u_lin - w x c`` (in ``v_next``, in place)."""
    m = model_views(borrowed(I), borrowed(F))
    for i in range(1, m.nj):
        if m.types[i] == FREE_FLYER:
            straight_move(m.inertias[i], m.idx_q[i], m.idx_v[i], q, dt, q_next, v_next)


@njit(cache=True, forceinline=True)
def straight_move(Y, a, k, q, dt, q_next, v_next):
    """:func:`advance` for the free flyer of inertia row ``Y`` whose configuration starts at ``a`` and velocity at
    ``k``: its origin placed from its centre of mass moved in a straight line, its orientation ``q_next[a + 3:a +
    7]`` given, and its linear velocity in its new frame."""
    _, c0, c1, c2 = centre_of_mass(Y)
    w0, w1, w2 = v_next[k + 3], v_next[k + 4], v_next[k + 5]
    s0 = v_next[k] + w1 * c2 - w2 * c1  # v + w x c, body frame at the start
    s1 = v_next[k + 1] + w2 * c0 - w0 * c2
    s2 = v_next[k + 2] + w0 * c1 - w1 * c0
    r00, r01, r02, r10, r11, r12, r20, r21, r22 = rotation_entries(q[a + 3], q[a + 4], q[a + 5], q[a + 6])
    u0, u1, u2 = r00 * s0 + r01 * s1 + r02 * s2, r10 * s0 + r11 * s1 + r12 * s2, r20 * s0 + r21 * s1 + r22 * s2
    x0 = q[a] + r00 * c0 + r01 * c1 + r02 * c2 + dt * u0  # the centre of mass at the end of the step
    x1 = q[a + 1] + r10 * c0 + r11 * c1 + r12 * c2 + dt * u1
    x2 = q[a + 2] + r20 * c0 + r21 * c1 + r22 * c2 + dt * u2
    r00, r01, r02, r10, r11, r12, r20, r21, r22 = rotation_entries(q_next[a + 3], q_next[a + 4], q_next[a + 5],
                                                                   q_next[a + 6])
    q_next[a] = x0 - (r00 * c0 + r01 * c1 + r02 * c2)
    q_next[a + 1] = x1 - (r10 * c0 + r11 * c1 + r12 * c2)
    q_next[a + 2] = x2 - (r20 * c0 + r21 * c1 + r22 * c2)
    v_next[k] = r00 * u0 + r10 * u1 + r20 * u2 - (w1 * c2 - w2 * c1)  # R_next^T u - w x c
    v_next[k + 1] = r01 * u0 + r11 * u1 + r21 * u2 - (w2 * c0 - w0 * c2)
    v_next[k + 2] = r02 * u0 + r12 * u1 + r22 * u2 - (w0 * c1 - w1 * c0)


@njit(cache=True)
def advance_free_bodies(I, F, q, dt, step, q_next, v_next):
    """``q_next`` and ``v_next`` (in place) of a model of free bodies only (every joint a free flyer on the
    universe), ``step = dt v_next`` and ``q`` valid (the step's kinematics checked it): what
    ``configuration.integrate(q, step)`` then :func:`advance` give, to the bit, in one pass: each orientation
    ``q * exp3(dt w)`` normalised, of the sign closest to ``q`` (``joints/free_flyer.integrate``'s), the centre
    of mass moved by ``dt R(q) (v_lin + w x c)``, the origin placed from it and the linear velocity expressed in
    the new frame (:func:`advance`); the translation of ``exp6``, which :func:`advance` replaces, is not formed."""
    m = model_views(borrowed(I), borrowed(F))
    for i in range(1, m.nj):
        a, k = m.idx_q[i], m.idx_v[i]
        o = q_next[a + 3:a + 7]
        quat_exp(step[k + 3:k + 6], o)
        quat_mul(q[a + 3:a + 7], (o[0], o[1], o[2], o[3]), o)
        quat_normalize(o)
        if q[a + 3] * o[0] + q[a + 4] * o[1] + q[a + 5] * o[2] + q[a + 6] * o[3] < 0.0:
            for j in range(4):
                o[j] = -o[j]
        straight_move(m.inertias[i], a, k, q, dt, q_next, v_next)
