"""The scene suite's robots: the same robot for rbda and MuJoCo, example-robot-data's URDF (solo12, anymal,
talos) compiled by MuJoCo (its collision meshes by absolute path, a free joint on the root body, a ground
plane), only robot-ground contacts (as rbda's add_ground_plane), friction 0.5, elliptic cones, Euler
integration at the same dt; standing under the joint torques of one StandingPD (computed by rbda) applied to both
through their joint names, its damping as both engines' implicit joint damping, or falling passively
(:func:`robot_scenes`, :func:`run_robot`). Used by the tests, benchmarks/bench_simulator.py and
benchmarks/bench_suite.py (example-robot-data is installed with pin)."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import numpy as np

import rbda
from rbda.collision import GeometryData, compute_distances
from rbda.io import GeometryType, build_geom_from_urdf, load_reference_configurations
from rbda.simulation import Simulator, StandingPD, add_ground_plane

ROBOTS = {"solo12": ("solo_description/robots/solo12.urdf", "solo_description/srdf/solo.srdf", "standing"),
          "anymal": ("anymal_c_simple_description/urdf/anymal.urdf", "anymal_c_simple_description/srdf/anymal.srdf",
                     "standing"),
          "talos": ("talos_data/robots/talos_reduced.urdf", "talos_data/srdf/talos.srdf", "half_sitting")}
MU = 0.5


def robots_share() -> str:
    """example-robot-data's ``share`` directory (holding ``example-robot-data/robots``), as installed with pin."""
    import pinocchio

    return os.path.normpath(os.path.join(os.path.dirname(pinocchio.__file__), *[".."] * 4, "share"))


def rbda_robot(name: str, dt: float = 1e-3, **simulator_options):
    """``(model, collision_model, sim, q0)``: the robot on the ground plane at its SRDF configuration, lowered until
    its lowest collision geometry is 0.1 mm above the ground; ``simulator_options`` go to the Simulator."""
    urdf, srdf, config = ROBOTS[name]
    robots = os.path.join(robots_share(), "example-robot-data", "robots")
    urdf, srdf = os.path.join(robots, urdf), os.path.join(robots, srdf)
    model = rbda.load_model(urdf, floating_base=True)
    collision = build_geom_from_urdf(model, urdf, GeometryType.COLLISION, [robots_share()])
    add_ground_plane(model, collision)
    load_reference_configurations(model, srdf)
    q0 = model.reference_configurations[config].copy()
    geom_data = GeometryData(collision)
    compute_distances(model, model.create_data(), collision, geom_data, q0)
    q0[2] -= float(np.min(geom_data.distances)) - 1e-4
    return model, collision, Simulator(model, collision, dt, mu=MU, **simulator_options), q0


def mujoco_robot(name: str, dt: float = 1e-3):
    """``(mj_model, mj_data)`` of the same robot and ground for MuJoCo (single-threaded, Euler, elliptic cones)."""
    import mujoco

    path = os.path.join(robots_share(), "example-robot-data", "robots", ROBOTS[name][0])
    root = ET.parse(path).getroot()
    for link in root.iter("link"):
        for visual in link.findall("visual"):
            link.remove(visual)
    for mesh in root.iter("mesh"):
        mesh.set("filename", os.path.join(robots_share(), mesh.get("filename").removeprefix("package://")))
    root.insert(0, ET.fromstring('<mujoco><compiler strippath="false" discardvisual="true" fusestatic="false"/>'
                                 '</mujoco>'))
    spec = mujoco.MjSpec.from_string(ET.tostring(root, encoding="unicode"))
    spec.option.timestep = dt
    spec.option.integrator = mujoco.mjtIntegrator.mjINT_EULER
    spec.option.cone = mujoco.mjtCone.mjCONE_ELLIPTIC
    for geom in spec.geoms:  # robot geoms touch the ground only
        geom.contype, geom.conaffinity, geom.friction = 1, 0, [MU, 0.005, 0.0001]
    spec.worldbody.first_body().add_freejoint()
    spec.worldbody.add_geom(type=mujoco.mjtGeom.mjGEOM_PLANE, size=[0, 0, 1], contype=0, conaffinity=1,
                            friction=[MU, 0.005, 0.0001])
    mj_model = spec.compile()
    return mj_model, mujoco.MjData(mj_model)


class JointMap:
    """rbda's ``q (nq,)``, ``v (nv,)``, ``tau (nv,)`` to and from MuJoCo's ``qpos``, ``qvel``, ``qfrc`` through the
    joint names (the free flyer: rbda ``[p, x y z w]``, MuJoCo ``[p, w x y z]``)."""

    def __init__(self, model, mj_model):
        import mujoco

        self.q_rbda, self.q_mj, self.v_rbda, self.v_mj = [], [], [], []
        for j in range(2, model.njoints):
            mj = mujoco.mj_name2id(mj_model, mujoco.mjtObj.mjOBJ_JOINT, model.names[j])
            self.q_rbda.append(model.idx_q[j])
            self.q_mj.append(mj_model.jnt_qposadr[mj])
            self.v_rbda.append(model.idx_v[j])
            self.v_mj.append(mj_model.jnt_dofadr[mj])

    def qpos(self, q):
        """MuJoCo's ``qpos`` of rbda's ``q``."""
        qpos = np.zeros(7 + len(self.q_mj))
        qpos[:3], qpos[3], qpos[4:7] = q[:3], q[6], q[3:6]
        qpos[self.q_mj] = q[self.q_rbda]
        return qpos

    def q(self, qpos):
        """rbda's ``q`` of MuJoCo's ``qpos``."""
        q = np.zeros(7 + len(self.q_rbda))
        q[:3], q[6], q[3:6] = qpos[:3], qpos[3], qpos[4:7]
        q[self.q_rbda] = qpos[self.q_mj]
        return q

    def qfrc(self, tau):
        """MuJoCo's generalized force of rbda's joint torques ``tau`` (the free flyer gets none)."""
        out = np.zeros(6 + len(self.v_mj))
        out[self.v_mj] = tau[self.v_rbda]
        return out


def stand_both(name: str, seconds: float, dt: float = 1e-3):
    """The robot standing under one StandingPD (at its start configuration) in rbda and in MuJoCo for
    ``seconds``; returns ``(heights_rbda (T,), heights_mujoco (T,), penetration_mujoco (T,))``."""
    import mujoco

    model, collision, sim, q0 = rbda_robot(name, dt)
    pd = StandingPD(sim, q0)
    mj_model, mj_data = mujoco_robot(name, dt)
    joints = JointMap(model, mj_model)
    mj_model.dof_damping[joints.v_mj] += pd.kd[joints.v_rbda]  # implicit in MuJoCo's Euler step, as in rbda's
    mj_data.qpos[:] = joints.qpos(q0)
    mujoco.mj_forward(mj_model, mj_data)
    steps = int(round(seconds / dt))
    z_rbda, z_mj, depth_mj = np.empty(steps), np.empty(steps), np.empty(steps)
    q, v = q0.copy(), np.zeros(model.nv)
    for k in range(steps):
        q, v = sim.step(q, v, pd(q))
        z_rbda[k] = q[2]
        mj_data.qfrc_applied[:] = joints.qfrc(pd(joints.q(mj_data.qpos)))
        mujoco.mj_step(mj_model, mj_data)
        z_mj[k] = mj_data.qpos[2]
        depth_mj[k] = -min((mj_data.contact[i].dist for i in range(mj_data.ncon)), default=0.0)
    return z_rbda, z_mj, depth_mj


@dataclass
class RobotScene:
    """A robot of :data:`ROBOTS` on the ground for ``duration`` seconds at ``dt``: ``standing`` under one
    StandingPD at its start, or falling with zero torque (passive: its energy may not rise)."""

    name: str
    robot: str
    standing: bool
    dt: float = 1e-3
    duration: float = 2.0
    family: str = "robot"
    penetration: float = 5e-3
    rolling_speed: None = None
    rest: bool = False

    @property
    def passive(self) -> bool:
        return not self.standing

    @property
    def steps(self) -> int:
        return int(round(self.duration / self.dt))


def robot_scenes() -> list:
    """Each robot standing and falling."""
    return [RobotScene(f"{robot}_{'standing' if standing else 'falling'}", robot, standing)
            for robot in ROBOTS for standing in (True, False)]


def robot_engines(scene: RobotScene):
    """``(step_rbda, step_mujoco, read)``: one step of each engine (closures over their own states; ``step_mujoco``
    None where MuJoCo's compiler rejects the robot's file) and a function returning rbda's ``(model, sim, q, v)``."""
    import mujoco

    model, collision, sim, q0 = rbda_robot(scene.robot, scene.dt)
    pd = StandingPD(sim, q0) if scene.standing else None
    state = {"q": q0.copy(), "v": np.zeros(model.nv)}
    zero = np.zeros(model.nv)

    def step_rbda():
        state["q"], state["v"] = sim.step(state["q"], state["v"], pd(state["q"]) if pd else zero)

    def read():
        return model, sim, state["q"], state["v"]

    try:
        mj_model, mj_data = mujoco_robot(scene.robot, scene.dt)
    except ValueError:  # MuJoCo's compiler rejects the file (anymal's link inertias are not positive definite)
        return step_rbda, None, read
    joints = JointMap(model, mj_model)
    if pd is not None:
        mj_model.dof_damping[joints.v_mj] += pd.kd[joints.v_rbda]
    mj_data.qpos[:] = joints.qpos(q0)
    mujoco.mj_forward(mj_model, mj_data)

    def step_mujoco():
        if pd is not None:
            mj_data.qfrc_applied[:] = joints.qfrc(pd(joints.q(mj_data.qpos)))
        mujoco.mj_step(mj_model, mj_data)

    return step_rbda, step_mujoco, read


def run_robot(scene: RobotScene):
    """``scene`` stepped by rbda: its :class:`benchmarks.scenes.Run`."""
    import time

    import rbda

    from . import Run

    step_rbda, _, read = robot_engines(scene)
    model, sim, q, v = read()
    data = model.create_data()
    E, P, H, cpu, error = [rbda.compute_mechanical_energy(model, data, q, v)], [0.0], [[q[2]]], 0.0, None
    for step in range(scene.steps):
        t0 = time.process_time()
        try:
            step_rbda()
        except Exception as exc:  # a scene that fails is a result, reported
            error = f"step {step}: {type(exc).__name__}: {exc}"
            break
        cpu += time.process_time() - t0
        _, _, q, v = read()
        E.append(rbda.compute_mechanical_energy(model, data, q, v))
        P.append(max(0.0, -float(sim.contacts.distances.min(initial=0.0))))
        H.append([q[2]])
    return Run(np.array(E), np.array(P), np.array(H), 0.0, cpu / max(1, len(E) - 1), error)
