"""The compiled impulse-dynamics derivatives (``impulse_dynamics_derivatives`` in
``kernels/constrained_derivatives.py``) against the step-by-step numpy evaluation of the same
implicit-function-theorem formulas through the public algorithms (``_impulse_dynamics_derivatives_python``, which
models with mimic joints use), to 1e-10, on the constrained-derivatives kernel's cases: both forms are checked
against finite differences and Pinocchio in ``test_constrained_derivatives.py``; this pins the compiled one (two
derivative passes without gravity, force terms, row-wise KKT solve) to the readable one on every frame, kind, loop
and joint type, with and without restitution."""

import numpy as np
import pytest
from conftest import assert_close, random_model
from constrained_cases import random_constraints, random_state, random_tree_with_constraints, robot_cases, well_posed

import rbda
from rbda import CONTACT_3D, CONTACT_6D, LOCAL, WORLD, RigidConstraintModel
from rbda.algorithms import constrained_derivatives as cdm

TOL = 1e-10
ROBOTS = robot_cases()
NAMES = ("dvafter_dq", "dvafter_dv", "dimpulse_dq", "dimpulse_dv")


def compiled_and_numpy(model, cms, q, v, r_coeff, mu=0.0):
    out = []
    for compiled in (True, False):
        data, cds = model.create_data(), [cm.create_data() for cm in cms]
        settings = rbda.ProximalSettings(1e-14, mu, 200 if mu else 1)
        rbda.impulse_dynamics(model, data, q, v, cms, cds, r_coeff, settings)
        v_after, P = data.dq_after.copy(), data.impulse_c.copy()
        if compiled:
            result = rbda.compute_impulse_dynamics_derivatives(model, data, cms, cds, settings)
        else:
            result = cdm._impulse_dynamics_derivatives_python(model, data, cms, cds, q, v, r_coeff, settings)
        assert np.array_equal(data.dq_after, v_after) and np.array_equal(data.impulse_c, P)  # left as they were
        out.append([np.array(x) for x in result])
    return out


def assert_same(model, cms, q, v, r_coeff, mu=0.0):
    mine, reference = compiled_and_numpy(model, cms, q, v, r_coeff, mu)
    for name, a, b in zip(NAMES, mine, reference):
        assert a.shape == b.shape, name
        assert np.abs(b).max() > 1e-3, name  # not a comparison of zeros
        assert_close(a, b, TOL, name)


@pytest.mark.parametrize("r_coeff", [0.0, 0.7])
@pytest.mark.parametrize("gains", [(0.0, 0.0), (10.0, 3.0)])
@pytest.mark.parametrize("case", ROBOTS, ids=[c[0] for c in ROBOTS])
def test_robots(case, gains, r_coeff):
    """The Baumgarte gains do not enter the impact: both forms must ignore them."""
    _, make_model, make_constraints = case
    model = make_model()
    cms = make_constraints(model)
    for cm in cms:
        cm.set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(*gains))
    q, v, _ = random_state(model, 1)
    assert_same(model, cms, q, v, r_coeff)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("floating", [False, True])
def test_random_trees_of_every_joint_type(seed, floating):
    """Universal, spherical-ZYX and composite joints run on the elementary twin, with its joint ids."""
    model, cms = random_tree_with_constraints(seed, floating)
    q, v, _ = random_state(model, seed)
    assert_same(model, cms, q, v, 0.2 * (seed % 3))


def test_world_frames_desired_placement_and_loops():
    model = random_model(3, True)
    rng = np.random.default_rng(7)
    last = model.njoints - 1
    cms = [RigidConstraintModel(CONTACT_6D, model, last, rbda.SE3.Random(rng), 0, rbda.SE3.Random(rng), WORLD),
           RigidConstraintModel(CONTACT_3D, model, 2, rbda.SE3.Random(rng), last - 1, rbda.SE3.Random(rng), LOCAL)]
    cms = [cm for cm in cms if well_posed(model, [cm])]
    assert cms
    for cm in cms:
        cm.desired_contact_placement = rbda.SE3.Random(rng)
    q, v, _ = random_state(model, 3)
    assert_same(model, cms, q, v, 0.5)


def test_redundant_set_with_damping():
    """Four 6D feet (redundant): the derivatives with the damped G + mu I of the proximal solve."""
    _, make_model, make_constraints = ROBOTS[2]
    model = make_model()
    cms = make_constraints(model)
    cms = cms + [RigidConstraintModel(CONTACT_6D, model, cm.joint1_id, cm.joint1_placement) for cm in cms]
    q, v, _ = random_state(model, 2)
    assert_same(model, cms, q, v, 0.3, mu=1e-2)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    with pytest.raises(ValueError, match="mu"):
        rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.3)


def test_random_constraint_sets_on_trees_with_mimic_joints_take_the_numpy_path():
    model = random_model(0, True, mimic=True)
    cms = random_constraints(model, np.random.default_rng(0), count=2)
    q, v, _ = random_state(model, 0)
    assert_same(model, cms, q, v, 0.4)


def test_alternating_with_the_constraint_derivatives_on_one_data():
    """Both compiled derivatives share ``data``'s derivative workspace: each call after the other is unchanged."""
    _, make_model, make_constraints = ROBOTS[0]
    model = make_model()
    cms = make_constraints(model)
    q, v, tau = random_state(model, 4)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.5)
    first = [x.copy() for x in rbda.compute_impulse_dynamics_derivatives(model, data, cms, cds)]
    rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
    rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds)
    rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.5)
    for a, b in zip(first, rbda.compute_impulse_dynamics_derivatives(model, data, cms, cds)):
        assert_close(a, b, 1e-13)
