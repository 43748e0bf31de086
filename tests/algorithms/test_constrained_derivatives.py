"""Analytical derivatives of constrained and impulse dynamics: against central finite differences on the manifold
(``integrate(q, +-eps e_k)``), against Pinocchio 4.1, and against the blocks of the KKT inverse."""

import numpy as np
import pytest
from conftest import assert_close, random_model
from constrained_cases import random_constraints, random_state, random_tree_with_constraints, robot_cases, well_posed
from test_constrained_impulse import pinocchio_twins

import rbda
from rbda import CONTACT_6D, LOCAL, LOCAL_WORLD_ALIGNED, WORLD, RigidConstraintModel

TOL = 1e-9
FD_TOL = 1e-5
EPS = 1e-6
ROBOTS = robot_cases()


def finite_differences(model, cms, q, v, tau, impulse=None):
    """Central differences of ``(ddq, lambda)`` (or ``(v+, P)`` with ``impulse = r_coeff``) in q and v."""
    def f(qq, vv):
        data, cds = model.create_data(), [cm.create_data() for cm in cms]
        if impulse is None:
            x = rbda.constraint_dynamics(model, data, qq, vv, tau, cms, cds).copy()
            return np.r_[x, data.lambda_c]
        x = rbda.impulse_dynamics(model, data, qq, vv, cms, cds, impulse).copy()
        return np.r_[x, data.impulse_c]

    E = np.eye(model.nv)
    dq = np.array([(f(rbda.integrate(model, q, EPS * e), v) - f(rbda.integrate(model, q, -EPS * e), v)) / (2 * EPS)
                   for e in E]).T
    dv = np.array([(f(q, v + EPS * e) - f(q, v - EPS * e)) / (2 * EPS) for e in E]).T
    return dq[:model.nv], dv[:model.nv], dq[model.nv:], dv[model.nv:]


def derivatives(model, cms, q, v, tau):
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
    return data, cds, [x.copy() for x in rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds)]


def check_against_finite_differences(model, cms, q, v, tau, result):
    ddq_dq, ddq_dv, ddq_dtau, dl_dq, dl_dv, dl_dtau = result
    F = finite_differences(model, cms, q, v, tau)
    for name, mine, fd in zip(("ddq_dq", "ddq_dv", "dlambda_dq", "dlambda_dv"), (ddq_dq, ddq_dv, dl_dq, dl_dv), F):
        assert_close(mine, fd, FD_TOL, name)


def pinocchio_derivatives(model, cms, q, v, tau):
    pin, pm, pd, pcms, pcds = pinocchio_twins(model, cms)
    settings = pin.ProximalSettings(1e-12, 0.0, 1)
    pin.constraintDynamics(pm, pd, q, v, tau, pcms, pcds, settings)
    pin.computeConstraintDynamicsDerivatives(pm, pd, pcms, pcds, settings)
    return pd.ddq_dq, pd.ddq_dv, pd.ddq_dtau, pd.dlambda_dq, pd.dlambda_dv, pd.dlambda_dtau


def pinocchio_is_right(model, cms) -> bool:
    """Where Pinocchio 4.1's derivatives are wrong (finite differences side with rbda): the Baumgarte term of a 6D
    LOCAL_WORLD_ALIGNED constraint, and a 3D LOCAL loop between two branches that meet only at the world (it
    fills the column of an unrelated dof)."""
    def wrong(cm):
        if cm.type == CONTACT_6D:
            return cm.reference_frame == LOCAL_WORLD_ALIGNED and cm.corrector.Kp > 0
        common = set(model.supports[cm.joint1_id]) & set(model.supports[cm.joint2_id])
        return cm.reference_frame == LOCAL and cm.joint2_id != 0 and common == {0}
    return not any(wrong(cm) for cm in cms)


NAMES = ("ddq_dq", "ddq_dv", "ddq_dtau", "dlambda_dq", "dlambda_dv", "dlambda_dtau")


@pytest.mark.parametrize("case", ROBOTS, ids=[c[0] for c in ROBOTS])
def test_robots(case):
    _, make_model, make_constraints = case
    model = make_model()
    cms = make_constraints(model)
    cms[0].set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(2.0, 3.0))
    q, v, tau = random_state(model, 0)
    _, _, result = derivatives(model, cms, q, v, tau)
    check_against_finite_differences(model, cms, q, v, tau, result)
    reference = pinocchio_derivatives(model, cms, q, v, tau)
    if pinocchio_is_right(model, cms):
        for name, mine, theirs in zip(NAMES, result, reference):
            assert_close(mine, theirs, TOL, name)
    else:  # the discrepancy, where the finite differences above side with rbda
        assert np.max(np.abs(result[0] - reference[0])) > 1e-3 * np.max(np.abs(reference[0]))


def test_random_trees_against_pinocchio_and_kkt_inverse():
    """Random trees (constant motion subspaces: Pinocchio 4.1's derivatives are also wrong on universal,
    spherical-ZYX and composite joints) with random constraint sets: the whole set against finite differences and
    the KKT inverse; each constraint alone against Pinocchio wherever Pinocchio agrees with the finite
    differences. Pinocchio 4.1 gets some loops between separate branches and some 6D LOCAL_WORLD_ALIGNED
    constraints on free-flyers wrong; at least half of the constraints must be compared."""
    compared, total = 0, 0
    for seed, floating in [(s, f) for s in (0, 1, 2) for f in (False, True)]:
        model, cms = random_tree_with_constraints(seed, floating, constant_subspaces=True)
        q, v, tau = random_state(model, seed)
        data, cds, result = derivatives(model, cms, q, v, tau)
        check_against_finite_differences(model, cms, q, v, tau, result)
        J = np.vstack([cd.jacobian for cd in cds])
        K = rbda.compute_kkt_contact_dynamic_matrix_inverse(model, model.create_data(), q, J)
        assert_close(K[:model.nv, :model.nv], result[2], TOL, "ddq_dtau = KKT^-1 block")
        assert_close(K[model.nv:, :model.nv], -result[5], TOL, "dlambda_dtau = -KKT^-1 block")
        for cm in cms:
            total += 1
            _, _, mine = derivatives(model, [cm], q, v, tau)
            reference = pinocchio_derivatives(model, [cm], q, v, tau)
            fd = finite_differences(model, [cm], q, v, tau)
            if any(np.max(np.abs(r - f)) > FD_TOL * max(1.0, np.max(np.abs(f)))
                   for r, f in zip([reference[k] for k in (0, 1, 3, 4)], fd)):
                continue
            compared += 1
            for name, a, b in zip(NAMES, mine, reference):
                assert_close(a, b, TOL, f"{cm}: {name}")
    assert compared >= total / 2, (compared, total)


@pytest.mark.parametrize("seed,floating,mimic", [(0, False, False), (1, True, False), (2, True, False),
                                                 (0, True, True)])
def test_every_joint_type_against_finite_differences(seed, floating, mimic):
    """Every joint type (universal, spherical-ZYX, composite, helical, ..., mimic joints), loops with an ancestor,
    WORLD 6D constraints and Baumgarte gains: finite differences only (Pinocchio lacks some of these)."""
    model = random_model(seed, floating, mimic=mimic)
    rng = np.random.default_rng(seed)
    cms = random_constraints(model, rng, count=3)
    world = RigidConstraintModel(CONTACT_6D, model, model.njoints - 1, rbda.SE3.Random(rng), 0, rbda.SE3.Random(rng),
                                 WORLD)
    cms = cms[1:] + [world] if well_posed(model, cms[1:] + [world]) else cms
    for cm in cms:
        cm.set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(*rng.uniform(0.5, 3.0, 2)))
    q, v, tau = random_state(model, seed)
    _, _, result = derivatives(model, cms, q, v, tau)
    check_against_finite_differences(model, cms, q, v, tau, result)


@pytest.mark.parametrize("case", ROBOTS, ids=[c[0] for c in ROBOTS])
def test_impulse_derivatives(case):
    _, make_model, make_constraints = case
    model = make_model()
    cms = make_constraints(model)
    q, v, _ = random_state(model, 0)
    r_coeff = 0.3
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    rbda.impulse_dynamics(model, data, q, v, cms, cds, r_coeff)
    result = [x.copy() for x in rbda.compute_impulse_dynamics_derivatives(model, data, cms, cds)]
    F = finite_differences(model, cms, q, v, None, impulse=r_coeff)
    for name, mine, fd in zip(("dvafter_dq", "dvafter_dv", "dimpulse_dq", "dimpulse_dv"), result, F):
        assert_close(mine, fd, FD_TOL, name)
    if all(cm.joint2_id == 0 for cm in cms):  # Pinocchio 4.1's loop impulses are wrong (test_constrained_impulse)
        pin, pm, pd, pcms, pcds = pinocchio_twins(model, cms)
        settings = pin.ProximalSettings(1e-12, 0.0, 1)
        pin.impulseDynamics(pm, pd, q, v, pcms, pcds, r_coeff, settings)
        pin.computeImpulseDynamicsDerivatives(pm, pd, pcms, pcds, r_coeff, settings)
        # Pinocchio's ddq_dv is the derivative of the jump v+ - v
        for mine, theirs in zip(result, (pd.ddq_dq, pd.ddq_dv + np.eye(model.nv), pd.dlambda_dq, pd.dlambda_dv)):
            assert_close(mine, theirs, TOL)


def test_derivatives_need_the_dynamics_first():
    model = rbda.sample_models.manipulator()
    cms = [RigidConstraintModel(CONTACT_6D, model, model.njoints - 1)]
    cds = [cm.create_data() for cm in cms]
    data = model.create_data()
    with pytest.raises(ValueError, match="constraint_dynamics"):
        rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds)
    with pytest.raises(ValueError, match="impulse_dynamics"):
        rbda.compute_impulse_dynamics_derivatives(model, data, cms, cds)
    with pytest.raises(ValueError, match="contact_datas"):
        rbda.compute_constraint_dynamics_derivatives(model, data, cms, [])
