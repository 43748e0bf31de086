"""Geometry state and the collision/distance algorithms over a :class:`~rbda.model.geometry.GeometryModel`
(Pinocchio's ``GeometryData``, ``updateGeometryPlacements``, ``computeCollisions``, ``computeDistances``).

:class:`GeometryData` holds the world placements ``oMg`` of the objects, one result per collision pair (signed
distance, witness points, normal, collision flag) and which pairs are active. The algorithms take
``(model, data, geom_model, geom_data, q)`` as in Pinocchio and run compiled loops over the pairs.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from ..algorithms import forward_kinematics
from ..algorithms._check import vector
from ..model.geometry import GeometryModel
from ..model.data import SE3Views
from . import pairs as _pairs
from .broadphase import local_boxes
from .distance import DistanceRequest, DistanceResult
from .nonconvex import coal_geometry, is_nonconvex, nonconvex_distance
from .shapes import PackedShapes, ShapeType, pack_shapes

_UNBOUNDED = (ShapeType.HALFSPACE, ShapeType.PLANE)


@dataclass
class PackedGeometry:
    """A geometry model as the kernels take it: ``shapes`` (:class:`PackedShapes`), ``parent_joints`` ``(ng,)``,
    joint-frame ``placements`` ``(ng, 3, 4)``, ``pairs`` ``(npairs, 2)``, ``pair_index`` ``(ng, ng)`` (-1
    where no pair) and the shapes' ``local_boxes`` ``(ng, 6)`` (centre, half-extents in their frames);
    ``nonconvex_pairs``: the pairs with a :class:`~rbda.collision.nonconvex.NonConvexMesh`, which coal finishes."""

    shapes: PackedShapes
    parent_joints: np.ndarray
    placements: np.ndarray
    pairs: np.ndarray
    pair_index: np.ndarray
    local_boxes: np.ndarray
    nonconvex_pairs: np.ndarray

    @property
    def arrays(self) -> tuple:
        s = self.shapes
        return s.types, s.params, s.vertex_ranges, s.vertices, s.graph_ranges, s.graph


_PACKED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _signature(geom_model: GeometryModel) -> tuple:
    return (tuple((id(o), id(o.geometry), o.parent_joint, o.placement.rotation.tobytes(),
                   o.placement.translation.tobytes()) for o in geom_model.geometry_objects),
            tuple(geom_model.collision_pairs))


def pack_geometry(geom_model: GeometryModel) -> PackedGeometry:
    """The packed form of ``geom_model`` (cached until its objects, placements or pairs change). Meshes are read
    and replaced by their convex hulls. Raises ``ValueError`` naming the geometry object for a bad size or a
    pair of two unbounded shapes, :class:`~rbda.io.ModelFileError` naming a missing or empty mesh file."""
    if not isinstance(geom_model, GeometryModel):
        raise TypeError(f"geom_model: expected a GeometryModel, got {type(geom_model).__name__}")
    sig = _signature(geom_model)
    cached = _PACKED.get(geom_model)
    if cached is not None and cached[0] == sig:
        return cached[1]
    objects = geom_model.geometry_objects
    shapes = pack_shapes([o.geometry for o in objects], [f"geometry object {o.name!r}" for o in objects])
    pairs = np.array(geom_model.collision_pairs, dtype=np.int64).reshape(-1, 2)
    index = -np.ones((len(objects), len(objects)), dtype=np.int64)
    for p, (i, j) in enumerate(pairs):
        if shapes.types[i] in _UNBOUNDED and shapes.types[j] in _UNBOUNDED:
            raise ValueError(f"collision pair {p}: {objects[i].name!r} and {objects[j].name!r} are both unbounded "
                             "(half-space or plane); their distance is not defined")
        index[i, j] = index[j, i] = p
    placements = np.zeros((len(objects), 3, 4))
    for k, o in enumerate(objects):
        placements[k, :, :3], placements[k, :, 3] = o.placement.rotation, o.placement.translation
    boxes = np.zeros((len(objects), 6))
    local_boxes(shapes.types, shapes.params, shapes.vertex_ranges, shapes.vertices, boxes)
    nonconvex = [p for p, (i, j) in enumerate(pairs) if is_nonconvex(objects[i].geometry)
                 or is_nonconvex(objects[j].geometry)]
    packed = PackedGeometry(shapes, np.array([o.parent_joint for o in objects], dtype=np.int64), placements,
                            np.ascontiguousarray(pairs), index, boxes, np.array(nonconvex, dtype=np.int64))
    _PACKED[geom_model] = (sig, packed)
    return packed


@dataclass
class CollisionResult:
    """One pair's collision test: ``is_collision`` and ``distance``: the signed distance when colliding, a positive
    lower bound of it otherwise (``inf`` when the broad phase ruled the pair out or the pair was not tested)."""

    is_collision: bool = False
    distance: float = np.inf

    def isCollision(self) -> bool:  # noqa: N802 (Pinocchio's name)
        """Whether the pair collides (Pinocchio's spelling of :attr:`is_collision`)."""
        return self.is_collision


class GeometryData:
    """The state of a :class:`~rbda.model.geometry.GeometryModel`: ``oMg`` (world placements of the objects, a
    sequence of :class:`~rbda.SE3` over the ``(ng, 3, 4)`` array ``oMg.array``); per collision pair the distance
    results of :func:`compute_distances` ``distances`` ``(npairs,)``, ``nearest_points`` ``(npairs, 2, 3)``,
    ``normals`` ``(npairs, 3)``, and, apart from them as in Pinocchio, the collision results of
    :func:`compute_collisions` ``collisions`` ``(npairs,)`` bool and ``collision_distances`` ``(npairs,)``;
    ``active_collision_pairs`` ``(npairs,)`` bool (all True), per-pair ``security_margins`` ``(npairs,)`` (0)
    and the GJK/EPA ``request`` (:class:`DistanceRequest`). ``distance_results`` and ``collision_results`` give
    the per-pair results as objects."""

    def __init__(self, geom_model: GeometryModel, request: DistanceRequest | None = None):
        self.packed = pack_geometry(geom_model)
        self._geom_model = weakref.ref(geom_model)
        self._sizes = (geom_model.ngeoms, len(geom_model.collision_pairs))
        ng, npairs = self._sizes
        self._oMg = np.zeros((ng, 3, 4))
        self._oMg[:, :, :3] = np.eye(3)
        self.oMg = SE3Views(self._oMg)
        self.distances = np.full(npairs, np.inf)
        self.nearest_points = np.zeros((npairs, 2, 3))
        self.normals = np.zeros((npairs, 3))
        self.collisions = np.zeros(npairs, dtype=bool)
        self.collision_distances = np.full(npairs, np.inf)
        self.active_collision_pairs = np.ones(npairs, dtype=bool)
        self.security_margins = np.zeros(npairs)
        self.request = request or DistanceRequest()
        self._boxes, self._candidate = np.zeros((ng, 6)), np.zeros(npairs, dtype=bool)
        self._coal: dict = {}  # object index -> coal geometry, for the objects of non-convex pairs

    @property
    def request(self) -> DistanceRequest:
        """The GJK/EPA settings (:class:`DistanceRequest`); assign a new one to change them."""
        return self._request

    @request.setter
    def request(self, request: DistanceRequest) -> None:
        self._settings = np.array(request.codes(), dtype=float)
        self._request = request

    @property
    def distance_results(self) -> list[DistanceResult]:
        return [DistanceResult(float(d), p.copy(), n.copy())
                for d, p, n in zip(self.distances, self.nearest_points, self.normals)]

    @property
    def collision_results(self) -> list[CollisionResult]:
        return [CollisionResult(bool(c), float(d)) for c, d in zip(self.collisions, self.collision_distances)]

    def __repr__(self) -> str:
        return f"GeometryData(ngeoms={len(self._oMg)}, npairs={len(self.distances)})"


def _check(geom_model: GeometryModel, geom_data: GeometryData) -> PackedGeometry:
    """The packed model of ``geom_data``, after checking that it was created for ``geom_model`` as it is (the
    same object, same counts of objects and pairs; edit a model, then create a new GeometryData)."""
    if not isinstance(geom_data, GeometryData):
        raise TypeError(f"geom_data: expected a GeometryData, got {type(geom_data).__name__}")
    if geom_data._geom_model() is not geom_model or geom_data._sizes != (geom_model.ngeoms,
                                                                          len(geom_model.collision_pairs)):
        raise ValueError("geom_data: was created for another geometry model (or before objects or pairs were "
                         "added or removed); use GeometryData(geom_model)")
    return geom_data.packed


def _nonconvex_pair(geom_model: GeometryModel, geom_data: GeometryData, p: int) -> tuple[float, np.ndarray]:
    """coal's distance of pair ``p`` (with a non-convex mesh) at ``geom_data.oMg``: ``(d, (p1, p2, normal))``."""
    packed, objects = geom_data.packed, geom_model.geometry_objects
    i, j = packed.pairs[p]
    for k in (i, j):
        if k not in geom_data._coal:
            geom_data._coal[k] = coal_geometry(objects[k].geometry, packed.shapes.vertices_of(k))
    return nonconvex_distance(geom_data._coal[i], geom_data._oMg[i], geom_data._coal[j], geom_data._oMg[j])


def _store(geom_data: GeometryData, p: int, d: float, out: np.ndarray) -> None:
    geom_data.distances[p], geom_data.nearest_points[p], geom_data.normals[p] = d, out[:2], out[2]


def update_geometry_placements(model, data, geom_model: GeometryModel, geom_data: GeometryData, q=None) -> None:
    """``geom_data.oMg[k] = data.oMi[parent_joint_k] * placement_k`` for every object, after
    ``forward_kinematics(model, data, q)`` if ``q`` ``(nq,)`` is given (else from the current ``data.oMi``).
    Returns None (read ``geom_data.oMg``). Raises ``ValueError`` naming the first object whose placement is not
    finite."""
    packed = _check(geom_model, geom_data)
    if q is not None:
        forward_kinematics(model, data, vector(q, model.nq, "q"))
    bad = _pairs.placements_status(data.oMi.array, packed.parent_joints, packed.placements, geom_data._oMg)
    if bad >= 0:
        raise ValueError(f"geometry object {geom_model.geometry_objects[bad].name!r}: its placement oMg is not "
                         "finite (NaN or inf in the joint placements or q)")


def compute_distances(model, data, geom_model: GeometryModel, geom_data: GeometryData, q=None) -> int:
    """Signed distance, witness points and normal of every active collision pair into ``geom_data.distances``,
    ``nearest_points``, ``normals`` (world frame; placements updated first, from ``q`` ``(nq,)`` if given).
    Returns the index of the pair of smallest distance (-1 if no pair is active). Pairs with a
    :class:`~rbda.collision.nonconvex.NonConvexMesh` are computed by coal (``ImportError`` naming the extra when
    it is missing)."""
    packed = _check(geom_model, geom_data)
    update_geometry_placements(model, data, geom_model, geom_data, q)
    best = int(_pairs.distances(*packed.arrays, geom_data._oMg, packed.pairs, geom_data.active_collision_pairs,
                                geom_data._settings, geom_data.distances, geom_data.nearest_points,
                                geom_data.normals))
    active = geom_data.active_collision_pairs
    for p in packed.nonconvex_pairs[active[packed.nonconvex_pairs]]:
        _store(geom_data, p, *_nonconvex_pair(geom_model, geom_data, p))
    if len(packed.nonconvex_pairs) and active.any():
        best = int(np.flatnonzero(active)[np.argmin(geom_data.distances[active])])
    return best


def compute_collisions(model, data, geom_model: GeometryModel, geom_data: GeometryData, q=None,
                       stop_at_first_collision: bool = False) -> bool:
    """Whether any active collision pair collides (signed distance below its security margin): a broad phase on
    world bounding boxes, then GJK/EPA on the pairs whose boxes overlap, in pair order. Fills the collision
    results ``geom_data.collisions`` and ``geom_data.collision_distances`` (the signed distance of a colliding
    pair; for the others a positive lower bound, or ``inf`` when not tested), and leaves the distance results of
    :func:`compute_distances` (``geom_data.distances``, ...) as they were; with
    ``stop_at_first_collision`` the pairs after the first collision are not tested. Placements are updated
    first, from ``q`` ``(nq,)`` if given. A pair with a :class:`~rbda.collision.nonconvex.NonConvexMesh` goes to
    coal when the mesh's convex hull is within the margin (the hull bounds the mesh)."""
    packed = _check(geom_model, geom_data)
    update_geometry_placements(model, data, geom_model, geom_data, q)
    stop_first = bool(stop_at_first_collision) and not len(packed.nonconvex_pairs)
    hit = bool(_pairs.collisions(*packed.arrays, packed.local_boxes, geom_data._oMg, packed.pairs, packed.pair_index,
                                 geom_data.active_collision_pairs, geom_data.security_margins, geom_data._settings,
                                 stop_first, geom_data._boxes, geom_data._candidate, geom_data.collision_distances,
                                 geom_data.collisions))
    if not len(packed.nonconvex_pairs):
        return hit
    distances = geom_data.collision_distances
    for p in packed.nonconvex_pairs[geom_data.collisions[packed.nonconvex_pairs]]:  # the hulls are within margin
        distances[p] = _nonconvex_pair(geom_model, geom_data, p)[0]
        geom_data.collisions[p] = distances[p] < geom_data.security_margins[p]
    colliding = np.flatnonzero(geom_data.collisions)
    if stop_at_first_collision and len(colliding):  # as if the pairs after the first collision were not tested
        geom_data.collisions[colliding[0] + 1 :] = False
        distances[colliding[0] + 1 :] = np.inf
    return bool(len(colliding))


def _pair(geom_model: GeometryModel, pair_index) -> int:
    n = len(geom_model.collision_pairs)
    if not (isinstance(pair_index, (int, np.integer)) and 0 <= pair_index < n):
        raise ValueError(f"pair_index: {pair_index!r} is not a collision pair index (0..{n - 1})")
    return int(pair_index)


def _pair_distance(geom_model: GeometryModel, geom_data: GeometryData, pair_index) -> DistanceResult:
    """The distance result of collision pair ``pair_index`` at the current ``geom_data.oMg``, stored nowhere."""
    packed = _check(geom_model, geom_data)
    p = _pair(geom_model, pair_index)
    if p in packed.nonconvex_pairs:  # coal's, on the triangles
        d, out = _nonconvex_pair(geom_model, geom_data, p)
        return DistanceResult(float(d), out[:2].copy(), out[2].copy())
    out, iterations = np.empty((3, 3)), np.zeros(2, dtype=np.int64)
    d = _pairs.pair_distance(*packed.arrays, geom_data._oMg, packed.pairs, p, geom_data._settings, out, iterations)
    return DistanceResult(float(d), out[:2].copy(), out[2].copy(), int(iterations[0]), int(iterations[1]))


def compute_distance(geom_model: GeometryModel, geom_data: GeometryData, pair_index: int) -> DistanceResult:
    """Distance of collision pair ``pair_index`` at the current ``geom_data.oMg`` (call
    :func:`update_geometry_placements` first); stores it in the distance results of ``geom_data``
    (``distances``, ``nearest_points``, ``normals``) and returns it."""
    result = _pair_distance(geom_model, geom_data, pair_index)
    p = int(pair_index)
    geom_data.distances[p], geom_data.nearest_points[p], geom_data.normals[p] = (
        result.min_distance, result.nearest_points, result.normal)
    return result


def compute_collision(geom_model: GeometryModel, geom_data: GeometryData, pair_index: int) -> bool:
    """Whether collision pair ``pair_index`` collides at the current ``geom_data.oMg`` (distance below its
    security margin); stores the result in the collision results ``geom_data.collisions`` and
    ``collision_distances`` (the distance results stay as they were)."""
    d = _pair_distance(geom_model, geom_data, pair_index).min_distance
    p = int(pair_index)
    geom_data.collisions[p] = d < geom_data.security_margins[p]
    geom_data.collision_distances[p] = d
    return bool(geom_data.collisions[p])
