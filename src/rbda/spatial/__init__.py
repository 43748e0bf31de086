"""Spatial algebra: SE(3), motions, forces, inertias, articulated-body inertias and the Lie-group maps.

Spatial vectors are ``[linear; angular]``. Everything here is plain numpy, typed and checked:
the readable reference that the compiled kernels agree with.
"""

from .abi import ArticulatedBodyInertia
from .inertia import Inertia
from .motion import Force, Motion, classic_acceleration, force_cross_matrix, motion_cross_matrix
from .se3 import SE3, Jexp6, Jlog6, exp, exp6, log, log6
from .skew import skew, skew_square, unskew
from .so3 import (
    AngleAxis,
    Jexp3,
    Jlog3,
    ReferenceFrame,
    as_unit_quat,
    compute_rpy_jacobian,
    compute_rpy_jacobian_inverse,
    compute_rpy_jacobian_time_derivative,
    exp3,
    log3,
    matrix_to_quat,
    matrix_to_rpy,
    quat_conjugate,
    quat_exp3,
    quat_log3,
    quat_multiply,
    quat_slerp,
    quat_to_matrix,
    rpy_to_matrix,
)


def se3_to_xyzquat(M: SE3):
    """``[x, y, z, qx, qy, qz, qw]`` ``(7,)`` of the :class:`SE3` ``M`` (Pinocchio's ``SE3ToXYZQUAT``)."""
    return M.to_xyzquat()


def xyzquat_to_se3(xyzquat) -> SE3:
    """:class:`SE3` of ``xyzquat = [x, y, z, qx, qy, qz, qw]`` (Pinocchio's ``XYZQUATToSE3``)."""
    return SE3.from_xyzquat(xyzquat)


__all__ = [
    "SE3", "Motion", "Force", "Inertia", "ArticulatedBodyInertia", "ReferenceFrame", "AngleAxis",
    "exp3", "log3", "exp6", "log6", "exp", "log", "Jexp3", "Jlog3", "Jexp6", "Jlog6",
    "skew", "unskew", "skew_square", "motion_cross_matrix", "force_cross_matrix", "classic_acceleration",
    "quat_to_matrix", "matrix_to_quat", "quat_multiply", "quat_conjugate", "quat_exp3", "quat_log3", "quat_slerp",
    "as_unit_quat", "rpy_to_matrix", "matrix_to_rpy", "compute_rpy_jacobian", "compute_rpy_jacobian_inverse",
    "compute_rpy_jacobian_time_derivative", "se3_to_xyzquat", "xyzquat_to_se3",
]
