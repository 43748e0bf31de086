"""Model surgery, as Pinocchio does it: attach a model at a frame of another (``append_model``), lock joints at a
configuration (``build_reduced_model``), the common ancestor of two joints (``find_common_ancestor``); saving
a model to a file is :mod:`rbda.io.model_file`.

Joint and frame order follow Pinocchio's ``appendModel`` and ``buildReducedModel``, so that names, ids, ``q``
and ``v`` line up with a Pinocchio model built the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import dataclasses
import pickle

import numpy as np

from ..joints import JointModelMimic
from ..spatial import SE3
from ..spatial._validate import as_array
from .frame import Frame, FrameType
from .model import Model, frame_id_arg

if TYPE_CHECKING:
    from collections.abc import Sequence

    from numpy.typing import ArrayLike

    from .geometry import GeometryModel



# ------------------------------------------------------------------------------------------------- helpers
def _joint_slices(model: Model, i: int) -> tuple[slice, slice]:
    q0, v0 = model.idx_q[i], model.idx_v[i]
    return slice(q0, q0 + model.nqs[i]), slice(v0, v0 + model.nvs[i])


def _copy_joint(dst: Model, src: Model, i: int, parent: int, placement: SE3) -> int:
    """Add joint ``i`` of ``src`` to ``dst`` under ``parent`` at ``placement``, with its body, limits, friction,
    damping, springs and armature; returns its id in ``dst``."""
    qs, vs = _joint_slices(src, i)
    jid = dst.add_joint(parent, src.joints[i], placement, src.names[i])
    nqs, nvs = _joint_slices(dst, jid)
    dst.inertias[jid] = src.inertias[i].copy()
    dst.nbodies += 1  # the joint's body, counted as Pinocchio's appendModel and buildReducedModel count it
    for name, new, old in (("lower_position_limit", nqs, qs), ("upper_position_limit", nqs, qs),
                           ("effort_limit", nvs, vs), ("velocity_limit", nvs, vs), ("friction", nvs, vs),
                           ("damping", nvs, vs), ("stiffness", nvs, vs), ("springref", nqs, qs),
                           ("armature", nvs, vs)):
        getattr(dst, name)[new] = getattr(src, name)[old]
    return jid


def _joint_id(model: Model, joint, name: str) -> int:
    if isinstance(joint, str):
        try:
            return model.get_joint_id(joint)
        except KeyError as exc:
            raise ValueError(f"{name}: {exc.args[0]}") from None
    if isinstance(joint, (int, np.integer)) and not isinstance(joint, bool) and 0 <= joint < model.njoints:
        return int(joint)
    raise ValueError(f"{name}: {joint!r} is neither a joint name nor a joint id of this model (0..{model.njoints - 1})")


def _check_model(model, name: str) -> None:
    if not isinstance(model, Model):
        raise TypeError(f"{name}: expected an rbda Model, got {type(model).__name__}")


# ------------------------------------------------------------------------------------------------- ancestors
def find_common_ancestor(model: Model, joint1_id: int | str, joint2_id: int | str) -> tuple[int, int, int]:
    """Deepest joint supporting both ``joint1_id`` and ``joint2_id`` (ids or names): ``(ancestor, index in
    supports[joint1_id], index in supports[joint2_id])`` (Pinocchio's ``findCommonAncestor``; ``supports[i]`` runs
    from the universe to ``i``)."""
    _check_model(model, "model")
    j1, j2 = _joint_id(model, joint1_id, "joint1_id"), _joint_id(model, joint2_id, "joint2_id")
    s1, s2 = model.supports[j1], model.supports[j2]
    k = 0
    while k + 1 < min(len(s1), len(s2)) and s1[k + 1] == s2[k + 1]:
        k += 1
    return s1[k], k, k


# ------------------------------------------------------------------------------------------------- append
def append_model(model_a: Model, model_b: Model, frame_in_a: int | str, placement: SE3 | None = None,
                 geom_model_a: GeometryModel | None = None, geom_model_b: GeometryModel | None = None):
    """Model ``model_a`` with ``model_b`` attached at frame ``frame_in_a`` (id or name) of ``model_a``, as a new
    model (neither input changes). With ``geom_model_a`` and ``geom_model_b`` given, the geometry models are
    merged too (below). Below, ``a`` and ``b`` stand for the two models: ``b``'s universe is
    placed at ``placement`` (default identity) in that frame (Pinocchio's ``appendModel``).

    ``b``'s joints come right after the subtree of the frame's parent joint, depth first; each joint brings its
    frames (``b``'s universe frame is dropped, its other universe frames and its universe inertia go to the
    frame's parent joint). Gravity and name are ``a``'s. A reference configuration present in either model is
    kept, completed with the neutral configuration of the other model's joints. Joint or frame names present in
    both models raise ``ValueError``.

    With the geometry models of both (``rbda.io.GeometryModel``), returns ``(model, geom_model)``: the objects
    follow their joints as frames do, moved onto the new joints and frames; collision pairs: ``a``'s, ``b``'s,
    then every pair of an object of ``a`` with an object of ``b`` (as Pinocchio does).
    """
    _check_model(model_a, "model_a")
    _check_model(model_b, "model_b")
    if model_a.mimicking_joints or model_b.mimicking_joints:  # on the plain trees, then the mimic joints again
        (plain_a, pairs_a), (plain_b, pairs_b) = _without_mimic(model_a), _without_mimic(model_b)
        result = append_model(plain_a, plain_b, frame_in_a, placement, geom_model_a, geom_model_b)
        out = result[0] if isinstance(result, tuple) else result
        out = _with_mimic(out, pairs_a + pairs_b)
        return (out, result[1]) if isinstance(result, tuple) else out
    try:
        fid = frame_id_arg(model_a, frame_in_a, "frame_in_a")
    except KeyError as exc:  # a name it does not have: the ValueError of append_model's other bad arguments
        raise ValueError(exc.args[0]) from None
    placement = SE3() if placement is None else placement
    if not isinstance(placement, SE3):
        raise TypeError(f"placement: expected an SE3, got {type(placement).__name__}")
    if set(model_a.names) & set(model_b.names[1:]):
        raise ValueError(f"model_b: joint names also in model_a: {sorted(set(model_a.names) & set(model_b.names[1:]))}")
    shared = {f.name for f in model_a.frames} & {f.name for f in model_b.frames[1:]}
    if shared:
        raise ValueError(f"model_b: frame names also in model_a: {sorted(shared)}")

    if (geom_model_a is None) != (geom_model_b is None):
        raise ValueError("geom_model_a, geom_model_b: give the geometry models of both models, or of neither")
    frame = model_a.frames[fid]
    attach, aMb = frame.parent_joint, frame.placement * placement  # b's universe in the attach joint's frame
    out = Model(model_a.name)
    out.gravity = model_a.gravity.vector.copy()
    new_a, new_b = {0: 0}, {0: attach}  # old joint id -> new joint id
    order = []  # (source "a" or "b", old frame id, new parent joint), in the new frame order
    geoms = {"a": geom_model_a, "b": geom_model_b}
    geom_order = []  # (source, old object id): objects follow their joints, as frames do

    def take_frames(source, src, joint, new_joint):
        order.extend((source, k, new_joint) for k, f in enumerate(src.frames)
                     if f.parent_joint == joint and (source, k) != ("b", 0))
        if geoms[source] is not None:
            objects = geoms[source].geometry_objects
            geom_order.extend((source, k) for k, g in enumerate(objects) if g.parent_joint == joint)

    def append_b():
        take_frames("b", model_b, 0, attach)
        for i in range(1, model_b.njoints):
            M = aMb * model_b.joint_placements[i] if model_b.parents[i] == 0 else model_b.joint_placements[i]
            new_b[i] = _copy_joint(out, model_b, i, new_b[model_b.parents[i]], M)
            take_frames("b", model_b, i, new_b[i])

    take_frames("a", model_a, 0, 0)
    subtree_end = max(model_a.subtrees[attach])
    if subtree_end == 0:
        append_b()
    for i in range(1, model_a.njoints):
        new_a[i] = _copy_joint(out, model_a, i, new_a[model_a.parents[i]], model_a.joint_placements[i])
        take_frames("a", model_a, i, new_a[i])
        if i == subtree_end:
            append_b()
    out.inertias[attach] = out.inertias[attach] + aMb.act(model_b.inertias[0])

    new_id = {(source, k): n for n, (source, k, _) in enumerate(order)}  # (source, old frame id) -> new id
    new_id[("b", 0)] = new_id[("a", fid)]
    out.frames = [_moved_frame((model_a, model_b)[source == "b"].frames[k], new_joint, new_id, source, aMb)
                  for source, k, new_joint in order]
    _append_reference_configurations(out, model_a, model_b, new_a, new_b)
    if geom_model_a is None:
        return out
    return out, _appended_geometry(geoms, geom_order, {"a": new_a, "b": new_b}, new_id, aMb)


def _moved_frame(f: Frame, new_joint: int, new_id: dict, source: str, aMb: SE3) -> Frame:
    """Frame ``f`` of model ``source`` in the appended model; ``b``'s frames on its universe move onto the attach
    frame (Pinocchio keeps the universe as the parent frame of ``b``'s other frames declared on it)."""
    on_b_root = source == "b" and f.parent_joint == 0
    parent_frame = new_id[(source, f.parent_frame)] if on_b_root or f.parent_frame else 0
    placement = aMb * f.placement if on_b_root else f.placement.copy()
    return Frame(f.name, new_joint, parent_frame, placement, f.type, f.inertia.copy())


def _appended_geometry(geoms: dict, geom_order: list, new_joints: dict, new_id: dict, aMb: SE3):
    """The geometry of the appended model: objects in ``geom_order``, moved as frames are; collision pairs:
    ``a``'s, ``b``'s, then every object of ``a`` with every object of ``b`` (Pinocchio's ``appendModel``)."""
    geometry = type(geoms["a"])()
    for source, k in geom_order:
        g = geoms[source].geometry_objects[k]
        on_b_root = source == "b" and g.parent_joint == 0
        geometry.add_geometry_object(dataclasses.replace(
            g, parent_joint=new_joints[source][g.parent_joint], parent_frame=new_id[(source, g.parent_frame)],
            placement=aMb * g.placement if on_b_root else g.placement.copy()))
    new_geom = {key: n for n, key in enumerate(geom_order)}
    na, nb = len(geoms["a"].geometry_objects), len(geoms["b"].geometry_objects)
    pairs = [(("a", i), ("a", j)) for i, j in geoms["a"].collision_pairs]
    pairs += [(("b", i), ("b", j)) for i, j in geoms["b"].collision_pairs]
    pairs += [(("a", i), ("b", j)) for i in range(na) for j in range(nb)]
    for i, j in pairs:
        geometry.add_collision_pair(new_geom[i], new_geom[j])
    return geometry


def _append_reference_configurations(out: Model, model_a: Model, model_b: Model, new_a: dict, new_b: dict) -> None:
    """Each reference configuration of ``a`` or ``b``, completed with the other model's neutral configuration."""
    for name in set(model_a.reference_configurations) | set(model_b.reference_configurations):
        qa = model_a.reference_configurations.get(name, _neutral(model_a))
        qb = model_b.reference_configurations.get(name, _neutral(model_b))
        q = np.empty(out.nq)
        for src, qsrc, ids in ((model_a, qa, new_a), (model_b, qb, new_b)):
            for i in range(1, src.njoints):
                q[_joint_slices(out, ids[i])[0]] = qsrc[_joint_slices(src, i)[0]]
        out.reference_configurations[name] = q


def _neutral(model: Model) -> np.ndarray:
    return np.concatenate([np.zeros(0)] + [model.joints[i].neutral() for i in range(1, model.njoints)])


# ------------------------------------------------------------------------------------------------- reduce
def build_reduced_model(model: Model, joints_to_lock: Sequence[int | str], reference_configuration: ArrayLike,
                        geom_models: GeometryModel | Sequence[GeometryModel] | None = None):
    """``model`` with the joints ``joints_to_lock`` (ids or names) fixed at ``reference_configuration (nq,)``
    (Pinocchio's ``buildReducedModel``).

    A locked joint's body is merged into the nearest kept ancestor; its JOINT frame becomes a FIXED_JOINT frame
    at the joint's output frame (placed at ``q_ref``); the frames on locked joints move to that ancestor; the
    joints below are re-placed. Kept joints keep their order, limits, friction, damping and armature; frames keep
    their order; ``reference_configurations`` lose the locked joints' entries.

    With ``geom_models`` (an ``rbda.io.GeometryModel`` or a list of them), returns ``(model, geom_models)``
    with the objects moved as the frames are (same frame ids, same collision pairs).
    """
    _check_model(model, "model")
    q_ref = as_array(reference_configuration, (model.nq,), "reference_configuration")
    if isinstance(joints_to_lock, (str, int, np.integer)):
        joints_to_lock = [joints_to_lock]
    locked = {_joint_id(model, j, "joints_to_lock") for j in joints_to_lock}
    if 0 in locked:
        raise ValueError("joints_to_lock: the universe (joint 0) cannot be locked")
    if model.mimicking_joints:  # a locked joint locks its mimic joints; the others stay mimic joints
        from .mimic import free_mimic_joints

        plain, pairs = _without_mimic(model)
        names = {model.names[i] for i in locked}
        names |= {mimicking for mimicking, mimicked, _, _ in pairs if mimicked in names}
        locked = {model.get_joint_id(name) for name in names}
        result = build_reduced_model(plain, [model.names[i] for i in locked], free_mimic_joints(model)[1].expand(q_ref, "q_ref"),
                                     geom_models)
        out = result[0] if isinstance(result, tuple) else result
        out = _with_mimic(out, [p for p in pairs if p[0] not in names and p[1] not in names])
        return (out, result[1]) if isinstance(result, tuple) else out

    out = Model(model.name)
    out.gravity = model.gravity.vector.copy()
    # per old joint: (new joint it is rigidly attached to, placement of its output frame in that joint's frame)
    where = {0: (0, SE3())}
    for i in range(1, model.njoints):
        anchor, aMp = where[model.parents[i]]
        aMi_input = aMp * model.joint_placements[i]
        if i in locked:
            aMi = aMi_input * model.joints[i].calc(q_ref[_joint_slices(model, i)[0]])[0]
            out.inertias[anchor] = out.inertias[anchor] + aMi.act(model.inertias[i])
            where[i] = (anchor, aMi)
        else:
            where[i] = (_copy_joint(out, model, i, anchor, aMi_input), SE3())
    frames = []
    for k, f in enumerate(model.frames):
        anchor, aMp = where[f.parent_joint]
        if f.type == FrameType.JOINT and f.parent_joint in locked and f.name == model.names[f.parent_joint]:
            frames.append(Frame(f.name, anchor, k, aMp * f.placement, FrameType.FIXED_JOINT, f.inertia.copy()))
        else:
            frames.append(Frame(f.name, anchor, f.parent_frame, aMp * f.placement, f.type, f.inertia.copy()))
    out.frames = frames
    kept_q = np.concatenate([np.zeros(0, dtype=int)] + [np.arange(model.idx_q[i], model.idx_q[i] + model.nqs[i])
                                                        for i in range(1, model.njoints) if i not in locked])
    out.reference_configurations = {name: np.asarray(q)[kept_q].copy()
                                    for name, q in model.reference_configurations.items()}
    if geom_models is None:
        return out
    return out, _move_geometry(geom_models, where)


def _move_geometry(geom_models, where: dict):
    """Copies of ``geom_models`` (one model or a list) with each object moved by ``where[parent_joint] = (new
    joint, placement of the old joint's frame in the new joint's frame)``."""
    if isinstance(geom_models, (list, tuple)):
        return [_move_geometry(g, where) for g in geom_models]
    moved = type(geom_models)()
    for g in geom_models.geometry_objects:
        anchor, aMp = where[g.parent_joint]
        moved.add_geometry_object(dataclasses.replace(g, parent_joint=anchor, placement=aMp * g.placement))
    for i, j in geom_models.collision_pairs:
        moved.add_collision_pair(i, j)
    return moved


# ------------------------------------------------------------------------------------------------- mimic joints
def transform_joint_into_mimic(model: Model, mimicked: int | str, mimicking: int | str, scaling: float = 1.0,
                               offset: float = 0.0) -> Model:
    """A copy of ``model`` in which joint ``mimicking`` (id or name) follows joint ``mimicked``:
    ``q_mimicking = scaling * q_mimicked + offset`` (Pinocchio's ``transformJointIntoMimic``). Both must be
    revolute, prismatic or helical joints; the mimicking joint's entries leave ``q``, ``v``, the limits and the
    reference configurations, and it keeps its type, placement, body and frames."""
    _check_model(model, "model")
    ref, i = _joint_id(model, mimicked, "mimicked"), _joint_id(model, mimicking, "mimicking")
    if i in model.mimicking_joints:
        raise ValueError(f"mimicking: joint {i} ({model.names[i]!r}) is already a mimic joint")
    if ref in model.mimicking_joints:
        raise ValueError(f"mimicked: joint {ref} ({model.names[ref]!r}) is itself a mimic joint")
    if i == 0 or ref == i:
        raise ValueError(f"mimicking: joint {i} cannot mimic joint {ref}")
    joint = JointModelMimic(model.joints[i], ref, scaling, offset)
    out = pickle.loads(pickle.dumps(model))
    out._check_mimic(joint, i)
    iq, iv = model.idx_q[i], model.idx_v[i]
    for name in ("lower_position_limit", "upper_position_limit", "springref"):
        setattr(out, name, np.delete(getattr(model, name), iq))
    for name in ("effort_limit", "velocity_limit", "friction", "damping", "stiffness"):
        setattr(out, name, np.delete(getattr(model, name), iv))
    out.__dict__["_armature"] = np.delete(model.armature, iv)
    out.reference_configurations = {k: np.delete(q, iq) for k, q in model.reference_configurations.items()}
    out.joints[i] = joint
    out.nqs[i] = out.nvs[i] = 0
    for k in range(1, out.njoints):  # the indices after the removed entries move down; a mimic takes its reference's
        out.idx_q[k] -= out.idx_q[k] > iq
        out.idx_v[k] -= out.idx_v[k] > iv
    out.nq, out.nv = model.nq - 1, model.nv - 1
    pairs = sorted([*zip(model.mimicking_joints, model.mimicked_joints), (i, ref)])
    for k, r in pairs:
        out.idx_q[k], out.idx_v[k] = out.idx_q[r], out.idx_v[r]
    out.mimicking_joints, out.mimicked_joints = [k for k, _ in pairs], [r for _, r in pairs]
    out._invalidate()
    out.check()
    return out


def _without_mimic(model: Model) -> tuple[Model, list]:
    """``(plain, pairs)``: ``model`` with its mimic joints as free joints (``model/mimic.py``, with the reference
    configurations expanded) and ``(mimicking, mimicked, scaling, offset)`` by joint name, to make them again."""
    if not model.mimicking_joints:
        return model, []
    from .mimic import free_mimic_joints

    plain, mimic_map = free_mimic_joints(model)
    plain.reference_configurations = {k: mimic_map.expand(q, "reference_configurations")
                                      for k, q in model.reference_configurations.items()}
    pairs = [(model.names[i], model.names[j], model.joints[i].scaling, model.joints[i].offset)
             for i, j in zip(model.mimicking_joints, model.mimicked_joints)]
    return plain, pairs


def _with_mimic(model: Model, pairs: list) -> Model:
    for mimicking, mimicked, scaling, offset in pairs:
        model = transform_joint_into_mimic(model, mimicked, mimicking, scaling, offset)
    return model


# ------------------------------------------------------------------------------------------------- files
__all__ = ["append_model", "build_reduced_model", "find_common_ancestor", "transform_joint_into_mimic"]
