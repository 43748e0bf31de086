"""SE3 as a group and as an action: axioms, conversions, act/act_inv, and Pinocchio's cheat sheet's action matrices."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import rbda.spatial as sp
from spatial_strategies import (
    PROPERTY,
    action_matrix,
    assert_close,
    floats,
    forces,
    hat,
    inertias,
    motions,
    rodrigues,
    rotations,
    se3s,
    translations,
    vectors,
)


def assert_se3_close(A: sp.SE3, B: sp.SE3, tol: float = 1e-12):
    scale = max(np.linalg.norm(A.translation), np.linalg.norm(B.translation))
    assert_close(A.rotation, B.rotation, tol)
    assert_close(A.translation, B.translation, tol, scale)


# ---------------------------------------------------------------------------------------------- group axioms
@PROPERTY
@given(se3s(), se3s(), se3s())
def test_composition_is_associative(A, B, C):
    assert_se3_close((A * B) * C, A * (B * C), 1e-11)


@PROPERTY
@given(se3s())
def test_identity_is_neutral(A):
    assert_se3_close(sp.SE3.Identity() * A, A, 0.0)
    assert_se3_close(A * sp.SE3(), A, 0.0)
    assert sp.SE3.Identity().is_identity()


@PROPERTY
@given(se3s())
def test_inverse(A):
    assert (A * A.inverse()).is_identity(1e-12 * max(1.0, np.linalg.norm(A.translation)))
    assert (A.inverse() * A).is_identity(1e-12 * max(1.0, np.linalg.norm(A.translation)))
    assert_se3_close(A.inverse().inverse(), A)
    # Pinocchio's SE(3) cheat sheet: bMa = (R^T, -R^T p)
    assert_close(A.inverse().homogeneous, np.linalg.inv(A.homogeneous), 1e-12, np.linalg.norm(A.translation))


@PROPERTY
@given(se3s(), se3s())
def test_composition_matches_homogeneous_product(A, B):
    assert_close((A * B).homogeneous, A.homogeneous @ B.homogeneous, 1e-12, np.linalg.norm(A.translation))


@PROPERTY
@given(se3s(), se3s())
def test_act_and_act_inv_on_se3(A, B):
    assert_se3_close(A.act(B), A * B)
    assert_se3_close(A.act_inv(B), A.inverse() * B, 1e-11)
    assert_se3_close(A.act_inv(A.act(B)), B, 1e-11)


# ---------------------------------------------------------------------------------------------- conversions
@PROPERTY
@given(rotations(), translations())
def test_homogeneous_round_trip(R, p):
    H = np.eye(4)
    H[:3, :3], H[:3, 3] = R, p
    M = sp.SE3.from_homogeneous(H)
    assert np.array_equal(M.rotation, R) and np.array_equal(M.translation, p)
    assert np.array_equal(M.homogeneous, H)
    assert np.array_equal(M.to_homogeneous(), H)
    assert np.array_equal(sp.SE3(H).homogeneous, H)


@PROPERTY
@given(st.floats(0.0, np.pi), vectors(3, -1, 1).filter(lambda u: np.linalg.norm(u) > 1e-2), translations())
def test_xyzquat_round_trip(angle, axis, p):
    axis = axis / np.linalg.norm(axis)
    quat = np.concatenate([np.sin(angle / 2) * axis, [np.cos(angle / 2)]])  # [x, y, z, w], w >= 0
    M = sp.SE3.from_xyzquat(np.concatenate([p, quat]))
    assert_close(M.rotation, rodrigues(axis, angle))
    assert np.array_equal(M.translation, p)
    out = M.to_xyzquat()
    assert out[6] >= 0.0
    assert np.array_equal(out[:3], p)
    # q and -q are the same rotation; at angle pi, w = 0 and either sign is valid
    assert min(np.abs(out[3:] - quat).max(), np.abs(out[3:] + quat).max()) <= 1e-12
    assert_close(sp.xyzquat_to_se3(sp.se3_to_xyzquat(M)).homogeneous, M.homogeneous, 1e-12, np.linalg.norm(p))


# ---------------------------------------------------------------------------------------------- actions
@PROPERTY
@given(se3s(), vectors(3, -100, 100), st.integers(0, 5))
def test_act_on_points(M, x, n):
    # single point: p_A = R p_B + p
    assert_close(M.act(x), M.rotation @ x + M.translation, 1e-12, np.linalg.norm(M.translation) + 100)
    assert_close(M.act_inv(M.act(x)), x, 1e-11, np.linalg.norm(M.translation) + 100)
    # arrays of points, (N, 3), including N = 0
    X = np.outer(np.arange(n) - 2.0, x) + M.translation
    expected = (M.homogeneous @ np.vstack([X.T, np.ones(n)]))[:3].T
    assert M.act(X).shape == (n, 3)
    assert_close(M.act(X), expected, 1e-12, 3 * (np.linalg.norm(M.translation) + 100))
    assert_close(M.act_inv(M.act(X)), X, 1e-11, 3 * (np.linalg.norm(M.translation) + 100))
    assert_close(M.act_inv(X), (np.linalg.inv(M.homogeneous) @ np.vstack([X.T, np.ones(n)]))[:3].T, 1e-11,
                 3 * (np.linalg.norm(M.translation) + 100))


@PROPERTY
@given(se3s(), motions(), forces())
def test_act_matches_action_matrices(M, m, f):
    scale = 10 * (1 + np.linalg.norm(M.translation))
    assert_close(M.act(m).vector, M.action @ m.vector, 1e-12, scale)
    assert_close(M.act_inv(m).vector, M.action_inverse @ m.vector, 1e-12, scale)
    assert_close(M.act(f).vector, M.dual_action @ f.vector, 1e-12, scale)
    assert_close(M.act_inv(f).vector, M.dual_action_inverse @ f.vector, 1e-12, scale)
    assert_close((M * m).vector, M.act(m).vector, 0.0)
    assert_close((M * f).vector, M.act(f).vector, 0.0)
    assert_close(m.se3_action(M).vector, M.act(m).vector, 0.0)
    assert_close(f.se3_action_inverse(M).vector, M.act_inv(f).vector, 0.0)


@PROPERTY
@given(se3s())
def test_action_matrices_match_cheat_sheet(M):
    R, p = M.rotation, M.translation
    scale = np.linalg.norm(p)
    X = action_matrix(R, p)
    assert_close(M.action, X, 1e-12, scale)
    assert_close(M.action_inverse, np.linalg.inv(X), 1e-10, scale)
    assert_close(M.action_inverse, action_matrix(R.T, -R.T @ p), 1e-12, scale)
    assert_close(M.dual_action, np.linalg.inv(M.action).T, 1e-10, scale)
    # aXb* = [[R, 0], [p_x R, R]], aXb^-* = [[R^T, 0], [-R^T p_x, R^T]]
    Xs = np.zeros((6, 6))
    Xs[:3, :3] = Xs[3:, 3:] = R
    Xs[3:, :3] = hat(p) @ R
    assert_close(M.dual_action, Xs, 1e-12, scale)
    assert_close(M.dual_action_inverse, np.linalg.inv(Xs), 1e-10, scale)


@PROPERTY
@given(se3s(), se3s())
def test_action_of_composition_is_product(A, B):
    scale = (1 + np.linalg.norm(A.translation)) * (1 + np.linalg.norm(B.translation))
    assert_close((A * B).action, A.action @ B.action, 1e-12, scale)
    assert_close((A * B).dual_action, A.dual_action @ B.dual_action, 1e-12, scale)
    assert_close((A * B).action_inverse, B.action_inverse @ A.action_inverse, 1e-12, scale)


@PROPERTY
@given(se3s(), motions(), forces(), inertias())
def test_act_inv_undoes_act(M, m, f, Y):
    scale = 10 * (1 + np.linalg.norm(M.translation))
    assert_close(M.act_inv(M.act(m)).vector, m.vector, 1e-11, scale)
    assert_close(M.act(M.act_inv(m)).vector, m.vector, 1e-11, scale)
    assert_close(M.act_inv(M.act(f)).vector, f.vector, 1e-11, scale)
    assert_close(M.act(M.act_inv(f)).vector, f.vector, 1e-11, scale)
    assert_close(M.act_inv(M.act(Y)).matrix(), Y.matrix(), 1e-10, Y.mass * scale**2)
    assert_close(M.act(M.act_inv(Y)).matrix(), Y.matrix(), 1e-10, Y.mass * scale**2)
    # act_inv is the action of the inverse
    assert_close(M.act_inv(m).vector, M.inverse().act(m).vector, 1e-11, scale)
    assert_close(M.act_inv(f).vector, M.inverse().act(f).vector, 1e-11, scale)


@PROPERTY
@given(se3s(), se3s(), motions())
def test_action_is_a_group_action(A, B, m):
    scale = 10 * (1 + np.linalg.norm(A.translation)) * (1 + np.linalg.norm(B.translation))
    assert_close((A * B).act(m).vector, A.act(B.act(m)).vector, 1e-12, scale)
    assert_close(sp.SE3().act(m).vector, m.vector, 0.0)


# ---------------------------------------------------------------------------------------------- interpolation
@PROPERTY
@given(se3s(max_angle=3.0), se3s(max_angle=3.0), floats(0.0, 1.0))
def test_interpolate(A, B, t):
    scale = np.linalg.norm(A.translation) + np.linalg.norm(B.translation)
    assert_se3_close(sp.SE3.Interpolate(A, B, 0.0), A, 1e-12)
    assert_close(sp.SE3.Interpolate(A, B, 1.0).homogeneous, B.homogeneous, 1e-9, scale)
    # the geodesic A exp(t xi): the relative motion from A grows linearly in t
    C = sp.SE3.Interpolate(A, B, t)
    rel = A.inverse() * B
    Hrel = np.linalg.inv(A.homogeneous) @ C.homogeneous
    # independent check of the rotation part: angle of A^-1 C is t times the angle of A^-1 B, same axis
    w = sp.log3(rel.rotation)
    assert_close(Hrel[:3, :3], rodrigues(w / max(np.linalg.norm(w), 1e-300), t * np.linalg.norm(w)), 1e-9)


def test_is_approx_and_equality():
    M = sp.SE3(rodrigues(np.array([0.0, 0.0, 1.0]), 0.3), [1.0, 2.0, 3.0])
    assert M == M.copy()
    assert M.is_approx(sp.SE3(M.rotation, M.translation + 1e-14))
    assert not M.is_approx(sp.SE3(M.rotation, M.translation + 1e-6))
    N = M.copy()
    N.rotation = M.rotation + 1e-7
    assert not M.is_approx(N)
    assert N.normalize().is_approx(M, 1e-6)
    assert_close(N.rotation.T @ N.rotation, np.eye(3), 1e-14)


def test_random_is_a_rigid_transformation():
    rng = np.random.default_rng(3)
    for _ in range(20):
        M = sp.SE3.Random(rng)
        assert_close(M.rotation.T @ M.rotation, np.eye(3), 1e-14)
        assert abs(np.linalg.det(M.rotation) - 1.0) < 1e-14
        assert np.all(np.abs(M.translation) <= 1.0)
