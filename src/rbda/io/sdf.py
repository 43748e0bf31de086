"""SDFormat reader (SDFormat 1.6 and later), with the standard library's ``xml.etree.ElementTree`` only.

Reads the first ``<model>`` of the file (directly under ``<sdf>`` or in a ``<world>``):

* ``<link>``: ``<pose>``, ``<inertial>`` (``<pose>`` in the link frame, ``<mass>``, ``<inertia>``);
* ``<joint>``: revolute, continuous (unbounded revolute, ``q = [cos, sin]``), prismatic, ball, universal
  (``axis`` then ``axis2``), fixed (the child is welded: FIXED_JOINT frame, its inertia merged); ``<axis>``
  ``<xyz expressed_in=...>`` (SDFormat 1.6: ``<use_parent_model_frame>``), ``<limit>`` (lower, upper, effort,
  velocity; SDFormat's "no limit" values ``|x| >= 1e16`` and negative effort/velocity read as infinite),
  ``<dynamics>`` (damping, friction);
* ``<frame name attached_to>``: OP_FRAME frames on the joint that moves what they are attached to.

Poses follow SDFormat 1.7+: ``<pose relative_to=...>`` names ``__model__``, a link, a joint or a frame; by
default a link's pose is relative to the model frame, a joint's to its child link, a frame's to what it is
attached to. ``rotation_format="quat_xyzw"`` and ``degrees="true"`` (SDFormat 1.9) are understood. The universe
is the world frame: the model's own ``<pose>`` places the model in it. A joint whose parent is ``world`` attaches
its child to the universe; a root link (no parent joint) is welded to the world at its pose, or hangs from
``root_joint`` (placed at identity, as Pinocchio's URDF reader does). The model frame is attached to the canonical
link (``canonical_link`` attribute, else the first link).

Joints are numbered depth first from the root, children in file order; frames as Pinocchio's URDF reader makes
them (per joint a JOINT frame, then the child's BODY frame), ``<frame>`` elements last. A joint whose child link
already has a parent joint (in file order) closes a loop: the tree leaves it out and keeps it in
``model.sdf_loop_joints`` (:class:`SDFLoopJoint`), which :func:`rbda.io.constraints_from_sdf` turns into rigid
constraints. Cycles, nested models, unknown joint types, prismatic loop joints, negative masses and malformed
numbers raise :class:`ModelFileError` naming the file, the element and the reason.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from typing import NamedTuple

import numpy as np

from ..joints import (
    axis_joint,
    JointModelSpherical,
    JointModelUniversal,
)
from ..model import Frame, FrameType, Model
from ..spatial import SE3, Inertia, quat_to_matrix, rpy_to_matrix
from ..model.errors import ModelFileError

MODEL_FRAME = "__model__"
_NO_LIMIT = 1e16
_AXIS_JOINTS = {"revolute": "revolute", "continuous": "revolute_unbounded", "prismatic": "prismatic"}
JOINT_TYPES = (*_AXIS_JOINTS, "ball", "universal", "fixed")
LOOP_JOINTS = ("ball", "revolute", "continuous", "universal", "fixed")  # as rigid constraints (io/constraints.py)


class SDFLoopJoint(NamedTuple):
    """A joint of an SDFormat file that closes a loop, kept in ``model.sdf_loop_joints``: its ``name``, SDFormat
    ``type``, and its frame as placements ``P1``, ``P2`` in the frames of the rbda joints ``joint1``, ``joint2``
    that move its child and its parent link (``joint2 = 0``: the world). The two frames coincide at the file's
    pose."""
    name: str
    type: str
    joint1: int
    P1: SE3
    joint2: int
    P2: SE3


def build_model_from_sdf(path, root_joint=None, root_joint_name: str = "root_joint") -> Model:
    """Read the SDFormat file ``path`` (see the module docstring); ``root_joint`` (a joint model), if given,
    carries the root link as joint 1, named ``root_joint_name``."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path: expected a file path, got {type(path).__name__}")
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ModelFileError(path, "", "no such file")
    with open(path, "rb") as stream:
        return _read(stream.read(), path, root_joint, root_joint_name)


def build_model_from_sdf_string(text, root_joint=None, root_joint_name: str = "root_joint") -> Model:
    """Like :func:`build_model_from_sdf` for SDFormat ``text``."""
    if not isinstance(text, str):
        raise TypeError(f"text: expected an SDFormat string, got {type(text).__name__}")
    return _read(text, "<string>", root_joint, root_joint_name)


# ------------------------------------------------------------------------------------------------- parsing
class _Reader:
    """Values of one file, each failure a ModelFileError naming ``file`` and the element."""

    def __init__(self, file: str, version: tuple[int, int]):
        self.file, self.version = file, version

    def error(self, element: str, reason: str) -> ModelFileError:
        return ModelFileError(self.file, element, reason)

    def floats(self, text, n: int, where: str) -> np.ndarray:
        try:
            values = np.array([float(s) for s in (text or "").split()])
        except ValueError:
            raise self.error(where, f"expected {n} numbers, got {text!r}") from None
        if values.shape != (n,) or not np.all(np.isfinite(values)):
            raise self.error(where, f"expected {n} finite numbers, got {text!r}")
        return values

    def child_float(self, element, tag: str, default: float, where: str) -> float:
        child = element.find(tag) if element is not None else None
        return default if child is None else float(self.floats(child.text, 1, f"{where} <{tag}>")[0])

    def pose(self, element, where: str) -> tuple[SE3, str | None]:
        """``(placement, relative_to or None)`` of ``element``'s ``<pose>`` (identity if absent)."""
        pose = element.find("pose")
        if pose is None:
            return SE3(), None
        where = f"{where} <pose>"
        relative_to = pose.get("relative_to") or pose.get("frame") or None  # ``frame``: SDFormat 1.6's attribute
        if not (pose.text or "").strip():  # an empty <pose/> is the identity
            return SE3(), relative_to
        if pose.get("rotation_format", "euler_rpy") == "quat_xyzw":
            v = self.floats(pose.text, 7, where)
            n = np.linalg.norm(v[3:])
            if n < 1e-12:
                raise self.error(where, "the quaternion is zero")
            return SE3(quat_to_matrix(v[3:] / n), v[:3]), relative_to
        if pose.get("rotation_format", "euler_rpy") != "euler_rpy":
            raise self.error(where, f"unknown rotation_format {pose.get('rotation_format')!r}")
        v = self.floats(pose.text, 6, where)
        rpy = np.deg2rad(v[3:]) if pose.get("degrees", "false").strip().lower() in ("true", "1") else v[3:]
        return SE3(rpy_to_matrix(*rpy), v[:3]), relative_to


def _read(text, file: str, root_joint, root_joint_name: str) -> Model:
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise ModelFileError(file, "xml", f"not well-formed XML ({exc})") from None
    if root.tag != "sdf":
        raise ModelFileError(file, f"<{root.tag}>", "the root element of an SDFormat file must be <sdf>")
    try:
        version = tuple(int(s) for s in root.get("version", "1.7").split(".")[:2])
    except ValueError:
        raise ModelFileError(file, "<sdf>", f"bad version {root.get('version')!r}") from None
    if version < (1, 6):
        raise ModelFileError(file, "<sdf>", f"SDFormat {root.get('version')} is not supported (1.6 or later)")
    element = root.find("model")
    if element is None and root.find("world") is not None:
        element = root.find("world").find("model")
    if element is None:
        raise ModelFileError(file, "<sdf>", "no <model>")
    return _SdfModel(element, _Reader(file, version)).build(root_joint, root_joint_name)


class _SdfModel:
    """The links, joints and frames of one ``<model>``, their poses resolved in the model frame."""

    def __init__(self, element, reader: _Reader):
        self.r, self.name = reader, element.get("name", "")
        if element.find("model") is not None or element.find("include") is not None:
            raise reader.error(f"model '{self.name}'", "nested <model> and <include> are not supported")
        self.links, self.joints, self.frames = {}, {}, {}
        for kind, table in (("link", self.links), ("joint", self.joints), ("frame", self.frames)):
            for e in element.findall(kind):
                name = e.get("name")
                if not name:
                    raise reader.error(f"<{kind}>", "has no name")
                if name in self.links or name in self.joints or name in self.frames or name in (MODEL_FRAME, "world"):
                    raise reader.error(f"{kind} '{name}'", "this name is already used in the model")
                table[name] = e
        if not self.links:
            raise reader.error(f"model '{self.name}'", "has no <link>")
        self.canonical = element.get("canonical_link") or next(iter(self.links))
        if self.canonical not in self.links:
            raise reader.error(f"model '{self.name}'", f"canonical_link '{self.canonical}' is not a link")
        self.model_pose = reader.pose(element, f"model '{self.name}'")[0]  # model frame in the world
        self._resolved = {MODEL_FRAME: SE3(), "world": self.model_pose.inverse()}

    # ------------------------------------------------------------------------------------------ poses
    def kind(self, name: str) -> str:
        return "link" if name in self.links else "joint" if name in self.joints else "frame"

    def pose_in_model(self, name: str, visiting=()) -> SE3:
        """``X_M,name``: the pose of the frame ``name`` in the model frame (SDFormat 1.7 ``relative_to``)."""
        if name in self._resolved:
            return self._resolved[name]
        where = f"{self.kind(name)} '{name}'"
        if name in visiting:
            raise self.r.error(where, f"the poses form a cycle: {' -> '.join(visiting + (name,))}")
        element = next((t[name] for t in (self.links, self.joints, self.frames) if name in t), None)
        if element is None:
            owner = visiting[-1] if visiting else name
            raise self.r.error(f"{self.kind(owner)} '{owner}'", f"refers to the unknown frame '{name}'")
        X, relative_to = self.r.pose(element, where)
        if relative_to is None:
            kind = self.kind(name)
            relative_to = self.joint_child(name) if kind == "joint" else (
                element.get("attached_to") or MODEL_FRAME if kind == "frame" else MODEL_FRAME)
        with np.errstate(over="ignore", invalid="ignore"):
            X_M = self.pose_in_model(relative_to, visiting + (name,)) * X
        if not np.all(np.isfinite(X_M.translation)):
            raise self.r.error(where, "its pose overflows (non-finite position)")
        self._resolved[name] = X_M
        return X_M

    def joint_end(self, name: str, end: str) -> str:
        e = self.joints[name].find(end)
        link = (e.text or "").strip() if e is not None else ""
        if not link:
            raise self.r.error(f"joint '{name}'", f"has no <{end}>")
        if link not in self.links and not (end == "parent" and link == "world"):
            raise self.r.error(f"joint '{name}'", f"{end} link '{link}' does not exist")
        return link

    def joint_child(self, name: str) -> str:
        return self.joint_end(name, "child")

    def link_of(self, name: str, visiting=()) -> str:
        """The link that a frame, joint or the model frame moves with."""
        if name in self.links:
            return name
        if name == MODEL_FRAME:
            return self.canonical
        if name in self.joints:
            return self.joint_child(name)
        if name in visiting or name not in self.frames:
            raise self.r.error(f"frame '{visiting[-1]}'", f"cannot be attached to '{name}'")
        return self.link_of(self.frames[name].get("attached_to") or MODEL_FRAME, visiting + (name,))

    # ------------------------------------------------------------------------------------------ tree
    def build(self, root_joint, root_joint_name: str) -> Model:
        parent_joint_of = {}  # child link -> joint name
        children = {link: [] for link in (*self.links, "world")}
        loops = []  # joints whose child already has a parent joint: they close a loop
        for name, e in self.joints.items():
            parent, child = self.joint_end(name, "parent"), self.joint_child(name)
            kind = e.get("type", "")
            if kind not in JOINT_TYPES:
                raise self.r.error(f"joint '{name}'", f"unknown or unsupported joint type {kind!r} "
                                                      f"(supported: {', '.join(JOINT_TYPES)})")
            if parent == child:
                raise self.r.error(f"joint '{name}'", f"link '{child}' cannot be its own parent")
            if child in parent_joint_of:
                if kind not in LOOP_JOINTS:
                    raise self.r.error(f"joint '{name}'", f"closes a loop (link '{child}' is already the child of "
                                                          f"joint '{parent_joint_of[child]}'), which a {kind} joint "
                                                          f"cannot (loop joints: {', '.join(LOOP_JOINTS)})")
                loops.append(name)
                continue
            parent_joint_of[child] = name
            children[parent].append(name)
        roots = [link for link in self.links if link not in parent_joint_of]
        if not roots and not children["world"]:
            raise self.r.error(f"model '{self.name}'", "the joints form a cycle: every link has a parent joint")
        if root_joint is not None and (len(roots) != 1 or children["world"]):
            raise self.r.error(f"model '{self.name}'", f"root_joint needs a single root link and no joint to the "
                                                       f"world, found root links {roots}")

        model = Model(self.name)
        # per link: (rbda joint it moves with, X_M of that joint's frame)
        self.attach = {}
        world_in_model = self._resolved["world"]
        if root_joint is not None:
            top = model.add_joint(0, root_joint, SE3(), root_joint_name)
            model.add_joint_frame(top)
        for link in roots:
            if root_joint is not None:
                self.add_link(model, link, top, self.pose_in_model(link))
            else:
                self.add_link(model, link, 0, world_in_model)
        stack = self._depth_first(children, roots)
        for name in stack:
            self.add_joint(model, name)
        visited = set(self.attach)
        if visited != set(self.links):
            raise self.r.error(f"model '{self.name}'", f"links {sorted(set(self.links) - visited)} are not "
                                                       "reachable from a root link (the joints form a cycle)")
        for name in self.frames:
            joint, X_MJ = self.attach[self.link_of(name)]
            model.add_frame(Frame(name, joint, 0, X_MJ.inverse() * self.pose_in_model(name), FrameType.OP_FRAME))
        model.sdf_loop_joints = [self.loop_joint(name) for name in loops]
        return model

    def loop_joint(self, name: str) -> SDFLoopJoint:
        """The loop-closing joint ``name``: its frame on the rbda joints of its child and parent links."""
        X_MJ = self.pose_in_model(name)
        ends = []
        for link in (self.joint_child(name), self.joint_end(name, "parent")):
            joint, X_MB = self.attach[link] if link != "world" else (0, self._resolved["world"])
            ends.append((joint, X_MB.inverse() * X_MJ))
        if ends[0][0] == ends[1][0]:
            raise self.r.error(f"joint '{name}'", "closes a loop within one rigid body (both links move with the "
                                                  "same joint)")
        if ends[0][0] == 0:  # the world as the second end
            ends.reverse()
        (j1, P1), (j2, P2) = ends
        return SDFLoopJoint(name, self.joints[name].get("type"), j1, P1, j2, P2)

    def _depth_first(self, children, roots) -> list[str]:
        """Joint names in depth-first order: world's joints, then each root link's subtree, children in file order."""
        order, stack = [], []
        for link in [*roots[::-1], "world"]:
            stack.extend(reversed(children[link]))
        while stack:
            name = stack.pop()
            order.append(name)
            stack.extend(reversed(children[self.joint_child(name)]))
        return order

    def add_link(self, model: Model, link: str, joint: int, X_MJ: SE3) -> None:
        """Hang link ``link`` (its inertia and BODY frame) from rbda joint ``joint`` whose frame is ``X_MJ``."""
        X_JL = X_MJ.inverse() * self.pose_in_model(link)
        try:  # huge (finite) values can overflow when the inertia is moved and summed
            with np.errstate(over="ignore", invalid="ignore"):
                model.append_body_to_joint(joint, X_JL.act(self.inertia(link)))
        except ModelFileError:
            raise
        except ValueError as exc:
            raise self.r.error(f"link '{link}' <inertial>", f"its inertia overflows ({exc})") from None
        model.add_body_frame(link, joint, X_JL)
        self.attach[link] = (joint, X_MJ)

    def inertia(self, link: str) -> Inertia:
        """The link's inertia in the link frame."""
        where = f"link '{link}' <inertial>"
        inertial = self.links[link].find("inertial")
        if inertial is None:
            inertial = ET.Element("inertial")
        X, relative_to = self.r.pose(inertial, where)
        if relative_to not in (None, link):
            X = self.pose_in_model(link).inverse() * self.pose_in_model(relative_to) * X
        mass = self.r.child_float(inertial, "mass", 1.0, where)  # SDFormat's defaults: 1 kg, unit inertia
        if mass < 0:
            raise self.r.error(f"{where} <mass>", f"negative mass {mass}")
        I = inertial.find("inertia")
        get = {k: self.r.child_float(I, k, 1.0 if k in ("ixx", "iyy", "izz") else 0.0, f"{where} <inertia>")
               for k in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")}
        C = np.array([[get["ixx"], get["ixy"], get["ixz"]], [get["ixy"], get["iyy"], get["iyz"]],
                      [get["ixz"], get["iyz"], get["izz"]]])
        return X.act(Inertia(mass, np.zeros(3), C))

    def add_joint(self, model: Model, name: str) -> None:
        e, where = self.joints[name], f"joint '{name}'"
        kind, parent, child = e.get("type"), self.joint_end(name, "parent"), self.joint_child(name)
        if parent not in self.attach and parent != "world":  # pragma: no cover - depth-first order prevents it
            raise self.r.error(where, f"parent link '{parent}' is not placed yet")
        parent_joint, X_MP = self.attach[parent] if parent != "world" else (0, self._resolved["world"])
        X_MJ = self.pose_in_model(name)
        placement = X_MP.inverse() * X_MJ
        if kind == "fixed":
            model.add_frame(Frame(name, parent_joint, 0, placement, FrameType.FIXED_JOINT))
            self.add_link(model, child, parent_joint, X_MP)
            return
        n_axes = {"universal": 2, "ball": 0}.get(kind, 1)
        axes = [self.axis(name, tag, X_MJ) for tag in ("axis", "axis2")[:n_axes]]
        if kind in _AXIS_JOINTS:
            joint = axis_joint(_AXIS_JOINTS[kind], axes[0][0], 1e-12)
        elif kind == "universal":
            if abs(axes[0][0] @ axes[1][0]) > 1e-9:
                raise self.r.error(where, "the two axes of a universal joint must be orthogonal")
            joint = JointModelUniversal(axes[0][0], axes[1][0])
        else:
            joint = JointModelSpherical()
        jid = model.add_joint(parent_joint, joint, placement, name)
        q = slice(model.idx_q[jid], model.idx_q[jid] + model.nqs[jid])
        if kind == "continuous":  # (cos, sin) within Pinocchio's bounds for unbounded joints
            model.lower_position_limit[q], model.upper_position_limit[q] = -1.01, 1.01
        elif axes:  # one position limit per axis (ball: none)
            model.lower_position_limit[q] = [limits["lower"] for _, limits in axes]
            model.upper_position_limit[q] = [limits["upper"] for _, limits in axes]
        v = slice(model.idx_v[jid], model.idx_v[jid] + model.nvs[jid])
        for key, field in (("effort", "effort_limit"), ("velocity", "velocity_limit"), ("damping", "damping"),
                           ("friction", "friction")):
            if axes:
                getattr(model, field)[v] = [limits[key] for _, limits in axes]
        model.add_joint_frame(jid)
        self.add_link(model, child, jid, X_MJ)

    def axis(self, joint: str, tag: str, X_MJ: SE3) -> tuple[np.ndarray, dict]:
        """Unit axis in the joint frame and the limits/dynamics of ``<axis>``/``<axis2>``."""
        where = f"joint '{joint}' <{tag}>"
        e = self.joints[joint].find(tag)
        if e is None or e.find("xyz") is None:
            raise self.r.error(where, "is missing (with its <xyz>)")
        xyz = e.find("xyz")
        a = self.r.floats(xyz.text, 3, f"{where} <xyz>")
        n = np.linalg.norm(a)
        if n < 1e-12:
            raise self.r.error(f"{where} <xyz>", "the axis is zero")
        expressed_in = xyz.get("expressed_in")
        use_model = e.find("use_parent_model_frame")
        if expressed_in is None and self.r.version < (1, 7) and use_model is not None and \
                (use_model.text or "").strip().lower() in ("1", "true"):
            expressed_in = MODEL_FRAME
        a = a / n
        if expressed_in not in (None, joint):
            a = X_MJ.rotation.T @ self.pose_in_model(expressed_in, (joint,)).rotation @ a
        limit, dynamics = e.find("limit"), e.find("dynamics")
        lower = self.r.child_float(limit, "lower", -_NO_LIMIT, f"{where} <limit>")
        upper = self.r.child_float(limit, "upper", _NO_LIMIT, f"{where} <limit>")
        effort = self.r.child_float(limit, "effort", -1.0, f"{where} <limit>")
        velocity = self.r.child_float(limit, "velocity", -1.0, f"{where} <limit>")
        if lower > upper:
            raise self.r.error(f"{where} <limit>", f"lower limit {lower} is above upper limit {upper}")
        limits = {
            "lower": lower if lower > -_NO_LIMIT else -np.inf,
            "upper": upper if upper < _NO_LIMIT else np.inf,
            "effort": effort if effort >= 0 else np.inf,
            "velocity": velocity if velocity >= 0 else np.inf,
            "damping": self.r.child_float(dynamics, "damping", 0.0, f"{where} <dynamics>"),
            "friction": self.r.child_float(dynamics, "friction", 0.0, f"{where} <dynamics>"),
        }
        return a, limits


__all__ = ["build_model_from_sdf", "build_model_from_sdf_string"]
