"""Compiled loops over a geometry model's objects and collision pairs: placements, distances, collisions.

The geometry model enters as the packed shapes (``types``, ``params``, ``vertex_ranges``, ``vertices``,
``graph_ranges``, ``graph``: see ``shapes.PackedShapes``), the
objects' ``parent_joints`` ``(ng,)`` and joint-frame ``placements`` ``(ng, 3, 4)``, and the ``pairs``
``(npairs, 2)`` with their ``pair_index`` ``(ng, ng)`` table; ``local_boxes`` ``(ng, 6)`` are the shapes'
bounding boxes in their frames (``broadphase.local_boxes``). ``settings`` is ``(variant, tolerance,
max_iterations)``. No Python runs between pairs.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..spatial.compiled import se3_compose
from .broadphase import overlapping_pairs, world_boxes
from .narrowphase import shape_distance


@njit(cache=True)
def placements_status(oMi, parent_joints, placements, oMg):
    """``oMg[k] = oMi[parent_joints[k]] * placements[k]``; returns ``-1``, or the first object whose placement
    is not finite."""
    bad = -1
    for k in range(parent_joints.shape[0]):
        se3_compose(oMi[parent_joints[k]], placements[k], oMg[k])
        if bad < 0:
            for r in range(3):
                for c in range(4):
                    if not np.isfinite(oMg[k, r, c]):
                        bad = k
    return bad


@njit(cache=True, inline="always")
def pair_distance(types, params, vertex_ranges, vertices, graph_ranges, graph, oMg, pairs, p, settings, out,
                  iterations, exit_above=np.inf):
    """Signed distance of pair ``p`` (witness points and normal into ``out`` ``(3, 3)``); with a finite
    ``exit_above``, a lower bound once it is above that (see ``shape_distance``)."""
    i, j = pairs[p, 0], pairs[p, 1]
    Vi = vertices[vertex_ranges[i, 0] : vertex_ranges[i, 0] + vertex_ranges[i, 1]]
    Vj = vertices[vertex_ranges[j, 0] : vertex_ranges[j, 0] + vertex_ranges[j, 1]]
    Gi = graph[graph_ranges[i, 0] : graph_ranges[i, 0] + graph_ranges[i, 1]]
    Gj = graph[graph_ranges[j, 0] : graph_ranges[j, 0] + graph_ranges[j, 1]]
    return shape_distance(types[i], params[i], Vi, Gi, oMg[i], types[j], params[j], Vj, Gj, oMg[j],
                          int(settings[0]), settings[1], int(settings[2]), out, iterations, exit_above)


@njit(cache=True)
def distances(types, params, vertex_ranges, vertices, graph_ranges, graph, oMg, pairs, active, settings, dist, points,
              normals):
    """Every active pair's signed distance ``dist[p]``, witness points ``points[p]`` ``(2, 3)`` and normal
    ``normals[p]``; inactive pairs are left as they are. Returns the active pair of smallest distance (-1 if
    none)."""
    out, iterations = np.empty((3, 3)), np.zeros(2, dtype=np.int64)
    best, best_d = -1, np.inf
    for p in range(pairs.shape[0]):
        if not active[p]:
            continue
        dist[p] = pair_distance(types, params, vertex_ranges, vertices, graph_ranges, graph, oMg, pairs, p, settings,
                                out, iterations)
        for r in range(3):
            points[p, 0, r], points[p, 1, r], normals[p, r] = out[0, r], out[1, r], out[2, r]
        if dist[p] < best_d:
            best, best_d = p, dist[p]
    return best


@njit(cache=True)
def collisions(types, params, vertex_ranges, vertices, graph_ranges, graph, local_boxes, oMg, pairs, pair_index, active,
               margin, settings, stop_at_first, boxes, candidate, dist, colliding):
    """Broad phase over all pairs, then the narrow phase on the active pairs whose boxes overlap, in pair order:
    ``colliding[p] = dist[p] < margin[p]``; ``dist[p]`` is the signed distance of a colliding pair, a positive
    lower bound of it for the others (GJK stops once it finds a separating plane farther than the margin), ``inf``
    for the pairs the broad phase rules out. With
    ``stop_at_first``, pairs after the first collision are left False / inf. Returns whether any pair
    collides."""
    world_boxes(types, local_boxes, oMg, boxes)
    overlapping_pairs(boxes, pair_index, margin, candidate)
    out, iterations = np.empty((3, 3)), np.zeros(2, dtype=np.int64)
    for p in range(pairs.shape[0]):
        colliding[p], dist[p] = False, np.inf
    for p in range(pairs.shape[0]):
        if not (active[p] and candidate[p]):
            continue
        dist[p] = pair_distance(types, params, vertex_ranges, vertices, graph_ranges, graph, oMg, pairs, p, settings,
                                out, iterations, margin[p])
        colliding[p] = dist[p] < margin[p]
        if colliding[p] and stop_at_first:
            return True
    for p in range(pairs.shape[0]):
        if colliding[p]:
            return True
    return False
