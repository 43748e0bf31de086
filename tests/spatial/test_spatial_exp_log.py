"""SO(3)/SE(3) exponential and logarithm, quaternions, AngleAxis and skew: round trips and closed forms,
near identity and near pi, never NaN."""

import numpy as np
import pytest
from hypothesis import given

import rbda.spatial as sp
from spatial_strategies import (
    NEAR_IDENTITY_ANGLES,
    NEAR_PI_ANGLES,
    PI,
    PROPERTY,
    angles,
    assert_close,
    floats,
    hat,
    rodrigues,
    rotation_vectors,
    rotations,
    se3_matrix_exp,
    se3s,
    twists,
    unit_vectors,
    vectors,
)


def quat_of(axis, angle):
    """``[sin(t/2) axis, cos(t/2)]``."""
    return np.concatenate([np.sin(angle / 2) * axis, [np.cos(angle / 2)]])


def same_quat(q1, q2, tol=1e-12):
    return min(np.abs(q1 - q2).max(), np.abs(q1 + q2).max()) <= tol


# ---------------------------------------------------------------------------------------------- skew
@PROPERTY
@given(vectors(3, -10, 10), vectors(3, -10, 10))
def test_skew(u, v):
    assert_close(sp.skew(u), hat(u), 0.0)
    assert_close(sp.skew(u) @ v, np.cross(u, v), 1e-14, 100)
    assert_close(sp.skew(u).T, -sp.skew(u), 0.0)
    assert_close(sp.unskew(sp.skew(u)), u, 0.0)
    assert_close(sp.unskew(hat(u) + np.diag(v)), u, 0.0)  # the symmetric part is ignored
    assert_close(sp.skew_square(u, v), hat(u) @ hat(v), 1e-14, 100)
    assert_close(sp.skew_square(u, v) @ v, np.cross(u, np.cross(v, v)), 1e-12, 1000)


# ---------------------------------------------------------------------------------------------- SO(3)
@PROPERTY
@given(angles(2 * PI), unit_vectors())
def test_exp3_is_rodrigues(angle, axis):
    R = sp.exp3(angle * axis)
    assert_close(R, rodrigues(axis, angle), 1e-15 * 4)
    assert_close(R.T @ R, np.eye(3), 1e-15 * 4)
    assert abs(np.linalg.det(R) - 1.0) < 1e-14
    assert_close(sp.exp(angle * axis), R, 0.0)


@PROPERTY
@given(rotation_vectors(4.0))
def test_exp3_is_the_matrix_exponential(w):
    from scipy.linalg import expm

    assert_close(sp.exp3(w), expm(hat(w)), 1e-13)  # scipy expm itself is good to ~4e-14 here


@PROPERTY
@given(rotation_vectors())
def test_log3_exp3_round_trip(w):
    t = np.linalg.norm(w)
    R = sp.exp3(w)
    out = sp.log3(R)
    assert np.all(np.isfinite(out))
    assert_close(sp.exp3(out), R, 1e-14 * 4)  # always, including at pi
    if t < PI - 1e-6:
        # the angle is well-conditioned away from pi: log3 is the inverse of exp3 to ~eps / sin(t)
        assert_close(out, w, 1e-15 * 16 / max(np.sin(t), 1e-15) if t > 1 else 1e-15 * 16)
    else:
        # at |w| = pi the logarithm is +-w; near pi, the axis is ill-conditioned by 1 / (pi - t)
        assert abs(np.linalg.norm(out) - t) < 1e-7
        assert min(np.abs(out - w).max(), np.abs(out + w).max()) < 1e-6


@pytest.mark.parametrize("angle", NEAR_IDENTITY_ANGLES + NEAR_PI_ANGLES)
def test_log3_near_singularities(angle):
    rng = np.random.default_rng(7)
    for _ in range(50):
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        R = rodrigues(axis, angle)
        w = sp.log3(R)
        assert np.all(np.isfinite(w))
        assert abs(np.linalg.norm(w) - angle) <= 1e-12 + (1e-7 if angle > 3.0 else 0.0)
        assert_close(sp.exp3(w), R, 1e-14)
        if 0 < angle < 3.0:
            assert_close(w / angle, axis, 1e-12)


@pytest.mark.parametrize("axis", np.eye(3))
def test_log3_at_pi_about_a_coordinate_axis(axis):
    R = 2.0 * np.outer(axis, axis) - np.eye(3)  # exactly the half turn
    w = sp.log3(R)
    assert_close(np.abs(w), PI * axis, 1e-15)


@PROPERTY
@given(rotations())
def test_log_dispatch(R):
    assert_close(sp.log(R), sp.log3(R), 0.0)


# ---------------------------------------------------------------------------------------------- SE(3)
@PROPERTY
@given(twists(4.0))
def test_exp6_is_the_matrix_exponential(nu):
    M = sp.exp6(nu)
    assert isinstance(M, sp.SE3)
    assert_close(M.homogeneous, se3_matrix_exp(nu), 1e-13, 10)
    assert_close(sp.exp6(sp.Motion(nu)).homogeneous, M.homogeneous, 0.0)
    assert_close(sp.exp(sp.Motion(nu)).homogeneous, M.homogeneous, 0.0)
    assert_close(sp.exp(nu).homogeneous, M.homogeneous, 0.0)


@PROPERTY
@given(twists())
def test_log6_exp6_round_trip(nu):
    t = np.linalg.norm(nu[3:])
    M = sp.exp6(nu)
    out = sp.log6(M)
    assert isinstance(out, sp.Motion)
    assert np.all(np.isfinite(out.vector))
    assert_close(sp.exp6(out).homogeneous, M.homogeneous, 1e-13, 10)
    if t < PI - 1e-6:
        assert_close(out.vector, nu, 1e-12 / max(np.sin(t), 1e-3) if t > 1 else 1e-13, 10)


@PROPERTY
@given(se3s())
def test_exp6_log6_round_trip(M):
    scale = np.linalg.norm(M.translation)
    nu = sp.log6(M)
    assert np.all(np.isfinite(nu.vector))
    assert_close(sp.exp6(nu).homogeneous, M.homogeneous, 1e-13, scale)
    assert_close(sp.log6(M.homogeneous).vector, nu.vector, 0.0)
    assert_close(sp.log(M).vector, nu.vector, 0.0)


def test_exp6_of_pure_translation_and_pure_rotation():
    v = np.array([1.0, -2.0, 3.0])
    assert_close(sp.exp6(np.concatenate([v, np.zeros(3)])).homogeneous[:3, 3], v, 0.0)
    # a screw of pitch 0 about the z axis through (1, 0, 0): v = -w x r
    w = np.array([0.0, 0.0, PI / 2])
    M = sp.exp6(np.concatenate([-np.cross(w, [1.0, 0.0, 0.0]), w]))
    assert_close(M.act(np.array([1.0, 0.0, 0.0])), [1.0, 0.0, 0.0], 1e-15)  # points on the axis stay
    assert_close(M.act(np.zeros(3)), [1.0, -1.0, 0.0], 1e-15)


# ---------------------------------------------------------------------------------------------- quaternions
@PROPERTY
@given(angles(), unit_vectors())
def test_quat_exp_and_matrix(angle, axis):
    q = quat_of(axis, angle)
    assert_close(sp.quat_exp3(angle * axis), q, 1e-15 * 2)
    assert_close(sp.quat_to_matrix(q), rodrigues(axis, angle), 1e-15 * 4)
    assert same_quat(sp.matrix_to_quat(rodrigues(axis, angle)), q, 1e-14)
    assert sp.matrix_to_quat(rodrigues(axis, angle))[3] >= 0.0
    w = sp.quat_log3(q)
    assert np.all(np.isfinite(w))
    assert_close(sp.quat_to_matrix(sp.quat_exp3(w)), rodrigues(axis, angle), 1e-14)
    if angle < PI - 1e-6:
        assert_close(w, angle * axis, 1e-14)
    assert_close(sp.quat_log3(-q), sp.quat_log3(q), 1e-15)  # q and -q are the same rotation


@PROPERTY
@given(rotations())
def test_matrix_quat_round_trip(R):
    q = sp.matrix_to_quat(R)
    assert abs(np.linalg.norm(q) - 1.0) < 1e-15 * 4
    assert_close(sp.quat_to_matrix(q), R, 1e-15 * 8)


@PROPERTY
@given(rotations(), rotations())
def test_quat_multiply_matches_matrix_product(R1, R2):
    q1, q2 = sp.matrix_to_quat(R1), sp.matrix_to_quat(R2)
    assert_close(sp.quat_to_matrix(sp.quat_multiply(q1, q2)), R1 @ R2, 1e-14)
    assert_close(sp.quat_multiply(q1, sp.quat_conjugate(q1)), [0.0, 0.0, 0.0, 1.0], 1e-15 * 4)
    assert_close(sp.quat_to_matrix(sp.quat_conjugate(q1)), R1.T, 1e-14)


@PROPERTY
@given(rotations(), rotations(), floats(0.0, 1.0))
def test_quat_slerp(R0, R1, t):
    q0, q1 = sp.matrix_to_quat(R0), sp.matrix_to_quat(R1)
    assert same_quat(sp.quat_slerp(q0, q1, 0.0), q0, 1e-14)
    assert same_quat(sp.quat_slerp(q0, q1, 1.0), q1, 1e-12)
    q1s = q1 if q0 @ q1 >= 0 else -q1  # shorter arc
    if q0 @ q1s > 1e-3:
        # midpoint of the arc: the normalised chord midpoint
        mid = (q0 + q1s) / np.linalg.norm(q0 + q1s)
        assert same_quat(sp.quat_slerp(q0, q1, 0.5), mid, 1e-12)
    # slerp runs at constant angular speed: angle(q0, q(t)) = t * angle(q0, q1)
    qt = sp.quat_slerp(q0, q1, t)
    assert abs(np.linalg.norm(qt) - 1.0) < 1e-14
    half_angle = np.arccos(np.clip(q0 @ q1s, -1, 1))
    assert abs(np.arccos(np.clip(abs(q0 @ qt), -1, 1)) - t * half_angle) < 1e-7


def test_as_unit_quat():
    q = np.array([0.0, 0.0, 0.0, 1.0])
    assert np.array_equal(sp.as_unit_quat(q), q)
    with pytest.raises(ValueError, match="myquat"):
        sp.as_unit_quat(2 * q, "myquat")


# ---------------------------------------------------------------------------------------------- AngleAxis
@PROPERTY
@given(angles(), unit_vectors(), floats(0.1, 10.0))
def test_angle_axis(angle, axis, length):
    aa = sp.AngleAxis(angle, length * axis)  # the axis is normalised
    assert_close(aa.axis, axis, 1e-15 * 2)
    assert aa.angle == angle
    assert_close(aa.matrix(), rodrigues(axis, angle), 1e-15 * 4)
    assert_close(aa.to_rotation_vector(), angle * axis, 1e-15 * 8)
    back = sp.AngleAxis.from_matrix(rodrigues(axis, angle))
    assert 0.0 <= back.angle <= PI + 1e-15  # [0, pi] up to rounding
    assert abs(np.linalg.norm(back.axis) - 1.0) < 1e-15 * 4
    assert_close(back.matrix(), rodrigues(axis, angle), 1e-14)
    if 1e-6 < angle < PI - 1e-6:
        assert abs(back.angle - angle) < 1e-12
        assert_close(back.axis, axis, 1e-9)
    assert "AngleAxis" in repr(aa)


def test_angle_axis_of_identity():
    aa = sp.AngleAxis.from_matrix(np.eye(3))
    assert aa.angle == 0.0 and np.array_equal(aa.axis, [1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="axis"):
        sp.AngleAxis(1.0, np.zeros(3))
