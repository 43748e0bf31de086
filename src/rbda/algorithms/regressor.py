"""Regressors (Pinocchio's ``regressor`` API): quantities that are linear in the inertial parameters written as
``Y pi``, with ``pi`` the stacked dynamic parameters of the bodies ``(m, m c, Ixx, Ixy, Iyy, Ixz, Iyz, Izz)``
(rotational inertia about the joint frame, :meth:`Inertia.to_dynamic_parameters`), 10 per joint 1..njoints-1;
and the kinematic regressors, linear in the variations of the joint placements.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..kernels import regressor
from .._native.direct import direct
from ..spatial import SE3, Motion, ReferenceFrame
from ..spatial._validate import as_array
from ._check import report, vector
from .kinematics import _frame_id, _joint_id, forward_kinematics, reference_frame_arg

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model
    from numpy.typing import ArrayLike

_k = direct(regressor)  # the kernels, past numba's per-call dispatch


def _motion(x, name: str) -> np.ndarray:
    if isinstance(x, Motion):
        return np.ascontiguousarray(x.vector)
    return np.ascontiguousarray(as_array(x, (6,), name))


def body_regressor(velocity: ArrayLike, acceleration: ArrayLike) -> np.ndarray:
    """``(6, 10)`` matrix ``B`` with ``B @ Y.to_dynamic_parameters() == Y a + v x* (Y v)`` for any inertia ``Y``:
    ``velocity``, ``acceleration`` spatial (Motion or ``(6,)``) in the body frame."""
    out = np.empty((10, 6))
    _k.body_regressor(_motion(velocity, "velocity"), _motion(acceleration, "acceleration"), out)
    return out.T.copy()


def joint_body_regressor(model: Model, data: Data, joint_id: int) -> np.ndarray:
    """Body regressor ``(6, 10)`` of joint ``joint_id``'s body at its velocity ``data.v`` and acceleration with
    gravity ``data.a_gf`` (run :func:`rnea` first): times the body's parameters it gives ``data.f`` of a leaf."""
    j = _joint_id(model, data, joint_id)
    return body_regressor(data.v[j], data.a_gf[j])


def frame_body_regressor(model: Model, data: Data, frame_id: int | str) -> np.ndarray:
    """Body regressor ``(6, 10)`` of a body attached at frame ``frame_id`` (an id or a name; velocity and
    acceleration with gravity of the frame, from the last :func:`rnea`), for parameters expressed in that frame."""
    frame_id = _frame_id(model, data, frame_id)
    f = model.frames[frame_id]
    j = f.parent_joint
    return body_regressor(f.placement.act_inv(Motion(data.v[j])), f.placement.act_inv(Motion(data.a_gf[j])))


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


def compute_static_regressor(model: Model, data: Data, q: ArrayLike) -> np.ndarray:
    """``(3, 4 (njoints - 1))`` with ``com(q) == S @ phi``, ``phi`` the stacked ``(m, m c)`` of the bodies and the
    total mass fixed (block i is ``[p_i, R_i] / total_mass``): a new array, also in ``data.static_regressor``."""
    forward_kinematics(model, data, q)
    total = sum(Y.mass for Y in model.inertias[1:])
    S = data.static_regressor
    for i in range(1, model.njoints):
        S[:, 4 * (i - 1)] = data.oMi[i].translation / total
        S[:, 4 * (i - 1) + 1 : 4 * i] = data.oMi[i].rotation / total
    return S.copy()


def compute_kinetic_energy_regressor(model: Model, data: Data, q: ArrayLike, v: ArrayLike) -> np.ndarray:
    """``(10 (njoints - 1),)`` with ``kinetic energy == r @ pi`` (without armature) at ``q: (nq,)``, ``v: (nv,)``:
    per body ``1/2 m |v|^2 + (m c) . (v x w) + 1/2 w^T I w`` in the body frame. A new array, also in
    ``data.kinetic_energy_regressor``."""
    forward_kinematics(model, data, q, v)
    r = data.kinetic_energy_regressor.reshape(-1, 10)
    lin, w = data.v[1:, :3], data.v[1:, 3:]
    r[:, 0] = 0.5 * np.einsum("ij,ij->i", lin, lin)
    r[:, 1:4] = np.cross(lin, w)
    w0, w1, w2 = w.T
    r[:, 4:] = np.stack([0.5 * w0 * w0, w0 * w1, 0.5 * w1 * w1, w0 * w2, w1 * w2, 0.5 * w2 * w2], axis=1)
    return data.kinetic_energy_regressor.copy()


def compute_potential_energy_regressor(model: Model, data: Data, q: ArrayLike) -> np.ndarray:
    """``(10 (njoints - 1),)`` with ``potential energy == r @ pi`` at ``q: (nq,)``: per body ``-g . p`` for m and
    ``-R^T g`` for ``m c``. A new array, also in ``data.potential_energy_regressor``."""
    forward_kinematics(model, data, q)
    r = data.potential_energy_regressor.reshape(-1, 10)
    g = model.gravity.linear
    r[:] = 0.0
    for i in range(1, model.njoints):
        r[i - 1, 0] = -g @ data.oMi[i].translation
        r[i - 1, 1:4] = -data.oMi[i].rotation.T @ g
    return data.potential_energy_regressor.copy()


def compute_joint_kinematic_regressor(model: Model, data: Data, joint_id: int, reference_frame: ReferenceFrame | int,
                                      placement: SE3 | None = None) -> np.ndarray:
    """``(6, 6 (njoints - 1))`` map from variations ``delta_i`` of the joint placements
    (``joint_placements[i] * exp6(delta_i)``) to the variation of the frame at ``placement`` on joint
    ``joint_id``, as the twist ``log6(oMf^-1 oMf')`` in ``reference_frame`` (LOCAL; WORLD = ``oMf.act``; LOCAL_WORLD_ALIGNED
    = rotated by oMf). Uses the placements of the last :func:`forward_kinematics`.

    For a supporting joint i, ``oMf' = A exp(delta_i) A^-1 oMf`` with ``A = oMi[parent] * joint_placements[i]``,
    so its block is ``Ad(A)`` in the world frame; other blocks are 0.
    """
    j = _joint_id(model, data, joint_id)
    rf = reference_frame_arg(reference_frame)
    if placement is not None and not isinstance(placement, SE3):
        raise TypeError(f"placement: expected an SE3, got {type(placement).__name__}")
    oMf = data.oMi[j] if placement is None else data.oMi[j] * placement
    if rf == ReferenceFrame.WORLD:
        to_frame = np.eye(6)
    elif rf == ReferenceFrame.LOCAL:
        to_frame = oMf.action_inverse
    else:
        to_frame = SE3(np.eye(3), -oMf.translation).action
    out = np.zeros((6, 6 * (model.njoints - 1)))
    for i in model.supports[j][1:]:
        A = data.oMi[model.parents[i]] * model.joint_placements[i]
        out[:, 6 * (i - 1) : 6 * i] = to_frame @ A.action
    return out


def compute_frame_kinematic_regressor(model: Model, data: Data, frame_id: int | str,
                                      reference_frame: ReferenceFrame | int) -> np.ndarray:
    """:func:`compute_joint_kinematic_regressor` of frame ``frame_id`` (an id or a name; its parent joint and
    placement), in ``reference_frame`` (``LOCAL``, ``WORLD`` or ``LOCAL_WORLD_ALIGNED``)."""
    frame_id = _frame_id(model, data, frame_id)
    f = model.frames[frame_id]
    return compute_joint_kinematic_regressor(model, data, f.parent_joint, reference_frame, f.placement)


__all__ = ["body_regressor", "joint_body_regressor", "frame_body_regressor", "compute_joint_torque_regressor",
           "compute_static_regressor", "compute_kinetic_energy_regressor", "compute_potential_energy_regressor",
           "compute_joint_kinematic_regressor", "compute_frame_kinematic_regressor"]
