"""Every batched function of ``rbda.batch`` against Pinocchio on the same threads: batches of states (default
10,000) of panda and talos, per state, wall-clock and CPU time (``time.process_time``: all threads), and the ratio
rbda / Pinocchio (lower is better). ``bench_core.py`` and ``bench_derivatives.py`` print these rows too.

    python benchmarks/bench_batch.py [--batch 10000] [--threads 2] [--robots panda talos]

Pinocchio 4.1 has a parallel form of rnea and aba only (``rneaInParallel``, ``abaInParallel``, on a
``ModelPool``); every other row compares with a loop of Pinocchio calls from Python split over ``threads``
processes (forked, each given its share of the states, started together at a barrier; the wall time is the
slowest process's, the CPU time their sum, the compute alone). rbda is timed returning new arrays, then writing
into the same ``out=`` arrays again (a stream of batches in fixed memory: Pinocchio's loop keeps no results, and
new arrays cost their first-touch page faults, 115 MB for 10,000 of talos' 38x38 matrices). That loop pays Python's call overhead (about
0.2-0.4 us a call), which a C++ loop would not: on the smallest kernels (panda's kinematics) it is a large part
of Pinocchio's figure.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time

import numpy as np

import rbda

#: name -> (rbda.batch function name, the inputs it takes after Q, Pinocchio's per-state function name)
ROWS = {
    "forward_kinematics": ("forward_kinematics", (), "forwardKinematics"),
    "compute_joint_jacobians": ("compute_joint_jacobians", (), "computeJointJacobians"),
    "crba": ("crba", (), "crba"),
    "compute_minverse": ("compute_minverse", (), "computeMinverse"),
    "rnea": ("rnea", ("V", "A"), "rneaInParallel"),
    "aba": ("aba", ("V", "TAU"), "abaInParallel"),
    "compute_rnea_derivatives": ("compute_rnea_derivatives", ("V", "A"), "computeRNEADerivatives"),
    "compute_aba_derivatives": ("compute_aba_derivatives", ("V", "TAU"), "computeABADerivatives"),
}
CORE = ("forward_kinematics", "compute_joint_jacobians", "rnea", "crba", "aba", "compute_minverse")
DERIVATIVES = ("compute_rnea_derivatives", "compute_aba_derivatives")


def robots() -> dict:
    """panda and talos from example-robot-data (as installed with Pinocchio), by name."""
    import pinocchio as pin

    root = os.path.join(os.path.dirname(pin.__file__), *[".."] * 4, "share", "example-robot-data", "robots")
    return {"panda": lambda: rbda.load_model(os.path.join(root, "panda_description/urdf/panda.urdf")),
            "talos": lambda: rbda.load_model(os.path.join(root, "talos_data/robots/talos_reduced.urdf"),
                                             floating_base=True)}


def timed(fn, repeat: int) -> tuple[float, float]:
    """Best wall-clock and CPU seconds of ``fn()`` over ``repeat`` runs."""
    wall, cpu = np.inf, np.inf
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        wall, cpu = min(wall, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
    return wall, cpu


_job: dict = {}  # what the forked processes loop over (set before the fork)


def _loop_worker(rank: int, barrier, results) -> None:
    fn, inputs, n = _job["fn"], _job["inputs"], _job["processes"]
    B = inputs[0].shape[0]
    lo, hi = rank * B // n, (rank + 1) * B // n
    fn(*(x[lo] for x in inputs))  # warm
    best = (np.inf, np.inf)
    for _ in range(_job["repeat"]):
        barrier.wait()
        c0, t0 = time.process_time(), time.perf_counter()
        for b in range(lo, hi):
            fn(*(x[b] for x in inputs))
        t, c = time.perf_counter() - t0, time.process_time() - c0
        best = (min(best[0], t), min(best[1], c))
    results.put((rank, best))


def process_loop(fn, inputs: list, processes: int, repeat: int) -> tuple[float, float]:
    """Wall and CPU seconds of ``fn(*state)`` over the states of ``inputs`` split over ``processes`` forked
    processes (best of ``repeat`` each; the wall time of the slowest, the CPU time summed)."""
    ctx = multiprocessing.get_context("fork")
    _job.update(fn=fn, inputs=inputs, processes=processes, repeat=repeat)
    barrier, results = ctx.Barrier(processes), ctx.Queue()
    procs = [ctx.Process(target=_loop_worker, args=(r, barrier, results)) for r in range(processes)]
    for p in procs:
        p.start()
    best = [results.get() for _ in procs]
    for p in procs:
        p.join()
    return max(b[1][0] for b in best), sum(b[1][1] for b in best)


def batch_rows(model, names, batch: int, threads: int, rng, repeat: int = 3) -> list[str]:
    """One line per batched function ``names`` on ``model``: rbda's and Pinocchio's per-state wall and CPU time
    and their ratios."""
    import numba
    import pinocchio as pin

    from rbda.interop.pinocchio import to_pinocchio

    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(batch)])
    V, A = rng.normal(size=(batch, model.nv)), rng.normal(size=(batch, model.nv))
    inputs = {"V": V, "A": A, "TAU": rbda.batch.rnea(model, Q, V, A)}
    pm = to_pinocchio(model)
    pd = pm.createData()
    lines = [f"{model.name} (nv={model.nv}): batches of {batch}, per state, {threads} threads / processes; "
             f"wall us, CPU us (rbda | Pinocchio | ratio | rbda with out= | ratio)"]
    for name in names:
        ours, extra, theirs = ROWS[name]
        fn = getattr(rbda.batch, ours)
        batched = lambda *x: fn(model, *x)  # noqa: E731
        args = [Q] + [inputs[x] for x in extra]
        batched(*(x[:40] for x in args))  # compiled and the threads started
        t_ours = timed(lambda: batched(*args), repeat)
        kept = batched(*args)  # a stream of batches in fixed memory: out= (no new pages to fault in)
        t_kept = timed(lambda: fn(model, *args, out=kept), repeat)
        if theirs.endswith("InParallel"):
            pool = pin.ModelPool(pm, threads)
            cols = [np.asfortranarray(x.T) for x in args]
            out = np.zeros((model.nv, batch), order="F")
            t_theirs = timed(lambda: getattr(pin, theirs)(threads, pool, *cols, out), repeat)
            how = theirs
        else:
            call = getattr(pin, theirs)
            t_theirs = process_loop(lambda *x: call(pm, pd, *x), args, threads, repeat)
            how = f"{theirs} loop"
        w, c = t_ours[0] / batch * 1e6, t_ours[1] / batch * 1e6
        pw, pc = t_theirs[0] / batch * 1e6, t_theirs[1] / batch * 1e6
        kw, kc = t_kept[0] / batch * 1e6, t_kept[1] / batch * 1e6
        lines.append(f"  {name:26s} {w:7.3f} {c:7.3f} | {pw:7.3f} {pc:7.3f} | {w / pw:5.2f} {c / pc:5.2f} | out=: "
                     f"{kw:7.3f} {kc:7.3f} | {kw / pw:5.2f} {kc / pc:5.2f}  ({how})")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=10000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--robots", nargs="+", default=["panda", "talos"])
    parser.add_argument("--only", nargs="+", default=list(ROWS), help="the functions to time")
    args = parser.parse_args()
    print(time.strftime("%Y-%m-%d %H:%M"), os.uname().machine, f"{os.cpu_count()} cpus",
          f"python {sys.version.split()[0]}", f"load {os.getloadavg()[0]:.1f}")
    rng = np.random.default_rng(0)
    for name in args.robots:
        print("\n".join(batch_rows(robots()[name](), args.only, args.batch, args.threads, rng)))


if __name__ == "__main__":
    main()
