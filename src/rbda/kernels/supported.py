"""Compiled inertia and force that a frame supports (Pinocchio's ``computeSupportedInertiaByFrame`` and
``computeSupportedForceByFrame``), from the last kinematics and RNEA.

Frame ``f`` sits on joint ``i`` at ``iMf`` and carries ``Y_f`` (``model.frame_supported_inertias``: its inertia
and that of the frames hanging from it on joint ``i``, ``(m, h, I_o)`` in joint ``i``'s frame, then the point a
massless sum is centred at). The force it
transmits is the rate of momentum of ``Y_f`` plus the forces of joint ``i``'s children (RNEA's body equation,
``data.f``), and the inertia it supports with the subtree adds the bodies below joint ``i``; both expressed at the
frame:

    phi_i = Y_f a_gf_i + v_i x* (Y_f v_i) + sum_{c child of i} liMi_c phi_c,        phi_f = iMf^-1* phi_i
    Y_i = Y_f + sum_{k below i} (oMi_i^-1 oMi_k) Y_k,                               Y_frame = iMf^-1 Y_i
"""

from __future__ import annotations

from .._native.jit import njit

from ..spatial.compiled import add6, force_act, force_act_inv, force_cross, inertia_act, inertia_apply
from .checks import begin, left_out
from .constrained import se3_inverse_compose
from .frames import ids_status


@njit(cache=True, forceinline=True)
def begin_frame(I, F, ws, frame_id):
    """``(m, d, joints, status)`` of :func:`~rbda.kernels.checks.begin` without inputs; status NOT_AN_ID if
    ``frame_id`` is not a frame of the model."""
    m, d, jt, status = begin(I, F, ws, left_out(ws), left_out(ws), left_out(ws))
    return m, d, jt, status if status else ids_status(m, frame_id, 0)


@njit(cache=True)
def supported_force_by_frame(I, F, ws, Y, frame_id, out):
    """``out (6,)``: the force that frame ``frame_id`` transmits, in that frame; ``Y (nframes, 16)`` the frames'
    supported inertias."""
    m, d, _, status = begin_frame(I, F, ws, frame_id)
    if status:
        return status
    i = m.frame_parents[frame_id]
    phi, Yv, term = d.v6[0], d.v6[1], d.v6[2]
    inertia_apply(Y[frame_id], d.a_gf[i], phi)  # Y_f a_gf
    inertia_apply(Y[frame_id], d.v[i], Yv)
    force_cross(d.v[i], Yv, term)  # v x* Y_f v
    add6(phi, term)
    for c in range(i + 1, m.nj):
        if m.parents[c] == i:
            force_act(d.liMi[c], d.f[c], term)  # liMi_c phi_c
            add6(phi, term)
    force_act_inv(m.frame_placements[frame_id], phi, out)
    return 0


@njit(cache=True)
def supported_inertia_by_frame(I, F, ws, Y, frame_id, with_subtree, out):
    """``out (13,)``: the inertia that frame ``frame_id`` supports (with the bodies of the joints below its joint if
    ``with_subtree``), in that frame, as ``(m, c, I_c)`` (mass, centre of mass, rotational inertia about it)."""
    m, d, jt, status = begin_frame(I, F, ws, frame_id)
    if status:
        return status
    i = m.frame_parents[frame_id]
    Y_i, X = d.y13, jt.MJ
    Y_i[:] = Y[frame_id, :13]
    if with_subtree:
        for k in range(i + 1, m.nj):
            a = m.parents[k]
            while a > i:
                a = m.parents[a]
            if a == i:  # k is below i
                se3_inverse_compose(d.oMi[i], d.oMi[k], X)  # iMk
                inertia_act(X, m.inertias[k], out)
                for r in range(13):
                    Y_i[r] += out[r]
    P = m.frame_placements[frame_id]
    for r in range(3):  # X = iMf^-1
        for c in range(3):
            X[r, c] = P[c, r]
        X[r, 3] = -(P[0, r] * P[0, 3] + P[1, r] * P[1, 3] + P[2, r] * P[2, 3])
    inertia_act(X, Y_i, out)
    mass = out[0]  # (m, h, I_o) -> (m, c, I_c): c = h / m, I_c = I_o + m (c c^T - |c|^2 1)
    for r in range(3):
        point = Y[frame_id, 13:]  # a massless sum: centred at this point of the joint frame, moved to the frame
        out[1 + r] = (out[1 + r] / mass if mass > 0.0
                      else X[r, 0] * point[0] + X[r, 1] * point[1] + X[r, 2] * point[2] + X[r, 3])
    cc = out[1] * out[1] + out[2] * out[2] + out[3] * out[3]
    for r in range(3):
        for c in range(r, 3):
            shift = mass * (out[1 + r] * out[1 + c] - (cc if r == c else 0.0))
            value = 0.5 * (out[4 + 3 * r + c] + out[4 + 3 * c + r]) + shift
            out[4 + 3 * r + c] = out[4 + 3 * c + r] = value
    return 0
