"""MJCF reader through MuJoCo: the ``mujoco`` package compiles the file with MuJoCo's exact semantics (defaults,
childclass, includes, ``compiler`` angle/eulerseq/autolimits, ``fromto``, inertia from geoms, ...) and this module
converts the compiled ``MjModel`` into an rbda :class:`~rbda.model.Model`. Needs the extra ``rbda[mjcf]``.

Conversion (by default one rbda joint per MuJoCo joint, so that rbda joint ``i`` is MuJoCo joint ``i - 1``; ``q``
and ``v`` always have MuJoCo's ``qpos``/``qvel`` layout):

* a body with joints ``j_0 .. j_k``: each joint becomes an rbda joint whose frame sits at the joint's anchor
  ``jnt_pos`` (body axes); joint ``j_0`` is placed at ``parent body * (body_pos, body_quat) * T(pos_0)``, joint
  ``j_m`` at ``T(-pos_{m-1}) T(pos_m)`` in the frame of ``j_{m-1}`` (the intermediate joints carry no mass), and
  the body hangs at ``T(-pos_k)`` from the last joint. This is MuJoCo's ``mj_kinematics``: each joint rotates the
  body about its anchor, axes expressed in the body frame as moved by the joints before it. A joint's ``ref``
  (``qpos0``) turns or shifts its input frame back, so that ``q = qpos`` as in Pinocchio's MJCF reader; with
  ``composite=True`` the joints of one body form one ``JointModelComposite`` named ``Composite_<first joint>``,
  as Pinocchio makes it (same frames, names and layout as ``pinocchio.buildModelFromMJCF``).
* a welded body (no joint) gets a FIXED_JOINT frame ``<body>_fixed`` and its BODY frame, its inertia merged;
* hinge -> revolute (``RX``/``RY``/``RZ`` when the axis is a unit axis), slide -> prismatic, ball -> spherical,
  free -> free-flyer (MuJoCo allows it only in top-level bodies);
* body inertia ``(body_mass, diag(body_inertia))`` at ``(body_ipos, body_iquat)``; sites become OP_FRAME frames,
  joints JOINT frames, bodies BODY frames (named as in MuJoCo; unnamed ones get ``body<id>``/``joint<id>``/
  ``site<id>``);
* ``dof_armature``, ``dof_damping``, ``dof_frictionloss`` -> ``model.armature``, ``damping``, ``friction``;
  ``jnt_range`` of limited hinge/slide joints -> position limits, ``jnt_actfrcrange`` -> effort limits;
  ``opt.gravity`` -> ``model.gravity``; equality constraints -> ``model.mjcf_equality`` (kept, not enforced).

* ``jnt_stiffness`` and ``qpos_spring`` (``springref``) of hinge and slide joints -> ``model.stiffness``,
  ``model.springref``; gravity compensation, fluid forces and fixed tendons -> ``model.mjcf_physics``, actuators
  -> ``model.mjcf_actuators`` (:mod:`rbda.io.mjcf_physics`, which also lists what the simulator does not model).

The contacts are read by :func:`rbda.load_scene`. MuJoCo's ``mj_inverse``/``mj_forward`` include the passive forces
(damping ``-damping * qvel``, springs, gravity compensation, ...), which rbda's ``rnea``/``aba`` leave to the caller
and :class:`rbda.Simulator` applies.

State conventions differ, and :func:`qpos_to_q`, :func:`qvel_to_v`, :func:`qacc_to_a`, :func:`qfrc_to_tau` and
their inverses convert (see :class:`MjcfLayout`): MuJoCo quaternions are ``(w, x, y, z)``, rbda's ``(x, y, z, w)``;
the free joint's ``qvel`` is ``[linear velocity of the body origin in the world frame; angular velocity in the body
frame]`` while rbda's free-flyer ``v`` has both in the body frame. Hinge and slide values are the same.
"""

from __future__ import annotations

import contextlib
import os
import warnings
from dataclasses import dataclass, field

import numpy as np

from ..joints import (
    axis_joint,
    JointModelComposite,
    JointModelFreeFlyer,
    JointModelSpherical,
)
from ..model import Frame, FrameType, Model
from ..spatial import SE3, Inertia, exp3, quat_to_matrix
from ..spatial._validate import as_array
from ..model.errors import ModelFileError

# MuJoCo's mjtJoint codes
FREE, BALL, SLIDE, HINGE = 0, 1, 2, 3


@dataclass
class MjcfLayout:
    """Where each MuJoCo joint sits in ``qpos``/``qvel`` and what it is; rbda's ``q``/``v`` share the layout.

    ``jnt_type (njnt,)`` (0 free, 1 ball, 2 slide, 3 hinge), ``qposadr``/``dofadr (njnt,)``.
    """

    jnt_type: np.ndarray
    qposadr: np.ndarray
    dofadr: np.ndarray
    nq: int
    nv: int

    @classmethod
    def from_mujoco(cls, mj) -> "MjcfLayout":
        return cls(np.array(mj.jnt_type, dtype=int), np.array(mj.jnt_qposadr, dtype=int),
                   np.array(mj.jnt_dofadr, dtype=int), int(mj.nq), int(mj.nv))


@dataclass
class MjcfEquality:
    """An equality constraint of the MJCF file, kept for the constraint solvers (not enforced by the model).

    ``type``: ``"connect"``, ``"weld"``, ``"joint"``, ``"tendon"``, ...; ``obj1``/``obj2``: names of the bodies,
    sites, joints or tendons it binds (``objtype`` says which); ``data``: MuJoCo's ``eq_data`` row.
    """

    type: str
    name: str
    objtype: str
    obj1: str
    obj2: str
    active: bool
    data: np.ndarray = field(repr=False)
    solref: np.ndarray = field(repr=False)
    solimp: np.ndarray = field(repr=False)


def _mujoco():
    try:
        import mujoco
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("reading MJCF needs MuJoCo: pip install 'rbda[mjcf]'") from exc
    return mujoco


# ------------------------------------------------------------------------------------------------- readers
def build_model_from_mjcf(path, root_joint=None, root_joint_name: str = "root_joint", composite: bool = False) -> Model:
    """Read the MJCF file ``path`` with MuJoCo and convert it (see the module docstring).

    ``root_joint`` (a joint model, e.g. ``JointModelFreeFlyer()``), if given, is added as joint 1, named
    ``root_joint_name``, and every top-level body hangs from it (the state converters then do not apply).
    ``composite``: see :func:`build_model_from_mjmodel`. Raises :class:`ModelFileError` naming the file, the
    element and MuJoCo's message.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path: expected a file path, got {type(path).__name__}")
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ModelFileError(path, "", "no such file")
    mujoco = _mujoco()
    try:
        with _warnings_as_python_warnings(mujoco, path):
            mj = mujoco.MjModel.from_xml_path(path)
    except ValueError as exc:
        raise _file_error(path, exc) from None
    return build_model_from_mjmodel(mj, root_joint, root_joint_name, composite, file=path)


def build_model_from_mjcf_string(text, root_joint=None, root_joint_name: str = "root_joint",
                                 composite: bool = False) -> Model:
    """Like :func:`build_model_from_mjcf` for MJCF ``text`` (includes resolve against the working directory)."""
    if not isinstance(text, str):
        raise TypeError(f"text: expected an MJCF string, got {type(text).__name__}")
    mujoco = _mujoco()
    try:
        with _warnings_as_python_warnings(mujoco, "<string>"):
            mj = mujoco.MjModel.from_xml_string(text)
    except ValueError as exc:
        raise _file_error("<string>", exc) from None
    return build_model_from_mjmodel(mj, root_joint, root_joint_name, composite, file="<string>")


@contextlib.contextmanager
def _warnings_as_python_warnings(mujoco, file: str):
    """MuJoCo's compiler warnings as Python ``RuntimeWarning``s naming the file (instead of MUJOCO_LOG.TXT)."""
    messages, previous = [], mujoco.get_mju_user_warning()
    mujoco.set_mju_user_warning(messages.append)
    try:
        yield
    finally:
        mujoco.set_mju_user_warning(previous)
        for message in messages:
            warnings.warn(f"{file}: MuJoCo: {message}", RuntimeWarning, stacklevel=4)


def _file_error(file: str, exc: Exception) -> ModelFileError:
    """MuJoCo's message ``"Error: <reason>\\nElement name '<n>', id <k>, line <l>"`` as a ModelFileError."""
    lines = [s.strip() for s in str(exc).strip().splitlines() if s.strip()]
    element = next((s for s in lines if s.startswith("Element")), "")
    reason = " ".join(s for s in lines if not s.startswith("Element")) or type(exc).__name__
    return ModelFileError(file, element or "mujoco", reason.removeprefix("Error: "))


def build_model_from_mjmodel(mj, root_joint=None, root_joint_name: str = "root_joint", composite: bool = False,
                             file: str = "<MjModel>") -> Model:
    """Convert a compiled ``mujoco.MjModel`` into an rbda :class:`Model` (see the module docstring).

    ``composite=True`` makes the joints of a body with several one :class:`~rbda.joints.JointModelComposite`
    named ``Composite_<first joint>``, as Pinocchio's MJCF reader does (same ``q``/``v`` layout; the state
    converters still apply); by default each MuJoCo joint is its own rbda joint, named as in MuJoCo.
    """
    mujoco = _mujoco()
    if not isinstance(mj, mujoco.MjModel):
        raise TypeError(f"mj: expected a mujoco.MjModel, got {type(mj).__name__}")

    def name_of(objtype, k, prefix):
        return mujoco.mj_id2name(mj, objtype, k) or f"{prefix}{k}"

    def joint_name(j):
        return name_of(mujoco.mjtObj.mjOBJ_JOINT, j, "joint")

    _check_finite(mj, mujoco, file, name_of)
    model = Model(bytes(mj.names).split(b"\0", 1)[0].decode())
    model.gravity = np.array(mj.opt.gravity, dtype=float)
    top = 0
    if root_joint is not None:
        top = model.add_joint(0, root_joint, SE3(), root_joint_name)
        model.add_joint_frame(top)
    attach = {0: (top, SE3())}  # body id -> (joint it hangs from, body frame in that joint's frame)
    for b in range(1, mj.nbody):
        body = name_of(mujoco.mjtObj.mjOBJ_BODY, b, "body")
        parent = int(mj.body_parentid[b])
        joint_id, jMb = attach[parent]
        jMb = jMb * _placement(mj.body_pos[b], mj.body_quat[b])
        joints = list(range(mj.body_jntadr[b], mj.body_jntadr[b] + mj.body_jntnum[b]))
        if any(mj.jnt_type[j] == FREE for j in joints):  # MuJoCo: qpos is the body pose in the world
            if parent != 0 or len(joints) != 1:
                raise ModelFileError(file, f"body '{body}'", "a free joint must be the only joint of a top-level body")
            joint_id, jMb = _add_joint(model, mj, joints, joint_id, SE3(), [], joint_name(joints[0])), SE3()
        elif composite and len(joints) > 1:  # one composite joint, as Pinocchio's MJCF reader makes it
            subs = [SE3()] + [_joint_output_to_body(mj, joints[k - 1]) * _body_to_joint_input(mj, joints[k])
                              for k in range(1, len(joints))]
            name = f"Composite_{joint_name(joints[0])}"
            joint_id = _add_joint(model, mj, joints, joint_id, jMb * _body_to_joint_input(mj, joints[0]), subs, name)
            jMb = _joint_output_to_body(mj, joints[-1])
        else:  # one rbda joint per MuJoCo joint; the body hangs from the last one
            for j in joints:
                joint_id = _add_joint(model, mj, [j], joint_id, jMb * _body_to_joint_input(mj, j), [], joint_name(j))
                jMb = _joint_output_to_body(mj, j)
        if not joints:
            model.add_frame(Frame(f"{body}_fixed", joint_id, 0, jMb, FrameType.FIXED_JOINT))
        Y = Inertia(float(mj.body_mass[b]), np.zeros(3), np.diag(np.array(mj.body_inertia[b], dtype=float)))
        try:  # huge (finite) values can overflow when the inertia is moved and summed
            with np.errstate(over="ignore", invalid="ignore"):
                model.append_body_to_joint(joint_id, _placement(mj.body_ipos[b], mj.body_iquat[b]).act(Y), jMb)
        except ValueError as exc:
            raise ModelFileError(file, f"body '{body}'", f"its inertia overflows ({exc})") from None
        model.add_body_frame(body, joint_id, jMb)
        for site in np.flatnonzero(mj.site_bodyid == b):
            model.add_frame(Frame(name_of(mujoco.mjtObj.mjOBJ_SITE, site, "site"), joint_id, 0,
                                  jMb * _placement(mj.site_pos[site], mj.site_quat[site]), FrameType.OP_FRAME))
        attach[b] = (joint_id, jMb)
    model.armature = np.array(mj.dof_armature, dtype=float) if root_joint is None else np.concatenate(
        [np.zeros(root_joint.nv), mj.dof_armature])
    model.mjcf_layout = MjcfLayout.from_mujoco(mj) if root_joint is None else None
    model.mjcf_equality = [_equality(mj, mujoco, e) for e in range(mj.neq)]
    from .mjcf_physics import read_actuators, read_physics

    offsets = (0, 0) if root_joint is None else (root_joint.nq, root_joint.nv)
    model.mjcf_physics = read_physics(mj, mujoco, attach, offsets, model.njoints, model.nq, model.nv, name_of)
    model.mjcf_actuators = read_actuators(mj, mujoco, offsets, model.nv, name_of)
    return model


def _check_finite(mj, mujoco, file: str, name_of) -> None:
    """MuJoCo accepts NaN and inf in a file (with a warning): name the first element that holds one."""
    obj = mujoco.mjtObj
    per_row = [("body", obj.mjOBJ_BODY, a) for a in ("body_pos", "body_quat", "body_ipos", "body_iquat", "body_mass",
                                                     "body_inertia", "body_gravcomp")]
    per_row += [("joint", obj.mjOBJ_JOINT, a) for a in ("jnt_pos", "jnt_axis", "jnt_range", "jnt_actfrcrange",
                                                        "jnt_stiffness")]
    per_row += [("tendon", obj.mjOBJ_TENDON, a) for a in ("tendon_range", "tendon_stiffness", "tendon_lengthspring",
                                                          "tendon_damping")]
    per_row += [("actuator", obj.mjOBJ_ACTUATOR, a) for a in ("actuator_gear", "actuator_gainprm",
                                                              "actuator_biasprm", "actuator_ctrlrange",
                                                              "actuator_forcerange")]
    per_row += [("site", obj.mjOBJ_SITE, a) for a in ("site_pos", "site_quat")]
    for prefix, objtype, array in per_row:
        for k, row in enumerate(np.asarray(getattr(mj, array))):
            if not np.all(np.isfinite(row)):
                raise ModelFileError(file, f"{prefix} '{name_of(objtype, k, prefix)}'", f"non-finite value in {array}")
    for array, addresses in (("dof_armature", mj.jnt_dofadr), ("dof_damping", mj.jnt_dofadr),
                             ("dof_frictionloss", mj.jnt_dofadr), ("qpos0", mj.jnt_qposadr),
                             ("qpos_spring", mj.jnt_qposadr)):
        bad = np.flatnonzero(~np.isfinite(getattr(mj, array)))
        if bad.size:
            j = int(np.searchsorted(addresses, bad[0], side="right") - 1)
            joint = name_of(obj.mjOBJ_JOINT, j, "joint")
            raise ModelFileError(file, f"joint '{joint}'", f"non-finite value in {array}")
    for option in ("gravity", "wind", "density", "viscosity"):
        if not np.all(np.isfinite(getattr(mj.opt, option))):
            raise ModelFileError(file, "option", f"non-finite {option}")


def _placement(pos, quat_wxyz) -> SE3:
    w, x, y, z = np.asarray(quat_wxyz, dtype=float)
    q = np.array([x, y, z, w])
    return SE3(quat_to_matrix(q / np.linalg.norm(q)), np.asarray(pos, dtype=float))


def _body_to_joint_input(mj, j: int) -> SE3:
    """Input frame of hinge/slide/ball joint ``j`` in its body's frame (as moved by the joints before it): at the
    anchor ``jnt_pos``, turned (hinge) or shifted (slide) back by the joint's ``ref`` so that ``q = qpos``
    (MuJoCo moves the body by ``qpos - qpos0``, ``qpos0 = ref``)."""
    anchor, axis = np.array(mj.jnt_pos[j], dtype=float), np.array(mj.jnt_axis[j], dtype=float)
    ref = float(mj.qpos0[mj.jnt_qposadr[j]]) if int(mj.jnt_type[j]) in (HINGE, SLIDE) else 0.0
    if int(mj.jnt_type[j]) == HINGE:
        return SE3(exp3(-ref * axis), anchor)
    return SE3(np.eye(3), anchor - ref * axis if int(mj.jnt_type[j]) == SLIDE else anchor)


def _joint_output_to_body(mj, j: int) -> SE3:
    """The body frame in the output frame of joint ``j``: back from the anchor (MuJoCo rotates about it)."""
    return SE3(np.eye(3), -np.array(mj.jnt_pos[j], dtype=float))


def _joint_model(mj, j: int):
    """The rbda joint model of MuJoCo joint ``j``."""
    kind, axis = int(mj.jnt_type[j]), np.array(mj.jnt_axis[j], dtype=float)
    if kind == HINGE:
        return axis_joint("revolute", axis)
    if kind == SLIDE:
        return axis_joint("prismatic", axis)
    if kind == BALL:
        return JointModelSpherical()
    if kind == FREE:
        return JointModelFreeFlyer()
    raise ValueError(f"unknown MuJoCo joint type {kind}")  # pragma: no cover - MuJoCo has no other type today


def _add_joint(model: Model, mj, joints: list, parent: int, placement: SE3, sub_placements: list, name: str) -> int:
    """Add MuJoCo joints ``joints`` of one body as one rbda joint (a composite one for several, its sub-joints at
    ``sub_placements``) under rbda joint ``parent``, with its limits and JOINT frame; returns its id."""
    models = [_joint_model(mj, j) for j in joints]
    joint = models[0] if len(models) == 1 else JointModelComposite(models, sub_placements)
    while model.exist_joint_name(name):
        name += "_"
    jid = model.add_joint(parent, joint, placement, name)
    lower, upper, effort, stiffness, springref = [], [], [], [], []
    for j, sub in zip(joints, models):
        scalar = int(mj.jnt_type[j]) in (HINGE, SLIDE)
        limited = scalar and mj.jnt_limited[j]
        lower += [mj.jnt_range[j, 0]] if limited else [-np.inf] * sub.nq
        upper += [mj.jnt_range[j, 1]] if limited else [np.inf] * sub.nq
        effort += [np.max(np.abs(mj.jnt_actfrcrange[j])) if mj.jnt_actfrclimited[j] else np.inf] * sub.nv
        stiffness += [mj.jnt_stiffness[j]] if scalar else [0.0] * sub.nv  # (a ball or free joint's: refused)
        springref += [mj.qpos_spring[mj.jnt_qposadr[j]]] if scalar else [0.0] * sub.nq
    q = slice(model.idx_q[jid], model.idx_q[jid] + joint.nq)
    v = slice(model.idx_v[jid], model.idx_v[jid] + joint.nv)
    dofs = slice(mj.jnt_dofadr[joints[0]], mj.jnt_dofadr[joints[0]] + joint.nv)
    model.lower_position_limit[q], model.upper_position_limit[q], model.effort_limit[v] = lower, upper, effort
    model.stiffness[v], model.springref[q] = stiffness, springref
    model.damping[v], model.friction[v] = mj.dof_damping[dofs], mj.dof_frictionloss[dofs]
    model.add_joint_frame(jid)
    return jid


def _equality(mj, mujoco, e: int) -> MjcfEquality:
    kind = mujoco.mjtEq(int(mj.eq_type[e])).name.removeprefix("mjEQ_").lower()
    objtype = {"joint": mujoco.mjtObj.mjOBJ_JOINT, "tendon": mujoco.mjtObj.mjOBJ_TENDON,
               "flex": mujoco.mjtObj.mjOBJ_FLEX}.get(kind, mujoco.mjtObj(int(mj.eq_objtype[e])))  # connect, weld

    def obj(k):
        if k < 0:
            return ""
        return mujoco.mj_id2name(mj, objtype, int(k)) or f"{objtype.name.removeprefix('mjOBJ_').lower()}{k}"

    return MjcfEquality(kind, mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_EQUALITY, e) or "",
                        objtype.name.removeprefix("mjOBJ_").lower(), obj(mj.eq_obj1id[e]), obj(mj.eq_obj2id[e]),
                        bool(mj.eq_active0[e]), np.array(mj.eq_data[e]), np.array(mj.eq_solref[e]),
                        np.array(mj.eq_solimp[e]))


# ------------------------------------------------------------------------------------------------- state conversion
def _layout(model_or_mj) -> MjcfLayout:
    if isinstance(model_or_mj, Model):
        layout = getattr(model_or_mj, "mjcf_layout", None)
        if layout is None or (layout.nq, layout.nv) != (model_or_mj.nq, model_or_mj.nv):
            raise ValueError("model_or_mj: this rbda model was not read from MJCF without a root joint; "
                             "pass the mujoco.MjModel instead")
        return layout
    if type(model_or_mj).__name__ == "MjModel":
        return MjcfLayout.from_mujoco(model_or_mj)
    raise TypeError(f"model_or_mj: expected an rbda Model read from MJCF or a mujoco.MjModel, "
                    f"got {type(model_or_mj).__name__}")


def _free_rotation(quat_xyzw: np.ndarray) -> np.ndarray:
    n = np.linalg.norm(quat_xyzw)
    if n == 0.0:
        raise ValueError("free-joint quaternion: is zero")
    return quat_to_matrix(quat_xyzw / n)


def _xyzw(quat_wxyz) -> np.ndarray:
    return np.array([quat_wxyz[1], quat_wxyz[2], quat_wxyz[3], quat_wxyz[0]])


def qpos_to_q(model_or_mj, qpos) -> np.ndarray:
    """rbda ``q (nq,)`` of MuJoCo's ``qpos (nq,)``: quaternions ``(w,x,y,z) -> (x,y,z,w)``, the rest unchanged.
    ``model_or_mj``: the rbda model read from MJCF, or the ``mujoco.MjModel``."""
    L = _layout(model_or_mj)
    q = as_array(qpos, (L.nq,), "qpos").copy()
    for kind, a in zip(L.jnt_type, L.qposadr):
        if kind in (FREE, BALL):
            a += 3 if kind == FREE else 0
            q[a : a + 4] = _xyzw(q[a : a + 4])
    return q


def q_to_qpos(model_or_mj, q) -> np.ndarray:
    """MuJoCo ``qpos (nq,)`` of rbda's ``q (nq,)`` (inverse of :func:`qpos_to_q`)."""
    L = _layout(model_or_mj)
    q = as_array(q, (L.nq,), "q")
    qpos = q.copy()
    for kind, a in zip(L.jnt_type, L.qposadr):
        if kind in (FREE, BALL):
            a += 3 if kind == FREE else 0
            qpos[a : a + 4] = [q[a + 3], q[a], q[a + 1], q[a + 2]]
    return qpos


def _free_rotations(L: MjcfLayout, q_rbda: np.ndarray):
    """``(dofadr, R)`` of every free joint: the body's rotation in the world at rbda configuration ``q``."""
    return [(d, _free_rotation(q_rbda[a + 3 : a + 7]))
            for kind, a, d in zip(L.jnt_type, L.qposadr, L.dofadr) if kind == FREE]


def _free_linear_to_local(model_or_mj, qpos, x, name: str) -> np.ndarray:
    """A copy of the MuJoCo dof vector ``x (nv,)`` at ``qpos`` with each free joint's linear part, a world vector
    there, taken into the body's axes: ``R^T x_lin`` (MuJoCo's qvel and qfrc to rbda's v and tau)."""
    L = _layout(model_or_mj)
    out = as_array(x, (L.nv,), name).copy()
    for d, R in _free_rotations(L, qpos_to_q(model_or_mj, qpos)):
        out[d : d + 3] = R.T @ out[d : d + 3]
    return out


def _free_linear_to_world(model_or_mj, q, x, name: str) -> np.ndarray:
    """The inverse of :func:`_free_linear_to_local` at rbda configuration ``q``: ``R x_lin`` (rbda's v and tau to
    MuJoCo's qvel and qfrc)."""
    L = _layout(model_or_mj)
    out = as_array(x, (L.nv,), name).copy()
    for d, R in _free_rotations(L, as_array(q, (L.nq,), "q")):
        out[d : d + 3] = R @ out[d : d + 3]
    return out


def qvel_to_v(model_or_mj, qpos, qvel) -> np.ndarray:
    """rbda ``v (nv,)`` of MuJoCo's ``qvel (nv,)`` at ``qpos``: free joints ``v_lin = R^T qvel_lin``."""
    return _free_linear_to_local(model_or_mj, qpos, qvel, "qvel")


def v_to_qvel(model_or_mj, q, v) -> np.ndarray:
    """MuJoCo ``qvel (nv,)`` of rbda's ``v (nv,)`` at rbda configuration ``q``: free joints ``qvel_lin = R v_lin``."""
    return _free_linear_to_world(model_or_mj, q, v, "v")


def qacc_to_a(model_or_mj, qpos, qvel, qacc) -> np.ndarray:
    """rbda ``a (nv,)`` of MuJoCo's ``qacc (nv,)``: free joints ``a_lin = R^T qacc_lin - w x v_lin`` (the time
    derivative of the body-frame velocity ``v_lin = R^T qvel_lin``, with ``dR/dt = R [w]``)."""
    L = _layout(model_or_mj)
    v = qvel_to_v(model_or_mj, qpos, qvel)
    a = as_array(qacc, (L.nv,), "qacc").copy()
    for d, R in _free_rotations(L, qpos_to_q(model_or_mj, qpos)):
        a[d : d + 3] = R.T @ a[d : d + 3] - np.cross(v[d + 3 : d + 6], v[d : d + 3])
    return a


def a_to_qacc(model_or_mj, q, v, a) -> np.ndarray:
    """MuJoCo ``qacc (nv,)`` of rbda's ``a (nv,)`` at ``(q, v)`` (inverse of :func:`qacc_to_a`)."""
    L = _layout(model_or_mj)
    v = as_array(v, (L.nv,), "v")
    qacc = as_array(a, (L.nv,), "a").copy()
    for d, R in _free_rotations(L, as_array(q, (L.nq,), "q")):
        qacc[d : d + 3] = R @ (qacc[d : d + 3] + np.cross(v[d + 3 : d + 6], v[d : d + 3]))
    return qacc


def qfrc_to_tau(model_or_mj, qpos, qfrc) -> np.ndarray:
    """rbda generalized force ``tau (nv,)`` of a MuJoCo ``qfrc_* (nv,)`` (same power ``tau . v = qfrc . qvel``):
    free joints ``tau_lin = R^T qfrc_lin``."""
    return _free_linear_to_local(model_or_mj, qpos, qfrc, "qfrc")


def tau_to_qfrc(model_or_mj, q, tau) -> np.ndarray:
    """MuJoCo ``qfrc (nv,)`` of rbda's ``tau (nv,)`` at rbda configuration ``q`` (inverse of :func:`qfrc_to_tau`)."""
    return _free_linear_to_world(model_or_mj, q, tau, "tau")


__all__ = [
    "build_model_from_mjcf", "build_model_from_mjcf_string", "build_model_from_mjmodel", "MjcfLayout",
    "MjcfEquality", "qpos_to_q", "q_to_qpos", "qvel_to_v", "v_to_qvel", "qacc_to_a", "a_to_qacc", "qfrc_to_tau",
    "tau_to_qfrc",
]
