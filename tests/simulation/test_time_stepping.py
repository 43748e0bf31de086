"""The time stepper creates no energy: bodies rolling, spinning and tumbling keep to their closed forms and
invariants (the scene suite's ``rolling`` and ``free`` families, benchmarks/scenes), in the compiled step and
its Python stages alike."""

from __future__ import annotations

import numpy as np
import pytest

import rbda
from rbda.simulation.simulator import reference_step
from rbda.spatial import quat_to_matrix

from benchmarks import scenes

pytest.importorskip("mujoco")

ROLLING = {s.name: s for s in scenes.rolling()}
FREE = {s.name: s for s in scenes.free()}


def energies(scene, steps=None, stages=False):
    """``(E (steps + 1,), q, v, model)`` of ``scene`` under zero torque."""
    model, _, sim, q, v = scenes.rbda_simulator(scene)
    data = model.create_data()
    E = [rbda.compute_mechanical_energy(model, data, q, v)]
    for _ in range(scene.steps if steps is None else steps):
        q, v = reference_step(sim, q, v, np.zeros(model.nv)) if stages else sim.step(q, v, np.zeros(model.nv))
        E.append(rbda.compute_mechanical_energy(model, data, q, v))
    return np.array(E), q, v, model


def test_a_spun_ball_ends_rolling_at_two_sevenths_of_its_spin():
    """A ball spun at w0 = 100 rad/s on the floor (mu 0.6) slips, then rolls at (2/7) w0 r (its angular momentum
    about the contact point kept) for the rest of the 10 s: within 0.5 %, its energy never rising (round-off),
    its centre at the height r."""
    scene = ROLLING["spinning_ball"]
    model, _, sim, q, v = scenes.rbda_simulator(scene)
    data = model.create_data()
    E, speeds, heights = [rbda.compute_mechanical_energy(model, data, q, v)], [], []
    for _ in range(scene.steps):
        q, v = sim.step(q, v, np.zeros(6))
        E.append(rbda.compute_mechanical_energy(model, data, q, v))
        speeds.append(np.linalg.norm(v[:3]))
        heights.append(q[2])
    speeds = np.array(speeds)
    assert np.all(np.diff(E) < 1e-12 * E[0])
    assert np.abs(speeds[2000:] / scene.rolling_speed - 1.0).max() < 5e-3
    assert np.abs(np.array(heights) - 0.05).max() < 1e-6
    # rolling: the contact point at rest, the spin axis along the floor
    assert abs(E[-1] - (0.5 * 0.5 * scene.rolling_speed ** 2 * 1.4 + 0.5 * 9.81 * 0.05)) < 1e-6


@pytest.mark.parametrize("name", ["pushed_ball", "pushed_cylinder", "pushed_capsule"])
def test_a_pushed_body_ends_rolling_at_its_closed_form_speed(name):
    """A ball, a cylinder and a capsule on their side, pushed at 2 m/s: slip, then roll at v0 / (1 + I/(m r^2))
    (5/7, 2/3 of v0): within 1 %; the energy never rises."""
    scene = ROLLING[name]
    E, q, v, model = energies(scene)
    assert np.all(np.diff(E) < 1e-9 * E[0])
    assert abs(np.linalg.norm(v[:3]) / scene.rolling_speed - 1.0) < 1e-2


@pytest.mark.parametrize("name", ["tumbling_box", "offset_spinner"])
def test_a_body_in_free_flight_keeps_its_energy_and_momentum(name):
    """Without gravity, a box tumbling about its intermediate axis (it flips over and over) and a box spinning at
    20 rad/s about an origin 20 cm from its centre of mass: the energy constant to 1e-10 (explicit gyroscopic
    terms gained 5-7 %), the centre of mass on a straight line at its first velocity (1e-9), the magnitude of the
    angular momentum about it constant (1e-9) and its direction within 1 %."""
    scene = FREE[name]
    model, _, sim, q, v = scenes.rbda_simulator(scene)
    data = model.create_data()
    Y = model.inertias[1]
    c, Ic = Y.lever, Y.inertia

    def centre(q):
        return q[:3] + quat_to_matrix(q[3:7]) @ c

    def velocity(q, v):
        return quat_to_matrix(q[3:7]) @ (v[:3] + np.cross(v[3:], c))

    def momentum(q, v):
        return quat_to_matrix(q[3:7]) @ Ic @ v[3:]

    E0, x0, u0, L0 = rbda.compute_mechanical_energy(model, data, q, v), centre(q), velocity(q, v), momentum(q, v)
    for step in range(1, scene.steps + 1):
        q, v = sim.step(q, v, np.zeros(6))
        if step % 100 == 0:
            assert abs(rbda.compute_mechanical_energy(model, data, q, v) / E0 - 1.0) < 1e-10
            assert np.abs(velocity(q, v) - u0).max() < 1e-9
            assert np.abs(centre(q) - x0 - step * scene.dt * u0).max() < 1e-9
            L = momentum(q, v)
            assert abs(np.linalg.norm(L) / np.linalg.norm(L0) - 1.0) < 1e-9
            assert np.linalg.norm(L - L0) < 1e-2 * np.linalg.norm(L0)


@pytest.mark.parametrize("name", ["spinning_ball", "pushed_ball", "tumbling_box", "offset_spinner"])
def test_the_compiled_step_equals_its_python_stages(name):
    """300 steps of the compiled step and of the Python stages (``reference_step``, plain numpy: the change of
    coordinates, the midpoint rule by numpy's solve) agree to 1e-11. (A cylinder on its side has two contact
    points whose impulses split in many ways: the two solvers' paths agree there only to their tolerance.)"""
    scene = {**ROLLING, **FREE}[name]
    model, _, sim, q, v = scenes.rbda_simulator(scene)
    ref = scenes.rbda_simulator(scene)[2]
    q2, v2 = q.copy(), v.copy()
    for _ in range(300):
        q, v = sim.step(q, v, np.zeros(model.nv))
        q2, v2 = reference_step(ref, q2, v2, np.zeros(model.nv))
    assert np.abs(q - q2).max() < 1e-11 and np.abs(v - v2).max() < 1e-11


def test_a_free_flyer_moves_its_centre_of_mass_in_a_straight_line_in_one_step():
    """One step of a free body in free flight, without gravity or contact, from a random state: the centre of
    mass moves by dt times its velocity in the world frame, and that velocity is unchanged (an exact property of
    the step's coordinates, which the SE(3) exponential of the body's twist does not have)."""
    rng = np.random.default_rng(3)
    model, collision = rbda.Model(), rbda.io.GeometryModel()
    model.gravity = rbda.Motion(np.zeros(3), np.zeros(3))
    joint = model.add_joint(0, rbda.JointModelFreeFlyer(), rbda.SE3.Identity(), "body")
    model.append_body_to_joint(joint, rbda.Inertia.Random())
    sim = rbda.Simulator(model, collision, 1e-2)
    c = model.inertias[1].lever
    for _ in range(5):
        q = rbda.random_configuration(model, -np.ones(7), np.ones(7))
        v = rng.normal(size=6) * 5.0
        R = quat_to_matrix(q[3:7])
        u = R @ (v[:3] + np.cross(v[3:], c))
        q1, v1 = sim.step(q, v, np.zeros(6))
        R1 = quat_to_matrix(q1[3:7])
        assert np.allclose(q1[:3] + R1 @ c, q[:3] + R @ c + 1e-2 * u, atol=1e-13)
        assert np.allclose(R1 @ (v1[:3] + np.cross(v1[3:], c)), u, atol=1e-12)


def test_a_step_that_does_not_converge_says_so_once():
    """A solver held to one iteration on a box landing on the floor: the step warns (ConvergenceWarning, once per
    simulator), and its results stay finite."""
    scene = scenes.stack()[0]
    model, geom, _, q, v = scenes.rbda_simulator(scene)
    sim = rbda.Simulator(model, geom, scene.dt, solver_options=dict(max_iter=1, active_set_max_iter=0))
    v[2] = -1.0
    with pytest.warns(rbda.simulation.ConvergenceWarning, match="without meeting its tolerances") as caught:
        for _ in range(20):
            q, v = sim.step(q, v, np.zeros(model.nv))
    assert len([w for w in caught if w.category is rbda.simulation.ConvergenceWarning]) == 1
    assert np.isfinite(q).all() and np.isfinite(v).all()


def test_free_bodies_advance_in_one_pass_to_the_bit():
    """In a model of free bodies only, the step's last stage runs ``advance_free_bodies``: the same ``q_next`` and
    ``v_next`` to the bit as ``integrate`` then ``advance``, on random states of bodies whose centres of mass are
    off their origins (a quaternion given either sign, tiny and large rotations)."""
    from rbda.kernels.configuration import integrate
    from rbda.kernels.time_stepping import advance, advance_free_bodies

    rng = np.random.default_rng(3)
    model = rbda.Model()
    for b in range(4):
        lever = rng.normal(size=3) * 0.1
        model.add_joint(0, rbda.JointModelFreeFlyer(), rbda.SE3.Identity(), f"body{b}")
        model.append_body_to_joint(b + 1, rbda.Inertia(1.0 + b, lever, np.diag([0.1, 0.2, 0.3])), rbda.SE3.Identity())
    I, F = model.packed
    dt = 1e-3
    for trial in range(50):
        q = np.zeros(model.nq)
        for a in range(0, model.nq, 7):
            quaternion = rng.normal(size=4)
            q[a:a + 3], q[a + 3:a + 7] = rng.normal(size=3), quaternion / np.linalg.norm(quaternion)
        v_next = rng.normal(size=model.nv) * (10.0 ** rng.uniform(-8, 3))
        step = dt * v_next
        q1, v1 = np.empty(model.nq), v_next.copy()
        integrate(I, F, q, step, q1)
        advance(I, F, q, dt, q1, v1)
        q2, v2 = np.empty(model.nq), v_next.copy()
        advance_free_bodies(I, F, q, dt, step, q2, v2)
        np.testing.assert_array_equal(q2, q1)
        np.testing.assert_array_equal(v2, v1)
