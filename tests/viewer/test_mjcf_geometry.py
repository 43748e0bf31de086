"""MJCF geoms as a geometry model: every geom where MuJoCo puts it, in its colour."""

import numpy as np
import pytest

import rbda
from rbda.viewer import part_placements, parts_of

mujoco = pytest.importorskip("mujoco", reason="MJCF needs MuJoCo: pip install 'rbda[mjcf]'")
trimesh = pytest.importorskip("trimesh")

from rbda.io.mjcf import q_to_qpos  # noqa: E402
from rbda.io.mjcf_geometry import build_geom_from_mjcf  # noqa: E402

XML = """<mujoco><compiler meshdir="assets"/>
  <asset><mesh name="part" file="part.stl" scale="2 2 2"/><material name="steel" rgba="0.2 0.3 0.4 1"/></asset>
  <worldbody>
    <geom name="floor" type="plane" size="0 0 1" rgba="0.8 0.8 0.8 1"/>
    <body name="upper" pos="0 0 1" euler="10 20 30">
      <joint name="shoulder" type="ball"/>
      <geom name="arm" type="capsule" fromto="0 0 0 0.3 0 -0.4" size="0.05" rgba="1 0 0 1"/>
      <body name="lower" pos="0.3 0 -0.4">
        <joint name="elbow" type="hinge" axis="0 1 0"/>
        <geom name="box" type="box" size="0.1 0.05 0.02" pos="0.1 0 0" euler="0 30 0" material="steel"/>
        <geom name="can" type="cylinder" size="0.03 0.1" pos="0 0.1 0"/>
        <geom name="ball" type="sphere" size="0.04" pos="0.2 0 0"/>
        <geom name="egg" type="ellipsoid" size="0.03 0.05 0.07" pos="0 -0.1 0" euler="10 0 0"/>
        <geom name="hidden" type="sphere" size="0.04" group="4"/>
        <body name="hand" pos="0.25 0 0"><joint name="wrist" type="slide" axis="1 0 0"/>
          <geom name="part" type="mesh" mesh="part" pos="0.1 0 0"/></body>
      </body>
    </body>
  </worldbody></mujoco>"""


@pytest.fixture
def robot(tmp_path):
    (tmp_path / "assets").mkdir()
    box = trimesh.creation.box(extents=(0.4, 0.2, 0.1))
    box.apply_transform(trimesh.transformations.rotation_matrix(0.7, [1, 2, 3]))
    box.apply_translation([0.3, 0.1, -0.2])
    box.export(tmp_path / "assets" / "part.stl")
    (tmp_path / "robot.xml").write_text(XML)
    return tmp_path / "robot.xml"


def test_geoms_are_where_mujoco_puts_them(robot):
    model = rbda.load_model(robot)
    geometry = build_geom_from_mjcf(model, robot)
    names = [o.name for o in geometry.geometry_objects]
    assert names == ["floor", "arm", "box", "can", "ball", "egg", "part"]  # "hidden" is in group 4
    assert geometry.geometry_objects[5].geometry == rbda.collision.Ellipsoid((0.03, 0.05, 0.07))
    steel = geometry.geometry_objects[2]
    np.testing.assert_allclose(steel.mesh_color, [0.2, 0.3, 0.4, 1.0], atol=1e-7)
    parts = parts_of(model, geometry)
    mj = mujoco.MjModel.from_xml_path(str(robot))
    md = mujoco.MjData(mj)
    rng = np.random.default_rng(0)
    for _ in range(3):
        q = rbda.random_configuration(model, rng=rng)
        md.qpos[:] = q_to_qpos(model, q)
        mujoco.mj_kinematics(mj, md)
        placements = part_placements(model, parts, q)[0]
        for part, M in zip(parts, placements):
            g = mujoco.mj_name2id(mj, mujoco.mjtObj.mjOBJ_GEOM, part.name)
            R, p = md.geom_xmat[g].reshape(3, 3), md.geom_xpos[g]
            if part.name == "part":  # the file's vertices land on MuJoCo's re-centred ones
                k = mj.geom_dataid[g]
                V = mj.mesh_vert[mj.mesh_vertadr[k]:mj.mesh_vertadr[k] + mj.mesh_vertnum[k]] @ R.T + p
                ours = part.vertices @ M[:, :3].T + M[:, 3]
                assert max(np.min(np.linalg.norm(V - v, axis=1)) for v in ours) < 1e-6
            elif part.name == "floor":
                np.testing.assert_allclose(M[:, :3], R, atol=1e-12)
                np.testing.assert_allclose(M[:, 3], p + [0, 0, -0.001], atol=1e-12)
            else:
                np.testing.assert_allclose(M[:, :3], R, atol=1e-9)
                np.testing.assert_allclose(M[:, 3], p, atol=1e-9)


def test_mjcf_geometry_errors(robot, tmp_path):
    other = rbda.sample_models.manipulator()
    with pytest.raises(rbda.io.ModelFileError, match="body 'upper'.*no BODY frame"):
        build_geom_from_mjcf(other, robot)
    with pytest.raises(rbda.io.ModelFileError, match="no such file"):
        build_geom_from_mjcf(other, tmp_path / "none.xml")


def test_rbda_view_draws_an_mjcf_file_with_its_geoms(robot):
    pytest.importorskip("viser", reason="rbda view needs viser: pip install 'rbda[viewer]'")
    from rbda import cli

    viewer = cli.view(str(robot), port=0)
    try:
        assert [p.name for p in viewer.parts] == ["floor", "arm", "box", "can", "ball", "egg", "part"]
    finally:
        viewer.close()
