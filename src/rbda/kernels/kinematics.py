"""Compiled forward kinematics (cheat sheet "RNEA", forward loop without the forces).

``calc_joint`` is the step every algorithm starts with: the joint model's ``calc`` then the placements
``liMi = jointPlacement * M_J(q)`` and ``oMi = oM_parent * liMi``.
"""

from __future__ import annotations

from numba import njit

from ..joints import composite
from ..joints.dispatch import COMPOSITE, joint_calc
from ..spatial.compiled import motion_act, motion_act_inv, motion_cross, se3_compose
from .checks import begin
from .views import view


@njit(cache=True, inline="always")
def calc_joint(m, d, i, q, v):
    """Joint ``i``: ``S`` rows, ``vJ``, ``cJ`` (child frame), ``liMi`` and ``oMi``."""
    iq, iv = m.idx_q[i], m.idx_v[i]
    MJ = view(d.tmp, 0, (3, 4))
    qi, vi, Si = q[iq : iq + m.nqs[i]], v[iv : iv + m.nvs[i]], d.S[iv : iv + m.nvs[i]]
    if m.types[i] == COMPOSITE:
        s0, s1 = m.sub_first[i], m.sub_first[i] + m.sub_count[i]
        composite.calc(m.sub_types[s0:s1], m.sub_nqs[s0:s1], m.sub_nvs[s0:s1], m.sub_params[s0:s1],
                       m.sub_placements[s0:s1], qi, vi, MJ, Si, d.vJ[i], d.cJ[i])
    else:
        joint_calc(m.types[i], m.params[i], qi, vi, MJ, Si, d.vJ[i], d.cJ[i])
    se3_compose(m.placements[i], MJ, d.liMi[i])
    se3_compose(d.oMi[m.parents[i]], d.liMi[i], d.oMi[i])


@njit(cache=True, inline="always")
def body_velocity(m, d, i):
    """``v_i = liMi^-1 v_parent + vJ`` (local frames)."""
    motion_act_inv(d.liMi[i], d.v[m.parents[i]], d.v[i])
    for k in range(6):
        d.v[i, k] += d.vJ[i, k]


@njit(cache=True, inline="always")
def world_jacobian_columns(m, d, i):
    """``J[k] = oMi.act(S[k])`` for the dofs ``k`` of joint ``i``."""
    for k in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
        motion_act(d.oMi[i], d.S[k], d.J[k])


@njit(cache=True)
def forward_kinematics_q(I, F, ws, q):
    m, d, status = begin(I, F, ws, q, None, None)
    if status:
        return status
    for i in range(1, m.nj):
        calc_joint(m, d, i, q, d.zeros)
    return 0


@njit(cache=True)
def forward_kinematics_qv(I, F, ws, q, v):
    """Adds ``v_i = liMi^-1 v_parent + vJ`` (local frames)."""
    m, d, status = begin(I, F, ws, q, v, None)
    if status:
        return status
    for i in range(1, m.nj):
        calc_joint(m, d, i, q, v)
        body_velocity(m, d, i)
    return 0


@njit(cache=True)
def forward_kinematics_qva(I, F, ws, q, v, a):
    """Adds ``a_i = liMi^-1 a_parent + S a_J + cJ + v_i x vJ`` (local frames, without gravity)."""
    m, d, status = begin(I, F, ws, q, v, a)
    if status:
        return status
    for i in range(1, m.nj):
        calc_joint(m, d, i, q, v)
        body_velocity(m, d, i)
        motion_act_inv(d.liMi[i], d.a[m.parents[i]], d.a[i])
        joint_acceleration(m, d, i, a, d.a[i])
    return 0


@njit(cache=True, inline="always")
def joint_acceleration(m, d, i, a, out):
    """``out += S a_J + cJ + v_i x vJ`` (the joint's contribution to the body acceleration)."""
    iv = m.idx_v[i]
    vxvJ = d.tmp[12:18]
    motion_cross(d.v[i], d.vJ[i], vxvJ)
    for k in range(6):
        acc = d.cJ[i, k] + vxvJ[k]
        for j in range(m.nvs[i]):
            acc += d.S[iv + j, k] * a[iv + j]
        out[k] += acc


@njit(cache=True)
def update_frame_placements(I, F, ws):
    """``oMf[k] = oMi[parent joint] * placement_k``."""
    m, d, status = begin(I, F, ws, None, None, None)
    if status:
        return status
    for k in range(m.nf):
        se3_compose(d.oMi[m.frame_parents[k]], m.frame_placements[k], d.oMf[k])
    return 0


@njit(cache=True)
def update_global_placements(I, F, ws):
    """``oMi`` from the stored ``liMi``."""
    m, d, status = begin(I, F, ws, None, None, None)
    if status:
        return status
    for i in range(1, m.nj):
        se3_compose(d.oMi[m.parents[i]], d.liMi[i], d.oMi[i])
    return 0


@njit(cache=True)
def joint_jacobians_from_placements(I, F, ws):
    """``J = [oMi.act(S_i)]`` from the placements and subspaces of the last forward kinematics."""
    m, d, status = begin(I, F, ws, None, None, None)
    if status:
        return status
    for i in range(1, m.nj):
        world_jacobian_columns(m, d, i)
    return 0


@njit(cache=True)
def compute_joint_jacobians(I, F, ws, q):
    """Forward kinematics and the world-frame Jacobian columns ``J = [oMi.act(S_i)]``."""
    m, d, status = begin(I, F, ws, q, None, None)
    if status:
        return status
    for i in range(1, m.nj):
        calc_joint(m, d, i, q, d.zeros)
        world_jacobian_columns(m, d, i)
    return 0
