"""Real robots on the ground (example-robot-data's solo12 and talos, their collision meshes): solo12 standing under
StandingPD for 5 s (talos: test_talos.py); the contact patch reduction and the standing
controller's static equilibrium checked on their own."""

import numpy as np
import pytest
from scipy.spatial import ConvexHull

import rbda
from rbda.io import Halfspace
from rbda.simulation import Simulator, StandingPD
from rbda.simulation import simulator as stages
from rbda.simulation.contacts import PATCH_POINTS, halfspace_shape, reduce_patch

pytest.importorskip("pinocchio")  # example-robot-data's files are installed with it
from benchmarks.scenes.robots import rbda_robot, stand_both  # noqa: E402

G0 = 9.81


def solo12():
    """``(model, collision_model, q0)`` of solo12 standing on the ground."""
    model, collision, _, q0 = rbda_robot("solo12")
    return model, collision, q0


def total_mass(model):
    return sum(model.inertias[j].mass for j in range(model.njoints))


def test_reduce_patch_keeps_the_support_polygon():
    """A flat 11 x 7 grid of vertices, one slightly deeper: the deepest point and the four corners are kept, so the
    kept points span the whole patch (the area of their hull equals the grid's)."""
    x, y = np.meshgrid(np.linspace(-0.05, 0.05, 11), np.linspace(-0.02, 0.02, 7))
    vertices = np.column_stack([x.ravel(), y.ravel(), np.zeros(x.size)])
    vertices[40, 2] = -2e-4  # an inner point, the deepest
    contacts = halfspace_shape(Halfspace(), (np.eye(3), np.zeros(3)), vertices, (np.eye(3), np.array([0, 0, 1e-4])),
                             1e-3)
    assert len(contacts) == PATCH_POINTS
    kept = np.array([p2 for _, _, p2, _ in contacts])
    assert kept[0] == pytest.approx(vertices[40] + [0, 0, 1e-4])
    assert min(d for d, *_ in contacts) == pytest.approx(-1e-4)
    assert ConvexHull(kept[1:, :2]).volume == pytest.approx(0.1 * 0.04, rel=1e-12)
    corners = {(sx * 0.05, sy * 0.02) for sx in (-1, 1) for sy in (-1, 1)}
    assert {(round(a, 12), round(b, 12)) for a, b in kept[1:, :2]} == {(round(a, 12), round(b, 12))
                                                                        for a, b in corners}


def test_reduce_patch_random_patches():
    """Random convex patches: the kept rows are distinct rows of the patch, the deepest first, and their hull
    covers most of the patch's (a quadrilateral through the diameter and the widest points on each side of it:
    at least half the area of any convex polygon)."""
    rng = np.random.default_rng(0)
    n = np.array([0.0, 0.0, 1.0])
    for _ in range(50):
        m = int(rng.integers(6, 60))
        points = np.column_stack([rng.uniform(-1e-3, 0.0, m), rng.normal(size=(m, 2)), np.zeros(m)])
        keep = np.empty(PATCH_POINTS, dtype=np.int64)
        count = reduce_patch(n, points, m, keep)
        kept = keep[:count]
        assert len(set(kept)) == count and kept[0] == np.argmin(points[:, 0])
        assert ConvexHull(points[kept, 1:3]).volume >= 0.5 * ConvexHull(points[:, 1:3]).volume


def test_standing_pd_is_a_static_equilibrium():
    """At q0, tau_ff and the contact forces balance gravity on every row (g = tau + J^T f, J from the simulator's
    contact stage), the free flyer gets no torque, the normal forces carry m g and each foot gets a quarter."""
    model, collision, q0 = solo12()
    sim = Simulator(model, collision, 1e-3)
    pd = StandingPD(sim, q0)
    stages.kinematics(sim, q0, np.zeros(model.nv), np.zeros(model.nv), None)
    cs = stages.contacts(sim)
    J = stages.delassus(sim, cs)[0]
    gravity = rbda.compute_generalized_gravity(model, model.create_data(), q0)
    np.testing.assert_allclose(pd.tau_ff + J.T @ pd.contact_forces, gravity, atol=1e-10)
    assert np.all(pd.tau_ff[:6] == 0.0) and np.all(pd.kp[:6] == 0.0)
    assert pd.contact_forces[2::3].sum() == pytest.approx(total_mass(model) * G0, rel=1e-10)
    joints = np.array([[collision.geometry_objects[i].parent_joint for i in pair] for pair in cs.pairs])
    feet = joints.max(axis=1)  # the robot's side of each (robot, ground) pair
    for joint in set(feet):
        assert pd.contact_forces[2::3][feet == joint].sum() == pytest.approx(total_mass(model) * G0 / 4, rel=1e-6)
    assert np.all(pd(q0) == pd.tau_ff)
    damping = model.damping.copy()
    assert np.all(sim.damping == damping + pd.kd)  # the derivative term, implicit in the step
    assert np.all(model.damping == damping) and np.all(damping == 0.0)  # the model is not changed
    with pytest.raises(ValueError, match="omega"):
        StandingPD(sim, q0, omega=0.0)
    with pytest.raises(ValueError, match="q_ref"):
        StandingPD(sim, q0[:5])


def test_solo12_stands_for_5_seconds():
    """solo12 (2.5 kg, its collision meshes) under StandingPD at dt = 1e-3 for 5 s: the base height stays within
    1 cm of its start (in fact 0.1 mm), the four feet carry m g, each foot's hull gives at most PATCH_POINTS
    contacts, the solver converges at every step and the penetration stays under 1 mm."""
    model, collision, q0 = solo12()
    dt = 1e-3
    sim = Simulator(model, collision, dt)
    pd = StandingPD(sim, q0)
    q, v = q0.copy(), np.zeros(model.nv)
    heights, unconverged, deepest = [], 0, 0.0
    for _ in range(5000):
        q, v = sim.step(q, v, pd(q))
        heights.append(q[2])
        unconverged += not sim.stats.converged
        deepest = min(deepest, sim.contacts.distances.min())
        assert sim.contacts.size <= 4 * PATCH_POINTS
    heights = np.array(heights)
    assert np.abs(heights - q0[2]).max() < 1e-2
    assert np.abs(heights - q0[2]).max() < 1e-3  # what it does: within a millimetre
    assert unconverged == 0  # ADMM's default mu_prox 1e-5; 9 of 5000 stalled with Pinocchio's 1e-6
    assert deepest > -1e-3
    assert sim.forces[2::3].sum() == pytest.approx(total_mass(model) * G0, rel=1e-2)
    assert np.abs(v).max() < 1e-2


def test_solo12_stance_height_against_mujoco():
    """solo12 on the same ground (MuJoCo compiling the same URDF, its collision meshes' hulls, elliptic cones,
    Euler, dt = 1e-3) under the same StandingPD torques for 1 s: both stand, and their stance heights differ by
    MuJoCo's penetration, within 0.5 mm. MuJoCo's contacts are soft (solref 0.02 s, solimp 0.9-0.95 by default):
    under the robot's weight its feet sink about 1.2 mm into the ground, where rbda's hard contacts (Baumgarte
    0.2) settle within a micrometre; the heights measured 0.23206 m (rbda) and 0.23131 m (MuJoCo)."""
    pytest.importorskip("mujoco")
    z_rbda, z_mj, depth_mj = stand_both("solo12", 1.0)
    settled = slice(500, None)  # the last 0.5 s
    assert np.ptp(z_rbda[settled]) < 1e-4 and np.ptp(z_mj[settled]) < 1e-4  # both at rest
    assert np.abs(z_rbda - z_rbda[0]).max() < 1e-2 and np.abs(z_mj - z_mj[0]).max() < 1e-2
    gap = z_rbda[settled].mean() - z_mj[settled].mean()
    assert 0.0 < gap < depth_mj[settled].mean() + 5e-4
    assert gap < 2e-3


def test_solo12_stand_example(tmp_path, monkeypatch):
    """examples/solo12_stand.py (the README's picture): pushed by 10 N for 0.1 s, solo12 sways (by about 2 cm)
    and settles: its base height stays within 1 cm of the start, the four feet carry m g at the end (each about a
    quarter: the impulse balance on the base, independent of the solver's own stopping test) and the image is
    written."""
    import importlib.util
    import sys
    from pathlib import Path

    examples = Path(__file__).resolve().parents[2] / "examples"
    sys.path.insert(0, str(examples))
    spec = importlib.util.spec_from_file_location("solo12_stand", examples / "solo12_stand.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "IMAGE", tmp_path / "solo12_stand.png")
    monkeypatch.setattr(module, "ANIMATION", tmp_path / "solo12_stand.html")
    r = module.main(verbose=False)
    if importlib.util.find_spec("trimesh") is not None:  # the animation shows the motion simulated
        html = (tmp_path / "solo12_stand.html").read_text()
        assert "solo12 standing, pushed by 10 N" in html and len(html) > 100_000  # the meshes are embedded
    assert np.abs(r["height"] - r["height"][0]).max() < 1e-2
    assert 5e-3 < np.abs(r["lateral"]).max() < 5e-2  # it was pushed, and did not fall
    assert r["foot_forces"][-1].sum() == pytest.approx(r["weight"], rel=1e-2)
    np.testing.assert_allclose(r["foot_forces"][-1], r["weight"] / 4, rtol=0.05)
    assert np.ptp(r["height"][-300:]) < 1e-4  # at rest again
    pytest.importorskip("matplotlib")
    assert (tmp_path / "solo12_stand.png").stat().st_size > 10_000


def test_bounding_radius_holds_the_shape():
    """The ball that lets compute_contacts skip a pair far from a half-space holds every point of the shape: box
    corners, cylinder rims, capsule ends and every hull vertex of solo12's meshes lie within it (tight to 1e-12
    for the box and at a hull vertex for a mesh)."""
    from rbda.io import Box, Capsule, Cylinder, Mesh
    from rbda.simulation.contacts import bounding_radius, hull_vertices

    assert bounding_radius(Box((0.2, 0.4, 0.6))) == pytest.approx(np.linalg.norm([0.1, 0.2, 0.3]), abs=1e-12)
    assert bounding_radius(Cylinder(0.1, 0.6)) == pytest.approx(np.hypot(0.1, 0.3), abs=1e-12)
    assert bounding_radius(Capsule(0.1, 0.6)) == pytest.approx(0.4, abs=1e-12)
    _, collision, _ = solo12()
    for g in collision.geometry_objects:
        if isinstance(g.geometry, Mesh):
            reach = np.linalg.norm(hull_vertices(g.geometry), axis=1)
            assert bounding_radius(g.geometry) == pytest.approx(reach.max(), abs=1e-15)


def test_rbda_simulate_holds_solo12():
    """``rbda simulate solo12.urdf --floating-base`` (the issue's failing case: it sank from 0.232 m to 0.032 m in
    0.3 s with gains scaled by M's own diagonal) now holds the base within a millimetre for 0.5 s."""
    import os

    from rbda import cli
    from benchmarks.scenes.robots import ROBOTS, robots_share

    urdf = os.path.join(robots_share(), "example-robot-data", "robots", ROBOTS["solo12"][0])
    t, Q, V, TAU = cli.simulate(urdf, duration=0.5, floating_base=True, package_dirs=[robots_share()],
                                progress=False)
    assert Q[0, 2] == pytest.approx(0.2321, abs=1e-3)
    assert np.abs(Q[:, 2] - Q[0, 2]).max() < 1e-3
    assert np.all(TAU[:-1, :6] == 0.0)
    assert np.abs(TAU[:-1, 6:]).max() < 1.0  # N m (0.68 measured, at the knees): a real solo12's motors give ~2.7
