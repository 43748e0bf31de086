"""Compiled support functions: the point of a shape farthest along a direction.

Every shape is a *core* (a point for a sphere, a segment for a capsule, the shape itself otherwise) inflated by
a radius (the sphere's or capsule's, 0 otherwise); GJK and EPA work on cores, and the radius is added back at
the end, which makes spheres and capsules exact. ``support_world`` takes a world direction and the shape's
placement ``oMg`` ``[R | p]`` ``(3, 4)`` and returns the world point.
"""

from __future__ import annotations

import math

from numba import njit

SPHERE, CAPSULE, BOX, CYLINDER, CONE, ELLIPSOID, CONVEX, HALFSPACE, PLANE = range(9)


@njit(cache=True, forceinline=True)
def radius(t, params):
    """The radius that inflates the core of a shape of type ``t``."""
    return params[0] if t == SPHERE or t == CAPSULE else 0.0


@njit(cache=True, forceinline=True)
def _sign(x):
    return 1.0 if x >= 0.0 else -1.0


@njit(cache=True)
def support_local(t, params, vertices, d, out):
    """``out = argmax_{x in core} d . x`` for the core of shape ``t`` (``d`` and ``out`` in the shape frame)."""
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
        best, kbest = -math.inf, 0
        for k in range(vertices.shape[0]):
            s = d[0] * vertices[k, 0] + d[1] * vertices[k, 1] + d[2] * vertices[k, 2]
            if s > best:
                best, kbest = s, k
        out[0], out[1], out[2] = vertices[kbest, 0], vertices[kbest, 1], vertices[kbest, 2]


@njit(cache=True)
def support_world(t, params, vertices, oMg, d, out):
    """``out = argmax_{x in core} d . x`` with ``d`` and ``out`` in the world frame, the shape at ``oMg``."""
    dl0 = oMg[0, 0] * d[0] + oMg[1, 0] * d[1] + oMg[2, 0] * d[2]  # R^T d
    dl1 = oMg[0, 1] * d[0] + oMg[1, 1] * d[1] + oMg[2, 1] * d[2]
    dl2 = oMg[0, 2] * d[0] + oMg[1, 2] * d[1] + oMg[2, 2] * d[2]
    support_local(t, params, vertices, (dl0, dl1, dl2), out)
    x0, x1, x2 = out[0], out[1], out[2]
    for r in range(3):  # R x + p
        out[r] = oMg[r, 0] * x0 + oMg[r, 1] * x1 + oMg[r, 2] * x2 + oMg[r, 3]

