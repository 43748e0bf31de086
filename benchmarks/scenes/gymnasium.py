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

:func:`compare` runs a scene in both engines (``scenes.run_rbda``: the mechanical energy with the joint and tendon
springs' potential, ``scenes.run_mujoco``) and keeps the runs side by side (:class:`Summary`: the energy's rise,
the root's height, the free joint's z or the ``rootz`` slide of the planar robots, the final ``qpos``, the CPU time
per step); :func:`check` lists what rbda's run violates.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import os
from dataclasses import dataclass

import numpy as np

from . import Run, Scene, energy_rise, run_mujoco, run_rbda

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
# the checks (check): the energy's rise above its start, of its scale (its start's magnitude, or its range if
# larger; the solver's tolerances, 1e-6 and below, take a far smaller share); the root's height against MuJoCo's
# after the fall and at the end (m); the final qpos of a robot without a root against MuJoCo's (m or rad)
ENERGY_RISE, ROOT_TOLERANCE, QPOS_TOLERANCE = 1e-3, 0.06, 0.05


def assets() -> str:
    """The folder of gymnasium's MuJoCo files (found without importing gymnasium)."""
    spec = importlib.util.find_spec("gymnasium")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the gymnasium scenes need gymnasium: pip install gymnasium")
    return os.path.join(spec.submodule_search_locations[0], "envs", "mujoco", "assets")


def scene(name: str, duration: float = 10.0) -> Scene:
    """The scene of gymnasium's ``<name>.xml``: its timestep, ``duration`` seconds, its ``qpos0`` made feasible
    (joints clipped into their ranges, the root lifted out of the floor), tilted by :data:`TILT` where it is
    unstable, and zero velocity or :data:`KICK`'s (see the module)."""
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
    """The runs of one scene (``scenes.Run``): ``rbda``, its MuJoCo reference ``mujoco`` (the file, or for a file
    with soft contacts the file made rigid, :data:`RIGID`) and ``mujoco_file`` (the file as it is)."""

    scene: Scene
    rbda: Run
    mujoco: Run
    mujoco_file: Run
    root: int | None  # the qpos index of the root's height (_root)

    def roots(self, run: Run) -> np.ndarray:
        """``run``'s root height per step (NaN for a robot without a root)."""
        Q = run.extra["qpos"]
        return Q[:, self.root] if self.root is not None else np.full(len(Q), np.nan)

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
        return float(self.roots(self.rbda)[k]), float(self.roots(self.mujoco)[k])

    @property
    def qpos_difference(self) -> float:
        """The largest difference of the final ``qpos`` of rbda and of the MuJoCo reference (NaN for the robots of
        :data:`NOT_COMPARED`; free joints' quaternions compared as they are)."""
        if self.scene.name.removeprefix("gymnasium_") in NOT_COMPARED:
            return np.nan
        return float(np.abs(self.rbda.extra["qpos"][-1] - self.mujoco.extra["qpos"][-1]).max())

    def row(self) -> str:
        """One line of the table (:data:`HEADER`)."""
        fall, end = self.root_heights(FALL), self.root_heights()
        file = self.roots(self.mujoco_file)[-1]
        return (f"{self.scene.name.removeprefix('gymnasium_'):24s} {self.energy_rise:9.2e} "
                f"{fall[0]:7.3f} {fall[1]:7.3f} {abs(fall[0] - fall[1]):6.3f}  {end[0]:7.3f} {end[1]:7.3f} "
                f"{abs(end[0] - end[1]):6.3f} {file:7.3f} {self.qpos_difference:7.3f}  "
                f"{self.rbda.penetration.max():7.1e} {1e6 * self.rbda.cpu:8.1f} {1e6 * self.mujoco_file.cpu:7.1f} "
                f"{self.rbda.cpu / self.mujoco_file.cpu:6.1f}"
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


def available() -> bool:
    """Whether gymnasium (its MJCF files) and MuJoCo are installed."""
    return importlib.util.find_spec("gymnasium") is not None and importlib.util.find_spec("mujoco") is not None


def check(summary: Summary) -> list[str]:
    """What ``summary``'s rbda run violates (empty: none): an error or a non-finite state, an energy rise above
    :data:`ENERGY_RISE`, a penetration deeper than the scene's bound, the root's height after the fall (:data:`FALL`)
    or at the end farther than :data:`ROOT_TOLERANCE` from MuJoCo's, the final ``qpos`` of a robot without a root
    farther than :data:`QPOS_TOLERANCE` (but those of :data:`NOT_COMPARED`)."""
    run, problems = summary.rbda, []
    if run.error:
        problems.append(run.error)
    if not (np.all(np.isfinite(run.energy)) and np.all(np.isfinite(run.extra["q"]))):
        return problems + ["non-finite state"]
    if summary.energy_rise > ENERGY_RISE:
        problems.append(f"energy rose {summary.energy_rise:.2e} of its scale above the start")
    if run.penetration.max() > summary.scene.penetration:
        problems.append(f"penetration {run.penetration.max():.2e} m > {summary.scene.penetration:.0e}")
    for time in (FALL, None):
        rbda, mujoco = summary.root_heights(time)
        if np.isfinite(mujoco) and abs(rbda - mujoco) > ROOT_TOLERANCE:
            problems.append(f"root at {'the end' if time is None else f'{time} s'}: {rbda:.3f} m, MuJoCo {mujoco:.3f}")
    if not np.isfinite(summary.root_heights()[1]) and summary.qpos_difference > QPOS_TOLERANCE:
        problems.append(f"final qpos {summary.qpos_difference:.3f} from MuJoCo's")
    return problems


def compare(scene: Scene, **options) -> Summary:
    """``scene`` run by both engines under zero torque (``scenes.run_rbda``, ``options`` to rbda's Simulator;
    ``scenes.run_mujoco``), and by MuJoCo on its rigid twin where :data:`RIGID` has one."""
    import mujoco

    from rbda.io.mjcf import q_to_qpos

    name, mj = scene.name.removeprefix("gymnasium_"), mujoco.MjModel.from_xml_path(scene.path())
    file = run_mujoco(scene)
    rigid = run_mujoco(dataclasses.replace(scene, name=scene.name + "_rigid", xml=scene.xml.replace(*RIGID[name]))
                       ) if name in RIGID else file
    rbda = run_rbda(scene, **options)
    rbda.extra["qpos"] = np.array([q_to_qpos(mj, q) for q in rbda.extra["q"]])
    return Summary(scene, rbda, rigid, file, _root(mj))


if __name__ == "__main__":  # python -m benchmarks.scenes.gymnasium [duration] [names...]
    import sys

    duration = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    names = sys.argv[2:] or MODELS
    print(HEADER)
    summaries = []
    for name in names:
        summary = compare(scene(name, duration))
        summaries.append(summary)
        problems = check(summary)
        print(summary.row() + ("  " + "; ".join(problems) if problems else ""), flush=True)
    rises = [s.energy_rise for s in summaries]
    ratios = [s.rbda.cpu / s.mujoco_file.cpu for s in summaries]
    print(f"worst energy rise {max(rises):.2e} ({summaries[int(np.argmax(rises))].scene.name}); worst |root height "
          f"diff| at {FALL} s {np.nanmax([abs(np.subtract(*s.root_heights(FALL))) for s in summaries]):.4f} m; "
          f"time per step rbda / mj_step median {np.median(ratios):.1f}, worst {max(ratios):.1f}")
