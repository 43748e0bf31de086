"""Write a :class:`Model` (and its geometry) as URDF, so that a reduced or appended model can be saved.

Reading the written file back with :func:`~rbda.io.urdf.build_model_from_urdf` gives the same joints (names,
types, order, placements, limits, damping, friction), the same body inertias and the same frame names, types
and placements:

* with ``omit_root_joint=True``, the root joint of a model built with one (``load_model(path,
  floating_base=True)``) is left out, as URDF files do: read the file back with the same ``root_joint``;
* joint ``i`` moves a link named after its BODY frame (the BODY frame whose parent is its JOINT frame), or
  ``<joint>_link``; the universe's link is its BODY frame, or ``world``; each link carries the whole inertia of
  its joint (the links that fixed joints attach are written massless, their inertia being already merged);
* a FIXED_JOINT frame followed by a BODY frame becomes a fixed joint and a link; any other frame becomes a
  fixed joint and a massless link, both named after it (and reads back as FIXED_JOINT + BODY frames);
* revolute (``RX`` .. unaligned) -> ``revolute``, unbounded revolute -> ``continuous``, prismatic ->
  ``prismatic``, free-flyer -> ``floating``, planar -> ``planar``; other joint types have no URDF equivalent
  and raise ``ValueError``. Armature and reference configurations are not part of URDF (see SRDF).
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import numpy as np

from ..joints import JointType
from ..model import FrameType, Model
from ..spatial import SE3, matrix_to_rpy
from ..model.geometry import Box, Capsule, Cylinder, GeometryModel, Mesh, Sphere

_TYPES = {
    JointType.REVOLUTE: "revolute", JointType.REVOLUTE_UNBOUNDED: "continuous", JointType.PRISMATIC: "prismatic",
    JointType.FREE_FLYER: "floating", JointType.PLANAR: "planar",
}


def _num(x) -> str:
    return " ".join(repr(float(v)) for v in np.atleast_1d(x))


def _origin(parent: ET.Element, M: SE3) -> None:
    if not M.is_identity(0.0):
        ET.SubElement(parent, "origin", xyz=_num(M.translation), rpy=_num(matrix_to_rpy(M.rotation)))


def _inertial(link: ET.Element, Y) -> None:
    if Y.mass == 0.0 and not Y.inertia.any():
        return
    el = ET.SubElement(link, "inertial")
    ET.SubElement(el, "origin", xyz=_num(Y.lever), rpy="0 0 0")
    ET.SubElement(el, "mass", value=_num(Y.mass))
    I = Y.inertia
    ET.SubElement(el, "inertia", ixx=_num(I[0, 0]), ixy=_num(I[0, 1]), ixz=_num(I[0, 2]), iyy=_num(I[1, 1]),
                  iyz=_num(I[1, 2]), izz=_num(I[2, 2]))


def _joint_element(robot: ET.Element, model: Model, i: int, parent: str, placement: SE3, child: str) -> None:
    """Joint ``i`` from link ``parent`` (at ``placement`` in it) to link ``child``."""
    jm, mimic = model.joints[i], None
    if jm.type == JointType.MIMIC:  # written as its own joint with a <mimic> element (read back with mimic=True)
        jm, mimic = jm.joint, jm
    if jm.type not in _TYPES:
        raise ValueError(f"model: joint {model.names[i]!r} ({jm.shortname()}) has no URDF equivalent")
    kind = _TYPES[jm.type]
    el = ET.SubElement(robot, "joint", name=model.names[i], type=kind)
    _origin(el, placement)
    ET.SubElement(el, "parent", link=parent)
    ET.SubElement(el, "child", link=child)
    if kind in ("revolute", "continuous", "prismatic"):
        ET.SubElement(el, "axis", xyz=_num(jm.params[:3]))
    q, v = model.idx_q[i], model.idx_v[i]
    effort, velocity = model.effort_limit[v], model.velocity_limit[v]
    lower, upper = model.lower_position_limit[q], model.upper_position_limit[q]
    if mimic is not None:  # the mimicked joint's range, mapped; no effort or velocity limit of its own
        lower, upper = sorted(mimic.scaling * np.array([lower, upper]) + mimic.offset)
        effort = velocity = np.inf
    if kind in ("revolute", "prismatic"):
        ET.SubElement(el, "limit", lower=_num(lower), upper=_num(upper), effort=_num(effort), velocity=_num(velocity))
    elif np.isfinite(effort) or np.isfinite(velocity):
        ET.SubElement(el, "limit", effort=_num(effort), velocity=_num(velocity))
    if mimic is not None:
        ET.SubElement(el, "mimic", joint=model.names[mimic.mimicked_id], multiplier=_num(mimic.scaling),
                      offset=_num(mimic.offset))
    elif model.damping[v] or model.friction[v]:
        ET.SubElement(el, "dynamics", damping=_num(model.damping[v]), friction=_num(model.friction[v]))


def _shape(parent: ET.Element, shape) -> None:
    geometry = ET.SubElement(parent, "geometry")
    if isinstance(shape, Box):
        ET.SubElement(geometry, "box", size=_num(shape.size))
    elif isinstance(shape, (Cylinder, Capsule)):
        ET.SubElement(geometry, "cylinder" if isinstance(shape, Cylinder) else "capsule", radius=_num(shape.radius),
                      length=_num(shape.length))
    elif isinstance(shape, Sphere):
        ET.SubElement(geometry, "sphere", radius=_num(shape.radius))
    elif isinstance(shape, Mesh):
        ET.SubElement(geometry, "mesh", filename=shape.path, scale=_num(shape.scale))
    else:
        raise ValueError(f"geometry: unknown shape {shape!r}")


def write_urdf(model: Model, path=None, geometry_model: GeometryModel | None = None,
               visual_model: GeometryModel | None = None, omit_root_joint: bool = False) -> str:
    """The URDF text of ``model`` (see the module docstring), also written to ``path`` if given.

    ``geometry_model`` is written as ``<collision>`` elements, ``visual_model`` as ``<visual>`` ones (with their
    colours), each on the link of its parent frame. ``omit_root_joint=True`` leaves out joint 1, the root joint
    of a model built with one (``load_model(path, floating_base=True)``), as URDF files do: read the file back
    with the same root joint. Otherwise the universe is a link (its BODY frame, or ``world``).
    """
    if not isinstance(model, Model):
        raise TypeError(f"model: expected a Model, got {type(model).__name__}")
    frames = model.frames
    joint_frame = {f.parent_joint: k for k, f in enumerate(frames) if f.type == FrameType.JOINT}
    link_of_joint, link_of_frame = {}, {}
    for k, f in enumerate(frames):  # each joint's link: the BODY frame right after its JOINT frame
        if f.type == FrameType.BODY and f.parent_joint not in link_of_joint and f.placement.is_identity(0.0) and (
                f.parent_frame == joint_frame.get(f.parent_joint, 0)):
            link_of_joint[f.parent_joint], link_of_frame[k] = f.name, f.name
    used = set(link_of_joint.values())

    def fresh(name: str) -> str:
        while name in used:
            name += "_"
        used.add(name)
        return name

    if omit_root_joint and not (model.children[0] == [1] and model.inertias[0].is_zero(0.0)
                                and all(f.parent_joint != 0 for f in frames[1:])):
        raise ValueError("omit_root_joint: the model's root joint must be the universe's only child, with nothing "
                         "else (inertia, frames) on the universe")
    root_joint = bool(omit_root_joint)
    for i in range(model.njoints):
        if i not in link_of_joint:
            link_of_joint[i] = fresh("world" if i == 0 else f"{model.names[i]}_link")

    extras = []  # (frame, child link): frames written as fixed joints
    for k, f in enumerate(frames):
        if k == 0 or k in link_of_frame or f.type == FrameType.JOINT:
            continue
        if f.type == FrameType.BODY and frames[f.parent_frame].type == FrameType.FIXED_JOINT and f.parent_frame != 0:
            continue  # written with its FIXED_JOINT frame
        body = next((b for b in range(k + 1, len(frames)) if frames[b].parent_frame == k
                     and frames[b].type == FrameType.BODY), None) if f.type == FrameType.FIXED_JOINT else None
        extras.append((k, fresh(frames[body].name if body is not None else f.name)))
        if body is not None:
            link_of_frame[body] = extras[-1][1]

    def anchor(parent_frame: int, joint: int, placement: SE3) -> tuple[str, SE3]:
        """The link to attach something at ``placement`` in joint ``joint``'s frame, declared on ``parent_frame``,
        and its placement in that link."""
        if parent_frame in link_of_frame and frames[parent_frame].parent_joint == joint:
            return link_of_frame[parent_frame], frames[parent_frame].placement.inverse() * placement
        return link_of_joint[joint], placement

    robot = ET.Element("robot", name=model.name)
    links = {}
    first = 1 if root_joint else 0
    for i in range(first, model.njoints):
        links[link_of_joint[i]] = ET.SubElement(robot, "link", name=link_of_joint[i])
        _inertial(links[link_of_joint[i]], model.inertias[i])
    for i in range(first + 1, model.njoints):
        parent_frame = frames[joint_frame[i]].parent_frame if i in joint_frame else -1
        _joint_element(robot, model, i, *anchor(parent_frame, model.parents[i], model.joint_placements[i]),
                       link_of_joint[i])
    for k, child in extras:
        parent, placement = anchor(frames[k].parent_frame, frames[k].parent_joint, frames[k].placement)
        el = ET.SubElement(robot, "joint", name=frames[k].name, type="fixed")
        _origin(el, placement)
        ET.SubElement(el, "parent", link=parent)
        ET.SubElement(el, "child", link=child)
        links[child] = ET.SubElement(robot, "link", name=child)

    for tag, geometry in (("collision", geometry_model), ("visual", visual_model)):
        for obj in [] if geometry is None else geometry.geometry_objects:
            link, placement = anchor(obj.parent_frame, obj.parent_joint, obj.placement)
            el = ET.SubElement(links[link], tag, name=obj.name)
            _origin(el, placement)
            _shape(el, obj.geometry)
            if tag == "visual" and obj.override_material:
                material = ET.SubElement(el, "material", name=f"{obj.name}_material")
                ET.SubElement(material, "color", rgba=_num(obj.mesh_color))
    ET.indent(robot)
    text = ET.tostring(robot, encoding="unicode") + "\n"
    if path is not None:
        with open(os.fspath(path), "w", encoding="utf-8") as stream:
            stream.write(text)
    return text
