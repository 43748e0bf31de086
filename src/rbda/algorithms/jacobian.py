"""Joint and frame Jacobians (Pinocchio's jacobian API). ``data.J`` holds the world-frame columns
``oMi.act(S_i)`` of every joint; a joint's or frame's Jacobian takes the columns of its supporting joints and
expresses them in the requested frame."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._native.public import public
from ..kernels import frames as frame_kernels
from ..kernels import kinematics as kinematic_kernels
from .._native.direct import direct
from ..spatial import SE3, Motion, ReferenceFrame, skew
from ._check import report, vector
from ._elementary import workspaces
from .kinematics import (_frame_id, _joint_id, forward_kinematics, frame_ids, frame_ids_failed, reference_frame_arg,
                         reference_frame_code)

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model
    from numpy.typing import ArrayLike

_k = direct(kinematic_kernels)  # the kernels, past numba's per-call dispatch
_frames = direct(frame_kernels)


@public("copy")
def compute_joint_jacobians(model: Model, data: Data, q: ArrayLike | None = None) -> np.ndarray:
    """World-frame Jacobian columns of every joint ``(6, nv)``, with forward kinematics: returns a new array, also
    in ``data.J``. Without ``q``, uses the placements of the last ``forward_kinematics``."""
    J = data.fast_entries.compute_joint_jacobians(model, data, q)  # the bound fast entry (_native/fastcall.py), or None
    if J is not None:
        return J.copy()
    I, F = model.packed
    if q is None:
        status = _k.joint_jacobians_from_placements(I, F, data.ws)
    else:
        status = _k.compute_joint_jacobians(I, F, data.ws, vector(q, model.nq, "q"))
    if status:
        report(status, ("q",), model, (q,))
    return data.J.copy()


def _support_columns(model, joint_id: int) -> np.ndarray:
    """The columns of ``data.J`` (one per joint dof, mimic joints included) of the joints supporting ``joint_id``."""
    idx_v, nvs = model.columns[:2]
    cols = []
    for j in model.supports[joint_id][1:]:
        cols.extend(range(idx_v[j], idx_v[j] + nvs[j]))
    return np.array(cols, dtype=int)


def _model_columns(model, cols: np.ndarray, X: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``out[..., :nv]`` with the columns ``X`` of ``data.J``'s columns ``cols`` in the model's columns: ``J_ext G``,
    a mimic joint's column added, scaled, to its mimicked dof's."""
    out = np.zeros((*X.shape[:-1], model.nv)) if out is None else out
    _, _, col, scale = model.columns
    if col is None:
        out[..., cols] = X
    else:
        np.add.at(np.moveaxis(out, -1, 0), col[cols], np.moveaxis(X * scale[cols], -1, 0))
    return out


def _express_columns(J_world: np.ndarray, oM: SE3, reference_frame) -> np.ndarray:
    """World-frame columns (6, n) expressed in ``reference_frame`` at the placement ``oM``."""
    rf = reference_frame_arg(reference_frame)
    if rf == ReferenceFrame.WORLD:
        return J_world
    out = J_world.copy()
    out[:3] -= skew(oM.translation) @ J_world[3:]  # move the reference point to the frame origin
    if rf == ReferenceFrame.LOCAL:
        out[:3] = oM.rotation.T @ out[:3]
        out[3:] = oM.rotation.T @ out[3:]
    return out


@public("copy")
def get_joint_jacobian(model: Model, data: Data, joint_id: int,
                       reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> np.ndarray:
    """Jacobian ``(6, nv)`` of joint ``joint_id``, from ``data.J`` after :func:`compute_joint_jacobians`;
    ``reference_frame``: ``LOCAL`` (the default), ``WORLD`` or ``LOCAL_WORLD_ALIGNED``. Returns a new array."""
    J = data.fast_entries.get_joint_jacobian(model, data, joint_id, reference_frame)  # the bound fast entry, or None
    if J is not None:
        return J.copy()
    return _jacobian(model, data, None, joint_id, reference_frame_code(reference_frame))


@public("copy", constants=(1,))
def compute_joint_jacobian(model: Model, data: Data, q: ArrayLike, joint_id: int) -> np.ndarray:
    """LOCAL Jacobian ``(6, nv)`` of joint ``joint_id`` at ``q`` (computes the kinematics: fills ``data.oMi``,
    ``data.liMi`` and ``data.J``). Returns a new array."""
    J = data.fast_entries.compute_joint_jacobian(model, data, q, joint_id, 1)  # the bound fast entry (LOCAL), or None
    if J is not None:
        return J.copy()
    return _jacobian(model, data, None, joint_id, ReferenceFrame.LOCAL.value, q)


@public("copy")
def get_frame_jacobian(model: Model, data: Data, frame_id: int | str,
                       reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> np.ndarray:
    """Jacobian ``(6, nv)`` of frame ``frame_id`` (an id or a name), from ``data.J`` after
    :func:`compute_joint_jacobians`; ``reference_frame``: ``LOCAL`` (the default), ``WORLD`` or
    ``LOCAL_WORLD_ALIGNED``. Fills ``data.oMf[frame_id]``; returns a new array."""
    J = data.fast_entries.get_frame_jacobian(model, data, frame_id, reference_frame)  # the bound fast entry, or None
    if J is not None:
        return J.copy()
    return _jacobian(model, data, frame_id, 0, reference_frame_code(reference_frame))


@public("copy")
def compute_frame_jacobian(model: Model, data: Data, q: ArrayLike, frame_id: int | str,
                           reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> np.ndarray:
    """Jacobian ``(6, nv)`` of frame ``frame_id`` (an id or a name) at configuration ``q: (nq,)`` (computes the
    kinematics itself); ``reference_frame``: ``LOCAL`` (the default), ``WORLD`` or ``LOCAL_WORLD_ALIGNED``. Fills
    ``data.oMi``, ``data.liMi``, ``data.oMf[frame_id]`` and ``data.J``; returns a new array."""
    J = data.fast_entries.compute_frame_jacobian(model, data, q, frame_id, reference_frame)  # the bound fast entry, or None
    if J is not None:
        return J.copy()
    return _jacobian(model, data, frame_id, 0, reference_frame_code(reference_frame), q)


def _jacobian(model, data, frame_id, joint_id, rf: int, q=None) -> np.ndarray:
    """The Jacobian of frame ``frame_id`` (an id or a name; joint ``joint_id`` if None) in the reference frame of
    code ``rf``, after the joint Jacobians at ``q`` if given (the kernels of ``kernels/frames.py``; with mimic
    joints, whose ``data.J`` has a column per joint dof, the columns compressed to the model's)."""
    if model.mimicking_joints:
        if q is not None:
            compute_joint_jacobians(model, data, q)
        if frame_id is not None:
            frame_id = _frame_id(model, data, frame_id)
            f = model.frames[frame_id]
            joint_id, oM = f.parent_joint, data.oMi[f.parent_joint] * f.placement
            data.oMf[frame_id] = oM
        else:
            joint_id = _joint_id(model, data, joint_id)
            oM = data.oMi[joint_id]
        cols = _support_columns(model, joint_id)
        return _model_columns(model, cols, _express_columns(data.J[:, cols], oM, rf))
    f, j = frame_ids(model, data, frame_id, joint_id)
    I, F = model.packed
    out = np.empty((6, model.nv))
    if q is None:
        status = _frames.frame_jacobian(I, F, data.ws, f, j, rf, out)
    else:
        q = vector(q, model.nq, "q")
        status = _frames.compute_frame_jacobian(I, F, data.ws, q, f, j, rf, out)
    if status:
        frame_ids_failed(model, data, status, frame_id, joint_id, ("q",), (q,))
    return out


# ------------------------------------------------------------------------------------------------ time variation
@public("copy")
def compute_joint_jacobians_time_variation(model: Model, data: Data, q: ArrayLike, v: ArrayLike) -> np.ndarray:
    """``data.J`` and its time derivative ``data.dJ`` ``(6, nv)`` (world frame) at ``(q, v)``; also fills
    ``data.oMi``, ``data.liMi``, ``data.v`` (the forward kinematics at ``(q, v)``). Returns ``dJ``, a new array.

    A column moves with its joint's body, ``dJ_k = ov_j x J_k``, when the joint's motion subspace is constant in
    its frame; a model with universal, spherical-ZYX or composite joints is evaluated on its elementary twin,
    where every subspace is.
    """
    dJ = data.fast_entries.compute_joint_jacobians_time_variation(model, data, q, v)  # the bound fast entry, or None
    if dJ is not None:
        return dJ.copy()
    q, v = vector(q, model.nq, "q"), vector(v, model.nv, "v")
    I, F, ws, _, elementary = workspaces(model, data)
    status = _k.jacobians_time_variation(I, F, ws, q, v)
    if status:
        report(status, ("q", "v"), model, (q, v))
    if elementary is not None:
        data.J[...], data.dJ[...] = data.elementary_data.J, data.elementary_data.dJ
        forward_kinematics(model, data, q, v)
    return data.dJ.copy()


@public("copy")
def get_joint_jacobian_time_variation(model: Model, data: Data, joint_id: int,
                                      reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> np.ndarray:
    """``dJ/dt`` ``(6, nv)`` of joint ``joint_id``, after :func:`compute_joint_jacobians_time_variation`;
    ``reference_frame``: ``LOCAL`` (the default), ``WORLD`` or ``LOCAL_WORLD_ALIGNED``."""
    dJ = data.fast_entries.get_joint_jacobian_time_variation(model, data, joint_id, reference_frame)  # fast entry, or None
    if dJ is not None:
        return dJ.copy()
    return _time_variation(model, data, None, joint_id, reference_frame)


@public("copy")
def get_frame_jacobian_time_variation(model: Model, data: Data, frame_id: int | str,
                                      reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> np.ndarray:
    """``dJ/dt`` ``(6, nv)`` of frame ``frame_id`` (an id or a name), after
    :func:`compute_joint_jacobians_time_variation`; ``reference_frame``: ``LOCAL`` (the default), ``WORLD`` or
    ``LOCAL_WORLD_ALIGNED``."""
    dJ = data.fast_entries.get_frame_jacobian_time_variation(model, data, frame_id, reference_frame)  # fast entry, or None
    if dJ is not None:
        return dJ.copy()
    return _time_variation(model, data, frame_id, 0, reference_frame)


def _time_variation(model, data, frame_id, joint_id, reference_frame) -> np.ndarray:
    """``dJ/dt`` of frame ``frame_id`` (an id or a name; joint ``joint_id`` if None): the kernel
    ``kernels.frames.frame_jacobian_time_variation``, or with mimic joints (whose ``data.J`` has a column per joint
    dof) :func:`_jacobian_time_variation`."""
    rf = reference_frame_code(reference_frame)
    if model.mimicking_joints:
        if frame_id is None:
            joint_id = _joint_id(model, data, joint_id)
            return _jacobian_time_variation(model, data, joint_id, data.oMi[joint_id], rf)
        f = model.frames[_frame_id(model, data, frame_id)]
        return _jacobian_time_variation(model, data, f.parent_joint, data.oMi[f.parent_joint] * f.placement, rf)
    f, j = frame_ids(model, data, frame_id, joint_id)
    I, F = model.packed
    out = np.empty((6, model.nv))
    status = _frames.frame_jacobian_time_variation(I, F, data.ws, f, j, rf, out)
    if status:
        frame_ids_failed(model, data, status, frame_id, joint_id)
    return out


def _jacobian_time_variation(model, data, joint_id: int, oM: SE3, reference_frame) -> np.ndarray:
    """Derivative of ``_express_columns(J, oM, rf)``: the frame ``oM`` moves with the spatial velocity
    ``V = J q_dot`` (world), i.e. its origin with ``p_dot = V_lin + V_ang x p``."""
    cols = _support_columns(model, joint_id)
    J, dJ = data.J[:, cols], data.dJ[:, cols]
    rf = reference_frame_arg(reference_frame)
    if rf == ReferenceFrame.WORLD:
        return _model_columns(model, cols, dJ)
    V = Motion(data.ov_of(joint_id))
    p_dot = V.linear + np.cross(V.angular, oM.translation)
    lwa = _express_columns(dJ, oM, ReferenceFrame.LOCAL_WORLD_ALIGNED)
    lwa[:3] -= skew(p_dot) @ J[3:]
    if rf == ReferenceFrame.LOCAL_WORLD_ALIGNED:
        return _model_columns(model, cols, lwa)
    # LOCAL = R^T LWA; d/dt R^T = -R^T w_x
    R, w = oM.rotation, V.angular
    J_lwa = _express_columns(J, oM, ReferenceFrame.LOCAL_WORLD_ALIGNED)
    local = np.concatenate([R.T @ (lwa[:3] - skew(w) @ J_lwa[:3]), R.T @ (lwa[3:] - skew(w) @ J_lwa[3:])])
    return _model_columns(model, cols, local)


# ------------------------------------------------------------------------------------------------ kinematic Hessians
@public("copy")
def compute_joint_kinematic_hessians(model: Model, data: Data, q: ArrayLike) -> np.ndarray:
    """Derivatives of the world-frame Jacobian columns, ``H[:, j, k] = dJ_j / dq_k`` ``(6, nv, nv)``, in the
    tangent space (``q (+) eps e_k``); returns a new array, also in ``data.kinematic_hessians``, and fills
    ``data.J``, ``data.oMi``.

    Moving ``q_k`` moves every frame below its joint with the twist ``J_k``, so a column of a joint whose motion
    subspace is constant varies as ``J_k x J_j`` (``k`` a dof of the same joint or of an ancestor), and is
    constant otherwise. A model with universal, spherical-ZYX or composite joints is evaluated on its elementary
    twin, where every subspace is constant. With mimic joints the kernel works over ``data.J``'s columns (one per
    joint dof, ``data.kinematic_hessians_extended``) and compresses on both dof axes, ``H_ext G G``.
    """
    H = data.fast_entries.compute_joint_kinematic_hessians(model, data, q)  # the bound fast entry, or None
    if H is not None:
        return H.copy()
    q = vector(q, model.nq, "q")
    I, F, ws, _, elementary = workspaces(model, data)
    status = _k.kinematic_hessians(I, F, ws, q, data.kinematic_hessians_extended, data.kinematic_hessians)
    if status:
        report(status, ("q",), model, (q,))
    if elementary is not None:
        compute_joint_jacobians(model, data, q)
    return data.kinematic_hessians.copy()


def get_joint_kinematic_hessian(model: Model, data: Data, joint_id: int,
                                reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL_WORLD_ALIGNED) -> np.ndarray:
    """``d J / d q`` ``(6, nv, nv)`` of joint ``joint_id``'s Jacobian in ``reference_frame``, ``H[:, j, k] =
    dJ[:, j] / dq_k`` (after ``compute_joint_kinematic_hessians``)."""
    rf = reference_frame_code(reference_frame)
    if not model.mimicking_joints:
        I, F = model.packed
        out = np.empty((6, model.nv, model.nv))
        j = joint_id if type(joint_id) is int else _joint_id(model, data, joint_id)
        status = _frames.joint_kinematic_hessian(I, F, data.ws, j, rf, data.kinematic_hessians_extended, out)
        if status:
            frame_ids_failed(model, data, status, None, joint_id)
        return out
    joint_id = _joint_id(model, data, joint_id)
    cols = _support_columns(model, joint_id)
    nx = model.nv_extended
    Hw = np.zeros((6, nx, nx))
    Hw[:, cols[:, None], cols[None, :]] = data.kinematic_hessians_extended[:, cols[:, None], cols[None, :]]
    if rf == ReferenceFrame.WORLD:
        return _model_hessian(model, Hw)
    oM = data.oMi[joint_id]
    J = data.J
    out = np.zeros_like(Hw)
    for k in cols:
        Jk = Motion(J[:, k])
        p_dot = Jk.linear + np.cross(Jk.angular, oM.translation)  # velocity of the joint origin along q_k
        for j in cols:
            d_lwa = _express_columns(Hw[:, j, k][:, None], oM, ReferenceFrame.LOCAL_WORLD_ALIGNED)[:, 0]
            d_lwa[:3] += np.cross(J[3:, j], p_dot)
            if rf == ReferenceFrame.LOCAL_WORLD_ALIGNED:
                out[:, j, k] = d_lwa
            else:  # LOCAL = R^T LWA, with dR^T/dq_k = -R^T (w_k)_x
                J_lwa = _express_columns(J[:, j][:, None], oM, ReferenceFrame.LOCAL_WORLD_ALIGNED)[:, 0]
                out[:3, j, k] = oM.rotation.T @ (d_lwa[:3] - np.cross(Jk.angular, J_lwa[:3]))
                out[3:, j, k] = oM.rotation.T @ (d_lwa[3:] - np.cross(Jk.angular, J_lwa[3:]))
    return _model_hessian(model, out)


def _model_hessian(model, H: np.ndarray) -> np.ndarray:
    """``H`` ``(6, nv_extended, nv_extended)`` over ``data.J``'s columns in the model's dofs, ``H G G`` on both
    axes (:func:`_model_columns` twice); ``H`` itself without mimic joints."""
    if not model.mimicking_joints:
        return H
    cols = np.arange(model.nv_extended)
    H = _model_columns(model, cols, H)  # the last axis, then the middle one
    return np.swapaxes(_model_columns(model, cols, np.swapaxes(H, 1, 2)), 1, 2).copy()


def body_jacobians_and_derivatives(model: Model, data: Data, q: ArrayLike, v: ArrayLike):
    """For every joint i >= 1, its world-frame body Jacobian ``(6, nv)`` and its time derivative."""
    compute_joint_jacobians_time_variation(model, data, q, v)
    for i in range(1, model.njoints):
        cols = _support_columns(model, i)
        yield _model_columns(model, cols, data.J[:, cols]), _model_columns(model, cols, data.dJ[:, cols])


__all__ = [
    "compute_joint_kinematic_hessians", "get_joint_kinematic_hessian",
    "compute_joint_jacobians_time_variation", "get_joint_jacobian_time_variation",
    "get_frame_jacobian_time_variation",
    "compute_joint_jacobians", "get_joint_jacobian", "compute_joint_jacobian", "get_frame_jacobian",
    "compute_frame_jacobian", "forward_kinematics",
]
