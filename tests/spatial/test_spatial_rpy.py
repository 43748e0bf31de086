"""Roll-pitch-yaw: R = Rz(yaw) Ry(pitch) Rx(roll), its inverse with gimbal lock, and the rpy Jacobians against
finite differences of the angular velocity (LOCAL and WORLD) and in time."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rbda.spatial as sp
from spatial_strategies import PI, PROPERTY, assert_close, floats, rot_x, rot_y, rot_z, rotations, vectors, wrap_angle

LOCAL, WORLD, LWA = sp.ReferenceFrame.LOCAL, sp.ReferenceFrame.WORLD, sp.ReferenceFrame.LOCAL_WORLD_ALIGNED
H = 1e-6


def rpys(pitch_margin: float = 0.0):
    pitch = floats(-PI / 2 + pitch_margin, PI / 2 - pitch_margin)
    if pitch_margin == 0.0:
        pitch = st.one_of(st.sampled_from([-PI / 2, PI / 2, PI / 2 - 1e-9, -PI / 2 + 1e-7, 0.0]), pitch)
    return st.builds(lambda r, p, y: np.array([r, p, y]), floats(-PI, PI), pitch, floats(-PI, PI))


def elementary(rpy):
    r, p, y = rpy
    return rot_z(y) @ rot_y(p) @ rot_x(r)


def unhat(S):
    return np.array([S[2, 1], S[0, 2], S[1, 0]])


@PROPERTY
@given(rpys())
def test_rpy_to_matrix_is_product_of_elementary_rotations(rpy):
    R = sp.rpy_to_matrix(rpy)
    assert_close(R, elementary(rpy), 1e-15 * 4)
    assert_close(sp.rpy_to_matrix(*rpy), R, 0.0)


@PROPERTY
@given(rpys(1e-3))
def test_matrix_to_rpy_inverts_rpy_to_matrix(rpy):
    out = sp.matrix_to_rpy(elementary(rpy))
    assert -PI / 2 <= out[1] <= PI / 2
    assert_close(wrap_angle(out - rpy), np.zeros(3), 1e-10)


@PROPERTY
@given(rotations())
def test_rpy_to_matrix_inverts_matrix_to_rpy(R):
    rpy = sp.matrix_to_rpy(R)
    assert np.all(np.isfinite(rpy)) and abs(rpy[1]) <= PI / 2
    # within 1e-12 of gimbal lock, matrix_to_rpy treats R as locked (roll = 0): an error of ~cos(pitch)
    cos_pitch = np.hypot(R[0, 0], R[1, 0])
    assert_close(sp.rpy_to_matrix(rpy), R, 1e-14 + (2 * cos_pitch if cos_pitch <= 1e-12 else 0.0))


@pytest.mark.parametrize("pitch", [PI / 2, -PI / 2, PI / 2 - 1e-13, -PI / 2 + 1e-10])
def test_matrix_to_rpy_at_gimbal_lock(pitch):
    rng = np.random.default_rng(5)
    for _ in range(30):
        roll, yaw = rng.uniform(-PI, PI, 2)
        R = elementary([roll, pitch, yaw])
        rpy = sp.matrix_to_rpy(R)
        assert np.all(np.isfinite(rpy))
        assert abs(rpy[1] - pitch) < 1e-6
        assert_close(sp.rpy_to_matrix(rpy), R, 1e-12)


@pytest.mark.parametrize("offset", [1e-3, 1e-6, 1e-9, 1e-11, 2e-12])
def test_matrix_to_rpy_near_gimbal_lock_is_exact_to_rounding(offset):
    # a rotation near pitch = +-pi/2 with generic rounding errors in all its entries (not just those of the
    # product formula): the roll/yaw split is ill-conditioned, but R must still be reproduced to ~eps
    rng = np.random.default_rng(6)
    for sign in (1.0, -1.0):
        for _ in range(30):
            roll, yaw = rng.uniform(-PI, PI, 2)
            R = elementary([roll, sign * (PI / 2 - offset), yaw]) + rng.normal(size=(3, 3)) * 1e-16
            U, _, Vt = np.linalg.svd(R)
            R = U @ Vt
            assert_close(sp.rpy_to_matrix(sp.matrix_to_rpy(R)), R, 1e-14)


def angular_velocities(rpy, rpydot):
    """Body (LOCAL) and spatial (WORLD) angular velocities of R(rpy + t rpydot) at t = 0, by central differences."""
    Rm, R0, Rp = (elementary(rpy + s * H * rpydot) for s in (-1.0, 0.0, 1.0))
    Rdot = (Rp - Rm) / (2 * H)
    return unhat(R0.T @ Rdot), unhat(Rdot @ R0.T)


@PROPERTY
@given(rpys(), vectors(3, -2, 2))
def test_rpy_jacobian_gives_angular_velocity(rpy, rpydot):
    w_local, w_world = angular_velocities(rpy, rpydot)
    assert_close(sp.compute_rpy_jacobian(rpy) @ rpydot, w_local, 1e-8)
    assert_close(sp.compute_rpy_jacobian(rpy, LOCAL) @ rpydot, w_local, 1e-8)
    assert_close(sp.compute_rpy_jacobian(rpy, WORLD) @ rpydot, w_world, 1e-8)
    assert_close(sp.compute_rpy_jacobian(rpy, LWA) @ rpydot, w_world, 1e-8)
    # the two frames differ by the rotation
    R = elementary(rpy)
    assert_close(sp.compute_rpy_jacobian(rpy, WORLD), R @ sp.compute_rpy_jacobian(rpy, LOCAL), 1e-15 * 8)


@PROPERTY
@given(rpys(1e-3), st.sampled_from([LOCAL, WORLD, LWA]))
def test_rpy_jacobian_inverse(rpy, frame):
    J = sp.compute_rpy_jacobian(rpy, frame)
    Jinv = sp.compute_rpy_jacobian_inverse(rpy, frame)
    cond = 1.0 / np.cos(rpy[1])
    assert_close(Jinv @ J, np.eye(3), 1e-15 * 8 * cond)
    assert_close(J @ Jinv, np.eye(3), 1e-15 * 8 * cond)


@pytest.mark.parametrize("frame", [LOCAL, WORLD])
def test_rpy_jacobian_inverse_raises_at_gimbal_lock(frame):
    with pytest.raises(ValueError, match="rpy"):
        sp.compute_rpy_jacobian_inverse([0.3, PI / 2, -0.2], frame)


@PROPERTY
@given(rpys(), vectors(3, -2, 2), st.sampled_from([LOCAL, WORLD, LWA]))
def test_rpy_jacobian_time_derivative(rpy, rpydot, frame):
    fd = (sp.compute_rpy_jacobian(rpy + H * rpydot, frame) - sp.compute_rpy_jacobian(rpy - H * rpydot, frame)) / (2 * H)
    assert_close(sp.compute_rpy_jacobian_time_derivative(rpy, rpydot, frame), fd, 1e-8)
