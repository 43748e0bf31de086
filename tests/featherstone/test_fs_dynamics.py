"""rbda.featherstone dynamics (ID, FDab, FDcrb, HandC, HD, FDgq, EnerMo, jcalc) against a textbook recursive
Newton-Euler written here in spatial_v2's conventions (RBDA Table 5.1), against the core algorithms, and against
each other's identities, on autoTree models (branching, skew, taper varied), planar and floating models."""

import numpy as np
import pytest

import rbda
import rbda.featherstone as fs
from conftest import close

TREES = [(1, 1.0, 0.0, 1.0), (5, 1.0, 0.3, 0.9), (7, 2.0, 0.7, 1.1), (9, 1.5, -0.4, 0.95), (6, 3.0, 1.2, 1.0)]


def _models():
    models = {f"autoTree{args}": fs.autoTree(*args) for args in TREES}
    models["planar(4)"] = fs.planar(4)
    models["doubleElbow"] = fs.doubleElbow()
    models["floatbase(autoTree(4, 2, 0.5))"] = fs.floatbase(fs.autoTree(4, 2.0, 0.5))
    helical = fs.autoTree(4, 1.0, 0.6)
    helical.jtype = ["Rx", {"code": "H", "pars": {"pitch": 0.3}}, "Py", "P"]
    models["mixed joints"] = helical
    for name, m in models.items():
        m.gravity = [0.3, -1.2] if m.planar else np.array([0.4, -0.7, -9.81])
    return models


MODELS = _models()


@pytest.fixture(params=list(MODELS), ids=list(MODELS))
def model(request):
    return MODELS[request.param]


def _state(model, seed=0, k=3):
    rng = np.random.default_rng(seed)
    return rng.uniform(-1.0, 1.0, (k, model.NB))


def _forces(model, seed=1):
    rng = np.random.default_rng(seed)
    n = 3 if model.planar else 6
    return [rng.standard_normal(n) if i % 2 == 0 else None for i in range(model.NB)]


# ---------------------------------------------------------------------------------------------- reference
def _a_grav(model):
    g = fs.model.gravity_of(model)
    return np.array([0.0, g[0], g[1]]) if model.planar else np.concatenate([np.zeros(3), g])


def reference_kinematics(model, q, qd, qdd=None):
    """Textbook forward pass: ``Xup``, ``S``, ``v``, ``a`` (gravity as base acceleration), ``Xa`` (base to i)."""
    Xup, S, v, a, Xa = [], [], [], [], []
    qdd = np.zeros(model.NB) if qdd is None else qdd
    for i in range(model.NB):
        XJ, Si = fs.jcalc(model.jtype[i], q[i])
        X = XJ @ model.Xtree[i]
        vJ = Si * qd[i]
        p = model.parent[i] - 1
        if p < 0:
            vi, ai, Xai = vJ, X @ -_a_grav(model) + Si * qdd[i], X
        else:
            vi = X @ v[p] + vJ
            ai = X @ a[p] + Si * qdd[i] + fs.crm(vi) @ vJ
            Xai = X @ Xa[p]
        Xup.append(X), S.append(Si), v.append(vi), a.append(ai), Xa.append(Xai)
    return Xup, S, v, a, Xa


def reference_ID(model, q, qd, qdd, f_ext=None):
    """RBDA Table 5.1, with ``f_ext`` in base coordinates moved to body i by ``Xa^-T``."""
    Xup, S, v, a, Xa = reference_kinematics(model, q, qd, qdd)
    f = [model.I[i] @ a[i] + fs.crf(v[i]) @ model.I[i] @ v[i] for i in range(model.NB)]
    for i, fe in enumerate(f_ext or []):
        if fe is not None:
            f[i] = f[i] - np.linalg.solve(Xa[i].T, fe)
    tau = np.zeros(model.NB)
    for i in reversed(range(model.NB)):
        tau[i] = S[i] @ f[i]
        if model.parent[i] > 0:
            f[model.parent[i] - 1] += Xup[i].T @ f[i]
    return tau


def reference_H(model, q):
    """Column j of H is ``ID(q, 0, e_j) - ID(q, 0, 0)``."""
    zero = np.zeros(model.NB)
    bias = reference_ID(model, q, zero, zero)
    return np.column_stack([reference_ID(model, q, zero, e) - bias for e in np.eye(model.NB)])


# ---------------------------------------------------------------------------------------------- dynamics
def test_id_matches_textbook_rnea(model):
    q, qd, qdd = _state(model)
    assert close(fs.ID(model, q, qd, qdd), reference_ID(model, q, qd, qdd), atol=1e-10)
    f_ext = _forces(model)
    assert close(fs.ID(model, q, qd, qdd, f_ext), reference_ID(model, q, qd, qdd, f_ext), atol=1e-10)


def test_handc_against_textbook_and_id(model):
    q, qd, qdd = _state(model, seed=2)
    f_ext = _forces(model, seed=3)
    H, C = fs.HandC(model, q, qd, f_ext)
    assert close(H, reference_H(model, q), atol=1e-10)
    assert close(H, H.T)
    assert close(H @ qdd + C, fs.ID(model, q, qd, qdd, f_ext), atol=1e-10)
    assert close(C, fs.ID(model, q, qd, np.zeros(model.NB), f_ext), atol=1e-12)


def test_fdab_fdcrb_invert_id(model):
    q, qd, qdd = _state(model, seed=4)
    f_ext = _forces(model, seed=5)
    tau = reference_ID(model, q, qd, qdd, f_ext)
    assert close(fs.FDab(model, q, qd, tau, f_ext), qdd, atol=1e-8)
    assert close(fs.FDcrb(model, q, qd, tau, f_ext), qdd, atol=1e-8)
    assert close(fs.FDab(model, q, qd, tau, []), fs.FDcrb(model, q, qd, tau, {}), atol=1e-8)


def test_hd_mixed_flags(model):
    q, qd, qdd = _state(model, seed=6)
    f_ext = _forces(model, seed=7)
    tau = reference_ID(model, q, qd, qdd, f_ext)
    rng = np.random.default_rng(8)
    for _ in range(3):
        fd = rng.random(model.NB) < 0.5
        garbage_qdd = np.where(fd, 1e3, qdd)  # ignored where fd
        garbage_tau = np.where(fd, tau, -1e3)  # ignored where not fd
        qdd_out, tau_out = fs.HD(model, fd, q, qd, garbage_qdd, garbage_tau, f_ext)
        assert close(qdd_out, qdd, atol=1e-8)
        assert close(tau_out, tau, atol=1e-8)
        assert np.array_equal(qdd_out[~fd], qdd[~fd]) and np.array_equal(tau_out[fd], tau[fd])


def test_f_ext_is_minus_jacobian_transpose(model):
    """tau(f_ext) - tau(0) = -sum_i J_i^T f_i, J_i the body's Jacobian in base coordinates from the core."""
    q, qd, qdd = _state(model, seed=9)
    f_ext = _forces(model, seed=10)
    core = fs.to_rbda(model)
    data = core.create_data()
    rbda.compute_joint_jacobians(core, data, q)
    expected = np.zeros(model.NB)
    for i, f in enumerate(f_ext):
        if f is None:
            continue
        J = rbda.get_joint_jacobian(core, data, i + 1, rbda.WORLD)  # linear-first, base origin
        J = np.vstack([J[5:6], J[0:2]]) if model.planar else np.vstack([J[3:], J[:3]])
        expected -= J.T @ f
    delta = fs.ID(model, q, qd, qdd, f_ext) - fs.ID(model, q, qd, qdd)
    assert close(delta, expected, atol=1e-10)


def test_enermo_against_textbook_sums(model):
    q, qd = _state(model, seed=11, k=2)
    H, _ = fs.HandC(model, q, qd)
    _, _, v, _, Xa = reference_kinematics(model, q, qd)
    htot = sum(Xa[i].T @ model.I[i] @ v[i] for i in range(model.NB))
    Itot = sum(Xa[i].T @ model.I[i] @ Xa[i] for i in range(model.NB))
    mass, cm, _ = fs.mcI(Itot)
    em = fs.EnerMo(model, q, qd)
    assert em.KE == pytest.approx(0.5 * qd @ H @ qd, rel=1e-12)
    assert em.KE == pytest.approx(0.5 * sum(v[i] @ model.I[i] @ v[i] for i in range(model.NB)), rel=1e-12)
    assert close(em.htot, htot, atol=1e-10) and close(em.Itot, Itot, atol=1e-10)
    assert em.mass == pytest.approx(mass) and close(em.cm, cm)
    assert em.PE == pytest.approx(-mass * cm @ np.asarray(model.gravity)[: cm.size])
    linear = htot[1:] if model.planar else htot[3:]
    assert close(em.vcm, linear / mass)


def test_enermo_momentum_matches_core_centroidal_momentum():
    model = fs.autoTree(6, 1.5, 0.4, 0.9)
    q, qd = _state(model, seed=12, k=2)
    core = fs.to_rbda(model)
    data = core.create_data()
    hg = rbda.compute_centroidal_momentum(core, data, q, qd)  # [p; L_G] at the centre of mass
    em = fs.EnerMo(model, q, qd)
    assert close(em.htot[3:], hg[:3])
    assert close(em.htot[:3] - np.cross(em.cm, em.htot[3:]), hg[3:])


# ---------------------------------------------------------------------------------------------- FDgq
def test_fdgq_on_the_constraint_manifold():
    model = fs.doubleElbow()
    rng = np.random.default_rng(13)
    y, yd, tau = rng.standard_normal(2), rng.standard_normal(2), rng.standard_normal(3)
    G = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    q, qd = G @ y, G @ yd
    qdd = fs.FDgq(model, q, qd, tau)
    assert qdd[1] == pytest.approx(qdd[2])
    H, C = fs.HandC(model, q, qd)
    # the constraint force H qdd + C - tau does no work on any motion allowed by the constraint
    assert close(G.T @ (H @ qdd + C - tau), 0.0, atol=1e-10)


def test_fdgq_stabilises_a_violation():
    model = fs.doubleElbow()
    T = fs.constructors.DOUBLE_ELBOW_TSTAB
    q, qd = np.array([0.2, 0.3, 0.35]), np.array([0.1, -0.2, -0.1])
    qdd = fs.FDgq(model, q, qd, np.zeros(3))
    e, ed = q[2] - q[1], qd[2] - qd[1]
    assert qdd[2] - qdd[1] == pytest.approx(-2 / T * ed - e / T**2)


# ---------------------------------------------------------------------------------------------- jcalc
@pytest.mark.parametrize("jtyp", ["Rx", "Ry", "Rz", "R", "Px", "Py", "Pz", "P", {"code": "H", "pars": {"pitch": 0.2}}])
def test_jcalc_matches_core_joints(jtyp):
    joint = fs.model.core_joint(jtyp)
    for q in (0.0, 0.7, -2.1):
        Xj, S = fs.jcalc(jtyp, q)
        M, S_core, _, _ = joint.calc(np.array([q]), np.array([1.0]))
        assert close(Xj, fs.se3_to_X(M))
        assert close(S, np.concatenate([S_core[3:, 0], S_core[:3, 0]]))


def test_jcalc_planar():
    X, S = fs.jcalc("r", 0.4)
    assert close(X, fs.plnr(0.4, [0, 0])) and close(S, [1, 0, 0])
    X, S = fs.jcalc("px", 0.4)
    assert close(X, fs.plnr(0.0, [0.4, 0])) and close(S, [0, 1, 0])
    X, S = fs.jcalc("py", -0.3)
    assert close(X, fs.plnr(0.0, [0, -0.3])) and close(S, [0, 0, 1])


# ---------------------------------------------------------------------------------------------- conversion
def test_core_twin_matches_core_algorithms(model):
    q, qd, qdd = _state(model, seed=14)
    core = fs.to_rbda(model)
    data = core.create_data()
    assert close(rbda.crba(core, data, q), reference_H(model, q), atol=1e-10)
    assert close(rbda.rnea(core, data, q, qd, qdd), reference_ID(model, q, qd, qdd), atol=1e-10)


def test_from_rbda_round_trip(model):
    if model.planar:
        pytest.skip("from_rbda makes spatial models")
    q, qd, qdd = _state(model, seed=15)
    back = fs.from_rbda(fs.to_rbda(model))
    assert back.parent == model.parent
    assert close(fs.ID(back, q, qd, qdd), fs.ID(model, q, qd, qdd), atol=1e-10)


def test_from_rbda_unaligned_axes():
    """Unaligned revolute/prismatic and helical joints become z-axis joints in rotated body frames."""
    rng = np.random.default_rng(16)
    joints = [rbda.JointModelRevoluteUnaligned([0.3, -0.5, 0.8]), rbda.JointModelPrismaticUnaligned([1.0, 2.0, -0.5]),
              rbda.JointModelHX(0.25), rbda.JointModelRZ(), rbda.JointModelRevoluteUnaligned([0.0, 0.0, -1.0])]
    core = rbda.sample_models.random_tree(joints, rng)
    model = fs.from_rbda(core)
    q, qd, qdd = rng.standard_normal((3, core.nq))
    data = core.create_data()
    assert close(fs.ID(model, q, qd, qdd), rbda.rnea(core, data, q, qd, qdd), atol=1e-10)
    assert close(reference_H(model, q), rbda.crba(core, data, q), atol=1e-10)


def test_cache_sees_edits():
    model = fs.autoTree(3)
    q = np.array([0.1, 0.2, 0.3])
    tau0 = fs.ID(model, q, q, q)
    model.I[2] = 2 * model.I[2]
    assert not close(fs.ID(model, q, q, q), tau0)
    assert close(fs.ID(model, q, q, q), reference_ID(model, q, q, q))


# ---------------------------------------------------------------------------------------------- errors
def test_wrong_inputs_name_the_argument():
    model = fs.autoTree(3)
    z = np.zeros(3)
    with pytest.raises(ValueError, match="qd"):
        fs.ID(model, z, np.zeros(4), z)
    with pytest.raises(ValueError, match="tau"):
        fs.FDab(model, z, z, np.zeros(2))
    with pytest.raises(ValueError, match="f_ext"):
        fs.FDab(model, z, z, z, [np.ones(6)])
    with pytest.raises(ValueError, match=r"f_ext\[0\]"):
        fs.ID(model, z, z, z, [np.ones(3), None, None])
    with pytest.raises(ValueError, match="fd"):
        fs.HD(model, [True, False], z, z, z, z)
    with pytest.raises(ValueError, match="gamma_q"):
        fs.FDgq(model, z, z, z)
    with pytest.raises(ValueError, match="jtyp"):
        fs.jcalc("Q", 0.0)
    with pytest.raises(ValueError, match="pitch"):
        fs.jcalc({"code": "H"}, 0.0)
    bad = fs.autoTree(3)
    bad.jtype[1] = "Rw"
    with pytest.raises(ValueError, match=r"model.jtype\[1\]"):
        fs.ID(bad, z, z, z)
    bad = fs.autoTree(3)
    bad.Xtree.pop()
    with pytest.raises(ValueError, match="model.Xtree"):
        fs.ID(bad, z, z, z)
    bad = fs.autoTree(3)
    bad.parent[1] = 3
    with pytest.raises(ValueError, match="model.parent"):
        fs.HandC(bad, z, z)
    bad = fs.autoTree(3)
    bad.jtype[2] = "r"
    with pytest.raises(ValueError, match="mixes planar"):
        fs.to_rbda(bad)
    bad = fs.autoTree(3)
    bad.Xtree[1] = 2 * np.eye(6)
    with pytest.raises(ValueError, match=r"model.Xtree\[1\]"):
        fs.to_rbda(bad)
    with pytest.raises(ValueError, match="rbda_model.joints"):
        fs.from_rbda(rbda.sample_models.random_tree([rbda.JointModelSpherical()], np.random.default_rng(0)))
