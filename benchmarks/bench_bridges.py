"""Timing of rbda inside JAX and CasADi (``rbda.jax``, ``rbda.casadi``) on the manipulator and the humanoid.

    python benchmarks/bench_bridges.py [--number 300] [--batch 1000]

Rows, per model (best of 5 repeats, one state unless a batch is named):
- ``rbda.rnea`` plain: the reference call on a Data;
- ``rbda.jax.rnea`` on concrete arrays (no trace), under ``jax.jit`` (one host callback), and the same for the
  plain JAX RNEA of ``benchmarks/jax_rnea.py`` (the algorithm traced and compiled by XLA); JAX's own cost of
  a jitted host callback that returns its argument;
- derivatives: ``jax.jit(jax.grad(w . tau))`` with respect to ``(q, v)`` and ``jax.jit(jax.jacfwd(tau))`` (the
  full ``dtau/dq``, ``dtau/dv``) through ``rbda.jax.rnea`` (rbda's analytical derivatives), against the same
  transformations of the JAX RNEA, and rbda's ``compute_rnea_derivatives`` itself;
- ``rbda.casadi.rnea(model)`` evaluated numerically, and its ``jacobian()``;
- a batch: ``jax.jit(jax.vmap(rbda.jax.rnea))`` against ``rbda.batch.rnea`` (the call it maps onto).
The overhead of a bridge is its time minus the plain rbda call's.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np

import rbda
from rbda.bench import best_time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def timed(fn, number: int) -> float:
    fn()
    return best_time(fn, number)


def rows(model, number: int, batch: int, rng) -> list[str]:
    import casadi
    import jax
    import jax.numpy as jnp

    import rbda.casadi
    import rbda.jax
    from jax_rnea import JaxRNEA

    data = model.create_data()
    q = rbda.random_configuration(model, rng=rng)
    v, a, w = rng.normal(size=model.nv), rng.normal(size=model.nv), rng.normal(size=model.nv)
    qj, vj, aj = jnp.asarray(q), jnp.asarray(v), jnp.asarray(a)
    jr = JaxRNEA(model)
    ref = rbda.compute_rnea_derivatives(model, data, q, v, a)
    out = []

    def row(name, seconds, note=""):
        out.append(f"  {name:44s} {seconds * 1e6:10.1f} us  {note}")
        return seconds

    plain = row("rbda.rnea (plain)", timed(lambda: rbda.rnea(model, data, q, v, a), number * 10))
    t = row("rbda.jax.rnea, concrete arrays", timed(lambda: rbda.jax.rnea(model, qj, vj, aj).block_until_ready(),
                                                    number))
    out[-1] += f"overhead {(t - plain) * 1e6:.1f} us"
    f = jax.jit(lambda q, v, a: rbda.jax.rnea(model, q, v, a))
    t = row("jit(rbda.jax.rnea)", timed(lambda: f(qj, vj, aj).block_until_ready(), number))
    out[-1] += f"overhead {(t - plain) * 1e6:.1f} us"
    floor = jax.jit(lambda q: jax.pure_callback(np.asarray, jax.ShapeDtypeStruct(q.shape, q.dtype), q))
    row("jit(pure_callback(identity)): JAX's floor", timed(lambda: floor(qj).block_until_ready(), number))
    g = jax.jit(jr.rnea)
    assert np.allclose(g(qj, vj, aj), rbda.rnea(model, data, q, v, a), rtol=0.0, atol=1e-9)
    row("jit(JAX RNEA)", timed(lambda: g(qj, vj, aj).block_until_ready(), number))

    ours = row("rbda.compute_rnea_derivatives (plain)", timed(lambda: rbda.compute_rnea_derivatives(
        model, data, q, v, a), number * 10))
    grad_ours = jax.jit(jax.grad(lambda q, v: jnp.dot(w, rbda.jax.rnea(model, q, v, aj)), argnums=(0, 1)))
    grad_jax = jax.jit(jax.grad(lambda dq, v: jnp.dot(w, jr.tau_tangent(dq, qj, v, aj)), argnums=(0, 1)))
    gv_ours, gv_jax = grad_ours(qj, vj)[1], grad_jax(jnp.zeros(model.nv), vj)[1]
    assert np.allclose(gv_ours, ref[1].T @ w, rtol=0.0, atol=1e-9) and np.allclose(gv_jax, gv_ours, atol=1e-8)
    t_ours = row("jit(grad(w . rbda.jax.rnea)) in q, v", timed(lambda: grad_ours(qj, vj)[0].block_until_ready(),
                                                               number))
    t_jax = row("jit(grad(w . JAX RNEA)) in q, v", timed(
        lambda: grad_jax(jnp.zeros(model.nv), vj)[0].block_until_ready(), number))
    out[-1] += f"{t_jax / t_ours:.1f}x the bridge"
    jac_ours = jax.jit(jax.jacfwd(lambda q, v: rbda.jax.rnea(model, q, v, aj), argnums=(0, 1)))
    jac_jax = jr.derivatives()
    assert np.array_equal(jac_ours(qj, vj)[1], ref[1])
    assert np.allclose(jac_jax(qj, vj, aj)[1], ref[1], rtol=0.0, atol=1e-8 * max(1.0, np.abs(ref[1]).max()))
    t_ours = row("jit(jacfwd(rbda.jax.rnea)) dq, dv", timed(lambda: jac_ours(qj, vj)[0].block_until_ready(), number))
    out[-1] += f"{t_ours / ours:.1f}x plain derivatives"
    t_jax = row("jit(jacfwd(JAX RNEA)) dq, dv", timed(lambda: jac_jax(qj, vj, aj)[0].block_until_ready(), number))
    out[-1] += f"{t_jax / t_ours:.1f}x the bridge"

    fc = rbda.casadi.rnea(model)
    t = row("rbda.casadi.rnea(model)(q, v, a)", timed(lambda: fc(q, v, a), number))
    out[-1] += f"overhead {(t - plain) * 1e6:.1f} us"
    jc = fc.jacobian()
    z = np.zeros(model.nv)
    assert np.array_equal(np.asarray(jc(q, v, a, z)[1]), ref[1])
    row("rbda.casadi.rnea(model).jacobian()(...)", timed(lambda: jc(q, v, a, z), number))
    qs, vs, as_ = casadi.MX.sym("q", model.nq), casadi.MX.sym("v", model.nv), casadi.MX.sym("a", model.nv)
    sym = casadi.Function("J", [qs, vs, as_], [casadi.jacobian(fc(qs, vs, as_), casadi.vertcat(qs, vs))])
    row("casadi.jacobian(f, [q; v]) as a Function", timed(lambda: sym(q, v, a), number))

    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(batch)])
    V, A = rng.normal(size=(batch, model.nv)), rng.normal(size=(batch, model.nv))
    t_batch = row(f"rbda.batch.rnea, B = {batch}", timed(lambda: rbda.batch.rnea(model, Q, V, A), max(1, number // 10)))
    fv = jax.jit(jax.vmap(lambda q, v, a: rbda.jax.rnea(model, q, v, a)))
    Qj, Vj, Aj = jnp.asarray(Q), jnp.asarray(V), jnp.asarray(A)
    assert np.array_equal(fv(Qj, Vj, Aj), rbda.batch.rnea(model, Q, V, A))
    t = row(f"jit(vmap(rbda.jax.rnea)), B = {batch}", timed(lambda: fv(Qj, Vj, Aj).block_until_ready(),
                                                            max(1, number // 10)))
    out[-1] += f"overhead {(t - t_batch) * 1e6:.1f} us per batch"
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--number", type=int, default=300)
    parser.add_argument("--batch", type=int, default=1000)
    args = parser.parse_args()
    import jax

    jax.config.update("jax_enable_x64", True)
    print(time.strftime("%Y-%m-%d"), os.uname().machine, f"{os.cpu_count()} cpus", f"python {sys.version.split()[0]}",
          f"jax {jax.__version__}", f"{rbda.batch.numba.get_num_threads()} numba threads")
    rng = np.random.default_rng(0)
    for model in (rbda.sample_models.manipulator(), rbda.sample_models.humanoid()):
        print(f"{model.name} (nq = {model.nq}, nv = {model.nv})")
        print("\n".join(rows(model, args.number, args.batch, rng)))


if __name__ == "__main__":
    main()
