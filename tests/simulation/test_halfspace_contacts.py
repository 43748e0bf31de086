"""A half-space against a cone, an ellipsoid and a convex polytope (simulation/halfspace_contacts.py): the closed
forms against the shapes' own geometry (the witness on the surface, its normal, the lowest of many surface
points), against coal's signed distance, and a resting ellipsoid and cone in the simulator (impulse m g dt, the
next velocity zero)."""

import numpy as np
import pytest

import rbda
from rbda.collision.shapes import Cone, Convex, Ellipsoid
from rbda.io import GeometryModel, GeometryObject, Halfspace
from rbda.simulation import Simulator, add_ground_plane
from rbda.simulation.contacts import bounding_radius, pair_contacts

G0, DT = 9.81, 1e-3


def random_rotation(rng):
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q


def random_plane(rng):
    n = rng.normal(size=3)
    return Halfspace(tuple(n), float(rng.normal(scale=0.1))), random_rotation(rng), rng.normal(scale=0.1, size=3)


def world_plane(plane, R, p):
    n = R @ (np.asarray(plane.normal) / np.linalg.norm(plane.normal))
    return n, plane.offset + n @ p


def test_ellipsoid_lowest_point():
    """50 random ellipsoids and planes: the contact's witness lies on the ellipsoid (``|A^-1 R^T (x - c)| = 1``),
    the ellipsoid's outward normal there is ``-n``, its distance is the lowest of 20000 surface points (within
    their sampling error) and equals coal's signed distance (1e-9); the witness on the plane is on the plane."""
    coal = pytest.importorskip("coal")
    rng = np.random.default_rng(0)
    u = rng.normal(size=(20000, 3))
    u /= np.linalg.norm(u, axis=1)[:, None]
    for _ in range(50):
        plane, R1, p1 = random_plane(rng)
        radii = rng.uniform(0.02, 0.3, size=3)
        R, c = random_rotation(rng), rng.normal(scale=0.2, size=3)
        n, offset = world_plane(plane, R1, p1)
        (d, x1, x2, normal), = pair_contacts(plane, (R1, p1), Ellipsoid(tuple(radii)), (R, c), np.inf)
        np.testing.assert_allclose(normal, n, atol=1e-15)
        assert np.linalg.norm((R.T @ (x2 - c)) / radii) == pytest.approx(1.0, abs=1e-12)
        outward = R @ ((R.T @ (x2 - c)) / radii ** 2)
        np.testing.assert_allclose(outward / np.linalg.norm(outward), -n, atol=1e-10)
        heights = (c + (u * radii) @ R.T) @ n - offset
        assert d <= heights.min() + 1e-12 and heights.min() - d < 1e-3 * radii.max()
        assert n @ x1 - offset == pytest.approx(0.0, abs=1e-12) and d == pytest.approx(n @ x2 - offset, abs=1e-12)
        result = coal.DistanceResult()
        theirs = coal.distance(coal.Halfspace(np.asarray(plane.normal) / np.linalg.norm(plane.normal), plane.offset),
                               coal.Transform3s(R1, p1), coal.Ellipsoid(*radii), coal.Transform3s(R, c),
                               coal.DistanceRequest(), result)
        assert d == pytest.approx(theirs, abs=1e-9)


def cone_surface(rng, radius, length, m=20000):
    """Points of a cone's surface (frame): its base rim every 2 pi / m, its apex, and m random points of its lateral
    surface."""
    a = np.linspace(0, 2 * np.pi, m, endpoint=False)
    rim = np.column_stack([radius * np.cos(a), radius * np.sin(a), np.full(m, -length / 2)])
    t = rng.uniform(0, 1, m)[:, None]  # 0: the rim, 1: the apex
    return np.vstack([rim, (1 - t) * rim[rng.permutation(m)] + t * np.array([0, 0, length / 2]),
                      [[0, 0, length / 2]]])


def test_cone_nearest_points():
    """50 random cones and planes: the deepest contact's distance is the lowest of 20000 surface points (within
    the rim's sampling: 1e-6) and coal's signed distance (1e-9); every contact point is the apex or on the base rim.
    A cone standing on its base gives four rim points at the same distance; lying on its side, its apex and one
    rim point, the generatrix between them on the plane."""
    coal = pytest.importorskip("coal")
    rng = np.random.default_rng(1)
    for _ in range(50):
        plane, R1, p1 = random_plane(rng)
        radius, length = rng.uniform(0.02, 0.2), rng.uniform(0.05, 0.4)
        R, c = random_rotation(rng), rng.normal(scale=0.2, size=3)
        n, offset = world_plane(plane, R1, p1)
        contacts = pair_contacts(plane, (R1, p1), Cone(radius, length), (R, c), np.inf)
        d = min(row[0] for row in contacts)
        heights = (c + cone_surface(rng, radius, length) @ R.T) @ n - offset
        assert d <= heights.min() + 1e-12 and heights.min() - d < 1e-6
        for dist, x1, x2, _ in contacts:
            local = R.T @ (x2 - c)
            assert (np.allclose(local, [0, 0, length / 2], atol=1e-12)
                    or (local[2] == pytest.approx(-length / 2, abs=1e-12)
                        and np.hypot(local[0], local[1]) == pytest.approx(radius, abs=1e-12)))
            assert dist == pytest.approx(n @ x2 - offset, abs=1e-12)
        result = coal.DistanceResult()
        theirs = coal.distance(coal.Halfspace(np.asarray(plane.normal) / np.linalg.norm(plane.normal), plane.offset),
                               coal.Transform3s(R1, p1), coal.Cone(radius, length), coal.Transform3s(R, c),
                               coal.DistanceRequest(), result)
        assert d == pytest.approx(theirs, abs=1e-9)
    ground, identity = Halfspace(), (np.eye(3), np.zeros(3))
    standing = pair_contacts(ground, identity, Cone(0.1, 0.3), (np.eye(3), np.array([0, 0, 0.15])), 1e-3)
    assert len(standing) == 4 and all(abs(row[0]) < 1e-15 for row in standing)
    tilt = np.arctan2(0.1, 0.3)  # the half-angle: a generatrix horizontal
    Ry = np.array([[np.cos(np.pi / 2 + tilt), 0, np.sin(np.pi / 2 + tilt)], [0, 1, 0],
                   [-np.sin(np.pi / 2 + tilt), 0, np.cos(np.pi / 2 + tilt)]])
    lying = pair_contacts(ground, identity, Cone(0.1, 0.3), (Ry, -Ry @ np.array([0, 0, 0.15])), 1e-3)
    assert len(lying) == 2 and max(abs(row[0]) for row in lying) < 1e-12


def test_convex_polytope_and_bounding_radii():
    """A convex polytope (a tetrahedron) on the plane: its vertices within the margin are its contacts; the
    bounding radii of a cone, an ellipsoid and a polytope hold their farthest points."""
    tetra = Convex(np.array([[0.1, 0, -0.05], [-0.05, 0.08, -0.05], [-0.05, -0.08, -0.05], [0, 0, 0.1]]))
    contacts = pair_contacts(Halfspace(), (np.eye(3), np.zeros(3)), tetra, (np.eye(3), np.array([0, 0, 0.05])),
                             1e-3)
    assert len(contacts) == 3 and all(abs(row[0]) < 1e-15 for row in contacts)
    assert bounding_radius(Cone(0.1, 0.3)) == pytest.approx(np.hypot(0.1, 0.15), abs=1e-15)
    assert bounding_radius(Ellipsoid((0.1, 0.3, 0.2))) == 0.3
    assert bounding_radius(tetra) == pytest.approx(np.hypot(0.1, 0.05), abs=1e-15)  # its first vertex


def resting(shape, inertia, placement):
    """A free body of ``shape`` (inertia ``inertia``) on the ground at ``placement`` and its simulator."""
    model, cm = rbda.Model(), GeometryModel()
    joint = model.add_joint(0, rbda.JointModelFreeFlyer(), rbda.SE3.Identity(), "body")
    model.append_body_to_joint(joint, inertia)
    cm.add_geometry_object(GeometryObject("body", joint, 0, rbda.SE3.Identity(), shape))
    add_ground_plane(model, cm)
    sim = Simulator(model, cm, DT, mu=0.5, solver_options=dict(absolute_feasibility_tol=1e-12,
                                                               relative_feasibility_tol=1e-12, max_iter=5000))
    return sim, placement.to_xyzquat()


@pytest.mark.parametrize("case", ["ellipsoid", "cone standing", "cone lying"])
def test_resting_on_the_ground(case):
    """An ellipsoid on its shortest axis, a cone on its base and a cone on its side (a generatrix on the ground,
    its centre of mass above it) at rest: one step's normal impulses sum to ``m g dt`` (1e-8) and the next
    velocity is zero (1e-9)."""
    m = 2.0
    if case == "ellipsoid":
        shape = Ellipsoid((0.1, 0.07, 0.04))
        inertia = rbda.Inertia.FromEllipsoid(m, 0.1, 0.07, 0.04)
        M, points = rbda.SE3(np.eye(3), np.array([0, 0, 0.04])), 1
    else:
        r, L = 0.1, 0.3
        shape = Cone(r, L)
        lever = np.array([0, 0, -L / 4])  # the centre of mass, a quarter of the height above the base
        inertia = rbda.Inertia(m, lever, np.diag([0.0375 * m * L ** 2 + 0.15 * m * r ** 2] * 2 + [0.3 * m * r ** 2]))
        if case == "cone standing":
            M, points = rbda.SE3(np.eye(3), np.array([0, 0, L / 2])), 4
        else:
            a = np.pi / 2 + np.arctan2(r, L)
            Ry = np.array([[np.cos(a), 0, np.sin(a)], [0, 1, 0], [-np.sin(a), 0, np.cos(a)]])
            M, points = rbda.SE3(Ry, -Ry @ np.array([0, 0, L / 2])), 2  # the apex at the origin
    sim, q = resting(shape, inertia, M)
    _, v = sim.step(q, np.zeros(6), np.zeros(6))
    assert sim.contacts.size == points
    assert sim.impulses[2::3].sum() == pytest.approx(m * G0 * DT, rel=1e-8)
    assert np.abs(v).max() < 1e-9
