"""Simulator.rollout as one compiled kernel (rbda.simulation.compiled_rollout) against the same simulator stepped
one step at a time through Simulator.step (two kernels and Python glue a step): the same states to 1e-12, the
same last-step contacts, impulses, rows and solver statistics, on a box pushed, a cube and a ball, the incline,
a pendulum on its limit with dry friction and solo12 under a torque sequence; a scene with a Python pair keeps the
stepped path; the physics of the kernel's trajectory (a cube's stopping distance); the errors name the step."""

import numpy as np
import pytest

import rbda
from rbda.io import Box, GeometryModel, GeometryObject, Sphere
from rbda.simulation import Simulator, StandingPD, add_free_body, add_ground_plane
from rbda.simulation.packed import rollout_compiled

G0 = 9.81


def stepped(sim, q, v, taus, fext=None):
    """``(Q, V)`` of ``taus`` by ``sim.step``, one call a step."""
    Q, V = [q], [v]
    for t, tau in enumerate(taus):
        q, v = sim.step(q, v, tau, None if fext is None else fext[t])
        Q.append(q)
        V.append(v)
    return np.array(Q), np.array(V)


def check_equal(make, q, v, taus, fext=None):
    """The rollout of ``make()`` against the stepped twin: states to 1e-12, and the last step's arrays."""
    a, b = make(), make()
    assert rollout_compiled(a)
    Q, V = a.rollout(q, v, taus, fext)
    Qs, Vs = stepped(b, q, v, taus, fext)
    assert np.abs(Q - Qs).max() <= 1e-12 and np.abs(V - Vs).max() <= 1e-12
    assert a.contacts.keys == b.contacts.keys
    np.testing.assert_allclose(a.contacts.points, b.contacts.points, rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.impulses, b.impulses, rtol=0, atol=1e-12)
    np.testing.assert_allclose(a.contact_velocities, b.contact_velocities, rtol=0, atol=1e-12)
    assert a.rows.keys == b.rows.keys
    np.testing.assert_allclose(a.row_impulses, b.row_impulses, rtol=0, atol=1e-12)
    assert a.stats.iterations == b.stats.iterations and a.stats.converged == b.stats.converged
    return a, Q, V


def body(shape, mass, theta=0.0, **options):
    """A free body of ``shape`` on the ground, gravity tilted by ``theta``."""
    def make():
        model, cm = rbda.Model(), GeometryModel()
        add_free_body(model, cm, "body", shape, mass)
        add_ground_plane(model, cm)
        model.gravity = rbda.Motion([G0 * np.sin(theta), 0.0, -G0 * np.cos(theta)], [0.0, 0.0, 0.0])
        return Simulator(model, cm, 1e-3, **options)
    q = rbda.neutral(make().model)
    q[2] = shape.radius if isinstance(shape, Sphere) else shape.size[2] / 2
    return make, q


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_box_at_rest_then_pushed(solver):
    make, q = body(Box((0.2, 0.2, 0.2)), 10.0, solver=solver, mu=0.4)
    taus = np.zeros((300, 6))
    taus[100:, 0] = 1.1 * 0.4 * 10.0 * G0
    taus[100:, 5] = 0.3
    sim, Q, V = check_equal(make, q, np.zeros(6), taus)
    assert sim.contacts.size == 4 and V[-1, 0] > 0.0


def test_cube_and_ball_colliding_under_random_torques_and_forces():
    """The cube-ball pair has no compiled contact function: the kernel runs while their bounding balls are apart
    and returns to Python for the steps where they are near (the ball rolls into the cube)."""
    def make():
        model, cm = rbda.Model(), GeometryModel()
        add_free_body(model, cm, "cube", Box((0.1, 0.1, 0.1)), 1.0)
        add_free_body(model, cm, "ball", Sphere(0.05), 0.5)
        add_ground_plane(model, cm)
        return Simulator(model, cm, 1e-3, mu=0.5)
    sim = make()
    assert sim._scene.python_pairs
    q = rbda.neutral(sim.model)
    q[2], q[7], q[9] = 0.05, 0.3, 0.05
    v = np.zeros(12)
    v[0], v[6] = 0.3, -1.5
    rng = np.random.default_rng(1)
    taus, fext = 0.3 * rng.standard_normal((400, 12)), 0.2 * rng.standard_normal((400, 12))
    a, Q, V = check_equal(make, q, v, taus, fext)
    assert V[-1, 6] > -0.5  # the ball hit the cube (rolling alone, it keeps 5/7 of its speed)


def test_incline_sphere_and_box():
    for shape in (Sphere(0.05), Box((0.1, 0.1, 0.1))):
        make, q = body(shape, 1.0, theta=0.3, mu=0.25, baumgarte=0.5)
        check_equal(make, q, np.zeros(6), np.zeros((300, 6)))


def test_pendulum_on_its_limit_with_dry_friction():
    from test_simulator_constraints import pendulum

    def make():
        return Simulator(pendulum(2.0, 0.5, upper=0.5, friction=0.5), GeometryModel(), 1e-3, solver="pgs")
    sim, _, _ = check_equal(make, np.zeros(1), np.zeros(1), np.zeros((600, 1)))
    assert [key[0] for key in sim.rows.keys] == ["limit", "friction"]


def test_solo12_standing_under_pd_torques():
    pytest.importorskip("pinocchio")
    from benchmarks.scenes.robots import rbda_robot

    model, _, a, q0 = rbda_robot("solo12")
    pd = StandingPD(a, q0)
    rng = np.random.default_rng(2)
    taus = pd(q0) + 0.05 * rng.standard_normal((300, model.nv))

    def make():
        sim = rbda_robot("solo12")[2]
        sim.damping[:] = a.damping
        return sim
    sim, Q, _ = check_equal(make, q0, np.zeros(model.nv), taus)
    assert sim.contacts.size >= 4 and abs(Q[-1, 2] - q0[2]) < 0.01


def test_the_sliding_cube_stops_after_v0_squared_over_2_mu_g():
    """An independent check of the kernel's trajectory: a cube sliding at 1 m/s with mu = 0.5 (NCP) decelerates
    at mu g and stops after ``v0^2 / (2 mu g)``, to a step's travel."""
    make, q = body(Box((0.1, 0.1, 0.1)), 1.0, mu=0.5, solver_options=dict(absolute_feasibility_tol=1e-10))
    v = np.zeros(6)
    v[0] = 1.0
    Q, V = make().rollout(q, v, np.zeros((400, 6)))
    stop = 1.0 / (0.5 * G0)
    np.testing.assert_allclose(V[100, 0], 1.0 - 0.5 * G0 * 0.1, atol=1e-6)
    assert np.abs(V[int(stop / 1e-3) + 2:, 0]).max() < 1e-8  # (the solver tolerance)
    np.testing.assert_allclose(Q[-1, 0] - q[0], 1.0 / (2 * 0.5 * G0), atol=1e-3)


def test_a_box_resting_on_a_box_steps_in_python_and_equals_the_steps():
    def make():
        model, cm = rbda.Model(), GeometryModel()
        cm.add_geometry_object(GeometryObject("table", 0, 0, rbda.SE3(np.eye(3), [0.0, 0.0, -0.25]),
                                              Box((2.0, 2.0, 0.5))))
        add_free_body(model, cm, "body", Box((0.1, 0.1, 0.1)), 1.0)
        return Simulator(model, cm, 1e-3, mu=0.4)
    q = rbda.neutral(make().model)
    q[2] = 0.05
    v = np.array([0.3, 0.0, 0.0, 0.0, 0.0, 0.0])
    sim, Q, V = check_equal(make, q, v, np.zeros((100, 6)))
    assert sim.contacts.size >= 3 and sim._scene.python_pairs


def test_chunks_of_steps_equal_one_call():
    """With a progress bar the kernel runs in chunks, each warm-started from the one before: the same states."""
    pytest.importorskip("tqdm")
    make, q = body(Box((0.1, 0.1, 0.1)), 1.0, mu=0.5)
    v = np.array([1.0, 0.5, 0.0, 0.0, 0.0, 0.0])
    Q1, V1 = make().rollout(q, v, np.zeros((250, 6)), progress=True)
    Q2, V2 = make().rollout(q, v, np.zeros((250, 6)), progress=False)
    np.testing.assert_array_equal(Q1, Q2)
    np.testing.assert_array_equal(V1, V2)


def test_errors_name_the_step_and_the_argument():
    make, q = body(Box((0.2, 0.2, 0.2)), 10.0)
    sim = make()
    taus = np.zeros((20, 6))
    taus[7, 2] = np.nan
    with pytest.raises(ValueError, match=r"step 7: tau: contains non-finite"):
        sim.rollout(q, np.zeros(6), taus)
    fext = np.zeros((20, 6))
    fext[3, 0] = np.inf
    with pytest.raises(ValueError, match=r"step 3: fext: contains non-finite"):
        sim.rollout(q, np.zeros(6), np.zeros((20, 6)), fext)
    with pytest.raises(ValueError, match=r"fext: expected shape \(20, 6\)"):
        sim.rollout(q, np.zeros(6), np.zeros((20, 6)), fext[:5])
    bad = q.copy()
    bad[3:7] = (0.0, 0.0, 0.0, 2.0)
    with pytest.raises(ValueError, match=r"step 0: q: is not a valid configuration"):
        sim.rollout(bad, np.zeros(6), np.zeros((5, 6)))
    huge = np.zeros((20, 6))
    huge[4, 0] = 1e308  # v reaches 1e304 in step 4 and overflows a few steps later: the step that overflows says so
    with pytest.raises(ValueError, match=r"step [4-9]: the step's q_next, v_next: not finite"):
        sim.rollout(q, np.zeros(6), huge)
    Q, V = sim.rollout(q, np.zeros(6), np.zeros((5, 6)))  # and the simulator still rolls out
    assert np.isfinite(V).all()
