"""``rbda.batch.rollout`` against a loop of ``Simulator.rollout`` on fresh simulators, on each backend; its errors;
the progress bar."""

import numpy as np
import pytest

import rbda
from rbda.io import GeometryModel, Sphere
from rbda.simulation import Simulator, add_free_body, add_ground_plane


def scene():
    """Two balls on the ground: the first rolls (various speeds), the second falls from various heights."""
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "roller", Sphere(0.05), 1.0)
    add_free_body(model, cm, "ball", Sphere(0.05), 0.5)
    add_ground_plane(model, cm)
    return model, cm


def states(model, B, T, seed=0):
    rng = np.random.default_rng(seed)
    Q0 = np.tile(rbda.neutral(model), (B, 1))
    Q0[:, 2] = 0.05 + 0.02 * rng.random(B)
    Q0[:, 7] = 0.3
    Q0[:, 9] = 0.05 + 0.2 * rng.random(B)
    V0 = np.zeros((B, model.nv))
    V0[:, 0] = rng.random(B)
    TAUS = 0.5 * rng.standard_normal((B, T, model.nv))
    return Q0, V0, TAUS


@pytest.mark.parametrize("backend", ["serial", "thread", "process"])
def test_rollout_equals_a_loop_of_simulator_rollouts(backend):
    model, cm = scene()
    B, T, dt = 5, 60, 1e-3
    Q0, V0, TAUS = states(model, B, T)
    options = dict(mu=0.4, solver="pgs" if backend == "thread" else "admm")
    Q, V = rbda.batch.rollout(model, cm, Q0, V0, TAUS, dt, workers=2, backend=backend, **options)
    assert Q.shape == (B, T + 1, model.nq) and V.shape == (B, T + 1, model.nv)
    for b in range(B):
        Qb, Vb = Simulator(model, cm, dt, **options).rollout(Q0[b], V0[b], TAUS[b])
        np.testing.assert_array_equal(Q[b], Qb)
        np.testing.assert_array_equal(V[b], Vb)
    assert (Q[:, -1, 9] < Q0[:, 9]).all()  # the balls fell: the states did move


def test_rollout_writes_into_out():
    model, cm = scene()
    Q0, V0, TAUS = states(model, 3, 20, seed=2)
    expected = rbda.batch.rollout(model, cm, Q0, V0, TAUS, 1e-3, backend="serial")
    out = (np.full((3, 21, model.nq), np.nan), np.full((3, 21, model.nv), np.nan))
    got = rbda.batch.rollout(model, cm, Q0, V0, TAUS, 1e-3, backend="serial", out=out)
    assert got[0] is out[0] and got[1] is out[1]
    np.testing.assert_array_equal(got[0], expected[0])
    np.testing.assert_array_equal(got[1], expected[1])
    with pytest.raises(ValueError, match=r"out: expected a tuple of C-contiguous float64 arrays of shapes"):
        rbda.batch.rollout(model, cm, Q0, V0, TAUS, 1e-3, out=(out[0][:, :20], out[1]))


def test_rollout_errors():
    model, cm = scene()
    Q0, V0, TAUS = states(model, 2, 3)
    with pytest.raises(ValueError, match=r"TAUS: expected shape \(B, T, 12\)"):
        rbda.batch.rollout(model, cm, Q0, V0, TAUS[0], 1e-3)
    with pytest.raises(ValueError, match=r"Q0: expected shape \(2, 14\)"):
        rbda.batch.rollout(model, cm, Q0[:1], V0, TAUS, 1e-3)
    bad = TAUS.copy()
    bad[1, 2, 3] = np.nan
    with pytest.raises(ValueError, match="TAUS: state 1 contains non-finite"):
        rbda.batch.rollout(model, cm, Q0, V0, bad, 1e-3)
    with pytest.raises(ValueError, match="backend"):
        rbda.batch.rollout(model, cm, Q0, V0, TAUS, 1e-3, backend="gpu")
    with pytest.raises(ValueError, match="workers"):
        rbda.batch.rollout(model, cm, Q0, V0, TAUS, 1e-3, workers=0)
    with pytest.raises(ValueError, match="dt"):
        rbda.batch.rollout(model, cm, Q0, V0, TAUS, -1e-3)
    with pytest.raises(ValueError, match="solver"):
        rbda.batch.rollout(model, cm, Q0, V0, TAUS, 1e-3, solver="newton")
    with pytest.raises(TypeError, match="TAUS"):
        rbda.batch.rollout(model, cm, Q0, V0, "taus", 1e-3)


def test_progress_bar_only_when_asked_or_on_a_terminal(capsys, monkeypatch):
    pytest.importorskip("tqdm")
    monkeypatch.setenv("RBDA_COMPILE_NOTICE", "0")  # stderr holds the bar only, even if a kernel compiles here
    model, cm = scene()
    Q0, V0, TAUS = states(model, 2, 5)
    rbda.batch.rollout(model, cm, Q0, V0, TAUS, 1e-3, backend="serial")
    assert capsys.readouterr().err == ""  # stderr is not a terminal here
    rbda.batch.rollout(model, cm, Q0, V0, TAUS, 1e-3, backend="serial", progress=True)
    assert "rollouts" in capsys.readouterr().err
    Simulator(model, cm, 1e-3).rollout(Q0[0], V0[0], TAUS[0], progress=True)
    assert "rollout" in capsys.readouterr().err


def test_progress_bar_shows_on_a_terminal_and_is_silent_without_tqdm(monkeypatch):
    pytest.importorskip("tqdm")
    import io
    import sys

    from rbda.simulation.progress import LONG, progress_bar

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(sys, "stderr", Terminal())
    with progress_bar(LONG, "long run") as bar:
        bar.update(LONG)
    assert "long run" in sys.stderr.getvalue()
    monkeypatch.setattr(sys, "stderr", Terminal())
    with progress_bar(LONG - 1, "short run") as bar:  # a short run shows none by default
        bar.update(1)
    assert sys.stderr.getvalue() == ""
    monkeypatch.setitem(sys.modules, "tqdm", None)  # tqdm missing: silent, no error
    with progress_bar(LONG, "no tqdm", enabled=True) as bar:
        bar.update(LONG)
    assert sys.stderr.getvalue() == ""


@pytest.mark.parametrize("backend", ["serial", "thread", "process"])
def test_a_pool_keeps_its_simulators_between_batches(backend, monkeypatch):
    """Batches of several sizes on one RolloutPool equal fresh simulators' rollouts state by state, one simulator
    built per thread for all of them; a batch with a bad state raises and the next one runs; closed, it refuses."""
    from rbda.simulation import rollout as rollout_module

    built = []
    real = rollout_module.Simulator

    def counted(*args, **kwargs):
        built.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(rollout_module, "Simulator", counted)
    model, cm = scene()
    options = dict(mu=0.4, solver="pgs")
    with rbda.batch.RolloutPool(model, cm, 1e-3, workers=2, backend=backend, **options) as pool:
        for B, T, seed in ((5, 30, 1), (3, 50, 2), (7, 20, 3)):
            Q0, V0, TAUS = states(model, B, T, seed)
            Q, V = pool.rollout(Q0, V0, TAUS)
            for b in range(B):
                Qb, Vb = real(model, cm, 1e-3, **options).rollout(Q0[b], V0[b], TAUS[b])
                np.testing.assert_array_equal(Q[b], Qb)
                np.testing.assert_array_equal(V[b], Vb)
        Q0[4, 3:7] = (0.0, 0.0, 0.0, 2.0)
        with pytest.raises(ValueError, match=r"state 4: step 0: q: is not a valid configuration"):
            pool.rollout(Q0, V0, TAUS)
        Q, V = pool.rollout(Q0[:4], V0[:4], TAUS[:4])
        np.testing.assert_array_equal(Q[3], real(model, cm, 1e-3, **options).rollout(Q0[3], V0[3], TAUS[3])[0])
    assert 1 <= len(built) <= (2 if backend == "thread" else 1)  # (worker processes build theirs there)
    with pytest.raises(RuntimeError, match="closed"):
        pool.rollout(Q0, V0, TAUS)
    with pytest.raises(ValueError, match="workers"):
        rbda.batch.RolloutPool(model, cm, 1e-3, workers=0)
    with pytest.raises(ValueError, match="mu"):
        rbda.batch.RolloutPool(model, cm, 1e-3, mu=-1.0)
