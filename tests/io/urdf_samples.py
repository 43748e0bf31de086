"""Helpers shared by the URDF/SRDF tests: sample URDF text, example-robot-data's files, and comparisons of an
rbda model with a Pinocchio model (structure, limits and dynamics on random states)."""

import importlib.metadata
from pathlib import Path

import numpy as np
import pytest

import rbda

# every URDF joint type, fixed joints inside the tree, unaligned and negative axes, inertial origins with rpy,
# a massless link with rotational inertia, limits, dynamics and a mimic joint
EVERY_JOINT_URDF = """<?xml version="1.0"?>
<robot name="every_joint">
  <link name="base">
    <inertial><origin xyz="0.1 0.2 0.3" rpy="0.1 0.2 0.3"/><mass value="1.5"/>
      <inertia ixx="0.1" ixy="0.01" ixz="0" iyy="0.2" iyz="0" izz="0.15"/></inertial>
  </link>
  <link name="a"><inertial><mass value="2"/><inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial></link>
  <link name="b"><inertial><origin xyz="0 0 0.2"/><mass value="1"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.01"/></inertial></link>
  <link name="c"><inertial><origin xyz="0.05 0 0" rpy="0 0.5 0"/><mass value="3"/><inertia ixx="0.3" ixy="0" ixz="0.01" iyy="0.3" iyz="0" izz="0.2"/></inertial></link>
  <link name="d"><inertial><mass value="1"/><inertia ixx="0.05" ixy="0" ixz="0" iyy="0.05" iyz="0" izz="0.05"/></inertial></link>
  <link name="e"><inertial><mass value="0.8"/><inertia ixx="0.04" ixy="0" ixz="0" iyy="0.03" iyz="0" izz="0.02"/></inertial></link>
  <link name="f"><inertial><origin xyz="0 0.1 0"/><mass value="0.5"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="g"><inertial><origin xyz="0 0 0.01"/><mass value="0"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.001"/></inertial></link>
  <link name="h"><inertial><mass value="0.3"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  <link name="tip"><inertial><mass value="0.1"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.001" iyz="0" izz="0.001"/></inertial></link>
  <joint name="j_cont" type="continuous"><parent link="base"/><child link="b"/><axis xyz="0 0 1"/>
    <limit effort="5" velocity="6"/><dynamics damping="0.5" friction="0.25"/></joint>
  <joint name="j_rev" type="revolute"><parent link="base"/><child link="a"/><origin xyz="0 0 0.5" rpy="0.3 0 0"/>
    <axis xyz="0 0 -1"/><limit lower="-1" upper="1.5" effort="10" velocity="2"/></joint>
  <joint name="j_fix" type="fixed"><parent link="a"/><child link="c"/><origin xyz="1 2 3" rpy="0.3 0.2 0.1"/></joint>
  <joint name="j_planar" type="planar"><parent link="c"/><child link="d"/><origin xyz="0.1 0 0.2" rpy="0 0 0.4"/></joint>
  <joint name="j_float" type="floating"><parent link="d"/><child link="e"/><origin xyz="0 0 0.3"/></joint>
  <joint name="j_pris" type="prismatic"><parent link="e"/><child link="f"/><axis xyz="0 2 1"/>
    <limit lower="-0.2" upper="0.3" effort="100" velocity="1"/><mimic joint="j_rev" multiplier="2" offset="0.1"/></joint>
  <joint name="j_fix2" type="fixed"><parent link="f"/><child link="g"/><origin xyz="0 0 0.1"/></joint>
  <joint name="j_cont_unaligned" type="continuous"><parent link="g"/><child link="h"/><axis xyz="1 1 0"/></joint>
  <joint name="j_rev_y" type="revolute"><parent link="h"/><child link="tip"/><axis xyz="0 1 0"/>
    <limit effort="1" velocity="1"/></joint>
</robot>
"""

# Pinocchio writes "no limit" as the largest double for a root joint
BIG = np.finfo(float).max


def robots_dir() -> Path:
    """``.../share/example-robot-data/robots`` of the installed example-robot-data (skips if it is missing)."""
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("example-robot-data is not installed: pip install 'rbda[test]'")
    return Path(dist.locate_file("cmeel.prefix/share/example-robot-data/robots"))


def share_dir() -> Path:
    """The directory that holds the ``example-robot-data`` package (what ``package://example-robot-data/...`` needs)."""
    return robots_dir().parent.parent


def without_max(x) -> np.ndarray:
    x = np.asarray(x, dtype=float)
    return np.where(np.abs(x) >= BIG, np.copysign(np.inf, x), x)


def assert_same_structure(model, pm) -> None:
    """Joints (names, types, parents, sizes), frames (names, types, parents, placements, inertias), inertias,
    placements, limits, damping and friction of ``model`` equal those of the Pinocchio model ``pm``."""
    assert model.names == list(pm.names)
    assert (model.nq, model.nv, model.njoints) == (pm.nq, pm.nv, pm.njoints)
    assert [j.shortname() for j in model.joints[1:]] == [pm.joints[i].shortname() for i in range(1, pm.njoints)]
    assert model.parents == list(pm.parents)
    for i in range(pm.njoints):
        np.testing.assert_allclose(model.joint_placements[i].homogeneous, pm.jointPlacements[i].homogeneous, atol=1e-12)
        np.testing.assert_allclose(model.inertias[i].matrix(), pm.inertias[i].matrix(), atol=1e-12)
    assert [(f.name, int(f.type), f.parent_joint, f.parent_frame) for f in model.frames] == [
        (f.name, int(f.type), f.parentJoint, f.parentFrame) for f in pm.frames]
    for f, pf in zip(model.frames, pm.frames):
        np.testing.assert_allclose(f.placement.homogeneous, pf.placement.homogeneous, atol=1e-12, err_msg=f.name)
        np.testing.assert_allclose(f.inertia.matrix(), pf.inertia.matrix(), atol=1e-12, err_msg=f.name)
    for ours, theirs in ((model.lower_position_limit, pm.lowerPositionLimit),
                         (model.upper_position_limit, pm.upperPositionLimit),
                         (model.velocity_limit, pm.velocityLimit), (model.effort_limit, pm.effortLimit),
                         (model.damping, pm.damping), (model.friction, pm.friction)):
        np.testing.assert_array_equal(ours, without_max(theirs))


def relative_error(actual, desired) -> float:
    actual, desired = np.asarray(actual), np.asarray(desired)
    return float(np.max(np.abs(actual - desired)) / max(1.0, np.max(np.abs(desired)))) if desired.size else 0.0


def dynamics_errors(model, pm, pin, nstates: int = 2, seed: int = 0) -> dict:
    """Largest relative differences of rnea, crba, aba and compute_joint_jacobians between rbda and Pinocchio
    on ``nstates`` random states. ABA is compared on the accelerations where M is well conditioned
    (cond < 1e6), on the forces ``M ddq`` where it is ill conditioned, and not where M is singular."""
    data, pdata = model.create_data(), pm.createData()
    rng = np.random.default_rng(seed)
    errors = dict(rnea=0.0, crba=0.0, aba=0.0, jacobians=0.0)
    for _ in range(nstates if model.nv else 0):
        q = rbda.random_configuration(model, rng=rng)
        v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
        tau = rbda.rnea(model, data, q, v, a).copy()
        errors["rnea"] = max(errors["rnea"], relative_error(tau, pin.rnea(pm, pdata, q, v, a)))
        M = rbda.crba(model, data, q).copy()
        pM = pin.crba(pm, pdata, q)
        pM = np.triu(pM) + np.triu(pM, 1).T
        errors["crba"] = max(errors["crba"], relative_error(M, pM))
        J = rbda.compute_joint_jacobians(model, data, q)
        errors["jacobians"] = max(errors["jacobians"], relative_error(J, pin.computeJointJacobians(pm, pdata, q)))
        cond = np.linalg.cond(pM)
        if cond < 1e12:
            ddq, pddq = rbda.aba(model, data, q, v, tau), pin.aba(pm, pdata, q, v, tau)
            err = relative_error(ddq, pddq) if cond < 1e6 else relative_error(pM @ ddq, pM @ pddq)
            errors["aba"] = max(errors["aba"], err)
    return errors
