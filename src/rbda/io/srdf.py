"""SRDF (MoveIt's semantic robot description): named configurations, disabled collision pairs, rotor parameters.

The functions are Pinocchio's: :func:`load_reference_configurations` fills ``model.reference_configurations``
from the ``<group_state>`` elements, :func:`load_rotor_parameters` sets ``model.armature`` from
``<rotor_params>``, :func:`remove_collision_pairs` removes the ``<disable_collisions>`` pairs from a
:class:`~rbda.model.geometry.GeometryModel`. Joints and links the model does not have are skipped, as Pinocchio
does; every other problem is a :class:`ModelFileError` naming the file, the element and the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..joints import JointType
from ..model import FrameType, Model
from ._xml import XmlSource
from ..model.geometry import GeometryModel

QUATERNION_TOLERANCE = 1e-6  # how far from unit norm a quaternion in a group_state may be


@dataclass
class Srdf:
    """The parts of an SRDF that rbda uses.

    ``group_states``: name -> {joint name: values} in file order (the first state of a name wins, as in
    Pinocchio); ``disabled_collisions``: ``(link1, link2)`` pairs; ``rotor_params``: joint -> ``(rotor inertia,
    gear ratio)``; ``source``: the parsed file (for error messages).
    """

    name: str
    source: XmlSource
    group_states: dict = field(default_factory=dict)
    disabled_collisions: list = field(default_factory=list)
    rotor_params: dict = field(default_factory=dict)


def read_srdf(source, is_text: bool = False) -> Srdf:
    """Parse the SRDF file ``source`` (or SRDF text, with ``is_text=True``)."""
    src = XmlSource(source, is_text)
    robot = src.expect_root("robot")
    srdf = Srdf(robot.get("name", ""), src)
    for state in robot.findall("group_state"):
        name = src.text(state, "name", "<group_state>")
        where = f"group_state '{name}'"
        values = {}
        for joint in state.findall("joint"):
            joint_name = src.text(joint, "name", f"{where} > joint")
            values[joint_name] = src.numbers(joint, "value", f"{where} > joint '{joint_name}'", None)
        srdf.group_states.setdefault(name, values)
    for pair in robot.findall("disable_collisions"):
        srdf.disabled_collisions.append((src.text(pair, "link1", "<disable_collisions>"),
                                         src.text(pair, "link2", "<disable_collisions>")))
    for rotors in robot.findall("rotor_params"):
        for joint in rotors.findall("joint"):
            joint_name = src.text(joint, "name", "rotor_params > joint")
            where = f"rotor_params > joint '{joint_name}'"
            mass, ratio = src.number(joint, "mass", where), src.number(joint, "gear_ratio", where)
            if mass < 0:
                raise src.error(where, f"the rotor inertia 'mass' must be >= 0, got {mass}")
            srdf.rotor_params[joint_name] = (mass, ratio)
    return srdf


def _srdf(srdf) -> Srdf:
    return srdf if isinstance(srdf, Srdf) else read_srdf(srdf)


def _joint_configuration(model: Model, jid: int, values: np.ndarray, srdf: Srdf, where: str) -> np.ndarray:
    """The ``(nq_j,)`` configuration of joint ``jid`` from SRDF ``values``; one angle for an unbounded revolute."""
    joint, nq = model.joints[jid], model.nqs[jid]
    if joint.type == JointType.REVOLUTE_UNBOUNDED and values.size == 1:
        return np.array([np.cos(values[0]), np.sin(values[0])])
    if values.size != nq:
        raise srdf.source.error(where, f"{values.size} value(s) for joint '{model.names[jid]}' with nq = {nq}")
    q = values.copy()
    if not np.all(np.abs(joint.normalize(q) - q) <= QUATERNION_TOLERANCE):
        raise srdf.source.error(where, "the value is not on the joint's configuration manifold (a quaternion or "
                                       "(cos, sin) pair of norm 1)")
    return q


def load_reference_configurations(model: Model, srdf, verbose: bool = False) -> dict:
    """Add each ``<group_state>`` of the SRDF ``srdf`` (a path or a :class:`Srdf`) to
    ``model.reference_configurations`` as a configuration ``(nq,)``: the neutral configuration with the listed
    joints set (a single angle for an unbounded revolute joint). Returns the configurations added; ``verbose``
    prints the states and joints skipped."""
    from ..algorithms import neutral

    srdf = _srdf(srdf)
    added = {}
    for name, values in srdf.group_states.items():
        q = neutral(model)
        for joint_name, value in values.items():
            if not model.exist_joint_name(joint_name):
                if verbose:
                    print(f"{srdf.source.file}: group_state '{name}': no joint '{joint_name}' in the model, skipped")
                continue
            jid = model.get_joint_id(joint_name)
            where = f"group_state '{name}' > joint '{joint_name}'"
            q[model.idx_q[jid] : model.idx_q[jid] + model.nqs[jid]] = _joint_configuration(model, jid, value, srdf, where)
        added[name] = q
    model.reference_configurations.update(added)
    return added


def load_rotor_parameters(model: Model, srdf, verbose: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Read ``<rotor_params>`` of the SRDF ``srdf`` (a path or a :class:`Srdf`; ``verbose`` prints the joints
    skipped): for each listed joint, its rotor inertia ``mass`` and ``gear_ratio``; sets
    ``model.armature = rotor_inertia * gear_ratio**2`` on the joint's degrees of freedom (as Pinocchio's
    ``loadRotorParameters``). Returns ``(rotor_inertia, rotor_gear_ratio)``, both ``(nv,)`` (ratio 1 elsewhere)."""
    srdf = _srdf(srdf)
    inertia, ratio = np.zeros(model.nv), np.ones(model.nv)
    armature = model.armature.copy()
    for joint_name, (mass, gear) in srdf.rotor_params.items():
        if not model.exist_joint_name(joint_name):
            if verbose:
                print(f"{srdf.source.file}: rotor_params: no joint '{joint_name}' in the model, skipped")
            continue
        jid = model.get_joint_id(joint_name)
        v = slice(model.idx_v[jid], model.idx_v[jid] + model.nvs[jid])
        inertia[v], ratio[v] = mass, gear
        armature[v] = mass * gear**2
    model.armature = armature
    return inertia, ratio


def remove_collision_pairs(model: Model, geometry_model: GeometryModel, srdf, verbose: bool = False) -> None:
    """Remove from ``geometry_model.collision_pairs`` every pair of objects on the two links of each
    ``<disable_collisions>`` of the SRDF ``srdf`` (a path or a :class:`Srdf`); links are the model's BODY frames,
    unknown links are skipped (``verbose`` says which)."""
    srdf = _srdf(srdf)
    for link1, link2 in srdf.disabled_collisions:
        if not (model.exist_frame(link1, FrameType.BODY) and model.exist_frame(link2, FrameType.BODY)):
            if verbose:
                print(f"{srdf.source.file}: disable_collisions: no link '{link1}' or '{link2}' in the model, skipped")
            continue
        f1, f2 = model.get_frame_id(link1, FrameType.BODY), model.get_frame_id(link2, FrameType.BODY)
        on1 = [k for k, g in enumerate(geometry_model.geometry_objects) if g.parent_frame == f1]
        on2 = [k for k, g in enumerate(geometry_model.geometry_objects) if g.parent_frame == f2]
        for i in on1:
            for j in on2:
                if i != j:
                    geometry_model.remove_collision_pair(i, j)
