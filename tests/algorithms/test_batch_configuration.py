"""rbda.batch.integrate / difference / d_integrate / d_difference against the single-state functions, state by
state, on models of every joint type (with and without free-flyer) and with mimic joints, and their input errors."""

import numpy as np
import pytest
from conftest import assert_close

import rbda
from rbda import ARG0, ARG1

B = 5


def batch_states(model, seed=0):
    rng = np.random.default_rng(seed)
    Q0 = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    Q1 = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    return Q0, rng.normal(size=(B, model.nv)), Q1


def mimic_model():
    plain = rbda.sample_models.humanoid()
    ids = [i for i in range(1, plain.njoints) if plain.nvs[i] == 1]
    return rbda.transform_joint_into_mimic(plain, ids[2], ids[5], -1.3, 0.25)


def check_against_single_state(model):
    Q, V, Q1 = batch_states(model)
    Qn, D = rbda.batch.integrate(model, Q, V), rbda.batch.difference(model, Q, Q1)
    assert Qn.shape == (B, model.nq) and D.shape == (B, model.nv)
    JI, JD = rbda.batch.d_integrate(model, Q, V), rbda.batch.d_difference(model, Q, Q1)
    single = {arg: (rbda.batch.d_integrate(model, Q, V, arg), rbda.batch.d_difference(model, Q, Q1, arg))
              for arg in (ARG0, ARG1)}
    for b in range(B):
        assert_close(Qn[b], rbda.integrate(model, Q[b], V[b]), 1e-14)
        assert_close(D[b], rbda.difference(model, Q[b], Q1[b]), 1e-14)
        for k, arg in enumerate((ARG0, ARG1)):
            assert_close(JI[k][b], rbda.d_integrate(model, Q[b], V[b], arg), 1e-14)
            assert_close(JD[k][b], rbda.d_difference(model, Q[b], Q1[b], arg), 1e-14)
            assert_close(single[arg][0][b], JI[k][b], 0.0)
            assert_close(single[arg][1][b], JD[k][b], 0.0)


def test_batch_configuration_matches_single_state(model):
    check_against_single_state(model)


def test_batch_configuration_with_mimic_joints():
    check_against_single_state(mimic_model())


def test_batch_configuration_reuses_out_and_names_bad_inputs():
    model = rbda.sample_models.every_joint()
    Q, V, Q1 = batch_states(model, seed=1)
    out = np.empty((B, model.nq))
    assert rbda.batch.integrate(model, Q, V, out=out) is out
    with pytest.raises(ValueError, match="out: expected"):
        rbda.batch.difference(model, Q, Q1, out=np.empty((B, model.nq + 1)))
    with pytest.raises(ValueError, match="Q1: expected shape"):
        rbda.batch.difference(model, Q, Q1[:-1])
    with pytest.raises(ValueError, match="V: expected shape"):
        rbda.batch.d_integrate(model, Q, V[:, :-1], ARG0)
    with pytest.raises(ValueError, match="arg: expected ARG0 or ARG1"):
        rbda.batch.d_difference(model, Q, Q1, 3)
    bad = V.copy()
    bad[2, 1] = np.inf
    with pytest.raises(ValueError, match="state 2: V: contains non-finite"):
        rbda.batch.integrate(model, Q, bad)
    bad = Q1.copy()
    bad[4] = rbda.neutral(model) * 2.0
    with pytest.raises(ValueError, match="state 4: Q1: is not a valid configuration"):
        rbda.batch.d_difference(model, Q, bad)
