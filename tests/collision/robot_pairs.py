"""Shared by the collision tests of real robots: example-robot-data's panda, talos, solo12 and ur5 with their
collision meshes and SRDF, as rbda and as Pinocchio + coal load them."""

import numpy as np
import pytest
from scipy.spatial import ConvexHull

import rbda
from rbda.io import GeometryType, build_geom_from_urdf, build_model_from_urdf, remove_collision_pairs
from tests.io.urdf_samples import robots_dir, share_dir

ROBOTS = {name: rbda.io.robots.ROBOTS[name] for name in ("panda", "talos", "solo12", "ur5")}  # (urdf, srdf, free)


def load(name):
    """rbda's and Pinocchio's model and collision model with every pair but the SRDF's disabled ones, Pinocchio's
    meshes replaced by their convex hulls (a skip without Pinocchio or coal)."""
    pin = pytest.importorskip("pinocchio")
    coal = pytest.importorskip("coal")
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
