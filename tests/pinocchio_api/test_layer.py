"""``rbda.pinocchio``'s own translations, against rbda's native functions, finite differences and Pinocchio 4.1:
objects shared and not copied, views that write through, edits of a model's frames that reach the algorithms,
the forms that reuse a filled data, column vectors, serialisation, the Lie groups."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import rbda
import rbda.pinocchio as pin


@pytest.fixture
def humanoid():
    model = pin.buildSampleModelHumanoid()
    rng = np.random.default_rng(0)
    q = pin.randomConfiguration(model)
    return model, q, rng.normal(size=model.nv), rng.normal(size=model.nv)


def test_a_pin_model_is_an_rbda_model(humanoid):
    model, q, v, a = humanoid
    assert isinstance(model, rbda.Model)
    np.testing.assert_array_equal(rbda.rnea(model, model.create_data(), q, v, a),
                                  pin.rnea(model, model.createData(), q, v, a))
    assert isinstance(model.frames[3], pin.Frame) and isinstance(model.inertias[3], pin.Inertia)
    assert isinstance(model.jointPlacements[3], pin.SE3) and isinstance(model.gravity, pin.Motion)


def test_data_fields_are_views_in_pinocchio_types(humanoid):
    model, q, v, a = humanoid
    data = model.createData()
    pin.forwardKinematics(model, data, q, v, a)
    native = data._data
    assert isinstance(data.v[5], pin.Motion) and isinstance(data.oMi[5], pin.SE3)
    np.testing.assert_array_equal(data.v[5].vector, native.v[5])
    data.a[5] = pin.Motion(np.arange(6.0))  # writes the data
    np.testing.assert_array_equal(native.a[5], np.arange(6.0))
    data.v[4].linear[:] = 7.0
    np.testing.assert_array_equal(native.v[4, :3], 7.0)
    assert data.oMi[-1] == data.oMi[model.njoints - 1]
    with pytest.raises(IndexError, match="Index out of range"):
        data.com[model.njoints]
    with pytest.raises(TypeError, match="Invalid index type"):
        data.v["1"]


def test_frame_edited_in_place_reaches_the_algorithms(humanoid):
    model, q, _, _ = humanoid
    k = model.getFrameId("rarm_wrist2_body")
    M = pin.SE3.Random()
    model.frames[k].placement = M  # Pinocchio's habit: edit the model's frame in place
    data = model.createData()
    pin.framesForwardKinematics(model, data, q)
    reference = model.createData()
    pin.forwardKinematics(model, reference, q)
    assert data.oMf[k].isApprox(reference.oMi[model.frames[k].parentJoint] * M, 1e-12)


def test_inertia_and_placement_edited_in_place_reach_the_algorithms(humanoid):
    model, q, v, a = humanoid
    pin.rnea(model, model.createData(), q, v, a)  # packs the model
    model.inertias[5].mass = 3.0
    model.jointPlacements[7].translation = np.array([0.1, -0.2, 0.3])
    rebuilt = pin.Model(model)  # a fresh model (its own packed arrays) with the edited values
    assert rebuilt.inertias[5].mass == 3.0
    np.testing.assert_array_equal(pin.rnea(model, model.createData(), q, v, a),
                                  rbda.rnea(rebuilt, rebuilt.create_data(), q, v, a))


def test_forms_that_reuse_a_filled_data(humanoid):
    model, q, v, a = humanoid
    with pytest.raises(ValueError, match="call aba"):
        pin.computeMinverse(model, model.createData())
    data = model.createData()
    pin.crba(model, data, q)
    np.testing.assert_allclose(pin.computeMinverse(model, data) @ rbda.crba(model, model.create_data(), q),
                               np.eye(model.nv), atol=1e-9)
    pin.forwardKinematics(model, data, q, v)
    np.testing.assert_allclose(pin.centerOfMass(model, data, pin.VELOCITY),
                               rbda.center_of_mass(model, model.create_data(), q, v), atol=1e-14)
    np.testing.assert_allclose(data.vcom[0], rbda.center_of_mass(model, (d := model.create_data()), q, v) * 0 +
                               d.vcom[0], atol=1e-14)
    J = pin.computeFrameJacobian(model, model.createData(), q, model.getFrameId("lleg_wrist2_body"), pin.LOCAL)
    pin.computeAllTerms(model, data, q, v)
    tau = np.zeros(model.nv)
    np.testing.assert_allclose(pin.forwardDynamics(model, data, tau, J, np.zeros(6)),
                               rbda.forward_dynamics(model, model.create_data(), q, v, tau, J, np.zeros(6)), atol=1e-10)


def test_column_vectors(humanoid):
    model, q, v, a = humanoid
    col = [x.reshape(-1, 1) for x in (q, v, a)]
    np.testing.assert_array_equal(pin.rnea(model, model.createData(), *col), pin.rnea(model, model.createData(), q, v, a))
    np.testing.assert_array_equal(pin.integrate(model, col[0], col[1]), pin.integrate(model, q, v))
    M = pin.SE3(np.eye(3), np.ones((3, 1)))
    np.testing.assert_array_equal(M.translation, np.ones(3))
    np.testing.assert_array_equal(pin.Motion(np.ones((6, 1))).vector, np.ones(6))


def test_serialisation(tmp_path, humanoid):
    model, q, v, a = humanoid
    for save, load in (("saveToText", "loadFromText"), ("saveToBinary", "loadFromBinary")):
        getattr(model, save)(str(tmp_path / f"m.{save}"))
        other = pin.Model()
        getattr(other, load)(str(tmp_path / f"m.{save}"))
        assert other == model and isinstance(other.frames[2], pin.Frame)
        np.testing.assert_array_equal(pin.rnea(other, other.createData(), q, v, a),
                                      pin.rnea(model, model.createData(), q, v, a))
    other = pin.Model()
    other.loadFromString(model.saveToString())
    assert other == model
    unpickled = pickle.loads(pickle.dumps(model))
    k = unpickled.getFrameId("head2_body")
    unpickled.frames[k].placement = pin.SE3.Random()  # an edit of an unpickled model's frame reaches it too
    d = unpickled.createData()
    pin.framesForwardKinematics(unpickled, d, q)
    assert d.oMf[k].isApprox(d.oMi[unpickled.frames[k].parentJoint] * unpickled.frames[k].placement, 1e-12)
    data = model.createData()
    pin.rnea(model, data, q, v, a)
    for copy in (pickle.loads(pickle.dumps(data)), data.copy()):
        assert copy == data
        pin.rnea(model, copy, q, 0 * v, a)
        assert copy != data  # its own buffers


@pytest.mark.parametrize("group", ["R3", "SO2", "SO3", "SE2", "SE3", "R3xSO3", "Rn"])
def test_lie_groups_against_finite_differences(group):
    lg = {"R3": pin.liegroups.R3, "SO2": pin.liegroups.SO2, "SO3": pin.liegroups.SO3, "SE2": pin.liegroups.SE2,
          "SE3": pin.liegroups.SE3, "R3xSO3": lambda: pin.liegroups.R3() * pin.liegroups.SO3(),
          "Rn": lambda: pin.liegroups.Rn(4)}[group]()
    rng = np.random.default_rng(1)
    q, v = lg.random(), rng.normal(size=lg.nv)
    eps = 1e-6
    Jv = np.stack([lg.difference(lg.integrate(q, v), lg.integrate(q, v + eps * e)) / eps for e in np.eye(lg.nv)], 1)
    np.testing.assert_allclose(lg.dIntegrate_dv(q, v), Jv, atol=1e-5)
    Jq = np.stack([lg.difference(lg.integrate(q, v), lg.integrate(lg.integrate(q, eps * e), v)) / eps
                   for e in np.eye(lg.nv)], 1)
    np.testing.assert_allclose(lg.dIntegrate_dq(q, v), Jq, atol=1e-5)
    assert lg.name == {"R3": "R^3", "SO2": "SO(2)", "SO3": "SO(3)", "SE2": "SE(2)", "SE3": "SE(3)",
                       "R3xSO3": "R^3 x SO(3)", "Rn": "R^4"}[group]


def test_quaternion_and_angle_axis_against_pinocchio():
    real = pytest.importorskip("pinocchio")
    R = pin.SE3.Random().rotation
    mine, theirs = pin.Quaternion(R).coeffs(), real.Quaternion(R).coeffs()
    np.testing.assert_allclose(mine * np.sign(mine @ theirs), theirs, atol=1e-14)  # q and -q: one rotation
    mine, theirs = pin.Quaternion(0.5, 0.1, -0.2, 0.3), real.Quaternion(0.5, 0.1, -0.2, 0.3)  # (w, x, y, z)
    np.testing.assert_array_equal(mine.coeffs(), theirs.coeffs())
    np.testing.assert_allclose(mine.normalized().matrix(), theirs.normalized().matrix(), atol=1e-14)
    axis = np.array([0.0, 0.6, 0.8])
    np.testing.assert_allclose(pin.AngleAxis(0.7, axis).matrix(), real.AngleAxis(0.7, axis).matrix(), atol=1e-15)


def test_sample_models_have_pinocchios_names_and_sizes():
    real = pytest.importorskip("pinocchio")
    for build in ("buildSampleModelManipulator", "buildSampleModelHumanoid", "buildSampleModelHumanoidRandom"):
        for args in ((), (False,), (True,)) if build != "buildSampleModelManipulator" else ((), (True,)):
            if build == "buildSampleModelHumanoidRandom" and args == (True,):
                args = (True, True)
            ours, theirs = getattr(pin, build)(*args), getattr(real, build)(*args)
            assert list(ours.names) == list(theirs.names), (build, args)
            assert (ours.nq, ours.nv, ours.njoints, ours.nbodies) == (theirs.nq, theirs.nv, theirs.njoints,
                                                                     theirs.nbodies), (build, args)
            assert [f.name for f in ours.frames] == [f.name for f in theirs.frames], (build, args)


def _world_placement(model, q, joint):
    data = model.createData()
    pin.forwardKinematics(model, data, q)
    return data.oMi[joint].homogeneous


def test_robot_wrapper_motion_readers(humanoid):
    """``RobotWrapper``'s velocity readers against finite differences of the placement along ``v``, the classical
    acceleration's linear part against the second difference of the joint origin along ``q (+) (t v + t^2/2 a)``,
    the frame readers on a frame placed at the joint against the joint's; with ``update_kinematics=False`` the
    readers read the kinematics of the last call."""
    model, q, v, a = humanoid
    robot = pin.RobotWrapper(model)
    joint = model.njoints - 1
    frame = next(f for f in range(len(model.frames)) if model.frames[f].parent_joint == joint
                 and np.array_equal(model.frames[f].placement.homogeneous, np.eye(4)))
    eps = 1e-6
    H = _world_placement(model, q, joint)
    dH = (_world_placement(model, pin.integrate(model, q, eps * v), joint)
          - _world_placement(model, pin.integrate(model, q, -eps * v), joint)) / (2 * eps)
    X = np.linalg.inv(H) @ dH  # the body twist as a matrix
    local = np.r_[X[:3, 3], X[2, 1], X[0, 2], X[1, 0]]
    for reading in (robot.velocity(q, v, joint), robot.frameVelocity(q, v, frame)):
        np.testing.assert_allclose(reading.vector, local, atol=1e-6)
    world = pin.SE3(H[:3, :3], H[:3, 3]).act(pin.Motion(local)).vector
    np.testing.assert_allclose(robot.velocity(q, v, joint, reference_frame=pin.WORLD).vector, world, atol=1e-6)
    h = 1e-4
    p = [_world_placement(model, pin.integrate(model, q, t * v + 0.5 * t * t * a), joint)[:3, 3] for t in (-h, 0, h)]
    origin_acceleration = (p[0] - 2 * p[1] + p[2]) / (h * h)
    for name in ("classicalAcceleration", "frameClassicalAcceleration"):
        index = joint if name == "classicalAcceleration" else frame
        reading = getattr(robot, name)(q, v, a, index, reference_frame=pin.LOCAL_WORLD_ALIGNED)
        np.testing.assert_allclose(reading.linear, origin_acceleration, atol=1e-4)
    for name in ("velocity", "acceleration", "classicalAcceleration"):
        state = (q, v) if name == "velocity" else (q, v, a)
        frame_name = "frame" + name[0].upper() + name[1:]
        for rf in (pin.LOCAL, pin.WORLD, pin.LOCAL_WORLD_ALIGNED):
            robot.forwardKinematics(q, v, a)
            joint_reading = getattr(robot, name)(*state, joint, False, rf).vector
            frame_reading = getattr(robot, frame_name)(*state, frame, False, rf).vector
            np.testing.assert_allclose(frame_reading, joint_reading, atol=1e-12)
            robot.forwardKinematics(q, 0 * v, 0 * a)  # a stale state: what update_kinematics=True recomputes
            np.testing.assert_array_equal(getattr(robot, name)(*state, joint, True, rf).vector, joint_reading)
