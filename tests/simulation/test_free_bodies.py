"""A scene of free bodies (every joint a free flyer on the universe): the simulator takes ``M`` from each body's
own spatial inertia (``kernels/dynamics.free_bodies_after_kinematics``) instead of CRBA; checked against CRBA and
the world Jacobian columns of ``compute_joint_jacobians`` at random configurations, and against a scene whose
bodies are not all free."""

import numpy as np

import rbda
from rbda.io import Box, GeometryModel, Sphere
from rbda.joints import JointModelFreeFlyer, JointModelRX
from rbda.kernels.dynamics import free_bodies_after_kinematics
from rbda.simulation import Simulator, add_free_body, add_ground_plane


def free_bodies(rng):
    """Three free bodies with off-centre, anisotropic inertias, and armature on some dofs."""
    model = rbda.Model()
    for k in range(3):
        joint = model.add_joint(0, JointModelFreeFlyer(), rbda.SE3.Identity(), f"body{k}")
        model.append_body_to_joint(joint, rbda.Inertia.Random())
    model.armature = 0.01 * rng.random(model.nv)
    return model


def test_the_bodies_own_inertias_are_crba():
    rng = np.random.default_rng(3)
    model = free_bodies(rng)
    data, reference = model.create_data(), model.create_data()
    for _ in range(5):
        q = rbda.random_configuration(model)
        rbda.compute_joint_jacobians(model, data, q)
        data.M[:] = 0.0  # (it writes the bodies' blocks only)
        free_bodies_after_kinematics(*model.packed, data.ws)
        M = rbda.crba(model, reference, q)
        np.testing.assert_allclose(data.M, M, atol=1e-12)
        np.testing.assert_allclose(data.J, rbda.compute_joint_jacobians(model, reference, q), atol=1e-12)
        assert data.M[0, 0] == model.inertias[1].mass + model.armature[0]  # exact: no rotation to the world


def test_the_simulator_uses_them_for_free_bodies_only():
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "box", Box((0.1, 0.2, 0.3)), 2.0)
    add_free_body(model, cm, "ball", Sphere(0.1), 1.0)
    add_ground_plane(model, cm)
    assert Simulator(model, cm, 1e-3)._settings[0]["free_bodies"]
    arm = rbda.Model()
    joint = arm.add_joint(0, JointModelFreeFlyer(), rbda.SE3.Identity(), "base")
    arm.append_body_to_joint(joint, rbda.Inertia.Random())
    joint = arm.add_joint(joint, JointModelRX(), rbda.SE3.Identity(), "link")
    arm.append_body_to_joint(joint, rbda.Inertia.Random())
    assert not Simulator(arm, GeometryModel(), 1e-3)._settings[0]["free_bodies"]


def test_a_tumbling_body_keeps_its_energy_and_momentum():
    """In free flight (no contact, no gravity) a spinning, off-centre body keeps its kinetic energy and its world
    momentum to the integrator's accuracy: what M and the bias forces of free bodies must give."""
    rng = np.random.default_rng(5)
    model = free_bodies(rng)
    model.armature = np.zeros(model.nv)
    model.gravity = rbda.Motion.Zero()
    sim = Simulator(model, GeometryModel(), 1e-4)
    q, v = rbda.random_configuration(model), rng.standard_normal(model.nv)
    data = model.create_data()

    def energy_and_momentum(q, v):
        M = rbda.crba(model, data, q)
        rbda.forward_kinematics(model, data, q, v)
        h = [data.oMi[i].act(rbda.Force(model.inertias[i].matrix() @ data.v[i])).vector for i in range(1, 4)]
        return 0.5 * v @ M @ v, np.array(h)

    e0, h0 = energy_and_momentum(q, v)
    Q, V = sim.rollout(q, v, np.zeros((2000, model.nv)))
    e1, h1 = energy_and_momentum(Q[-1], V[-1])
    assert abs(e1 - e0) < 1e-4 * e0  # (1.7e-5 seen)
    np.testing.assert_allclose(h1, h0, atol=5e-5 * np.abs(h0).max())  # (4.4e-6 seen)
