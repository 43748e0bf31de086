"""Pinocchio's ``pinocchio.rpy``: roll-pitch-yaw angles over rbda's (:mod:`rbda.spatial`), ``R = Rz(y) Ry(p)
Rx(r)``, and ``rotate(axis, angle)``."""

from __future__ import annotations

import numpy as np

from .. import spatial as _s
from ..spatial import ReferenceFrame
from ._convert import vector


def rpyToMatrix(roll, pitch=None, yaw=None) -> np.ndarray:
    """``(r, p, y)`` or one ``(3,)`` array."""
    return _s.rpy_to_matrix(vector(roll), pitch, yaw)


def matrixToRpy(R) -> np.ndarray:
    return _s.matrix_to_rpy(R)


def rotate(axis: str, angle: float) -> np.ndarray:
    """The rotation matrix of ``angle`` about ``"x"``, ``"y"`` or ``"z"``."""
    if axis not in ("x", "y", "z"):
        raise ValueError(f"axis: expected 'x', 'y' or 'z', got {axis!r}")
    return _s.exp3(float(angle) * np.eye(3)["xyz".index(axis)])


def computeRpyJacobian(rpy, reference_frame=ReferenceFrame.LOCAL) -> np.ndarray:
    return _s.compute_rpy_jacobian(vector(rpy), reference_frame)


def computeRpyJacobianInverse(rpy, reference_frame=ReferenceFrame.LOCAL) -> np.ndarray:
    return _s.compute_rpy_jacobian_inverse(vector(rpy), reference_frame)


def computeRpyJacobianTimeDerivative(rpy, rpydot, reference_frame=ReferenceFrame.LOCAL) -> np.ndarray:
    return _s.compute_rpy_jacobian_time_derivative(vector(rpy), vector(rpydot), reference_frame)
