"""Sparse factorisation of the joint-space inertia matrix, ``M = U D U^T`` (Pinocchio's ``cholesky`` namespace,
exposed as ``rbda.cholesky``).

``U`` is unit upper-triangular, ``U = L^T`` with Featherstone's ``M = L^T D L`` (RBDA Table 6.3): row k of L has
nonzeros only in the columns of the dofs supporting dof k (branch-induced sparsity), so factorising and solving
cost ``O(sum of depths)`` instead of ``O(nv^3)``. ``data.dof_parents`` is the expanded parent array (spatial_v2's
``expandLambda``, 0-based, -1 at the root). Run :func:`rbda.crba` first, then :func:`decompose`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..kernels import sparse
from .._native.direct import direct
from ._check import check_data

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model
    from numpy.typing import ArrayLike

_k = direct(sparse)  # the kernels, past numba's per-call dispatch


_F64 = np.dtype(np.float64).num
NOT_POSITIVE_DEFINITE = "data.M: is not positive definite (a pivot of its factorisation is <= 0); run crba first"


def _factor(data):
    return data._cholesky_L, data.Dinv, data.dof_parents  # L = U^T (C-contiguous), D^-1, lam


def _rhs(model, x, name: str) -> np.ndarray:
    """``x`` ``(nv,)`` or ``(nv, k)`` as a fresh C-contiguous float64 array (the kernels work in place)."""
    a = np.array(x, dtype=np.float64, copy=True)
    if a.ndim not in (1, 2) or a.shape[0] != model.nv:
        raise ValueError(f"{name}: expected shape ({model.nv},) or ({model.nv}, k), got {np.shape(x)}")
    if not np.isfinite(a).all():
        raise ValueError(f"{name}: contains non-finite values (NaN or inf)")
    return a


def _apply(model, data, x, name, kernel, matrix) -> np.ndarray:
    """``kernel(matrix, lam, x, x)`` (in place) on ``x`` or on each column of ``x``; a new array."""
    check_data(model, data)
    x = _rhs(model, x, name)
    if x.ndim == 1:
        kernel(matrix, data.dof_parents, x, x)
        return x
    X = np.ascontiguousarray(x.T)
    for r in range(X.shape[0]):
        kernel(matrix, data.dof_parents, X[r], X[r])
    return X.T.copy()


def decompose(model: Model, data: Data) -> np.ndarray:
    """Factorise ``data.M`` (from :func:`rbda.crba`) as ``U D U^T``: fills ``data.U`` ``(nv, nv)``, ``data.D``,
    ``data.Dinv`` ``(nv,)``; returns ``U`` (a new array). Raises if M is not positive definite on its diagonal
    pivots."""
    check_data(model, data)
    try:
        status = _k.cholesky_decompose(data.M, data.dof_parents, data._cholesky_L, data.D, data.Dinv)
    except ZeroDivisionError:
        status = 1
    if status:
        raise ValueError(NOT_POSITIVE_DEFINITE)
    return data.U.copy()


def solve(model: Model, data: Data, y) -> np.ndarray:
    """``x = M^-1 y`` for ``y: (nv,)`` or ``(nv, k)`` from the factorisation of :func:`decompose` (a new array)."""
    check_data(model, data)
    L, Dinv, lam = _factor(data)
    if type(y) is np.ndarray and y.dtype.num == _F64 and y.shape == (model.nv,):  # fast path
        x = y.copy()
        if _k.cholesky_solve(L, Dinv, lam, x):
            raise ValueError("y: contains non-finite values (NaN or inf)")
        return x
    x = _rhs(model, y, "y")
    if x.ndim == 1:
        _k.cholesky_solve(L, Dinv, lam, x)
        return x
    X = np.ascontiguousarray(x.T)
    _k.cholesky_solve_columns(L, Dinv, lam, X)
    return X.T.copy()


def compute_minv(model: Model, data: Data) -> np.ndarray:
    """``M^-1`` ``(nv, nv)`` from the factorisation: a new array, also in ``data.Minv``."""
    check_data(model, data)
    _k.cholesky_minv(data._cholesky_L, data.D, data.dof_parents, data.Minv)
    return data.Minv.copy()


def Mv(model: Model, data: Data, v: ArrayLike) -> np.ndarray:
    """``M v`` with the sparse ``data.M`` (``v: (nv,)`` or ``(nv, k)``; a new array)."""
    check_data(model, data)
    x = _rhs(model, v, "v")
    X = x.reshape(model.nv, -1).T.copy()  # one row per column of v
    out = np.empty_like(X)
    for r in range(X.shape[0]):
        _k.mpy_h(data.M, data.dof_parents, X[r], out[r])
    return out[0] if x.ndim == 1 else out.T.copy()


def Uv(model: Model, data: Data, v: ArrayLike) -> np.ndarray:
    """``U v = L^T v``."""
    return _apply(model, data, v, "v", _k.mpy_lt, data._cholesky_L)


def Utv(model: Model, data: Data, v: ArrayLike) -> np.ndarray:
    """``U^T v = L v``."""
    return _apply(model, data, v, "v", _k.mpy_l, data._cholesky_L)


def Uiv(model: Model, data: Data, v: ArrayLike) -> np.ndarray:
    """``U^-1 v = L^-T v``."""
    return _apply(model, data, v, "v", _k.mpy_lit, data._cholesky_L)


def Utiv(model: Model, data: Data, v: ArrayLike) -> np.ndarray:
    """``U^-T v = L^-1 v``."""
    return _apply(model, data, v, "v", _k.mpy_li, data._cholesky_L)


def UDUtv(model: Model, data: Data, v: ArrayLike) -> np.ndarray:
    """``U D U^T v`` (``= M v`` up to rounding)."""
    x = Utv(model, data, v)
    x *= data.D if x.ndim == 1 else data.D[:, None]
    return Uv(model, data, x)


__all__ = ["decompose", "solve", "compute_minv", "Mv", "Uv", "Utv", "Uiv", "Utiv", "UDUtv"]
