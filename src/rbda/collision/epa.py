"""EPA: penetration depth of two overlapping convex shapes (van den Bergen 2001, the Expanding Polytope
Algorithm).

Starting from a tetrahedron inside the Minkowski difference ``D = A - B`` that contains the origin (GJK's final
simplex, completed with support points where it has fewer than four vertices), EPA repeatedly takes the face
closest to the origin, adds the support point of ``D`` along that face's outward normal, and replaces the faces
the new point sees by the fan from it to their horizon. It stops when the support point is no farther than the
face (``n . w - dist <= tolerance * max(1, dist)``): that face's plane is then the boundary of ``D`` closest to
the origin, its distance the depth ``p``, and moving B by ``p n`` separates the shapes.
"""

from __future__ import annotations

import math

import numpy as np

from .._native.jit import njit

from .gjk import minkowski_support
from .vectors import cross, sub

MAX_VERTICES = 260
MAX_FACES = 2 * MAX_VERTICES


@njit(cache=True, refcount=False)
def _set_face(P, faces, plane, f, i, j, k):
    """Face ``f`` = vertices ``(i, j, k)`` of the polytope rows ``P[:, 0:3]``: unit normal ``(b - a) x (c - a)``
    and distance to the origin into ``plane[f]``."""
    a, b, c = P[i, 0:3], P[j, 0:3], P[k, 0:3]
    n = cross(sub(b, a), sub(c, a))
    norm = math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
    faces[f, 0], faces[f, 1], faces[f, 2] = i, j, k
    if norm > 0.0:
        plane[f, 0], plane[f, 1], plane[f, 2] = n[0] / norm, n[1] / norm, n[2] / norm
        plane[f, 3] = (plane[f, 0] * a[0] + plane[f, 1] * a[1] + plane[f, 2] * a[2])
    else:  # a sliver: never the closest face
        plane[f, 0], plane[f, 1], plane[f, 2], plane[f, 3] = 0.0, 0.0, 1.0, math.inf


@njit(cache=True, refcount=False)
def _push(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, d, S, H, P, nv):
    """Support point of ``A - B`` along ``d`` into polytope row ``nv``: ``[w | a | b]``."""
    minkowski_support(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, d, S, 3, H)
    for r in range(3):
        P[nv, r], P[nv, 3 + r], P[nv, 6 + r] = S[3, r], S[7, r], S[11, r]


@njit(cache=True, refcount=False)
def _insert(P, faces, plane, alive, edges, nf, nv):
    """Add polytope vertex ``nv`` (rows ``P``): remove the faces it sees, join it to their horizon (the edges
    whose reverse is not among theirs). Returns the new count of face slots."""
    w = P[nv, 0:3]
    eps = 1e-13 * max(1.0, abs(w[0]) + abs(w[1]) + abs(w[2]))
    ne = 0
    for f in range(nf):
        if alive[f] and plane[f, 0] * w[0] + plane[f, 1] * w[1] + plane[f, 2] * w[2] - plane[f, 3] > eps:
            alive[f] = False
            for e in range(3):
                edges[ne, 0], edges[ne, 1] = faces[f, e], faces[f, (e + 1) % 3]
                ne += 1
    for e in range(ne):
        a, b = edges[e, 0], edges[e, 1]
        shared = False
        for g in range(ne):
            if edges[g, 0] == b and edges[g, 1] == a:
                shared = True
                break
        if shared:
            continue
        f = 0
        while f < nf and alive[f]:
            f += 1
        if f == MAX_FACES:
            break
        _set_face(P, faces, plane, f, a, b, nv)
        alive[f] = True
        nf = max(nf, f + 1)
    return nf


@njit(cache=True, refcount=False)
def _flat(P, i, j, k, m, eps):
    """Whether ``P[m]`` is within ``eps`` of the plane of ``P[i], P[j], P[k]``."""
    n = cross(sub(P[j, 0:3], P[i, 0:3]), sub(P[k, 0:3], P[i, 0:3]))
    nn = math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
    d = sub(P[m, 0:3], P[i, 0:3])
    return abs(n[0] * d[0] + n[1] * d[1] + n[2] * d[2]) <= eps * nn


@njit(cache=True)
def epa_room():
    """The scratch arrays of :func:`epa_in`: ``(P (MAX_VERTICES, 9), faces (MAX_FACES, 3) int, plane (MAX_FACES,
    4), alive (MAX_FACES,) bool, edges (3 MAX_FACES, 2) int)``, the polytope's rows ``[w | a | b]``, its faces,
    their planes (unit outward normal, distance of the origin), which are alive, and the horizon's edges."""
    return (np.empty((MAX_VERTICES, 9)), np.empty((MAX_FACES, 3), dtype=np.int64), np.empty((MAX_FACES, 4)),
            np.zeros(MAX_FACES, dtype=np.bool_), np.empty((3 * MAX_FACES, 2), dtype=np.int64))


@njit(cache=True)
def epa(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, S, lam, H, n, tolerance, max_iterations, out):
    """:func:`epa_in` with its scratch arrays allocated here (:func:`epa_room`)."""
    P, faces, plane, alive, edges = epa_room()
    return epa_in(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, S, lam, H, n, tolerance, max_iterations, out, P, faces,
                  plane, alive, edges)


@njit(cache=True, refcount=False)
def epa_in(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, S, lam, H, n, tolerance, max_iterations, out, P, faces, plane,
           alive, edges):
    """Penetration of the cores whose GJK simplex (``S``, ``lam``, ``n`` vertices) touches or contains the origin
    (``H``: the hull search starts, as GJK left them). Writes ``out[0]`` the point of A, ``out[1]`` the point of B,
    ``out[2]`` the unit normal ``n`` (moving B by ``depth n`` separates the shapes) and returns ``(depth,
    iterations)``; a negative depth (an origin just outside the simplex, when GJK stalled near contact) is a
    separation.

    A simplex of fewer than four points has the origin on it: it is completed to a polytope around the origin with
    support points along its normals (a segment: one normal ``d`` and ``-d``, then the triangle's two normals); if
    one of them adds no volume, the origin is on the boundary of ``A - B`` and the depth is 0.

    ``P, faces, plane, alive, edges``: the scratch arrays (:func:`epa_room`, their former contents unread); it
    allocates nothing."""
    for i in range(n):
        for r in range(3):
            P[i, r], P[i, 3 + r], P[i, 6 + r] = S[i, r], S[4 + i, r], S[8 + i, r]
    scale = 0.0
    for i in range(n):
        scale = max(scale, abs(P[i, 0]) + abs(P[i, 1]) + abs(P[i, 2]))
    eps = 1e-10 * max(scale, 1e-300)
    extra = 0  # support points still to insert after the first tetrahedron
    n_gjk = n
    if n == 2:  # a normal d of the segment, then -d
        e = sub(P[1, 0:3], P[0, 0:3])
        k = 0 if abs(e[0]) <= abs(e[1]) and abs(e[0]) <= abs(e[2]) else (1 if abs(e[1]) <= abs(e[2]) else 2)
        axis = (1.0 if k == 0 else 0.0, 1.0 if k == 1 else 0.0, 1.0 if k == 2 else 0.0)
        d = cross(e, axis)
        _push(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, d, S, H, P, 2)
        _push(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, (-d[0], -d[1], -d[2]), S, H, P, 5)
        for m, sign in ((2, 1.0), (5, -1.0)):
            c = cross(e, sub(P[m, 0:3], P[0, 0:3]))
            if c[0] * c[0] + c[1] * c[1] + c[2] * c[2] <= (eps * eps) * (e[0] * e[0] + e[1] * e[1] + e[2] * e[2]):
                return _touching(S, lam, n_gjk, (sign * d[0], sign * d[1], sign * d[2]), P[m, 0:3], out)
        n, extra = 3, 1
    if n == 3:  # the triangle's two normals
        nrm = cross(sub(P[1, 0:3], P[0, 0:3]), sub(P[2, 0:3], P[0, 0:3]))
        _push(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, nrm, S, H, P, 3)
        _push(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, (-nrm[0], -nrm[1], -nrm[2]), S, H, P, 4)
        for m, sign in ((3, 1.0), (4, -1.0)):
            if _flat(P, 0, 1, 2, m, eps):
                return _touching(S, lam, n_gjk, (sign * nrm[0], sign * nrm[1], sign * nrm[2]), P[m, 0:3], out)
        n, extra = 4, extra + 1
    if n == 1:
        return _touching(S, lam, n_gjk, (0.0, 0.0, 0.0), P[0, 0:3], out)
    from_ = ((0, 1, 2, 3), (0, 3, 1, 2), (0, 2, 3, 1), (1, 3, 2, 0))
    for f in range(4):  # orient each face away from the opposite vertex
        i, j, k, o = from_[f]
        _set_face(P, faces, plane, f, i, j, k)
        if plane[f, 0] * P[o, 0] + plane[f, 1] * P[o, 1] + plane[f, 2] * P[o, 2] > plane[f, 3]:
            _set_face(P, faces, plane, f, i, k, j)
        alive[f] = True
    nf, nv = 4, 4
    for _ in range(extra):
        nf = _insert(P, faces, plane, alive, edges, nf, nv)
        nv += 1
    it, depth = 0, -math.inf
    while True:
        best, dist = -1, math.inf
        for f in range(nf):
            if alive[f] and plane[f, 3] < dist:
                best, dist = f, plane[f, 3]
        if dist < depth - 1e-12 * max(1.0, depth):
            break  # the lower bound fell: rounding broke the polytope's convexity; keep the last face
        depth = dist
        _face_result(P, faces, plane, best, out)
        if it >= max_iterations or nv == MAX_VERTICES:
            break
        nrm = (plane[best, 0], plane[best, 1], plane[best, 2])
        _push(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, nrm, S, H, P, nv)
        it += 1
        if nrm[0] * P[nv, 0] + nrm[1] * P[nv, 1] + nrm[2] * P[nv, 2] - dist <= tolerance * max(1.0, dist):
            break
        nf = _insert(P, faces, plane, alive, edges, nf, nv)
        nv += 1
    return depth, it


@njit(cache=True, refcount=False)
def _touching(S, lam, n, normal, w, out):
    """The origin on (or within rounding of) a flat part of the boundary of ``A - B`` with outward ``normal``
    and ``w`` a point of it: depth ``normal . w`` (about 0), witness points at GJK's closest point (simplex
    ``S``, weights ``lam``), ``p2 = p1 - depth normal``. With a zero ``normal``, depth 0 and ``out[2]`` zero (the
    caller chooses a normal)."""
    nn = math.sqrt(normal[0] ** 2 + normal[1] ** 2 + normal[2] ** 2)
    depth = (normal[0] * w[0] + normal[1] * w[1] + normal[2] * w[2]) / nn if nn > 0.0 else 0.0
    for r in range(3):
        out[0, r] = 0.0
        for i in range(n):
            out[0, r] += lam[i] * S[4 + i, r]
        out[2, r] = normal[r] / nn if nn > 0.0 else 0.0
        out[1, r] = out[0, r] - depth * out[2, r]
    return depth, 0


@njit(cache=True, refcount=False)
def _face_result(P, faces, plane, f, out):
    """The point ``dist n`` of face ``f`` nearest the origin, in barycentric coordinates of its triangle, gives
    the witness points ``out[0]`` (on A) and ``out[1]`` (on B); ``out[2]`` is the face normal."""
    i, j, k = faces[f, 0], faces[f, 1], faces[f, 2]
    nrm, dist = (plane[f, 0], plane[f, 1], plane[f, 2]), plane[f, 3]
    x = (dist * nrm[0], dist * nrm[1], dist * nrm[2])
    a, b, c = P[i, 0:3], P[j, 0:3], P[k, 0:3]
    full = cross(sub(b, a), sub(c, a))
    area = full[0] * nrm[0] + full[1] * nrm[1] + full[2] * nrm[2]
    u, v = 1.0, 0.0
    if area > 0.0:  # u = area(x b c) / area(a b c), v = area(x c a) / area(a b c)
        ub, vb = cross(sub(b, x), sub(c, x)), cross(sub(c, x), sub(a, x))
        u = (ub[0] * nrm[0] + ub[1] * nrm[1] + ub[2] * nrm[2]) / area
        v = (vb[0] * nrm[0] + vb[1] * nrm[1] + vb[2] * nrm[2]) / area
    w = 1.0 - u - v
    for r in range(3):
        out[0, r] = u * P[i, 3 + r] + v * P[j, 3 + r] + w * P[k, 3 + r]
        out[1, r] = u * P[i, 6 + r] + v * P[j, 6 + r] + w * P[k, 6 + r]
        out[2, r] = nrm[r]
