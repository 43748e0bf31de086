"""The geoms of an MJCF file as a :class:`~rbda.io.GeometryModel` (Pinocchio's ``buildGeomFromMJCF``), read through
MuJoCo's compiler (``pip install 'rbda[mjcf]'``) for a model built by :func:`rbda.io.mjcf.build_model_from_mjcf`.

Each geom is attached to the BODY frame of its body (world geoms to the universe), at its MuJoCo placement, in its
material's or its own ``rgba``. Boxes, spheres, capsules, cylinders and ellipsoids keep their shape; a plane
becomes a thin box (10 m wide where its size is 0); a mesh geom is its file (the path MuJoCo resolved, with its
``scale``), placed so that the file's vertices land where MuJoCo's re-centred ones are.
Height fields and SDF geoms are left out, as are (for the visual geometry) invisible geoms (alpha 0) and those of
groups 3-5, which MuJoCo's viewer hides by default; the collision geometry holds the geoms MuJoCo collides.
"""

from __future__ import annotations

import os

import numpy as np

from ..model import FrameType, Model
from ..spatial import SE3
from ..model.errors import ModelFileError
from ..model.geometry import (Box, Capsule, Cylinder, Ellipsoid, GeometryModel, GeometryObject, GeometryType, Mesh,
                              Sphere)
from .mjcf import _file_error, _mujoco, _placement, _warnings_as_python_warnings

PLANE, HFIELD, SPHERE, CAPSULE, ELLIPSOID, CYLINDER, BOX, MESH = range(8)
PLANE_SIDE = 10.0  # m, for an infinite plane
PLANE_THICKNESS = 0.002  # m


def _compile(source, is_text: bool):
    mujoco = _mujoco()
    name = "<string>" if is_text else os.fspath(source)
    if not is_text and not os.path.isfile(name):
        raise ModelFileError(name, "", "no such file")
    try:
        with _warnings_as_python_warnings(mujoco, name):
            return mujoco, (mujoco.MjModel.from_xml_string(source) if is_text
                            else mujoco.MjModel.from_xml_path(name)), name
    except ValueError as exc:
        raise _file_error(name, exc) from None


def _shape(mj, g: int, file: str):
    """``(shape, placement of the shape in the geom frame)`` of geom ``g``, or None for one that is not drawn."""
    kind, size = int(mj.geom_type[g]), np.array(mj.geom_size[g], dtype=float)
    if kind == SPHERE:
        return Sphere(size[0]), SE3.Identity()
    if kind == CAPSULE:
        return Capsule(size[0], 2 * size[1]), SE3.Identity()
    if kind == CYLINDER:
        return Cylinder(size[0], 2 * size[1]), SE3.Identity()
    if kind == BOX:
        return Box(tuple(2 * size)), SE3.Identity()
    if kind == ELLIPSOID:
        return Ellipsoid(tuple(float(r) for r in size)), SE3.Identity()
    if kind == PLANE:
        sides = [2 * s if s > 0 else PLANE_SIDE for s in size[:2]]
        return Box((*sides, PLANE_THICKNESS)), SE3(np.eye(3), [0.0, 0.0, -PLANE_THICKNESS / 2])
    if kind == MESH:
        k = int(mj.geom_dataid[g])
        path = bytes(mj.paths[mj.mesh_pathadr[k]:]).split(b"\0", 1)[0].decode() if mj.mesh_pathadr[k] >= 0 else ""
        if path and not os.path.isabs(path):
            path = os.path.join(os.path.dirname(os.path.abspath(file)), path)
        # MuJoCo re-centres a mesh: its vertices are R^T (s v_file - p) with (p, R) = mesh_pos, mesh_quat
        file_in_geom = _placement(mj.mesh_pos[k], mj.mesh_quat[k]).inverse()
        return Mesh(path, tuple(float(s) for s in mj.mesh_scale[k])), file_in_geom
    return None


def build_geom_from_mjcf(model: Model, source, is_text: bool = False,
                         geometry_type: GeometryType = GeometryType.VISUAL) -> GeometryModel:
    """The :class:`GeometryModel` of the geoms of the MJCF file ``source`` (its text if ``is_text``) for ``model``,
    the model :func:`rbda.io.mjcf.build_model_from_mjcf` built from it (bodies are found by their BODY frames):
    with ``geometry_type`` ``VISUAL`` the geoms MuJoCo's viewer draws (see the module), with ``COLLISION`` the geoms
    MuJoCo collides (``contype`` or ``conaffinity`` not zero), whatever their group or colour.

    Objects are named after their geoms (``geom<k>`` when unnamed), coloured by their material or ``rgba``
    (``override_material`` set). Raises :class:`ModelFileError` naming the file for a file MuJoCo rejects or a
    body that ``model`` does not have, and, for ``COLLISION``, naming a colliding geom of a type without a shape
    here (a height field, an SDF); ``ImportError`` naming the extra without MuJoCo.
    """
    mujoco, mj, file = _compile(source, is_text)
    bodies = {f.name: (k, f) for k, f in enumerate(model.frames) if f.type == FrameType.BODY}
    geometry = GeometryModel()
    collision = GeometryType(geometry_type) == GeometryType.COLLISION
    for g in range(mj.ngeom):
        rgba = mj.mat_rgba[mj.geom_matid[g]] if mj.geom_matid[g] >= 0 else mj.geom_rgba[g]
        if collision and not (mj.geom_contype[g] or mj.geom_conaffinity[g]):
            continue
        if not collision and (mj.geom_group[g] > 2 or rgba[3] == 0):
            continue
        drawn = _shape(mj, g, file)
        if drawn is None:
            if collision:
                name = mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_GEOM, g) or f"geom{g}"
                raise ModelFileError(file, f"geom '{name}'", f"a colliding geom of MuJoCo type {int(mj.geom_type[g])} "
                                                            "(a height field or an SDF) has no collision shape here")
            continue
        shape, shape_in_geom = drawn
        b = int(mj.geom_bodyid[g])
        if b == 0:
            frame_id, joint, body_placement = 0, 0, SE3.Identity()
        else:
            body = mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_BODY, b) or f"body{b}"
            if body not in bodies:
                raise ModelFileError(file, f"body '{body}'", "the model has no BODY frame of this name: build it "
                                                            "from the same file with rbda.io.load_model")
            frame_id, frame = bodies[body]
            joint, body_placement = frame.parent_joint, frame.placement
        name = mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_GEOM, g) or f"geom{g}"
        placement = body_placement * _placement(mj.geom_pos[g], mj.geom_quat[g]) * shape_in_geom
        geometry.add_geometry_object(GeometryObject(name, joint, frame_id, placement, shape,
                                                    mesh_color=np.array(rgba, dtype=float), override_material=True))
    return geometry
