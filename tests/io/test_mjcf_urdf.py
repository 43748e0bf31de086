"""URDFs of example-robot-data compiled by MuJoCo and read through rbda's MJCF reader agree with MuJoCo
(mj_inverse, mass matrix) and with Pinocchio's own URDF reader (same joints, limits, rnea and crba)."""

import importlib.metadata
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import rbda
from rbda.io import mjcf

mujoco = pytest.importorskip("mujoco")
pin = pytest.importorskip("pinocchio")

ROBOTS = ["ur_description/urdf/ur5_robot.urdf", "panda_description/urdf/panda.urdf",
          "talos_data/robots/talos_reduced.urdf", "solo_description/robots/solo12.urdf",
          "baxter_description/urdf/baxter.urdf"]


def robots_dir():
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("example-robot-data is not installed")
    return dist.locate_file("cmeel.prefix/share/example-robot-data/robots")


def without_geometry(path) -> str:
    """The URDF without visual/collision elements (their meshes are ``package://`` paths MuJoCo cannot open)."""
    root = ET.parse(path).getroot()
    for link in root.iter("link"):
        for tag in ("visual", "collision"):
            for element in link.findall(tag):
                link.remove(element)
    return ET.tostring(root, encoding="unicode")


def assert_rel(actual, desired, tol=1e-9):
    scale = max(1.0, float(np.max(np.abs(desired))))
    np.testing.assert_allclose(actual, desired, rtol=0.0, atol=tol * scale)


@pytest.fixture(params=ROBOTS, ids=lambda r: r.rsplit("/", 1)[-1])
def robot(request):
    path = robots_dir() / request.param
    if not path.exists():
        pytest.skip(f"{request.param} is not in this example-robot-data")
    mj = mujoco.MjModel.from_xml_string(without_geometry(path))
    mj.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    return path, mj


def test_urdf_through_mujoco_matches_pinocchio_urdf_reader(robot):
    path, mj = robot
    model = mjcf.build_model_from_mjmodel(mj)
    pm = pin.buildModelFromUrdf(str(path))
    assert (model.nq, model.nv) == (pm.nq, pm.nv) and sorted(model.names) == sorted(pm.names)
    # MuJoCo orders the bodies its own way: match joints by name (all of these robots have 1-dof joints)
    iq = np.array([pm.idx_qs[pm.getJointId(n)] for n in model.names[1:]])
    iv = np.array([pm.idx_vs[pm.getJointId(n)] for n in model.names[1:]])
    finite = np.isfinite(model.lower_position_limit)
    np.testing.assert_allclose(model.lower_position_limit[finite], pm.lowerPositionLimit[iq][finite], atol=1e-12)
    np.testing.assert_allclose(model.upper_position_limit[finite], pm.upperPositionLimit[iq][finite], atol=1e-12)
    np.testing.assert_array_equal(model.damping, pm.damping[iv])
    data, pdata, rng = model.create_data(), pm.createData(), np.random.default_rng(0)
    for _ in range(3):
        q, v, a = rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
        qp, vp, ap = np.empty(pm.nq), np.empty(pm.nv), np.empty(pm.nv)
        qp[iq], vp[iv], ap[iv] = q, v, a
        assert_rel(rbda.rnea(model, data, q, v, a), pin.rnea(pm, pdata, qp, vp, ap)[iv])
        assert_rel(rbda.crba(model, data, q), pin.crba(pm, pdata, qp)[np.ix_(iv, iv)], 1e-9)


def test_urdf_through_mujoco_matches_mj_inverse(robot):
    _, mj = robot
    model = mjcf.build_model_from_mjmodel(mj)
    d, data, rng = mujoco.MjData(mj), model.create_data(), np.random.default_rng(1)
    d.qpos[:], d.qvel[:], d.qacc[:] = rng.uniform(-1, 1, mj.nq), rng.normal(size=mj.nv), rng.normal(size=mj.nv)
    mujoco.mj_inverse(mj, d)
    q = mjcf.qpos_to_q(model, d.qpos)
    tau = rbda.rnea(model, data, q, d.qvel, d.qacc) + model.damping * d.qvel
    assert_rel(tau, d.qfrc_inverse)
