"""One simulation step of a robot standing on the ground: rbda.Simulator.step against MuJoCo's mj_step on the same
scene, the same dt, one thread.

The scenes are benchmarks/scenes/robots.py's: example-robot-data's solo12 and talos with their collision
meshes on a ground plane (rbda: its URDF reader and convex hulls; MuJoCo: the same URDF compiled by MuJoCo),
friction 0.5, dt = 1e-3, robot-ground contacts only; rbda's NCP ADMM, MuJoCo's elliptic cones and Newton solver
with Euler integration. Each robot is first brought to a standing rest under one StandingPD (0.5 s), then both
engines step from that state under the controller's torques; the time is the best mean over ``--number`` steps
(the state runs on between steps, as in a simulation), the engines interleaved, best of ``--repeat``. Also
printed: the compiled step's one kernel call (``compiled.step``, called from Python: ``Simulator.step`` calls it
through one C call, ``packed.fast_step``) and the Python around that call, the contact solve's
share (the same solve, timed on its own), and the step written as its Python stages
(``simulator.reference_step``, the step before it was compiled).

    python benchmarks/bench_simulator.py [--number 200] [--repeat 5]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: numpy's BLAS too
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from rbda.simulation import ADMMSolver, StandingPD  # noqa: E402
from rbda.simulation import simulator as stages  # noqa: E402
from rbda.simulation.solvers import STEP_STATS  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def timed_kernels():
    """Wrap the compiled step's kernel to add up its time in a dict; returns it and an undo function."""
    from rbda.simulation import packed

    totals = {"step": 0.0}
    originals = {name: getattr(packed._k, name) for name in totals}
    for name, original in originals.items():
        def wrapper(*args, _f=original, _name=name):
            t0 = time.perf_counter()
            out = _f(*args)
            totals[_name] += time.perf_counter() - t0
            return out

        setattr(packed._k, name, wrapper)
    return totals, lambda: [setattr(packed._k, n, f) for n, f in originals.items()]


def solve_time(sim, q, v, tau, number):
    """The mean time of one step's contact solve (compiled ``solve_contacts``) from its own warm start (the
    previous step's impulses by key), on the problem of a step from ``(q, v)``."""
    from rbda.simulation import compiled, packed

    previous = tuple(x.copy() for x in packed.warm_start(sim.step_state))
    sim.step(q, v, tau)
    contacts, keys, _, J, v_free, bias, lower, upper, rows = (x.copy() for x in packed.step_arrays(sim.step_state)[:9])
    lam = np.concatenate([sim.impulses, sim.row_impulses])
    G = np.empty((len(lam), len(lam)))
    compiled.delassus(sim.data._cholesky_L, sim.data.Dinv, sim.data.dof_parents, J, np.empty(J.shape[::-1]), G)
    g = np.concatenate([sim.contact_velocities, sim.row_velocities]) - G @ lam
    guess = np.empty(len(lam))
    compiled.warm_start(keys, rows, *previous, len(keys), guess)
    options, rounds = packed.solver_options(sim.solver), sim.solver.active_set_max_iter
    rho = compiled.given_rho(options[0], sim.solver.last_rho())
    mu = contacts[:, 7].copy()
    # as the step passes them: G's joint-space form, the statistics' buffer and room for the scratch arrays
    floats, integers = compiled.room_sizes(len(lam), sim.model.nv)
    rest = (J, sim.data.M, sim.data.dof_parents, np.zeros(1, STEP_STATS)[0], np.empty(integers, dtype=np.int64),
            np.empty(floats))
    compiled.solve_contacts(options, rho, rounds, G, g, mu, lower, upper, guess.copy(), True, *rest)
    t0 = time.perf_counter()
    for _ in range(number):
        compiled.solve_contacts(options, rho, rounds, G, g, mu, lower, upper, guess.copy(), True, *rest)
    stats = rest[3]
    return (time.perf_counter() - t0) / number, int(stats["iterations"]), sim.stats.iterations


def bench(name: str, number: int, repeat: int, active_set: int | None = None) -> None:
    import mujoco

    from benchmarks.scenes.robots import JointMap, mujoco_robot, rbda_robot

    options = {} if active_set is None else dict(active_set_max_iter=active_set)
    model, _, sim, q0 = rbda_robot(name, solver_options=options)
    pd = StandingPD(sim, q0)
    mj_model, mj_data = mujoco_robot(name)
    joints = JointMap(model, mj_model)
    mj_model.dof_damping[joints.v_mj] += pd.kd[joints.v_rbda]
    mj_data.qpos[:] = joints.qpos(q0)
    q, v = q0.copy(), np.zeros(model.nv)
    for _ in range(500):  # to rest, standing
        q, v = sim.step(q, v, pd(q))
        mj_data.qfrc_applied[:] = joints.qfrc(pd(joints.q(mj_data.qpos)))
        mujoco.mj_step(mj_model, mj_data)
    tau = pd(q)  # then held for the timed steps (a fraction of a second: it stays standing)

    def rbda_steps(step=sim.step):
        nonlocal q, v
        for _ in range(number):
            q, v = step(q, v, tau)

    def reference_steps():
        rbda_steps(lambda q, v, tau: stages.reference_step(sim, q, v, tau))

    def mujoco_steps():
        for _ in range(number):
            mujoco.mj_step(mj_model, mj_data)

    best = dict.fromkeys(("rbda", "mujoco", "reference"), np.inf)
    for _ in range(repeat):  # interleaved
        for label, fn in (("rbda", rbda_steps), ("mujoco", mujoco_steps), ("reference", reference_steps)):
            t0 = time.perf_counter()
            fn()
            best[label] = min(best[label], (time.perf_counter() - t0) / number)
    from rbda.simulation import packed

    fast, sim._fast_step = sim._fast_step, packed.no_fast_step  # the kernel called from Python, to time it apart
    totals, undo = timed_kernels()
    t0 = time.perf_counter()
    rbda_steps()
    total = (time.perf_counter() - t0) / number
    undo()
    sim._fast_step = fast
    kernels = [t / number for t in totals.values()]
    solve, iterations, step_iterations = solve_time(sim, q, v, tau, number)
    print(f"{name:8s} nv {model.nv:3d}  contacts rbda {sim.contacts.size:3d} MuJoCo {mj_data.ncon:3d}  "
          f"rbda {best['rbda'] * 1e6:7.1f} us  MuJoCo {best['mujoco'] * 1e6:6.1f} us  "
          f"ratio {best['rbda'] / best['mujoco']:5.2f}  (the kernel {kernels[0] * 1e6:.1f}, of which the contact solve "
          f"{solve * 1e6:.1f} ({iterations} iterations, {step_iterations} in the step), and the Python around it "
          f"without the one C call {(total - sum(kernels)) * 1e6:.1f} us; solver iterations {sim.stats.iterations}); the Python stages "
          f"{best['reference'] * 1e6:.0f} us")


def main(number: int, repeat: int, active_set: int | None) -> None:
    active_set = ADMMSolver().active_set_max_iter if active_set is None else active_set
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; the solvers' active-set fast path: "
          + (f"on, {active_set} active sets" if active_set else "off"))
    for name in ("solo12", "talos"):
        bench(name, number, repeat, active_set)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--active-set", type=int, default=None,
                        help="active_set_max_iter of the solver (0: off; default: the solver's default)")
    args = parser.parse_args()
    main(args.number, args.repeat, args.active_set)
