"""Pinocchio's sample models with Pinocchio's joint and frame names and joint types: ``buildSampleModelManipulator``,
``buildSampleModelHumanoid``, ``buildSampleModelHumanoidRandom``. Placements and inertias are rbda's own
(plausible lengths and masses; random ones for the random humanoid), not Pinocchio's numbers: code that relies on
names, sizes and structure runs unchanged, numbers compared with a Pinocchio model need that model converted
(:func:`rbda.interop.pinocchio.to_pinocchio`)."""

from __future__ import annotations

import numpy as np

from .. import joints as _j
from ..model import transform_joint_into_mimic
from . import spatial as _ps
from ._convert import to_pin
from .model import Model

_REVOLUTE = {"X": _j.JointModelRX, "Y": _j.JointModelRY, "Z": _j.JointModelRZ}


def _rod(mass: float, length: float, down: bool = False) -> _ps.Inertia:
    """A uniform rod of ``length`` along z (towards -z with ``down``), from the joint."""
    Y = _ps.Inertia.FromCylinder(mass, 0.03, length)
    return to_pin(_ps.SE3(np.eye(3), [0.0, 0.0, -0.5 * length if down else 0.5 * length]).act(Y))


def _link(model: Model, parent: int, joint, placement, name: str, inertia, **limits) -> int:
    """A joint ``<name>_joint`` with its JOINT frame, a body and its BODY frame ``<name>_body``."""
    jid = model.add_joint(parent, joint, placement, f"{name}_joint", **limits)
    model.add_body_frame(f"{name}_body", jid, _ps.SE3(), model.add_joint_frame(jid))
    model.append_body_to_joint(jid, inertia)
    return jid


def _root(model: Model, using_free_flyer: bool, inertia, body_frame: bool) -> int:
    """``root_joint``: a free-flyer, or (without) a composite of a translation and a ZYX spherical joint; its
    JOINT frame, and with ``body_frame`` a BODY frame ``root_body``."""
    if using_free_flyer:
        joint = _j.JointModelFreeFlyer()
        limits = {"min_config": [-1, -1, -1, -1, -1, -1, -1], "max_config": [1, 1, 1, 1, 1, 1, 1]}
    else:
        joint = _j.JointModelComposite([_j.JointModelTranslation(), _j.JointModelSphericalZYX()])
        limits = {"min_config": [-1, -1, -1, -np.pi, -np.pi, -np.pi], "max_config": [1, 1, 1, np.pi, np.pi, np.pi]}
    jid = model.add_joint(0, joint, _ps.SE3(), "root_joint", **limits)
    joint_frame = model.add_joint_frame(jid)
    if body_frame:
        model.add_body_frame("root_body", jid, _ps.SE3(), joint_frame)
    model.append_body_to_joint(jid, inertia)
    return jid


def _limb(model: Model, parent: int, prefix: str, placement, down: bool, extras: bool, last: str = "wrist2") -> int:
    """A 6-dof limb ``<prefix>shoulder1..3, elbow, wrist1..2`` (axes X Y Z Y X Y), 0.5 m upper and lower parts;
    with ``extras`` the BODY frames ``upperarm``, ``lowerarm`` and ``effector`` that Pinocchio's models have."""
    s = -1.0 if down else 1.0
    p = placement
    for name, axis, length in (("shoulder1", "X", 0.0), ("shoulder2", "Y", 0.0), ("shoulder3", "Z", 0.0)):
        parent = _link(model, parent, _REVOLUTE[axis](), p, f"{prefix}{name}", _ps.Inertia.FromSphere(0.1, 0.05),
                       min_config=-np.pi, max_config=np.pi)
        p = _ps.SE3()
    if extras:
        model.add_body_frame(f"{prefix}upperarm_body", parent, _ps.SE3(np.eye(3), [0, 0, s * 0.25]))
    model.merge_inertia(parent, _rod(1.0, 0.5, down))  # the upper part, on the last shoulder joint's body
    elbow = _link(model, parent, _j.JointModelRY(), _ps.SE3(np.eye(3), [0, 0, s * 0.5]), f"{prefix}elbow",
                  _rod(1.0, 0.5, down), min_config=-np.pi, max_config=np.pi)
    if extras:
        model.add_body_frame(f"{prefix}lowerarm_body", elbow, _ps.SE3(np.eye(3), [0, 0, s * 0.25]))
    wrist = _link(model, elbow, _j.JointModelRX(), _ps.SE3(np.eye(3), [0, 0, s * 0.5]), f"{prefix}wrist1",
                  _ps.Inertia.FromSphere(0.1, 0.05), min_config=-np.pi, max_config=np.pi)
    wrist = _link(model, wrist, _j.JointModelRY(), _ps.SE3(), f"{prefix}{last}", _ps.Inertia.FromSphere(0.1, 0.05),
                  min_config=-np.pi, max_config=np.pi)
    if extras:
        model.add_body_frame(f"{prefix}effector_body", wrist, _ps.SE3(np.eye(3), [0, 0, s * 0.1]))
    return wrist


def buildSampleModelManipulator(mimic: bool = False) -> Model:
    """A 6-dof arm: ``shoulder1_joint`` ... ``wrist2_joint`` (axes X Y Z Y X Y) with Pinocchio's frames; with
    ``mimic``, ``wrist1_mimic_joint`` (and its frames) follows ``wrist1_joint`` in place of ``wrist2_joint``
    (nq = nv = 5)."""
    model = Model()
    model.name = "manipulator"
    _limb(model, 0, "", _ps.SE3(), False, True, "wrist1_mimic" if mimic else "wrist2")
    return to_pin(transform_joint_into_mimic(model, "wrist1_joint", "wrist1_mimic_joint", 1.0, 0.0)) if mimic else model


def buildSampleModelHumanoid(usingFF: bool = True) -> Model:
    """A humanoid named as Pinocchio's: ``root_joint`` (a free-flyer, or a composite translation + ZYX spherical
    joint), legs ``rleg_``/``lleg_`` and arms ``rarm_``/``larm_`` (``shoulder1..3``, ``elbow``, ``wrist1..2``),
    ``chest1_joint``, ``chest2_joint``, ``head1_joint``, ``head2_joint`` (30 joints); deterministic."""
    model = Model()
    model.name = "humanoid"
    root = _root(model, usingFF, _ps.Inertia.FromBox(10.0, 0.3, 0.4, 0.2), False)
    for side, y in (("r", -0.2), ("l", 0.2)):
        _limb(model, root, f"{side}leg_", _ps.SE3(np.eye(3), [0.0, y, -0.1]), True, True)
    chest = _link(model, root, _j.JointModelRX(), _ps.SE3(), "chest1", _ps.Inertia.FromSphere(0.1, 0.05),
                  min_config=-np.pi, max_config=np.pi)
    chest = _link(model, chest, _j.JointModelRY(), _ps.SE3(), "chest2", _ps.Inertia.FromBox(8.0, 0.3, 0.4, 0.5),
                  min_config=-np.pi, max_config=np.pi)
    head = _link(model, chest, _j.JointModelRX(), _ps.SE3(np.eye(3), [0.0, 0.0, 0.6]), "head1",
                 _ps.Inertia.FromSphere(0.1, 0.05), min_config=-np.pi, max_config=np.pi)
    _link(model, head, _j.JointModelRY(), _ps.SE3(), "head2", _ps.Inertia.FromSphere(2.0, 0.15),
          min_config=-np.pi, max_config=np.pi)
    for side, y in (("r", -0.25), ("l", 0.25)):
        _limb(model, chest, f"{side}arm_", _ps.SE3(np.eye(3), [0.0, y, 0.5]), True, True)
    return model


def buildSampleModelHumanoidRandom(usingFF: bool = True, mimic: bool = False) -> Model:
    """A humanoid with Pinocchio's random model's names (``root_joint``, ``lleg1..6``, ``rleg1..6``,
    ``torso1``, ``chest``, ``rarm1..6``, ``larm1..6``, each ``<name>_joint`` with a ``<name>_body`` frame; axes
    X Y Z Y Y X along each limb), random joint placements and random inertias; with ``mimic``, ``larm6_joint``
    follows ``larm5_joint``."""
    rng = _ps._rng
    model = Model()
    model.name = "humanoid_random"
    rand = dict(min_config=-np.pi, max_config=np.pi)

    def random_link(parent, axis, name):
        return _link(model, parent, _REVOLUTE[axis](), to_pin(_ps._s.SE3.Random(rng)), name,
                     to_pin(_ps._s.Inertia.Random(rng)), **rand)

    root = _root(model, usingFF, to_pin(_ps._s.Inertia.Random(rng)), True)
    for leg in ("lleg", "rleg"):
        parent = root
        for k, axis in enumerate("XYZYYX", start=1):
            parent = random_link(parent, axis, f"{leg}{k}")
    torso = random_link(root, "Y", "torso1")
    chest = random_link(torso, "Z", "chest")
    for arm in ("rarm", "larm"):
        parent = chest
        for k, axis in enumerate("XYZYYX", start=1):
            parent = random_link(parent, axis, f"{arm}{k}")
    if mimic:
        return to_pin(transform_joint_into_mimic(model, "larm5_joint", "larm6_joint", 2.5, 0.75))
    return model
