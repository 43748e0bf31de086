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
