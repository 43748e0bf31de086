"""Inertia and force supported by a frame (Pinocchio's ``computeSupportedInertiaByFrame`` and
``computeSupportedForceByFrame``): what a frame on a body carries of that body, and of the joints below it.

The part of a body that a frame supports is the inertia the frame and the frames declared after it on the
same joint, descending from it (``parent_frame`` chain), brought in (``Frame.inertia``, added to the body by
``model.add_frame(frame, append_inertia=True)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..spatial import Force, Inertia, Motion
from .kinematics import _frame_id

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model


def _frame_inertias(model, frame_id: int) -> Inertia:
    """Inertia of frame ``frame_id`` and of the frames hanging from it on the same joint, in the joint frame."""
    frame = model.frames[frame_id]
    chain = {frame_id}
    Y = frame.placement.act(frame.inertia)
    for k in range(frame_id + 1, model.nframes):
        f = model.frames[k]
        if f.parent_joint == frame.parent_joint and f.parent_frame in chain:
            chain.add(k)
            Y = Y + f.placement.act(f.inertia)
    return Y


def compute_supported_inertia_by_frame(model: Model, data: Data, frame_id: int | str, with_subtree: bool) -> Inertia:
    """Inertia supported by frame ``frame_id`` (an id or a name), expressed in that frame: its own and its child
    frames' inertias and, if ``with_subtree``, the bodies of every joint below its parent joint (placements of the
    last :func:`forward_kinematics`)."""
    frame_id = _frame_id(model, data, frame_id)
    frame = model.frames[frame_id]
    Y = _frame_inertias(model, frame_id)
    if not with_subtree:
        return frame.placement.act_inv(Y)
    j = frame.parent_joint
    Y = data.oMi[j].act(Y)
    for k in model.subtrees[j][1:]:
        Y = Y + data.oMi[k].act(model.inertias[k])
    return (data.oMi[j] * frame.placement).act_inv(Y)


def compute_supported_force_by_frame(model: Model, data: Data, frame_id: int | str) -> Force:
    """Force that frame ``frame_id`` (an id or a name) transmits, expressed in that frame: the rate of momentum of
    the inertia it supports on its body, with gravity (``Y a_gf + v x* Y v``, velocity and acceleration of the
    frame), plus the forces ``data.f`` of the child joints of its parent joint (run :func:`rnea` first)."""
    frame_id = _frame_id(model, data, frame_id)
    frame = model.frames[frame_id]
    j = frame.parent_joint
    Y = frame.placement.act_inv(_frame_inertias(model, frame_id))
    v = frame.placement.act_inv(Motion(data.v[j]))
    a = frame.placement.act_inv(Motion(data.a_gf[j]))
    f = frame.placement.act(Y * a + Y.vxiv(v))
    for k in model.children[j]:
        f = f + data.liMi[k].act(Force(data.f[k]))
    return frame.placement.act_inv(f)


__all__ = ["compute_supported_inertia_by_frame", "compute_supported_force_by_frame"]
