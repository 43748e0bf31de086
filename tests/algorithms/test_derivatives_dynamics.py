"""Analytical RNEA/ABA derivatives against central finite differences on the manifold (every joint type, with
and without free-flyer, armature and external forces) and against Pinocchio where it is installed."""

import numpy as np
import pytest
from conftest import SEEDS, assert_close, jacobian_along_basis, random_model, random_state

import rbda

FD_TOL = 2e-6  # central differences with eps = 1e-6, relative to the largest entry


def with_armature(model, seed=0):
    model.armature = np.random.default_rng(seed).uniform(0.0, 0.2, model.nv)
    return model


def random_fext(model, seed=3):
    return np.random.default_rng(seed).normal(size=(model.njoints, 6))


def integrate(model):
    return lambda q, dq: rbda.integrate(model, q, dq)


@pytest.mark.parametrize("use_fext", [False, True])
def test_rnea_derivatives_match_finite_differences(model, use_fext):
    model = with_armature(model)
    data, scratch = model.create_data(), model.create_data()
    q, v, a = random_state(model)
    fext = random_fext(model) if use_fext else None
    dq, dv, da = rbda.compute_rnea_derivatives(model, data, q, v, a, fext)
    assert_close(data.tau, rbda.rnea(model, scratch, q, v, a, fext), 1e-12)

    tau = lambda q_, v_=v, a_=a: rbda.rnea(model, scratch, q_, v_, a_, fext).copy()
    assert_close(dq, jacobian_along_basis(integrate(model), tau, q, model.nv), FD_TOL)
    assert_close(dv, jacobian_along_basis(lambda x, d: x + d, lambda v_: tau(q, v_), v, model.nv), FD_TOL)
    assert_close(da, rbda.crba(model, scratch, q), 1e-12)


def test_gravity_and_static_torque_derivatives(model):
    data, scratch = model.create_data(), model.create_data()
    q, _, _ = random_state(model, seed=1)
    fext = random_fext(model)
    dg = rbda.compute_generalized_gravity_derivatives(model, data, q).copy()
    g = lambda q_: rbda.compute_generalized_gravity(model, scratch, q_).copy()
    assert_close(dg, jacobian_along_basis(integrate(model), g, q, model.nv), FD_TOL)
    ds = rbda.compute_static_torque_derivatives(model, data, q, fext)
    s = lambda q_: rbda.compute_static_torque(model, scratch, q_, fext).copy()
    assert_close(ds, jacobian_along_basis(integrate(model), s, q, model.nv), FD_TOL)


@pytest.mark.parametrize("use_fext", [False, True])
def test_aba_derivatives_match_finite_differences(model, use_fext):
    model = with_armature(model, seed=2)
    data, scratch = model.create_data(), model.create_data()
    q, v, tau = random_state(model, seed=2)
    fext = random_fext(model) if use_fext else None
    ddq_dq, ddq_dv, ddq_dtau = rbda.compute_aba_derivatives(model, data, q, v, tau, fext)
    assert_close(data.ddq, rbda.aba(model, scratch, q, v, tau, fext), 1e-10)

    fd = lambda q_, v_=v, t_=tau: rbda.aba(model, scratch, q_, v_, t_, fext).copy()
    assert_close(ddq_dq, jacobian_along_basis(integrate(model), fd, q, model.nv), FD_TOL)
    assert_close(ddq_dv, jacobian_along_basis(lambda x, d: x + d, lambda v_: fd(q, v_), v, model.nv), FD_TOL)
    assert_close(ddq_dtau, rbda.compute_minverse(model, scratch, q), 1e-10)
    # the identity the algorithm rests on: dFD/dq = -M^-1 dID/dq at the solution
    dtau_dq = rbda.compute_rnea_derivatives(model, scratch, q, v, data.ddq, fext)[0]
    assert_close(ddq_dq, -np.linalg.solve(rbda.crba(model, scratch, q), dtau_dq), 1e-9)


def test_derivatives_follow_in_place_gravity_and_armature_edits():
    model = random_model(0, True)  # has joints that go through the elementary twin
    data = model.create_data()
    q, v, a = random_state(model)
    rbda.compute_rnea_derivatives(model, data, q, v, a)
    model.gravity.linear[:] = [0.0, 1.0, -3.0]
    model.armature[:] = 0.5
    dq, _, M = rbda.compute_rnea_derivatives(model, data, q, v, a)
    scratch = model.create_data()
    tau = lambda q_: rbda.rnea(model, scratch, q_, v, a).copy()
    assert_close(dq, jacobian_along_basis(integrate(model), tau, q, model.nv), FD_TOL)
    assert_close(M, rbda.crba(model, scratch, q), 1e-12)


def test_derivative_inputs_are_checked():
    model = rbda.sample_models.humanoid()
    data = model.create_data()
    q, v, a = random_state(model)
    with pytest.raises(ValueError, match="v: expected shape"):
        rbda.compute_rnea_derivatives(model, data, q, v[:-1], a)
    bad = q.copy()
    bad[3:7] *= 2.0
    with pytest.raises(ValueError, match="q: is not a valid configuration"):
        rbda.compute_aba_derivatives(model, data, bad, v, a)
    a[0] = np.nan
    with pytest.raises(ValueError, match="tau: contains non-finite"):
        rbda.compute_aba_derivatives(model, data, q, v, a)
    with pytest.raises(ValueError, match="fext"):
        rbda.compute_rnea_derivatives(model, data, q, v, v, fext=np.zeros((3, 6)))


# ------------------------------------------------------------------------------------------------ Pinocchio
# every joint type Pinocchio builds, except those whose subspace moves with q (see the last test)
PIN_CASES = ["manipulator", "humanoid"] + [f"constS-seed{s}-{r}" for s in SEEDS for r in ("tree", "floating")]


@pytest.mark.parametrize("case", PIN_CASES)
def test_derivatives_agree_with_pinocchio(case):
    pin = pytest.importorskip("pinocchio")
    from test_against_pinocchio import make_model

    model = make_model(case)
    pmodel = __import__("rbda.interop.pinocchio", fromlist=["to_pinocchio"]).to_pinocchio(model)
    data, pdata = model.create_data(), pmodel.createData()
    q, v, a = random_state(model, seed=5)
    fext = random_fext(model)
    pfext = [pin.Force(f) for f in fext]
    ours = rbda.compute_rnea_derivatives(model, data, q, v, a, fext)
    theirs = pin.computeRNEADerivatives(pmodel, pdata, q, v, a, pfext)
    for x, y in zip(ours, theirs):
        assert_close(x, y, 1e-9)
    ours = rbda.compute_aba_derivatives(model, data, q, v, a, fext)
    theirs = pin.computeABADerivatives(pmodel, pdata, q, v, a, pfext)
    for x, y in zip(ours, theirs):
        assert_close(x, y, 1e-9)
    assert_close(rbda.compute_generalized_gravity_derivatives(model, data, q),
                 pin.computeGeneralizedGravityDerivatives(pmodel, pdata, q), 1e-9)


@pytest.mark.parametrize("joint", [
    rbda.JointModelSphericalZYX(), rbda.JointModelUniversal([1, 0, 0], [0, 1, 0]),
    rbda.JointModelComposite([rbda.JointModelRX(), rbda.JointModelRY()], [rbda.SE3(), rbda.SE3.Random(np.random.default_rng(1))]),
], ids=["zyx", "universal", "composite"])
def test_where_pinocchio_derivatives_are_off_ours_match_its_own_finite_differences(joint):
    """Pinocchio 4.1's RNEA derivatives ignore that the motion subspace of these joints moves with q: its dtau/dq
    differs from finite differences of its own rnea, ours match them."""
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio

    model = random_model(0, False, [joint, rbda.JointModelRZ()])
    pmodel = to_pinocchio(model)
    pdata = pmodel.createData()
    q, v, a = random_state(model, seed=1)
    tau = lambda q_: pin.rnea(pmodel, pdata, q_, v, a).copy()
    fd = jacobian_along_basis(lambda x, d: pin.integrate(pmodel, x, d), tau, q, model.nv)
    assert_close(rbda.compute_rnea_derivatives(model, model.create_data(), q, v, a)[0], fd, FD_TOL)
    assert np.abs(pin.computeRNEADerivatives(pmodel, pdata, q, v, a)[0] - fd).max() > 1e-2


@pytest.mark.parametrize("floating", [False, True])
def test_batched_derivatives_equal_the_single_state_ones(floating):
    model = random_model(1, floating)  # every joint type: runs on the elementary twin
    data = model.create_data()
    rng = np.random.default_rng(0)
    B = 5
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    V, A = rng.normal(size=(B, model.nv)), rng.normal(size=(B, model.nv))
    rnea_d = rbda.batch.compute_rnea_derivatives(model, Q, V, A)
    aba_d = rbda.batch.compute_aba_derivatives(model, Q, V, A)
    for b in range(B):
        for x, y in zip(rnea_d, rbda.compute_rnea_derivatives(model, data, Q[b], V[b], A[b])):
            assert_close(x[b], y, 1e-12)
        for x, y in zip(aba_d, rbda.compute_aba_derivatives(model, data, Q[b], V[b], A[b])):
            assert_close(x[b], y, 1e-12)
    Q[3, 0] = np.nan
    with pytest.raises(ValueError, match="state 3: Q: contains non-finite"):
        rbda.batch.compute_aba_derivatives(model, Q, V, A)
    with pytest.raises(ValueError, match="V: expected shape"):
        rbda.batch.compute_rnea_derivatives(model, Q, V[:2], A)
