"""The contacts of two bounded convex shapes, compiled: the narrow phase of the simulator's contact stage for every
pair of spheres, capsules, boxes, cylinders, cones, ellipsoids and convex hulls (a half-space against a shape is
:mod:`rbda.simulation.contacts`' and :func:`rbda.simulation.compiled.plane_shape`'s).

A pair's contacts come in two steps, both in the world frame, with normals from the pair's first object to its
second:

1. **The deepest point** ``(d, p1, p2, n)``: the signed distance ``d`` (negative: the penetration depth), the
   witness points ``p1``, ``p2`` and the unit normal ``n`` with ``p2 = p1 + d n`` (coal's convention). Closed forms
   for a sphere against a sphere, a capsule, a box or a cylinder, a capsule against a capsule or a box (the closest
   points of segments, Ericson 2005, 5.1.9; a box's closest point; for a penetrating box, the separating axis
   theorem: the least overlap over the box's face normals and, for a segment, their cross products with its
   direction), a box against a box (the separating axis theorem over the 15 axes of Gottschalk, Lin & Manocha 1996
   when they overlap, GJK when they are apart); the compiled GJK and EPA of :mod:`rbda.collision` for the others.
2. **The patch** where flat parts meet: each shape's *feature* along the normal (:func:`feature`) is its face
   whose normal lies within :data:`FEATURE_SINE` of it (a box's face, a hull's face, a cylinder's cap as a regular
   :data:`CAP_SIDES`-gon inscribed in its rim), else its segment perpendicular to it within the same angle (a
   capsule's or a cylinder's axis, with its radius; a box's edge), else a point. A face against a face or a
   segment: the other feature is clipped to the face's prism (Sutherland & Hodgman 1974), and each clipped vertex
   within the margin of the face's plane is a contact, its distance taken along the face's normal (a capsule
   lying on a box: its axis's two clipped end points; a box on a box: the corners of the clipped face; a cylinder
   standing on its cap: the vertices of the clipped cap). Two parallel segments: the two ends of their overlap,
   each against the nearest point of the other segment. A patch of more than ``PATCH_POINTS`` points is reduced
   to its deepest point and its extreme ones (``contacts.reduce_patch``); when the deepest point lies deeper than
   the patch (it lies over the face's edge), it joins the patch. Otherwise, and when no point of the patch lies
   within the margin, the deepest point is the contact.

Contacts are rows ``[d, p1 (3), p2 (3), n (3)]`` (:func:`shape_pair`), their order fixed by the features (a
contact's index in its pair is its key for the warm start). The shapes are the packed ones of
:class:`rbda.simulation.packed.PackedScene` (a geometry object's columns of ``gint`` from :data:`TYPE` on, its
parameters ``sparam``, a hull's vertices, vertex graph and faces); the scratch arrays are :func:`pair_room`'s.
Every function here allocates nothing and runs without reference counting.
"""

from __future__ import annotations

import math

import numpy as np

from .._native.jit import njit
from ..collision.epa import epa_room
from ..collision.narrowphase import segment_segment, shape_distance_in
from ..collision.shapes import Cone, Convex, Ellipsoid
from ..collision.support import BOX, CAPSULE, CONVEX, CYLINDER, SPHERE
from ..collision.vectors import axpy, cross, dot, neg, norm, sub
from ..model.geometry import Box, Capsule, Cylinder, Mesh, Sphere
from .contacts import PAIR_FUNCTIONS, PATCH_POINTS, reduce_patch

FEATURE_SINE = 0.02  # a face within this sine of the normal is a shape's feature, as a segment perpendicular to it
CAP_SIDES = 4  # a cylinder's cap as a feature: the regular polygon of this many vertices inscribed in its rim (as
# compiled.plane_cylinder's patch: a cap on a face gives 4 points, no reduction, whose keys stay from step to step)
GJK = (0, 1e-10, 256)  # GJK's variant (vanilla), tolerance and most iterations (collision.DistanceRequest's)
PATCH_SLACK = 1e-9  # m: a patch shallower than the deepest point by more than this is joined by that point
AXIS_SINE = 1e-6  # a direction within this sine of a cylinder's axis has no part perpendicular to it
END_GAP = 0.1  # an axis end this close to the deepest point (a fraction of the axis' length) is its own contact
EDGE_BIAS = 1e-6  # relative: an edge axis of the separating axis test wins only by this much over a face axis
# a geometry object's columns of PackedScene.gint from TYPE: its collision.support type code, the first row and the
# count of its hull's vertices (PackedScene.hull), of its vertex graph (PackedScene.graph), of its faces
# (PackedScene.faces)
TYPE, HULL_FIRST, HULL_COUNT, GRAPH_FIRST, GRAPH_COUNT, FACE_FIRST, FACE_COUNT = range(5, 12)
# the most contacts of a pair whose shapes' features are at most points, segments or faces
POINT, SEGMENT, FACE = 1, 3, PATCH_POINTS + 1


def pair_room(features: int) -> tuple:
    """The scratch arrays of :func:`shape_pair` for faces of at most ``features`` vertices: GJK's simplex ``(16,
    3)``, weights ``(4,)`` and hull starts ``(2,)``, the witness rows ``(3, 3)``, the iterations ``(2,)``, EPA's
    polytope, faces, planes, flags and edges (``collision.epa.epa_room``), the two shapes' placements ``(2, 3,
    4)``, their features ``(2, F, 3)``, two clipping buffers ``(2, 2 F, 3)``, the patch ``(2 F, 4)`` and its kept
    rows ``(PATCH_POINTS,)``, and an axis end's sphere parameters ``(4,)`` (:func:`end_contact`)."""
    F = max(int(features), CAP_SIDES, 4)
    return (np.empty((16, 3)), np.empty(4), np.zeros(2, dtype=np.int64), np.empty((3, 3)),
            np.zeros(2, dtype=np.int64), *epa_room(), np.empty((2, 3, 4)), np.empty((2, F, 3)),
            np.empty((2, 2 * F + 8, 3)), np.empty((2 * F + 8, 4)), np.empty(PATCH_POINTS, dtype=np.int64), np.empty(4))


# ---------------------------------------------------------------------------------------------- frames
@njit(cache=True, forceinline=True)
def column(R, j):
    return R[0, j], R[1, j], R[2, j]


@njit(cache=True, forceinline=True)
def row(x, i):
    return x[i, 0], x[i, 1], x[i, 2]


@njit(cache=True, forceinline=True)
def rotate(R, x):
    """``R x``."""
    return (R[0, 0] * x[0] + R[0, 1] * x[1] + R[0, 2] * x[2], R[1, 0] * x[0] + R[1, 1] * x[1] + R[1, 2] * x[2],
            R[2, 0] * x[0] + R[2, 1] * x[1] + R[2, 2] * x[2])


@njit(cache=True, forceinline=True)
def rotate_back(R, x):
    """``R^T x``."""
    return (R[0, 0] * x[0] + R[1, 0] * x[1] + R[2, 0] * x[2], R[0, 1] * x[0] + R[1, 1] * x[1] + R[2, 1] * x[2],
            R[0, 2] * x[0] + R[1, 2] * x[1] + R[2, 2] * x[2])


@njit(cache=True, forceinline=True)
def perpendicular(a):
    """A unit vector perpendicular to the unit ``a``."""
    e = (0.0, 1.0, 0.0) if abs(a[0]) >= 0.9 else (1.0, 0.0, 0.0)
    t = axpy(e, -dot(e, a), a)
    length = norm(t)
    return t[0] / length, t[1] / length, t[2] / length


@njit(cache=True, forceinline=True)
def unit_or(x, fallback):
    """``x / |x|``, or ``fallback`` for ``x = 0``; and ``|x|``."""
    length = norm(x)
    if length > 0.0:
        return (x[0] / length, x[1] / length, x[2] / length), length
    return fallback, 0.0


NO_CONTACT = (math.inf, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))


# ---------------------------------------------------------------------------------------------- deepest points
@njit(cache=True, refcount=False)
def point_segment(c, a0, a1):
    """The point of the segment ``a0 a1`` nearest ``c``."""
    e = sub(a1, a0)
    ee = dot(e, e)
    t = min(max(dot(sub(c, a0), e) / ee, 0.0), 1.0) if ee > 0.0 else 0.0
    return axpy(a0, t, e)


@njit(cache=True, refcount=False)
def round_cores(x1, r1, x2, r2, axis):
    """``(d, p1, p2, n)`` of two balls of radii ``r1``, ``r2`` centred at the core points ``x1``, ``x2`` (the
    closest points of two spheres' or capsules' cores); the normal along them, else perpendicular to the unit
    ``axis`` of the first core (its centre on the second's)."""
    n, length = unit_or(sub(x2, x1), perpendicular(axis))
    return length - r1 - r2, axpy(x1, r1, n), axpy(x2, -r2, n), n


@njit(cache=True, refcount=False)
def segment_ends(R, p, half_length):
    """The world end points of the segment ``+-half_length`` along the z axis of a frame ``(R, p)``."""
    z = column(R, 2)
    return axpy(p, -half_length, z), axpy(p, half_length, z)


@njit(cache=True, refcount=False)
def box_point(R, p, half, x):
    """``(d, p1, p2, n)`` of a box (half sides ``half``, placed at ``(R, p)``) against the point ``x``: outside, the
    box's nearest point; inside, the nearest face's point (``d < 0``, the normal that face's)."""
    u = rotate_back(R, sub(x, p))
    q = (min(max(u[0], -half[0]), half[0]), min(max(u[1], -half[1]), half[1]), min(max(u[2], -half[2]), half[2]))
    if q[0] != u[0] or q[1] != u[1] or q[2] != u[2]:
        n, length = unit_or(rotate(R, sub(u, q)), (0.0, 0.0, 1.0))
        return length, axpy(p, 1.0, rotate(R, q)), x, n
    best, depth = 0, half[0] - abs(u[0])
    for i in range(1, 3):
        if half[i] - abs(u[i]) < depth:
            best, depth = i, half[i] - abs(u[i])
    s = 1.0 if u[best] >= 0.0 else -1.0
    n = column(R, best)
    n = (s * n[0], s * n[1], s * n[2])
    return -depth, axpy(x, depth, n), x, n


@njit(cache=True, refcount=False)
def cylinder_point(R, p, radius, half_length, x):
    """``(d, p1, p2, n)`` of a cylinder (axis z of ``(R, p)``) against the point ``x``: outside, its nearest point
    (on the side, a cap or the rim); inside, the nearer of the side and the caps."""
    u = rotate_back(R, sub(x, p))
    rho = math.sqrt(u[0] * u[0] + u[1] * u[1])
    radial = (u[0] / rho, u[1] / rho) if rho > 0.0 else (1.0, 0.0)
    if rho <= radius and abs(u[2]) <= half_length:  # inside: through the side or a cap
        s = 1.0 if u[2] >= 0.0 else -1.0
        if radius - rho < half_length - abs(u[2]):
            depth, n = radius - rho, rotate(R, (radial[0], radial[1], 0.0))
        else:
            depth, n = half_length - abs(u[2]), rotate(R, (0.0, 0.0, s))
        return -depth, axpy(x, depth, n), x, n
    r = min(rho, radius)
    q = (r * radial[0], r * radial[1], min(max(u[2], -half_length), half_length))
    n, length = unit_or(rotate(R, sub(u, q)), (0.0, 0.0, 1.0))
    return length, axpy(p, 1.0, rotate(R, q)), x, n


@njit(cache=True, refcount=False)
def box_edge(R, p, half, axis, u):
    """The edge of a box along its ``axis`` at its support along the box-frame direction ``u``: ``(end, end)``."""
    c = p
    for k in range(3):
        if k != axis:
            c = axpy(c, half[k] if u[k] >= 0.0 else -half[k], column(R, k))
    e = column(R, axis)
    return axpy(c, -half[axis], e), axpy(c, half[axis], e)


@njit(cache=True, refcount=False)
def box_segment(R, p, half, a0, a1):
    """``(d, p1, p2, n)`` of a box (half sides ``half`` at ``(R, p)``) and the segment ``a0 a1`` (world). Apart:
    the nearest of the segment's end points against the box and of the segment against the box's 12 edges (the
    nearest points of a segment and a box are one of these pairs). Crossing the box: the separating axis
    theorem on the box's axes and their cross products with the segment's direction, the least overlap the depth,
    the witnesses the segment's deepest point along that axis (an end point) and the box's point below it, or for a
    cross axis the nearest points of the segment and the box's edge along it."""
    u0, u1 = rotate_back(R, sub(a0, p)), rotate_back(R, sub(a1, p))
    t0, t1 = 0.0, 1.0  # Liang-Barsky: the part of the segment inside the box's slabs
    for i in range(3):
        w = u1[i] - u0[i]
        if w == 0.0:
            if abs(u0[i]) > half[i]:
                t0, t1 = 1.0, 0.0
        else:
            lo, hi = (-half[i] - u0[i]) / w, (half[i] - u0[i]) / w
            t0, t1 = max(t0, min(lo, hi)), min(t1, max(lo, hi))
    if t0 > t1:  # apart: the nearest of 14 candidate pairs
        best = box_point(R, p, half, a0)
        other = box_point(R, p, half, a1)
        if other[0] < best[0]:
            best = other
        for axis in range(3):
            for s1 in (-1.0, 1.0):
                for s2 in (-1.0, 1.0):
                    signs = (s1, s2, 0.0) if axis == 2 else ((s1, 0.0, s2) if axis == 1 else (0.0, s1, s2))
                    e0, e1 = box_edge(R, p, half, axis, signs)
                    s, t = segment_segment(e0, e1, a0, a1)
                    x1, x2 = axpy(e0, s, sub(e1, e0)), axpy(a0, t, sub(a1, a0))
                    n, length = unit_or(sub(x2, x1), (0.0, 0.0, 1.0))
                    if length < best[0]:
                        best = (length, x1, x2, n)
        return best
    m = ((u0[0] + u1[0]) * 0.5, (u0[1] + u1[1]) * 0.5, (u0[2] + u1[2]) * 0.5)
    w = ((u1[0] - u0[0]) * 0.5, (u1[1] - u0[1]) * 0.5, (u1[2] - u0[2]) * 0.5)
    best_axis, overlap, axis_u = -1, math.inf, (0.0, 0.0, 1.0)
    for i in range(3):  # the box's face normals
        o = half[i] + abs(w[i]) - abs(m[i])
        if o < overlap:
            e = (1.0 if i == 0 else 0.0, 1.0 if i == 1 else 0.0, 1.0 if i == 2 else 0.0)
            best_axis, overlap, axis_u = i, o, e
    scale = half[0] + half[1] + half[2] + norm(w)
    for i in range(3):  # w x e_i: the segment's projection on it is a point
        e = (1.0 if i == 0 else 0.0, 1.0 if i == 1 else 0.0, 1.0 if i == 2 else 0.0)
        L, length = unit_or(cross(w, e), (0.0, 0.0, 0.0))
        if length <= 1e-12 * norm(w):
            continue
        o = half[0] * abs(L[0]) + half[1] * abs(L[1]) + half[2] * abs(L[2]) - abs(dot(m, L))
        if o < overlap - EDGE_BIAS * scale:
            best_axis, overlap, axis_u = 3 + i, o, L
    if dot(m, axis_u) < 0.0:
        axis_u = neg(axis_u)
    n = rotate(R, axis_u)  # from the box to the segment
    if best_axis < 3:
        x = a0 if dot(u0, axis_u) <= dot(u1, axis_u) else a1  # the segment's deepest end
        return -overlap, axpy(x, overlap, n), x, n
    e0, e1 = box_edge(R, p, half, best_axis - 3, axis_u)  # the box's edge nearest the segment
    s, t = segment_segment(e0, e1, a0, a1)
    return -overlap, axpy(e0, s, sub(e1, e0)), axpy(a0, t, sub(a1, a0)), n


@njit(cache=True, refcount=False)
def box_box(R1, p1, h1, R2, p2, h2):
    """``(d, x1, x2, n, separated)`` of two boxes by the separating axis theorem over their 6 face normals and 9
    edge cross products (an edge axis wins only by ``EDGE_BIAS`` of the boxes' size over the best face axis):
    ``d`` the largest separation over the axes (the depth, negative, when they overlap: the exact penetration
    depth of two boxes), ``n`` its axis from box 1 to box 2; the witnesses the incident box's deepest corner and
    its point on the reference face's plane for a face axis, the nearest points of the two edges for an edge axis.
    When ``separated``, ``d`` is a lower bound of the distance only (the caller runs GJK)."""
    T = sub(p2, p1)
    best, best_d, best_n = -1, -math.inf, (0.0, 0.0, 1.0)
    scale = h1[0] + h1[1] + h1[2] + h2[0] + h2[1] + h2[2]
    for k in range(6):  # face axes
        L = column(R1, k) if k < 3 else column(R2, k - 3)
        s = abs(dot(T, L))
        for j in range(3):
            s -= h1[j] * abs(dot(column(R1, j), L)) + h2[j] * abs(dot(column(R2, j), L))
        if s > best_d:
            best, best_d, best_n = k, s, L
    for i in range(3):  # edge axes
        for j in range(3):
            L, length = unit_or(cross(column(R1, i), column(R2, j)), (0.0, 0.0, 0.0))
            if length <= 1e-9:
                continue
            s = abs(dot(T, L))
            for m in range(3):
                s -= h1[m] * abs(dot(column(R1, m), L)) + h2[m] * abs(dot(column(R2, m), L))
            if s > best_d + EDGE_BIAS * scale:
                best, best_d, best_n = 6 + 3 * i + j, s, L
    n = best_n if dot(T, best_n) >= 0.0 else neg(best_n)
    if best < 3:  # box 1's face: box 2's corner deepest along -n
        x2 = p2
        for j in range(3):
            x2 = axpy(x2, -h2[j] if dot(column(R2, j), n) >= 0.0 else h2[j], column(R2, j))
        return best_d, axpy(x2, -best_d, n), x2, n, best_d > 0.0
    if best < 6:  # box 2's face: box 1's corner deepest along n
        x1 = p1
        for j in range(3):
            x1 = axpy(x1, h1[j] if dot(column(R1, j), n) >= 0.0 else -h1[j], column(R1, j))
        return best_d, x1, axpy(x1, best_d, n), n, best_d > 0.0
    i, j = (best - 6) // 3, (best - 6) % 3
    a0, a1 = box_edge(R1, p1, h1, i, rotate_back(R1, n))
    b0, b1 = box_edge(R2, p2, h2, j, rotate_back(R2, neg(n)))
    s, t = segment_segment(a0, a1, b0, b1)
    return best_d, axpy(a0, s, sub(a1, a0)), axpy(b0, t, sub(b1, b0)), n, best_d > 0.0


@njit(cache=True, refcount=False)
def placement(R, p, out):
    """``out (3, 4) = [R | p]``."""
    for r in range(3):
        out[r, 0], out[r, 1], out[r, 2], out[r, 3] = R[r, 0], R[r, 1], R[r, 2], p[r]


@njit(cache=True, refcount=False)
def convex_convex(a, b, gint, sparam, hull, graph, R, p, margin, room):
    """``(d, p1, p2, n)`` of objects ``a`` and ``b`` by the compiled GJK (and EPA when they overlap) of
    :mod:`rbda.collision` (``collision.narrowphase.shape_distance_in``), :data:`NO_CONTACT` when farther than
    ``margin`` (GJK stops as soon as it proves it)."""
    S, lam, H, out, iterations, P = room[0], room[1], room[2], room[3], room[4], room[5]
    faces, plane, alive, edges, M = room[6], room[7], room[8], room[9], room[10]
    placement(R[a], p[a], M[0])
    placement(R[b], p[b], M[1])
    Va = hull[gint[a, HULL_FIRST]:gint[a, HULL_FIRST] + gint[a, HULL_COUNT]]
    Vb = hull[gint[b, HULL_FIRST]:gint[b, HULL_FIRST] + gint[b, HULL_COUNT]]
    Ga = graph[gint[a, GRAPH_FIRST]:gint[a, GRAPH_FIRST] + gint[a, GRAPH_COUNT]]
    Gb = graph[gint[b, GRAPH_FIRST]:gint[b, GRAPH_FIRST] + gint[b, GRAPH_COUNT]]
    d = shape_distance_in(gint[a, TYPE], sparam[a], Va, Ga, M[0], gint[b, TYPE], sparam[b], Vb, Gb, M[1], GJK[0],
                          GJK[1], GJK[2], out, iterations, margin, S, lam, H, P, faces, plane, alive, edges)
    if d > margin:
        return NO_CONTACT
    return d, row(out, 0), row(out, 1), row(out, 2)


@njit(cache=True, refcount=False)
def deepest(a, b, gint, sparam, hull, graph, R, p, margin, room):
    """``(d, p1, p2, n)`` of objects ``a`` and ``b`` (``gint[a, TYPE] <= gint[b, TYPE]``): a closed form where
    there is one (see the module), else :func:`convex_convex`."""
    ta, tb = gint[a, TYPE], gint[b, TYPE]
    Ra, pa, Pa, Rb, pb, Pb = R[a], row(p, a), sparam[a], R[b], row(p, b), sparam[b]
    if ta == SPHERE and tb == SPHERE:
        return round_cores(pa, Pa[0], pb, Pb[0], (0.0, 0.0, 1.0))
    if ta == SPHERE and tb == CAPSULE:
        b0, b1 = segment_ends(Rb, pb, Pb[1])
        x = point_segment(pa, b0, b1)
        d, p1, p2, n = round_cores(x, Pb[0], pa, Pa[0], column(Rb, 2))
        return d, p2, p1, neg(n)
    if ta == CAPSULE and tb == CAPSULE:
        a0, a1 = segment_ends(Ra, pa, Pa[1])
        b0, b1 = segment_ends(Rb, pb, Pb[1])
        s, t = segment_segment(a0, a1, b0, b1)
        return round_cores(axpy(a0, s, sub(a1, a0)), Pa[0], axpy(b0, t, sub(b1, b0)), Pb[0], column(Ra, 2))
    if ta == SPHERE and (tb == BOX or tb == CYLINDER):
        if tb == BOX:
            d, q, x, n = box_point(Rb, pb, (Pb[0], Pb[1], Pb[2]), pa)
        else:
            d, q, x, n = cylinder_point(Rb, pb, Pb[0], Pb[1], pa)
        return d - Pa[0], axpy(x, -Pa[0], n), q, neg(n)
    if ta == CAPSULE and tb == BOX:
        a0, a1 = segment_ends(Ra, pa, Pa[1])
        d, q, x, n = box_segment(Rb, pb, (Pb[0], Pb[1], Pb[2]), a0, a1)
        return d - Pa[0], axpy(x, -Pa[0], n), q, neg(n)
    if ta == BOX and tb == BOX:
        d, x1, x2, n, separated = box_box(Ra, pa, (Pa[0], Pa[1], Pa[2]), Rb, pb, (Pb[0], Pb[1], Pb[2]))
        if d > margin:
            return NO_CONTACT
        if not separated:
            return d, x1, x2, n
    return convex_convex(a, b, gint, sparam, hull, graph, R, p, margin, room)


# ---------------------------------------------------------------------------------------------- features
@njit(cache=True, refcount=False)
def box_feature(R, p, half, u, out):
    """The feature of a box along the world unit ``u`` (see the module) into ``out``: ``(count, normal)``, 4
    corners of a face counter-clockwise about its outward ``normal``, the 2 ends of an edge, or 1 (a corner)."""
    ul = rotate_back(R, u)
    free = 0
    for i in range(3):
        if abs(ul[i]) <= FEATURE_SINE:
            free += 1
    if free == 2:
        i = 0 if abs(ul[0]) > FEATURE_SINE else (1 if abs(ul[1]) > FEATURE_SINE else 2)
        s = 1.0 if ul[i] >= 0.0 else -1.0
        j, k = (i + 1) % 3, (i + 2) % 3  # e_j x e_k = e_i: (j, k) counter-clockwise about e_i
        c = axpy(p, s * half[i], column(R, i))
        ej, ek = column(R, j), column(R, k)
        for m in range(4):
            a, b = ((1.0, 1.0), (-1.0, 1.0), (-1.0, -1.0), (1.0, -1.0))[m if s > 0.0 else 3 - m]
            x = axpy(axpy(c, a * half[j], ej), b * half[k], ek)
            out[m, 0], out[m, 1], out[m, 2] = x[0], x[1], x[2]
        e = column(R, i)
        return 4, (s * e[0], s * e[1], s * e[2])
    if free == 1:
        axis = 0 if abs(ul[0]) <= FEATURE_SINE else (1 if abs(ul[1]) <= FEATURE_SINE else 2)
        e0, e1 = box_edge(R, p, half, axis, ul)
        out[0, 0], out[0, 1], out[0, 2] = e0[0], e0[1], e0[2]
        out[1, 0], out[1, 1], out[1, 2] = e1[0], e1[1], e1[2]
        return 2, u
    return 1, u


@njit(cache=True, refcount=False)
def axial_feature(R, p, radius, half_length, cylinder, u, out):
    """The feature of a capsule (``cylinder`` False) or a cylinder (``cylinder`` True) along the world unit ``u``:
    its axis (2 ends, lifted to the surface by its radius: a capsule's end spheres, a cylinder's side) when ``u`` is
    perpendicular to it; a cylinder's cap (``CAP_SIDES`` rim points counter-clockwise about its outward normal)
    when ``u`` lies along it; else a point. Returns ``(count, normal)``."""
    z = column(R, 2)
    along = dot(u, z)
    if abs(along) <= FEATURE_SINE:
        e0, e1 = segment_ends(R, (p[0], p[1], p[2]), half_length)
        out[0, 0], out[0, 1], out[0, 2] = e0[0], e0[1], e0[2]
        out[1, 0], out[1, 1], out[1, 2] = e1[0], e1[1], e1[2]
        return 2, u
    if cylinder and abs(along) >= math.sqrt(1.0 - FEATURE_SINE * FEATURE_SINE):
        s = 1.0 if along > 0.0 else -1.0
        c = axpy((p[0], p[1], p[2]), s * half_length, z)
        x_axis, y_axis = column(R, 0), column(R, 1)
        for m in range(CAP_SIDES):
            angle = s * 2.0 * math.pi * m / CAP_SIDES
            x = axpy(axpy(c, radius * math.cos(angle), x_axis), radius * math.sin(angle), y_axis)
            out[m, 0], out[m, 1], out[m, 2] = x[0], x[1], x[2]
        return CAP_SIDES, (s * z[0], s * z[1], s * z[2])
    return 1, u


@njit(cache=True, refcount=False)
def hull_feature(R, p, faces, face_ranges, polygons, first, count, u, out):
    """The feature of a hull along the world unit ``u``: its face (``count`` faces from row ``first`` of ``faces``
    ``[outward normal, offset]`` and ``face_ranges`` ``[first vertex, count]`` in ``polygons``, shape frame)
    whose normal lies within ``FEATURE_SINE`` of ``u``, its vertices counter-clockwise about it (world); else a
    point. Returns ``(count, normal)``."""
    ul = rotate_back(R, u)
    best, best_c = -1, math.sqrt(1.0 - FEATURE_SINE * FEATURE_SINE)
    for f in range(first, first + count):
        c = faces[f, 0] * ul[0] + faces[f, 1] * ul[1] + faces[f, 2] * ul[2]
        if c >= best_c:
            best, best_c = f, c
    if best < 0:
        return 1, u
    start, m = face_ranges[best, 0], face_ranges[best, 1]
    for k in range(m):
        x = axpy((p[0], p[1], p[2]), 1.0, rotate(R, row(polygons, start + k)))
        out[k, 0], out[k, 1], out[k, 2] = x[0], x[1], x[2]
    return m, rotate(R, (faces[best, 0], faces[best, 1], faces[best, 2]))


@njit(cache=True, refcount=False)
def feature(g, gint, sparam, faces, face_ranges, polygons, R, p, u, out):
    """The feature of object ``g`` along the world unit ``u`` (pointing out of it) into ``out (F, 3)``: ``(count,
    normal, radius)``: 1 for a point; 2, a segment, and the radius that lifts it to the surface (a capsule's, along
    any direction; a cylinder's, perpendicular to its axis); 3 or more, a face (vertices counter-clockwise about its
    outward ``normal``)."""
    t = gint[g, TYPE]
    P = sparam[g]
    if t == BOX:
        count, normal = box_feature(R[g], row(p, g), (P[0], P[1], P[2]), u, out)
        return count, normal, 0.0
    if t == CAPSULE or t == CYLINDER:
        count, normal = axial_feature(R[g], p[g], P[0], P[1], t == CYLINDER, u, out)
        return count, normal, P[0] if count == 2 else 0.0
    if t == CONVEX:
        count, normal = hull_feature(R[g], p[g], faces, face_ranges, polygons, gint[g, FACE_FIRST],
                                     gint[g, FACE_COUNT], u, out)
        return count, normal, 0.0
    return 1, u, 0.0


# ---------------------------------------------------------------------------------------------- patches
@njit(cache=True, refcount=False)
def clip_polygon(polygon, count, point, inward, out):
    """Sutherland-Hodgman: the vertices of the convex polygon ``polygon[:count]`` on the side ``inward . (x -
    point) >= 0`` of a plane, into ``out``; returns how many."""
    m = 0
    for k in range(count):
        a, b = row(polygon, k), row(polygon, (k + 1) % count)
        sa, sb = dot(sub(a, point), inward), dot(sub(b, point), inward)
        if sa >= 0.0:
            out[m, 0], out[m, 1], out[m, 2] = a[0], a[1], a[2]
            m += 1
        if (sa >= 0.0) != (sb >= 0.0):  # the edge crosses the plane
            x = axpy(a, sa / (sa - sb), sub(b, a))
            out[m, 0], out[m, 1], out[m, 2] = x[0], x[1], x[2]
            m += 1
    return m


@njit(cache=True, refcount=False)
def clip_segment(reference, count, normal, e0, e1):
    """The part ``[t0, t1]`` of the segment ``e0 + t (e1 - e0)`` inside the prism of the face ``reference[:count]``
    (outward ``normal``); empty when ``t0 > t1``."""
    t0, t1 = 0.0, 1.0
    for k in range(count):
        a = row(reference, k)
        inward = cross(normal, sub(row(reference, (k + 1) % count), a))
        s0, s1 = dot(sub(e0, a), inward), dot(sub(e1, a), inward)
        if s0 < 0.0 and s1 < 0.0:
            return 1.0, 0.0
        if s0 < 0.0:
            t0 = max(t0, s0 / (s0 - s1))
        elif s1 < 0.0:
            t1 = min(t1, s0 / (s0 - s1))
    return t0, t1


@njit(cache=True, refcount=False)
def face_patch(reference, count, normal, incident, incident_count, radius, cylinder, margin, clipped, patch):
    """The contacts of a face ``reference[:count]`` (outward unit ``normal``) and the other shape's feature
    ``incident[:incident_count]`` (a face, or a segment lifted to the surface by ``radius`` along ``-w``: ``w =
    normal`` for a capsule's axis, the part of ``normal`` perpendicular to it for a ``cylinder``'s): the feature
    (lifted) clipped to the face's prism, each clipped vertex ``x`` within ``margin`` as a row ``[d, x]`` of
    ``patch``, ``d = normal . (x - face)``; returns how many."""
    a0 = row(reference, 0)
    m = 0
    if incident_count == 2:
        w = normal
        if cylinder:
            axis = unit_or(sub(row(incident, 1), row(incident, 0)), normal)[0]
            w = unit_or(axpy(normal, -dot(normal, axis), axis), normal)[0]
        e0, e1 = axpy(row(incident, 0), -radius, w), axpy(row(incident, 1), -radius, w)
        t0, t1 = clip_segment(reference, count, normal, e0, e1)
        if t0 > t1:
            return 0
        for end in range(2 if t1 > t0 else 1):
            x = axpy(e0, t0 if end == 0 else t1, sub(e1, e0))
            d = dot(sub(x, a0), normal)
            if d <= margin:
                patch[m, 0], patch[m, 1], patch[m, 2], patch[m, 3] = d, x[0], x[1], x[2]
                m += 1
        return m
    source, n = incident, incident_count
    for k in range(count):
        a = row(reference, k)
        inward = cross(normal, sub(row(reference, (k + 1) % count), a))
        target = clipped[k % 2]
        n = clip_polygon(source, n, a, inward, target)
        source = target
        if n == 0:
            return 0
    for k in range(n):
        x = row(source, k)
        d = dot(sub(x, a0), normal)
        if d <= margin:
            patch[m, 0], patch[m, 1], patch[m, 2], patch[m, 3] = d, x[0], x[1], x[2]
            m += 1
    return m


@njit(cache=True, refcount=False)
def segment_patch(a0, a1, ra, b0, b1, rb, margin, patch, rows):
    """Two parallel segments (lifted by ``ra``, ``rb``): at each end of their overlap along the first, the point
    of the second segment and the first's nearest point, as rows ``[d, p1, p2, n]`` within ``margin``; returns how
    many (0 without an overlap)."""
    e = sub(a1, a0)
    length2 = dot(e, e)
    if length2 <= 0.0:
        return 0
    tb0, tb1 = dot(sub(b0, a0), e) / length2, dot(sub(b1, a0), e) / length2
    lo, hi = max(0.0, min(tb0, tb1)), min(1.0, max(tb0, tb1))
    if not hi > lo:
        return 0
    m = 0
    for t in (lo, hi):
        xa = axpy(a0, t, e)
        xb = point_segment(xa, b0, b1)
        d, p1, p2, n = round_cores(point_segment(xb, a0, a1), ra, xb, rb, perpendicular(unit_or(e, e)[0]))
        if d <= margin:
            write_row(rows, m, d, p1, p2, n)
            m += 1
    return m


@njit(cache=True, forceinline=True)
def write_row(rows, k, d, p1, p2, n):
    rows[k, 0] = d
    for r in range(3):
        rows[k, 1 + r], rows[k, 4 + r], rows[k, 7 + r] = p1[r], p2[r], n[r]


@njit(cache=True, refcount=False)
def with_deepest(rows, m, d, p1, p2, n):
    """The ``m`` rows of a patch, and the deepest point ``(d, p1, p2, n)`` after them if the patch's least distance
    exceeds its by more than ``PATCH_SLACK`` (it lies over a face's edge, or between two segments' ends); returns
    how many rows."""
    least = math.inf
    for c in range(m):
        least = min(least, rows[c, 0])
    if least > d + PATCH_SLACK:
        write_row(rows, m, d, p1, p2, n)
        return m + 1
    return m


@njit(cache=True, refcount=False)
def manifold(a, b, d, p1, p2, n, gint, sparam, hull, graph, faces, face_ranges, polygons, R, p, margin, room, rows):
    """The contacts of objects ``a`` and ``b`` whose deepest point is ``(d, p1, p2, n)`` (see the module) as rows
    ``[d, p1, p2, n]`` of ``rows``; returns how many."""
    feats, clipped, patch, keep = room[11], room[12], room[13], room[14]
    ka, fa, ra = feature(a, gint, sparam, faces, face_ranges, polygons, R, p, n, feats[0])
    kb, fb, rb = feature(b, gint, sparam, faces, face_ranges, polygons, R, p, neg(n), feats[1])
    m = 0
    if ka >= 3 or kb >= 3:
        a_reference = ka >= 3 and (kb < 3 or dot(fa, n) >= -dot(fb, n))
        if a_reference and kb >= 2:
            m = face_patch(feats[0], ka, fa, feats[1], kb, rb, gint[b, TYPE] == CYLINDER, margin, clipped, patch)
        elif not a_reference and ka >= 2:
            m = face_patch(feats[1], kb, fb, feats[0], ka, ra, gint[a, TYPE] == CYLINDER, margin, clipped, patch)
        if m > 0:
            f = fa if a_reference else fb
            kept = m
            if m > PATCH_POINTS:
                kept = reduce_patch(f, patch, m, keep)
            for c in range(kept):
                i = keep[c] if m > PATCH_POINTS else c
                x, depth = (patch[i, 1], patch[i, 2], patch[i, 3]), patch[i, 0]
                on_face = axpy(x, -depth, f)  # the reference face's point; x the incident feature's
                if a_reference:
                    write_row(rows, c, depth, on_face, x, f)
                else:
                    write_row(rows, c, depth, x, on_face, neg(f))
            return with_deepest(rows, kept, d, p1, p2, n)
    elif ka == 2 and kb == 2:
        a0, a1, b0, b1 = row(feats[0], 0), row(feats[0], 1), row(feats[1], 0), row(feats[1], 1)
        ua, ub = unit_or(sub(a1, a0), n)[0], unit_or(sub(b1, b0), n)[0]
        if abs(dot(ua, ub)) >= math.sqrt(1.0 - FEATURE_SINE * FEATURE_SINE):
            m = segment_patch(a0, a1, ra, b0, b1, rb, margin, patch, rows)
            if m > 0:
                return with_deepest(rows, m, d, p1, p2, n)
    write_row(rows, 0, d, p1, p2, n)
    return 1 + axis_ends(a, b, p1, p2, n, gint, sparam, hull, graph, R, p, margin, room, rows)


@njit(cache=True, refcount=False)
def axis_ends(a, b, p1, p2, n, gint, sparam, hull, graph, R, p, margin, room, rows):
    """The contacts of the two ends of a capsule's or a cylinder's axis (the object of ``a`` and ``b`` that is
    one, the other not a sphere) besides the lone deepest point ``(p1, p2, n)``, as rows after ``rows[0]``; returns
    how many. As against a half-space (its two end spheres, its caps' lowest rim points), each end is a contact of
    its own where it lies within ``margin``: a capsule's end sphere, a cylinder's rim point of that cap nearest the
    other shape, each against the other shape by GJK/EPA (:func:`end_contact`). One deepest point leaves a
    segment free to turn about it: a cylinder lying across a nearly flat face (a flat ellipsoid's) turns within a
    step and drives its far end into the face, which the end's own row (a gap row while the end is apart, its
    impulse zero unless the step closes it) prevents. An end is skipped when the deepest point lies on it (within
    :data:`END_GAP` of the axis' length) or when it lies beyond ``margin`` of the plane through the deepest point
    normal to ``n``, which bounds the other shape."""
    axial = a
    if gint[a, TYPE] != CAPSULE and gint[a, TYPE] != CYLINDER:
        axial = b
    other = b if axial == a else a
    t = gint[axial, TYPE]
    if (t != CAPSULE and t != CYLINDER) or gint[other, TYPE] == SPHERE:
        return 0
    radius, half = sparam[axial, 0], sparam[axial, 1]
    toward = n if axial == a else neg(n)  # from the axial shape to the other
    on_axial, on_other = (p1, p2) if axial == a else (p2, p1)
    z = column(R[axial], 2)
    lift = toward  # a capsule's end sphere reaches furthest towards the other shape along it, a cylinder's rim
    if t == CYLINDER:  # along its part perpendicular to the axis (any, if there is none: an axis along the normal)
        w, length = unit_or(axpy(toward, -dot(toward, z), z), toward)
        lift = unit_or(axpy(w, -dot(w, z), z), toward)[0] if length > AXIS_SINE else perpendicular(z)
    along = min(half, max(-half, dot(sub(on_axial, (p[axial, 0], p[axial, 1], p[axial, 2])), z)))  # on the axis
    count = 0
    for s in (-1.0, 1.0):
        if abs(s * half - along) <= END_GAP * 2.0 * half:
            continue
        e = axpy((p[axial, 0], p[axial, 1], p[axial, 2]), s * half, z)
        if dot(sub(on_other, axpy(e, radius, lift)), toward) > margin:  # beyond the plane bounding the other
            continue
        end_radius = radius if t == CAPSULE else 0.0
        if t == CYLINDER:
            e = axpy(e, radius, lift)
        d, q1, q2, m = end_contact(e, end_radius, other, axial == a, gint, sparam, hull, graph, R, p, margin, room)
        if d <= margin:
            write_row(rows, 1 + count, d, q1, q2, m)
            count += 1
    return count


@njit(cache=True, refcount=False)
def end_contact(centre, radius, other, first, gint, sparam, hull, graph, R, p, margin, room):
    """``(d, p1, p2, n)`` of the sphere of ``radius`` (0: a point) at ``centre`` (world) and object ``other`` by
    the compiled GJK/EPA, the sphere the pair's first object if ``first``; :data:`NO_CONTACT` beyond ``margin``."""
    S, lam, H, out, iterations, P = room[0], room[1], room[2], room[3], room[4], room[5]
    faces, plane, alive, edges, M = room[6], room[7], room[8], room[9], room[10]
    for r in range(3):
        M[0, r, 0], M[0, r, 1], M[0, r, 2], M[0, r, 3] = 0.0, 0.0, 0.0, centre[r]
        M[0, r, r] = 1.0
    placement(R[other], p[other], M[1])
    sphere = room[15]
    sphere[0], sphere[1], sphere[2], sphere[3] = radius, 0.0, 0.0, 0.0
    V = hull[gint[other, HULL_FIRST]:gint[other, HULL_FIRST] + gint[other, HULL_COUNT]]
    G = graph[gint[other, GRAPH_FIRST]:gint[other, GRAPH_FIRST] + gint[other, GRAPH_COUNT]]
    if first:
        d = shape_distance_in(SPHERE, sphere, hull[0:0], graph[0:0], M[0], gint[other, TYPE], sparam[other], V, G,
                              M[1], GJK[0], GJK[1], GJK[2], out, iterations, margin, S, lam, H, P, faces, plane,
                              alive, edges)
    else:
        d = shape_distance_in(gint[other, TYPE], sparam[other], V, G, M[1], SPHERE, sphere, hull[0:0], graph[0:0],
                              M[0], GJK[0], GJK[1], GJK[2], out, iterations, margin, S, lam, H, P, faces, plane,
                              alive, edges)
    if d > margin:
        return NO_CONTACT
    return d, row(out, 0), row(out, 1), row(out, 2)


@njit(cache=True, refcount=False)
def shape_pair(a, b, gint, sparam, hull, graph, faces, face_ranges, polygons, R, p, margin, room, rows):
    """The contacts of the bounded objects ``a`` and ``b`` (placed at ``R[a], p[a]`` and ``R[b], p[b]``) within
    ``margin``: rows ``[d, p1 (3), p2 (3), n (3)]`` of ``rows`` (``p1`` on ``a``, ``p2`` on ``b``, ``n`` from ``a``
    to ``b``); returns how many (see the module). ``room``: :func:`pair_room`'s arrays."""
    swap = gint[a, TYPE] > gint[b, TYPE]  # the closed forms take the smaller type code first
    if swap:
        a, b = b, a
    d, p1, p2, n = deepest(a, b, gint, sparam, hull, graph, R, p, margin, room)
    if d > margin:
        return 0
    count = manifold(a, b, d, p1, p2, n, gint, sparam, hull, graph, faces, face_ranges, polygons, R, p, margin, room,
                     rows)
    if swap:
        for c in range(count):
            for r in range(3):
                rows[c, 1 + r], rows[c, 4 + r], rows[c, 7 + r] = rows[c, 4 + r], rows[c, 1 + r], -rows[c, 7 + r]
    return count


def most_contacts(type_a: int, type_b: int) -> int:
    """The most contacts of a pair of bounded shapes of these ``collision.support`` type codes: the smaller of
    their features' (:data:`POINT`, :data:`SEGMENT`, :data:`FACE`: a patch and the deepest point; two segments, or
    a segment and a face, give a segment's)."""
    def most(t):
        return FACE if t in (BOX, CYLINDER, CONVEX) else (SEGMENT if t == CAPSULE else POINT)
    axial = {CAPSULE, CYLINDER} & {type_a, type_b} and SPHERE not in (type_a, type_b)
    return max(min(most(type_a), most(type_b)), SEGMENT if axial else POINT)  # (axis_ends: the deepest and 2 ends)


# ---------------------------------------------------------------------------------------------- packing (Python)
def hull_faces(vertices: np.ndarray, faces: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The faces of the convex hull of ``vertices (n, 3)`` triangulated by ``faces (m, 3)``: ``(unit outward
    normal (3,), polygon (k, 3))`` each, the polygon counter-clockwise about the normal (coplanar triangles merged
    into one face)."""
    V, F = np.asarray(vertices, dtype=float), np.asarray(faces, dtype=np.int64)
    normals = np.cross(V[F[:, 1]] - V[F[:, 0]], V[F[:, 2]] - V[F[:, 0]])
    normals /= np.linalg.norm(normals, axis=1)[:, None]
    keys, group = np.unique(np.round(normals, 6), axis=0, return_inverse=True)
    out = []
    for g in range(len(keys)):
        n = normals[group.ravel() == g].mean(axis=0)
        n /= np.linalg.norm(n)
        P = V[np.unique(F[group.ravel() == g])]
        c = P.mean(axis=0)
        u = np.cross(n, [1.0, 0.0, 0.0] if abs(n[0]) < 0.9 else [0.0, 1.0, 0.0])
        u /= np.linalg.norm(u)
        angle = np.arctan2((P - c) @ np.cross(n, u), (P - c) @ u)  # counter-clockwise about n
        out.append((n, P[np.argsort(angle)]))
    return out


_TABLES: dict = {}  # id(shape) -> (shape, its row of the shape tables): each shape is packed once


def shape_table(shape, name: str = "shape"):
    """``(type code, params (4,), hull vertices (n, 3), vertex graph, faces [(normal, polygon)])`` of one shape
    (``collision.shapes.shape_row``, whose errors name ``name``; the faces of a hull)."""
    cached = _TABLES.get(id(shape))
    if cached is not None and cached[0] is shape:
        return cached[1]
    from ..collision.shapes import shape_row
    from ..model.meshes import convex_hull

    code, params, vertices, graph = shape_row(shape, name)
    faces = hull_faces(vertices, convex_hull(vertices).faces) if int(code) == CONVEX else []
    _TABLES[id(shape)] = shape, (int(code), params, vertices, graph, faces)
    return _TABLES[id(shape)][1]


def shape_tables(shapes, names=None) -> tuple:
    """The shape tables of :func:`shape_pair` for the list ``shapes``: ``(columns (n, 7) int: gint's from
    :data:`TYPE` on, sparam (n, 4), hull (m, 3), graph (k,) int, faces (f, 4) [outward normal, offset], face_ranges
    (f, 2) int, polygons (v, 3), the most vertices of a face)``, in each shape's frame. Raises ``ValueError`` or
    ``TypeError`` naming the shape (by ``names``, one per shape) for a shape ``collision.shapes.shape_row``
    refuses."""
    columns = np.zeros((len(shapes), 7), dtype=np.int64)
    sparam = np.zeros((len(shapes), 4))
    hull, graph, faces, ranges, polygons = [], [], [], [], []
    counts = [0, 0, 0, 0]  # hull vertices, graph entries, faces, polygon vertices so far
    for g, shape in enumerate(shapes):
        code, params, V, G, F = shape_table(shape, names[g] if names is not None else f"shape {g}")
        columns[g] = code, counts[0], len(V), counts[1], len(G), counts[2], len(F)
        sparam[g] = params
        hull.append(V)
        graph.append(G)
        for n, P in F:
            faces.append([*n, float(n @ P[0])])
            ranges.append([counts[3], len(P)])
            polygons.append(P)
            counts[3] += len(P)
        counts[0], counts[1], counts[2] = counts[0] + len(V), counts[1] + len(G), counts[2] + len(F)
    def stacked(blocks, shape, dtype=float):
        return np.ascontiguousarray(np.concatenate(blocks) if blocks else np.zeros(shape), dtype=dtype)
    widest = max([len(P) for P in polygons], default=0)
    return (columns, sparam, stacked(hull, (0, 3)).reshape(-1, 3), stacked(graph, (0,), np.int64),
            stacked([np.reshape(f, (1, 4)) for f in faces], (0, 4)), stacked(
                [np.reshape(r, (1, 2)) for r in ranges], (0, 2), np.int64), stacked(polygons, (0, 3)).reshape(-1, 3),
            widest)


def bounded_pair(shape1, M1, shape2, M2, margin):
    """The pair function (see :mod:`rbda.simulation.contacts`) of two bounded convex shapes placed at ``M1``,
    ``M2`` (each ``(R (3, 3), p (3,))``): :func:`shape_pair`'s contacts as ``(distance, p1, p2, normal)`` tuples,
    normal from 1 to 2 (the compiled step's, for the Python stages)."""
    columns, sparam, hull, graph, faces, face_ranges, polygons, widest = shape_tables([shape1, shape2])
    gint = np.zeros((2, TYPE + 7), dtype=np.int64)
    gint[:, TYPE:] = columns
    R = np.ascontiguousarray([M1[0], M2[0]], dtype=float)
    p = np.ascontiguousarray([M1[1], M2[1]], dtype=float)
    rows = np.empty((FACE, 10))
    count = shape_pair(0, 1, gint, sparam, hull, graph, faces, face_ranges, polygons, R, p, float(margin),
                       pair_room(widest), rows)
    return [(float(r[0]), r[1:4].copy(), r[4:7].copy(), r[7:10].copy()) for r in rows[:count]]


for _a in (Sphere, Capsule, Box, Cylinder, Cone, Ellipsoid, Mesh, Convex):  # every pair of bounded shapes
    for _b in (Sphere, Capsule, Box, Cylinder, Cone, Ellipsoid, Mesh, Convex):
        PAIR_FUNCTIONS[(_a, _b)] = bounded_pair
