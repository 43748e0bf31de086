"""``rbda.batch.rollout`` on threads, each rollout one compiled kernel call (rbda.simulation.compiled_rollout):
equal to single-state rollouts on fresh simulators for each call's own options, the default backend, a bad state
named."""

import numpy as np
import pytest

import rbda
from rbda.io import Box, GeometryModel, Sphere
from rbda.simulation import Simulator, add_free_body, add_ground_plane
from rbda.simulation import rollout as rollout_module


def scene():
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "cube", Box((0.1, 0.1, 0.1)), 1.0)
    add_free_body(model, cm, "ball", Sphere(0.05), 0.5)
    add_ground_plane(model, cm)
    return model, cm


def states(model, B, T, seed=0):
    rng = np.random.default_rng(seed)
    Q0 = np.tile(rbda.neutral(model), (B, 1))
    Q0[:, 2], Q0[:, 7], Q0[:, 9] = 0.05, 0.3, 0.05
    V0 = np.zeros((B, model.nv))
    V0[:, 0] = rng.random(B)
    V0[:, 6] = -1.5 * rng.random(B)  # some balls reach the cube: steps through the Python pair
    return Q0, V0, 0.3 * rng.standard_normal((B, T, model.nv))


@pytest.mark.parametrize("options", [dict(mu=0.3), dict(mu=0.6, solver="pgs", formulation="ccp")])
def test_threads_equal_single_rollouts_for_each_calls_options(options):
    """The same model twice with different options: each call's threads build their own simulators."""
    model, cm = scene()
    B, T = 6, 300
    Q0, V0, TAUS = states(model, B, T)
    Q, V = rbda.batch.rollout(model, cm, Q0, V0, TAUS, 1e-3, workers=2, backend="thread", **options)
    for b in range(B):
        Qb, Vb = Simulator(model, cm, 1e-3, **options).rollout(Q0[b], V0[b], TAUS[b])
        assert np.abs(Q[b] - Qb).max() <= 1e-12 and np.abs(V[b] - Vb).max() <= 1e-12
    assert (V[:, -1, 6] > -0.5).any()  # a ball hit the cube


def test_the_default_backend(monkeypatch):
    """Threads for a scene whose rollouts are compiled (bilateral constraints included); processes for a model with
    mimic joints (stepped by the Python stages)."""
    from test_simulator_constraints import four_bar

    seen = []
    real = rollout_module.ThreadPoolExecutor
    monkeypatch.setattr(rollout_module, "ThreadPoolExecutor", lambda n: seen.append("thread") or real(n))
    model, cm = scene()
    Q0, V0, TAUS = states(model, 3, 10)
    rbda.batch.rollout(model, cm, Q0, V0, TAUS, 1e-3, workers=2)
    assert seen == ["thread"]
    bar, pin = four_bar()
    assert rollout_module.rollout_compiled(Simulator(bar, GeometryModel(), 1e-3, constraints=[pin]))
    plain = rbda.sample_models.humanoid()
    ids = [i for i in range(1, plain.njoints) if plain.nvs[i] == 1]
    mimic = rbda.transform_joint_into_mimic(plain, ids[2], ids[5], -1.3, 0.25)
    assert not rollout_module.rollout_compiled(Simulator(mimic, GeometryModel(), 1e-3))


def test_a_bad_state_is_named():
    model, cm = scene()
    Q0, V0, TAUS = states(model, 4, 20)
    Q0[2, 3:7] = (0.0, 0.0, 0.0, 2.0)
    with pytest.raises(ValueError, match=r"state 2: step 0: q: is not a valid configuration"):
        rbda.batch.rollout(model, cm, Q0, V0, TAUS, 1e-3, workers=2, backend="thread")
