"""Helical (screw) joint about a unit axis ``a`` with ``pitch`` h (length per radian):
``M(q) = (exp3(a q), h q a)``, ``S = [h a; a]``, ``c_J = 0``."""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..spatial.compiled import axis_rotation
from .base import AxisJoint, JointType, axis_joint_family, one_dof_velocity


@njit(cache=True)
def calc(params, q, v, M, S, vJ, cJ):
    h = params[3]
    axis_rotation(params[0:3], np.cos(q[0]), np.sin(q[0]), M[:, :3])
    for r in range(3):
        M[r, 3] = h * q[0] * params[r]
        S[0, r] = h * params[r]
        S[0, 3 + r] = params[r]
    one_dof_velocity(S, v, vJ, cJ)


class JointModelHelicalUnaligned(AxisJoint):
    """Helical joint about an arbitrary unit axis with ``pitch`` (m/rad, > 0 for a right-handed screw)."""

    type = JointType.HELICAL
    nq = nv = 1

    def __init__(self, axis=None, pitch: float = 0.0):
        """``JointModelHelicalUnaligned(axis, pitch)``; the X/Y/Z variants take only ``pitch``."""
        if self._fixed_axis is not None and axis is not None and np.ndim(axis) == 0:
            axis, pitch = None, axis
        super().__init__(axis, pitch)

    @property
    def pitch(self) -> float:
        return float(self.params[3])

    def __repr__(self) -> str:
        axis = "" if self._fixed_axis is not None else f"axis={self.axis.tolist()}, "
        return f"{type(self).__name__}({axis}pitch={self.pitch!r})"


JointModelHX, JointModelHY, JointModelHZ = axis_joint_family(JointModelHelicalUnaligned, "JointModelH", __name__)
