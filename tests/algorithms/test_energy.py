"""Energies: kinetic energy is 1/2 v^T M v, the gradient of the potential energy is the generalised gravity,
Pinocchio (when installed), input errors."""

import numpy as np
import pytest
from conftest import MODEL_CASES, assert_close, jacobian_along_basis, random_model, random_state

import rbda


def test_kinetic_energy_is_half_vMv(model):
    model.armature = np.random.default_rng(2).uniform(0.0, 0.2, model.nv)
    data = model.create_data()
    q, v, _ = random_state(model)
    ke = rbda.compute_kinetic_energy(model, data, q, v)
    M = rbda.crba(model, model.create_data(), q)
    assert ke == pytest.approx(0.5 * v @ M @ v, rel=1e-12)
    assert data.kinetic_energy == ke


def test_potential_energy_gradient_is_generalized_gravity(model):
    data = model.create_data()
    q, v, _ = random_state(model)
    pe = rbda.compute_potential_energy(model, data, q)
    com = rbda.center_of_mass(model, model.create_data(), q)
    assert pe == pytest.approx(-rbda.compute_total_mass(model) * model.gravity.linear @ com, rel=1e-12, abs=1e-12)
    scratch = model.create_data()
    grad = jacobian_along_basis(lambda x, dx: rbda.integrate(model, x, dx),
                                lambda x: np.array([rbda.compute_potential_energy(model, scratch, x)]), q, model.nv)[0]
    assert_close(grad, rbda.compute_generalized_gravity(model, model.create_data(), q), 1e-6)
    me = rbda.compute_mechanical_energy(model, data, q, v)
    assert me == pytest.approx(data.kinetic_energy + data.potential_energy, rel=1e-14)
    assert data.potential_energy == pytest.approx(pe, rel=1e-14)
    assert data.kinetic_energy == pytest.approx(rbda.compute_kinetic_energy(model, scratch, q, v), rel=1e-14)


def test_energy_is_conserved_without_gravity_and_torque():
    """d/dt (kinetic energy) = v^T tau along forward dynamics: zero when tau = 0 and g = 0."""
    model = random_model(0, True)
    model.gravity = rbda.Motion(np.zeros(6))
    data = model.create_data()
    q, v, _ = random_state(model)
    ddq = rbda.aba(model, data, q, v, np.zeros(model.nv)).copy()
    eps = 1e-6
    ke = [rbda.compute_kinetic_energy(model, data, rbda.integrate(model, q, s * eps * v), v + s * eps * ddq) for s in (1, -1)]
    assert (ke[0] - ke[1]) / (2 * eps) == pytest.approx(0.0, abs=1e-5 * max(1.0, ke[0]))


def test_bad_input():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q, v, _ = random_state(model)
    with pytest.raises(ValueError, match="v"):
        rbda.compute_kinetic_energy(model, data, q, v[:-1])
    with pytest.raises(ValueError, match="q: contains non-finite"):
        rbda.compute_potential_energy(model, data, np.full(model.nq, np.inf))
    with pytest.raises(ValueError, match="data"):
        rbda.compute_mechanical_energy(model, rbda.sample_models.humanoid().create_data(), q, v)


@pytest.mark.parametrize("case", MODEL_CASES[:4], ids=str)
def test_against_pinocchio(case):
    """Without armature: Pinocchio 4.1 leaves out the armature of unaligned revolute and helical joints."""
    pin = pytest.importorskip("pinocchio")
    from test_against_pinocchio import pinocchio_joint_types
    from rbda.interop.pinocchio import to_pinocchio

    model = random_model(*case, joints=pinocchio_joint_types())
    data, pm = model.create_data(), to_pinocchio(model)
    pd = pm.createData()
    q, v, _ = random_state(model, 1)
    assert rbda.compute_kinetic_energy(model, data, q, v) == pytest.approx(pin.computeKineticEnergy(pm, pd, q, v), rel=1e-12)
    assert rbda.compute_potential_energy(model, data, q) == pytest.approx(pin.computePotentialEnergy(pm, pd, q), rel=1e-12, abs=1e-12)
    assert rbda.compute_mechanical_energy(model, data, q, v) == pytest.approx(pin.computeMechanicalEnergy(pm, pd, q, v), rel=1e-12)
