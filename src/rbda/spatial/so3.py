"""SO(3): exponential and logarithm maps, their Jacobians, quaternions, angle-axis and roll-pitch-yaw.

Conventions: rotation vectors ``w = theta * axis``; quaternions are stored ``[x, y, z, w]`` (Pinocchio's XYZQUAT
order); ``rpy = [roll, pitch, yaw]`` with ``R = Rz(yaw) Ry(pitch) Rx(roll)``. Every coefficient that loses
precision for small angles switches to its Taylor series, and the logarithm near ``pi`` reads the axis from the
symmetric part of ``R``; no branch divides by a vanishing quantity.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from . import compiled
from ._validate import as_array, as_scalar
from .compiled import jlog_coefficient as _jlog_coefficient
from .compiled import one_minus_cos_over_t2 as _one_minus_cos_over_t2
from .compiled import sin_over_t as _sin_over_t
from .compiled import t_minus_sin_over_t3 as _t_minus_sin_over_t3
from .skew import skew


class ReferenceFrame(IntEnum):
    """Frame in which a Jacobian or a frame quantity is expressed (Pinocchio's meaning and values)."""

    WORLD = 0
    LOCAL = 1
    LOCAL_WORLD_ALIGNED = 2


# ---------------------------------------------------------------------------------------------- exp / log
def exp3(w) -> np.ndarray:
    """Rotation matrix ``(3, 3)`` of the rotation vector ``w: (3,)`` (Rodrigues' formula)."""
    w = as_array(w, (3,), "w")
    t = float(np.linalg.norm(w))
    W = skew(w)
    return np.eye(3) + _sin_over_t(t) * W + _one_minus_cos_over_t2(t) * (W @ W)


def log3(R) -> np.ndarray:
    """Rotation vector ``(3,)`` of the rotation matrix ``R: (3, 3)``, with angle in ``[0, pi]``."""
    R = as_array(R, (3, 3), "R")
    axis_sin = 0.5 * np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1]])  # sin(t) * axis
    s = float(np.linalg.norm(axis_sin))
    c = float(np.clip(0.5 * (np.trace(R) - 1.0), -1.0, 1.0))
    t = float(np.arctan2(s, c))
    if c > -0.5:
        return axis_sin / _sin_over_t(t)  # t / sin(t) * sin(t) * axis
    # near pi: the symmetric part (R + R^T)/2 - cos(t) I equals (1 - cos t) axis axis^T
    B = 0.5 * (R + R.T) - c * np.eye(3)
    i = int(np.argmax(np.diag(B)))
    axis = B[:, i] / np.sqrt(B[i, i] * (1.0 - c))
    if axis @ axis_sin < 0.0:
        axis = -axis
    return t * axis / np.linalg.norm(axis)


def Jexp3(w) -> np.ndarray:
    """Right Jacobian ``(3, 3)`` of :func:`exp3`: ``exp3(w + dw) ~= exp3(w) @ exp3(Jexp3(w) @ dw)``."""
    w = as_array(w, (3,), "w")
    t = float(np.linalg.norm(w))
    W = skew(w)
    return np.eye(3) - _one_minus_cos_over_t2(t) * W + _t_minus_sin_over_t3(t) * (W @ W)


def Jlog3(R) -> np.ndarray:
    """Jacobian ``(3, 3)`` of :func:`log3` for right perturbations: ``log3(R exp3(dw)) ~= log3(R) + Jlog3(R) dw``.

    It is the inverse of ``Jexp3(log3(R))``.
    """
    return jlog3_of_vector(log3(R))


def jlog3_of_vector(w: np.ndarray) -> np.ndarray:
    """``Jexp3(w)^-1 = I + w_x / 2 + (1/t^2 - (1 + cos t) / (2 t sin t)) w_x^2`` for ``|w| = t < 2 pi``."""
    t = float(np.linalg.norm(w))
    W = skew(w)
    return np.eye(3) + 0.5 * W + _jlog_coefficient(t) * (W @ W)


# ---------------------------------------------------------------------------------------------- quaternions
def quat_to_matrix(quat) -> np.ndarray:
    """Rotation matrix ``(3, 3)`` of the unit quaternion ``quat = [x, y, z, w]``.

    Raises ``ValueError`` when ``quat`` is not of unit norm (tolerance 1e-6): normalise it first.
    """
    R = np.empty((3, 3))
    compiled.quat_rotation(as_unit_quat(quat, "quat"), R)
    return R


def matrix_to_quat(R) -> np.ndarray:
    """Unit quaternion ``[x, y, z, w]`` (with ``w >= 0``) of the rotation matrix ``R: (3, 3)`` (Shepperd's method)."""
    R = as_array(R, (3, 3), "R")
    tr = np.trace(R)
    i = int(np.argmax([R[0, 0], R[1, 1], R[2, 2], tr]))
    if i == 3:
        r = np.sqrt(1.0 + tr)
        q = np.array([R[2, 1] - R[1, 2], R[0, 2] - R[2, 0], R[1, 0] - R[0, 1], r * r]) / (2 * r)
    else:
        j, k = (i + 1) % 3, (i + 2) % 3
        r = np.sqrt(1.0 + R[i, i] - R[j, j] - R[k, k])
        q = np.empty(4)
        q[i] = 0.5 * r
        q[j] = (R[j, i] + R[i, j]) / (2 * r)
        q[k] = (R[k, i] + R[i, k]) / (2 * r)
        q[3] = (R[k, j] - R[j, k]) / (2 * r)
    q /= np.linalg.norm(q)
    return -q if q[3] < 0 else q


def as_unit_quat(quat, name: str = "quat", tol: float = 1e-6) -> np.ndarray:
    """``quat`` as a ``(4,)`` array ``[x, y, z, w]``, checked to be of unit norm within ``tol``; raises
    ``ValueError`` naming the argument ``name`` if it is not."""
    q = as_array(quat, (4,), name)
    n = float(np.linalg.norm(q))
    if abs(n - 1.0) > tol:
        raise ValueError(f"{name}: quaternion [x, y, z, w] must have unit norm, got norm {n:.9g}")
    return q


def quat_multiply(q1, q2) -> np.ndarray:
    """Hamilton product ``q1 * q2`` of quaternions ``[x, y, z, w]`` (rotation ``R(q1) @ R(q2)``)."""
    out = np.empty(4)
    compiled.quat_mul(as_array(q1, (4,), "q1"), as_array(q2, (4,), "q2"), out)
    return out


def quat_conjugate(quat) -> np.ndarray:
    """Conjugate ``[-x, -y, -z, w]`` of ``quat = [x, y, z, w]`` (the inverse rotation for a unit quaternion)."""
    q = as_array(quat, (4,), "quat")
    return np.array([-q[0], -q[1], -q[2], q[3]])


def quat_exp3(w) -> np.ndarray:
    """Unit quaternion ``[x, y, z, w]`` of the rotation vector ``w: (3,)``."""
    out = np.empty(4)
    compiled.quat_exp(as_array(w, (3,), "w"), out)
    return out


def quat_log3(quat) -> np.ndarray:
    """Rotation vector ``(3,)``, angle in ``[0, pi]``, of the unit quaternion ``quat``."""
    out = np.empty(3)
    compiled.quat_log(as_unit_quat(quat), out)
    return out


def quat_slerp(q0, q1, t: float) -> np.ndarray:
    """Spherical linear interpolation from ``q0`` (``t = 0``) to ``q1`` (``t = 1``), unit quaternions ``[x, y, z, w]``,
    along the shorter arc; returns a ``(4,)`` unit quaternion."""
    q0 = as_unit_quat(q0, "q0")
    q1 = as_unit_quat(q1, "q1")
    t = as_scalar(t, "t")
    if q0 @ q1 < 0:
        q1 = -q1
    delta = quat_multiply(quat_conjugate(q0), q1)
    return quat_multiply(q0, quat_exp3(t * quat_log3(delta)))


class AngleAxis:
    """A rotation by ``angle`` (radians) about the unit vector ``axis`` (Eigen/Pinocchio ``AngleAxis``)."""

    __slots__ = ("angle", "axis")

    def __init__(self, angle: float, axis):
        self.angle = as_scalar(angle, "angle")
        axis = as_array(axis, (3,), "axis")
        n = float(np.linalg.norm(axis))
        if n == 0.0:
            raise ValueError("axis: must be a non-zero vector")
        self.axis = axis / n

    @classmethod
    def from_matrix(cls, R) -> "AngleAxis":
        """Angle in ``[0, pi]`` and axis of the rotation matrix ``R``; the identity gives axis ``[1, 0, 0]``."""
        w = log3(R)
        t = float(np.linalg.norm(w))
        return cls(t, w / t if t > 0 else np.array([1.0, 0.0, 0.0]))

    def matrix(self) -> np.ndarray:
        """Rotation matrix ``(3, 3)``."""
        return exp3(self.angle * self.axis)

    def to_rotation_vector(self) -> np.ndarray:
        """``angle * axis``, shape ``(3,)``."""
        return self.angle * self.axis

    def __repr__(self) -> str:
        return f"AngleAxis(angle={self.angle!r}, axis={self.axis.tolist()!r})"


# ---------------------------------------------------------------------------------------------- roll-pitch-yaw
def rpy_to_matrix(roll, pitch=None, yaw=None) -> np.ndarray:
    """``R = Rz(yaw) Ry(pitch) Rx(roll)``, shape ``(3, 3)``; takes ``(roll, pitch, yaw)`` or one ``(3,)`` array."""
    r, p, y = _rpy_args(roll, pitch, yaw)
    cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    return np.array(
        [
            [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
            [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
            [-sp, cp * sr, cp * cr],
        ]
    )


def matrix_to_rpy(R) -> np.ndarray:
    """``[roll, pitch, yaw]`` with ``pitch`` in ``[-pi/2, pi/2]`` such that ``rpy_to_matrix(rpy) == R``.

    At the singularity ``|pitch| = pi/2`` only ``yaw -/+ roll`` is defined; ``roll`` is then 0 (to rounding).
    """
    R = as_array(R, (3, 3), "R")
    pitch = float(np.arctan2(-R[2, 0], np.hypot(R[0, 0], R[1, 0])))
    if np.hypot(R[0, 0], R[1, 0]) > 1e-12:
        yaw = float(np.arctan2(R[1, 0], R[0, 0]))
    else:  # gimbal lock: R = Rz(yaw) Ry(+-pi/2) with roll folded into yaw
        yaw = float(np.arctan2(-R[0, 1], R[1, 1]))
    # roll from Rz(yaw)^T R = Ry(pitch) Rx(roll), whose row 1 is [0, cos roll, -sin roll]: unlike
    # atan2(R21, R22), this stays exact to rounding near gimbal lock (as Eigen's eulerAngles does)
    cy, sy = np.cos(yaw), np.sin(yaw)
    roll = float(np.arctan2(sy * R[0, 2] - cy * R[1, 2], cy * R[1, 1] - sy * R[0, 1]))
    return np.array([roll, pitch, yaw])


def compute_rpy_jacobian(rpy, reference_frame: ReferenceFrame = ReferenceFrame.LOCAL) -> np.ndarray:
    """Matrix ``(3, 3)`` mapping ``d(rpy)/dt`` to the angular velocity in ``reference_frame``.

    ``LOCAL`` gives the body angular velocity, ``WORLD`` and ``LOCAL_WORLD_ALIGNED`` the spatial one.
    """
    r, p, y = as_array(rpy, (3,), "rpy")
    cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    if ReferenceFrame(reference_frame) == ReferenceFrame.LOCAL:
        return np.array([[1.0, 0.0, -sp], [0.0, cr, sr * cp], [0.0, -sr, cr * cp]])
    return np.array([[cp * cy, -sy, 0.0], [cp * sy, cy, 0.0], [-sp, 0.0, 1.0]])


def compute_rpy_jacobian_inverse(rpy, reference_frame: ReferenceFrame = ReferenceFrame.LOCAL) -> np.ndarray:
    """Inverse ``(3, 3)`` of :func:`compute_rpy_jacobian` at ``rpy: (3,)`` in ``reference_frame`` (singular at
    ``|pitch| = pi/2``: raises ``ValueError`` there)."""
    r, p, y = as_array(rpy, (3,), "rpy")
    cp = np.cos(p)
    if abs(cp) < 1e-12:
        raise ValueError("rpy: the rpy Jacobian is singular at pitch = +-pi/2")
    cr, sr, sp, cy, sy = np.cos(r), np.sin(r), np.sin(p), np.cos(y), np.sin(y)
    tp = sp / cp
    if ReferenceFrame(reference_frame) == ReferenceFrame.LOCAL:
        return np.array([[1.0, sr * tp, cr * tp], [0.0, cr, -sr], [0.0, sr / cp, cr / cp]])
    return np.array([[cy / cp, sy / cp, 0.0], [-sy, cy, 0.0], [cy * tp, sy * tp, 1.0]])


def compute_rpy_jacobian_time_derivative(
    rpy, rpydot, reference_frame: ReferenceFrame = ReferenceFrame.LOCAL
) -> np.ndarray:
    """Time derivative ``(3, 3)`` of :func:`compute_rpy_jacobian` at ``rpy: (3,)`` in ``reference_frame``, along
    ``rpydot: (3,)``."""
    r, p, y = as_array(rpy, (3,), "rpy")
    dr, dp, dy = as_array(rpydot, (3,), "rpydot")
    cr, sr, cp, sp, cy, sy = np.cos(r), np.sin(r), np.cos(p), np.sin(p), np.cos(y), np.sin(y)
    if ReferenceFrame(reference_frame) == ReferenceFrame.LOCAL:
        return np.array(
            [
                [0.0, 0.0, -cp * dp],
                [0.0, -sr * dr, cr * cp * dr - sr * sp * dp],
                [0.0, -cr * dr, -sr * cp * dr - cr * sp * dp],
            ]
        )
    return np.array(
        [
            [-sp * cy * dp - cp * sy * dy, -cy * dy, 0.0],
            [cp * cy * dy - sp * sy * dp, -sy * dy, 0.0],
            [-cp * dp, 0.0, 0.0],
        ]
    )


def _rpy_args(roll, pitch, yaw):
    if pitch is None and yaw is None:
        return as_array(roll, (3,), "rpy")
    return as_scalar(roll, "roll"), as_scalar(pitch, "pitch"), as_scalar(yaw, "yaw")
