"""Bad input: wrong shapes and non-finite values raise ValueError naming the argument (and the expected shape);
wrong types raise TypeError. Never a NaN result or a numpy traceback from deep inside."""

import numpy as np
import pytest

import rbda.spatial as sp

NAN3 = [np.nan, 0.0, 0.0]
INF3 = [np.inf, 0.0, 0.0]
Y = sp.Inertia(1.0, np.zeros(3), np.eye(3))


@pytest.mark.parametrize(
    "call, pattern",
    [
        # SE3
        (lambda: sp.SE3(np.eye(2)), r"rotation: expected shape \(3, 3\), got \(2, 2\)"),
        (lambda: sp.SE3(np.eye(3), np.ones(2)), r"translation: expected shape \(3,\), got \(2,\)"),
        (lambda: sp.SE3(np.eye(3), NAN3), "translation: contains non-finite"),
        (lambda: sp.SE3(np.diag([1.0, 1.0, 2.0])), "rotation: expected a rotation matrix"),
        (lambda: sp.SE3(np.diag([1.0, 1.0, -1.0])), "rotation: expected a rotation matrix"),  # a reflection
        (lambda: sp.SE3(np.full((3, 3), np.nan)), "rotation: contains non-finite"),
        (lambda: sp.SE3.from_homogeneous(np.eye(3)), r"H: expected shape \(4, 4\), got \(3, 3\)"),
        (lambda: sp.SE3.from_homogeneous(2 * np.eye(4)), "H: last row"),
        (lambda: sp.SE3(2 * np.eye(4)), "homogeneous: last row"),
        (lambda: sp.SE3.from_xyzquat(np.zeros(6)), r"xyzquat: expected shape \(7,\), got \(6,\)"),
        (lambda: sp.SE3.from_xyzquat([0, 0, 0, 0, 0, 0, 2.0]), r"xyzquat\[3:7\].*unit norm"),
        (lambda: sp.SE3.from_xyzquat([0, 0, np.inf, 0, 0, 0, 1.0]), "xyzquat: contains non-finite"),
        (lambda: sp.SE3().act(np.ones(4)), r"points: expected shape \(3,\), got \(4,\)"),
        (lambda: sp.SE3().act(np.ones((5, 2))), r"points: expected shape \(N, 3\), got \(5, 2\)"),
        (lambda: sp.SE3().act_inv(np.ones((2, 2, 3))), r"points: expected shape \(N, 3\)"),
        (lambda: sp.SE3().act([np.nan, 0.0, 0.0]), "points: contains non-finite"),
        (lambda: sp.SE3.Interpolate(sp.SE3(), sp.SE3(), np.nan), "t: must be finite"),
        # Motion / Force
        (lambda: sp.Motion(np.ones(5)), r"vector: expected shape \(6,\), got \(5,\)"),
        (lambda: sp.Force(np.ones((6, 1))), r"vector: expected shape \(6,\), got \(6, 1\)"),
        (lambda: sp.Motion(np.ones(3), np.ones(2)), r"angular: expected shape \(3,\), got \(2,\)"),
        (lambda: sp.Force(np.ones(4), np.ones(3)), r"linear: expected shape \(3,\), got \(4,\)"),
        (lambda: sp.Motion([np.nan] * 6), "vector: contains non-finite"),
        (lambda: sp.Force(INF3, np.zeros(3)), "linear: contains non-finite"),
        (lambda: sp.motion_cross_matrix(np.ones(3)), r"nu: expected shape \(6,\)"),
        # Inertia
        (lambda: sp.Inertia(1.0, np.zeros(3), np.triu(np.ones((3, 3)))), "inertia: .*symmetric"),
        (lambda: sp.Inertia(1.0, np.zeros(2), np.eye(3)), r"lever: expected shape \(3,\), got \(2,\)"),
        (lambda: sp.Inertia(1.0, np.zeros(3), np.eye(2)), r"inertia: expected shape \(3, 3\), got \(2, 2\)"),
        (lambda: sp.Inertia(np.nan, np.zeros(3), np.eye(3)), "mass: must be finite"),
        (lambda: sp.Inertia(1.0, NAN3, np.eye(3)), "lever: contains non-finite"),
        (lambda: sp.Inertia.FromDynamicParameters(np.ones(9)), r"params: expected shape \(10,\), got \(9,\)"),
        (lambda: sp.Inertia.FromPseudoInertia(np.eye(3)), r"J: expected shape \(4, 4\)"),
        (lambda: sp.Inertia.FromLogCholeskyParameters(np.ones(11)), r"theta: expected shape \(10,\)"),
        # Lie-group maps
        (lambda: sp.exp3(NAN3), "w: contains non-finite"),
        (lambda: sp.exp3(INF3), "w: contains non-finite"),
        (lambda: sp.exp3(np.ones(4)), r"w: expected shape \(3,\), got \(4,\)"),
        (lambda: sp.log3(np.eye(4)), r"R: expected shape \(3, 3\), got \(4, 4\)"),
        (lambda: sp.log3(np.full((3, 3), np.nan)), "R: contains non-finite"),
        (lambda: sp.Jexp3(np.ones(2)), r"w: expected shape \(3,\)"),
        (lambda: sp.Jlog3(np.eye(2)), r"R: expected shape \(3, 3\)"),
        (lambda: sp.exp6(np.ones(5)), r"nu: expected shape \(6,\), got \(5,\)"),
        (lambda: sp.exp6([np.nan] * 6), "nu: contains non-finite"),
        (lambda: sp.Jexp6(np.ones(3)), r"nu: expected shape \(6,\)"),
        (lambda: sp.log6(np.eye(3)), r"H: expected shape \(4, 4\)"),
        # quaternions, angle-axis, rpy, skew
        (lambda: sp.quat_to_matrix([0.0, 0.0, 0.0, 2.0]), "quat: .*unit norm"),
        (lambda: sp.quat_to_matrix([0.0, 0.0, 1.0]), r"quat: expected shape \(4,\), got \(3,\)"),
        (lambda: sp.quat_to_matrix([np.nan, 0.0, 0.0, 1.0]), "quat: contains non-finite"),
        (lambda: sp.quat_log3([0.0, 0.0, 0.0, 0.5]), "quat: .*unit norm"),
        (lambda: sp.quat_slerp([0, 0, 0, 1.0], [0, 0, 0, 3.0], 0.5), "q1: .*unit norm"),
        (lambda: sp.quat_multiply(np.ones(3), np.ones(4)), r"q1: expected shape \(4,\)"),
        (lambda: sp.matrix_to_quat(np.eye(4)), r"R: expected shape \(3, 3\)"),
        (lambda: sp.AngleAxis(np.inf, [1.0, 0.0, 0.0]), "angle: must be finite"),
        (lambda: sp.AngleAxis(1.0, [1.0, 0.0]), r"axis: expected shape \(3,\)"),
        (lambda: sp.rpy_to_matrix([0.0, 0.0]), r"rpy: expected shape \(3,\), got \(2,\)"),
        (lambda: sp.rpy_to_matrix(0.0, np.nan, 0.0), "pitch: must be finite"),
        (lambda: sp.matrix_to_rpy(np.eye(2)), r"R: expected shape \(3, 3\)"),
        (lambda: sp.compute_rpy_jacobian([np.nan, 0.0, 0.0]), "rpy: contains non-finite"),
        (lambda: sp.compute_rpy_jacobian_time_derivative(np.zeros(3), np.ones(2)), r"rpydot: expected shape \(3,\)"),
        (lambda: sp.skew(np.ones(2)), r"u: expected shape \(3,\), got \(2,\)"),
        (lambda: sp.unskew(np.ones(3)), r"S: expected shape \(3, 3\)"),
        (lambda: sp.skew_square(np.ones(3), NAN3), "v: contains non-finite"),
    ],
)
def test_value_errors_name_the_argument(call, pattern):
    with pytest.raises(ValueError, match=pattern):
        call()


@pytest.mark.parametrize(
    "call",
    [
        lambda: sp.Motion.Zero() + sp.Force.Zero(),
        lambda: sp.Force.Zero() - sp.Motion.Zero(),
        lambda: sp.Motion.Zero().__iadd__(sp.Force.Zero()),
        lambda: sp.Motion.Zero() + np.zeros(6),
        lambda: sp.Motion.Zero() * sp.Motion.Zero(),
        lambda: sp.Motion.Zero().cross(Y),
        lambda: sp.Motion.Zero().is_approx(sp.Force.Zero()),
        lambda: Y * sp.Force.Zero(),
        lambda: Y + sp.Motion.Zero(),
        lambda: sp.SE3() * np.eye(4),
        lambda: sp.Motion("abcdef"),
        lambda: sp.exp3("abc"),
        lambda: sp.Inertia("heavy", np.zeros(3), np.eye(3)),
        lambda: sp.ArticulatedBodyInertia(np.eye(6)) + Y,
    ],
)
def test_type_errors(call):
    with pytest.raises(TypeError):
        call()


def test_rpy_frame_must_be_known():
    with pytest.raises(ValueError):
        sp.compute_rpy_jacobian(np.zeros(3), 7)
