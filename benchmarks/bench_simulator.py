"""One simulation step of a robot standing on the ground: rbda.Simulator.step against MuJoCo's mj_step on the same
scene, the same dt, one thread.

The scenes are tests/simulation/robot_scenes.py's: example-robot-data's solo12 and talos with their collision
meshes on a ground plane (rbda: its URDF reader and convex hulls; MuJoCo: the same URDF compiled by MuJoCo),
friction 0.5, dt = 1e-3, robot-ground contacts only; rbda's NCP ADMM, MuJoCo's elliptic cones and Newton solver
with Euler integration. Each robot is first brought to a standing rest under one StandingPD (0.5 s), then both
engines step from that state under the controller's torques; the time is the best mean over ``--number`` steps
(the state runs on between steps, as in a simulation). Also printed: rbda's step split by stage (contacts,
Delassus, solve, the rest) measured on the same steps.

    python benchmarks/bench_simulator.py [--number 200]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: numpy's BLAS too
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from rbda.simulation import StandingPD  # noqa: E402
from rbda.simulation import simulator as stages  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "simulation"))


def timed_stages(sim):
    """Wrap the simulator's contact, Delassus and solve stages to add up their times in a dict."""
    totals = {"contacts": 0.0, "delassus": 0.0, "solve": 0.0}
    for name in totals:
        original = getattr(stages, name)

        def wrapper(*args, _f=original, _name=name):
            t0 = time.perf_counter()
            out = _f(*args)
            totals[_name] += time.perf_counter() - t0
            return out

        setattr(stages, name, wrapper)
    return totals


def bench(name: str, number: int) -> None:
    import mujoco

    from robot_scenes import JointMap, mujoco_robot, rbda_robot

    model, _, sim, q0 = rbda_robot(name)
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

    def rbda_steps():
        nonlocal q, v
        for _ in range(number):
            q, v = sim.step(q, v, tau)

    def mujoco_steps():
        for _ in range(number):
            mujoco.mj_step(mj_model, mj_data)

    best = {}
    for label, fn in (("rbda", rbda_steps), ("mujoco", mujoco_steps)):
        best[label] = np.inf
        for _ in range(3):
            t0 = time.perf_counter()
            fn()
            best[label] = min(best[label], (time.perf_counter() - t0) / number)
    originals = {s: getattr(stages, s) for s in ("contacts", "delassus", "solve")}
    totals = timed_stages(sim)
    t0 = time.perf_counter()
    rbda_steps()
    total = (time.perf_counter() - t0) / number
    for s, f in originals.items():
        setattr(stages, s, f)
    split = ", ".join(f"{s} {t / number * 1e6:.0f}" for s, t in totals.items())
    rest = total - sum(totals.values()) / number
    print(f"{name:8s} nv {model.nv:3d}  contacts rbda {sim.contacts.size:3d} MuJoCo {mj_data.ncon:3d}  "
          f"rbda {best['rbda'] * 1e6:8.1f} us  MuJoCo {best['mujoco'] * 1e6:7.1f} us  "
          f"ratio {best['rbda'] / best['mujoco']:5.1f}  (rbda: {split}, the rest {rest * 1e6:.0f} us; "
          f"ADMM iterations {sim.stats.iterations})")


def main(number: int) -> None:
    for name in ("solo12", "talos"):
        bench(name, number)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=200)
    main(parser.parse_args().number)
