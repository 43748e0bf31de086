"""MJCF ``connect``/``weld`` equalities as rigid constraints: the anchors' separation against MuJoCo's constraint
positions, the welds' relative placement, and a closed chain solved by constrained dynamics."""

import warnings

import numpy as np
import pytest

import rbda
from rbda import CONTACT_3D, CONTACT_6D, LOCAL_WORLD_ALIGNED

mujoco = pytest.importorskip("mujoco")

LOOP = """
<mujoco>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="ja" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      <body name="b" pos="0.5 0 0">
        <joint name="jb" type="hinge" axis="0 1 0"/>
        <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05"/>
      </body>
    </body>
    <body name="c" pos="1 0 1">
      <joint name="jc" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 -0.5 0 -0.5" size="0.05"/>
    </body>
  </worldbody>
  <equality>
    <connect name="loop" body1="b" body2="c" anchor="0 0 -0.5"/>
    <weld name="w" body1="a" body2="c" relpose="0.5 0 0 1 0 0 0"/>
    <weld name="w2" body1="b" body2="world"/>
    <joint name="coupling" joint1="ja" joint2="jc"/>
  </equality>
</mujoco>
"""


def load():
    model = rbda.load_model_from_string(LOOP)
    with pytest.warns(UserWarning, match="coupling"):
        cms = rbda.io.constraints_from_mjcf(model, LOCAL_WORLD_ALIGNED)
    return model, cms


def solve(model, cms, q, v=None, tau=None):
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    v = np.zeros(model.nv) if v is None else v
    tau = np.zeros(model.nv) if tau is None else tau
    ddq = rbda.constraint_dynamics(model, data, q, v, tau, cms, cds, rbda.ProximalSettings(1e-12, 1e-9, 200))
    return data, cds, ddq


def test_kinds_names_and_reference_placement():
    model, cms = load()
    assert [(cm.name, cm.type) for cm in cms] == [("loop", CONTACT_3D), ("w", CONTACT_6D), ("w2", CONTACT_6D)]
    assert cms[2].joint2_id == 0 and cms[0].joint2_id == model.get_joint_id("jc")
    _, cds, _ = solve(model, cms, np.zeros(model.nq))  # qpos0: hinges at 0
    assert np.allclose(cds[0].contact_placement_error, 0.0, atol=1e-12)  # the connect closes at qpos0
    assert np.allclose(cds[2].contact_placement_error, 0.0, atol=1e-12)  # relpose computed at qpos0
    # 'w' asks for c at 0.5 m from a along x; c stands at 1 m: the weld's error is that 0.5 m
    assert np.linalg.norm(cds[1].contact_placement_error[:3]) == pytest.approx(0.5, abs=1e-12)


def test_connect_separation_against_mujoco():
    model, cms = load()
    mj = mujoco.MjModel.from_xml_string(LOOP)
    mj.eq_active0[1:] = 0  # only the connect: MuJoCo's rows are then its 3 position errors
    md = mujoco.MjData(mj)
    rng = np.random.default_rng(0)
    for _ in range(3):
        md.qpos[:] = rng.uniform(-1.0, 1.0, mj.nq)  # hinges: q = qpos
        mujoco.mj_forward(mj, md)
        _, cds, _ = solve(model, cms[:1], md.qpos.copy())
        assert np.allclose(cds[0].contact_placement_error[:3], md.efc_pos[:3], atol=1e-10)


def test_closed_chain_dynamics():
    model, cms = load()
    q, v = np.zeros(model.nq), np.array([0.3, -0.2, 0.1])
    data, cds, ddq = solve(model, cms[:1], q, v)
    J = cds[0].jacobian
    assert np.allclose(J @ ddq + cds[0].contact_acceleration_drift, 0.0, atol=1e-12)
    d = model.create_data()
    residual = rbda.crba(model, d, q) @ ddq + rbda.nonlinear_effects(model, d, q, v) - J.T @ data.lambda_c
    assert np.allclose(residual, 0.0, atol=1e-10)


def test_not_an_mjcf_model():
    with pytest.raises(ValueError, match="MJCF"):
        rbda.io.constraints_from_mjcf(rbda.sample_models.manipulator())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rbda.io.constraints_from_mjcf(rbda.load_model_from_string(LOOP.replace(
            '<joint name="coupling" joint1="ja" joint2="jc"/>', ""))) != []
