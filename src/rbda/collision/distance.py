"""Distance and collision between two shapes at given placements (coal's ``distance`` / ``collide`` for one
pair), and the request and result objects the geometry functions share."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

import numpy as np

from ..spatial import SE3
from .narrowphase import NESTEROV, VANILLA, shape_distance
from .nonconvex import coal_geometry, is_nonconvex, nonconvex_distance
from .shapes import ShapeType, shape_row

GJK_VARIANTS = {"default": VANILLA, "nesterov": NESTEROV}


@dataclass
class DistanceRequest:
    """Settings of GJK and EPA: ``gjk_variant`` ``"default"`` (vanilla) or ``"nesterov"`` (Nesterov-accelerated,
    Montaut et al. 2022); ``tolerance``: relative precision of the distance (GJK's duality-gap bound and EPA's
    gap); ``max_iterations`` of GJK (EPA takes at most 255)."""

    gjk_variant: str = "default"
    tolerance: float = 1e-10
    max_iterations: int = 256

    def codes(self) -> tuple[int, float, int]:
        """``(variant code, tolerance, max_iterations)`` as the kernels take them, checked."""
        if self.gjk_variant not in GJK_VARIANTS:
            raise ValueError(f"gjk_variant: expected one of {sorted(GJK_VARIANTS)}, got {self.gjk_variant!r}")
        if not (np.isfinite(self.tolerance) and self.tolerance > 0):
            raise ValueError(f"tolerance: expected a finite number > 0, got {self.tolerance!r}")
        if not (int(self.max_iterations) == self.max_iterations and self.max_iterations > 0):
            raise ValueError(f"max_iterations: expected an integer > 0, got {self.max_iterations!r}")
        return GJK_VARIANTS[self.gjk_variant], float(self.tolerance), int(self.max_iterations)


@dataclass
class DistanceResult:
    """Signed distance ``min_distance`` (negative: penetration depth), ``nearest_points`` ``(2, 3)`` (world: on
    shape 1, on shape 2) and the unit ``normal`` ``(3,)`` from shape 1 to shape 2, with
    ``p2 = p1 + min_distance * normal``; ``gjk_iterations``, ``epa_iterations`` (0 for closed forms)."""

    min_distance: float = np.inf
    nearest_points: np.ndarray = field(default_factory=lambda: np.zeros((2, 3)))
    normal: np.ndarray = field(default_factory=lambda: np.zeros(3))
    gjk_iterations: int = 0
    epa_iterations: int = 0

    def is_collision(self, security_margin: float = 0.0) -> bool:
        """Whether the shapes overlap (``min_distance < security_margin``)."""
        return bool(self.min_distance < security_margin)


def placement_array(M, name: str) -> np.ndarray:
    """``M`` (an :class:`~rbda.SE3`, or a ``(3, 4)`` ``[R | p]`` or ``(4, 4)`` array) as a C-contiguous ``(3, 4)``
    array; raises ``ValueError`` naming ``name`` if it has another shape or a non-finite entry."""
    if isinstance(M, SE3):
        out = np.empty((3, 4))
        out[:, :3], out[:, 3] = M.rotation, M.translation
    else:
        out = np.asarray(M, dtype=float)
        if out.shape not in ((3, 4), (4, 4)):
            raise ValueError(f"{name}: expected an SE3 or a (3, 4) or (4, 4) array, got shape {out.shape}")
        out = np.ascontiguousarray(out[:3])
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{name}: the placement has a non-finite entry (NaN or inf)")
    return out


_ROWS: dict = {}  # id(shape) -> (weak reference, packed row): shapes are immutable, pack each once


def _row(shape, name: str) -> tuple:
    cached = _ROWS.get(id(shape))
    if cached is not None and cached[0]() is shape:
        return cached[1]
    row = shape_row(shape, name)
    try:
        ref = weakref.ref(shape, lambda _, key=id(shape): _ROWS.pop(key, None))
    except TypeError:  # a shape that cannot be referenced weakly is packed at each call
        return row
    _ROWS[id(shape)] = (ref, (int(row[0]), *row[1:]))
    return _ROWS[id(shape)][1]


def distance(shape1, placement1, shape2, placement2, request: DistanceRequest | None = None) -> DistanceResult:
    """Signed distance between ``shape1`` at ``placement1`` and ``shape2`` at ``placement2`` (world frame), with
    witness points and normal (see :class:`DistanceResult`). Shapes are those of :mod:`rbda.collision.shapes`
    and :mod:`rbda.model.geometry` (a mesh through its convex hull, a
    :class:`~rbda.collision.nonconvex.NonConvexMesh` through coal); ``request`` (a :class:`DistanceRequest`) chooses
    the GJK variant and tolerances (defaults when None). Raises ``ValueError`` for a bad size or
    placement, or two unbounded shapes (half-spaces, planes)."""
    t1, p1, v1, g1 = _row(shape1, "shape1")
    t2, p2, v2, g2 = _row(shape2, "shape2")
    unbounded = (ShapeType.HALFSPACE, ShapeType.PLANE)
    if t1 in unbounded and t2 in unbounded:
        raise ValueError("shape1, shape2: the distance between two unbounded shapes (half-spaces, planes) is not "
                         "defined")
    M1, M2 = placement_array(placement1, "placement1"), placement_array(placement2, "placement2")
    variant, tolerance, max_iterations = (request or DistanceRequest()).codes()
    if is_nonconvex(shape1) or is_nonconvex(shape2):  # coal, on the triangles
        d, out = nonconvex_distance(coal_geometry(shape1, v1), M1, coal_geometry(shape2, v2), M2)
        return DistanceResult(d, out[:2].copy(), out[2].copy())
    out, iterations = np.empty((3, 3)), np.zeros(2, dtype=np.int64)
    d = shape_distance(t1, p1, v1, g1, M1, t2, p2, v2, g2, M2, variant, tolerance, max_iterations, out, iterations)
    return DistanceResult(float(d), out[:2].copy(), out[2].copy(), int(iterations[0]), int(iterations[1]))
