"""Impulses, the dense KKT forms, the KKT inverse and the Delassus matrix / operator: against Pinocchio 4.1, the
impact identities and the dense formulas (which are the reference where Pinocchio 4.1 is wrong)."""

import numpy as np
import pytest
from conftest import assert_close
from constrained_cases import (frame_constraint, random_state, random_tree_with_constraints, robot_cases, talos,
                               to_pinocchio_constraints)

import rbda
from rbda import CONTACT_3D, CONTACT_6D, LOCAL, LOCAL_WORLD_ALIGNED, DelassusOperator, ProximalSettings

TOL = 1e-9
ROBOTS = robot_cases()
RANDOM = [(seed, floating) for seed in (0, 1, 2) for floating in (False, True)]


def pinocchio_twins(model, cms):
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio

    pm = to_pinocchio(model)
    pd = pm.createData()
    pcms, pcds = to_pinocchio_constraints(pm, cms)
    pin.initConstraintDynamics(pm, pd, pcms, pcds)
    return pin, pm, pd, pcms, pcds


def dense(model, q):
    d = model.create_data()
    return rbda.crba(model, d, q).copy()


def check_impulse(model, data, cds, q, v, r_coeff, dq_after):
    """``J v+ = -e J v-`` and ``M (v+ - v-) = J^T P``."""
    J = np.vstack([cd.jacobian for cd in cds])
    assert_close(J @ dq_after, -r_coeff * (J @ v), TOL, "J v+ = -e J v-")
    assert_close(dense(model, q) @ (dq_after - v), J.T @ data.impulse_c, TOL, "M (v+ - v-) = J^T P")


def pinocchio_impulse_is_right(cms) -> bool:
    """Pinocchio 4.1's ``impulseDynamics`` with a loop (joint 2 a joint of the robot) violates ``J v+ = -e J v-``
    with its own Jacobian (checked below); it is the reference for contacts with the world only."""
    return all(cm.joint2_id == 0 for cm in cms)


def check_against_pinocchio_impulse(model, cms, cds, J, q, v, r_coeff, dq, impulses, dq_p, impulses_p):
    if pinocchio_impulse_is_right(cms):
        assert_close(dq, dq_p, TOL, "dq_after")
        assert_close(impulses, impulses_p, TOL, "impulse_c")
    else:  # the discrepancy: Pinocchio's loop impulse does not stop the loop's relative velocity
        assert np.max(np.abs(J @ dq_p + r_coeff * (J @ v))) > 1e-3


@pytest.mark.parametrize("case", ROBOTS, ids=[c[0] for c in ROBOTS])
def test_impulse_dynamics_robots(case):
    _, make_model, make_constraints = case
    model = make_model()
    cms = make_constraints(model)
    pin, pm, pd, pcms, pcds = pinocchio_twins(model, cms)
    q, v, _ = random_state(model, 1)
    for r_coeff in (0.0, 0.4):
        data, cds = model.create_data(), [cm.create_data() for cm in cms]
        dq = rbda.impulse_dynamics(model, data, q, v, cms, cds, r_coeff).copy()
        dq_p = pin.impulseDynamics(pm, pd, q, v, pcms, pcds, r_coeff, pin.ProximalSettings(1e-12, 0.0, 1))
        J = np.vstack([cd.jacobian for cd in cds])
        check_against_pinocchio_impulse(model, cms, cds, J, q, v, r_coeff, dq, data.impulse_c, dq_p, pd.impulse_c)
        if pinocchio_impulse_is_right(cms):
            for cd, pcd in zip(cds, pcds):
                assert_close(cd.contact_force, pcd.contact_force.vector, TOL, "contact_force (impulse)")
        check_impulse(model, data, cds, q, v, r_coeff, dq)


@pytest.mark.parametrize("seed,floating", RANDOM)
def test_impulse_and_dense_forms_random_trees(seed, floating):
    model, cms = random_tree_with_constraints(seed, floating)
    pin, pm, pd, pcms, pcds = pinocchio_twins(model, cms)
    q, v, tau = random_state(model, seed)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    dq = rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.7).copy()
    dq_p = pin.impulseDynamics(pm, pd, q, v, pcms, pcds, 0.7, pin.ProximalSettings(1e-12, 0.0, 1))
    J = np.vstack([cd.jacobian for cd in cds])
    check_against_pinocchio_impulse(model, cms, cds, J, q, v, 0.7, dq, data.impulse_c, dq_p, pd.impulse_c)
    check_impulse(model, data, cds, q, v, 0.7, dq)
    # the dense forms on the same J and gamma give the constraint models' results
    ddq = rbda.constraint_dynamics(model, data, q, v, tau, cms, cds).copy()
    lam = data.lambda_c.copy()
    J = np.vstack([cd.jacobian for cd in cds])
    gamma = np.concatenate([cd.contact_acceleration_drift for cd in cds])
    assert_close(rbda.forward_dynamics(model, data, q, v, tau, J, gamma), ddq, TOL)
    assert_close(data.lambda_c, lam, TOL)
    assert_close(rbda.impulse_dynamics(model, data, q, v, J, 0.7), dq, TOL)
    for damping in (0.0, 1e-3):
        assert_close(rbda.forward_dynamics(model, data, q, v, tau, J, gamma, damping),
                     pin.forwardDynamics(pm, pd, q, v, tau, J, gamma, damping), TOL, "forward_dynamics")
        assert_close(data.lambda_c, pd.lambda_c, TOL)
        assert_close(rbda.impulse_dynamics(model, data, q, v, J, 0.2, damping),
                     pin.impulseDynamics(pm, pd, q, v, J, 0.2, damping), TOL, "dense impulse_dynamics")
        assert_close(data.impulse_c, pd.impulse_c, TOL)


@pytest.mark.parametrize("seed,floating", RANDOM[:4])
def test_kkt_inverse(seed, floating):
    model, cms = random_tree_with_constraints(seed, floating)
    pin, pm, pd, pcms, pcds = pinocchio_twins(model, cms)
    q, v, tau = random_state(model, seed)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
    J = np.vstack([cd.jacobian for cd in cds])
    M, m = dense(model, q), len(J)
    for damping in (0.0, 1e-2):
        K = rbda.compute_kkt_contact_dynamic_matrix_inverse(model, data, q, J, damping)
        reference = np.linalg.inv(np.block([[M, J.T], [J, -damping * np.eye(m)]]))
        assert_close(K, reference, 1e-8, "inv([[M, J^T], [J, -damping]])")
        assert_close(K, pin.computeKKTContactDynamicMatrixInverse(pm, pd, q, J, damping), 1e-8, "Pinocchio")


# ------------------------------------------------------------------------------------------------ Delassus
def feet(model, rf):
    return [frame_constraint(model, CONTACT_6D, "left_sole_link", LOCAL),
            frame_constraint(model, CONTACT_3D, "right_sole_link", rf)]


def test_delassus_matrix_and_pinocchio_4_1_discrepancies():
    """``compute_delassus_matrix`` equals the dense ``J M^-1 J^T``; Pinocchio 4.1 agrees in LOCAL, but with a
    LOCAL_WORLD_ALIGNED contact it returns the LOCAL-frame matrix, and its damped inverse is not
    ``(G + mu I)^-1``: both discrepancies are shown here."""
    model = talos()
    q, _, _ = random_state(model, 0)
    M = dense(model, q)
    G = {}
    for rf in (LOCAL, LOCAL_WORLD_ALIGNED):
        cms = feet(model, rf)
        data, cds = model.create_data(), [cm.create_data() for cm in cms]
        G[rf] = rbda.compute_delassus_matrix(model, data, q, cms, cds).copy()
        J = data.constraint_jacobian
        assert_close(G[rf], J @ np.linalg.solve(M, J.T), TOL, "J M^-1 J^T")
        mu = 1e-2
        inverse = rbda.compute_damped_delassus_matrix_inverse(model, data, q, cms, cds, mu)
        assert_close(inverse @ (G[rf] + mu * np.eye(len(J))), np.eye(len(J)), 1e-9, "(G + mu I)^-1")
        pin, pm, pd, pcms, pcds = pinocchio_twins(model, cms)
        G_pin = pin.computeDelassusMatrix(pm, pd, q, pcms, pcds, 0.0)
        inverse_pin = pin.computeDampedDelassusMatrixInverse(pm, pd, q, pcms, pcds, mu)
        assert np.max(np.abs(inverse_pin - inverse)) > 1e-3 * np.max(np.abs(inverse))  # Pinocchio 4.1 is off
        if rf == LOCAL:
            assert_close(G_pin, G[rf], TOL, "Pinocchio's Delassus, LOCAL")
        else:
            assert_close(G_pin, G[LOCAL], TOL, "Pinocchio 4.1 gives the LOCAL matrix for LOCAL_WORLD_ALIGNED")
            assert np.max(np.abs(G_pin - G[rf])) > 1e-3
    assert_close(np.linalg.eigvalsh(G[LOCAL]), np.linalg.eigvalsh(G[LOCAL_WORLD_ALIGNED]), 1e-9, "same spectrum")


def test_delassus_operator():
    model = talos()
    cms = feet(model, LOCAL_WORLD_ALIGNED)
    q, _, _ = random_state(model, 2)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    rbda.compute_delassus_matrix(model, data, q, cms, cds)
    J = data.constraint_jacobian.copy()
    G = J @ np.linalg.solve(dense(model, q), J.T)
    op = DelassusOperator(model, model.create_data(), q, J)
    rng = np.random.default_rng(0)
    x = rng.normal(size=op.size)
    assert op.size == 9
    assert_close(op.matrix(), G, TOL)
    assert_close(op.apply(x), G @ x, TOL)
    assert_close(op.diagonal(), np.diag(G), TOL)
    assert_close(op.solve(x, 1e-3), np.linalg.solve(G + 1e-3 * np.eye(9), x), 1e-8)
    d = rng.uniform(0.0, 1e-2, 9)
    assert_close(op.solve(x, d), np.linalg.solve(G + np.diag(d), x), 1e-8)
    X = rng.normal(size=(9, 2))
    assert_close(op.solve(X, d), np.linalg.solve(G + np.diag(d), X), 1e-8)
    assert op.max_eigenvalue() == pytest.approx(np.linalg.eigvalsh(G)[-1], rel=1e-8)
    redundant = DelassusOperator(model, model.create_data(), q, np.vstack([J, J[:3]]))
    with pytest.raises(ValueError, match="damping"):
        redundant.solve(np.ones(12), 0.0)
    assert_close(redundant.solve(np.ones(12), 1e-6) @ (redundant.matrix() + 1e-6 * np.eye(12)), np.ones(12), 1e-6)
    with pytest.raises(ValueError, match="damping"):
        op.solve(x, -1.0)
    with pytest.raises(ValueError, match="damping"):
        op.solve(x, np.ones(3))
    with pytest.raises(ValueError, match="J"):
        DelassusOperator(model, model.create_data(), q, np.ones((2, 3)))
    with pytest.raises(ValueError, match="x"):
        op.apply(np.ones(2))


def test_bad_input_dense_forms():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q, v, tau = random_state(model, 0)
    J = np.random.default_rng(0).normal(size=(2, model.nv))
    with pytest.raises(ValueError, match="J"):
        rbda.forward_dynamics(model, data, q, v, tau, J[:, :3], np.zeros(2))
    with pytest.raises(ValueError, match="gamma"):
        rbda.forward_dynamics(model, data, q, v, tau, J, np.zeros(3))
    with pytest.raises(ValueError, match="gamma"):
        rbda.forward_dynamics(model, data, q, v, tau, J, np.array([np.nan, 0.0]))
    with pytest.raises(ValueError, match="inv_damping"):
        rbda.forward_dynamics(model, data, q, v, tau, J, np.zeros(2), -1.0)
    with pytest.raises(ValueError, match="J: is rank-deficient"):
        rbda.forward_dynamics(model, data, q, v, tau, np.vstack([J, J]), np.zeros(4))
    with pytest.raises(ValueError, match="r_coeff"):
        rbda.impulse_dynamics(model, data, q, v, J, 1.5)
    cms = [rbda.RigidConstraintModel(CONTACT_3D, model, model.njoints - 1)]
    with pytest.raises(ValueError, match="r_coeff"):
        rbda.impulse_dynamics(model, data, q, v, cms, [cms[0].create_data()], -0.1)
    with pytest.raises(ValueError, match="mu"):
        rbda.compute_delassus_matrix(model, data, q, cms, [cms[0].create_data()], -1.0)
    with pytest.raises(ValueError, match="redundant.*mu"):
        rbda.impulse_dynamics(model, data, q, v, cms + cms, [cms[0].create_data()] * 2, 0.0)
    dq = rbda.impulse_dynamics(model, data, q, v, cms + cms, [cms[0].create_data()] * 2, 0.0,
                               ProximalSettings(1e-12, 1e-8, 100))
    assert np.all(np.isfinite(dq))


@pytest.mark.parametrize("mimic", [False, True])
def test_a_non_finite_jacobian_is_named(mimic):
    """The compiled forms check ``J`` in their kernel, the ones for mimic joints before their Python steps: either
    way the error names ``J``."""
    model = rbda.sample_models.manipulator()
    if mimic:
        model = rbda.transform_joint_into_mimic(model, 1, 2, 0.5, 0.1)
    data = model.create_data()
    q, v, tau = random_state(model, 0)
    J = np.random.default_rng(0).normal(size=(2, model.nv))
    J[1, 1] = np.nan
    with pytest.raises(ValueError, match="J: contains non-finite"):
        rbda.forward_dynamics(model, data, q, v, tau, J, np.zeros(2))
    with pytest.raises(ValueError, match="J: contains non-finite"):
        rbda.compute_kkt_contact_dynamic_matrix_inverse(model, data, q, J)
    with pytest.raises(ValueError, match="J: contains non-finite"):
        rbda.impulse_dynamics(model, data, q, v, J)
