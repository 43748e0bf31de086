"""PGS and ADMM on NCP/CCP/LCP against the physics of one time step: a box at rest and pushed, a cube sliding to a
stop, a box on an incline, a rolling sphere, a particle sliding in several directions; against Pinocchio 4.1's
ADMM solver; their statistics and errors. The problems come from rbda's CRBA and frame Jacobians
(contact_scenes.py), not from the solvers."""

import math
import os

import numpy as np
import pytest
from contact_scenes import GRAVITY, box, particle, sphere

from rbda.simulation import ADMMSolver, DelassusDense, PGSSolver, contact_metrics

# the iterations themselves: the fast path before them (on by default) is checked against them in test_active_set.py
TIGHT = dict(absolute_feasibility_tol=1e-12, relative_feasibility_tol=0.0, absolute_complementarity_tol=1e-13,
             relative_complementarity_tol=0.0, max_iter=20000, active_set_max_iter=0)
SOLVERS = [PGSSolver, ADMMSolver]
FORMULATIONS = ["ncp", "ccp", "lcp"]
MASS, MU, DT = 10.0, 0.4, 1e-3


def _solve(Solver, formulation, problem, mu, **settings):
    solver = Solver(formulation, **{**TIGHT, **settings})
    lam = solver.solve(DelassusDense(problem.G), problem.g, mu)
    assert solver.stats.converged, solver.stats
    assert np.all(np.isfinite(lam))
    return lam, problem.v_next(lam), solver


def test_scene_delassus_is_the_closed_form():
    """The scenes' G from rbda equals J M^-1 J^T written by hand for a box at rest: J_i = [I, -[p_i]x]."""
    p = box(MASS, 0.2)
    h = 0.1
    inertia = MASS * 0.2 ** 2 / 6 * np.eye(3)
    minv = np.block([[np.eye(3) / MASS, np.zeros((3, 3))], [np.zeros((3, 3)), np.linalg.inv(inertia)]])
    rows = []
    for sx in (-1, 1):
        for sy in (-1, 1):
            c = np.array([sx * h, sy * h, -h])
            skew = np.array([[0, -c[2], c[1]], [c[2], 0, -c[0]], [-c[1], c[0], 0]])
            rows.append(np.hstack([np.eye(3), -skew]))
    J = np.vstack(rows)
    assert np.allclose(p.G, J @ minv @ J.T, atol=1e-12)
    assert np.allclose(p.g, J @ np.array([0, 0, -GRAVITY * DT, 0, 0, 0]), atol=1e-15)


@pytest.mark.parametrize("Solver", SOLVERS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_box_at_rest(Solver, formulation):
    lam, v, _ = _solve(Solver, formulation, box(MASS), MU)
    assert lam[2::3].sum() == pytest.approx(MASS * GRAVITY * DT, rel=1e-7)
    assert np.abs(v).max() < 1e-9


@pytest.mark.parametrize("Solver", SOLVERS)
@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_box_pushed_at_0_9_mu_m_g_sticks(Solver, formulation):
    lam, v, _ = _solve(Solver, formulation, box(MASS, force=(0.9 * MU * MASS * GRAVITY, 0, 0)), MU)
    assert np.abs(v).max() < 1e-9
    assert lam[0::3].sum() == pytest.approx(-0.9 * MU * MASS * GRAVITY * DT, rel=1e-7)


@pytest.mark.parametrize("Solver", SOLVERS)
@pytest.mark.parametrize("formulation", ["ncp", "lcp"])
def test_box_pushed_at_1_1_mu_m_g_slides(Solver, formulation):
    lam, v, _ = _solve(Solver, formulation, box(MASS, force=(1.1 * MU * MASS * GRAVITY, 0, 0)), MU)
    assert v[0] == pytest.approx(0.1 * MU * GRAVITY * DT, rel=1e-6)
    assert np.abs(v[1:]).max() < 1e-10  # no rotation, no lift
    normal = lam[2::3].sum()
    assert normal == pytest.approx(MASS * GRAVITY * DT, rel=1e-7)
    assert lam[0::3].sum() == pytest.approx(-MU * normal, rel=1e-7)  # friction = mu x normal


@pytest.mark.parametrize("Solver", SOLVERS)
def test_ccp_sliding_box_levitates(Solver):
    """The CCP's known artefact: a sliding contact separates at v_n = mu ||v_t|| (> 0) while it still pushes."""
    problem = box(MASS, force=(1.1 * MU * MASS * GRAVITY, 0, 0))
    lam, v, _ = _solve(Solver, "ccp", problem, MU)
    contact_velocity = (problem.J @ v).reshape(-1, 3)
    slide = np.linalg.norm(contact_velocity[:, :2], axis=1)
    assert np.all(slide > 1e-4)
    assert np.allclose(contact_velocity[:, 2], MU * slide, rtol=1e-6)
    assert v[2] > 1e-5  # the box moves up
    m = contact_metrics(lam, problem.J @ v, MU)
    assert m.signorini > 1e-7 and m.ncp_complementarity > 1e-7  # violated
    assert m.conic_complementarity < 1e-12  # what the CCP does satisfy


@pytest.mark.parametrize("Solver", SOLVERS)
def test_cube_sliding_at_1_m_per_s(Solver):
    """Cube 1 kg, 0.2 m, mu 0.5, dt 1e-3 at 1 m/s: one step gives vx = 1 - mu g dt = 0.995095."""
    problem = box(1.0, 0.2, DT, v0=(1.0, 0.0, 0.0))
    lam, v, _ = _solve(Solver, "ncp", problem, 0.5)
    assert v[0] == pytest.approx(1.0 - 0.5 * GRAVITY * DT, abs=1e-9) and v[0] == pytest.approx(0.995095)
    assert np.abs(v[1:]).max() < 1e-8  # no rotation (the cube's small inertia amplifies the impulses' errors)
    assert lam[2::3].sum() == pytest.approx(GRAVITY * DT, rel=1e-7)
    tangent = lam.reshape(-1, 3)[:, :2]
    assert np.allclose(np.linalg.norm(tangent, axis=1), 0.5 * lam[2::3], rtol=1e-6)  # each contact at the bound


@pytest.mark.parametrize("Solver", SOLVERS)
def test_cube_slides_to_a_stop_at_v0_squared_over_2_mu_g(Solver):
    """Semi-implicit steps (x += dt v_next) until the cube stops: the distance is v0^2 / (2 mu g) to within
    one step's travel, and it stays stopped."""
    mu, v0, x = 0.5, 1.0, 0.0
    solver = Solver("ncp", **TIGHT)
    lam = None
    for step in range(260):
        problem = box(1.0, 0.2, DT, v0=(v0, 0.0, 0.0))
        lam = solver.solve(DelassusDense(problem.G), problem.g, mu, lambda_guess=lam)
        assert solver.stats.converged
        v = problem.v_next(lam)
        assert np.abs(v[1:]).max() < 1e-9
        v0 = v[0]
        x += DT * v0
    assert abs(v0) < 1e-9
    assert x == pytest.approx(1.0 / (2 * mu * GRAVITY), abs=1.0 * DT)


@pytest.mark.parametrize("Solver", SOLVERS)
@pytest.mark.parametrize("offset", [-0.03, 0.03])
def test_box_on_an_incline_sticks_iff_tan_theta_le_mu(Solver, offset):
    theta = math.atan(MU) + offset
    problem = box(MASS, theta=theta)
    lam, v, _ = _solve(Solver, "ncp", problem, MU)
    if offset < 0:
        assert np.abs(v).max() < 1e-9
    else:
        assert v[0] == pytest.approx(GRAVITY * DT * (math.sin(theta) - MU * math.cos(theta)), rel=1e-6)
        assert np.abs(v[1:]).max() < 1e-10


@pytest.mark.parametrize("Solver", SOLVERS)
def test_sphere_rolls_without_slipping_at_5_7_g_sin_theta(Solver):
    theta, radius = 0.3, 0.1
    problem = sphere(1.0, radius, DT, theta=theta)
    lam, v, _ = _solve(Solver, "ncp", problem, 1.0)
    assert v[0] == pytest.approx(5.0 / 7.0 * GRAVITY * math.sin(theta) * DT, rel=1e-7)
    assert v[4] * radius == pytest.approx(v[0], rel=1e-7)  # rolling: the contact point does not slide
    assert np.linalg.norm(lam[:2]) < MU * lam[2]


@pytest.mark.parametrize("Solver", SOLVERS)
def test_pyramid_friction_is_anisotropic(Solver):
    """A particle sliding at 1 m/s: Coulomb's friction takes mu g dt off the speed, opposite the sliding, in every
    direction; the pyramid's takes sqrt(2) mu g dt along a diagonal and pulls off the sliding direction between
    the axes."""
    mu = 0.5
    for angle in (0.0, np.pi / 8, np.pi / 4):
        direction = np.array([np.cos(angle), np.sin(angle), 0.0])
        problem = particle(1.0, DT, v0=direction)
        _, v_ncp, _ = _solve(Solver, "ncp", problem, mu)
        _, v_lcp, _ = _solve(Solver, "lcp", problem, mu)
        assert np.allclose(direction - v_ncp, mu * GRAVITY * DT * direction, atol=1e-10)
        friction = direction - v_lcp
        assert abs(v_lcp[2]) < 1e-10
        if angle == 0.0:
            assert np.allclose(friction, mu * GRAVITY * DT * direction, atol=1e-10)
        else:  # both tangent components at their bound mu n: along the diagonal, whatever the sliding direction
            assert np.allclose(friction, mu * GRAVITY * DT * np.array([1.0, 1.0, 0.0]), atol=1e-10)
    gap = contact_metrics(*_lcp_particle(Solver, np.pi / 8, mu), mu).maximum_dissipation_gap
    assert gap > 1e-4 * GRAVITY * DT  # the pyramid dissipates less than Coulomb's law would


def _lcp_particle(Solver, angle, mu):
    problem = particle(1.0, DT, v0=(np.cos(angle), np.sin(angle), 0.0))
    lam, v, _ = _solve(Solver, "lcp", problem, mu)
    return lam, problem.J @ v


SCENES = {
    "rest": lambda: (box(MASS), MU),
    "stick": lambda: (box(MASS, force=(0.9 * MU * MASS * GRAVITY, 0, 0)), MU),
    "slide": lambda: (box(MASS, force=(1.1 * MU * MASS * GRAVITY, 0, 0)), MU),
    "cube": lambda: (box(1.0, 0.2, DT, v0=(1.0, 0.0, 0.0)), 0.5),
    "incline": lambda: (box(MASS, theta=math.atan(MU) + 0.03), MU),
    "sphere": lambda: (sphere(1.0, 0.1, DT, theta=0.3), 1.0),
}


@pytest.mark.parametrize("Solver", SOLVERS)
@pytest.mark.parametrize("scene", sorted(SCENES))
def test_ncp_solutions_meet_the_physical_criteria(Solver, scene):
    """Le Lidec et al.'s criteria on the NCP solutions, within what the solver tolerance allows (impulses about
    1e-2, velocities to 1e-11)."""
    problem, mu = SCENES[scene]()
    lam, v, _ = _solve(Solver, "ncp", problem, mu)
    m = contact_metrics(lam, problem.J @ v, mu)
    assert m.signorini < 1e-12
    assert m.maximum_dissipation_gap < 1e-12
    assert m.ncp_complementarity < 1e-12
    assert m.dual_feasibility < 1e-10
    assert m.primal_feasibility < 1e-14


@pytest.mark.parametrize("rule", ["spectral", "osqp", "linear", "constant"])
def test_admm_rho_rules_agree(rule):
    problem = box(MASS, force=(1.1 * MU * MASS * GRAVITY, 0, 0))
    _, v, solver = _solve(ADMMSolver, "ncp", problem, MU, rho_update=rule)
    assert v[0] == pytest.approx(0.1 * MU * GRAVITY * DT, rel=1e-6)
    assert solver.stats.factorizations >= 1 and solver.stats.rho > 0


def test_pgs_over_relaxation_agrees():
    problem = box(MASS, force=(1.1 * MU * MASS * GRAVITY, 0, 0))
    _, v1, s1 = _solve(PGSSolver, "ncp", problem, MU)
    _, v2, s2 = _solve(PGSSolver, "ncp", problem, MU, over_relaxation=1.3)
    assert np.allclose(v1, v2, atol=1e-10)


@pytest.mark.parametrize("Solver", SOLVERS)
def test_warm_start_from_the_solution(Solver):
    problem = box(1.0, 0.2, DT, v0=(1.0, 0.0, 0.0))
    lam, v, cold = _solve(Solver, "ncp", problem, 0.5)
    solver = Solver("ncp", **TIGHT)
    again = solver.solve(DelassusDense(problem.G), problem.g, 0.5, lambda_guess=lam)
    assert solver.stats.converged and solver.stats.iterations < max(2, cold.stats.iterations / 4)
    assert np.allclose(problem.v_next(again), v, atol=1e-8)


@pytest.mark.parametrize("Solver", SOLVERS)
def test_not_converged_says_so_and_returns_finite(Solver):
    problem = box(MASS, force=(1.1 * MU * MASS * GRAVITY, 0, 0))
    solver = Solver("ncp", **{**TIGHT, "max_iter": 2})
    lam = solver.solve(DelassusDense(problem.G), problem.g, MU)
    assert not solver.stats.converged and solver.stats.iterations == 2
    assert np.all(np.isfinite(lam)) and np.isfinite(solver.stats.complementarity)


@pytest.mark.parametrize("Solver", SOLVERS)
def test_no_contact(Solver):
    solver = Solver()
    assert solver.solve(DelassusDense(np.zeros((0, 0))), np.zeros(0), 0.5).shape == (0,)
    assert solver.stats.converged


def test_same_as_pinocchio_admm_and_pgs():
    """Pinocchio 4.1's ADMMConstraintSolver and PGSConstraintSolver on the same G and g (point contacts whose
    friction is set per constraint), NCP: the sphere's impulse (unique: G is invertible) and the boxes' velocities
    (their impulses are not unique: 12 rows, 6 dof) to the tolerance; its ADMM on the CCP (``solve_ncp = False``):
    the velocities."""
    pin = pytest.importorskip("pinocchio")
    model = pin.Model()
    joint = model.addJoint(0, pin.JointModelFreeFlyer(), pin.SE3.Identity(), "body")
    cases = [(sphere(1.0, 0.1, DT, theta=0.3), 1.0), (sphere(1.0, 0.1, DT, theta=0.3), 0.2), (box(MASS), MU),
             (box(MASS, force=(1.1 * MU * MASS * GRAVITY, 0, 0)), MU), (box(1.0, 0.2, DT, v0=(1.0, 0, 0)), 0.5)]
    for problem, mu in cases:
        models, datas = pin.StdVec_ConstraintModel(), pin.StdVec_ConstraintData()
        for _ in range(len(problem.g) // 3):
            constraint = pin.PointContactConstraintModel(model, joint)
            constraint.setFriction(mu)
            models.append(constraint)
            datas.append(constraint.createData())
        for Solver, PinSolver, Settings, Result in (
                (ADMMSolver, pin.ADMMConstraintSolver, pin.ADMMSolverSettings, pin.ADMMSolverResult),
                (PGSSolver, pin.PGSConstraintSolver, pin.PGSSolverSettings, pin.PGSSolverResult)):
            settings, result = Settings(), Result()
            settings.absolute_feasibility_tol = settings.absolute_complementarity_tol = 1e-12
            settings.relative_feasibility_tol = settings.relative_complementarity_tol = 1e-12
            settings.max_iterations = 10000
            assert PinSolver(len(problem.g)).solve(pin.DelassusOperatorDense(problem.G), problem.g, models, datas,
                                                   settings, result)
            theirs = result.retrieveConstraintImpulses()
            ours, v, _ = _solve(Solver, "ncp", problem, mu)
            assert np.allclose(problem.v_next(theirs), v, atol=1e-8)
            if len(problem.g) == 3:
                assert np.allclose(theirs, ours, rtol=1e-6, atol=1e-10)
        settings, result = pin.ADMMSolverSettings(), pin.ADMMSolverResult()  # the CCP (Pinocchio's PGS has none)
        settings.absolute_feasibility_tol = settings.absolute_complementarity_tol = 1e-12
        settings.relative_feasibility_tol = settings.relative_complementarity_tol = 1e-12
        settings.max_iterations, settings.solve_ncp = 10000, False
        assert pin.ADMMConstraintSolver(len(problem.g)).solve(pin.DelassusOperatorDense(problem.G), problem.g,
                                                              models, datas, settings, result)
        _, v, _ = _solve(ADMMSolver, "ccp", problem, mu)
        assert np.allclose(problem.v_next(result.retrieveConstraintImpulses()), v, atol=1e-9)


def test_bad_input():
    problem = box(MASS)
    G = DelassusDense(problem.G)
    for Solver in SOLVERS:
        with pytest.raises(ValueError, match="formulation"):
            Solver("qp")
        with pytest.raises(ValueError, match="max_iter"):
            Solver(max_iter=0)
        with pytest.raises(ValueError, match="absolute_feasibility_tol"):
            Solver(absolute_feasibility_tol=-1.0)
        solver = Solver()
        with pytest.raises(ValueError, match="mu"):
            solver.solve(G, problem.g, -0.1)
        with pytest.raises(ValueError, match="mu"):
            solver.solve(G, problem.g, np.array([0.1, 0.2, np.nan, 0.3]))
        with pytest.raises(ValueError, match="mu"):
            solver.solve(G, problem.g, np.ones(3))
        with pytest.raises(ValueError, match="g"):
            solver.solve(G, np.ones(11), MU)
        with pytest.raises(ValueError, match="g"):
            solver.solve(G, np.full(12, np.nan), MU)
        with pytest.raises(ValueError, match="lambda_guess"):
            solver.solve(G, problem.g, MU, lambda_guess=np.ones(3))
        with pytest.raises(TypeError, match="delassus"):
            solver.solve(problem.G, problem.g, MU)
        class Inconsistent(DelassusDense):
            def matrix(self):
                return np.eye(3)
        with pytest.raises(ValueError, match="matrix"):
            solver.solve(Inconsistent(problem.G), problem.g, MU)
        with pytest.raises(ValueError, match="multiple of 3"):
            solver.solve(DelassusDense(np.eye(4)), np.ones(4), MU)
    with pytest.raises(ValueError, match="over_relaxation"):
        PGSSolver(over_relaxation=2.0)
    with pytest.raises(ValueError, match="tau"):
        ADMMSolver(tau=0.0)
    with pytest.raises(ValueError, match="mu_prox"):
        ADMMSolver(mu_prox=0.0)
    with pytest.raises(ValueError, match="rho_update"):
        ADMMSolver(rho_update="adaptive")
    with pytest.raises(ValueError, match="rho"):
        ADMMSolver(rho=1e9)
    with pytest.raises(ValueError, match="ratio_primal_dual"):
        ADMMSolver(ratio_primal_dual=0.5)


def _random_problem(k, seed):
    """k pressed, sliding point contacts on a body with 3k + 6 dof: G = J J^T invertible, the solution unique."""
    rng = np.random.default_rng(seed)
    J = rng.normal(size=(3 * k, 3 * k + 6)) / np.sqrt(3 * k)
    g = 0.1 * rng.normal(size=3 * k)
    g[2::3] = -np.abs(g[2::3])
    return J @ J.T, g, rng.uniform(0.2, 1.0, size=k)


@pytest.mark.parametrize("seed", range(4))
def test_random_ccp_is_the_convex_optimum(seed):
    """The CCP is min 1/2 l^T G l + g^T l on the cones: both solvers reach SLSQP's optimum (or lower)."""
    from scipy.optimize import minimize

    G, g, mu = _random_problem(3, seed)
    cones = [{"type": "ineq", "fun": lambda l, i=i: mu[i] * l[3 * i + 2] - np.hypot(l[3 * i], l[3 * i + 1])}
             for i in range(3)]
    objective = lambda l: 0.5 * l @ G @ l + g @ l  # noqa: E731
    best = minimize(objective, np.tile([0.0, 0.0, 0.1], 3), jac=lambda l: G @ l + g, constraints=cones,
                    method="SLSQP", tol=1e-14, options={"maxiter": 1000})
    for Solver in SOLVERS:
        solver = Solver("ccp", **TIGHT)
        lam = solver.solve(DelassusDense(G), g, mu)
        assert solver.stats.converged
        assert objective(lam) <= best.fun + 1e-9
        assert np.allclose(lam, best.x, atol=1e-5)


@pytest.mark.parametrize("seed", range(4))
def test_random_lcp_meets_signorini_and_box_friction(seed):
    """Checked component by component: lam_n >= 0, v_n >= 0, lam_n v_n = 0; |lam_ti| <= mu lam_n, and v_ti = 0
    unless lam_ti = -sign(v_ti) mu lam_n."""
    G, g, mu = _random_problem(4, seed)
    for Solver in SOLVERS:
        lam = Solver("lcp", **TIGHT).solve(DelassusDense(G), g, mu)
        v = G @ lam + g
        lam3, v3 = lam.reshape(-1, 3), v.reshape(-1, 3)
        assert np.all(lam3[:, 2] >= 0) and np.all(v3[:, 2] >= -1e-9)
        assert np.abs(lam3[:, 2] * v3[:, 2]).max() < 1e-10
        bound = mu[:, None] * lam3[:, 2:3]
        assert np.all(np.abs(lam3[:, :2]) <= bound + 1e-12)
        sliding = np.abs(v3[:, :2]) > 1e-8
        assert np.allclose(lam3[:, :2][sliding], (-np.sign(v3[:, :2]) * bound)[sliding], atol=1e-9)


@pytest.mark.parametrize("formulation", FORMULATIONS)
@pytest.mark.parametrize("seed", range(4))
def test_random_pgs_and_admm_agree(formulation, seed):
    G, g, mu = _random_problem(4, seed)
    results = [Solver(formulation, **TIGHT).solve(DelassusDense(G), g, mu) for Solver in SOLVERS]
    assert np.allclose(results[0], results[1], atol=1e-7)
    if formulation == "ncp":
        m = contact_metrics(results[1], G @ results[1] + g, mu)
        assert max(m.signorini, m.maximum_dissipation_gap, m.ncp_complementarity, m.dual_feasibility) < 1e-9


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_admm_on_a_matrix_it_cannot_factor_says_so(formulation):
    """An indefinite G (not a Delassus matrix): the damped factorisation fails even at rho_max; the solve stops,
    says why, and returns finite impulses. A positive semi-definite G scaled by 1e150 (rounding defeats the
    default damping) is retried with a larger rho."""
    solver = ADMMSolver(formulation, rho_max=1e3)
    lam = solver.solve(DelassusDense(-1e4 * np.eye(3)), np.array([0.0, 0.0, -1.0]), 0.5)
    assert not solver.stats.converged and "not positive definite" in solver.stats.message
    assert np.all(np.isfinite(lam))
    J = np.random.default_rng(0).normal(size=(12, 8))
    lam = solver.solve(DelassusDense(1e150 * J @ J.T), np.full(12, -1e150), 0.5)
    assert np.all(np.isfinite(lam))


def test_never_nan_on_random_degenerate_problems():
    """Rank-deficient G over six orders of magnitude, contacts that cannot move (zero rows), mu = 0 and large mu,
    a few hundred iterations at most: every result is finite, converged or not."""
    rng = np.random.default_rng(1)
    for _ in range(40):
        k = int(rng.integers(1, 6))
        J = rng.normal(size=(3 * k, int(rng.integers(1, 3 * k + 4)))) * 10 ** rng.uniform(-3, 3)
        if rng.random() < 0.3:
            J[:3] = 0.0
        G, g = J @ J.T, rng.normal(size=3 * k) * 10 ** rng.uniform(-4, 2)
        mu = rng.choice([0.0, 0.3, 1.0, 5.0])
        for Solver in SOLVERS:
            for formulation in FORMULATIONS:
                solver = Solver(formulation, max_iter=300)
                assert np.all(np.isfinite(solver.solve(DelassusDense(G), g, mu)))
                assert np.isfinite(solver.stats.dual_feasibility) or not solver.stats.converged


@pytest.mark.parametrize("seed", range(3))
def test_random_problems_same_impulses_as_pinocchio_admm(seed):
    """On well-posed random problems (G invertible, the impulses unique), Pinocchio 4.1's ADMM (NCP and CCP) and
    ours give the same impulses to the tolerance."""
    pin = pytest.importorskip("pinocchio")
    G, g, mu = _random_problem(4, seed)
    model = pin.Model()
    joint = model.addJoint(0, pin.JointModelFreeFlyer(), pin.SE3.Identity(), "body")
    models, datas = pin.StdVec_ConstraintModel(), pin.StdVec_ConstraintData()
    for friction in mu:
        constraint = pin.PointContactConstraintModel(model, joint)
        constraint.setFriction(friction)
        models.append(constraint)
        datas.append(constraint.createData())
    for formulation in ("ncp", "ccp"):
        settings, result = pin.ADMMSolverSettings(), pin.ADMMSolverResult()
        settings.absolute_feasibility_tol = settings.absolute_complementarity_tol = 1e-12
        settings.relative_feasibility_tol = settings.relative_complementarity_tol = 1e-12
        settings.max_iterations, settings.solve_ncp = 10000, formulation == "ncp"
        assert pin.ADMMConstraintSolver(len(g)).solve(pin.DelassusOperatorDense(G), g, models, datas, settings,
                                                      result)
        ours = ADMMSolver(formulation, **TIGHT).solve(DelassusDense(G), g, mu)
        assert np.allclose(ours, result.retrieveConstraintImpulses(), atol=1e-8)


def test_admm_penalty_settles_on_a_redundant_contact_set():
    """A problem of talos's fall (tests/simulation/data: 10 contacts and 24 joint rows, limits and dry friction, on
    38 dof: G of rank 34 in 54 rows): the spectral rule used to flip rho between two values every few iterations and
    stop at max_iter with residuals near 1e-4; each reversal of the update now halves its step. ADMM converges
    (215 iterations measured, from the step's warm start), and its impulses meet the NCP's conditions on ``G lambda +
    g``, the box rows the clip condition, to the tolerance's order."""
    data = np.load(os.path.join(os.path.dirname(__file__), "data", "talos_fall_contacts.npz"))
    G, g, mu, lower, upper = data["G"], data["g"], data["mu"], data["lower"], data["upper"]
    solver = ADMMSolver("ncp", active_set_max_iter=0)
    lam = solver.solve(DelassusDense(G), g, mu, data["guess"], lower, upper)
    assert solver.stats.converged and solver.stats.iterations < 500
    v, k3 = G @ lam + g, 3 * mu.shape[0]
    m = contact_metrics(lam[:k3], v[:k3], mu)
    assert max(m.signorini, m.ncp_complementarity, m.dual_feasibility, m.primal_feasibility) < 1e-5
    assert np.abs(lam[k3:] - np.clip(lam[k3:] - v[k3:], lower, upper)).max() < 1e-5


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_admm_in_the_joint_space_is_the_dense_admm(formulation):
    """ADMM's factorisation of ``G + d I`` in the joint space (Woodbury, ``K = d M + J^T J``; the compiled step's,
    when ``G`` has more than two rows per dof) against its dense factorisation, on the humanoid sample (its mass
    matrix from CRBA, read on its branch-induced pattern) with 30 contacts on its bodies and three joint rows:
    the same iterations, penalties and factorisations, the impulses to 1e-9 of their size, and a solution of the
    problem (its own residuals within the tolerance)."""
    import rbda
    from rbda.simulation.solvers import STEP_STATS
    from rbda.model.sample_models import humanoid
    from rbda.simulation import packed

    model = humanoid()
    rng = np.random.default_rng(6)
    M = rbda.crba(model, model.create_data(), rbda.random_configuration(model, rng=rng)).copy()
    nv, k, r = model.nv, 30, 3
    J = np.zeros((3 * k + r, nv))
    for c in range(k):  # a contact on a random body: nonzero on the dofs of its support
        dofs = [d for d in range(nv) if rng.random() < 0.5]
        J[3 * c:3 * c + 3, dofs] = rng.normal(size=(3, len(dofs)))
    J[3 * k + np.arange(r), rng.choice(nv, r, replace=False)] = 1.0
    G = J @ np.linalg.solve(M, J.T)
    g = J @ rng.normal(size=nv)  # the contacts' free velocities, each also approaching at 1 cm/s
    g[2:3 * k:3] -= 0.01
    mu, lower, upper = np.full(k, 0.5), -np.full(r, 0.1), np.full(r, 0.1)
    solver = ADMMSolver(formulation, active_set_max_iter=0, max_iter=5000)
    options = packed.solver_options(solver)
    results = []
    for joint_space in (False, True):
        lam = np.zeros(len(g))
        extra = (J, M, model.dof_parents) if joint_space else (np.empty((0, 0)), np.empty((0, 0)),
                                                               np.empty(0, dtype=np.int64))
        stats = np.zeros(1, STEP_STATS)[0]
        packed.compiled.solve_contacts(options, np.nan, solver.active_set_max_iter, G, g, mu, lower, upper, lam,
                                       False, *extra, stats, np.empty(0, dtype=np.int64), np.empty(0))
        results.append((lam, stats))
    (dense, dense_stats), (joint, joint_stats) = results
    assert len(g) > 2 * nv and dense_stats["converged"]
    for field in ("iterations", "converged", "factorizations"):
        assert joint_stats[field] == dense_stats[field]
    assert joint_stats["rho"] == pytest.approx(dense_stats["rho"], rel=1e-9)
    np.testing.assert_allclose(joint, dense, atol=1e-9 * np.abs(dense).max())


def test_the_compiled_options_record_holds_each_setting_by_its_name():
    """``solver.options()`` (the ``SOLVER_OPTIONS`` record the compiled solves read): every field named after a
    setting holds that setting, the tolerances in their documented order; a changed setting rebuilds it."""
    from rbda.kernels.contact_solvers import ADMM, PGS, RHO_LINEAR, SOLVER_OPTIONS
    from rbda.simulation.solvers import FORMULATIONS as CODES

    admm = ADMMSolver("ccp", mu_prox=2e-6, tau=0.7, rho=3.0, rho_min=1e-4, rho_max=1e5, ratio_primal_dual=12.0,
                      rho_update="linear", linear_update_rule_factor=3.0, max_iter=77, active_set_max_iter=3,
                      absolute_feasibility_tol=1e-7, relative_feasibility_tol=2e-7,
                      absolute_complementarity_tol=3e-7, relative_complementarity_tol=4e-7)
    pgs = PGSSolver("lcp", over_relaxation=1.3, max_iter=55)
    for solver, code in ((admm, ADMM), (pgs, PGS)):
        o = solver.options()[0]
        assert o["solver"] == code and o["formulation"] == CODES[solver.formulation]
        for name in SOLVER_OPTIONS.names:
            if hasattr(solver, name) and not isinstance(getattr(solver, name), str):
                assert o[name] == getattr(solver, name), name
        np.testing.assert_array_equal(o["tolerances"], [solver.absolute_feasibility_tol,
                                                        solver.relative_feasibility_tol,
                                                        solver.absolute_complementarity_tol,
                                                        solver.relative_complementarity_tol])
    o = admm.options()[0]
    assert o["rho_update"] == RHO_LINEAR and o["rho_increment"] == 3.0
    admm.max_iter = 5
    assert admm.options()[0]["max_iter"] == 5
    assert np.isnan(ADMMSolver("ncp").options()[0]["rho"])  # None: the spectral rule's start
