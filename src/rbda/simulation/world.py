"""A world to simulate in: a ground plane and free objects added to a model and its collision model."""

from __future__ import annotations

import numpy as np

from ..collision.shapes import Cone, Convex
from ..model.geometry import Box, Capsule, Cylinder, Ellipsoid, GeometryModel, GeometryObject, Halfspace, Mesh, Sphere
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


def solid_inertia(shape, mass: float) -> Inertia:
    """The spatial inertia (shape frame) of the solid ``shape`` of ``mass`` kilograms, uniform density: a box,
    sphere, capsule, cylinder, ellipsoid, cone (``rbda.collision.Cone``) or convex polytope, a mesh through its
    convex hull (its volume, centre of mass and second moments summed over the tetrahedra from its centroid to its
    triangles). Raises ``ValueError`` for ``mass <= 0`` or a bad size, ``TypeError`` for a half-space or another
    shape."""
    if isinstance(shape, Box):
        return Inertia.FromBox(mass, *map(float, shape.size))
    if isinstance(shape, Sphere):
        return Inertia.FromSphere(mass, float(shape.radius))
    if isinstance(shape, Capsule):
        return Inertia.FromCapsule(mass, float(shape.radius), float(shape.length))
    if isinstance(shape, Cylinder):
        return Inertia.FromCylinder(mass, float(shape.radius), float(shape.length))
    if isinstance(shape, Ellipsoid):
        return Inertia.FromEllipsoid(mass, *map(float, shape.radii))
    if isinstance(shape, Cone):  # base at z = -length / 2: the centre of mass a quarter of the length above it
        r, h = float(shape.radius), float(shape.length)
        lateral = mass * (3.0 * r * r / 20.0 + 3.0 * h * h / 80.0)
        return Inertia(as_scalar(mass, "mass"), [0.0, 0.0, -0.25 * h], np.diag([lateral, lateral, 0.3 * mass * r * r]))
    if isinstance(shape, (Mesh, Convex)):
        from ..model.meshes import convex_hull
        from .pair_kernels import shape_table

        hull = convex_hull(shape_table(shape, "shape")[2])
        return _polyhedron_inertia(hull.vertices, hull.faces, as_scalar(mass, "mass"))
    raise TypeError(f"shape: expected a Box, Sphere, Capsule, Cylinder, Ellipsoid, Cone, Mesh or Convex, got "
                    f"{type(shape).__name__}")


def _polyhedron_inertia(vertices, faces, mass) -> Inertia:
    """The inertia of the solid polyhedron of ``vertices (n, 3)`` and outward triangles ``faces (m, 3)`` of
    ``mass``: each tetrahedron ``(c, a, b, d)`` from an inner point ``c`` adds its volume ``V = det[a-c, b-c,
    d-c] / 6``, its centroid and its second moment ``V / 20 (sum x_i x_i^T + s s^T)`` (``x_i`` its four vertices
    from ``c``, ``s`` their sum)."""
    c = vertices.mean(axis=0)
    a, b, d = (vertices[faces[:, k]] - c for k in range(3))
    V = np.einsum("ij,ij->i", a, np.cross(b, d)) / 6.0
    s = a + b + d
    second = (np.einsum("k,ki,kj->ij", V, a, a) + np.einsum("k,ki,kj->ij", V, b, b) + np.einsum("k,ki,kj->ij", V, d, d)
              + np.einsum("k,ki,kj->ij", V, s, s)) / 20.0
    volume = V.sum()
    com = (V[:, None] * s).sum(axis=0) / (4.0 * volume)  # from c
    density = mass / volume
    moments = density * second - mass * np.outer(com, com)  # about the centre of mass
    return Inertia(mass, c + com, np.trace(moments) * np.eye(3) - moments)


def add_free_body(model, collision_model, name: str, shape, mass: float) -> int:
    """Add a free-flying body (a free-flyer joint on the world) named ``name`` with the solid ``shape`` (a
    :class:`Box`, :class:`Sphere`, :class:`Capsule`, :class:`Cylinder`, :class:`Ellipsoid`, ``rbda.collision.Cone``
    or ``Convex``, or a :class:`Mesh` through its convex hull) of ``mass`` kilograms, uniform density
    (:func:`solid_inertia`), its geometry in ``collision_model`` with collision pairs to every object on another
    joint. The model's configuration grows by 7 (position, quaternion) and its velocity by 6. Returns the new
    joint's id. Raises ``ValueError`` for ``mass <= 0``, a bad size or a name in use, ``TypeError`` for a
    half-space or another shape."""
    _check(model, collision_model)
    mass = as_scalar(mass, "mass")
    if mass <= 0.0:
        raise ValueError(f"mass: must be > 0, got {mass}")
    if isinstance(shape, Halfspace):
        raise TypeError("shape: a Halfspace is not a solid of finite mass (add_ground_plane adds one)")
    inertia = solid_inertia(shape, mass)
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
