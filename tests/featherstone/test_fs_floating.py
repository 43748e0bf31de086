"""rbda.featherstone floating-base functions: FDfb and IDfb against FDab/HD on the emulating joint chain (through
fbkin), fbkin against the core's kinematics of that chain, its six call forms and round trips, and fbanim."""

import numpy as np
import pytest

import rbda
import rbda.featherstone as fs
from conftest import close

MODELS = {
    "singlebody": fs.singlebody(),
    "floatbase(autoTree(5, 2, 0.6, 0.9))": fs.floatbase(fs.autoTree(5, 2.0, 0.6, 0.9)),
    "floatbase(autoTree(4, 1, 0.3))": fs.floatbase(fs.autoTree(4, 1.0, 0.3)),
    "scissor": fs.scissor(),
}
MODELS["floatbase(autoTree(4, 1, 0.3))"].gravity = np.array([1.0, -2.0, -9.81])


@pytest.fixture(params=list(MODELS), ids=list(MODELS))
def model(request):
    return MODELS[request.param]


def _chain_state(model, seed):
    """Joint-chain state away from the q5 = +-pi/2 singularity: ``(q, qd, qdd)`` of all NB joints."""
    rng = np.random.default_rng(seed)
    q, qd, qdd = rng.uniform(-1.0, 1.0, (3, model.NB))
    return q, qd, qdd


def _forces(model, seed):
    rng = np.random.default_rng(seed)
    return [None] * 5 + [rng.standard_normal(6) for _ in range(model.NB - 5)]


def test_fdfb_matches_fdab_on_the_chain(model):
    q, qd, _ = _chain_state(model, 0)
    rng = np.random.default_rng(1)
    tau = np.concatenate([np.zeros(6), rng.standard_normal(model.NB - 6)])
    f_ext = _forces(model, 2)
    qdd = fs.FDab(model, q, qd, tau, f_ext)
    x, xd = fs.fbkin(q[:6], qd[:6], qdd[:6])
    xdfb, qdd_fb = fs.FDfb(model, x, q[6:], qd[6:], tau[6:], f_ext)
    assert close(xdfb, xd, atol=1e-9)
    assert close(qdd_fb, qdd[6:], atol=1e-9)


def test_idfb_matches_hd_and_inverts_fdfb(model):
    q, qd, qdd = _chain_state(model, 3)
    f_ext = _forces(model, 4)
    fd = np.arange(model.NB) < 6
    qdd_hd, tau_hd = fs.HD(model, fd, q, qd, qdd, np.zeros(model.NB), f_ext)
    x = fs.fbkin(q[:6], qd[:6])
    xdfb, tau = fs.IDfb(model, x, q[6:], qd[6:], qdd[6:], f_ext)
    assert close(tau, tau_hd[6:], atol=1e-9)
    assert close(xdfb, fs.fbkin(q[:6], qd[:6], qdd_hd[:6])[1], atol=1e-9)
    xdfb2, qdd2 = fs.FDfb(model, x, q[6:], qd[6:], tau, f_ext)
    assert close(qdd2, qdd[6:], atol=1e-9) and close(xdfb2, xdfb, atol=1e-9)


def test_fdfb_ignores_the_chain_forces():
    model = MODELS["floatbase(autoTree(5, 2, 0.6, 0.9))"]
    q, qd, _ = _chain_state(model, 5)
    x = fs.fbkin(q[:6], qd[:6])
    f_ext = _forces(model, 6)
    with_chain = [np.ones(6)] * 5 + f_ext[5:]
    a = fs.FDfb(model, x, q[6:], qd[6:], np.zeros(model.NB - 6), f_ext)
    b = fs.FDfb(model, x, q[6:], qd[6:], np.zeros(model.NB - 6), with_chain)
    assert close(a[0], b[0]) and close(a[1], b[1])


# ---------------------------------------------------------------------------------------------- fbkin
@pytest.mark.parametrize("seed", range(4))
def test_fbkin_matches_core_chain_kinematics(seed):
    """x and xd against the core's placement, velocity and spatial acceleration of body 6 on the chain."""
    model = fs.singlebody()
    q, qd, qdd = _chain_state(model, 10 + seed)
    core = fs.to_rbda(model)
    data = core.create_data()
    rbda.forward_kinematics(core, data, q, qd, qdd)
    oM6 = data.oMi[6]
    v6 = rbda.get_velocity(core, data, 6, rbda.WORLD).vector
    a6 = rbda.get_acceleration(core, data, 6, rbda.WORLD).vector
    x, xd = fs.fbkin(q, qd, qdd)
    assert close(fs.rq(x[:4]), oM6.rotation.T) and close(x[4:7], oM6.translation)
    assert close(x[7:], np.concatenate([v6[3:], v6[:3]]))
    assert close(xd[7:], np.concatenate([a6[3:], a6[:3]]))
    assert close(xd[:4], fs.rqd(x[7:10], x[:4])) and close(xd[4:7], qd[:3])


def test_fbkin_call_forms_and_round_trips():
    rng = np.random.default_rng(20)
    q = np.concatenate([rng.standard_normal(3), rng.uniform(-3, 3, 1), rng.uniform(-1.5, 1.5, 1),
                        rng.uniform(-3, 3, 1)])
    qd, qdd = rng.standard_normal((2, 6))
    p = fs.fbkin(q)
    x = fs.fbkin(q, qd)
    x3, xd = fs.fbkin(q, qd, qdd)
    assert p.shape == (7,) and x.shape == (13,) and xd.shape == (13,)
    assert close(x[:7], p) and close(x3, x)
    assert close(fs.fbkin(p), q)
    q2, qd2 = fs.fbkin(x)
    assert close(q2, q) and close(qd2, qd)
    q3, qd3, qdd3 = fs.fbkin(x, xd)
    assert close(q3, q) and close(qd3, qd) and close(qdd3, qdd)


def test_fbkin_normalises_angles():
    q = np.array([0.1, 0.2, 0.3, 4.0, 2.0, -4.0])  # q5 beyond pi/2, q4 and q6 beyond pi
    q2 = fs.fbkin(fs.fbkin(q))
    assert abs(q2[3]) <= np.pi and abs(q2[4]) <= np.pi / 2 and abs(q2[5]) <= np.pi
    assert close(fs.rq(fs.fbkin(q2)[:4]), fs.rq(fs.fbkin(q)[:4]))


def test_fbkin_wrong_sizes():
    with pytest.raises(ValueError, match="x"):
        fs.fbkin(np.zeros(5))
    with pytest.raises(ValueError, match="qd"):
        fs.fbkin(np.zeros(6), np.zeros(5))
    with pytest.raises(ValueError, match="xd"):
        fs.fbkin(np.zeros(13), np.zeros(6))
    with pytest.raises(ValueError, match="xfb"):
        fs.FDfb(fs.singlebody(), np.zeros(12), [], [], [])
    with pytest.raises(ValueError, match="q"):
        fs.FDfb(fs.singlebody(), np.r_[1, np.zeros(12)], [1.0], [], [])
    with pytest.raises(ValueError, match="floating-base"):
        fs.FDfb(fs.autoTree(7), np.r_[1, np.zeros(12)], [1.0], [1.0], [1.0])


# ---------------------------------------------------------------------------------------------- fbanim
def _p(E, r=np.zeros(3)):
    return np.concatenate([fs.rq(E), r])


def test_fbanim_unwraps_a_spin():
    angles = np.linspace(0.0, 6 * np.pi, 200)  # three turns about x
    X = np.column_stack([_p(fs.rx(a), [a, 0, 0]) for a in angles])
    Q = fs.fbanim(X)
    assert Q.shape == (6, 200)
    assert close(Q[3], angles, atol=1e-9) and close(Q[0], angles)
    Q3 = fs.fbanim(X[:, None, :], np.ones((2, 1, 200)))
    assert Q3.shape == (8, 200) and close(Q3[:6], Q) and np.all(Q3[6:] == 1)


def test_fbanim_through_the_singularity():
    """A spin about y passes q5 = +-pi/2: fbkin folds it, fbanim keeps it continuous."""
    angles = np.linspace(0.0, 2 * np.pi, 300)
    X = np.column_stack([np.concatenate([_p(fs.ry(a)), np.zeros(6)]) for a in angles])
    Q = fs.fbanim(X)
    assert np.abs(np.diff(Q[3:], axis=1)).max() < 0.1  # no jumps
    for k in range(0, 300, 17):  # and every column is still the same orientation
        assert close(fs.rq(fs.fbkin(Q[:, k])[:4]), fs.ry(angles[k]), atol=1e-9)
    assert np.abs(np.diff([fs.fbkin(X[:7, k])[4] for k in range(300)])).max() < 0.1  # q5 itself folds back
    assert np.abs(np.diff([fs.fbkin(X[:7, k])[3] for k in range(300)])).max() > 3  # and q4 jumps by pi


def test_fbanim_wrong_shapes():
    with pytest.raises(ValueError, match="X"):
        fs.fbanim(np.zeros((6, 4)))
    with pytest.raises(ValueError, match="Qr"):
        fs.fbanim(np.tile(_p(np.eye(3))[:, None], (1, 4)), np.zeros((2, 3)))
