"""Analytical derivatives of RNEA and ABA: rbda against Pinocchio in one process (ratios rbda / Pinocchio, lower
is better), against central finite differences of rbda's own RNEA/ABA for contrast, and batched throughput.

    python benchmarks/bench_derivatives.py [--batch 10000] [--number 500]

Pinocchio has no batched derivatives: the batch rows compare rbda's per-state time on every core with one
Pinocchio call per state (a C++ loop would add nothing to it but the Python call overhead, ~0.3us).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

import rbda
from rbda.bench import best_time


def finite_differences(model, data, fn, q, v, x, eps=1e-6):
    """Central differences of ``fn(model, data, q, v, x)`` in q (through integrate), v and x: 6 nv calls."""
    nv = model.nv
    out = np.empty((3, nv, nv))
    for k in range(nv):
        e = np.zeros(nv)
        e[k] = eps
        out[0, :, k] = fn(model, data, rbda.integrate(model, q, e), v, x) - fn(model, data, rbda.integrate(model, q, -e), v, x)
        out[1, :, k] = fn(model, data, q, v + e, x) - fn(model, data, q, v - e, x)
        out[2, :, k] = fn(model, data, q, v, x + e) - fn(model, data, q, v, x - e)
    return out / (2 * eps)


def rows(model, number: int, batch: int, rng) -> list[str]:
    data = model.create_data()
    q = rbda.random_configuration(model, rng=rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    tau = rbda.rnea(model, data, q, v, a).copy()
    try:
        import pinocchio as pin

        from rbda.interop.pinocchio import to_pinocchio

        pm = to_pinocchio(model)
        pd = pm.createData()
    except ImportError:
        pin = None
    cases = [("compute_rnea_derivatives", lambda: rbda.compute_rnea_derivatives(model, data, q, v, a),
              pin and (lambda: pin.computeRNEADerivatives(pm, pd, q, v, a)), rbda.rnea, a),
             ("compute_aba_derivatives", lambda: rbda.compute_aba_derivatives(model, data, q, v, tau),
              pin and (lambda: pin.computeABADerivatives(pm, pd, q, v, tau)), rbda.aba, tau),
             ("compute_centroidal_dynamics_derivatives",
              lambda: rbda.compute_centroidal_dynamics_derivatives(model, data, q, v, a),
              pin and (lambda: pin.computeCentroidalDynamicsDerivatives(pm, pd, q, v, a)), None, None)]
    lines = [f"{model.name} (nv={model.nv}): one call from Python (best of 5 repeats)",
             f"  {'algorithm':26s} {'rbda':>10s} {'pinocchio':>10s} {'ratio':>6s} {'rbda FD':>10s} {'FD/rbda':>8s}"]
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(batch)])
    V, X = rng.normal(size=(batch, model.nv)), rng.normal(size=(batch, model.nv))
    batched = {"compute_rnea_derivatives": rbda.batch.compute_rnea_derivatives,
               "compute_aba_derivatives": rbda.batch.compute_aba_derivatives}
    batch_lines = []
    for name, ours, theirs, fn, x in cases:
        ours()
        t_ours, t_theirs = np.inf, np.inf
        for _ in range(5):
            t_ours = min(t_ours, best_time(ours, number, 1))
            if theirs:
                t_theirs = min(t_theirs, best_time(theirs, number, 1))
        p = f"{t_theirs * 1e6:8.2f}us {t_ours / t_theirs:6.2f}" if theirs else f"{'-':>10s} {'-':>6s}"
        if fn is None:  # no batched twin nor finite-difference row
            lines.append(f"  {name:26s} {t_ours * 1e6:8.2f}us {p}")
            continue
        t_fd = best_time(lambda: finite_differences(model, data, fn, q, v, x), max(1, number // 50), 3)
        lines.append(f"  {name:26s} {t_ours * 1e6:8.2f}us {p} {t_fd * 1e6:8.1f}us {t_fd / t_ours:8.1f}")
        batched[name](model, Q[:2], V[:2], X[:2])
        t_batch = best_time(lambda: batched[name](model, Q, V, X), 1, 3) / batch
        ratio = f", ratio to one Pinocchio call {t_batch / t_theirs:.2f}" if theirs else ""
        batch_lines.append(f"  batch of {batch}, per state: {name} {t_batch * 1e6:.2f}us "
                           f"({rbda.batch.numba.get_num_threads()} threads){ratio}")
    return lines + batch_lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=10000)
    parser.add_argument("--number", type=int, default=500)
    args = parser.parse_args()
    print(time.strftime("%Y-%m-%d"), os.uname().machine, f"{os.cpu_count()} cpus", f"python {sys.version.split()[0]}")
    rng = np.random.default_rng(0)
    for model in (rbda.sample_models.manipulator(), rbda.sample_models.humanoid()):
        print("\n".join(rows(model, args.number, args.batch, rng)))


if __name__ == "__main__":
    main()
