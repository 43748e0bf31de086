"""GJK distance between two convex shapes (Gilbert, Johnson & Keerthi 1988), vanilla or Nesterov-accelerated.

GJK minimises ``|x|`` over the Minkowski difference ``D = A - B`` of the two cores, keeping a simplex of up to
four points ``w_i = a_i - b_i`` (``a_i``, ``b_i`` support points of A and B) and the point ``v`` of the simplex
closest to the origin. Each iteration adds the support point of ``D`` along ``-v`` (or, accelerated, along a
momentum direction) and projects the origin on the new simplex (Ericson, *Real-Time Collision Detection*, 5.1.5).

Stopping: ``w`` being the support along ``-v``, every point of ``D`` satisfies ``v . x >= v . w``, so
``|v| - d <= (v.v - v.w) / |v|`` (the Frank-Wolfe duality gap over ``2 |v|``); the loop stops when that bound
is below ``tolerance * |v|``; ``v . w / |v|`` is a lower bound of the distance, which GJK returns too (positive:
the shapes are apart, though GJK may stall before it meets its tolerance). The Nesterov variant (Montaut, Le Lidec, Petrik, Sivic & Carpentier, RSS 2022,
Algorithm 2) takes the support along ``d_k = delta_k d_{k-1} + (1 - delta_k) y_k``,
``y_k = delta_k v_k + (1 - delta_k) w_{k-1}``, ``delta_k = (k + 1) / (k + 3)``; since the gap is only a bound
for the support along ``-v``, once the gap test passes it falls back to vanilla steps, and only a vanilla step
stops.

The scratch array ``S`` ``(16, 3)`` holds the simplex: rows 0-3 ``w_i``, 4-7 ``a_i``, 8-11 ``b_i``; ``lam``
``(4,)`` its barycentric coordinates; ``H`` ``(2,)`` int the last support vertices of two convex hulls, where
the next support search starts (0 at first). A shape is its type ``t``, parameters ``P`` ``(4,)``, hull vertices
``V`` ``(n, 3)`` and vertex graph ``G`` (see ``support``), and world placement ``M`` ``(3, 4)``.
"""

from __future__ import annotations

import math

from .._native.jit import njit

from .support import BOX, CONE, CONVEX, CYLINDER, support_world
from .vectors import dot

VANILLA, NESTEROV = 0, 1
INTERSECTION_NORM = 1e-12  # |v| below this: the cores touch or overlap
MAX_STALLS = 4  # iterations in a row without progress before GJK stops


@njit(cache=True, refcount=False)
def _reduce(S, n, weights, lam):
    """Keep the simplex vertices ``i < n`` of positive ``weights[i]`` (moved down in ``S``, in order), with those
    weights in ``lam``; returns their count."""
    m = 0
    for i in range(n):
        if weights[i] > 0.0:
            if i != m:
                for blk in (0, 4, 8):
                    for r in range(3):
                        S[blk + m, r] = S[blk + i, r]
            lam[m] = weights[i]
            m += 1
    return m


@njit(cache=True, refcount=False)
def segment_weights(a, b):
    """Barycentric weights ``(1 - t, t)`` of the point of segment ``ab`` closest to the origin."""
    ab0, ab1, ab2 = b[0] - a[0], b[1] - a[1], b[2] - a[2]
    den = ab0 * ab0 + ab1 * ab1 + ab2 * ab2
    t = -(a[0] * ab0 + a[1] * ab1 + a[2] * ab2) / den if den > 0.0 else 0.0
    t = min(max(t, 0.0), 1.0)
    return 1.0 - t, t


@njit(cache=True, refcount=False)
def triangle_weights(a, b, c):
    """Barycentric weights ``(u, v, w)`` of the point of triangle ``abc`` closest to the origin: Ericson's
    ClosestPtPointTriangle (Voronoi regions of the vertices, the edges, the face)."""
    ab = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
    ac = (c[0] - a[0], c[1] - a[1], c[2] - a[2])
    d1, d2 = -dot(ab, a), -dot(ac, a)
    if d1 <= 0.0 and d2 <= 0.0:
        return 1.0, 0.0, 0.0
    d3, d4 = -dot(ab, b), -dot(ac, b)
    if d3 >= 0.0 and d4 <= d3:
        return 0.0, 1.0, 0.0
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        t = d1 / (d1 - d3)
        return 1.0 - t, t, 0.0
    d5, d6 = -dot(ab, c), -dot(ac, c)
    if d6 >= 0.0 and d5 <= d6:
        return 0.0, 0.0, 1.0
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        t = d2 / (d2 - d6)
        return 1.0 - t, 0.0, t
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and d4 - d3 >= 0.0 and d5 - d6 >= 0.0:
        t = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        return 0.0, 1.0 - t, t
    den = va + vb + vc
    if not den > 0.0:  # a flat triangle: its closest vertex
        da, db, dc = dot(a, a), dot(b, b), dot(c, c)
        if da <= db and da <= dc:
            return 1.0, 0.0, 0.0
        return (0.0, 1.0, 0.0) if db <= dc else (0.0, 0.0, 1.0)
    v, w = vb / den, vc / den
    return 1.0 - v - w, v, w


@njit(cache=True, forceinline=True)
def _norm2_combination(S, idx, u, v, w):
    i, j, k = idx
    x0 = u * S[i, 0] + v * S[j, 0] + w * S[k, 0]
    x1 = u * S[i, 1] + v * S[j, 1] + w * S[k, 1]
    x2 = u * S[i, 2] + v * S[j, 2] + w * S[k, 2]
    return x0 * x0 + x1 * x1 + x2 * x2


@njit(cache=True, forceinline=True)
def _plane_side(a, b, c, p):
    """``((b - a) x (c - a)) . (p - a)``."""
    u0, u1, u2 = b[0] - a[0], b[1] - a[1], b[2] - a[2]
    v0, v1, v2 = c[0] - a[0], c[1] - a[1], c[2] - a[2]
    n0, n1, n2 = u1 * v2 - u2 * v1, u2 * v0 - u0 * v2, u0 * v1 - u1 * v0
    return n0 * (p[0] - a[0]) + n1 * (p[1] - a[1]) + n2 * (p[2] - a[2])


@njit(cache=True, forceinline=True)
def _weight(m, i, j, k, u, v, w):
    """The weight of vertex ``m`` when vertices ``i, j, k`` have weights ``u, v, w`` and the fourth has none."""
    return u if m == i else (v if m == j else (w if m == k else 0.0))


FACES = ((0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 3, 1), (1, 2, 3, 0))  # a face and the opposite vertex


@njit(cache=True, inline="always")
def project_origin(S, n, lam):
    """Closest point of the simplex ``S[0:n]`` to the origin: keeps only the vertices of the feature it lies on
    (in ``S``, weights in ``lam``) and returns ``(new n, inside)``, ``inside`` when the origin is inside the
    tetrahedron (``n = 4``)."""
    if n == 1:
        lam[0] = 1.0
        return 1, False
    if n == 2:
        u, v = segment_weights(S[0], S[1])
        return _reduce(S, 2, (u, v, 0.0, 0.0), lam), False
    if n == 3:
        u, v, w = triangle_weights(S[0], S[1], S[2])
        return _reduce(S, 3, (u, v, w, 0.0), lam), False
    # a tetrahedron: the origin is inside unless it is beyond a face; then the closest such face
    origin = (0.0, 0.0, 0.0)
    scale = max(dot(S[0], S[0]), dot(S[1], S[1]), dot(S[2], S[2]), dot(S[3], S[3]))
    flat = abs(_plane_side(S[0], S[1], S[2], S[3])) <= 1e-14 * scale**1.5
    best, weights = math.inf, (0.0, 0.0, 0.0, 0.0)
    for f in range(4):
        i, j, k, o = FACES[f]
        if not flat and _plane_side(S[i], S[j], S[k], origin) * _plane_side(S[i], S[j], S[k], S[o]) >= 0.0:
            continue  # the origin is on the inner side of this face
        u, v, w = triangle_weights(S[i], S[j], S[k])
        d2 = _norm2_combination(S, (i, j, k), u, v, w)
        if d2 < best:
            best = d2
            weights = (_weight(0, i, j, k, u, v, w), _weight(1, i, j, k, u, v, w), _weight(2, i, j, k, u, v, w),
                       _weight(3, i, j, k, u, v, w))
    if best == math.inf:
        lam[0] = lam[1] = lam[2] = lam[3] = 0.25
        return 4, True
    return _reduce(S, 4, weights, lam), False


@njit(cache=True, inline="always")
def minkowski_support(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, d, S, row, H):
    """``S[4 + row] = a = sup_A(d)``, ``S[8 + row] = b = sup_B(-d)``, ``S[row] = w = a - b``: the support point of
    ``A - B`` along ``d`` (world frame); hull searches start from and update ``H``."""
    H[0] = support_world(t1, P1, V1, G1, H[0], M1, d, S[4 + row])
    H[1] = support_world(t2, P2, V2, G2, H[1], M2, (-d[0], -d[1], -d[2]), S[8 + row])
    for r in range(3):
        S[row, r] = S[4 + row, r] - S[8 + row, r]


@njit(cache=True, forceinline=True)
def _polytope_like(t):
    return t == BOX or t == CONVEX or t == CYLINDER or t == CONE


@njit(cache=True, inline="always")  # a call with this many arrays costs more than the iterations
def gjk(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, variant, tolerance, max_iterations, exit_above, S, lam, H):
    """Distance between the cores of shapes 1 and 2 (types ``t``, parameters ``P`` ``(4,)``, vertices ``V`` ``(n,
    3)``, vertex graphs ``G``, placements ``M`` ``(3, 4)``). Returns ``(n, |v|, iterations, converged, lower)``: the final
    simplex is ``S[0:n]`` with weights ``lam[0:n]``, so that the closest points are ``sum lam_i S[4 + i]`` on A and
    ``sum lam_i S[8 + i]`` on B; ``|v| = 0`` when the cores touch or overlap (then ``n = 4`` if the origin is inside
    the simplex); ``converged`` is False when GJK stopped without closing the gap (rounding stalled it near contact,
    or ``max_iterations``). Once the lower bound ``v . w / |v|`` on the distance exceeds ``exit_above`` (``inf``:
    never), it stops and returns that bound as ``|v|`` with ``converged`` False (a collision check needs no more).
    ``lower``: the largest lower bound ``v . w / |v|`` of the distance met (``-inf`` before the second support)."""
    v = (M1[0, 3] - M2[0, 3], M1[1, 3] - M2[1, 3], M1[2, 3] - M2[2, 3])  # a point of A - B, roughly
    if v[0] * v[0] + v[1] * v[1] + v[2] * v[2] == 0.0:
        v = (1.0, 0.0, 0.0)
    direction = v
    normalize = _polytope_like(t1) or _polytope_like(t2)
    momentum = variant == NESTEROV
    n, vv, it, stalls, converged, lower = 0, math.inf, 0, 0, False, -math.inf
    while it < max_iterations:
        along_v = not (momentum and it > 0)
        if along_v:
            direction = v
        else:  # d_k = delta d_{k-1} + (1 - delta) y_k, y_k = delta v_k + (1 - delta) w_{k-1}
            delta = (it + 2.0) / (it + 3.0) if normalize else (it + 1.0) / (it + 3.0)
            y = (delta * v[0] + (1.0 - delta) * S[15, 0], delta * v[1] + (1.0 - delta) * S[15, 1],
                 delta * v[2] + (1.0 - delta) * S[15, 2])
            if normalize:
                a, b = delta / math.sqrt(dot(direction, direction)), (1.0 - delta) / math.sqrt(dot(y, y))
            else:
                a, b = delta, 1.0 - delta
            direction = (a * direction[0] + b * y[0], a * direction[1] + b * y[1], a * direction[2] + b * y[2])
        minkowski_support(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, (-direction[0], -direction[1], -direction[2]), S,
                          n, H)
        it += 1
        for r in range(3):
            S[15, r] = S[n, r]  # w_k, kept for the next momentum step
        vw = v[0] * S[n, 0] + v[1] * S[n, 1] + v[2] * S[n, 2]
        if along_v and n > 0 and vw > exit_above * math.sqrt(vv):  # d >= v.w / |v| > exit_above: stop early
            return n, vw / math.sqrt(vv), it, False, vw / math.sqrt(vv)
        if along_v and n > 0:
            lower = max(lower, vw / math.sqrt(vv))  # every point x of D has v . x >= v . w
        if n > 0 and vv - vw <= tolerance * vv:  # |v| - d <= (v.v - v.w) / |v| <= tolerance |v|
            if along_v:
                converged = True
                break
            momentum = False  # the gap only bounds vanilla steps: finish without momentum
            continue
        n, inside = project_origin(S, n + 1, lam)
        x0, x1, x2 = 0.0, 0.0, 0.0
        for i in range(n):
            x0, x1, x2 = x0 + lam[i] * S[i, 0], x1 + lam[i] * S[i, 1], x2 + lam[i] * S[i, 2]
        vv_new = x0 * x0 + x1 * x1 + x2 * x2
        if inside or vv_new <= INTERSECTION_NORM**2:
            vv, converged = 0.0, True
            break
        stalls = stalls + 1 if vv_new >= vv else 0  # no progress: rounding in a flat simplex, or converged
        v, vv = (x0, x1, x2), vv_new
        if stalls > 0:
            if stalls == MAX_STALLS:
                break
            momentum = False
    return n, math.sqrt(vv) if vv < math.inf else math.inf, it, converged, lower
