"""The simulator's one-dimensional rows and impacts against mechanics: a pendulum falling onto its joint limit, dry
joint friction (stuck below the breakaway torque, sliding at (tau_g - F) / I above), a four-bar linkage (a closed
loop kept by a bilateral constraint), a ball bouncing to e^2 h with restitution; and the solvers' box rows against
SciPy's bound-constrained minimiser."""

import numpy as np
import pytest

import rbda
from rbda.io import GeometryModel, Sphere
from rbda.simulation import ADMMSolver, DelassusDense, PGSSolver, Simulator, add_free_body, add_ground_plane

G0 = 9.81
TIGHT = dict(max_iter=5000, absolute_feasibility_tol=1e-12, relative_feasibility_tol=1e-12,
             absolute_complementarity_tol=1e-14, relative_complementarity_tol=1e-12)
SOLVERS = {"admm": ADMMSolver, "pgs": PGSSolver}


def pendulum(m=2.0, l=0.5, upper=np.inf, friction=0.0):
    """A point mass ``m`` (a small sphere's inertia) at ``l`` along x from a joint about y: gravity (-z) pulls
    ``q`` up with torque ``m g l cos q``."""
    model = rbda.Model()
    j = model.add_joint(0, rbda.JointModelRY(), rbda.SE3.Identity(), "hinge", max_config=upper, friction=friction)
    model.append_body_to_joint(j, rbda.Inertia(m, np.array([l, 0.0, 0.0]), 1e-4 * np.eye(3)))
    return model


def hinge_inertia(model):
    return rbda.crba(model, model.create_data(), np.zeros(1))[0, 0]


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_pendulum_stops_at_its_limit_and_rests_on_it(solver):
    m, l, limit, dt = 2.0, 0.5, 0.5, 1e-3
    model = pendulum(m, l, upper=limit)
    sim = Simulator(model, GeometryModel(), dt, solver=solver, solver_options=TIGHT)
    Q, V = sim.rollout(np.zeros(1), np.zeros(1), np.zeros((1500, 1)))
    hit = np.argmax(Q[:, 0] > limit - 1e-3)
    assert 0 < hit < 600  # free fall reaches the limit (about 0.37 s)
    assert Q[:, 0].max() - limit < 1e-3  # overshoot
    assert abs(Q[-1, 0] - limit) < 1e-6 and abs(V[-1, 0]) < 1e-9
    # at rest on the limit, the limit's impulse balances gravity's torque over the step
    assert sim.rows.keys == [("limit", 0, -1)]
    assert sim.row_impulses[0] == pytest.approx(m * G0 * l * np.cos(limit) * dt, rel=1e-6)
    # before reaching it, the pendulum swings freely: the same states as without a limit
    free = Simulator(pendulum(m, l), GeometryModel(), dt, solver=solver, solver_options=TIGHT)
    Qf, _ = free.rollout(np.zeros(1), np.zeros(1), np.zeros((hit - 5, 1)))
    np.testing.assert_allclose(Q[:hit - 4], Qf, atol=1e-12)


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_dry_joint_friction_sticks_and_slides(solver):
    m, l, dt = 2.0, 0.5, 1e-3
    tau_g = m * G0 * l  # at q = 0
    stuck = Simulator(pendulum(m, l, friction=1.05 * tau_g), GeometryModel(), dt, solver=solver,
                      solver_options=TIGHT)
    Q, V = stuck.rollout(np.zeros(1), np.zeros(1), np.zeros((200, 1)))
    assert np.abs(V).max() < 1e-10 and np.abs(Q).max() < 1e-12
    assert stuck.row_impulses[0] == pytest.approx(-tau_g * dt, rel=1e-6)  # friction holds gravity exactly
    F = 0.6 * tau_g
    model = pendulum(m, l, friction=F)
    slides = Simulator(model, GeometryModel(), dt, solver=solver, solver_options=TIGHT)
    I = hinge_inertia(model)
    q, v = np.zeros(1), np.zeros(1)
    for _ in range(20):
        q1, v1 = slides.step(q, v, np.zeros(1))
        expected = (m * G0 * l * np.cos(q[0]) - F) / I  # q stays small: the gravity torque at q, semi-implicit
        assert (v1[0] - v[0]) / dt == pytest.approx(expected, rel=1e-5)
        assert slides.row_impulses[0] == pytest.approx(-F * dt, rel=1e-8)  # at the bound, against the motion
        q, v = q1, v1


def four_bar(L=0.5, a=1.0, m=1.0):
    """A planar parallelogram four-bar: a crank of length ``L`` hanging from the origin, a coupler of length ``a``,
    a rocker of length ``L`` whose tip is pinned to the world at ``(a, 0, 0)``; three hinges about y. The loop
    closes at ``q = (t, -t, t)``."""
    model = rbda.Model()
    rod = lambda c: rbda.Inertia(m, np.asarray(c, float), 1e-3 * np.eye(3))
    j1 = model.add_joint(0, rbda.JointModelRY(), rbda.SE3.Identity(), "crank")
    model.append_body_to_joint(j1, rod([0, 0, -L / 2]))
    j2 = model.add_joint(j1, rbda.JointModelRY(), rbda.SE3(np.eye(3), np.array([0, 0, -L])), "coupler")
    model.append_body_to_joint(j2, rod([a / 2, 0, 0]))
    j3 = model.add_joint(j2, rbda.JointModelRY(), rbda.SE3(np.eye(3), np.array([a, 0, 0])), "rocker")
    model.append_body_to_joint(j3, rod([0, 0, L / 2]))
    pin = rbda.RigidConstraintModel(rbda.CONTACT_3D, model, j3, rbda.SE3(np.eye(3), np.array([0, 0, L])), 0,
                                    rbda.SE3(np.eye(3), np.array([a, 0, 0])), rbda.ReferenceFrame.LOCAL)
    return model, pin


def tip_error(model, q, L=0.5, a=1.0):
    data = model.create_data()
    rbda.forward_kinematics(model, data, q)
    tip = data.oMi[3].act(np.array([0.0, 0.0, L])) if hasattr(data.oMi[3], "act") else None
    if tip is None:
        M = data.oMi[3]
        tip = M.rotation @ np.array([0.0, 0.0, L]) + M.translation
    return np.linalg.norm(np.asarray(tip) - np.array([a, 0.0, 0.0]))


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_four_bar_keeps_its_loop_closed(solver):
    model, pin = four_bar()
    dt, t0 = 1e-3, 0.4
    sim = Simulator(model, GeometryModel(), dt, solver=solver, solver_options=TIGHT, constraints=[pin],
                    baumgarte=1.0)
    q0, v0 = np.array([t0, -t0, t0]), np.zeros(3)
    Q, V = sim.rollout(q0, v0, np.zeros((1000, 3)))
    errors = [tip_error(model, q) for q in Q]
    assert max(errors) < 1e-6
    data = model.create_data()
    energy = np.array([rbda.compute_mechanical_energy(model, data, q, v) for q, v in zip(Q, V)])
    # the energy does not grow: the crank never swings above its release angle (at a turning point the energy is
    # all potential), and it oscillates within semi-implicit Euler's O(dt) band around its initial value
    assert Q[:, 0].max() <= t0 + 1e-5  # (a discrete turning point: O(dt^2))
    swing = energy[0] - rbda.compute_mechanical_energy(model, data, np.zeros(3), np.zeros(3))
    assert np.abs(energy - energy[0]).max() < 0.02 * swing
    assert -t0 - 1e-5 <= Q[:, 0].min() < -t0 + 0.01  # it swings to the other side, and no energy drains away
    # the loop's shape holds: q = (t, -t, t)
    np.testing.assert_allclose(Q[:, 1], -Q[:, 0], atol=1e-5)
    np.testing.assert_allclose(Q[:, 2], Q[:, 0], atol=1e-5)


@pytest.mark.parametrize("e", [0.5, 0.8])
def test_ball_rebounds_to_e_squared_h(e):
    h, r, dt = 1.0, 0.05, 1e-3
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "ball", Sphere(r), 1.0)
    add_ground_plane(model, cm)
    sim = Simulator(model, cm, dt, restitution=e, solver_options=TIGHT)
    q = rbda.neutral(model)
    q[2] = r + h
    fall = np.sqrt(2 * h / G0)
    T = int((fall * (1 + 2 * e) + 0.05) / dt)
    Q, V = sim.rollout(q, np.zeros(6), np.zeros((T, 6)))
    bounce = np.argmax(V[:, 2] > 0)
    apex = Q[bounce:, 2].max() - r
    assert apex == pytest.approx(e * e * h, rel=1e-2)
    # contacts are found within the margin of touching, so an impact penetrates at most one step's travel
    assert Q[:, 2].min() > r - np.sqrt(2 * G0 * h) * dt


def test_restitution_zero_lands_and_rests_like_baumgarte():
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "ball", Sphere(0.05), 1.0)
    add_ground_plane(model, cm)
    q = rbda.neutral(model)
    q[2] = 0.3
    Q, V = Simulator(model, cm, 1e-3, restitution=0.0, solver_options=TIGHT).rollout(q, np.zeros(6),
                                                                                 np.zeros((400, 6)))
    assert (V[:, 2] <= 1e-9).all()  # it never bounces
    assert Q[-1, 2] == pytest.approx(0.05, abs=1e-6)


def test_simulator_arguments_of_the_new_rows():
    model = pendulum()
    with pytest.raises(ValueError, match="restitution"):
        Simulator(model, GeometryModel(), 1e-3, restitution=1.5)
    with pytest.raises(TypeError, match=r"constraints\[0\]"):
        Simulator(model, GeometryModel(), 1e-3, constraints=["pin"])


# ----------------------------------------------------------------------------------------- solver box rows
def random_problem(rng, k, r):
    m = 3 * k + r
    A = rng.standard_normal((m, m + 2))
    G = A @ A.T / m + 1e-3 * np.eye(m)
    g = rng.standard_normal(m)
    lower = np.array([[0.0, -0.3, -np.inf][i % 3] for i in range(r)])
    upper = np.array([[np.inf, 0.3, np.inf][i % 3] for i in range(r)])
    return G, g, lower, upper


def natural_map(lam, v, lower, upper):
    return np.abs(lam - np.clip(lam - v, lower, upper)).max()


@pytest.mark.parametrize("solver", ["admm", "pgs"])
@pytest.mark.parametrize("seed", range(5))
def test_box_rows_solve_the_bounded_quadratic_program(solver, seed):
    """Box rows alone: the solution minimises 1/2 x'Gx + g'x on the box (SciPy's L-BFGS-B as reference)."""
    from scipy.optimize import minimize
    rng = np.random.default_rng(seed)
    G, g, lower, upper = random_problem(rng, 0, 7)
    lam = SOLVERS[solver](**TIGHT).solve(DelassusDense(G), g, 0.5, lower=lower, upper=upper)
    ref = minimize(lambda x: 0.5 * x @ G @ x + g @ x, np.zeros(7), jac=lambda x: G @ x + g, method="L-BFGS-B",
                   bounds=list(zip(lower, upper)), options=dict(ftol=1e-15, gtol=1e-12, maxiter=10000)).x
    np.testing.assert_allclose(lam, ref, atol=1e-5)
    assert natural_map(lam, G @ lam + g, lower, upper) < 1e-8


@pytest.mark.parametrize("formulation", ["ncp", "ccp", "lcp"])
@pytest.mark.parametrize("seed", range(4))
def test_contacts_with_box_rows_pgs_and_admm_agree(formulation, seed):
    rng = np.random.default_rng(100 + seed)
    k, r = 3, 5
    G, g, lower, upper = random_problem(rng, k, r)
    g[2:3 * k:3] = -np.abs(g[2:3 * k:3])  # the contacts are pushed together
    a = ADMMSolver(formulation, **TIGHT)
    p = PGSSolver(formulation, **TIGHT)
    la = a.solve(DelassusDense(G), g, 0.4, lower=lower, upper=upper)
    lp = p.solve(DelassusDense(G), g, 0.4, lower=lower, upper=upper)
    assert a.stats.converged and p.stats.converged
    np.testing.assert_allclose(la, lp, atol=1e-6)
    v = G @ la + g
    assert natural_map(la[3 * k:], v[3 * k:], lower, upper) < 1e-7


def test_box_rows_bad_bounds():
    G = np.eye(4)
    s = ADMMSolver()
    with pytest.raises(ValueError, match="lower <= upper"):
        s.solve(DelassusDense(G), np.zeros(4), 0.5, lower=[1.0], upper=[0.0])
    with pytest.raises(ValueError, match="NaN"):
        s.solve(DelassusDense(G), np.zeros(4), 0.5, lower=[np.nan], upper=[0.0])
    with pytest.raises(ValueError, match="neither"):
        s.solve(DelassusDense(G), np.zeros(4), 0.5, lower=[0.0])
    with pytest.raises(ValueError, match="multiple of 3"):
        s.solve(DelassusDense(G), np.zeros(4), 0.5, lower=[0.0, 0.0], upper=[1.0, 1.0])


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_welded_box_on_the_ground_holds_a_push_with_contacts_and_weld_together(solver):
    """A 10 kg box resting on the ground, welded (6D) to the world where it stands, pushed at 2 mu m g: it does
    not move, and the weld's and the contacts' impulses together balance the push and gravity over the step."""
    from rbda.io import Box
    m, mu, dt = 10.0, 0.4, 1e-3
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "box", Box((0.2, 0.2, 0.2)), m)
    add_ground_plane(model, cm)
    q = rbda.neutral(model)
    q[2] = 0.1
    data = model.create_data()
    rbda.forward_kinematics(model, data, q)
    weld = rbda.RigidConstraintModel(rbda.CONTACT_6D, model, model.njoints - 1, rbda.SE3.Identity(), 0,
                                     data.oMi[model.njoints - 1].copy(), rbda.ReferenceFrame.LOCAL)
    sim = Simulator(model, cm, dt, solver=solver, mu=mu, constraints=[weld], solver_options=TIGHT)
    tau = np.zeros(6)
    tau[0] = 2 * mu * m * G0
    Q, V = sim.rollout(q, np.zeros(6), np.tile(tau, (50, 1)))
    assert np.abs(V).max() < 1e-8 and np.abs(Q - q).max() < 1e-9
    assert sim.contacts.size == 4 and sim.rows.size == 6
    # momentum over the step: contact impulses (world) + the weld's (world, at the box's origin) = -(push + gravity) dt
    cs = sim.contacts  # an impulse acts on the pair's second object, its opposite on the first (the box: object 0)
    contact = sum((1.0 if cs.pairs[c][1] == 0 else -1.0) * cs.frames[c] @ sim.impulses[3 * c:3 * c + 3]
                  for c in range(4))
    weld = sim.rows.J.T @ sim.row_impulses  # the weld rows' generalized impulse (free flyer: [linear; angular])
    total = contact + weld[:3]  # (the box's frame is the world's)
    np.testing.assert_allclose(total, [-tau[0] * dt, 0.0, m * G0 * dt], atol=1e-7)
