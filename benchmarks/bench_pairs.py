"""One simulation step of piles of MuJoCo primitives: rbda.Simulator.step against MuJoCo's mj_step on the same MJCF,
the same dt, one thread, CPU time, interleaved.

The scenes (:func:`scenes`): random piles of 2 to 6 free bodies (boxes, spheres, capsules, cylinders and
ellipsoids of random sizes, densities and friction, turned at random, dropped apart above a plane: they fall,
collide and come to rest on each other in the 2 s timed), and a single ellipsoid, cylinder and capsule resting
on the floor. Both engines read the same MJCF text (rbda through ``rbda.load_scene``), both start from its
``qpos0`` and each runs its own trajectory for ``--steps`` steps at dt = 1 ms, in chunks of 100 steps
alternating between the engines; the time is CPU time (``time.process_time``) per step, summed over the chunks.
rbda: the default Simulator (ADMM on the NCP); MuJoCo: its defaults (pyramidal cones, Newton solver, Euler). The
ratio is rbda / MuJoCo per scene; printed per scene, then the median and the worst.

    python benchmarks/bench_pairs.py [--piles 12] [--steps 2000] [--seed 0]
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: numpy's BLAS too
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

KINDS = ("box", "sphere", "capsule", "cylinder", "ellipsoid")
CHUNK = 100  # steps per engine between switches


def _geom(kind: str, rng) -> str:
    """An MJCF geom of ``kind`` with random sizes (2 to 6 cm), density and friction."""
    s = lambda: rng.uniform(0.02, 0.06)  # noqa: E731
    size = {"box": f"{s()} {s()} {s()}", "sphere": f"{s()}", "capsule": f"{s()} {s()}",
            "cylinder": f"{s()} {s()}", "ellipsoid": f"{s()} {s()} {s()}"}[kind]
    return (f'<geom type="{kind}" size="{size}" density="{rng.uniform(300, 3000):.1f}" '
            f'friction="{rng.uniform(0.3, 1.0):.3f} 0.005 0.0001"/>')


def _body(k: int, geom: str, pos, rng) -> str:
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    return (f'<body name="b{k}" pos="{pos[0]:.4f} {pos[1]:.4f} {pos[2]:.4f}" quat="{q[0]:.6f} {q[1]:.6f} {q[2]:.6f} '
            f'{q[3]:.6f}"><freejoint/>{geom}</body>')


def _scene(bodies: str) -> str:
    return (f'<mujoco><option timestep="0.001"/><worldbody><geom name="floor" type="plane" size="0 0 1"/>{bodies}'
            f'</worldbody></mujoco>')


def pile(n: int, rng) -> str:
    """The MJCF text of ``n`` random primitives dropped apart: stacked 15 cm apart, each shifted by up to 3 cm."""
    return _scene("".join(_body(k, _geom(KINDS[rng.integers(len(KINDS))], rng),
                                (rng.uniform(-0.03, 0.03), rng.uniform(-0.03, 0.03), 0.1 + 0.15 * k), rng)
                          for k in range(n)))


def resting(kind: str) -> str:
    """The MJCF text of one primitive resting on the floor (a capsule and a cylinder on their sides)."""
    geom = {"ellipsoid": '<geom type="ellipsoid" size="0.04 0.03 0.05"/>',
            "cylinder": '<geom type="cylinder" size="0.04 0.05" euler="90 0 0"/>',
            "capsule": '<geom type="capsule" size="0.03 0.05" euler="90 0 0"/>'}[kind]
    height = {"ellipsoid": 0.05, "cylinder": 0.04, "capsule": 0.03}[kind]
    return _scene(f'<body name="b0" pos="0 0 {height}"><freejoint/>{geom}</body>')


def scenes(piles: int, seed: int) -> list[tuple[str, str]]:
    """``(name, MJCF text)`` of the benchmark's scenes."""
    rng = np.random.default_rng(seed)
    out = [(f"pile {k} ({n} bodies)", pile(n, rng)) for k, n in enumerate(rng.integers(2, 7, size=piles))]
    return out + [(f"{kind} at rest", resting(kind)) for kind in ("ellipsoid", "cylinder", "capsule")]


def bench(name: str, xml: str, steps: int) -> float:
    """Print one scene's figures; returns the ratio rbda / MuJoCo of CPU time per step."""
    import mujoco

    import rbda
    from rbda.io.mjcf import qpos_to_q
    from rbda.simulation.step_state import InSet

    with tempfile.NamedTemporaryFile("w", suffix=".xml", delete=False) as f:
        f.write(xml)
    try:
        model, cm = rbda.load_scene(f.name)
    finally:
        os.unlink(f.name)
    mj = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(mj)
    sim = rbda.Simulator(model, cm, mj.opt.timestep)
    q, v, tau = qpos_to_q(model, mj.qpos0), np.zeros(model.nv), np.zeros(model.nv)
    sim.step(q, v, tau)  # compiled (cached) before the clock starts
    cpu = {"rbda": 0.0, "mujoco": 0.0}
    fused = True
    for _ in range(steps // CHUNK):
        t0 = time.process_time()
        for _ in range(CHUNK):
            q, v = sim.step(q, v, tau)
        cpu["rbda"] += time.process_time() - t0
        fused &= isinstance(sim.step_state.last, InSet)  # every step one kernel call, no Python contact stage
        t0 = time.process_time()
        for _ in range(CHUNK):
            mujoco.mj_step(mj, data)
        cpu["mujoco"] += time.process_time() - t0
    n = CHUNK * (steps // CHUNK)
    ratio = cpu["rbda"] / cpu["mujoco"]
    finite = bool(np.all(np.isfinite(q)))
    print(f"{name:24s} contacts rbda {sim.contacts.size:3d} MuJoCo {data.ncon:3d}   rbda {cpu['rbda'] / n * 1e6:7.1f} us"
          f"  MuJoCo {cpu['mujoco'] / n * 1e6:6.1f} us  ratio {ratio:5.2f}"
          + ("" if fused else "  (not every step in one call)") + ("" if finite else "  (NaN)"))
    return ratio


def main(piles: int, steps: int, seed: int) -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {steps} steps of 1 ms per scene")
    ratios = [bench(name, xml, steps) for name, xml in scenes(piles, seed)]
    print(f"median ratio {np.median(ratios):.2f}, worst {max(ratios):.2f} (rbda / MuJoCo, CPU time per step)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--piles", type=int, default=12)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    main(**vars(parser.parse_args()))
