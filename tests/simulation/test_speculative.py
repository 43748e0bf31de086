"""Speculative contact margins: a fast body's contact is found the step before it would penetrate.

A sphere and a box dropped at 10 m/s onto the ground (dt = 1e-3, margin 1e-3: 10 mm travelled per step, ten times
the margin) land on the surface exactly, to 1e-6 m, and never bounce, under Baumgarte and under restitution 0;
with the margin alone they penetrate by several millimetres. A resting scene is unchanged. The closing-speed
bound holds every point's speed, measured by finite differences of the placements on the manifold."""

import numpy as np
import pytest

import rbda
from rbda.io import Box, GeometryModel, Sphere
from rbda.simulation import Simulator, add_free_body, add_ground_plane
from rbda.simulation import simulator as stages
from rbda.simulation.speculative import pair_speed_bounds

TIGHT = dict(max_iter=5000, absolute_feasibility_tol=1e-12, relative_feasibility_tol=1e-12,
             absolute_complementarity_tol=1e-14, relative_complementarity_tol=1e-12)
DT, MARGIN, SPEED = 1e-3, 1e-3, 10.0


def drop(shape, mass, gap, **kw):
    """``(sim, q, v, half_height)``: ``shape`` with its lowest point ``gap`` above the ground, falling at SPEED."""
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "body", shape, mass)
    add_ground_plane(model, cm)
    sim = Simulator(model, cm, DT, margin=MARGIN, solver_options=TIGHT, **kw)
    half = shape.size[2] / 2 if isinstance(shape, Box) else shape.radius
    q = rbda.neutral(model)
    q[2] = half + gap
    v = np.zeros(6)
    v[2] = -SPEED
    return sim, q, v, half


SHAPES = [(Sphere(0.1), 1.0), (Box((0.2, 0.2, 0.2)), 10.0)]


@pytest.mark.parametrize("restitution", [None, 0.0])
@pytest.mark.parametrize("shape, mass", SHAPES)
def test_fast_drop_lands_without_penetration(shape, mass, restitution):
    """Dropped at 10 m/s from 15.5 mm: the first step whose impulses are not zero ends with the body on or above the
    surface (penetration < 1e-6 m; Baumgarte lands it exactly on it, restitution 0 stops it where the contact was
    found, up to one step's travel above, and gravity then lowers it), no later step moves it up (no bounce), and
    it comes to rest on the surface (to 1e-6 m after 0.2 s). The same drop without speculation penetrates by
    4.5 mm (one step's travel minus the gap)."""
    sim, q, v, half = drop(shape, mass, 0.0155, restitution=restitution)
    heights, touched = [], None
    for k in range(200):
        q, v = sim.step(q, v, np.zeros(6))
        heights.append(q[2] - half)
        if touched is None and sim.contacts.size and sim.impulses[2::3].max() > 0.0:
            touched = k
            assert q[2] - half > -1e-6
            if restitution is None:
                assert q[2] - half == pytest.approx(0.0, abs=1e-6)  # the gap closed exactly
                assert abs(v[2] + 0.0055 / DT) < 0.05  # the step's velocity is the gap over dt
        if touched is not None and k > touched:
            assert v[2] <= 1e-9  # never moving up
    assert touched == 1  # the step after the first one: 15.5 mm - 10 mm = 5.5 mm, within 10 mm of travel
    assert min(heights) > -1e-6
    assert heights[-1] == pytest.approx(0.0, abs=1e-6)
    assert np.abs(v).max() < 1e-9
    sim, q, v, half = drop(shape, mass, 0.0155, restitution=restitution, speculative=False)
    deepest = 0.0
    for _ in range(3):
        q, v = sim.step(q, v, np.zeros(6))
        deepest = min(deepest, q[2] - half)
    assert deepest < -4e-3  # the margin alone: the contact is found 4.5 mm deep


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_resting_box_is_unchanged(solver):
    """The box at rest, then pushed at 1.1 mu m g (the simulator's first test scene): 300 steps with and without
    speculation are bit-identical (the free fall of a resting box, g dt^2 = 1e-5 m, adds no contact)."""
    runs = []
    for speculative in (True, False):
        model, cm = rbda.Model(), GeometryModel()
        add_free_body(model, cm, "body", Box((0.2, 0.2, 0.2)), 10.0)
        add_ground_plane(model, cm)
        sim = Simulator(model, cm, DT, solver=solver, mu=0.4, solver_options=TIGHT, speculative=speculative)
        q = rbda.neutral(model)
        q[2] = 0.1
        taus = np.zeros((300, 6))
        taus[150:, 0] = 1.1 * 0.4 * 10.0 * 9.81
        runs.append(sim.rollout(q, np.zeros(6), taus))
        assert sim.contacts.size == 4
    np.testing.assert_array_equal(runs[0][0], runs[1][0])
    np.testing.assert_array_equal(runs[0][1], runs[1][1])


def _corners(size):
    h = np.asarray(size) / 2
    return np.array([[sx * h[0], sy * h[1], sz * h[2]] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])


def test_speed_bound_holds_every_point():
    """Two free boxes and a sphere tumbling at random velocities (20 draws), each against the ground and the others:
    every pair's bound is at least the speed of each point of its second object (box corners, sphere surface
    points) relative to the first object's rigid motion, measured by finite differences of the placements along
    ``integrate(q, eps v)`` (against the ground: the speed at which the point approaches it, ``-z'``); with
    translations only (the first draw) it equals that speed (1e-6)."""
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "a", Box((0.3, 0.2, 0.1)), 2.0)
    add_free_body(model, cm, "b", Box((0.1, 0.1, 0.4)), 1.0)
    add_free_body(model, cm, "c", Sphere(0.15), 1.0)
    add_ground_plane(model, cm)
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        cm.add_collision_pair(i, j)
    sim = Simulator(model, cm, DT)
    rng = np.random.default_rng(3)
    sphere_points = rng.normal(size=(50, 3))
    sphere_points *= 0.15 / np.linalg.norm(sphere_points, axis=1)[:, None]
    local = [_corners((0.3, 0.2, 0.1)), _corners((0.1, 0.1, 0.4)), sphere_points, np.zeros((0, 3))]
    data = model.create_data()
    eps = 1e-7

    def placements(qq):
        rbda.forward_kinematics(model, data, qq)
        return [data.oMi[g.parent_joint].act(g.placement) for g in cm.geometry_objects]

    approaching = 0
    for trial in range(20):
        q = rbda.integrate(model, rbda.neutral(model), rng.normal(size=model.nv))
        v = rng.normal(size=model.nv) * 3.0
        if trial == 0:
            v[[3, 4, 5, 9, 10, 11, 15, 16, 17]] = 0.0  # translations only
        stages.kinematics(sim, q, v, np.zeros(model.nv), None)
        before, after = placements(q), placements(rbda.integrate(model, q, eps * v))
        R = np.array([M.rotation for M in before])
        bound = pair_speed_bounds(sim, v[None], R, np.array([M.translation for M in before]))
        for index, (i, j) in enumerate(cm.collision_pairs):
            second = j if len(local[j]) else i  # the ground is unbounded: the other object's points
            first = i if second == j else j
            x0 = local[second] @ before[second].rotation.T + before[second].translation
            x1 = local[second] @ after[second].rotation.T + after[second].translation
            R0, p0, R1, p1 = before[first].rotation, before[first].translation, after[first].rotation, after[first].translation
            y = ((x0 - p0) @ R0) @ R1.T + p1  # the same world points carried by the first object's motion
            u = (x1 - y) / eps
            speed = np.maximum(-u[:, 2], 0.0) if not len(local[first]) else np.linalg.norm(u, axis=1)
            approaching += speed.max() > 0.1
            assert bound[index] >= speed.max() - 1e-5
            if trial == 0:
                assert bound[index] == pytest.approx(speed.max(), rel=1e-6, abs=1e-12)
    assert approaching > 60  # most draws approach the ground


def test_compute_contacts_takes_one_margin_per_pair():
    """compute_contacts with one margin per pair keeps each pair's contacts within its own margin (a sphere 5 mm
    above the ground: kept at 6 mm, not at 4 mm), and rejects a margin of another size, negative or NaN."""
    from rbda.simulation import compute_contacts

    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "a", Sphere(0.1), 1.0)
    add_free_body(model, cm, "b", Sphere(0.1), 1.0)
    add_ground_plane(model, cm)
    placements = [(np.eye(3), np.array([0.0, 0.0, 0.105])), (np.eye(3), np.array([1.0, 0.0, 0.105])),
                  (np.eye(3), np.zeros(3))]
    friction = np.full(3, 0.5)
    pairs = [tuple(p) for p in cm.collision_pairs]
    margins = np.array([6e-3 if pairs[k] in ((2, 0), (0, 2)) else 4e-3 for k in range(len(pairs))])
    cs = compute_contacts(cm, placements, friction, margins)
    assert cs.size == 1 and set(cs.pairs[0]) == {0, 2} and cs.distances[0] == pytest.approx(5e-3, abs=1e-15)
    assert compute_contacts(cm, placements, friction, 4e-3).size == 0
    for bad in (np.zeros(len(pairs) + 1), -1e-3, np.nan):
        with pytest.raises(ValueError, match="margin"):
            compute_contacts(cm, placements, friction, bad)
