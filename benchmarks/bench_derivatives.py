"""Analytical derivatives of RNEA and ABA (and of integrate/difference): rbda against Pinocchio in one process (ratios rbda / Pinocchio, lower
is better), against central finite differences of rbda's own RNEA/ABA for contrast, and batched throughput.

    python benchmarks/bench_derivatives.py [--batch 10000] [--number 500]

Pinocchio has no batched derivatives: the batch rows compare rbda's per-state time on every core with one
Pinocchio call per state (a C++ loop would add nothing to it but the Python call overhead, ~0.3us).

Second order: Pinocchio 4.1 has no Python binding for ComputeRNEASecondOrderDerivatives; its C++ function is
timed through the shim that ``tests/algorithms/test_derivatives_second_order.py`` compiles (needs g++ and
``pip install cmeel-eigen``), else the row shows "-". Its FD column differentiates rbda's first-order derivatives.

Autodiff: with jax installed, ``benchmarks/jax_rnea.py`` (a plain JAX RNEA of the same model, checked against rbda's
tau) gives dtau/dq and dtau/dv from ``jax.jit(jax.jacfwd(...))``, one call after warm-up.
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


def second_order_finite_differences(model, data, q, v, a, eps=1e-6):
    """Central differences of rbda's first-order RNEA derivatives along q (through integrate) and v: 4 nv calls."""
    out = np.empty((4, model.nv, model.nv, model.nv))
    for k in range(model.nv):
        e = np.zeros(model.nv)
        e[k] = eps
        first = lambda q_, v_: np.stack([x.copy() for x in rbda.compute_rnea_derivatives(model, data, q_, v_, a)])
        dq = first(rbda.integrate(model, q, e), v) - first(rbda.integrate(model, q, -e), v)
        dv = first(q, v + e) - first(q, v - e)
        out[0, :, :, k], out[1, :, :, k], out[2, :, :, k], out[3, :, :, k] = dq[0], dv[1], dv[0], dq[2]
    return out / (2 * eps)


def pinocchio_second_order():
    """Pinocchio's C++ second-order RNEA derivatives through the tests' shim, or None."""
    here = os.path.dirname(os.path.abspath(__file__))
    for path in ("tests", os.path.join("tests", "algorithms")):
        sys.path.insert(0, os.path.join(here, "..", path))
    try:
        from test_derivatives_second_order import pinocchio_shim
    except ImportError:
        return None
    return pinocchio_shim()[0]


def second_order_rows(model, number: int, batch: int, rng) -> list[str]:
    """rbda vs Pinocchio (C++ timing) vs finite differences, and rbda batched (4 B nv^3 floats: small batch)."""
    data = model.create_data()
    q = rbda.random_configuration(model, rng=rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    ours = lambda: rbda.compute_rnea_second_order_derivatives(model, data, q, v, a)
    ours()
    n = max(1, number // 20)
    t_ours = min(best_time(ours, n, 1) for _ in range(5))
    run = pinocchio_second_order()
    if run is not None:
        from rbda.interop.pinocchio import to_pinocchio

        pm = to_pinocchio(model)
        theirs = [run(pm, q, v, a, n)[1] for _ in range(5)]
        p = f"{min(theirs) * 1e6:8.1f}us {t_ours / min(theirs):6.2f}"
    else:
        p = f"{'-':>10s} {'-':>6s}"
    t_fd = best_time(lambda: second_order_finite_differences(model, data, q, v, a), 1, 3)
    name = "rnea_second_order"
    line = f"  {name:26s} {t_ours * 1e6:8.1f}us {p} {t_fd * 1e6:8.0f}us {t_fd / t_ours:8.1f}"
    B = max(2, min(batch, 2_000_000 // model.nv**3))
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    V, A = rng.normal(size=(B, model.nv)), rng.normal(size=(B, model.nv))
    rbda.batch.compute_rnea_second_order_derivatives(model, Q[:2], V[:2], A[:2])
    t_batch = best_time(lambda: rbda.batch.compute_rnea_second_order_derivatives(model, Q, V, A), 1, 3) / B
    return [line], [f"  batch of {B}, per state: {name} {t_batch * 1e6:.1f}us "
                    f"({rbda.batch.numba.get_num_threads()} threads)"]


def jax_row(model, number: int, rng) -> str:
    """dtau/dq and dtau/dv by ``jax.jit(jax.jacfwd(rnea))`` (benchmarks/jax_rnea.py), next to rbda's analytical."""
    name = "rnea_derivatives: JAX"
    try:
        from jax_rnea import JaxRNEA
    except ImportError:
        return f"  {name:26s} jax not installed"
    data = model.create_data()
    q = rbda.random_configuration(model, rng=rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    jr = JaxRNEA(model)
    tau = rbda.rnea(model, data, q, v, a)
    err = np.abs(np.asarray(jr.rnea(q, v, a)) - tau).max() / max(1.0, np.abs(tau).max())
    assert err < 1e-10, f"jax_rnea: tau differs from rbda's by {err:.1e}"
    jac = jr.derivatives()
    call = lambda: [x.block_until_ready() for x in jac(q, v, a)]
    dq, dv = call()
    ref = rbda.compute_rnea_derivatives(model, data, q, v, a)
    assert np.abs(np.asarray(dq) - ref[0]).max() < 1e-8 * max(1.0, np.abs(ref[0]).max())
    assert np.abs(np.asarray(dv) - ref[1]).max() < 1e-8 * max(1.0, np.abs(ref[1]).max())
    t_jax = min(best_time(call, max(1, number // 10), 1) for _ in range(5))
    t_ours = min(best_time(lambda: rbda.compute_rnea_derivatives(model, data, q, v, a), number, 1) for _ in range(5))
    return f"  {name:26s} {t_jax * 1e6:8.1f}us (jit(jacfwd), dq and dv), {t_jax / t_ours:.1f}x rbda's analytical"


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
    q1 = rbda.random_configuration(model, rng=rng)
    for arg in (rbda.ARG0, rbda.ARG1):
        theirs = pin and pin.ArgumentPosition.values[int(arg)]
        cases += [(f"d_integrate ({arg.name})", lambda arg=arg: rbda.d_integrate(model, q, v, arg),
                   pin and (lambda p=theirs: pin.dIntegrate(pm, q, v, p)), None, None),
                  (f"d_difference ({arg.name})", lambda arg=arg: rbda.d_difference(model, q, q1, arg),
                   pin and (lambda p=theirs: pin.dDifference(pm, q, q1, p)), None, None)]
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
    Q1 = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(batch)])
    for name, run in (("d_integrate (ARG0)", lambda: rbda.batch.d_integrate(model, Q, V, rbda.ARG0)),
                      ("d_difference (ARG0)", lambda: rbda.batch.d_difference(model, Q, Q1, rbda.ARG0))):
        run()
        batch_lines.append(f"  batch of {batch}, per state: {name} {best_time(run, 1, 3) / batch * 1e6:.2f}us "
                           f"({rbda.batch.numba.get_num_threads()} threads)")
    second, second_batch = second_order_rows(model, number, batch, rng)
    return lines + second + [jax_row(model, number, rng)] + batch_lines + second_batch


def mimic_rows(plain, model, number: int, rng) -> list[str]:
    """The derivatives of ``model`` (``plain`` with a mimic joint): Pinocchio 4.1 computes none on a model with
    mimic joints, so its column is the same call on ``plain`` (the mimic joint free, one dof more)."""
    try:
        import pinocchio as pin

        from rbda.interop.pinocchio import to_pinocchio

        pm = to_pinocchio(plain)
        pd = pm.createData()
    except ImportError:
        pin = None
    data = model.create_data()
    q = rbda.random_configuration(model, rng=rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    tau = rbda.rnea(model, data, q, v, a).copy()
    qp = rbda.random_configuration(plain, rng=rng)
    vp, ap = rng.normal(size=plain.nv), rng.normal(size=plain.nv)
    cases = [("compute_rnea_derivatives", lambda: rbda.compute_rnea_derivatives(model, data, q, v, a),
              pin and (lambda: pin.computeRNEADerivatives(pm, pd, qp, vp, ap))),
             ("compute_aba_derivatives", lambda: rbda.compute_aba_derivatives(model, data, q, v, tau),
              pin and (lambda: pin.computeABADerivatives(pm, pd, qp, vp, ap))),
             ("compute_centroidal_dynamics_derivatives",
              lambda: rbda.compute_centroidal_dynamics_derivatives(model, data, q, v, a),
              pin and (lambda: pin.computeCentroidalDynamicsDerivatives(pm, pd, qp, vp, ap))),
             ("compute_rnea_second_order_derivatives",
              lambda: rbda.compute_rnea_second_order_derivatives(model, data, q, v, a), None)]
    lines = [f"{model.name} with a mimic joint (nv={model.nv}): pinocchio on the tree with the joint free (nv={plain.nv})"]
    for name, ours, theirs in cases:
        ours()
        t_ours = min(best_time(ours, number, 1) for _ in range(5))
        t_theirs = min(best_time(theirs, number, 1) for _ in range(5)) if theirs else np.inf
        p = f"{t_theirs * 1e6:8.2f}us {t_ours / t_theirs:6.2f}" if theirs else f"{'-':>10s} {'-':>6s}"
        lines.append(f"  {name:26s} {t_ours * 1e6:8.2f}us {p}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--batch", type=int, default=10000)
    parser.add_argument("--number", type=int, default=500)
    args = parser.parse_args()
    print(time.strftime("%Y-%m-%d"), os.uname().machine, f"{os.cpu_count()} cpus", f"python {sys.version.split()[0]}")
    rng = np.random.default_rng(0)
    for model in (rbda.sample_models.manipulator(), rbda.sample_models.humanoid()):
        print("\n".join(rows(model, args.number, args.batch, rng)))
    arm = rbda.sample_models.manipulator()  # its last joint follows the one before it (as in bench_core.py)
    gripper = rbda.transform_joint_into_mimic(arm, arm.njoints - 2, arm.njoints - 1, -1.0, 0.1)
    print("\n".join(mimic_rows(arm, gripper, args.number, rng)))
    from bench_batch import DERIVATIVES, batch_rows, robots  # against 2 processes of Pinocchio calls, 2 threads

    for name, load in robots().items():
        print("\n".join(batch_rows(load(), DERIVATIVES, args.batch, 2, rng)))


if __name__ == "__main__":
    main()
