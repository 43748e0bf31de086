"""Forward kinematics: placements by composition, velocities and accelerations of joints and frames against
finite differences in time of the placements along a curve ``q(t)`` on the manifold."""

import numpy as np
import pytest
from conftest import assert_close, frame_placements, joint_placements, local_twist, random_state, world_twist

import rbda
from rbda import LOCAL, LOCAL_WORLD_ALIGNED, WORLD

FRAMES = (LOCAL, WORLD, LOCAL_WORLD_ALIGNED)
DT = 1e-5  # central differences in time: O(DT^2) truncation, O(1e-16 / DT) rounding


def curve(model, q, v, a, t):
    """The state at time ``t`` of the curve ``q(t) = q (+) (t v + t^2 a / 2)``: velocity ``v`` and acceleration
    ``a`` at ``t = 0``, velocity ``v + t a + O(t^2)`` (with an even ``O(t^2)``, so central differences stay
    second-order accurate)."""
    return rbda.integrate(model, q, t * v + 0.5 * t * t * a), v + t * a


def time_derivative(f, dt: float = DT):
    return (np.asarray(f(dt)) - np.asarray(f(-dt))) / (2.0 * dt)


def test_placements_compose_joint_placements_and_joint_motions(model):
    data = model.create_data()
    q, _, _ = random_state(model)
    rbda.forward_kinematics(model, data, q)
    oMi = [np.eye(4)]
    for i in range(1, model.njoints):
        qi = q[model.idx_q[i] : model.idx_q[i] + max(model.nqs[i], isinstance(model.joints[i], rbda.JointModelMimic))]
        liMi = model.joint_placements[i].homogeneous @ model.joints[i].calc(qi)[0].homogeneous
        oMi.append(oMi[model.parents[i]] @ liMi)
        assert_close(data.liMi[i].homogeneous, liMi, 1e-13)
        assert_close(data.oMi[i].homogeneous, oMi[i], 1e-12)
    # update_global_placements recomposes oMi from liMi alone
    data.oMi[model.njoints - 1] = rbda.SE3()
    rbda.update_global_placements(model, data)
    assert_close(data.oMi[model.njoints - 1].homogeneous, oMi[-1], 1e-12)


def test_joint_velocities_match_finite_differences(model):
    data, fd = model.create_data(), model.create_data()
    q, v, _ = random_state(model)
    rbda.forward_kinematics(model, data, q, v)
    H = joint_placements(model, fd, q)
    dH = time_derivative(lambda t: joint_placements(model, fd, rbda.integrate(model, q, t * v)))
    local, world = local_twist(H, dH), world_twist(H, dH)
    for i in range(1, model.njoints):
        assert_close(data.v[i], local[i], 1e-7, f"joint {i}")
        assert_close(rbda.get_velocity(model, data, i, LOCAL).vector, local[i], 1e-7)
        assert_close(rbda.get_velocity(model, data, i, WORLD).vector, world[i], 1e-7)
        lwa = np.concatenate([dH[i, :3, 3], world[i, 3:]])  # origin velocity and angular velocity, world axes
        assert_close(rbda.get_velocity(model, data, i, LOCAL_WORLD_ALIGNED).vector, lwa, 1e-7)


def test_frame_velocities_match_finite_differences(model):
    data, fd = model.create_data(), model.create_data()
    q, v, _ = random_state(model, 1)
    rbda.forward_kinematics(model, data, q, v)
    H = frame_placements(model, fd, q)
    dH = time_derivative(lambda t: frame_placements(model, fd, rbda.integrate(model, q, t * v)))
    local, world = local_twist(H, dH), world_twist(H, dH)
    for k in range(model.nframes):
        assert_close(rbda.get_frame_velocity(model, data, k, LOCAL).vector, local[k], 1e-7, f"frame {k}")
        assert_close(rbda.get_frame_velocity(model, data, k, WORLD).vector, world[k], 1e-7)
        lwa = np.concatenate([dH[k, :3, 3], world[k, 3:]])
        assert_close(rbda.get_frame_velocity(model, data, k, LOCAL_WORLD_ALIGNED).vector, lwa, 1e-7)


def test_accelerations_are_time_derivatives_of_velocities(model):
    """``data.a[i]`` (local, without gravity) is ``d/dt data.v[i]``; the WORLD acceleration is ``d/dt`` of the
    WORLD velocity; LOCAL_WORLD_ALIGNED is the local one with world axes."""
    data, fd = model.create_data(), model.create_data()
    q, v, a = random_state(model, 2)
    rbda.forward_kinematics(model, data, q, v, a)

    def velocities(t, rf):
        rbda.forward_kinematics(model, fd, *curve(model, q, v, a, t))
        return np.array([rbda.get_velocity(model, fd, i, rf).vector for i in range(model.njoints)])

    d_local, d_world = time_derivative(lambda t: velocities(t, LOCAL)), time_derivative(lambda t: velocities(t, WORLD))
    for i in range(1, model.njoints):
        assert_close(data.a[i], d_local[i], 1e-6, f"joint {i}")
        assert_close(rbda.get_acceleration(model, data, i, LOCAL).vector, d_local[i], 1e-6)
        assert_close(rbda.get_acceleration(model, data, i, WORLD).vector, d_world[i], 1e-6)
        R = data.oMi[i].rotation
        lwa = np.concatenate([R @ d_local[i, :3], R @ d_local[i, 3:]])
        assert_close(rbda.get_acceleration(model, data, i, LOCAL_WORLD_ALIGNED).vector, lwa, 1e-6)


def test_classical_accelerations_are_second_derivatives_of_positions(model):
    """The linear part of the classical acceleration is the acceleration of the origin: second differences of
    its world position (LOCAL_WORLD_ALIGNED; LOCAL in the frame's axes); the angular part is ``d/dt`` of the
    angular velocity."""
    data, fd = model.create_data(), model.create_data()
    q, v, a = random_state(model, 3)
    rbda.forward_kinematics(model, data, q, v, a)
    dt = 1e-4

    def origins(t):
        return frame_placements(model, fd, curve(model, q, v, a, t)[0])[:, :3, 3]

    p_ddot = (origins(dt) - 2.0 * origins(0.0) + origins(-dt)) / dt**2

    def angular_velocities(t):
        rbda.forward_kinematics(model, fd, *curve(model, q, v, a, t))
        return np.array([rbda.get_frame_velocity(model, fd, k, LOCAL_WORLD_ALIGNED).angular
                         for k in range(model.nframes)])

    w_dot = time_derivative(angular_velocities)
    rbda.frames_forward_kinematics(model, data, q)
    for k in range(model.nframes):
        R = data.oMf[k].rotation
        lwa = rbda.get_frame_classical_acceleration(model, data, k, LOCAL_WORLD_ALIGNED)
        local = rbda.get_frame_classical_acceleration(model, data, k, LOCAL)
        assert_close(lwa.linear, p_ddot[k], 1e-5, f"frame {k}")
        assert_close(lwa.angular, w_dot[k], 1e-6)
        assert_close(local.linear, R.T @ p_ddot[k], 1e-5)
        assert_close(local.angular, R.T @ w_dot[k], 1e-6)
        f = model.frames[k]
        if f.placement.is_identity():  # a frame at its joint has the joint's accelerations
            j = f.parent_joint
            for rf in FRAMES:
                assert_close(rbda.get_classical_acceleration(model, data, j, rf).vector,
                             rbda.get_frame_classical_acceleration(model, data, k, rf).vector, 1e-12)


def test_kinematics_without_velocity_keep_placements_only():
    model = rbda.sample_models.humanoid()
    data = model.create_data()
    q, v, a = random_state(model, 4)
    rbda.forward_kinematics(model, data, q, v, a)
    H = np.array([data.oMi[i].homogeneous for i in range(model.njoints)])
    rbda.forward_kinematics(model, data, q)
    assert_close([data.oMi[i].homogeneous for i in range(model.njoints)], H, 0.0)
    with pytest.raises(ValueError, match="a:"):
        rbda.forward_kinematics(model, data, q, None, a)


def test_update_frame_placement():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q, _, _ = random_state(model, 5)
    rbda.forward_kinematics(model, data, q)
    tool = model.get_frame_id("tool")
    M = rbda.update_frame_placement(model, data, tool)
    expected = data.oMi[6].homogeneous @ model.frames[tool].placement.homogeneous
    assert_close(M.homogeneous, expected, 1e-13)
    assert_close(data.oMf[tool].homogeneous, expected, 1e-13)
