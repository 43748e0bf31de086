"""Contacts between two convex shapes from the compiled narrow phase, with contact patches between flat faces.

:func:`convex_pair` is the pair function (see :mod:`rbda.simulation.contacts`) of every two bounded convex shapes
(sphere, capsule, box, cylinder, cone, ellipsoid, mesh through its convex hull, convex polytope) that has no
closed form there: ``rbda.collision``'s ``shape_distance`` (GJK, EPA) gives the signed distance, witness points
and normal. One point is not enough where a face lies on a face (a box resting on a box turns about it): when
both shapes are polyhedra (boxes, hulls), the face of each most aligned with the normal is taken, the one more
aligned is the reference face, and the other (the incident face) is clipped against the reference face's side
planes (Sutherland & Hodgman 1974); each clipped vertex within the margin of the reference plane is a contact,
its distance measured along the reference face's normal. When nothing survives the clipping (edge on edge), the
narrow phase's single point is the contact.
"""

from __future__ import annotations

import numpy as np

from ..collision.distance import DistanceRequest, _row
from ..collision.narrowphase import shape_distance
from ..collision.shapes import Cone, Convex, Ellipsoid
from ..io.geometry import Box, Capsule, Cylinder, Mesh, Sphere
from ..io.meshes import convex_hull
from .contacts import PAIR_FUNCTIONS

SHAPES = (Sphere, Capsule, Box, Cylinder, Cone, Ellipsoid, Mesh, Convex)
POLYHEDRA = (Box, Mesh, Convex)
_REQUEST = DistanceRequest().codes()
_FACES: dict = {}  # id(shape) -> (shape, faces): a shape's faces, computed once


def polyhedron_faces(shape) -> list[tuple[np.ndarray, np.ndarray]]:
    """The faces of a box or a convex hull in its frame: ``(unit outward normal (3,), polygon (m, 3))`` each, the
    polygon counter-clockwise seen from outside (coplanar triangles of the hull merged into one face)."""
    cached = _FACES.get(id(shape))
    if cached is not None and cached[0] is shape:
        return cached[1]
    if isinstance(shape, Box):
        h = 0.5 * np.asarray(shape.size, dtype=float)
        vertices = np.array([[sx * h[0], sy * h[1], sz * h[2]] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
    else:
        vertices = _row(shape, "shape")[2]
    hull = convex_hull(vertices)
    V, F = hull.vertices, hull.faces
    normals = np.cross(V[F[:, 1]] - V[F[:, 0]], V[F[:, 2]] - V[F[:, 0]])
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    keys, group = np.unique(np.round(normals, 6), axis=0, return_inverse=True)
    faces = []
    for g in range(len(keys)):
        n = normals[group.ravel() == g].mean(axis=0)
        n /= np.linalg.norm(n)
        P = V[np.unique(F[group.ravel() == g])]
        c = P.mean(axis=0)
        u = np.cross(n, [1.0, 0.0, 0.0] if abs(n[0]) < 0.9 else [0.0, 1.0, 0.0])
        u /= np.linalg.norm(u)
        angle = np.arctan2((P - c) @ np.cross(n, u), (P - c) @ u)  # counter-clockwise about n
        faces.append((n, P[np.argsort(angle)]))
    _FACES[id(shape)] = (shape, faces)
    return faces


def clip_polygon(polygon: np.ndarray, point: np.ndarray, inward: np.ndarray) -> np.ndarray:
    """Sutherland-Hodgman: the part of the convex ``polygon`` ``(m, 3)`` on the side ``inward . (x - point) >= 0``
    of a plane."""
    side = (polygon - point) @ inward
    kept = []
    for k in range(len(polygon)):
        a, b, sa, sb = polygon[k], polygon[(k + 1) % len(polygon)], side[k], side[(k + 1) % len(polygon)]
        if sa >= 0.0:
            kept.append(a)
        if (sa >= 0.0) != (sb >= 0.0):  # the edge crosses the plane
            kept.append(a + sa / (sa - sb) * (b - a))
    return np.array(kept).reshape(-1, 3)


def _best_face(shape, R, direction):
    """The world face (normal, polygon) of ``shape`` (rotation ``R``, no translation) most aligned with
    ``direction``, and that alignment."""
    faces = polyhedron_faces(shape)
    k = int(np.argmax([R @ n @ direction for n, _ in faces]))
    n, P = faces[k]
    return R @ n, P @ R.T, float(R @ n @ direction)


def face_patch(shape1, M1, shape2, M2, normal, margin):
    """The contacts ``(distance, p1, p2, normal)`` of the face of ``shape1`` along ``normal`` (from 1 to 2) and the
    face of ``shape2`` along ``-normal``, by clipping (see the module); an empty list when none is within
    ``margin``."""
    n1, P1, a1 = _best_face(shape1, M1[0], normal)
    n2, P2, a2 = _best_face(shape2, M2[0], -normal)
    P1, P2 = P1 + M1[1], P2 + M2[1]
    flip = a2 > a1  # the reference face is the better aligned: shape 2's, then the normals point the other way
    n_ref, ref, incident = (n2, P2, P1) if flip else (n1, P1, P2)
    for k in range(len(ref)):
        edge = ref[(k + 1) % len(ref)] - ref[k]
        incident = clip_polygon(incident, ref[k], np.cross(n_ref, edge))
        if not len(incident):
            return []
    contacts = []
    for x in incident:
        d = float(n_ref @ (x - ref[0]))  # > 0: the incident point is outside the reference face
        if d <= margin:
            on_ref = x - d * n_ref
            contacts.append((d, x, on_ref, n_ref) if flip else (d, on_ref, x, n_ref))
    if flip:  # the normal from 1 to 2
        contacts = [(d, p1, p2, -n) for d, p1, p2, n in contacts]
    return contacts


def convex_pair(shape1, M1, shape2, M2, margin):
    """Contacts between two bounded convex shapes placed at ``M1``, ``M2`` (each ``(R (3, 3), p (3,))``): a list
    of ``(distance, p1, p2, normal)`` (normal from 1 to 2), empty when the shapes are farther than ``margin``;
    a patch of points where two polyhedra meet face on face (see the module), else the one closest (or deepest)
    pair of points."""
    t1, P1, V1, G1 = _row(shape1, "shape1")
    t2, P2, V2, G2 = _row(shape2, "shape2")
    A1, A2 = np.empty((3, 4)), np.empty((3, 4))
    A1[:, :3], A1[:, 3], A2[:, :3], A2[:, 3] = M1[0], M1[1], M2[0], M2[1]
    out, iterations = np.empty((3, 3)), np.zeros(2, dtype=np.int64)
    d = shape_distance(t1, P1, V1, G1, A1, t2, P2, V2, G2, A2, *_REQUEST, out, iterations)
    if d > margin:
        return []
    if isinstance(shape1, POLYHEDRA) and isinstance(shape2, POLYHEDRA):
        patch = face_patch(shape1, M1, shape2, M2, out[2].copy(), margin)
        if patch:
            return patch
    return [(float(d), out[0].copy(), out[1].copy(), out[2].copy())]


for _a in SHAPES:  # every pair of bounded convex shapes without a closed form
    for _b in SHAPES:
        if (_a, _b) not in PAIR_FUNCTIONS and (_b, _a) not in PAIR_FUNCTIONS:
            PAIR_FUNCTIONS[(_a, _b)] = convex_pair
