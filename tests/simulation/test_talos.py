"""talos (example-robot-data, 93 kg, 52 collision geometries) on the ground at dt = 1e-3: standing under StandingPD
at its SRDF half-sitting posture, and falling from it without control until it comes to rest.

What brings the fallen robot to rest is the URDF's own joint model, read into the rbda model as Pinocchio and
MuJoCo read it: ``<dynamics damping friction>`` (viscous damping, applied implicitly, and dry joint friction:
1 N m s/rad and 1 N m on the torso and arms, 0.5 N m s/rad and 1 N m on the head, none on the legs) and ``<limit
lower upper>`` (unilateral joint limits). No numerical damping is added: the contacts are hard (Signorini,
Coulomb) and dissipate only through friction and the inelastic impacts of the velocity-level step."""

import os

import numpy as np
import pytest

from rbda.simulation import StandingPD
from rbda.simulation import simulator as stages

pytest.importorskip("pinocchio")  # example-robot-data's files are installed with it
from benchmarks.scenes.robots import ROBOTS, rbda_robot, robots_share  # noqa: E402

DT = 1e-3


def test_talos_stands_for_2_seconds():
    """talos under StandingPD (omega 20 rad/s) at its half-sitting posture for 2 s: the base height stays within
    1 cm of its start (it settles 0.2 mm lower), every solve converges, the penetration stays under 1 mm (26 um
    measured) and the feet carry the robot's weight.

    The joints do not all rest: the sole of talos's collision mesh is a dome (its hull's lowest vertex, mid-sole,
    lies 0.5 to 1.2 mm below its corners), so each foot stands on one point with the corners within the contact
    margin but not touching, and rocks on it: the ankle roll joints chatter at about 0.2 rad/s (the tangential
    force flips sign every step, inside the friction cone) without moving the base. They stay below 0.5 rad/s."""
    model, collision, sim, q0 = rbda_robot("talos", DT)
    pd = StandingPD(sim, q0)
    q, v = q0.copy(), np.zeros(model.nv)
    heights, unconverged, deepest, fastest = [], 0, 0.0, 0.0
    for _ in range(int(round(2.0 / DT))):
        q, v = sim.step(q, v, pd(q))
        heights.append(q[2])
        unconverged += not sim.stats.converged
        deepest = min(deepest, sim.contacts.distances.min(initial=0.0))
        fastest = max(fastest, np.abs(v).max())
    drift = np.abs(np.array(heights) - q0[2]).max()
    assert drift < 1e-2
    assert drift < 1e-3  # what it does: 0.22 mm
    assert unconverged == 0
    assert deepest > -1e-3
    assert fastest < 0.5
    weight = sum(model.inertias[j].mass for j in range(model.njoints)) * 9.81
    assert sim.forces[2::3].sum() == pytest.approx(weight, rel=0.2)  # one step's impulse: the ankles rock


def test_talos_joint_model_is_the_urdfs():
    """The damping, dry friction and limits that bring talos to rest are the URDF's, read the same by Pinocchio
    (``model.damping``, ``model.friction``, position limits) and by MuJoCo (``dof_damping``, ``dof_frictionloss``,
    ``jnt_range``; no armature)."""
    import pinocchio as pin

    model, _, sim, _ = rbda_robot("talos", DT)
    urdf = os.path.join(robots_share(), "example-robot-data", "robots", ROBOTS["talos"][0])
    reference = pin.buildModelFromUrdf(urdf, pin.JointModelFreeFlyer())
    assert list(reference.names) == list(model.names)
    np.testing.assert_array_equal(model.damping, reference.damping)
    np.testing.assert_array_equal(model.friction, reference.friction)
    np.testing.assert_array_equal(model.lower_position_limit[7:], reference.lowerPositionLimit[7:])
    np.testing.assert_array_equal(model.upper_position_limit[7:], reference.upperPositionLimit[7:])
    assert model.damping[6:].max() == 1.0 and model.friction[6:].max() == 1.0  # not all zero: the test has teeth
    np.testing.assert_array_equal(sim.damping, model.damping)  # what the step applies (no controller here)
    assert len(sim.limited_dofs[0]) == model.nv - 6
    mujoco = pytest.importorskip("mujoco")
    from benchmarks.scenes.robots import JointMap, mujoco_robot

    mj_model, _ = mujoco_robot("talos", DT)
    joints = JointMap(model, mj_model)
    np.testing.assert_array_equal(mj_model.dof_damping[joints.v_mj], model.damping[joints.v_rbda])
    np.testing.assert_array_equal(mj_model.dof_frictionloss[joints.v_mj], model.friction[joints.v_rbda])
    assert np.all(mj_model.dof_armature == 0.0)
    for j in range(2, model.njoints):
        mj = mujoco.mj_name2id(mj_model, mujoco.mjtObj.mjOBJ_JOINT, model.names[j])
        iq = model.idx_q[j]
        np.testing.assert_allclose(mj_model.jnt_range[mj], [model.lower_position_limit[iq],
                                                            model.upper_position_limit[iq]], atol=1e-12)


def test_talos_falls_and_comes_to_rest():
    """talos dropped from half-sitting without control: it collapses onto the ground with no blow-up (finite state,
    penetration under 1 cm, 1.31 mm measured; joint speeds under 50 rad/s, 18.6 measured when the arms hit the
    ground) and comes to rest within 4 s: the base's linear and angular speeds, every joint speed and the
    velocity of every touching contact point (``J v``, the contacts' own rows) are below 1e-3 (m/s, rad/s), the
    base still within 1 mm over the last 0.25 s (checked every 0.25 s from 2 s on).

    The fall is chaotic: the compiled step and the Python stages agree to 1e-9 over its first 200 steps, then part,
    and a change of the solver's rounding changes the pose it ends in. What lets it rest is the simulator's ``slop``
    (1e-4 m here): with every penetration corrected (``slop=0``, the default), an arm lying on the ground keeps a
    stick-slip cycle of about 6e-3 rad/s, its contacts slipping at 1.5 mm/s, the sub-micron penetrations of the
    resting contacts chased by Baumgarte's correction. With ``slop=1e-5`` that cycle remained in some starts: of
    five starts a few nanometres apart, two rested by 2.75 s and three still slipped at 5e-3 to 2e-2 rad/s after 8 s
    (ADMM at its 1000 iterations in most of their steps). With ``slop=1e-4`` seven starts (0 to 100 nm apart) all
    rested, at 2.75 s (six) and 3.5 s (one), and so did five starts under a different rounding of the active set's
    solve. The URDF's damping, dry friction and limits (module docstring) do it: with the damping and friction
    zeroed (limits kept), the base rests but a free forearm (arm_right_5_joint) still turns at 6 rad/s after
    2.5 s."""
    model, collision, sim, q0 = rbda_robot("talos", DT, slop=1e-4)
    q, v, tau = q0.copy(), np.zeros(model.nv), np.zeros(model.nv)
    deepest, fastest, base = 0.0, 0.0, []

    def resting(v):
        last = np.array(base[-250:])
        return (np.linalg.norm(last - last[-1], axis=1).max() < 1e-3 and np.linalg.norm(v[:3]) < 1e-3
                and np.linalg.norm(v[3:6]) < 1e-3 and np.abs(v[6:]).max() < 1e-3)

    for step in range(1, int(round(4.0 / DT)) + 1):
        q, v = sim.step(q, v, tau)
        base.append(q[:3])
        deepest = min(deepest, sim.contacts.distances.min(initial=0.0))
        fastest = max(fastest, np.abs(v).max())
        if step >= 2000 and step % 250 == 0 and resting(v):
            break
    assert np.all(np.isfinite(q)) and np.all(np.isfinite(v))
    assert deepest > -1e-2
    assert q[2] < q0[2] - 0.5  # it fell
    assert fastest < 50.0
    assert resting(v), f"not at rest after {step * DT:.2f} s: joint speeds up to {np.abs(v[6:]).max():.2e} rad/s"
    stages.kinematics(sim, q, v, tau, None)  # the contacts at the final state and their Jacobian
    cs = stages.contacts(sim)
    J = stages.delassus(sim, cs)[0]
    touching = np.repeat(cs.distances <= 1e-5, 3)
    assert touching.sum() >= 9  # at least three points hold it
    assert np.abs(J[touching] @ v).max() < 1e-3
