"""``rbda.load_scene`` and the simulator against MuJoCo on the same MJCF scene: a cube sliding to a stop and a ball
dropped on the floor."""

import os

import numpy as np
import pytest

import rbda
from rbda.io import Halfspace

mujoco = pytest.importorskip("mujoco")
SCENE = os.path.join(os.path.dirname(__file__), "data", "scene_cube_ball.xml")


def _scene():
    return rbda.load_scene(SCENE)  # every pair has a compiled contact function (simulation/pair_kernels.py)


def test_load_scene_reads_bodies_obstacles_and_friction():
    model, cm = _scene()
    assert model.nq == 14 and model.nv == 12
    floor, cube, ball = (cm.geometry_objects[cm.get_geometry_id(n)] for n in ("floor", "cube_geom", "ball_geom"))
    assert isinstance(floor.geometry, Halfspace) and floor.parent_joint == 0
    assert (floor.friction, cube.friction, ball.friction) == (0.5, 0.3, 0.5)
    assert cm.collision_pairs == [(0, 1), (0, 2), (1, 2)]
    sim = rbda.Simulator(model, cm, 1e-3)
    assert sim.friction.tolist() == [0.5, 0.3, 0.5]


def test_against_mujoco_cube_slide_distance_and_ball_rest():
    """The cube slides from 1 m/s with the pair's friction max(0.5, 0.3) = 0.5: rbda's NCP stops it after
    v0^2 / (2 mu g) = 0.1019 m; MuJoCo's soft contacts (a contact force that grows with penetration and
    velocity) agree within 1 mm (0.2 mm measured). The ball dropped from 0.2 m rests at its radius in rbda (Baumgarte) and within
    MuJoCo's steady penetration (below 1 mm, 0.37 mm measured) of it."""
    model, cm = _scene()
    sim = rbda.Simulator(model, cm, 1e-3, solver="admm", formulation="ncp")
    q = rbda.io.mjcf.qpos_to_q(model, mujoco.MjModel.from_xml_path(SCENE).qpos0)
    q[model.idx_q[2] + 2] = 0.2  # the ball 10 cm above the floor
    v = np.zeros(model.nv)
    v[0] = 1.0  # the cube's linear velocity along x (body frame = world at rest)
    T = 1500
    Q, V = sim.rollout(q, v, np.zeros((T, model.nv)))
    mj = mujoco.MjModel.from_xml_path(SCENE)
    d = mujoco.MjData(mj)
    d.qpos[9] = 0.2  # the same state: MuJoCo's qpos starts at qpos0
    d.qvel[0] = 1.0
    for _ in range(T):
        mujoco.mj_step(mj, d)
    stop = 1.0 / (2 * 0.5 * 9.81)
    assert Q[-1, 0] == pytest.approx(stop, abs=1e-3)
    assert Q[-1, 0] == pytest.approx(d.qpos[0], abs=1e-3)
    ball = model.idx_q[2]
    assert Q[-1, ball + 2] == pytest.approx(0.1, abs=1e-4)
    assert Q[-1, ball + 2] == pytest.approx(d.qpos[9], abs=1e-3)
    assert np.abs(V[-1]).max() < 1e-5  # at rest within the solver's tolerances (1e-6): rounding moves it in 0.3-1.6e-6
    print(f"slide: rbda {Q[-1, 0]:.5f}, MuJoCo {d.qpos[0]:.5f}, v0^2/(2 mu g) {stop:.5f}; ball rest height: rbda "
          f"{Q[-1, ball + 2]:.6f}, MuJoCo {d.qpos[9]:.6f}")
