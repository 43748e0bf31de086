"""Shared helpers of the collision tests: random shapes and placements, and their coal twins (the oracle)."""

import numpy as np

from rbda.collision.shapes import Cone, Convex, Ellipsoid, Halfspace, Plane
from rbda.model.geometry import Box, Capsule, Cylinder, Sphere

KINDS = ["sphere", "capsule", "box", "cylinder", "cone", "ellipsoid", "convex", "halfspace", "plane"]


def random_shape(kind, rng):
    s = lambda: rng.uniform(0.1, 1.0)  # noqa: E731
    if kind == "sphere":
        return Sphere(s())
    if kind == "capsule":
        return Capsule(s(), 2 * s())
    if kind == "box":
        return Box((2 * s(), 2 * s(), 2 * s()))
    if kind == "cylinder":
        return Cylinder(s(), 2 * s())
    if kind == "cone":
        return Cone(s(), 2 * s())
    if kind == "ellipsoid":
        return Ellipsoid((s(), s(), s()))
    if kind == "convex":
        return Convex(rng.normal(size=(int(rng.integers(8, 40)), 3)) * rng.uniform(0.2, 0.8, size=3))
    n = rng.normal(size=3)
    return (Halfspace if kind == "halfspace" else Plane)(tuple(n / np.linalg.norm(n)), rng.uniform(-0.3, 0.3))


def random_rotation(rng):
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                     [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                     [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def to_coal(shape, packed_vertices):
    """coal's twin of ``shape`` (a polytope: the hull of its packed vertices)."""
    from rbda.collision.nonconvex import coal_geometry

    return coal_geometry(shape, packed_vertices)


def coal_distance(g1, M1, g2, M2, epa_tolerance=1e-8, gjk_tolerance=1e-12):
    """coal's signed distance, witness points and normal, GJK run to ``gjk_tolerance`` (coal's EPA fails more
    often when its tolerance is below 1e-8)."""
    import coal

    req, res = coal.DistanceRequest(), coal.DistanceResult()
    req.gjk_tolerance, req.epa_tolerance = gjk_tolerance, epa_tolerance
    req.gjk_max_iterations, req.epa_max_iterations = 1000, 1000
    d = coal.distance(g1, coal.Transform3s(M1[:, :3], M1[:, 3]), g2, coal.Transform3s(M2[:, :3], M2[:, 3]), req, res)
    return d, res.getNearestPoint1(), res.getNearestPoint2(), res.normal
