"""One simulation step on the whole scene suite (benchmarks/scenes, its robots and gymnasium's included):
rbda.Simulator.step against mujoco.mj_step on the same MJCF (the same URDF for the robots), the same dt, one thread,
CPU time, the engines interleaved.

Each scene is run by both engines for ``--steps`` steps from its start (the state running on, as in a
simulation), ``--repeat`` times alternating rbda and MuJoCo; a scene's time is the best of its repeats, per step.
Printed per scene: both times, their ratio, and whether rbda's run passed the scene's physics checks
(``scenes.check``); then the median and the worst ratio.

    python benchmarks/bench_suite.py [--steps 500] [--repeat 3] [--piles 8] [--only NAME ...] [--markdown PATH]
                                     [--rollouts] [--batch 8] [--workers 2]

``--rollouts`` times batched rollouts instead, on the suite's piles and heaps: ``--batch`` states of each scene,
``--steps`` steps, by ``rbda.batch.RolloutPool`` (threads) against MuJoCo's ``mujoco.rollout`` pool, both on
``--workers`` threads made before the timing; CPU time per step and state (the fair measure on a shared machine).

With ``--markdown``, the table is also written to ``PATH`` as a Markdown page (the command, the date, the
machine, rbda's and MuJoCo's versions), which the documentation includes (docs/performance_suite.md).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: numpy's BLAS too
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from benchmarks import scenes  # noqa: E402
from benchmarks.scenes import gymnasium, robots  # noqa: E402


def time_rbda(scene, steps):
    model, _, sim, q, v = scenes.rbda_simulator(scene)
    tau = np.zeros(model.nv)
    q, v = sim.step(q, v, tau)  # the first step outside the timing (the simulator's buffers)
    t0 = time.process_time()
    for _ in range(steps):
        q, v = sim.step(q, v, tau)
    return (time.process_time() - t0) / steps


def time_mujoco(scene, steps):
    import mujoco

    mj, d = scenes.mujoco_start(scene)
    mujoco.mj_step(mj, d)
    t0 = time.process_time()
    for _ in range(steps):
        mujoco.mj_step(mj, d)
    return (time.process_time() - t0) / steps


def time_robot(scene, steps):
    """``(rbda, mujoco)`` seconds per step of a robot scene (``robots.robot_engines``; MuJoCo's None where it
    rejects the robot's file), the engines run one after the other from the same start."""
    step_rbda, step_mujoco, _ = robots.robot_engines(scene)
    times = []
    for step in (step_rbda, step_mujoco):
        if step is None:
            times.append(None)
            continue
        step()
        t0 = time.process_time()
        for _ in range(steps):
            step()
        times.append((time.process_time() - t0) / steps)
    return times


def cpu_seconds() -> float:
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def rollout_rows(args) -> list:
    """``(name, rbda us, mujoco us, ratio)`` per pile: batched rollouts, CPU time per step and state."""
    import mujoco
    from mujoco import rollout

    import rbda

    rows = []
    for scene in [s for s in scenes.suite(args.piles) if s.family in ("pile", "heap")]:
        if args.only and not any(n in scene.name for n in args.only):
            continue
        B, T = args.batch, min(args.steps, scene.steps)
        model, geom, _, q0, v0 = scenes.rbda_simulator(scene)
        Q0, V0, TAUS = np.tile(q0, (B, 1)), np.tile(v0, (B, 1)), np.zeros((B, T, model.nv))
        pool = rbda.batch.RolloutPool(model, geom, scene.dt, workers=args.workers, backend="thread")
        pool.rollout(Q0, V0, TAUS)  # its threads and simulators made, as MuJoCo's pool and MjData below
        mj, d = scenes.mujoco_start(scene)
        datas = [mujoco.MjData(mj) for _ in range(args.workers)]
        spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
        x = np.empty(mujoco.mj_stateSize(mj, spec))
        mujoco.mj_getState(mj, d, x, spec)
        init = np.tile(x, (B, 1))
        times = {"rbda": np.inf, "mujoco": np.inf}
        with rollout.Rollout(nthread=args.workers) as mj_pool:
            for _ in range(args.repeat):  # interleaved
                c = cpu_seconds()
                pool.rollout(Q0, V0, TAUS)
                times["rbda"] = min(times["rbda"], cpu_seconds() - c)
                c = cpu_seconds()
                mj_pool.rollout(mj, datas, init, np.zeros((B, T, mj.nu)), nstep=T)
                times["mujoco"] = min(times["mujoco"], cpu_seconds() - c)
        pool.close()
        a, b = 1e6 * times["rbda"] / (B * T), 1e6 * times["mujoco"] / (B * T)
        rows.append((scene.name, a, b, a / b))
        print(f"{scene.name:22s} {a:10.1f} {b:12.1f} {a / b:7.2f}", flush=True)
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--piles", type=int, default=8)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--markdown", default=None, help="also write the table to this Markdown file")
    parser.add_argument("--rollouts", action="store_true", help="batched rollouts on the piles instead")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.rollouts:
        print(f"{'scene':22s} {'rbda (us)':>10s} {'rollout (us)':>12s} {'ratio':>7s}   ({args.batch} states, "
              f"{args.workers} threads, CPU time per step and state)")
        rows = rollout_rows(args)
        ratios = [r for *_, r in rows]
        worst = max(rows, key=lambda row: row[3])
        summary = (f"rollouts: median ratio {np.median(ratios):.2f}, worst {worst[3]:.2f} ({worst[0]}), "
                   f"{len(rows)} scenes")
        print(summary)
        if args.markdown:
            write_rollout_markdown(args, rows, summary)
        return
    rows = []
    gym = gymnasium.scenes() if gymnasium.available() else []  # gymnasium's robots, passive, 10 s
    suite = [s for s in scenes.suite(args.piles) + robots.robot_scenes() + gym
             if not args.only or any(n in s.name for n in args.only)]
    print(f"{'scene':22s} {'rbda (us)':>10s} {'mj_step (us)':>12s} {'ratio':>7s}  checks")
    ratios = []
    for scene in suite:
        steps = min(args.steps, scene.steps)
        robot = isinstance(scene, robots.RobotScene)
        if scene.family == "gymnasium":  # beside MuJoCo's run: gymnasium.check
            problems = gymnasium.check(gymnasium.compare(scene))
        else:
            problems = scenes.check(scene, robots.run_robot(scene) if robot else scenes.run_rbda(scene))
        r, m = [], []
        for _ in range(args.repeat):
            if robot:
                a, b = time_robot(scene, steps)
            else:
                a, b = time_rbda(scene, steps), time_mujoco(scene, steps)
            r.append(a)
            m.append(b)
        checks = "ok" if not problems else "; ".join(problems)
        if m[0] is None:
            print(f"{scene.name:22s} {1e6 * min(r):10.1f} {'-':>12s} {'-':>7s}  {checks} (MuJoCo rejects the file)")
            rows.append((scene.name, scene.family, 1e6 * min(r), None, None, checks + " (MuJoCo rejects the file)"))
            continue
        ratio = min(r) / min(m)
        ratios.append((ratio, scene.name))
        rows.append((scene.name, scene.family, 1e6 * min(r), 1e6 * min(m), ratio, checks))
        print(f"{scene.name:22s} {1e6 * min(r):10.1f} {1e6 * min(m):12.1f} {ratio:7.2f}  {checks}", flush=True)
    worst = max(ratios)
    summary = (f"median ratio {np.median([x for x, _ in ratios]):.2f}, worst {worst[0]:.2f} ({worst[1]}), "
               f"{len(ratios)} scenes")
    print(summary)
    if args.markdown:
        write_markdown(args, rows, summary)


def write_markdown(args, rows, summary):
    """The table as a Markdown page: what was run, when, where, with which versions."""
    import datetime
    import platform

    import mujoco

    import rbda

    command = "python benchmarks/bench_suite.py " + " ".join(
        f"--{k} {v}" for k, v in (("steps", args.steps), ("repeat", args.repeat), ("piles", args.piles)))
    lines = [f"Generated by `{command}` on {datetime.date.today().isoformat()}, {platform.machine()} "
             f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}), rbda {rbda.__version__}, MuJoCo "
             f"{mujoco.__version__}; CPU time per step, one thread, the engines interleaved, best of the repeats.", "",
             "| scene | family | rbda (us) | mj_step (us) | ratio | physics checks |", "|---|---|---|---|---|---|"]
    for name, family, a, b, ratio, checks in rows:
        lines.append(f"| {name} | {family} | {a:.1f} | {'-' if b is None else f'{b:.1f}'} | "
                     f"{'-' if ratio is None else f'{ratio:.2f}'} | {checks} |")
    lines += ["", summary + "."]
    with open(args.markdown, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_rollout_markdown(args, rows, summary):
    """The rollout table as a Markdown page."""
    import datetime
    import platform

    import mujoco

    import rbda

    command = (f"python benchmarks/bench_suite.py --rollouts --steps {args.steps} --repeat {args.repeat} "
               f"--piles {args.piles} --batch {args.batch} --workers {args.workers}")
    lines = [f"Generated by `{command}` on {datetime.date.today().isoformat()}, {platform.machine()} "
             f"({os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}), rbda {rbda.__version__}, MuJoCo "
             f"{mujoco.__version__}; CPU time per step and state, {args.workers} threads each, best of the repeats.",
             "",
             "| scene | rbda.batch.RolloutPool (us) | mujoco.rollout (us) | ratio |", "|---|---|---|---|"]
    lines += [f"| {name} | {a:.1f} | {b:.1f} | {ratio:.2f} |" for name, a, b, ratio in rows]
    lines += ["", summary + "."]
    with open(args.markdown, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
