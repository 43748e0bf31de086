"""The scene suite: MJCF scenes run by rbda and by MuJoCo, each with what physics says of it.

A :class:`Scene` is an MJCF text, a time step, a duration and an initial state (MuJoCo's ``qpos``/``qvel``; the
file's own when None), plus its checks: whether it is passive (no actuation, no restitution: its mechanical
energy may not rise), the deepest penetration allowed, and closed forms of its end state where they exist
(a body that slips then rolls, :attr:`Scene.rolling_speed`). The families:

- ``rolling``: a ball spun on the floor (it ends rolling at ``(2/7) w0 r``), a ball, a cylinder and a capsule
  pushed along the floor (``v0 / (1 + I / (m r^2))``: ``5/7``, ``2/3`` of ``v0``);
- ``free``: bodies in free flight, without gravity: an asymmetric box tumbling about its intermediate axis
  (energy and angular momentum constant);
- ``stack``: five boxes standing on each other (at rest for the whole run), and a box of 1000 times the mass of
  the one it stands on;
- ``pile``: 2 to 6 primitives (boxes, spheres, capsules, cylinders, ellipsoids) of random sizes, densities and
  friction, dropped apart onto the floor, one scene per seed (:func:`pile`); ``heap``: the same dropped one
  above the other, landing on each other.

:func:`run_rbda` and :func:`run_mujoco` step a scene and return its :class:`Run` (energy, penetration and the
free bodies' heights per step, the CPU time per step); :func:`check` lists what a run violates.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field

import numpy as np

GRAVITY = 9.81


@dataclass
class Scene:
    """One scene: ``xml`` (MJCF text), ``dt``, ``duration`` (s), ``qpos``/``qvel`` (MuJoCo's layout; None: the
    file's ``qpos0`` and zero), ``family``; checks: ``passive``, ``penetration`` (m, the deepest allowed),
    ``rolling_speed`` (the closed-form speed of the first body at the end, m/s, or None) and ``rest`` (whether the
    bodies stay where they start)."""

    name: str
    family: str
    xml: str
    dt: float
    duration: float
    qpos: np.ndarray | None = None
    qvel: np.ndarray | None = None
    passive: bool = True
    penetration: float = 5e-3
    rolling_speed: float | None = None
    rest: bool = False

    @property
    def steps(self) -> int:
        return int(round(self.duration / self.dt))

    def path(self) -> str:
        """The MJCF text in a file (MuJoCo and ``rbda.load_scene`` read files)."""
        folder = os.path.join(tempfile.gettempdir(), "rbda-scenes")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{self.name}.xml")
        if not os.path.exists(path) or open(path).read() != self.xml:
            with open(path, "w") as f:
                f.write(self.xml)
        return path


@dataclass
class Run:
    """A scene stepped by one engine: per step (``steps + 1`` rows, the start first) the mechanical ``energy``,
    the deepest ``penetration`` (>= 0) and each free body's origin ``heights``; ``speed``: the first free body's
    final linear speed; ``cpu``: CPU seconds per step; ``error``: the exception that stopped it, if any;
    ``extra``: the engine's configuration per step (MuJoCo's ``qpos``, rbda's ``q``)."""

    energy: np.ndarray
    penetration: np.ndarray
    heights: np.ndarray
    speed: float
    cpu: float
    error: str | None = None
    extra: dict = field(default_factory=dict)


def _mjcf(bodies: str, dt: float, gravity: bool = True, floor_friction: float = 1.0) -> str:
    g = f"0 0 {-GRAVITY}" if gravity else "0 0 0"
    floor = (f'<geom name="floor" type="plane" size="20 20 .1" friction="{floor_friction} 0.005 0.0001"/>'
             if gravity else "")
    return (f'<mujoco><option timestep="{dt}" gravity="{g}" cone="elliptic" integrator="Euler"/>'
            f"<worldbody>{floor}{bodies}</worldbody></mujoco>")


def _body(name: str, geom: str, pos, quat=(1.0, 0.0, 0.0, 0.0)) -> str:
    p, r = " ".join(f"{x:.6g}" for x in pos), " ".join(f"{x:.6g}" for x in quat)
    return f'<body name="{name}" pos="{p}" quat="{r}"><freejoint name="{name}"/>{geom}</body>'


def rolling() -> list[Scene]:
    """Slip, then roll at the closed-form speed (angular momentum about the contact point is kept while it
    slips): a ball spun at ``w0`` ends at ``(2/7) w0 r``; a body pushed at ``v0`` ends at ``v0 / (1 + k)``,
    ``k = I / (m r^2)`` (ball 2/5, cylinder 1/2, capsule about its axis)."""
    r, m, mu, dt = 0.05, 0.5, 0.6, 1e-3
    scenes = []
    ball = _body("ball", f'<geom name="ball" type="sphere" size="{r}" mass="{m}" friction="{mu}"/>', (0, 0, r))
    qpos = np.array([0.0, 0.0, r, 1.0, 0.0, 0.0, 0.0])
    w0 = 100.0
    scenes.append(Scene("spinning_ball", "rolling", _mjcf(ball, dt, floor_friction=mu), dt, 10.0, qpos,
                        np.array([0.0, 0.0, 0.0, w0, 0.0, 0.0]), rolling_speed=2.0 / 7.0 * w0 * r))
    v0 = 2.0
    scenes.append(Scene("pushed_ball", "rolling", _mjcf(ball, dt, floor_friction=mu), dt, 3.0, qpos,
                        np.array([v0, 0.0, 0.0, 0.0, 0.0, 0.0]), rolling_speed=v0 / 1.4))
    # a cylinder on its side, axis along y (quat: 90 degrees about x), pushed along x
    side = (np.cos(np.pi / 4), np.sin(np.pi / 4), 0.0, 0.0)
    cylinder = _body("cylinder", f'<geom name="cylinder" type="cylinder" size="{r} 0.08" mass="{m}" '
                                 f'friction="{mu}"/>', (0, 0, r), side)
    qpos = np.array([0.0, 0.0, r, *side])
    scenes.append(Scene("pushed_cylinder", "rolling", _mjcf(cylinder, dt, floor_friction=mu), dt, 3.0, qpos,
                        np.array([v0, 0.0, 0.0, 0.0, 0.0, 0.0]), rolling_speed=v0 / 1.5))
    # a capsule on its side: I about its axis over m r^2, from MuJoCo's own inertia (cylinder plus two half balls)
    h = 0.08
    mc, ms = np.pi * r * r * 2 * h, 4.0 / 3.0 * np.pi * r ** 3  # volumes: the cylinder, the two half balls
    k = (mc * 0.5 + ms * 0.4) / (mc + ms)
    capsule = _body("capsule", f'<geom name="capsule" type="capsule" size="{r} {h}" mass="{m}" friction="{mu}"/>',
                    (0, 0, r), side)
    scenes.append(Scene("pushed_capsule", "rolling", _mjcf(capsule, dt, floor_friction=mu), dt, 3.0, qpos,
                        np.array([v0, 0.0, 0.0, 0.0, 0.0, 0.0]), rolling_speed=v0 / (1.0 + k)))
    return scenes


def free() -> list[Scene]:
    """Free flight without gravity: a box of three different sides tumbling about its intermediate axis (with a
    small perturbation), which flips over and over (Dzhanibekov); a box spinning fast about an off-centre point
    while it moves."""
    dt = 1e-3
    box = _body("tee", '<geom name="tee" type="box" size="0.2 0.1 0.03" mass="2"/>', (0, 0, 1))
    tumbling = Scene("tumbling_box", "free", _mjcf(box, dt, gravity=False), dt, 10.0,
                     np.array([0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0]), np.array([0.3, 0.0, 0.0, 0.01, 10.0, 0.01]))
    off = ('<body name="offset" pos="0 0 1"><freejoint name="offset"/><geom name="offset" type="box" '
           'size="0.1 0.05 0.02" pos="0.2 0 0" mass="1"/></body>')
    spinning = Scene("offset_spinner", "free", _mjcf(off, dt, gravity=False), dt, 5.0,
                     np.array([0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0]), np.array([1.0, 0.5, 0.0, 3.0, 20.0, 5.0]))
    return [tumbling, spinning]


def stack() -> list[Scene]:
    """Boxes standing on each other: five of 10 cm (at rest for 10 s), and a 1000:1 pair (a 100 kg box on a
    0.1 kg one)."""
    dt, s = 2e-3, 0.05
    boxes = "".join(_body(f"box{i}", f'<geom name="box{i}" type="box" size="{s} {s} {s}" mass="1"/>',
                          (0, 0, s + 2 * s * i)) for i in range(5))
    tower = Scene("box_stack", "stack", _mjcf(boxes, dt), dt, 10.0, rest=True, penetration=2e-3)
    pair = (_body("light", f'<geom name="light" type="box" size="{s} {s} {s}" mass="0.1"/>', (0, 0, s))
            + _body("heavy", f'<geom name="heavy" type="box" size="{2 * s} {2 * s} {s}" mass="100"/>', (0, 0, 3 * s)))
    ratio = Scene("mass_ratio_stack", "stack", _mjcf(pair, dt), dt, 5.0, rest=True, penetration=5e-3)
    return [tower, ratio]


KINDS = ("box", "sphere", "capsule", "cylinder", "ellipsoid")


def pile(seed: int, kinds=KINDS, dt: float = 2e-3, duration: float = 2.0, heap: bool = False) -> Scene:
    """2 to 6 primitives of ``kinds``, random sizes (2-12 cm), densities (200-3000 kg/m^3), friction (0.2-1) and
    orientations, dropped onto the floor and left to settle: on a grid 40 cm apart, 5-50 cm above the floor, or
    with ``heap`` one above the other (their bounding balls 2 cm apart, within 4 cm of a vertical line), so that they land on each
    other."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 7))
    bodies, top = [], 0.0
    for i in range(n):
        kind = kinds[int(rng.integers(len(kinds)))]
        a, b, c = rng.uniform(0.02, 0.12, 3)
        size = {"box": f"{a:.4g} {b:.4g} {c:.4g}", "sphere": f"{a:.4g}", "capsule": f"{a:.4g} {b:.4g}",
                "cylinder": f"{a:.4g} {b:.4g}", "ellipsoid": f"{a:.4g} {b:.4g} {c:.4g}"}[kind]
        quat = rng.normal(size=4)
        quat /= np.linalg.norm(quat)
        radius = {"box": np.sqrt(a * a + b * b + c * c), "sphere": a, "capsule": a + b,
                  "cylinder": np.sqrt(a * a + b * b), "ellipsoid": max(a, b, c)}[kind]
        if heap:  # each body's bounding ball 2 cm above the one below
            x, y = rng.uniform(-0.04, 0.04, 2)
            z = top + radius + 0.02
            top = z + radius
        else:
            x, y = 0.4 * (i % 3) - 0.4, 0.4 * (i // 3)
            z = 0.15 + rng.uniform(0.05, 0.5)
        geom = (f'<geom name="b{i}" type="{kind}" size="{size}" density="{rng.uniform(200, 3000):.4g}" '
                f'friction="{rng.uniform(0.2, 1.0):.3g}"/>')
        bodies.append(_body(f"b{i}", geom, (x, y, z), quat))
    name = f"{'heap' if heap else 'pile'}_{seed}"
    # the bound: a heap's bodies land at up to 7 m/s (14 mm a step) on others whose contacts are single points
    return Scene(name, "heap" if heap else "pile", _mjcf("".join(bodies), dt), dt, duration,
                 penetration=3e-2 if heap else 1e-2)


def suite(piles: int = 8) -> list[Scene]:
    """Every family, with ``piles`` random piles and heaps each (seeds 0 ..)."""
    return (rolling() + free() + stack() + [pile(seed) for seed in range(piles)]
            + [pile(seed, heap=True) for seed in range(piles)])


# ---------------------------------------------------------------------------------------------- running
def _free_joints(mj):
    import mujoco

    return [j for j in range(mj.njnt) if mj.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE]


def mujoco_start(scene: Scene):
    """``(MjModel, MjData)`` of ``scene`` at its start (its ``qpos``/``qvel``, else the file's)."""
    import mujoco

    mj = mujoco.MjModel.from_xml_path(scene.path())
    d = mujoco.MjData(mj)
    if scene.qpos is not None:
        d.qpos[:] = scene.qpos
    if scene.qvel is not None:
        d.qvel[:] = scene.qvel
    return mj, d


def run_mujoco(scene: Scene) -> Run:
    """``scene`` stepped by ``mujoco.mj_step`` (its file's options)."""
    import mujoco

    mj, d = mujoco_start(scene)
    free = _free_joints(mj)
    E, P, H, Q = [], [], [], []

    def record():
        mujoco.mj_forward(mj, d) if not E else None
        mujoco.mj_energyPos(mj, d)
        mujoco.mj_energyVel(mj, d)
        E.append(d.energy[0] + d.energy[1])
        P.append(max(0.0, -min((d.contact[i].dist for i in range(d.ncon)), default=0.0)))
        H.append([d.qpos[mj.jnt_qposadr[j] + 2] for j in free])
        Q.append(d.qpos.copy())

    mujoco.mj_forward(mj, d)
    record()
    cpu = 0.0
    for _ in range(scene.steps):
        t0 = time.process_time()
        mujoco.mj_step(mj, d)
        cpu += time.process_time() - t0
        record()
    speed = float(np.linalg.norm(d.qvel[mj.jnt_dofadr[free[0]]:mj.jnt_dofadr[free[0]] + 3])) if free else 0.0
    return Run(np.array(E), np.array(P), np.array(H), speed, cpu / scene.steps, extra={"qpos": np.array(Q)})


def rbda_simulator(scene: Scene, **options):
    """``(model, collision_model, sim, q0, v0)`` of ``scene`` for rbda (``options`` to the Simulator)."""
    import rbda
    from rbda.io.mjcf import qpos_to_q, qvel_to_v

    model, geom = rbda.load_scene(scene.path())
    sim = rbda.Simulator(model, geom, scene.dt, **options)
    if scene.qpos is None:
        import mujoco

        mj = mujoco.MjModel.from_xml_path(scene.path())
        qpos, qvel = mj.qpos0.copy(), np.zeros(mj.nv)
    else:
        qpos = scene.qpos
        qvel = np.zeros(model.nv) if scene.qvel is None else scene.qvel
    q0 = qpos_to_q(model, qpos)
    return model, geom, sim, q0, qvel_to_v(model, qpos, qvel)


def run_rbda(scene: Scene, **options) -> Run:
    """``scene`` stepped by ``rbda.Simulator`` (``options`` to it), under zero torque."""
    import rbda
    from rbda.joints import JointModelFreeFlyer

    model, geom, sim, q, v = rbda_simulator(scene, **options)
    data = model.create_data()
    joints = [i for i in range(1, model.njoints) if isinstance(model.joints[i], JointModelFreeFlyer)]
    free = [model.idx_q[i] for i in joints]
    tau = np.zeros(model.nv)

    def energy(q, v):  # kinetic and gravity, and the springs' (sim.passive: joint and tendon springs, gravcomp)
        return rbda.compute_mechanical_energy(model, data, q, v) + sim.passive.potential_energy(model, data, q)

    E, P, H, Q = [energy(q, v)], [0.0], [[q[a + 2] for a in free]], [q]
    cpu, error = 0.0, None
    for step in range(scene.steps):
        t0 = time.process_time()
        try:
            q, v = sim.step(q, v, tau)
        except Exception as exc:  # a scene that fails is a result, reported
            error = f"step {step}: {type(exc).__name__}: {exc}"
            break
        cpu += time.process_time() - t0 if step else 0.0  # (the first step loads or compiles kernels: not counted)
        E.append(energy(q, v))
        distances = sim.contacts.distances
        P.append(max(0.0, -float(distances.min(initial=0.0))))
        H.append([q[a + 2] for a in free])
        Q.append(q)
    k = model.idx_v[joints[0]] if joints else 0
    speed = float(np.linalg.norm(v[k:k + 3])) if joints else 0.0  # (|R v| = |v|)
    return Run(np.array(E), np.array(P), np.array(H), speed, cpu / max(1, len(E) - 2), error,
               extra={"q": np.array(Q)})


def energy_rise(run: Run) -> tuple[float, float]:
    """``(above the start, above the running minimum)``: the largest rise of the mechanical energy over its value
    at the start, and over its lowest value so far, both relative to the scene's energy scale (the start's
    kinetic plus potential energy above the lowest value reached)."""
    E = run.energy
    scale = max(abs(E[0]), E.max() - E.min(), 1e-12)
    return float((E.max() - E[0]) / scale), float(np.max(E - np.minimum.accumulate(E)) / scale)


def check(scene: Scene, run: Run, energy_tolerance: float = 1e-3, speed_tolerance: float = 5e-3) -> list[str]:
    """What ``run`` violates of ``scene``'s checks (empty: none)."""
    problems = []
    if run.error:
        problems.append(run.error)
    if not np.all(np.isfinite(run.energy)):
        problems.append("non-finite energy")
        return problems
    if scene.passive:
        above_start, _ = energy_rise(run)
        if above_start > energy_tolerance:
            problems.append(f"energy rose {above_start:.2e} of its scale above the start")
    if run.penetration.max() > scene.penetration:
        problems.append(f"penetration {run.penetration.max():.2e} m > {scene.penetration:.0e}")
    if run.heights.size and scene.family != "free" and run.heights.min() < 0.0:
        problems.append(f"a body's origin below the floor ({run.heights.min():.3g} m)")
    if scene.rolling_speed is not None and not run.error:
        error = abs(run.speed - scene.rolling_speed) / scene.rolling_speed
        if error > speed_tolerance:
            problems.append(f"rolls at {run.speed:.4f} m/s, closed form {scene.rolling_speed:.4f} ({error:.1e})")
    if scene.rest and run.heights.size and np.abs(run.heights - run.heights[0]).max() > 1e-3:
        problems.append(f"a body moved {np.abs(run.heights - run.heights[0]).max():.2e} m from rest")
    return problems
