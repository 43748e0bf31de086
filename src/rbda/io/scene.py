"""``rbda.load_scene``: an MJCF scene file as ``(model, collision_model)`` for :class:`rbda.Simulator`."""

from __future__ import annotations

import os

import dataclasses

from ..model.errors import ModelFileError
from ..model.geometry import GeometryType, Halfspace
from .mjcf import _placement, build_model_from_mjmodel
from .mjcf_geometry import PLANE, _compile, build_geom_from_mjcf

FRICTIONLESS = "/frictionless"  # the suffix of a condim-1 geom's frictionless twin (see load_scene)


def load_scene(path: str | os.PathLike):
    """Read the MJCF scene ``path`` (through MuJoCo, ``pip install 'rbda[mjcf]'``) into ``(model, collision_model)``.

    Free bodies become free-flyer joints (MuJoCo's ``qpos`` converts with :func:`rbda.io.mjcf.qpos_to_q`), the
    worldbody's geoms are fixed obstacles on joint 0 (a ``plane`` geom is the half-space below it, a
    :class:`rbda.io.Halfspace`). The objects are the geoms MuJoCo collides (``contype`` or ``conaffinity`` not
    zero, whatever their group), and the collision pairs those MuJoCo tests (:func:`mujoco_pairs`).

    Friction as MuJoCo combines it: a contact has the larger ``condim`` of its two geoms, and the larger of their
    first ``friction`` values, or none at all where both geoms have ``condim 1``. The simulator's rule (a pair
    takes the larger of its objects' coefficients) gives that when each object's ``friction`` is its geom's, and 0
    for a ``condim 1`` geom that meets only ``condim 1`` geoms; a ``condim 1`` geom that meets geoms of both
    kinds is kept twice, its pairs with ``condim 1`` geoms going to a twin named ``<geom>/frictionless`` with
    friction 0 (same shape, placement and joint).

    Raises :class:`rbda.io.ModelFileError` naming the file and the element for a file MuJoCo rejects, for what the
    file holds and rbda's simulator does not model (``model.mjcf_physics.unsupported``: see
    :mod:`rbda.io.mjcf_physics`), for contacts it does not model: ``condim`` 4 or 6 (torsional and rolling
    friction), geom priorities (``priority``), explicit ``contact/pair`` elements, and for a colliding geom without
    a shape here (a height field, an SDF); ``ImportError`` without MuJoCo.
    """
    mujoco, mj, file = _compile(path, False)
    model = build_model_from_mjmodel(mj, file=file)
    unsupported = list(model.mjcf_physics.unsupported) + _unsupported_contacts(mj, mujoco)
    if unsupported:
        element, what = unsupported[0]
        also = "".join(f"; {e}: {w}" for e, w in unsupported[1:])
        raise ModelFileError(file, element, f"{what}, which rbda's simulator does not model{also}")
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
    pairs = [(i, j) for i in range(geometry.ngeoms) for j in range(i + 1, geometry.ngeoms)
             if (min(ids[i], ids[j]), max(ids[i], ids[j])) in tested]
    for i, j in _frictionless_pairs(geometry, mj, ids, pairs):
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


def _frictionless_pairs(geometry, mj, ids: dict, pairs: list) -> list:
    """The collision pairs with MuJoCo's friction (see :func:`load_scene`): 0 on the objects of ``condim 1`` geoms
    that meet only ``condim 1`` geoms, a frictionless twin for those that meet both kinds (appended to
    ``geometry``, ``ids`` extended); returns the pairs, each pair of two ``condim 1`` geoms moved to the twins."""
    frictionless = {k for k, g in ids.items() if mj.geom_condim[g] == 1}
    partners = {k: set() for k in frictionless}  # whether each meets condim-1 geoms (True), others (False)
    for i, j in pairs:
        for a, b in ((i, j), (j, i)):
            if a in frictionless:
                partners[a].add(b in frictionless)
    twins = {}
    for k in sorted(frictionless):
        obj = geometry.geometry_objects[k]
        if partners[k] == {True}:
            geometry.geometry_objects[k] = dataclasses.replace(obj, friction=0.0)
        elif partners[k] == {True, False}:
            twins[k] = geometry.add_geometry_object(dataclasses.replace(obj, name=obj.name + FRICTIONLESS,
                                                                        friction=0.0))
            ids[twins[k]] = ids[k]
    moved = [(twins.get(i, i), twins.get(j, j)) if i in frictionless and j in frictionless else (i, j)
             for i, j in pairs]
    return sorted((min(i, j), max(i, j)) for i, j in moved)


def _unsupported_contacts(mj, mujoco) -> list:
    """``(element, what)`` of the contact settings the simulator does not model, for geoms that collide."""
    found = []
    colliding = [g for g in range(mj.ngeom) if mj.geom_contype[g] or mj.geom_conaffinity[g]]
    for g in colliding:
        name = f"geom '{mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_GEOM, g) or f'geom{g}'}'"
        condim = int(mj.geom_condim[g])
        if condim in (4, 6):
            kind = "torsional" if condim == 4 else "torsional and rolling"
            found.append((name, f"condim {condim} ({kind} friction)"))
        if mj.geom_priority[g] != 0:
            found.append((name, f"priority {int(mj.geom_priority[g])}"))
    if mj.npair:
        found.append(("contact > pair", f"{mj.npair} explicit contact pair(s)"))
    return found
