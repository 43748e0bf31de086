"""Defects that porting Pinocchio's test suite found in the native API, one test each, against independent
computations: finite differences, a fresh Data, closed forms, Pinocchio 4.1 where it is installed."""

import copy
import pickle

import numpy as np
import pytest

import rbda
from rbda import SE3, ArticulatedBodyInertia, Force, Frame, Inertia, Motion
from rbda.collision import GeometryData, compute_collision, compute_collisions, compute_distances, distance
from rbda.io import GeometryModel, GeometryObject
from rbda.model.geometry import Box, Sphere

from conftest import random_model


def test_centroidal_derivatives_twice_on_one_data():
    """The second call on a Data gave all four matrices wrong (a subtree momentum left in ``data.ov[0]``)."""
    model = rbda.sample_models.humanoid()
    rng = np.random.default_rng(0)
    q, v, a = rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
    data = model.create_data()
    first = rbda.compute_centroidal_dynamics_derivatives(model, data, q, v, a)
    second = rbda.compute_centroidal_dynamics_derivatives(model, data, q, v, a)
    fresh = rbda.compute_centroidal_dynamics_derivatives(model, model.create_data(), q, v, a)
    for x, y, z in zip(first, second, fresh):
        np.testing.assert_array_equal(x, z)
        np.testing.assert_array_equal(y, z)
    # and against finite differences of hg = Ag v in q (the tangent space)
    def hg(qq):
        return rbda.compute_centroidal_momentum(model, model.create_data(), qq, v)
    eps = 1e-6
    fd = np.stack([(hg(rbda.integrate(model, q, eps * e)) - hg(rbda.integrate(model, q, -eps * e))) / (2 * eps)
                   for e in np.eye(model.nv)], axis=1)
    np.testing.assert_allclose(second[0], fd, atol=1e-6)
    # and the workspace is the forward kinematics' afterwards: data.ov holds velocities, not momenta
    ref = model.create_data()
    rbda.forward_kinematics(model, ref, q, v)
    np.testing.assert_allclose(data.ov[1:], [ref.oMi[i].act(Motion(ref.v[i])).vector for i in range(1, model.njoints)],
                               atol=1e-12)


@pytest.mark.parametrize("where", ["free-flyer", "spherical", "planar", "unbounded"])
def test_zero_unit_part_is_a_named_error(where):
    """A zero quaternion (or (cos, sin) pair) raised ZeroDivisionError from the error-reporting code."""
    joints = {"free-flyer": rbda.JointModelFreeFlyer(), "spherical": rbda.JointModelSpherical(),
              "planar": rbda.JointModelPlanar(), "unbounded": rbda.JointModelRUBZ()}
    model = random_model(0, False, joints=[joints[where], rbda.JointModelRX()])
    data = model.create_data()
    q = rbda.neutral(model)
    i = next(i for i in range(1, model.njoints) if model.nqs[i] > 1)
    q[model.idx_q[i] : model.idx_q[i] + model.nqs[i]] = 0.0
    z = np.zeros(model.nv)
    for call in (lambda: rbda.rnea(model, data, q, z, z), lambda: rbda.aba(model, data, q, z, z),
                 lambda: rbda.crba(model, data, q), lambda: rbda.forward_kinematics(model, data, q)):
        with pytest.raises(ValueError, match=rf"q: is not a valid configuration: .*joint {model.names[i]!r}.*norm 0"):
            call()


def test_impulse_dynamics_dense_form_defaults():
    """``impulse_dynamics(model, data, q, v, J)`` required ``r_coeff`` (documented with its default 0)."""
    model = rbda.sample_models.humanoid()
    rng = np.random.default_rng(1)
    q, v = rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv)
    J = rbda.compute_frame_jacobian(model, model.create_data(), q, "left_leg6_link", rbda.LOCAL)
    v_plus = rbda.impulse_dynamics(model, model.create_data(), q, v, J)
    M = rbda.crba(model, model.create_data(), q)
    K = np.block([[M, J.T], [J, np.zeros((6, 6))]])  # M (v+ - v) = J^T P, J v+ = 0
    expected = np.linalg.solve(K, np.concatenate([M @ v, np.zeros(6)]))[: model.nv]
    np.testing.assert_allclose(v_plus, expected, atol=1e-10)
    np.testing.assert_array_equal(rbda.impulse_dynamics(model, model.create_data(), q, v, J, 0.0, 0.0), v_plus)
    v_half = rbda.impulse_dynamics(model, model.create_data(), q, v, J, r_coeff=0.5)
    np.testing.assert_allclose(J @ v_half, -0.5 * (J @ v), atol=1e-10)
    with pytest.raises(TypeError, match="contact_datas"):
        rbda.impulse_dynamics(model, model.create_data(), q, v, [rbda.RigidConstraintModel(rbda.CONTACT_3D, model, 3)])


def test_load_model_refuses_a_model_as_root_joint_name(tmp_path):
    from rbda.io.urdf_writer import write_urdf

    path = tmp_path / "arm.urdf"
    write_urdf(rbda.sample_models.manipulator(), path)
    with pytest.raises(TypeError, match="root_joint_name: expected a str, got Model"):
        rbda.load_model(path, rbda.JointModelFreeFlyer(), root_joint_name=rbda.Model())
    assert rbda.load_model(path, rbda.JointModelFreeFlyer(), root_joint_name="base").names[1] == "base"


@pytest.mark.parametrize("make", [SE3.Random, Motion.Random, Force.Random, Inertia.Random,
                                  lambda: ArticulatedBodyInertia(Inertia.Random()),
                                  lambda: Frame("f", 0, 0, SE3.Random(), rbda.FrameType.OP_FRAME, Inertia.Random())])
@pytest.mark.parametrize("how", [copy.copy, copy.deepcopy])
def test_copies_of_spatial_objects_do_not_share_arrays(make, how):
    x = make()
    y = how(x)
    assert type(y) is type(x) and y == x if not isinstance(x, ArticulatedBodyInertia) else True
    mine = [v for v in _arrays(x)]
    assert mine and not any(np.may_share_memory(a, b) for a in mine for b in _arrays(y))


def _arrays(x):
    for name in ("rotation", "translation", "vector", "lever", "inertia", "_P"):
        value = getattr(x, name, None)
        if isinstance(value, np.ndarray):
            yield value
    for name in ("placement", "inertia"):
        value = getattr(x, name, None)
        if isinstance(value, (SE3, Inertia)):
            yield from _arrays(value)


def _two_spheres():
    model = rbda.Model()
    j = model.add_joint(0, rbda.JointModelPX(), SE3(), "slider")
    model.append_body_to_joint(j, Inertia.FromSphere(1.0, 0.1))
    gm = GeometryModel()
    gm.add_geometry_object(GeometryObject("fixed", 0, 0, SE3(), Sphere(0.1)))
    gm.add_geometry_object(GeometryObject("moving", j, 0, SE3(), Sphere(0.1)))
    gm.add_geometry_object(GeometryObject("far", 0, 0, SE3(np.eye(3), [5.0, 5.0, 5.0]), Box(np.array([0.1, 0.1, 0.1]))))
    gm.collision_pairs = [(0, 1), (0, 2), (1, 2)]
    return model, gm


def test_collisions_leave_the_distances_alone():
    """``compute_collisions`` overwrote the distances ``compute_distances`` wrote (with lower bounds or inf)."""
    model, gm = _two_spheres()
    data, gd = model.create_data(), GeometryData(gm)
    q = np.array([0.5])  # the spheres 0.3 apart: no collision anywhere
    compute_distances(model, data, gm, gd, q)
    distances = gd.distances.copy()
    np.testing.assert_allclose(distances[0], 0.3, atol=1e-9)  # closed form: 0.5 - 2 * 0.1
    expected = [distance(gm.geometry_objects[i].geometry, gd.oMg[i], gm.geometry_objects[j].geometry,
                         gd.oMg[j]).min_distance for i, j in gm.collision_pairs]
    np.testing.assert_allclose(distances, expected, atol=1e-9)
    assert not compute_collisions(model, data, gm, gd, q)
    np.testing.assert_array_equal(gd.distances, distances)
    assert [r.min_distance for r in gd.distance_results] == list(distances)
    assert not compute_collision(gm, gd, 0)
    np.testing.assert_array_equal(gd.distances, distances)
    assert compute_collisions(model, data, gm, gd, [0.15])  # now overlapping by 0.05
    assert gd.collision_results[0].is_collision and gd.collision_results[0].distance == pytest.approx(-0.05)
    np.testing.assert_array_equal(gd.distances, distances)  # still the distances of the last compute_distances


def test_nbodies_counts_bodies_as_pinocchio():
    model = rbda.Model()
    assert model.nbodies == 1
    j1 = model.add_joint(0, rbda.JointModelRY(), SE3(), "j1")
    model.add_joint(j1, rbda.JointModelRY(), SE3(), "j2")
    assert (model.nbodies, model.njoints) == (1, 3)
    model.append_body_to_joint(j1, Inertia.Random())
    model.add_frame(Frame("heavy", j1, 0, SE3(), rbda.FrameType.OP_FRAME, Inertia.Random()))  # not a body
    assert model.nbodies == 2
    assert pickle.loads(pickle.dumps(model)).nbodies == 2


def test_nbodies_of_robot_files_matches_pinocchio():
    pin = pytest.importorskip("pinocchio")
    import importlib.metadata
    from pathlib import Path

    try:
        robots = Path(importlib.metadata.distribution("example-robot-data").locate_file(
            "cmeel.prefix/share/example-robot-data/robots"))
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")
    files = [robots / "ur_description/urdf/ur5_robot.urdf", robots / "panda_description/urdf/panda.urdf",
             robots / "talos_data/robots/talos_reduced.urdf"]
    for f in files:
        for root in (None, rbda.JointModelFreeFlyer()):
            ours = rbda.load_model(f) if root is None else rbda.load_model(f, root)
            theirs = (pin.buildModelFromUrdf(str(f)) if root is None
                      else pin.buildModelFromUrdf(str(f), pin.JointModelFreeFlyer()))
            assert (ours.nbodies, ours.njoints) == (theirs.nbodies, theirs.njoints), f
    model = rbda.sample_models.manipulator()
    reduced = rbda.build_reduced_model(model, [2], rbda.neutral(model))
    from rbda.interop.pinocchio import to_pinocchio

    assert reduced.nbodies == pin.buildReducedModel(to_pinocchio(model), [2], rbda.neutral(model)).nbodies


FRAME_FUNCTIONS = [
    ("update_frame_placement", lambda m, d, f: rbda.update_frame_placement(m, d, f)),
    ("get_frame_velocity", lambda m, d, f: rbda.get_frame_velocity(m, d, f, rbda.WORLD)),
    ("get_frame_acceleration", lambda m, d, f: rbda.get_frame_acceleration(m, d, f)),
    ("get_frame_classical_acceleration", lambda m, d, f: rbda.get_frame_classical_acceleration(m, d, f)),
    ("get_frame_jacobian", lambda m, d, f: rbda.get_frame_jacobian(m, d, f, rbda.LOCAL_WORLD_ALIGNED)),
    ("compute_frame_jacobian", lambda m, d, f: rbda.compute_frame_jacobian(m, d, d.q, f, rbda.LOCAL)),
    ("get_frame_jacobian_time_variation", lambda m, d, f: rbda.get_frame_jacobian_time_variation(m, d, f)),
    ("get_frame_velocity_derivatives", lambda m, d, f: rbda.get_frame_velocity_derivatives(m, d, f)),
    ("get_frame_acceleration_derivatives", lambda m, d, f: rbda.get_frame_acceleration_derivatives(m, d, f)),
    ("frame_body_regressor", lambda m, d, f: rbda.frame_body_regressor(m, d, f)),
    ("compute_frame_kinematic_regressor", lambda m, d, f: rbda.compute_frame_kinematic_regressor(m, d, f, rbda.LOCAL)),
    ("compute_supported_inertia_by_frame", lambda m, d, f: rbda.compute_supported_inertia_by_frame(m, d, f, True)),
    ("compute_supported_force_by_frame", lambda m, d, f: rbda.compute_supported_force_by_frame(m, d, f)),
    ("batch.compute_frame_jacobian", lambda m, d, f: rbda.batch.compute_frame_jacobian(m, d.q[None], f)[0]),
]


def _prepared(model, q, v, a):
    data = model.create_data()
    data.q = q  # the configuration for the functions that take one (a plain attribute of this test's data)
    rbda.compute_joint_jacobians_time_variation(model, data, q, v)
    rbda.compute_forward_kinematics_derivatives(model, data, q, v, a)
    rbda.rnea(model, data, q, v, a)
    rbda.forward_kinematics(model, data, q, v, a)
    return data


@pytest.mark.parametrize("name, call", FRAME_FUNCTIONS, ids=[n for n, _ in FRAME_FUNCTIONS])
def test_frame_arguments_one_rule(name, call):
    """Every function that takes a frame takes its id or its name, with the same result; an unknown name or id
    is an error that points to get_frame_id and the close names."""
    model = rbda.sample_models.manipulator()
    rng = np.random.default_rng(2)
    q, v, a = rbda.random_configuration(model, rng=rng), rng.normal(size=6), rng.normal(size=6)
    by_id = call(model, _prepared(model, q, v, a), model.get_frame_id("tool"))
    by_name = call(model, _prepared(model, q, v, a), "tool")
    for x, y in zip(*(r if isinstance(r, tuple) else (r,) for r in (by_id, by_name))):
        x, y = (getattr(z, "vector", getattr(z, "homogeneous", z)) for z in (x, y))
        x, y = (z.matrix() if isinstance(z, Inertia) else z for z in (x, y))
        np.testing.assert_array_equal(x, y)
    with pytest.raises(KeyError, match=r"no frame named 'toll'; did you mean 'tool'\?.*get_frame_id"):
        call(model, _prepared(model, q, v, a), "toll")
    with pytest.raises(ValueError, match="frame_id: 99 is not a frame id.*get_frame_id"):
        call(model, _prepared(model, q, v, a), 99)
    with pytest.raises(TypeError, match="frame_id: expected a frame id"):
        call(model, _prepared(model, q, v, a), 2.0)


def test_frame_arguments_jax():
    pytest.importorskip("jax")
    import rbda.jax

    model = rbda.sample_models.manipulator()
    q = rbda.random_configuration(model, rng=np.random.default_rng(3))
    np.testing.assert_allclose(rbda.jax.frame_jacobian(model, q, "tool"),
                               rbda.compute_frame_jacobian(model, model.create_data(), q, "tool"), atol=1e-12)
    with pytest.raises(KeyError, match="get_frame_id"):
        rbda.jax.frame_jacobian(model, q, "toll")


def test_data_copy_and_pickle_keep_their_own_buffers():
    model = rbda.sample_models.humanoid()
    rng = np.random.default_rng(4)
    q, v = rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv)
    data = model.create_data()
    rbda.compute_rnea_derivatives(model, data, q, v, v)
    for other in (data.copy(), copy.deepcopy(data), pickle.loads(pickle.dumps(data))):
        np.testing.assert_array_equal(other.dtau_dq, data.dtau_dq)
        tau = rbda.rnea(model, other, q, 0 * v, 0 * v)  # the copy's fields follow its own workspace
        np.testing.assert_array_equal(other.tau, tau)
        assert not np.shares_memory(other.ws, data.ws)
        rbda.compute_rnea_derivatives(model, other, q, 2 * v, v)
        np.testing.assert_array_equal(other.dtau_dv, rbda.compute_rnea_derivatives(model, model.create_data(), q,
                                                                                    2 * v, v)[1])
    np.testing.assert_array_equal(data.dtau_dv, rbda.compute_rnea_derivatives(model, model.create_data(), q, v, v)[1])
