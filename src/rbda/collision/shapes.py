"""Shapes for collision and their packed form.

The shapes the model readers produce (:class:`~rbda.model.geometry.Box`, ``Cylinder``, ``Sphere``, ``Capsule``,
``Ellipsoid``, ``Mesh``, ``Halfspace``) are joined here by :class:`Cone`, :class:`Plane` and :class:`Convex` (a
convex polytope given by its vertices). All are expressed in their geometry's frame, with coal's conventions: a cylinder, cone or capsule has its axis along z and is centred on the frame (a cone's apex
at ``z = +length / 2``); a half-space is ``{x : n . x <= d}``, a plane ``{x : n . x = d}``.

:func:`pack_shapes` turns a list of shapes into the flat arrays the compiled kernels take: a type code per
shape (:class:`ShapeType`), a row of parameters, and the convex vertices of all shapes in one array with each
shape's row range. A mesh enters through the convex hull of its file (read with trimesh); a hull of at least
``CLIMB_MIN_VERTICES`` vertices also packs its vertex graph, on which the support function climbs.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from ..model.geometry import Box, Capsule, Cylinder, Ellipsoid, Halfspace, Mesh, Sphere
from .nonconvex import NonConvexMesh

NPARAMS = 4  # parameters per shape
CLIMB_MIN_VERTICES = 96  # hulls with fewer vertices are scanned: below this, a scan beats hill climbing


class ShapeType(IntEnum):
    """Type code of a packed shape. The first two have a point or a segment as core, inflated by a radius."""

    SPHERE = 0  # radius
    CAPSULE = 1  # radius, half-length
    BOX = 2  # half-sides x, y, z
    CYLINDER = 3  # radius, half-length
    CONE = 4  # radius, half-length
    ELLIPSOID = 5  # radii x, y, z
    CONVEX = 6  # vertices
    HALFSPACE = 7  # normal (unit), offset
    PLANE = 8  # normal (unit), offset


@dataclass(frozen=True)
class Cone:
    """A cone of base ``radius`` and ``length`` along z, centred on its frame: base at ``z = -length / 2``, apex
    at ``z = +length / 2``."""

    radius: float
    length: float


@dataclass(frozen=True)
class Plane:
    """The plane ``{x : normal . x = offset}`` (both sides); ``normal`` ``(3,)`` is normalised when packed."""

    normal: tuple
    offset: float = 0.0


@dataclass(frozen=True, eq=False)
class Convex:
    """A convex polytope: the convex hull of ``vertices`` ``(n, 3)`` (n >= 4, not all in one plane)."""

    vertices: np.ndarray

    def __eq__(self, other) -> bool:
        return isinstance(other, Convex) and bool(np.array_equal(self.vertices, other.vertices))

    __hash__ = None


@dataclass
class PackedShapes:
    """Shapes as flat arrays: ``types`` ``(n,)`` int64 (:class:`ShapeType` codes), ``params`` ``(n, 4)``,
    ``vertex_ranges`` ``(n, 2)`` int64 (first row, row count in ``vertices``) and ``vertices`` ``(m, 3)``, the
    convex vertices of every shape one after the other; ``graph_ranges`` ``(n, 2)`` and ``graph`` ``(k,)`` int64
    likewise hold each shape's vertex graph (:func:`vertex_graph`; empty where the support is a scan)."""

    types: np.ndarray
    params: np.ndarray
    vertex_ranges: np.ndarray
    vertices: np.ndarray
    graph_ranges: np.ndarray
    graph: np.ndarray

    def vertices_of(self, k: int) -> np.ndarray:
        """``(n_k, 3)``: the vertices of shape ``k`` (empty for a shape that has none)."""
        first, count = self.vertex_ranges[k]
        return self.vertices[first : first + count]

    def graph_of(self, k: int) -> np.ndarray:
        """The vertex graph of shape ``k`` (empty for a shape that has none)."""
        first, count = self.graph_ranges[k]
        return self.graph[first : first + count]


def vertex_graph(nvertices: int, faces: np.ndarray) -> np.ndarray:
    """The edge graph of a triangulated hull of ``nvertices`` vertices with triangles ``faces`` ``(m, 3)``, in one
    int64 array (compressed rows): the neighbours of vertex ``k`` are ``graph[graph[k] : graph[k + 1]]``."""
    f = np.asarray(faces, dtype=np.int64).reshape(-1, 3)
    edges = np.concatenate([f[:, [0, 1]], f[:, [1, 2]], f[:, [2, 0]]])
    edges = np.unique(np.concatenate([edges, edges[:, ::-1]]), axis=0)  # both directions, sorted by vertex
    counts = np.bincount(edges[:, 0], minlength=nvertices)
    offsets = nvertices + 1 + np.concatenate([[0], np.cumsum(counts)])
    return np.concatenate([offsets, edges[:, 1]]).astype(np.int64)


def _hull_row(hull) -> tuple[np.ndarray, np.ndarray]:
    n = len(hull.vertices)
    return hull.vertices, (vertex_graph(n, hull.faces) if n >= CLIMB_MIN_VERTICES else np.zeros(0, dtype=np.int64))


def _positive(values, what: str, name: str) -> list:
    vals = [float(v) for v in np.atleast_1d(np.asarray(values, dtype=float))]
    if not all(np.isfinite(v) and v > 0 for v in vals):
        raise ValueError(f"{name}: the {what} must be finite and > 0, got {values!r}")
    return vals


def _unit(normal, name: str) -> np.ndarray:
    n = np.asarray(normal, dtype=float).reshape(-1)
    norm = np.linalg.norm(n) if n.shape == (3,) and np.all(np.isfinite(n)) else 0.0
    if norm == 0.0:
        raise ValueError(f"{name}: the normal must be three finite numbers, not all zero, got {normal!r}")
    return n / norm


def shape_row(shape, name: str = "shape") -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``(type code, params (4,), vertices (n, 3), vertex graph)`` of one shape; a :class:`~rbda.model.geometry.Mesh`
    is read and replaced by the convex hull of its vertices. Raises ``ValueError`` naming ``name`` (the geometry)
    for a negative, zero or non-finite size, a zero normal, a degenerate :class:`Convex`, and
    :class:`~rbda.io.ModelFileError` naming the file for a missing, empty or flat mesh."""
    p, none, scan = np.zeros(NPARAMS), np.zeros((0, 3)), np.zeros(0, dtype=np.int64)
    if isinstance(shape, Sphere):
        p[0] = _positive(shape.radius, "radius", name)[0]
        return ShapeType.SPHERE, p, none, scan
    if isinstance(shape, (Capsule, Cylinder, Cone)):
        code = {Capsule: ShapeType.CAPSULE, Cylinder: ShapeType.CYLINDER, Cone: ShapeType.CONE}[type(shape)]
        p[0] = _positive(shape.radius, "radius", name)[0]
        p[1] = 0.5 * _positive(shape.length, "length", name)[0]
        return code, p, none, scan
    if isinstance(shape, Box):
        if len(np.atleast_1d(shape.size)) != 3:
            raise ValueError(f"{name}: a box needs three sides, got {shape.size!r}")
        p[:3] = 0.5 * np.array(_positive(shape.size, "box sides", name))
        return ShapeType.BOX, p, none, scan
    if isinstance(shape, Ellipsoid):
        radii = _positive(shape.radii, "radii", name)
        if len(radii) != 3:
            raise ValueError(f"{name}: an ellipsoid needs three radii, got {shape.radii!r}")
        p[:3] = radii
        return ShapeType.ELLIPSOID, p, none, scan
    if isinstance(shape, (Halfspace, Plane)):
        p[:3] = _unit(shape.normal, name)
        d = float(shape.offset)
        if not np.isfinite(d):
            raise ValueError(f"{name}: the offset must be finite, got {shape.offset!r}")
        p[3] = d / np.linalg.norm(np.asarray(shape.normal, dtype=float))
        return (ShapeType.HALFSPACE if isinstance(shape, Halfspace) else ShapeType.PLANE), p, none, scan
    if isinstance(shape, Convex):
        from ..model.meshes import convex_hull

        try:
            hull = convex_hull(shape.vertices)
        except ValueError as err:
            raise ValueError(f"{name}: {str(err).removeprefix('vertices: ')}") from None
        if not np.all(np.isfinite(hull.vertices)):
            raise ValueError(f"{name}: the vertices must be finite")
        return (ShapeType.CONVEX, p, *_hull_row(hull))
    if isinstance(shape, (Mesh, NonConvexMesh)):  # a non-convex mesh's hull bounds it (its pairs go to coal)
        from ..model.meshes import load_convex_hull

        return (ShapeType.CONVEX, p, *_hull_row(load_convex_hull(os.fspath(shape.path), shape.scale)))
    raise TypeError(f"{name}: unsupported shape type {type(shape).__name__}")


def pack_shapes(shapes, names=None) -> PackedShapes:
    """Pack ``shapes`` (a list) into a :class:`PackedShapes`; ``names`` (one per shape) name them in errors."""
    names = names if names is not None else [f"shape {k}" for k in range(len(shapes))]
    rows = [shape_row(s, n) for s, n in zip(shapes, names)]
    return PackedShapes(
        np.array([int(r[0]) for r in rows], dtype=np.int64),
        np.ascontiguousarray(np.array([r[1] for r in rows]).reshape(-1, NPARAMS)),
        *_concatenated([r[2] for r in rows], (0, 3), float),
        *_concatenated([r[3] for r in rows], (0,), np.int64),
    )


def _concatenated(blocks: list, empty: tuple, dtype) -> tuple[np.ndarray, np.ndarray]:
    """``(ranges (n, 2), all)``: the blocks one after the other, with each block's first row and row count."""
    counts = np.array([len(b) for b in blocks], dtype=np.int64)
    ranges = np.stack([np.cumsum(counts) - counts, counts], axis=1) if blocks else np.zeros((0, 2), dtype=np.int64)
    every = np.concatenate(blocks) if blocks else np.zeros(empty)
    return np.ascontiguousarray(ranges, dtype=np.int64), np.ascontiguousarray(every, dtype=dtype)
