"""Compiled support functions: the point of a shape farthest along a direction.

Every shape is a *core* (a point for a sphere, a segment for a capsule, the shape itself otherwise) inflated by
a radius (the sphere's or capsule's, 0 otherwise); GJK and EPA work on cores, and the radius is added back at
the end, which makes spheres and capsules exact. ``support_world`` takes a world direction and the shape's
placement ``oMg`` ``[R | p]`` ``(3, 4)`` and returns the world point.

A convex hull's support vertex is found by hill climbing on the hull's vertex graph ``graph`` (see
``shapes.vertex_graph``): from a start vertex (the previous support vertex of the same GJK or EPA call, which is
usually close), move to a neighbour of larger ``d . v`` until none is larger. On a convex polytope a vertex
that no edge neighbour beats is a global maximum of ``d . v``, so the result is exact. A hull with an empty
graph (few vertices, where the plain scan is faster) is scanned vertex by vertex.
"""

from __future__ import annotations

import math

from .._native.jit import njit

SPHERE, CAPSULE, BOX, CYLINDER, CONE, ELLIPSOID, CONVEX, HALFSPACE, PLANE = range(9)


@njit(cache=True, forceinline=True)
def radius(t, params):
    """The radius that inflates the core of a shape of type ``t``."""
    return params[0] if t == SPHERE or t == CAPSULE else 0.0


@njit(cache=True, forceinline=True)
def _sign(x):
    return 1.0 if x >= 0.0 else -1.0


@njit(cache=True, inline="always")
def hull_support(vertices, graph, start, d):
    """Index of the vertex of largest ``d . v`` among ``vertices`` ``(n, 3)``: hill climbing on ``graph`` from
    vertex ``start``, or a scan of all vertices when ``graph`` is empty."""
    if graph.shape[0] == 0:
        best, kbest = -math.inf, 0
        for k in range(vertices.shape[0]):
            s = d[0] * vertices[k, 0] + d[1] * vertices[k, 1] + d[2] * vertices[k, 2]
            if s > best:
                best, kbest = s, k
        return kbest
    k = start
    best = d[0] * vertices[k, 0] + d[1] * vertices[k, 1] + d[2] * vertices[k, 2]
    moved = True
    while moved:  # strictly increasing d . v: ends on a vertex no neighbour beats
        moved = False
        for e in range(graph[k], graph[k + 1]):
            j = graph[e]
            s = d[0] * vertices[j, 0] + d[1] * vertices[j, 1] + d[2] * vertices[j, 2]
            if s > best:
                best, k, moved = s, j, True
    return k


@njit(cache=True, inline="always")
def support_local(t, params, vertices, graph, start, d, out):
    """``out = argmax_{x in core} d . x`` for the core of shape ``t`` (``d`` and ``out`` in the shape frame).
    Returns the index of the support vertex of a convex hull (climbing ``graph`` from vertex ``start``), 0 for
    the other shapes."""
    if t == SPHERE:
        out[0], out[1], out[2] = 0.0, 0.0, 0.0
    elif t == CAPSULE:
        out[0], out[1], out[2] = 0.0, 0.0, params[1] * _sign(d[2])
    elif t == BOX:
        out[0], out[1], out[2] = params[0] * _sign(d[0]), params[1] * _sign(d[1]), params[2] * _sign(d[2])
    elif t == CYLINDER or t == CONE:
        r, h = params[0], params[1]
        nxy = math.sqrt(d[0] * d[0] + d[1] * d[1])
        cx, cy = (r * d[0] / nxy, r * d[1] / nxy) if nxy > 0.0 else (0.0, 0.0)
        if t == CYLINDER:
            out[0], out[1], out[2] = cx, cy, h * _sign(d[2])
        elif h * d[2] >= r * nxy - h * d[2]:  # the apex (0, 0, h) against the base rim (c, -h)
            out[0], out[1], out[2] = 0.0, 0.0, h
        else:
            out[0], out[1], out[2] = cx, cy, -h
    elif t == ELLIPSOID:  # x = D^2 d / |D d|, D = diag(a, b, c)
        a2, b2, c2 = params[0] * params[0], params[1] * params[1], params[2] * params[2]
        n = math.sqrt(a2 * d[0] * d[0] + b2 * d[1] * d[1] + c2 * d[2] * d[2])
        if n > 0.0:
            out[0], out[1], out[2] = a2 * d[0] / n, b2 * d[1] / n, c2 * d[2] / n
        else:
            out[0], out[1], out[2] = params[0], 0.0, 0.0
    else:  # CONVEX: the vertex of largest d . v
        k = hull_support(vertices, graph, start, d)
        out[0], out[1], out[2] = vertices[k, 0], vertices[k, 1], vertices[k, 2]
        return k
    return 0


@njit(cache=True, inline="always")
def support_world(t, params, vertices, graph, start, oMg, d, out):
    """``out = argmax_{x in core} d . x`` with ``d`` and ``out`` in the world frame, the shape at ``oMg``; returns
    what ``support_local`` returns."""
    dl0 = oMg[0, 0] * d[0] + oMg[1, 0] * d[1] + oMg[2, 0] * d[2]  # R^T d
    dl1 = oMg[0, 1] * d[0] + oMg[1, 1] * d[1] + oMg[2, 1] * d[2]
    dl2 = oMg[0, 2] * d[0] + oMg[1, 2] * d[1] + oMg[2, 2] * d[2]
    k = support_local(t, params, vertices, graph, start, (dl0, dl1, dl2), out)
    x0, x1, x2 = out[0], out[1], out[2]
    for r in range(3):  # R x + p
        out[r] = oMg[r, 0] * x0 + oMg[r, 1] * x1 + oMg[r, 2] * x2 + oMg[r, 3]
    return k

