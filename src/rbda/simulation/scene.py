"""``rbda.load_scene``: an MJCF scene file as ``(model, collision_model)`` for :class:`rbda.Simulator`."""

from __future__ import annotations

import os

import dataclasses

from ..io.geometry import GeometryType, Halfspace
from ..io.mjcf import _placement, build_model_from_mjmodel
from ..io.mjcf_geometry import PLANE, _compile, build_geom_from_mjcf


def load_scene(path: str | os.PathLike):
    """Read the MJCF scene ``path`` (through MuJoCo, ``pip install 'rbda[mjcf]'``) into ``(model, collision_model)``.

    Free bodies become free-flyer joints (MuJoCo's ``qpos`` converts with :func:`rbda.io.mjcf.qpos_to_q`), the
    worldbody's geoms are fixed obstacles on joint 0 (a ``plane`` geom is the half-space below it, a
    :class:`rbda.io.Halfspace`), each object's ``friction`` is MuJoCo's first ``friction`` value of its geom. The
    objects are the geoms MuJoCo collides (``contype`` or ``conaffinity`` not zero, whatever their group), and the
    collision pairs those MuJoCo tests (:func:`mujoco_pairs`). Raises :class:`rbda.io.ModelFileError` naming the
    file for a file MuJoCo rejects or a colliding geom without a shape here (a height field, an SDF),
    ``ImportError`` without MuJoCo.
    """
    mujoco, mj, file = _compile(path, False)
    model = build_model_from_mjmodel(mj, file=file)
    geometry = build_geom_from_mjcf(model, file, geometry_type=GeometryType.COLLISION)
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
    tested = mujoco_pairs(mujoco, mj)
    for i in range(geometry.ngeoms):
        for j in range(i + 1, geometry.ngeoms):
            if (min(ids[i], ids[j]), max(ids[i], ids[j])) in tested:
                geometry.add_collision_pair(i, j)
    return model, geometry


def mujoco_pairs(mujoco, mj) -> set:
    """The pairs of geom ids ``(g1 < g2)`` that MuJoCo's collision tests in the compiled model ``mj``: those of
    ``<pair>`` elements, and the geoms of different bodies whose ``contype`` and ``conaffinity`` match, unless
    their bodies are welded together (``body_weldid``), one is the other's parent (MuJoCo's parent filter, unless
    disabled; not for the world body) or an ``<exclude>`` names them."""
    weld, parent = mj.body_weldid, mj.body_parentid
    filter_parent = not mj.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_FILTERPARENT
    excluded = {int(s) for s in mj.exclude_signature[:mj.nexclude]}
    pairs = {(int(min(a, b)), int(max(a, b))) for a, b in zip(mj.pair_geom1[:mj.npair], mj.pair_geom2[:mj.npair])}
    for g1 in range(mj.ngeom):
        for g2 in range(g1 + 1, mj.ngeom):
            if not (mj.geom_contype[g1] & mj.geom_conaffinity[g2] or mj.geom_contype[g2] & mj.geom_conaffinity[g1]):
                continue
            b1, b2 = int(mj.geom_bodyid[g1]), int(mj.geom_bodyid[g2])
            w1, w2 = int(weld[b1]), int(weld[b2])
            if w1 == w2:
                continue
            if filter_parent and w1 != 0 and w2 != 0 and (w1 == weld[parent[w2]] or w2 == weld[parent[w1]]):
                continue
            if (min(b1, b2) << 16) + max(b1, b2) in excluded:
                continue
            pairs.add((g1, g2))
    return pairs
