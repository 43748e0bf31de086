"""The solvers' exact fast path (kernels/active_set.py): a guessed active set solved directly and accepted only if
it passes the problem's residual tests. Checked against the iterations alone (``active_set_max_iter=0``) and the
physics of one step (contact_scenes.py), its setting's errors."""

import numpy as np
import pytest
from contact_scenes import GRAVITY, box, particle, sphere

from rbda.simulation import ADMMSolver, DelassusDense, PGSSolver

TIGHT = dict(absolute_feasibility_tol=1e-12, relative_feasibility_tol=0.0, absolute_complementarity_tol=1e-13,
             relative_complementarity_tol=0.0, max_iter=20000)
MASS, MU = 10.0, 0.4
PROBLEMS = {
    "box at rest": lambda: box(MASS),
    "box pushed, sticks": lambda: box(MASS, force=(0.9 * MU * MASS * GRAVITY, 0, 0)),
    "box pushed, slides": lambda: box(MASS, force=(1.1 * MU * MASS * GRAVITY, 0, 0)),
    "box sliding obliquely": lambda: box(MASS, v0=(0.6, 0.8, 0.0)),
    "box lifting off": lambda: box(MASS, v0=(0.0, 0.0, 0.5)),
    "box on an incline": lambda: box(MASS, theta=0.3),
    "sphere on an incline": lambda: sphere(theta=0.3),
    "particle sliding": lambda: particle(v0=(1.0, -0.5, -0.1)),
}


def solve(Solver, formulation, problem, guess=None, **settings):
    solver = Solver(formulation, **{**TIGHT, "active_set_max_iter": 4, **settings})
    lam = solver.solve(DelassusDense(problem.G), problem.g, MU, lambda_guess=guess)
    assert solver.stats.converged, solver.stats
    return lam, solver.stats


@pytest.mark.parametrize("Solver", [PGSSolver, ADMMSolver])
@pytest.mark.parametrize("formulation", ["ncp", "ccp", "lcp"])
@pytest.mark.parametrize("name", PROBLEMS)
def test_same_motion_as_the_iterations_alone(Solver, formulation, name):
    """Cold and warm-started from the iterations' own solution, the fast path gives the same next velocity as the
    iterations without it (the impulses of redundant points may split differently: their wrench is checked)."""
    problem = PROBLEMS[name]()
    reference, _ = solve(Solver, formulation, problem, active_set_max_iter=0)
    for guess in (None, reference):
        lam, stats = solve(Solver, formulation, problem, guess)
        assert np.allclose(problem.v_next(lam), problem.v_next(reference), rtol=0.0, atol=1e-9)
        assert np.allclose(problem.G @ lam, problem.G @ reference, atol=1e-9)
    # from the solution's own active set: accepted (a degenerate split, corners at their bound with no slip, takes
    # up to three active sets). Not for a slow slip (the pushed box: 0.4 mm/s): there the slip directions' fixed
    # point is unstable and an inexact start (PGS's, good to 1e-12) leaves it to the iterations
    if not (name == "box pushed, slides" and Solver is PGSSolver):
        assert stats.iterations <= 4 and stats.factorizations == 0


@pytest.mark.parametrize("Solver", [PGSSolver, ADMMSolver])
def test_box_at_rest_in_one_active_set(Solver):
    """From a cold start the box at rest takes two active sets (all separate, then all stick) and no iteration:
    ``sum lambda_n = m g dt`` and the next velocity is zero, to rounding."""
    problem = box(MASS)
    lam, stats = solve(Solver, "ncp", problem)
    assert stats.iterations == 2 and stats.factorizations == 0
    assert lam[2::3].sum() == pytest.approx(MASS * GRAVITY * 1e-3, rel=1e-12)
    assert np.abs(problem.v_next(lam)).max() < 1e-14
    assert np.allclose(lam[2::3], lam[2])  # the least-norm split: equal loads on the four corners


@pytest.mark.parametrize("Solver", [PGSSolver, ADMMSolver])
def test_slip_direction_is_exact(Solver):
    """A warm start whose slip direction is off by 1e-4 rad passes a 1e-13 complementarity test (its error
    enters squared) but not the alignment test: the result slides without rotating, as the iterations do."""
    problem = box(MASS, force=(1.1 * MU * MASS * GRAVITY, 0, 0))
    reference, _ = solve(Solver, "ncp", problem, active_set_max_iter=0)
    guess = reference.copy().reshape(-1, 3)
    c, s = np.cos(1e-4), np.sin(1e-4)
    guess[:, :2] = guess[:, :2] @ np.array([[c, s], [-s, c]])
    lam, _ = solve(Solver, "ncp", problem, guess.ravel())
    v = problem.v_next(lam)
    assert v[0] == pytest.approx(0.1 * MU * GRAVITY * 1e-3, rel=1e-9)
    assert np.abs(v[1:]).max() < 1e-10  # (off by 1e-4 rad, it would rotate at about 4e-8 rad/s)


def test_rejected_guess_falls_back_to_the_iterations():
    """One active set (all separate, from a cold start) cannot hold a sliding box: the iterations take over,
    counted after it, and converge."""
    problem = box(MASS, force=(1.1 * MU * MASS * GRAVITY, 0, 0))
    lam, stats = solve(ADMMSolver, "ncp", problem, active_set_max_iter=1)
    assert stats.iterations > 1 and stats.factorizations >= 1
    assert problem.v_next(lam)[0] == pytest.approx(0.1 * MU * GRAVITY * 1e-3, rel=1e-6)


@pytest.mark.parametrize("Solver", [PGSSolver, ADMMSolver])
def test_bad_setting(Solver):
    with pytest.raises(ValueError, match="active_set_max_iter"):
        Solver(active_set_max_iter=-1)
    with pytest.raises(TypeError, match="active_set_max_iter"):
        Solver(active_set_max_iter=1.5)
    assert Solver(active_set_max_iter=0).active_set_max_iter == 0


@pytest.mark.parametrize("Solver", [PGSSolver, ADMMSolver])
@pytest.mark.parametrize("name", ["box at rest", "box pushed, slides", "sphere on an incline"])
def test_a_guess_that_solves_the_problem_is_kept(Solver, name):
    """A warm start that already solves the problem to a thousandth of the tolerances is returned as it is, with 0
    iterations (a body at rest meets the same problem step after step); one off by 1e-4 of its impulses (a
    velocity error of about 1e-7, above the 1e-9 of that test though within the solver's 1e-6) is not, and the
    solve then meets the solver's own tolerance (PGS's sweeps on the sliding box, where the active sets from that
    guess do not pass, stop at 6e-7)."""
    problem = PROBLEMS[name]()
    exact, _ = solve(Solver, "ncp", problem)
    loose = dict(absolute_feasibility_tol=1e-6, relative_feasibility_tol=1e-6, absolute_complementarity_tol=1e-6,
                 relative_complementarity_tol=1e-6)
    lam, stats = solve(Solver, "ncp", problem, exact, **loose)
    assert stats.iterations == 0 and np.array_equal(lam, exact)
    off = exact * (1.0 + 1e-4)
    velocity_error = np.abs(problem.G @ (off - exact)).max()
    assert 1e-8 < velocity_error < 1e-6  # kept by the solver's tolerance, not by a thousandth of it
    lam, stats = solve(Solver, "ncp", problem, off, **loose)
    assert stats.iterations >= 1
    assert np.abs(problem.v_next(lam) - problem.v_next(exact)).max() < 2e-6  # to the solver's own tolerance
