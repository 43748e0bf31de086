"""Contact solvers: one NCP solve of rbda's ADMM and PGS against Pinocchio 4.1's ADMMConstraintSolver on the same
Delassus matrix and free velocity, and the compiled inner loops against their plain-Python form (numba's
``py_func``), to show what compiling them buys.

Problems: the 10 kg box of the tests pushed at 1.1 mu m g (4 contacts, 12 rows), and k point contacts on a random
body with 3k + 6 dof (G = J J^T, J random: G invertible, the solution unique; k = 4, 8, 16), every contact pressed
(g_n < 0) and sliding.

    python benchmarks/bench_contact_solvers.py [--number 200]
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

from rbda.bench import best_time
from rbda.kernels import contact_solvers as kernels
from rbda.simulation import ADMMSolver, DelassusDense, PGSSolver

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "simulation"))

SETTINGS = dict(absolute_feasibility_tol=1e-8, relative_feasibility_tol=0.0, absolute_complementarity_tol=1e-10,
                relative_complementarity_tol=0.0, max_iter=5000)


def problems(rng):
    from contact_scenes import GRAVITY, box

    p = box(10.0, force=(1.1 * 0.4 * 10.0 * GRAVITY, 0.0, 0.0))
    yield "box, 4 contacts", p.G, p.g, 0.4
    for k in (4, 8, 16):
        J = rng.normal(size=(3 * k, 3 * k + 6)) / np.sqrt(3 * k)
        g = rng.normal(size=3 * k) * 0.1
        g[2::3] = -np.abs(g[2::3])
        yield f"random, {k} contacts", J @ J.T, g, 0.5


def pinocchio_admm(G, g, mu):
    try:
        import pinocchio as pin
    except ImportError:
        return None
    model = pin.Model()
    joint = model.addJoint(0, pin.JointModelFreeFlyer(), pin.SE3.Identity(), "body")
    models, datas = pin.StdVec_ConstraintModel(), pin.StdVec_ConstraintData()
    for _ in range(len(g) // 3):
        c = pin.PointContactConstraintModel(model, joint)
        c.setFriction(mu)
        models.append(c)
        datas.append(c.createData())
    settings, result = pin.ADMMSolverSettings(), pin.ADMMSolverResult()
    settings.absolute_feasibility_tol, settings.absolute_complementarity_tol = 1e-8, 1e-10
    settings.relative_feasibility_tol = settings.relative_complementarity_tol = 0.0
    settings.max_iterations = 5000
    solver, D = pin.ADMMConstraintSolver(len(g)), pin.DelassusOperatorDense(G)
    return lambda: (solver.solve(D, g, models, datas, settings, result), result.iterations)


def main(number: int) -> None:
    rng = np.random.default_rng(0)
    print(f"{'problem':22s} {'solver':14s} {'iters':>6s} {'time us':>9s}")
    for name, G, g, mu in problems(rng):
        D = DelassusDense(G)
        for label, solver in (("rbda ADMM", ADMMSolver("ncp", **SETTINGS)), ("rbda PGS", PGSSolver("ncp", **SETTINGS))):
            t = best_time(lambda: solver.solve(D, g, mu), number)
            print(f"{name:22s} {label:14s} {solver.stats.iterations:6d} {t * 1e6:9.1f}")
        pin_solve = pinocchio_admm(G, g, mu)
        if pin_solve is not None:
            t = best_time(pin_solve, number)
            print(f"{name:22s} {'Pinocchio ADMM':14s} {pin_solve()[1]:6d} {t * 1e6:9.1f}")
    # the compiled inner loops against the same code run by the Python interpreter
    _, G, g, mu = next(iter(problems(rng)))
    mus = np.full(len(g) // 3, mu)
    lam = np.zeros(len(g))
    x, y, z, rhs = np.ones(len(g)), np.zeros(len(g)), np.zeros(len(g)), np.zeros(len(g))
    no_rows = np.zeros(0)  # no box rows after the contacts
    for label, fn, args in (
        ("pgs_sweep", kernels.pgs_sweep, (kernels.NCP, G, g, mus, lam, 1.0, no_rows, no_rows)),
        ("admm_update", kernels.admm_update, (kernels.NCP, mus, no_rows, no_rows, g, x, x.copy(), y, z, rhs, 1.0,
                                              1e-6, np.zeros(len(g)))),
    ):
        fn(*args)
        compiled = best_time(lambda: fn(*args), number)
        python = best_time(lambda: fn.py_func(*args), max(number // 10, 5))
        print(f"{label}: compiled {compiled * 1e6:.2f} us, Python {python * 1e6:.1f} us, x{python / compiled:.0f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=200)
    main(parser.parse_args().number)
