"""MJCF reader: rbda models read through MuJoCo agree with MuJoCo's own dynamics (mj_inverse, mj_fullM,
mj_forward, kinematics) on random states; structure, state converters and errors."""

from pathlib import Path

import numpy as np
import pytest

import rbda
from rbda.io import ModelFileError
from rbda.io import mjcf

mujoco = pytest.importorskip("mujoco")

FILES = Path(__file__).parent / "mjcf_files"
MODEL_NAMES = sorted(p.stem for p in FILES.glob("*.xml"))


def assert_rel(actual, desired, tol=1e-9):
    scale = max(1.0, float(np.max(np.abs(desired))))
    np.testing.assert_allclose(actual, desired, rtol=0.0, atol=tol * scale)


def load(name: str, composite: bool = False):
    path = FILES / f"{name}.xml"
    mj = mujoco.MjModel.from_xml_path(str(path))
    mj.opt.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT  # no contacts, limits, frictionloss
    return mj, mjcf.build_model_from_mjcf(path, composite=composite)


def random_mj_state(mj, rng):
    """``(qpos, qvel, qacc)`` drawn in MuJoCo's own coordinates (quaternions (w, x, y, z))."""
    qpos = mj.qpos0 + rng.normal(scale=0.7, size=mj.nq)
    for j in range(mj.njnt):
        a = mj.jnt_qposadr[j]
        if mj.jnt_type[j] == mjcf.FREE:
            a += 3
        if mj.jnt_type[j] in (mjcf.FREE, mjcf.BALL):
            quat = rng.normal(size=4)
            qpos[a : a + 4] = quat / np.linalg.norm(quat)
    return qpos, rng.normal(size=mj.nv), rng.normal(size=mj.nv)


def velocity_map(mj, d) -> np.ndarray:
    """``T (nv, nv)`` with ``qvel = T v``: MuJoCo's free-joint linear velocity is the body-frame one rotated into
    the world by the body's orientation, read from MuJoCo's kinematics (``d.xmat``)."""
    T = np.eye(mj.nv)
    for j in range(mj.njnt):
        if mj.jnt_type[j] == mjcf.FREE:
            a = mj.jnt_dofadr[j]
            T[a : a + 3, a : a + 3] = d.xmat[mj.jnt_bodyid[j]].reshape(3, 3)
    return T


def full_inertia(mj, d) -> np.ndarray:
    """MuJoCo's joint-space inertia (with armature), one column per ``mj_mulM`` of a unit vector."""
    columns = np.zeros((mj.nv, mj.nv))
    for k in range(mj.nv):
        mujoco.mj_mulM(mj, d, columns[k], np.eye(mj.nv)[k])
    return columns.T


@pytest.fixture(params=MODEL_NAMES)
def pair(request):
    return load(request.param)


@pytest.fixture(params=[(name, composite) for name in MODEL_NAMES for composite in (False, True)],
                ids=lambda p: f"{p[0]}{'-composite' if p[1] else ''}")
def any_pair(request):
    """Each model read both ways: one rbda joint per MuJoCo joint, and one composite joint per body."""
    return load(*request.param)


def test_rnea_and_crba_match_mj_inverse_and_mass_matrix(any_pair):
    pair = any_pair
    mj, model = pair
    d, data, rng = mujoco.MjData(mj), model.create_data(), np.random.default_rng(0)
    for _ in range(4):
        qpos, qvel, qacc = random_mj_state(mj, rng)
        d.qpos[:], d.qvel[:], d.qacc[:] = qpos, qvel, qacc
        mujoco.mj_inverse(mj, d)  # M qacc + bias - passive (damping); constraints disabled
        q, v = mjcf.qpos_to_q(model, qpos), mjcf.qvel_to_v(model, qpos, qvel)
        a = mjcf.qacc_to_a(model, qpos, qvel, qacc)
        tau = rbda.rnea(model, data, q, v, a) + model.damping * v
        assert_rel(tau, mjcf.qfrc_to_tau(model, qpos, d.qfrc_inverse))
        T = velocity_map(mj, d)
        assert_rel(rbda.crba(model, data, q), T.T @ full_inertia(mj, d) @ T)


def test_aba_matches_mj_forward(any_pair):
    mj, model = any_pair
    d, data, rng = mujoco.MjData(mj), model.create_data(), np.random.default_rng(1)
    for _ in range(3):
        qpos, qvel, qfrc = random_mj_state(mj, rng)
        d.qpos[:], d.qvel[:], d.qfrc_applied[:] = qpos, qvel, qfrc
        mujoco.mj_forward(mj, d)
        q, v = mjcf.qpos_to_q(model, qpos), mjcf.qvel_to_v(model, qpos, qvel)
        tau = mjcf.qfrc_to_tau(model, qpos, qfrc) - model.damping * v
        assert_rel(rbda.aba(model, data, q, v, tau), mjcf.qacc_to_a(model, qpos, qvel, d.qacc), 1e-8)


def test_body_and_site_frames_match_mujoco_kinematics(any_pair):
    mj, model = any_pair
    d, data = mujoco.MjData(mj), model.create_data()
    qpos = random_mj_state(mj, np.random.default_rng(2))[0]
    d.qpos[:] = qpos
    mujoco.mj_kinematics(mj, d)
    rbda.frames_forward_kinematics(model, data, mjcf.qpos_to_q(model, qpos))
    for b in range(1, mj.nbody):
        f = model.get_frame_id(mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_BODY, b), rbda.FrameType.BODY)
        assert_rel(data.oMf[f].translation, d.xpos[b])
        assert_rel(data.oMf[f].rotation, d.xmat[b].reshape(3, 3))
    for s in range(mj.nsite):
        f = model.get_frame_id(mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_SITE, s), rbda.FrameType.OP_FRAME)
        assert_rel(data.oMf[f].translation, d.site_xpos[s])
        assert_rel(data.oMf[f].rotation, d.site_xmat[s].reshape(3, 3))


def test_structure_names_limits_and_joint_parameters(pair):
    mj, model = pair
    assert (model.nq, model.nv, model.njoints) == (mj.nq, mj.nv, mj.njnt + 1)
    assert model.names[1:] == [mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_JOINT, j) for j in range(mj.njnt)]
    assert model.idx_q[1:] == list(mj.jnt_qposadr) and model.idx_v[1:] == list(mj.jnt_dofadr)
    np.testing.assert_array_equal(model.armature, mj.dof_armature)
    np.testing.assert_array_equal(model.damping, mj.dof_damping)
    np.testing.assert_array_equal(model.friction, mj.dof_frictionloss)
    np.testing.assert_array_equal(model.gravity.linear, mj.opt.gravity)
    for j in range(mj.njnt):
        a = mj.jnt_qposadr[j]
        if mj.jnt_type[j] in (mjcf.HINGE, mjcf.SLIDE) and mj.jnt_limited[j]:
            expected = mj.jnt_range[j]
        elif mj.jnt_type[j] in (mjcf.HINGE, mjcf.SLIDE):
            expected = [-np.inf, np.inf]
        else:
            continue
        np.testing.assert_array_equal([model.lower_position_limit[a], model.upper_position_limit[a]], expected)
    assert np.isclose(sum(Y.mass for Y in model.inertias), mj.body_mass.sum())


def test_hinge_ref_angles_and_degrees():
    """``compiler angle="degree"`` and ``ref``: rbda's q is MuJoCo's qpos (the ref is in the joint placement), the
    limits are jnt_range, and at qpos0 the bodies sit where the file puts them."""
    mj, model = load("multi_joint_body")
    tilt = model.get_joint_id("tilt")
    assert np.isclose(mj.qpos0[model.idx_q[tilt]], np.deg2rad(12.0))
    np.testing.assert_allclose([model.lower_position_limit[model.idx_q[tilt]],
                                model.upper_position_limit[model.idx_q[tilt]]], np.deg2rad([-40.0, 40.0]))
    q = mjcf.qpos_to_q(model, mj.qpos0)
    np.testing.assert_array_equal(q[:6], mj.qpos0[:6])  # six hinge/slide values, then the ball's quaternion
    data = model.create_data()
    rbda.frames_forward_kinematics(model, data, q)
    carriage = data.oMf[model.get_frame_id("carriage")]
    assert_rel(carriage.translation, [0.1, 0.2, 0.3])
    expected = rbda.spatial.exp3(np.deg2rad(15.0) * np.array([0, 0, 1.0]))  # eulerseq zyx: z first
    expected = expected @ rbda.spatial.exp3(np.deg2rad(-10.0) * np.array([0, 1.0, 0]))
    expected = expected @ rbda.spatial.exp3(np.deg2rad(5.0) * np.array([1.0, 0, 0]))
    assert_rel(carriage.rotation, expected)


def test_joint_models_chosen_by_axis():
    _, model = load("branching_tree")
    kinds = {model.names[i]: type(model.joints[i]).__name__ for i in range(1, model.njoints)}
    assert kinds == {"yaw": "JointModelRZ", "left1": "JointModelRevoluteUnaligned", "left2": "JointModelPY",
                     "right1": "JointModelRX", "right_ball": "JointModelSpherical"}
    _, model = load("floating_ball_chain")
    assert type(model.joints[1]).__name__ == "JointModelFreeFlyer"


def test_equality_constraints_are_kept():
    _, model = load("humanoid_like")
    hands, hips = model.mjcf_equality
    assert (hands.type, hands.name, hands.objtype, hands.obj1, hands.obj2, hands.active) == (
        "connect", "hands", "body", "lower_arm_r", "lower_arm_l", True)
    np.testing.assert_allclose(hands.data[:3], [0.18, 0.18, 0.18])
    assert (hips.type, hips.objtype, hips.obj1, hips.obj2, hips.active) == (
        "joint", "joint", "hip_z_r", "hip_z_l", False)
    np.testing.assert_allclose(hips.data[:5], [0, -1, 0, 0, 0])


def test_string_reader_includes_and_root_joint(tmp_path):
    arm = (FILES / "two_link_arm.xml").read_text().replace('<compiler angle="radian"/>', "")
    (tmp_path / "arm.xml").write_text(arm.replace('<mujoco model="two_link_arm">', "<mujocoinclude>")
                                      .replace("</mujoco>", "</mujocoinclude>"))
    (tmp_path / "main.xml").write_text(
        '<mujoco model="main"><compiler angle="radian"/><include file="arm.xml"/></mujoco>')
    model = mjcf.build_model_from_mjcf(tmp_path / "main.xml")
    reference = mjcf.build_model_from_mjcf_string((FILES / "two_link_arm.xml").read_text())
    assert model.names == reference.names and model.name == "main" and reference.name == "two_link_arm"
    q, v, a = np.array([0.3, -0.4]), np.array([1.0, 2.0]), np.array([-0.5, 0.7])
    assert_rel(rbda.rnea(model, model.create_data(), q, v, a), rbda.rnea(reference, reference.create_data(), q, v, a))

    floating = mjcf.build_model_from_mjcf(FILES / "two_link_arm.xml", root_joint=rbda.JointModelFreeFlyer())
    assert floating.names == ["universe", "root_joint", "shoulder", "elbow"] and floating.nv == 8
    assert floating.parents == [0, 0, 1, 2]
    qf = np.r_[0, 0, 0, 0, 0, 0, 1, q]  # root joint at rest, not moving: the fixed-base dynamics
    tau = rbda.rnea(floating, floating.create_data(), qf, np.r_[np.zeros(6), v], np.r_[np.zeros(6), a])
    assert_rel(tau[6:], rbda.rnea(reference, reference.create_data(), q, v, a))
    with pytest.raises(ValueError, match="root joint"):
        mjcf.qpos_to_q(floating, qf)


def test_state_converters_round_trip_and_preserve_power():
    mj, model = load("humanoid_like")
    rng = np.random.default_rng(4)
    qpos, qvel, qacc = random_mj_state(mj, rng)
    for model_or_mj in (model, mj):
        q = mjcf.qpos_to_q(model_or_mj, qpos)
        assert rbda.is_normalized(model, q)
        np.testing.assert_allclose(mjcf.q_to_qpos(model_or_mj, q), qpos, atol=1e-15)
        v = mjcf.qvel_to_v(model_or_mj, qpos, qvel)
        np.testing.assert_allclose(mjcf.v_to_qvel(model_or_mj, q, v), qvel, atol=1e-14)
        a = mjcf.qacc_to_a(model_or_mj, qpos, qvel, qacc)
        np.testing.assert_allclose(mjcf.a_to_qacc(model_or_mj, q, v, a), qacc, atol=1e-14)
        tau = mjcf.qfrc_to_tau(model_or_mj, qpos, qacc)
        assert np.isclose(tau @ v, qacc @ qvel, rtol=1e-13)
        np.testing.assert_allclose(mjcf.tau_to_qfrc(model_or_mj, q, tau), qacc, atol=1e-14)
    # the free-flyer position integrates as MuJoCo's: v_lin = R^T d(position)/dt
    dt = 1e-7
    qpos1 = qpos.copy()
    mujoco.mj_integratePos(mj, qpos1, qvel, dt)
    q0, q1 = mjcf.qpos_to_q(model, qpos), mjcf.qpos_to_q(model, qpos1)
    assert_rel(rbda.difference(model, q0, q1) / dt, mjcf.qvel_to_v(model, qpos, qvel), 1e-6)


def test_converter_input_errors():
    mj, model = load("two_link_arm")
    with pytest.raises(ValueError, match="qpos"):
        mjcf.qpos_to_q(model, np.zeros(3))
    with pytest.raises(ValueError, match="qvel"):
        mjcf.qvel_to_v(model, np.zeros(2), [np.nan, 0.0])
    with pytest.raises(ValueError, match="model_or_mj"):
        mjcf.qpos_to_q(rbda.sample_models.manipulator(), np.zeros(6))
    with pytest.raises(TypeError, match="model_or_mj"):
        mjcf.qpos_to_q("arm", np.zeros(2))


# ------------------------------------------------------------------------------------------------- bad files
BAD = {
    "broken_xml": ("<mujoco><worldbody><body></worldbody></mujoco>", None),
    "unknown_joint_type": ('<mujoco><worldbody><body name="b"><joint type="twist"/><geom size="1"/></body>'
                           "</worldbody></mujoco>", "twist"),
    "negative_mass": ('<mujoco><worldbody><body name="b"><joint/><geom size="1" mass="-1"/></body></worldbody>'
                      "</mujoco>", None),
    "missing_include": ('<mujoco><include file="does_not_exist.xml"/></mujoco>', "does_not_exist"),
    "missing_mesh": ('<mujoco><asset><mesh name="m" file="no_such_mesh.stl"/></asset><worldbody><body><joint/>'
                     '<geom type="mesh" mesh="m"/></body></worldbody></mujoco>', "no_such_mesh"),
    "nan_armature": ('<mujoco><worldbody><body><joint name="j" armature="nan"/><geom size="1"/></body></worldbody>'
                     "</mujoco>", "joint 'j'"),
    "overflowing_inertia": ('<mujoco><worldbody><body name="b"><joint/><geom size="1" mass="1e300" pos="1e200 0 0"/>'
                            "</body></worldbody></mujoco>", None),
    "free_not_top_level": ('<mujoco><worldbody><body><joint/><geom size="1"/><body name="inner"><freejoint/>'
                           '<geom size="1"/></body></body></worldbody></mujoco>', "free joint"),
}


@pytest.mark.filterwarnings("ignore:.*MuJoCo")
@pytest.mark.parametrize("case", sorted(BAD))
def test_malformed_files_raise_model_file_error(tmp_path, case):
    text, needle = BAD[case]
    path = tmp_path / f"{case}.xml"
    path.write_text(text)
    with pytest.raises(ModelFileError) as info:
        mjcf.build_model_from_mjcf(path)
    assert info.value.file == str(path) and str(path) in str(info.value)
    assert info.value.reason and (needle is None or needle in str(info.value))
    with pytest.raises(ModelFileError, match="<string>"):
        mjcf.build_model_from_mjcf_string(text)


def test_missing_file_and_bad_arguments(tmp_path):
    with pytest.raises(ModelFileError, match="no such file"):
        mjcf.build_model_from_mjcf(tmp_path / "nothing.xml")
    with pytest.raises(TypeError, match="path"):
        mjcf.build_model_from_mjcf(3)
    with pytest.raises(TypeError, match="text"):
        mjcf.build_model_from_mjcf_string(b"<mujoco/>")
    with pytest.raises(TypeError, match="mj"):
        mjcf.build_model_from_mjmodel("model")


def test_mujoco_warnings_become_python_warnings(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # where MuJoCo would write MUJOCO_LOG.TXT
    path = tmp_path / "nan.xml"
    path.write_text(BAD["nan_armature"][0])
    with pytest.warns(RuntimeWarning, match="nan.xml: MuJoCo: .*NaN"), pytest.raises(ModelFileError):
        mjcf.build_model_from_mjcf(path)
    assert not (tmp_path / "MUJOCO_LOG.TXT").exists()


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize("name", MODEL_NAMES)
def test_composite_mode_matches_pinocchio_mjcf_reader(name):
    """``composite=True`` gives Pinocchio's joints and frames; the dynamics agree once Pinocchio is given the
    file's gravity (its MJCF reader keeps the default). Known Pinocchio 4.1 differences, where rbda follows
    MuJoCo (checked above): position limits shifted by ``ref``, a site on a welded body ignores the parent joint's
    anchor, a free joint's placement."""
    pin = pytest.importorskip("pinocchio")
    model = mjcf.build_model_from_mjcf(FILES / f"{name}.xml", composite=True)
    theirs = pin.buildModelFromMJCF(str(FILES / f"{name}.xml"))
    theirs.gravity = pin.Motion(model.gravity.vector.copy())
    assert model.names == list(theirs.names) and (model.nq, model.nv) == (theirs.nq, theirs.nv)
    assert [(f.name, f.parent_joint, int(f.type)) for f in model.frames] == [
        (f.name, f.parentJoint, int(f.type)) for f in theirs.frames]
    data, pdata, rng = model.create_data(), theirs.createData(), np.random.default_rng(5)
    for _ in range(3):
        q, v, a = rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
        assert_rel(rbda.rnea(model, data, q, v, a), pin.rnea(theirs, pdata, q, v, a))
        assert_rel(rbda.crba(model, data, q), pin.crba(theirs, pdata, q))
