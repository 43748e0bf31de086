"""What the viewer and the saved animations draw: a model's geometry as coloured triangle meshes, and where they
are in each configuration.

A :class:`Part` is one triangle mesh rigidly attached to a joint. :func:`parts_of` turns a
:class:`~rbda.io.GeometryModel` into parts: boxes, cylinders, spheres, capsules, ellipsoids, cones and convex
hulls are tessellated here, half-spaces and planes drawn as a thin 10 m slab under their plane, mesh
files are read through :func:`rbda.model.meshes.load_mesh`, in the robot file's colour or else in the mesh file's
own material colours (:func:`file_colours`). A mesh file that is missing or unreadable is drawn as the box of its
body's inertia, with one warning naming the file. :func:`part_placements` gives every part's
world placement along a trajectory, from the batched forward kinematics.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass

import numpy as np

from ..model.errors import ModelFileError
from ..model.geometry import Box, Capsule, Cylinder, GeometryModel, Halfspace, Mesh, Sphere
from ..model import Model
from ..spatial import SE3

SEGMENTS = 32  # around a cylinder, a capsule or a sphere
FALLBACK_SIDE = 0.05  # side of the cube drawn for a missing mesh on a massless body (m)
PLANE_SIDE, PLANE_THICKNESS = 10.0, 0.002  # the slab drawn for a half-space or a plane (m)
PALETTE = ((0.85, 0.33, 0.2), (0.2, 0.47, 0.75), (0.35, 0.65, 0.3), (0.85, 0.65, 0.15), (0.55, 0.35, 0.7))  # bodies


class MeshFileWarning(UserWarning):
    """A mesh file could not be drawn; its body's inertia box is drawn instead."""


@dataclass(frozen=True)
class Part:
    """The part ``name`` of a robot's drawing: a triangle mesh ``vertices`` ``(n, 3)``, ``faces`` ``(m, 3)`` (counter-clockwise seen from outside),
    placed at ``placement`` in the frame of joint ``joint``, of colour ``color`` ``(4,)`` RGBA in [0, 1]."""

    name: str
    joint: int
    placement: SE3
    vertices: np.ndarray
    faces: np.ndarray
    color: np.ndarray


# ---------------------------------------------------------------------------------------------- tessellation
def box_mesh(size) -> tuple[np.ndarray, np.ndarray]:
    """A box of full sides ``size`` ``(3,)`` centred on the origin: 24 vertices (4 per face, so that each face
    keeps its own normal) and 12 triangles."""
    h = 0.5 * np.asarray(size, dtype=float)
    vertices, faces = [], []
    for axis in range(3):
        for sign in (1.0, -1.0):
            u, w = (axis + 1) % 3, (axis + 2) % 3  # (u, w, axis) is right-handed: u x w = axis
            corners = []
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                p = np.zeros(3)
                p[axis], p[u], p[w] = sign * h[axis], a * h[u], sign * b * h[w]
                corners.append(p)
            k = len(vertices)
            vertices += corners
            faces += [(k, k + 1, k + 2), (k, k + 2, k + 3)]
    return np.array(vertices), np.array(faces, dtype=np.int64)


def revolution_mesh(profile) -> tuple[np.ndarray, np.ndarray]:
    """The surface swept by the profile ``[(r_0, z_0), ..., (r_k, z_k)]`` turning about the z axis (``z``
    increasing, ``r = 0`` at a closed end), in ``SEGMENTS`` steps; triangles face away from the axis."""
    profile = np.asarray(profile, dtype=float)
    angle = 2 * np.pi * np.arange(SEGMENTS) / SEGMENTS
    c, s = np.cos(angle), np.sin(angle)
    rings = [np.column_stack([r * c, r * s, np.full(SEGMENTS, z)]) for r, z in profile]
    vertices = np.concatenate(rings)
    faces = []
    for i in range(len(profile) - 1):
        for j in range(SEGMENTS):
            a, b = i * SEGMENTS + j, i * SEGMENTS + (j + 1) % SEGMENTS
            faces += [(a, b, b + SEGMENTS), (a, b + SEGMENTS, a + SEGMENTS)]
    return vertices, np.array(faces, dtype=np.int64)


def cylinder_mesh(radius: float, length: float) -> tuple[np.ndarray, np.ndarray]:
    """A closed cylinder along z, centred on the origin."""
    h = 0.5 * length
    return revolution_mesh([(0.0, -h), (radius, -h), (radius, h), (0.0, h)])


def capsule_mesh(radius: float, length: float) -> tuple[np.ndarray, np.ndarray]:
    """A cylinder of ``length`` along z capped by half-spheres of ``radius``, centred on the origin."""
    h = 0.5 * length
    a = np.linspace(-np.pi / 2, 0.0, SEGMENTS // 4 + 1)
    lower = [(radius * np.cos(t), -h + radius * np.sin(t)) for t in a]
    upper = [(r, -z) for r, z in reversed(lower)]
    return revolution_mesh(lower + (upper[1:] if h == 0 else upper))


def sphere_mesh(radius: float) -> tuple[np.ndarray, np.ndarray]:
    """A sphere of ``radius`` centred on the origin."""
    return capsule_mesh(radius, 0.0)


def inertia_box(model: Model, joint: int) -> tuple[SE3, np.ndarray]:
    """The placement (joint frame) and sides ``(3,)`` of the uniform box with the mass, centre of mass and
    rotational inertia of the body of ``joint`` (a ``FALLBACK_SIDE`` cube at the joint if it has no mass)."""
    Y = model.inertias[joint]
    if Y.mass <= 0:
        return SE3.Identity(), np.full(3, FALLBACK_SIDE)
    moments, axes = np.linalg.eigh(Y.inertia)
    if np.linalg.det(axes) < 0:
        axes[:, 0] = -axes[:, 0]
    # box: I_x = m (b^2 + c^2) / 12, ...  =>  a^2 = 6 (I_y + I_z - I_x) / m
    sides = np.sqrt(np.maximum(6.0 * (moments.sum() - 2.0 * moments) / Y.mass, 0.0))
    return SE3(axes, Y.lever), np.maximum(sides, 1e-3)


def inertia_geometry(model: Model) -> GeometryModel:
    """A visual model for a model without one: the box of each body's inertia (:func:`inertia_box`), for every
    joint that carries mass, coloured in turn from a small palette."""
    from ..model.geometry import GeometryObject

    geometry = GeometryModel()
    for j in range(1, model.njoints):
        if model.inertias[j].mass > 0:
            placement, sides = inertia_box(model, j)
            frame = next((k for k, f in enumerate(model.frames) if f.parent_joint == j), 0)
            geometry.add_geometry_object(GeometryObject(
                f"{model.names[j]}_inertia", j, frame, placement, Box(tuple(sides)),
                mesh_color=np.array([*PALETTE[(j - 1) % len(PALETTE)], 1.0]), override_material=True))
    return geometry


def ellipsoid_mesh(radii) -> tuple[np.ndarray, np.ndarray]:
    """An ellipsoid of semi-axes ``radii`` ``(3,)`` along x, y, z, centred on the origin."""
    vertices, faces = sphere_mesh(1.0)
    return vertices * np.asarray(radii, dtype=float), faces


def cone_mesh(radius: float, length: float) -> tuple[np.ndarray, np.ndarray]:
    """A cone along z, centred on the origin: base of ``radius`` at ``z = -length / 2``, apex at ``+length / 2``."""
    h = 0.5 * length
    return revolution_mesh([(0.0, -h), (radius, -h), (0.0, h)])


def hull_mesh(points) -> tuple[np.ndarray, np.ndarray]:
    """The convex hull of ``points`` ``(n, 3)``: its vertices and its triangles, counter-clockwise seen from
    outside."""
    from scipy.spatial import ConvexHull

    points = np.asarray(points, dtype=float)
    hull = ConvexHull(points)
    faces = hull.simplices.copy()
    # each facet's outward normal is hull.equations[:, :3]: flip the triangles whose winding disagrees
    a, b, c = (points[faces[:, k]] for k in range(3))
    inward = np.einsum("ij,ij->i", np.cross(b - a, c - a), hull.equations[:, :3]) < 0
    faces[inward] = faces[inward][:, ::-1]
    return points, faces


def halfspace_mesh(normal, offset: float) -> tuple[np.ndarray, np.ndarray]:
    """A half-space ``{x : normal . x <= offset}`` drawn as a ``PLANE_SIDE`` square slab of thickness
    ``PLANE_THICKNESS`` just below its boundary plane."""
    n = np.asarray(normal, dtype=float)
    n = n / np.linalg.norm(n)
    vertices, faces = box_mesh((PLANE_SIDE, PLANE_SIDE, PLANE_THICKNESS))
    z = n
    x = np.cross([0.0, 1.0, 0.0] if abs(z[1]) < 0.9 else [1.0, 0.0, 0.0], z)
    x /= np.linalg.norm(x)
    R = np.column_stack([x, np.cross(z, x), z])
    return (vertices - [0.0, 0.0, 0.5 * PLANE_THICKNESS]) @ R.T + offset * n, faces


def _shape_mesh(shape) -> tuple[np.ndarray, np.ndarray]:
    from ..collision.shapes import Cone, Convex, Ellipsoid, Plane

    if isinstance(shape, Ellipsoid):
        return ellipsoid_mesh(shape.radii)
    if isinstance(shape, Cone):
        return cone_mesh(shape.radius, shape.length)
    if isinstance(shape, Convex):
        return hull_mesh(shape.vertices)
    if isinstance(shape, (Halfspace, Plane)):
        return halfspace_mesh(shape.normal, shape.offset)
    if isinstance(shape, Box):
        return box_mesh(shape.size)
    if isinstance(shape, Cylinder):
        return cylinder_mesh(shape.radius, shape.length)
    if isinstance(shape, Capsule):
        return capsule_mesh(shape.radius, shape.length)
    if isinstance(shape, Sphere):
        return sphere_mesh(shape.radius)
    if isinstance(shape, Mesh):
        from ..model.meshes import load_mesh

        scale = np.broadcast_to(np.asarray(shape.scale, dtype=float), (3,))
        mesh = load_mesh(shape.path, np.abs(scale))  # a negative scale mirrors: flip the triangles back outwards
        sign = np.where(scale < 0, -1.0, 1.0)
        return mesh.vertices * sign, (mesh.faces[:, ::-1] if np.prod(sign) < 0 else mesh.faces)
    raise TypeError(f"geometry: cannot draw a {type(shape).__name__}")


COLOURED_FORMATS = (".dae", ".obj", ".glb", ".gltf", ".ply", ".off", ".3mf")  # files that may carry colours


def file_colours(path: str, scale) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """The pieces ``(vertices (n, 3), faces (m, 3), rgba (4,) in [0, 1])`` of a mesh file, one per colour its
    materials or face colours give, in the file's frame, scaled by ``scale`` ``(3,)`` (the same triangles as
    :func:`rbda.model.meshes.load_mesh`); an empty list if the file gives no colour."""
    import trimesh

    loaded = trimesh.load(path, process=False)
    meshes = loaded.dump(concatenate=False) if isinstance(loaded, trimesh.Scene) else [loaded]
    groups: dict[tuple, list] = {}
    for mesh in meshes:
        visual = getattr(mesh, "visual", None)
        if visual is None or visual.kind is None:
            return []
        if visual.kind == "texture":
            rgba = np.asarray(getattr(visual.material, "main_color", None), dtype=float).reshape(-1)
            keys = [tuple(rgba)] * len(mesh.faces) if rgba.size == 4 else None
        else:
            keys = [tuple(c) for c in np.asarray(visual.face_colors, dtype=float)]
        if keys is None:
            return []
        for key in set(keys):
            rows = np.array([k == key for k in keys])
            groups.setdefault(key, []).append((np.asarray(mesh.vertices, dtype=float), np.asarray(mesh.faces)[rows]))
    if len(groups) < 2 and all(np.allclose(key, (102, 102, 102, 255)) for key in groups):
        return []  # trimesh's default grey: the file has no colour of its own
    pieces = []
    for key, chunks in groups.items():
        vertices, faces, offset = [], [], 0
        for v, f in chunks:
            used = np.unique(f)
            index = np.full(len(v), -1)
            index[used] = np.arange(len(used)) + offset
            vertices.append(v[used])
            faces.append(index[f])
            offset += len(used)
        pieces.append((np.concatenate(vertices) * scale, np.concatenate(faces), np.array(key) / 255.0))
    return pieces


def parts_of(model: Model, geometry_model: GeometryModel) -> list[Part]:
    """The :class:`Part` of each object of ``geometry_model`` (attached to joints of ``model``), in its colour
    (``mesh_color`` if ``override_material``, else the mesh file's own colours, one part per colour, else
    ``mesh_color``).

    A mesh file that is missing or cannot be read becomes the box of its body's inertia (:func:`inertia_box`),
    with one :class:`MeshFileWarning` per file naming it. Raises ``TypeError`` if ``geometry_model`` is not a
    ``GeometryModel`` and ``ValueError`` if an object hangs on a joint the model does not have.
    """
    if not isinstance(model, Model):
        raise TypeError(f"model: expected an rbda.Model, got {type(model).__name__}")
    if not isinstance(geometry_model, GeometryModel):
        raise TypeError(f"visual_model: expected an rbda.io.GeometryModel, got {type(geometry_model).__name__}")
    parts, warned = [], set()
    for obj in geometry_model.geometry_objects:
        if not 0 <= obj.parent_joint < model.njoints:
            raise ValueError(f"visual_model: object {obj.name!r} hangs on joint {obj.parent_joint}, but the model "
                             f"has joints 0..{model.njoints - 1}")
        placement = obj.placement
        try:
            vertices, faces = _shape_mesh(obj.geometry)
        except (ModelFileError, ImportError) as err:
            path = os.fspath(obj.geometry.path)
            if path not in warned:
                warned.add(path)
                reason = str(err).removeprefix(f"{path}: ")
                warnings.warn(f"{path}: cannot draw this mesh ({reason}); drawing the box of its body's inertia "
                              "instead", MeshFileWarning, stacklevel=3)
            box_placement, sides = inertia_box(model, obj.parent_joint)
            placement = box_placement
            vertices, faces = box_mesh(sides)
        color = np.clip(np.asarray(obj.mesh_color, dtype=float).reshape(-1)[:4], 0.0, 1.0)
        pieces = _file_pieces(obj) if placement is obj.placement else []
        for k, (v, f, rgba) in enumerate(pieces or [(vertices, faces, color)]):
            parts.append(Part(obj.name if not pieces else f"{obj.name}/{k}", obj.parent_joint, placement,
                              np.asarray(v, dtype=float), np.asarray(f, dtype=np.int64), rgba))
    return parts


def _file_pieces(obj) -> list:
    """The coloured pieces of a mesh object whose robot file gives no colour (see :func:`file_colours`), with a
    mirroring scale applied; an empty list otherwise, or if the file's colours cannot be read."""
    shape = obj.geometry
    if (not isinstance(shape, Mesh) or obj.override_material
            or not os.fspath(shape.path).lower().endswith(COLOURED_FORMATS)):
        return []
    scale = np.broadcast_to(np.asarray(shape.scale, dtype=float), (3,))
    try:
        pieces = file_colours(os.fspath(shape.path), scale)
    except Exception:  # noqa: BLE001 (colours are a nicety: the triangles were read already)
        return []
    flip = np.prod(np.sign(scale)) < 0
    return [(v, f[:, ::-1] if flip else f, c) for v, f, c in pieces]


# ---------------------------------------------------------------------------------------------- placements
def trajectory(model: Model, Q, name: str = "Q") -> np.ndarray:
    """``Q`` as a C-contiguous float64 ``(T, nq)`` array (one configuration ``(nq,)`` becomes ``(1, nq)``);
    raises ``ValueError`` naming ``name`` for a wrong width, no sample, or a non-finite entry."""
    Q = np.asarray(Q, dtype=float)
    if Q.ndim == 1:
        Q = Q[None, :]
    if Q.ndim != 2 or Q.shape[1] != model.nq:
        raise ValueError(f"{name}: expected configurations of width nq = {model.nq} for model {model.name!r}, "
                         f"shape (T, {model.nq}), got shape {Q.shape}")
    if len(Q) == 0:
        raise ValueError(f"{name}: the trajectory has no sample")
    if not np.all(np.isfinite(Q)):
        row = int(np.argwhere(~np.isfinite(Q))[0, 0])
        raise ValueError(f"{name}: sample {row} is not finite")
    return np.ascontiguousarray(Q)


def part_placements(model: Model, parts: list[Part], Q) -> np.ndarray:
    """World placements ``(T, len(parts), 3, 4)`` ``[R | p]`` of ``parts`` along the configurations ``Q``
    ``(T, nq)``: ``oMi[joint] * placement`` from :func:`rbda.batch.forward_kinematics`."""
    from .. import batch

    oMi = batch.forward_kinematics(model, trajectory(model, Q))
    out = np.empty((len(oMi), len(parts), 3, 4))
    for k, part in enumerate(parts):
        R, p = oMi[:, part.joint, :, :3], oMi[:, part.joint, :, 3]
        out[:, k, :, :3] = R @ part.placement.rotation
        out[:, k, :, 3] = p + R @ part.placement.translation
    return out
