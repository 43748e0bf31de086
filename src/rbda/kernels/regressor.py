"""Compiled regressors: the body regressor and the joint torque regressor, linear in the inertial parameters
``(m, m c, I)`` of each body.
"""

from __future__ import annotations

from .._native.jit import njit

from ..spatial.compiled import (
    dot6,
    force_act,
    motion_act_inv,
)
from .kinematics import body_velocity, calc_joint, joint_acceleration, world_jacobian_columns
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
