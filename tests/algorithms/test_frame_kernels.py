"""The frame functions that run on the kernels of ``kernels/frames.py`` (Jacobians, velocities, accelerations,
their time variations, the joint kinematic Hessian, kinematic regressors, one frame's placement): against
Pinocchio on real robots in every reference frame, results owned by the caller, and the named errors of bad ids."""

import os

import numpy as np
import pytest

import rbda

pin = pytest.importorskip("pinocchio")
from rbda.interop.pinocchio import to_pinocchio  # noqa: E402

ROBOTS = os.path.join(os.path.dirname(pin.__file__), *[".."] * 4, "share", "example-robot-data", "robots")
RFS = [(rbda.LOCAL, pin.LOCAL), (rbda.WORLD, pin.WORLD), (rbda.LOCAL_WORLD_ALIGNED, pin.LOCAL_WORLD_ALIGNED)]


def robots():
    panda = rbda.load_model(os.path.join(ROBOTS, "panda_description/urdf/panda.urdf"))
    talos = rbda.load_model(os.path.join(ROBOTS, "talos_data/robots/talos_reduced.urdf"), floating_base=True)
    return {"panda": panda, "talos": talos}


MODELS = robots() if os.path.isdir(ROBOTS) else {}


def state(model, seed=0):
    rng = np.random.default_rng(seed)
    return rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)


def value(x) -> np.ndarray:
    """A result as an array: a Motion's vector, an SE3's homogeneous matrix, an array itself."""
    return x.homogeneous if isinstance(x, rbda.SE3) else np.asarray(getattr(x, "vector", x))


def frames_of(model):
    return list(range(0, model.nframes, 3))


@pytest.mark.parametrize("name", list(MODELS))
def test_frame_motions_and_jacobians_against_pinocchio(name):
    model = MODELS[name]
    pm = to_pinocchio(model)
    data, pd = model.create_data(), pm.createData()
    for seed in range(2):
        q, v, a = state(model, seed)
        rbda.forward_kinematics(model, data, q, v, a)
        pin.forwardKinematics(pm, pd, q, v, a)
        for rf, prf in RFS:
            for j in range(model.njoints):
                np.testing.assert_allclose(rbda.get_velocity(model, data, j, rf).vector,
                                           pin.getVelocity(pm, pd, j, prf).vector, atol=1e-10)
                np.testing.assert_allclose(rbda.get_acceleration(model, data, j, rf).vector,
                                           pin.getAcceleration(pm, pd, j, prf).vector, atol=1e-10)
                np.testing.assert_allclose(rbda.get_classical_acceleration(model, data, j, rf).vector,
                                           pin.getClassicalAcceleration(pm, pd, j, prf).vector, atol=1e-10)
            for f in frames_of(model):
                np.testing.assert_allclose(rbda.get_frame_velocity(model, data, f, rf).vector,
                                           pin.getFrameVelocity(pm, pd, f, prf).vector, atol=1e-10)
                np.testing.assert_allclose(rbda.get_frame_acceleration(model, data, f, rf).vector,
                                           pin.getFrameAcceleration(pm, pd, f, prf).vector, atol=1e-10)
                np.testing.assert_allclose(rbda.get_frame_classical_acceleration(model, data, f, rf).vector,
                                           pin.getFrameClassicalAcceleration(pm, pd, f, prf).vector, atol=1e-10)
        rbda.compute_joint_jacobians_time_variation(model, data, q, v)
        pin.computeJointJacobiansTimeVariation(pm, pd, q, v)
        pin.updateFramePlacements(pm, pd)
        for rf, prf in RFS:
            for j in range(model.njoints):
                np.testing.assert_allclose(rbda.get_joint_jacobian(model, data, j, rf),
                                           pin.getJointJacobian(pm, pd, j, prf), atol=1e-12)
                np.testing.assert_allclose(rbda.get_joint_jacobian_time_variation(model, data, j, rf),
                                           pin.getJointJacobianTimeVariation(pm, pd, j, prf), atol=1e-10)
            for f in frames_of(model):
                np.testing.assert_allclose(rbda.get_frame_jacobian(model, data, f, rf),
                                           pin.getFrameJacobian(pm, pd, f, prf), atol=1e-12)
                np.testing.assert_allclose(data.oMf[f].homogeneous, pd.oMf[f].homogeneous, atol=1e-12)
                np.testing.assert_allclose(rbda.get_frame_jacobian_time_variation(model, data, f, rf),
                                           pin.getFrameJacobianTimeVariation(pm, pd, f, prf), atol=1e-10)
                np.testing.assert_allclose(rbda.compute_frame_jacobian(model, data, q, f, rf),
                                           pin.computeFrameJacobian(pm, pd, q, f, prf), atol=1e-12)
        for j in range(model.njoints):
            np.testing.assert_allclose(rbda.compute_joint_jacobian(model, data, q, j),
                                       pin.computeJointJacobian(pm, pd, q, j), atol=1e-12)


@pytest.mark.parametrize("name", list(MODELS))
def test_hessians_regressors_and_placements_against_pinocchio(name):
    model = MODELS[name]
    pm = to_pinocchio(model)
    data, pd = model.create_data(), pm.createData()
    q, _, _ = state(model, 3)
    rbda.compute_joint_kinematic_hessians(model, data, q)
    pin.computeJointJacobians(pm, pd, q)
    pin.computeJointKinematicHessians(pm, pd, q)
    shape = (6, model.nv, model.nv)
    for rf, prf in RFS:
        for j in range(0, model.njoints, 4):
            # the binding returns the column-major Eigen tensor read as a C-ordered array
            Hp = np.asarray(pin.getJointKinematicHessian(pm, pd, j, prf)).ravel(order="C").reshape(shape, order="F")
            np.testing.assert_allclose(rbda.get_joint_kinematic_hessian(model, data, j, rf), Hp, atol=1e-10)
    rbda.forward_kinematics(model, data, q)
    pin.framesForwardKinematics(pm, pd, q)
    for rf, prf in RFS:
        for j in range(1, model.njoints):  # (Pinocchio refuses the universe)
            np.testing.assert_allclose(rbda.compute_joint_kinematic_regressor(model, data, j, rf),
                                       pin.computeJointKinematicRegressor(pm, pd, j, prf), atol=1e-10)
        for f in frames_of(model)[1:]:
            np.testing.assert_allclose(rbda.compute_frame_kinematic_regressor(model, data, f, rf),
                                       pin.computeFrameKinematicRegressor(pm, pd, f, prf), atol=1e-10)
    for f in frames_of(model):
        np.testing.assert_allclose(rbda.update_frame_placement(model, data, f).homogeneous,
                                   pin.updateFramePlacement(pm, pd, f).homogeneous, atol=1e-12)


def test_results_belong_to_the_caller():
    """Each call returns a new array (or a Motion / SE3 on new storage): no alias of the data or of the last
    call's result."""
    model = rbda.sample_models.humanoid()
    data = model.create_data()
    q, v, a = state(model)
    rbda.forward_kinematics(model, data, q, v, a)
    f = model.nframes - 1
    v1, v2 = rbda.get_frame_velocity(model, data, f), rbda.get_frame_velocity(model, data, f)
    assert not np.shares_memory(v1.vector, v2.vector) and not np.shares_memory(v1.vector, data.ws)
    P1 = rbda.update_frame_placement(model, data, f)
    assert not np.shares_memory(P1.rotation, data.ws) and not np.shares_memory(P1.translation, data.ws)
    rbda.compute_joint_jacobians(model, data, q)
    J1 = rbda.get_frame_jacobian(model, data, f)
    J2 = rbda.get_frame_jacobian(model, data, f)
    assert J1 is not J2 and not np.shares_memory(J1, J2) and not np.shares_memory(J1, data.ws)
    J1[:] = 0.0
    np.testing.assert_array_equal(J2, rbda.get_frame_jacobian(model, data, f))


@pytest.mark.parametrize("call", [
    lambda m, d, x: rbda.get_frame_velocity(m, d, x),
    lambda m, d, x: rbda.get_frame_jacobian(m, d, x),
    lambda m, d, x: rbda.compute_frame_jacobian(m, d, rbda.neutral(m), x),
    lambda m, d, x: rbda.get_frame_jacobian_time_variation(m, d, x),
    lambda m, d, x: rbda.compute_frame_kinematic_regressor(m, d, x, rbda.LOCAL),
    lambda m, d, x: rbda.update_frame_placement(m, d, x),
])
def test_bad_frame_ids_get_the_named_errors(call):
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    rbda.compute_joint_jacobians(model, data, rbda.neutral(model))
    for bad in (model.nframes, -1, 10**6):
        with pytest.raises(ValueError, match="frame_id: .* is not a frame id of this model"):
            call(model, data, bad)
    with pytest.raises(KeyError, match="frame_id: no frame named"):
        call(model, data, "no such frame")
    with pytest.raises(TypeError, match="frame_id: expected a frame id"):
        call(model, data, 1.5)
    last = model.nframes - 1
    np.testing.assert_array_equal(value(call(model, data, model.frames[last].name)), value(call(model, data, last)))
    np.testing.assert_array_equal(value(call(model, data, np.int64(last))), value(call(model, data, last)))
    other = rbda.sample_models.humanoid().create_data()
    with pytest.raises(ValueError, match="data: "):
        call(model, other, 0)


@pytest.mark.parametrize("call", [
    lambda m, d, j, rf: rbda.get_velocity(m, d, j, rf),
    lambda m, d, j, rf: rbda.get_joint_jacobian(m, d, j, rf),
    lambda m, d, j, rf: rbda.get_joint_jacobian_time_variation(m, d, j, rf),
    lambda m, d, j, rf: rbda.get_joint_kinematic_hessian(m, d, j, rf),
    lambda m, d, j, rf: rbda.compute_joint_kinematic_regressor(m, d, j, rf),
])
def test_bad_joint_ids_and_reference_frames_get_the_named_errors(call):
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    for bad in (model.njoints, -1):
        with pytest.raises(ValueError, match="joint_id: .* is not a joint id of this model"):
            call(model, data, bad, rbda.LOCAL)
    for bad in (3, -1, "LOCAL", 1.5):
        with pytest.raises(ValueError, match="reference_frame: expected one of"):
            call(model, data, 1, bad)
    np.testing.assert_array_equal(value(call(model, data, 1, 2)), value(call(model, data, 1, rbda.LOCAL_WORLD_ALIGNED)))
    np.testing.assert_array_equal(value(call(model, data, np.int64(1), 0)), value(call(model, data, 1, rbda.WORLD)))
