"""Derivatives of joint, frame and point velocities and accelerations against finite differences on the manifold
(every joint type, the three reference frames) and against Pinocchio."""

import numpy as np
import pytest
from conftest import MIMIC_CASES, SEEDS, assert_close, jacobian_along_basis, random_model, random_state

import rbda
from rbda import LOCAL, LOCAL_WORLD_ALIGNED, WORLD

FD_TOL = 2e-6
FRAMES = (LOCAL, WORLD, LOCAL_WORLD_ALIGNED)


def model_with_point(seed, floating, mimic=False):
    """A random model of every joint type (``mimic``: two of its joints mimic others) with an extra operational
    frame at a random placement on a deep joint."""
    model = random_model(seed, floating, mimic=mimic)
    joint = model.njoints - 1
    model.add_frame(rbda.Frame("point", joint, 0, rbda.SE3.Random(np.random.default_rng(seed)), rbda.FrameType.OP_FRAME))
    return model


@pytest.fixture(params=[(s, f) for s in SEEDS for f in (False, True)] + MIMIC_CASES,
                ids=lambda p: f"seed{p[0]}-{p[1]}" + ("-mimic" if len(p) > 2 else ""))
def case(request):
    model = model_with_point(*request.param)
    return model, model.create_data(), model.create_data(), random_state(model, seed=request.param[0])


def spatial(model, data, getter, target, rf, q, v, a, classical=False):
    """The spatial velocity (``getter='v'``) or acceleration (``'a'``) of joint/frame ``target`` at (q, v, a)."""
    kind, index = target
    rbda.forward_kinematics(model, data, q, v, a)
    if kind == "frame":
        rbda.update_frame_placements(model, data)
        if getter == "v":
            return rbda.get_frame_velocity(model, data, index, rf).vector.copy()
        if classical:
            return rbda.get_frame_classical_acceleration(model, data, index, rf).copy()
        return rbda.get_frame_acceleration(model, data, index, rf).vector.copy()
    fn = rbda.get_velocity if getter == "v" else rbda.get_acceleration
    return fn(model, data, index, rf).vector.copy()


def finite_differences(model, data, target, rf, q, v, a, getter, classical=False):
    """``(d/dq, d/dv, d/da)`` of the quantity by central differences (q through ``integrate``)."""
    f = lambda q_, v_, a_: spatial(model, data, getter, target, rf, q_, v_, a_, classical)
    plus = lambda x, d: x + d
    return (jacobian_along_basis(lambda x, d: rbda.integrate(model, x, d), lambda q_: f(q_, v, a), q, model.nv),
            jacobian_along_basis(plus, lambda v_: f(q, v_, a), v, model.nv),
            jacobian_along_basis(plus, lambda a_: f(q, v, a_), a, model.nv))


@pytest.mark.parametrize("rf", FRAMES, ids=lambda r: r.name)
def test_joint_derivatives_match_finite_differences(case, rf):
    model, data, scratch, (q, v, a) = case
    rbda.compute_forward_kinematics_derivatives(model, data, q, v, a)
    for joint in (model.njoints - 1, model.njoints // 2):
        v_dq, v_dv = rbda.get_joint_velocity_derivatives(model, data, joint, rf)
        fd_q, fd_v, _ = finite_differences(model, scratch, ("joint", joint), rf, q, v, a, "v")
        assert_close(v_dq, fd_q, FD_TOL)
        assert_close(v_dv, fd_v, FD_TOL)
        v_dq2, a_dq, a_dv, a_da = rbda.get_joint_acceleration_derivatives(model, data, joint, rf)
        assert_close(v_dq2, v_dq, 1e-14)
        fd_q, fd_v, fd_a = finite_differences(model, scratch, ("joint", joint), rf, q, v, a, "a")
        assert_close(a_dq, fd_q, FD_TOL)
        assert_close(a_dv, fd_v, FD_TOL)
        assert_close(a_da, fd_a, FD_TOL)


@pytest.mark.parametrize("rf", FRAMES, ids=lambda r: r.name)
def test_frame_derivatives_match_finite_differences(case, rf):
    model, data, scratch, (q, v, a) = case
    frame = model.get_frame_id("point")
    rbda.compute_forward_kinematics_derivatives(model, data, q, v, a)
    v_dq, v_dv = rbda.get_frame_velocity_derivatives(model, data, frame, rf)
    fd_q, fd_v, _ = finite_differences(model, scratch, ("frame", frame), rf, q, v, a, "v")
    assert_close(v_dq, fd_q, FD_TOL)
    assert_close(v_dv, fd_v, FD_TOL)
    _, a_dq, a_dv, a_da = rbda.get_frame_acceleration_derivatives(model, data, frame, rf)
    fd = finite_differences(model, scratch, ("frame", frame), rf, q, v, a, "a")
    for x, y in zip((a_dq, a_dv, a_da), fd):
        assert_close(x, y, FD_TOL)


@pytest.mark.parametrize("rf", (LOCAL, LOCAL_WORLD_ALIGNED), ids=lambda r: r.name)
def test_point_derivatives_match_finite_differences(case, rf):
    model, data, scratch, (q, v, a) = case
    frame = model.frames[model.get_frame_id("point")]
    rbda.compute_forward_kinematics_derivatives(model, data, q, v, a)
    v_dq, v_dv = rbda.get_point_velocity_derivatives(model, data, frame.parent_joint, frame.placement, rf)
    fd_q, fd_v, _ = finite_differences(model, scratch, ("frame", model.get_frame_id("point")), rf, q, v, a, "v")
    assert_close(v_dq, fd_q[:3], FD_TOL)
    assert_close(v_dv, fd_v[:3], FD_TOL)
    out = rbda.get_point_classic_acceleration_derivatives(model, data, frame.parent_joint, frame.placement, rf)
    fd = finite_differences(model, scratch, ("frame", model.get_frame_id("point")), rf, q, v, a, "a", classical=True)
    assert_close(out[0], fd_q[:3], FD_TOL)
    for x, y in zip(out[1:], fd):
        assert_close(x, y[:3], FD_TOL)


def test_kinematics_derivative_getters_check_their_inputs():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    with pytest.raises(ValueError, match="compute_forward_kinematics_derivatives"):
        rbda.get_joint_velocity_derivatives(model, data, 1, LOCAL)
    q, v, a = random_state(model)
    rbda.compute_forward_kinematics_derivatives(model, data, q, v, a)
    with pytest.raises(ValueError, match="joint_id"):
        rbda.get_joint_velocity_derivatives(model, data, model.njoints, LOCAL)
    with pytest.raises(ValueError, match="reference_frame"):
        rbda.get_joint_acceleration_derivatives(model, data, 1, "nowhere")
    with pytest.raises(ValueError, match="reference_frame"):
        rbda.get_point_velocity_derivatives(model, data, 1, rbda.SE3(), WORLD)
    with pytest.raises(TypeError, match="placement"):
        rbda.get_point_velocity_derivatives(model, data, 1, np.eye(4), LOCAL)
    rbda.compute_rnea_derivatives(model, data, q, v, a)  # overwrites the columns the getters combine
    with pytest.raises(ValueError, match="compute_forward_kinematics_derivatives"):
        rbda.get_frame_velocity_derivatives(model, data, 1, LOCAL)


# ------------------------------------------------------------------------------------------------ Pinocchio
def pinocchio_model(name):
    """A sample robot, or a random tree of the joint types whose Pinocchio derivatives are exact (not universal,
    spherical-ZYX, composite, and not planar: see the tests below)."""
    from test_against_pinocchio import make_model, pinocchio_joint_types

    if name in ("manipulator", "humanoid"):
        return make_model(name)
    seed, root = name.split("-")
    joints = [j for j in pinocchio_joint_types(False) if j.type != rbda.JointType.PLANAR]
    return random_model(int(seed[4:]), root == "floating", joints)


@pytest.mark.parametrize("name", ["manipulator", "humanoid", "seed0-floating", "seed1-tree", "seed2-floating"])
def test_kinematics_derivatives_agree_with_pinocchio(name):
    pin = pytest.importorskip("pinocchio")
    from test_against_pinocchio import PIN_FRAME

    from rbda.interop.pinocchio import to_pinocchio

    model = pinocchio_model(name)
    pmodel = to_pinocchio(model)
    data, pdata = model.create_data(), pmodel.createData()
    q, v, a = random_state(model, seed=4)
    rbda.compute_forward_kinematics_derivatives(model, data, q, v, a)
    pin.computeForwardKinematicsDerivatives(pmodel, pdata, q, v, a)
    placement = rbda.SE3.Random(np.random.default_rng(2))
    pplacement = pin.SE3(placement.rotation, placement.translation)
    joint, frame = model.njoints - 1, model.nframes - 1
    for rf in (LOCAL, WORLD):  # LOCAL_WORLD_ALIGNED: see the next test
        pairs = [(rbda.get_joint_acceleration_derivatives(model, data, joint, rf),
                  pin.getJointAccelerationDerivatives(pmodel, pdata, joint, PIN_FRAME[rf])),
                 (rbda.get_frame_acceleration_derivatives(model, data, frame, rf),
                  pin.getFrameAccelerationDerivatives(pmodel, pdata, frame, PIN_FRAME[rf]))]
        for ours, theirs in pairs:
            for x, y in zip(ours, theirs):
                assert_close(x, y, 1e-9)
    for rf in (LOCAL, LOCAL_WORLD_ALIGNED):
        ours = rbda.get_point_classic_acceleration_derivatives(model, data, joint, placement, rf)
        theirs = pin.getPointClassicAccelerationDerivatives(pmodel, pdata, joint, pplacement, PIN_FRAME[rf])
        for x, y in zip(ours, theirs):
            assert_close(x, y, 1e-9)


def test_local_world_aligned_derivatives_include_the_motion_of_the_frame_origin():
    """Pinocchio 4.1's joint/frame LOCAL_WORLD_ALIGNED dq-derivatives shift the WORLD ones to the frame origin as
    if it stood still; rbda differentiates the LOCAL_WORLD_ALIGNED quantity itself (what finite differences of
    get_velocity give), which adds ``w x dp/dq`` to the linear rows. The rest agrees."""
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio

    model = rbda.sample_models.manipulator()
    pmodel = to_pinocchio(model)
    data, pdata = model.create_data(), pmodel.createData()
    q, v, a = random_state(model, seed=3)
    rbda.compute_forward_kinematics_derivatives(model, data, q, v, a)
    pin.computeForwardKinematicsDerivatives(pmodel, pdata, q, v, a)
    joint = model.njoints - 1
    ours = rbda.get_joint_velocity_derivatives(model, data, joint, LOCAL_WORLD_ALIGNED)[0]
    theirs = pin.getJointVelocityDerivatives(pmodel, pdata, joint, pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)[0]
    p = data.oMi[joint].translation
    w = rbda.get_velocity(model, data, joint, LOCAL_WORLD_ALIGNED).angular
    J = rbda.get_joint_jacobian(model, data, joint, WORLD)
    dp_dq = J[:3] + np.cross(J[3:].T, p).T  # velocity of the origin along each column
    assert_close(ours[3:], theirs[3:], 1e-12)
    assert_close(ours[:3], theirs[:3] + np.cross(w, dp_dq.T).T, 1e-12)


def test_pinocchio_world_acceleration_derivatives_of_a_planar_joint_are_off_where_ours_match():
    """Pinocchio 4.1's WORLD acceleration dq-derivatives differ from finite differences of its own
    getAcceleration in the planar joint's own columns; ours match them."""
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio

    model = random_model(0, True, [rbda.JointModelRX(), rbda.JointModelPlanar()])
    pmodel = to_pinocchio(model)
    data, pdata = model.create_data(), pmodel.createData()
    q, v, a = random_state(model, seed=4)
    joint = model.njoints - 1
    assert model.joints[joint].type == rbda.JointType.PLANAR or model.joints[joint - 1].type == rbda.JointType.PLANAR

    def acceleration(q_):
        pin.forwardKinematics(pmodel, pdata, q_, v, a)
        return pin.getAcceleration(pmodel, pdata, joint, pin.ReferenceFrame.WORLD).vector.copy()

    fd = jacobian_along_basis(lambda x, d: pin.integrate(pmodel, x, d), acceleration, q, model.nv)
    rbda.compute_forward_kinematics_derivatives(model, data, q, v, a)
    assert_close(rbda.get_joint_acceleration_derivatives(model, data, joint, WORLD)[1], fd, FD_TOL)
    pin.computeForwardKinematicsDerivatives(pmodel, pdata, q, v, a)
    theirs = pin.getJointAccelerationDerivatives(pmodel, pdata, joint, pin.ReferenceFrame.WORLD)[1]
    assert np.abs(theirs - fd).max() > 1e-3
