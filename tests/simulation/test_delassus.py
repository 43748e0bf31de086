"""DelassusDense against numpy's dense linear algebra."""

import numpy as np
import pytest

from rbda.simulation import DelassusDense


def _psd(n, rank, seed=0):
    A = np.random.default_rng(seed).normal(size=(n, rank))
    return A @ A.T


def test_operator_members():
    G = _psd(12, 6)
    D = DelassusDense(G)
    x = np.random.default_rng(1).normal(size=12)
    assert D.size == 12
    assert np.array_equal(D.matrix(), G)
    assert np.allclose(D.apply(x), G @ x)
    assert np.allclose(D.diagonal(), np.diag(G))
    assert D.max_eigenvalue() == pytest.approx(np.linalg.eigvalsh(G)[-1], rel=1e-5)
    assert D.max_eigenvalue(tol=1e-12) == pytest.approx(np.linalg.eigvalsh(G)[-1], rel=1e-10)


def test_solve_with_scalar_and_vector_damping():
    G = _psd(12, 6)  # rank-deficient, as four contacts on one body (condition number 1e7 with damping 1e-6)
    D = DelassusDense(G)
    b = np.random.default_rng(2).normal(size=12)
    for damping in (1e-6, 0.5, np.linspace(0.1, 1.0, 12)):
        expected = np.linalg.solve(G + np.diag(np.broadcast_to(damping, (12,))), b)
        assert np.allclose(D.solve(b, damping), expected, rtol=1e-8, atol=1e-8 * np.abs(expected).max())
    assert np.allclose(D.solve(b, 0.5), np.linalg.solve(G + 0.5 * np.eye(12), b))  # the factor follows damping


def test_errors():
    with pytest.raises(ValueError, match="D: expected a square"):
        DelassusDense(np.zeros((3, 4)))
    with pytest.raises(TypeError, match="D: expected a real"):
        DelassusDense("a matrix")
    with pytest.raises(ValueError, match="symmetric"):
        DelassusDense(np.array([[1.0, 0.5], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="non-finite"):
        DelassusDense(np.array([[1.0, np.nan], [np.nan, 1.0]]))
    D = DelassusDense(_psd(6, 3))
    with pytest.raises(ValueError, match="positive definite"):
        D.solve(np.ones(6), 0.0)
    with pytest.raises(ValueError, match="damping"):
        D.solve(np.ones(6), -1.0)
    with pytest.raises(ValueError, match="damping"):
        D.solve(np.ones(6), np.ones(5))
    with pytest.raises(ValueError, match="b"):
        D.solve(np.ones(5), 1.0)
    with pytest.raises(ValueError, match="x"):
        D.apply([1.0, np.nan, 0, 0, 0, 0])
    assert np.allclose(D.solve(np.ones(6), 1.0), np.linalg.solve(D.matrix() + np.eye(6), np.ones(6)))


def _banded(n, band, seed):
    """A symmetric positive definite matrix whose rows are zero left of ``band`` entries before the diagonal, some
    rows of it wider (a contact problem's envelope), and a diagonal damping."""
    rng = np.random.default_rng(seed)
    B = np.zeros((n, n))
    for i in range(n):
        first = max(0, i - (band if i % 5 else 3 * band))
        B[i, first:i + 1] = rng.normal(size=i + 1 - first)
        B[i, i] = 1.0 + abs(B[i, i])
    return B @ B.T, rng.uniform(0.0, 1e-3, n)


@pytest.mark.parametrize("n, band", [(1, 0), (7, 2), (30, 4), (45, 44)])
def test_dense_cholesky_on_an_envelope(n, band):
    """The factor (``damped_cholesky``, which skips the zeros left of each row's first nonzero) against numpy's: the
    same lower factor of ``G + diag(d)``, zero outside the envelope; a pivot at or below the floor stops it."""
    from rbda.kernels.constrained import damped_cholesky

    G, d = _banded(n, band, n)
    L = np.full((n, n), np.nan)
    assert damped_cholesky(G, d, L, n)
    expected = np.linalg.cholesky(G + np.diag(d))
    np.testing.assert_allclose(L, expected, rtol=1e-12, atol=1e-12 * np.abs(expected).max())
    for i in range(n):
        first = np.flatnonzero(G[i, :i + 1])[0]
        assert not L[i, :first].any() and not L[i, i + 1:].any()
    assert not damped_cholesky(G, d, L, n, floor=np.diag(G).max() + 1.0)


@pytest.mark.parametrize("n, band", [(1, 0), (3, 2), (4, 3), (5, 1), (6, 5), (9, 2), (30, 4), (45, 44)])
def test_dense_cholesky_solve_against_numpy(n, band):
    """``(L L^T)^-1 x`` (``dense_cholesky_solve``: its forward substitution four rows at a time, then the rows
    left) against numpy's solve of ``G + diag(d)``, on sizes that end on a full block of four and on each tail."""
    from rbda.kernels.constrained import damped_cholesky, dense_cholesky_solve

    G, d = _banded(n, band, 100 + n)
    L = np.empty((n, n))
    assert damped_cholesky(G, d, L, n)
    x = np.random.default_rng(n).normal(size=n)
    expected = np.linalg.solve(G + np.diag(d), x)
    dense_cholesky_solve(L, x, n)
    np.testing.assert_allclose(x, expected, rtol=1e-9, atol=1e-9 * np.abs(expected).max())


def test_normal_equations_of_a_sparse_system():
    """``A^T A`` and ``A^T b`` (the active set's normal equations, summed over each row's nonzero range) against
    numpy's products."""
    from rbda.kernels.active_set import normal_equations

    rng = np.random.default_rng(3)
    n = 20
    A = rng.normal(size=(n, n)) * (rng.random((n, n)) < 0.3)
    A[4] = 0.0  # an empty row
    b = rng.normal(size=n)
    AtA, Atb = A.T @ A, A.T @ b
    work_A, work_b = A.copy(), b.copy()
    scale = normal_equations(work_A, work_b, n, np.empty((n, n)), np.empty(n))
    np.testing.assert_allclose(work_A, AtA, rtol=1e-12, atol=1e-12 * np.abs(AtA).max())
    np.testing.assert_allclose(work_b, Atb, rtol=1e-12, atol=1e-12 * np.abs(Atb).max())
    assert scale == pytest.approx(np.diag(AtA).max(), rel=1e-14)
