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
- A convex polytope (:class:`rbda.collision.shapes.Convex`): its vertices, as a mesh's hull
  (:func:`rbda.simulation.contacts.halfspace_shape`).
"""

from __future__ import annotations

import numpy as np
from .._jit import njit

from ..collision.shapes import Cone, Convex, Ellipsoid
from ..io.geometry import Halfspace
from .contacts import FLAT_CAP, PAIR_FUNCTIONS, _world_plane, halfspace_shape


@njit(cache=True)
def _keep(n, offset, x, margin, out, count):
    """Writes the row ``[distance, x]`` of the point ``x`` into ``out[count]`` if it lies within ``margin`` of the
    plane; returns the new count."""
    d = n @ x - offset
    if d <= margin:
        out[count, 0] = d
        out[count, 1:] = x
        count += 1
    return count


@njit(cache=True)
def plane_cone(n, offset, R, p, radius, length, margin, out):
    """A cone placed at ``(R, p)`` against the plane ``n . x = offset``: rows ``[distance, point]`` (world) of its
    apex and of its base rim's lowest point (four rim points when the base lies parallel to the plane) within
    ``margin`` into ``out (5, 4)``; returns how many."""
    axis = np.ascontiguousarray(R[:, 2])
    count = _keep(n, offset, p + 0.5 * length * axis, margin, out, 0)
    base = p - 0.5 * length * axis
    radial = n - (n @ axis) * axis
    norm = np.sqrt(radial @ radial)
    if norm > FLAT_CAP:
        count = _keep(n, offset, base - radius * radial / norm, margin, out, count)
    else:
        for k in range(4):
            a = 0.5 * np.pi * k
            count = _keep(n, offset, base + radius * (np.cos(a) * R[:, 0] + np.sin(a) * R[:, 1]), margin, out,
                          count)
    return count


@njit(cache=True)
def plane_ellipsoid(n, offset, R, p, radii, margin, out):
    """An ellipsoid of semi-axes ``radii (3,)`` placed at ``(R, p)`` against the plane ``n . x = offset``: the row
    ``[distance, lowest point]`` of ``x = p - R A^2 R^T n / |A R^T n|`` into ``out (1, 4)`` if within ``margin``;
    returns how many (0 or 1)."""
    An = radii * (R.T @ n)
    return _keep(n, offset, p - R @ (radii * An) / np.sqrt(An @ An), margin, out, 0)


def halfspace_round(plane: Halfspace, M1, shape, M2, margin):
    """Contacts between a half-space (first) and a cone, an ellipsoid or a convex polytope (second), placed at
    ``M1``, ``M2`` (each ``(R, p)``): a list of ``(distance, p1, p2, normal)``, the normal the plane's (from the
    half-space to the shape), ``p1`` on the plane and ``p2`` on the shape. Raises ``TypeError`` for another
    shape."""
    if isinstance(shape, Convex):
        return halfspace_shape(plane, M1, np.asarray(shape.vertices, dtype=float), M2, margin)
    n, offset = _world_plane(plane, M1)
    R, p = (np.ascontiguousarray(M2[0], dtype=float), np.asarray(M2[1], dtype=float))
    out = np.empty((5, 4))
    if isinstance(shape, Cone):
        count = plane_cone(n, offset, R, p, float(shape.radius), float(shape.length), margin, out)
    elif isinstance(shape, Ellipsoid):
        count = plane_ellipsoid(n, offset, R, p, np.asarray(shape.radii, dtype=float), margin, out)
    else:
        raise TypeError(f"shape: expected a Cone, Ellipsoid or Convex, got {type(shape).__name__}")
    return [(d, np.array(x) - d * n, np.array(x), n) for d, *x in out[:count]]


for _shape in (Cone, Ellipsoid, Convex):
    PAIR_FUNCTIONS[(Halfspace, _shape)] = halfspace_round
