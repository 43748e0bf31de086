"""MJCF files simulated as MuJoCo simulates them: the passive forces (joint and tendon springs and dampers, gravity
compensation, fluid forces) against MuJoCo's ``qfrc_passive``, the actuators against its ``qfrc_actuator``; a
spring pendulum against the closed form of the implicit step and against ``mj_step``; gravity compensation; a
tendon's limit; the pairs and friction ``load_scene`` takes from MuJoCo's rules; the refusals naming what is not
simulated; and gymnasium's robots (``benchmarks/scenes/gymnasium.py``) stepped passively beside ``mj_step``."""

from __future__ import annotations

import numpy as np
import pytest

import rbda
from rbda.io import GeometryModel, ModelFileError
from rbda.io.mjcf import build_model_from_mjcf_string, qfrc_to_tau, qpos_to_q, qvel_to_v
from rbda.io.mjcf_physics import actuator_torques
from rbda.simulation import simulator as stages
from rbda.simulation.passive import passive_force
from rbda.simulation.simulator import reference_step

mujoco = pytest.importorskip("mujoco")

# a floating base carrying an arm (gravity compensated, its tool welded with another fraction), a slider and a
# finger with springs, a fixed tendon with a spring and a damper on the arm's branch, in a wind of a viscous fluid
PASSIVE = """
<mujoco>
  <option timestep="0.002" gravity="0.3 -0.2 -9.81" density="1.2" viscosity="0.05" wind="0.3 -0.2 0.1"/>
  <worldbody>
    <body name="base" pos="0 0 1">
      <freejoint name="root"/>
      <geom type="box" size=".2 .1 .05" mass="3"/>
      <body name="arm" pos="0.2 0 0" gravcomp="0.5">
        <joint name="h1" type="hinge" axis="0 1 0" stiffness="7" springref="0.3" damping="0.2" armature="0.01"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.03" mass="1"/>
        <body name="tool" pos="0.3 0 0" gravcomp="1">
          <geom type="sphere" size="0.05" mass="0.4"/>
        </body>
        <body name="slider" pos="0.3 0 0">
          <joint name="s1" type="slide" axis="0 0.6 0.8" stiffness="30" springref="-0.05" damping="0.1"/>
          <geom type="box" size=".03 .03 .03" mass=".5"/>
          <body name="finger">
            <joint name="h2" type="hinge" axis="1 0 0" stiffness="2"/>
            <geom type="capsule" fromto="0 0 0 0 0 -0.1" size="0.01" mass="0.1"/>
          </body>
        </body>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="coupling" stiffness="5" damping="0.3" springlength="0.1">
      <joint joint="h1" coef="1"/>
      <joint joint="s1" coef="-2"/>
    </fixed>
  </tendon>
</mujoco>
"""


def _mujoco(xml):
    mj = mujoco.MjModel.from_xml_string(xml)
    return mj, mujoco.MjData(mj)


def _random_state(mj, rng):
    d = mujoco.MjData(mj)
    d.qpos[:] = mj.qpos0
    for j in range(mj.njnt):
        a = mj.jnt_qposadr[j]
        if mj.jnt_type[j] == mujoco.mjtJoint.mjJNT_FREE:
            d.qpos[a:a + 3] = rng.normal(size=3)
            quat = rng.normal(size=4)
            d.qpos[a + 3:a + 7] = quat / np.linalg.norm(quat)
        else:
            d.qpos[a] = rng.uniform(-0.8, 0.8)
    return d.qpos.copy(), rng.normal(size=mj.nv)


def test_passive_forces_match_mujoco_qfrc_passive():
    """At random states: rbda's passive force (joint and tendon springs, the tendon's damper, gravity compensation
    of two welded bodies of different fractions, the inertia-box fluid model in a wind) less the joint damping is
    MuJoCo's ``qfrc_passive`` (``qfrc_spring + qfrc_damper + qfrc_gravcomp + qfrc_fluid``), in rbda's velocity
    coordinates (:func:`rbda.io.mjcf.qfrc_to_tau`), to 1e-10 of its scale."""
    mj, d = _mujoco(PASSIVE)
    model = build_model_from_mjcf_string(PASSIVE)
    sim = rbda.Simulator(model, GeometryModel(), mj.opt.timestep)
    assert sim.passive.spring_v.size == 3 and sim.passive.fluid_joint.size == 5  # every body, the welded tool too
    assert sim.passive.gravcomp_joint.tolist() == [model.get_joint_id("h1")]  # the arm and its welded tool
    rng = np.random.default_rng(3)
    for _ in range(5):
        qpos, qvel = _random_state(mj, rng)
        d.qpos[:], d.qvel[:] = qpos, qvel
        mujoco.mj_forward(mj, d)
        assert np.abs(d.qfrc_fluid).max() > 1e-3 and np.abs(d.qfrc_gravcomp).max() > 1.0
        q, v = qpos_to_q(model, qpos), qvel_to_v(model, qpos, qvel)
        stages.kinematics(sim, q, v, np.zeros(model.nv), None)  # the Jacobians and placements at q
        tau = passive_force(sim.passive, q, v, 0.0, sim.data.J, sim.data.oMi.array, sim.support_mask,
                            model.gravity.linear) - sim.damping * v
        expected = qfrc_to_tau(model, qpos, d.qfrc_passive)
        np.testing.assert_allclose(tau, expected, atol=1e-10 * np.abs(expected).max())


def test_passive_forces_compiled_equal_the_python_stages():
    """The compiled step (``compiled.free_velocity`` with ``passive.add_passive_forces`` and
    ``add_implicit_terms``) and the Python stages give the same trajectory of the passive model, 500 steps."""
    model = build_model_from_mjcf_string(PASSIVE)
    a, b = (rbda.Simulator(model, GeometryModel(), 0.002) for _ in range(2))
    mj, _ = _mujoco(PASSIVE)
    qpos, qvel = _random_state(mj, np.random.default_rng(5))
    q, v = qpos_to_q(model, qpos), qvel_to_v(model, qpos, qvel)
    qa, va, qb, vb = q, v, q, v
    for _ in range(500):
        qa, va = a.step(qa, va, np.zeros(model.nv))
        qb, vb = reference_step(b, qb, vb, np.zeros(model.nv))
    np.testing.assert_allclose(qa, qb, atol=1e-10)
    np.testing.assert_allclose(va, vb, atol=1e-9)


SPRING = """
<mujoco>
  <compiler angle="radian"/>
  <option timestep="{dt}" gravity="0 0 0" integrator="Euler"/>
  <worldbody>
    <body name="rod">
      <joint name="hinge" type="hinge" axis="0 0 1" stiffness="{k}" springref="0.2" armature="0.05"/>
      <geom type="sphere" size="0.05" pos="0.5 0 0" mass="1"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_spring_pendulum_closed_form_energy_and_mujoco():
    """A hinge with a spring (k = 4, rest 0.2 rad) and no gravity, released at 0.7 rad, 10 s at dt = 1e-3. The
    implicit step is backward Euler on ``I th'' = -k (th - th_ref)``: its closed form is ``x_{n+1} = A x_n``,
    ``A = [[1, h], [-h w^2, 1]] / (1 + h^2 w^2)`` (``w^2 = k / I``, ``I`` MuJoCo's mass matrix), which rbda's
    trajectory follows to 1e-9; its energy ``I v^2 / 2 + k (th - th_ref)^2 / 2`` never rises (it falls by
    ``(1 + h^2 w^2)^(-1)`` a step in the oscillator's norm: 6 % of the amplitude over 10 s here); the period
    equals the continuous ``2 pi / w`` within 0.1 %, and MuJoCo's (``mj_step``, explicit spring) within 0.1 %."""
    k, dt, T = 4.0, 1e-3, 10000
    xml = SPRING.format(dt=dt, k=k)
    mj, d = _mujoco(xml)
    mujoco.mj_forward(mj, d)
    M = np.zeros((1, 1))
    mujoco.mj_fullM(mj, d, M)
    inertia = float(M[0, 0])
    model = build_model_from_mjcf_string(xml)
    sim = rbda.Simulator(model, GeometryModel(), dt)
    q, v = np.array([0.7]), np.zeros(1)
    d.qpos[0] = 0.7
    w2 = k / inertia
    A = np.array([[1.0, dt], [-dt * w2, 1.0]]) / (1.0 + dt * dt * w2)
    x = np.array([0.7 - 0.2, 0.0])
    Q, QM, energy = [q[0]], [0.7], [0.5 * k * 0.5 ** 2]
    worst = 0.0
    for _ in range(T):
        q, v = sim.step(q, v, np.zeros(1))
        x = A @ x
        worst = max(worst, abs(q[0] - 0.2 - x[0]), abs(v[0] - x[1]))
        mujoco.mj_step(mj, d)
        Q.append(q[0])
        QM.append(d.qpos[0])
        energy.append(0.5 * inertia * v[0] ** 2 + 0.5 * k * (q[0] - 0.2) ** 2)
    assert worst < 1e-9
    energy = np.array(energy)
    assert np.all(np.diff(energy) <= 1e-15 * energy[0])
    decay = (1.0 + dt * dt * w2) ** (-T / 2)
    assert np.sqrt(energy[-1] / energy[0]) == pytest.approx(decay, rel=1e-6)

    def period(trajectory):
        s = np.asarray(trajectory) - 0.2
        up = np.flatnonzero((s[:-1] < 0.0) & (s[1:] >= 0.0))
        times = (up + s[up] / (s[up] - s[up + 1])) * dt  # crossings, interpolated
        return np.diff(times).mean()

    exact = 2 * np.pi / np.sqrt(w2)
    print(f"period: rbda {period(Q):.5f} s, MuJoCo {period(QM):.5f} s, 2 pi / w {exact:.5f} s; amplitude after "
          f"10 s {np.sqrt(energy[-1] / energy[0]):.4f} (closed form {decay:.4f})")
    assert period(Q) == pytest.approx(exact, rel=1e-3)
    assert period(Q) == pytest.approx(period(QM), rel=1e-3)


GRAVCOMP = """
<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <body name="arm" pos="0 0 1" gravcomp="{fraction}">
      <joint name="shoulder" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.03" mass="1"/>
      <body name="hand" pos="0.5 0 0" gravcomp="{fraction}">
        <joint name="wrist" type="hinge" axis="0 1 0"/>
        <geom type="box" size="0.1 0.02 0.02" pos="0.1 0 0" mass="0.3"/>
      </body>
    </body>
    <body name="floater" pos="1 0 1" gravcomp="{fraction}">
      <freejoint/>
      <geom type="sphere" size="0.1" mass="2"/>
    </body>
  </worldbody>
</mujoco>
"""


def test_gravity_compensation_holds_a_body_still_and_matches_mujoco():
    """With ``gravcomp = 1`` a horizontal two-link arm and a free ball stay where they are (1000 steps, within
    round-off); with ``gravcomp = 0.4`` the first step's acceleration is MuJoCo's ``qacc`` (a falling arm and
    ball under 60 % of their weight)."""
    xml = GRAVCOMP.format(fraction=1)
    model = build_model_from_mjcf_string(xml)
    sim = rbda.Simulator(model, GeometryModel(), 0.002)
    q0 = qpos_to_q(model, mujoco.MjModel.from_xml_string(xml).qpos0)
    q, v = q0.copy(), np.zeros(model.nv)
    for _ in range(1000):
        q, v = sim.step(q, v, np.zeros(model.nv))
    assert np.abs(v).max() < 1e-12 and np.abs(q - q0).max() < 1e-12
    xml = GRAVCOMP.format(fraction=0.4)
    mj, d = _mujoco(xml)
    mujoco.mj_forward(mj, d)
    model = build_model_from_mjcf_string(xml)
    sim = rbda.Simulator(model, GeometryModel(), 0.002)
    q = qpos_to_q(model, mj.qpos0)
    _, v = sim.step(q, np.zeros(model.nv), np.zeros(model.nv))
    np.testing.assert_allclose(v / 0.002, d.qacc, atol=1e-9 * np.abs(d.qacc).max())
    assert d.qacc[model.idx_v[3] + 2] == pytest.approx(-0.6 * 9.81)


TENDON = """
<mujoco>
  <option timestep="0.001"/>
  <worldbody>
    <body name="upper" pos="0 0 1">
      <joint name="j1" type="hinge" axis="0 1 0" damping="0.05"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="1"/>
      <body name="lower" pos="0.3 0 0">
        <joint name="j2" type="hinge" axis="0 1 0" damping="0.05"/>
        <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="1"/>
      </body>
    </body>
  </worldbody>
  <tendon>
    <fixed name="sum" limited="true" range="-0.1 0.4">
      <joint joint="j1" coef="-1"/>
      <joint joint="j2" coef="-0.5"/>
    </fixed>
  </tendon>
</mujoco>
"""


def test_a_fixed_tendon_limit_holds():
    """A horizontal two-link arm falls under gravity until its tendon ``L = -q1 - q2 / 2`` reaches its upper
    limit 0.4: the length never exceeds it by more than the correction of one step (1e-3), the rows carry the
    tendon's limit, the arm comes to rest on it as MuJoCo's does (joint angles within 0.01 rad after 3 s:
    MuJoCo's limit is soft), and the compiled step equals the Python stages."""
    model = build_model_from_mjcf_string(TENDON)
    a, b = (rbda.Simulator(model, GeometryModel(), 0.001) for _ in range(2))
    mj, d = _mujoco(TENDON)
    q = np.zeros(2)
    qa, va, qb, vb = q, np.zeros(2), q, np.zeros(2)
    lengths = []
    for _ in range(3000):
        qa, va = a.step(qa, va, np.zeros(2))
        qb, vb = reference_step(b, qb, vb, np.zeros(2))
        mujoco.mj_step(mj, d)
        lengths.append(-qa[0] - 0.5 * qa[1])
    assert max(lengths) < 0.4 + 1e-3 and lengths[-1] == pytest.approx(0.4, abs=1e-4)
    assert [key[0] for key in a.rows.keys] == ["tendon_limit"] and a.rows.keys == b.rows.keys
    np.testing.assert_allclose(qa, qb, atol=1e-9)
    np.testing.assert_allclose(qa, d.qpos, atol=1e-2)
    print(f"tendon at rest: rbda q {qa}, MuJoCo {d.qpos}, MuJoCo's length {d.ten_length[0]:.4f}")


ACTUATORS = """
<mujoco>
  <worldbody>
    <body>
      <joint name="a" type="hinge" axis="0 0 1"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="1"/>
      <body pos="0.3 0 0">
        <joint name="b" type="slide" axis="1 0 0"/>
        <geom type="box" size="0.05 0.05 0.05" mass="1"/>
        <body pos="0.1 0 0">
          <joint name="c" type="hinge" axis="0 1 0"/>
          <geom type="sphere" size="0.05" mass="1"/>
        </body>
      </body>
    </body>
  </worldbody>
  <actuator>
    <motor name="m" joint="a" gear="3" ctrlrange="-1 1"/>
    <position name="p" joint="b" kp="50" ctrlrange="-0.2 0.2" forcerange="-4 4"/>
    <velocity name="v" joint="c" kv="2" gear="1.5"/>
    <motor name="m2" joint="c" gear="-2"/>
  </actuator>
</mujoco>
"""


def test_actuator_torques_match_mujoco_qfrc_actuator():
    """A motor, a position servo with a force range and a velocity servo with a gear, and a second motor on the
    same joint: :func:`actuator_torques` is MuJoCo's ``qfrc_actuator`` at random controls (beyond their ranges
    too) and states."""
    mj, d = _mujoco(ACTUATORS)
    model = build_model_from_mjcf_string(ACTUATORS)
    assert model.mjcf_actuators.names == ["m", "p", "v", "m2"]
    rng = np.random.default_rng(0)
    for _ in range(10):
        d.qpos[:], d.qvel[:], d.ctrl[:] = rng.normal(size=3), rng.normal(size=3), 2 * rng.normal(size=4)
        mujoco.mj_forward(mj, d)
        tau = actuator_torques(model, d.ctrl, d.qpos, d.qvel)
        np.testing.assert_allclose(tau, d.qfrc_actuator, atol=1e-12)
    np.testing.assert_allclose(model.mjcf_actuators.transmission, [[3, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1.5, -2]])
    with pytest.raises(ValueError, match="ctrl: expected shape"):
        actuator_torques(model, np.zeros(3))
    with pytest.raises(ValueError, match="q: needed by actuators with a bias"):
        actuator_torques(model, np.zeros(4))
    with pytest.raises(ValueError, match="ctrl: contains non-finite"):
        actuator_torques(model, [0.0, np.nan, 0.0, 0.0], np.zeros(3), np.zeros(3))


CONTACTS = """
<mujoco>
  <option timestep="0.002"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" condim="3" friction="0.8"/>
    <body name="a" pos="0 0 0.09"><freejoint/><geom name="a" type="sphere" size="0.1" condim="1" friction="1.5"/>
      <body name="a_child" pos="0 0 0.05"><joint type="hinge"/><geom name="a_child" type="sphere" size="0.05"/></body>
    </body>
    <body name="b" pos="0.15 0 0.09"><freejoint/>
      <geom name="b" type="sphere" size="0.1" condim="1" friction="0.3"/></body>
    <body name="c" pos="0.075 0.1 0.09"><freejoint/><geom name="c" type="sphere" size="0.1" friction="0.5"/></body>
    <body name="e" pos="0.075 -0.1 0.09"><freejoint/><geom name="e" type="sphere" size="0.1" friction="0.5"/></body>
  </worldbody>
  <contact><exclude body1="c" body2="e"/></contact>
</mujoco>
"""


def test_load_scene_takes_mujoco_s_pairs_and_friction(tmp_path):
    """Overlapping spheres on the floor, some ``condim 1``: ``load_scene``'s collision pairs are the pairs MuJoCo
    finds in contact (``mj_forward``: a body and its child filtered, an ``exclude`` pair left out), and each pair's
    friction coefficient (the larger of its objects', a ``condim 1`` geom's frictionless twin for its pairs with
    other ``condim 1`` geoms) is MuJoCo's contact friction, 0 where its contact has ``condim 1``."""
    path = tmp_path / "contacts.xml"
    path.write_text(CONTACTS)
    mj, d = _mujoco(CONTACTS)
    mujoco.mj_forward(mj, d)
    name = lambda g: mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_GEOM, g)  # noqa: E731
    found = {frozenset((name(c.geom1), name(c.geom2))): (c.dim, c.friction[0]) for c in d.contact[:d.ncon]}
    assert frozenset(("c", "e")) not in found and frozenset(("a", "a_child")) not in found
    model, geometry = rbda.load_scene(path)
    sim = rbda.Simulator(model, geometry, 0.002)
    objects = geometry.geometry_objects
    pairs = {}
    for i, j in geometry.collision_pairs:
        key = frozenset(objects[k].name.removesuffix("/frictionless") for k in (i, j))
        assert key not in pairs
        pairs[key] = max(sim.friction[i], sim.friction[j])
    assert set(pairs) >= set(found)
    assert not set(pairs) - set(found) - {frozenset(("a_child", "b")), frozenset(("a_child", "c")),
                                          frozenset(("a_child", "e")), frozenset(("a_child", "floor"))}  # apart
    for key, (dim, friction) in found.items():
        assert pairs[key] == pytest.approx(0.0 if dim == 1 else friction), key
    assert pairs[frozenset(("a", "b"))] == 0.0 and pairs[frozenset(("a", "floor"))] == 1.5
    assert "a/frictionless" in [o.name for o in objects]


@pytest.mark.parametrize("snippet, element", [
    ('<tendon><spatial name="cable"><site site="s1"/><site site="s2"/></spatial></tendon>', "tendon 'cable'"),
    ('<tendon><fixed name="rub" frictionloss="1"><joint joint="hinge" coef="1"/></fixed></tendon>', "tendon 'rub'"),
    ('<actuator><muscle name="biceps" joint="hinge"/></actuator>', "actuator 'biceps'"),
    ('<actuator><motor name="tilt" site="s1" gear="0 0 0 1 0 0"/></actuator>', "actuator 'tilt'"),
    ('<actuator><general name="lag" joint="hinge" dyntype="filter" dynprm="0.1"/></actuator>', "actuator 'lag'"),
    ('<equality><joint name="couple" joint1="hinge" polycoef="0.1 0 0 0 0"/></equality>', "equality 'couple'"),
    ('<option density="1000"><flag gravity="disable"/></option>', "option > flag"),
])
def test_what_is_not_simulated_is_refused_by_name(tmp_path, snippet, element):
    """Each part of a file that changes the motion and that the simulator does not model is refused by
    ``load_scene`` (a ``ModelFileError`` naming the file and the element) and by the Simulator (a ``ValueError``
    naming the element), never ignored."""
    xml = f"""<mujoco><worldbody><geom name="floor" type="plane" size="1 1 .1"/>
      <body name="arm" pos="0 0 1"><joint name="hinge" type="hinge" range="-60 60"/><geom type="capsule" size=".02 .1"/>
        <site name="s1"/><body pos="0 0 .3"><joint name="ball" type="ball"/><geom type="sphere" size=".05"/>
        <site name="s2"/></body></body></worldbody>{snippet}</mujoco>"""
    path = tmp_path / "refused.xml"
    path.write_text(xml)
    with pytest.raises(ModelFileError, match="rbda's simulator does not model") as error:
        rbda.load_scene(path)
    assert element in error.value.element and str(path) in str(error.value)
    model = build_model_from_mjcf_string(xml)  # read for kinematics, refused by the simulator
    with pytest.raises(ValueError, match=element.replace(">", ".")):
        rbda.Simulator(model, GeometryModel(), 0.01)


@pytest.mark.parametrize("attributes, element", [
    ('type="ball" stiffness="3"', "joint 'j'"), ('type="ball" range="0 30"', "joint 'j'"),
])
def test_ball_joint_springs_and_cone_limits_are_refused(tmp_path, attributes, element):
    xml = f"""<mujoco><worldbody><body><joint name="j" {attributes}/><geom type="sphere" size=".1"/></body>
      </worldbody></mujoco>"""
    path = tmp_path / "ball.xml"
    path.write_text(xml)
    with pytest.raises(ModelFileError) as error:
        rbda.load_scene(path)
    assert error.value.element == element


@pytest.mark.parametrize("geom, what", [('condim="4"', "condim 4"), ('condim="6"', "condim 6"),
                                        ('priority="1"', "priority 1"), ('fluidshape="ellipsoid"', "fluidshape")])
def test_contact_and_fluid_settings_that_are_not_simulated_are_refused(tmp_path, geom, what):
    xml = f"""<mujoco><option viscosity="0.1"/><worldbody><geom name="floor" type="plane" size="1 1 .1"/>
      <body pos="0 0 .2"><freejoint/><geom name="ball" type="sphere" size=".1" {geom}/></body></worldbody></mujoco>"""
    path = tmp_path / "contact.xml"
    path.write_text(xml)
    with pytest.raises(ModelFileError, match=what) as error:
        rbda.load_scene(path)
    assert error.value.element == "geom 'ball'"


def test_connect_equalities_must_be_passed_to_the_simulator():
    """An MJCF ``connect`` equality is enforced only when passed as a constraint; without, the simulator refuses
    the model rather than drop it."""
    xml = """<mujoco><worldbody><body name="a"><joint type="hinge"/><geom type="capsule" fromto="0 0 0 .3 0 0"
      size=".02"/></body><body name="b" pos=".3 0 0"><joint type="hinge"/><geom type="sphere" size=".05"/></body>
      </worldbody><equality><connect name="pin" body1="a" body2="b" anchor=".3 0 0"/></equality></mujoco>"""
    model = build_model_from_mjcf_string(xml)
    with pytest.raises(ValueError, match=r"constraints: the MJCF equalities \['pin'\]"):
        rbda.Simulator(model, GeometryModel(), 0.01)
    rbda.Simulator(model, GeometryModel(), 0.01, constraints=rbda.io.constraints_from_mjcf(model))


def test_springs_on_multi_dof_joints_are_refused():
    model = rbda.Model()
    model.add_joint(0, rbda.JointModelSpherical(), rbda.SE3(), "ball")
    model.stiffness[:] = 1.0
    with pytest.raises(ValueError, match="model.stiffness: joint 'ball'"):
        rbda.Simulator(model, GeometryModel(), 0.01)


# ------------------------------------------------------------------------------------------------- gymnasium
gymnasium_scenes = pytest.importorskip("benchmarks.scenes.gymnasium")


def _check_gymnasium(name, duration):
    if not gymnasium_scenes.available():
        pytest.skip("gymnasium is not installed")
    summary = gymnasium_scenes.compare(gymnasium_scenes.scene(name, duration))
    print("\n" + gymnasium_scenes.HEADER + "\n" + summary.row())
    problems = gymnasium_scenes.check(summary)
    assert not problems, problems


@pytest.mark.parametrize("name", gymnasium_scenes.MODELS)
def test_gymnasium_robots_step_passively_2s(name):
    """Each of gymnasium's robots (``benchmarks/scenes/gymnasium.py``: its ``qpos0`` made feasible, the unstable
    ones tilted), 2 s at its own timestep under zero torque beside ``mj_step``: no error, no NaN, the mechanical
    energy (with the springs' potential) never more than 0.1 % of its scale above its start (the solver's
    tolerances are 1e-6 and below: its share is far smaller), penetration below 2 cm, the root's height (free
    joint z, or the planar robots' ``rootz``) within 6 cm of MuJoCo's after the fall (measured: 0.1 to 3.4 cm),
    and the final joint positions of the robots without a root within 0.05 of MuJoCo's (measured: 0 to 0.039;
    three not compared, ``gymnasium.NOT_COMPARED`` says why)."""
    _check_gymnasium(name, 2.0)


@pytest.mark.slow
@pytest.mark.parametrize("name", gymnasium_scenes.MODELS)
def test_gymnasium_robots_step_passively_10s(name):
    """As :func:`test_gymnasium_robots_step_passively_2s`, for 10 s: fallen or at rest, the root within 6 cm of
    MuJoCo's at 2 s and at the end (measured: 0.3 to 4.9 cm at the end)."""
    _check_gymnasium(name, 10.0)


def test_tendon_springs_across_branches_and_dead_bands_are_refused(tmp_path):
    """A tendon spring coupling joints of two branches would put ``dt^2 k A^T A`` outside the sparsity of ``M``'s
    factor: the simulator refuses it, naming the tendon; a spring dead band (two ``springlength`` values) is
    refused by ``load_scene``."""
    arms = """<mujoco><worldbody>
      <body name="left"><joint name="a" type="hinge"/><geom type="sphere" size=".1"/></body>
      <body name="right" pos="1 0 0"><joint name="b" type="hinge"/><geom type="sphere" size=".1"/></body>
      </worldbody><tendon><fixed name="across" {attributes}><joint joint="a" coef="1"/><joint joint="b" coef="1"/>
      </fixed></tendon></mujoco>"""
    model = build_model_from_mjcf_string(arms.format(attributes='stiffness="3"'))
    with pytest.raises(ValueError, match="tendon 'across'"):
        rbda.Simulator(model, GeometryModel(), 0.01)
    rbda.Simulator(build_model_from_mjcf_string(arms.format(attributes='limited="true" range="-1 1"')),
                   GeometryModel(), 0.01)  # its limit is a row: any dofs
    path = tmp_path / "band.xml"
    path.write_text(arms.format(attributes='stiffness="3" springlength="0.1 0.4"'))
    with pytest.raises(ModelFileError, match="dead band") as error:
        rbda.load_scene(path)
    assert error.value.element == "tendon 'across'"


def test_mjcf_physics_of_another_model_is_refused():
    """A model changed after it was read (here made a mimic model, which keeps the records) no longer matches its
    ``mjcf_physics``: the simulator refuses to apply it rather than drop it."""
    model = build_model_from_mjcf_string(GRAVCOMP.format(fraction=1))
    mimic = rbda.transform_joint_into_mimic(model, model.get_joint_id("shoulder"), model.get_joint_id("wrist"),
                                            1.0, 0.0)
    with pytest.raises(ValueError, match="model.mjcf_physics: was read for a model of other sizes"):
        rbda.Simulator(mimic, GeometryModel(), 0.01)
    mimic.mjcf_physics = None
    rbda.Simulator(mimic, GeometryModel(), 0.01)


def test_gymnasium_half_cheetah_compiled_equals_the_python_stages():
    """gymnasium's half-cheetah (joint springs, damping, armature, limits, contacts with the floor) from its tilted
    start: the compiled step and the Python stages give the same trajectory, 300 steps (3 s)."""
    if not gymnasium_scenes.available():
        pytest.skip("gymnasium is not installed")
    scene = gymnasium_scenes.scene("half_cheetah", 3.0)
    model, geometry = rbda.load_scene(scene.path())
    a, b = (rbda.Simulator(model, geometry, scene.dt) for _ in range(2))
    assert a.passive.spring_v.size == 6
    q, v = qpos_to_q(model, scene.qpos), qvel_to_v(model, scene.qpos, scene.qvel)
    qa, va, qb, vb = q, v, q, v
    worst = 0.0
    for _ in range(scene.steps):
        qa, va = a.step(qa, va, np.zeros(model.nv))
        qb, vb = reference_step(b, qb, vb, np.zeros(model.nv))
        worst = max(worst, np.abs(qa - qb).max(), np.abs(va - vb).max())
    assert worst < 1e-8
