"""rbda.batch.compute_rnea_derivatives / compute_aba_derivatives at SIMD width (kernels/simd_derivatives.py) against
the single-state functions state by state on every model family the SIMD kernels take, against Pinocchio, against
the identities between them (dddq/dtau M = 1, dddq/dx = -M^-1 dtau/dx at ddq), and their errors and ``out=``."""

import numpy as np
import pytest

import rbda
from rbda.kernels import simd

from test_batch_simd import MODELS, states


@pytest.fixture(scope="module", params=list(MODELS))
def simd_model(request):
    model = MODELS[request.param]()
    assert simd.accepts(model)
    return model


def floating(model):
    return model.joints[1].type == rbda.joints.base.JointType.FREE_FLYER


@pytest.mark.parametrize("B", [1, 13, 37, 64])  # serial (< 32) and parallel, a tail block shorter than W and none
def test_rnea_derivatives_match_single_state(simd_model, B):
    model = simd_model
    Q, V, A = states(model, B, seed=B)
    data = model.create_data()
    batched = rbda.batch.compute_rnea_derivatives(model, Q, V, A)
    for b in range(B):
        single = rbda.compute_rnea_derivatives(model, data, Q[b], V[b], A[b])
        for ours, theirs in zip(batched, single):
            np.testing.assert_allclose(ours[b], theirs, rtol=0, atol=1e-12 * np.abs(theirs).max())


@pytest.mark.parametrize("B", [1, 13, 37, 64])
def test_aba_derivatives_match_single_state(simd_model, B):
    """Fixed base: to 1e-12 of the largest entry. With a free flyer ``ddq`` comes from ABA's per-lane 6x6 solve
    of the root (``test_batch_simd.test_aba_matches_single_state``: 5e-12 of max |ddq| on the humanoid, the spread
    between rbda's and Pinocchio's own aba), and ``M^-1`` amplifies it: 1e-10 there (measured 5e-12)."""
    model = simd_model
    Q, V, TAU = states(model, B, seed=B)
    data = model.create_data()
    batched = rbda.batch.compute_aba_derivatives(model, Q, V, TAU)
    tol = 1e-10 if floating(model) else 1e-12
    for b in range(B):
        single = rbda.compute_aba_derivatives(model, data, Q[b], V[b], TAU[b])
        for ours, theirs in zip(batched, single):
            np.testing.assert_allclose(ours[b], theirs, rtol=0, atol=tol * np.abs(theirs).max())


def test_aba_derivatives_identities(simd_model):
    """dddq/dtau M = 1 and dddq/dq = -M^-1 dtau/dq, dddq/dv = -M^-1 dtau/dv with the RNEA derivatives at
    ddq = aba(q, v, tau), all batched."""
    model = simd_model
    Q, V, TAU = states(model, 40, seed=3)
    ddq_dq, ddq_dv, Minv = rbda.batch.compute_aba_derivatives(model, Q, V, TAU)
    DDQ = rbda.batch.aba(model, Q, V, TAU)
    dtau_dq, dtau_dv, M = rbda.batch.compute_rnea_derivatives(model, Q, V, DDQ)
    np.testing.assert_allclose(M, rbda.batch.crba(model, Q), rtol=1e-12, atol=1e-12)
    scale = np.abs(Minv).max(axis=(1, 2))[:, None, None]
    np.testing.assert_allclose(Minv @ M, np.broadcast_to(np.eye(model.nv), M.shape), rtol=0, atol=1e-9)
    np.testing.assert_allclose(ddq_dq, -Minv @ dtau_dq, rtol=0, atol=1e-9 * (scale * np.abs(dtau_dq).max()).max())
    np.testing.assert_allclose(ddq_dv, -Minv @ dtau_dv, rtol=0, atol=1e-9 * (scale * np.abs(dtau_dv).max()).max())


@pytest.mark.parametrize("name", ["panda", "solo12", "humanoid"])
def test_derivatives_match_pinocchio(name):
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio

    model = MODELS[name]()
    pm = to_pinocchio(model)
    pd = pm.createData()
    Q, V, A = states(model, 37, seed=11)
    rnea_d = rbda.batch.compute_rnea_derivatives(model, Q, V, A)
    aba_d = rbda.batch.compute_aba_derivatives(model, Q, V, A)
    for b in range(37):
        pin.computeRNEADerivatives(pm, pd, Q[b], V[b], A[b])
        M = np.triu(pd.M) + np.triu(pd.M, 1).T
        for ours, theirs in zip(rnea_d, (pd.dtau_dq, pd.dtau_dv, M)):
            np.testing.assert_allclose(ours[b], theirs, rtol=0, atol=1e-10 * max(1.0, np.abs(theirs).max()))
        pin.computeABADerivatives(pm, pd, Q[b], V[b], A[b])
        Minv = np.triu(pd.Minv) + np.triu(pd.Minv, 1).T
        for ours, theirs in zip(aba_d, (pd.ddq_dq, pd.ddq_dv, Minv)):
            np.testing.assert_allclose(ours[b], theirs, rtol=0, atol=1e-9 * max(1.0, np.abs(theirs).max()))


def test_derivatives_out_and_errors():
    model = rbda.sample_models.humanoid()
    Q, V, A = states(model, 40, seed=5)
    out = tuple(np.full((40, model.nv, model.nv), np.nan) for _ in range(3))
    for fn in (rbda.batch.compute_rnea_derivatives, rbda.batch.compute_aba_derivatives):
        result = fn(model, Q, V, A, out=out)
        assert all(r is o for r, o in zip(result, out))
        for r, expected in zip(result, fn(model, Q, V, A)):
            np.testing.assert_array_equal(r, expected)
        with pytest.raises(ValueError, match="out"):
            fn(model, Q, V, A, out=out[:2])
        with pytest.raises(ValueError, match="out"):
            fn(model, Q, V, A, out=(out[0], out[1], np.zeros((40, model.nv, model.nv + 1))))
        bad = V.copy()
        bad[33, 2] = np.nan
        with pytest.raises(ValueError, match="state 33: V"):
            fn(model, Q, bad, A)
        with pytest.raises(ValueError, match=r"expected shape \(40, %d\)" % model.nv):
            fn(model, Q, V[:, :-1], A)
        Qn = Q.copy()
        Qn[35, 3:7] *= 2.0  # the free flyer's quaternion off the unit sphere
        with pytest.raises(ValueError, match="state 35: Q"):
            fn(model, Qn, V, A)
