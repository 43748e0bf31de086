"""Configuration space of whole models: the model's Lie-group operations agree with its joints' and obey the
group identities."""

import numpy as np
import pytest
from conftest import assert_close, random_state

import rbda


def joint_slices(model):
    for i in range(1, model.njoints):
        yield (model.joints[i], slice(model.idx_q[i], model.idx_q[i] + model.nqs[i]),
               slice(model.idx_v[i], model.idx_v[i] + model.nvs[i]))


def test_model_operations_act_joint_by_joint(model):
    rng = np.random.default_rng(0)
    q0, q1 = rbda.random_configuration(model, rng=rng), rbda.random_configuration(model, rng=rng)
    v = rng.normal(size=model.nv)
    qi, dq, qn = rbda.integrate(model, q0, v), rbda.difference(model, q0, q1), rbda.neutral(model)
    for joint, sq, sv in joint_slices(model):
        assert_close(qi[sq], joint.integrate(q0[sq], v[sv]), 1e-15)
        assert_close(dq[sv], joint.difference(q0[sq], q1[sq]), 1e-15)
        assert_close(qn[sq], joint.neutral(), 0.0)


def test_integrate_difference_round_trip(model):
    rng = np.random.default_rng(1)
    q0, q1 = rbda.random_configuration(model, rng=rng), rbda.random_configuration(model, rng=rng)
    q = rbda.integrate(model, q0, rbda.difference(model, q0, q1))
    assert rbda.is_same_configuration(model, q, q1, 1e-12)
    v = 0.1 * rng.normal(size=model.nv)
    assert_close(rbda.difference(model, q0, rbda.integrate(model, q0, v)), v, 1e-12)


def test_interpolate_distance_and_neutral(model):
    rng = np.random.default_rng(2)
    q0, q1 = rbda.random_configuration(model, rng=rng), rbda.random_configuration(model, rng=rng)
    assert rbda.is_same_configuration(model, rbda.interpolate(model, q0, q1, 0.0), q0, 1e-12)
    assert rbda.is_same_configuration(model, rbda.interpolate(model, q0, q1, 1.0), q1, 1e-12)
    d = rbda.difference(model, q0, q1)
    assert_close(rbda.difference(model, q0, rbda.interpolate(model, q0, q1, 0.25)), 0.25 * d, 1e-12)
    sq = rbda.squared_distance(model, q0, q1)
    assert sq.shape == (model.njoints - 1,)
    assert_close(sq, [d[sv] @ d[sv] for _, _, sv in joint_slices(model)], 1e-14)
    assert_close(rbda.distance(model, q0, q1), np.linalg.norm(d), 1e-14)
    assert rbda.distance(model, q0, q0) == pytest.approx(0.0, abs=1e-14)
    qn = rbda.neutral(model)
    assert rbda.is_normalized(model, qn)
    data = model.create_data()
    rbda.forward_kinematics(model, data, qn)
    for i in range(1, model.njoints):  # at the neutral configuration every joint placement is the identity
        expected = model.joint_placements[i]
        if isinstance(model.joints[i], rbda.JointModelComposite):  # ... but a composite keeps its inner placements
            for placement in model.joints[i].placements:
                expected = expected * placement
        if isinstance(model.joints[i], rbda.JointModelMimic):  # ... and a mimic joint is at its offset
            expected = expected * model.joints[i].calc(qn[model.idx_q[i] : model.idx_q[i] + 1])[0]
        assert data.liMi[i].is_approx(expected, 1e-14)


def test_random_configuration_respects_limits_and_the_manifold(model):
    rng = np.random.default_rng(3)
    for _ in range(5):
        q = rbda.random_configuration(model, rng=rng)
        assert q.shape == (model.nq,) and np.all(np.isfinite(q))
        assert rbda.is_normalized(model, q)
    lower, upper = np.full(model.nq, -0.2), np.full(model.nq, 0.3)
    q = rbda.random_configuration(model, lower, upper, rng=rng)
    assert rbda.is_normalized(model, q)
    for joint, sq, _ in joint_slices(model):
        if joint.type in (rbda.JointType.REVOLUTE, rbda.JointType.PRISMATIC, rbda.JointType.HELICAL,
                          rbda.JointType.TRANSLATION, rbda.JointType.SPHERICAL_ZYX, rbda.JointType.UNIVERSAL):
            assert np.all((q[sq] >= -0.2) & (q[sq] <= 0.3))
    with pytest.raises(ValueError, match="lower"):
        rbda.random_configuration(model, upper, lower)


def test_random_configuration_uses_the_model_limits():
    model = rbda.sample_models.manipulator()
    rng = np.random.default_rng(4)
    Q = np.array([rbda.random_configuration(model, rng=rng) for _ in range(50)])
    assert np.all(Q >= model.lower_position_limit) and np.all(Q <= model.upper_position_limit)


def test_normalize_and_same_configuration(model):
    rng = np.random.default_rng(5)
    q = rbda.random_configuration(model, rng=rng)
    assert_close(rbda.normalize(model, q), q, 1e-15)
    bad = q.copy()
    for i in range(1, model.njoints):
        if model.joints[i].type in (rbda.JointType.SPHERICAL, rbda.JointType.FREE_FLYER):
            s = slice(model.idx_q[i] + model.nqs[i] - 4, model.idx_q[i] + model.nqs[i])
            flipped = q.copy()
            flipped[s] *= -1.0  # -quat is the same rotation
            assert rbda.is_same_configuration(model, q, flipped, 1e-12)
            bad[s] *= 3.0
    assert not rbda.is_normalized(model, bad)
    assert rbda.is_normalized(model, rbda.normalize(model, bad))
    assert_close(rbda.normalize(model, bad), q, 1e-14)
    q2, _, _ = random_state(model, 6)
    assert not rbda.is_same_configuration(model, q, q2)
