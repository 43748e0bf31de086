"""Small batches run state after state in the calling thread (``rbda.batch.SERIAL_BELOW``): the same numbers as
the parallel kernels and as the single-state functions, the same errors, on a model with every joint type and on
one with mimic joints."""

import numpy as np
import pytest

import rbda


def _states(model, B, seed=0):
    rng = np.random.default_rng(seed)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    return Q, rng.normal(size=(B, model.nv)), rng.normal(size=(B, model.nv))


@pytest.mark.parametrize("make", [rbda.sample_models.every_joint, rbda.sample_models.manipulator])
def test_small_batches_equal_the_parallel_kernels_and_single_calls(make, monkeypatch):
    model = make()
    data = model.create_data()
    B = 5
    Q, V, A = _states(model, B)
    small = [rbda.batch.rnea(model, Q, V, A), rbda.batch.aba(model, Q, V, A), rbda.batch.crba(model, Q),
             rbda.batch.compute_minverse(model, Q)]
    monkeypatch.setattr(rbda.batch, "SERIAL_BELOW", 0)  # the same states through the parallel kernels
    parallel = [rbda.batch.rnea(model, Q, V, A), rbda.batch.aba(model, Q, V, A), rbda.batch.crba(model, Q),
                rbda.batch.compute_minverse(model, Q)]
    for s, p in zip(small, parallel):
        assert np.array_equal(s, p)
    for b in range(B):
        np.testing.assert_allclose(small[0][b], rbda.rnea(model, data, Q[b], V[b], A[b]), rtol=0, atol=1e-12)
        # (relative: the revolute arm's batch runs the structure-of-arrays ABA, in another floating-point order)
        np.testing.assert_allclose(small[1][b], rbda.aba(model, data, Q[b], V[b], A[b]), rtol=1e-12, atol=1e-12)
        M = rbda.crba(model, data, Q[b])
        np.testing.assert_allclose(small[2][b], M, rtol=0, atol=1e-12)
        np.testing.assert_allclose(small[3][b] @ M, np.eye(model.nv), rtol=0, atol=1e-9)  # an identity
        np.testing.assert_allclose(A[b], rbda.aba(model, data, Q[b], V[b], small[0][b]), rtol=0, atol=1e-9)


def test_small_batch_on_a_mimic_model_equals_single_calls():
    model = rbda.transform_joint_into_mimic(rbda.sample_models.manipulator(), 1, 2, 1.5, 0.1)
    data = model.create_data()
    Q, V, A = _states(model, 3, seed=1)
    tau, M = rbda.batch.rnea(model, Q, V, A), rbda.batch.crba(model, Q)
    assert tau.shape == (3, model.nv) and M.shape == (3, model.nv, model.nv)
    for b in range(3):
        np.testing.assert_allclose(tau[b], rbda.rnea(model, data, Q[b], V[b], A[b]), rtol=0, atol=1e-12)
        np.testing.assert_allclose(M[b], rbda.crba(model, data, Q[b]), rtol=0, atol=1e-12)


def test_small_batch_errors_name_the_state_and_argument():
    model = rbda.sample_models.every_joint()
    Q, V, A = _states(model, 4)
    A[2, 0] = np.nan
    with pytest.raises(ValueError, match="state 2: A: contains non-finite"):
        rbda.batch.rnea(model, Q, V, A)
    Q[1, :] = 0.0  # quaternions of norm 0
    with pytest.raises(ValueError, match="state 1: Q: "):
        rbda.batch.crba(model, Q)
