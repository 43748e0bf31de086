"""The contact stage of the simulator: contact points from the geometry of a collision model, in closed form.

Each colliding pair gives contact points, each with a world position (halfway between the two surfaces), a unit
normal pointing from the first object of the pair to the second, and a signed distance (negative when the shapes
overlap, the penetration depth). A pair function has the signature ``pair(shape1, M1, shape2, M2, margin) ->
list of (distance, p1, p2, normal)`` (``M1``, ``M2`` the world placements ``(R (3, 3), p (3,))``, ``p1``, ``p2``
the witness points on each surface): :data:`PAIR_FUNCTIONS` maps a pair of shape types to one, so that a general
convex-convex function (GJK/EPA) plugs in as one more entry. Closed forms here:

- a half-space against a sphere, a capsule (its two end spheres), a box (every corner below the plane: a face on
  the floor is a patch of four points), a cylinder (the lowest rim point of each cap, or four rim points of a cap
  lying flat), a mesh through its convex hull and a convex set of vertices (every vertex below the plane);
- a sphere against a sphere.

Only points within ``margin`` of touching are kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..io.geometry import Box, Capsule, Cylinder, Halfspace, Mesh, Sphere
from ..io.meshes import load_convex_hull

FLAT_CAP = 1e-9  # a cylinder's cap lies flat on the plane when its axis is this close to the plane's normal


@njit(cache=True)
def plane_vertices(n, offset, R, p, vertices, margin, out):
    """The vertices ``(m, 3)`` (shape frame) of a shape placed at ``(R, p)`` within ``margin`` of the plane
    ``n . x = offset`` (world): writes rows ``[distance, x, y, z]`` (the vertex, world) into ``out (m, 4)``;
    returns how many. Vertices are spheres of radius 0."""
    return plane_spheres(n, offset, R, p, vertices, 0.0, margin, out)


@njit(cache=True)
def plane_spheres(n, offset, R, p, centres, radius, margin, out):
    """Spheres of ``radius`` centred at ``centres (m, 3)`` (shape frame) against the plane: rows ``[distance,
    lowest point of the sphere]``; returns how many."""
    count = 0
    for i in range(centres.shape[0]):
        c = R @ centres[i] + p
        d = n @ c - offset - radius
        if d <= margin:
            out[count, 0] = d
            for k in range(3):  # element by element: a slice assignment compiles numba's shape-error path (~2 s)
                out[count, 1 + k] = c[k] - radius * n[k]
            count += 1
    return count


@njit(cache=True)
def plane_cylinder(n, offset, R, p, radius, half_length, margin, out):
    """A cylinder (axis z of its frame) against the plane: the lowest rim point of each cap, or four rim points
    (at 90 degrees) of a cap whose plane is parallel to the half-space's; rows ``[distance, point]``."""
    axis = R[:, 2]
    radial = n - (n @ axis) * axis  # the rim point lowest along -n is c - radius * radial / |radial|
    norm = np.sqrt(radial @ radial)
    count = 0
    for s in (-1.0, 1.0):
        c = p + s * half_length * axis
        if norm > FLAT_CAP:
            m = 1
        else:
            m = 4
        for k in range(m):
            if m == 1:
                x = c - radius * radial / norm
            else:
                a = 0.5 * np.pi * k
                x = c + radius * (np.cos(a) * R[:, 0] + np.sin(a) * R[:, 1])
            d = n @ x - offset
            if d <= margin:
                out[count, 0] = d
                for j in range(3):
                    out[count, 1 + j] = x[j]
                count += 1
    return count


def _box_corners(half):
    return np.array([[sx * half[0], sy * half[1], sz * half[2]]
                     for sx in (-1.0, 1.0) for sy in (-1.0, 1.0) for sz in (-1.0, 1.0)])


_HULLS: dict = {}


def hull_vertices(mesh: Mesh) -> np.ndarray:
    """The vertices ``(m, 3)`` of the convex hull of a mesh file (scaled), read once and kept."""
    key = (mesh.path, tuple(mesh.scale))
    if key not in _HULLS:
        _HULLS[key] = np.ascontiguousarray(load_convex_hull(mesh.path, mesh.scale).vertices, dtype=float)
    return _HULLS[key]


def _world_plane(shape: Halfspace, M):
    """The plane ``n . x = offset`` in the world of a half-space placed at ``M = (R, p)``."""
    R, p = M
    n_local = np.asarray(shape.normal, dtype=float)
    n_local = n_local / np.linalg.norm(n_local)
    n = R @ n_local
    return n, float(shape.offset + n @ p)


def halfspace_shape(plane: Halfspace, M1, shape, M2, margin):
    """Contacts between a half-space (first) and a sphere, capsule, box, cylinder, mesh (the vertices of its
    convex hull) or ``(m, 3)`` vertex array (second); the normal is the plane's (from the half-space to the shape)."""
    n, offset = _world_plane(plane, M1)
    R, p = M2
    if isinstance(shape, Sphere):
        out = np.empty((1, 4))
        count = plane_spheres(n, offset, R, p, np.zeros((1, 3)), float(shape.radius), margin, out)
    elif isinstance(shape, Capsule):
        centres = np.array([[0.0, 0.0, -shape.half_length], [0.0, 0.0, shape.half_length]])
        out = np.empty((2, 4))
        count = plane_spheres(n, offset, R, p, centres, float(shape.radius), margin, out)
    elif isinstance(shape, Box):
        out = np.empty((8, 4))
        count = plane_vertices(n, offset, R, p, _box_corners(shape.half_side), margin, out)
    elif isinstance(shape, Cylinder):
        out = np.empty((8, 4))
        count = plane_cylinder(n, offset, R, p, float(shape.radius), float(shape.half_length), margin, out)
    else:
        vertices = hull_vertices(shape) if isinstance(shape, Mesh) else np.ascontiguousarray(shape, dtype=float)
        out = np.empty((vertices.shape[0], 4))
        count = plane_vertices(n, offset, R, p, vertices, margin, out)
    contacts = []
    for d, *x in out[:count]:
        x = np.array(x)
        contacts.append((d, x - d * n, x, n))  # witness on the plane, on the shape
    return contacts


def sphere_sphere(s1: Sphere, M1, s2: Sphere, M2, margin):
    """Two spheres: one contact on the line of centres (none within ``margin`` if they are apart, nor if their
    centres coincide, where the normal is undefined)."""
    delta = M2[1] - M1[1]
    length = np.linalg.norm(delta)
    d = length - s1.radius - s2.radius
    if d > margin or length == 0.0:
        return []
    n = delta / length
    return [(d, M1[1] + s1.radius * n, M2[1] - s2.radius * n, n)]


PAIR_FUNCTIONS = {(Halfspace, Sphere): halfspace_shape, (Halfspace, Capsule): halfspace_shape,
                  (Halfspace, Box): halfspace_shape, (Halfspace, Cylinder): halfspace_shape,
                  (Halfspace, Mesh): halfspace_shape,
                  (Sphere, Sphere): sphere_sphere}


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
    a = np.array([1.0, 0.0, 0.0]) if abs(n[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
    t1 = a - (a @ n) * n
    t1 /= np.linalg.norm(t1)
    return np.column_stack([t1, np.cross(n, t1), n])


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


def compute_contacts(collision_model, placements, friction, margin: float = 0.0) -> ContactSet:
    """The contacts of every collision pair of ``collision_model`` whose objects are placed at ``placements`` (a
    list of world ``(R, p)``, one per geometry object); ``friction`` ``(ngeoms,)``: each object's coefficient (a
    pair uses the larger of its two); ``margin``: pairs closer than this distance (not only touching ones) give
    contacts. Returns a :class:`ContactSet`."""
    rows = []
    for index, (i, j) in enumerate(collision_model.collision_pairs):
        g1, g2 = collision_model.geometry_objects[i], collision_model.geometry_objects[j]
        if g1.disable_collision or g2.disable_collision:
            continue
        for point, (d, p1, p2, n) in enumerate(pair_contacts(g1.geometry, placements[i], g2.geometry,
                                                             placements[j], margin)):
            rows.append((d, 0.5 * (p1 + p2), n, i, j, max(friction[i], friction[j]), (index, point)))
    k = len(rows)
    return ContactSet(
        points=np.array([r[1] for r in rows]).reshape(k, 3), normals=np.array([r[2] for r in rows]).reshape(k, 3),
        distances=np.array([r[0] for r in rows], dtype=float), frames=np.array([contact_frame(r[2]) for r in rows]
                                                                                ).reshape(k, 3, 3),
        pairs=np.array([(r[3], r[4]) for r in rows], dtype=int).reshape(k, 2),
        mu=np.array([r[5] for r in rows], dtype=float), keys=[r[6] for r in rows])
