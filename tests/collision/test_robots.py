"""Self-collision and distances of real robots (example-robot-data's panda, talos, solo12, ur5 with their meshes
and SRDF) against Pinocchio's computeCollisions / computeDistances with coal, meshes as convex hulls on both
sides, along random configurations."""

import sys
from pathlib import Path

import numpy as np
import pytest
from scipy.spatial import ConvexHull

import rbda
from rbda.collision import GeometryData, compute_collision, compute_collisions, compute_distance, compute_distances
from rbda.io import GeometryType, build_geom_from_urdf, build_model_from_urdf, remove_collision_pairs

sys.path.insert(0, str(Path(__file__).parents[1] / "io"))
from urdf_samples import robots_dir, share_dir  # noqa: E402

pin = pytest.importorskip("pinocchio")
coal = pytest.importorskip("coal")

ROBOTS = {
    "panda": ("panda_description/urdf/panda.urdf", "panda_description/srdf/panda.srdf", False),
    "talos": ("talos_data/robots/talos_reduced.urdf", "talos_data/srdf/talos.srdf", True),
    "solo12": ("solo_description/robots/solo12.urdf", "solo_description/srdf/solo.srdf", True),
    "ur5": ("ur_description/urdf/ur5_robot.urdf", "ur_description/srdf/ur5.srdf", False),
}


def load(name):
    """rbda's and Pinocchio's model and collision model with every pair but the SRDF's disabled ones, Pinocchio's
    meshes replaced by their convex hulls."""
    urdf, srdf, free = ROBOTS[name]
    urdf, srdf = str(robots_dir() / urdf), str(robots_dir() / srdf)
    model = build_model_from_urdf(urdf, rbda.JointModelFreeFlyer() if free else None)
    gm = build_geom_from_urdf(model, urdf, GeometryType.COLLISION, package_dirs=[str(share_dir())])
    gm.add_all_collision_pairs()
    remove_collision_pairs(model, gm, srdf)
    pm = pin.buildModelFromUrdf(urdf, pin.JointModelFreeFlyer()) if free else pin.buildModelFromUrdf(urdf)
    if free:  # finite limits for the free flyer's position, so that random configurations exist
        pm.lowerPositionLimit[:3], pm.upperPositionLimit[:3] = -1.0, 1.0
    pg = pin.buildGeomFromUrdf(pm, urdf, pin.GeometryType.COLLISION, package_dirs=[str(share_dir())])
    pg.addAllCollisionPairs()
    pin.removeCollisionPairs(pm, pg, srdf, False)
    for go in pg.geometryObjects:  # coal's own hull (buildConvexRepresentation) keeps the mesh's inner points,
        if isinstance(go.geometry, coal.BVHModelBase):  # on which its support search can stop: the hull's corners
            points = np.array(go.geometry.vertices())
            hull = coal.StdVec_Vec3s()
            hull.extend(list(points[ConvexHull(points).vertices]))
            go.geometry = coal.Convex.convexHull(hull, False, "")
    return model, gm, pm, pg


@pytest.mark.parametrize("name", list(ROBOTS))
def test_against_pinocchio(name):
    model, gm, pm, pg = load(name)
    data, gd = model.create_data(), GeometryData(gm)
    pd, pgd = pm.createData(), pin.GeometryData(pg)
    for req in list(pgd.distanceRequests) + list(pgd.collisionRequests):  # coal's GJK to 1e-10, not 1e-6
        req.gjk_tolerance = 1e-10
    theirs = {(p.first, p.second): k for k, p in enumerate(pg.collisionPairs)}
    order = [theirs[p] for p in gm.collision_pairs]
    assert sorted(order) == list(range(len(pg.collisionPairs)))
    rng = np.random.default_rng(0)
    ncollide = 0
    for _ in range(20):
        q = pin.randomConfiguration(pm)  # same layout in rbda
        anything = compute_collisions(model, data, gm, gd, q)
        assert anything == pin.computeCollisions(pm, pd, pg, pgd, q, False)
        compute_distances(model, data, gm, gd, q)
        pin.computeDistances(pm, pd, pg, pgd, q)
        for k in range(gm.ngeoms):
            np.testing.assert_allclose(gd.oMg.array[k, :, :3], pgd.oMg[k].rotation, atol=1e-12)
            np.testing.assert_allclose(gd.oMg.array[k, :, 3], pgd.oMg[k].translation, atol=1e-12)
        d_theirs = np.array([pgd.distanceResults[k].min_distance for k in order])
        c_theirs = np.array([pgd.collisionResults[k].isCollision() for k in order])
        np.testing.assert_allclose(gd.distances, d_theirs, rtol=1e-6, atol=1e-6)
        touching = np.abs(d_theirs) < 1e-6
        assert np.array_equal(gd.collisions[~touching], c_theirs[~touching])
        ncollide += int(c_theirs.sum())
        k = int(rng.integers(len(order)))  # one pair alone
        assert compute_distance(gm, gd, k).min_distance == pytest.approx(d_theirs[k], rel=1e-6, abs=1e-6)
        assert compute_collision(gm, gd, k) == (d_theirs[k] < 0)
    print(f"{name}: {len(order)} pairs, {ncollide} colliding pair-configurations over 20 configurations")
