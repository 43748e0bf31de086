"""Robots, constraint sets and their Pinocchio twins for the constrained-dynamics tests."""

import os

import numpy as np
import pytest
from conftest import random_model

import rbda
from rbda import CONTACT_3D, CONTACT_6D, LOCAL, LOCAL_WORLD_ALIGNED, RigidConstraintModel


def robot_file(relative: str) -> str:
    """A file of example-robot-data as installed with ``pin`` (skips the test when absent)."""
    pin = pytest.importorskip("pinocchio")
    path = os.path.join(os.path.dirname(pin.__file__), *[".."] * 4, "share", "example-robot-data", "robots", relative)
    if not os.path.exists(path):
        pytest.skip(f"example-robot-data's {relative} is not installed")
    return os.path.normpath(path)


def solo12():
    return rbda.load_model(robot_file("solo_description/robots/solo12.urdf"), floating_base=True)


def talos():
    return rbda.load_model(robot_file("talos_data/robots/talos_reduced.urdf"), floating_base=True)


def panda():
    return rbda.load_model(robot_file("panda_description/urdf/panda.urdf"))


def frame_constraint(model, kind, frame_name, rf=LOCAL):
    """A contact of the frame ``frame_name`` with the world, where it stands."""
    f = model.frames[model.get_frame_id(frame_name)]
    return RigidConstraintModel(kind, model, f.parent_joint, f.placement, 0, rbda.SE3(), rf)


def well_posed(model, cms, seed: int = 0) -> bool:
    """The stacked Jacobian of ``cms`` at a random state has full row rank (smallest singular value > 1e-3)."""
    if not cms:
        return True
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    rng = np.random.default_rng(seed)
    rbda.constraint_dynamics(model, data, rbda.random_configuration(model, rng=rng), np.zeros(model.nv),
                             np.zeros(model.nv), cms, cds, rbda.ProximalSettings(1e-12, 1e-3, 1))
    return np.linalg.svd(np.vstack([cd.jacobian for cd in cds]), compute_uv=False)[-1] > 1e-3


def random_constraints(model, rng, count: int = 3):
    """Random 3D/6D constraints in LOCAL or LOCAL_WORLD_ALIGNED, half of them loops between two joints (one
    possibly supporting the other), kept only while the set stays well posed (full row rank)."""
    out = []
    joints = list(range(1, model.njoints))
    for _ in range(50):
        if len(out) == count:
            break
        j1 = int(rng.choice(joints))
        j2 = 0
        if rng.uniform() < 0.5:
            others = [j for j in range(1, model.njoints) if j != j1]
            j2 = int(rng.choice(others)) if others else 0
        kind = CONTACT_3D if rng.uniform() < 0.5 else CONTACT_6D
        rf = LOCAL if rng.uniform() < 0.5 else LOCAL_WORLD_ALIGNED
        cm = RigidConstraintModel(kind, model, j1, rbda.SE3.Random(rng), j2, rbda.SE3.Random(rng), rf)
        if well_posed(model, out + [cm]):
            out.append(cm)
    return out


def random_tree_with_constraints(seed: int, floating: bool, constant_subspaces: bool = False):
    """A random tree of the joint types Pinocchio builds (without those whose motion subspace depends on q if
    ``constant_subspaces``) with armature and a well-posed random constraint set."""
    from test_against_pinocchio import pinocchio_joint_types

    model = random_model(seed, floating, pinocchio_joint_types(not constant_subspaces))
    rng = np.random.default_rng(100 + seed)
    model.armature = rng.uniform(0.0, 0.1, model.nv)
    return model, random_constraints(model, rng, count=3)


def to_pinocchio_constraints(pmodel, contact_models):
    """The Pinocchio twins of ``contact_models`` (same joints, placements, frames, Baumgarte gains)."""
    pin = pytest.importorskip("pinocchio")

    def se3(M):
        return pin.SE3(M.rotation.copy(), M.translation.copy())

    out = []
    for cm in contact_models:
        pcm = pin.RigidConstraintModel(pin.ContactType(int(cm.type)), pmodel, cm.joint1_id, se3(cm.joint1_placement),
                                       cm.joint2_id, se3(cm.joint2_placement), pin.ReferenceFrame(int(cm.reference_frame)))
        pcm.setBaumgarteCorrectorParameters(pin.BaumgarteCorrectorParameters(cm.corrector.Kp, cm.corrector.Kd))
        out.append(pcm)
    return out, [pcm.createData() for pcm in out]


def random_state(model, seed: int = 0, lift: bool = True):
    rng = np.random.default_rng(seed)
    q = rbda.random_configuration(model, rng=rng)
    return q, rng.normal(size=model.nv), rng.normal(size=model.nv)


def robot_cases():
    """``(name, model factory, constraint factory)`` for the robots of the issue."""
    def solo_feet(rf):
        return lambda m: [frame_constraint(m, CONTACT_3D, f, rf) for f in ("FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT")]

    def talos_feet(m):
        return [frame_constraint(m, CONTACT_6D, f) for f in ("left_sole_link", "right_sole_link")]

    def panda_weld(m):
        return [frame_constraint(m, CONTACT_6D, "panda_hand", LOCAL_WORLD_ALIGNED)]

    def talos_hands(kind):
        def make(m):
            jl, jr = m.get_joint_id("arm_left_7_joint"), m.get_joint_id("arm_right_7_joint")
            rng = np.random.default_rng(5)
            loop = RigidConstraintModel(kind, m, jl, rbda.SE3.Random(rng), jr, rbda.SE3.Random(rng), LOCAL)
            return [loop] + talos_feet(m)
        return make

    return [("solo12-3D-LOCAL", solo12, solo_feet(LOCAL)),
            ("solo12-3D-LWA", solo12, solo_feet(LOCAL_WORLD_ALIGNED)),
            ("talos-6D-feet", talos, talos_feet),
            ("panda-6D-weld", panda, panda_weld),
            ("talos-6D-hands-loop", talos, talos_hands(CONTACT_6D)),
            ("talos-3D-hands-loop", talos, talos_hands(CONTACT_3D))]
