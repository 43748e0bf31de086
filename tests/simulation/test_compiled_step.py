"""The compiled step (rbda.simulation.compiled, what Simulator.step runs) against the step written as its Python
stages (simulator.reference_step: NumPy Jacobians, dense M^-1 J^T, the contact functions returning lists, the
dict-keyed warm start): the same trajectories, contacts, impulses, rows and solver iterations, step by step, on the
scenes of the physical tests (box at rest and pushed, sliding cube in each formulation, incline, rolling ball,
solo12 standing, talos falling, a box on a box, a pendulum on its limit with dry
friction, a four-bar's loop closure, a bouncing ball with restitution)."""

import numpy as np
import pytest

import rbda
from rbda.simulation.packed import rollout_compiled
from rbda.simulation.step_state import InSet
from rbda.io import Box, Capsule, Cylinder, GeometryModel, GeometryObject, Sphere
from rbda.simulation import Simulator, StandingPD, add_free_body, add_ground_plane
from rbda.simulation.simulator import reference_step

G0 = 9.81
TOL = 1e-9
TIGHT = dict(max_iter=5000, absolute_feasibility_tol=1e-12, relative_feasibility_tol=1e-12,
             absolute_complementarity_tol=1e-14, relative_complementarity_tol=1e-12)  # as the physical tests


def twins(make):
    """Two simulators from ``make()`` (one stepped compiled, one by reference_step) and the initial state."""
    (a, q, v), (b, _, _) = make(), make()
    return a, b, q, v


def wrench(sim):
    """The contacts' total world force and moment about the origin (6,): what a redundant set of points (a box's
    four corners) determines, while the split of its impulses among the points lies in ``G``'s null space."""
    cs = sim.contacts
    f = np.einsum("kij,kj->ki", cs.frames, sim.impulses.reshape(-1, 3))
    return np.concatenate([f.sum(axis=0), np.cross(cs.points, f).sum(axis=0)])


def run_both(a, b, q, v, taus, check_every_step=True, impulse_tol=1e-6, wrench_tol=TOL):
    """Steps both simulators from ``(q, v)`` under ``taus``; returns the largest state difference and checks the
    step's contacts, their total wrench (to ``wrench_tol``), impulses (to ``impulse_tol``), rows and convergence agree.
    (Four points of a box, five of a foot, are redundant: the split of their impulses is left to the solver's
    rounding, up to its tolerance, while their wrench and effect, the next velocity, agree to 1e-9.)"""
    qa, va, qb, vb = q.copy(), v.copy(), q.copy(), v.copy()
    worst = 0.0
    for tau in taus:
        qa, va = a.step(qa, va, tau)
        qb, vb = reference_step(b, qb, vb, tau)
        worst = max(worst, np.abs(qa - qb).max(), np.abs(va - vb).max())
        if check_every_step:
            assert a.contacts.keys == b.contacts.keys
            np.testing.assert_array_equal(a.contacts.pairs, b.contacts.pairs)
            np.testing.assert_allclose(a.contacts.points, b.contacts.points, atol=TOL)
            np.testing.assert_allclose(a.contacts.frames, b.contacts.frames, atol=TOL)
            np.testing.assert_allclose(wrench(a), wrench(b), atol=wrench_tol)
            if impulse_tol is not None:
                np.testing.assert_allclose(a.impulses, b.impulses, atol=impulse_tol)
            np.testing.assert_allclose(a.contact_velocities, b.contact_velocities, atol=1e-7)
            assert a.rows.keys == b.rows.keys
            np.testing.assert_allclose(a.rows.J, b.rows.J, atol=TOL)
            np.testing.assert_allclose(a.row_impulses, b.row_impulses, atol=impulse_tol or 0.0)
            assert a.stats.converged == b.stats.converged  # (the iterations may differ by a few: rounding at
            # the stopping test)
    return worst


def free_body(shape, mass, theta=0.0, solver="admm", formulation="ncp", v0=(), solver_options=TIGHT, drop=0.0,
              **kw):
    """A free body of ``shape`` resting on the ground (or ``drop`` above it), gravity tilted by ``theta``."""
    def make():
        model, cm = rbda.Model(), GeometryModel()
        add_free_body(model, cm, "body", shape if isinstance(shape, (Box, Sphere)) else Sphere(0.05), mass)
        cm.geometry_objects[-1].geometry = shape  # a capsule or a cylinder: a ball's inertia, its own surface
        add_ground_plane(model, cm)
        model.gravity = rbda.Motion([G0 * np.sin(theta), 0.0, -G0 * np.cos(theta)], [0.0, 0.0, 0.0])
        sim = Simulator(model, cm, 1e-3, solver=solver, formulation=formulation, solver_options=solver_options, **kw)
        q = rbda.neutral(model)
        if isinstance(shape, Cylinder):  # lying on its side, its axis along y: it rolls down the slope
            q[3], q[6] = np.sin(np.pi / 4), np.cos(np.pi / 4)
        q[2] = {Box: lambda: shape.size[2] / 2, Sphere: lambda: shape.radius, Cylinder: lambda: shape.radius,
                Capsule: lambda: shape.radius + shape.half_length}[type(shape)]() + drop
        v = np.zeros(6)
        v[:len(v0)] = v0
        return sim, q, v
    return make


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_box_at_rest_then_pushed(solver):
    a, b, q, v = twins(free_body(Box((0.2, 0.2, 0.2)), 10.0, solver=solver, mu=0.4))
    taus = np.zeros((300, 6))
    taus[100:, 0] = 1.1 * 0.4 * 10.0 * G0
    taus[100:, 5] = 0.3  # and a twist
    assert run_both(a, b, q, v, taus) < TOL
    assert a.contacts.size == 4


@pytest.mark.parametrize("formulation", ["ncp", "ccp", "lcp"])
@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_sliding_cube(formulation, solver):
    slow = (solver, formulation) == ("admm", "lcp")
    # ADMM on the pyramid stalls near 1e-12 in some step of either twin: 1e-10 there; its corners' split wanders
    # in G's null space, warm-started step to step (3e-5 of impulses of 1e-3 after 300 steps: not checked), and
    # the states agree to 1e-7 (the solver's tolerance carried over 300 steps), 1e-9 for the others. PGS on the
    # pyramid splits the sliding corners' impulses in G's null space too: which split follows the rounding of G
    # (2e-5 of impulses of 1e-3 between the two paths), so the LCP's impulses are not compared; their wrench is
    options = dict(TIGHT, absolute_feasibility_tol=1e-10) if slow else TIGHT
    a, b, q, v = twins(free_body(Box((0.1, 0.1, 0.1)), 1.0, solver=solver, formulation=formulation, mu=0.5,
                                 v0=(0.8, 0.6), solver_options=options))
    worst = run_both(a, b, q, v, np.zeros((300, 6)), impulse_tol=None if formulation == "lcp" else 1e-6,
                     wrench_tol=1e-7 if slow else TOL)
    assert worst < (1e-7 if slow else TOL)


@pytest.mark.parametrize("shape", [Box((0.1, 0.1, 0.1)), Sphere(0.05), Capsule(0.05, 0.2), Cylinder(0.05, 0.1)],
                         ids=["box", "sphere", "capsule", "cylinder"])
def test_incline(shape):
    a, b, q, v = twins(free_body(shape, 1.0, theta=0.3, mu=0.25, baumgarte=0.5))
    assert run_both(a, b, q, v, np.zeros((300, 6))) < TOL
    assert a.contacts.size > 0


def test_solo12_standing():
    pytest.importorskip("pinocchio")
    from benchmarks.scenes.robots import rbda_robot

    (model, _, a, q0), (_, _, b, _) = rbda_robot("solo12"), rbda_robot("solo12")
    pd = StandingPD(a, q0)
    b.damping[:] = a.damping
    taus = [pd(q0)] * 300
    assert run_both(a, b, q0, np.zeros(model.nv), taus) < TOL
    assert a.contacts.size >= 4


def test_talos_falling():
    """talos falling without control for 0.2 s (the fall is chaotic: rounding differences, about 1e-16 per step,
    grow by about ten every 20 steps after it; 1e-9 holds for 200 steps). At tolerance 1e-10: at the default 1e-6,
    a rounding difference can change which active set the fast path accepts first (8 against 7 in one step), two
    solutions within the tolerance whose states differ by 1e-9."""
    pytest.importorskip("pinocchio")
    from benchmarks.scenes.robots import rbda_robot

    tight = dict(absolute_feasibility_tol=1e-10, relative_feasibility_tol=1e-10, absolute_complementarity_tol=1e-10,
                 relative_complementarity_tol=1e-10)
    (model, _, a, q0), (_, _, b, _) = (rbda_robot("talos", solver_options=tight) for _ in range(2))
    assert run_both(a, b, q0, np.zeros(model.nv), np.zeros((200, model.nv))) < TOL


def test_box_on_a_box_and_a_ball_beside_it():
    """Two boxes: their face patch (pair_kernels), in the pairs' order with the ground contacts of a sphere beside
    them."""
    def make():
        model, cm = rbda.Model(), GeometryModel()
        cm.add_geometry_object(GeometryObject("table", 0, 0, rbda.SE3(np.eye(3), [0.0, 0.0, -0.25]),
                                              Box((2.0, 2.0, 0.5))))
        add_free_body(model, cm, "body", Box((0.1, 0.1, 0.1)), 1.0)
        add_free_body(model, cm, "ball", Sphere(0.05), 1.0)
        add_ground_plane(model, cm, height=-0.5)
        sim = Simulator(model, cm, 1e-3, mu=0.4, solver_options=TIGHT)
        q = rbda.neutral(model)
        q[2], q[7], q[9] = 0.05, 1.5, -0.45
        v = np.zeros(12)
        v[0] = 0.3
        return sim, q, v

    a, b, q, v = twins(make)
    assert run_both(a, b, q, v, np.zeros((200, 12))) < TOL
    assert a.contacts.size >= 5


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_pendulum_on_its_limit_with_dry_friction(solver):
    from test_simulator_constraints import pendulum

    def make():
        return Simulator(pendulum(2.0, 0.5, upper=0.5, friction=0.5), GeometryModel(), 1e-3, solver=solver,
                         solver_options=TIGHT), \
            np.zeros(1), np.zeros(1)

    a, b, q, v = twins(make)
    assert run_both(a, b, q, v, np.zeros((600, 1))) < TOL
    assert [key[0] for key in a.rows.keys] == ["limit", "friction"]


def test_four_bar_loop_closure():
    from test_simulator_constraints import four_bar

    def make():
        model, pin = four_bar()
        return Simulator(model, GeometryModel(), 1e-3, constraints=[pin], baumgarte=1.0, solver_options=TIGHT), \
            np.array([0.4, -0.4, 0.4]), np.zeros(3)

    a, b, q, v = twins(make)
    assert run_both(a, b, q, v, np.zeros((300, 3))) < TOL
    assert a.rows.size == 3


def test_bouncing_ball_with_restitution():
    a, b, q, v = twins(free_body(Sphere(0.05), 1.0, drop=0.05, restitution=0.7))
    assert run_both(a, b, q, v, np.zeros((400, 6))) < TOL


def test_contacts_and_rows_are_built_when_read():
    """The Python objects of a step (ContactSet, ConstraintRows) come from the step's arrays when read, once."""
    a, _, q, v = twins(free_body(Box((0.2, 0.2, 0.2)), 10.0, mu=0.4))
    assert a.contacts is None
    a.step(q, v, np.zeros(6))
    assert a.step_state.contacts is None
    cs = a.contacts
    assert a.contacts is cs and cs.size == 4 and cs.keys == [(0, k) for k in range(4)]
    assert a.rows.size == 0


def test_errors_of_the_compiled_step_name_the_argument():
    """A configuration off the manifold is found by the compiled kinematics and named, as by the Python stages; a
    NaN torque before any kernel runs."""
    a, b, q, v = twins(free_body(Box((0.2, 0.2, 0.2)), 10.0, mu=0.4))
    bad = q.copy()
    bad[3:7] = (0.0, 0.0, 0.0, 2.0)  # a quaternion of norm 2
    for step in (a.step, lambda q, v, tau: reference_step(b, q, v, tau)):
        with pytest.raises(ValueError, match="q: is not a valid configuration"):
            step(bad, v, np.zeros(6))
    with pytest.raises(ValueError, match="step 3: tau"):
        a.step(q, v, np.full(6, np.nan), _step=3)
    assert np.isfinite(a.step(q, v, np.zeros(6))[1]).all()  # and the simulator still steps


def test_bilateral_constraints_step_in_the_one_kernel_call():
    """A four-bar loop closure (bilateral rows, compiled ``bilateral_rows``) and a pendulum on its limit with dry
    friction: every step one kernel call (its results in the step context's output set), and a rollout, now compiled
    for them too, equal to the bit to stepping the same simulator state by state."""
    from test_simulator_constraints import four_bar, pendulum

    def four_bar_sim():
        model, pin = four_bar()
        return Simulator(model, GeometryModel(), 1e-3, constraints=[pin], baumgarte=1.0, solver_options=TIGHT), \
            np.array([0.4, -0.4, 0.4]), np.zeros(3)

    def pendulum_sim():
        return Simulator(pendulum(2.0, 0.5, upper=0.5, friction=0.5), GeometryModel(), 1e-3,
                         solver_options=TIGHT), np.zeros(1), np.zeros(1)

    for make, T in ((four_bar_sim, 300), (pendulum_sim, 300)):
        a, b, q, v = twins(make)
        taus = np.zeros((T, a.model.nv))
        assert rollout_compiled(b)
        Q, V = b.rollout(q, v, taus)
        for t in range(T):
            q, v = a.step(q, v, taus[t])
            assert isinstance(a.step_state.last, InSet)
            np.testing.assert_array_equal(q, Q[t + 1])
            np.testing.assert_array_equal(v, V[t + 1])
        np.testing.assert_array_equal(a.row_impulses, b.row_impulses)
        assert a.rows.keys == b.rows.keys and a.rows.size > 0


def test_a_box_and_ball_step_in_one_call_each():
    """The cube and ball of the MJCF scene, apart, then the ball dropped on the cube: every step one kernel call
    (the box-sphere pair compiled), following the Python stages, until the ball rests on the cube."""
    import os

    scene = os.path.join(os.path.dirname(__file__), "data", "scene_cube_ball.xml")

    def make():
        model, cm = rbda.load_scene(scene)
        q = rbda.neutral(model)
        q[:3], q[7:10] = (0.0, 0.0, 0.05), (0.0, 0.0, 0.25)  # the ball 5 cm above the cube
        return Simulator(model, cm, 1e-3, solver_options=TIGHT), q, np.zeros(model.nv)

    a, b, q, v = twins(make)
    assert run_both(a, b, q, v, np.zeros((250, a.model.nv))) < TOL
    assert isinstance(a.step_state.last, InSet)
    cube_ball = a.collision_model.collision_pairs.index((1, 2))
    assert any(key[0] == cube_ball for key in a.contacts.keys)  # the ball rests on the cube


def test_results_read_after_a_step_are_the_reader_s():
    """The one-call step writes its results into buffers that the step after next writes again: what the
    properties return are copies, which later steps leave alone; a copied or pickled simulator steps as the
    original (its results copied out of the buffers, its compiled context rebuilt)."""
    import copy
    import pickle

    a, _, q, v = twins(free_body(Box((0.2, 0.2, 0.2)), 10.0, mu=0.4))
    q, v = a.step(q, v, np.zeros(6))
    kept = (a.impulses, a.contact_velocities, a.contacts.points, a.contacts.frames, a.stats.iterations)
    before = tuple(np.array(x, copy=True) for x in kept)
    clones = [copy.deepcopy(a), pickle.loads(pickle.dumps(a))]
    for clone in clones:
        np.testing.assert_array_equal(clone.impulses, kept[0])
        assert clone.contacts.keys == a.contacts.keys
    push = np.array([50.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    for _ in range(3):
        q1, v1 = a.step(q, v, push)
    for x, y in zip(kept, before):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a.impulses, kept[0])
    for clone in clones:
        for _ in range(3):
            q2, v2 = clone.step(q, v, push)
        np.testing.assert_allclose(q2, q1, rtol=0, atol=1e-12)
        np.testing.assert_allclose(clone.impulses, a.impulses, rtol=0, atol=1e-12)


def test_damping_is_kept_as_the_compiled_step_reads_it():
    """``Simulator.damping``, read unchecked by the one-call step, is kept as a C-contiguous float64 ``(nv,)`` array:
    a strided or float32 array is converted (and the step equals the one with the converted array), a wrong size
    or a NaN is a ValueError naming ``damping``; added to in place (as ``StandingPD`` does), it stays the same
    array."""
    a, b, q, v = twins(free_body(Box((0.2, 0.2, 0.2)), 10.0, mu=0.4))
    a.damping = np.full(12, 0.5, dtype=np.float32)[::2]
    assert a.damping.dtype == np.float64 and a.damping.flags.c_contiguous and a.damping.shape == (6,)
    b.damping = np.full(6, 0.5)
    v = np.array([0.3, 0.0, 0.0, 0.0, 0.0, 1.0])
    np.testing.assert_array_equal(a.step(q, v, np.zeros(6))[1], b.step(q, v, np.zeros(6))[1])
    kept = a.damping
    a.damping += 1.0
    assert a.damping is kept and kept[0] == 1.5
    with pytest.raises(ValueError, match="damping: expected shape"):
        a.damping = np.zeros(5)
    with pytest.raises(ValueError, match="damping: contains non-finite"):
        a.damping = np.full(6, np.nan)


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_the_scratch_room_leaves_the_step_unchanged(solver, monkeypatch):
    """The contact stage cuts its scratch arrays (the Delassus matrix, the loaded rows' copies, the active set's
    workspace) from a room its step context keeps (``views.take``), or takes new arrays when a problem does not fit:
    the same steps to the bit either way. A box pushed off rest onto a slide, then dropped, against its twin whose
    context has no room at all (every scratch array new)."""
    from rbda.simulation import packed

    make = free_body(Box((0.2, 0.2, 0.2)), 10.0, solver=solver, mu=0.4, drop=0.02)
    (a, q, v), (b, _, _) = make(), make()
    taus = np.zeros((300, 6))
    taus[150:, 0] = 1.1 * 0.4 * 10.0 * G0
    Qa, Va = a.rollout(q, v, taus)
    monkeypatch.setattr(packed, "ROOM_ROWS", 0)  # b's context is built at its first step
    Qb, Vb = b.rollout(q, v, taus)
    assert packed.context(b)[0] is not packed.context(a)[0]
    np.testing.assert_array_equal(Qa, Qb)
    np.testing.assert_array_equal(Va, Vb)
    assert a.contacts.size == 4 and np.abs(Va[-1, 0]) > 0.01  # four corners, sliding at the end


def test_a_resting_box_keeps_its_warm_start():
    """A box at rest on the ground (the solver's default tolerances, 1e-6) keeps its warm start, as it is, in most
    steps (0 iterations: the previous impulses solve the next problem to a thousandth of the tolerances) and stays
    at rest: its velocity under 1e-9, the normal impulses summing to ``m g dt`` to 1e-9. The same box with the warm
    start off, whose every step is an exact solve, rests at the same height to 1e-12. Then, pushed, the box slides
    at the right acceleration (its friction impulse is the same each step: kept too); stopped, it keeps its warm
    start again (``compiled.guess_backoff``)."""
    mass, dt = 10.0, 1e-3
    make = free_body(Box((0.2, 0.2, 0.2)), mass, mu=0.4, solver_options={})
    sim, q, v = make()
    exact = Simulator(sim.model, sim.collision_model, dt, mu=0.4, warm_start=False)
    qe, ve = q, v
    iterations = []
    for _ in range(300):
        q, v = sim.step(q, v, np.zeros(6))
        qe, ve = exact.step(qe, ve, np.zeros(6))
        iterations.append(sim.solver.stats.iterations)
        assert np.abs(v).max() < 1e-9
        assert sim.impulses[2::3].sum() == pytest.approx(mass * G0 * dt, rel=1e-9)
    assert np.mean(np.array(iterations[10:]) == 0) > 0.8, iterations
    assert abs(q[2] - qe[2]) < 1e-12
    push = np.array([1.5 * 0.4 * mass * G0, 0, 0, 0, 0, 0])
    iterations = []
    for t in range(400):
        q, v = sim.step(q, v, push if t < 100 else np.zeros(6))
        iterations.append(sim.solver.stats.iterations)
        if t == 99:  # pushed at 1.5 mu m g against mu m g of sliding friction for 100 steps
            assert v[0] == pytest.approx(100 * dt * 0.5 * 0.4 * G0, rel=1e-6)
    # stopped (friction decelerates it at mu g): ADMM's sliding steps, at its 1e-6 tolerance, leave it rocking at
    # 1.4e-7 rad/s, which kept warm starts, within 1e-9 of complementarity, do not damp (exact solves would)
    assert np.abs(v[:3]).max() < 1e-7 and np.abs(v[3:]).max() < 1e-6
    assert np.mean(np.array(iterations[-100:]) == 0) > 0.8, iterations[-100:]


def test_solver_changes_reach_the_next_compiled_step():
    """The compiled step reads the solver's options from its context, copied when they change: a setting changed
    between steps (the friction cone: a box sliding diagonally is braked along another direction by the LCP's
    pyramid), and another solver put in place, act from the next step on, as in the Python stages."""
    import copy

    from rbda.simulation.solvers import PGSSolver

    a, b, q, v = twins(free_body(Box((0.2, 0.2, 0.2)), 10.0, v0=(0.6, 0.3, 0.0, 0.0, 0.0, 0.0)))
    taus = np.zeros((20, 6))
    assert run_both(a, b, q, v, taus) < TOL
    unchanged = copy.deepcopy(a)
    for sim in (a, b):
        sim.solver.formulation = "lcp"
    va, vb, vc = a.step(q, v, taus[0])[1], reference_step(b, q, v, taus[0])[1], unchanged.step(q, v, taus[0])[1]
    np.testing.assert_allclose(va, vb, atol=TOL)
    assert np.abs(va - vc).max() > 1e-4  # (the NCP's step differs)
    for sim in (a, b):
        sim.solver = PGSSolver(formulation="ncp", **TIGHT)
    assert run_both(a, b, q, v, taus) < TOL
    assert a.stats.iterations == b.stats.iterations and a.stats.converged


def test_step_arguments_of_any_layout_or_size():
    """A strided view, a list and an int array are converted (the same step as contiguous floats); a wrong size of
    any argument, ``fext`` too, is named, and the simulator keeps its last step's results."""
    sim, q, v = free_body(Box((0.2, 0.2, 0.2)), 10.0, v0=(0.5, 0.0, 0.0, 0.0, 0.0, 0.0))()
    q1, v1 = sim.step(q, v, np.zeros(6))
    import copy

    impulses = sim.impulses
    expected = copy.deepcopy(sim).step(q1, v1, np.zeros(6))
    strided = np.repeat(q1, 2)[::2]
    for args in ((strided, v1, np.zeros(6)), (list(q1), list(v1), [0] * 6), (q1, v1, np.zeros(6, dtype=int))):
        for x, y in zip(copy.deepcopy(sim).step(*args), expected):
            np.testing.assert_array_equal(x, y)
    for args, name in (((q1[:6], v1, np.zeros(6)), "q"), ((q1, v1[:5], np.zeros(6)), "v"),
                       ((q1, v1, np.zeros(7)), "tau"), ((q1, v1, np.zeros(6), np.zeros(3)), "fext")):
        with pytest.raises(ValueError, match=f"^{name}: expected shape"):
            sim.step(*args)
    np.testing.assert_array_equal(sim.impulses, impulses)  # the failed steps kept nothing


def test_the_step_as_one_c_call_is_the_kernel_call():
    """From its second step on a simulator steps through one C call (``packed.fast_step``): the same steps to the bit
    as the kernel called from Python, results the caller's own; any argument it does not take (a list, a NaN, a
    quaternion off the unit sphere, a wrong size), a changed setting and a copy take the ordinary path, with its
    conversions and named errors."""
    import copy

    from rbda._native.public import extension
    from rbda.simulation.packed import no_fast_step

    a, b, q, v = twins(free_body(Box((0.2, 0.2, 0.2)), 10.0, mu=0.4, v0=(0.3, 0.0, 0.0, 0.0, 0.0, 0.5)))
    taus = np.zeros((200, 6))
    taus[100:, 0] = 50.0
    qa, va, qb, vb = q, v, q, v
    for tau in taus:
        qa, va = a.step(qa, va, tau)
        b._fast_step = no_fast_step  # (the kernel called from Python, every step)
        qb, vb = b.step(qb, vb, tau)
        np.testing.assert_array_equal(qa, qb)
        np.testing.assert_array_equal(va, vb)
        np.testing.assert_array_equal(a.impulses, b.impulses)
        assert a.stats.iterations == b.stats.iterations
    if extension() is not None:
        assert type(a._fast_step).__name__ == "Step"
    a.dt = 2e-3  # a setting (read by the kernel from the context) and fext
    b.dt = 2e-3
    b._fast_step = no_fast_step
    for x, y in zip(a.step(qa, va, np.zeros(6), np.ones(6)), b.step(qa, va, np.zeros(6), np.ones(6))):
        np.testing.assert_array_equal(x, y)
    q1, v1 = a.step(qa, va, taus[-1])
    q2, v2 = a.step(qa, va, taus[-1])
    assert not (np.shares_memory(q1, q2) or np.shares_memory(q1, qa) or np.shares_memory(v1, v2))
    for x, y in zip(a.step(list(qa), list(va), [0] * 6), copy.deepcopy(a).step(qa, va, np.zeros(6))):
        np.testing.assert_array_equal(x, y)
    bad = qa.copy()
    bad[3:7] = (0.0, 0.0, 0.0, 2.0)
    with pytest.raises(ValueError, match="q: is not a valid configuration"):
        a.step(bad, va, np.zeros(6))
    with pytest.raises(ValueError, match="^tau: "):
        a.step(qa, va, np.full(6, np.nan))
    with pytest.raises(ValueError, match="^fext: expected shape"):
        a.step(qa, va, np.zeros(6), np.zeros(5))
    clone = copy.copy(a)
    assert clone._fast_step is no_fast_step
