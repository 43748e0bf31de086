"""``rbda.load_scene``: an MJCF scene file as ``(model, collision_model)`` for :class:`rbda.Simulator`."""

from __future__ import annotations

import os

import dataclasses
import warnings

from ..io.geometry import Halfspace
from ..io.mjcf import _placement, build_model_from_mjmodel
from ..io.mjcf_geometry import PLANE, _compile, build_geom_from_mjcf
from .contacts import PAIR_FUNCTIONS


def load_scene(path: str | os.PathLike):
    """Read the MJCF scene ``path`` (through MuJoCo, ``pip install 'rbda[mjcf]'``) into ``(model, collision_model)``.

    Free bodies become free-flyer joints (MuJoCo's ``qpos`` converts with :func:`rbda.io.mjcf.qpos_to_q`), the
    worldbody's geoms are fixed obstacles on joint 0 (a ``plane`` geom is the half-space below it, a
    :class:`rbda.io.Halfspace`), each object's ``friction`` is MuJoCo's first ``friction`` value of its geom. The
    collision pairs are those MuJoCo would test: objects on different joints whose ``contype``/``conaffinity``
    match, and for which a contact function exists (the others are left out with a ``UserWarning`` naming them).
    Raises :class:`rbda.io.ModelFileError` naming the file for a file MuJoCo rejects, ``ImportError`` without
    MuJoCo.
    """
    mujoco, mj, file = _compile(path, False)
    model = build_model_from_mjmodel(mj, file=file)
    geometry = build_geom_from_mjcf(model, file)
    ids = {}
    for g in range(mj.ngeom):
        name = mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_GEOM, g) or f"geom{g}"
        if not geometry.exist_geometry_name(name):
            continue
        k = geometry.get_geometry_id(name)
        ids[k] = g
        obj = geometry.geometry_objects[k]
        changes = {"friction": float(mj.geom_friction[g][0])}
        if int(mj.geom_type[g]) == PLANE:  # the half-space z <= 0 of the geom's frame
            placement = _placement(mj.geom_pos[g], mj.geom_quat[g])
            if mj.geom_bodyid[g] != 0:
                placement = model.frames[obj.parent_frame].placement * placement
            changes.update(geometry=Halfspace(), placement=placement)
        geometry.geometry_objects[k] = dataclasses.replace(obj, **changes)
    skipped = []
    for i in range(geometry.ngeoms):
        for j in range(i + 1, geometry.ngeoms):
            a, b = geometry.geometry_objects[i], geometry.geometry_objects[j]
            gi, gj = ids[i], ids[j]
            if a.parent_joint == b.parent_joint or not (mj.geom_contype[gi] & mj.geom_conaffinity[gj]
                                                        or mj.geom_contype[gj] & mj.geom_conaffinity[gi]):
                continue
            kinds = (type(a.geometry), type(b.geometry))
            if kinds in PAIR_FUNCTIONS or kinds[::-1] in PAIR_FUNCTIONS:
                geometry.add_collision_pair(i, j)
            else:
                skipped.append(f"{a.name}-{b.name}")
    if skipped:
        warnings.warn(f"{file}: no contact function for the pairs {skipped}; they are not checked", stacklevel=2)
    return model, geometry

