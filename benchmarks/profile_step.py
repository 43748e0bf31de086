"""Where one compiled simulator step spends its time, per stage, on scenes of the suite (benchmarks/scenes).

Each scene is stepped from its start (zero torque; the robots as ``bench_suite.py`` runs them) and, at ``--samples``
states spread over its first ``--steps`` steps, the compiled step and each of its stages are called again on that
state, alone, each the best of ``--number`` calls (every stage is a function of the state and of the previous
step's results, which a repeated call leaves as they are):

- ``python``: ``Simulator.step`` (its one C call: checks, allocations, the results kept; the best of five calls
  from the same state) less the kernel;
- ``dynamics``: RNEA, CRBA, the sparse factorisation of ``M`` and the free velocity (``compiled.free_velocity``);
- ``broad``: the geometry placements and the broad phase (``compiled.candidate_pairs``);
- ``narrow``: the candidate pairs' contacts (``compiled.pair_contacts``), and split by pair type (``narrow
  plane-box``, ...), each type's candidates alone;
- ``contact``: stages 3 to 5 (``compiled.contact_step``: Jacobian, Delassus, warm start, solve, integration),
  of which ``delassus`` (``G = J M^-1 J^T`` through the sparse factor) and ``solve`` (``compiled.solve_contacts``
  on that ``G`` from the step's warm start) when the step forms ``G`` (its fast path on the warm start failed).

Printed per scene: the mean of each stage over the samples (us), the contacts, candidates and the solver's
iterations, the share of steps that formed ``G``; then each stage's worst scene.

    python benchmarks/profile_step.py [--only NAME ...] [--steps 500] [--samples 20] [--number 20]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from benchmarks import scenes  # noqa: E402
from benchmarks.scenes import robots  # noqa: E402

DEFAULT = ("spinning_ball", "tumbling_box", "box_stack", "pile_0", "pile_4", "heap_3", "heap_7", "solo12_falling",
           "talos_falling", "talos_standing")
TYPE_NAMES = {0: "sphere", 1: "capsule", 2: "box", 3: "cylinder", 4: "cone", 5: "ellipsoid", 6: "convex"}


def best(fn, number, repeat=5):
    """The least time (s) per call of ``fn(n)``, a compiled loop of ``n`` calls, less its time at ``n = 0`` (the
    dispatch from Python), over ``repeat`` trials."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(0)
        t1 = time.perf_counter()
        fn(number)
        t2 = time.perf_counter()
        times.append(((t2 - t1) - (t1 - t0)) / number)
    return max(0.0, min(times))


def pair_type(a, b, arrays) -> str:
    """A pair's name by its shapes' types: ``plane-box``, ``box-cylinder``, ..."""
    from rbda.simulation import compiled
    from rbda.simulation.pair_kernels import TYPE

    gint = arrays["gint"]

    def name(g):
        return "plane" if gint[g, 0] == compiled.HALFSPACE else TYPE_NAMES.get(int(gint[g, TYPE]), "other")
    return "-".join(sorted((name(a), name(b)), key=lambda s: (s != "plane", s)))


_LOOPS: dict = {}


def loops():
    """The compiled loops that call each stage ``n`` times inside numba (as the step calls it), built once."""
    if _LOOPS:
        return _LOOPS
    from numba import njit

    from rbda.kernels.constrained import delassus
    from rbda.simulation import compiled as c

    @njit
    def whole(n, ctx, parity, q, v, tau, fext, options, q_next, v_next):
        for _ in range(n):
            c.step_in_set(ctx, parity, q, v, tau, fext, options, q_next, v_next)

    @njit
    def stages_1_2(n, ctx, parity, q, v, tau, fext):
        for _ in range(n):
            c.dynamics_and_contacts(ctx, parity, q, v, tau, fext)

    @njit
    def dynamics(n, ctx, parity, q, v, tau, fext):
        settings = ctx.settings[0]
        for _ in range(n):
            c.free_velocity(ctx.I, ctx.F, ctx.ws, ctx.M, ctx.L, ctx.D, ctx.Dinv, ctx.lam, ctx.nle, q, v, tau, fext,
                            ctx.damping, settings.dt, ctx.zeros, ctx.no_fext, settings.free_bodies,
                            ctx.out_v_free[parity], ctx)

    @njit
    def broad(n, ctx, parity, v):
        settings = ctx.settings[0]
        count = 0
        for _ in range(n + 1):  # (once more, outside the count: its candidates are the caller's)
            c.geometry_placements(ctx.oMi, ctx.gint, ctx.gR, ctx.gp, ctx.R, ctx.p)
            count = c.candidate_pairs(ctx.pairs, ctx.plane_pairs, ctx.bounded, ctx.order, ctx.local_box,
                                      ctx.world_box, ctx.partner_start, ctx.partners, ctx.gint[:, 1], ctx.plane,
                                      ctx.radius, ctx.normals, ctx.tree, ctx.Jw, v, ctx.out_v_free[parity], ctx.R,
                                      ctx.p, settings.margin, settings.dt, settings.speculative, ctx.velocities,
                                      ctx.twists, ctx.candidates, ctx.margins)
        return count

    @njit
    def narrow(n, ctx, parity, candidates):
        shapes = (ctx.sparam, ctx.hull, ctx.graph, ctx.faces, ctx.face_ranges, ctx.polygons)
        room = (ctx.simplex, ctx.simplex_weights, ctx.hull_starts, ctx.witness, ctx.iterations, ctx.epa_polytope,
                ctx.epa_faces, ctx.epa_planes, ctx.epa_alive, ctx.epa_edges, ctx.pair_placements, ctx.features,
                ctx.clipped, ctx.patch, ctx.keep, ctx.end_sphere)
        for _ in range(n):
            c.pair_contacts(ctx.pairs, candidates, ctx.gint, ctx.gparam, ctx.vertices, ctx.boxes, shapes,
                            ctx.world_box, ctx.R, ctx.p, ctx.margins, ctx.work, room, ctx.pair_rows,
                            ctx.out_contacts[parity], ctx.out_keys[parity], ctx.keep, ctx.normal)

    @njit
    def delassus_loop(n, L, Dinv, lam, J, Y, G):
        for _ in range(n):
            delassus(L, Dinv, lam, J, Y, G)

    @njit
    def solve_loop(n, options, rho, rounds, G, g, mu, lower, upper, guess, lam, J, M, parents, stats, integers,
                   floats):
        for _ in range(n):
            lam[:] = guess
            c.solve_contacts(options, rho, rounds, G, g, mu, lower, upper, lam, True, J, M, parents, stats[0],
                             integers, floats)

    _LOOPS.update(whole=whole, stages_1_2=stages_1_2, dynamics=dynamics, broad=broad, narrow=narrow,
                  delassus=delassus_loop, solve=solve_loop)
    return _LOOPS


def stages(sim, q, v, tau, number) -> tuple:
    """``(times, counts, (q_next, v_next))``: the times (s) of the step from ``(q, v)`` and of its stages (see the
    module) and its counts; the step itself is then taken (its results kept on ``sim``)."""
    from rbda.simulation import compiled, packed

    f = loops()
    state = sim.step_state
    ctx, a = state.context.kernel, state.context.arrays
    parity = 1 - state.context.parity[0]  # the set this step writes (the other holds the warm start)
    fext = sim._scene.zeros
    options = packed.solver_options(sim.solver)
    q_next, v_next = np.empty_like(q), np.empty_like(v)
    out, counts = {}, {}
    out["kernel"] = best(lambda n: f["whole"](n, ctx, parity, q, v, tau, fext, options, q_next, v_next), number)
    out["stages 1-2"] = best(lambda n: f["stages_1_2"](n, ctx, parity, q, v, tau, fext), number)
    out["dynamics"] = best(lambda n: f["dynamics"](n, ctx, parity, q, v, tau, fext), number)
    out["broad"] = best(lambda n: f["broad"](n, ctx, parity, v), number)
    count = f["broad"](0, ctx, parity, v)
    candidates = a["candidates"][:count].copy()
    out["narrow"] = best(lambda n: f["narrow"](n, ctx, parity, candidates), number)
    by_type = defaultdict(list)
    for c in candidates:
        by_type[pair_type(a["pairs"][c, 0], a["pairs"][c, 1], a)].append(c)
    for name, which in by_type.items():
        which = np.array(which, dtype=np.int64)
        out[f"narrow {name}"] = best(lambda n, w=which: f["narrow"](n, ctx, parity, w), number)
    counts["candidates"] = count
    # the step itself, through Simulator.step (its one C call), timed: less the kernel's time, the Python layer
    totals = []
    for _ in range(5):  # (each from the same state; the last one's results are kept)
        previous = tuple(np.array(x, copy=True) for x in packed.warm_start(state))  # (the step's warm start)
        t0 = time.perf_counter()
        q1, v1 = sim.step(q, v, tau)
        totals.append(time.perf_counter() - t0)
    out["python"] = max(0.0, min(totals) - out["kernel"])
    out["contact"] = max(0.0, out["kernel"] - out["stages 1-2"])
    stats = sim.stats
    formed = stats.factorizations != 0 or stats.iterations > sim.solver.active_set_max_iter
    counts.update(contacts=sim.contacts.size, iterations=stats.iterations, formed=formed)
    if formed:  # the Delassus matrix and the solve on it, as the step ran them
        arrays = packed.step_arrays(state)
        J = arrays.J.copy()
        m = J.shape[0]
        G, Y = np.empty((m, m)), np.empty((J.shape[1], m))
        out["delassus"] = best(lambda n: f["delassus"](n, a["L"], a["Dinv"], a["lam"], J, Y, G), number)
        f["delassus"](1, a["L"], a["Dinv"], a["lam"], J, Y, G)
        lam = np.concatenate([sim.impulses, sim.row_impulses])
        g = np.concatenate([sim.contact_velocities, sim.row_velocities]) - G @ lam
        guess = np.empty(m)
        compiled.warm_start(arrays.keys, arrays.rows, *previous, len(arrays.keys), guess)
        rounds = sim.solver.active_set_max_iter
        rho = compiled.given_rho(options[0], sim.solver.last_rho())
        floats, integers = compiled.room_sizes(m, sim.model.nv)
        from rbda.simulation.solvers import STEP_STATS
        record = np.zeros(1, STEP_STATS)
        rest = (J, sim.data.M, sim.data.dof_parents, record, np.empty(integers, dtype=np.int64), np.empty(floats))
        mu = arrays.contacts[:, 7].copy()
        out["solve"] = best(lambda n: f["solve"](n, options, rho, rounds, G, g, mu, arrays.lower.copy(),
                                                 arrays.upper.copy(), guess, np.empty(m), *rest), max(1, number // 4),
                            repeat=3)
    return out, counts, (q1, v1)


def profile(scene, steps, samples, number):
    """``(times, counts)``: each stage's times (s) at the sampled states of ``scene``, and the counts."""
    if isinstance(scene, robots.RobotScene):  # (a falling robot: zero torque)
        step, _, read = robots.robot_engines(scene)
        step()
        model, sim, q, v = read()
    else:
        model, _, sim, q, v = scenes.rbda_simulator(scene)
        q, v = sim.step(q, v, np.zeros(model.nv))
    tau = np.zeros(model.nv)
    last = min(steps, scene.steps)
    at = set(np.linspace(1, last - 1, samples).astype(int))
    totals, count_rows = defaultdict(list), []
    for t in range(1, last):
        if t in at:
            times, counts, (q, v) = stages(sim, q, v, tau, number)
            for name, x in times.items():
                totals[name].append(x)
            count_rows.append(counts)
        else:
            q, v = sim.step(q, v, tau)
    return totals, count_rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=list(DEFAULT))
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--number", type=int, default=20)
    parser.add_argument("--piles", type=int, default=8)
    args = parser.parse_args(argv)
    pool = {s.name: s for s in scenes.suite(args.piles) + robots.robot_scenes()}
    worst = {}
    for name in args.only:
        scene = pool[name]
        if isinstance(scene, robots.RobotScene) and scene.standing:
            print(f"{name}: a standing robot's torques come from its controller; profile the falling one")
            continue
        totals, counts = profile(scene, args.steps, args.samples, args.number)
        means = {stage: 1e6 * float(np.mean(x)) for stage, x in totals.items()}
        k = np.mean([c["contacts"] for c in counts])
        cand = np.mean([c["candidates"] for c in counts])
        it = np.mean([c["iterations"] for c in counts])
        formed = np.mean([c["formed"] for c in counts])
        main_stages = ("python", "dynamics", "broad", "narrow", "contact", "delassus", "solve")
        print(f"{name}: step {means['kernel'] + means['python']:.1f} us (kernel {means['kernel']:.1f}); "
              + ", ".join(f"{s} {means.get(s, 0.0):.1f}" for s in main_stages)
              + f"; contacts {k:.1f}, candidates {cand:.1f}, iterations {it:.1f}, G formed in {100 * formed:.0f}% "
                "of the steps")
        types = sorted((s for s in means if s.startswith("narrow ")), key=lambda s: -means[s])
        if types:
            print("    " + ", ".join(f"{s[7:]} {means[s]:.1f}" for s in types))
        for stage, x in means.items():
            if stage not in worst or x > worst[stage][0]:
                worst[stage] = (x, name)
    print("worst per stage: " + ", ".join(f"{s} {x:.1f} ({n})" for s, (x, n) in worst.items()
                                          if not s.startswith("narrow ")))


if __name__ == "__main__":
    main()
