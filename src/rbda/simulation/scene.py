"""``rbda.load_scene``: an MJCF scene file as ``(model, collision_model)`` for :class:`rbda.Simulator`."""

from __future__ import annotations

import os

import dataclasses
import warnings

from ..io.errors import ModelFileError
from ..io.geometry import Halfspace
from ..io.mjcf import _placement, build_model_from_mjmodel
from ..io.mjcf_geometry import PLANE, _compile, build_geom_from_mjcf
from .contacts import PAIR_FUNCTIONS

FRICTIONLESS = "/frictionless"  # the suffix of a condim-1 geom's frictionless twin (see load_scene)


def load_scene(path: str | os.PathLike):
    """Read the MJCF scene ``path`` (through MuJoCo, ``pip install 'rbda[mjcf]'``) into ``(model, collision_model)``.

    Free bodies become free-flyer joints (MuJoCo's ``qpos`` converts with :func:`rbda.io.mjcf.qpos_to_q`), the
    worldbody's geoms are fixed obstacles on joint 0 (a ``plane`` geom is the half-space below it, a
    :class:`rbda.io.Halfspace`). The collision pairs are those MuJoCo would test: objects of different bodies
    whose ``contype``/``conaffinity`` match, not a body and its parent (MuJoCo's ``filterparent``, unless the
    parent is the world or the flag is disabled), not a pair of bodies that ``contact/exclude`` names, and for which
    a contact function exists (the others are left out with a ``UserWarning`` naming them).

    Friction as MuJoCo combines it: a contact has the larger ``condim`` of its two geoms, and the larger of their
    first ``friction`` values, or none at all where both geoms have ``condim 1``. The simulator's rule (a pair
    takes the larger of its objects' coefficients) gives that when each object's ``friction`` is its geom's, and 0
    for a ``condim 1`` geom that meets only ``condim 1`` geoms; a ``condim 1`` geom that meets geoms of both
    kinds is kept twice, its pairs with ``condim 1`` geoms going to a twin named ``<geom>/frictionless`` with
    friction 0 (same shape, placement and joint).

    Raises :class:`rbda.io.ModelFileError` naming the file and the element for a file MuJoCo rejects, for what the
    file holds and rbda's simulator does not model (``model.mjcf_physics.unsupported``: see
    :mod:`rbda.io.mjcf_physics`), and for contacts it does not model: ``condim`` 4 or 6 (torsional and rolling
    friction), geom priorities (``priority``), explicit ``contact/pair`` elements; ``ImportError`` without MuJoCo.
    """
    mujoco, mj, file = _compile(path, False)
    model = build_model_from_mjmodel(mj, file=file)
    unsupported = list(model.mjcf_physics.unsupported) + _unsupported_contacts(mj, mujoco)
    if unsupported:
        element, what = unsupported[0]
        also = "".join(f"; {e}: {w}" for e, w in unsupported[1:])
        raise ModelFileError(file, element, f"{what}, which rbda's simulator does not model{also}")
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
    pairs, skipped = [], []
    for i in range(geometry.ngeoms):
        for j in range(i + 1, geometry.ngeoms):
            a, b = geometry.geometry_objects[i], geometry.geometry_objects[j]
            gi, gj = ids[i], ids[j]
            if a.parent_joint == b.parent_joint or not (mj.geom_contype[gi] & mj.geom_conaffinity[gj]
                                                        or mj.geom_contype[gj] & mj.geom_conaffinity[gi]):
                continue
            if _filtered(mj, mujoco, int(mj.geom_bodyid[gi]), int(mj.geom_bodyid[gj])):
                continue
            kinds = (type(a.geometry), type(b.geometry))
            if kinds in PAIR_FUNCTIONS or kinds[::-1] in PAIR_FUNCTIONS:
                pairs.append((i, j))
            else:
                skipped.append(f"{a.name}-{b.name}")
    if skipped:
        warnings.warn(f"{file}: no contact function for the pairs {skipped}; they are not checked", stacklevel=2)
    for i, j in _frictionless_pairs(geometry, mj, ids, pairs):
        geometry.add_collision_pair(i, j)
    return model, geometry


def _filtered(mj, mujoco, b1: int, b2: int) -> bool:
    """Whether MuJoCo leaves out the contacts of bodies ``b1`` and ``b2``: welded together, a body and its
    parent (``filterparent``, unless the parent is the world or the flag is disabled), or named by an
    ``exclude`` element."""
    w1, w2 = int(mj.body_weldid[b1]), int(mj.body_weldid[b2])
    if w1 == w2:
        return True
    p1, p2 = int(mj.body_weldid[mj.body_parentid[w1]]), int(mj.body_weldid[mj.body_parentid[w2]])
    filterparent = not mj.opt.disableflags & int(mujoco.mjtDisableBit.mjDSBL_FILTERPARENT)
    if filterparent and w1 != 0 and w2 != 0 and (w1 == p2 or w2 == p1):
        return True
    signatures = {int(s) for s in mj.exclude_signature}
    return ((b1 << 16) + b2) in signatures or ((b2 << 16) + b1) in signatures


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
