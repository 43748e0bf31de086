"""Batched distances/collisions against Pinocchio + coal state by state; degenerate configurations by hand;
bad input named in the error."""

import numpy as np
import pytest

import rbda
from rbda.collision import (Cone, Convex, DistanceRequest, Ellipsoid, GeometryData, Halfspace, Plane,
                            compute_distance, compute_distances, distance, update_geometry_placements)
from rbda.io import GeometryModel, GeometryObject, ModelFileError
from rbda.model.geometry import Box, Capsule, Cylinder, Mesh, Sphere

from robot_pairs import load


@pytest.mark.parametrize("name", ["panda", "ur5"])
def test_batch_against_pinocchio(name):
    pin = pytest.importorskip("pinocchio")
    model, gm, pm, pg = load(name)
    pd, pgd = pm.createData(), pin.GeometryData(pg)
    for req in list(pgd.distanceRequests) + list(pgd.collisionRequests):
        req.gjk_tolerance = 1e-10
    theirs = {(p.first, p.second): k for k, p in enumerate(pg.collisionPairs)}
    order = [theirs[p] for p in gm.collision_pairs]
    Q = np.stack([pin.randomConfiguration(pm) for _ in range(40)])
    D, C = rbda.batch.compute_distances(model, gm, Q), rbda.batch.compute_collisions(model, gm, Q)
    assert D.shape == (40, len(order)) and C.shape == (40,) and C.dtype == bool
    for b in range(40):
        pin.computeDistances(pm, pd, pg, pgd, Q[b])
        np.testing.assert_allclose(D[b], [pgd.distanceResults[k].min_distance for k in order], rtol=1e-6, atol=1e-6)
        assert C[b] == pin.computeCollisions(pm, pd, pg, pgd, Q[b], True)
    assert 0 < C.sum() < 40  # both outcomes occur
    out_d, out_c = np.empty_like(D), np.empty_like(C)
    assert rbda.batch.compute_distances(model, gm, Q, out=out_d) is out_d and np.array_equal(out_d, D)
    assert rbda.batch.compute_collisions(model, gm, Q, out=out_c) is out_c and np.array_equal(out_c, C)


def test_batch_errors():
    model, gm, _, _ = load("ur5")
    Q = np.zeros((3, model.nq))
    Q[1, 2] = np.nan
    with pytest.raises(ValueError, match="state 1: Q"):
        rbda.batch.compute_distances(model, gm, Q)
    with pytest.raises(ValueError, match="Q"):
        rbda.batch.compute_collisions(model, gm, np.zeros((3, model.nq + 1)))
    with pytest.raises(ValueError, match="out"):
        rbda.batch.compute_collisions(model, gm, np.zeros((3, model.nq)), out=np.zeros(3))


I = np.hstack([np.eye(3), np.zeros((3, 1))])


def at(x, y, z, R=np.eye(3)):
    return np.hstack([R, [[x], [y], [z]]])


@pytest.mark.parametrize("request_", [DistanceRequest(), DistanceRequest("nesterov")])
def test_degenerate_cases(request_):
    """Touching, parallel faces, a point inside a face, coincident shapes: finite and textbook values."""
    unit = Box((1.0, 1.0, 1.0))
    for gap in (0.5, 1e-9, 0.0, -1e-9, -0.25):  # parallel faces, aligned and shifted sideways
        for dy in (0.0, 0.3):
            r = distance(unit, I, unit, at(1.0 + gap, dy, 0.0), request_)
            assert np.isfinite(r.min_distance) and np.all(np.isfinite(r.nearest_points))
            assert r.min_distance == pytest.approx(gap, abs=1e-9)
            np.testing.assert_allclose(r.normal, [1, 0, 0], atol=1e-6)
    r = distance(unit, I, unit, I, request_)  # coincident: depth = a full side
    assert r.min_distance == pytest.approx(-1.0, abs=1e-9) and np.all(np.isfinite(r.normal))
    r = distance(Sphere(0.5), I, Sphere(0.25), I, request_)  # concentric spheres
    assert r.min_distance == pytest.approx(-0.75) and np.linalg.norm(r.normal) == pytest.approx(1)
    # a vertex touching a face's interior: a cube turned on its corner above a box
    R = rbda.SE3.Random(np.random.default_rng(1)).rotation
    low = -min((R @ np.array([sx, sy, sz]))[2] * 0.5 for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1))
    r = distance(Box((4.0, 4.0, 1.0)), I, unit, at(0.1, 0.2, 0.5 + low, R), request_)  # its lowest corner on top
    assert r.min_distance == pytest.approx(0.0, abs=1e-9)
    np.testing.assert_allclose(r.normal, [0, 0, 1], atol=1e-6)
    # capsules: parallel axes, crossing axes
    r = distance(Capsule(0.1, 1.0), I, Capsule(0.2, 2.0), at(0.5, 0.0, 0.3), request_)
    assert r.min_distance == pytest.approx(0.2)
    r = distance(Capsule(0.1, 1.0), I, Capsule(0.1, 1.0), I, request_)
    assert r.min_distance == pytest.approx(-0.2) and np.all(np.isfinite(r.normal))
    # a half-space and a plane
    r = distance(Cylinder(0.5, 1.0), at(0, 0, 0.4), Halfspace((0, 0, 1), 0.0), I, request_)
    assert r.min_distance == pytest.approx(-0.1) and np.allclose(r.normal, [0, 0, -1])
    r = distance(Plane((0, 0, 2), 0.0), I, Ellipsoid((0.1, 0.2, 0.3)), at(0, 0, -0.2), request_)
    assert r.min_distance == pytest.approx(-0.1) and np.allclose(r.normal, [0, 0, -1])  # push it down
    r = distance(Cone(0.5, 1.0), I, Sphere(0.1), at(0, 0, 0.7), request_)  # the apex under a sphere
    assert r.min_distance == pytest.approx(0.1)


def _geometry(shape, name="thing"):
    gm = GeometryModel()
    gm.add_geometry_object(GeometryObject(name, 0, 0, rbda.SE3(), shape))
    gm.add_geometry_object(GeometryObject("other", 0, 0, rbda.SE3(), Sphere(1.0)))
    gm.add_collision_pair(0, 1)
    return gm


@pytest.mark.parametrize("shape, message", [
    (Sphere(0.0), "'thing'.*radius"), (Box((1.0, -1.0, 1.0)), "'thing'.*box sides"),
    (Capsule(0.1, 0.0), "'thing'.*length"), (Ellipsoid((1.0, np.nan, 1.0)), "'thing'.*radii"),
    (Cone(-1.0, 1.0), "'thing'.*radius"), (Halfspace((0, 0, 0)), "'thing'.*normal"),
    (Convex(np.zeros((5, 3))), "'thing'.*plane"),
])
def test_bad_shapes_name_the_geometry(shape, message):
    with pytest.raises(ValueError, match=message):
        GeometryData(_geometry(shape))


def test_collision_shapes_on_geometry_objects():
    assert _geometry(Cone(1.0, 1.0)).geometry_objects[0].mesh_path == "CONE"
    assert _geometry(Box((1.0, 1.0, 1.0))).geometry_objects[0].mesh_path == "BOX"


def test_bad_mesh_files_name_the_file(tmp_path):
    with pytest.raises(ModelFileError, match="missing.stl"):
        GeometryData(_geometry(Mesh(str(tmp_path / "missing.stl"))))
    (tmp_path / "empty.stl").write_text("")
    with pytest.raises(ModelFileError, match="empty.stl"):
        GeometryData(_geometry(Mesh(str(tmp_path / "empty.stl"))))


def test_bad_placements_and_pairs():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    gm = _geometry(Box((1.0, 1.0, 1.0)))
    gd = GeometryData(gm)
    q = rbda.neutral(model)
    q[0] = np.nan
    with pytest.raises(ValueError, match="q"):
        compute_distances(model, data, gm, gd, q)
    bad = GeometryModel()
    bad.add_geometry_object(GeometryObject("nan_placed", 0, 0, rbda.SE3(), Sphere(1.0)))
    bad.geometry_objects[0].placement.translation[0] = np.nan
    with pytest.raises(ValueError, match="'nan_placed'.*not finite"):
        update_geometry_placements(model, data, bad, GeometryData(bad))
    with pytest.raises(ValueError, match="pair_index: 3"):
        compute_distance(gm, gd, 3)
    with pytest.raises(ValueError, match="placement2.*non-finite"):
        distance(Sphere(1.0), I, Sphere(1.0), np.full((3, 4), np.nan))
    with pytest.raises(ValueError, match="unbounded"):
        distance(Plane((0, 0, 1)), I, Halfspace((0, 0, 1)), I)
    with pytest.raises(ValueError, match="geom_data"):
        compute_distances(model, data, _geometry(Sphere(2.0)), gd)
    with pytest.raises(ValueError, match="gjk_variant"):
        distance(Sphere(1.0), I, Sphere(1.0), at(3, 0, 0), DistanceRequest("fast"))
