"""URDF reading: Pinocchio's semantics on a file with every joint type, textbook checks, geometry, the writer's
round trip and load_model's dispatch."""

import os
import shutil

import numpy as np
import pytest

import rbda
from rbda.io import (
    Box,
    Capsule,
    Cylinder,
    GeometryType,
    Mesh,
    ModelFileError,
    Sphere,
    build_geom_from_urdf,
    build_model_from_urdf,
    build_model_from_urdf_string,
    build_models_from_urdf,
    load_model,
    load_model_from_string,
    write_urdf,
)
from rbda.spatial import SE3, Inertia, rpy_to_matrix
from urdf_samples import EVERY_JOINT_URDF, assert_same_structure, dynamics_errors, robots_dir, share_dir

PENDULUM = """<robot name="pendulum">
  <link name="base"/>
  <link name="rod"><inertial><origin xyz="0 0 -{l}"/><mass value="{m}"/>
    <inertia ixx="0" ixy="0" ixz="0" iyy="0" iyz="0" izz="0"/></inertial></link>
  <joint name="hinge" type="{kind}"><parent link="base"/><child link="rod"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="10" velocity="5"/></joint>
</robot>"""


def every_joint(**kwargs):
    return build_model_from_urdf_string(EVERY_JOINT_URDF, **kwargs)


# ------------------------------------------------------------------------------------------------ semantics
def test_joint_order_types_and_frames():
    model = every_joint()
    # depth first, the joints under a link in the order of their names: j_cont before j_rev
    assert model.names == ["universe", "j_cont", "j_rev", "j_planar", "j_float", "j_pris", "j_cont_unaligned", "j_rev_y"]
    assert [j.shortname() for j in model.joints[1:]] == [
        "JointModelRUBZ", "JointModelRevoluteUnaligned", "JointModelPlanar", "JointModelFreeFlyer",
        "JointModelPrismaticUnaligned", "JointModelRevoluteUnboundedUnaligned", "JointModelRY"]
    np.testing.assert_allclose(model.joints[2].axis, [0, 0, -1])  # a negative axis is an unaligned joint
    np.testing.assert_allclose(model.joints[5].axis, np.array([0, 2, 1]) / np.sqrt(5))
    assert (model.nq, model.nv) == (2 + 1 + 4 + 7 + 1 + 2 + 1, 1 + 1 + 3 + 6 + 1 + 1 + 1)
    F = rbda.FrameType
    assert [(f.name, f.type) for f in model.frames[:8]] == [
        ("universe", F.FIXED_JOINT), ("base", F.BODY), ("j_cont", F.JOINT), ("b", F.BODY), ("j_rev", F.JOINT),
        ("a", F.BODY), ("j_fix", F.FIXED_JOINT), ("c", F.BODY)]
    # the planar joint hangs from link c, itself fixed to a: its placement composes both origins
    c = model.frames[model.get_frame_id("c")]
    expected = SE3(rpy_to_matrix(0.3, 0.2, 0.1), [1, 2, 3]) * SE3(rpy_to_matrix(0, 0, 0.4), [0.1, 0, 0.2])
    np.testing.assert_allclose(model.joint_placements[3].homogeneous, expected.homogeneous, atol=1e-15)
    assert c.parent_joint == 2 and model.frames[model.get_frame_id("j_planar")].parent_frame == model.get_frame_id("c")


def test_limits_damping_friction():
    model = every_joint()
    inf, u = np.inf, 1.01
    np.testing.assert_array_equal(model.lower_position_limit,
                                  [-u, -u, -1, -inf, -inf, -u, -u, -inf, -inf, -inf, -u, -u, -u, -u, -0.2, -u, -u, 0])
    np.testing.assert_array_equal(model.upper_position_limit,
                                  [u, u, 1.5, inf, inf, u, u, inf, inf, inf, u, u, u, u, 0.3, u, u, 0])
    np.testing.assert_array_equal(model.effort_limit, [5, 10, inf, inf, inf, inf, inf, inf, inf, inf, inf, 100, inf, 1])
    np.testing.assert_array_equal(model.velocity_limit, [6, 2] + [inf] * 9 + [1, inf, 1])
    np.testing.assert_array_equal(model.damping, [0.5] + [0] * 13)
    np.testing.assert_array_equal(model.friction, [0.25] + [0] * 13)


def test_inertias_with_origin_rpy_and_fixed_links_merged():
    model = every_joint()
    R = rpy_to_matrix(0.0, 0.5, 0.0)
    Ic = R @ np.array([[0.3, 0, 0.01], [0, 0.3, 0], [0.01, 0, 0.2]]) @ R.T
    c_in_a = SE3(rpy_to_matrix(0.3, 0.2, 0.1), [1, 2, 3])
    # link c (3 kg) hangs from joint j_rev with link a (2 kg): combine the 10 inertial parameters by hand
    mass = 2 + 3
    com_c = c_in_a.act(np.array([0.05, 0, 0]))
    com = 3 * com_c / mass
    Ic_rot = c_in_a.rotation @ Ic @ c_in_a.rotation.T
    def about(point, m, I_com, com_):  # parallel axis theorem about ``point``
        d = com_ - point
        return I_com + m * (d @ d * np.eye(3) - np.outer(d, d))
    I_expected = about(com, 2, 0.1 * np.eye(3), np.zeros(3)) + about(com, 3, Ic_rot, com_c)
    Y = model.inertias[2]
    assert Y.mass == pytest.approx(mass)
    np.testing.assert_allclose(Y.lever, com, atol=1e-14)
    np.testing.assert_allclose(Y.inertia, I_expected, atol=1e-13)
    # the massless link g keeps its rotational inertia (merged into j_pris), and its FIXED_JOINT frame carries it
    g = model.frames[model.get_frame_id("j_fix2")]
    np.testing.assert_allclose(g.inertia.inertia, np.diag([0.001, 0.002, 0.001]))
    expected = Inertia(0.5, [0, 0.1, 0], 0.01 * np.eye(3)) + SE3(np.eye(3), [0, 0, 0.1]).act(g.inertia)
    assert model.inertias[5].is_approx(expected)


@pytest.mark.parametrize("kind", ["revolute", "continuous"])
def test_pendulum_textbook(kind):
    """A point mass m at distance l below a hinge about y: tau = m l^2 ddq + m g l sin(q)."""
    m, l, g = 2.0, 0.7, 9.81
    model = build_model_from_urdf_string(PENDULUM.format(m=m, l=l, kind=kind))
    data = model.create_data()
    for theta, ddq in ((0.3, 0.0), (-1.1, 2.0)):
        q = np.array([theta]) if kind == "revolute" else np.array([np.cos(theta), np.sin(theta)])
        tau = rbda.rnea(model, data, q, np.zeros(1), np.array([ddq]))
        assert tau[0] == pytest.approx(m * l * l * ddq + m * g * l * np.sin(theta), rel=1e-12)


def test_root_joint_and_floating_base():
    model = every_joint(root_joint=rbda.JointModelFreeFlyer())
    assert model.names[:2] == ["universe", "root_joint"] and model.nq == every_joint().nq + 7
    assert [(f.name, f.parent_joint, f.parent_frame) for f in model.frames[1:3]] == [("root_joint", 1, 0), ("base", 1, 1)]
    assert model.inertias[1].mass == pytest.approx(1.5) and model.inertias[0].mass == 0.0
    planar = every_joint(root_joint=rbda.JointModelPlanar(), root_joint_name="base_planar")
    assert planar.names[1] == "base_planar" and isinstance(planar.joints[1], rbda.JointModelPlanar)
    floating = load_model_from_string(EVERY_JOINT_URDF, floating_base=True)
    assert floating.names == model.names and floating.nv == model.nv


def test_mimic_joint_is_independent():
    """As Pinocchio's default: the mimicking joint j_pris has its own q and v."""
    model = every_joint()
    assert "j_pris" in model.names and model.nqs[model.get_joint_id("j_pris")] == 1


def test_every_joint_against_pinocchio():
    pin = pytest.importorskip("pinocchio")
    for root_joint, pin_root in ((None, None), (rbda.JointModelFreeFlyer(), pin.JointModelFreeFlyer())):
        model = every_joint(root_joint=root_joint)
        pm = pin.buildModelFromXML(EVERY_JOINT_URDF) if pin_root is None else pin.buildModelFromXML(EVERY_JOINT_URDF, pin_root)
        assert_same_structure(model, pm)
        errors = dynamics_errors(model, pm, pin, nstates=3)
        assert max(errors.values()) <= 1e-9 and errors["aba"] > 0, errors


# ------------------------------------------------------------------------------------------------ geometry
GEOMETRY_URDF = """<robot name="shapes">
  <material name="red"><color rgba="1 0 0 1"/></material>
  <link name="base">
    <visual><origin xyz="0.1 0 0" rpy="0 0 0.5"/><geometry><box size="0.1 0.2 0.3"/></geometry><material name="red"/></visual>
    <visual><geometry><sphere radius="0.1"/></geometry></visual>
    <collision><geometry><cylinder radius="0.1" length="0.5"/></geometry></collision>
  </link>
  <link name="arm">
    <collision><origin xyz="0 0 1"/><geometry><mesh filename="meshes/part.stl" scale="2 3 4"/></geometry></collision>
    <collision><geometry><capsule radius="0.05" length="0.3"/></geometry></collision>
  </link>
  <link name="hand"><visual><geometry><mesh filename="package://my_robot/meshes/part.stl"/></geometry></visual></link>
  <joint name="weld" type="fixed"><parent link="base"/><child link="arm"/><origin xyz="0 0 2"/></joint>
  <joint name="wrist" type="revolute"><parent link="arm"/><child link="hand"/><origin xyz="0 1 0"/>
    <limit effort="1" velocity="1"/></joint>
</robot>"""


@pytest.fixture
def robot_package(tmp_path):
    """``tmp_path/my_robot/{robot.urdf, meshes/part.stl}``."""
    package = tmp_path / "my_robot"
    (package / "meshes").mkdir(parents=True)
    (package / "meshes" / "part.stl").write_text("solid part\nendsolid part\n")
    (package / "robot.urdf").write_text(GEOMETRY_URDF)
    return package


def test_geometry_shapes_placements_and_paths(robot_package):
    path = robot_package / "robot.urdf"
    model, collision, visual = build_models_from_urdf(path, package_dirs=[str(robot_package.parent)])
    assert [g.name for g in visual.geometry_objects] == ["base_0", "base_1", "hand_0"]
    assert [g.name for g in collision.geometry_objects] == ["base_0", "arm_0", "arm_1"]
    box, sphere, hand = visual.geometry_objects
    assert box.geometry == Box((0.1, 0.2, 0.3)) and box.mesh_path == "BOX"
    np.testing.assert_allclose(box.geometry.half_side, [0.05, 0.1, 0.15])
    assert box.override_material and np.array_equal(box.mesh_color, [1, 0, 0, 1])
    assert sphere.geometry == Sphere(0.1) and not sphere.override_material
    np.testing.assert_allclose(box.placement.homogeneous, SE3(rpy_to_matrix(0, 0, 0.5), [0.1, 0, 0]).homogeneous)
    assert hand.parent_joint == 1 and hand.parent_frame == model.get_frame_id("hand")
    assert hand.geometry == Mesh(str(robot_package / "meshes" / "part.stl"), (1.0, 1.0, 1.0))
    cylinder, mesh, capsule = collision.geometry_objects
    assert cylinder.geometry == Cylinder(0.1, 0.5) and capsule.geometry == Capsule(0.05, 0.3)
    # arm is welded to the universe 2 m up: its geometry is on joint 0, placed through the fixed joint
    assert mesh.parent_joint == 0 and mesh.parent_frame == model.get_frame_id("arm")
    np.testing.assert_allclose(mesh.placement.translation, [0, 0, 3])
    assert mesh.geometry.path == str(robot_package / "meshes" / "part.stl")  # relative to the URDF's directory
    np.testing.assert_array_equal(mesh.mesh_scale, [2, 3, 4])


def test_package_paths_from_ros_package_path(robot_package, monkeypatch, tmp_path_factory):
    urdf = tmp_path_factory.mktemp("elsewhere") / "robot.urdf"  # no my_robot package in the directories above
    shutil.copy(robot_package / "robot.urdf", urdf)
    model = build_model_from_urdf(urdf)
    monkeypatch.setenv("ROS_PACKAGE_PATH", str(robot_package.parent))
    visual = build_geom_from_urdf(model, urdf, GeometryType.VISUAL)
    assert visual.geometry_objects[2].geometry.path == str(robot_package / "meshes" / "part.stl")
    monkeypatch.setenv("ROS_PACKAGE_PATH", "")
    with pytest.raises(ModelFileError, match=r"link 'hand' > visual\[0\] > geometry > mesh: mesh file "
                                             r"'package://my_robot/meshes/part.stl' not found"):
        build_geom_from_urdf(model, urdf, GeometryType.VISUAL)


def test_missing_mesh_only_matters_for_geometry(robot_package):
    os.remove(robot_package / "meshes" / "part.stl")
    path = robot_package / "robot.urdf"
    model = build_model_from_urdf(path)  # the kinematic model needs no mesh
    with pytest.raises(ModelFileError, match=r"link 'arm' > collision\[0\] > geometry > mesh: mesh file 'meshes/part.stl' not found") as err:
        build_geom_from_urdf(model, path, GeometryType.COLLISION)
    assert err.value.file == str(path)


@pytest.mark.parametrize("relative", ["ur_description/urdf/ur5_robot.urdf", "talos_data/robots/talos_reduced.urdf",
                                      "simple_humanoid_description/urdf/simple_humanoid.urdf",
                                      "hyq_description/robots/hyq_no_sensors.urdf"])
def test_geometry_against_pinocchio(relative):
    pin = pytest.importorskip("pinocchio")
    path = str(robots_dir() / relative)
    model, pm = build_model_from_urdf(path), pin.buildModelFromUrdf(path)
    for ours, theirs in ((GeometryType.COLLISION, pin.GeometryType.COLLISION), (GeometryType.VISUAL, pin.GeometryType.VISUAL)):
        geometry = build_geom_from_urdf(model, path, ours, package_dirs=[str(share_dir())])
        pg = pin.buildGeomFromUrdf(pm, path, theirs, package_dirs=[str(share_dir())])
        assert geometry.ngeoms == pg.ngeoms
        for g, pg_obj in zip(geometry.geometry_objects, pg.geometryObjects):
            assert (g.name, g.parent_joint, g.parent_frame) == (pg_obj.name, pg_obj.parentJoint, pg_obj.parentFrame)
            np.testing.assert_allclose(g.placement.homogeneous, pg_obj.placement.homogeneous, atol=1e-12)
            assert os.path.normpath(g.mesh_path) == os.path.normpath(pg_obj.meshPath)
            np.testing.assert_allclose(g.mesh_scale, pg_obj.meshScale)
            np.testing.assert_allclose(g.mesh_color, pg_obj.meshColor, atol=1e-7)
            assert g.override_material == pg_obj.overrideMaterial


# ------------------------------------------------------------------------------------------------ writer
def assert_same_model(a, b, tol=1e-12):
    assert a.names == b.names and a.parents == b.parents and (a.nq, a.nv) == (b.nq, b.nv)
    assert [type(j) for j in a.joints] == [type(j) for j in b.joints]
    for i in range(1, a.njoints):
        np.testing.assert_allclose(a.joints[i].params, b.joints[i].params, atol=tol)
        np.testing.assert_allclose(a.joint_placements[i].homogeneous, b.joint_placements[i].homogeneous, atol=tol)
    for i in range(a.njoints):
        np.testing.assert_allclose(a.inertias[i].matrix(), b.inertias[i].matrix(), atol=tol)
    for k in ("lower_position_limit", "upper_position_limit", "velocity_limit", "effort_limit", "damping", "friction"):
        np.testing.assert_array_equal(getattr(a, k), getattr(b, k), err_msg=k)
    assert [(f.name, f.type, f.parent_joint, f.parent_frame) for f in a.frames] == [
        (f.name, f.type, f.parent_joint, f.parent_frame) for f in b.frames]
    for f, g in zip(a.frames, b.frames):
        np.testing.assert_allclose(f.placement.homogeneous, g.placement.homogeneous, atol=tol)
    data_a, data_b = a.create_data(), b.create_data()
    rng = np.random.default_rng(1)
    for _ in range(2):
        q = rbda.random_configuration(a, rng=rng)
        v, ddq = rng.normal(size=a.nv), rng.normal(size=a.nv)
        np.testing.assert_allclose(rbda.rnea(a, data_a, q, v, ddq), rbda.rnea(b, data_b, q, v, ddq), atol=1e-10)
        np.testing.assert_allclose(rbda.crba(a, data_a, q), rbda.crba(b, data_b, q), atol=1e-10)


@pytest.mark.parametrize("floating", [False, True])
def test_write_read_round_trip(tmp_path, floating):
    root_joint = rbda.JointModelFreeFlyer() if floating else None
    model = every_joint(root_joint=root_joint)
    text = write_urdf(model, tmp_path / "out.urdf", omit_root_joint=floating)
    assert (tmp_path / "out.urdf").read_text() == text
    assert_same_model(model, build_model_from_urdf(tmp_path / "out.urdf", root_joint))
    if floating:  # written as a URDF floating joint from a 'world' link: the same joints and dynamics
        back = build_model_from_urdf_string(write_urdf(model))
        assert back.names == model.names and back.frames[1].name == "world"
        q = rbda.random_configuration(model, rng=np.random.default_rng(2))
        np.testing.assert_allclose(rbda.crba(back, back.create_data(), q), rbda.crba(model, model.create_data(), q),
                                   atol=1e-12)
    else:
        with pytest.raises(ValueError, match="omit_root_joint"):
            write_urdf(model, omit_root_joint=True)


@pytest.mark.parametrize("relative", ["talos_data/robots/talos_reduced.urdf", "panda_description/urdf/panda.urdf",
                                      "tiago_description/robots/tiago_no_hand.urdf"])
def test_write_read_round_trip_real_robots(relative):
    model = build_model_from_urdf(robots_dir() / relative, check_inertia=False)
    assert_same_model(model, build_model_from_urdf_string(write_urdf(model), check_inertia=False))


def test_write_model_not_from_urdf():
    """The sample arm (an OP_FRAME tool, armature): same joints and dynamics but the armature; the tool reads
    back as FIXED_JOINT + BODY frames."""
    model = rbda.sample_models.manipulator()
    back = build_model_from_urdf_string(write_urdf(model))
    assert back.names == model.names
    tool = back.frames[back.get_frame_id("tool", rbda.FrameType.FIXED_JOINT)]
    ours = model.frames[model.get_frame_id("tool")]
    assert tool.parent_joint == ours.parent_joint and tool.placement.is_approx(ours.placement)
    q = rbda.random_configuration(model, rng=np.random.default_rng(0))
    M = rbda.crba(model, model.create_data(), q) - np.diag(model.armature)  # URDF holds no armature
    np.testing.assert_allclose(rbda.crba(back, back.create_data(), q), M, atol=1e-12)


def test_write_geometry_round_trip(robot_package):
    path = robot_package / "robot.urdf"
    model, collision, visual = build_models_from_urdf(path, package_dirs=[str(robot_package.parent)])
    text = write_urdf(model, None, collision, visual_model=visual)
    out = robot_package / "written.urdf"
    out.write_text(text)
    model2, collision2, visual2 = build_models_from_urdf(out)
    for ours, theirs in ((collision, collision2), (visual, visual2)):
        assert [(g.name, g.parent_joint, g.parent_frame, g.geometry) for g in ours.geometry_objects] == [
            (g.name, g.parent_joint, g.parent_frame, g.geometry) for g in theirs.geometry_objects]
        for g, h in zip(ours.geometry_objects, theirs.geometry_objects):
            assert g.placement.is_approx(h.placement) and np.array_equal(g.mesh_color, h.mesh_color)


def test_writer_refuses_joints_urdf_cannot_hold():
    model = rbda.Model("ball")
    model.add_joint(0, rbda.JointModelSpherical(), SE3(), "ball")
    with pytest.raises(ValueError, match="'ball' .*no URDF equivalent"):
        write_urdf(model)


# ------------------------------------------------------------------------------------------------ load_model
def test_load_model_dispatch(tmp_path):
    for name in ("robot.urdf", "robot.xml", "robot.model"):
        (tmp_path / name).write_text(EVERY_JOINT_URDF)
        assert load_model(tmp_path / name).names == every_joint().names
    assert rbda.load_model(tmp_path / "robot.urdf", floating_base=True).names[1] == "root_joint"
    (tmp_path / "robot.srdf").write_text("<robot name='r'/>")
    with pytest.raises(ModelFileError, match="SRDF file holds no kinematic tree"):
        load_model(tmp_path / "robot.srdf")
    (tmp_path / "other.xml").write_text("<scene/>")
    with pytest.raises(ModelFileError, match=r"<scene>: unknown model format"):
        load_model(tmp_path / "other.xml")
    with pytest.raises(ValueError, match="floating_base, root_joint"):
        load_model(tmp_path / "robot.urdf", floating_base=True, root_joint=rbda.JointModelFreeFlyer())
    with pytest.raises(TypeError, match="root_joint: expected a JointModel"):
        load_model(tmp_path / "robot.urdf", root_joint="free")
    with pytest.raises(ModelFileError, match="cannot read the file"):
        load_model(tmp_path / "missing.urdf")


def test_load_model_dispatches_mjcf_and_sdf():
    pytest.importorskip("mujoco")
    mjcf = "<mujoco><worldbody><body><joint type='hinge'/><geom size='0.1'/></body></worldbody></mujoco>"
    assert load_model_from_string(mjcf).nv == 1
    sdf = """<sdf version="1.7"><model name="m"><link name="a"><inertial><mass>1</mass></inertial></link>
      <link name="b"><inertial><mass>1</mass></inertial></link>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child><axis><xyz>0 0 1</xyz></axis></joint>
      </model></sdf>"""
    assert load_model_from_string(sdf).names[-1] == "j"
