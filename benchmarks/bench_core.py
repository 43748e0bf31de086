"""rbda against Pinocchio in one process: one call from Python of every public function that has a Pinocchio twin
(enumerated by ``twins.py``), on panda and talos from example-robot-data, interleaved with Pinocchio on the same
states; then batched throughput against Pinocchio on 2 threads, and (unless ``--no-compile``) compile time.
Prints per function and robot rbda's time, Pinocchio's and the ratio rbda / Pinocchio (lower is better), and the
worst ratio per robot.

    python benchmarks/bench_core.py [--robots panda talos] [--only NAME ...] [--markdown PATH] [--no-batch]
                                    [--no-compile]

``--markdown PATH`` writes the one-call table as markdown, headed by the command, the date, the machine and
Pinocchio's version (``docs/_generated/core.md`` for the documentation's performance page). Compile time is
measured in a subprocess with ``NUMBA_CACHE_DIR`` pointed at an empty folder.
"""

from __future__ import annotations

import argparse
import os
import platform
import shlex
import subprocess
import sys
import tempfile
import time

import numpy as np

import rbda
from rbda.bench import best_time


# ------------------------------------------------------------------------------------------- one call of every twin
def time_pair(ours, theirs, budget: float = 0.004, repeat: int = 7) -> tuple[float, float]:
    """Best seconds per call of ``ours`` and ``theirs``, interleaved: ``repeat`` rounds, each timing a batch of
    calls of each that lasts about ``budget`` seconds (the batch size set from a first call)."""
    t0 = time.perf_counter()
    ours(), theirs()
    first = max(time.perf_counter() - t0, 1e-7)
    number = max(1, int(budget / first))
    t_ours = t_theirs = np.inf
    for _ in range(repeat):
        t_ours = min(t_ours, best_time(ours, number, 1))
        t_theirs = min(t_theirs, best_time(theirs, number, 1))
    return t_ours, t_theirs


def twin_rows(robot: str, only=None) -> tuple[list, list]:
    """``([(rbda name, Pinocchio name, rbda s, Pinocchio s)], [(name, why not timed)])`` for ``robot``."""
    from twins import LEFT_OUT, State, cases, enumerate_twins, load

    state = State(robot, load(robot))
    table = cases(state)
    rows, missing = [], []
    for name, pin_name in enumerate_twins().items():
        if only and name not in only:
            continue
        if name in LEFT_OUT:
            missing.append((name, LEFT_OUT[name]))
            continue
        if name not in table:
            missing.append((name, "no case in benchmarks/twins.py"))
            continue
        prepare, ours, theirs = table[name]
        if prepare is not None:
            prepare()
        try:
            rows.append((name, pin_name, *time_pair(ours, theirs)))
        except Exception as error:  # noqa: BLE001  (a failing call is reported, the others still timed)
            missing.append((name, f"failed: {type(error).__name__}: {error}"))
    return rows, missing


def format_twins(robot: str, model, rows, missing) -> str:
    lines = [f"{robot} (nq={model.nq}, nv={model.nv}): one call from Python, rbda / Pinocchio",
             f"  {'function':44s} {'rbda':>10s} {'pinocchio':>10s} {'ratio':>7s}"]
    for name, _, ours, theirs in rows:
        lines.append(f"  {name:44s} {ours * 1e6:8.2f}us {theirs * 1e6:8.2f}us {ours / theirs:7.2f}")
    if rows:
        worst = max(rows, key=lambda r: r[2] / r[3])
        lines.append(f"  worst ratio: {worst[2] / worst[3]:.2f} ({worst[0]}); "
                     f"{sum(r[2] / r[3] > 1.0 for r in rows)} of {len(rows)} above 1.0")
    lines += [f"  not timed: {name}: {why}" for name, why in missing]
    return "\n".join(lines)


def markdown(results: dict, command: str) -> str:
    """The one-call tables of ``results`` (``{robot: (model, rows, missing)}``) as markdown, with their context."""
    import pinocchio as pin

    robots = list(results)
    out = ["# One call from Python: rbda against Pinocchio", "",
           f"- command: `{command}`", f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
           f"- machine: {platform.platform()}, {platform.processor() or platform.machine()}, "
           f"{os.cpu_count()} CPUs, Python {platform.python_version()}",
           f"- Pinocchio {pin.__version__}, rbda {rbda.__version__}, numpy {np.__version__}", "",
           "Each time is the best over interleaved rounds of many calls on the same state; the ratio is rbda's "
           "time over Pinocchio's (lower is better).", ""]
    header = "| function | " + " | ".join(f"{r} rbda (us) | {r} Pinocchio (us) | {r} ratio" for r in robots) + " |"
    out += [header, "|" + "---|" * (1 + 3 * len(robots))]
    by_robot = {r: {row[0]: row for row in results[r][1]} for r in robots}
    names = list(dict.fromkeys(name for r in robots for name, *_ in results[r][1]))
    for name in names:
        cells = []
        for r in robots:
            row = by_robot[r].get(name)
            cells += ([f"{row[2] * 1e6:.2f}", f"{row[3] * 1e6:.2f}", f"{row[2] / row[3]:.2f}"] if row
                      else ["-", "-", "-"])
        out.append(f"| `{name}` | " + " | ".join(cells) + " |")
    worst = []
    for r in robots:
        rows = results[r][1]
        if rows:
            w = max(rows, key=lambda row: row[2] / row[3])
            worst.append(f"{r} {w[2] / w[3]:.2f} (`{w[0]}`)")
    out += ["", "Worst ratio: " + ", ".join(worst) + "."]
    missing = {name: why for r in robots for name, why in results[r][2]}
    if missing:
        out += ["", "Not timed:", ""] + [f"- `{name}`: {why}" for name, why in missing.items()]
    return "\n".join(out) + "\n"


COMPILE_SNIPPET = """
import time, numpy as np
t0 = time.perf_counter(); import rbda; t_import = time.perf_counter() - t0
m = rbda.sample_models.every_joint(); d = m.create_data(); q = rbda.neutral(m); z = np.zeros(m.nv)
t0 = time.perf_counter()
rbda.forward_kinematics(m, d, q, z, z); rbda.compute_joint_jacobians(m, d, q); rbda.rnea(m, d, q, z, z)
rbda.crba(m, d, q); rbda.aba(m, d, q, z, z); rbda.compute_minverse(m, d, q); rbda.integrate(m, q, z)
rbda.difference(m, q, q); rbda.frames_forward_kinematics(m, d, q)
t_single = time.perf_counter() - t0
Q = q[None].repeat(2, 0); Z = np.zeros((2, m.nv))
t0 = time.perf_counter()
rbda.batch.rnea(m, Q, Z, Z); rbda.batch.aba(m, Q, Z, Z); rbda.batch.crba(m, Q); rbda.batch.compute_minverse(m, Q)
rbda.batch.forward_kinematics(m, Q); rbda.batch.compute_joint_jacobians(m, Q)
print(f"{t_import:.3f} {t_single:.1f} {time.perf_counter() - t0:.1f}")
"""


def compile_times() -> str:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = subprocess.run([sys.executable, "-c", COMPILE_SNIPPET], env=env, capture_output=True, text=True, check=True)
        warm = subprocess.run([sys.executable, "-c", COMPILE_SNIPPET], env=env, capture_output=True, text=True, check=True)
    ti, ts, tb = cold.stdout.split()
    wi, ws, wb = warm.stdout.split()
    return (f"compile without cache: single-state kernels {ts}s, batched kernels {tb}s; with cache: {ws}s + {wb}s; "
            f"import rbda: {wi}s (cached)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--robots", nargs="+", default=["panda", "talos"])
    parser.add_argument("--only", nargs="+", help="time only these functions (rbda names)")
    parser.add_argument("--markdown", metavar="PATH", help="also write the one-call table as markdown")
    parser.add_argument("--batch", type=int, default=10000)
    parser.add_argument("--no-batch", action="store_true", help="skip the batched throughput")
    parser.add_argument("--no-compile", action="store_true", help="skip the compile-time measurement")
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    print(time.strftime("%Y-%m-%d"), platform.machine(), f"{os.cpu_count()} cpus", f"python {sys.version.split()[0]}")
    from twins import load

    results = {}
    for robot in args.robots:
        model = load(robot)
        rows, missing = twin_rows(robot, args.only)
        results[robot] = (model, rows, missing)
        print(format_twins(robot, model, rows, missing), flush=True)
    if args.markdown:
        os.makedirs(os.path.dirname(os.path.abspath(args.markdown)), exist_ok=True)
        with open(args.markdown, "w") as out:
            out.write(markdown(results, "python " + " ".join(shlex.quote(a) for a in sys.argv)))
    if not args.no_batch:
        from bench_batch import CORE
        from bench_batch import batch_rows as all_batch_rows  # every batched kernel against Pinocchio, 2 threads

        rng = np.random.default_rng(0)
        for robot in args.robots:
            print("\n".join(all_batch_rows(load(robot), CORE, args.batch, 2, rng)))
    if not args.no_compile:
        print(compile_times())


if __name__ == "__main__":
    main()
