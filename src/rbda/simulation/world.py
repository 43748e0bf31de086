"""A world to simulate in: a ground plane and free objects added to a model and its collision model."""

from __future__ import annotations

from ..io.geometry import Box, GeometryModel, GeometryObject, Halfspace, Sphere
from ..joints import JointModelFreeFlyer
from ..spatial import SE3, Inertia
from ..spatial._validate import as_scalar


def _check(model, collision_model):
    if not isinstance(collision_model, GeometryModel):
        raise TypeError(f"collision_model: expected a GeometryModel, got {type(collision_model).__name__}")


def add_ground_plane(model, collision_model, name: str = "ground", height: float = 0.0) -> int:
    """Add the half-space ``z <= height`` (world) to ``collision_model`` on joint 0, with a collision pair to every
    object on a moving joint; returns its geometry id. Raises ``TypeError`` for a collision model that is not a
    ``GeometryModel``, ``ValueError`` for a name in use."""
    _check(model, collision_model)
    h = as_scalar(height, "height")
    gid = collision_model.add_geometry_object(GeometryObject(name, 0, 0, SE3.Identity(), Halfspace((0.0, 0.0, 1.0), h)))
    for i, g in enumerate(collision_model.geometry_objects):
        if g.parent_joint != 0:
            collision_model.add_collision_pair(gid, i)
    return gid


def add_free_body(model, collision_model, name: str, shape, mass: float) -> int:
    """Add a free-flying body (a free-flyer joint on the world) named ``name`` with the solid ``shape`` (a
    :class:`Box` or :class:`Sphere`) of ``mass`` kilograms (uniform density), its geometry in ``collision_model``
    with collision pairs to every object on another joint. The model's configuration grows by 7 (position,
    quaternion) and its velocity by 6. Returns the new joint's id. Raises ``ValueError`` for ``mass <= 0`` or a
    name in use, ``TypeError`` for another shape."""
    _check(model, collision_model)
    mass = as_scalar(mass, "mass")
    if mass <= 0.0:
        raise ValueError(f"mass: must be > 0, got {mass}")
    if isinstance(shape, Box):
        inertia = Inertia.FromBox(mass, *map(float, shape.size))
    elif isinstance(shape, Sphere):
        inertia = Inertia.FromSphere(mass, float(shape.radius))
    else:
        raise TypeError(f"shape: expected a Box or a Sphere, got {type(shape).__name__}")
    if collision_model.exist_geometry_name(name):
        raise ValueError(f"name: a geometry object named {name!r} already exists")
    joint = model.add_joint(0, JointModelFreeFlyer(), SE3.Identity(), name)
    model.append_body_to_joint(joint, inertia)
    frame = model.add_body_frame(name, joint)
    gid = collision_model.add_geometry_object(GeometryObject(name, joint, frame, SE3.Identity(), shape))
    for i, g in enumerate(collision_model.geometry_objects):
        if g.parent_joint != joint:
            collision_model.add_collision_pair(i, gid)
    return joint
