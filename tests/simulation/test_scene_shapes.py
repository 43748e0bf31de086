"""Every solid for ``add_free_body`` and every MuJoCo primitive through ``load_scene``.

- ``solid_inertia``: a hull's inertia (tetrahedra from its centroid) against the closed forms of the box it is
  (centred and off-centre), against a fine cylinder's and cone's; the cone's closed form against the hull of its
  points; the other shapes are ``Inertia``'s own factories; a mesh file's hull as its box.
- ``load_scene``: MuJoCo's collision pairs (the weld, parent and exclude filters, explicit pairs): every pair its
  collision detection reports when every geom has a huge margin is ours, on gymnasium's humanoid and ant and on a
  file with ``<exclude>`` and ``<pair>`` (there, all of ours); an ellipsoid read from MJCF, resting on the floor at
  its height, as MuJoCo's.
"""

import os

import numpy as np
import pytest

import rbda
from rbda.io.scene import FRICTIONLESS
from rbda.collision.shapes import Cone, Convex
from rbda.io import Box, Capsule, Cylinder, Ellipsoid, GeometryModel, Halfspace, Mesh, Sphere
from rbda.simulation import add_free_body
from rbda.simulation.world import solid_inertia


def _close(a, b, rtol):
    assert a.mass == pytest.approx(b.mass, rel=1e-12)
    np.testing.assert_allclose(a.lever, b.lever, atol=rtol * np.abs(b.inertia).max() ** 0.5)
    np.testing.assert_allclose(a.inertia, b.inertia, atol=rtol * np.abs(b.inertia).max())


def test_a_hull_of_a_box_is_the_box():
    corners = np.array([[x, y, z] for x in (-0.1, 0.1) for y in (-0.2, 0.2) for z in (-0.05, 0.05)])
    _close(solid_inertia(Convex(corners), 2.0), rbda.Inertia.FromBox(2.0, 0.2, 0.4, 0.1), 1e-12)
    shifted = solid_inertia(Convex(corners + [0.3, -0.1, 0.2]), 2.0)  # its centre of mass where the box is
    np.testing.assert_allclose(shifted.lever, [0.3, -0.1, 0.2], atol=1e-14)
    np.testing.assert_allclose(shifted.inertia, rbda.Inertia.FromBox(2.0, 0.2, 0.4, 0.1).inertia, atol=1e-14)


def test_hulls_of_round_solids_tend_to_their_closed_forms():
    """A cylinder's and a cone's points (1,000 on each rim): the hull's inertia is the closed form's to the
    polygon's error (1e-4), the cone's centre of mass a quarter of its length above its base."""
    a = np.linspace(0, 2 * np.pi, 1000, endpoint=False)
    rim = np.column_stack([0.05 * np.cos(a), 0.05 * np.sin(a)])
    cylinder = np.vstack([np.column_stack([rim, np.full(1000, z)]) for z in (-0.1, 0.1)])
    _close(solid_inertia(Convex(cylinder), 3.0), solid_inertia(Cylinder(0.05, 0.2), 3.0), 1e-4)
    cone = np.vstack([np.column_stack([rim, np.full(1000, -0.1)]), [[0.0, 0.0, 0.1]]])
    _close(solid_inertia(Convex(cone), 3.0), solid_inertia(Cone(0.05, 0.2), 3.0), 1e-4)
    assert solid_inertia(Cone(0.05, 0.2), 3.0).lever[2] == pytest.approx(-0.05)


def test_every_shape_is_a_free_body():
    """add_free_body takes each solid (its inertia the factory's), and refuses a half-space."""
    expected = {Sphere(0.1): rbda.Inertia.FromSphere(2.0, 0.1), Capsule(0.05, 0.2): rbda.Inertia.FromCapsule(2.0, 0.05, 0.2),
                Cylinder(0.05, 0.2): rbda.Inertia.FromCylinder(2.0, 0.05, 0.2),
                Ellipsoid((0.1, 0.2, 0.3)): rbda.Inertia.FromEllipsoid(2.0, 0.1, 0.2, 0.3)}
    model, cm = rbda.Model(), GeometryModel()
    for k, (shape, inertia) in enumerate(expected.items()):
        joint = add_free_body(model, cm, f"b{k}", shape, 2.0)
        _close(model.inertias[joint], inertia, 1e-14)
    with pytest.raises(TypeError, match="shape: a Halfspace"):
        add_free_body(model, cm, "plane", Halfspace(), 1.0)


def test_a_mesh_file_enters_through_its_hull(tmp_path):
    pytest.importorskip("trimesh")
    corners = np.array([[x, y, z] for x in (-0.1, 0.1) for y in (-0.2, 0.2) for z in (-0.05, 0.05)])
    faces = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1), (2, 3, 7), (2, 7, 6), (0, 2, 6),
             (0, 6, 4), (1, 5, 7), (1, 7, 3)]
    path = tmp_path / "box.obj"
    path.write_text("".join(f"v {x} {y} {z}\n" for x, y, z in corners) + "".join(
        f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in faces))
    _close(solid_inertia(Mesh(str(path)), 2.0), rbda.Inertia.FromBox(2.0, 0.2, 0.4, 0.1), 1e-12)


def _mujoco_pairs_by_collision(mujoco, mj):
    """The geom pairs MuJoCo's collision reports with every geom's and pair's margin 100 m (some of those it tests:
    its broad phase leaves out some geoms' pairs even so)."""
    mj.geom_margin[:] = 100.0
    mj.pair_margin[:] = 100.0
    data = mujoco.MjData(mj)
    mujoco.mj_forward(mj, data)
    return {tuple(sorted(int(g) for g in c.geom)) for c in data.contact[:data.ncon]}


def _our_pairs(path):
    import mujoco

    model, cm = rbda.load_scene(path)
    mj = mujoco.MjModel.from_xml_path(path)
    ids = {mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_GEOM, g) or f"geom{g}": g for g in range(mj.ngeom)}
    names = [g.name.removesuffix(FRICTIONLESS) for g in cm.geometry_objects]  # (a condim-1 geom's twin)
    return {tuple(sorted((ids[names[i]], ids[names[j]]))) for i, j in cm.collision_pairs}, mj


@pytest.mark.parametrize("robot", ["humanoid", "ant"])
def test_load_scene_pairs_on_gymnasium_models(robot):
    """Every pair MuJoCo's collision reports (with huge margins) is ours, and none of ours joins a body to its
    parent (unless the world) or to itself."""
    mujoco = pytest.importorskip("mujoco")
    gymnasium = pytest.importorskip("gymnasium")
    path = os.path.join(os.path.dirname(gymnasium.__file__), "envs", "mujoco", "assets", f"{robot}.xml")
    ours, mj = _our_pairs(path)
    theirs = _mujoco_pairs_by_collision(mujoco, mj)
    assert theirs <= ours and len(theirs) > 10
    for a, b in ours:
        b1, b2 = mj.geom_bodyid[a], mj.geom_bodyid[b]
        assert b1 != b2 and (0 in (b1, b2) or (mj.body_parentid[b1] != b2 and mj.body_parentid[b2] != b1))


def test_load_scene_keeps_excludes_and_refuses_explicit_pairs(tmp_path):
    """Three free capsules chained by hinges (parent and child never collide) and an ``<exclude>`` between the first
    and the third: the pairs are MuJoCo's; an explicit ``<pair>`` (its own friction and softness) is refused,
    naming the element."""
    mujoco = pytest.importorskip("mujoco")
    path = tmp_path / "chain.xml"
    text = """<mujoco><worldbody><geom name="floor" type="plane" size="0 0 1"/>
      <body name="a" pos="0 0 0.5"><freejoint/><geom name="ga" type="capsule" size="0.05 0.1"/>
        <body name="b" pos="0.3 0 0"><joint type="hinge"/><geom name="gb" type="capsule" size="0.05 0.1"/>
          <body name="c" pos="0.3 0 0"><joint type="hinge"/><geom name="gc" type="capsule" size="0.05 0.1"/>
          </body></body></body>
      <body name="d" pos="1 0 0.5"><freejoint/><geom name="gd" type="sphere" size="0.1" contype="2" conaffinity="2"/>
      </body></worldbody>
      <contact><exclude body1="c" body2="a"/>PAIR</contact></mujoco>"""
    path.write_text(text.replace("PAIR", ""))
    ours, mj = _our_pairs(str(path))
    assert ours == _mujoco_pairs_by_collision(mujoco, mj)  # (its broad phase reports every pair here)
    name = {g: mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_GEOM, g) for g in range(mj.ngeom)}
    assert {tuple(sorted((name[a], name[b]))) for a, b in ours} == {("floor", "ga"), ("floor", "gb"), ("floor", "gc")}
    path.write_text(text.replace("PAIR", '<pair geom1="gd" geom2="ga"/>'))
    with pytest.raises(rbda.io.ModelFileError, match=r"contact > pair: 1 explicit contact pair"):
        rbda.load_scene(str(path))


def test_an_ellipsoid_from_mjcf_rests_on_the_floor(tmp_path):
    """An ellipsoid geom is an rbda.io.Ellipsoid; dropped 1 cm, it comes to rest with its lowest point on the floor
    (within the step's penetration, 1e-6), MuJoCo's at its soft contact's (within 1 mm)."""
    mujoco = pytest.importorskip("mujoco")
    path = tmp_path / "ellipsoid.xml"
    path.write_text("""<mujoco><option timestep="0.001"/><worldbody><geom name="floor" type="plane" size="0 0 1"/>
      <body name="e" pos="0 0 0.06"><freejoint/><geom name="ge" type="ellipsoid" size="0.04 0.03 0.05"/></body>
      </worldbody></mujoco>""")
    model, cm = rbda.load_scene(str(path))
    shape = cm.geometry_objects[cm.get_geometry_id("ge")].geometry
    assert isinstance(shape, Ellipsoid) and shape.radii == (0.04, 0.03, 0.05)
    sim = rbda.Simulator(model, cm, 1e-3)
    mj = mujoco.MjModel.from_xml_path(str(path))
    q = rbda.io.mjcf.qpos_to_q(model, mj.qpos0)
    Q, V = sim.rollout(q, np.zeros(6), np.zeros((1000, 6)))
    data = mujoco.MjData(mj)
    for _ in range(1000):
        mujoco.mj_step(mj, data)
    assert Q[-1, 2] == pytest.approx(0.05, abs=1e-6) and np.abs(V[-1]).max() < 1e-5
    assert data.qpos[2] == pytest.approx(Q[-1, 2], abs=1e-3)
