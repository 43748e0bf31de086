"""Constrained dynamics, rbda against Pinocchio 4.1 in one process, interleaved, on the same states: one call of
``constraint_dynamics``, of ``impulse_dynamics`` and of their derivatives on a quadruped standing on four 3D feet
(solo12, LOCAL_WORLD_ALIGNED) and a humanoid on two 6D feet (talos); and a batch of states through
``rbda.batch`` (the same four calls) against a loop of Pinocchio calls and against that loop split over two
processes (Pinocchio 4.1 has no parallel form of these calls). Prints ratios rbda / Pinocchio (lower is
better). Needs ``pin`` (it also provides the example-robot-data files).

    python benchmarks/bench_constrained.py [--number 2000] [--batch 2000]
"""

from __future__ import annotations

import argparse
import os

import numpy as np
import pinocchio as pin

import rbda
from rbda import CONTACT_3D, CONTACT_6D, LOCAL_WORLD_ALIGNED, RigidConstraintModel
from rbda.bench import best_time, format_table
from rbda.interop.pinocchio import to_pinocchio

ROBOTS = os.path.join(os.path.dirname(pin.__file__), *[".."] * 4, "share", "example-robot-data", "robots")


def feet(model, kind, names, rf):
    frames = [model.frames[model.get_frame_id(n)] for n in names]
    return [RigidConstraintModel(kind, model, f.parent_joint, f.placement, 0, rbda.SE3(), rf) for f in frames]


def cases():
    solo = rbda.load_model(os.path.join(ROBOTS, "solo_description/robots/solo12.urdf"), floating_base=True)
    talos = rbda.load_model(os.path.join(ROBOTS, "talos_data/robots/talos_reduced.urdf"), floating_base=True)
    return [("solo12, 4 feet 3D", solo, feet(solo, CONTACT_3D, ("FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"),
                                             LOCAL_WORLD_ALIGNED)),
            ("talos, 2 feet 6D", talos, feet(talos, CONTACT_6D, ("left_sole_link", "right_sole_link"),
                                             rbda.LOCAL))]


def pinocchio_twins(pm, cms):
    out = []
    for cm in cms:
        P1, P2 = cm.joint1_placement, cm.joint2_placement
        out.append(pin.RigidConstraintModel(pin.ContactType(int(cm.type)), pm, cm.joint1_id,
                                            pin.SE3(P1.rotation.copy(), P1.translation.copy()), cm.joint2_id,
                                            pin.SE3(P2.rotation.copy(), P2.translation.copy()),
                                            pin.ReferenceFrame(int(cm.reference_frame))))
    return out, [c.createData() for c in out]


def single_calls(model, cms, number: int, repeat: int = 5):
    rng = np.random.default_rng(0)
    q = rbda.random_configuration(model, rng=rng)
    v, tau = rng.normal(size=model.nv), rng.normal(size=model.nv)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    pm = to_pinocchio(model)
    pd = pm.createData()
    pcms, pcds = pinocchio_twins(pm, cms)
    pin.initConstraintDynamics(pm, pd, pcms, pcds)
    ours_s, theirs_s = rbda.ProximalSettings(1e-12, 0.0, 1), pin.ProximalSettings(1e-12, 0.0, 1)

    def ours_derivatives():
        rbda.constraint_dynamics(model, data, q, v, tau, cms, cds, ours_s)
        rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds, ours_s)

    def theirs_derivatives():
        pin.constraintDynamics(pm, pd, q, v, tau, pcms, pcds, theirs_s)
        pin.computeConstraintDynamicsDerivatives(pm, pd, pcms, pcds, theirs_s)

    def ours_impulse_derivatives():
        rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.0, ours_s)
        rbda.compute_impulse_dynamics_derivatives(model, data, cms, cds, ours_s)

    def theirs_impulse_derivatives():
        pin.impulseDynamics(pm, pd, q, v, pcms, pcds, 0.0, theirs_s)
        pin.computeImpulseDynamicsDerivatives(pm, pd, pcms, pcds, 0.0, theirs_s)

    pairs = [("constraint_dynamics", lambda: rbda.constraint_dynamics(model, data, q, v, tau, cms, cds, ours_s),
              lambda: pin.constraintDynamics(pm, pd, q, v, tau, pcms, pcds, theirs_s)),
             ("  + its derivatives", ours_derivatives, theirs_derivatives),
             ("impulse_dynamics", lambda: rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.0, ours_s),
              lambda: pin.impulseDynamics(pm, pd, q, v, pcms, pcds, 0.0, theirs_s)),
             ("  + its derivatives ", ours_impulse_derivatives, theirs_impulse_derivatives)]
    rows = []
    for name, ours, theirs in pairs:
        ours(), theirs()
        t_ours = t_theirs = np.inf
        for _ in range(max(repeat, number // 10)):  # interleaved: the best of many 10-call means, which a busy
            t_ours = min(t_ours, best_time(ours, 10, 1))  # machine's preemptions spoil less than a few long runs
            t_theirs = min(t_theirs, best_time(theirs, 10, 1))
        rows.append((name, t_ours, t_theirs))
    return rows


_POOL_STATE = {}  # what the worker processes of the 2-process loop inherit (fork)


def _pinocchio_loop(kind, pm, pcms, Q, V, TAU):
    """A loop of Pinocchio calls over the states: ``kind`` "cd", "cdd" (with the derivatives), "id", "idd"."""
    pd, pcds = pm.createData(), [c.createData() for c in pcms]
    pin.initConstraintDynamics(pm, pd, pcms, pcds)
    s = pin.ProximalSettings(1e-12, 0.0, 1)
    for b in range(Q.shape[0]):
        if kind in ("cd", "cdd"):
            pin.constraintDynamics(pm, pd, Q[b], V[b], TAU[b], pcms, pcds, s)
            if kind == "cdd":
                pin.computeConstraintDynamicsDerivatives(pm, pd, pcms, pcds, s)
        else:
            pin.impulseDynamics(pm, pd, Q[b], V[b], pcms, pcds, 0.0, s)
            if kind == "idd":  # (Pinocchio 4.1 accumulates its q-partials on a reused data: timing only)
                pin.computeImpulseDynamicsDerivatives(pm, pd, pcms, pcds, 0.0, s)


def _worker(kind, lo, hi):
    import time

    pm, pcms, Q, V, TAU = _POOL_STATE["args"]
    t0 = time.perf_counter()
    _pinocchio_loop(kind, pm, pcms, Q[lo:hi], V[lo:hi], TAU[lo:hi])
    return time.perf_counter() - t0


def batch_table(name, model, cms, batch: int, repeat: int = 3) -> str:
    """Per state: rbda.batch on the numba threads (wall and CPU time), a loop of Pinocchio calls, and that loop
    split over two worker processes (Pinocchio has no parallel twin of these calls); the workers are started and
    warm before the timing, which spans the two halves running side by side."""
    import multiprocessing as mp
    import time

    rng = np.random.default_rng(1)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(batch)])
    V, TAU = rng.normal(size=(batch, model.nv)), rng.normal(size=(batch, model.nv))
    pm = to_pinocchio(model)
    pcms, _ = pinocchio_twins(pm, cms)
    ours = {"cd": lambda: rbda.batch.constraint_dynamics(model, Q, V, TAU, cms),
            "cdd": lambda: rbda.batch.compute_constraint_dynamics_derivatives(model, Q, V, TAU, cms),
            "id": lambda: rbda.batch.impulse_dynamics(model, Q, V, cms),
            "idd": lambda: rbda.batch.compute_impulse_dynamics_derivatives(model, Q, V, cms)}  # the dynamics too
    labels = {"cd": "constraint_dynamics", "cdd": "  + its derivatives", "id": "impulse_dynamics",
              "idd": "  + its derivatives"}
    _POOL_STATE["args"] = (pm, pcms, Q, V, TAU)
    half = batch // 2
    threads = rbda.batch.numba.get_num_threads()
    lines = [f"{name}: batch of {batch}, us per state; rbda.batch on {threads} threads (wall, and CPU time of all "
             "threads), a loop of Pinocchio calls, that loop on 2 processes; ratios rbda wall / each",
             f"  {'algorithm':24s}{'rbda':>9s}{'rbda cpu':>10s}{'pin loop':>10s}{'pin 2 proc':>11s}"
             f"{'/loop':>7s}{'/2 proc':>8s}"]
    with mp.get_context("fork").Pool(2) as pool:
        pool.starmap(_worker, [("cd", 0, 2), ("cd", 0, 2)])  # warm
        for kind, fn in ours.items():
            fn()
            wall = cpu = loop = two = np.inf
            for _ in range(repeat):  # interleaved
                t0, c0 = time.perf_counter(), time.process_time()
                fn()
                wall, cpu = min(wall, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
                t0 = time.perf_counter()
                _pinocchio_loop(kind, pm, pcms, Q, V, TAU)
                loop = min(loop, time.perf_counter() - t0)
                t0 = time.perf_counter()
                pool.starmap(_worker, [(kind, 0, half), (kind, half, batch)])
                two = min(two, time.perf_counter() - t0)
            us = [x / batch * 1e6 for x in (wall, cpu, loop, two)]
            lines.append(f"  {labels[kind]:24s}{us[0]:9.2f}{us[1]:10.2f}{us[2]:10.2f}{us[3]:11.2f}"
                         f"{wall / loop:7.2f}{wall / two:8.2f}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=2000)
    args = parser.parse_args()
    for name, model, cms in cases():
        print(format_table(name, single_calls(model, cms, args.number)))
        print(batch_table(name, model, cms, args.batch))


if __name__ == "__main__":
    main()
