"""rbda.featherstone ground contact: gcPosVel against closed forms and a textbook kinematic chain, gcontact's
compliant law case by case, gcFD against the dynamics functions with hand-assembled f_ext."""

import numpy as np
import pytest

import rbda.featherstone as fs
from conftest import close

K, D, MU = 1e4, 100.0, 0.5


def _with_points(model, bodies, seed=0):
    rng = np.random.default_rng(seed)
    d = 2 if model.planar else 3
    model.gc = fs.GroundContact(bodies, rng.standard_normal((d, len(bodies))))
    return model


def _base_transforms(model, q, qd):
    """``Xa`` (base to body) and body velocities in base coordinates, by the textbook chain of jcalc."""
    Xa, v0 = [], []
    for i in range(model.NB):
        XJ, S = fs.jcalc(model.jtype[i], q[i])
        X = XJ @ model.Xtree[i]
        p = model.parent[i] - 1
        Xa.append(X if p < 0 else X @ Xa[p])
        v0.append(np.linalg.solve(Xa[i], S * qd[i]) + (0 if p < 0 else v0[p]))
    return Xa, v0


@pytest.mark.parametrize("make", [lambda: fs.autoTree(5, 2, 0.4, 0.9), lambda: fs.planar(3)], ids=["spatial", "planar"])
def test_gcposvel_against_textbook_chain(make):
    model = _with_points(make(), [1, 3, 3, 2])
    rng = np.random.default_rng(1)
    q, qd = rng.standard_normal((2, model.NB))
    Xa, v0 = _base_transforms(model, q, qd)
    posvel = fs.gcPosVel(model, q, qd)
    d = model.gc.point.shape[0]
    for k, b in enumerate(model.gc.body):
        p0 = fs.Xpt(np.linalg.inv(Xa[b - 1]), model.gc.point[:, k])
        assert close(posvel[:d, k], p0)
        assert close(posvel[d:, k], fs.Vpt(v0[b - 1], p0))


def test_gcposvel_planar_tip_closed_form():
    model = fs.planar(2)
    model.gc = fs.GroundContact([2], [[1.0], [0.0]])
    q, qd = np.array([0.3, -0.8]), np.array([0.5, 1.5])
    posvel = fs.gcPosVel(model, q, qd)[:, 0]
    s1, s12 = q[0], q[0] + q[1]
    tip = [np.cos(s1) + np.cos(s12), np.sin(s1) + np.sin(s12)]
    tip_rate = [-np.sin(s1) * qd[0] - np.sin(s12) * qd.sum(), np.cos(s1) * qd[0] + np.cos(s12) * qd.sum()]
    assert close(posvel, tip + tip_rate)


def test_gcposvel_floating_forms_agree_with_the_chain():
    model = fs.floatbase(fs.autoTree(3, 2, 0.5))
    model.gc = fs.GroundContact([6, 7, 8, 8], np.random.default_rng(2).standard_normal((3, 4)))
    rng = np.random.default_rng(3)
    q, qd = rng.uniform(-1, 1, (2, model.NB))
    x = fs.fbkin(q[:6], qd[:6])
    assert close(fs.gcPosVel(model, x, q[6:], qd[6:]), fs.gcPosVel(model, q, qd))
    disc = fs.rollingdisc(5)
    x = np.r_[fs.rq(fs.rx(0.3)), 1, 2, 3, rng.standard_normal(6)]
    posvel = fs.gcPosVel(disc, x)
    assert close(posvel[:3], fs.Xpt(np.linalg.inv(fs.plux(fs.rx(0.3), [1, 2, 3])), disc.gc.point))
    assert close(posvel[3:], fs.Vpt(x[7:], posvel[:3]))
    with pytest.raises(ValueError, match="q, qd"):
        fs.gcPosVel(model, x)
    with pytest.raises(ValueError, match="model.gc"):
        fs.gcPosVel(fs.planar(2), [0, 0], [0, 0])


def test_gcontact_frictionless():
    z = np.array([0.1, -0.01, -0.02, -0.02])
    zd = np.array([-1.0, -0.5, 0.3, 5.0])
    f = fs.gcontact(K, D, 0, z, zd)
    expected = np.sqrt(np.abs(z)) * (-K * z - D * zd)
    assert f[0] == 0.0  # above the ground
    assert close(f[1:3], expected[1:3]) and np.all(f[1:3] > 0)
    assert f[3] == 0.0  # separating faster than the spring pushes: no pull
    assert fs.gcontact(K, D, 0, z[None, :], zd[None, :]).shape == (1, 4)


def test_gcontact_friction_cases():
    p = np.array([[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [-0.01, -0.01, 0.02, -0.01]])
    pd = np.array([[0.01, 3.0, 1.0, 0.0], [0.0, -4.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])
    u = np.array([[1e-4, 0.0, 0.01, 0.0], [0.0, 0.0, 0.0, 0.0]])
    f, ud, fcone = fs.gcontact(K, D, MU, p, pd, u)
    fn = np.sqrt(0.01) * K * 0.01
    assert close(f[2], [fn, fn, 0.0, fn])
    # point 0: small deformation and slip -> sticks, the deformation follows the point
    stick = -np.sqrt(0.01) * (K * u[:, 0] + D * pd[:2, 0])
    assert fcone[0] <= 1 and close(f[:2, 0], stick) and close(ud[:, 0], pd[:2, 0])
    assert fcone[0] == pytest.approx(np.linalg.norm(stick) / (MU * fn))
    # point 1: fast slip -> slides on the friction cone, against the slip
    assert fcone[1] > 1 and np.linalg.norm(f[:2, 1]) == pytest.approx(MU * fn)
    assert close(f[:2, 1] / np.linalg.norm(f[:2, 1]), -pd[:2, 1] / np.linalg.norm(pd[:2, 1]))
    assert close(f[:2, 1], -np.sqrt(0.01) * (K * u[:, 1] + D * ud[:, 1]))  # ud consistent with f
    # point 2: in the air -> no force, relaxing deformation, never "sticking"
    assert np.all(f[:, 2] == 0) and close(ud[:, 2], -K / D * u[:, 2]) and fcone[2] > 1
    # point 3: resting -> no tangential force, sticking
    assert close(f[:2, 3], 0) and fcone[3] == 0
    f2, ud2, fcone2 = fs.gcontact(K, D, MU, p[1:], pd[1:], u[1:])  # planar: y is the normal
    assert f2.shape == (2, 4) and ud2.shape == (1, 4) and close(f2[1], f[2])


def test_gcontact_wrong_inputs():
    p = np.zeros((3, 2))
    with pytest.raises(ValueError, match="u"):
        fs.gcontact(K, D, MU, p, p, np.zeros((2, 3)))
    with pytest.raises(ValueError, match="pd"):
        fs.gcontact(K, D, MU, p, np.zeros((3, 3)), np.zeros((2, 2)))
    with pytest.raises(ValueError, match="K"):
        fs.gcontact(-1.0, D, MU, p, p, np.zeros((2, 2)))


def test_gcfd_matches_dynamics_with_hand_assembled_forces():
    model = _with_points(fs.autoTree(4, 2, 0.3), [2, 4, 4], seed=4)
    rng = np.random.default_rng(5)
    q, qd, tau = rng.standard_normal((3, 4))
    F = rng.standard_normal((6, 3))  # spatial forces on the points
    f_ext = [None, F[:, 0], None, F[:, 1] + F[:, 2]]
    u = np.concatenate([q, qd, tau, F.T.ravel()])
    for fd in (fs.FDab, fs.FDcrb):
        assert close(fs.gcFD(model, fd, u), fs.FDab(model, q, qd, tau, f_ext))
    assert close(fs.gcFD(model, fs.FDab, u[:12]), fs.FDab(model, q, qd, tau))
    with pytest.raises(ValueError, match="u"):
        fs.gcFD(model, fs.FDab, u[:-1])
    disc = fs.rollingdisc(3)
    x = np.r_[fs.rq(fs.ry(0.4)), 0, 0, 1, rng.standard_normal(6)]
    F = rng.standard_normal((6, 6))
    out = fs.gcFD(disc, fs.FDfb, np.concatenate([x, F.T.ravel()]))
    xd, _ = fs.FDfb(disc, x, [], [], [], [None] * 5 + [F.sum(axis=1)])
    assert out.shape == (13,) and close(out, xd)
