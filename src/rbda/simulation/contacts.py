"""The contact stage of the simulator: contact points from the geometry of a collision model, in closed form.

Each colliding pair gives contact points, each with a world position (halfway between the two surfaces), a unit
normal pointing from the first object of the pair to the second, and a signed distance (negative when the shapes
overlap, the penetration depth). A pair function has the signature ``pair(shape1, M1, shape2, M2, margin) ->
list of (distance, p1, p2, normal)`` (``M1``, ``M2`` the world placements ``(R (3, 3), p (3,))``, ``p1``, ``p2``
the witness points on each surface): :data:`PAIR_FUNCTIONS` maps a pair of shape types to one, so that a general
pair of bounded convex shapes plugs in as one more entry (:mod:`rbda.simulation.pair_kernels` registers the compiled
step's own for every pair of spheres, capsules, boxes, cylinders, cones, ellipsoids and convex hulls,
:mod:`rbda.simulation.halfspace_contacts` a half-space's against a cone, an ellipsoid and a convex polytope).
Closed forms here: a half-space against a sphere, a capsule (its two end spheres), a box (every corner below the
plane: a face on the floor is a patch of four points), a cylinder (the lowest rim point of each cap, or four rim
points of a cap lying flat), a mesh through its convex hull and a convex set of vertices (every vertex below the
plane).

Only points within ``margin`` of touching are kept. A patch of more than :data:`PATCH_POINTS` vertices against a
half-space (a mesh's hull lying on the floor has hundreds of vertices within the margin) is reduced to its deepest
point and four extreme points (:func:`reduce_patch`), as MuJoCo and Bullet reduce their manifolds: the support
polygon, hence the contact wrench cone, is kept, and the Delassus matrix stays small and better conditioned.

The compiled step (:mod:`rbda.simulation.compiled`) packs a hull's vertices in leaves of :data:`LEAF_POINTS`,
each with its axis-aligned box (:func:`hull_leaves`), and scans only the leaves whose box reaches within the
margin (:func:`box_lowest`, :func:`plane_hull`): the same rows as the scan of every vertex, in another order, put
back in the hull's own order, or reduced with ties broken by vertex index (:func:`hull_patch`), so that its
contacts equal these functions' to the bit. The functions it calls per pair allocate nothing and are compiled
without reference counting (``refcount=False``): numba's increments and decrements of each array argument, about
10 ns each, would cost more than the work of a pair rejected by its boxes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from .._native.jit import njit

from ..collision.shapes import Cone, Convex, Ellipsoid
from ..model.geometry import Box, Capsule, Cylinder, Halfspace, Mesh, Sphere
from ..model.meshes import load_convex_hull

FLAT_CAP = 1e-9  # a cylinder's cap lies flat on the plane when its axis is this close to the plane's normal
PATCH_POINTS = 5  # a half-space patch keeps at most its deepest point and four extreme ones
LEAF_POINTS = 16  # vertices per leaf of a hull packed for the compiled step (hull_leaves)
BOX_SLACK = 1e-12  # box_lowest's allowance for rounding, relative to the magnitudes it sums


@njit(cache=True, refcount=False)
def plane_vertices(n, offset, R, p, vertices, margin, out):
    """The vertices ``(3, m)`` (shape frame, one coordinate per row) of a shape placed at ``(R, p)`` within
    ``margin`` of the plane ``n . x = offset`` (world): writes rows ``[distance, x, y, z]`` (the vertex, world) into
    ``out (m, 4)``; returns how many. Vertices are spheres of radius 0."""
    return plane_spheres(n, offset, R, p, vertices[0], vertices[1], vertices[2], 0.0, margin, out)


@njit(cache=True, refcount=False)
def plane_frame(n, offset, R, p, radius):
    """``(a0, a1, a2, height, scale)``: the signed distance of the lowest point of a sphere of ``radius`` centred
    at ``x`` (shape frame) of a shape placed at ``(R, p)`` above the plane ``n . x = offset`` is
    ``a0 x0 + a1 x1 + a2 x2 + height`` (``a = R^T n``); ``scale``: the magnitudes summed into ``height``, 1 at least
    (:func:`box_lowest`'s allowance for rounding). Written out in scalars."""
    along = n[0] * p[0] + n[1] * p[1] + n[2] * p[2]  # n . (R x + p) = a . x + n . p
    a0 = n[0] * R[0, 0] + n[1] * R[1, 0] + n[2] * R[2, 0]
    a1 = n[0] * R[0, 1] + n[1] * R[1, 1] + n[2] * R[2, 1]
    a2 = n[0] * R[0, 2] + n[1] * R[1, 2] + n[2] * R[2, 2]
    return a0, a1, a2, along - offset - radius, 1.0 + abs(along) + abs(offset) + radius


@njit(cache=True, refcount=False)
def box_lowest(a0, a1, a2, height, scale, table, row, column):
    """A lower bound of ``a0 x0 + a1 x1 + a2 x2 + height`` (:func:`plane_frame`) over the points ``x`` of the box
    ``table[row, column:column + 6]`` ``[centre (3), half extents (3)]`` (shape frame): the box's lowest corner,
    less :data:`BOX_SLACK` times the magnitudes summed (``scale``: those summed into ``height``, 1 at least), so
    that it stays below the distance computed (rounded) of any point of the box, ``height`` itself within
    ``BOX_SLACK scale`` of the one used there."""
    c = a0 * table[row, column] + a1 * table[row, column + 1] + a2 * table[row, column + 2]
    h = abs(a0) * table[row, column + 3] + abs(a1) * table[row, column + 4] + abs(a2) * table[row, column + 5]
    return c + height - h - BOX_SLACK * (scale + abs(c) + h + abs(height))


@njit(cache=True, refcount=False)
def _sphere_rows(a0, a1, a2, height, n, R, p, xs, ys, zs, radius, margin, out):
    """Rows ``[distance, lowest point]`` of the spheres within ``margin``, in their order; returns how many."""
    count = 0
    for i in range(xs.shape[0]):
        x, y, z = xs[i], ys[i], zs[i]
        d = a0 * x + a1 * y + a2 * z + height
        if d <= margin:
            out[count, 0] = d
            for r in range(3):
                out[count, 1 + r] = R[r, 0] * x + R[r, 1] * y + R[r, 2] * z + p[r] - radius * n[r]
            count += 1
    return count


@njit(cache=True, refcount=False)
def plane_spheres(n, offset, R, p, xs, ys, zs, radius, margin, out):
    """Spheres of ``radius`` centred at ``(xs[i], ys[i], zs[i])`` (shape frame; coordinates in three contiguous
    arrays) against the plane: rows ``[distance, lowest point of the sphere]`` of those within ``margin``, in
    their order (``out``'s other columns left as they are); returns how many."""
    a0, a1, a2, height, _ = plane_frame(n, offset, R, p, radius)
    return _sphere_rows(a0, a1, a2, height, n, R, p, xs, ys, zs, radius, margin, out)


@njit(cache=True, refcount=False)
def leaf_count(count):
    """The number of leaves of a hull of ``count`` vertices (:func:`hull_leaves`)."""
    return (count + LEAF_POINTS - 1) // LEAF_POINTS


@njit(cache=True, refcount=False)
def plane_hull(a0, a1, a2, height, scale, n, R, p, vertices, first, count, boxes, leaf, margin, out):
    """The vertices of a hull in leaves (:func:`hull_leaves`) against the plane (``a0`` to ``height``:
    :func:`plane_frame`'s, ``scale``: :func:`box_lowest`'s): its ``count`` vertices from column ``first`` of
    ``vertices (4, :)`` (shape frame: x, y, z, then the vertex's index in the hull's own order, as a float), leaf
    ``j`` the vertices ``j L`` to ``min((j + 1) L, count) - 1`` (``L =`` :data:`LEAF_POINTS`) inside the box
    ``boxes[leaf + j]`` ``[centre, half extents]``. Writes the rows ``[distance, vertex (world), index]``
    (``out (count, 5)``) of the vertices within ``margin``, scanning only the leaves whose box reaches within it;
    returns how many. These rows are :func:`plane_vertices`'s on the hull in its own order, equal to the bit, in
    another order."""
    m = 0
    for j in range(leaf_count(count)):
        if box_lowest(a0, a1, a2, height, scale, boxes, leaf + j, 0) > margin:
            continue
        for i in range(first + j * LEAF_POINTS, first + min((j + 1) * LEAF_POINTS, count)):
            x, y, z = vertices[0, i], vertices[1, i], vertices[2, i]
            d = a0 * x + a1 * y + a2 * z + height
            if d <= margin:
                out[m, 0] = d
                for r in range(3):
                    # plane_vertices' expression (a sphere of radius 0), zeros' signs included
                    out[m, 1 + r] = R[r, 0] * x + R[r, 1] * y + R[r, 2] * z + p[r] - 0.0 * n[r]
                out[m, 4] = vertices[3, i]
                m += 1
    return m


@njit(cache=True, refcount=False)
def _farthest(points, count, n, a, b):
    """The rows of ``points[:count, 1:4]`` farthest, in the plane of normal ``n``, from the point of row ``a``
    (when ``b == a``) or from the line through rows ``a`` and ``b`` on each side of it, ties to the smaller index
    (:func:`_index`). Returns ``(row, row on the other side)`` (the same for a point); row -1 when no row lies at
    a positive distance. The distances are compared, not computed: from the point, the square of the distance in
    the plane, ``|w|^2 - (n . w)^2`` (``w`` from the point to the row's); from the line of direction ``u``,
    ``n . (u x w) = (n x u) . w``, ``|u|`` times the signed distance in the plane (neither ``u`` nor ``w`` needs
    projecting on the plane: their components along ``n`` drop out of the product). (Written out in scalars: no
    array is allocated per row.)"""
    best, best_d, other, other_d = -1, 0.0, -1, 0.0
    a0, a1, a2 = points[a, 1], points[a, 2], points[a, 3]
    u0, u1, u2 = points[b, 1] - a0, points[b, 2] - a1, points[b, 3] - a2
    c0, c1, c2 = n[1] * u2 - n[2] * u1, n[2] * u0 - n[0] * u2, n[0] * u1 - n[1] * u0  # n x u
    line = c0 != 0.0 or c1 != 0.0 or c2 != 0.0
    for i in range(count):
        w0, w1, w2 = points[i, 1] - a0, points[i, 2] - a1, points[i, 3] - a2
        if line:
            d = c0 * w0 + c1 * w1 + c2 * w2
            e = -d
        else:
            wn = n[0] * w0 + n[1] * w1 + n[2] * w2
            d = e = w0 * w0 + w1 * w1 + w2 * w2 - wn * wn
        if d > best_d or (d == best_d and best >= 0 and _index(points, i) < _index(points, best)):
            best, best_d = i, d
        if e > other_d or (e == other_d and other >= 0 and _index(points, i) < _index(points, other)):
            other, other_d = i, e
    return best, other


@njit(cache=True, refcount=False)
def _index(points, i):
    """Row ``i``'s index: its fifth column if ``points`` has one, else ``i``."""
    return points[i, 4] if points.shape[1] > 4 else float(i)


@njit(cache=True, refcount=False)
def reduce_patch(n, points, count, keep):
    """Reduce a patch of ``count`` rows ``[distance, point]`` (or ``[distance, point, index]``) of ``points``
    against a plane of normal ``n`` to at most :data:`PATCH_POINTS`: the deepest row, then the two rows ``a``,
    ``b`` farthest apart (``a`` farthest from the deepest, ``b`` farthest from ``a``) and the row farthest from the
    line ``a b`` on each side of it, all taken in the plane. Ties go to the row of smaller index (the fifth
    column, else the row's position): the rows kept do not depend on the rows' order. Writes the kept rows'
    positions into ``keep (5,)`` and returns how many (repeats and rows on the line dropped)."""
    deepest = 0
    for i in range(count):
        if points[i, 0] < points[deepest, 0] or (points[i, 0] == points[deepest, 0]
                                                 and _index(points, i) < _index(points, deepest)):
            deepest = i
    keep[0] = deepest
    kept = 1
    a, _ = _farthest(points, count, n, deepest, deepest)
    if a < 0:
        return kept
    b, _ = _farthest(points, count, n, a, a)
    c2, c3 = -1, -1
    if b >= 0:
        c2, c3 = _farthest(points, count, n, a, b)
    for c in (a, b, c2, c3):
        new = c >= 0
        for k in range(kept):
            if keep[k] == c:
                new = False
        if new:
            keep[kept] = c
            kept += 1
    return kept


@njit(cache=True, refcount=False)
def _swap_rows(points, i, j):
    for c in range(points.shape[1]):
        points[i, c], points[j, c] = points[j, c], points[i, c]


@njit(cache=True, refcount=False)
def hull_patch(n, points, count, keep):
    """The rows ``[distance, point, index]`` of a hull's vertices within the margin (:func:`plane_hull`, in any
    order) as :func:`plane_vertices` then :func:`reduce_patch` give them on the hull in its own order, moved in
    place to the first rows of ``points``: more than :data:`PATCH_POINTS` reduced (the kept rows, in
    ``reduce_patch``'s order), else sorted by index. ``keep (5,)``: room. Returns how many; allocates nothing."""
    if count > PATCH_POINTS:
        kept = reduce_patch(n, points, count, keep)
        for s in range(kept):  # row keep[s] to row s; a later row that was at s is now at keep[s]
            source = keep[s]
            _swap_rows(points, s, source)
            for t in range(s + 1, kept):
                if keep[t] == s:
                    keep[t] = source
        return kept
    for i in range(1, count):  # insertion sort by index
        j = i
        while j > 0 and points[j - 1, 4] > points[j, 4]:
            _swap_rows(points, j - 1, j)
            j -= 1
    return count


@njit(cache=True, refcount=False)
def plane_cylinder(n, offset, R, p, radius, half_length, margin, out):
    """A cylinder (axis z of its frame) against the plane: the lowest rim point of each cap, or four rim points
    (at 90 degrees) of a cap whose plane is parallel to the half-space's; rows ``[distance, point]``. (Written out
    in scalars: it allocates nothing.)"""
    along = n[0] * R[0, 2] + n[1] * R[1, 2] + n[2] * R[2, 2]
    r0, r1, r2 = n[0] - along * R[0, 2], n[1] - along * R[1, 2], n[2] - along * R[2, 2]
    norm = np.sqrt(r0 * r0 + r1 * r1 + r2 * r2)  # the rim point lowest along -n is c - radius * radial / |radial|
    count = 0
    for s in (-1.0, 1.0):
        c0 = p[0] + s * half_length * R[0, 2]
        c1 = p[1] + s * half_length * R[1, 2]
        c2 = p[2] + s * half_length * R[2, 2]
        m = 1 if norm > FLAT_CAP else 4
        for k in range(m):
            if m == 1:
                x0, x1, x2 = c0 - radius * r0 / norm, c1 - radius * r1 / norm, c2 - radius * r2 / norm
            else:
                ca, sa = np.cos(0.5 * np.pi * k), np.sin(0.5 * np.pi * k)
                x0 = c0 + radius * (ca * R[0, 0] + sa * R[0, 1])
                x1 = c1 + radius * (ca * R[1, 0] + sa * R[1, 1])
                x2 = c2 + radius * (ca * R[2, 0] + sa * R[2, 1])
            d = n[0] * x0 + n[1] * x1 + n[2] * x2 - offset
            if d <= margin:
                out[count, 0], out[count, 1], out[count, 2], out[count, 3] = d, x0, x1, x2
                count += 1
    return count


def _box_corners(half):
    return np.array([[sx * half[0], sy * half[1], sz * half[2]]
                     for sx in (-1.0, 1.0) for sy in (-1.0, 1.0) for sz in (-1.0, 1.0)])


_HULLS: dict = {}


def hull_vertices(mesh: Mesh) -> np.ndarray:
    """The vertices ``(m, 3)`` of the convex hull of a mesh file (scaled), read once and kept."""
    return _hull(mesh)[0]


def _hull(mesh: Mesh):
    """The hull's vertices and the radius of the ball about the mesh frame's origin that holds them."""
    key = (mesh.path, tuple(mesh.scale))
    if key not in _HULLS:
        vertices = np.ascontiguousarray(load_convex_hull(mesh.path, mesh.scale).vertices, dtype=float)
        _HULLS[key] = vertices, float(np.sqrt((vertices ** 2).sum(axis=1).max()))
    return _HULLS[key]


def points_box(points: np.ndarray) -> np.ndarray:
    """The axis-aligned box ``[centre (3), half extents (3)]`` of ``points (m, 3)`` (zeros for none)."""
    if not len(points):
        return np.zeros(6)
    low, high = points.min(axis=0), points.max(axis=0)
    return np.concatenate([0.5 * (low + high), 0.5 * (high - low)])


def hull_leaves(vertices: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The vertices ``(m, 3)`` of a hull in leaves of :data:`LEAF_POINTS` for :func:`plane_hull`: split in two
    along the longest side of their box, recursively, the first part a whole number of leaves (so every leaf is
    full but the last). Returns ``(order (m,), boxes (ceil(m / L), 6))``: the vertices' indices leaf after leaf
    (ascending within a leaf) and each leaf's box (:func:`points_box`)."""
    leaves = []

    def split(index):
        if len(index) <= LEAF_POINTS:
            leaves.append(np.sort(index))
            return
        points = vertices[index]
        axis = int(np.argmax(np.ptp(points, axis=0)))
        index = index[np.argsort(points[:, axis], kind="stable")]
        cut = LEAF_POINTS * ((-(-len(index) // LEAF_POINTS) + 1) // 2)
        split(index[:cut])
        split(index[cut:])

    if len(vertices):
        split(np.arange(len(vertices)))
    order = np.concatenate(leaves).astype(np.int64) if leaves else np.zeros(0, dtype=np.int64)
    return order, np.array([points_box(vertices[leaf]) for leaf in leaves]).reshape(-1, 6)


def _world_plane(shape: Halfspace, M):
    """The plane ``n . x = offset`` in the world of a half-space placed at ``M = (R, p)``."""
    R, p = M
    n_local = np.asarray(shape.normal, dtype=float)
    n = R @ (n_local / np.sqrt(n_local @ n_local))
    return n, float(shape.offset + n @ p)


def halfspace_shape(plane: Halfspace, M1, shape, M2, margin):
    """Contacts between a half-space (first) and a sphere, capsule, box, cylinder, mesh (the vertices of its
    convex hull) or ``(m, 3)`` vertex array (second); the normal is the plane's (from the half-space to the shape).
    A mesh's or vertex array's patch of more than :data:`PATCH_POINTS` points is reduced by :func:`reduce_patch`."""
    n, offset = _world_plane(plane, M1)
    R, p = M2
    if isinstance(shape, Sphere):
        out = np.empty((1, 4))
        count = plane_spheres(n, offset, R, p, *np.zeros((3, 1)), float(shape.radius), margin, out)
    elif isinstance(shape, Capsule):
        centres = np.array([[0.0, 0.0], [0.0, 0.0], [-shape.half_length, shape.half_length]])  # (3, 2)
        out = np.empty((2, 4))
        count = plane_spheres(n, offset, R, p, *centres, float(shape.radius), margin, out)
    elif isinstance(shape, Box):
        out = np.empty((8, 4))
        count = plane_vertices(n, offset, R, p, np.ascontiguousarray(_box_corners(shape.half_side).T), margin, out)
    elif isinstance(shape, Cylinder):
        out = np.empty((8, 4))
        count = plane_cylinder(n, offset, R, p, float(shape.radius), float(shape.half_length), margin, out)
    else:
        if isinstance(shape, Mesh):
            vertices = hull_vertices(shape)
        else:
            vertices = np.ascontiguousarray(shape, dtype=float)
        out = np.empty((vertices.shape[0], 4))
        count = plane_vertices(n, offset, R, p, np.ascontiguousarray(vertices.T), margin, out)
        if count > PATCH_POINTS:
            keep = np.empty(PATCH_POINTS, dtype=np.int64)
            out = out[keep[:reduce_patch(n, out, count, keep)]]
            count = out.shape[0]
    contacts = []
    for d, *x in out[:count]:
        x = np.array(x)
        contacts.append((d, x - d * n, x, n))  # witness on the plane, on the shape
    return contacts


PAIR_FUNCTIONS = {(Halfspace, Sphere): halfspace_shape, (Halfspace, Capsule): halfspace_shape,
                  (Halfspace, Box): halfspace_shape, (Halfspace, Cylinder): halfspace_shape,
                  (Halfspace, Mesh): halfspace_shape}  # and halfspace_contacts', pair_kernels' (registered there)


@dataclass
class ContactSet:
    """The contact points of one configuration: ``k`` contacts.

    ``points (k, 3)``: world positions (halfway between the surfaces); ``normals (k, 3)``: unit world normals from
    the pair's first object to its second; ``distances (k,)``: signed distances (< 0: penetration);
    ``frames (k, 3, 3)``: world rotations whose columns are ``[t1, t2, n]``; ``pairs (k, 2)``: the geometry ids
    (first, second); ``mu (k,)``: friction coefficients; ``keys``: ``(pair index, point index)`` per contact, to
    warm start from the previous step's contact with the same key.
    """

    points: np.ndarray
    normals: np.ndarray
    distances: np.ndarray
    frames: np.ndarray
    pairs: np.ndarray
    mu: np.ndarray
    keys: list

    @property
    def size(self) -> int:
        return self.points.shape[0]


def contact_frame(n: np.ndarray) -> np.ndarray:
    """A rotation ``[t1, t2, n]`` (columns) with the unit normal ``n`` last."""
    return contact_frames(np.asarray(n, dtype=float).reshape(1, 3))[0]


def contact_frames(normals: np.ndarray) -> np.ndarray:
    """The rotations ``(k, 3, 3)`` ``[t1, t2, n]`` (columns) of the unit normals ``normals (k, 3)``: ``t1`` is the
    x axis (the y axis for a normal within 26 degrees of x) made orthogonal to ``n``, ``t2 = n x t1``."""
    a = np.zeros_like(normals)
    along_x = np.abs(normals[:, 0]) >= 0.9
    a[~along_x, 0], a[along_x, 1] = 1.0, 1.0
    t1 = a - np.sum(a * normals, axis=1)[:, None] * normals
    t1 /= np.sqrt(np.sum(t1 * t1, axis=1))[:, None]
    return np.stack([t1, np.cross(normals, t1), normals], axis=2)


def pair_contacts(shape1, M1, shape2, M2, margin):
    """The contacts of two shapes placed at ``M1``, ``M2`` (each ``(R, p)``) as ``(distance, p1, p2, normal)``
    tuples, and whether the pair was swapped to find its function (the normals then point from 1 to 2 all the
    same). Raises ``TypeError`` for a pair of shapes without a contact function."""
    f = PAIR_FUNCTIONS.get((type(shape1), type(shape2)))
    if f is not None:
        return f(shape1, M1, shape2, M2, margin)
    f = PAIR_FUNCTIONS.get((type(shape2), type(shape1)))
    if f is None:
        raise TypeError(f"collision_model: no contact function for a {type(shape1).__name__} against a "
                        f"{type(shape2).__name__} (supported: {sorted({f'{a.__name__}-{b.__name__}' for a, b in PAIR_FUNCTIONS})})")
    return [(d, p1, p2, -n) for d, p2, p1, n in f(shape2, M2, shape1, M1, margin)]


def bounding_radius(shape) -> float:
    """The radius of a ball about the shape frame's origin that holds ``shape`` (inf for a half-space or a shape
    without a bound here)."""
    if isinstance(shape, Sphere):
        return float(shape.radius)
    if isinstance(shape, Capsule):
        return float(shape.radius + shape.half_length)
    if isinstance(shape, Cylinder):
        return float(np.hypot(shape.radius, shape.half_length))
    if isinstance(shape, Box):
        return float(np.linalg.norm(shape.half_side))
    if isinstance(shape, Mesh):
        return _hull(shape)[1]
    if isinstance(shape, Cone):  # its base rim (apex at length / 2 from the centre, nearer)
        return float(np.hypot(shape.radius, 0.5 * shape.length))
    if isinstance(shape, Ellipsoid):
        return float(max(shape.radii))
    if isinstance(shape, Convex):
        return float(np.sqrt((np.asarray(shape.vertices, dtype=float) ** 2).sum(axis=1).max()))
    return np.inf


_TABLES: dict = {}


def _shape_table(geoms):
    """Per geometry object: whether it is a half-space, its bounding radius, its unit normal and offset (zero for
    the others); kept for the same list of shapes (frozen; the entry holds them, so that their ids stay theirs)."""
    key = tuple(id(g.geometry) for g in geoms)
    if key not in _TABLES:
        if len(_TABLES) > 64:
            _TABLES.clear()
        plane = np.array([isinstance(g.geometry, Halfspace) for g in geoms])
        radius = np.array([np.inf if plane[k] else bounding_radius(g.geometry) for k, g in enumerate(geoms)])
        normal = np.array([np.asarray(g.geometry.normal, dtype=float) if plane[k] else np.zeros(3)
                           for k, g in enumerate(geoms)]).reshape(-1, 3)
        normal /= np.maximum(np.linalg.norm(normal, axis=1), 1e-300)[:, None]
        offset = np.array([float(g.geometry.offset) if plane[k] else 0.0 for k, g in enumerate(geoms)])
        _TABLES[key] = plane, radius, normal, offset, [g.geometry for g in geoms]
    return _TABLES[key][:4]


def _near_plane(geoms, pairs, placements, margin: float) -> np.ndarray:
    """``(npairs,)`` booleans: False for a pair of a half-space and a shape whose bounding ball lies farther than
    ``margin`` from it (the pair can have no contact), True otherwise. One vectorized test over every pair."""
    if not len(pairs):
        return np.zeros(0, dtype=bool)
    R = np.array([M[0] for M in placements])
    p = np.array([M[1] for M in placements])
    plane, radius, normal, offset = _shape_table(geoms)
    h = np.where(plane[pairs[:, 0]], pairs[:, 0], pairs[:, 1])  # the half-space of each pair (if any)
    other = np.where(plane[pairs[:, 0]], pairs[:, 1], pairs[:, 0])
    n = np.einsum("kij,kj->ki", R[h], normal[h])
    height = np.sum(n * (p[other] - p[h]), axis=1) - offset[h] - radius[other]
    return ~(plane[h] & ~(height <= margin))


def compute_contacts(collision_model, placements, friction, margin: float = 0.0) -> ContactSet:
    """The contacts of every collision pair of ``collision_model`` whose objects are placed at ``placements`` (a
    list of world ``(R, p)``, one per geometry object); ``friction`` ``(ngeoms,)``: each object's coefficient (a
    pair uses the larger of its two); ``margin``: pairs closer than this distance (not only touching ones) give
    contacts, a float or one per collision pair ``(npairs,)``. Returns a :class:`ContactSet`. Raises
    ``ValueError`` for a margin of another size, negative or NaN."""
    rows = []
    geoms = collision_model.geometry_objects
    pairs = np.array(collision_model.collision_pairs, dtype=np.int64).reshape(-1, 2)
    margin = np.asarray(margin, dtype=float)
    if margin.ndim > 1 or margin.size not in (1, len(pairs)) or not np.all(margin >= 0.0):
        raise ValueError(f"margin: expected a float >= 0 or one per collision pair ({len(pairs)},), got {margin}")
    margin = np.broadcast_to(margin.reshape(-1), (len(pairs),))
    near = _near_plane(geoms, pairs, placements, margin)
    for index, (i, j) in enumerate(collision_model.collision_pairs):
        g1, g2 = geoms[i], geoms[j]
        if g1.disable_collision or g2.disable_collision or not near[index]:
            continue
        for point, (d, p1, p2, n) in enumerate(pair_contacts(g1.geometry, placements[i], g2.geometry,
                                                             placements[j], float(margin[index]))):
            rows.append((d, 0.5 * (p1 + p2), n, i, j, max(friction[i], friction[j]), (index, point)))
    k = len(rows)
    normals = np.array([r[2] for r in rows], dtype=float).reshape(k, 3)
    return ContactSet(
        points=np.array([r[1] for r in rows]).reshape(k, 3), normals=normals,
        distances=np.array([r[0] for r in rows], dtype=float), frames=contact_frames(normals),
        pairs=np.array([(r[3], r[4]) for r in rows], dtype=int).reshape(k, 2),
        mu=np.array([r[5] for r in rows], dtype=float), keys=[r[6] for r in rows])
