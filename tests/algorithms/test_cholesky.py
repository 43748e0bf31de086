"""rbda.cholesky: U D U^T reproduces M with the branch-induced sparsity pattern, solves to 1e-12, products with M
and U against dense algebra, Pinocchio (when installed), input errors."""

import numpy as np
import pytest
from conftest import MODEL_CASES, assert_close, random_model, random_state

import rbda


def ancestor_dofs(model) -> np.ndarray:
    """``(nv, nv)`` bool: ``A[i, j]`` when dof j supports dof i (the same joint's earlier dofs, or a supporting
    joint's), from the joint tree; every earlier dof with mimic joints (one couples two branches: M is dense)."""
    if model.mimicking_joints:
        return np.tril(np.ones((model.nv, model.nv), dtype=bool), -1)
    owner = np.repeat(np.arange(model.njoints), model.nvs)
    A = np.zeros((model.nv, model.nv), dtype=bool)
    for i in range(model.nv):
        for j in range(i):
            A[i, j] = owner[j] in model.supports[owner[i]][1:]
    return A


def test_factorisation_reproduces_M_and_keeps_the_pattern(model):
    model.armature = np.random.default_rng(1).uniform(0.0, 0.1, model.nv)
    data = model.create_data()
    q, _, _ = random_state(model)
    M = rbda.crba(model, data, q).copy()
    U = rbda.cholesky.decompose(model, data)
    assert_close(U @ np.diag(data.D) @ U.T, M, 1e-12)
    assert_close(np.diag(U), np.ones(model.nv), 0.0)
    assert_close(data.Dinv * data.D, np.ones(model.nv), 1e-14)
    L = U.T
    assert np.all(L[np.triu_indices(model.nv, 1)] == 0.0)
    off = ~ancestor_dofs(model) & ~np.eye(model.nv, dtype=bool)
    assert np.all(L[off] == 0.0)  # branch-induced sparsity: exactly zero off the ancestors


def test_solve_and_products(model):
    data = model.create_data()
    q, v, _ = random_state(model)
    M = rbda.crba(model, data, q).copy()
    rbda.cholesky.decompose(model, data)
    U = data.U.copy()
    y = np.random.default_rng(0).normal(size=(model.nv, 3))
    x = rbda.cholesky.solve(model, data, y[:, 0])
    assert np.abs(M @ x - y[:, 0]).max() <= 1e-12 * np.abs(M).max() * max(1.0, np.abs(x).max())
    X = rbda.cholesky.solve(model, data, y)
    assert np.abs(M @ X - y).max() <= 1e-12 * np.abs(M).max() * max(1.0, np.abs(X).max())
    Minv = rbda.cholesky.compute_minv(model, data)
    assert_close(Minv @ M, np.eye(model.nv), 1e-11)
    assert_close(Minv, rbda.compute_minverse(model, model.create_data(), q), 1e-10)
    for fn, dense in ((rbda.cholesky.Mv, M), (rbda.cholesky.UDUtv, M), (rbda.cholesky.Uv, U), (rbda.cholesky.Utv, U.T)):
        assert_close(fn(model, data, v), dense @ v, 1e-12)
        assert_close(fn(model, data, y), dense @ y, 1e-12)
    for fn, dense in ((rbda.cholesky.Uiv, U), (rbda.cholesky.Utiv, U.T)):
        assert_close(dense @ fn(model, data, v), v, 1e-12)
        assert_close(dense @ fn(model, data, y), y, 1e-12)


def test_bad_input():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    with pytest.raises(ValueError, match="not positive definite"):
        rbda.cholesky.decompose(model, data)  # M is still zero: crba was not run
    rbda.crba(model, data, rbda.neutral(model))
    rbda.cholesky.decompose(model, data)
    with pytest.raises(ValueError, match="y: expected shape"):
        rbda.cholesky.solve(model, data, np.zeros(model.nv + 1))
    with pytest.raises(ValueError, match="v: contains non-finite"):
        rbda.cholesky.Uiv(model, data, np.full(model.nv, np.nan))
    with pytest.raises(ValueError, match="data"):
        rbda.cholesky.compute_minv(model, rbda.sample_models.humanoid().create_data())


@pytest.mark.parametrize("case", MODEL_CASES[:4], ids=str)
def test_against_pinocchio(case):
    pin = pytest.importorskip("pinocchio")
    from test_against_pinocchio import pinocchio_joint_types
    from rbda.interop.pinocchio import to_pinocchio

    model = random_model(*case, joints=pinocchio_joint_types())
    data, pm = model.create_data(), to_pinocchio(model)
    pd = pm.createData()
    q, v, _ = random_state(model, 1)
    rbda.crba(model, data, q)
    pin.crba(pm, pd, q)
    assert_close(rbda.cholesky.decompose(model, data), pin.cholesky.decompose(pm, pd))
    assert_close(data.U, pd.U)
    assert_close(data.D, pd.D)
    assert_close(rbda.cholesky.solve(model, data, v), pin.cholesky.solve(pm, pd, v))
    assert_close(rbda.cholesky.compute_minv(model, data), pin.cholesky.computeMinv(pm, pd))
