"""Derivatives of integrate and difference on every joint type: finite differences on the manifold, group
identities, and Pinocchio's dIntegrate / dDifference / dIntegrateTransport."""

import numpy as np
import pytest
from conftest import SEEDS, assert_close, jacobian_along_basis

import rbda
from rbda import ARG0, ARG1

FD_TOL = 1e-6


def states(model, seed=0):
    rng = np.random.default_rng(seed)
    return (rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv),
            rbda.random_configuration(model, rng=rng))


def test_d_integrate_matches_finite_differences(model):
    q, v, _ = states(model)
    J0, J1 = rbda.d_integrate(model, q, v)
    end = rbda.integrate(model, q, v)
    # measure the variation of the result in the tangent space at the result
    at_end = lambda q_: rbda.difference(model, end, q_)
    assert_close(J0, jacobian_along_basis(lambda x, d: rbda.integrate(model, x, d),
                                          lambda q_: at_end(rbda.integrate(model, q_, v)), q, model.nv), FD_TOL)
    assert_close(J1, jacobian_along_basis(lambda x, d: x + d, lambda v_: at_end(rbda.integrate(model, q, v_)),
                                          v, model.nv), FD_TOL)
    assert_close(rbda.d_integrate(model, q, v, ARG0), J0, 0.0)
    assert_close(rbda.d_integrate(model, q, v, ARG1), J1, 0.0)


def test_d_difference_matches_finite_differences(model):
    q0, _, q1 = states(model, seed=1)
    J0, J1 = rbda.d_difference(model, q0, q1)
    step = lambda x, d: rbda.integrate(model, x, d)
    assert_close(J0, jacobian_along_basis(step, lambda q_: rbda.difference(model, q_, q1), q0, model.nv), FD_TOL)
    assert_close(J1, jacobian_along_basis(step, lambda q_: rbda.difference(model, q0, q_), q1, model.nv), FD_TOL)


def test_lie_group_identities(model):
    q, v, _ = states(model, seed=2)
    # difference(q, integrate(q, v)) == v, so d/dv of it is the identity: J_q1(q, q (+) v) J_v(q, v) == 1
    J1 = rbda.d_integrate(model, q, v, ARG1)
    Jd1 = rbda.d_difference(model, q, rbda.integrate(model, q, v), ARG1)
    assert_close(Jd1 @ J1, np.eye(model.nv), 1e-9)
    # at v = 0 integrate is the identity in both arguments; at q0 == q1 difference has -1 and 1
    z = np.zeros(model.nv)
    for J in rbda.d_integrate(model, q, z):
        assert_close(J, np.eye(model.nv), 1e-12)
    D0, D1 = rbda.d_difference(model, q, q)
    assert_close(D0, -np.eye(model.nv), 1e-12)
    assert_close(D1, np.eye(model.nv), 1e-12)


def test_d_integrate_transport_and_argument_checks():
    model = rbda.sample_models.humanoid()
    q, v, _ = states(model)
    Jin = np.random.default_rng(0).normal(size=(model.nv, 4))
    for arg in (ARG0, ARG1):
        assert_close(rbda.d_integrate_transport(model, q, v, Jin, arg), rbda.d_integrate(model, q, v, arg) @ Jin, 1e-14)
    with pytest.raises(ValueError, match="arg"):
        rbda.d_integrate(model, q, v, 2)
    with pytest.raises(ValueError, match="J: expected shape"):
        rbda.d_integrate_transport(model, q, v, Jin[:-1], ARG0)
    with pytest.raises(ValueError, match="v: expected shape"):
        rbda.d_integrate(model, q, v[:-1])
    bad = q.copy()
    bad[3:7] = [1.0, 1.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="q0: is not a valid configuration"):
        rbda.d_difference(model, bad, q)


@pytest.mark.parametrize("case", ["humanoid"] + [f"all-seed{s}-{r}" for s in SEEDS for r in ("tree", "floating")])
def test_configuration_derivatives_agree_with_pinocchio(case):
    pin = pytest.importorskip("pinocchio")
    from test_against_pinocchio import make_model

    from rbda.interop.pinocchio import to_pinocchio

    model = make_model(case)
    pmodel = to_pinocchio(model)
    q, v, q1 = states(model, seed=3)
    for ours, theirs in zip(rbda.d_integrate(model, q, v) + rbda.d_difference(model, q, q1),
                            pin.dIntegrate(pmodel, q, v) + pin.dDifference(pmodel, q, q1)):
        assert_close(ours, theirs, 1e-9)
    Jin = np.random.default_rng(1).normal(size=(model.nv, 3))
    assert_close(rbda.d_integrate_transport(model, q, v, Jin, ARG0),
                 pin.dIntegrateTransport(pmodel, q, v, Jin, pin.ArgumentPosition.ARG0), 1e-9)
