"""A model with mimic joints and the same tree with those joints freed.

A model with mimic joints has ``q`` and ``v`` without the mimic joints' coordinates; the kernels run over one
column per joint dof (``nv_extended``, ``kernels/mimic.py``). :func:`free_mimic_joints` builds the same tree in
which every mimic joint is an ordinary joint with its own coordinate, and the affine map from the model's
coordinates to its: ``q_free = q[q_src] * q_scale + q_offset`` (mimic joints live on vector spaces), ``v_free =
G v``. Packing reads its tables (``Model._pack_mimic``), and model surgery edits it (``surgery.py``); no
algorithm runs on it.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..joints import JointModelMimic
from ..spatial._validate import as_array


class MimicMap(namedtuple("MimicMap", "q_src q_scale q_offset G keep_q keep_v")):
    """``q_free = q[q_src] * q_scale + q_offset``, ``v_free = G v`` (``G`` (nv_extended, nv)); ``keep_q``/``keep_v``
    the indices of the model's own coordinates in the freed tree's (``q = q_free[keep_q]``, ``v = v_free[keep_v]``)."""

    __slots__ = ()

    def expand(self, q, name: str = "q") -> np.ndarray:
        """``q_free (nq_free,)`` for a configuration ``q (nq,)`` of the model (checked, named ``name``)."""
        return as_array(q, (len(self.keep_q),), name)[self.q_src] * self.q_scale + self.q_offset


def free_mimic_joints(model) -> tuple:
    """``(free, mimic_map)``: ``model``'s tree with every mimic joint an ordinary joint with its own coordinate
    (same names, placements, inertias, frames, gravity; the model's limits, friction, damping and armature on its
    own joints), and the :class:`MimicMap` from ``model``'s coordinates to ``free``'s."""
    from .model import Model

    free = Model(model.name)
    q_src, q_scale, q_offset, keep_q, keep_v = [], [], [], [], []
    G = np.zeros((model.nv_extended, model.nv))
    for i in range(1, model.njoints):
        joint, iq, iv = model.joints[i], model.idx_q[i], model.idx_v[i]
        nq, nv = model.nqs[i], model.nvs[i]
        if isinstance(joint, JointModelMimic):
            free.add_joint(model.parents[i], joint.joint, model.joint_placements[i], model.names[i])
            q_src.append(iq)
            q_scale.append(joint.scaling)
            q_offset.append(joint.offset)
            G[free.idx_v[i], iv] = joint.scaling
            continue
        free.add_joint(model.parents[i], joint, model.joint_placements[i], model.names[i],
                       model.effort_limit[iv : iv + nv], model.velocity_limit[iv : iv + nv],
                       model.lower_position_limit[iq : iq + nq], model.upper_position_limit[iq : iq + nq],
                       model.friction[iv : iv + nv], model.damping[iv : iv + nv])
        q_src += range(iq, iq + nq)
        q_scale += [1.0] * nq
        q_offset += [0.0] * nq
        keep_q += range(free.idx_q[i], free.idx_q[i] + nq)
        keep_v += range(free.idx_v[i], free.idx_v[i] + nv)
        G[free.idx_v[i] : free.idx_v[i] + nv, iv : iv + nv] = np.eye(nv)
    free.inertias = list(model.inertias)
    free.frames = list(model.frames)
    free.gravity = model.gravity.vector.copy()
    keep_v = np.array(keep_v, dtype=np.int64)
    free.armature[keep_v] = model.armature
    return free, MimicMap(np.array(q_src, dtype=np.int64), np.array(q_scale), np.array(q_offset), G,
                          np.array(keep_q, dtype=np.int64), keep_v)
