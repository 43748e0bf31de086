"""gymnasium's MuJoCo robots in the scene suite: each of its MJCF files (``gymnasium/envs/mujoco/assets``) at its
own timestep, passive (zero torque), beside ``mj_step`` on the same file.

The state starts at the file's ``qpos0`` with zero velocity, made feasible where it is not, the same in both
engines: the joints are clipped into their ranges (the ant's ankles start at 0, outside their 30-70 degree range,
and the humanoids' knees at 0, outside theirs: both engines would kick them in at the first step, 200 J on the
ant's 7), the root is lifted out of the floor where a geom starts in it (humanoidstandup's arms, 3.6 cm), and
the robots that stand balanced on an unstable equilibrium (the planar walkers, the hopper, the pendulums on
their carts), which at ``qpos0`` stay up forever or fall the way round-off chooses, have one joint tilted by
:data:`TILT`. The robots that stay at rest at ``qpos0`` (the point, the pusher, the reacher, the swimmer: gravity
does not move them) start with a speed on every dof (:data:`KICK`). The final states of three are not compared
(:data:`NOT_COMPARED` says why: a chaotic pendulum, and two places where MuJoCo's soft constraints act where rigid
ones do not).

The hopper's file makes its contacts soft (``solimp=".8 .8 .01"``: a fifth of the acceleration that a contact
should stop gets through): its foot creeps forward on the floor and MuJoCo's hopper falls forward, onto its
knee, while with rigid contacts it falls back onto its torso, as rbda's does and as MuJoCo's does with its own
default ``solimp`` (:data:`RIGID`). Its reference is that MuJoCo run; the file's is reported beside it.

Per run (:func:`run`): the mechanical energy (kinetic, gravity, the joint and tendon springs, less the weight that
gravity compensation carries: :meth:`rbda.simulation.passive.PassiveForces.potential_energy`), each step's deepest
penetration, the root's height (the free joint's z, or the ``rootz`` slide of the planar robots), the final
``qpos`` and the CPU time per step. :func:`compare` puts the two engines' runs side by side.
"""

from __future__ import annotations

import importlib.util
import os
import time
from dataclasses import dataclass

import numpy as np

from . import Run, Scene, energy_rise

MODELS = ("ant", "half_cheetah", "hopper", "humanoid", "humanoidstandup", "inverted_pendulum",
          "inverted_double_pendulum", "point", "pusher", "pusher_v5", "reacher", "swimmer", "walker2d", "walker2d_v5")
# (joint, radians) tilted at the start of the robots balanced on an unstable equilibrium at qpos0
TILT = {"hopper": ("rooty", 0.02), "walker2d": ("rooty", 0.02), "walker2d_v5": ("rooty", 0.02),
        "inverted_pendulum": ("hinge", 0.02), "inverted_double_pendulum": ("hinge", 0.02)}
# the robots at rest at qpos0 whatever the time (no gravity on their motion): they start at this speed on every
# dof (rad/s, m/s), so that their run moves through their armature, damping, limits, contacts and fluid
KICK = {"point": 0.5, "pusher": 0.5, "pusher_v5": 0.5, "reacher": 1.0, "swimmer": 0.5}
# the final qpos not compared with MuJoCo's: the double pendulum swings chaotically (round-off decides); the
# point's sphere touches the floor but no dof presses it there (the body slides and turns in the plane): without
# a normal force Coulomb friction is 0 and rbda's point slides on, MuJoCo's soft contact brakes it in 0.3 s
# anyway; the reacher's target slides hit their limits at 0.5 m/s: rbda's limit is inelastic, MuJoCo's soft
# limit sends them back at about 0.1 m/s (its arm agrees to 1e-3 rad)
NOT_COMPARED = ("inverted_double_pendulum", "point", "reacher")
# (text, replacement) of the MuJoCo reference of a file whose contacts are soft: MuJoCo's default solimp
RIGID = {"hopper": ('solimp=".8 .8 .01"', 'solimp=".9 .95 .001"')}
FALL = 2.0  # s: the time at which the roots' heights are compared ("after the fall")
SLOP = 1e-3  # m: the penetration below which a state counts as separated (Summary.energy_rise)


def assets() -> str:
    """The folder of gymnasium's MuJoCo files (found without importing gymnasium)."""
    spec = importlib.util.find_spec("gymnasium")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the gymnasium scenes need gymnasium: pip install gymnasium")
    return os.path.join(spec.submodule_search_locations[0], "envs", "mujoco", "assets")


def scene(name: str, duration: float = 10.0) -> Scene:
    """The scene of gymnasium's ``<name>.xml``: its timestep, ``duration`` seconds, ``qpos0`` (tilted by
    :data:`TILT` where it is unstable) and zero velocity."""
    import mujoco

    path = os.path.join(assets(), f"{name}.xml")
    with open(path) as f:
        xml = f.read()
    mj = mujoco.MjModel.from_xml_path(path)
    qpos = mj.qpos0.copy()
    for j in range(mj.njnt):
        if mj.jnt_limited[j] and int(mj.jnt_type[j]) in (int(mujoco.mjtJoint.mjJNT_HINGE),
                                                         int(mujoco.mjtJoint.mjJNT_SLIDE)):
            a = mj.jnt_qposadr[j]
            qpos[a] = np.clip(qpos[a], *mj.jnt_range[j])
    if name in TILT:
        joint, angle = TILT[name]
        qpos[mj.jnt_qposadr[mujoco.mj_name2id(mj, mujoco.mjtObj.mjOBJ_JOINT, joint)]] += angle
    d = mujoco.MjData(mj)
    d.qpos[:] = qpos
    mujoco.mj_forward(mj, d)
    depth = -min((d.contact[i].dist for i in range(d.ncon)), default=0.0)
    if depth > 0.0 and _root(mj) is not None:
        qpos[_root(mj)] += depth
    return Scene(f"gymnasium_{name}", "gymnasium", xml, float(mj.opt.timestep), duration, qpos,
                 np.full(mj.nv, KICK.get(name, 0.0)), penetration=2e-2)


def scenes(duration: float = 10.0, names=MODELS) -> list[Scene]:
    """The scenes of gymnasium's files ``names`` (every one by default), ``duration`` seconds each."""
    return [scene(name, duration) for name in names]


@dataclass
class Summary:
    """The runs of one scene: ``rbda``, its MuJoCo reference ``mujoco`` (the file, or for a file with soft contacts
    the file made rigid, :data:`RIGID`) and ``mujoco_file`` (the file as it is), each a :class:`Run` with
    ``extra["root"]``, the root's height per step, and ``extra["qpos"]``, the final ``qpos``."""

    scene: Scene
    rbda: Run
    mujoco: Run
    mujoco_file: Run

    @property
    def energy_rise(self) -> float:
        """The largest rise of rbda's mechanical energy above its start, relative to its scale
        (``scenes.energy_rise``), from the first state without a penetration deeper than :data:`SLOP`: a start
        whose geoms overlap (humanoidstandup's hands lie 1.35 cm inside its hips at ``qpos0``, which lifting the
        root does not undo) gains the energy of pushing them apart, in either engine."""
        run, P = self.rbda, self.rbda.penetration
        start = next((k - 1 for k in range(1, len(P)) if P[k] <= SLOP), 0)
        return energy_rise(Run(run.energy[start:], P[start:], run.heights, run.speed, run.cpu))[0]

    def root_heights(self, time: float | None = None) -> tuple[float, float]:
        """The root's height in rbda and in the MuJoCo reference at ``time`` (s; None: the end; NaN for a robot
        whose root does not move up and down)."""
        k = -1 if time is None else min(int(round(time / self.scene.dt)), self.scene.steps)
        return float(self.rbda.extra["root"][k]), float(self.mujoco.extra["root"][k])

    @property
    def qpos_difference(self) -> float:
        """The largest difference of the final ``qpos`` of rbda and of the MuJoCo reference (NaN for the robots of
        :data:`NOT_COMPARED`; free joints' quaternions compared as they are)."""
        if self.scene.name.removeprefix("gymnasium_") in NOT_COMPARED:
            return np.nan
        return float(np.abs(self.rbda.extra["qpos"] - self.mujoco.extra["qpos"]).max())

    def row(self) -> str:
        fall, end = self.root_heights(FALL), self.root_heights()
        file = self.mujoco_file.extra["root"][-1]
        return (f"{self.scene.name.removeprefix('gymnasium_'):24s} {self.energy_rise:9.2e} "
                f"{fall[0]:7.3f} {fall[1]:7.3f} {abs(fall[0] - fall[1]):6.3f}  {end[0]:7.3f} {end[1]:7.3f} "
                f"{abs(end[0] - end[1]):6.3f} {file:7.3f} {self.qpos_difference:7.3f}  {self.rbda.penetration.max():7.1e} "
                f"{1e6 * self.rbda.cpu:8.1f} {1e6 * self.mujoco_file.cpu:7.1f} {self.rbda.cpu / self.mujoco_file.cpu:6.1f}"
                + (f"  {self.rbda.error}" if self.rbda.error else ""))


HEADER = (f"{'model':24s} {'E rise':>9s} {'root at ' + str(FALL) + ' s: rbda':>22s} {'MuJoCo':>7s} {'|diff|':>6s}  "
          f"{'end: rbda':>9s} {'MuJoCo':>7s} {'|diff|':>6s} {'file':>7s} {'qpos':>7s}  {'penetr.':>7s} {'rbda us':>8s} "
          f"{'mj us':>7s} {'ratio':>6s}")


def _root(mj) -> int | None:
    """The ``qpos`` index of the root's height: a free joint's z, or a slide joint named ``rootz``."""
    import mujoco

    for j in range(mj.njnt):
        if mj.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            return int(mj.jnt_qposadr[j]) + 2
        if mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_JOINT, j) == "rootz":
            return int(mj.jnt_qposadr[j])
    return None


def run_mujoco(scene: Scene, changes: tuple | None = None) -> Run:
    """``scene`` stepped by ``mujoco.mj_step`` under zero control, its MJCF text changed by ``changes = (text,
    replacement)`` if given."""
    import mujoco

    mj = (mujoco.MjModel.from_xml_path(scene.path()) if changes is None
          else mujoco.MjModel.from_xml_string(scene.xml.replace(*changes)))
    d = mujoco.MjData(mj)
    d.qpos[:], d.qvel[:] = scene.qpos, scene.qvel
    root = _root(mj)
    E, P, H = [], [], []

    def record():
        mujoco.mj_energyPos(mj, d)
        mujoco.mj_energyVel(mj, d)
        E.append(d.energy[0] + d.energy[1])
        P.append(max(0.0, -min((d.contact[i].dist for i in range(d.ncon)), default=0.0)))
        H.append(d.qpos[root] if root is not None else np.nan)

    mujoco.mj_forward(mj, d)
    record()
    cpu = 0.0
    for _ in range(scene.steps):
        t0 = time.process_time()
        mujoco.mj_step(mj, d)
        cpu += time.process_time() - t0
        record()
    return Run(np.array(E), np.array(P), np.zeros((len(E), 0)), 0.0, cpu / scene.steps,
               extra={"root": np.array(H), "qpos": d.qpos.copy()})


def run_rbda(scene: Scene, steps: int | None = None, **options) -> Run:
    """``scene`` stepped by ``rbda.Simulator`` (``options`` to it) under zero torque, ``steps`` steps (all by
    default); a step that raises ends the run and is reported in ``Run.error``."""
    import mujoco

    import rbda
    from rbda.io.mjcf import q_to_qpos, qpos_to_q, qvel_to_v

    model, geom = rbda.load_scene(scene.path())
    sim = rbda.Simulator(model, geom, scene.dt, **options)
    root = _root(mujoco.MjModel.from_xml_path(scene.path()))
    q, v = qpos_to_q(model, scene.qpos), qvel_to_v(model, scene.qpos, scene.qvel)
    data, tau = model.create_data(), np.zeros(model.nv)

    def energy(q, v):
        return rbda.compute_mechanical_energy(model, data, q, v) + sim.passive.potential_energy(model, data, q)

    E, P, H = [energy(q, v)], [0.0], [q[root] if root is not None else np.nan]
    cpu, error = 0.0, None
    for step in range(scene.steps if steps is None else steps):
        t0 = time.process_time()
        try:
            q, v = sim.step(q, v, tau)
        except Exception as exc:  # a scene that fails is a result, reported
            error = f"step {step}: {type(exc).__name__}: {exc}"
            break
        cpu += time.process_time() - t0 if step else 0.0  # (the first step may compile kernels: not counted)
        E.append(energy(q, v))
        P.append(max(0.0, -float(sim.contacts.distances.min(initial=0.0))))
        H.append(q[root] if root is not None else np.nan)
    return Run(np.array(E), np.array(P), np.zeros((len(E), 0)), 0.0, cpu / max(1, len(E) - 2), error,
               extra={"root": np.array(H), "qpos": q_to_qpos(model, q)})


def compare(scene: Scene, **options) -> Summary:
    """``scene`` run by both engines (``options`` to rbda's Simulator), and by MuJoCo on its rigid twin where
    :data:`RIGID` has one."""
    name = scene.name.removeprefix("gymnasium_")
    file = run_mujoco(scene)
    return Summary(scene, run_rbda(scene, **options), run_mujoco(scene, RIGID[name]) if name in RIGID else file, file)


if __name__ == "__main__":  # python -m benchmarks.scenes.gymnasium [duration] [names...]
    import sys

    duration = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    names = sys.argv[2:] or MODELS
    print(HEADER)
    summaries = []
    for name in names:
        summary = compare(scene(name, duration))
        summaries.append(summary)
        print(summary.row(), flush=True)
    rises = [s.energy_rise for s in summaries]
    ratios = [s.rbda.cpu / s.mujoco_file.cpu for s in summaries]
    print(f"worst energy rise {max(rises):.2e} ({summaries[int(np.argmax(rises))].scene.name}); worst |root height "
          f"diff| at {FALL} s {np.nanmax([abs(np.subtract(*s.root_heights(FALL))) for s in summaries]):.4f} m; "
          f"time per step rbda / mj_step median {np.median(ratios):.1f}, worst {max(ratios):.1f}")
