"""Pinocchio's geometry API over rbda's: ``GeometryObject``, ``GeometryModel``, ``GeometryData``,
``CollisionPair``, the materials, ``buildGeomFromUrdf``, ``createDatas``, the sample geometry models and the
collision and distance algorithms (``computeCollisions``, ``computeDistances``, ...).

Shapes are rbda's (:mod:`rbda.model.geometry`, :mod:`rbda.collision`); a shape of coal (hpp-fcl) given to a
``GeometryObject`` is converted to rbda's (box, sphere, capsule, cylinder, ellipsoid, cone, half-space). As in
Pinocchio, the distance results of ``computeDistances`` and the collision results of ``computeCollisions`` are
kept apart.
"""

from __future__ import annotations

import numpy as np

from .. import collision as _c
from ..collision import shapes as _shapes
from ..model import geometry as _g
from ..io import urdf as _urdf
from . import spatial as _ps
from ._convert import native, to_pin, vector

GeometryType = _g.GeometryType
COLLISION, VISUAL = GeometryType.COLLISION, GeometryType.VISUAL


class CollisionPair:
    """Pinocchio's ``CollisionPair(first, second)``: the ids of two geometry objects."""

    def __init__(self, first: int = 0, second: int = 0):
        self.first, self.second = int(first), int(second)

    def copy(self) -> "CollisionPair":
        return CollisionPair(self.first, self.second)

    def __eq__(self, other) -> bool:
        return isinstance(other, CollisionPair) and (self.first, self.second) == (other.first, other.second)

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = None

    def __iter__(self):
        return iter((self.first, self.second))

    def __repr__(self) -> str:
        return f"CollisionPair({self.first}, {self.second})"


class GeometryNoMaterial:
    """Pinocchio's default material: the mesh's own colours."""


class GeometryPhongMaterial:
    """Pinocchio's Phong material: ``meshEmissionColor``, ``meshSpecularColor`` (RGBA) and ``meshShininess``."""

    def __init__(self, meshEmissionColor=(0.0, 0.0, 0.0, 1.0), meshSpecularColor=(0.0, 0.0, 0.0, 1.0),
                 meshShininess: float = 0.0):
        self.meshEmissionColor = np.array(meshEmissionColor, dtype=float)
        self.meshSpecularColor = np.array(meshSpecularColor, dtype=float)
        self.meshShininess = float(meshShininess)


def _shape(geometry):
    """An rbda shape for ``geometry``: an rbda shape as it is, a coal (hpp-fcl) shape converted."""
    name = type(geometry).__name__
    if type(geometry).__module__.startswith(("coal", "hppfcl")):
        if name == "Box":
            return _g.Box(tuple(2.0 * np.asarray(geometry.halfSide, dtype=float)))
        if name == "Sphere":
            return _g.Sphere(float(geometry.radius))
        if name in ("Capsule", "Cylinder"):
            return getattr(_g, name)(float(geometry.radius), 2.0 * float(geometry.halfLength))
        if name == "Ellipsoid":
            return _shapes.Ellipsoid(np.asarray(geometry.radii, dtype=float))
        if name == "Cone":
            return _shapes.Cone(float(geometry.radius), 2.0 * float(geometry.halfLength))
        if name == "Halfspace":
            return _g.Halfspace(tuple(np.asarray(geometry.n, dtype=float)), float(geometry.d))
        raise TypeError(f"geometry: coal's {name} has no rbda counterpart (boxes, spheres, capsules, cylinders, "
                        "ellipsoids, cones, half-spaces)")
    return geometry


class GeometryObject(_g.GeometryObject):
    """Pinocchio's ``GeometryObject(name, parent_joint, parent_frame, placement, geometry, mesh_path="",
    mesh_scale=(1, 1, 1), override_material=False, mesh_color=..., mesh_texture_path="",
    mesh_material=GeometryNoMaterial())``; Pinocchio 2's order ``(name, parent_frame, parent_joint, geometry,
    placement, ...)`` is accepted too. camelCase fields: ``parentJoint``, ``parentFrame``, ``meshPath``,
    ``meshScale``, ``meshColor``, ``meshMaterial``, ``overrideMaterial``, ``disableCollision``."""

    def __init__(self, name, parent_joint, parent_frame, placement, geometry, mesh_path: str = "",
                 mesh_scale=None, override_material: bool = False, mesh_color=None, mesh_texture_path: str = "",
                 mesh_material=None):
        if isinstance(geometry, _ps._s.SE3):  # Pinocchio 2's (name, parent_frame, parent_joint, geometry, placement)
            parent_joint, parent_frame, placement, geometry = parent_frame, parent_joint, geometry, placement
        shape = _shape(geometry)
        if mesh_path and not isinstance(shape, _g.Mesh) and not mesh_path.isupper():
            scale = tuple(np.asarray(vector(mesh_scale), dtype=float)) if mesh_scale is not None else (1.0, 1.0, 1.0)
            shape = _g.Mesh(str(mesh_path), scale)
        super().__init__(name, int(parent_joint), int(parent_frame), to_pin(placement.copy()), shape,
                         np.array(_g.DEFAULT_COLOR if mesh_color is None else mesh_color, dtype=float),
                         bool(override_material), str(mesh_texture_path))
        self.meshMaterial = GeometryNoMaterial() if mesh_material is None else mesh_material

    @classmethod
    def adopt(cls, obj: _g.GeometryObject) -> "GeometryObject":
        """``obj`` (rbda's) shown as Pinocchio's (re-classed in place)."""
        if not isinstance(obj, cls):
            obj.__class__ = cls
            obj.__dict__.setdefault("meshMaterial", GeometryNoMaterial())
            to_pin(obj.placement)
        return obj

    parentJoint = property(lambda self: self.parent_joint, lambda self, j: setattr(self, "parent_joint", int(j)))
    parentFrame = property(lambda self: self.parent_frame, lambda self, f: setattr(self, "parent_frame", int(f)))
    meshPath = property(lambda self: self.mesh_path)
    meshScale = property(lambda self: self.mesh_scale)
    meshColor = property(lambda self: self.mesh_color, lambda self, c: setattr(self, "mesh_color", np.array(c, float)))
    meshTexturePath = property(lambda self: self.mesh_texture_path)
    overrideMaterial = property(lambda self: self.override_material,
                                lambda self, b: setattr(self, "override_material", bool(b)))
    disableCollision = property(lambda self: self.disable_collision,
                                lambda self, b: setattr(self, "disable_collision", bool(b)))

    def __getstate__(self):
        return dict(self.__dict__)


class GeometryModel(_g.GeometryModel):
    """Pinocchio's ``GeometryModel``: rbda's with ``geometryObjects``, ``collisionPairs`` (a list of
    :class:`CollisionPair`), ``addGeometryObject``, ``addCollisionPair``, ``addAllCollisionPairs``,
    ``removeCollisionPair``, ``existCollisionPair``, ``findCollisionPair``, ``getGeometryId`` (``ngeoms`` for an
    unknown name, as Pinocchio), ``existGeometryName``, ``createData`` and ``copy``."""

    @classmethod
    def adopt(cls, geom_model: _g.GeometryModel) -> "GeometryModel":
        geom_model.__class__ = cls
        for obj in geom_model.geometry_objects:
            GeometryObject.adopt(obj)
        return geom_model

    @property
    def geometryObjects(self) -> list:
        return [GeometryObject.adopt(o) for o in self.geometry_objects]

    @property
    def collisionPairs(self) -> list:
        return [CollisionPair(i, j) for i, j in self.collision_pairs]

    def addGeometryObject(self, obj, model=None) -> int:
        return self.add_geometry_object(GeometryObject.adopt(obj))

    def addCollisionPair(self, pair: CollisionPair) -> None:
        self.add_collision_pair(pair.first, pair.second)

    def removeCollisionPair(self, pair: CollisionPair) -> None:
        self.remove_collision_pair(pair.first, pair.second)

    def existCollisionPair(self, pair: CollisionPair) -> bool:
        return self.exist_collision_pair(pair.first, pair.second)

    def findCollisionPair(self, pair: CollisionPair) -> int:
        key = (min(pair.first, pair.second), max(pair.first, pair.second))
        return self.collision_pairs.index(key) if key in self.collision_pairs else len(self.collision_pairs)

    def addAllCollisionPairs(self) -> None:
        self.add_all_collision_pairs()

    def removeAllCollisionPairs(self) -> None:
        self.remove_all_collision_pairs()

    def getGeometryId(self, name: str) -> int:
        return next((k for k, o in enumerate(self.geometry_objects) if o.name == name), self.ngeoms)

    def existGeometryName(self, name: str) -> bool:
        return self.exist_geometry_name(name)

    def createData(self) -> "GeometryData":
        return GeometryData(self)

    def copy(self) -> "GeometryModel":
        import copy

        return copy.deepcopy(self)

    def clone(self) -> "GeometryModel":
        return self.copy()



class _Result:
    """One pair's distance or collision result, under Pinocchio's (coal's) names."""

    def __init__(self, **fields):
        self.__dict__.update(fields)


class GeometryData(_c.GeometryData):
    """Pinocchio's ``GeometryData(geom_model)``: rbda's with ``oMg`` as ``SE3``, ``activeCollisionPairs``,
    ``distanceResults`` (``min_distance``, ``normal``, ``getNearestPoint1/2()``), ``collisionResults``
    (``isCollision()``, ``distance_lower_bound``), ``radius`` (after :func:`computeBodyRadius`) and ``copy``."""

    def __init__(self, geom_model, request=None):
        super().__init__(geom_model, request)
        self.radius: list = []

    @property
    def oMg(self):
        from .model import _PinSE3Views

        return _PinSE3Views(self._oMg)

    @oMg.setter
    def oMg(self, value) -> None:  # rbda's constructor sets it
        pass

    activeCollisionPairs = property(lambda self: self.active_collision_pairs)

    @property
    def distanceResults(self) -> list:
        return [_Result(min_distance=r.min_distance, normal=r.normal, nearest_points=r.nearest_points,
                        getNearestPoint1=lambda r=r: r.nearest_points[0].copy(),
                        getNearestPoint2=lambda r=r: r.nearest_points[1].copy())
                for r in self.distance_results]

    @property
    def collisionResults(self) -> list:
        return [_Result(distance_lower_bound=r.distance, isCollision=lambda r=r: r.is_collision,
                        numContacts=lambda r=r: int(r.is_collision)) for r in self.collision_results]

    def copy(self) -> "GeometryData":
        import copy

        out = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray):
                setattr(out, name, value.copy())
        out.__dict__["_coal"] = {}
        return out


def createDatas(*models) -> tuple:
    """The data of each model given (a ``Model`` or a ``GeometryModel``), in order."""
    return tuple(m.createData() for m in models)


# ------------------------------------------------------------------------------------------------------ algorithms
def updateGeometryPlacements(model, data, geom_model, geom_data, q=None):
    _c.update_geometry_placements(model, native(data), geom_model, geom_data, vector(q))


def computeCollisions(*args):
    """``(model, data, geom_model, geom_data, q[, stop_at_first_collision])`` or ``(geom_model, geom_data[,
    stop_at_first_collision])`` (the placements of the last ``updateGeometryPlacements``)."""
    if isinstance(args[0], _g.GeometryModel):
        geom_model, geom_data, *rest = args
        return _collisions_at_placements(geom_model, geom_data, bool(rest[0]) if rest else False)
    model, data, geom_model, geom_data, q, *rest = args
    return _c.compute_collisions(model, native(data), geom_model, geom_data, vector(q), *rest)


def _collisions_at_placements(geom_model, geom_data, stop_at_first_collision: bool) -> bool:
    """``computeCollisions(geom_model, geom_data)``: every active pair at the current placements, pair by pair."""
    hit = False
    for p in range(len(geom_model.collision_pairs)):
        if geom_data.active_collision_pairs[p]:
            hit = _c.compute_collision(geom_model, geom_data, p) or hit
            if hit and stop_at_first_collision:
                break
    return hit


def computeCollision(geom_model, geom_data, pair_index) -> bool:
    return _c.compute_collision(geom_model, geom_data, int(pair_index))


def computeDistances(*args) -> int:
    """``(model, data, geom_model, geom_data[, q])`` or ``(geom_model, geom_data)`` (current placements)."""
    if isinstance(args[0], _g.GeometryModel):
        geom_model, geom_data = args
        best, smallest = -1, np.inf
        for p in range(len(geom_model.collision_pairs)):
            if geom_data.active_collision_pairs[p]:
                d = _c.compute_distance(geom_model, geom_data, p).min_distance
                best, smallest = (p, d) if d < smallest else (best, smallest)
        return best
    model, data, geom_model, geom_data, *q = args
    return _c.compute_distances(model, native(data), geom_model, geom_data, vector(q[0]) if q else None)


def computeDistance(geom_model, geom_data, pair_index):
    r = _c.compute_distance(geom_model, geom_data, int(pair_index))
    return _Result(min_distance=r.min_distance, normal=r.normal, nearest_points=r.nearest_points,
                   getNearestPoint1=lambda: r.nearest_points[0].copy(),
                   getNearestPoint2=lambda: r.nearest_points[1].copy())


def computeBodyRadius(model, geom_model, geom_data) -> None:
    """``geom_data.radius[i]``: the radius of the ball about joint ``i``'s origin that holds every geometry object
    on it (the corners of the objects' bounding boxes, rbda's broad phase's, moved to the joint frame)."""
    packed = _c.pack_geometry(geom_model)
    radius = [0.0] * model.njoints
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
    for k, obj in enumerate(geom_model.geometry_objects):
        centre, half = packed.local_boxes[k, :3], packed.local_boxes[k, 3:]
        points = obj.placement.act(centre + corners * half)
        radius[obj.parent_joint] = max(radius[obj.parent_joint], float(np.linalg.norm(points, axis=1).max()))
    geom_data.radius = radius


# ------------------------------------------------------------------------------------------------------ URDF
def buildGeomFromUrdf(model, filename, geom_type, *args, **kwargs) -> GeometryModel:
    """``(model, filename, geom_type[, geometry_model][, package_dirs][, mesh_loader])``: the visual or collision
    geometry of a URDF file (filled into ``geometry_model`` when it is given, and returned)."""
    args = list(args)
    target = args.pop(0) if args and isinstance(args[0], _g.GeometryModel) else kwargs.pop("geometry_model", None)
    package_dirs = args.pop(0) if args else kwargs.pop("package_dirs", None)
    built = _urdf.build_geom_from_urdf(model, filename, GeometryType(int(geom_type)), _package_dirs(package_dirs))
    if target is None:
        return GeometryModel.adopt(built)
    target.geometry_objects[:] = built.geometry_objects
    target.collision_pairs[:] = built.collision_pairs
    return GeometryModel.adopt(target)


def _package_dirs(package_dirs):
    if package_dirs is None:
        return None
    if isinstance(package_dirs, (str, bytes)) or hasattr(package_dirs, "__fspath__"):
        return [str(package_dirs)]
    return [str(d) for d in package_dirs]


# ------------------------------------------------------------------------------------------------------ samples
def _add(gm, name, joint, placement, shape, rgba) -> None:
    gm.addGeometryObject(GeometryObject(name, joint, 0, placement, shape, mesh_color=rgba))


def buildSampleGeometryModelManipulator(model) -> GeometryModel:
    """Spheres at the shoulder, elbow and wrist and capsules along the arm and the effector of
    :func:`~rbda.pinocchio.sample_models.buildSampleModelManipulator`, named as Pinocchio names them."""
    gm = GeometryModel()
    joint = model.getJointId
    white, red = (1.0, 1.0, 0.78, 1.0), (1.0, 0.2, 0.2, 1.0)
    _add(gm, "shoulder_object", joint("shoulder1_joint"), _ps.SE3(), _g.Sphere(0.05), white)
    _add(gm, "elbow_object", joint("elbow_joint"), _ps.SE3(), _g.Sphere(0.05), white)
    _add(gm, "wrist_object", joint("wrist1_joint"), _ps.SE3(), _g.Sphere(0.05), white)
    _add(gm, "upperarm_object", joint("shoulder3_joint"), _ps.SE3(np.eye(3), [0, 0, 0.25]), _g.Capsule(0.03, 0.5),
         red)
    _add(gm, "lowerarm_object", joint("elbow_joint"), _ps.SE3(np.eye(3), [0, 0, 0.25]), _g.Capsule(0.03, 0.5), red)
    _add(gm, "effector_object", model.njoints - 1, _ps.SE3(np.eye(3), [0, 0, 0.05]), _g.Capsule(0.02, 0.1), red)
    return gm


def buildSampleGeometryModelHumanoid(model) -> GeometryModel:
    """Spheres at the shoulders, elbows and wrists of the four limbs and capsules along them, a box for the chest
    and a sphere for the head of :func:`~rbda.pinocchio.sample_models.buildSampleModelHumanoid`, named as
    Pinocchio names them (``rleg_shoulder_object``, ...)."""
    gm = GeometryModel()
    joint = model.getJointId
    white, red = (1.0, 1.0, 0.78, 1.0), (1.0, 0.2, 0.2, 1.0)
    for limb in ("rleg", "lleg", "rarm", "larm"):
        _add(gm, f"{limb}_shoulder_object", joint(f"{limb}_shoulder1_joint"), _ps.SE3(), _g.Sphere(0.05), white)
        _add(gm, f"{limb}_elbow_object", joint(f"{limb}_elbow_joint"), _ps.SE3(), _g.Sphere(0.05), white)
        _add(gm, f"{limb}_wrist_object", joint(f"{limb}_wrist1_joint"), _ps.SE3(), _g.Sphere(0.05), white)
        _add(gm, f"{limb}_upperarm_object", joint(f"{limb}_shoulder3_joint"), _ps.SE3(np.eye(3), [0, 0, -0.25]),
             _g.Capsule(0.03, 0.5), red)
        _add(gm, f"{limb}_lowerarm_object", joint(f"{limb}_elbow_joint"), _ps.SE3(np.eye(3), [0, 0, -0.25]),
             _g.Capsule(0.03, 0.5), red)
    _add(gm, "chest_object", joint("chest2_joint"), _ps.SE3(np.eye(3), [0, 0, 0.3]), _g.Box((0.3, 0.4, 0.5)), red)
    _add(gm, "head_object", joint("head2_joint"), _ps.SE3(np.eye(3), [0, 0, 0.15]), _g.Sphere(0.15), white)
    return gm
