"""``rbda view``: the model file's visual geometry, its SRDF reference configuration, and its errors."""

import socket
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import rbda
from rbda import cli

pytest.importorskip("viser", reason="rbda view needs viser: pip install 'rbda[viewer]'")

URDF = """<robot name="arm">
  <link name="base"><visual><geometry><box size="0.2 0.2 0.1"/></geometry>
    <material name="blue"><color rgba="0 0 1 1"/></material></visual></link>
  <link name="upper"><inertial><origin xyz="0 0 0.25"/><mass value="1"/>
      <inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.001"/></inertial>
    <visual><geometry><mesh filename="meshes/upper.stl"/></geometry></visual></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="upper"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="10" velocity="2"/></joint>
</robot>"""
SRDF = """<robot name="arm"><group_state name="raised" group="all"><joint name="shoulder" value="1.25"/></group_state>
</robot>"""


def test_view_a_urdf_with_a_missing_mesh_at_its_srdf_posture(tmp_path, capsys):
    (tmp_path / "urdf").mkdir()
    (tmp_path / "srdf").mkdir()
    (tmp_path / "urdf" / "arm.urdf").write_text(URDF)
    (tmp_path / "srdf" / "arm.srdf").write_text(SRDF)
    viewer = cli.view(str(tmp_path / "urdf" / "arm.urdf"), port=0)
    try:
        err = capsys.readouterr()
        assert err.err.count("meshes/upper.stl") == 1 and "box of its body's inertia" in err.err
        assert "at configuration 'raised'" in err.out and viewer.url in err.out
        np.testing.assert_allclose(viewer.q, [1.25])
        blue = [p for p in viewer.parts if p.name == "base_0"][0]
        np.testing.assert_allclose(blue.color, [0, 0, 1, 1])
        upper = [p for p in viewer.parts if p.name == "upper_0"][0]
        np.testing.assert_allclose(upper.placement.translation, [0, 0, 0.25], atol=1e-12)  # the inertia box
    finally:
        viewer.close()


def test_view_a_real_robot_at_its_srdf_half_sitting():
    import importlib.metadata
    from pathlib import Path

    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("needs example-robot-data (rbda[test])")
    robots = Path(dist.locate_file("cmeel.prefix/share/example-robot-data/robots"))
    urdf = robots / "talos_data" / "robots" / "talos_reduced.urdf"
    viewer = cli.view(str(urdf), floating_base=True, port=0)
    try:
        state = ET.parse(robots / "talos_data" / "srdf" / "talos.srdf").find("group_state[@name='half_sitting']")
        values = {j.get("name"): float(j.get("value")) for j in state.findall("joint") if " " not in j.get("value")}
        model = viewer.model
        checked = 0
        for name, value in values.items():
            if model.exist_joint_name(name) and model.nqs[model.get_joint_id(name)] == 1:
                assert viewer.q[model.idx_q[model.get_joint_id(name)]] == pytest.approx(value)
                checked += 1
        assert checked >= 20 and len(viewer.parts) > 30
    finally:
        viewer.close()


def test_view_errors(tmp_path):
    with pytest.raises(SystemExit, match="neither a bundled model"):
        cli.view(str(tmp_path / "nothing.urdf"))
    with pytest.raises(SystemExit, match="no reference configuration 'walk'"):
        cli.view("manipulator", config="walk", port=0)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        with pytest.raises(SystemExit, match=f"rbda: port {s.getsockname()[1]} on 127.0.0.1 is in use"):
            cli.main(["view", "manipulator", "--port", str(s.getsockname()[1])])


def test_view_a_model_without_geometry_draws_its_inertia_boxes():
    viewer = cli.view("humanoid", port=0)
    try:
        model = viewer.model
        assert len(viewer.parts) == sum(1 for Y in model.inertias[1:] if Y.mass > 0)
        np.testing.assert_allclose(viewer.q, rbda.neutral(model))
    finally:
        viewer.close()
