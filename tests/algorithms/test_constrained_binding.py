"""The constraint set bound to a Data: the models' packed rows are views of the kernels' arrays, so an edit of a
constraint model (in place or through a setter) between calls reaches the next call without a copy per call; the
same models used with two datas in turn, a list changed in place, and the state the derivatives read."""

import numpy as np
import pytest
from constrained_cases import random_state, robot_cases

import rbda

ROBOTS = {c[0]: c for c in robot_cases()}


def fresh(model, cms, q, v, tau):
    """ddq and lambda from constraint models rebuilt from scratch (no binding shared with the caller's)."""
    copies = []
    for cm in cms:
        c = rbda.RigidConstraintModel(cm.type, model, cm.joint1_id, cm.joint1_placement, cm.joint2_id,
                                      cm.joint2_placement, cm.reference_frame)
        c.params[:] = cm.params  # gains and targets
        copies.append(c)
    data = model.create_data()
    ddq = rbda.constraint_dynamics(model, data, q, v, tau, copies, [c.create_data() for c in copies]).copy()
    return ddq, data.lambda_c.copy()


def test_edits_between_calls_reach_the_kernel():
    _, make_model, make_constraints = ROBOTS["talos-6D-feet"]
    model = make_model()
    cms = make_constraints(model)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    q, v, tau = random_state(model, 1)
    rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
    first = data.lambda_c.copy()
    cms[0].desired_contact_velocity[:] = [0.1, -0.2, 0.3, 0.0, 0.1, 0.0]  # in place, on the view
    cms[1].set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(5.0, 2.0))
    cms[1].joint1_placement = rbda.SE3.Random(np.random.default_rng(2))  # a setter
    ddq = rbda.constraint_dynamics(model, data, q, v, tau, cms, cds).copy()
    ref_ddq, ref_lam = fresh(model, cms, q, v, tau)
    assert np.abs(data.lambda_c - first).max() > 1e-3  # the edits changed the solution
    np.testing.assert_allclose(ddq, ref_ddq, rtol=0, atol=1e-10 * max(1.0, np.abs(ref_ddq).max()))
    np.testing.assert_allclose(data.lambda_c, ref_lam, rtol=0, atol=1e-10 * max(1.0, np.abs(ref_lam).max()))
    assert np.array_equal(cds[0].contact_force, data.lambda_c[:6])


def test_two_datas_in_turn_and_a_list_changed_in_place():
    _, make_model, make_constraints = ROBOTS["solo12-3D-LWA"]
    model = make_model()
    cms = make_constraints(model)
    cds = [cm.create_data() for cm in cms]
    d1, d2 = model.create_data(), model.create_data()
    q, v, tau = random_state(model, 3)
    ref = fresh(model, cms, q, v, tau)
    for data in (d1, d2, d1, d2):
        cms[2].desired_contact_acceleration[:3] += 0.5  # each data sees the current value
        ref = fresh(model, cms, q, v, tau)
        ddq = rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
        np.testing.assert_allclose(ddq, ref[0], rtol=0, atol=1e-10 * np.abs(ref[0]).max())
    cms.pop(), cds.pop()  # the same list objects, one constraint fewer
    ddq = rbda.constraint_dynamics(model, d1, q, v, tau, cms, cds)
    np.testing.assert_allclose(ddq, fresh(model, cms, q, v, tau)[0], rtol=0, atol=1e-9)
    assert d1.lambda_c.shape == (9,)


def test_derivatives_read_the_state_of_the_last_call():
    """The caller's arrays may change after the call: the derivatives use the state the call saw."""
    _, make_model, make_constraints = ROBOTS["solo12-3D-LOCAL"]
    model = make_model()
    cms = make_constraints(model)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    q, v, tau = random_state(model, 4)
    rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
    expected = [np.array(x) for x in rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds)]
    rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
    q2, v2, tau2 = random_state(model, 5)
    q[:], v[:], tau[:] = q2, v2, tau2
    for mine, ref in zip(rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds), expected):
        np.testing.assert_array_equal(mine, ref)
    rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.5)
    expected = [np.array(x) for x in rbda.compute_impulse_dynamics_derivatives(model, data, cms, cds)]
    rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.5)
    q[:], v[:] = random_state(model, 6)[:2]
    for mine, ref in zip(rbda.compute_impulse_dynamics_derivatives(model, data, cms, cds), expected):
        np.testing.assert_array_equal(mine, ref)


def test_derivatives_of_another_constraint_set_are_refused_and_the_call_s_set_is_used():
    """The derivatives read the last call's forces, records, Jacobian and Delassus matrix: a set of another size
    is an error naming contact_models (and rebinds the data to it); after a new call with the full set, the same
    models in a tuple give the same partials as before."""
    _, make_model, make_constraints = ROBOTS["solo12-3D-LWA"]
    model = make_model()
    cms = make_constraints(model)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    q, v, tau = random_state(model, 7)
    rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
    expected = [np.array(x) for x in rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds)]
    with pytest.raises(ValueError, match="contact_models: not the constraint set of the last call"):
        rbda.compute_constraint_dynamics_derivatives(model, data, cms[:2], cds[:2])
    rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
    for mine, ref in zip(rbda.compute_constraint_dynamics_derivatives(model, data, tuple(cms), tuple(cds)), expected):
        np.testing.assert_array_equal(mine, ref)
    rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.2)
    with pytest.raises(ValueError, match="contact_models: not the constraint set of the last call"):
        rbda.compute_impulse_dynamics_derivatives(model, data, cms[1:], cds[1:])
