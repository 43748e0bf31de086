"""Models with mimic joints: their extended twin and the linear map between the two.

A model with mimic joints has ``q`` and ``v`` without the mimic joints' coordinates. Its *extended twin* is the
same tree in which every mimic joint is an ordinary joint with its own coordinate: its packed tables are those the
kernels run over (``Model._pack_mimic``; ``kernels/mimic.py`` does the mapping inside the kernels), and the
derivatives still run on it (``algorithms/mimic.py``). With ``q_ext = E(q) = q[q_src] * q_scale + q_offset`` (affine: mimic joints live on vector
spaces) and ``v_ext = G v``, the chain rule gives everything else:

    tau = G^T tau_ext,   M = G^T M_ext G,   J = J_ext G,   ddq = M^-1 (tau - G^T b_ext),

with ``b_ext`` the extended bias forces (``G`` is constant, so ``a_ext = G a`` with no bias term).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from ..joints import JointModelMimic
from ..spatial._validate import as_array
from .data import Data

class MimicMap(namedtuple("MimicMap", "q_src q_scale q_offset G keep_q keep_v")):
    """``q_ext = q[q_src] * q_scale + q_offset``, ``v_ext = G v`` (``G`` (nv_ext, nv)); ``keep_q``/``keep_v``
    the extended indices of the model's own coordinates (``q = q_ext[keep_q]``, ``v = v_ext[keep_v]``)."""

    __slots__ = ()

    def expand(self, q: np.ndarray) -> np.ndarray:
        """``q_ext`` for configurations ``q`` ``(..., nq)`` (one, or a batch along the leading axes)."""
        return q[..., self.q_src] * self.q_scale + self.q_offset


def extended_model(model):
    """The extended twin of ``model``; ``ext.mimic_map`` maps to it. Read it as ``model.extended``, which builds it
    once per change of the model."""
    from .model import Model

    ext = Model(model.name)
    q_src, q_scale, q_offset, keep_q, keep_v = [], [], [], [], []
    G = np.zeros((model.nv_extended, model.nv))
    for i in range(1, model.njoints):
        joint, iq, iv = model.joints[i], model.idx_q[i], model.idx_v[i]
        nq, nv = model.nqs[i], model.nvs[i]
        if isinstance(joint, JointModelMimic):
            ext.add_joint(model.parents[i], joint.joint, model.joint_placements[i], model.names[i])
            q_src.append(iq)
            q_scale.append(joint.scaling)
            q_offset.append(joint.offset)
            G[ext.idx_v[i], iv] = joint.scaling
            continue
        ext.add_joint(model.parents[i], joint, model.joint_placements[i], model.names[i],
                      model.effort_limit[iv : iv + nv], model.velocity_limit[iv : iv + nv],
                      model.lower_position_limit[iq : iq + nq], model.upper_position_limit[iq : iq + nq],
                      model.friction[iv : iv + nv], model.damping[iv : iv + nv])
        q_src += range(iq, iq + nq)
        q_scale += [1.0] * nq
        q_offset += [0.0] * nq
        keep_q += range(ext.idx_q[i], ext.idx_q[i] + nq)
        keep_v += range(ext.idx_v[i], ext.idx_v[i] + nv)
        G[ext.idx_v[i] : ext.idx_v[i] + nv, iv : iv + nv] = np.eye(nv)
    ext.inertias = list(model.inertias)
    ext.frames = list(model.frames)
    ext.gravity = model.gravity
    ext.mimic_map = MimicMap(np.array(q_src, dtype=np.int64), np.array(q_scale), np.array(q_offset), G,
                             np.array(keep_q, dtype=np.int64), np.array(keep_v, dtype=np.int64))
    return ext


def sync_extended(model):
    """The extended twin with the model's current gravity and armature (both may be edited in place)."""
    ext = model.extended
    ext._gravity[:] = model._gravity
    ext._armature[ext.mimic_map.keep_v] = model._armature
    return ext


def expand_configuration(model, q, name: str = "q") -> np.ndarray:
    """``q_ext (nq_ext,)`` of the extended twin for ``q (nq,)`` of ``model``."""
    mm = model.extended.mimic_map
    if not (type(q) is np.ndarray and q.dtype == np.float64 and q.shape == (model.nq,)):  # the twin checks values
        q = as_array(q, (model.nq,), name)
    return mm.expand(q)


class MimicData(Data):
    """The workspace of a model with mimic joints: a :class:`Data` laid out for the ``nv_extended`` columns the
    kernels run over (the model's per-dof results in front), and ``extended``, the data of the extended twin,
    which shares its memory (the algorithms not yet computed in the kernels run on the twin)."""

    def __init__(self, model):
        super().__init__(model)
        self.extended = Data(model.extended, _share=self)

    def __repr__(self) -> str:
        nj, nv, nf = self.model_sizes
        return f"MimicData(njoints={nj}, nv={nv}, nframes={nf})"
