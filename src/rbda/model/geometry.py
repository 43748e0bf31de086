"""Visual and collision geometry attached to a model's frames (Pinocchio's ``GeometryModel``).

A :class:`GeometryObject` is a shape (:class:`Box`, :class:`Cylinder`, :class:`Sphere`, :class:`Capsule`,
:class:`Ellipsoid`, :class:`Mesh` or :class:`Halfspace`) rigidly attached to joint ``parent_joint`` at ``placement`` (in that joint's frame), declared on
frame ``parent_frame`` (the BODY frame of its link). Meshes are kept as a resolved file path and a scale; rbda
does not load them. A :class:`GeometryModel` is the list of objects plus the collision pairs to check.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

import numpy as np

from ..spatial import SE3


class GeometryType(IntEnum):
    """Which geometry of a link a :class:`GeometryModel` holds (Pinocchio's values)."""

    VISUAL = 0
    COLLISION = 1


@dataclass(frozen=True)
class Box:
    """A box of full side lengths ``size = (x, y, z)``, centred on its frame."""

    size: tuple

    @property
    def half_side(self) -> np.ndarray:
        return 0.5 * np.asarray(self.size, dtype=float)


@dataclass(frozen=True)
class _Axial:
    """The parameters of a shape of ``radius`` about its frame's z axis and ``length`` along it."""

    radius: float
    length: float

    @property
    def half_length(self) -> float:
        return 0.5 * self.length


@dataclass(frozen=True)
class Cylinder(_Axial):
    """A cylinder of ``radius`` and ``length`` along its frame's z axis, centred on its frame."""


@dataclass(frozen=True)
class Sphere:
    """A sphere of ``radius`` centred on its frame."""

    radius: float


@dataclass(frozen=True)
class Capsule(_Axial):
    """A capsule: a cylinder of ``radius`` and ``length`` along z, capped by half-spheres, centred on its frame."""


@dataclass(frozen=True)
class Ellipsoid:
    """A solid ellipsoid of semi-axes ``radii = (a, b, c)`` along its frame's x, y, z axes, centred on its frame."""

    radii: tuple


@dataclass(frozen=True)
class Mesh:
    """A mesh file ``path`` (resolved, absolute where it was found) scaled by ``scale = (sx, sy, sz)``;
    ``convex``: to be used through its convex hull for collision."""

    path: str
    scale: tuple = (1.0, 1.0, 1.0)
    convex: bool = False


@dataclass(frozen=True)
class Halfspace:
    """The solid half-space ``{x : normal . x <= offset}`` of its frame (a ground plane: ``normal = (0, 0, 1)``,
    ``offset = 0``); ``normal`` is normalised where it is used."""

    normal: tuple = (0.0, 0.0, 1.0)
    offset: float = 0.0


Shape = Box | Cylinder | Sphere | Capsule | Ellipsoid | Mesh | Halfspace
_SHAPE_NAMES = {Box: "BOX", Cylinder: "CYLINDER", Sphere: "SPHERE", Capsule: "CAPSULE", Ellipsoid: "ELLIPSOID",
                Halfspace: "HALFSPACE"}
DEFAULT_COLOR = (0.9, 0.9, 0.9, 1.0)


@dataclass(eq=False)
class GeometryObject:
    """A shape ``geometry`` called ``name``, attached to joint ``parent_joint`` at ``placement`` (joint frame) and
    declared on frame ``parent_frame`` (its link's BODY frame).

    ``mesh_path`` is the mesh file, or ``"BOX"``, ``"CYLINDER"``, ``"SPHERE"``, ``"CAPSULE"`` for primitives (as
    Pinocchio writes it); ``mesh_scale`` ``(3,)``; ``mesh_color`` ``(4,)`` RGBA, used if ``override_material``;
    ``mesh_texture_path`` a texture file (kept, not drawn); ``disable_collision`` leaves the object out of
    collision checks; ``friction``: its Coulomb coefficient for the simulator's contacts (None: the simulator's
    default).
    """

    name: str
    parent_joint: int
    parent_frame: int
    placement: SE3
    geometry: Shape
    mesh_color: np.ndarray = field(default_factory=lambda: np.array(DEFAULT_COLOR))
    override_material: bool = False
    mesh_texture_path: str = ""
    disable_collision: bool = False
    friction: float | None = None  # Coulomb's coefficient for contacts (None: the simulator's default)

    @property
    def mesh_path(self) -> str:
        if isinstance(self.geometry, Mesh):
            return self.geometry.path
        return _SHAPE_NAMES.get(type(self.geometry), type(self.geometry).__name__.upper())  # CONE, ELLIPSOID, ...

    @property
    def mesh_scale(self) -> np.ndarray:
        return np.array(self.geometry.scale if isinstance(self.geometry, Mesh) else (1.0, 1.0, 1.0), dtype=float)

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, GeometryObject)
            and (self.name, self.parent_joint, self.parent_frame, self.geometry, self.override_material,
                 self.mesh_texture_path, self.disable_collision)
            == (other.name, other.parent_joint, other.parent_frame, other.geometry, other.override_material,
                other.mesh_texture_path, other.disable_collision)
            and self.placement == other.placement
            and bool(np.array_equal(self.mesh_color, other.mesh_color))
        )

    __hash__ = None


class GeometryModel:
    """The geometry objects of a model and the collision pairs ``(i, j)``, ``i < j``, to check between them."""

    def __init__(self):
        self.geometry_objects: list[GeometryObject] = []
        self.collision_pairs: list[tuple[int, int]] = []

    @property
    def ngeoms(self) -> int:
        return len(self.geometry_objects)

    def add_geometry_object(self, obj: GeometryObject) -> int:
        """Append ``obj``; returns its id. Names must be unique."""
        if not isinstance(obj, GeometryObject):
            raise TypeError(f"obj: expected a GeometryObject, got {type(obj).__name__}")
        if self.exist_geometry_name(obj.name):
            raise ValueError(f"obj: a geometry object named {obj.name!r} already exists")
        self.geometry_objects.append(obj)
        return self.ngeoms - 1

    def get_geometry_id(self, name: str) -> int:
        """Id of the object called ``name``; raises ``KeyError`` if there is none."""
        for k, obj in enumerate(self.geometry_objects):
            if obj.name == name:
                return k
        raise KeyError(f"no geometry object named {name!r}")

    def exist_geometry_name(self, name: str) -> bool:
        """Whether an object called ``name`` exists."""
        return any(obj.name == name for obj in self.geometry_objects)

    # ------------------------------------------------------------------------------------------ collision pairs
    def _pair(self, i: int, j: int) -> tuple[int, int]:
        for name, k in (("i", i), ("j", j)):
            if not (isinstance(k, (int, np.integer)) and 0 <= k < self.ngeoms):
                raise ValueError(f"{name}: {k!r} is not a geometry id (0..{self.ngeoms - 1})")
        if i == j:
            raise ValueError(f"i, j: a collision pair needs two different objects, got ({i}, {j})")
        return (int(min(i, j)), int(max(i, j)))

    def add_collision_pair(self, i: int, j: int) -> None:
        """Check objects ``i`` and ``j`` (ids) against each other; raises ``ValueError`` for a bad id or ``i == j``."""
        pair = self._pair(i, j)
        if pair not in self.collision_pairs:
            self.collision_pairs.append(pair)

    def remove_collision_pair(self, i: int, j: int) -> None:
        """Stop checking objects ``i`` and ``j`` (ids) against each other (nothing if they were not)."""
        pair = self._pair(i, j)
        if pair in self.collision_pairs:
            self.collision_pairs.remove(pair)

    def exist_collision_pair(self, i: int, j: int) -> bool:
        """Whether objects ``i`` and ``j`` (ids) are checked against each other."""
        return self._pair(i, j) in self.collision_pairs

    def add_all_collision_pairs(self) -> None:
        """Every pair of objects on different joints (as Pinocchio's ``addAllCollisionPairs``)."""
        self.collision_pairs = [
            (i, j)
            for i in range(self.ngeoms)
            for j in range(i + 1, self.ngeoms)
            if self.geometry_objects[i].parent_joint != self.geometry_objects[j].parent_joint
        ]

    def remove_all_collision_pairs(self) -> None:
        """Remove every collision pair: no pair is checked."""
        self.collision_pairs = []

    def __repr__(self) -> str:
        return f"GeometryModel(ngeoms={self.ngeoms}, ncollision_pairs={len(self.collision_pairs)})"
