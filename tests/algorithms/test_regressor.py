"""Regressors times the inertial parameters against RNEA, the CoM and the energies; body regressors against the
spatial inertia; kinematic regressors against finite differences of perturbed joint placements; supported
inertia and force by frame; Pinocchio (when installed); input errors."""

import copy

import numpy as np
import pytest
from conftest import MODEL_CASES, assert_close, random_model, random_state

import rbda
from rbda import LOCAL, LOCAL_WORLD_ALIGNED, WORLD, SE3, Frame, FrameType, Inertia, Motion
from rbda.spatial import exp6, log6


def parameters(model) -> np.ndarray:
    return np.concatenate([model.inertias[i].to_dynamic_parameters() for i in range(1, model.njoints)])


def test_regressors_times_parameters(model):
    model.armature = np.random.default_rng(3).uniform(0.0, 0.1, model.nv)
    data, ref = model.create_data(), model.create_data()
    q, v, a = random_state(model)
    pi = parameters(model)
    Y = rbda.compute_joint_torque_regressor(model, data, q, v, a)
    assert Y.shape == (model.nv, 10 * (model.njoints - 1))
    assert_close(Y @ pi + model.armature * a, rbda.rnea(model, ref, q, v, a))
    phi = np.concatenate([pi[10 * k : 10 * k + 4] for k in range(model.njoints - 1)])
    assert_close(rbda.compute_static_regressor(model, data, q) @ phi, rbda.center_of_mass(model, ref, q))
    ke = rbda.compute_kinetic_energy_regressor(model, data, q, v) @ pi + 0.5 * model.armature @ (v * v)
    assert ke == pytest.approx(rbda.compute_kinetic_energy(model, ref, q, v), rel=1e-12)
    pe = rbda.compute_potential_energy_regressor(model, data, q) @ pi
    assert pe == pytest.approx(rbda.compute_potential_energy(model, ref, q), rel=1e-12, abs=1e-12)


def test_body_regressors():
    rng = np.random.default_rng(7)
    for _ in range(5):
        Y, v, a = Inertia.Random(rng), Motion(rng.normal(size=6)), Motion(rng.normal(size=6))
        assert_close(rbda.body_regressor(v, a) @ Y.to_dynamic_parameters(), (Y * a + Y.vxiv(v)).vector, 1e-12)
    model = random_model(1, True)
    data = model.create_data()
    q, v, a = random_state(model)
    rbda.rnea(model, data, q, v, a)
    for j in range(1, model.njoints):
        if not model.children[j]:  # a leaf's joint force is its body's
            assert_close(rbda.joint_body_regressor(model, data, j) @ model.inertias[j].to_dynamic_parameters(), data.f[j])
    for k, f in enumerate(model.frames):
        if f.parent_joint > 0 and not model.children[f.parent_joint]:
            Yf = f.placement.act_inv(model.inertias[f.parent_joint])
            assert_close(rbda.frame_body_regressor(model, data, k) @ Yf.to_dynamic_parameters(),
                         f.placement.act_inv(rbda.Force(data.f[f.parent_joint])).vector)


def test_kinematic_regressor_by_finite_differences():
    model = random_model(2, True)
    data = model.create_data()
    q, _, _ = random_state(model)
    rbda.forward_kinematics(model, data, q)
    eps = 1e-7
    for frame_id in (model.nframes - 1, model.nframes // 2):
        f = model.frames[frame_id]
        oMf = data.oMi[f.parent_joint] * f.placement
        R = {rf: rbda.compute_frame_kinematic_regressor(model, data, frame_id, rf) for rf in (LOCAL, WORLD, LOCAL_WORLD_ALIGNED)}
        fd = np.zeros_like(R[LOCAL])
        for i in range(1, model.njoints):
            for k in range(6):
                plus = copy.deepcopy(model)
                plus.joint_placements[i] = model.joint_placements[i] * exp6(Motion(eps * np.eye(6)[k]))
                scratch = plus.create_data()
                rbda.forward_kinematics(plus, scratch, q)
                fd[:, 6 * (i - 1) + k] = log6(oMf.inverse() * (scratch.oMi[f.parent_joint] * f.placement)).vector / eps
        assert_close(R[LOCAL], fd, 1e-6)
        assert_close(R[WORLD], oMf.action @ fd, 1e-6)
        assert_close(R[LOCAL_WORLD_ALIGNED], SE3(oMf.rotation, np.zeros(3)).action @ fd, 1e-6)


def model_with_frame_inertias():
    """The manipulator with a chain of two inertia-carrying frames and a third, unrelated one on joint 3."""
    model = rbda.sample_models.manipulator()
    rng = np.random.default_rng(3)
    j = 3
    f1 = model.add_frame(Frame("f1", j, model.get_frame_id(model.names[j]), SE3(np.eye(3), [0.1, 0.0, 0.2]),
                               FrameType.OP_FRAME, Inertia.Random(rng)))
    f2 = model.add_frame(Frame("f2", j, f1, SE3(np.eye(3), [0.0, 0.3, 0.0]), FrameType.OP_FRAME, Inertia.Random(rng)))
    f3 = model.add_frame(Frame("f3", j, 0, SE3(), FrameType.OP_FRAME, Inertia.Random(rng)))
    return model, (f1, f2, f3)


def test_supported_inertia_and_force_by_frame():
    model, (f1, f2, f3) = model_with_frame_inertias()
    data = model.create_data()
    q, v, a = random_state(model)
    rbda.forward_kinematics(model, data, q)
    fr = model.frames
    Y1 = rbda.compute_supported_inertia_by_frame(model, data, f1, False)
    expected = fr[f1].inertia + fr[f1].placement.act_inv(fr[f2].placement.act(fr[f2].inertia))
    assert_close(Y1.matrix(), expected.matrix(), 1e-12)
    Ysub = rbda.compute_supported_inertia_by_frame(model, data, f1, True)
    subtree_mass = sum(model.inertias[k].mass for k in model.subtrees[3][1:])
    assert Ysub.mass == pytest.approx(Y1.mass + subtree_mass, rel=1e-13)
    rbda.rnea(model, data, q, v, a)
    joint_frame = model.get_frame_id(model.names[4])  # no inertia on or below it: it carries the joints below
    Y4 = model.inertias[4]
    own = Y4 * Motion(data.a_gf[4]) + Y4.vxiv(Motion(data.v[4]))
    assert_close(rbda.compute_supported_force_by_frame(model, data, joint_frame).vector, data.f[4] - own.vector)


def test_bad_input():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q, v, a = random_state(model)
    with pytest.raises(ValueError, match="a"):
        rbda.compute_joint_torque_regressor(model, data, q, v, a[:3])
    with pytest.raises(ValueError, match="velocity"):
        rbda.body_regressor(np.zeros(5), np.zeros(6))
    with pytest.raises(ValueError, match="reference_frame"):
        rbda.compute_joint_kinematic_regressor(model, data, 1, "nowhere")
    with pytest.raises(ValueError, match="frame_id"):
        rbda.compute_supported_force_by_frame(model, data, model.nframes)


@pytest.mark.parametrize("case", MODEL_CASES[:4], ids=str)
def test_against_pinocchio(case):
    pin = pytest.importorskip("pinocchio")
    from test_against_pinocchio import PIN_FRAME, pinocchio_joint_types
    from rbda.interop.pinocchio import to_pinocchio

    model = random_model(*case, joints=pinocchio_joint_types())
    data, pm = model.create_data(), to_pinocchio(model)
    pd = pm.createData()
    q, v, a = random_state(model, 1)
    assert_close(rbda.compute_joint_torque_regressor(model, data, q, v, a), pin.computeJointTorqueRegressor(pm, pd, q, v, a))
    assert_close(rbda.compute_static_regressor(model, data, q), pin.computeStaticRegressor(pm, pd, q))
    assert_close(rbda.compute_kinetic_energy_regressor(model, data, q, v), pin.computeKineticEnergyRegressor(pm, pd, q, v))
    assert_close(rbda.compute_potential_energy_regressor(model, data, q), pin.computePotentialEnergyRegressor(pm, pd, q))
    rbda.rnea(model, data, q, v, a)
    pin.rnea(pm, pd, q, v, a)
    for j in range(1, model.njoints):
        assert_close(rbda.joint_body_regressor(model, data, j), pin.jointBodyRegressor(pm, pd, j))
    for k in range(1, model.nframes):
        assert_close(rbda.frame_body_regressor(model, data, k), pin.frameBodyRegressor(pm, pd, k))
    pin.forwardKinematics(pm, pd, q)
    pin.updateFramePlacements(pm, pd)
    for rf in (LOCAL, WORLD, LOCAL_WORLD_ALIGNED):
        for j in range(1, model.njoints):
            assert_close(rbda.compute_joint_kinematic_regressor(model, data, j, rf),
                         pin.computeJointKinematicRegressor(pm, pd, j, PIN_FRAME[rf]))
        for k in range(1, model.nframes, 3):
            assert_close(rbda.compute_frame_kinematic_regressor(model, data, k, rf),
                         pin.computeFrameKinematicRegressor(pm, pd, k, PIN_FRAME[rf]))


def test_supported_against_pinocchio():
    """Pinocchio's supported force reads ``data.a`` (not filled by its rnea): its forward kinematics with
    (q, v, a) runs first."""
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio

    model, frames = model_with_frame_inertias()
    pm = to_pinocchio(model)
    for k in range(model.nframes):  # to_pinocchio leaves frame inertias out
        f = pm.frames[k]
        Y = model.frames[k].inertia
        f.inertia = pin.Inertia(Y.mass, Y.lever.copy(), Y.inertia.copy())
        pm.frames[k] = f
    data, pd = model.create_data(), pm.createData()
    q, v, a = random_state(model, 2)
    rbda.rnea(model, data, q, v, a)
    pin.forwardKinematics(pm, pd, q, v, a)
    pin.rnea(pm, pd, q, v, a)
    for k in (*frames, 1, model.nframes - 1):
        for with_subtree in (False, True):
            assert_close(rbda.compute_supported_inertia_by_frame(model, data, k, with_subtree).matrix(),
                         pin.computeSupportedInertiaByFrame(pm, pd, k, with_subtree).matrix())
        assert_close(rbda.compute_supported_force_by_frame(model, data, k).vector,
                     pin.computeSupportedForceByFrame(pm, pd, k).vector)
