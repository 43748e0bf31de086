"""Closed-form contacts of a half-space against a cone, an ellipsoid and a convex polytope (pair functions of
:data:`rbda.simulation.contacts.PAIR_FUNCTIONS`, with the signature and conventions described there).

- A cone (axis z of its frame, base of ``radius`` at ``z = -length / 2``, apex at ``z = +length / 2``) is the
  convex hull of its apex and its base disc: its points nearest the plane are the apex and the base rim's lowest
  point ``b - radius (n - (n . a) a) / |n - (n . a) a|`` (``b`` the base centre, ``a`` the axis, ``n`` the plane's
  normal), or, when the base lies parallel to the plane, four rim points 90 degrees apart (a patch). A cone
  lying on its side touches along a generatrix: apex and rim point both.
- An ellipsoid of semi-axes ``A = diag(a, b, c)`` centred at ``c`` with rotation ``R``: its lowest point along
  ``-n`` maximises ``-n . x`` over ``x = c + R A u``, ``|u| = 1``, so ``u = -A R^T n / |A R^T n|`` and
  ``x = c - R A^2 R^T n / |A R^T n|``: one point.
- A convex polytope (:class:`rbda.collision.shapes.Convex`): the vertices of its hull, as a mesh's hull
  (:func:`rbda.simulation.contacts.halfspace_shape`).
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..collision.shapes import Cone, Convex, Ellipsoid
from ..model.geometry import Halfspace
from .contacts import FLAT_CAP, PAIR_FUNCTIONS, _world_plane, halfspace_shape
from .pair_kernels import shape_table


@njit(cache=True, refcount=False)
def _keep(n, offset, x0, x1, x2, margin, out, count):
    """Writes the row ``[distance, x]`` of the point ``x`` into ``out[count]`` if it lies within ``margin`` of the
    plane; returns the new count."""
    d = n[0] * x0 + n[1] * x1 + n[2] * x2 - offset
    if d <= margin:
        out[count, 0], out[count, 1], out[count, 2], out[count, 3] = d, x0, x1, x2
        count += 1
    return count


@njit(cache=True, refcount=False)
def plane_cone(n, offset, R, p, radius, length, margin, out):
    """A cone placed at ``(R, p)`` against the plane ``n . x = offset``: rows ``[distance, point]`` (world) of its
    apex and of its base rim's lowest point (four rim points when the base lies parallel to the plane) within
    ``margin`` into ``out (5, 4)``; returns how many. (Written out in scalars: it allocates nothing.)"""
    h = 0.5 * length
    count = _keep(n, offset, p[0] + h * R[0, 2], p[1] + h * R[1, 2], p[2] + h * R[2, 2], margin, out, 0)
    b0, b1, b2 = p[0] - h * R[0, 2], p[1] - h * R[1, 2], p[2] - h * R[2, 2]  # the base's centre
    along = n[0] * R[0, 2] + n[1] * R[1, 2] + n[2] * R[2, 2]
    r0, r1, r2 = n[0] - along * R[0, 2], n[1] - along * R[1, 2], n[2] - along * R[2, 2]
    norm = np.sqrt(r0 * r0 + r1 * r1 + r2 * r2)
    if norm > FLAT_CAP:
        return _keep(n, offset, b0 - radius * r0 / norm, b1 - radius * r1 / norm, b2 - radius * r2 / norm, margin,
                     out, count)
    for k in range(4):
        ca, sa = np.cos(0.5 * np.pi * k), np.sin(0.5 * np.pi * k)
        count = _keep(n, offset, b0 + radius * (ca * R[0, 0] + sa * R[0, 1]), b1 + radius * (ca * R[1, 0] + sa * R[1, 1]),
                      b2 + radius * (ca * R[2, 0] + sa * R[2, 1]), margin, out, count)
    return count


@njit(cache=True, refcount=False)
def plane_ellipsoid(n, offset, R, p, a, b, c, margin, out):
    """An ellipsoid of semi-axes ``a, b, c`` placed at ``(R, p)`` against the plane ``n . x = offset``: the row
    ``[distance, lowest point]`` of ``x = p - R A^2 R^T n / |A R^T n|`` into ``out (1, 4)`` if within ``margin``;
    returns how many (0 or 1). (Written out in scalars: it allocates nothing.)"""
    m0 = a * (R[0, 0] * n[0] + R[1, 0] * n[1] + R[2, 0] * n[2])  # A R^T n
    m1 = b * (R[0, 1] * n[0] + R[1, 1] * n[1] + R[2, 1] * n[2])
    m2 = c * (R[0, 2] * n[0] + R[1, 2] * n[1] + R[2, 2] * n[2])
    length = np.sqrt(m0 * m0 + m1 * m1 + m2 * m2)
    u0, u1, u2 = a * m0 / length, b * m1 / length, c * m2 / length  # A^2 R^T n / |A R^T n|
    return _keep(n, offset, p[0] - (R[0, 0] * u0 + R[0, 1] * u1 + R[0, 2] * u2),
                 p[1] - (R[1, 0] * u0 + R[1, 1] * u1 + R[1, 2] * u2),
                 p[2] - (R[2, 0] * u0 + R[2, 1] * u1 + R[2, 2] * u2), margin, out, 0)


def halfspace_round(plane: Halfspace, M1, shape, M2, margin):
    """Contacts between a half-space (first) and a cone, an ellipsoid or a convex polytope (second), placed at
    ``M1``, ``M2`` (each ``(R, p)``): a list of ``(distance, p1, p2, normal)``, the normal the plane's (from the
    half-space to the shape), ``p1`` on the plane and ``p2`` on the shape. Raises ``TypeError`` for another
    shape."""
    if isinstance(shape, Convex):  # the vertices of its hull
        return halfspace_shape(plane, M1, shape_table(shape)[2], M2, margin)
    n, offset = _world_plane(plane, M1)
    R, p = (np.ascontiguousarray(M2[0], dtype=float), np.asarray(M2[1], dtype=float))
    out = np.empty((5, 4))
    if isinstance(shape, Cone):
        count = plane_cone(n, offset, R, p, float(shape.radius), float(shape.length), margin, out)
    elif isinstance(shape, Ellipsoid):
        count = plane_ellipsoid(n, offset, R, p, *map(float, shape.radii), margin, out)
    else:
        raise TypeError(f"shape: expected a Cone, Ellipsoid or Convex, got {type(shape).__name__}")
    return [(d, np.array(x) - d * n, np.array(x), n) for d, *x in out[:count]]


for _shape in (Cone, Ellipsoid, Convex):
    PAIR_FUNCTIONS[(Halfspace, _shape)] = halfspace_round
