"""The compiled constrained-dynamics and impulse-dynamics derivatives (``kernels/constrained_derivatives.py``)
against the step-by-step numpy evaluation of the same implicit-function-theorem formulas through the public
algorithms (``algorithms/constrained_derivatives.py``, which models with mimic joints use), to 1e-10: both are
checked against finite differences and Pinocchio in ``test_constrained_derivatives.py``, so this pins the compiled
formulation (world-frame columns, force terms, row-wise KKT solve; for the impulses two derivative passes without
gravity) to the readable one on every frame, kind, loop and joint type, with and without restitution."""

import numpy as np
import pytest
from conftest import assert_close, random_model
from constrained_cases import random_constraints, random_state, random_tree_with_constraints, robot_cases, well_posed

import rbda
from rbda import CONTACT_3D, CONTACT_6D, LOCAL, WORLD, RigidConstraintModel
from rbda.algorithms import constrained_derivatives as cdm

TOL = 1e-10
ROBOTS = robot_cases()
NAMES = {"dynamics": ("ddq_dq", "ddq_dv", "ddq_dtau", "dlambda_dq", "dlambda_dv", "dlambda_dtau"),
         "impulse": ("dvafter_dq", "dvafter_dv", "dimpulse_dq", "dimpulse_dv")}
KINDS = pytest.mark.parametrize("kind", list(NAMES))


def compiled_and_numpy(kind, model, cms, q, v, tau, mu, r_coeff):
    out = []
    for compiled in (True, False):
        data, cds = model.create_data(), [cm.create_data() for cm in cms]
        settings = rbda.ProximalSettings(1e-14, mu, 200 if mu else 1)
        if kind == "dynamics":
            rbda.constraint_dynamics(model, data, q, v, tau, cms, cds, settings)
            solution = data.ddq.copy(), data.lambda_c.copy()
            if compiled:
                result = rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds, settings)
            else:
                result = cdm._constraint_dynamics_derivatives_python(model, data, cms, cds, q, v, settings)
            assert np.array_equal(data.lambda_c, solution[1])
        else:
            rbda.impulse_dynamics(model, data, q, v, cms, cds, r_coeff, settings)
            solution = data.dq_after.copy(), data.impulse_c.copy()
            if compiled:
                result = rbda.compute_impulse_dynamics_derivatives(model, data, cms, cds, settings)
            else:
                result = cdm._impulse_dynamics_derivatives_python(model, data, cms, cds, q, v, r_coeff, settings)
            assert np.array_equal(data.dq_after, solution[0]) and np.array_equal(data.impulse_c, solution[1])
        out.append([np.array(x) for x in result])
    return out


def assert_same(kind, model, cms, q, v, tau, mu=0.0, r_coeff=0.3):
    mine, reference = compiled_and_numpy(kind, model, cms, q, v, tau, mu, r_coeff)
    for name, a, b in zip(NAMES[kind], mine, reference):
        assert a.shape == b.shape, name
        assert np.abs(b).max() > 1e-3, name  # not a comparison of zeros
        assert_close(a, b, TOL, name)


@KINDS
@pytest.mark.parametrize("gains", [(0.0, 0.0), (10.0, 3.0)])
@pytest.mark.parametrize("case", ROBOTS, ids=[c[0] for c in ROBOTS])
def test_robots(case, gains, kind):
    """The Baumgarte gains do not enter the impact: both impulse forms must ignore them."""
    _, make_model, make_constraints = case
    model = make_model()
    cms = make_constraints(model)
    for cm in cms:
        cm.set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(*gains))
    q, v, tau = random_state(model, 1)
    assert_same(kind, model, cms, q, v, tau, r_coeff=0.7 if gains[0] else 0.0)


@KINDS
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("floating", [False, True])
def test_random_trees_of_every_joint_type(seed, floating, kind):
    """Universal, spherical-ZYX and composite joints run on the elementary twin, with its joint ids."""
    model, cms = random_tree_with_constraints(seed, floating)
    rng = np.random.default_rng(seed)
    for cm in cms:
        cm.set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(*rng.uniform(0.5, 5.0, 2)))
    q, v, tau = random_state(model, seed)
    assert_same(kind, model, cms, q, v, tau, r_coeff=0.2 * (seed % 3))


@KINDS
def test_world_frames_desired_placement_and_loops(kind):
    model = random_model(3, True)
    rng = np.random.default_rng(7)
    last = model.njoints - 1
    cms = [RigidConstraintModel(CONTACT_6D, model, last, rbda.SE3.Random(rng), 0, rbda.SE3.Random(rng), WORLD),
           RigidConstraintModel(CONTACT_3D, model, 2, rbda.SE3.Random(rng), last - 1, rbda.SE3.Random(rng), LOCAL)]
    cms = [cm for cm in cms if well_posed(model, [cm])]
    assert cms
    for cm in cms:
        cm.set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(4.0, 1.0))
        cm.desired_contact_placement = rbda.SE3.Random(rng)
    q, v, tau = random_state(model, 3)
    assert_same(kind, model, cms, q, v, tau, r_coeff=0.5)


@KINDS
def test_redundant_set_with_damping(kind):
    """Four 6D feet (redundant): the derivatives with the damped G + mu I of the proximal solve (mu = 1e-2: the
    condition number of G + mu I grows as 1/mu and amplifies the rounding of both evaluations)."""
    _, make_model, make_constraints = ROBOTS[2]
    model = make_model()
    cms = make_constraints(model)
    cms = cms + [RigidConstraintModel(CONTACT_6D, model, cm.joint1_id, cm.joint1_placement) for cm in cms]
    q, v, tau = random_state(model, 2)
    assert_same(kind, model, cms, q, v, tau, mu=1e-2)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    with pytest.raises(ValueError, match="mu"):
        if kind == "dynamics":
            rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
        else:
            rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.3)


@KINDS
def test_random_constraint_sets_on_trees_with_mimic_joints_take_the_numpy_path(kind):
    model = random_model(0, True, mimic=True)
    cms = random_constraints(model, np.random.default_rng(0), count=2)
    q, v, tau = random_state(model, 0)
    assert_same(kind, model, cms, q, v, tau, r_coeff=0.4)


def test_impulse_and_dynamics_derivatives_alternating_on_one_data():
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
