"""Regression: impulse_dynamics leaves data.lambda_c (constraint_dynamics' forces) as it was, as Pinocchio does; the
two results were one buffer, so an impulse overwrote the forces (and a later constraint_dynamics the impulses)."""

import numpy as np
from constrained_cases import random_state, robot_cases

import rbda

ROBOTS = {c[0]: c for c in robot_cases()}


def test_lambda_c_and_impulse_c_are_separate():
    _, make_model, make_constraints = ROBOTS["solo12-3D-LWA"]
    model = make_model()
    cms = make_constraints(model)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    q, v, tau = random_state(model, 1)
    rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
    forces = data.lambda_c.copy()
    rbda.impulse_dynamics(model, data, q, v, cms, cds)
    impulses = data.impulse_c.copy()
    assert np.abs(impulses - forces).max() > 1e-3  # different quantities
    np.testing.assert_array_equal(data.lambda_c, forces)
    # the impulses against a fresh data (no binding shared)
    fresh = model.create_data()
    rbda.impulse_dynamics(model, fresh, q, v, cms, [cm.create_data() for cm in cms])
    np.testing.assert_allclose(impulses, fresh.impulse_c, rtol=0, atol=1e-12 * max(1.0, np.abs(impulses).max()))
    rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
    np.testing.assert_array_equal(data.impulse_c, impulses)
    np.testing.assert_allclose(data.lambda_c, forces, rtol=0, atol=1e-12 * max(1.0, np.abs(forces).max()))
