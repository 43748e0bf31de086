"""Constrained dynamics (contacts, loops): against Pinocchio 4.1 on real robots and random trees, the identities of
the KKT system, finite differences of the constraint kinematics, Baumgarte stabilisation, proximal iterations."""

import numpy as np
import pytest
from conftest import assert_close, random_model
from constrained_cases import (well_posed, random_constraints, random_state, random_tree_with_constraints,
                               robot_cases, to_pinocchio_constraints)

import rbda
from rbda import CONTACT_3D, CONTACT_6D, LOCAL, LOCAL_WORLD_ALIGNED, WORLD, ProximalSettings, RigidConstraintModel

TOL = 1e-9
ROBOTS = robot_cases()
RANDOM = [(seed, floating) for seed in (0, 1, 2) for floating in (False, True)]


def solve(model, cms, q, v, tau, settings=None):
    data = model.create_data()
    cds = [cm.create_data() for cm in cms]
    rbda.init_constraint_dynamics(model, data, cms, cds)
    ddq = rbda.constraint_dynamics(model, data, q, v, tau, cms, cds, settings).copy()
    return data, cds, ddq


def pinocchio_solve(model, cms, q, v, tau, mu=0.0, max_iter=1):
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio

    pm = to_pinocchio(model)
    pd = pm.createData()
    pcms, pcds = to_pinocchio_constraints(pm, cms)
    pin.initConstraintDynamics(pm, pd, pcms, pcds)
    settings = pin.ProximalSettings(1e-12, mu, max_iter)
    ddq = pin.constraintDynamics(pm, pd, q, v, tau, pcms, pcds, settings).copy()
    return ddq, pd.lambda_c.copy(), [pcd.contact_force.vector.copy() for pcd in pcds], settings


def check_identities(model, data, cms, cds, q, v, tau, ddq):
    """``M ddq + nle = tau + J^T lambda`` and ``J ddq + gamma = a_c``, with M and nle from crba / rnea."""
    d = model.create_data()
    M, nle = rbda.crba(model, d, q).copy(), rbda.nonlinear_effects(model, d, q, v).copy()
    J = np.vstack([cd.jacobian for cd in cds])
    lam = data.lambda_c
    assert_close(M @ ddq + nle, tau + J.T @ lam, TOL, "M ddq + nle = tau + J^T lambda")
    acc = np.concatenate([cd.contact_acceleration_drift for cd in cds]) + J @ ddq
    assert_close(acc, np.concatenate([cd.contact_acceleration_desired for cd in cds]), TOL, "J ddq + gamma = a_c")
    r = 0
    for cm, cd in zip(cms, cds):
        assert_close(cd.contact_force[:cm.size], lam[r:r + cm.size], 0.0)
        r += cm.size


# ------------------------------------------------------------------------------------------------ robots
@pytest.mark.parametrize("case", ROBOTS, ids=[c[0] for c in ROBOTS])
def test_robots_against_pinocchio(case):
    _, make_model, make_constraints = case
    model = make_model()
    cms = make_constraints(model)
    cms[0].set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(3.0, 1.5))
    for seed in range(2):
        q, v, tau = random_state(model, seed)
        data, cds, ddq = solve(model, cms, q, v, tau)
        ddq_p, lam_p, forces_p, _ = pinocchio_solve(model, cms, q, v, tau)
        assert_close(ddq, ddq_p, TOL, "ddq")
        assert_close(data.lambda_c, lam_p, TOL, "lambda_c")
        for cd, f in zip(cds, forces_p):
            assert_close(cd.contact_force, f, TOL, "contact_force")
        check_identities(model, data, cms, cds, q, v, tau, ddq)


@pytest.mark.parametrize("seed,floating", RANDOM)
def test_random_trees_against_pinocchio(seed, floating):
    model, cms = random_tree_with_constraints(seed, floating)
    cms[0].set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(2.0, 0.5))
    q, v, tau = random_state(model, seed)
    data, cds, ddq = solve(model, cms, q, v, tau)
    ddq_p, lam_p, forces_p, _ = pinocchio_solve(model, cms, q, v, tau)
    assert_close(ddq, ddq_p, TOL, "ddq")
    assert_close(data.lambda_c, lam_p, TOL, "lambda_c")
    check_identities(model, data, cms, cds, q, v, tau, ddq)


# ------------------------------------------------------------------------------------------------ identities
@pytest.fixture(params=RANDOM + [(0, True, True)], ids=lambda c: "-".join(map(str, c)))
def constrained(request):
    """A random tree of every joint type (one with mimic joints) and random constraints, loops included between
    a joint and its own ancestor, in every frame, with Baumgarte gains."""
    seed, floating, *mimic = request.param
    model = random_model(seed, floating, mimic=bool(mimic))
    rng = np.random.default_rng(seed)
    cms = random_constraints(model, rng, count=4)
    world = RigidConstraintModel(CONTACT_6D, model, model.njoints - 1, rbda.SE3.Random(rng), 0, rbda.SE3.Random(rng),
                                 WORLD)
    cms = cms if not well_posed(model, cms + [world]) else cms[1:] + [world]
    for cm in cms:
        cm.set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(*rng.uniform(0.0, 3.0, 2)))
    return model, cms


def test_identities_every_joint_type(constrained):
    """The KKT identities of the dynamics, and the impact identities ``J v+ = -e J v-``,
    ``M (v+ - v-) = J^T P``, on every joint type (mimic joints included)."""
    model, cms = constrained
    q, v, tau = random_state(model, 3)
    data, cds, ddq = solve(model, cms, q, v, tau)
    check_identities(model, data, cms, cds, q, v, tau, ddq)
    v_after = rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.25)
    J = np.vstack([cd.jacobian for cd in cds])
    assert_close(J @ v_after, -0.25 * (J @ v), TOL, "J v+ = -e J v-")
    M = rbda.crba(model, model.create_data(), q)
    assert_close(M @ (v_after - v), J.T @ data.impulse_c, TOL, "M (v+ - v-) = J^T P")


def test_jacobian_and_drift_against_finite_differences(constrained):
    """Along ``q(t) = integrate(q, t v + t^2 a / 2)``: a 3D constraint's ``J v`` is the rate of the separation
    ``p1 - p2`` and ``J a + gamma`` its second derivative (in c1's axes for LOCAL); a 6D constraint's ``J a +
    gamma`` is the rate of ``J v`` (LOCAL and WORLD; in LOCAL_WORLD_ALIGNED the drift follows Pinocchio's
    convention ``R (a1 - X a2)``, checked against Pinocchio instead)."""
    model, cms = constrained
    q, v, a = random_state(model, 4)

    def at(t):
        data = model.create_data()
        cds = [cm.create_data() for cm in cms]
        qt = rbda.integrate(model, q, t * v + 0.5 * t * t * a)
        rbda.constraint_dynamics(model, data, qt, v + t * a, np.zeros(model.nv), cms, cds, ProximalSettings(mu=1e-3))
        return cds

    eps = 1e-4
    minus, base, plus = at(-eps), at(0.0), at(eps)
    for cm, cn, c0, cp in zip(cms, minus, base, plus):
        if cm.type == CONTACT_3D:
            sep = [c.oMc1.translation - c.oMc2.translation for c in (cn, c0, cp)]
            rate, second = (sep[2] - sep[0]) / (2 * eps), (sep[2] - 2 * sep[1] + sep[0]) / eps**2
            R = c0.oMc1.rotation if cm.reference_frame == LOCAL else np.eye(3)
            assert_close(R @ (c0.jacobian @ v), rate, 1e-6, f"{cm}: J v")
            assert_close(R @ (c0.jacobian @ a + c0.contact_acceleration_drift), second, 1e-4, f"{cm}: J a + gamma")
        elif cm.reference_frame != LOCAL_WORLD_ALIGNED:
            rate = (cp.jacobian @ (v + eps * a) - cn.jacobian @ (v - eps * a)) / (2 * eps)
            assert_close(c0.jacobian @ a + c0.contact_acceleration_drift, rate, 1e-6, f"{cm}: J a + gamma")
            assert_close(c0.jacobian @ v, c0.contact_velocity_error, 1e-12, f"{cm}: J v = e_v")


def test_no_constraint_is_aba(model):
    q, v, tau = random_state(model, 1)
    data, _, ddq = solve(model, [], q, v, tau)
    assert_close(ddq, rbda.aba(model, model.create_data(), q, v, tau), TOL)
    assert data.lambda_c.shape == (0,)


# ------------------------------------------------------------------------------------------------ proximal
def test_redundant_set_needs_mu_and_proximal_iterations_solve_it():
    """Talos' left foot counted twice: mu = 0 raises and suggests mu; mu > 0 gives the ddq of the single
    contact, splits the force evenly, and takes as many iterations as Pinocchio."""
    from constrained_cases import frame_constraint, talos

    model = talos()
    feet = [frame_constraint(model, CONTACT_6D, f) for f in ("left_sole_link", "right_sole_link")]
    twice = feet + [frame_constraint(model, CONTACT_6D, "left_sole_link")]
    q, v, tau = random_state(model, 0)
    with pytest.raises(ValueError, match="redundant.*mu"):
        solve(model, twice, q, v, tau)
    _, single, ddq_single = solve(model, feet, q, v, tau)
    settings = ProximalSettings(1e-12, 1e-6, 30)
    data, cds, ddq = solve(model, twice, q, v, tau, settings)
    assert_close(ddq, ddq_single, 1e-8)
    assert_close(cds[0].contact_force + cds[2].contact_force, single[0].contact_force, 1e-8)
    assert_close(cds[0].contact_force, cds[2].contact_force, 1e-6)
    _, _, _, psettings = pinocchio_solve(model, twice, q, v, tau, 1e-6, 30)
    assert settings.iter == psettings.iter
    for mu in (1e-6, 1e-3):
        s = ProximalSettings(1e-12, mu, 200)
        _, _, ddq_mu = solve(model, feet, q, v, tau, s)
        _, _, _, ps = pinocchio_solve(model, feet, q, v, tau, mu, 200)
        assert s.iter == ps.iter and s.relative_residual <= 1e-12 and s.absolute_residual <= 1e-12
        assert_close(ddq_mu, ddq_single, 1e-9)


# ------------------------------------------------------------------------------------------------ Baumgarte
def test_baumgarte_free_box_never_increases_its_error():
    """A free box held by a 6D constraint away from where it is: with Kp = 10, Kd = 2 sqrt(Kp) the placement
    error, simulated 200 steps (semi-implicit Euler on the Lie group), never increases and decays."""
    model = rbda.Model()
    j = model.add_joint(0, rbda.JointModelFreeFlyer(), rbda.SE3(), "box")
    model.append_body_to_joint(j, rbda.Inertia.FromBox(1.0, 0.2, 0.3, 0.4), rbda.SE3())
    rng = np.random.default_rng(0)
    cm = RigidConstraintModel(CONTACT_6D, model, j, rbda.SE3(), 0, rbda.SE3.Random(rng), LOCAL)
    Kp = 10.0
    cm.set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(Kp, 2.0 * np.sqrt(Kp)))
    data, cd = model.create_data(), cm.create_data()
    q, v, dt = rbda.neutral(model), np.zeros(6), 1e-3
    errors = []
    for _ in range(200):
        ddq = rbda.constraint_dynamics(model, data, q, v, np.zeros(6), [cm], [cd])
        errors.append(np.linalg.norm(cd.contact_placement_error))
        v = v + dt * ddq
        q = rbda.integrate(model, q, dt * v)
    assert np.all(np.diff(errors) <= 1e-12) and errors[-1] < errors[0]


# ------------------------------------------------------------------------------------------------ bad input
def test_bad_input():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q, v, tau = random_state(model, 0)
    with pytest.raises(ValueError, match="joint1_id"):
        RigidConstraintModel(CONTACT_3D, model, model.njoints, rbda.SE3())
    with pytest.raises(ValueError, match="joint2_id"):
        RigidConstraintModel(CONTACT_3D, model, 1, rbda.SE3(), -1)
    with pytest.raises(TypeError, match="joint1_placement"):
        RigidConstraintModel(CONTACT_3D, model, 1, np.eye(4))
    bad = rbda.SE3()
    bad.translation[0] = np.nan
    with pytest.raises(ValueError, match="joint2_placement"):
        RigidConstraintModel(CONTACT_3D, model, 1, rbda.SE3(), 0, bad)
    with pytest.raises(ValueError, match="reference_frame"):
        RigidConstraintModel(CONTACT_3D, model, 1, rbda.SE3(), 0, rbda.SE3(), WORLD)
    with pytest.raises(ValueError, match="contact_type"):
        RigidConstraintModel(7, model, 1)
    with pytest.raises(ValueError, match="mu"):
        ProximalSettings(1e-12, -1e-3, 10)
    with pytest.raises(ValueError, match="Kp"):
        rbda.BaumgarteCorrectorParameters(-1.0, 0.0)
    cms = [RigidConstraintModel(CONTACT_3D, model, model.njoints - 1)]
    cds = [cm.create_data() for cm in cms]
    with pytest.raises(ValueError, match="contact_datas"):
        rbda.constraint_dynamics(model, data, q, v, tau, cms, [])
    six = RigidConstraintModel(CONTACT_6D, model, 1).create_data()
    with pytest.raises(ValueError, match="contact_datas"):
        rbda.constraint_dynamics(model, data, q, v, tau, cms, [six])
    with pytest.raises(TypeError, match="contact_models"):
        rbda.constraint_dynamics(model, data, q, v, tau, cms[0], cds)
    other = rbda.sample_models.humanoid()
    with pytest.raises(ValueError, match="contact_models"):
        rbda.constraint_dynamics(model, data, q, v, tau, [RigidConstraintModel(CONTACT_3D, other, 3)], cds)
    settings = ProximalSettings(1e-12, 1e-3, 10)
    settings.mu = -1.0
    with pytest.raises(ValueError, match="mu"):
        rbda.constraint_dynamics(model, data, q, v, tau, cms, cds, settings)
    for name, args in (("q", (np.full(model.nq, np.nan), v, tau)), ("v", (q, np.full(model.nv, np.nan), tau)),
                       ("tau", (q, v, np.full(model.nv, np.nan))), ("tau", (q, v, np.zeros(model.nv + 1)))):
        with pytest.raises(ValueError, match=name):
            rbda.constraint_dynamics(model, data, *args, cms, cds)
    with pytest.raises(ValueError, match="data"):
        rbda.constraint_dynamics(model, other.create_data(), q, v, tau, cms, cds)
    cms[0].desired_contact_velocity[1] = np.nan  # a view of the packed parameters, mutated in place
    with pytest.raises(ValueError, match="contact_models: .*NaN"):
        rbda.constraint_dynamics(model, data, q, v, tau, cms, cds)
    with pytest.raises(ValueError, match="desired_contact_velocity"):
        cms[0].desired_contact_velocity = [0.0, np.inf, 0.0, 0.0, 0.0, 0.0]


# ------------------------------------------------------------------------------------------------ batch
def test_batch_constraint_dynamics_equals_single_calls():
    from constrained_cases import robot_cases

    _, make_model, make_constraints = robot_cases()[4]  # talos: hands loop and 6D feet
    model = make_model()
    cms = make_constraints(model)
    cms[0].set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(1.0, 2.0))
    rng = np.random.default_rng(0)
    B = 9
    Q = np.array([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    V, TAU = rng.normal(size=(B, model.nv)), rng.normal(size=(B, model.nv))
    ddq, lam = rbda.batch.constraint_dynamics(model, Q, V, TAU, cms)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    for b in range(B):
        assert_close(ddq[b], rbda.constraint_dynamics(model, data, Q[b], V[b], TAU[b], cms, cds), 1e-12)
        assert_close(lam[b], data.lambda_c, 1e-12)
    out = (np.empty_like(ddq), np.empty_like(lam))
    assert rbda.batch.constraint_dynamics(model, Q, V, TAU, cms, out=out)[0] is out[0]
    V[4, 2] = np.nan
    with pytest.raises(ValueError, match="state 4: V"):
        rbda.batch.constraint_dynamics(model, Q, V, TAU, cms)
    with pytest.raises(ValueError, match="redundant"):
        rbda.batch.constraint_dynamics(model, Q[:2], V[:2], TAU[:2], cms + cms[1:2])
    settings = ProximalSettings(1e-12, 1e-6, 50)
    ddq2, _ = rbda.batch.constraint_dynamics(model, Q[:2], TAU[:2], TAU[:2], cms + cms[1:2], settings)
    assert np.all(np.isfinite(ddq2))
