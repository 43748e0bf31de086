"""Identities between RNEA, CRBA, ABA, M^-1 and the Coriolis matrix on random models of every
joint type, with and without free-flyer root; energy and gravity from the bodies' own inertias."""

from functools import partial

import numpy as np
from conftest import assert_close, derivative_along, jacobian_along_basis, random_state

import rbda
from rbda import LOCAL, Force


def test_aba_inverts_rnea(model):
    data = model.create_data()
    for seed in range(2):
        q, v, a = random_state(model, seed)
        tau = rbda.rnea(model, data, q, v, a).copy()
        assert_close(rbda.aba(model, data, q, v, tau), a, 1e-9)


def test_crba_columns_are_rnea_differences(model):
    data = model.create_data()
    q, _, _ = random_state(model, 1)
    z = np.zeros(model.nv)
    g = rbda.rnea(model, data, q, z, z).copy()
    M = rbda.crba(model, data, q).copy()
    for i in range(model.nv):
        assert_close(M[:, i], rbda.rnea(model, data, q, z, np.eye(model.nv)[i]) - g, 1e-10, f"column {i}")


def test_mass_matrix_is_symmetric_positive_definite_and_minverse_inverts_it(model):
    data = model.create_data()
    q, _, _ = random_state(model, 2)
    M = rbda.crba(model, data, q).copy()
    assert_close(M, M.T, 1e-13)
    assert np.linalg.eigvalsh(M).min() > 0.0
    Minv = rbda.compute_minverse(model, data, q)
    assert_close(M @ Minv, np.eye(model.nv), 1e-9)
    assert_close(Minv, Minv.T, 1e-9)


def test_nonlinear_effects_gravity_and_all_terms_agree_with_rnea(model):
    data, ref = model.create_data(), model.create_data()
    q, v, _ = random_state(model, 3)
    z = np.zeros(model.nv)
    nle, g = rbda.rnea(model, ref, q, v, z).copy(), rbda.rnea(model, ref, q, z, z).copy()
    M = rbda.crba(model, ref, q).copy()
    assert_close(rbda.nonlinear_effects(model, data, q, v), nle, 1e-13)
    assert_close(rbda.compute_generalized_gravity(model, data, q), g, 1e-13)
    data = model.create_data()
    rbda.compute_all_terms(model, data, q, v)
    assert_close(data.M, M, 1e-13)
    assert_close(data.nle, nle, 1e-13)
    assert_close(data.g, g, 1e-13)


def test_coriolis_matrix(model):
    """``C v = nle - g`` and ``dM/dt - 2 C`` is skew-symmetric, with ``dM/dt`` by central differences of CRBA
    along ``q (+) t v``."""
    data = model.create_data()
    q, v, _ = random_state(model, 4)
    z = np.zeros(model.nv)
    C = rbda.compute_coriolis_matrix(model, data, q, v).copy()
    nle, g = rbda.rnea(model, data, q, v, z).copy(), rbda.rnea(model, data, q, z, z).copy()
    assert_close(C @ v, nle - g, 1e-10)
    integrate = partial(rbda.integrate, model)
    M_dot = derivative_along(integrate, lambda q_: rbda.crba(model, data, q_).copy(), q, v)
    N = M_dot - 2.0 * C
    assert_close(N, -N.T, 1e-6)
    assert_close(M_dot, C + C.T, 1e-6)


def test_kinetic_energy_is_the_sum_over_bodies(model):
    """``0.5 v^T M v == sum_i 0.5 V_i^T Y_i V_i`` with ``V_i`` the local body velocities of forward kinematics
    and ``Y_i`` the body inertias of the model."""
    data = model.create_data()
    q, v, _ = random_state(model, 5)
    M = rbda.crba(model, data, q).copy()
    rbda.forward_kinematics(model, data, q, v)
    bodies = sum(0.5 * data.v[i] @ model.inertias[i].matrix() @ data.v[i] for i in range(1, model.njoints))
    assert_close(0.5 * v @ M @ v, bodies, 1e-10)


def test_generalized_gravity_is_the_gradient_of_the_potential_energy(model):
    """``g(q) = dU/dq`` with ``U = -sum_i m_i g . c_i`` (``c_i`` the world centre of mass of body i),
    differentiated on the manifold."""
    data, fd = model.create_data(), model.create_data()
    q, _, _ = random_state(model, 6)

    def potential(q_):
        rbda.forward_kinematics(model, fd, q_)
        gravity = model.gravity.linear
        return -sum(model.inertias[i].mass * gravity @ fd.oMi[i].act(model.inertias[i].lever)
                    for i in range(1, model.njoints))

    dU = jacobian_along_basis(partial(rbda.integrate, model), potential, q, model.nv)
    assert_close(rbda.compute_generalized_gravity(model, data, q), dU, 1e-7)


def random_forces(model, seed):
    rng = np.random.default_rng(seed)
    return [Force.Zero()] + [Force(rng.normal(size=6)) for _ in range(1, model.njoints)]


def test_rnea_with_external_forces_subtracts_their_generalized_forces(model):
    """``rnea(q, v, a, fext) = rnea(q, v, a) - sum_i J_i^T f_i`` (``J_i`` LOCAL, ``f_i`` in joint i's frame)."""
    data = model.create_data()
    q, v, a = random_state(model, 7)
    fext = random_forces(model, 7)
    tau = rbda.rnea(model, data, q, v, a).copy()
    rbda.compute_joint_jacobians(model, data, q)
    JTf = sum(rbda.get_joint_jacobian(model, data, i, LOCAL).T @ fext[i].vector for i in range(1, model.njoints))
    assert_close(rbda.rnea(model, data, q, v, a, fext), tau - JTf, 1e-10)
    as_array = np.array([f.vector for f in fext])
    assert_close(rbda.rnea(model, data, q, v, a, as_array), tau - JTf, 1e-10)
    z = np.zeros(model.nv)
    g = rbda.rnea(model, data, q, z, z).copy()
    assert_close(rbda.compute_static_torque(model, data, q, fext), g - JTf, 1e-10)


def test_aba_with_external_forces_inverts_rnea_with_them(model):
    data = model.create_data()
    q, v, a = random_state(model, 8)
    fext = random_forces(model, 8)
    tau = rbda.rnea(model, data, q, v, a, fext).copy()
    assert_close(rbda.aba(model, data, q, v, tau, fext), a, 1e-9)
    assert not np.allclose(rbda.aba(model, data, q, v, tau), a)


def test_armature_enters_mass_matrix_rnea_and_aba_consistently(model):
    data = model.create_data()
    q, v, a = random_state(model, 9)
    M = rbda.crba(model, data, q).copy()
    tau = rbda.rnea(model, data, q, v, a).copy()
    armature = np.random.default_rng(9).uniform(0.0, 0.5, model.nv)
    model.armature = armature
    assert_close(rbda.crba(model, data, q), M + np.diag(armature), 1e-12)
    assert_close(rbda.rnea(model, data, q, v, a), tau + armature * a, 1e-12)
    assert_close(rbda.aba(model, data, q, v, tau + armature * a), a, 1e-9)
    assert_close(rbda.compute_minverse(model, data, q) @ (M + np.diag(armature)), np.eye(model.nv), 1e-9)


def test_free_body_dynamics_is_newton_euler():
    """A single free-flyer body: ``tau`` is the body wrench ``Y a + v x* Y v`` with gravity as ``a_0 = -g``."""
    rng = np.random.default_rng(10)
    model = rbda.Model()
    j = model.add_joint(0, rbda.JointModelFreeFlyer(), rbda.SE3.Random(rng), "body")
    Y = rbda.Inertia.Random(rng)
    model.append_body_to_joint(j, Y)
    data = model.create_data()
    q, v, a = random_state(model, 10)
    rbda.forward_kinematics(model, data, q)
    g_local = data.oMi[j].rotation.T @ model.gravity.linear
    a_gf = a - np.concatenate([g_local, np.zeros(3)])
    h = Y.matrix() @ v  # momentum [l; k]; v x* h = [w x l; w x k + v_lin x l]
    bias = np.concatenate([np.cross(v[3:], h[:3]), np.cross(v[3:], h[3:]) + np.cross(v[:3], h[:3])])
    expected = Y.matrix() @ a_gf + bias
    assert_close(rbda.rnea(model, data, q, v, a), expected, 1e-12)
