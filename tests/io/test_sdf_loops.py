"""SDFormat loop closures: a planar four-bar linkage whose fourth joint closes the loop loads as a three-joint tree
plus a CONTACT_3D constraint (``rbda.io.constraints_from_sdf``); simulated with ``rbda.constraint_dynamics`` the
constraint holds (``J ddq + gamma = a_c``, errors stay small) and the rocker follows the closed-form four-bar
(circle intersection) for the crank angle reached."""

import numpy as np
import pytest

import rbda
from rbda import CONTACT_3D, CONTACT_6D
from rbda.io import ModelFileError, constraints_from_sdf
from rbda.io.sdf import build_model_from_sdf_string

A, D, C = 1.0, 2.0, 1.5  # crank, ground, rocker lengths; the coupler closes the loop at the file's pose
PHI0 = np.pi / 3  # the rocker's angle at the file's pose (the crank points along y)
B_POINT = np.array([0.0, A])
C_POINT = np.array([D + C * np.cos(PHI0), C * np.sin(PHI0)])
COUPLER = np.linalg.norm(C_POINT - B_POINT)


def bar(name, pose, along, length, mass=1.0):
    """A slender link of ``length`` from its frame along the unit 2D direction ``along``."""
    cx, cy = 0.5 * length * along
    i = mass * length**2 / 12
    return (f'<link name="{name}"><pose>{pose[0]} {pose[1]} 0 0 0 0</pose><inertial><pose>{cx} {cy} 0 0 0 0</pose>'
            f'<mass>{mass}</mass><inertia><ixx>{i + 1e-3}</ixx><iyy>{i + 1e-3}</iyy><izz>{i + 1e-3}</izz></inertia>'
            "</inertial></link>")


def revolute(name, parent, child, pose=None):
    p = f'<pose relative_to="{child}">{pose[0]} {pose[1]} 0 0 0 0</pose>' if pose is not None else ""
    return (f'<joint name="{name}" type="revolute">{p}<parent>{parent}</parent><child>{child}</child>'
            "<axis><xyz>0 0 1</xyz></axis></joint>")


def fourbar_sdf(loop_kind="revolute"):
    rocker_dir = np.array([np.cos(PHI0), np.sin(PHI0)])
    coupler_dir = (C_POINT - B_POINT) / COUPLER
    loop = revolute("C", "coupler", "rocker", C * rocker_dir)
    if loop_kind != "revolute":
        loop = loop.replace('type="revolute"', f'type="{loop_kind}"').replace("<axis><xyz>0 0 1</xyz></axis>", "")
    return ('<sdf version="1.7"><model name="fourbar">'
            '<link name="ground"><inertial><mass>5</mass></inertial></link>'
            + bar("crank", (0, 0), np.array([0.0, 1.0]), A) + revolute("A", "ground", "crank")
            + bar("coupler", B_POINT, coupler_dir, COUPLER) + revolute("B", "crank", "coupler")
            + bar("rocker", (D, 0), rocker_dir, C) + revolute("D", "ground", "rocker")
            + loop + "</model></sdf>")


def rocker_angle(theta):
    """Closed form: the rocker angle (from +x at the pivot (D, 0)) for crank angle ``theta`` (from +y), on the
    branch of the file's pose: C is an intersection of the circles |C - B| = coupler and |C - (D, 0)| = C."""
    B = A * np.array([-np.sin(theta), np.cos(theta)])
    P = np.array([D, 0.0])
    d = np.linalg.norm(P - B)
    x = (d**2 + COUPLER**2 - C**2) / (2 * d)
    h = np.sqrt(COUPLER**2 - x**2)
    u = (P - B) / d
    n = np.array([-u[1], u[0]])
    point = B + x * u + h * n  # the branch with C above the ground line at the file's pose
    return np.arctan2(point[1], point[0] - D)


def test_the_loop_joint_becomes_a_constraint():
    model = build_model_from_sdf_string(fourbar_sdf())
    assert [j.name for j in model.sdf_loop_joints] == ["C"]
    assert model.nq == 3 and [model.names[i] for i in range(1, 4)] == ["A", "B", "D"]
    (cm,) = constraints_from_sdf(model)
    assert cm.type == CONTACT_3D and cm.name == "C"
    assert (cm.joint1_id, cm.joint2_id) == (model.get_joint_id("D"), model.get_joint_id("B"))
    assert abs(rocker_angle(0.0) - PHI0) < 1e-12
    data, cd = model.create_data(), cm.create_data()
    rbda.constraint_dynamics(model, data, np.zeros(3), np.zeros(3), np.zeros(3), [cm], [cd],
                             rbda.ProximalSettings(1e-12, 1e-8, 100))
    assert np.max(np.abs(cd.contact_placement_error)) < 1e-12  # closed at the file's pose
    fixed = constraints_from_sdf(build_model_from_sdf_string(fourbar_sdf("fixed")))
    assert fixed[0].type == CONTACT_6D
    with pytest.raises(ValueError, match="sdf_loop_joints"):
        constraints_from_sdf(rbda.sample_models.manipulator())


def test_simulated_fourbar_follows_the_closed_form():
    model = build_model_from_sdf_string(fourbar_sdf())
    model.gravity = rbda.Motion(np.array([0.0, -9.81, 0.0, 0.0, 0.0, 0.0]))  # in the plane of the linkage
    (cm,) = constraints_from_sdf(model)
    cm.set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(100.0, 20.0))
    data, cds = model.create_data(), [cm.create_data()]
    settings = rbda.ProximalSettings(1e-13, 1e-9, 200)  # the out-of-plane row is redundant
    q = np.zeros(3)
    rbda.constraint_dynamics(model, data, q, np.zeros(3), np.zeros(3), [cm], cds, settings)
    J = cds[0].jacobian.copy()
    v = np.linalg.svd(J)[2][-1]  # a velocity along the linkage's single degree of freedom
    v *= 2.0 / v[0]
    dt, worst_rows, worst_angle = 1e-3, 0.0, 0.0

    def accel(qq, vv):
        ddq = rbda.constraint_dynamics(model, data, qq, vv, np.zeros(3), [cm], cds, settings).copy()
        cd = cds[0]  # the constraint rows at this state: J ddq + gamma = a_c (the corrector's, ~0 on the loop)
        return ddq, np.max(np.abs(cd.jacobian @ ddq + cd.contact_acceleration_drift - cd.contact_acceleration_desired))

    for _ in range(400):  # Runge-Kutta 4 on (q, v)
        a1, r1 = accel(q, v)
        a2, r2 = accel(rbda.integrate(model, q, 0.5 * dt * v), v + 0.5 * dt * a1)
        v2 = v + 0.5 * dt * a1
        a3, r3 = accel(rbda.integrate(model, q, 0.5 * dt * v2), v + 0.5 * dt * a2)
        v3 = v + 0.5 * dt * a2
        a4, r4 = accel(rbda.integrate(model, q, dt * v3), v + dt * a3)
        v4 = v + dt * a3
        q = rbda.integrate(model, q, dt / 6 * (v + 2 * v2 + 2 * v3 + v4))
        v = v + dt / 6 * (a1 + 2 * a2 + 2 * a3 + a4)
        worst_rows = max(worst_rows, r1, r2, r3, r4)
        worst_angle = max(worst_angle, abs(np.angle(np.exp(1j * (PHI0 + q[2] - rocker_angle(q[0]))))))
        assert np.max(np.abs(cds[0].contact_placement_error)) < 1e-8  # at the last Runge-Kutta stage
    assert abs(q[0]) > 0.3  # the crank turned
    assert worst_rows < 1e-10  # observed ~1e-14
    assert worst_angle < 1e-9  # observed ~4e-12


def test_loop_joint_errors_name_the_joint():
    text = fourbar_sdf().replace('type="revolute"><pose relative_to="rocker"', 'type="prismatic"><pose relative_to="rocker"')
    with pytest.raises(ModelFileError, match="joint 'C'.*closes a loop"):
        build_model_from_sdf_string(text)
