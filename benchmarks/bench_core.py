"""rbda against Pinocchio in one process: one call from Python per algorithm, batched RNEA/ABA throughput,
kernel compile time without cache and ``import rbda`` time. Prints ratios rbda / Pinocchio (lower is better).

    python benchmarks/bench_core.py [--batch 10000] [--number 2000] [--no-compile] [--markdown PATH]

Compile time is measured in a subprocess with ``NUMBA_CACHE_DIR`` pointed at an empty folder.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

import rbda
from rbda.bench import best_time, format_table, run, write_one_call_markdown


def batch_rows(model, batch: int, rng) -> list[str]:
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(batch)])
    V, A = rng.normal(size=(batch, model.nv)), rng.normal(size=(batch, model.nv))
    TAU = rbda.batch.rnea(model, Q, V, A)
    rbda.batch.aba(model, Q, V, TAU)
    t_rnea = best_time(lambda: rbda.batch.rnea(model, Q, V, A), 1, 5)
    t_aba = best_time(lambda: rbda.batch.aba(model, Q, V, TAU), 1, 5)
    lines = [f"  batch of {batch}, per state: rnea {t_rnea / batch * 1e6:.3f}us, aba {t_aba / batch * 1e6:.3f}us (rbda, "
             f"{rbda.batch.numba.get_num_threads()} threads)"]
    try:
        import pinocchio as pin

        from rbda.interop.pinocchio import to_pinocchio
    except ImportError:
        return lines
    threads = os.cpu_count() or 1
    pool = pin.ModelPool(to_pinocchio(model), threads)
    Qt, Vt, At, Tt = (np.asfortranarray(x.T) for x in (Q, V, A, TAU))
    out = np.zeros((model.nv, batch), order="F")
    p_rnea = best_time(lambda: pin.rneaInParallel(threads, pool, Qt, Vt, At, out), 1, 5)
    p_aba = best_time(lambda: pin.abaInParallel(threads, pool, Qt, Vt, Tt, out), 1, 5)
    lines.append(f"  Pinocchio rneaInParallel/abaInParallel ({threads} threads), per state: rnea "
                 f"{p_rnea / batch * 1e6:.3f}us, aba {p_aba / batch * 1e6:.3f}us; ratio rbda/pin: rnea "
                 f"{t_rnea / p_rnea:.2f}, aba {t_aba / p_aba:.2f}")
    return lines


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
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=10000)
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--no-compile", action="store_true", help="skip the compile-time measurement")
    parser.add_argument("--markdown", default=None, help="also write the one-call table to this Markdown file")
    args = parser.parse_args()
    tables = {}
    print(time.strftime("%Y-%m-%d"), os.uname().machine, f"{os.cpu_count()} cpus", f"python {sys.version.split()[0]}")
    rng = np.random.default_rng(0)
    for model in (rbda.sample_models.manipulator(), rbda.sample_models.humanoid()):
        tables[f"{model.name} ({model.nv} dof)"] = rows = run(model, number=args.number)
        print(format_table(f"{model.name} (nv={model.nv})", rows))
        print("\n".join(batch_rows(model, args.batch, rng)))
    arm = rbda.sample_models.manipulator()  # its last joint follows the one before it (a gripper's second finger)
    gripper = rbda.transform_joint_into_mimic(arm, arm.njoints - 2, arm.njoints - 1, -1.0, 0.1)
    print(format_table(f"{arm.name} with a mimic joint (nv={gripper.nv})", run(gripper, number=args.number)))
    from bench_batch import CORE, robots
    from bench_batch import batch_rows as all_batch_rows  # every batched kernel against Pinocchio, 2 threads

    for name, load in robots().items():
        print("\n".join(all_batch_rows(load(), CORE, args.batch, 2, rng)))
    if not args.no_compile:
        print(compile_times())
    if args.markdown:
        write_one_call_markdown(args.markdown, "benchmarks/bench_core.py", tables)


if __name__ == "__main__":
    main()
