"""Spatial inertia as an operator: the (m, c, I) matrix, Y nu, nu x* (Y nu), variation, addition, SE3 action,
inverse — each against Pinocchio's SE(3) cheat sheet's formula or a finite difference written here."""

import numpy as np
import pytest
from hypothesis import given

import rbda.spatial as sp
from spatial_strategies import (
    PROPERTY,
    action_matrix,
    assert_close,
    crf,
    crm,
    hat,
    inertia_triples,
    inertias,
    motions,
    se3_matrix_exp,
    se3s,
    spatial_inertia_matrix,
    twists,
)


def scale_of(Y: sp.Inertia) -> float:
    return Y.mass * (1.0 + np.linalg.norm(Y.lever)) ** 2 + np.linalg.norm(Y.inertia)


@PROPERTY
@given(inertia_triples())
def test_matrix_matches_cheat_sheet(triple):
    m, c, I = triple
    Y = sp.Inertia(m, c, I)
    expected = spatial_inertia_matrix(m, c, I)
    assert_close(Y.matrix(), expected, 1e-14, scale_of(Y))
    assert_close(Y.np, expected, 1e-14, scale_of(Y))
    assert_close(Y.matrix(), Y.matrix().T, 0.0)
    assert np.all(np.linalg.eigvalsh(Y.matrix()) > 0)
    # canonical form: about the CoM the matrix is block-diagonal diag(m 1, I); aY = aXc* cY aXc^-1
    Xc = action_matrix(np.eye(3), c)
    Yc = np.zeros((6, 6))
    Yc[:3, :3], Yc[3:, 3:] = m * np.eye(3), I
    assert_close(Y.matrix(), np.linalg.inv(Xc).T @ Yc @ np.linalg.inv(Xc), 1e-13, scale_of(Y))
    assert_close(Y.inertia_about_origin(), I + m * (c @ c * np.eye(3) - np.outer(c, c)), 1e-13, scale_of(Y))


@PROPERTY
@given(inertias(), motions())
def test_motion_to_force_map(Y, nu):
    f = Y * nu
    assert isinstance(f, sp.Force)
    assert_close(f.vector, Y.matrix() @ nu.vector, 1e-13, 10 * scale_of(Y))
    assert abs(Y.vtiv(nu) - nu.vector @ Y.matrix() @ nu.vector) <= 1e-12 * 100 * scale_of(Y)


@PROPERTY
@given(inertias(), motions())
def test_vxiv_is_cross_of_momentum(Y, nu):
    expected = nu.cross(Y * nu)
    assert_close(Y.vxiv(nu).vector, expected.vector, 1e-13, 100 * scale_of(Y))
    assert_close(Y.vxiv(nu).vector, crf(nu.vector) @ Y.matrix() @ nu.vector, 1e-13, 100 * scale_of(Y))


@PROPERTY
@given(inertias(), motions())
def test_vxi_ivx_variation_matrices(Y, nu):
    A = Y.matrix()
    assert_close(Y.vxi(nu), crf(nu.vector) @ A, 1e-14, 10 * scale_of(Y))
    assert_close(Y.ivx(nu), A @ crm(nu.vector), 1e-14, 10 * scale_of(Y))
    assert_close(Y.variation(nu), crf(nu.vector) @ A - A @ crm(nu.vector), 1e-14, 10 * scale_of(Y))
    # the variation of a symmetric matrix is symmetric
    assert_close(Y.variation(nu), Y.variation(nu).T, 1e-14, 10 * scale_of(Y))


@PROPERTY
@given(inertias(), twists(3.0, 3.0))
def test_variation_is_time_derivative(Y, nu):
    # a body carrying inertia Y (at t = 0) moves with the constant spatial twist nu: its placement is
    # exp(t nu) and its inertia, in the fixed frame, Y(t) = X(t)^-T Y X(t)^-1
    def Y_at(t):
        H = se3_matrix_exp(t * nu)
        Xinv = np.linalg.inv(action_matrix(H[:3, :3], H[:3, 3]))
        return Xinv.T @ Y.matrix() @ Xinv

    h = 1e-5
    fd = (Y_at(h) - Y_at(-h)) / (2 * h)
    assert_close(Y.variation(sp.Motion(nu)), fd, 1e-7, 10 * scale_of(Y))


@PROPERTY
@given(inertias(), inertias())
def test_addition_is_sum_of_matrices(Y1, Y2):
    S = Y1 + Y2
    assert isinstance(S, sp.Inertia)
    assert abs(S.mass - (Y1.mass + Y2.mass)) <= 1e-14 * S.mass
    assert_close(S.matrix(), Y1.matrix() + Y2.matrix(), 1e-13, scale_of(Y1) + scale_of(Y2))
    assert_close(S.lever, (Y1.mass * Y1.lever + Y2.mass * Y2.lever) / S.mass, 1e-14, 2)
    assert S.is_physically_consistent()


def test_addition_with_zero_mass():
    Z = sp.Inertia.Zero()
    assert_close((Z + Z).matrix(), np.zeros((6, 6)), 0.0)
    Y = sp.Inertia(2.0, [0.1, 0.2, 0.3], np.diag([1.0, 2.0, 2.5]))
    assert_close((Y + Z).matrix(), Y.matrix(), 1e-15)
    assert sp.Inertia.Zero().is_zero()
    assert_close(sp.Inertia.Identity().matrix(), np.eye(6), 0.0)


@PROPERTY
@given(se3s(), inertias())
def test_se3_action_on_inertia(M, Y):
    scale = scale_of(Y) * (1 + np.linalg.norm(M.translation)) ** 2
    expected = M.dual_action @ Y.matrix() @ M.action_inverse
    assert_close(M.act(Y).matrix(), expected, 1e-12, scale)
    assert_close((M * Y).matrix(), expected, 1e-12, scale)
    assert_close(Y.se3_action(M).matrix(), expected, 1e-12, scale)
    # independent of the code's matrices: Pinocchio's SE(3) cheat sheet X
    X = action_matrix(M.rotation, M.translation)
    assert_close(M.act(Y).matrix(), np.linalg.inv(X).T @ Y.matrix() @ np.linalg.inv(X), 1e-10, scale)
    expected_inv = M.action.T @ Y.matrix() @ M.action
    assert_close(M.act_inv(Y).matrix(), expected_inv, 1e-12, scale)
    assert_close(Y.se3_action_inverse(M).matrix(), expected_inv, 1e-12, scale)
    # (m, p + R c, R I R^T)
    assert M.act(Y).mass == Y.mass
    assert_close(M.act(Y).lever, M.translation + M.rotation @ Y.lever, 1e-14, scale)
    assert_close(M.act(Y).inertia, M.rotation @ Y.inertia @ M.rotation.T, 1e-14, scale)


@PROPERTY
@given(se3s(), inertias(), motions())
def test_momentum_transforms_as_force(M, Y, nu):
    # (M Y) (M nu) == M (Y nu)
    scale = 10 * scale_of(Y) * (1 + np.linalg.norm(M.translation)) ** 3
    assert_close((M.act(Y) * M.act(nu)).vector, M.act(Y * nu).vector, 1e-12, scale)


@PROPERTY
@given(inertias())
def test_inverse(Y):
    Yinv = Y.inverse()
    cond = np.linalg.cond(Y.matrix())
    assert_close(Yinv @ Y.matrix(), np.eye(6), 1e-15 * cond * 10)
    assert_close(Y.matrix() @ Yinv, np.eye(6), 1e-15 * cond * 10)


def test_inverse_needs_positive_mass():
    with pytest.raises(ValueError, match="mass"):
        sp.Inertia.Zero().inverse()


def test_equality_copy_and_is_approx():
    Y = sp.Inertia(1.5, [0.1, -0.2, 0.3], np.diag([0.2, 0.3, 0.4]))
    assert Y == Y.copy() and not (Y == sp.Inertia.Identity())
    assert Y.is_approx(sp.Inertia(1.5 + 1e-15, Y.lever, Y.inertia))
    assert not Y.is_approx(sp.Inertia(1.6, Y.lever, Y.inertia))
    assert "Inertia" in repr(Y)


def test_inertia_is_symmetrised():
    I = np.diag([1.0, 2.0, 3.0])
    I[0, 1] = 0.1
    I[1, 0] = 0.1 + 1e-13  # within rounding of symmetric
    Y = sp.Inertia(1.0, np.zeros(3), I)
    assert np.array_equal(Y.inertia, Y.inertia.T)
    assert_close(hat([1.0, 0.0, 0.0]) @ Y.inertia, hat([1.0, 0.0, 0.0]) @ I, 1e-12)
