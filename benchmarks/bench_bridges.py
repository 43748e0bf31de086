"""Timing of rbda inside JAX and CasADi (``rbda.jax``, ``rbda.casadi``) on the manipulator and the humanoid.

    python benchmarks/bench_bridges.py [--number 300] [--batch 1000]

Rows, per model (best of 5 repeats, one state unless a batch is named):
- ``rbda.rnea`` plain: the reference call on a Data;
- ``rbda.jax.rnea`` on concrete arrays (no trace), under ``jax.jit`` (one XLA FFI custom call; before it, one
  host callback: the "host callback" rows, also for the derivatives), and the same for the
  plain JAX RNEA of ``benchmarks/jax_rnea.py`` (the algorithm traced and compiled by XLA); JAX's own cost of
  a jitted host callback of three arrays that returns one of them;
- derivatives: ``jax.jit(jax.grad(w . tau))`` with respect to ``(q, v)`` and ``jax.jit(jax.jacfwd(tau))`` (the
  full ``dtau/dq``, ``dtau/dv``) through ``rbda.jax.rnea`` (rbda's analytical derivatives), against the same
  transformations of the JAX RNEA, and rbda's ``compute_rnea_derivatives`` itself;
- ``rbda.casadi.rnea(model)`` evaluated numerically, and its ``jacobian()``;
- a batch: ``jax.jit(jax.vmap(rbda.jax.rnea))`` against ``rbda.batch.rnea`` (the call it maps onto).
Then a table per function (rnea, aba, crba, the CoM, the frame placements, a frame Jacobian, the constrained
dynamics under a 6D weld): the plain call, rbda.jax on concrete arrays, jitted (custom call) and jitted on the
host callback, jit(jacfwd) both ways, and the CasADi function, with the overheads against the plain call.
The overhead of a bridge is its time minus the plain rbda call's. The rows are measured in turn, round after
round (best of 7), so that the load of a shared machine falls on all of them alike.
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


def interleaved(cases: dict, number: int, rounds: int = 7) -> dict:
    """Best time per call (seconds) of each case ``name -> (fn, calls per round)``, the cases measured in turn
    round after round, so that a busy moment of a shared machine falls on all of them alike."""
    for fn, _ in cases.values():
        fn()
    best = dict.fromkeys(cases, np.inf)
    for _ in range(rounds):
        for name, (fn, scale) in cases.items():
            best[name] = min(best[name], best_time(fn, max(1, int(number * scale)), 1))
    return best


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
    z = np.zeros(model.nv)
    jr = JaxRNEA(model)
    ref = rbda.compute_rnea_derivatives(model, data, q, v, a)

    f = jax.jit(lambda q, v, a: rbda.jax.rnea(model, q, v, a))
    from rbda.jax import _compiled  # the host callback path, for the before/after rows
    tau_ffi = f(qj, vj, aj)  # traced on the custom call
    _compiled.enabled = False
    f_host = jax.jit(lambda q, v, a: rbda.jax.rnea(model, q, v, a))
    grad_host = jax.jit(jax.grad(lambda q, v: jnp.dot(w, rbda.jax.rnea(model, q, v, aj)), argnums=(0, 1)))
    jac_host = jax.jit(jax.jacfwd(lambda q, v: rbda.jax.rnea(model, q, v, aj), argnums=(0, 1)))
    assert np.array_equal(f_host(qj, vj, aj), tau_ffi)  # traced (and compiled) now, on the callback
    assert np.array_equal(jac_host(qj, vj)[1], ref[1]) and np.allclose(grad_host(qj, vj)[1], ref[1].T @ w)
    _compiled.enabled = True
    floor = jax.jit(lambda q, v, a: jax.pure_callback(lambda q, v, a: np.asarray(q[:model.nv]),
                                                      jax.ShapeDtypeStruct((model.nv,), q.dtype), q, v, a))
    g = jax.jit(jr.rnea)
    assert np.allclose(g(qj, vj, aj), rbda.rnea(model, data, q, v, a), rtol=0.0, atol=1e-9)
    grad_ours = jax.jit(jax.grad(lambda q, v: jnp.dot(w, rbda.jax.rnea(model, q, v, aj)), argnums=(0, 1)))
    grad_jax = jax.jit(jax.grad(lambda dq, v: jnp.dot(w, jr.tau_tangent(dq, qj, v, aj)), argnums=(0, 1)))
    assert np.allclose(grad_ours(qj, vj)[1], ref[1].T @ w, rtol=0.0, atol=1e-9)
    assert np.allclose(grad_jax(jnp.zeros(model.nv), vj)[1], ref[1].T @ w, rtol=0.0, atol=1e-8)
    jac_ours = jax.jit(jax.jacfwd(lambda q, v: rbda.jax.rnea(model, q, v, aj), argnums=(0, 1)))
    jac_jax = jr.derivatives()
    assert np.array_equal(jac_ours(qj, vj)[1], ref[1])
    assert np.allclose(jac_jax(qj, vj, aj)[1], ref[1], rtol=0.0, atol=1e-8 * max(1.0, np.abs(ref[1]).max()))
    fc = rbda.casadi.rnea(model)
    jc = fc.jacobian()
    assert np.array_equal(np.asarray(jc(q, v, a, z)[1]), ref[1])
    qs, vs, as_ = casadi.MX.sym("q", model.nq), casadi.MX.sym("v", model.nv), casadi.MX.sym("a", model.nv)
    sym = casadi.Function("J", [qs, vs, as_], [casadi.jacobian(fc(qs, vs, as_), casadi.vertcat(qs, vs))])
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(batch)])
    V, A = rng.normal(size=(batch, model.nv)), rng.normal(size=(batch, model.nv))
    Qj, Vj, Aj = jnp.asarray(Q), jnp.asarray(V), jnp.asarray(A)
    fv = jax.jit(jax.vmap(lambda q, v, a: rbda.jax.rnea(model, q, v, a)))
    assert np.array_equal(fv(Qj, Vj, Aj), rbda.batch.rnea(model, Q, V, A))

    few = 10 / number
    t = interleaved({
        "rbda.rnea (plain)": (lambda: rbda.rnea(model, data, q, v, a), 10),
        "rbda.jax.rnea, concrete arrays": (lambda: rbda.jax.rnea(model, qj, vj, aj).block_until_ready(), 1),
        "jit(rbda.jax.rnea)": (lambda: f(qj, vj, aj).block_until_ready(), 1),
        "jit(rbda.jax.rnea), host callback (before)": (lambda: f_host(qj, vj, aj).block_until_ready(), 1),
        "jit(pure_callback of 3 arrays): JAX's floor": (lambda: floor(qj, vj, aj).block_until_ready(), 1),
        "jit(JAX RNEA)": (lambda: g(qj, vj, aj).block_until_ready(), 1),
        "rbda.compute_rnea_derivatives (plain)": (lambda: rbda.compute_rnea_derivatives(model, data, q, v, a), 10),
        "jit(grad(w . rbda.jax.rnea)) in q, v": (lambda: grad_ours(qj, vj)[0].block_until_ready(), 1),
        "jit(grad(w . rbda.jax.rnea)), host callback": (lambda: grad_host(qj, vj)[0].block_until_ready(), 1),
        "jit(grad(w . JAX RNEA)) in q, v": (lambda: grad_jax(jnp.zeros(model.nv), vj)[0].block_until_ready(), 1),
        "jit(jacfwd(rbda.jax.rnea)) dq, dv": (lambda: jac_ours(qj, vj)[0].block_until_ready(), 1),
        "jit(jacfwd(rbda.jax.rnea)), host callback": (lambda: jac_host(qj, vj)[0].block_until_ready(), 1),
        "jit(jacfwd(JAX RNEA)) dq, dv": (lambda: jac_jax(qj, vj, aj)[0].block_until_ready(), 1),
        "rbda.casadi.rnea(model)(q, v, a)": (lambda: fc(q, v, a), 1),
        "rbda.casadi.rnea(model).jacobian()(...)": (lambda: jc(q, v, a, z), 1),
        "casadi.jacobian(f, [q; v]) as a Function": (lambda: sym(q, v, a), 1),
        f"rbda.batch.rnea, B = {batch}": (lambda: rbda.batch.rnea(model, Q, V, A), few),
        f"jit(vmap(rbda.jax.rnea)), B = {batch}": (lambda: fv(Qj, Vj, Aj).block_until_ready(), few),
    }, number)
    plain, derivatives = t["rbda.rnea (plain)"], t["rbda.compute_rnea_derivatives (plain)"]
    notes = {
        "rbda.jax.rnea, concrete arrays": f"overhead {(t['rbda.jax.rnea, concrete arrays'] - plain) * 1e6:.1f} us",
        "jit(rbda.jax.rnea)": f"overhead {(t['jit(rbda.jax.rnea)'] - plain) * 1e6:.1f} us",
        "jit(rbda.jax.rnea), host callback (before)":
            f"{t['jit(rbda.jax.rnea), host callback (before)'] / t['jit(rbda.jax.rnea)']:.1f}x the custom call",
        "jit(grad(w . rbda.jax.rnea)), host callback":
            f"{t['jit(grad(w . rbda.jax.rnea)), host callback'] / t['jit(grad(w . rbda.jax.rnea)) in q, v']:.1f}x "
            "the custom call",
        "jit(jacfwd(rbda.jax.rnea)), host callback":
            f"{t['jit(jacfwd(rbda.jax.rnea)), host callback'] / t['jit(jacfwd(rbda.jax.rnea)) dq, dv']:.1f}x "
            "the custom call",
        "jit(grad(w . JAX RNEA)) in q, v":
            f"{t['jit(grad(w . JAX RNEA)) in q, v'] / t['jit(grad(w . rbda.jax.rnea)) in q, v']:.1f}x the bridge",
        "jit(jacfwd(rbda.jax.rnea)) dq, dv": f"{t['jit(jacfwd(rbda.jax.rnea)) dq, dv'] / derivatives:.1f}x plain",
        "jit(jacfwd(JAX RNEA)) dq, dv":
            f"{t['jit(jacfwd(JAX RNEA)) dq, dv'] / t['jit(jacfwd(rbda.jax.rnea)) dq, dv']:.1f}x the bridge",
        "rbda.casadi.rnea(model)(q, v, a)": f"overhead {(t['rbda.casadi.rnea(model)(q, v, a)'] - plain) * 1e6:.1f} us",
        f"jit(vmap(rbda.jax.rnea)), B = {batch}":
            f"{t[f'jit(vmap(rbda.jax.rnea)), B = {batch}'] / t[f'rbda.batch.rnea, B = {batch}']:.2f}x rbda.batch",
    }
    return [f"  {name:44s} {seconds * 1e6:10.1f} us  {notes.get(name, '')}" for name, seconds in t.items()]


def _contacts(model):
    """A 6D weld at the last frame (the manipulator's tool, the humanoid's last foot or hand), Baumgarte gains."""
    f = model.frames[model.nframes - 1]
    cm = rbda.RigidConstraintModel(rbda.CONTACT_6D, model, f.parent_joint, f.placement, 0, rbda.SE3(), rbda.LOCAL)
    cm.set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(Kp=5.0, Kd=1.0))
    return [cm]


def function_rows(model, number: int, rng) -> list[str]:
    """Per function of the bridges: the plain rbda call, ``rbda.jax`` on concrete arrays, jitted (XLA FFI custom
    call) and jitted on the host callback (the path before the custom call), ``jax.jit(jax.jacfwd)`` both ways,
    and the ``rbda.casadi`` function evaluated numerically; overheads against the plain call."""
    import jax
    import jax.numpy as jnp

    import rbda.casadi
    import rbda.jax
    from rbda.jax import _compiled

    data = model.create_data()
    q = rbda.random_configuration(model, rng=rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    qj, vj, aj = jnp.asarray(q), jnp.asarray(v), jnp.asarray(a)
    cms = _contacts(model)
    cds = [cm.create_data() for cm in cms]
    frame = model.nframes - 1
    functions = {  # name: (plain call, jax function of (q, v, a), casadi function, its arguments)
        "rnea": (lambda: rbda.rnea(model, data, q, v, a), lambda q, v, a: rbda.jax.rnea(model, q, v, a),
                 rbda.casadi.rnea(model), (q, v, a)),
        "aba": (lambda: rbda.aba(model, data, q, v, a), lambda q, v, a: rbda.jax.aba(model, q, v, a),
                rbda.casadi.aba(model), (q, v, a)),
        "crba": (lambda: rbda.crba(model, data, q), lambda q, v, a: rbda.jax.crba(model, q),
                 rbda.casadi.crba(model), (q,)),
        "center_of_mass": (lambda: rbda.center_of_mass(model, data, q),
                           lambda q, v, a: rbda.jax.center_of_mass(model, q), rbda.casadi.center_of_mass(model), (q,)),
        "frames_forward_kinematics": (lambda: rbda.frames_forward_kinematics(model, data, q),
                                      lambda q, v, a: rbda.jax.frames_forward_kinematics(model, q),
                                      rbda.casadi.frames_forward_kinematics(model), (q,)),
        "frame_placement": (lambda: rbda.frames_forward_kinematics(model, data, q),
                            lambda q, v, a: rbda.jax.frame_placement(model, q, frame),
                            rbda.casadi.frame_placement(model, frame), (q,)),
        "frame_jacobian": (lambda: rbda.compute_frame_jacobian(model, data, q, frame, rbda.LOCAL),
                           lambda q, v, a: rbda.jax.frame_jacobian(model, q, frame),
                           rbda.casadi.frame_jacobian(model, frame), (q,)),
        "constraint_dynamics": (lambda: rbda.constraint_dynamics(model, data, q, v, a, cms, cds),
                                lambda q, v, a: rbda.jax.constraint_dynamics(model, q, v, a, cms),
                                rbda.casadi.constraint_dynamics(model, cms), (q, v, a)),
    }
    out = []
    for name, (plain, f, fc, args) in functions.items():
        argnums = (0, 1, 2) if len(args) == 3 else 0
        jf, jjac = jax.jit(f), jax.jit(jax.jacfwd(f, argnums=argnums))
        jf(qj, vj, aj), jjac(qj, vj, aj)  # traced (on the custom calls where they apply)
        _compiled.enabled = False
        g = lambda *x, f=f: f(*x)  # noqa: E731  (a new function: jax.jit keeps its traces per function)
        hf, hjac = jax.jit(g), jax.jit(jax.jacfwd(g, argnums=argnums))
        np.testing.assert_allclose(hf(qj, vj, aj), jf(qj, vj, aj), rtol=0, atol=1e-9)
        assert "pure_callback" in str(jax.make_jaxpr(g)(qj, vj, aj)) or name == "frame_jacobian"
        jax.block_until_ready(hjac(qj, vj, aj))
        _compiled.enabled = True
        t = interleaved({
            "plain": (plain, 10),
            "concrete": (lambda: f(qj, vj, aj).block_until_ready(), 1),
            "jit": (lambda: jf(qj, vj, aj).block_until_ready(), 1),
            "jit host": (lambda: hf(qj, vj, aj).block_until_ready(), 1),
            "jacfwd": (lambda: jax.block_until_ready(jjac(qj, vj, aj)), 1),
            "jacfwd host": (lambda: jax.block_until_ready(hjac(qj, vj, aj)), 1),
            "casadi": (lambda: fc(*args), 1),
        }, number)
        us = {k: x * 1e6 for k, x in t.items()}
        out.append(f"  {name:26s} {us['plain']:8.1f} {us['concrete']:9.1f} {us['jit']:8.1f} {us['jit host']:9.1f} "
                   f"{us['jacfwd']:8.1f} {us['jacfwd host']:11.1f} {us['casadi']:8.1f}   "
                   f"+{us['concrete'] - us['plain']:.1f} / +{us['jit'] - us['plain']:.1f} / "
                   f"+{us['casadi'] - us['plain']:.1f}")
    return ["  us per call:               plain  concrete      jit  jit host   jacfwd  jacfwd host   casadi"
            "   overhead concrete / jit / casadi"] + out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--number", type=int, default=300)
    parser.add_argument("--batch", type=int, default=1000)
    parser.add_argument("--functions-only", action="store_true", help="only the per-function table")
    args = parser.parse_args()
    import jax

    jax.config.update("jax_enable_x64", True)
    print(time.strftime("%Y-%m-%d"), os.uname().machine, f"{os.cpu_count()} cpus", f"python {sys.version.split()[0]}",
          f"jax {jax.__version__}", f"{rbda.batch.numba.get_num_threads()} numba threads")
    rng = np.random.default_rng(0)
    for model in (rbda.sample_models.manipulator(), rbda.sample_models.humanoid()):
        print(f"{model.name} (nq = {model.nq}, nv = {model.nv})")
        if not args.functions_only:
            print("\n".join(rows(model, args.number, args.batch, rng)))
        print("\n".join(function_rows(model, args.number, rng)))


if __name__ == "__main__":
    main()
