"""Inertia and force supported by a frame (Pinocchio's ``computeSupportedInertiaByFrame`` and
``computeSupportedForceByFrame``): what a frame on a body carries of that body, and of the joints below it.

The part of a body that a frame supports is the inertia the frame and the frames declared after it on the
same joint, descending from it (``parent_frame`` chain), brought in (``Frame.inertia``, added to the body by
``model.add_frame(frame, append_inertia=True)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..spatial import Force, Inertia, Motion
from ..spatial.inertia import _inertia
from ..spatial.skew import cross3
from .center_of_mass import subtree_mask
from .kinematics import _frame_id

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model


def _frame_inertias(model, frame_id: int) -> Inertia:
    """Inertia of frame ``frame_id`` and of the frames hanging from it on the same joint, in the joint frame."""
    frame = model.frames[frame_id]
    chain, frames = {frame_id}, [frame]
    for k in range(frame_id + 1, model.nframes):
        f = model.frames[k]
        if f.parent_joint == frame.parent_joint and f.parent_frame in chain:
            chain.add(k)
            frames.append(f)
    if len(frames) == 1:
        return _act(frame.placement, frame.inertia)
    placements = np.empty((len(frames), 3, 4))
    for P, f in zip(placements, frames):
        P[:, :3], P[:, 3] = f.placement.rotation, f.placement.translation
    return _sum(placements, [f.inertia for f in frames])


def compute_supported_inertia_by_frame(model: Model, data: Data, frame_id: int | str, with_subtree: bool) -> Inertia:
    """Inertia supported by frame ``frame_id`` (an id or a name), expressed in that frame: its own and its child
    frames' inertias and, if ``with_subtree``, the bodies of every joint below its parent joint (placements of the
    last :func:`forward_kinematics`)."""
    frame_id = _frame_id(model, data, frame_id)
    frame = model.frames[frame_id]
    Y = _frame_inertias(model, frame_id)
    if not with_subtree:
        return _act(frame.placement, Y, inverse=True)
    j = frame.parent_joint
    bodies = np.flatnonzero(subtree_mask(model, j))  # j (standing for Y), then the joints below it
    if len(bodies) == 1:
        Y_world = _act(data.oMi[j], Y)
    else:
        Y_world = _sum(data.oMi.array[bodies], [Y] + [model.inertias[k] for k in bodies[1:]])
    return _act(data.oMi[j] * frame.placement, Y_world, inverse=True)


def _act(M, Y: Inertia, inverse: bool = False) -> Inertia:
    """``M.act(Y)`` (``M.act_inv(Y)`` if ``inverse``) for an inertia of the model or a sum of them, built as the
    constructor builds it, without its checks (the model's inertias passed them)."""
    R, p = M.rotation, M.translation
    if inverse:
        return _inertia(Y.mass, R.T @ (Y.lever - p), R.T @ Y.inertia @ R)
    return _inertia(Y.mass, p + R @ Y.lever, R @ Y.inertia @ R.T)


def _sum(placements: np.ndarray, inertias: list) -> Inertia:
    """``sum_k placements[k].act(inertias[k])`` (``placements`` ``(n, 3, 4)``, n >= 2): the masses, centres and
    rotational inertias about the common centre ``c`` (``I_k + m_k (|d_k|^2 1 - d_k d_k^T)``, ``d_k = c_k - c``).
    Massless, at the origin (as ``Inertia.__add__`` gives it)."""
    R, p = placements[:, :, :3], placements[:, :, 3]
    m = np.array([X.mass for X in inertias])
    c = np.einsum("kij,kj->ki", R, np.array([X.lever for X in inertias])) + p
    I_c = R @ np.array([X.inertia for X in inertias]) @ R.transpose(0, 2, 1)
    total = m.sum()
    if total == 0.0:
        return _inertia(0.0, np.zeros(3), I_c.sum(axis=0))
    center = m @ c / total
    d = c - center
    spread = (m * (d * d).sum(axis=1)).sum() * np.eye(3) - (m[:, None] * d).T @ d
    return _inertia(total, center, I_c.sum(axis=0) + spread)


def compute_supported_force_by_frame(model: Model, data: Data, frame_id: int | str) -> Force:
    """Force that frame ``frame_id`` (an id or a name) transmits, expressed in that frame: the rate of momentum of
    the inertia it supports on its body, with gravity (``Y a_gf + v x* Y v``, velocity and acceleration of the
    frame), plus the forces ``data.f`` of the child joints of its parent joint (run :func:`rnea` first)."""
    frame_id = _frame_id(model, data, frame_id)
    frame = model.frames[frame_id]
    j = frame.parent_joint
    Y = _act(frame.placement, _frame_inertias(model, frame_id), inverse=True)
    v = frame.placement.act_inv(Motion(data.v[j]))
    a = frame.placement.act_inv(Motion(data.a_gf[j]))
    f = frame.placement.act(Y * a + Y.vxiv(v))
    children = np.flatnonzero(np.asarray(model.parents) == j)
    children = children[children > 0]
    if len(children):  # sum_k liMi[k].act(f_k): [R f; R tau + p x R f]
        R, p = data.liMi.array[children, :, :3], data.liMi.array[children, :, 3]
        Rf, Rt = np.einsum("kij,kj->ki", R, data.f[children, :3]), np.einsum("kij,kj->ki", R, data.f[children, 3:])
        f = f + Force(Rf.sum(axis=0), (Rt + cross3(p.T, Rf.T).T).sum(axis=0))
    return frame.placement.act_inv(f)


__all__ = ["compute_supported_inertia_by_frame", "compute_supported_force_by_frame"]
