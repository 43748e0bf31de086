"""Batched rollouts: ``rbda.batch.rollout`` on its three backends (serial, a thread pool, worker processes), and
``rbda.batch.RolloutPool``'s threads (made before the timing, as MuJoCo's pool and its ``MjData`` are), against
MuJoCo's multi-threaded ``mujoco.rollout`` on the same scene, read from one MJCF file (a cube sliding and a ball
rolling on the ground, dt = 1e-3, Euler, elliptic cones), both on 2 workers/threads.

Each of ``B`` states starts the cube sliding at its own speed along x and the ball rolling along y; zero torques,
``T`` steps. Reported: the wall time of the whole batch (best of ``--repeat``), per step and state, the ratio
rbda / MuJoCo, the CPU time of rbda's workers over the wall time (the cores actually used), the CPU time per step
and state and its ratio (the fair measure on a machine loaded by other jobs, where wall times mostly measure the
load), and the cube's final
x and the ball's final y against MuJoCo's (the physics agree: the cube stops after v^2 / (2 mu g)).

``--python-stages`` runs every step as its Python stages (``simulator.reference_step``, the step before it was
compiled), for comparison.

    python benchmarks/bench_rollout.py [--batch 16] [--steps 400] [--workers 2] [--repeat 2] [--python-stages]
    (needs mujoco)
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from pathlib import Path

import numpy as np

import rbda

SCENE = Path(__file__).parent.parent / "tests" / "simulation" / "data" / "scene_cube_ball.xml"


def cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def states(model, B, rng):
    import mujoco

    from rbda.io.mjcf import qpos_to_q

    q0 = qpos_to_q(model, mujoco.MjModel.from_xml_path(str(SCENE)).qpos0)  # the bodies where the file puts them
    Q0 = np.tile(q0, (B, 1))
    V0 = np.zeros((B, model.nv))
    V0[:, 0] = 0.5 + rng.random(B)  # the cube slides along x
    ball = model.idx_v[2]
    V0[:, ball + 1] = rng.random(B)  # the ball rolls along y (its spin follows from friction)
    return Q0, V0


def mujoco_rollout(path, Q0, V0, T, nthread, repeat):
    import mujoco
    from mujoco import rollout

    m = mujoco.MjModel.from_xml_path(str(path))
    datas = [mujoco.MjData(m) for _ in range(nthread)]
    d = mujoco.MjData(m)
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    init = []
    for v in V0:
        mujoco.mj_resetData(m, d)  # qpos0: the bodies where the file puts them, as rbda's Q0
        d.qvel[:] = v  # at the identity orientation, MuJoCo's free-joint velocities are rbda's [linear; angular]
        x = np.empty(mujoco.mj_stateSize(m, spec))
        mujoco.mj_getState(m, d, x, spec)
        init.append(x)
    init = np.array(init)
    best, cpu = np.inf, np.inf
    with rollout.Rollout(nthread=nthread) as pool:
        for _ in range(repeat):
            c, t = cpu_seconds(), time.perf_counter()
            state, _ = pool.rollout(m, datas, init, np.zeros((len(init), T, m.nu)), nstep=T)
            best, cpu = min(best, time.perf_counter() - t), min(cpu, cpu_seconds() - c)
    displacement = state[:, -1, 1:1 + m.nq] - m.qpos0  # the state: time, qpos, qvel, ...
    return best, cpu, displacement


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--python-stages", action="store_true")
    a = parser.parse_args()
    if a.python_stages:  # (before the worker processes fork: they inherit it)
        from rbda.simulation import simulator

        simulator.compiled_step = lambda sim, q, v, tau, fext: simulator.reference_step(sim, q, v, tau, fext)
        simulator.rollout_compiled = lambda sim: False  # and every step through Simulator.step
    model, geom = rbda.load_scene(SCENE)
    rng = np.random.default_rng(0)
    Q0, V0 = states(model, a.batch, rng)
    TAUS = np.zeros((a.batch, a.steps, model.nv))
    rbda.batch.rollout(model, geom, Q0[:1], V0[:1], TAUS[:1, :5], 1e-3, backend="serial")  # compile
    print(f"{a.batch} rollouts x {a.steps} steps, {a.workers} workers; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores")
    results = {}
    n = a.batch * a.steps
    pool = rbda.batch.RolloutPool(model, geom, 1e-3, workers=a.workers, backend="thread")
    pool.rollout(Q0, V0, TAUS)  # its threads and simulators made, as MuJoCo's pool and MjData below
    for backend in ("serial", "thread", "process", "pool"):
        best, used, cpu = np.inf, 0.0, np.inf
        for _ in range(a.repeat):
            c, t = cpu_seconds(), time.perf_counter()
            if backend == "pool":
                Q, _ = pool.rollout(Q0, V0, TAUS)
            else:
                Q, _ = rbda.batch.rollout(model, geom, Q0, V0, TAUS, 1e-3, workers=a.workers, backend=backend)
            wall, spent = time.perf_counter() - t, cpu_seconds() - c
            cpu = min(cpu, spent)
            if wall < best:
                best, used = wall, spent / wall
        results[backend] = (best, Q, cpu)
        print(f"rbda {backend:8s} {best:7.3f} s  {1e6 * best / n:7.1f} us/step  cores used {used:4.2f}  "
              f"CPU {1e6 * cpu / n:7.1f} us/step")
    mj, mj_cpu, qpos = mujoco_rollout(SCENE, Q0, V0, a.steps, a.workers, a.repeat)
    print(f"mujoco.rollout {a.workers} threads {mj:7.3f} s  {1e6 * mj / n:7.1f} us/step  "
          f"CPU {1e6 * mj_cpu / n:7.1f} us/step")
    pool.close()
    best = min(results.values(), key=lambda r: r[0])
    print(f"rbda (best backend) / MuJoCo = {best[0] / mj:.2f} (wall); CPU time: "
          f"rbda's thread pool / MuJoCo's = {results['pool'][2] / mj_cpu:.2f}, "
          f"rbda.batch.rollout on threads / MuJoCo = {results['thread'][2] / mj_cpu:.2f}")
    Q = results["process"][1][:, -1] - Q0  # (positions: the free flyers' first three coordinates)
    ball = model.idx_q[2]
    print(f"travel of the cube along x: max |rbda - MuJoCo| = {np.abs(Q[:, 0] - qpos[:, 0]).max():.2e} m "
          f"(of {np.abs(qpos[:, 0]).max():.3f}), of the ball along y: "
          f"{np.abs(Q[:, ball + 1] - qpos[:, 8]).max():.2e} m (of {np.abs(qpos[:, 8]).max():.3f})")


if __name__ == "__main__":
    main()
