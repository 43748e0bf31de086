"""Compiled regressors: the body regressor, the joint torque regressor, the static and energy regressors, linear in
the inertial parameters ``(m, m c, I)`` of each body.
"""

from __future__ import annotations

import numpy as np

from .._native.jit import njit
from .._native.views import borrowed
from ..model.layout import data_views, model_views

from ..spatial.compiled import (
    dot6,
    force_act,
    motion_act_inv,
)
from .checks import WRONG_DATA
from .frames import ACCELERATION_WITH_GRAVITY, LOCAL, VELOCITY, frame_motion
from .kinematics import (body_velocity, calc_joint, forward_kinematics_q, forward_kinematics_qv, joint_acceleration,
                         world_jacobian_columns)
from .mimic import compress_rows, extended
from .whole_body import begin_whole_body


@njit(cache=True)
def body_regressor(v, a, out):
    """``out (10, 6)``: row p is the force ``Y a + v x* Y v`` per unit of the dynamic parameter p of
    ``pi = (m, h, Ixx, Ixy, Iyy, Ixz, Iyz, Izz)`` (inertia about the frame origin). With
    ``alpha = a_lin + w x v_lin``: ``f = m alpha + a_ang x h + w x (w x h)``,
    ``tau = h x alpha + I a_ang + w x (I w)``."""
    w0, w1, w2, b0, b1, b2 = v[3], v[4], v[5], a[3], a[4], a[5]
    al0 = a[0] + w1 * v[2] - w2 * v[1]
    al1 = a[1] + w2 * v[0] - w0 * v[2]
    al2 = a[2] + w0 * v[1] - w1 * v[0]
    for p in range(10):
        for k in range(6):
            out[p, k] = 0.0
    out[0, 0], out[0, 1], out[0, 2] = al0, al1, al2
    for j in range(3):  # h = e_j
        e = (1.0 if j == 0 else 0.0, 1.0 if j == 1 else 0.0, 1.0 if j == 2 else 0.0)
        wxe = (w1 * e[2] - w2 * e[1], w2 * e[0] - w0 * e[2], w0 * e[1] - w1 * e[0])
        out[1 + j, 0] = b1 * e[2] - b2 * e[1] + w1 * wxe[2] - w2 * wxe[1]
        out[1 + j, 1] = b2 * e[0] - b0 * e[2] + w2 * wxe[0] - w0 * wxe[2]
        out[1 + j, 2] = b0 * e[1] - b1 * e[0] + w0 * wxe[1] - w1 * wxe[0]
        out[1 + j, 3] = e[1] * al2 - e[2] * al1
        out[1 + j, 4] = e[2] * al0 - e[0] * al2
        out[1 + j, 5] = e[0] * al1 - e[1] * al0
    # I x for the symmetric basis (xx, xy, yy, xz, yz, zz): columns of d(I x)/d(params)
    for p in range(6):
        Ia = inertia_basis_apply(p, b0, b1, b2)
        Iw = inertia_basis_apply(p, w0, w1, w2)
        out[4 + p, 3] = Ia[0] + w1 * Iw[2] - w2 * Iw[1]
        out[4 + p, 4] = Ia[1] + w2 * Iw[0] - w0 * Iw[2]
        out[4 + p, 5] = Ia[2] + w0 * Iw[1] - w1 * Iw[0]


@njit(cache=True, inline="always")
def inertia_basis_apply(p, x0, x1, x2):
    """``E_p x`` for the symmetric basis matrix ``E_p`` of the parameter p in (xx, xy, yy, xz, yz, zz)."""
    if p == 0:
        return (x0, 0.0, 0.0)
    if p == 1:
        return (x1, x0, 0.0)
    if p == 2:
        return (0.0, x1, 0.0)
    if p == 3:
        return (x2, 0.0, x0)
    if p == 4:
        return (0.0, x2, x1)
    return (0.0, 0.0, x2)


@njit(cache=True)
def joint_torque_regressor(I, F, ws, wb, q, v, a, Y):
    """``Y (nv, 10 (nj - 1))`` with ``rnea(q, v, a) = Y pi + armature * a`` (with mimic joints ``Y`` has
    ``nv_extended`` rows and the model's are left in front): block i holds, on the rows of the
    joints supporting body i, ``J_j^T oMi.act(B_i)`` with ``B_i`` the body regressor at (v_i, a_i - g)."""
    m, d, jt, w, status = begin_whole_body(I, F, ws, wb, q, v, a)
    if status:
        return status
    q, v, a = extended(m, q, d.qx), extended(m, v, d.vx), extended(m, a, d.ax)
    B, tmp = w.scratch[0:10], w.scratch[10]
    for r in range(Y.shape[0]):
        for c in range(Y.shape[1]):
            Y[r, c] = 0.0
    for k in range(6):  # a_0 = -g
        d.a_gf[0, k] = -m.gravity[k]
    for i in range(1, m.nj):
        parent, iv, nvi = m.parents[i], m.idx_v[i], m.nvs[i]
        calc_joint(jt, i, q, v)
        body_velocity(d.liMi[i], d.v[parent], d.vJ[i], d.v[i])
        motion_act_inv(d.liMi[i], d.a_gf[parent], d.a_gf[i])
        joint_acceleration(d.S[iv : iv + nvi], a[iv : iv + nvi], d.v[i], d.vJ[i], d.cJ[i], d.a_gf[i], tmp)
        world_jacobian_columns(d.oMi[i], d.S[iv : iv + nvi], d.J[iv : iv + nvi])
        body_regressor(d.v[i], d.a_gf[i], B)
        for p in range(10):
            force_act(d.oMi[i], B[p], tmp)
            for k in range(6):
                B[p, k] = tmp[k]
        j = i
        while j > 0:
            for row in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
                for p in range(10):
                    Y[row, 10 * (i - 1) + p] = dot6(d.J[row], B[p])
            j = m.parents[j]
    compress_rows(m, Y)  # mimic joints: Y = G^T Y_ext
    return 0


@njit(cache=True)
def frame_body_regressor(I, F, ws, frame_id, joint_id, out):
    """``out (6, 10)``: :func:`body_regressor` of frame ``frame_id`` (joint ``joint_id`` if ``frame_id < 0``) at its
    LOCAL velocity and acceleration with gravity (``data.v``, ``data.a_gf`` of the last RNEA); the status
    NOT_AN_ID for an id out of range."""
    v, a, B = np.empty(6), np.empty(6), np.empty((10, 6))
    status = frame_motion(I, F, ws, frame_id, joint_id, LOCAL, VELOCITY, v)
    if status == 0:
        status = frame_motion(I, F, ws, frame_id, joint_id, LOCAL, ACCELERATION_WITH_GRAVITY, a)
    if status:
        return status
    body_regressor(v, a, B)
    out[:, :] = B.T
    return 0


@njit(cache=True, forceinline=True)
def after_kinematics(I, F, ws, out, per_body, status):
    """``(m, d, status)``: the model and data views after a forward kinematics that returned ``status``, which
    becomes WRONG_DATA if ``out`` does not hold ``per_body`` entries for each body."""
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    if status == 0 and out.shape[0] != per_body * (m.nj - 1):
        status = WRONG_DATA
    return m, d, status


@njit(cache=True)
def static_regressor(I, F, ws, out, q):
    """Forward kinematics at ``q``, then ``out (3 * 4 (nj - 1),)``, the rows of the ``(3, 4 (nj - 1))`` static
    regressor ``S`` with ``com(q) = S phi``, ``phi`` the stacked ``(m, m c)`` of the bodies and the total mass
    fixed: block i is ``[p_i, R_i] / total_mass``."""
    m, d, status = after_kinematics(I, F, ws, out, 12, forward_kinematics_q(I, F, ws, q))
    if status:
        return status
    S = out.reshape((3, 4 * (m.nj - 1)))
    total = 0.0
    for i in range(1, m.nj):
        total += m.inertias[i, 0]
    for i in range(1, m.nj):
        for r in range(3):
            S[r, 4 * (i - 1)] = d.oMi[i, r, 3] / total
            for c in range(3):
                S[r, 4 * (i - 1) + 1 + c] = d.oMi[i, r, c] / total
    return 0


@njit(cache=True)
def kinetic_energy_regressor(I, F, ws, out, q, v):
    """Forward kinematics at ``q``, ``v``, then ``out (10 (nj - 1),)`` with ``kinetic energy = out . pi`` (without
    armature): per body, in its frame, ``1/2 m |v|^2 + (m c) . (v x w) + 1/2 w^T I w``."""
    m, d, status = after_kinematics(I, F, ws, out, 10, forward_kinematics_qv(I, F, ws, q, v))
    if status:
        return status
    for i in range(1, m.nj):
        v0, v1, v2, w0, w1, w2 = d.v[i, 0], d.v[i, 1], d.v[i, 2], d.v[i, 3], d.v[i, 4], d.v[i, 5]
        r = out[10 * (i - 1) : 10 * i]
        r[0] = 0.5 * (v0 * v0 + v1 * v1 + v2 * v2)
        r[1], r[2], r[3] = v1 * w2 - v2 * w1, v2 * w0 - v0 * w2, v0 * w1 - v1 * w0  # v x w
        r[4], r[5], r[6], r[7], r[8], r[9] = 0.5 * w0 * w0, w0 * w1, 0.5 * w1 * w1, w0 * w2, w1 * w2, 0.5 * w2 * w2
    return 0


@njit(cache=True)
def potential_energy_regressor(I, F, ws, out, q):
    """Forward kinematics at ``q``, then ``out (10 (nj - 1),)`` with ``potential energy = out . pi``: per body
    ``-g . p`` for m, ``-R^T g`` for ``m c``, 0 for the rotational inertia."""
    m, d, status = after_kinematics(I, F, ws, out, 10, forward_kinematics_q(I, F, ws, q))
    if status:
        return status
    g = m.gravity
    for i in range(1, m.nj):
        M, r = d.oMi[i], out[10 * (i - 1) : 10 * i]
        r[:] = 0.0
        r[0] = -(M[0, 3] * g[0] + M[1, 3] * g[1] + M[2, 3] * g[2])  # -g . p_i
        for c in range(3):
            r[1 + c] = -(g[0] * M[0, c] + g[1] * M[1, c] + g[2] * M[2, c])  # -R_i^T g
    return 0
