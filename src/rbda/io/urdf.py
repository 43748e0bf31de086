"""URDF reader with Pinocchio's semantics, so that joints, ``q``, ``v`` and frames line up with
``pinocchio.buildModelFromUrdf`` on the same file.

* The tree is walked depth first from the root link; the joints under a link are taken in the order of their
  names (as urdfdom stores them, and so Pinocchio). A missing parent or child link, a link with two parents, a
  second root or a cycle is an error.
* ``revolute``/``continuous``/``prismatic`` joints whose axis is exactly ``(1, 0, 0)``, ``(0, 1, 0)`` or
  ``(0, 0, 1)`` (to 1e-12) become ``RX``/``RY``/``RZ`` (``RUBX``.., ``PX``..), any other axis (``(0, 0, -1)`` included) the
  unaligned joint on the normalised axis; ``continuous`` is the unbounded revolute (``q = [cos, sin]``),
  ``floating`` the free-flyer, ``planar`` the planar joint (motion in the xy plane of the joint frame).
* A ``fixed`` joint adds no joint: a FIXED_JOINT frame (carrying the child link's inertia, which is merged into
  the moving body it hangs from) and the child's BODY frame. A moving joint adds a JOINT frame and its child
  link's BODY frame. Without ``root_joint`` the root link is a BODY frame of the universe.
* Limits: ``<limit lower upper effort velocity>`` (lower/upper default 0, effort and velocity required, the
  element required for revolute and prismatic joints); the ``cos``/``sin`` and quaternion entries of ``q`` get
  the limits ``[-1.01, 1.01]`` and missing limits are infinite, as in Pinocchio; ``<dynamics damping
  friction>`` per degree of freedom.
* ``<mimic>`` is read and checked. By default the mimicking joint is built as an independent joint (as Pinocchio
  does by default), so that ``q`` and ``v`` have Pinocchio's sizes; with ``mimic=True`` it becomes a
  :class:`~rbda.joints.JointModelMimic` (``q = multiplier * q_joint + offset``) and leaves ``q`` and ``v``.
* Inertias: ``<inertial>`` with ``<origin xyz rpy>`` (centre of mass and inertia axes), ``<mass>`` and
  ``<inertia>`` about the centre of mass; a negative mass is an error. A rotational inertia that is not positive
  semi-definite gives a warning (``check_inertia="warn"``, the default: a few published files have such inertias
  and Pinocchio loads them), an error with ``check_inertia=True``, nothing with ``False``.

Every error is a :class:`ModelFileError` naming the file, the element and the reason.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..joints import (
    axis_joint,
    JointModel,
    JointModelFreeFlyer,
    JointModelPlanar,
)
from ..model import Frame, FrameType, Model
from ..spatial import SE3, Inertia, rpy_to_matrix
from ._xml import XmlSource
from ..model.geometry import (DEFAULT_COLOR, Box, Capsule, Cylinder, GeometryModel, GeometryObject, GeometryType, Mesh,
                              Sphere)

JOINT_TYPES = ("revolute", "continuous", "prismatic", "fixed", "floating", "planar")
_AXIS_FAMILY = {"revolute": "revolute", "continuous": "revolute_unbounded", "prismatic": "prismatic"}
ALIGNED_TOLERANCE = 1e-12  # an axis this close to a unit axis is that axis (Eigen's isApprox, as Pinocchio)
UNIT_LIMIT = 1.01  # Pinocchio's position limit on the cos/sin and quaternion entries of q
INERTIA_TOLERANCE = 1e-8  # negative principal moment allowed, relative to the largest one
ABSOLUTE_INERTIA_TOLERANCE = 1e-12  # and in kg m^2 (rounding in files that give a zero inertia)


# ------------------------------------------------------------------------------------------------ parsed file
@dataclass
class UrdfVisual:
    """A ``<visual>`` or ``<collision>`` element: shape, origin in the link frame, colour and texture."""

    origin: SE3
    shape: object  # Box | Cylinder | Sphere | Capsule | (mesh filename, scale, convex)
    where: str
    name: str | None = None
    color: tuple | None = None
    texture: str = ""


@dataclass
class UrdfLink:
    name: str
    inertia: Inertia
    visuals: list = field(default_factory=list)
    collisions: list = field(default_factory=list)


@dataclass
class UrdfJoint:
    name: str
    type: str
    parent: str
    child: str
    origin: SE3
    axis: np.ndarray
    where: str
    limit: tuple | None = None  # (lower, upper, effort, velocity)
    damping: float = 0.0
    friction: float = 0.0
    mimic: tuple | None = None  # (joint, multiplier, offset)


@dataclass
class UrdfRobot:
    """A parsed, checked URDF: links, joints, the root link and the joints under each link (by name)."""

    name: str
    source: XmlSource
    links: dict
    joints: dict
    root: str
    children: dict


# ------------------------------------------------------------------------------------------------ public API
def build_model_from_urdf(path, root_joint: JointModel | None = None, root_joint_name: str = "root_joint",
                          check_inertia="warn", mimic: bool = False) -> Model:
    """The :class:`Model` of the URDF file ``path`` (Pinocchio's ``buildModelFromUrdf``).

    ``root_joint`` (e.g. ``JointModelFreeFlyer()``) joins the root link to the universe, named
    ``root_joint_name``; without it the root link is fixed to the universe. ``mimic=True`` builds the joints
    with a ``<mimic>`` element as mimic joints. ``check_inertia``: what a rotational inertia that is not positive semi-definite does: ``"warn"`` (an
    :class:`InertiaWarning`, as Pinocchio loads such files), ``True`` (a :class:`ModelFileError`) or ``False``.
    Raises :class:`ModelFileError` naming the file and the element.
    """
    return _build_model(read_urdf(path), root_joint, root_joint_name, check_inertia, mimic)


def build_model_from_urdf_string(text: str, root_joint: JointModel | None = None, root_joint_name: str = "root_joint",
                                 check_inertia="warn", mimic: bool = False) -> Model:
    """:func:`build_model_from_urdf` on URDF ``text``, with the same ``root_joint``, ``root_joint_name``,
    ``check_inertia`` and ``mimic``."""
    return _build_model(read_urdf(text, is_text=True), root_joint, root_joint_name, check_inertia, mimic)


def build_geom_from_urdf(model: Model, path, geom_type: GeometryType, package_dirs=None, is_text: bool = False,
                         base_dir: str | None = None, missing_meshes: str = "raise") -> GeometryModel:
    """The visual or collision :class:`GeometryModel` (``geom_type``: :class:`GeometryType`) of the URDF ``path``
    (its text when ``is_text``) for ``model`` (built from it).

    Objects are named ``<link>_<k>`` (k-th element of the link), attached to the link's BODY frame, in the
    order of the model's frames. Mesh files: ``package://pkg/rest`` is looked up as ``dir/pkg/rest`` (or
    ``dir/rest`` when ``dir`` is ``pkg`` itself) for each ``dir`` of ``package_dirs`` (a path or a list), then of
    ``ROS_PACKAGE_PATH``, then of ``AMENT_PREFIX_PATH`` (``share/``), then of the directories above the URDF
    file; ``file://`` and absolute paths are used as they are; relative paths are taken from the URDF's
    directory (``base_dir`` for text). A mesh that cannot be found raises :class:`ModelFileError`; with
    ``missing_meshes="keep"`` it is kept as a :class:`Mesh` of the file name as written (a viewer draws a stand-in).
    """
    if missing_meshes not in ("raise", "keep"):
        raise ValueError(f"missing_meshes: expected 'raise' or 'keep', got {missing_meshes!r}")
    robot = read_urdf(path, is_text=is_text)
    if base_dir is not None:
        robot.source.directory = os.fspath(base_dir)
    return _build_geometry(robot, model, GeometryType(geom_type), _package_dirs(package_dirs), missing_meshes == "keep")


def build_models_from_urdf(path, package_dirs=None, root_joint: JointModel | None = None,
                           root_joint_name: str = "root_joint", check_inertia="warn", mimic: bool = False):
    """``(model, collision_model, visual_model)`` of the URDF file ``path`` (Pinocchio's ``buildModelsFromUrdf``):
    the model as :func:`build_model_from_urdf` builds it (``root_joint``, ``root_joint_name``, ``check_inertia``,
    ``mimic``), the geometry models as :func:`build_geom_from_urdf` does (meshes looked up in ``package_dirs``)."""
    robot = read_urdf(path)
    model = _build_model(robot, root_joint, root_joint_name, check_inertia, mimic)
    dirs = _package_dirs(package_dirs)
    return model, _build_geometry(robot, model, GeometryType.COLLISION, dirs), _build_geometry(robot, model, GeometryType.VISUAL, dirs)


def read_urdf(source, is_text: bool = False) -> UrdfRobot:
    """Parse and check the URDF file ``source`` (its text when ``is_text``): links, joints and the tree, without
    building a model. Raises :class:`ModelFileError` naming the file and the element."""
    src = XmlSource(source, is_text)
    robot = src.expect_root("robot")
    name = src.text(robot, "name", "<robot>")
    materials = {}
    for el in robot.findall("material"):
        mat_name = src.text(el, "name", "<robot> > material")
        materials.setdefault(mat_name, _material(src, el, f"material '{mat_name}'", {}))
    links, joints = {}, {}
    for el in robot.findall("link"):
        link = _read_link(src, el, materials)
        if link.name in links:
            raise src.error(f"link '{link.name}'", "a link of this name is already defined")
        links[link.name] = link
    for el in robot.findall("joint"):
        joint = _read_joint(src, el)
        if joint.name in joints:
            raise src.error(joint.where, "a joint of this name is already defined")
        joints[joint.name] = joint
    if not links:
        raise src.error("<robot>", "no link")
    root, children = _tree(src, links, joints)
    return UrdfRobot(name, src, links, joints, root, children)


# ------------------------------------------------------------------------------------------------ elements
def _origin(src: XmlSource, parent, where: str) -> SE3:
    el = parent.find("origin")
    if el is None:
        return SE3()
    xyz = src.numbers(el, "xyz", f"{where} > origin", 3, default=(0.0, 0.0, 0.0))
    rpy = src.numbers(el, "rpy", f"{where} > origin", 3, default=(0.0, 0.0, 0.0))
    return SE3(rpy_to_matrix(*rpy), xyz)


def _child(src: XmlSource, parent, tag: str, where: str):
    el = parent.find(tag)
    if el is None:
        raise src.error(where, f"missing element <{tag}>")
    return el


def _read_link(src: XmlSource, el, materials: dict) -> UrdfLink:
    name = src.text(el, "name", "<link>")
    where = f"link '{name}'"
    link = UrdfLink(name, _inertia(src, el.find("inertial"), where))
    for tag, out in (("visual", link.visuals), ("collision", link.collisions)):
        for k, item in enumerate(el.findall(tag)):
            out.append(_visual(src, item, f"{where} > {tag}[{k}]", materials, tag == "visual"))
    _collision_checking(src, el, where, link)
    return link


def _collision_checking(src: XmlSource, el, where: str, link: UrdfLink) -> None:
    """Pinocchio's extension ``<collision_checking>``: ``<capsule name="c"/>`` makes the cylinder of the
    collision element named ``c`` a capsule, ``<convex name="c"/>`` marks its mesh as convex."""
    for checking in el.findall("collision_checking"):
        for item in checking:
            name = src.text(item, "name", f"{where} > collision_checking > {item.tag}")
            for k, collision in enumerate(link.collisions):
                if collision.name != name:
                    continue
                if item.tag == "capsule" and isinstance(collision.shape, Cylinder):
                    collision.shape = Capsule(collision.shape.radius, collision.shape.length)
                elif item.tag == "convex" and isinstance(collision.shape, tuple):
                    collision.shape = (*collision.shape[:2], True)


def _inertia(src: XmlSource, el, where: str) -> Inertia:
    """The link inertia in the link frame (zero if there is no ``<inertial>``)."""
    if el is None:
        return Inertia.Zero()
    where = f"{where} > inertial"
    mass = src.number(_child(src, el, "mass", where), "value", f"{where} > mass")
    if mass < 0:
        raise src.error(f"{where} > mass", f"mass must be >= 0, got {mass}")
    inertia_el = _child(src, el, "inertia", where)
    ixx, ixy, ixz, iyy, iyz, izz = (src.number(inertia_el, k, f"{where} > inertia")
                                    for k in ("ixx", "ixy", "ixz", "iyy", "iyz", "izz"))
    I = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    origin = _origin(src, el, where)
    return origin.act(Inertia(mass, np.zeros(3), I))


def _material(src: XmlSource, el, where: str, materials: dict) -> tuple:
    """``(rgba or None, texture filename)`` of a ``<material>``. As urdfdom: a name already defined (at the top
    level, or inline earlier in the file) means that material; an inline definition under a new name defines it."""
    name = el.get("name") or None  # an empty name is no name
    if name in materials:
        return materials[name]
    color_el, texture_el = el.find("color"), el.find("texture")
    rgba = None if color_el is None else tuple(src.numbers(color_el, "rgba", f"{where} > color", 4).tolist())
    texture = "" if texture_el is None else texture_el.get("filename", "")
    if name is not None and (rgba is not None or texture):
        materials[name] = (rgba, texture)
    return rgba, texture


def _visual(src: XmlSource, el, where: str, materials: dict, is_visual: bool) -> UrdfVisual:
    geometry = _child(src, el, "geometry", where)
    shapes = [child for child in geometry if isinstance(child.tag, str)]
    if len(shapes) != 1:
        raise src.error(f"{where} > geometry", f"must hold exactly one shape, got {len(shapes)}")
    shape_el, gwhere = shapes[0], f"{where} > geometry > {shapes[0].tag}"

    def positive(key: str) -> float:
        value = src.number(shape_el, key, gwhere)
        if value < 0:
            raise src.error(gwhere, f"attribute '{key}' must be >= 0, got {value}")
        return value

    if shape_el.tag == "box":
        size = src.numbers(shape_el, "size", gwhere, 3)
        if (size < 0).any():
            raise src.error(gwhere, f"attribute 'size' must be >= 0, got {shape_el.get('size')!r}")
        shape = Box(tuple(size.tolist()))
    elif shape_el.tag == "cylinder":
        shape = Cylinder(positive("radius"), positive("length"))
    elif shape_el.tag == "capsule":
        shape = Capsule(positive("radius"), positive("length"))
    elif shape_el.tag == "sphere":
        shape = Sphere(positive("radius"))
    elif shape_el.tag == "mesh":
        filename = src.text(shape_el, "filename", gwhere)
        scale = src.numbers(shape_el, "scale", gwhere, 3, default=(1.0, 1.0, 1.0))
        shape = (filename, tuple(scale.tolist()), False)  # (file, scale, convex), resolved when geometry is built
    else:
        raise src.error(gwhere, "unknown shape (expected box, cylinder, capsule, sphere or mesh)")
    color, texture = None, ""
    material = el.find("material")
    if is_visual and material is not None:
        color, texture = _material(src, material, f"{where} > material", materials)
    return UrdfVisual(_origin(src, el, where), shape, where, el.get("name"), color, texture)


def _read_joint(src: XmlSource, el) -> UrdfJoint:
    name = src.text(el, "name", "<joint>")
    where = f"joint '{name}'"
    kind = src.text(el, "type", where)
    if kind not in JOINT_TYPES:
        raise src.error(where, f"unknown joint type {kind!r} (expected one of {', '.join(JOINT_TYPES)})")
    parent = src.text(_child(src, el, "parent", where), "link", f"{where} > parent")
    child = src.text(_child(src, el, "child", where), "link", f"{where} > child")
    axis_el = el.find("axis")
    axis = np.array([1.0, 0.0, 0.0]) if axis_el is None else src.numbers(axis_el, "xyz", f"{where} > axis", 3)
    if kind in _AXIS_FAMILY and not 0 < np.linalg.norm(axis) < np.inf:
        raise src.error(f"{where} > axis", "the axis must be a non-zero vector")
    joint = UrdfJoint(name, kind, parent, child, _origin(src, el, where), axis, where)
    limit = el.find("limit")
    if limit is not None:
        lwhere = f"{where} > limit"
        joint.limit = (src.number(limit, "lower", lwhere, 0.0, allow_inf=True),
                       src.number(limit, "upper", lwhere, 0.0, allow_inf=True),
                       src.number(limit, "effort", lwhere, allow_inf=True),
                       src.number(limit, "velocity", lwhere, allow_inf=True))
        if joint.limit[0] > joint.limit[1]:
            raise src.error(lwhere, f"lower ({joint.limit[0]}) is above upper ({joint.limit[1]})")
    elif kind in ("revolute", "prismatic"):
        raise src.error(where, f"a {kind} joint needs a <limit> element")
    dynamics = el.find("dynamics")
    if dynamics is not None:
        joint.damping = src.number(dynamics, "damping", f"{where} > dynamics", 0.0)
        joint.friction = src.number(dynamics, "friction", f"{where} > dynamics", 0.0)
    mimic = el.find("mimic")
    if mimic is not None:
        mwhere = f"{where} > mimic"
        joint.mimic = (src.text(mimic, "joint", mwhere), src.number(mimic, "multiplier", mwhere, 1.0),
                       src.number(mimic, "offset", mwhere, 0.0))
    return joint


def _tree(src: XmlSource, links: dict, joints: dict) -> tuple[str, dict]:
    """The root link and ``children[link]``: the joints under each link, sorted by name; checks the tree."""
    parent_joint = {}
    children = {name: [] for name in links}
    for joint in joints.values():
        for role, link in (("parent", joint.parent), ("child", joint.child)):
            if link not in links:
                raise src.error(f"{joint.where} > {role}", f"link '{link}' is not defined")
        if joint.child in parent_joint:
            raise src.error(joint.where, f"link '{joint.child}' already has a parent joint, "
                                         f"'{parent_joint[joint.child]}'")
        parent_joint[joint.child] = joint.name
        children[joint.parent].append(joint.name)
    roots = [name for name in links if name not in parent_joint]
    if len(roots) != 1:
        reason = "no root link: the joints form a cycle" if not roots else f"several root links: {', '.join(roots)}"
        raise src.error("<robot>", reason)
    for names in children.values():
        names.sort()
    reached, stack = set(), [roots[0]]
    while stack:
        link = stack.pop()
        reached.add(link)
        stack.extend(joints[j].child for j in children[link])
    if len(reached) != len(links):
        cycle = sorted(set(links) - reached)
        raise src.error(f"link '{cycle[0]}'", f"not reachable from the root link '{roots[0]}': the joints between "
                                              f"{', '.join(cycle)} form a cycle")
    return roots[0], children


# ------------------------------------------------------------------------------------------------ model
def _joint_model(joint: UrdfJoint) -> JointModel:
    if joint.type == "floating":
        return JointModelFreeFlyer()
    if joint.type == "planar":
        return JointModelPlanar()
    return axis_joint(_AXIS_FAMILY[joint.type], joint.axis, ALIGNED_TOLERANCE)


def _set_limits(model: Model, jid: int, joint: UrdfJoint) -> None:
    """Write the limits, damping and friction of ``joint`` (see the module docstring) for joint ``jid``; in place,
    since ``Model.add_joint`` takes finite limits only."""
    q = slice(model.idx_q[jid], model.idx_q[jid] + model.nqs[jid])
    v = slice(model.idx_v[jid], model.idx_v[jid] + model.nvs[jid])
    if joint.limit is not None:
        model.effort_limit[v], model.velocity_limit[v] = joint.limit[2], joint.limit[3]
    if joint.type in ("revolute", "prismatic"):
        model.lower_position_limit[q], model.upper_position_limit[q] = joint.limit[0], joint.limit[1]
    unit = {"continuous": slice(0, 2), "floating": slice(3, 7), "planar": slice(2, 4)}.get(joint.type)
    if unit is not None:
        model.lower_position_limit[q][unit], model.upper_position_limit[q][unit] = -UNIT_LIMIT, UNIT_LIMIT
    model.damping[v], model.friction[v] = joint.damping, joint.friction


def _check_inertia(src: XmlSource, link: UrdfLink, strict: bool) -> None:
    moments = np.linalg.eigvalsh(link.inertia.inertia)
    if moments[0] < -(INERTIA_TOLERANCE * abs(moments[-1]) + ABSOLUTE_INERTIA_TOLERANCE):
        error = src.error(f"link '{link.name}' > inertial > inertia",
                          f"the rotational inertia is not positive semi-definite (principal moments "
                          f"{np.array2string(moments, precision=3)})")
        if strict:
            raise error
        warnings.warn(f"{error} (loaded anyway, as Pinocchio does; check_inertia=False silences this)",
                      InertiaWarning, stacklevel=4)


class InertiaWarning(UserWarning):
    """A URDF link's rotational inertia is not physically valid (loaded anyway with ``check_inertia="warn"``)."""


def _make_mimic_joints(src: XmlSource, robot: UrdfRobot, model: Model) -> Model:
    """``model`` with every moving joint that has a ``<mimic>`` element made a mimic joint, in joint order."""
    from ..model import transform_joint_into_mimic

    for name in [n for n in model.names[1:] if robot.joints.get(n) is not None and robot.joints[n].mimic]:
        target, multiplier, offset = robot.joints[name].mimic
        where = f"{robot.joints[name].where} > mimic"
        if target not in robot.joints:
            raise src.error(where, f"joint '{target}' is not defined")
        if not model.exist_joint_name(target):
            raise src.error(where, f"joint '{target}' is a fixed joint, it cannot be mimicked")
        try:
            model = transform_joint_into_mimic(model, target, name, multiplier, offset)
        except (ValueError, TypeError) as exc:
            raise src.error(where, str(exc)) from None
    return model


def _add_inertial_frame(model: Model, frame: Frame) -> int:
    """Add ``frame`` and merge its inertia into its joint, even a massless one (a massless link may still carry
    rotational inertia, and Pinocchio keeps it)."""
    k = _add_frame(model, frame, append_inertia=False)
    model.merge_inertia(frame.parent_joint, frame.inertia, frame.placement)
    return k


def _add_body(model: Model, joint_id: int, inertia) -> None:
    """A link's inertia on its joint: a body of ``model.nbodies`` when it has a mass, as Pinocchio counts them."""
    if inertia.mass > np.finfo(float).eps:
        model.append_body_to_joint(joint_id, inertia)
    else:
        model.merge_inertia(joint_id, inertia)


def _add_frame(model: Model, frame: Frame, append_inertia: bool = True) -> int:
    """``model.add_frame``, refusing a frame whose name and type are taken (a fixed joint named 'universe')."""
    k = model.add_frame(frame, append_inertia)
    if k != model.nframes - 1:
        raise ValueError(f"a {frame.type.name} frame named {frame.name!r} already exists")
    return k


def _build_model(robot: UrdfRobot, root_joint, root_joint_name: str, check_inertia, mimic: bool) -> Model:
    src = robot.source
    if root_joint is not None and not isinstance(root_joint, JointModel):
        raise TypeError(f"root_joint: expected a JointModel, got {type(root_joint).__name__}")
    if check_inertia not in (True, False, "warn"):
        raise ValueError(f"check_inertia: expected True, False or 'warn', got {check_inertia!r}")
    if check_inertia:
        for link in robot.links.values():
            _check_inertia(src, link, strict=check_inertia is True)
    model = Model(robot.name)
    root = robot.links[robot.root]
    try:
        if root_joint is None:
            root_frame = _add_inertial_frame(model, Frame(root.name, 0, 0, SE3(), FrameType.BODY, root.inertia))
        else:
            jid = model.add_joint(0, root_joint, SE3(), root_joint_name)
            _add_body(model, jid, root.inertia)
            root_frame = model.add_body_frame(root.name, jid, SE3(), model.add_joint_frame(jid, 0))
    except ValueError as exc:
        raise src.error("root_joint", str(exc)) from None
    stack = [(name, root_frame) for name in reversed(robot.children[root.name])]
    while stack:  # depth first, children in the order of their names
        name, parent_frame = stack.pop()
        joint, child = robot.joints[name], robot.links[robot.joints[name].child]
        frame = model.frames[parent_frame]
        placement = frame.placement * joint.origin
        try:
            if joint.type == "fixed":
                fixed = _add_inertial_frame(model, Frame(name, frame.parent_joint, parent_frame, placement,
                                                         FrameType.FIXED_JOINT, child.inertia))
                body = _add_frame(model, Frame(child.name, frame.parent_joint, fixed, placement, FrameType.BODY))
            else:
                jid = model.add_joint(frame.parent_joint, _joint_model(joint), placement, name)
                _set_limits(model, jid, joint)
                _add_body(model, jid, child.inertia)
                body = model.add_body_frame(child.name, jid, SE3(), model.add_joint_frame(jid, parent_frame))
        except ValueError as exc:
            raise src.error(joint.where, str(exc)) from None
        stack.extend((c, body) for c in reversed(robot.children[child.name]))
    return _make_mimic_joints(src, robot, model) if mimic else model


# ------------------------------------------------------------------------------------------------ geometry
def _package_dirs(package_dirs) -> list[str]:
    if package_dirs is None:
        return []
    if isinstance(package_dirs, (str, os.PathLike)):
        return [os.fspath(package_dirs)]
    return [os.fspath(d) for d in package_dirs]


def resolve_resource(filename: str, package_dirs: list[str], base_dir: str) -> str | None:
    """The file a URDF resource name points to (see :func:`build_geom_from_urdf`), or None if not found."""
    if filename.startswith("file://"):
        filename = filename[len("file://"):]
    if not filename.startswith("package://"):
        path = filename if os.path.isabs(filename) else os.path.join(base_dir, filename)
        return os.path.abspath(path) if os.path.isfile(path) else None
    rest = filename[len("package://"):].lstrip("/")
    package = rest.split("/", 1)[0]
    inside = rest.split("/", 1)[1] if "/" in rest else ""
    env = [d for d in os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep) if d]
    env += [os.path.join(d, "share") for d in os.environ.get("AMENT_PREFIX_PATH", "").split(os.pathsep) if d]
    above = [str(p) for p in Path(base_dir).resolve().parents] + [base_dir]
    for d in [*package_dirs, *env, *above]:
        candidates = [os.path.join(d, rest)]
        if os.path.basename(os.path.normpath(d)) == package:
            candidates.append(os.path.join(d, inside))
        for path in candidates:
            if os.path.isfile(path):
                return os.path.abspath(path)
    return None


def _build_geometry(robot: UrdfRobot, model: Model, geom_type: GeometryType, package_dirs: list[str],
                    keep_missing: bool = False) -> GeometryModel:
    src = robot.source
    geometry = GeometryModel()
    for k, frame in enumerate(model.frames):
        link = robot.links.get(frame.name)
        if frame.type != FrameType.BODY or link is None:
            continue
        for i, item in enumerate(link.visuals if geom_type == GeometryType.VISUAL else link.collisions):
            shape = item.shape
            if isinstance(shape, tuple):
                path = resolve_resource(shape[0], package_dirs, src.directory)
                if path is None and not keep_missing:
                    raise src.error(f"{item.where} > geometry > mesh", f"mesh file {shape[0]!r} not found")
                shape = Mesh(shape[0] if path is None else path, shape[1], shape[2])
            geometry.add_geometry_object(GeometryObject(
                f"{link.name}_{i}", frame.parent_joint, k, frame.placement * item.origin, shape,
                mesh_color=np.array(item.color if item.color is not None else DEFAULT_COLOR),
                override_material=item.color is not None, mesh_texture_path=item.texture,
            ))
    return geometry
