"""Whole-body quantities, rbda against Pinocchio in one process: one call from Python per algorithm, rbda and
Pinocchio interleaved on the same state, on the bundled manipulator and humanoid. Prints ratios rbda / Pinocchio
(lower is better).

    python benchmarks/bench_whole_body.py [--number 2000]
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

import rbda
from rbda.bench import best_time, format_table, write_one_call_markdown


def cases(model, rng):
    """``(name, rbda_fn, pinocchio_fn or None)`` per whole-body algorithm, on one random state."""
    data = model.create_data()
    q = rbda.random_configuration(model, rng=rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    rbda.crba(model, data, q)
    rbda.cholesky.decompose(model, data)
    y = rng.normal(size=model.nv)
    ours = {
        "center_of_mass(q)": lambda: rbda.center_of_mass(model, data, q),
        "center_of_mass(q, v, a)": lambda: rbda.center_of_mass(model, data, q, v, a),
        "jacobian_center_of_mass": lambda: rbda.jacobian_center_of_mass(model, data, q),
        "compute_kinetic_energy": lambda: rbda.compute_kinetic_energy(model, data, q, v),
        "compute_potential_energy": lambda: rbda.compute_potential_energy(model, data, q),
        "ccrba": lambda: rbda.ccrba(model, data, q, v),
        "compute_centroidal_momentum": lambda: rbda.compute_centroidal_momentum(model, data, q, v),
        "compute_centroidal_momentum_time_variation": lambda: rbda.compute_centroidal_momentum_time_variation(model, data, q, v, a),
        "dccrba": lambda: rbda.dccrba(model, data, q, v),
        "compute_joint_torque_regressor": lambda: rbda.compute_joint_torque_regressor(model, data, q, v, a),
        "cholesky.decompose": lambda: rbda.cholesky.decompose(model, data),
        "cholesky.solve": lambda: rbda.cholesky.solve(model, data, y),
        "cholesky.compute_minv": lambda: rbda.cholesky.compute_minv(model, data),
    }
    theirs = _pinocchio(model, q, v, a, y)
    return [(name, fn, theirs.get(name)) for name, fn in ours.items()]


def _pinocchio(model, q, v, a, y) -> dict:
    try:
        import pinocchio as pin

        from rbda.interop.pinocchio import to_pinocchio
    except ImportError:
        return {}
    pm = to_pinocchio(model)
    pd = pm.createData()
    pin.crba(pm, pd, q)
    pin.cholesky.decompose(pm, pd)
    return {
        "center_of_mass(q)": lambda: pin.centerOfMass(pm, pd, q),
        "center_of_mass(q, v, a)": lambda: pin.centerOfMass(pm, pd, q, v, a),
        "jacobian_center_of_mass": lambda: pin.jacobianCenterOfMass(pm, pd, q),
        "compute_kinetic_energy": lambda: pin.computeKineticEnergy(pm, pd, q, v),
        "compute_potential_energy": lambda: pin.computePotentialEnergy(pm, pd, q),
        "ccrba": lambda: pin.ccrba(pm, pd, q, v),
        "compute_centroidal_momentum": lambda: pin.computeCentroidalMomentum(pm, pd, q, v),
        "compute_centroidal_momentum_time_variation": lambda: pin.computeCentroidalMomentumTimeVariation(pm, pd, q, v, a),
        "dccrba": lambda: pin.dccrba(pm, pd, q, v),
        "compute_joint_torque_regressor": lambda: pin.computeJointTorqueRegressor(pm, pd, q, v, a),
        "cholesky.decompose": lambda: pin.cholesky.decompose(pm, pd),
        "cholesky.solve": lambda: pin.cholesky.solve(pm, pd, y),
        "cholesky.compute_minv": lambda: pin.cholesky.computeMinv(pm, pd),
    }


def run(model, number: int, repeat: int = 5, seed: int = 0):
    rows = []
    for name, ours, theirs in cases(model, np.random.default_rng(seed)):
        ours()  # compile / warm up
        n = max(1, number // 20) if name == "dccrba" else number  # dccrba is not compiled
        t_ours, t_theirs = np.inf, (np.inf if theirs else None)
        for _ in range(repeat):
            t_ours = min(t_ours, best_time(ours, n, 1))
            if theirs:
                t_theirs = min(t_theirs, best_time(theirs, n, 1))
        rows.append((name, t_ours, t_theirs))
    return rows


def batch_rows(model, batch: int, rng) -> list[str]:
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(batch)])
    V = rng.normal(size=(batch, model.nv))
    lines = []
    for name, fn in (("center_of_mass", lambda: rbda.batch.center_of_mass(model, Q)),
                     ("ccrba", lambda: rbda.batch.ccrba(model, Q, V)),
                     ("compute_centroidal_momentum", lambda: rbda.batch.compute_centroidal_momentum(model, Q, V))):
        fn()
        t = best_time(fn, 1, 5)
        lines.append(f"  batch of {batch}, {name} per state: {t / batch * 1e6:.3f}us ({rbda.batch.numba.get_num_threads()} threads)")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=10000)
    parser.add_argument("--markdown", default=None, help="also write the one-call table to this Markdown file")
    args = parser.parse_args()
    tables = {}
    print(time.strftime("%Y-%m-%d"), os.uname().machine, f"{os.cpu_count()} cpus", f"python {sys.version.split()[0]}")
    rng = np.random.default_rng(0)
    for model in (rbda.sample_models.manipulator(), rbda.sample_models.humanoid()):
        tables[f"{model.name} ({model.nv} dof)"] = rows = run(model, args.number)
        print(format_table(f"{model.name} (nv={model.nv})", rows))
        print("\n".join(batch_rows(model, args.batch, rng)))
    if args.markdown:
        write_one_call_markdown(args.markdown, "benchmarks/bench_whole_body.py", tables)


if __name__ == "__main__":
    main()
