"""Non-convex meshes, through coal (the optional extra ``rbda[coal]``).

rbda's compiled narrow phase works on convex shapes; a mesh normally enters through its convex hull. A
:class:`NonConvexMesh` keeps the triangles instead: the geometry functions then hand its pairs to coal's
bounding-volume hierarchy of triangles (an OBB-RSS tree), faster than rbda's hull distance called
from Python. The compiled kernels still see the mesh's convex
hull: it bounds the broad phase, and since the hull contains the mesh, a hull distance above a pair's margin
proves the meshes apart without calling coal.

coal treats a mesh as a surface (a set of triangles): a shape wholly inside a closed mesh is at a positive
distance from it, and a penetration depth is that of the deepest triangle crossed.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ..model.geometry import Box, Capsule, Cylinder, Halfspace, Sphere

INSTALL = "pip install 'rbda[coal]'"


@dataclass(frozen=True)
class NonConvexMesh:
    """A mesh file ``path`` scaled by ``scale = (sx, sy, sz)``, kept as its triangles (not its convex hull) for
    distances and collisions, computed by coal. Replace a :class:`~rbda.model.geometry.Mesh` by it, e.g.
    ``obj.geometry = NonConvexMesh(obj.geometry.path, obj.geometry.scale)``, before creating the
    :class:`~rbda.collision.GeometryData`."""

    path: str
    scale: tuple = (1.0, 1.0, 1.0)


def _coal():
    try:
        import coal
    except ImportError as err:
        raise ImportError(f"non-convex meshes (NonConvexMesh) are handled by coal, which is not installed: {INSTALL}"
                          ) from err
    return coal


_GEOMETRIES: dict = {}  # (path, mtime, scale) or id(shape) -> coal geometry


def coal_geometry(shape, vertices: np.ndarray | None = None):
    """coal's twin of ``shape``: a triangle BVH for a :class:`NonConvexMesh` (cached per file and scale), the
    primitive for the others; a convex mesh or polytope becomes the convex hull of ``vertices`` ``(n, 3)`` (its
    packed hull vertices). Raises ``ImportError`` naming the ``coal`` extra if coal is absent."""
    coal = _coal()
    if isinstance(shape, NonConvexMesh):
        from ..model.meshes import load_mesh

        mesh = load_mesh(shape.path, shape.scale)
        key = (os.path.abspath(os.fspath(shape.path)), os.path.getmtime(shape.path), tuple(np.broadcast_to(
            np.asarray(shape.scale, dtype=float), (3,))))
        if key not in _GEOMETRIES:
            bvh = coal.BVHModelOBBRSS()
            bvh.beginModel(len(mesh.faces), len(mesh.vertices))
            bvh.addVertices(np.asarray(mesh.vertices, dtype=float))
            bvh.addTriangles(np.asarray(mesh.faces))
            bvh.endModel()
            _GEOMETRIES[key] = bvh
        return _GEOMETRIES[key]
    from .shapes import Cone, Ellipsoid, Plane

    if isinstance(shape, Sphere):
        return coal.Sphere(shape.radius)
    if isinstance(shape, Capsule):
        return coal.Capsule(shape.radius, shape.length)
    if isinstance(shape, Box):
        return coal.Box(*shape.size)
    if isinstance(shape, Cylinder):
        return coal.Cylinder(shape.radius, shape.length)
    if isinstance(shape, Cone):
        return coal.Cone(shape.radius, shape.length)
    if isinstance(shape, Ellipsoid):
        return coal.Ellipsoid(*shape.radii)
    if isinstance(shape, (Halfspace, Plane)):
        n = np.asarray(shape.normal, dtype=float)
        return (coal.Halfspace if isinstance(shape, Halfspace) else coal.Plane)(n / np.linalg.norm(n),
                                                                                 shape.offset / np.linalg.norm(n))
    points = coal.StdVec_Vec3s()  # a convex mesh or polytope: its hull vertices
    points.extend([np.array(x, dtype=float) for x in np.asarray(vertices).reshape(-1, 3)])
    return coal.Convex.convexHull(points, False, "")


def is_nonconvex(shape) -> bool:
    """Whether ``shape`` is kept non-convex (its pairs go to coal)."""
    return isinstance(shape, NonConvexMesh)


def nonconvex_distance(g1, M1: np.ndarray, g2, M2: np.ndarray) -> tuple[float, np.ndarray]:
    """coal's signed distance between the coal geometries ``g1`` at ``M1`` and ``g2`` at ``M2`` (world
    placements ``(3, 4)``). Returns ``(d, out)``, ``out`` ``(3, 3)``: the witness points on 1 and 2 and a unit
    normal from 1 to 2 (along the witness points when they differ; coal's normal, or the direction between the
    origins, when they coincide)."""
    coal = _coal()
    req, res = coal.DistanceRequest(), coal.DistanceResult()
    d = coal.distance(g1, coal.Transform3s(M1[:, :3], M1[:, 3]), g2, coal.Transform3s(M2[:, :3], M2[:, 3]), req, res)
    out = np.zeros((3, 3))
    out[0], out[1] = res.getNearestPoint1(), res.getNearestPoint2()
    gap, normal = out[1] - out[0], np.asarray(res.normal, dtype=float)
    if d != 0.0 and np.linalg.norm(gap) > 1e-12:  # p2 = p1 + d n
        out[2] = gap / d
    elif np.all(np.isfinite(normal)) and abs(np.linalg.norm(normal) - 1.0) < 1e-6:  # (mesh pairs leave it unset)
        out[2] = normal
    else:
        centres = M2[:, 3] - M1[:, 3]
        out[2] = centres / np.linalg.norm(centres) if np.linalg.norm(centres) > 0 else (0.0, 0.0, 1.0)
    out[2] /= np.linalg.norm(out[2])
    return float(d), out
