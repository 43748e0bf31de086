"""The distance between two placed shapes, in the world frame: one compiled function for every pair of types.

``shape_distance`` returns the signed distance ``d`` (negative: penetration depth) and writes ``out`` ``(3, 3)``:
the witness point of shape 1, that of shape 2, and the unit normal ``n`` from shape 1 to shape 2, such that
``p2 = p1 + d n`` (coal's convention: moving shape 2 by ``-d n`` brings the shapes to touching). It chooses:

- both cores points or segments (sphere, capsule): the closest points of two segments (Ericson, *Real-Time
  Collision Detection*, 5.1.9), then the radii;
- a half-space or plane against a bounded shape: the support point along the normal (closed form);
- otherwise GJK on the cores, EPA when they overlap (or GJK stalls near contact without a separating plane), then
  the radii.
"""

from __future__ import annotations

import math

import numpy as np
from .._native.jit import njit

from .epa import epa_in, epa_room
from .gjk import INTERSECTION_NORM, NESTEROV, VANILLA, gjk

NEAR_CONTACT = 1e-3  # relative |v| under which a GJK that stalled hands over to EPA
from .support import CAPSULE, HALFSPACE, PLANE, SPHERE, radius, support_world

__all__ = ["shape_distance", "shape_distance_in", "VANILLA", "NESTEROV"]


@njit(cache=True, refcount=False)
def _core_segment(t, params, oMg):
    """The world end points of a sphere's (a point twice) or capsule's core segment."""
    h = params[1] if t == CAPSULE else 0.0
    p0 = (oMg[0, 3] - h * oMg[0, 2], oMg[1, 3] - h * oMg[1, 2], oMg[2, 3] - h * oMg[2, 2])
    p1 = (oMg[0, 3] + h * oMg[0, 2], oMg[1, 3] + h * oMg[1, 2], oMg[2, 3] + h * oMg[2, 2])
    return p0, p1


@njit(cache=True, refcount=False)
def segment_segment(p1, q1, p2, q2):
    """Parameters ``(s, t)`` of the closest points ``p1 + s (q1 - p1)`` and ``p2 + t (q2 - p2)`` of two segments,
    either possibly a point (Ericson 5.1.9; parallel segments take ``s = 0`` clamped)."""
    d1 = (q1[0] - p1[0], q1[1] - p1[1], q1[2] - p1[2])
    d2 = (q2[0] - p2[0], q2[1] - p2[1], q2[2] - p2[2])
    r = (p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2])
    a = d1[0] * d1[0] + d1[1] * d1[1] + d1[2] * d1[2]
    e = d2[0] * d2[0] + d2[1] * d2[1] + d2[2] * d2[2]
    f = d2[0] * r[0] + d2[1] * r[1] + d2[2] * r[2]
    if a <= 0.0 and e <= 0.0:
        return 0.0, 0.0
    if a <= 0.0:
        return 0.0, min(max(f / e, 0.0), 1.0)
    c = d1[0] * r[0] + d1[1] * r[1] + d1[2] * r[2]
    if e <= 0.0:
        return min(max(-c / a, 0.0), 1.0), 0.0
    b = d1[0] * d2[0] + d1[1] * d2[1] + d1[2] * d2[2]
    den = a * e - b * b
    s = min(max((b * f - c * e) / den, 0.0), 1.0) if den > 1e-14 * a * e else 0.0
    t = (b * s + f) / e
    if t < 0.0:
        t, s = 0.0, min(max(-c / a, 0.0), 1.0)
    elif t > 1.0:
        t, s = 1.0, min(max((b - c) / a, 0.0), 1.0)
    return s, t


@njit(cache=True, refcount=False)
def _fallback_normal(oM1, oM2, out):
    """A unit normal when the witness points coincide: along the centres, else z."""
    d = (oM2[0, 3] - oM1[0, 3], oM2[1, 3] - oM1[1, 3], oM2[2, 3] - oM1[2, 3])
    nd = math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
    if nd > 0.0:
        out[2, 0], out[2, 1], out[2, 2] = d[0] / nd, d[1] / nd, d[2] / nd
    else:
        out[2, 0], out[2, 1], out[2, 2] = 0.0, 0.0, 1.0


@njit(cache=True, refcount=False)
def _segments(t1, P1, M1, t2, P2, M2, out):
    """Spheres and capsules: closest points of the core segments, normal along them."""
    a0, a1 = _core_segment(t1, P1, M1)
    b0, b1 = _core_segment(t2, P2, M2)
    s, t = segment_segment(a0, a1, b0, b1)
    for r in range(3):
        out[0, r] = a0[r] + s * (a1[r] - a0[r])
        out[1, r] = b0[r] + t * (b1[r] - b0[r])
        out[2, r] = out[1, r] - out[0, r]
    dc = math.sqrt(out[2, 0] ** 2 + out[2, 1] ** 2 + out[2, 2] ** 2)
    if dc > 0.0:
        for r in range(3):
            out[2, r] /= dc
    else:
        _fallback_normal(M1, M2, out)
    return dc


@njit(cache=True, refcount=False)
def _against_plane(t, P, V, G, M, plane_type, plane_params, oMp, out):
    """A bounded shape (row 0 of ``out``) against a half-space or plane (row 1) placed at ``oMp``: the support
    points along the world normal ``m`` give ``lo = min m . x - d`` and ``hi = max m . x - d``."""
    m = (oMp[0, 0] * plane_params[0] + oMp[0, 1] * plane_params[1] + oMp[0, 2] * plane_params[2],
         oMp[1, 0] * plane_params[0] + oMp[1, 1] * plane_params[1] + oMp[1, 2] * plane_params[2],
         oMp[2, 0] * plane_params[0] + oMp[2, 1] * plane_params[1] + oMp[2, 2] * plane_params[2])
    off = plane_params[3] + m[0] * oMp[0, 3] + m[1] * oMp[1, 3] + m[2] * oMp[2, 3]
    r = radius(t, P)
    support_world(t, P, V, G, 0, M, (-m[0], -m[1], -m[2]), out[0])
    lo = m[0] * out[0, 0] + m[1] * out[0, 1] + m[2] * out[0, 2] - r - off
    sign = -1.0  # normal from the shape to the plane: -m when the shape is on the positive side
    if plane_type == PLANE:
        support_world(t, P, V, G, 0, M, m, out[1])
        hi = m[0] * out[1, 0] + m[1] * out[1, 1] + m[2] * out[1, 2] + r - off
        if hi < -lo:  # the shape is mostly below the plane: push it down
            for k in range(3):
                out[0, k] = out[1, k]
            sign, lo = 1.0, -hi
    dist = lo
    for k in range(3):
        out[2, k] = sign * m[k]
        out[0, k] += r * out[2, k]  # the deepest (or closest) point of the inflated shape
        out[1, k] = out[0, k] + dist * out[2, k]
    return dist


@njit(cache=True, refcount=False)
def _size(M1, M2, S, n):
    """A length scale of the pair: the largest simplex point or the distance of the origins."""
    size = math.sqrt((M1[0, 3] - M2[0, 3]) ** 2 + (M1[1, 3] - M2[1, 3]) ** 2 + (M1[2, 3] - M2[2, 3]) ** 2)
    for i in range(n):
        size = max(size, math.sqrt(S[i, 0] ** 2 + S[i, 1] ** 2 + S[i, 2] ** 2))
    return size


@njit(cache=True, inline="always")
def shape_distance(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, variant, tolerance, max_iterations, out, iterations,
                   exit_above=math.inf):
    """:func:`shape_distance_in` with its scratch arrays allocated here."""
    S, lam, H = np.empty((16, 3)), np.empty(4), np.zeros(2, dtype=np.int64)
    P, faces, plane, alive, edges = epa_room()
    return shape_distance_in(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, variant, tolerance, max_iterations, out,
                             iterations, exit_above, S, lam, H, P, faces, plane, alive, edges)


@njit(cache=True, refcount=False)  # one compiled copy for all its callers (the narrow phase, the batches, the step)
def shape_distance_in(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, variant, tolerance, max_iterations, out, iterations,
                      exit_above, S, lam, H, P, faces, plane, alive, edges):
    """Signed distance between shape 1 (type code ``t1``, parameters ``P1`` ``(4,)``, convex vertices ``V1``
    ``(n1, 3)``, their vertex graph ``G1`` (empty: no hill climbing), world placement ``M1`` ``(3, 4)``) and
    shape 2. Writes ``out`` ``(3, 3)``: ``p1``, ``p2`` and the
    normal from 1 to 2, and ``iterations`` ``(2,)``: GJK's and EPA's. At most one shape may be unbounded (a
    half-space or a plane); two unbounded shapes give ``-inf`` with zero points. With a finite ``exit_above``,
    GJK may stop as soon as it proves the distance above it, and returns that lower bound (``out`` zeroed).
    ``S (16, 3)``, ``lam (4,)``, ``H (2,)`` int: GJK's simplex room (``gjk.gjk``); ``P`` to ``edges``: EPA's
    (``epa.epa_room``). It allocates nothing."""
    iterations[0] = iterations[1] = 0
    u1, u2 = t1 == HALFSPACE or t1 == PLANE, t2 == HALFSPACE or t2 == PLANE
    if u1 and u2:
        out[:] = 0.0
        return -math.inf
    if u2:
        return _against_plane(t1, P1, V1, G1, M1, t2, P2, M2, out)
    if u1:
        dist = _against_plane(t2, P2, V2, G2, M2, t1, P1, M1, out)
        for k in range(3):
            out[0, k], out[1, k], out[2, k] = out[1, k], out[0, k], -out[2, k]
        return dist
    r1, r2 = radius(t1, P1), radius(t2, P2)
    if (t1 == SPHERE or t1 == CAPSULE) and (t2 == SPHERE or t2 == CAPSULE):
        dc = _segments(t1, P1, M1, t2, P2, M2, out)
    else:
        H[0] = H[1] = 0
        n, norm_v, iterations[0], converged, lower = gjk(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, variant, tolerance,
                                                         max_iterations, exit_above + r1 + r2, S, lam, H)
        if not converged and norm_v > exit_above + r1 + r2:
            out[:] = 0.0
            return norm_v - r1 - r2
        # EPA where the cores overlap, or GJK stalled close to contact without proving them apart (lower <= 0: no
        # separating plane found; a stall with lower > 0 leaves |v| within its gap of the distance, EPA no better)
        near = norm_v <= INTERSECTION_NORM or (not converged and lower <= 0.0
                                               and norm_v <= NEAR_CONTACT * _size(M1, M2, S, n))
        if not near:
            for r in range(3):
                out[0, r] = out[1, r] = 0.0
                for i in range(n):
                    out[0, r] += lam[i] * S[4 + i, r]
                    out[1, r] += lam[i] * S[8 + i, r]
                out[2, r] = out[1, r] - out[0, r]
            dc = math.sqrt(out[2, 0] ** 2 + out[2, 1] ** 2 + out[2, 2] ** 2)  # = |v| up to rounding
            for r in range(3):
                out[2, r] /= dc
        else:  # overlapping, or GJK stalled close to contact (parallel faces): EPA gives the signed distance
            depth, iterations[1] = epa_in(t1, P1, V1, G1, M1, t2, P2, V2, G2, M2, S, lam, H, n, tolerance, 255,
                                         out, P, faces, plane, alive, edges)
            dc = -depth
            if out[2, 0] == 0.0 and out[2, 1] == 0.0 and out[2, 2] == 0.0:  # touching at a point
                _fallback_normal(M1, M2, out)
    for r in range(3):  # inflate the cores by their radii
        out[0, r] += r1 * out[2, r]
        out[1, r] -= r2 * out[2, r]
    return dc - r1 - r2
