"""spatial_v2's branch-induced sparsity functions (Featherstone, RBDA section 6.5 and Tables 6.3, 6.4), in
spatial_v2's conventions: parent arrays are **1-based** with 0 for the root (``lambda(i) < i``), a symmetric
positive-definite ``H`` factorises as ``H = L' * L`` (``LTL``) or ``H = L' * D * L`` (``LTDL``) with ``L`` lower
triangular, and row i of ``L`` (below the diagonal) is nonzero only in columns ``lambda(i)``,
``lambda(lambda(i))``, ... The compiled loops are those of ``rbda.cholesky`` (``kernels/sparse.py``).
"""

from __future__ import annotations

import numpy as np

from ..kernels import sparse as _k
from ..kernels.sparse import ltdl as _ltdl


def _parents(lam, name: str = "lambda") -> np.ndarray:
    """A 1-based parent array as the 0-based int64 array of the kernels (-1 at the root), checked."""
    a = np.asarray(lam)
    if a.ndim == 2 and 1 in a.shape:
        a = a.reshape(-1)
    if a.ndim != 1 or not (np.issubdtype(a.dtype, np.integer) or (np.issubdtype(a.dtype, np.floating)
                                                                    and np.all(a == np.round(a)))):
        raise ValueError(f"{name}: expected a vector of integers, got {np.shape(lam)} {a.dtype}")
    a = a.astype(np.int64)
    bad = np.flatnonzero((a < 0) | (a >= np.arange(1, a.size + 1)))
    if bad.size:
        raise ValueError(f"{name}: needs 0 <= {name}(i) < i (1-based), but {name}({bad[0] + 1}) = {a[bad[0]]}")
    return a - 1


def _square(H, n: int, name: str) -> np.ndarray:
    A = np.array(H, dtype=np.float64, copy=True)
    if A.shape != (n, n):
        raise ValueError(f"{name}: expected shape ({n}, {n}) (the length of lambda), got {np.shape(H)}")
    if not np.isfinite(A).all():
        raise ValueError(f"{name}: contains non-finite values (NaN or inf)")
    return A


def _pattern(lam0: np.ndarray) -> np.ndarray:
    """``(n, n)`` bool: the lower-triangular branch-induced pattern (diagonal and ancestors)."""
    n = lam0.size
    mask = np.eye(n, dtype=bool)
    for k in range(n):
        j = lam0[k]
        while j >= 0:
            mask[k, j] = True
            j = lam0[j]
    return mask


def _sparse(A: np.ndarray, lam0: np.ndarray, name: str, symmetric: bool) -> None:
    """Raise unless ``A`` has branch-induced sparsity for ``lam0`` (and is symmetric, if asked)."""
    mask = _pattern(lam0)
    allowed = mask | mask.T if symmetric else mask
    scale = max(1.0, float(np.abs(A).max()))
    if np.any(np.abs(A[~allowed]) > 1e-12 * scale):
        r, c = np.argwhere(np.abs(A) * ~allowed > 1e-12 * scale)[0]
        raise ValueError(f"{name}: entry ({r + 1}, {c + 1}) is nonzero but not on the branch-induced pattern of lambda")
    if symmetric and np.abs(A - A.T).max() > 1e-9 * scale:
        raise ValueError(f"{name}: must be symmetric")


def _vector(x, n: int, name: str = "x") -> np.ndarray:
    a = np.array(x, dtype=np.float64, copy=True)
    if a.ndim == 2 and 1 in a.shape:
        a = a.reshape(-1)
    if a.shape != (n,):
        raise ValueError(f"{name}: expected a vector of length {n} (the length of lambda), got shape {np.shape(x)}")
    if not np.isfinite(a).all():
        raise ValueError(f"{name}: contains non-finite values (NaN or inf)")
    return a


def expandLambda(lam, nf) -> np.ndarray:
    """Expanded parent array (RBDA Table 6.4): one entry per joint variable, for the tree ``lam`` (1-based, one
    entry per body) whose joint i has ``nf(i)`` freedoms; a multi-dof joint becomes a chain of 1-dof joints."""
    lam0 = _parents(lam)
    nf = np.asarray(nf).reshape(-1)
    if nf.shape != lam0.shape or not np.issubdtype(nf.dtype, np.number) or np.any(nf < 0) or np.any(nf != np.round(nf)):
        raise ValueError(f"nf: expected {lam0.size} non-negative integers (one per body), got {np.shape(nf)}")
    nf = nf.astype(np.int64)
    last = np.concatenate([[0], np.cumsum(nf)])  # last[i]: 1-based index of body i's last dof, 0 for the root
    out = np.empty(last[-1], dtype=np.int64)
    for i in range(1, lam0.size + 1):
        first = last[i - 1] + 1  # 1-based index of body i's first dof
        if nf[i - 1]:
            out[first - 1] = last[lam0[i - 1] + 1]
            out[first : last[i]] = np.arange(first, last[i])
    return out


def LTL(H, lam) -> np.ndarray:
    """``L`` lower triangular with ``L' * L = H``, of H's branch-induced sparsity given by the parent array ``lam``
    (1-based, spatial_v2's ``lambda``)."""
    lam0 = _parents(lam)
    A = _square(H, lam0.size, "H")
    _sparse(A, lam0, "H", symmetric=True)
    try:
        _k.ltl(A, lam0)
    except ZeroDivisionError:
        A[:] = np.nan
    if not np.isfinite(A).all():
        raise ValueError("H: is not positive definite")
    return np.tril(A)


def LTDL(H, lam) -> tuple[np.ndarray, np.ndarray]:
    """``(L, D)``: ``L`` unit lower triangular and ``D`` diagonal with ``L' * D * L = H``, for ``H`` with the
    branch-induced sparsity of the parent array ``lam`` (1-based, spatial_v2's ``lambda``)."""
    lam0 = _parents(lam)
    A = _square(H, lam0.size, "H")
    _sparse(A, lam0, "H", symmetric=True)
    try:
        _ltdl(A, lam0)
    except ZeroDivisionError:
        A[:] = np.nan
    d = np.diag(A).copy()
    if not (np.all(d > 0.0) and np.isfinite(A).all()):
        raise ValueError("H: is not positive definite")
    L = np.tril(A, -1) + np.eye(lam0.size)
    return L, np.diag(d)


def _product(kernel, A, lam, x, name: str, symmetric: bool, nonzero_diagonal: bool = False) -> np.ndarray:
    lam0 = _parents(lam)
    A = _square(A, lam0.size, name)
    _sparse(A, lam0, name, symmetric)
    if nonzero_diagonal and np.any(np.diag(A) == 0.0):
        raise ValueError(f"{name}: has a zero on its diagonal")
    x = _vector(x, lam0.size)
    y = np.empty_like(x)
    kernel(A, lam0, x, y)
    return y


def mpyH(H, lam, x) -> np.ndarray:
    """``y = H * x`` for a symmetric ``H`` with the branch-induced sparsity of the parent array ``lam``."""
    return _product(_k.mpy_h, H, lam, x, "H", symmetric=True)


def mpyL(L, lam, x) -> np.ndarray:
    """``y = L * x`` for ``L`` from :func:`LTL` or :func:`LTDL` with the parent array ``lam``."""
    return _product(_k.mpy_l, L, lam, x, "L", symmetric=False)


def mpyLt(L, lam, x) -> np.ndarray:
    """``y = L' * x`` for ``L`` from :func:`LTL` or :func:`LTDL` with the parent array ``lam``."""
    return _product(_k.mpy_lt, L, lam, x, "L", symmetric=False)


def mpyLi(L, lam, x) -> np.ndarray:
    """``y = inv(L) * x`` for ``L`` from :func:`LTL` or :func:`LTDL` with the parent array ``lam``."""
    return _product(_k.mpy_li, L, lam, x, "L", symmetric=False, nonzero_diagonal=True)


def mpyLit(L, lam, x) -> np.ndarray:
    """``y = inv(L') * x`` for ``L`` from :func:`LTL` or :func:`LTDL` with the parent array ``lam``."""
    return _product(_k.mpy_lit, L, lam, x, "L", symmetric=False, nonzero_diagonal=True)
