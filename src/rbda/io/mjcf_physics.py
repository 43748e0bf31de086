"""The physics of an MJCF file that :class:`rbda.Model` has no field for, read from the compiled ``MjModel`` by
:func:`rbda.io.mjcf.build_model_from_mjmodel`: ``model.mjcf_physics`` (:class:`MjcfPhysics`, what
:class:`rbda.Simulator` applies besides the model's own damping, friction, limits and springs) and
``model.mjcf_actuators`` (:class:`MjcfActuators`, mapped to joint torques by :func:`actuator_torques`).

Read and simulated (:mod:`rbda.simulation.passive`, :mod:`rbda.simulation.constraints`):

* joint springs of hinge and slide joints (``stiffness``, ``springref``): ``model.stiffness``, ``model.springref``;
* gravity compensation (``body/@gravcomp``): per rbda joint, the mass whose weight is cancelled and its centre;
* fluid forces of MuJoCo's inertia-box model (``option/@density``, ``@viscosity``, ``@wind``);
* fixed tendons: their limits (``range``), spring (``stiffness`` about ``springlength``) and damping;
* actuators without dynamics of their own on one hinge or slide joint (``motor``, ``position``, ``velocity``, a
  ``general`` one with a fixed gain and no or an affine bias).

``MjcfPhysics.unsupported`` names, as ``("<element> '<name>'", "<what>")``, every part of the file that changes the
motion and that rbda's simulator does not simulate: stiffness of ball and free joints; MuJoCo's nonlinear springs
and dampers (``*poly``, ``springyield``); spatial tendons, tendon friction, armature and spring dead bands; ball
joints' cone limits; the ellipsoid fluid model (``geom/@fluidshape``); actuators with dynamics (``dyntype``),
other gains and biases, other transmissions, or their own damping, armature or delay; joint, tendon and flex
equalities; flexes and plugins; the option flags that switch part of the physics off, and the contact override.
:func:`rbda.load_scene` and :class:`rbda.Simulator` refuse a model that has any (the contact settings of the
geoms, which the model does not hold, are checked by :func:`rbda.load_scene`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..spatial._validate import as_array
from .mjcf import _placement

FREE, BALL, SLIDE, HINGE = 0, 1, 2, 3  # MuJoCo's mjtJoint
WRAP_JOINT = 1  # mjtWrap: a fixed tendon's element
TRN_JOINT, TRN_JOINTINPARENT = 0, 1  # mjtTrn
GAIN_FIXED, BIAS_NONE, BIAS_AFFINE, DYN_NONE = 0, 0, 1, 0  # mjtGain, mjtBias, mjtDyn
MINVAL = 1e-15  # MuJoCo's mjMINVAL: a body lighter than this feels no fluid force
# option flags whose change switches off or changes a part of the physics (mjtDisableBit, mjtEnableBit)
REFUSED_DISABLE = ("constraint", "equality", "frictionloss", "limit", "contact", "spring", "damper", "gravity",
                   "clampctrl", "actuation")
REFUSED_ENABLE = ("override",)


@dataclass
class MjcfPhysics:
    """The forces of an MJCF file that :class:`rbda.Model` has no field for (``model.mjcf_physics``).

    Gravity compensation: ``gravcomp (njoints, 4)``, per rbda joint the mass ``m_c = sum_b gravcomp_b m_b`` of
    the MuJoCo bodies it carries whose weight is cancelled and their centre ``c (3,)`` in the joint frame: the
    force ``-m_c g`` at ``c`` (parallel forces: their resultant at the mass-weighted centre is exact).

    Fluid forces, MuJoCo's inertia-box model (``option/@density``, ``@viscosity``, ``@wind (3,)``): per MuJoCo
    body with mass, ``fluid_joints (nb,)`` its rbda joint, ``fluid_frames (nb, 3, 4)`` its inertial frame
    ``[R | p]`` in the joint frame, ``fluid_boxes (nb, 3)`` the sides of the box of uniform density with its mass
    and principal inertia (``b_x = sqrt(6 (I_y + I_z - I_x) / m)``, ...).

    Fixed tendons (``tendon/fixed``), ``nt`` of them: ``tendon_names``, the length ``L = tendon_q @ q``
    (``(nt, nq)``: the coefficients on the joints' coordinates) and its rate ``tendon_v @ v`` (``(nt, nv)``),
    ``tendon_range (nt, 2)`` (``[-inf, inf]`` when not limited), ``tendon_stiffness (nt,)`` about the rest length
    ``tendon_length0 (nt,)`` and ``tendon_damping (nt,)``: the force ``-k (L - L0) - d dL/dt`` along the tendon.

    ``unsupported``: ``("<element> '<name>'", "<what>")`` for each part of the file that changes the motion and
    that the simulator does not simulate (see the module).
    """

    gravcomp: np.ndarray
    density: float
    viscosity: float
    wind: np.ndarray
    fluid_joints: np.ndarray
    fluid_frames: np.ndarray
    fluid_boxes: np.ndarray
    tendon_names: list
    tendon_q: np.ndarray
    tendon_v: np.ndarray
    tendon_range: np.ndarray
    tendon_stiffness: np.ndarray
    tendon_length0: np.ndarray
    tendon_damping: np.ndarray
    unsupported: list = field(default_factory=list)


@dataclass
class MjcfActuators:
    """The actuators of an MJCF file (``model.mjcf_actuators``) that act on one hinge or slide joint each and have
    no dynamics of their own (``motor``, ``position``, ``velocity``, ``general`` with a fixed gain and no or an
    affine bias), in file order, ``nu`` of them: ``names``, the joint's velocity index ``dofs (nu,)`` and
    coordinate index ``coordinates (nu,)``, ``gear (nu,)``, ``gain (nu,)``, ``bias (nu, 3)``, ``ctrlrange`` and
    ``forcerange (nu, 2)`` (``[-inf, inf]`` when not limited), ``nv``. Their torques: :func:`actuator_torques`.
    """

    names: list
    dofs: np.ndarray
    coordinates: np.ndarray
    gear: np.ndarray
    gain: np.ndarray
    bias: np.ndarray
    ctrlrange: np.ndarray
    forcerange: np.ndarray
    nv: int

    @property
    def size(self) -> int:
        return len(self.names)

    @property
    def transmission(self) -> np.ndarray:
        """``B (nv, nu)``: the joint torques of unit actuator forces, ``tau = B force`` (``gear`` on each
        actuator's dof)."""
        B = np.zeros((self.nv, self.size))
        B[self.dofs, np.arange(self.size)] = self.gear
        return B


def actuator_torques(model, ctrl, q=None, v=None) -> np.ndarray:
    """The joint torques ``tau (nv,)`` of the MJCF actuators of ``model`` (``model.mjcf_actuators``, read by
    :func:`rbda.io.mjcf.build_model_from_mjcf`) under the controls ``ctrl (nu,)``, as MuJoCo computes
    ``qfrc_actuator``: each control clamped to its ``ctrlrange``, the force ``gain ctrl + b0 + b1 l + b2 dl/dt``
    (actuator length ``l = gear q``, MuJoCo's ``actuator_length``) clamped to its ``forcerange``, the torque
    ``gear * force`` on its joint. ``q (nq,)`` and ``v (nv,)`` are needed only by actuators with a bias (position and
    velocity servos). Pass ``tau`` to :meth:`rbda.Simulator.step`. Raises ``ValueError`` naming the argument for a
    wrong size or a non-finite value, or a model without MJCF actuators."""
    act = getattr(model, "mjcf_actuators", None)
    if act is None:
        raise ValueError("model: has no MJCF actuators (model.mjcf_actuators); read it from an MJCF file")
    ctrl = as_array(ctrl, (act.size,), "ctrl")
    if not np.all(np.isfinite(ctrl)):
        raise ValueError("ctrl: contains non-finite values (NaN or inf)")
    force = act.gain * np.clip(ctrl, act.ctrlrange[:, 0], act.ctrlrange[:, 1]) + act.bias[:, 0]
    biased = np.any(act.bias[:, 1:] != 0.0)
    if biased:
        for x, name, n in ((q, "q", model.nq), (v, "v", model.nv)):
            if x is None:
                raise ValueError(f"{name}: needed by actuators with a bias ({_biased(act)})")
            if not np.all(np.isfinite(as_array(x, (n,), name))):
                raise ValueError(f"{name}: contains non-finite values (NaN or inf)")
        q, v = np.asarray(q, dtype=float), np.asarray(v, dtype=float)
        force += act.bias[:, 1] * act.gear * q[act.coordinates] + act.bias[:, 2] * act.gear * v[act.dofs]
    force = np.clip(force, act.forcerange[:, 0], act.forcerange[:, 1])
    tau = np.zeros(act.nv)
    np.add.at(tau, act.dofs, act.gear * force)
    return tau


def _biased(act) -> str:
    return ", ".join(repr(n) for n, b in zip(act.names, act.bias) if np.any(b[1:] != 0.0))


# ------------------------------------------------------------------------------------------------- reading
def read_physics(mj, mujoco, attach: dict, offsets: tuple, njoints: int, nq: int, nv: int, name_of) -> MjcfPhysics:
    """The :class:`MjcfPhysics` of the compiled ``mj``: ``attach`` maps each MuJoCo body to ``(rbda joint, body
    frame in that joint's frame)``, ``offsets = (q0, v0)`` where MuJoCo's ``qpos``/``qvel`` start in rbda's ``q``/``v``
    (a root joint's size), ``name_of(objtype, k, prefix)`` names MuJoCo objects."""
    obj = mujoco.mjtObj
    unsupported = []

    def refuse(kind, objtype, k, what):
        unsupported.append((f"{kind} '{name_of(objtype, k, kind)}'", what))

    gravcomp = np.zeros((njoints, 4))
    for b in range(1, mj.nbody):
        mass = float(mj.body_mass[b]) * float(mj.body_gravcomp[b])
        if mass != 0.0:
            joint, jMb = attach[b]
            gravcomp[joint, 0] += mass
            gravcomp[joint, 1:] += mass * (jMb.rotation @ mj.body_ipos[b] + jMb.translation)
    carried = gravcomp[:, 0] != 0.0
    gravcomp[carried, 1:] /= gravcomp[carried, :1]

    density, viscosity = float(mj.opt.density), float(mj.opt.viscosity)
    fluid = [b for b in range(1, mj.nbody) if mj.body_mass[b] >= MINVAL] if density > 0 or viscosity > 0 else []
    for b in fluid:
        for g in range(mj.body_geomadr[b], mj.body_geomadr[b] + mj.body_geomnum[b]):
            if mj.geom_fluid[g, 0] > 0:
                refuse("geom", obj.mjOBJ_GEOM, g, "fluidshape='ellipsoid' (MuJoCo's ellipsoid fluid model)")
    frames = np.zeros((len(fluid), 3, 4))
    for k, b in enumerate(fluid):
        joint, jMb = attach[b]
        jMi = jMb * _placement(mj.body_ipos[b], mj.body_iquat[b])
        frames[k] = np.column_stack([jMi.rotation, jMi.translation])
    boxes = np.array([_inertia_box(mj.body_inertia[b], mj.body_mass[b]) for b in fluid]).reshape(-1, 3)

    q0, v0 = offsets
    tendons = _fixed_tendons(mj, mujoco, name_of, refuse)
    nt = len(tendons)
    tendon_q, tendon_v = np.zeros((nt, nq)), np.zeros((nt, nv))
    for row, t in enumerate(tendons):
        for w in range(mj.tendon_adr[t], mj.tendon_adr[t] + mj.tendon_num[t]):
            j = int(mj.wrap_objid[w])
            tendon_q[row, q0 + mj.jnt_qposadr[j]] += mj.wrap_prm[w]
            tendon_v[row, v0 + mj.jnt_dofadr[j]] += mj.wrap_prm[w]
    limited = np.array([bool(mj.tendon_limited[t]) for t in tendons], dtype=bool)
    tendon_range = np.where(limited[:, None], np.array(mj.tendon_range[tendons], dtype=float).reshape(-1, 2),
                            [-np.inf, np.inf])

    _refuse_joints(mj, obj, refuse)
    _refuse_rest(mj, mujoco, obj, refuse, unsupported)
    return MjcfPhysics(gravcomp, density, viscosity, np.array(mj.opt.wind, dtype=float), np.array(
        [attach[b][0] for b in fluid], dtype=np.int64), frames, boxes,
        [name_of(obj.mjOBJ_TENDON, t, "tendon") for t in tendons], tendon_q, tendon_v, tendon_range,
        np.array(mj.tendon_stiffness[tendons], dtype=float), np.array(mj.tendon_lengthspring[tendons, 0], dtype=float),
        np.array(mj.tendon_damping[tendons], dtype=float), unsupported)


def _inertia_box(inertia, mass) -> np.ndarray:
    """The sides of the box of uniform density with ``mass`` and principal ``inertia (3,)`` (MuJoCo's
    ``mj_inertiaBoxFluidModel``: ``I_x = m (b_y^2 + b_z^2) / 12``, so ``b_x^2 = 6 (I_y + I_z - I_x) / m``)."""
    I = np.asarray(inertia, dtype=float)
    return np.sqrt(np.maximum(MINVAL, np.array([I[1] + I[2] - I[0], I[0] + I[2] - I[1], I[0] + I[1] - I[2]]))
                   / float(mass) * 6.0)


def _fixed_tendons(mj, mujoco, name_of, refuse) -> list:
    """The fixed tendons of ``mj`` that the simulator models (the others refused)."""
    kept = []
    for t in range(mj.ntendon):
        wraps = range(mj.tendon_adr[t], mj.tendon_adr[t] + mj.tendon_num[t])
        what = []
        if any(int(mj.wrap_type[w]) != WRAP_JOINT for w in wraps):
            what.append("a spatial tendon")
        if mj.tendon_frictionloss[t] != 0.0:
            what.append("frictionloss")
        if mj.tendon_lengthspring[t, 0] != mj.tendon_lengthspring[t, 1] and mj.tendon_stiffness[t] != 0.0:
            what.append("a spring dead band (springlength with two values)")
        for attribute in ("tendon_armature", "tendon_stiffnesspoly", "tendon_dampingpoly", "tendon_springyield"):
            if np.any(np.asarray(getattr(mj, attribute, np.zeros((mj.ntendon, 1))))[t] != 0.0):
                what.append(attribute.removeprefix("tendon_"))
        for w in what:
            refuse("tendon", mujoco.mjtObj.mjOBJ_TENDON, t, w)
        if not what:
            kept.append(t)
    return kept


def _refuse_joints(mj, obj, refuse) -> None:
    """Joint properties that the simulator does not model: springs on ball and free joints, nonlinear springs and
    dampers, the cone limits of ball joints."""
    for j in range(mj.njnt):
        kind = int(mj.jnt_type[j])
        if mj.jnt_stiffness[j] != 0.0 and kind in (FREE, BALL):
            refuse("joint", obj.mjOBJ_JOINT, j, f"stiffness on a {'free' if kind == FREE else 'ball'} joint")
        if kind == BALL and mj.jnt_limited[j]:
            refuse("joint", obj.mjOBJ_JOINT, j, "a ball joint's cone limit (range)")
        for attribute in ("jnt_stiffnesspoly", "jnt_springyield"):
            if np.any(np.asarray(getattr(mj, attribute, np.zeros((mj.njnt, 1))))[j] != 0.0):
                refuse("joint", obj.mjOBJ_JOINT, j, attribute.removeprefix("jnt_"))
        dofs = slice(mj.jnt_dofadr[j], mj.jnt_dofadr[j] + {FREE: 6, BALL: 3}.get(kind, 1))
        if np.any(np.asarray(getattr(mj, "dof_dampingpoly", np.zeros((mj.nv, 1))))[dofs] != 0.0):
            refuse("joint", obj.mjOBJ_JOINT, j, "dampingpoly")


def _refuse_rest(mj, mujoco, obj, refuse, unsupported) -> None:
    """Equalities, actuators, flexes, plugins and option flags that the simulator does not model."""
    for e in range(mj.neq):
        kind = mujoco.mjtEq(int(mj.eq_type[e])).name.removeprefix("mjEQ_").lower()
        if kind not in ("connect", "weld") and mj.eq_active0[e]:
            refuse("equality", obj.mjOBJ_EQUALITY, e, f"a {kind} equality")
    for a in range(mj.nu):
        for what in _actuator_problems(mj, a):
            refuse("actuator", obj.mjOBJ_ACTUATOR, a, what)
    if getattr(mj, "nflex", 0):
        unsupported.append(("flex", f"{mj.nflex} deformable object(s)"))
    if getattr(mj, "nplugin", 0):
        unsupported.append(("plugin", f"{mj.nplugin} engine plugin(s)"))
    for bits, prefix, refused, state in ((mujoco.mjtDisableBit, "mjDSBL_", REFUSED_DISABLE, "disable"),
                                         (mujoco.mjtEnableBit, "mjENBL_", REFUSED_ENABLE, "enable")):
        flags = mj.opt.disableflags if state == "disable" else mj.opt.enableflags
        for name, bit in bits.__members__.items():
            flag = name.removeprefix(prefix).lower()
            if flag in refused and flags & int(bit):
                unsupported.append(("option > flag", f"{flag}=\"{state}\""))


def _actuator_problems(mj, a: int) -> list:
    """Why actuator ``a`` cannot be mapped to joint torques by :func:`actuator_torques` (empty: it can)."""
    what = []
    if int(mj.actuator_dyntype[a]) != DYN_NONE:
        what.append(f"dynamics of its own (dyntype {int(mj.actuator_dyntype[a])})")
    if int(mj.actuator_gaintype[a]) != GAIN_FIXED:
        what.append(f"a gain that is not fixed (gaintype {int(mj.actuator_gaintype[a])})")
    if int(mj.actuator_biastype[a]) not in (BIAS_NONE, BIAS_AFFINE):
        what.append(f"a bias that is not affine (biastype {int(mj.actuator_biastype[a])})")
    transmission = int(mj.actuator_trntype[a])
    if transmission not in (TRN_JOINT, TRN_JOINTINPARENT):
        what.append(f"a transmission that is not a joint (trntype {transmission})")
    elif int(mj.jnt_type[mj.actuator_trnid[a, 0]]) not in (HINGE, SLIDE):
        what.append("a transmission on a ball or free joint")
    for attribute in ("actuator_damping", "actuator_armature", "actuator_delay", "actuator_dampingpoly"):
        if np.any(np.asarray(getattr(mj, attribute, np.zeros((mj.nu, 1))))[a] != 0.0):
            what.append(attribute.removeprefix("actuator_"))
    return what


def read_actuators(mj, mujoco, offsets: tuple, nv: int, name_of) -> MjcfActuators:
    """The :class:`MjcfActuators` of ``mj``: those without a problem (:func:`_actuator_problems`; the others are
    in :attr:`MjcfPhysics.unsupported`)."""
    q0, v0 = offsets
    kept = [a for a in range(mj.nu) if not _actuator_problems(mj, a)]
    joints = np.array([mj.actuator_trnid[a, 0] for a in kept], dtype=np.int64)

    def limits(flag, values):
        return np.array([values[a] if flag[a] else [-np.inf, np.inf] for a in kept], dtype=float).reshape(-1, 2)

    return MjcfActuators([name_of(mujoco.mjtObj.mjOBJ_ACTUATOR, a, "actuator") for a in kept],
                         v0 + np.array(mj.jnt_dofadr[joints], dtype=np.int64),
                         q0 + np.array(mj.jnt_qposadr[joints], dtype=np.int64),
                         np.array([mj.actuator_gear[a, 0] for a in kept], dtype=float),
                         np.array([mj.actuator_gainprm[a, 0] for a in kept], dtype=float),
                         np.array([mj.actuator_biasprm[a, :3] for a in kept], dtype=float).reshape(-1, 3),
                         limits(mj.actuator_ctrllimited, mj.actuator_ctrlrange),
                         limits(mj.actuator_forcelimited, mj.actuator_forcerange), int(nv))
