"""SDFormat reader: the same robots written as SDF and as URDF (read by Pinocchio) or built by hand have the same
dynamics; pose resolution (relative_to chains, expressed_in, SDFormat 1.6, model pose); malformed files."""

import numpy as np
import pytest

import rbda
from rbda.io import ModelFileError
from rbda.io.sdf import build_model_from_sdf, build_model_from_sdf_string
from rbda.spatial import SE3, Inertia, rpy_to_matrix

from conftest import assert_close

ARM_SDF = """<sdf version="1.7"><model name="arm">
  <link name="base">
    <inertial><mass>2</mass><inertia><ixx>0.1</ixx><iyy>0.2</iyy><izz>0.15</izz><ixy>0.01</ixy></inertia></inertial>
  </link>
  <joint name="j1" type="revolute">
    <pose relative_to="base">0.1 0 0.3 0.2 0 0.1</pose>
    <parent>base</parent><child>l1</child>
    <axis><xyz>0 1 0</xyz><limit><lower>-1</lower><upper>1.5</upper><effort>20</effort><velocity>3</velocity></limit>
      <dynamics><damping>0.3</damping><friction>0.1</friction></dynamics></axis>
  </joint>
  <link name="l1">
    <pose relative_to="j1">0 0 0 0 0 0</pose>
    <inertial><pose>0 0 0.2 0.1 0.2 0.3</pose><mass>1.5</mass>
      <inertia><ixx>0.02</ixx><iyy>0.03</iyy><izz>0.025</izz><ixz>0.001</ixz></inertia></inertial>
  </link>
  <joint name="j2" type="prismatic">
    <pose relative_to="l1">0 0 0.4 0 0.3 0</pose><parent>l1</parent><child>l2</child>
    <axis><xyz>1 1 0</xyz><limit><lower>-0.1</lower><upper>0.2</upper></limit></axis>
  </joint>
  <link name="l2">
    <pose relative_to="j2"/>
    <inertial><pose>0.1 0 0 0 0 0</pose><mass>0.7</mass><inertia><ixx>0.01</ixx><iyy>0.01</iyy><izz>0.01</izz></inertia></inertial>
  </link>
  <joint name="j3" type="fixed"><pose relative_to="l2">0.2 0 0 0 0 1</pose><parent>l2</parent><child>l3</child></joint>
  <link name="l3">
    <pose relative_to="j3"/>
    <inertial><mass>0.4</mass><inertia><ixx>0.004</ixx><iyy>0.005</iyy><izz>0.006</izz></inertia></inertial>
  </link>
  <joint name="j4" type="continuous"><pose relative_to="l3">0 0.1 0 0 0 0</pose><parent>l3</parent><child>l4</child>
    <axis><xyz>0 0 1</xyz></axis></joint>
  <link name="l4">
    <pose relative_to="j4"/>
    <inertial><pose>0 0 0.1 0 0 0</pose><mass>0.3</mass><inertia><ixx>0.003</ixx><iyy>0.003</iyy><izz>0.001</izz></inertia></inertial>
  </link>
  <joint name="j5" type="revolute"><pose relative_to="l1">0 0.1 0.1 0.3 0 0</pose><parent>l1</parent><child>l5</child>
    <axis><xyz>0.3 -0.2 1</xyz></axis></joint>
  <link name="l5">
    <pose relative_to="j5"/>
    <inertial><pose>0 0 0.1 0 0 0</pose><mass>0.5</mass><inertia><ixx>0.003</ixx><iyy>0.004</iyy><izz>0.002</izz></inertia></inertial>
  </link>
  <frame name="tool" attached_to="l4"><pose>0 0 0.2 0 0 0</pose></frame>
</model></sdf>"""

ARM_URDF = """<robot name="arm">
  <link name="base"><inertial><mass value="2"/><inertia ixx="0.1" iyy="0.2" izz="0.15" ixy="0.01" ixz="0" iyz="0"/></inertial></link>
  <link name="l1"><inertial><origin xyz="0 0 0.2" rpy="0.1 0.2 0.3"/><mass value="1.5"/>
    <inertia ixx="0.02" iyy="0.03" izz="0.025" ixy="0" ixz="0.001" iyz="0"/></inertial></link>
  <joint name="j1" type="revolute"><origin xyz="0.1 0 0.3" rpy="0.2 0 0.1"/><parent link="base"/><child link="l1"/>
    <axis xyz="0 1 0"/><limit lower="-1" upper="1.5" effort="20" velocity="3"/><dynamics damping="0.3" friction="0.1"/></joint>
  <link name="l2"><inertial><origin xyz="0.1 0 0"/><mass value="0.7"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j2" type="prismatic"><origin xyz="0 0 0.4" rpy="0 0.3 0"/><parent link="l1"/><child link="l2"/>
    <axis xyz="0.7071067811865476 0.7071067811865476 0"/><limit lower="-0.1" upper="0.2" effort="0" velocity="0"/></joint>
  <link name="l3"><inertial><mass value="0.4"/><inertia ixx="0.004" iyy="0.005" izz="0.006" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j3" type="fixed"><origin xyz="0.2 0 0" rpy="0 0 1"/><parent link="l2"/><child link="l3"/></joint>
  <link name="l4"><inertial><origin xyz="0 0 0.1"/><mass value="0.3"/><inertia ixx="0.003" iyy="0.003" izz="0.001" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j4" type="continuous"><origin xyz="0 0.1 0"/><parent link="l3"/><child link="l4"/><axis xyz="0 0 1"/></joint>
  <link name="l5"><inertial><origin xyz="0 0 0.1"/><mass value="0.5"/><inertia ixx="0.003" iyy="0.004" izz="0.002" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <joint name="j5" type="revolute"><origin xyz="0 0.1 0.1" rpy="0.3 0 0"/><parent link="l1"/><child link="l5"/>
    <axis xyz="0.3 -0.2 1"/><limit lower="-1e16" upper="1e16" effort="0" velocity="0"/></joint>
</robot>"""


def random_state(model, seed):
    rng = np.random.default_rng(seed)
    return rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)


def test_sdf_arm_matches_the_same_arm_as_urdf_in_pinocchio():
    pin = pytest.importorskip("pinocchio")
    model = build_model_from_sdf_string(ARM_SDF)
    pmodel = pin.buildModelFromXML(ARM_URDF)
    assert model.name == "arm" and model.names == list(pmodel.names) and model.parents == list(pmodel.parents)
    assert [type(j).__name__ for j in model.joints[1:]] == ["JointModelRY", "JointModelPrismaticUnaligned",
                                                            "JointModelRUBZ", "JointModelRevoluteUnaligned"]
    ours = [(f.name, f.parent_joint, int(f.type)) for f in model.frames]
    assert ours[:-1] == [(f.name, f.parentJoint, int(f.type)) for f in pmodel.frames]
    for f, pf in zip(model.frames, pmodel.frames):
        assert_close(f.placement.homogeneous, pf.placement.homogeneous, 1e-12)
    np.testing.assert_array_equal(model.lower_position_limit[:2], pmodel.lowerPositionLimit[:2])
    np.testing.assert_array_equal(model.upper_position_limit[:2], pmodel.upperPositionLimit[:2])
    np.testing.assert_array_equal(model.lower_position_limit[2:4], [-1.01, -1.01])
    np.testing.assert_array_equal([model.effort_limit[0], model.velocity_limit[0]], [20.0, 3.0])
    assert np.all(np.isinf(model.effort_limit[1:])) and np.all(np.isinf(model.velocity_limit[1:]))
    np.testing.assert_array_equal(model.damping, pmodel.damping)
    np.testing.assert_array_equal(model.friction, pmodel.friction)
    data, pdata = model.create_data(), pmodel.createData()
    for seed in range(3):
        q, v, a = random_state(model, seed)
        assert_close(rbda.rnea(model, data, q, v, a), pin.rnea(pmodel, pdata, q, v, a))
        assert_close(rbda.crba(model, data, q), pin.crba(pmodel, pdata, q))
        assert_close(rbda.aba(model, data, q, v, a), pin.aba(pmodel, pdata, q, v, a))
    rbda.frames_forward_kinematics(model, data, q)
    l4 = model.get_frame_id("l4")
    assert_close(data.oMf[model.get_frame_id("tool")].homogeneous,
                 (data.oMf[l4] * SE3(np.eye(3), [0, 0, 0.2])).homogeneous, 1e-12)


BALL_UNIVERSAL_SDF = """<sdf version="1.8"><model name="gimbal">
  <pose>0.5 0 1 0 0 0.5</pose>
  <link name="base"><pose>0 0 0 0 0 0.5</pose>
    <inertial><mass>3</mass><inertia><ixx>0.3</ixx><iyy>0.3</iyy><izz>0.3</izz></inertia></inertial></link>
  <joint name="to_world" type="fixed"><parent>world</parent><child>base</child></joint>
  <joint name="ball" type="ball"><pose relative_to="base">0 0 -0.2 0 0 0</pose><parent>base</parent><child>pendulum</child></joint>
  <link name="pendulum">
    <pose relative_to="ball">0 0 -0.1 0 0 0</pose>
    <inertial><pose>0 0 -0.3 0 0 0</pose><mass>1.2</mass><inertia><ixx>0.05</ixx><iyy>0.05</iyy><izz>0.01</izz></inertia></inertial>
  </link>
  <joint name="cardan" type="universal">
    <pose relative_to="pendulum">0 0 -0.6 0 0 0</pose><parent>pendulum</parent><child>tip</child>
    <axis><xyz expressed_in="__model__">1 0 0</xyz><dynamics><damping>0.2</damping></dynamics></axis>
    <axis2><xyz expressed_in="__model__">0 1 0</xyz><limit><lower>-0.5</lower><upper>0.7</upper></limit><dynamics><damping>0.4</damping></dynamics></axis2>
  </joint>
  <link name="tip">
    <pose relative_to="cardan"/>
    <inertial><pose>0 0 -0.05 0 0 0</pose><mass>0.4</mass><inertia><ixx>0.002</ixx><iyy>0.003</iyy><izz>0.004</izz></inertia></inertial>
  </link>
</model></sdf>"""


def test_ball_and_universal_joints_match_a_model_built_by_hand():
    model = build_model_from_sdf_string(BALL_UNIVERSAL_SDF)
    world_M_base = SE3(rpy_to_matrix(0, 0, 0.5), [0.5, 0, 1]) * SE3(rpy_to_matrix(0, 0, 0.5), np.zeros(3))
    hand = rbda.Model("gimbal")
    hand.append_body_to_joint(0, Inertia(3.0, np.zeros(3), 0.3 * np.eye(3)), world_M_base)
    ball = hand.add_joint(0, rbda.JointModelSpherical(), world_M_base * SE3(np.eye(3), [0, 0, -0.2]), "ball")
    hand.append_body_to_joint(ball, Inertia(1.2, [0, 0, -0.3], np.diag([0.05, 0.05, 0.01])), SE3(np.eye(3), [0, 0, -0.1]))
    # the axes are given in the model frame; the joint frame is turned by 0.5 about z (the base's yaw)
    cardan = hand.add_joint(ball, rbda.JointModelUniversal([np.cos(0.5), -np.sin(0.5), 0.0], [np.sin(0.5), np.cos(0.5), 0.0]),
                            SE3(np.eye(3), [0, 0, -0.7]), "cardan", damping=[0.2, 0.4])
    hand.append_body_to_joint(cardan, Inertia(0.4, [0, 0, -0.05], np.diag([0.002, 0.003, 0.004])))
    assert model.names == hand.names and model.nq == hand.nq == 6
    assert model.joints[2] == hand.joints[2]
    np.testing.assert_array_equal(model.damping, [0, 0, 0, 0.2, 0.4])
    np.testing.assert_array_equal(model.lower_position_limit[4:], [-np.inf, -0.5])
    np.testing.assert_array_equal(model.upper_position_limit[4:], [np.inf, 0.7])
    assert [(f.name, int(f.type)) for f in model.frames] == [
        ("universe", 4), ("to_world", 4), ("base", 8), ("ball", 2), ("pendulum", 8), ("cardan", 2), ("tip", 8)]
    d1, d2 = model.create_data(), hand.create_data()
    for seed in range(3):
        q, v, a = random_state(model, seed)
        assert_close(rbda.rnea(model, d1, q, v, a), rbda.rnea(hand, d2, q, v, a))
        assert_close(rbda.crba(model, d1, q), rbda.crba(hand, d2, q))


def pose(x, y, z, r, p, yaw):
    return SE3(rpy_to_matrix(r, p, yaw), [x, y, z])


POSES_SDF = """<sdf version="1.9"><model name="poses" canonical_link="body">
  <link name="body"><pose>1 0 0 0 0 1.5707963267948966</pose></link>
  <frame name="f1" attached_to="body"><pose>0 1 0 0 0 0</pose></frame>
  <frame name="f2" attached_to="f1"><pose relative_to="__model__">0 0 2 0.5 0 0</pose></frame>
  <frame name="f3"><pose relative_to="f2" degrees="true">0 0 1 0 90 0</pose></frame>
  <link name="arm"><pose relative_to="f3" rotation_format="quat_xyzw">0.1 0.2 0.3 0 0 0.6 0.8</pose></link>
  <joint name="hinge" type="revolute">
    <pose relative_to="f1">0 0 0.5 0 0 0</pose><parent>body</parent><child>arm</child>
    <axis><xyz expressed_in="f3">0 0 1</xyz></axis>
  </joint>
  <frame name="on_joint" attached_to="hinge"><pose>0.3 0 0 0 0 0</pose></frame>
</model></sdf>"""


def test_pose_resolution_relative_to_chains():
    """Frames, links and joints placed by chains of relative_to/attached_to, checked against poses composed here."""
    model = build_model_from_sdf_string(POSES_SDF)
    body = pose(1, 0, 0, 0, 0, np.pi / 2)
    f1 = body * pose(0, 1, 0, 0, 0, 0)
    f2 = pose(0, 0, 2, 0.5, 0, 0)  # relative to the model frame, attached to f1 (moves with body)
    f3 = f2 * pose(0, 0, 1, 0, np.pi / 2, 0)  # default relative_to: what it is attached to (the model frame)
    q_arm = np.array([0, 0, 0.6, 0.8])
    arm = f3 * SE3(rbda.spatial.quat_to_matrix(q_arm), [0.1, 0.2, 0.3])
    hinge = f1 * pose(0, 0, 0.5, 0, 0, 0)
    data = model.create_data()
    q = np.array([0.7])
    rbda.frames_forward_kinematics(model, data, q)
    axis_in_joint = hinge.rotation.T @ f3.rotation @ [0, 0, 1]
    moved = hinge * SE3(rbda.spatial.exp3(0.7 * axis_in_joint), np.zeros(3))
    expected = {"body": body, "f1": f1, "f2": f2, "f3": f3, "hinge": moved, "arm": moved * hinge.inverse() * arm,
                "on_joint": moved * SE3(np.eye(3), [0.3, 0, 0])}
    for name, M in expected.items():
        assert_close(data.oMf[model.get_frame_id(name)].homogeneous, M.homogeneous, 1e-12, err_msg=name)
    np.testing.assert_allclose(model.joints[1].axis, axis_in_joint, atol=1e-12)


def test_sdf_1_6_axis_in_parent_model_frame_and_root_joint(tmp_path):
    text = """<sdf version="1.6"><model name="old">
      <link name="a"><pose>0 0 1 0 0 0</pose><inertial><mass>1</mass></inertial></link>
      <link name="b"><pose>0 0 1 0 0 1.5707963267948966</pose><inertial><pose>0.2 0 0 0 0 0</pose><mass>0.5</mass></inertial></link>
      <joint name="j" type="revolute"><parent>a</parent><child>b</child>
        <axis><xyz>1 0 0</xyz><use_parent_model_frame>1</use_parent_model_frame></axis></joint>
    </model></sdf>"""
    path = tmp_path / "old.sdf"
    path.write_text(text)
    model = build_model_from_sdf(path)
    np.testing.assert_allclose(model.joints[1].axis, [0, -1, 0], atol=1e-12)  # model x in b's (joint) frame
    floating = build_model_from_sdf(path, root_joint=rbda.JointModelFreeFlyer())
    assert floating.names == ["universe", "root_joint", "j"] and floating.nq == 8
    assert_close(floating.joint_placements[2].homogeneous, pose(0, 0, 0, 0, 0, np.pi / 2).homogeneous, 1e-12)
    # a link without <inertial> has SDFormat's default: 1 kg, unit inertia
    default = build_model_from_sdf_string('<sdf version="1.7"><model name="m"><link name="l"/></model></sdf>')
    assert default.inertias[0].mass == 1.0 and np.array_equal(default.inertias[0].inertia, np.eye(3))


# ------------------------------------------------------------------------------------------------- bad files
def link(name, extra=""):
    return f'<link name="{name}">{extra}</link>'


def joint(name, parent, child, kind="revolute", extra="<axis><xyz>0 0 1</xyz></axis>"):
    return f'<joint name="{name}" type="{kind}"><parent>{parent}</parent><child>{child}</child>{extra}</joint>'


def sdf(*body):
    return '<sdf version="1.7"><model name="m">' + "".join(body) + "</model></sdf>"


BAD = {
    "broken_xml": ("<sdf><model name='m'><link name='a'></model></sdf>", "xml"),
    "not_sdf": ("<robot name='r'/>", "<robot>"),
    "no_model": ("<sdf version='1.7'/>", "no <model>"),
    "old_version": ("<sdf version='1.5'><model name='m'><link name='a'/></model></sdf>", "1.5"),
    "missing_parent": (sdf(link("a"), link("b"), joint("j", "nope", "b")), "joint 'j'"),
    "no_child": (sdf(link("a"), '<joint name="j" type="fixed"><parent>a</parent></joint>'), "<child>"),
    "prismatic_loop": (sdf(link("a"), link("b"), link("c"), joint("j1", "a", "b"), joint("j2", "a", "c"),
                           joint("j3", "b", "c", "prismatic")), "closes a loop"),
    "loop_in_one_body": (sdf(link("a"), link("b"), joint("j1", "a", "b", "fixed", ""),
                             joint("j2", "a", "b", "ball", "")), "within one rigid body"),
    "cycle": (sdf(link("a"), link("b"), link("c"), joint("j1", "c", "b"), joint("j2", "b", "c")), "cycle"),
    "unknown_joint_type": (sdf(link("a"), link("b"), joint("j", "a", "b", "screwy")), "screwy"),
    "gearbox": (sdf(link("a"), link("b"), joint("j", "a", "b", "gearbox")), "gearbox"),
    "negative_mass": (sdf(link("a", "<inertial><mass>-2</mass></inertial>")), "negative mass"),
    "bad_number": (sdf(link("a", "<pose>0 0 x 0 0 0</pose>")), "link 'a' <pose>"),
    "short_pose": (sdf(link("a", "<pose>0 0 1</pose>")), "6 finite numbers"),
    "nan_inertia": (sdf(link("a", "<inertial><inertia><ixx>nan</ixx></inertia></inertial>")), "ixx"),
    "pose_cycle": (sdf(link("a", '<pose relative_to="f"/>'), '<frame name="f" attached_to="a"><pose relative_to="a"/></frame>',
                       '<frame name="g"><pose relative_to="a"/></frame>'), "cycle"),
    "unknown_relative_to": (sdf(link("a", '<pose relative_to="ghost">0 0 0 0 0 0</pose>')), "ghost"),
    "duplicate_name": (sdf(link("a"), link("a")), "already used"),
    "zero_axis": (sdf(link("a"), link("b"), joint("j", "a", "b", extra="<axis><xyz>0 0 0</xyz></axis>")), "zero"),
    "missing_axis": (sdf(link("a"), link("b"), joint("j", "a", "b", extra="")), "<axis>"),
    "bad_universal": (sdf(link("a"), link("b"), joint("j", "a", "b", "universal", "<axis><xyz>1 0 0</xyz></axis>"
                                                       "<axis2><xyz>1 1 0</xyz></axis2>")), "orthogonal"),
    "limits_reversed": (sdf(link("a"), link("b"), joint("j", "a", "b", extra="<axis><xyz>0 0 1</xyz><limit><lower>1"
                                                         "</lower><upper>0</upper></limit></axis>")), "lower limit"),
    "nested_model": (sdf(link("a"), '<model name="inner"><link name="x"/></model>'), "nested"),
    "bad_frame_attachment": (sdf(link("a"), '<frame name="f" attached_to="ghost"/>'), "ghost"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_malformed_sdf_raises_model_file_error(tmp_path, case):
    text, needle = BAD[case]
    path = tmp_path / f"{case}.sdf"
    path.write_text(text)
    with pytest.raises(ModelFileError) as info:
        build_model_from_sdf(path)
    assert info.value.file == str(path) and needle in str(info.value), str(info.value)
    with pytest.raises(ModelFileError, match="<string>"):
        build_model_from_sdf_string(text)


def test_missing_file_and_bad_arguments(tmp_path):
    with pytest.raises(ModelFileError, match="no such file"):
        build_model_from_sdf(tmp_path / "nothing.sdf")
    with pytest.raises(TypeError, match="path"):
        build_model_from_sdf(None)
    with pytest.raises(TypeError, match="text"):
        build_model_from_sdf_string(b"<sdf/>")
    two_roots = sdf(link("a"), link("b"))
    with pytest.raises(ModelFileError, match="root_joint"):
        build_model_from_sdf_string(two_roots, root_joint=rbda.JointModelFreeFlyer())
