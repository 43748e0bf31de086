"""spatial_v2's branch-induced sparsity functions: expandLambda on a textbook tree and on models, LTL/LTDL
reproduce H and keep its pattern, the products against dense algebra, input errors."""

import numpy as np
import pytest

import rbda
from rbda import featherstone as fs


def random_sparse_spd(lam, rng) -> np.ndarray:
    """``H = L' D L`` with L unit lower triangular on the pattern of ``lam`` (1-based): branch-induced sparsity."""
    n = len(lam)
    L = np.eye(n)
    for k in range(n):
        j = lam[k]
        while j > 0:
            L[k, j - 1] = rng.normal()
            j = lam[j - 1]
    return L.T @ np.diag(rng.uniform(0.5, 2.0, n)) @ L


def pattern(lam) -> np.ndarray:
    n = len(lam)
    P = np.eye(n, dtype=bool)
    for k in range(n):
        j = lam[k]
        while j > 0:
            P[k, j - 1] = True
            j = lam[j - 1]
    return P


def test_expand_lambda():
    # bodies 1..4 with parents (0, 1, 1, 3) and 1, 2, 3, 1 freedoms: dofs 1 | 2 3 | 4 5 6 | 7
    assert fs.expandLambda([0, 1, 1, 3], [1, 2, 3, 1]).tolist() == [0, 1, 2, 1, 4, 5, 6]
    assert fs.expandLambda([0, 1, 2], [1, 1, 1]).tolist() == [0, 1, 2]  # single-dof joints: unchanged
    model = rbda.sample_models.humanoid()
    data = model.create_data()
    assert np.array_equal(fs.expandLambda(model.parents[1:], model.nvs[1:]) - 1, data.dof_parents)


@pytest.mark.parametrize("seed", range(3))
def test_factorisations_and_products(seed):
    rng = np.random.default_rng(seed)
    n = 12
    lam = [0] + [int(rng.integers(0, k + 1)) for k in range(1, n)]  # lam(i) < i, 1-based
    H = random_sparse_spd(lam, rng)
    outside = ~pattern(lam)
    L = fs.LTL(H, lam)
    np.testing.assert_allclose(L.T @ L, H, atol=1e-12 * np.abs(H).max())
    assert np.all(L[outside] == 0.0)
    Ld, D = fs.LTDL(H, lam)
    np.testing.assert_allclose(Ld.T @ D @ Ld, H, atol=1e-12 * np.abs(H).max())
    assert np.all(Ld[outside] == 0.0) and np.all(np.diag(Ld) == 1.0) and np.all(D == np.diag(np.diag(D)))
    x = rng.normal(size=n)
    np.testing.assert_allclose(fs.mpyH(H, lam, x), H @ x, atol=1e-12 * np.abs(H).max() * np.abs(x).max() * n)
    for Lx in (L, Ld):
        np.testing.assert_allclose(fs.mpyL(Lx, lam, x), Lx @ x, atol=1e-12)
        np.testing.assert_allclose(fs.mpyLt(Lx, lam, x), Lx.T @ x, atol=1e-12)
        np.testing.assert_allclose(Lx @ fs.mpyLi(Lx, lam, x), x, atol=1e-11)
        np.testing.assert_allclose(Lx.T @ fs.mpyLit(Lx, lam, x), x, atol=1e-11)
    y = fs.mpyLi(L, lam, fs.mpyLit(L, lam, x))  # solving H y = x, as spatial_v2's manual shows
    np.testing.assert_allclose(H @ y, x, atol=1e-10)


def test_joint_space_inertia():
    model = rbda.sample_models.humanoid()
    data = model.create_data()
    H = rbda.crba(model, data, rbda.random_configuration(model, rng=np.random.default_rng(0))).copy()
    lam = fs.expandLambda(model.parents[1:], model.nvs[1:])
    L, D = fs.LTDL(H, lam)
    np.testing.assert_allclose(L.T @ D @ L, H, atol=1e-12 * np.abs(H).max())


def test_bad_input():
    H = random_sparse_spd([0, 1, 1], np.random.default_rng(0))
    with pytest.raises(ValueError, match="lambda"):
        fs.LTL(H, [0, 2, 1])
    with pytest.raises(ValueError, match="H: expected shape"):
        fs.LTDL(H[:2, :2], [0, 1, 1])
    dense = H + 0.1  # fills entry (3, 2), which is not on the pattern (bodies 2 and 3 are siblings)
    with pytest.raises(ValueError, match="branch-induced pattern"):
        fs.LTL(dense, [0, 1, 1])
    with pytest.raises(ValueError, match="x: expected a vector of length 3"):
        fs.mpyH(H, [0, 1, 1], np.ones(4))
    with pytest.raises(ValueError, match="not positive definite"):
        fs.LTDL(-H, [0, 1, 1])
    with pytest.raises(ValueError, match="nf"):
        fs.expandLambda([0, 1], [1])
