"""Model building API, topology queries, equality and pickling, in-place gravity/armature edits, ``check``."""

import pickle

import numpy as np
import pytest
from conftest import assert_close, random_model, random_state

import rbda
from rbda import SE3, Frame, FrameType, Inertia


def branching_model() -> rbda.Model:
    """universe - a(FF) - b(RX) - c(spherical)
                         \\ d(planar) - e(PZ)"""
    rng = np.random.default_rng(0)
    model = rbda.Model("branching")
    a = model.add_joint(0, rbda.JointModelFreeFlyer(), SE3(), "a")
    b = model.add_joint(a, rbda.JointModelRX(), SE3.Random(rng), "b", max_effort=5.0, min_config=-1.0, max_config=2.0)
    c = model.add_joint(b, rbda.JointModelSpherical(), SE3.Random(rng), "c")
    d = model.add_joint(a, rbda.JointModelPlanar(), SE3.Random(rng), "d", friction=[0.1, 0.2, 0.3])
    e = model.add_joint(d, rbda.JointModelPZ(), SE3.Random(rng), "e", damping=0.5)
    for i in (a, b, c, d, e):
        model.append_body_to_joint(i, Inertia.Random(rng), SE3.Random(rng))
    return model


def test_add_joint_numbers_joints_and_lays_out_q_and_v():
    model = branching_model()
    assert model.names == ["universe", "a", "b", "c", "d", "e"]
    assert list(model.parents) == [0, 0, 1, 2, 1, 4]
    assert list(model.nqs) == [0, 7, 1, 4, 4, 1] and list(model.nvs) == [0, 6, 1, 3, 3, 1]
    assert list(model.idx_q) == [0, 0, 7, 8, 12, 16] and list(model.idx_v) == [0, 0, 6, 7, 10, 13]
    assert (model.nq, model.nv, model.njoints) == (17, 14, 6)
    assert model.get_joint_id("d") == 4
    assert model.exist_joint_name("e") and not model.exist_joint_name("f")
    assert model.check()


def test_add_joint_fills_limits_with_defaults():
    model = branching_model()
    assert model.effort_limit[6] == 5.0 and np.all(np.isinf(model.effort_limit[:6]))
    assert model.lower_position_limit[7] == -1.0 and model.upper_position_limit[7] == 2.0
    assert np.all(np.isinf(model.lower_position_limit[:7])) and np.all(np.isinf(model.velocity_limit))
    assert_close(model.friction[10:13], [0.1, 0.2, 0.3], 0.0)
    assert model.damping[13] == 0.5 and np.all(model.damping[:13] == 0.0)
    assert np.all(model.armature == 0.0)


def test_topology_queries():
    model = branching_model()
    assert model.children == [[1], [2, 4], [3], [], [5], []]
    assert model.supports == [[0], [0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 1, 4], [0, 1, 4, 5]]
    assert model.subtrees == [[0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [2, 3], [3], [4, 5], [5]]


def test_add_joint_rejects_bad_arguments():
    model = branching_model()
    with pytest.raises(ValueError, match="joint_name"):
        model.add_joint(0, rbda.JointModelRX(), SE3(), "a")
    with pytest.raises(ValueError, match="parent_id"):
        model.add_joint(17, rbda.JointModelRX(), SE3(), "z")
    with pytest.raises(TypeError, match="joint_model"):
        model.add_joint(0, "revolute", SE3(), "z")
    with pytest.raises(TypeError, match="joint_placement"):
        model.add_joint(0, rbda.JointModelRX(), np.eye(4), "z")
    with pytest.raises(ValueError, match="joint_id"):
        model.append_body_to_joint(9, Inertia.Random())
    assert model.njoints == 6  # nothing was added


def test_append_body_to_joint_sums_the_spatial_inertias():
    """The joint's inertia is the sum of the bodies' 6x6 inertias moved into the joint frame,
    ``X* Y X^-1`` with ``X = body_placement.action``; mass and centre of mass add up as expected."""
    rng = np.random.default_rng(1)
    model = rbda.Model()
    j = model.add_joint(0, rbda.JointModelRZ(), SE3(), "j")
    bodies = [(Inertia.Random(rng), SE3.Random(rng)) for _ in range(3)]
    expected = np.zeros((6, 6))
    for Y, P in bodies:
        model.append_body_to_joint(j, Y, P)
        expected += P.dual_action @ Y.matrix() @ P.action_inverse
    Y = model.inertias[j]
    assert_close(Y.matrix(), expected, 1e-12)
    masses = np.array([b.mass for b, _ in bodies])
    coms = np.array([P.act(b.lever) for b, P in bodies])
    assert_close(Y.mass, masses.sum(), 1e-14)
    assert_close(Y.lever, masses @ coms / masses.sum(), 1e-12)


def test_frames():
    model = branching_model()
    n = model.nframes
    placement = SE3.Random(np.random.default_rng(2))
    k = model.add_frame(Frame("tool", 3, 0, placement, FrameType.OP_FRAME))
    assert k == n and model.nframes == n + 1
    assert model.get_frame_id("tool") == k and model.frames[k].parent_joint == 3
    assert model.get_frame_id("tool", FrameType.OP_FRAME) == k
    assert model.add_frame(Frame("tool", 3, 0, SE3(), FrameType.OP_FRAME)) == k  # same name and type: existing id
    with pytest.raises(KeyError, match="tool"):
        model.get_frame_id("tool", FrameType.BODY)
    assert model.exist_frame("tool") and not model.exist_frame("nope")
    joint_frame = model.add_joint_frame(2)
    assert model.frames[joint_frame].type == FrameType.JOINT and model.frames[joint_frame].name == "b"
    body_frame = model.add_body_frame("b_link", 2, placement)
    assert model.frames[body_frame].parent_joint == 2 and model.frames[body_frame].placement == placement


def test_add_frame_with_inertia_appends_it_to_the_parent_joint():
    model = branching_model()
    rng = np.random.default_rng(3)
    before = model.inertias[5].matrix()
    Y, P = Inertia.Random(rng), SE3.Random(rng)
    model.add_frame(Frame("sensor", 5, 0, P, FrameType.SENSOR, Y))
    assert_close(model.inertias[5].matrix(), before + P.dual_action @ Y.matrix() @ P.action_inverse, 1e-12)
    model.add_frame(Frame("marker", 5, 0, P, FrameType.OP_FRAME, Y), append_inertia=False)
    assert_close(model.inertias[5].matrix(), before + P.dual_action @ Y.matrix() @ P.action_inverse, 1e-12)


def test_frame_placements_compose_joint_and_frame_placements():
    model = rbda.sample_models.humanoid()
    data = model.create_data()
    q = rbda.random_configuration(model, rng=np.random.default_rng(4))
    rbda.frames_forward_kinematics(model, data, q)
    for k, f in enumerate(model.frames):
        H = data.oMi[f.parent_joint].homogeneous @ f.placement.homogeneous
        assert_close(data.oMf[k].homogeneous, H, 1e-12)


def test_unknown_names_raise_key_error():
    model = rbda.sample_models.manipulator()
    with pytest.raises(KeyError, match="elbow"):
        model.get_joint_id("elbow")
    with pytest.raises(KeyError, match="gripper"):
        model.get_frame_id("gripper")
    assert model.get_joint_id("joint3") == 3
    assert model.frames[model.get_frame_id("tool")].parent_joint == 6


def test_pickle_round_trip_gives_an_equal_model_that_computes_the_same():
    model = random_model(0, True)
    model.armature = np.linspace(0.0, 0.1, model.nv)
    model.gravity = [0.0, 1.0, -9.0]
    model.reference_configurations["home"] = rbda.neutral(model)
    copy = pickle.loads(pickle.dumps(model))
    assert copy == model and copy is not model
    q, v, a = random_state(model)
    expected = rbda.rnea(model, model.create_data(), q, v, a).copy()
    assert_close(rbda.rnea(copy, copy.create_data(), q, v, a), expected, 1e-15)
    copy.inertias[3] = Inertia.Random(np.random.default_rng(5))
    assert copy != model
    copy = pickle.loads(pickle.dumps(model))
    copy.armature[0] += 1.0
    assert copy != model


def test_models_compare_by_value():
    assert random_model(1, False) == random_model(1, False)
    assert random_model(1, False) != random_model(2, False)
    a, b = branching_model(), branching_model()
    b.gravity.linear[2] = -1.0
    assert a != b


def test_gravity_edited_in_place_reaches_the_algorithms():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q = rbda.random_configuration(model, rng=np.random.default_rng(6))
    z = np.zeros(model.nv)
    g = rbda.rnea(model, data, q, z, z).copy()
    assert np.linalg.norm(g) > 1.0
    model.gravity.linear[:] = 0.0
    assert_close(rbda.rnea(model, data, q, z, z), z, 1e-15)
    model.gravity.linear[2] = -2 * 9.81  # torques are linear in gravity
    assert_close(rbda.rnea(model, data, q, z, z), 2 * g, 1e-12)
    model.gravity = [0.0, 0.0, -9.81]
    assert_close(rbda.compute_generalized_gravity(model, data, q), g, 1e-12)
    fresh = rbda.sample_models.manipulator()  # an edit before the first algorithm call is kept too
    fresh.gravity.linear[:] = 0.0
    assert_close(rbda.rnea(fresh, fresh.create_data(), q, z, z), z, 1e-15)


def test_armature_edited_in_place_reaches_the_algorithms():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q = rbda.random_configuration(model, rng=np.random.default_rng(7))
    M0 = rbda.crba(model, data, q).copy()
    model.armature[2] += 0.5
    M1 = rbda.crba(model, data, q)
    assert_close(M1 - M0, np.diag(np.eye(model.nv)[2] * 0.5), 1e-14)


def test_replacing_elements_reaches_the_algorithms():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q = rbda.random_configuration(model, rng=np.random.default_rng(8))
    z = np.zeros(model.nv)
    g = rbda.rnea(model, data, q, z, z).copy()
    model.inertias[6] = Inertia.Zero()
    assert np.abs(rbda.rnea(model, data, q, z, z)[5]) < 1e-15  # the last joint now carries no mass
    assert not np.allclose(rbda.rnea(model, data, q, z, z), g)


def test_check_detects_inconsistent_models_and_foreign_data():
    model = branching_model()
    assert model.check() and model.check(model.create_data())
    with pytest.raises(ValueError, match="data"):
        model.check(rbda.sample_models.manipulator().create_data())
    broken = branching_model()
    broken.parents[2] = 4  # a parent after its child
    with pytest.raises(ValueError, match="parents"):
        broken.check()
    broken = branching_model()
    broken.idx_v[3] = 0
    with pytest.raises(ValueError, match="idx_q/idx_v"):
        broken.check()
    broken = branching_model()
    broken.damping = np.zeros(3)
    with pytest.raises(ValueError, match="damping"):
        broken.check()


def test_data_views_share_memory_with_the_workspace():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q = rbda.random_configuration(model, rng=np.random.default_rng(9))
    rbda.forward_kinematics(model, data, q)
    M = data.oMi[3]
    assert isinstance(M, SE3)
    assert np.shares_memory(M.rotation, data.ws)
    assert data.J.shape == (6, model.nv) and data.M.shape == (model.nv, model.nv)
    assert data.v.shape == (model.njoints, 6) and data.tau.shape == (model.nv,)


def test_limits_may_be_given_infinite_and_massless_frames_keep_their_rotational_inertia():
    model = rbda.Model()
    j = model.add_joint(0, rbda.JointModelRZ(), rbda.SE3(), "j", max_effort=np.inf, min_config=-np.inf,
                        max_config=np.inf, max_velocity=np.inf)
    assert np.isinf(model.upper_position_limit).all() and np.isinf(model.effort_limit).all()
    with pytest.raises(ValueError, match="max_effort"):
        model.add_joint(0, rbda.JointModelRZ(), rbda.SE3(), "k", max_effort=np.nan)
    rotor = rbda.Inertia(0.0, np.zeros(3), np.diag([0.0, 0.0, 0.3]))
    model.add_frame(rbda.Frame("rotor", j, 0, rbda.SE3(), rbda.FrameType.FIXED_JOINT, rotor))
    assert np.isclose(rbda.crba(model, model.create_data(), [0.0])[0, 0], 0.3)


def test_an_unknown_name_suggests_the_closest_or_lists_a_few():
    model = rbda.sample_models.humanoid()
    with pytest.raises(KeyError, match=r"no frame named 'left_leg3_jiont'; did you mean 'left_leg3_joint'"):
        model.get_frame_id("left_leg3_jiont")
    with pytest.raises(KeyError, match=r"no joint named 'rigth_leg1_joint'; did you mean 'right_leg1_joint'"):
        model.get_joint_id("rigth_leg1_joint")
    with pytest.raises(KeyError) as info:
        model.get_frame_id("gripper")
    assert f"({model.nframes} in all)" in str(info.value) and len(str(info.value)) < 300


def test_every_public_function_has_parameter_type_hints():
    import inspect
    import typing

    import numpy.typing

    names = {"Model": rbda.Model, "Data": rbda.Data, "ArrayLike": numpy.typing.ArrayLike, "SE3": rbda.SE3,
             "ReferenceFrame": rbda.ReferenceFrame, "ArgumentPosition": rbda.ArgumentPosition,
             "GeometryModel": rbda.io.GeometryModel,
             "DistanceRequest": __import__("rbda.collision").collision.DistanceRequest, "Sequence": __import__("collections.abc").abc.Sequence}
    missing = []
    for module in (rbda, rbda.batch):
        for name in dir(module):
            f = getattr(module, name)
            if name.startswith("_") or not inspect.isfunction(inspect.unwrap(f)) or not f.__module__.startswith("rbda"):
                continue
            hints = typing.get_type_hints(f, {**vars(inspect.getmodule(f)), **names})  # every hint resolves
            params = [p for p in inspect.signature(f).parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
            missing += [f"{module.__name__}.{name}({p.name})" for p in params if p.name not in hints]
    assert missing == []
