"""Mimic joint: a one-dof joint driven by another one, ``q_i = scaling * q_ref + offset``, ``v_i = scaling * v_ref``.

A mimic joint has no configuration or velocity entries of its own (``nq = nv = 0``): its ``idx_q``/``idx_v`` are
those of the joint it mimics, as in Pinocchio. The kernels give it a column of its own (``nv_extended``), read
its mimicked joint's coordinate scaled and accumulate what it contributes onto the mimicked dof through the
constant Jacobian ``G`` of ``v_ext = G v`` (``kernels/mimic.py``): ``tau = G^T tau_ext``, ``M = G^T M_ext G``,
``J = J_ext G``.
"""

from __future__ import annotations

import numpy as np

from .base import JointModel, JointType

#: joints that can mimic or be mimicked: one coordinate on a vector space, so that ``q -> scaling q + offset`` is
#: a map of the configuration space and ``G`` is constant
MIMIC_TYPES = (JointType.REVOLUTE, JointType.PRISMATIC, JointType.HELICAL)


class JointModelMimic(JointModel):
    """``JointModelMimic(joint, mimicked_id, scaling=1.0, offset=0.0)``: ``joint`` (revolute, prismatic or helical,
    any axis) moved by the joint of id ``mimicked_id`` of the same model as ``q = scaling * q_ref + offset``."""

    type = JointType.MIMIC
    nq = nv = 0

    def __init__(self, joint: JointModel, mimicked_id: int, scaling: float = 1.0, offset: float = 0.0):
        if not isinstance(joint, JointModel) or joint.type not in MIMIC_TYPES:
            raise TypeError(f"joint: a mimic joint must be a revolute, prismatic or helical joint, got {joint!r}")
        if not isinstance(mimicked_id, (int, np.integer)) or mimicked_id < 1:
            raise ValueError(f"mimicked_id: expected the id (>= 1) of a joint of the model, got {mimicked_id!r}")
        scaling, offset = float(scaling), float(offset)
        if not (np.isfinite(scaling) and np.isfinite(offset)):
            raise ValueError(f"scaling, offset: must be finite, got {scaling}, {offset}")
        super().__init__(joint.params)
        self.joint, self.mimicked_id, self.scaling, self.offset = joint, int(mimicked_id), scaling, offset

    def calc(self, q, v=None):
        """``(M, S, v_J, c_J)`` for the *mimicked* joint's ``q: (1,)`` and ``v: (1,)``; ``S = scaling S_joint``."""
        q = np.asarray(q, dtype=np.float64).reshape(-1)
        if q.shape != (1,):
            raise ValueError(f"q: a mimic joint takes its mimicked joint's configuration, shape (1,), got {q.shape}")
        v = np.zeros(1) if v is None else np.asarray(v, dtype=np.float64).reshape(1)
        M, S, vJ, cJ = self.joint.calc(self.scaling * q + self.offset, self.scaling * v)
        return M, self.scaling * S, vJ, cJ

    def shortname(self) -> str:
        """``"JointModelMimic<...>"`` with the mimicking joint's own type name."""
        return f"JointModelMimic<{self.joint.shortname()}>"

    def __eq__(self, other) -> bool:
        return (type(other) is type(self) and self.joint == other.joint and self.mimicked_id == other.mimicked_id
                and self.scaling == other.scaling and self.offset == other.offset)

    def __hash__(self):
        return hash((type(self).__name__, hash(self.joint), self.mimicked_id, self.scaling, self.offset))

    def __repr__(self) -> str:
        return f"JointModelMimic({self.joint!r}, mimicked_id={self.mimicked_id}, scaling={self.scaling!r}, offset={self.offset!r})"
