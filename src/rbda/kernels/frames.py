"""Compiled frame quantities from the last kinematics (Pinocchio's ``getFrameJacobian``, ``getJointJacobian``,
``getFrameVelocity``, ``getFrameAcceleration`` and their classical and joint forms).

A frame ``f`` sits on joint ``i`` at the placement ``iMf``; ``oMf = oMi iMf``. Its Jacobian takes the world-frame
columns ``J_k = oMi.act(S_k)`` of the joints supporting ``i`` and expresses them at ``oMf``: in ``WORLD`` as they
are, in ``LOCAL_WORLD_ALIGNED`` with the reference point moved to the frame's origin (``v - p x w``), in ``LOCAL``
rotated into the frame as well. Its velocity (acceleration) is the joint's local one moved to the frame,
``iMf^-1 v_i``, then expressed the same way. A joint is the frame ``iMf = 1`` (``frame_id < 0``).
"""

from __future__ import annotations

import numpy as np

from .._native.jit import njit

from ..spatial.compiled import motion_act, motion_act_inv, se3_compose
from .checks import begin, left_out
from .kinematics import compute_joint_jacobians

WORLD, LOCAL, LOCAL_WORLD_ALIGNED = 0, 1, 2  # ReferenceFrame's values
VELOCITY, ACCELERATION, CLASSICAL_ACCELERATION, ACCELERATION_WITH_GRAVITY = 0, 1, 2, 3  # what frame_motion gives
NOT_AN_ID = 95  # the status of a frame or joint id out of range (the caller's checks name it)


@njit(cache=True, forceinline=True)
def ids_status(m, frame_id, joint_id):
    """0 if ``frame_id`` is a frame of the model, or is < 0 and ``joint_id`` a joint; else NOT_AN_ID."""
    if frame_id >= m.nf or (frame_id < 0 and not 0 <= joint_id < m.nj):
        return NOT_AN_ID
    return 0


@njit(cache=True, forceinline=True)
def frame_placement(m, d, frame_id, joint_id, oM):
    """``oM = oMi iMf`` of frame ``frame_id``, or ``oMi`` of joint ``joint_id`` if ``frame_id < 0``; returns the
    joint the frame is on."""
    if frame_id < 0:
        oM[:, :] = d.oMi[joint_id]
        return joint_id
    joint = m.frame_parents[frame_id]
    se3_compose(d.oMi[joint], m.frame_placements[frame_id], oM)
    return joint


@njit(cache=True, forceinline=True)
def express(oM, x, rf, out):
    """``out`` (6,): the world-frame motion ``x`` (a Jacobian column, about the world origin) expressed at ``oM``
    in ``rf``: ``WORLD`` ``x``; ``LOCAL_WORLD_ALIGNED`` ``[v - p x w; w]``; ``LOCAL`` ``oM^-1 x``."""
    if rf == LOCAL:
        motion_act_inv(oM, x, out)
        return
    for k in range(6):
        out[k] = x[k]
    if rf == LOCAL_WORLD_ALIGNED:
        px, py, pz = oM[0, 3], oM[1, 3], oM[2, 3]
        out[0] -= py * x[5] - pz * x[4]
        out[1] -= pz * x[3] - px * x[5]
        out[2] -= px * x[4] - py * x[3]


@njit(cache=True, forceinline=True)
def express_local(oM, x, rf, out):
    """``out`` (6,): the motion ``x`` given in the frame ``oM`` expressed in ``rf``: ``LOCAL`` ``x``; ``WORLD``
    ``oM x``; ``LOCAL_WORLD_ALIGNED`` ``[R v; R w]``."""
    if rf == WORLD:
        motion_act(oM, x, out)
        return
    if rf == LOCAL:
        for k in range(6):
            out[k] = x[k]
        return
    for r in range(3):
        out[r] = oM[r, 0] * x[0] + oM[r, 1] * x[1] + oM[r, 2] * x[2]
        out[3 + r] = oM[r, 0] * x[3] + oM[r, 1] * x[4] + oM[r, 2] * x[5]


@njit(cache=True, forceinline=True)
def moved_to_frame(m, frame_id, x, out):
    """``out = iMf^-1 x``: the joint-frame motion ``x`` moved to frame ``frame_id`` (``x`` itself if < 0)."""
    if frame_id < 0:
        for k in range(6):
            out[k] = x[k]
    else:
        motion_act_inv(m.frame_placements[frame_id], x, out)


@njit(cache=True)
def frame_jacobian(I, F, ws, frame_id, joint_id, rf, out):
    """``out`` (6, nv): the Jacobian of frame ``frame_id`` (of joint ``joint_id`` if ``frame_id < 0``) in ``rf``
    from ``data.J`` and ``data.oMi``: the columns of its supporting joints expressed at ``oMf`` (stored in
    ``data.oMf[frame_id]``), zero elsewhere. For models without mimic joints (``data.J``'s columns are the
    model's)."""
    m, d, jt, status = begin(I, F, ws, left_out(ws), left_out(ws), left_out(ws))
    if status == 0:
        status = ids_status(m, frame_id, joint_id)
    if status:
        return status
    oM = d.oMf[frame_id] if frame_id >= 0 else jt.MJ
    i = frame_placement(m, d, frame_id, joint_id, oM)
    col = d.v6[0]
    out[:, :] = 0.0
    while i > 0:
        for k in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            express(oM, d.J[k], rf, col)
            for r in range(6):
                out[r, k] = col[r]
        i = m.parents[i]
    return 0


@njit(cache=True)
def compute_frame_jacobian(I, F, ws, q, frame_id, joint_id, rf, out):
    """Forward kinematics and the joint Jacobians at ``q`` (:func:`compute_joint_jacobians`), then
    :func:`frame_jacobian`."""
    status = compute_joint_jacobians(I, F, ws, q)
    if status:
        return status
    return frame_jacobian(I, F, ws, frame_id, joint_id, rf, out)


@njit(cache=True)
def frame_motion(I, F, ws, frame_id, joint_id, rf, kind, out):
    """``out`` (6,): the velocity (``kind`` VELOCITY), acceleration (ACCELERATION), acceleration with gravity
    (ACCELERATION_WITH_GRAVITY, RNEA's ``data.a_gf``) or classical acceleration (CLASSICAL_ACCELERATION: the
    spatial acceleration plus ``w x v`` in its linear part, both in ``rf``) of frame ``frame_id`` (joint
    ``joint_id`` if ``frame_id < 0``) in ``rf``, from the local ``data.v``, ``data.a``, ``data.a_gf``."""
    m, d, jt, status = begin(I, F, ws, left_out(ws), left_out(ws), left_out(ws))
    if status == 0:
        status = ids_status(m, frame_id, joint_id)
    if status:
        return status
    oM, local, v = jt.MJ, d.v6[0], d.v6[1]
    i = frame_placement(m, d, frame_id, joint_id, oM)
    if kind == VELOCITY or kind == CLASSICAL_ACCELERATION:
        moved_to_frame(m, frame_id, d.v[i], local)  # iMf^-1 v_i
        express_local(oM, local, rf, v)
    if kind == VELOCITY:
        out[:] = v
        return 0
    moved_to_frame(m, frame_id, d.a_gf[i] if kind == ACCELERATION_WITH_GRAVITY else d.a[i], local)
    express_local(oM, local, rf, out)
    if kind == CLASSICAL_ACCELERATION:  # a + w x v in the linear part
        out[0] += v[4] * v[2] - v[5] * v[1]
        out[1] += v[5] * v[0] - v[3] * v[2]
        out[2] += v[3] * v[1] - v[4] * v[0]
    return 0


@njit(cache=True)
def kinematic_regressor(I, F, ws, frame_id, joint_id, P, rf, out):
    """``out`` (6, 6 (njoints - 1)): the kinematic regressor of frame ``frame_id`` (if ``frame_id < 0``, of the
    frame at placement ``P`` (3, 4) on joint ``joint_id``, the joint's own frame if ``P`` is empty) in ``rf``, from
    ``data.oMi``. A variation ``delta_k`` of
    joint ``k``'s placement moves the frame by the world twist ``Ad(A_k) delta_k``, ``A_k = oMi[parent] *
    jointPlacement_k``, for ``k`` supporting the frame; block ``k`` is that map expressed at ``oMf`` in ``rf``."""
    m, d, jt, status = begin(I, F, ws, left_out(ws), left_out(ws), left_out(ws))
    if status == 0:
        status = ids_status(m, frame_id, joint_id)
    if status:
        return status
    oM, A, unit, world, col = jt.MJ, np.empty((3, 4)), d.v6[0], d.v6[1], d.v6[2]
    i = joint_id
    if frame_id >= 0:
        i, P = m.frame_parents[frame_id], m.frame_placements[frame_id]
    elif P.shape[0] == 0:
        P = np.eye(3, 4)
    se3_compose(d.oMi[i], P, oM)
    out[:, :] = 0.0
    while i > 0:
        se3_compose(d.oMi[m.parents[i]], m.placements[i], A)  # A_i
        for k in range(6):
            unit[:] = 0.0
            unit[k] = 1.0
            motion_act(A, unit, world)  # column k of Ad(A_i)
            express(oM, world, rf, col)
            for r in range(6):
                out[r, 6 * (i - 1) + k] = col[r]
        i = m.parents[i]
    return 0


@njit(cache=True, forceinline=True)
def rotate_transpose(oM, x, out):
    """``out = [R^T x_lin; R^T x_ang]`` with ``R`` the rotation of ``oM``."""
    for c in range(3):
        out[c] = oM[0, c] * x[0] + oM[1, c] * x[1] + oM[2, c] * x[2]
        out[3 + c] = oM[0, c] * x[3] + oM[1, c] * x[4] + oM[2, c] * x[5]


@njit(cache=True, forceinline=True)
def subtract_cross(w, x, out, o):
    """``out[o:o+3] -= w x x[o:o+3]`` (``w`` a 3-sequence)."""
    c0 = w[1] * x[o + 2] - w[2] * x[o + 1]
    c1 = w[2] * x[o] - w[0] * x[o + 2]
    c2 = w[0] * x[o + 1] - w[1] * x[o]
    out[o] -= c0
    out[o + 1] -= c1
    out[o + 2] -= c2


@njit(cache=True)
def frame_jacobian_time_variation(I, F, ws, frame_id, joint_id, rf, out):
    """``out`` (6, nv): ``dJ/dt`` of the Jacobian of frame ``frame_id`` (of joint ``joint_id`` if ``frame_id <
    0``) in ``rf``, from ``data.J``, ``data.dJ`` (world columns and their derivatives) and the joint's velocity.
    The frame moves with the world twist ``V = oMi v_i``, its origin with ``p_dot = V_lin + V_ang x p``: in
    ``LOCAL_WORLD_ALIGNED`` a column's derivative is that of ``[J_lin - p x J_ang; J_ang]``, ``dJ`` so expressed
    less ``p_dot x J_ang``; in ``LOCAL`` it is ``R^T`` of that less ``w x`` the LWA column (``d/dt R^T = -R^T w_x``).
    """
    m, d, jt, status = begin(I, F, ws, left_out(ws), left_out(ws), left_out(ws))
    if status == 0:
        status = ids_status(m, frame_id, joint_id)
    if status:
        return status
    oM, V, col, lwa = jt.MJ, d.v6[0], d.v6[1], d.v6[2]
    i = frame_placement(m, d, frame_id, joint_id, oM)
    motion_act(d.oMi[i], d.v[i], V)  # V = oMi v_i
    w = V[3:]
    p_dot = V[:3].copy()
    p_dot[0] += V[4] * oM[2, 3] - V[5] * oM[1, 3]
    p_dot[1] += V[5] * oM[0, 3] - V[3] * oM[2, 3]
    p_dot[2] += V[3] * oM[1, 3] - V[4] * oM[0, 3]
    out[:, :] = 0.0
    while i > 0:
        for k in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            if rf == WORLD:
                col[:] = d.dJ[k]
            else:
                express(oM, d.dJ[k], LOCAL_WORLD_ALIGNED, col)
                subtract_cross(p_dot, d.J[k][3:], col, 0)  # the first three of the 3-vector J_ang
                if rf == LOCAL:
                    express(oM, d.J[k], LOCAL_WORLD_ALIGNED, lwa)
                    subtract_cross(w, lwa, col, 0)
                    subtract_cross(w, lwa, col, 3)
                    rotate_transpose(oM, col, lwa)
                    col[:] = lwa
            for r in range(6):
                out[r, k] = col[r]
        i = m.parents[i]
    return 0


@njit(cache=True)
def joint_kinematic_hessian(I, F, ws, joint_id, rf, H, out):
    """``out`` (6, nv, nv): ``out[:, j, k] = d J_j / d q_k`` of joint ``joint_id``'s Jacobian in ``rf``, from the
    world-frame derivatives ``H`` (6, nv, nv) of ``data.J``'s columns, over the dofs ``j, k`` supporting the
    joint (zero elsewhere). Moving ``q_k`` moves the joint's origin with ``p_dot = J_k,lin + J_k,ang x p``: in
    ``LOCAL_WORLD_ALIGNED`` ``H`` expressed so plus ``J_j,ang x p_dot``; in ``LOCAL`` ``R^T`` of that less
    ``J_k,ang x`` the LWA column ``j``."""
    m, d, jt, status = begin(I, F, ws, left_out(ws), left_out(ws), left_out(ws))
    if status == 0:
        status = ids_status(m, -1, joint_id)
    if status:
        return status
    oM, h, col, lwa = d.oMi[joint_id], d.v6[0], d.v6[1], d.v6[2]
    p_dot = np.empty(3)
    out[:, :, :] = 0.0
    i = joint_id
    while i > 0:
        for k in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            Jk = d.J[k]
            p_dot[0] = Jk[0] + Jk[4] * oM[2, 3] - Jk[5] * oM[1, 3]
            p_dot[1] = Jk[1] + Jk[5] * oM[0, 3] - Jk[3] * oM[2, 3]
            p_dot[2] = Jk[2] + Jk[3] * oM[1, 3] - Jk[4] * oM[0, 3]
            jj = joint_id
            while jj > 0:
                for j in range(m.idx_v[jj], m.idx_v[jj] + m.nvs[jj]):
                    for x in range(6):
                        h[x] = H[x, j, k]
                    if rf == WORLD:
                        col[:] = h
                    else:
                        express(oM, h, LOCAL_WORLD_ALIGNED, col)
                        subtract_cross(p_dot, d.J[j][3:], col, 0)  # + J_j,ang x p_dot
                        if rf == LOCAL:
                            express(oM, d.J[j], LOCAL_WORLD_ALIGNED, lwa)
                            subtract_cross(Jk[3:], lwa, col, 0)
                            subtract_cross(Jk[3:], lwa, col, 3)
                            rotate_transpose(oM, col, lwa)
                            col[:] = lwa
                    for x in range(6):
                        out[x, j, k] = col[x]
                jj = m.parents[jj]
        i = m.parents[i]
    return 0


@njit(cache=True)
def update_frame_placement(I, F, ws, frame_id):
    """``data.oMf[frame_id] = oMi[parent joint] * iMf`` (one frame of ``kinematics.update_frame_placements``)."""
    m, d, jt, status = begin(I, F, ws, left_out(ws), left_out(ws), left_out(ws))
    if status == 0:
        status = ids_status(m, frame_id, -1)
    if status:
        return status
    se3_compose(d.oMi[m.frame_parents[frame_id]], m.frame_placements[frame_id], d.oMf[frame_id])
    return 0
