"""Contacts of two bounded shapes (simulation/pair_kernels.py): a box resting on a fixed box (a patch of four points,
total normal impulse m g dt, no motion), a box sliding on a box (decelerates at mu g), and the patch's points and
distances against the geometry by hand."""

import numpy as np
import pytest

import rbda
from rbda.io import Box, Capsule, GeometryModel, GeometryObject, Sphere
from rbda.simulation import Simulator, add_free_body
from rbda.simulation.contacts import pair_contacts
from rbda.model.meshes import convex_hull
from rbda.simulation.pair_kernels import clip_polygon, hull_faces

G0 = 9.81
TIGHT = dict(max_iter=5000, absolute_feasibility_tol=1e-12, relative_feasibility_tol=1e-12,
             absolute_complementarity_tol=1e-14, relative_complementarity_tol=1e-12)


def box_on_box(side, mass, mu, solver="admm", dt=1e-3):
    """A free cube of ``side`` on a fixed 2 x 2 x 0.5 box whose top is z = 0."""
    model, cm = rbda.Model(), GeometryModel()
    cm.add_geometry_object(GeometryObject("table", 0, 0, rbda.SE3(np.eye(3), [0.0, 0.0, -0.25]), Box((2.0, 2.0, 0.5))))
    add_free_body(model, cm, "body", Box((side, side, side)), mass)
    sim = Simulator(model, cm, dt, solver=solver, mu=mu, solver_options=TIGHT)
    q = rbda.neutral(model)
    q[2] = side / 2
    return sim, q, np.zeros(6)


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_box_rests_on_a_box(solver):
    m, dt = 10.0, 1e-3
    sim, q, v = box_on_box(0.2, m, 0.4, solver, dt)
    _, v1 = sim.step(q, v, np.zeros(6))
    assert sim.contacts.size == 4  # a patch: the four corners of the bottom face
    np.testing.assert_allclose(np.sort(np.abs(sim.contacts.points[:, :2]), axis=0), 0.1, atol=1e-9)
    np.testing.assert_allclose(sim.contacts.distances, 0.0, atol=1e-9)
    assert sim.impulses[2::3].sum() == pytest.approx(m * G0 * dt, rel=1e-8)
    assert np.abs(v1).max() < 1e-9
    Q, V = sim.rollout(q, v, np.zeros((100, 6)))  # stays at rest
    assert np.abs(V).max() < 1e-9 and np.abs(Q[-1] - q).max() < 1e-9


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_box_slides_on_a_box_at_mu_g(solver):
    mu, v0, dt = 0.5, 1.0, 1e-3
    sim, q, v = box_on_box(0.1, 1.0, mu, solver, dt)
    v[0] = v0
    Q, V = sim.rollout(q, v, np.zeros((260, 6)))
    still_sliding = V[1:, 0] > 1e-9
    decel = -np.diff(V[:, 0])[still_sliding]
    assert still_sliding.sum() > 150
    np.testing.assert_allclose(decel, mu * G0 * dt, rtol=1e-6)
    assert Q[-1, 0] == pytest.approx(v0**2 / (2 * mu * G0), abs=v0 * dt)
    assert np.abs(V[-1]).max() < 1e-9 and abs(Q[-1, 2] - 0.05) < 1e-6


def _placed(R, p):
    return (np.asarray(R, dtype=float), np.asarray(p, dtype=float))


def test_patch_of_a_small_box_rotated_on_a_big_one():
    """A 0.2 cube turned 30 degrees about z, 1 mm into a big box: four contacts at its rotated bottom corners,
    each 1 mm deep, normal +z; shifted over the big box's edge, only the corners still above it remain, plus the
    points where the small box's bottom face crosses the edge."""
    c, s = np.cos(np.pi / 6), np.sin(np.pi / 6)
    Rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])
    big, small = Box((2.0, 2.0, 0.5)), Box((0.2, 0.2, 0.2))
    M_big, M_small = _placed(np.eye(3), [0, 0, -0.25]), _placed(Rz, [0.0, 0.0, 0.099])
    contacts = pair_contacts(big, M_big, small, M_small, 0.0)
    corners = np.array([Rz @ [sx * 0.1, sy * 0.1, -0.1] + [0, 0, 0.099] for sx in (-1, 1) for sy in (-1, 1)])
    assert len(contacts) == 4
    for d, p1, p2, n in contacts:
        assert d == pytest.approx(-1e-3, abs=1e-12) and np.allclose(n, [0, 0, 1], atol=1e-12)
        assert np.min(np.linalg.norm(corners - p2, axis=1)) < 1e-12 and p1[2] == pytest.approx(0.0, abs=1e-12)
    M_edge = _placed(Rz, [1.0, 0.0, 0.099])  # centred on the big box's edge x = 1
    contacts = pair_contacts(big, M_big, small, M_edge, 0.0)
    points = np.array([p2 for _, _, p2, _ in contacts])
    assert np.all(points[:, 0] <= 1.0 + 1e-12) and len(contacts) == 4  # two corners inside, two on the edge
    assert np.sum(np.isclose(points[:, 0], 1.0, atol=1e-12)) == 2


def test_single_point_pairs_and_faces():
    ball, capsule, box = Sphere(0.1), Capsule(0.05, 0.4), Box((1.0, 1.0, 1.0))
    (d, p1, p2, n), = pair_contacts(box, _placed(np.eye(3), [0, 0, 0]), ball, _placed(np.eye(3), [0, 0, 0.59]), 0.0)
    assert d == pytest.approx(-0.01, abs=1e-12) and np.allclose(n, [0, 0, 1]) and np.allclose(p2, [0, 0, 0.49])
    assert pair_contacts(box, _placed(np.eye(3), [0, 0, 0]), ball, _placed(np.eye(3), [0, 0, 0.7]), 0.0) == []
    lying = _placed(np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0.0]]), [0, 0, 0.549])  # axis along x, 1 mm in
    contacts = pair_contacts(capsule, lying, box, _placed(np.eye(3), [0, 0, 0]), 0.0)
    assert len(contacts) == 2  # its axis's two ends, each 1 mm deep, normal -z (from the capsule to the box)
    for d, p1, p2, n in contacts:
        assert d == pytest.approx(-1e-3, abs=1e-12) and np.allclose(n, [0, 0, -1])
    assert sorted(p2[0] for _, _, p2, _ in contacts) == pytest.approx([-0.2, 0.2], abs=1e-12)
    corners = np.array([[sx, sy, sz] for sx in (-0.5, 0.5) for sy in (-0.5, 0.5) for sz in (-0.5, 0.5)])
    faces = hull_faces(corners, convex_hull(corners).faces)
    assert len(faces) == 6 and all(len(P) == 4 and np.allclose(P @ n, 0.5) for n, P in faces)
    for n, P in faces:  # counter-clockwise about the outward normal
        assert all(np.cross(P[k] - P[k - 1], P[(k + 1) % 4] - P[k]) @ n > 0 for k in range(4))
    square = np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0.0]])
    out = np.empty((8, 3))
    m = clip_polygon(square, 4, (0.5, 0.0, 0.0), (-1.0, 0.0, 0.0), out)
    np.testing.assert_allclose(out[:m], [[0, 0, 0], [0.5, 0, 0], [0.5, 1, 0], [0, 1, 0]])
