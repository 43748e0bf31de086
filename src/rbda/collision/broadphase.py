"""Broad phase: world axis-aligned bounding boxes and sweep-and-prune, compiled.

Each shape's box in its own frame is computed once, exactly (support points along the axes, plus the radius of a
sphere or capsule); at each placement the world box is that box rotated and re-boxed, a few flops per shape.
Half-spaces and planes get an infinite box. Sweep-and-prune sorts the boxes by
their lower x and, for each box, scans the boxes that start before it ends, keeping the pairs that also overlap
in y and z and are collision pairs: the work is the sort plus the pairs whose x-intervals overlap.
"""

from __future__ import annotations

import math

import numpy as np
from .._native.jit import njit

from .support import HALFSPACE, PLANE, radius, support_local


@njit(cache=True)
def local_boxes(types, params, vertex_ranges, vertices, boxes):
    """``boxes[k] = [centre (3), half-extents (3)]`` of shape ``k`` in its own frame, exact: the support points
    along ``+e`` and ``-e`` of each axis, grown by the radius (zeros for half-spaces and planes)."""
    point, axis, scan = np.empty(3), np.zeros(3), np.zeros(0, dtype=np.int64)
    for k in range(types.shape[0]):
        t = types[k]
        for r in range(6):
            boxes[k, r] = 0.0
        if t == HALFSPACE or t == PLANE:
            continue
        V = vertices[vertex_ranges[k, 0] : vertex_ranges[k, 0] + vertex_ranges[k, 1]]
        rad = radius(t, params[k])
        for r in range(3):
            axis[r] = 1.0
            support_local(t, params[k], V, scan, 0, axis, point)
            upper = point[r] + rad
            axis[r] = -1.0
            support_local(t, params[k], V, scan, 0, axis, point)
            lower = point[r] - rad
            axis[r] = 0.0
            boxes[k, r], boxes[k, 3 + r] = 0.5 * (upper + lower), 0.5 * (upper - lower)


@njit(cache=True)
def world_boxes(types, local, oMg, boxes):
    """``boxes[k] = [lower (3), upper (3)]`` in the world of the local box ``local[k]`` (centre, half-extents)
    placed at ``oMg[k]``: centre ``R c + p``, half-extents ``|R| h`` (Arvo's box transform); infinite for
    half-spaces and planes."""
    for k in range(types.shape[0]):
        if types[k] == HALFSPACE or types[k] == PLANE:
            for r in range(3):
                boxes[k, r], boxes[k, 3 + r] = -math.inf, math.inf
            continue
        world_box(oMg[k], oMg[k, :, 3], local[k], boxes[k])


@njit(cache=True, forceinline=True)
def world_box(R, p, local, box):
    """``box (6,) = [lower (3), upper (3)]``: the world box of the local box ``local (6,)`` (centre, half-extents)
    of a shape placed at rotation ``R`` (the first three columns of ``R`` are read) and translation ``p``: centre
    ``R c + p``, half-extents ``|R| h`` (Arvo's box transform)."""
    for r in range(3):
        c = R[r, 0] * local[0] + R[r, 1] * local[1] + R[r, 2] * local[2] + p[r]
        h = abs(R[r, 0]) * local[3] + abs(R[r, 1]) * local[4] + abs(R[r, 2]) * local[5]
        box[r], box[3 + r] = c - h, c + h


@njit(cache=True)
def overlapping_pairs(boxes, pair_index, margin, candidate):
    """Sweep-and-prune: ``candidate[p] = True`` for each collision pair ``p`` (``pair_index[i, j] = p``, -1 for
    no pair) whose boxes, grown by ``margin[p]`` (``(npairs,)``), overlap; others are set False."""
    n = boxes.shape[0]
    for p in range(candidate.shape[0]):
        candidate[p] = False
    grow = 0.0
    for p in range(margin.shape[0]):
        grow = max(grow, margin[p])
    order = np.argsort(boxes[:, 0])
    for a in range(n):
        i = order[a]
        for b in range(a + 1, n):
            j = order[b]
            if boxes[j, 0] > boxes[i, 3] + grow:
                break
            p = pair_index[i, j]
            if p < 0:
                continue
            g = margin[p]
            if (boxes[j, 0] <= boxes[i, 3] + g and boxes[i, 0] <= boxes[j, 3] + g
                    and boxes[j, 1] <= boxes[i, 4] + g and boxes[i, 1] <= boxes[j, 4] + g
                    and boxes[j, 2] <= boxes[i, 5] + g and boxes[i, 2] <= boxes[j, 5] + g):
                candidate[p] = True
