"""The seven spatial_v2 tutorial examples (examples/featherstone_*.py), each run once and checked against a
physical fact: targets reached, energy and momentum conserved, constraint violations decaying as designed,
rolling without slip on the compliant ground with a consistent sticking indicator."""

import numpy as np
import pytest

import rbda.featherstone as fs
from conftest import close
from tests.conftest import load_example

def _example(name):
    """The example script ``examples/featherstone_<name>.py`` as a module."""
    return load_example(f"featherstone_{name}")


def _energy_momentum(model, x, q=(), qd=()):
    """Kinetic energy and spatial momentum (fixed coordinates) of a floating tree in state ``x``, summed body by
    body with spatial_v2 arithmetic only (no core, no dynamics function)."""
    Xa = {6: fs.plux(fs.rq(x[:4]), x[4:7])}
    v = {6: Xa[6] @ x[7:]}
    KE, h = 0.5 * v[6] @ model.I[5] @ v[6], Xa[6].T @ model.I[5] @ v[6]
    for i in range(7, model.NB + 1):
        XJ, S = fs.jcalc(model.jtype[i - 1], q[i - 7])
        X = XJ @ model.Xtree[i - 1]
        Xa[i], v[i] = X @ Xa[model.parent[i - 1]], X @ v[model.parent[i - 1]] + S * qd[i - 7]
        KE += 0.5 * v[i] @ model.I[i - 1] @ v[i]
        h += Xa[i].T @ model.I[i - 1] @ v[i]
    return KE, h


def test_pd_planar_2r_reaches_its_target():
    traj = _example("pd_planar2r").simulate()
    error = np.abs(traj.q - traj.target).max(axis=1)
    assert error[0] > 1.0 and error[-1] < 1e-5
    assert np.abs(traj.qd[-1]).max() < 1e-4 and np.abs(traj.tau[-1]).max() < 1e-3


def test_discrete_pd_reaches_its_target_with_held_torques():
    traj = _example("discrete_pd_planar2r").simulate()
    assert np.abs(traj.q[-1] - traj.target).max() < 1e-5
    assert close(np.diff(traj.t_samples), traj.sample_time)
    # each held torque is the PD law at its sampling instant
    k = 10
    i = np.argmin(np.abs(traj.t - traj.t_samples[k]))
    ex = _example("discrete_pd_planar2r")
    assert close(traj.tau_samples[k], ex.KP * (traj.target - traj.q[i]) - ex.KD * traj.qd[i], atol=1e-6)


def test_vee_keeps_zero_momentum_and_rotates():
    ex = _example("vee_hd")
    traj = ex.simulate()
    q7 = np.array([ex.joint_profile(t, traj.period)[0] for t in traj.t])
    assert close(traj.q[:, 6], q7, atol=1e-7)
    for qk, qdk in zip(traj.q[::10], traj.qd[::10]):
        em = fs.EnerMo(traj.model, qk, qdk)
        assert np.abs(em.htot).max() < 1e-7
        assert close(em.cm, fs.EnerMo(traj.model, traj.q[0], traj.qd[0]).cm, atol=1e-7)
    assert abs(traj.q[-1, 6] - 2 * np.pi) < 1e-7
    # identical rods share the joint's turn by symmetry: the base ends turned by pi about the (1, 1, 0) axis
    E = fs.rq(fs.fbkin(traj.q[-1, :6])[:4])
    assert close(E, [[0, 1, 0], [1, 0, 0], [0, 0, -1]], atol=1e-6)


def test_tumbling_body_conserves_energy_and_momentum():
    traj = _example("tumbling_body").simulate()
    KE0, h0 = _energy_momentum(traj.model, traj.x[0])
    drift_KE = max(abs(_energy_momentum(traj.model, x)[0] - KE0) for x in traj.x)
    drift_h = max(np.abs(_energy_momentum(traj.model, x)[1] - h0).max() for x in traj.x)
    assert drift_KE < 1e-7 * KE0 and drift_h < 1e-7 * np.abs(h0).max()
    # it tumbles: the spin about the body's intermediate axis reverses (Dzhanibekov effect)
    w_body = np.array([fs.rq(x[:4]) @ x[7:10] for x in traj.x])
    assert w_body[:, 1].min() < -0.5 < 0.5 < w_body[:, 1].max()
    # fbanim's angles describe the same orientations as x, without fbkin's wrap-around jumps
    assert np.abs(np.diff(traj.Q[:, 3:], axis=0)).max() < 1.5
    assert np.abs(np.diff([fs.fbkin(x)[0][3:] for x in traj.x], axis=0)).max() > 5.0
    for Qk, x in zip(traj.Q[::20], traj.x[::20]):
        assert close(fs.rq(fs.fbkin(Qk)[:4]), fs.rq(x[:4]), atol=1e-9)


def test_spinning_scissor_conserves_energy_and_momentum():
    traj = _example("spinning_scissor").simulate()
    KE0, h0 = _energy_momentum(traj.model, traj.x[0], traj.q[0], traj.qd[0])
    for x, q, qd in zip(traj.x, traj.q, traj.qd):
        KE, h = _energy_momentum(traj.model, x, q, qd)
        assert abs(KE - KE0) < 1e-7 * KE0 and np.abs(h - h0).max() < 1e-7 * np.abs(h0).max()
    assert traj.q.max() > 1.0  # the scissor opens


def test_double_elbow_violation_decays_as_designed():
    ex = _example("double_elbow")
    traj = ex.simulate()
    T = fs.constructors.DOUBLE_ELBOW_TSTAB
    e0 = traj.violation[0]
    expected = e0 * (1 + traj.t / T) * np.exp(-traj.t / T)
    assert np.abs(traj.violation - expected).max() < 1e-6 * abs(e0)
    assert abs(traj.violation[-1]) < 1e-10
    assert np.abs(traj.q[-1, :2] - traj.target).max() < 5e-3


def test_rolling_disc_ends_rolling_in_contact_and_sticking():
    ex = _example("rolling_disc")
    traj = ex.simulate()
    late = traj.t >= traj.t[-1] - 1.0
    fn, ft = traj.f[late, 2], np.linalg.norm(traj.f[late, :2], axis=1)
    contact = fn > 0
    assert contact.any(axis=1).all()  # the bouncing is over: always touching the ground
    fcone = traj.fcone[late]
    # the sticking indicator agrees with the forces: inside the friction cone exactly when fcone <= 1
    assert np.all(ft[contact] <= ex.MU * fn[contact] * (1 + 1e-9))
    assert close(ft[contact & (fcone > 1)], ex.MU * fn[contact & (fcone > 1)])
    per_point = np.transpose(traj.f[late], (0, 2, 1))  # (samples, np, 3)
    assert np.all(np.isinf(fcone[~contact])) and np.all(per_point[~contact] == 0)
    assert (fcone[contact] <= 1).mean() > 0.95  # and the contact points essentially stick: rolling
    x = traj.x[late]
    w, r, vO = x[:, 7:10], x[:, 4:7], x[:, 10:]
    v_centre = vO + np.cross(w, r)
    rolling_speed = w[:, 1] * fs.constructors.DISC_RADIUS
    assert v_centre[:, 0].mean() > 0.5
    assert abs(v_centre[:, 0].mean() - rolling_speed.mean()) < 0.03 * v_centre[:, 0].mean()
    assert np.all(np.abs(r[:, 2] - 1.0) < 0.05) and np.abs(w[:, [0, 2]]).max() < 1e-6  # upright, on its rim


@pytest.mark.parametrize("name", ["pd_planar2r", "double_elbow"])
def test_main_runs_without_matplotlib(name, capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    _example(name).main()
    out = capsys.readouterr().out
    assert "matplotlib is not installed" in out or "saved" in out
