"""``rbda warmup`` compiles every kernel family: after it, a new process calls each family (single-state, batched,
constrained, collision, contact solvers, simulator steps and rollouts, JAX's handlers) with no numba compilation
and no compile notice."""

import io
import os
import subprocess
import sys
import textwrap

import rbda
import rbda.warmup

# Every family, called on other models than warmup's (other sizes, same argument types); numba's "numba:compile"
# event fires only when a kernel is compiled, not when it is loaded from the cache.
CALLS = textwrap.dedent("""
    import numpy as np
    from numba.core import event

    compiled = []

    class Listener(event.Listener):
        def on_start(self, ev):
            compiled.append(str(ev.data["dispatcher"].py_func.__qualname__))

        def on_end(self, ev):
            pass

    event.register("numba:compile", Listener())

    import rbda
    from rbda import collision
    from rbda.io import Box, GeometryModel, Sphere
    from rbda.simulation import ADMMSolver, DelassusDense, PGSSolver, Simulator, add_free_body, add_ground_plane

    m = rbda.sample_models.humanoid()
    d, rng = m.create_data(), np.random.default_rng(1)
    q = rbda.random_configuration(m, rng=rng)
    v, a = rng.normal(size=m.nv), rng.normal(size=m.nv)
    Q, V, A = np.stack([q] * 3), np.stack([v] * 3), np.stack([a] * 3)
    rbda.rnea(m, d, q, v, a); rbda.aba(m, d, q, v, a); rbda.crba(m, d, q)
    rbda.frames_forward_kinematics(m, d, q); rbda.compute_joint_jacobians(m, d, q); rbda.integrate(m, q, v)
    rbda.compute_aba_derivatives(m, d, q, v, a); rbda.compute_rnea_derivatives(m, d, q, v, a)
    rbda.batch.rnea(m, Q, V, A); rbda.batch.aba(m, Q, V, A); rbda.batch.compute_aba_derivatives(m, Q, V, A)
    mm = rbda.transform_joint_into_mimic(m, 2, 3, 0.5, 0.1)  # aba with mimic joints runs a kernel of its own
    qm, vm = rbda.neutral(mm), np.zeros(mm.nv)
    rbda.aba(mm, mm.create_data(), qm, vm, vm); rbda.batch.aba(mm, np.stack([qm] * 3), np.stack([vm] * 3), np.stack([vm] * 3))
    foot = m.frames[m.nframes - 1]
    cms = [rbda.RigidConstraintModel(rbda.CONTACT_6D, m, foot.parent_joint, foot.placement)]
    cds = [cm.create_data() for cm in cms]
    rbda.constraint_dynamics(m, d, q, v, a, cms, cds)
    rbda.compute_constraint_dynamics_derivatives(m, d, cms, cds)
    rbda.impulse_dynamics(m, d, q, v, cms, cds, 0.5); rbda.compute_impulse_dynamics_derivatives(m, d, cms, cds)
    rbda.compute_delassus_matrix(m, d, q, cms, cds)
    rbda.batch.constraint_dynamics(m, Q, V, A, cms)
    rbda.batch.compute_constraint_dynamics_derivatives(m, Q, V, A, cms)
    rbda.batch.impulse_dynamics(m, Q, V, cms, 0.5); rbda.batch.compute_impulse_dynamics_derivatives(m, Q, V, cms, 0.5)

    w, g = rbda.Model(), GeometryModel()
    add_free_body(w, g, "box", Box((0.3, 0.2, 0.1)), 2.0)
    add_free_body(w, g, "ball", Sphere(0.05), 1.0)
    add_ground_plane(w, g)
    g.remove_collision_pair(0, 1)
    wq = rbda.neutral(w)
    wq[2], wq[7:10] = 0.049, (0.5, 0.0, 0.049)
    collision.compute_distances(w, w.create_data(), g, collision.GeometryData(g), wq)
    rbda.batch.compute_collisions(w, g, np.stack([wq] * 2))
    for Solver in (PGSSolver, ADMMSolver):
        Solver("ccp").solve(DelassusDense(np.eye(3)), np.array([0.0, 0.0, -1.0]), 0.3)
    sim = Simulator(w, g, 1e-3, solver="pgs")
    sim.step(wq, np.zeros(w.nv), np.zeros(w.nv))
    sim.rollout(wq, np.zeros(w.nv), np.zeros((3, w.nv)))
    rbda.batch.rollout(w, g, np.stack([wq] * 3), np.zeros((3, w.nv)), np.zeros((3, 2, w.nv)), 1e-3, backend="thread")
    from rbda._native import xla_ffi  # rbda.jax's handlers (compiled without JAX)
    for name in xla_ffi.HANDLERS:
        xla_ffi.handler(name)
    print("compiled:", sorted(set(compiled)))
""")


def test_after_warmup_a_new_process_compiles_nothing():
    stream = io.StringIO()
    seconds = rbda.warmup.warmup(stream)
    text = stream.getvalue()
    assert seconds > 0 and "every kernel is compiled" in text
    assert "constrained dynamics" in text and "collision" in text and "simulator" in text
    # the same rbda as this process's (sys.path may name another copy first: docs/conf.py adds src/ when the docs
    # test builds the site, while CI tests an installed, non-editable copy whose cache warmup just filled)
    here = os.path.dirname(os.path.dirname(os.path.abspath(rbda.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])))
    env.pop("RBDA_COMPILE_NOTICE", None)
    run = subprocess.run([sys.executable, "-c", CALLS], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "compiled: []" in run.stdout, run.stdout
    assert "rbda: compiling" not in run.stderr, run.stderr


def test_rbda_warmup_command(capsys):
    from rbda import cli

    assert cli.main(["warmup"]) == 0
    err = capsys.readouterr().err
    assert "simulator" in err and "every kernel is compiled and cached" in err
