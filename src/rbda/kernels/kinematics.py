"""Compiled forward kinematics (Pinocchio's SE(3) cheat sheet "RNEA", forward loop without the forces).

``calc_joint`` is the step every algorithm starts with: the joint model's ``calc`` then the placements
``liMi = jointPlacement * M_J(q)`` (for a revolute joint in closed form) and ``oMi = oM_parent * liMi``.
"""

from __future__ import annotations

from .._native.jit import njit

from ..joints import composite, revolute
from ..joints.dispatch import COMPOSITE, REVOLUTE, joint_calc
from ..spatial.compiled import motion_act, motion_act_inv, motion_cross, se3_compose
from .checks import begin, left_out
from .mimic import compress_hessian, extended
from .._native.views import borrowed


@njit(cache=True, forceinline=True)
def calc_joint(jt, i, q, v):
    """Joint ``i`` (``jt`` the :class:`JointTables`): ``S`` rows, ``vJ``, ``cJ`` (child frame), ``liMi``, ``oMi``."""
    iq, iv = jt.idx_q[i], jt.idx_v[i]
    qi, vi, Si = borrowed(q)[iq : iq + jt.nqs[i]], borrowed(v)[iv : iv + jt.nvs[i]], jt.S[iv : iv + jt.nvs[i]]
    if jt.types[i] == REVOLUTE:  # the most common joint: liMi in closed form, without M_J
        revolute.calc_placed(jt.params[i], qi, vi, jt.placements[i], jt.liMi[i], Si, jt.vJ[i], jt.cJ[i])
    else:
        if jt.types[i] == COMPOSITE:
            s0, s1 = jt.sub_first[i], jt.sub_first[i] + jt.sub_count[i]
            composite.calc(jt.sub_types[s0:s1], jt.sub_nqs[s0:s1], jt.sub_nvs[s0:s1], jt.sub_params[s0:s1],
                           jt.sub_placements[s0:s1], qi, vi, jt.MJ, Si, jt.vJ[i], jt.cJ[i])
        else:
            joint_calc(jt.types[i], jt.params[i], qi, vi, jt.MJ, Si, jt.vJ[i], jt.cJ[i])
        se3_compose(jt.placements[i], jt.MJ, jt.liMi[i])
    se3_compose(jt.oMi[jt.parents[i]], jt.liMi[i], jt.oMi[i])


@njit(cache=True, forceinline=True)
def body_velocity(liMi, v_parent, vJ, v):
    """``v_i = liMi^-1 v_parent + vJ`` (local frames)."""
    motion_act_inv(liMi, v_parent, v)
    for k in range(6):
        v[k] += vJ[k]


@njit(cache=True, forceinline=True)
def world_jacobian_columns(oMi, S, J):
    """``J[k] = oMi.act(S[k])`` for the rows ``S`` (the joint's dofs) into the rows ``J``."""
    for k in range(S.shape[0]):
        motion_act(oMi, S[k], J[k])


@njit(cache=True)
def forward_kinematics_q(I, F, ws, q):
    m, d, jt, status = begin(I, F, ws, q, left_out(ws), left_out(ws))
    if status:
        return status
    q = extended(m, q, d.qx)
    for i in range(1, m.nj):
        calc_joint(jt, i, q, d.zeros)
    return 0


@njit(cache=True)
def forward_kinematics_qv(I, F, ws, q, v):
    """Adds ``v_i = liMi^-1 v_parent + vJ`` (local frames)."""
    m, d, jt, status = begin(I, F, ws, q, v, left_out(ws))
    if status:
        return status
    q, v = extended(m, q, d.qx), extended(m, v, d.vx)
    for i in range(1, m.nj):
        calc_joint(jt, i, q, v)
        body_velocity(d.liMi[i], d.v[m.parents[i]], d.vJ[i], d.v[i])
    return 0


@njit(cache=True)
def forward_kinematics_qva(I, F, ws, q, v, a):
    """Adds ``a_i = liMi^-1 a_parent + S a_J + cJ + v_i x vJ`` (local frames, without gravity)."""
    m, d, jt, status = begin(I, F, ws, q, v, a)
    if status:
        return status
    q, v, a = extended(m, q, d.qx), extended(m, v, d.vx), extended(m, a, d.ax)
    for i in range(1, m.nj):
        calc_joint(jt, i, q, v)
        body_velocity(d.liMi[i], d.v[m.parents[i]], d.vJ[i], d.v[i])
        motion_act_inv(d.liMi[i], d.a[m.parents[i]], d.a[i])
        iv, nvi = m.idx_v[i], m.nvs[i]
        joint_acceleration(d.S[iv : iv + nvi], a[iv : iv + nvi], d.v[i], d.vJ[i], d.cJ[i], d.a[i], d.v6[0])
    return 0


@njit(cache=True, forceinline=True)
def joint_acceleration(S, a, v, vJ, cJ, out, scratch):
    """``out += S a_J + cJ + v_i x vJ``: the joint's contribution to the body acceleration (``S`` the joint's
    rows, ``a`` its slice of the acceleration; ``scratch`` (6,) holds ``v_i x vJ``)."""
    motion_cross(v, vJ, scratch)
    for k in range(6):
        acc = cJ[k] + scratch[k]
        for j in range(S.shape[0]):
            acc += S[j, k] * a[j]
        out[k] += acc


@njit(cache=True)
def update_frame_placements(I, F, ws):
    """``oMf[k] = oMi[parent joint] * placement_k``."""
    m, d, jt, status = begin(I, F, ws, left_out(ws), left_out(ws), left_out(ws))
    if status:
        return status
    for k in range(m.nf):
        se3_compose(d.oMi[m.frame_parents[k]], m.frame_placements[k], d.oMf[k])
    return 0


@njit(cache=True)
def frames_forward_kinematics(I, F, ws, q):
    """:func:`forward_kinematics_q`, then :func:`update_frame_placements`; the status of the first that fails."""
    return forward_kinematics_q(I, F, ws, q) or update_frame_placements(I, F, ws)


@njit(cache=True)
def update_global_placements(I, F, ws):
    """``oMi`` from the stored ``liMi``."""
    m, d, jt, status = begin(I, F, ws, left_out(ws), left_out(ws), left_out(ws))
    if status:
        return status
    for i in range(1, m.nj):
        se3_compose(d.oMi[m.parents[i]], d.liMi[i], d.oMi[i])
    return 0


@njit(cache=True)
def joint_jacobians_from_placements(I, F, ws):
    """``J = [oMi.act(S_i)]`` from the placements and subspaces of the last forward kinematics."""
    m, d, jt, status = begin(I, F, ws, left_out(ws), left_out(ws), left_out(ws))
    if status:
        return status
    for i in range(1, m.nj):
        world_jacobian_columns(d.oMi[i], d.S[m.idx_v[i] : m.idx_v[i] + m.nvs[i]], d.J[m.idx_v[i] : m.idx_v[i] + m.nvs[i]])
    return 0


@njit(cache=True)
def compute_joint_jacobians(I, F, ws, q):
    """Forward kinematics and the world-frame Jacobian columns ``J = [oMi.act(S_i)]``."""
    m, d, jt, status = begin(I, F, ws, q, left_out(ws), left_out(ws))
    if status:
        return status
    q = extended(m, q, d.qx)
    for i in range(1, m.nj):
        calc_joint(jt, i, q, d.zeros)
        world_jacobian_columns(d.oMi[i], d.S[m.idx_v[i] : m.idx_v[i] + m.nvs[i]], d.J[m.idx_v[i] : m.idx_v[i] + m.nvs[i]])
    return 0


# ---------------------------------------------------------------------------------------------- constant subspaces
# The next kernels need joints whose motion subspace S is constant in their own frame, so that a Jacobian column
# moves with its body: d/dt (oMi S_k) = ov_i x J_k, d/dq_j (oMi S_k) = J_j x J_k. A model with universal,
# spherical-ZYX or composite joints runs them on its elementary twin (model/elementary.py), which has the same
# q, v, Jacobian columns and dynamics.
@njit(cache=True)
def jacobians_time_variation(I, F, ws, q, v):
    """``v``, ``ov``, the world Jacobian columns ``J`` and their time derivatives ``dJ_k = ov_i x J_k``."""
    m, d, jt, status = begin(I, F, ws, q, v, left_out(ws))
    if status:
        return status
    q, v = extended(m, q, d.qx), extended(m, v, d.vx)
    for i in range(1, m.nj):
        iv, nvi = m.idx_v[i], m.nvs[i]
        calc_joint(jt, i, q, v)
        body_velocity(d.liMi[i], d.v[m.parents[i]], d.vJ[i], d.v[i])  # v_i = liMi^-1 v_parent + vJ
        motion_act(d.oMi[i], d.v[i], d.ov[i])  # ov_i = oMi v_i
        world_jacobian_columns(d.oMi[i], d.S[iv : iv + nvi], d.J[iv : iv + nvi])  # J_k = oMi S_k
        for k in range(iv, iv + nvi):
            motion_cross(d.ov[i], d.J[k], d.dJ[k])  # dJ_k = ov_i x J_k
    return 0


@njit(cache=True)
def kinematic_hessians(I, F, ws, q, H, out):
    """``H[:, c, k] = dJ_c/dq_k`` ``(6, nv_extended, nv_extended)`` over ``data.J``'s columns: ``J_k x J_c`` when
    dof ``k`` belongs to the joint of dof ``c`` or to one of its ancestors, 0 otherwise; with mimic joints ``out``
    ``(6, nv_red, nv_red)`` receives the model's ``H G`` on both dof axes (``out`` is ``H`` without)."""
    status = compute_joint_jacobians(I, F, ws, q)
    if status:
        return status
    m, d, jt, status = begin(I, F, ws, left_out(ws), left_out(ws), left_out(ws))
    col = d.v6[0]
    for i in range(1, m.nj):
        for c in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            for k in range(m.nv):
                for x in range(6):
                    H[x, c, k] = 0.0
            j = i
            while j > 0:
                for k in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
                    motion_cross(d.J[k], d.J[c], col)
                    for x in range(6):
                        H[x, c, k] = col[x]
                j = m.parents[j]
    compress_hessian(m, H, out)
    return 0
