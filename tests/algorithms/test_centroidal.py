"""Centroidal quantities: momentum against the sum of body momenta about the CoM and against Ag v, the
centroidal inertia against the composite inertia at the CoM, time derivatives against finite differences in
time, Pinocchio (when installed), batches and input errors."""

import numpy as np
import pytest
from conftest import MODEL_CASES, assert_close, random_model, random_state

import rbda
from rbda import SE3, Inertia, Motion


def about_com(model, data, q, v):
    """``(hg, Ig matrix, com)`` from their definition: body momenta ``oMi.act(Y_i v_i)`` and inertias summed in
    the world frame, moved to the CoM (spatial classes)."""
    rbda.forward_kinematics(model, data, q, v)
    h = np.zeros(6)
    Y = Inertia.Zero()
    for i in range(1, model.njoints):
        h += data.oMi[i].act(model.inertias[i] * Motion(data.v[i])).vector
        Y = Y + data.oMi[i].act(model.inertias[i])
    c = SE3(np.eye(3), Y.lever)
    return c.act_inv(rbda.Force(h)).vector, c.act_inv(Y).matrix(), Y.lever


def test_momentum_is_sum_of_body_momenta_and_Ag_v(model):
    data = model.create_data()
    q, v, _ = random_state(model)
    h_ref, I_ref, c_ref = about_com(model, model.create_data(), q, v)
    assert_close(rbda.compute_centroidal_momentum(model, data, q, v), h_ref)
    assert_close(data.com[0], c_ref)
    assert_close(data.vcom[0] * data.mass[0], h_ref[:3])
    Ag = rbda.ccrba(model, data, q, v)
    assert_close(Ag @ v, h_ref)
    assert_close(data.hg, h_ref)
    assert_close(data.Ig, I_ref)
    assert_close(rbda.compute_centroidal_map(model, model.create_data(), q), Ag)


def test_time_derivatives_by_finite_differences(model):
    data = model.create_data()
    q, v, a = random_state(model)
    scratch = model.create_data()
    eps = 1e-6

    def in_time(f):
        return (np.array(f(eps)) - np.array(f(-eps))) / (2 * eps)

    dhg = rbda.compute_centroidal_momentum_time_variation(model, data, q, v, a).copy()
    assert_close(dhg, in_time(lambda t: rbda.compute_centroidal_momentum(model, scratch, rbda.integrate(model, q, t * v), v + t * a)), 1e-6)
    assert_close(data.hg, rbda.compute_centroidal_momentum(model, scratch, q, v))
    assert_close(data.acom[0] * data.mass[0], dhg[:3])
    dAg = rbda.dccrba(model, data, q, v).copy()
    assert_close(dAg, in_time(lambda t: rbda.compute_centroidal_map(model, scratch, rbda.integrate(model, q, t * v)).copy()), 1e-6)
    assert_close(dAg @ v + data.Ag @ a, dhg, 1e-9)
    assert_close(rbda.compute_centroidal_map_time_variation(model, data, q, v), dAg)


def test_batch_matches_single_state():
    model = rbda.sample_models.every_joint()
    data = model.create_data()
    rng = np.random.default_rng(5)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(5)])
    V = rng.normal(size=(5, model.nv))
    Ag, hg = rbda.batch.ccrba(model, Q, V), rbda.batch.compute_centroidal_momentum(model, Q, V)
    for b in range(5):
        assert_close(Ag[b], rbda.ccrba(model, data, Q[b], V[b]), 1e-13)
        assert_close(hg[b], rbda.compute_centroidal_momentum(model, data, Q[b], V[b]), 1e-13)
    with pytest.raises(ValueError, match="V"):
        rbda.batch.ccrba(model, Q, V[:3])


def test_bad_input():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q, v, a = random_state(model)
    with pytest.raises(ValueError, match="v"):
        rbda.ccrba(model, data, q, v[:2])
    with pytest.raises(ValueError, match="a: contains non-finite"):
        rbda.compute_centroidal_momentum_time_variation(model, data, q, v, np.full(model.nv, np.nan))
    with pytest.raises(ValueError, match="q"):
        rbda.compute_centroidal_map(model, data, np.zeros(model.nq + 1))


@pytest.mark.parametrize("case", MODEL_CASES[:4], ids=str)
def test_against_pinocchio(case):
    """dAg only on joints whose subspace is constant: Pinocchio's dJ leaves out dS/dt (rbda's matches finite
    differences, see above)."""
    pin = pytest.importorskip("pinocchio")
    from test_against_pinocchio import pinocchio_joint_types
    from rbda.interop.pinocchio import to_pinocchio

    for joints in (pinocchio_joint_types(), pinocchio_joint_types(with_q_dependent_subspace=False)):
        model = random_model(*case, joints=joints)
        data, pm = model.create_data(), to_pinocchio(model)
        pd = pm.createData()
        q, v, a = random_state(model, 1)
        assert_close(rbda.ccrba(model, data, q, v), pin.ccrba(pm, pd, q, v))
        assert_close(data.hg, pd.hg.vector)
        assert_close(data.Ig, pd.Ig.matrix())
        assert_close(rbda.compute_centroidal_momentum(model, data, q, v), pin.computeCentroidalMomentum(pm, pd, q, v).vector)
        assert_close(rbda.compute_centroidal_momentum_time_variation(model, data, q, v, a),
                     pin.computeCentroidalMomentumTimeVariation(pm, pd, q, v, a).vector)
        assert_close(rbda.compute_centroidal_map(model, data, q), pin.computeCentroidalMap(pm, pd, q))
    assert_close(rbda.dccrba(model, data, q, v), pin.dccrba(pm, pd, q, v))
