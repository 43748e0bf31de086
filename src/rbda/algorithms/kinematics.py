"""Forward kinematics and frame placements, velocities and accelerations (Pinocchio's kinematics API)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._native.public import public
from ..kernels import frames, kinematics
from .._native.direct import direct
from ..spatial import SE3, Motion, ReferenceFrame
from ..spatial.se3 import _se3
from ..model.model import frame_id_arg
from ._check import check_data, report, vector

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model
    from numpy.typing import ArrayLike

_k = direct(kinematics)  # the kernels, past numba's per-call dispatch
_frames = direct(frames)


@public("none", entries=("forward_kinematics_q", "forward_kinematics_qv", "forward_kinematics_qva"))
def forward_kinematics(model: Model, data: Data, q: ArrayLike, v: ArrayLike | None = None,
                       a: ArrayLike | None = None) -> None:
    """Placements ``data.oMi``, ``data.liMi`` (and local velocities ``data.v``, accelerations ``data.a``)
    of every joint, for ``q: (nq,)`` (``v: (nv,)``, ``a: (nv,)``). ``data.a`` excludes gravity."""
    if v is None:  # the bound fast entries (_native/fastcall.py) answer True, or None for the checks below
        if a is None and data.fast_entries.forward_kinematics_q(model, data, q):
            return
    elif (data.fast_entries.forward_kinematics_qv(model, data, q, v) if a is None
          else data.fast_entries.forward_kinematics_qva(model, data, q, v, a)):
        return
    I, F = model.packed
    q = vector(q, model.nq, "q")
    if v is None:
        if a is not None:
            raise ValueError("a: an acceleration needs a velocity v")
        status = _k.forward_kinematics_q(I, F, data.ws, q)
    elif a is None:
        status = _k.forward_kinematics_qv(I, F, data.ws, q, vector(v, model.nv, "v"))
    else:
        status = _k.forward_kinematics_qva(I, F, data.ws, q, vector(v, model.nv, "v"), vector(a, model.nv, "a"))
    if status:
        report(status, ("q", "v", "a"), model, (q, v, a))


def _from_placements(kernel, model: Model, data: Data) -> None:
    """Run ``kernel(I, F, ws)``, one of the kernels that compute placements from those ``data`` holds."""
    I, F = model.packed
    status = kernel(I, F, data.ws)
    if status:
        report(status, ())


@public("none")
def update_global_placements(model: Model, data: Data) -> None:
    """``data.oMi`` from the current ``data.liMi``."""
    if not data.fast_entries.update_global_placements(model, data):  # the bound fast entry, or None
        _from_placements(_k.update_global_placements, model, data)


@public("none")
def update_frame_placements(model: Model, data: Data) -> None:
    """``data.oMf`` from the current ``data.oMi``."""
    if not data.fast_entries.update_frame_placements(model, data):  # the bound fast entry, or None
        _from_placements(_k.update_frame_placements, model, data)


@public("placement", wrapper=SE3)
def update_frame_placement(model: Model, data: Data, frame_id: int | str) -> SE3:
    """``data.oMf[frame_id]`` from ``data.oMi`` (``frame_id``: a frame id or name); returns a copy of it."""
    if data.fast_entries.update_frame_placement(model, data, frame_id) is not None:  # the entry (an int id), or None
        f = frame_id
    else:
        f, _ = frame_ids(model, data, frame_id, 0)
        I, F = model.packed
        status = _frames.update_frame_placement(I, F, data.ws, f)
        if status:
            frame_ids_failed(model, data, status, frame_id, 0)
    oMf = data.oMf.array[f]
    return _se3(oMf[:, :3].copy(), oMf[:, 3].copy())


@public("none")
def frames_forward_kinematics(model: Model, data: Data, q: ArrayLike) -> None:
    """Forward kinematics at ``q: (nq,)``, then every frame's placement: fills ``data.oMi``, ``data.liMi`` and
    ``data.oMf`` (read ``data.oMf[frame_id]``, an :class:`SE3`, for a frame's pose in the world). Returns None."""
    if data.fast_entries.frames_forward_kinematics(model, data, q):  # the bound fast entry, or None
        return
    forward_kinematics(model, data, q)
    update_frame_placements(model, data)


# ------------------------------------------------------------------------------------------------ velocities
def _express(model, data, joint_id: int, local: Motion, reference_frame, placement: SE3 = None) -> Motion:
    """A quantity given in the joint frame, moved to ``placement`` (in the joint frame) and expressed in
    ``reference_frame``."""
    m = local if placement is None else placement.act_inv(local)
    rf = reference_frame_arg(reference_frame)
    if rf == ReferenceFrame.LOCAL:
        return m
    oM = data.oMi[joint_id] if placement is None else data.oMi[joint_id] * placement
    if rf == ReferenceFrame.WORLD:
        return oM.act(m)
    return Motion(oM.rotation @ m.linear, oM.rotation @ m.angular)  # LOCAL_WORLD_ALIGNED


@public("wrap", wrapper=Motion)
def get_velocity(model: Model, data: Data, joint_id: int,
                 reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> Motion:
    """Spatial velocity (a :class:`Motion`) of joint ``joint_id``, read from ``data`` after
    ``forward_kinematics(model, data, q, v)``; ``reference_frame``: ``LOCAL`` (the default), ``WORLD`` or
    ``LOCAL_WORLD_ALIGNED``."""
    return _motion(model, data, data.fast_entries.get_velocity, None, joint_id, reference_frame, frames.VELOCITY)


@public("wrap", wrapper=Motion)
def get_acceleration(model: Model, data: Data, joint_id: int,
                     reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> Motion:
    """Spatial acceleration (a :class:`Motion`) of joint ``joint_id``, read from ``data`` after
    ``forward_kinematics(model, data, q, v, a)``; ``reference_frame``: ``LOCAL`` (the default), ``WORLD`` or
    ``LOCAL_WORLD_ALIGNED``."""
    return _motion(model, data, data.fast_entries.get_acceleration, None, joint_id, reference_frame,
                   frames.ACCELERATION)


@public("wrap", wrapper=Motion)
def get_classical_acceleration(model: Model, data: Data, joint_id: int,
                               reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> Motion:
    """Classical acceleration (a :class:`Motion`) of joint ``joint_id``: the spatial one with ``w x v`` added to its
    linear part, so that the linear part is the acceleration of the joint frame's origin; ``reference_frame``:
    ``LOCAL`` (the default), ``WORLD`` or ``LOCAL_WORLD_ALIGNED``. Read from ``data`` after
    ``forward_kinematics(model, data, q, v, a)``."""
    return _motion(model, data, data.fast_entries.get_classical_acceleration, None, joint_id, reference_frame,
                   frames.CLASSICAL_ACCELERATION)


@public("wrap", wrapper=Motion)
def get_frame_velocity(model: Model, data: Data, frame_id: int | str,
                       reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> Motion:
    """Spatial velocity (a :class:`Motion`) of frame ``frame_id`` (an id or a name), read from ``data`` after
    ``forward_kinematics(model, data, q, v)``; ``reference_frame``: ``LOCAL`` (the default), ``WORLD`` or
    ``LOCAL_WORLD_ALIGNED``."""
    return _motion(model, data, data.fast_entries.get_frame_velocity, frame_id, 0, reference_frame, frames.VELOCITY)


@public("wrap", wrapper=Motion)
def get_frame_acceleration(model: Model, data: Data, frame_id: int | str,
                           reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> Motion:
    """Spatial acceleration (a :class:`Motion`) of frame ``frame_id`` (an id or a name), read from ``data`` after
    ``forward_kinematics(model, data, q, v, a)``; ``reference_frame``: ``LOCAL`` (the default), ``WORLD`` or
    ``LOCAL_WORLD_ALIGNED``."""
    return _motion(model, data, data.fast_entries.get_frame_acceleration, frame_id, 0, reference_frame,
                   frames.ACCELERATION)


@public("wrap", wrapper=Motion)
def get_frame_classical_acceleration(model: Model, data: Data, frame_id: int | str,
                                     reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> Motion:
    """Classical acceleration (a :class:`Motion`) of frame ``frame_id`` (an id or a name): its linear part is the
    acceleration of the frame's origin; ``reference_frame``: ``LOCAL`` (the default), ``WORLD`` or
    ``LOCAL_WORLD_ALIGNED``. Read from ``data`` after ``forward_kinematics(model, data, q, v, a)``."""
    return _motion(model, data, data.fast_entries.get_frame_classical_acceleration, frame_id, 0, reference_frame,
                   frames.CLASSICAL_ACCELERATION)


def _motion(model, data, entry, frame_id, joint_id, reference_frame, kind: int) -> Motion:
    """What ``kernels.frames.frame_motion`` computes for frame ``frame_id`` (an id or a name; joint ``joint_id`` if
    None), as a new :class:`Motion`: first the answer of ``entry``, the function's bound fast entry
    (``_native/fastcall.py``), then where it answers None the checked path."""
    x = entry(model, data, joint_id if frame_id is None else frame_id, reference_frame)
    if x is not None:
        return Motion._from_storage(x.copy())
    f, j = frame_ids(model, data, frame_id, joint_id)
    I, F = model.packed
    out = np.empty(6)
    status = _frames.frame_motion(I, F, data.ws, f, j, reference_frame_code(reference_frame), kind, out)
    if status:
        frame_ids_failed(model, data, status, frame_id, joint_id)
    return Motion._from_storage(out)


def frame_ids(model, data, frame_id, joint_id) -> tuple[int, int]:
    """``(frame id, joint id)`` as the kernels of ``kernels/frames.py`` take them: frame ``frame_id`` (an id or a
    name), or joint ``joint_id`` if ``frame_id`` is None (frame id -1). A non-negative int is passed as it is (the
    kernel checks its range, :func:`frame_ids_failed` names it), anything else checked and converted here."""
    if frame_id is None:
        return -1, (joint_id if type(joint_id) is int else _joint_id(model, data, joint_id))
    return (frame_id if type(frame_id) is int and frame_id >= 0 else _frame_id(model, data, frame_id)), 0


def frame_ids_failed(model, data, status: int, frame_id, joint_id, names: tuple = (), values: tuple = ()) -> None:
    """Raise the error of a frame kernel's ``status``: a bad frame or joint id or a data of another model named
    by the checks of :func:`_frame_id` and :func:`_joint_id`, else the inputs' error (:func:`report`)."""
    if frame_id is None:
        _joint_id(model, data, joint_id)
    else:
        _frame_id(model, data, frame_id)
    report(status, names, model, values)


def _classical(v: Motion, a: Motion) -> Motion:
    return Motion(a.linear + np.cross(v.angular, v.linear), a.angular)


def reference_frame_arg(reference_frame: ReferenceFrame | int) -> ReferenceFrame:
    """``reference_frame`` as a :class:`ReferenceFrame`, or a ``ValueError`` naming the argument."""
    try:
        return ReferenceFrame(reference_frame)
    except ValueError:
        raise ValueError(f"reference_frame: expected one of {[r.name for r in ReferenceFrame]}, got {reference_frame!r}") from None


_REFERENCE_FRAME_CODES = {0: 0, 1: 1, 2: 2}  # ReferenceFrame's values (its members are equal to them)


def reference_frame_code(reference_frame: ReferenceFrame | int) -> int:
    """``reference_frame``'s value (an int the kernels take), or the ``ValueError`` of :func:`reference_frame_arg`."""
    try:
        return _REFERENCE_FRAME_CODES[reference_frame]
    except (KeyError, TypeError):
        return reference_frame_arg(reference_frame).value


def _joint_id(model, data, joint_id) -> int:
    """``joint_id`` as an int, checked against the model; also checks that ``data`` belongs to the model."""
    check_data(model, data)
    if not (isinstance(joint_id, (int, np.integer)) and 0 <= joint_id < model.njoints):
        raise ValueError(f"joint_id: {joint_id!r} is not a joint id of this model (0..{model.njoints - 1})")
    return int(joint_id)


def _frame_id(model, data, frame_id) -> int:
    """``frame_id`` (a frame id or name) as a frame id of the model (:func:`~rbda.model.model.frame_id_arg`); also
    checks that ``data`` belongs to the model."""
    check_data(model, data)
    return frame_id_arg(model, frame_id)
