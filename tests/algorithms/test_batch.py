"""rbda.batch against the single-state algorithms, state by state, and its input errors."""

import numpy as np
import pytest

import rbda

B = 7


@pytest.fixture(scope="module")
def batch_case():
    model = rbda.sample_models.every_joint()
    rng = np.random.default_rng(11)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    V, A = rng.normal(size=(B, model.nv)), rng.normal(size=(B, model.nv))
    return model, Q, V, A


def test_batch_matches_single_state(batch_case):
    model, Q, V, A = batch_case
    data = model.create_data()
    TAU = rbda.batch.rnea(model, Q, V, A)
    DDQ = rbda.batch.aba(model, Q, V, TAU)
    M = rbda.batch.crba(model, Q)
    Minv = rbda.batch.compute_minverse(model, Q)
    oMi = rbda.batch.forward_kinematics(model, Q)
    J = rbda.batch.compute_joint_jacobians(model, Q)
    for b in range(B):
        np.testing.assert_allclose(TAU[b], rbda.rnea(model, data, Q[b], V[b], A[b]), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(DDQ[b], A[b], rtol=1e-8, atol=1e-8)  # aba(rnea(a)) == a, state by state
        np.testing.assert_allclose(M[b], rbda.crba(model, data, Q[b]), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(Minv[b] @ M[b], np.eye(model.nv), atol=1e-8)
        rbda.forward_kinematics(model, data, Q[b])
        for i in range(1, model.njoints):
            np.testing.assert_allclose(oMi[b, i, :, :3], data.oMi[i].rotation, atol=1e-12)
            np.testing.assert_allclose(oMi[b, i, :, 3], data.oMi[i].translation, atol=1e-12)
        np.testing.assert_allclose(J[b], rbda.compute_joint_jacobians(model, data, Q[b]), atol=1e-12)


def test_batch_reuses_out(batch_case):
    model, Q, V, A = batch_case
    out = np.empty((B, model.nv))
    assert rbda.batch.rnea(model, Q, V, A, out=out) is out


def test_batch_errors_name_the_argument_and_state(batch_case):
    model, Q, V, A = batch_case
    with pytest.raises(ValueError, match="Q: expected shape"):
        rbda.batch.rnea(model, Q[:, :-1], V, A)
    with pytest.raises(ValueError, match=r"V: expected shape \(7,"):
        rbda.batch.rnea(model, Q, V[:-1], A)
    bad = A.copy()
    bad[3, 0] = np.nan
    with pytest.raises(ValueError, match="state 3: A: contains non-finite"):
        rbda.batch.rnea(model, Q, V, bad)
    with pytest.raises(ValueError, match="out: expected"):
        rbda.batch.crba(model, Q, out=np.empty((B, 2, 2)))


@pytest.mark.parametrize("mimic", [False, True], ids=["plain", "mimic"])
def test_batched_frames_match_single_states(mimic):
    from conftest import random_model

    model = random_model(2, True, mimic=mimic)
    rng = np.random.default_rng(3)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    data = model.create_data()
    oMf = rbda.batch.frames_forward_kinematics(model, Q)
    assert oMf.shape == (B, model.nframes, 3, 4)
    frame = model.nframes - 1
    jacobians = {rf: rbda.batch.compute_frame_jacobian(model, Q, model.frames[frame].name, rf)
                 for rf in (rbda.LOCAL, rbda.WORLD, rbda.LOCAL_WORLD_ALIGNED)}
    for b in range(B):
        rbda.frames_forward_kinematics(model, data, Q[b])
        for k in range(model.nframes):
            np.testing.assert_allclose(oMf[b, k, :, :3], data.oMf[k].rotation, rtol=0.0, atol=1e-13)
            np.testing.assert_allclose(oMf[b, k, :, 3], data.oMf[k].translation, rtol=0.0, atol=1e-13)
        for rf, J in jacobians.items():
            np.testing.assert_allclose(J[b], rbda.compute_frame_jacobian(model, data, Q[b], frame, rf), rtol=0.0,
                                       atol=1e-12)
    with pytest.raises(ValueError, match="frame_id"):
        rbda.batch.compute_frame_jacobian(model, Q, model.nframes)
