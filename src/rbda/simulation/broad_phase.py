"""The broad phase of the simulator's contact stage, compiled: the collision pairs that may have a contact within
their margins this step, so that the narrow phase (:mod:`rbda.simulation.pair_kernels`) runs on those only.

- A pair with a half-space is always a candidate (its shape's bounding ball and box reject it in a few
  nanoseconds: ``compiled.plane_near``).
- Two bounded objects are found by sort-and-sweep (Baraff 1992) on their world axis-aligned boxes
  (``collision.broadphase.world_box`` of each shape's exact box in its frame), grown by a bound ``G`` of every
  pair's margin (:func:`sweep_growth`): the objects are kept sorted by their boxes' lower x from step to step (an
  insertion sort, linear when the order changes little), and each is tested against those that start before its
  box ends; a pair of boxes that overlap on all three axes is a candidate if it is a collision pair
  (:func:`partner_pair`, a binary search in the object's sorted partners).

The candidates are sorted by pair index (:func:`heap_sort`), the order in which the narrow phase writes contacts,
the Python stages' order. The set of candidates depends on the placements and velocities only, not on the order
kept from the previous step. Nothing is allocated.

The bound ``G``: a pair's margin is ``max(margin, dt u)`` with ``u`` its closing-speed bound
(:func:`rbda.simulation.speculative.closing_speed`): for objects ``a``, ``b`` centred at ``c_a``, ``c_b`` in balls
of radii ``r_a``, ``r_b``, on joints of world twists ``(v, w)``, ``u <= s_a + s_b + |w_a| |c_b - c_a| + (|w_a| +
|w_b|) r_b`` with ``s = |v + w x c|`` an object's centre's speed; a pair with a contact has ``|c_b - c_a| <= m +
r_a + r_b`` (``m`` its margin), so ``m <= dt (2 s + 4 W r) / (1 - dt W)`` with ``s``, ``W``, ``r`` the largest
centre speed, angular speed and radius over the bounded objects. A pair whose boxes lie farther apart than ``G``
on some axis is farther apart than its margin.
"""

from __future__ import annotations

import math

import numpy as np

from .._native.jit import njit
from ..collision.broadphase import world_box


@njit(cache=True, refcount=False)
def world_boxes(bounded, local, R, p, boxes):
    """``boxes[g] = [lower (3), upper (3)]`` (world) of each bounded object ``g`` of ``bounded``, from its box
    ``local[g]`` (centre, half extents) in its frame, placed at ``R[g], p[g]``."""
    for g in bounded:
        world_box(R[g], p[g], local[g], boxes[g])


@njit(cache=True, refcount=False)
def sweep_growth(bounded, parents, radius, p, twists, margin, dt):
    """``G`` (see the module): the largest margin of a pair of bounded objects ``bounded`` (each on joint
    ``parents[g]``, in a ball of ``radius[g]`` about ``p[g]``) under the joints' world twists ``twists (m, njoints,
    6)`` (``speculative.joint_twists``; none: ``margin``); ``inf`` for an angular speed of ``1 / dt`` or more."""
    s_max, w_max, r_max = 0.0, 0.0, 0.0
    for g in bounded:
        j = parents[g]
        r_max = max(r_max, radius[g])
        for s in range(twists.shape[0]):
            w0, w1, w2 = twists[s, j, 3], twists[s, j, 4], twists[s, j, 5]
            c0, c1, c2 = p[g, 0], p[g, 1], p[g, 2]
            u0 = twists[s, j, 0] + (w1 * c2 - w2 * c1)  # v + w x c
            u1 = twists[s, j, 1] + (w2 * c0 - w0 * c2)
            u2 = twists[s, j, 2] + (w0 * c1 - w1 * c0)
            s_max = max(s_max, math.sqrt(u0 * u0 + u1 * u1 + u2 * u2))
            w_max = max(w_max, math.sqrt(w0 * w0 + w1 * w1 + w2 * w2))
    if dt * w_max >= 1.0:
        return math.inf
    return max(margin, dt * (2.0 * s_max + 4.0 * w_max * r_max) / (1.0 - dt * w_max))


@njit(cache=True, refcount=False)
def partner_pair(partner_start, partners, a, b):
    """The collision pair of objects ``a`` and ``b`` (-1: none): ``partners[partner_start[a]:partner_start[a + 1]]``
    are ``a``'s ``[other object, pair index]`` rows sorted by the other object."""
    lo, hi = partner_start[a], partner_start[a + 1]
    while lo < hi:
        mid = (lo + hi) // 2
        if partners[mid, 0] < b:
            lo = mid + 1
        else:
            hi = mid
    return partners[lo, 1] if lo < partner_start[a + 1] and partners[lo, 0] == b else -1


@njit(cache=True, refcount=False)
def sweep(order, boxes, grow, partner_start, partners, candidates, count):
    """Sort-and-sweep (see the module): ``order`` (the bounded objects) sorted in place by their boxes' lower x,
    then the collision pairs whose ``boxes`` overlap when grown by ``grow`` appended to ``candidates`` from entry
    ``count``; returns the new count."""
    n = order.shape[0]
    for i in range(1, n):  # insertion sort, from the previous step's order
        g, key, j = order[i], boxes[order[i], 0], i - 1
        while j >= 0 and boxes[order[j], 0] > key:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = g
    for i in range(n):
        a = order[i]
        for j in range(i + 1, n):
            b = order[j]
            if boxes[b, 0] > boxes[a, 3] + grow:
                break
            if (boxes[b, 1] <= boxes[a, 4] + grow and boxes[a, 1] <= boxes[b, 4] + grow
                    and boxes[b, 2] <= boxes[a, 5] + grow and boxes[a, 2] <= boxes[b, 5] + grow):
                k = partner_pair(partner_start, partners, a, b)
                if k >= 0:
                    candidates[count] = k
                    count += 1
    return count


@njit(cache=True, refcount=False)
def boxes_within(boxes, a, b, margin):
    """Whether the boxes of objects ``a`` and ``b`` overlap when grown by ``margin``."""
    for r in range(3):
        if boxes[b, r] > boxes[a, 3 + r] + margin or boxes[a, r] > boxes[b, 3 + r] + margin:
            return False
    return True


@njit(cache=True, refcount=False)
def heap_sort(x, n):
    """Sort ``x[:n]`` in place, ascending (heapsort: no allocation, ``n log n``)."""
    for start in range(n // 2 - 1, -1, -1):
        _sift_down(x, start, n)
    for end in range(n - 1, 0, -1):
        x[0], x[end] = x[end], x[0]
        _sift_down(x, 0, end)


@njit(cache=True, refcount=False)
def _sift_down(x, root, n):
    while 2 * root + 1 < n:
        child = 2 * root + 1
        if child + 1 < n and x[child] < x[child + 1]:
            child += 1
        if x[root] >= x[child]:
            return
        x[root], x[child] = x[child], x[root]
        root = child


def partner_table(pairs, bounded_pair, ngeoms: int) -> tuple[np.ndarray, np.ndarray]:
    """``(partner_start (ngeoms + 1,), partners (2 p, 2))`` of the collision pairs ``pairs (npairs, 2)`` flagged
    by ``bounded_pair (npairs,)`` (two bounded objects, collisions enabled): each object's ``[other object, pair
    index]`` rows, sorted by the other object (:func:`partner_pair`)."""
    index = np.flatnonzero(bounded_pair)
    rows = np.concatenate([np.column_stack([pairs[index, 0], pairs[index, 1], index]),
                           np.column_stack([pairs[index, 1], pairs[index, 0], index])]).astype(np.int64).reshape(-1, 3)
    rows = rows[np.lexsort((rows[:, 1], rows[:, 0]))]
    start = np.searchsorted(rows[:, 0], np.arange(ngeoms + 1)).astype(np.int64)
    return start, np.ascontiguousarray(rows[:, 1:])
