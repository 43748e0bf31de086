"""ArticulatedBodyInertia with the semantics of Drake's page (seed 003): construction, validity, shift,
sums, products."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rbda.spatial as sp
from spatial_strategies import PROPERTY, action_matrix, assert_close, hat, inertias, motions, vectors

ABI = sp.ArticulatedBodyInertia


@st.composite
def abi_matrices(draw):
    """A symmetric PSD 6x6 matrix that is not a spatial inertia: G^T G for a random G of rank 4 to 6."""
    rank = draw(st.integers(4, 6))
    G = draw(st.lists(vectors(6, -2, 2), min_size=rank, max_size=rank).map(np.array))
    return G.T @ G


def scale(P) -> float:
    return float(np.abs(np.asarray(P)).max())


@PROPERTY
@given(inertias())
def test_from_spatial_inertia(Y):
    assert_close(ABI(Y).matrix, Y.matrix(), 0.0)
    assert_close(ABI.from_spatial_inertia(Y).copy_to_full_matrix6(), Y.matrix(), 0.0)
    assert ABI(Y).is_physically_valid()


@PROPERTY
@given(abi_matrices(), vectors(36, -1e3, 1e3))
def test_only_lower_triangle_is_read(P, garbage):
    upper = np.triu(garbage.reshape(6, 6), 1)
    A = ABI(P + upper)  # garbage in the strictly upper part
    assert_close(A.copy_to_full_matrix6(), P, 0.0)
    assert np.array_equal(A.matrix, A.matrix.T)


@PROPERTY
@given(abi_matrices())
def test_is_physically_valid(P):
    assert ABI(P).is_physically_valid()
    # shift the spectrum to make it indefinite
    lam = np.linalg.eigvalsh(P)
    assert not ABI(P - (lam[0] + 0.01 * lam[-1] + 1e-3) * np.eye(6)).is_physically_valid()


def test_is_physically_valid_examples():
    assert ABI(np.zeros((6, 6))).is_physically_valid()  # PSD, not PD
    assert ABI(np.diag([1.0, 1, 1, 1, 1, 0])).is_physically_valid()
    assert not ABI(np.diag([1.0, 1, 1, 1, 1, -1e-3])).is_physically_valid()
    indefinite = np.eye(6)
    indefinite[1, 0] = 2.0  # lower triangle only: [[1, 2], [2, 1]] has eigenvalue -1
    assert not ABI(indefinite).is_physically_valid()


def test_copy_to_full_matrix6_is_a_copy():
    A = ABI(np.eye(6))
    full = A.copy_to_full_matrix6()
    full[0, 0] = 7.0
    assert A.copy_to_full_matrix6()[0, 0] == 1.0
    assert_close(np.asarray(A), np.eye(6), 0.0)


@PROPERTY
@given(inertias(), vectors(3, -10, 10))
def test_shift_of_rigid_body_is_spatial_inertia_about_new_point(Y, p):
    # the frame about R is Q's frame translated by p = p_QR: Y_R = (Q M R)^-1 . Y_Q
    expected = sp.SE3(np.eye(3), p).act_inv(Y).matrix()
    s = scale(expected)
    assert_close(ABI(Y).shift(p).matrix, expected, 1e-13, s)
    # ... and Pinocchio's SE(3) cheat sheet's formula about R: lever c - p, same rotational inertia about the CoM
    assert_close(ABI(Y).shift(p).matrix, sp.Inertia(Y.mass, Y.lever - p, Y.inertia).matrix(), 1e-13, s)


@PROPERTY
@given(abi_matrices(), vectors(3, -10, 10))
def test_shift_matches_drake_formula(P, p):
    # Drake, angular-first: P_R = Phi(p_RQ) P_Q Phi(p_RQ)^T, Phi(p_RQ) = [[1, p_RQ_x], [0, 1]], p_RQ = -p_QR
    perm = np.r_[3:6, 0:3]  # [linear; angular] <-> [angular; linear]
    Pd = P[np.ix_(perm, perm)]
    Phi = np.eye(6)
    Phi[:3, 3:] = hat(-p)
    expected = (Phi @ Pd @ Phi.T)[np.ix_(perm, perm)]
    assert_close(ABI(P).shift(p).matrix, expected, 1e-13, scale(expected))
    # equivalently X^T P X with X the motion transform from R to Q (Pinocchio's cheat sheet X of a pure translation)
    X = action_matrix(np.eye(3), p)
    assert_close(ABI(P).shift(p).matrix, X.T @ P @ X, 1e-13, scale(expected))


@PROPERTY
@given(abi_matrices(), vectors(3, -10, 10), vectors(3, -10, 10))
def test_shift_composes_and_shifts_back(P, p, q):
    A = ABI(P)
    assert_close(A.shift(p).shift(-p).matrix, P, 1e-12, scale(P) * 400)
    assert_close(A.shift(p).shift(q).matrix, A.shift(p + q).matrix, 1e-12, scale(P) * 1600)
    assert_close(A.shift(np.zeros(3)).matrix, P, 0.0)
    assert_close(A.matrix, P, 0.0)  # shift did not modify A


@PROPERTY
@given(abi_matrices(), vectors(3, -10, 10))
def test_shift_in_place(P, p):
    A = ABI(P)
    expected = A.shift(p).matrix
    out = A.shift_in_place(p)
    assert out is A
    assert_close(A.matrix, expected, 0.0)
    assert A.is_physically_valid(1e-10)


@PROPERTY
@given(abi_matrices(), abi_matrices())
def test_sum_and_difference(P1, P2):
    A = ABI(P1)
    same = A
    A += ABI(P2)
    assert A is same
    assert_close(A.matrix, P1 + P2, 0.0)
    A -= ABI(P2)
    assert_close(A.matrix, P1, 1e-14, scale(P1) + scale(P2))
    assert_close((ABI(P1) + ABI(P2)).matrix, P1 + P2, 0.0)
    assert_close((ABI(P1) - ABI(P2)).matrix, P1 - P2, 0.0)


@PROPERTY
@given(inertias(), inertias(), vectors(3, -5, 5))
def test_sum_of_rigid_bodies_is_composite_body(Y1, Y2, p):
    # Drake: += gives the ABI of the composite body; for rigid bodies that is the sum of inertias, and the sum
    # commutes with shifting
    A = ABI(Y1)
    A += ABI(Y2)
    assert_close(A.matrix, (Y1 + Y2).matrix(), 1e-13, scale(A.matrix))
    assert_close(A.shift(p).matrix, ABI(Y1).shift(p).matrix + ABI(Y2).shift(p).matrix, 1e-12, scale(A.matrix) * 30)


@PROPERTY
@given(abi_matrices(), motions(), st.integers(1, 7))
def test_products(P, a, n):
    A = ABI(P)
    F = A * a
    assert isinstance(F, sp.Force)
    assert_close(F.vector, P @ a.vector, 1e-14, scale(P) * 60)
    assert_close(A * a.vector, P @ a.vector, 1e-14, scale(P) * 60)
    assert_close(A @ a.vector, P @ a.vector, 1e-14, scale(P) * 60)
    M = np.arange(6.0 * n).reshape(6, n) / n - 1.0
    assert (A * M).shape == (6, n)
    assert_close(A * M, P @ M, 1e-14, scale(P) * 60)
    assert_close(M.T @ A, M.T @ P, 1e-14, scale(P) * 60)


@pytest.mark.parametrize("bad", [np.ones(5), np.ones((5, 2)), np.ones((6, 2, 2)), 3.0])
def test_product_with_wrong_shape(bad):
    with pytest.raises(ValueError, match="rhs"):
        ABI(np.eye(6)) * bad


def test_wrong_inputs():
    with pytest.raises(ValueError, match="matrix"):
        ABI(np.eye(5))
    with pytest.raises(ValueError, match="matrix"):
        ABI(np.full((6, 6), np.nan))
    with pytest.raises(ValueError, match="p_QR"):
        ABI(np.eye(6)).shift(np.ones(2))
    with pytest.raises(TypeError):
        A = ABI(np.eye(6))
        A += sp.Inertia.Identity()
    assert ABI(np.eye(6)) == ABI(np.eye(6)) and "ArticulatedBodyInertia" in repr(ABI(np.eye(6)))
