"""Derivatives of the centroidal momentum and its rate, and of the CoM velocity: finite differences on the
manifold on every joint type, Pinocchio where installed."""

import pytest
from conftest import assert_close, jacobian_along_basis, random_state

import rbda

FD_TOL = 2e-6


def test_centroidal_dynamics_derivatives_match_finite_differences(model):
    data, scratch = model.create_data(), model.create_data()
    q, v, a = random_state(model, seed=6)
    dh_dq, dhdot_dq, dhdot_dv, dhdot_da = rbda.compute_centroidal_dynamics_derivatives(model, data, q, v, a)
    step = lambda x, d: rbda.integrate(model, x, d)
    plus = lambda x, d: x + d
    h = lambda q_: rbda.compute_centroidal_momentum(model, scratch, q_, v).copy()
    hdot = lambda q_, v_, a_: rbda.compute_centroidal_momentum_time_variation(model, scratch, q_, v_, a_).copy()
    assert_close(data.hg, rbda.compute_centroidal_momentum(model, scratch, q, v), 1e-12)
    assert_close(data.dhg, hdot(q, v, a), 1e-12)
    assert_close(dh_dq, jacobian_along_basis(step, h, q, model.nv), FD_TOL)
    assert_close(dhdot_dq, jacobian_along_basis(step, lambda q_: hdot(q_, v, a), q, model.nv), FD_TOL)
    assert_close(dhdot_dv, jacobian_along_basis(plus, lambda v_: hdot(q, v_, a), v, model.nv), FD_TOL)
    assert_close(dhdot_da, rbda.compute_centroidal_map(model, scratch, q), 1e-12)

    def vcom(q_):
        rbda.center_of_mass(model, scratch, q_, v)
        return scratch.vcom[0].copy()

    assert_close(rbda.get_center_of_mass_velocity_derivatives(model, data),
                 jacobian_along_basis(step, vcom, q, model.nv), FD_TOL)


def test_centroidal_derivatives_need_mass_and_a_prior_call():
    model = rbda.Model()
    model.add_joint(0, rbda.JointModelRX(), rbda.SE3(), "massless")
    with pytest.raises(ValueError, match="no mass"):
        rbda.compute_centroidal_dynamics_derivatives(model, model.create_data(), [0.0], [0.0], [0.0])
    arm = rbda.sample_models.manipulator()
    with pytest.raises(ValueError, match="compute_centroidal_dynamics_derivatives"):
        rbda.get_center_of_mass_velocity_derivatives(arm, arm.create_data())


@pytest.mark.parametrize("case", ["manipulator", "humanoid", "constS-seed0-floating", "constS-seed1-tree"])
def test_centroidal_derivatives_agree_with_pinocchio(case):
    pin = pytest.importorskip("pinocchio")
    from test_against_pinocchio import make_model

    from rbda.interop.pinocchio import to_pinocchio

    model = make_model(case)
    pmodel = to_pinocchio(model)
    data, pdata = model.create_data(), pmodel.createData()
    q, v, a = random_state(model, seed=7)
    ours = rbda.compute_centroidal_dynamics_derivatives(model, data, q, v, a)
    for x, y in zip(ours, pin.computeCentroidalDynamicsDerivatives(pmodel, pdata, q, v, a)):
        assert_close(x, y, 1e-9)
    pin.centerOfMass(pmodel, pdata, q, v)
    assert_close(rbda.get_center_of_mass_velocity_derivatives(model, data),
                 pin.getCenterOfMassVelocityDerivatives(pmodel, pdata), 1e-9)
