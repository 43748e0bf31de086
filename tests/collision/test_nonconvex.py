"""Non-convex meshes through coal: a torus (where its convex hull gives a wrong answer) against coal's triangle
hierarchy built here directly and against the torus's geometry; wired into the geometry functions; the errors."""

import sys

import numpy as np
import pytest

import rbda
from rbda.collision import (GeometryData, NonConvexMesh, compute_collision, compute_collisions, compute_distance,
                            compute_distances, distance)
from rbda.io import GeometryModel, GeometryObject
from rbda.model.geometry import Mesh, Sphere

coal = pytest.importorskip("coal")
trimesh = pytest.importorskip("trimesh")

URDF = """<robot name="slider"><link name="base"/>
  <link name="ball"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link><joint name="x" type="prismatic"><parent link="base"/><child link="ball"/><axis xyz="1 0 0"/>
  <limit lower="-3" upper="3" effort="1" velocity="1"/></joint></robot>"""
R, r, BALL = 1.0, 0.3, 0.1  # torus radii (about z), ball radius


@pytest.fixture(scope="module")
def torus_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("meshes") / "torus.stl"
    trimesh.creation.torus(R, r, major_sections=96, minor_sections=48).export(path)
    return str(path)


def _coal_direct(path, M_ball):
    mesh = trimesh.load(path, force="mesh")
    bvh = coal.BVHModelOBBRSS()
    bvh.beginModel(len(mesh.faces), len(mesh.vertices))
    bvh.addVertices(np.asarray(mesh.vertices, dtype=float))
    bvh.addTriangles(np.asarray(mesh.faces))
    bvh.endModel()
    req, res = coal.DistanceRequest(), coal.DistanceResult()
    return coal.distance(bvh, coal.Transform3s(), coal.Sphere(BALL), coal.Transform3s(np.eye(3), M_ball[:, 3]), req,
                         res)


def test_torus_distance_against_coal_and_geometry(torus_file):
    """A ball at (x, 0, 0): its distance to the solid torus's surface is |x - R| - r - BALL outside the tube;
    the convex hull (a disc-like solid) contains the ball near the centre and gives a negative distance."""
    for x in (0.0, 0.3, 0.5, 1.6, 2.0):
        M = np.hstack([np.eye(3), [[x], [0.0], [0.0]]])
        exact = abs(x - R) - r - BALL
        ours = distance(NonConvexMesh(torus_file), np.hstack([np.eye(3), np.zeros((3, 1))]), Sphere(BALL), M)
        assert ours.min_distance == pytest.approx(_coal_direct(torus_file, M), abs=1e-9)
        assert ours.min_distance == pytest.approx(exact, abs=2e-3)  # the mesh's facets are within 2 mm
        np.testing.assert_allclose(ours.nearest_points[1], ours.nearest_points[0] + ours.min_distance * ours.normal,
                                   atol=1e-9)
        hull = distance(Mesh(torus_file), np.hstack([np.eye(3), np.zeros((3, 1))]), Sphere(BALL), M).min_distance
        if x < 0.6:
            assert hull < 0 < ours.min_distance  # the hull says collision, the torus does not


def test_geometry_functions_route_the_mesh_pairs_to_coal(torus_file):
    model = rbda.load_model_from_string(URDF)
    gm = GeometryModel()
    gm.add_geometry_object(GeometryObject("torus", 0, 0, rbda.SE3(), NonConvexMesh(torus_file)))
    gm.add_geometry_object(GeometryObject("ball", 1, 0, rbda.SE3(), Sphere(BALL)))
    gm.add_geometry_object(GeometryObject("far", 1, 0, rbda.SE3(np.eye(3), [0.0, 0.0, 5.0]), Sphere(BALL)))
    gm.add_geometry_object(GeometryObject("post", 0, 0, rbda.SE3(np.eye(3), [0.0, 3.0, 0.0]), Sphere(BALL)))
    gm.add_all_collision_pairs()
    data, gd = model.create_data(), GeometryData(gm)
    assert gm.collision_pairs[:2] == [(0, 1), (0, 2)] and list(gd.packed.nonconvex_pairs) == [0, 1]
    for x in (0.0, 0.5, 0.65, 1.0, 1.6):
        M = np.hstack([np.eye(3), [[x], [0.0], [0.0]]])
        best = compute_distances(model, data, gm, gd, [x])
        assert gd.distances[0] == pytest.approx(_coal_direct(torus_file, M), abs=1e-9)
        assert best == int(np.argmin(gd.distances))
        hit = compute_collisions(model, data, gm, gd, [x])
        assert hit == (gd.collisions[0]) == (_coal_direct(torus_file, M) < 0)
        assert compute_collision(gm, gd, 0) == hit
        assert compute_distance(gm, gd, 0).min_distance == pytest.approx(gd.distances[0], abs=1e-12)
    with pytest.raises(ValueError, match="NonConvexMesh"):
        rbda.batch.compute_distances(model, gm, [[0.0]])


def test_missing_coal_names_the_extra(torus_file, monkeypatch):
    monkeypatch.setitem(sys.modules, "coal", None)
    M = np.hstack([np.eye(3), np.zeros((3, 1))])
    with pytest.raises(ImportError, match=r"rbda\[coal\]"):
        distance(NonConvexMesh(torus_file), M, Sphere(BALL), M)
