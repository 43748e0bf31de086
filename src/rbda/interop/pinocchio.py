"""Build the Pinocchio model equivalent to an rbda model (for cross-checks and benchmarks; needs ``pin``)."""

from __future__ import annotations

import numpy as np

from ..joints import JointType
from ..model import Model


def _pin():
    try:
        import pinocchio
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("rbda.interop.pinocchio needs Pinocchio: pip install 'rbda[test]' (or pip install pin)") from exc
    return pinocchio


def _aligned(axis: np.ndarray) -> str | None:
    for name, e in (("X", (1, 0, 0)), ("Y", (0, 1, 0)), ("Z", (0, 0, 1))):
        if np.array_equal(axis, e):
            return name
    return None


def to_pinocchio_joint(joint):
    """The Pinocchio joint model of an rbda joint model."""
    pin = _pin()
    t, p = joint.type, joint.params
    axis, name = p[:3].copy(), _aligned(p[:3])
    if t == JointType.REVOLUTE:
        return getattr(pin, f"JointModelR{name}")() if name else pin.JointModelRevoluteUnaligned(axis)
    if t == JointType.REVOLUTE_UNBOUNDED:
        if name is None:  # Pinocchio's Python bindings construct this joint only with its default axis
            raise ValueError("an unaligned unbounded revolute joint cannot be built through Pinocchio's bindings")
        return getattr(pin, f"JointModelRUB{name}")()
    if t == JointType.PRISMATIC:
        return getattr(pin, f"JointModelP{name}")() if name else pin.JointModelPrismaticUnaligned(axis)
    if t == JointType.HELICAL:
        return getattr(pin, f"JointModelH{name}")(p[3]) if name else pin.JointModelHelicalUnaligned(axis, p[3])
    if t == JointType.UNIVERSAL:
        return pin.JointModelUniversal(axis, p[3:6].copy())
    simple = {
        JointType.SPHERICAL: "JointModelSpherical", JointType.SPHERICAL_ZYX: "JointModelSphericalZYX",
        JointType.TRANSLATION: "JointModelTranslation", JointType.PLANAR: "JointModelPlanar",
        JointType.FREE_FLYER: "JointModelFreeFlyer",
    }
    if t in simple:
        return getattr(pin, simple[t])()
    if t == JointType.COMPOSITE:
        composite = pin.JointModelComposite()
        for sub, placement in zip(joint.joints, joint.placements):
            composite.addJoint(to_pinocchio_joint(sub), _se3(placement))
        return composite
    raise ValueError(f"joint type {t!r} has no Pinocchio equivalent")


def _se3(M):
    return _pin().SE3(M.rotation.copy(), M.translation.copy())


def to_pinocchio(model: Model):
    """A ``pinocchio.Model`` with the same joints, placements, inertias, limits, armature, gravity and frames."""
    pin = _pin()
    pm = pin.Model()
    pm.name = model.name
    for i in range(1, model.njoints):
        joint = model.joints[i]
        if joint.type == JointType.MIMIC:  # built as its own joint, then made a mimic below (as Pinocchio does)
            joint, limits = joint.joint, [np.full(1, s * np.inf) for s in (1, 1, -1, 1)]
        else:
            qs = slice(model.idx_q[i], model.idx_q[i] + model.nqs[i])
            vs = slice(model.idx_v[i], model.idx_v[i] + model.nvs[i])
            limits = [model.effort_limit[vs].copy(), model.velocity_limit[vs].copy(),
                      model.lower_position_limit[qs].copy(), model.upper_position_limit[qs].copy()]
        jid = pm.addJoint(model.parents[i], to_pinocchio_joint(joint), _se3(model.joint_placements[i]), model.names[i],
                          *limits)
        Y = model.inertias[i]
        pm.appendBodyToJoint(jid, pin.Inertia(Y.mass, Y.lever.copy(), Y.inertia.copy()), pin.SE3.Identity())
    for i in model.mimicking_joints:
        mimic = model.joints[i]
        if mimic.mimicked_id > i:
            raise ValueError(f"joint {i} ({model.names[i]!r}) mimics joint {mimic.mimicked_id}, which comes after it: "
                             "Pinocchio's mimic joints must come after the joint they mimic")
        pm = pin.transformJointIntoMimic(pm, mimic.mimicked_id, i, mimic.scaling, mimic.offset)
    pm.armature = model.armature.copy()
    pm.damping = model.damping.copy()
    pm.friction = model.friction.copy()
    pm.gravity = pin.Motion(model.gravity.vector.copy())
    for f in model.frames[1:]:
        pm.addFrame(pin.Frame(f.name, f.parent_joint, f.parent_frame, _se3(f.placement), pin.FrameType(int(f.type))), False)
    return pm
