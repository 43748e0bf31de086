"""Every joint type alone: its placement against closed forms, ``calc`` against finite differences taken with the
joint's own ``integrate``, and its configuration Lie group."""

import numpy as np
import pytest
from conftest import assert_close, close, derivative_along, jacobian_along_basis
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.transform import Rotation

import rbda
from rbda.joints import JointType
from rbda.spatial import SE3, exp6, log6

JOINTS = rbda.sample_models.all_joint_types()
JOINT_IDS = [f"{k}-{j.shortname()}" for k, j in enumerate(JOINTS)]
every_joint = pytest.mark.parametrize("joint", JOINTS, ids=JOINT_IDS)

#: the part of q that lies on a unit circle or sphere, per joint type (docs/architecture.md layouts)
UNIT_NORM_PART = {
    JointType.FREE_FLYER: slice(3, 7),
    JointType.SPHERICAL: slice(0, 4),
    JointType.REVOLUTE_UNBOUNDED: slice(0, 2),
    JointType.PLANAR: slice(2, 4),
}
#: the part of v that is a rotation vector or angle, per joint type (where exp and log wrap around at pi)
ANGULAR_PART = {
    JointType.FREE_FLYER: slice(3, 6),
    JointType.SPHERICAL: slice(0, 3),
    JointType.REVOLUTE_UNBOUNDED: slice(0, 1),
    JointType.PLANAR: slice(2, 3),
}
#: rotation angles near the identity (series branches) and near pi (where log is worst conditioned)
SPECIAL_ANGLES = [0.0, 1e-12, 1e-9, 1e-7, 1e-5, 1e-4, 1e-3, 0.1, 1.0, 2.0, np.pi - 1e-3, np.pi - 1e-5, np.pi - 1e-7]
#: joints whose motion subspace depends on q (their configuration space is R^n, not a subgroup of SE(3))
Q_DEPENDENT_SUBSPACE = {JointType.UNIVERSAL, JointType.SPHERICAL_ZYX, JointType.COMPOSITE}


def random_q(joint, rng):
    return joint.random(rng, -np.ones(joint.nq), np.ones(joint.nq))


def relative_motion(joint, M0: SE3):
    """``q -> log6(M0^-1 M(q))``: the body-frame twist from ``M0`` to the joint's placement at ``q``."""
    return lambda q: log6(M0.inverse() * joint.calc(q)[0]).vector


def expected_placement(joint, q) -> tuple:
    """``(R, p)`` of the joint at ``q`` from closed forms built with scipy (independent of rbda's kernels)."""
    t, a = joint.type, joint.params[:3]
    if t == JointType.REVOLUTE:
        return Rotation.from_rotvec(a * q[0]).as_matrix(), np.zeros(3)
    if t == JointType.REVOLUTE_UNBOUNDED:
        return Rotation.from_rotvec(a * np.arctan2(q[1], q[0])).as_matrix(), np.zeros(3)
    if t == JointType.PRISMATIC:
        return np.eye(3), a * q[0]
    if t == JointType.HELICAL:
        return Rotation.from_rotvec(a * q[0]).as_matrix(), joint.params[3] * q[0] * a
    if t == JointType.UNIVERSAL:
        a2 = joint.params[3:6]
        return (Rotation.from_rotvec(a * q[0]) * Rotation.from_rotvec(a2 * q[1])).as_matrix(), np.zeros(3)
    if t == JointType.SPHERICAL:
        return Rotation.from_quat(q).as_matrix(), np.zeros(3)  # scipy's quaternions are [x, y, z, w] too
    if t == JointType.SPHERICAL_ZYX:
        return Rotation.from_euler("ZYX", q).as_matrix(), np.zeros(3)  # intrinsic: Rz(q0) Ry(q1) Rx(q2)
    if t == JointType.TRANSLATION:
        return np.eye(3), q
    if t == JointType.PLANAR:
        return Rotation.from_rotvec([0.0, 0.0, np.arctan2(q[3], q[2])]).as_matrix(), np.array([q[0], q[1], 0.0])
    if t == JointType.FREE_FLYER:
        return Rotation.from_quat(q[3:]).as_matrix(), q[:3]
    if t == JointType.COMPOSITE:  # the product of its sub-joints' closed forms, each after its placement
        R, p, o = np.eye(3), np.zeros(3), 0
        for sub, P in zip(joint.joints, joint.placements):
            Rk, pk = expected_placement(sub, q[o : o + sub.nq])
            R, p = R @ P.rotation, p + R @ P.translation
            R, p = R @ Rk, p + R @ pk
            o += sub.nq
        return R, p
    raise AssertionError(f"no closed form for {joint!r}")


# ------------------------------------------------------------------------------------------------ kinematics
@every_joint
def test_placement_matches_closed_form(joint):
    rng = np.random.default_rng(0)
    for _ in range(3):
        q = random_q(joint, rng)
        M = joint.calc(q)[0]
        R, p = expected_placement(joint, q)
        assert_close(M.rotation, R, 1e-12)
        assert_close(M.translation, p, 1e-12)


@every_joint
def test_joint_velocity_is_motion_subspace_times_v(joint):
    rng = np.random.default_rng(1)
    q, v = random_q(joint, rng), rng.normal(size=joint.nv)
    _, S, vJ, _ = joint.calc(q, v)
    assert S.shape == (6, joint.nv)
    assert_close(vJ.vector, S @ v, 1e-13)


@every_joint
def test_joint_velocity_is_time_derivative_of_placement(joint):
    """``log6(M(q)^-1 M(q (+) t v)) / t -> v_J`` (body frame), by central differences."""
    rng = np.random.default_rng(2)
    q, v = random_q(joint, rng), rng.normal(size=joint.nv)
    M0, _, vJ, _ = joint.calc(q, v)
    assert_close(derivative_along(joint.integrate, relative_motion(joint, M0), q, v), vJ.vector, 1e-8)


@every_joint
def test_motion_subspace_matches_finite_differences(joint):
    rng = np.random.default_rng(3)
    q = random_q(joint, rng)
    M0, S, _, _ = joint.calc(q)
    assert_close(jacobian_along_basis(joint.integrate, relative_motion(joint, M0), q, joint.nv), S, 1e-8)


@every_joint
def test_bias_is_time_derivative_of_motion_subspace(joint):
    """``c_J = (dS/dt) v`` with ``dS/dt`` by central differences of ``S`` along ``q (+) t v``; and
    ``motion_subspace_derivative`` is that ``dS/dt``."""
    rng = np.random.default_rng(4)
    q, v = random_q(joint, rng), rng.normal(size=joint.nv)
    dS = derivative_along(joint.integrate, lambda qq: joint.calc(qq)[1], q, v)
    cJ = joint.calc(q, v)[3]
    assert_close(cJ.vector, dS @ v, 1e-8)
    assert_close(joint.motion_subspace_derivative(q, v), dS, 1e-8)
    if joint.type in Q_DEPENDENT_SUBSPACE:
        assert np.linalg.norm(dS) > 1e-3  # the check above is not vacuous for these joints


# ------------------------------------------------------------------------------------------------ Lie group
@every_joint
def test_integrate_difference_round_trip(joint):
    rng = np.random.default_rng(5)
    for _ in range(5):
        q0, q1 = random_q(joint, rng), random_q(joint, rng)
        assert_close(joint.difference(q1, joint.integrate(q0, joint.difference(q0, q1))), np.zeros(joint.nv), 1e-12)
        v = rng.normal(size=joint.nv)
        v *= rng.uniform(0.1, 2.0) / np.linalg.norm(v)  # rotation angles below pi: log inverts exp
        assert_close(joint.difference(q0, joint.integrate(q0, v)), v, 1e-12)


@every_joint
def test_difference_is_antisymmetric_and_zero_on_the_diagonal(joint):
    rng = np.random.default_rng(6)
    q0, q1 = random_q(joint, rng), random_q(joint, rng)
    assert_close(joint.difference(q0, q0), np.zeros(joint.nv), 1e-14)
    if joint.type not in (JointType.FREE_FLYER, JointType.PLANAR):  # SE(n): log(A^-1 B) = -Ad log(B^-1 A)
        assert_close(joint.difference(q0, q1), -joint.difference(q1, q0), 1e-12)


@every_joint
def test_integrate_is_the_right_action_of_exp(joint):
    """For the joints whose subspace is constant, ``M(q (+) v) = M(q) exp6(S v)``: integrate moves along the
    joint's own motion, in its body frame."""
    if joint.type in Q_DEPENDENT_SUBSPACE:
        pytest.skip("configuration space R^n with a q-dependent subspace")
    rng = np.random.default_rng(7)
    q, v = random_q(joint, rng), rng.normal(size=joint.nv)
    M0, S, _, _ = joint.calc(q)
    M1 = joint.calc(joint.integrate(q, v))[0]
    expected = M0 * exp6(S @ v)
    assert_close(M1.rotation, expected.rotation, 1e-12)
    assert_close(M1.translation, expected.translation, 1e-12)


@every_joint
@settings(max_examples=25, deadline=None)
@given(angle=st.sampled_from(SPECIAL_ANGLES), seed=st.integers(0, 2**32 - 1))
def test_lie_group_near_identity_and_near_pi(joint, angle, seed):
    """``difference(q, integrate(q, v)) == v`` and ``M(q (+) v) = M(q) exp6(S v)`` for rotation angles ``|w|``
    from 0 to just below pi, with random translation parts."""
    rng = np.random.default_rng(seed)
    q, v = random_q(joint, rng), rng.normal(size=joint.nv)
    part = ANGULAR_PART.get(joint.type, slice(0, joint.nv))
    v[part] *= angle / max(np.linalg.norm(v[part]), 1e-300)
    q1 = joint.integrate(q, v)
    assert joint.is_normalized(q1)
    assert_close(joint.difference(q, q1), v, 1e-9)
    if joint.type not in Q_DEPENDENT_SUBSPACE:
        M0, S, _, _ = joint.calc(q)
        expected = M0 * exp6(S @ v)
        M1 = joint.calc(q1)[0]
        assert_close(M1.rotation, expected.rotation, 1e-12)
        assert_close(M1.translation, expected.translation, 1e-12)


@every_joint
def test_neutral_is_the_identity_placement(joint):
    q = joint.neutral()
    assert q.shape == (joint.nq,)
    assert joint.is_normalized(q)
    M = joint.calc(q)[0]
    R, p = expected_placement(joint, q)  # the identity, but for a composite's inner placements
    if joint.type != JointType.COMPOSITE:
        assert_close(R, np.eye(3), 0.0)
        assert_close(p, np.zeros(3), 0.0)
    assert_close(M.rotation, R, 1e-14)
    assert_close(M.translation, p, 1e-14)
    assert_close(joint.integrate(q, np.zeros(joint.nv)), q, 1e-15)


@every_joint
def test_interpolate_endpoints_and_midpoint(joint):
    rng = np.random.default_rng(8)
    q0, q1 = random_q(joint, rng), random_q(joint, rng)
    assert_close(joint.difference(q0, joint.interpolate(q0, q1, 0.0)), np.zeros(joint.nv), 1e-12)
    assert_close(joint.difference(q1, joint.interpolate(q0, q1, 1.0)), np.zeros(joint.nv), 1e-12)
    half = joint.interpolate(q0, q1, 0.5)
    assert_close(joint.difference(q0, half), 0.5 * joint.difference(q0, q1), 1e-12)


@every_joint
def test_normalize_projects_onto_the_manifold(joint):
    rng = np.random.default_rng(9)
    q = random_q(joint, rng)
    assert_close(joint.normalize(q), q, 1e-15)
    part = UNIT_NORM_PART.get(joint.type)
    if part is None:
        assert joint.is_normalized(q + 10.0)  # vector spaces: every q is a configuration
        return
    scaled = q.copy()
    scaled[part] *= 1.7
    assert not joint.is_normalized(scaled)
    normalized = joint.normalize(scaled)
    assert joint.is_normalized(normalized)
    assert_close(normalized, q, 1e-14)


@every_joint
def test_random_configurations_are_normalized_and_within_bounds(joint):
    rng = np.random.default_rng(10)
    lower, upper = -0.5 * np.ones(joint.nq), 0.25 * np.ones(joint.nq)
    part = UNIT_NORM_PART.get(joint.type, slice(0, 0))
    free = np.ones(joint.nq, dtype=bool)
    free[part] = False
    for _ in range(20):
        q = joint.random(rng, lower, upper)
        assert q.shape == (joint.nq,)
        assert joint.is_normalized(q)
        assert np.all(q[free] >= lower[free]) and np.all(q[free] <= upper[free])


# ------------------------------------------------------------------------------------------------ construction
def test_axis_joints_normalise_their_axis_and_compare_by_value():
    axis = np.array([0.0, 3.0, 4.0])
    j = rbda.JointModelRevoluteUnaligned(axis)
    assert_close(j.axis, axis / 5.0, 1e-15)
    assert j == rbda.JointModelRevoluteUnaligned(axis / 5.0)
    assert rbda.JointModelRX() == rbda.JointModelRX()
    assert rbda.JointModelRX() != rbda.JointModelRY()
    assert rbda.JointModelRX() != rbda.JointModelPX()
    assert rbda.JointModelHX(0.1) != rbda.JointModelHX(0.2)
    assert hash(rbda.JointModelHX(0.1)) == hash(rbda.JointModelHX(0.1))


def test_aligned_joints_equal_their_unaligned_twins():
    rng = np.random.default_rng(11)
    pairs = [(rbda.JointModelRY(), rbda.JointModelRevoluteUnaligned([0, 1, 0])),
             (rbda.JointModelPZ(), rbda.JointModelPrismaticUnaligned([0, 0, 1])),
             (rbda.JointModelHX(0.3), rbda.JointModelHelicalUnaligned([1, 0, 0], 0.3)),
             (rbda.JointModelRUBX(), rbda.JointModelRevoluteUnboundedUnaligned([1, 0, 0]))]
    for aligned, unaligned in pairs:
        q, v = random_q(aligned, rng), rng.normal(size=1)
        Ma, Sa, va, _ = aligned.calc(q, v)
        Mu, Su, vu, _ = unaligned.calc(q, v)
        assert Ma.is_approx(Mu, 1e-15) and close(Sa, Su) and close(va.vector, vu.vector)


def test_joint_constructors_reject_bad_axes():
    with pytest.raises(ValueError, match="axis"):
        rbda.JointModelRevoluteUnaligned([0.0, 0.0, 0.0])
    with pytest.raises(TypeError):
        rbda.JointModelRX([1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="axis1, axis2"):
        rbda.JointModelUniversal([1.0, 0.0, 0.0], [1.0, 1.0, 0.0])
    with pytest.raises(ValueError, match="axis"):
        rbda.JointModelPrismaticUnaligned([1.0, 0.0])


@every_joint
def test_joint_methods_name_bad_arguments(joint):
    with pytest.raises(ValueError, match="q:"):
        joint.calc(np.zeros(joint.nq + 1))
    with pytest.raises(ValueError, match="v:"):
        joint.calc(joint.neutral(), np.full(joint.nv, np.nan))
    with pytest.raises(ValueError, match="q1:"):
        joint.difference(joint.neutral(), np.zeros(joint.nq - 1))
