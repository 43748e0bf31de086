"""The Delassus matrix ``G = J M^-1 J^T`` of a constraint set, through the sparse factorisation ``M = U D U^T``
along the tree: ``G = Y^T D^-1 Y`` with ``Y = U^-1 J^T``, whose columns are nonzero only on the ancestors of the
constrained bodies (Carpentier, Budhiraja & Mansard, RSS 2021). No dense ``M^-1`` is formed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import cholesky
from ._check import check_data, vector
from .dynamics import crba

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model
    from numpy.typing import ArrayLike


_F64 = np.dtype(np.float64)


def jacobian_arg(model, J, name: str = "J", finite: bool = True) -> np.ndarray:
    """``J`` as a C-contiguous ``(m, nv)`` float64 array, or a ValueError naming ``name``; also finite unless
    ``finite`` is False (for a caller whose kernel checks it)."""
    if not (type(J) is np.ndarray and J.dtype is _F64 and J.ndim == 2 and J.flags.c_contiguous):
        J = np.ascontiguousarray(np.asarray(J, dtype=np.float64))
    if J.ndim != 2 or J.shape[1] != model.nv:
        raise ValueError(f"{name}: expected shape (m, {model.nv}), got {J.shape}")
    if finite and not np.isfinite(J).all():
        raise ValueError(f"{name}: contains non-finite values (NaN or inf)")
    return J


def delassus_factors(model: Model, data: Data, J: np.ndarray):
    """``(Y, G)``: ``Y = U^-1 J^T`` ``(nv, m)`` and ``G = Y^T D^-1 Y`` ``(m, m)``, from the factor of
    :func:`rbda.cholesky.decompose` (call it at the current ``q`` first)."""
    Y = cholesky.Uiv(model, data, J.T) if J.shape[0] else np.zeros((model.nv, 0))
    return Y, Y.T @ (data.Dinv[:, None] * Y)


def _damping_vector(damping, m: int) -> np.ndarray:
    d = np.asarray(damping, dtype=np.float64)
    if d.ndim == 0:
        d = np.full(m, float(d))
    if d.shape != (m,):
        raise ValueError(f"damping: expected a number or shape ({m},), got {np.shape(damping)}")
    if not (np.isfinite(d).all() and (d >= 0.0).all()):
        raise ValueError("damping: must be finite and >= 0")
    return d


class DelassusOperator:
    """The Delassus operator ``G = J M(q)^-1 J^T`` of a constraint Jacobian, for the contact solvers.

    ``DelassusOperator(model, data, q, J)``: ``q: (nq,)``, ``J: (m, nv)`` (in the frames the solver uses, e.g.
    each contact's ``[t1, t2, n]`` axes). Computes ``M(q)`` (into ``data.M``) and its sparse factor; the operator
    keeps its own copies, so ``data`` may be reused afterwards. Members: ``size`` (m); ``matrix()`` ``(m, m)``;
    ``apply(x)`` ``G x`` (two sparse triangular solves, no matrix formed); ``diagonal()`` ``(m,)``;
    ``solve(b, damping)`` ``(G + diag(damping))^-1 b`` (``damping`` a number or ``(m,)``, ``b`` ``(m,)`` or
    ``(m, k)``; the Cholesky factor is kept for the last damping); ``max_eigenvalue()`` by power iteration.
    """

    def __init__(self, model: Model, data: Data, q: ArrayLike, J: ArrayLike):
        check_data(model, data)
        J = jacobian_arg(model, J)
        crba(model, data, vector(q, model.nq, "q"))
        cholesky.decompose(model, data)
        self.size = J.shape[0]
        self.J = J
        self._Y, self._G = delassus_factors(model, data, J)
        self._Dinv = data.Dinv.copy()
        self._factor = (None, None)  # (damping, cho_factor)

    def matrix(self) -> np.ndarray:
        """``G`` ``(m, m)`` (a copy)."""
        return self._G.copy()

    def apply(self, x: ArrayLike) -> np.ndarray:
        """``G x = Y^T D^-1 Y x`` for ``x: (m,)``."""
        x = vector(x, self.size, "x")
        return self._Y.T @ (self._Dinv * (self._Y @ x))

    def diagonal(self) -> np.ndarray:
        """``diag(G)`` ``(m,)``: ``sum_k Y_ki^2 / D_k``."""
        return np.einsum("ki,k,ki->i", self._Y, self._Dinv, self._Y)

    def solve(self, b: ArrayLike, damping=0.0) -> np.ndarray:
        """``(G + diag(damping))^-1 b``; raises if ``G + diag(damping)`` is singular (``damping = 0`` on a
        redundant set)."""
        from scipy.linalg import cho_factor, cho_solve  # here, not at import: scipy.linalg costs import rbda ~0.1 s

        d = _damping_vector(damping, self.size)
        b = np.asarray(b, dtype=np.float64)
        if b.shape[:1] != (self.size,) or b.ndim > 2 or not np.isfinite(b).all():
            raise ValueError(f"b: expected finite values of shape ({self.size},) or ({self.size}, k), got {b.shape}")
        cached, factor = self._factor
        if cached is None or not np.array_equal(cached, d):
            A = self._G + np.diag(d)
            try:
                factor = cho_factor(A, lower=True)
            except np.linalg.LinAlgError:
                raise ValueError("damping: G + damping is singular (a redundant constraint set); use damping > 0") \
                    from None
            if np.min(np.abs(np.diag(factor[0]))) ** 2 <= 1e-12 * max(float(np.max(np.diag(A))), 1e-300):
                raise ValueError("damping: G + damping is singular (a redundant constraint set); use damping > 0")
            self._factor = (d, factor)
        return cho_solve(factor, b)

    def max_eigenvalue(self, max_iter: int = 100, tol: float = 1e-10) -> float:
        """The largest eigenvalue of ``G`` (symmetric positive semidefinite) by power iteration from a fixed
        start, stopped when the estimate changes by less than ``tol`` relative or after ``max_iter`` iterations."""
        if self.size == 0:
            return 0.0
        x = np.random.default_rng(0).uniform(0.5, 1.0, self.size)
        x /= np.linalg.norm(x)
        value = 0.0
        for _ in range(max_iter):
            y = self.apply(x)
            new = float(x @ y)
            n = np.linalg.norm(y)
            if n == 0.0:
                return 0.0
            x = y / n
            if abs(new - value) <= tol * abs(new):
                return new
            value = new
        return value

    def __repr__(self) -> str:
        return f"DelassusOperator(size={self.size})"


__all__ = ["DelassusOperator"]
