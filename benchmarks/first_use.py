"""The first minute of a new user: the first call of each function in a fresh process with an empty compile cache,
the same with the cache filled, ``import rbda``, and a batch of one state.

    python benchmarks/first_use.py [--only rnea,aba] [--warm | --installed | --cache DIR] [--markdown PATH] [--batch]

Each row runs in its own subprocess with ``NUMBA_CACHE_DIR`` pointed at a new empty folder (``--warm``: the
same folder a second time, so the row measures loading from the cache the row itself filled: it cannot show a kernel
that ``rbda warmup`` leaves out). ``--installed`` runs each row once in a
new process with the installation's own cache, the one ``pip install .`` compiles into the package: what a user
waits for after the install (run it from outside the source tree, so that the installed rbda is imported).
``--cache DIR`` does the same with the cache in ``DIR``, filled before by ``NUMBA_CACHE_DIR=DIR rbda warmup``
(what the install runs), in a source tree. Times are CPU seconds of the first call alone
(``time.process_time``, so that other work on the machine does not count; ``import rbda``, importing JAX or CasADi
and building the inputs are not counted; the bridges' rows include tracing and XLA's compile); the cached rows also give ``import rbda`` and the first ``create_data()`` (wall time).
``--markdown PATH`` also writes the table (with the command, the date and the machine) as Markdown.
``--batch`` times ``rbda.batch.rnea`` on 1, 10, 100 and 10,000 states (the small ones run serially below
``rbda.batch.SERIAL_BELOW``) against a loop of ``rbda.rnea``, in this process with the cache as it is.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

SETUP = """
import time, numpy as np
t0 = time.perf_counter(); import rbda; t_import = time.perf_counter() - t0
m = rbda.sample_models.manipulator(); rng = np.random.default_rng(0)
q = rbda.random_configuration(m, rng=rng); v, a = rng.normal(size=m.nv), rng.normal(size=m.nv)
t0 = time.perf_counter(); d = m.create_data(); t_data = time.perf_counter() - t0
Q, V, A = q[None].repeat(2, 0), v[None].repeat(2, 0), a[None].repeat(2, 0)
"""

SCENE = """
from rbda.io import Box, GeometryModel, Sphere
from rbda.simulation import Simulator, add_free_body, add_ground_plane
wm, wg = rbda.Model(), GeometryModel()
add_free_body(wm, wg, "box", Box((0.2, 0.2, 0.2)), 1.0)
add_ground_plane(wm, wg)
wq = rbda.neutral(wm); wq[2] = 0.099
"""

CONSTRAINT = """
f = m.frames[m.nframes - 1]
cms = [rbda.RigidConstraintModel(rbda.CONTACT_3D, m, f.parent_joint, f.placement)]
cds = [cm.create_data() for cm in cms]
"""

JAX = """
import jax
jax.config.update("jax_enable_x64", True)
import rbda.jax as rj
"""

ROWS = {
    "rnea": ("", "rbda.rnea(m, d, q, v, a)"),
    "crba": ("", "rbda.crba(m, d, q)"),
    "aba": ("", "rbda.aba(m, d, q, v, a)"),
    "frames_forward_kinematics": ("", "rbda.frames_forward_kinematics(m, d, q)"),
    "integrate": ("", "rbda.integrate(m, q, v)"),
    "compute_aba_derivatives": ("", "rbda.compute_aba_derivatives(m, d, q, v, a)"),
    "batch.rnea": ("", "rbda.batch.rnea(m, Q, V, A)"),
    "batch.aba": ("", "rbda.batch.aba(m, Q, V, A)"),
    "batch.compute_aba_derivatives": ("", "rbda.batch.compute_aba_derivatives(m, Q, V, A)"),
    "constraint_dynamics": (CONSTRAINT, "rbda.constraint_dynamics(m, d, q, v, a, cms, cds)"),
    "compute_distances": (SCENE + "wd = wm.create_data(); from rbda.collision import GeometryData, compute_distances\n"
                          "gd = GeometryData(wg)\n", "compute_distances(wm, wd, wg, gd, wq)"),
    "Simulator.step": (SCENE + "sim = Simulator(wm, wg, 1e-3)\n", "sim.step(wq, np.zeros(6), np.zeros(6))"),
    "Simulator(slop=1e-5).step": (SCENE + "sim = Simulator(wm, wg, 1e-3, slop=1e-5)\n",
                                  "sim.step(wq, np.zeros(6), np.zeros(6))"),
    "batch.rollout": (SCENE, "rbda.batch.rollout(wm, wg, wq[None], np.zeros((1, 6)), np.zeros((1, 3, 6)), 1e-3, "
                             "backend='thread')"),
    "batch.impulse_dynamics": (CONSTRAINT, "rbda.batch.impulse_dynamics(m, Q, V, cms, 0.5)"),
    "batch.compute_impulse_dynamics_derivatives": (CONSTRAINT, "rbda.batch.compute_impulse_dynamics_derivatives("
                                                   "m, Q, V, cms, 0.5)"),
    "jax.frame_jacobian": (JAX, "np.asarray(jax.jit(lambda q: rj.frame_jacobian(m, q, m.nframes - 1))(q))"),
    "jax.simulator_step": (SCENE + JAX + "sim = Simulator(wm, wg, 1e-3)\n",
                           "[np.asarray(x) for x in jax.jit(lambda q, v, t: rj.simulator_step(sim, q, v, t))("
                           "wq, np.zeros(6), np.zeros(6))]"),
    "casadi.frame_jacobian": ("import rbda.casadi as rc\n", "rc.frame_jacobian(m, m.nframes - 1)(q)"),
    "casadi.simulator_step": (SCENE + "import rbda.casadi as rc\nsim = Simulator(wm, wg, 1e-3)\n",
                              "rc.simulator_step(sim)(wq, np.zeros(6), np.zeros(6))"),
}


def first_call(name: str, cache: str | None) -> tuple[float, float, float]:
    """(import rbda, create_data, first call) seconds of row ``name`` in a new process using ``cache`` (None: the
    installation's own)."""
    prepare, call = ROWS[name]
    code = (SETUP + prepare + f"t0 = time.process_time(); {call}; t = time.process_time() - t0\n"
            "print(t_import, t_data, t)")
    env = dict(os.environ, RBDA_COMPILE_NOTICE="0")
    env.pop("NUMBA_CACHE_DIR", None)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"{name}: {out.stderr}")
    return tuple(float(x) for x in out.stdout.split())


def small_batches() -> None:
    """Per call of ``rbda.batch.rnea`` on B states of the manipulator, and a Python loop of ``rbda.rnea``."""
    import time

    import numpy as np

    import rbda

    model = rbda.sample_models.manipulator()
    data, rng = model.create_data(), np.random.default_rng(0)
    for B in (1, 10, 100, 10000):
        Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
        V, A = rng.normal(size=(B, model.nv)), rng.normal(size=(B, model.nv))
        rbda.batch.rnea(model, Q, V, A)
        n = max(3, 2000 // B)
        best = []
        for _ in range(3):
            t0 = time.perf_counter()
            for _ in range(n):
                rbda.batch.rnea(model, Q, V, A)
            best.append((time.perf_counter() - t0) / n)
        t0 = time.perf_counter()
        for b in range(B):
            rbda.rnea(model, data, Q[b], V[b], A[b])
        loop = time.perf_counter() - t0
        print(f"batch.rnea B={B:5d}: {min(best) * 1e6:9.1f} us ({min(best) / B * 1e6:.2f} us/state); "
              f"loop of rbda.rnea {loop * 1e6:9.1f} us", flush=True)


def import_time() -> tuple[float, float]:
    """(CPU, wall) seconds of ``import rbda`` in a new process, the best of three of each."""
    code = ("import time; t0, w0 = time.process_time(), time.perf_counter(); import rbda; "
            "print(time.process_time() - t0, time.perf_counter() - w0)")
    runs = [[float(x) for x in subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                              check=True).stdout.split()] for _ in range(3)]
    return min(r[0] for r in runs), min(r[1] for r in runs)


def machine() -> str:
    """The CPU model, its core count and the Python, numpy and numba versions."""
    import platform

    import numba
    import numpy

    from rbda.bench import cpu_name

    return (f"{cpu_name()}, {os.cpu_count()} cores; Python {platform.python_version()}, numpy {numpy.__version__}, "
            f"numba {numba.__version__}")


def installed(names, cpu_import, wall_import, markdown, cache=None) -> None:
    """Each row's first call in a new process with the installation's own cache (``cache``: that folder instead),
    the worst, and the table."""
    import time

    import rbda

    rows = []
    for name in names:
        _, _, first = first_call(name, cache)
        rows.append((name, first))
        print(f"{name:32s} {first * 1e3:8.1f} ms", flush=True)
    worst = max(rows, key=lambda row: row[1])
    stamp = f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f}"
    print(f"worst: {worst[0]} {worst[1]:.2f} s; rbda from {os.path.dirname(rbda.__file__)}\n{stamp}")
    if markdown:
        command = "python benchmarks/first_use.py " + " ".join(sys.argv[1:])
        after = "`rbda warmup`" if cache else "`pip install .`"
        lines = [f"`{command}` after {after}, {stamp}; {machine()}. CPU seconds of the first call in a new "
                 f"process, with the cache {after} compiled.", "", f"| first call | after {after} |",
                 "| --- | ---: |", f"| `import rbda` | {cpu_import:.2f} s ({wall_import:.2f} s wall) |"]
        lines += [f"| `{name}` | {first * 1e3:.0f} ms |" for name, first in rows]
        lines.append(f"| worst | {worst[1] * 1e3:.0f} ms (`{worst[0]}`) |")
        with open(markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


def main() -> None:
    import time

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--only", default="", help="comma-separated row names (default: every row)")
    parser.add_argument("--warm", action="store_true", help="also time the call again with the cache filled")
    parser.add_argument("--installed", action="store_true",
                        help="time each first call once with the installation's own cache (after pip install .)")
    parser.add_argument("--cache", metavar="DIR",
                        help="as --installed, with the numba cache in DIR (NUMBA_CACHE_DIR=DIR rbda warmup fills it)")
    parser.add_argument("--markdown", metavar="PATH", help="also write the table as Markdown to PATH")
    parser.add_argument("--batch", action="store_true", help="time small and large batches instead")
    args = parser.parse_args()
    if args.batch:
        return small_batches()
    names = [n for n in args.only.split(",") if n] or list(ROWS)
    cpu_import, wall_import = import_time()
    print(f"{'import rbda':32s} {cpu_import:.2f} s CPU, {wall_import:.2f} s wall", flush=True)
    rows, total = [], 0.0
    if args.installed or args.cache:
        return installed(names, cpu_import, wall_import, args.markdown, args.cache)
    for name in names:
        with tempfile.TemporaryDirectory() as cache:
            _, _, cold = first_call(name, cache)
            line = f"{name:32s} empty cache {cold:6.2f} s"
            warm = None
            if args.warm:
                _, t_data, warm = first_call(name, cache)
                line += f"   cached {warm * 1e3:7.1f} ms (create_data {t_data * 1e3:.1f} ms)"
        rows.append((name, cold, warm))
        total += cold
        print(line, flush=True)
    stamp = f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average {os.getloadavg()[0]:.1f}"
    print(f"sum of the first calls: {total:.1f} s")
    print(stamp)
    if args.markdown:
        command = "python benchmarks/first_use.py " + " ".join(sys.argv[1:])
        lines = [f"`{command}`, {stamp}; {machine()}. CPU seconds of the first call in a new process.", "",
                 "| first call | empty cache | cache filled |", "| --- | ---: | ---: |",
                 f"| `import rbda` | {cpu_import:.2f} s ({wall_import:.2f} s wall) | |"]
        lines += [f"| `{name}` | {cold:.1f} s | {'' if warm is None else f'{warm * 1e3:.0f} ms'} |"
                  for name, cold, warm in rows]
        lines.append(f"| sum | {total:.0f} s | |")
        with open(args.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
