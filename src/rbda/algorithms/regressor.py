"""Regressors (Pinocchio's ``regressor`` API): quantities that are linear in the inertial parameters written as
``Y pi``, with ``pi`` the stacked dynamic parameters of the bodies ``(m, m c, Ixx, Ixy, Iyy, Ixz, Iyz, Izz)``
(rotational inertia about the joint frame, :meth:`Inertia.to_dynamic_parameters`), 10 per joint 1..njoints-1;
and the kinematic regressors, linear in the variations of the joint placements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._native.public import public
from ..kernels import frames, regressor
from .._native.direct import direct
from ..spatial import SE3, Motion, ReferenceFrame
from ._check import check_data, report, vector
from .kinematics import frame_ids, frame_ids_failed, reference_frame_code

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model
    from numpy.typing import ArrayLike

_k = direct(regressor)  # the kernels, past numba's per-call dispatch
_frames = direct(frames)


def _motion(x, name: str) -> np.ndarray:
    return vector(x.vector if isinstance(x, Motion) else x, 6, name)


def body_regressor(velocity: ArrayLike, acceleration: ArrayLike) -> np.ndarray:
    """``(6, 10)`` matrix ``B`` with ``B @ Y.to_dynamic_parameters() == Y a + v x* (Y v)`` for any inertia ``Y``:
    ``velocity``, ``acceleration`` spatial (Motion or ``(6,)``) in the body frame."""
    out = np.empty((10, 6))
    _k.body_regressor(_motion(velocity, "velocity"), _motion(acceleration, "acceleration"), out)
    return out.T.copy()


@public("copy")
def joint_body_regressor(model: Model, data: Data, joint_id: int) -> np.ndarray:
    """Body regressor ``(6, 10)`` of joint ``joint_id``'s body at its velocity ``data.v`` and acceleration with
    gravity ``data.a_gf`` (run :func:`rnea` first): times the body's parameters it gives ``data.f`` of a leaf."""
    B = data.fast_entries.joint_body_regressor(model, data, joint_id)  # the bound fast entry, or None
    return B.copy() if B is not None else _body_regressor_at(model, data, None, joint_id)


@public("copy")
def frame_body_regressor(model: Model, data: Data, frame_id: int | str) -> np.ndarray:
    """Body regressor ``(6, 10)`` of a body attached at frame ``frame_id`` (an id or a name; velocity and
    acceleration with gravity of the frame, from the last :func:`rnea`), for parameters expressed in that frame."""
    B = data.fast_entries.frame_body_regressor(model, data, frame_id)  # the bound fast entry, or None
    return B.copy() if B is not None else _body_regressor_at(model, data, frame_id, 0)


def _body_regressor_at(model, data, frame_id, joint_id) -> np.ndarray:
    """The body regressor of frame ``frame_id`` (an id or a name; joint ``joint_id`` if None) at its LOCAL velocity
    and acceleration with gravity, a new array."""
    f, j = frame_ids(model, data, frame_id, joint_id)
    I, F = model.packed
    out = np.empty((6, 10))
    status = _k.frame_body_regressor(I, F, data.ws, f, j, out)
    if status:
        frame_ids_failed(model, data, status, frame_id, joint_id)
    return out


def compute_joint_torque_regressor(model: Model, data: Data, q: ArrayLike, v: ArrayLike, a: ArrayLike) -> np.ndarray:
    """``Y (nv, 10 (njoints - 1))`` with ``rnea(q, v, a) == Y @ pi + armature * a``, at ``q: (nq,)``,
    ``v, a: (nv,)``: a new array, also in ``data.joint_torque_regressor``. Fills ``data.v``, ``data.a_gf``,
    ``data.J``."""
    I, F = model.packed
    q, v, a = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(a, model.nv, "a")
    status = _k.joint_torque_regressor(I, F, data.ws, data.wb, q, v, a, data.torque_regressor_rows)
    if status:
        report(status, ("q", "v", "a"), model, (q, v, a))
    return data.joint_torque_regressor.copy()


@public("copy")
def compute_static_regressor(model: Model, data: Data, q: ArrayLike) -> np.ndarray:
    """``(3, 4 (njoints - 1))`` with ``com(q) == S @ phi``, ``phi`` the stacked ``(m, m c)`` of the bodies and the
    total mass fixed (block i is ``[p_i, R_i] / total_mass``): a new array, also in ``data.static_regressor``. Fills
    ``data.oMi``, ``data.liMi``."""
    if data.fast_entries.compute_static_regressor(model, data, q) is None:  # the bound fast entry, or None
        _regressor(model, data, _k.static_regressor, data.static_regressor.reshape(-1), q)
    return data.static_regressor.copy()


@public("copy")
def compute_kinetic_energy_regressor(model: Model, data: Data, q: ArrayLike, v: ArrayLike) -> np.ndarray:
    """``(10 (njoints - 1),)`` with ``kinetic energy == r @ pi`` (without armature) at ``q: (nq,)``, ``v: (nv,)``:
    per body ``1/2 m |v|^2 + (m c) . (v x w) + 1/2 w^T I w`` in the body frame. A new array, also in
    ``data.kinetic_energy_regressor``. Fills ``data.oMi``, ``data.liMi``, ``data.v``."""
    r = data.fast_entries.compute_kinetic_energy_regressor(model, data, q, v)  # the bound fast entry, or None
    if r is None:
        r = _regressor(model, data, _k.kinetic_energy_regressor, data.kinetic_energy_regressor, q, v)
    return r.copy()


@public("copy")
def compute_potential_energy_regressor(model: Model, data: Data, q: ArrayLike) -> np.ndarray:
    """``(10 (njoints - 1),)`` with ``potential energy == r @ pi`` at ``q: (nq,)``: per body ``-g . p`` for m and
    ``-R^T g`` for ``m c``. A new array, also in ``data.potential_energy_regressor``. Fills ``data.oMi``,
    ``data.liMi``."""
    r = data.fast_entries.compute_potential_energy_regressor(model, data, q)  # the bound fast entry, or None
    if r is None:
        r = _regressor(model, data, _k.potential_energy_regressor, data.potential_energy_regressor, q)
    return r.copy()


def _regressor(model, data, kernel, out: np.ndarray, q, v=None) -> np.ndarray:
    """``kernel(I, F, ws, out, q[, v])`` (``out`` 1-D, a data field or a view of one), the inputs checked, its
    status reported; returns ``out``."""
    check_data(model, data)
    I, F = model.packed
    q = vector(q, model.nq, "q")
    if v is None:
        status = kernel(I, F, data.ws, out, q)
    else:
        status = kernel(I, F, data.ws, out, q, vector(v, model.nv, "v"))
    if status:
        report(status, ("q", "v"), model, (q, v))
    return out


@public("copy", arity=4)
def compute_joint_kinematic_regressor(model: Model, data: Data, joint_id: int, reference_frame: ReferenceFrame | int,
                                      placement: SE3 | None = None) -> np.ndarray:
    """``(6, 6 (njoints - 1))`` map from variations ``delta_i`` of the joint placements
    (``joint_placements[i] * exp6(delta_i)``) to the variation of the frame at ``placement`` on joint
    ``joint_id``, as the twist ``log6(oMf^-1 oMf')`` in ``reference_frame`` (LOCAL; WORLD = ``oMf.act``; LOCAL_WORLD_ALIGNED
    = rotated by oMf). Uses the placements of the last :func:`forward_kinematics`.

    For a supporting joint i, ``oMf' = A exp(delta_i) A^-1 oMf`` with ``A = oMi[parent] * joint_placements[i]``,
    so its block is ``Ad(A)`` in the world frame; other blocks are 0.
    """
    if placement is None:
        R = data.fast_entries.compute_joint_kinematic_regressor(model, data, joint_id, reference_frame)  # or None
        if R is not None:
            return R.copy()
        return _kinematic_regressor(model, data, None, joint_id, _NO_PLACEMENT, reference_frame)
    if not isinstance(placement, SE3):
        raise TypeError(f"placement: expected an SE3, got {type(placement).__name__}")
    P = np.empty((3, 4))
    P[:, :3], P[:, 3] = placement.rotation, placement.translation
    return _kinematic_regressor(model, data, None, joint_id, P, reference_frame)


def _kinematic_regressor(model, data, frame_id, joint_id, P, reference_frame) -> np.ndarray:
    """``kernels.frames.kinematic_regressor`` of frame ``frame_id`` (an id or a name; if None, of the placement
    ``P`` (3, 4) on joint ``joint_id``), a new array."""
    f, j = frame_ids(model, data, frame_id, joint_id)
    I, F = model.packed
    out = np.empty((6, 6 * (model.njoints - 1)))
    status = _frames.kinematic_regressor(I, F, data.ws, f, j, P, reference_frame_code(reference_frame), out)
    if status:
        frame_ids_failed(model, data, status, frame_id, joint_id)
    return out


@public("copy")
def compute_frame_kinematic_regressor(model: Model, data: Data, frame_id: int | str,
                                      reference_frame: ReferenceFrame | int) -> np.ndarray:
    """:func:`compute_joint_kinematic_regressor` of frame ``frame_id`` (an id or a name; its parent joint and
    placement), in ``reference_frame`` (``LOCAL``, ``WORLD`` or ``LOCAL_WORLD_ALIGNED``)."""
    R = data.fast_entries.compute_frame_kinematic_regressor(model, data, frame_id, reference_frame)  # or None
    if R is not None:
        return R.copy()
    return _kinematic_regressor(model, data, frame_id, 0, _NO_PLACEMENT, reference_frame)


#: the placement argument of a joint's own frame, and of a frame's regressor (the kernel reads the frame's)
_NO_PLACEMENT = np.zeros((0, 4))


__all__ = ["body_regressor", "joint_body_regressor", "frame_body_regressor", "compute_joint_torque_regressor",
           "compute_static_regressor", "compute_kinetic_energy_regressor", "compute_potential_energy_regressor",
           "compute_joint_kinematic_regressor", "compute_frame_kinematic_regressor"]
