"""Joint and frame Jacobians in LOCAL / WORLD / LOCAL_WORLD_ALIGNED against finite differences of the placements
taken with ``integrate``, against the velocities of forward kinematics, and their time variation against
central differences in time."""

from functools import partial

import numpy as np
from conftest import assert_close, derivative_along, frame_placements, jacobian_along_basis, joint_placements, local_twist, random_state, world_twist

import rbda
from rbda import LOCAL, LOCAL_WORLD_ALIGNED, WORLD

FRAMES = (LOCAL, WORLD, LOCAL_WORLD_ALIGNED)


def finite_difference_jacobians(model, placements, q) -> dict:
    """``{reference frame: (n, 6, nv)}`` from ``d oM / d q_k`` taken as ``q (+) eps e_k``: LOCAL columns are
    ``vee(oM^-1 d oM)``, WORLD ``vee(d oM oM^-1)``, LOCAL_WORLD_ALIGNED the origin velocity and the world
    angular velocity."""
    integrate = partial(rbda.integrate, model)
    H = placements(q)
    dH = np.moveaxis(jacobian_along_basis(integrate, placements, q, model.nv), -1, 0)  # (nv, n, 4, 4)
    local, world = local_twist(H, dH), world_twist(H, dH)  # (nv, n, 6)
    lwa = np.concatenate([dH[..., :3, 3], world[..., 3:]], axis=-1)
    return {rf: np.moveaxis(J, 0, -1) for rf, J in ((LOCAL, local), (WORLD, world), (LOCAL_WORLD_ALIGNED, lwa))}


def test_joint_jacobians_match_finite_differences(model):
    data, fd = model.create_data(), model.create_data()
    q, _, _ = random_state(model)
    expected = finite_difference_jacobians(model, lambda q_: joint_placements(model, fd, q_), q)
    J_all = rbda.compute_joint_jacobians(model, data, q)
    assert J_all.shape == (6, model.nv_extended)  # one column per joint dof, mimic joints included
    for i in range(1, model.njoints):
        for rf in FRAMES:
            assert_close(rbda.get_joint_jacobian(model, data, i, rf), expected[rf][i], 1e-7, f"joint {i} {rf!r}")
    assert_close(rbda.compute_joint_jacobian(model, fd, q, model.njoints - 1), expected[LOCAL][-1], 1e-7)


def test_frame_jacobians_match_finite_differences(model):
    data, fd = model.create_data(), model.create_data()
    q, _, _ = random_state(model, 1)
    expected = finite_difference_jacobians(model, lambda q_: frame_placements(model, fd, q_), q)
    rbda.compute_joint_jacobians(model, data, q)
    for k in range(model.nframes):
        for rf in FRAMES:
            assert_close(rbda.get_frame_jacobian(model, data, k, rf), expected[rf][k], 1e-7, f"frame {k} {rf!r}")
    k = model.nframes - 1
    assert_close(rbda.compute_frame_jacobian(model, fd, q, k, WORLD), expected[WORLD][k], 1e-7)


def test_jacobians_map_joint_velocities_to_body_velocities(model):
    data = model.create_data()
    q, v, _ = random_state(model, 2)
    rbda.forward_kinematics(model, data, q, v)
    rbda.compute_joint_jacobians(model, data, q)
    for rf in FRAMES:
        for i in range(1, model.njoints):
            assert_close(rbda.get_joint_jacobian(model, data, i, rf) @ v,
                         rbda.get_velocity(model, data, i, rf).vector, 1e-12, f"joint {i} {rf!r}")
        for k in range(model.nframes):
            assert_close(rbda.get_frame_jacobian(model, data, k, rf) @ v,
                         rbda.get_frame_velocity(model, data, k, rf).vector, 1e-12, f"frame {k} {rf!r}")


def test_jacobian_columns_outside_the_support_are_zero(model):
    data = model.create_data()
    q, _, _ = random_state(model, 3)
    rbda.compute_joint_jacobians(model, data, q)
    for i in range(1, model.njoints):
        outside = np.ones(model.nv, dtype=bool)
        for j in model.supports[i][1:]:  # a mimic joint moves with the dof of the joint it mimics
            outside[model.idx_v[j] : model.idx_v[j] + max(model.nvs[j], isinstance(model.joints[j], rbda.JointModelMimic))] = False
        for rf in FRAMES:
            assert np.all(rbda.get_joint_jacobian(model, data, i, rf)[:, outside] == 0.0)


def test_jacobian_time_variations_match_finite_differences(model):
    """``dJ/dt`` along ``q(t) = q (+) t v`` (constant ``v``), for every joint and frame in the three frames."""
    data, fd = model.create_data(), model.create_data()
    q, v, _ = random_state(model, 4)
    dJ_all = rbda.compute_joint_jacobians_time_variation(model, data, q, v)
    assert dJ_all.shape == (6, model.nv_extended)
    integrate = partial(rbda.integrate, model)

    def jacobians(q_):
        rbda.compute_joint_jacobians(model, fd, q_)
        joints = [[rbda.get_joint_jacobian(model, fd, i, rf) for rf in FRAMES] for i in range(1, model.njoints)]
        frames = [[rbda.get_frame_jacobian(model, fd, k, rf) for rf in FRAMES] for k in range(model.nframes)]
        return np.array(joints + frames)

    expected = derivative_along(integrate, jacobians, q, v)
    for i in range(1, model.njoints):
        for r, rf in enumerate(FRAMES):
            assert_close(rbda.get_joint_jacobian_time_variation(model, data, i, rf), expected[i - 1, r], 1e-6,
                         f"joint {i} {rf!r}")
    for k in range(model.nframes):
        for r, rf in enumerate(FRAMES):
            assert_close(rbda.get_frame_jacobian_time_variation(model, data, k, rf),
                         expected[model.njoints - 1 + k, r], 1e-6, f"frame {k} {rf!r}")


def test_jacobian_time_variation_gives_the_acceleration_bias():
    """``J a + dJ v`` is the spatial acceleration of forward kinematics (WORLD and LOCAL), on the sample models."""
    for model in (rbda.sample_models.manipulator(), rbda.sample_models.humanoid(), rbda.sample_models.every_joint()):
        data = model.create_data()
        q, v, a = random_state(model, 5)
        rbda.compute_joint_jacobians_time_variation(model, data, q, v)
        rbda.forward_kinematics(model, data, q, v, a)
        for i in range(1, model.njoints):
            for rf in (LOCAL, WORLD):
                J = rbda.get_joint_jacobian(model, data, i, rf)
                dJ = rbda.get_joint_jacobian_time_variation(model, data, i, rf)
                assert_close(J @ a + dJ @ v, rbda.get_acceleration(model, data, i, rf).vector, 1e-10,
                             f"{model.name} joint {i} {rf!r}")


def test_compute_joint_jacobians_without_q_on_fresh_data_is_the_neutral_jacobian():
    model = rbda.sample_models.manipulator()  # fresh data holds identity placements and zero subspaces
    np.testing.assert_array_equal(rbda.compute_joint_jacobians(model, model.create_data()), np.zeros((6, model.nv)))
