"""Collision detection and distances between convex shapes and robot geometries, compiled (GJK, EPA, closed
forms, a sweep-and-prune broad phase), with Pinocchio's names: :class:`GeometryData`,
:func:`update_geometry_placements`, :func:`compute_collisions`, :func:`compute_distances`,
:func:`compute_collision`, :func:`compute_distance`; one pair of shapes: :func:`distance`. Meshes enter through
their convex hulls, or, as :class:`NonConvexMesh`, through coal's triangle hierarchy."""

from .distance import DistanceRequest, DistanceResult, distance
from .geometry_data import (CollisionResult, GeometryData, compute_collision, compute_collisions,
                            compute_distance, compute_distances, pack_geometry, update_geometry_placements)
from .shapes import Cone, Convex, Ellipsoid, Halfspace, PackedShapes, Plane, ShapeType, pack_shapes
from .nonconvex import NonConvexMesh

__all__ = [
    "DistanceRequest", "DistanceResult", "distance", "CollisionResult", "GeometryData", "compute_collision",
    "compute_collisions", "compute_distance", "compute_distances", "pack_geometry", "update_geometry_placements",
    "Cone", "Convex", "Ellipsoid", "Halfspace", "PackedShapes", "Plane", "ShapeType", "pack_shapes",
    "NonConvexMesh",
]
