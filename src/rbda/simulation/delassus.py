"""The Delassus operator ``G = J M^-1 J^T`` of a set of constraints, as the contact solvers use it.

A solver takes any object with these members (duck-typed), so that a dense matrix and a factorised form are
interchangeable:

- ``size``: the number of constraint rows ``m``;
- ``matrix() -> (m, m)``: ``G`` as a dense array;
- ``apply(x) -> (m,)``: ``G x``;
- ``diagonal() -> (m,)``: the diagonal of ``G``;
- ``solve(b, damping) -> (m,)``: ``(G + diag(damping))^-1 b``, ``damping`` a float or an ``(m,)`` array;
- ``max_eigenvalue(tol=...) -> float``: the largest eigenvalue of ``G`` to the relative tolerance ``tol`` (power
  iteration; ADMM asks for 1e-3: its penalty needs the scale only).

:class:`DelassusDense` implements it on a dense symmetric positive semi-definite matrix. The solvers of
``rbda.simulation`` run compiled on ``matrix()`` (with ``max_eigenvalue()`` for ADMM's penalty): for the contact
counts of a robot (tens of rows) a whole solve costs microseconds, and a loop driven from Python through ``solve``
would cost more in interpreter overhead than in arithmetic.
"""

from __future__ import annotations

import numpy as np

from ..kernels import checks as _checks
from ..kernels import constrained as _constrained
from ..kernels import contact_solvers as _solvers
from .._native.direct import direct
from ._check import finite_vector
from ..spatial._validate import as_scalar

_solvers_k = direct(_solvers)
_dense_k = direct(_constrained)  # the dense Cholesky that constrained dynamics uses
_checks_k = direct(_checks)


def damping_vector(damping, size: int) -> np.ndarray:
    """``damping`` (a float or an ``(size,)`` array, finite, >= 0) as an ``(size,)`` array."""
    if np.ndim(damping) == 0:
        d = np.full(size, as_scalar(damping, "damping"))
    else:
        d = finite_vector(damping, size, "damping")
    if np.any(d < 0.0):
        raise ValueError(f"damping: must be >= 0, got a minimum of {d.min()}")
    return d


class DelassusDense:
    """The Delassus operator on a dense matrix ``D (m, m)``, symmetric positive semi-definite (``J M^-1 J^T``).

    ``solve`` factors ``D + diag(damping) = L L^T`` (compiled) and keeps the factor until the damping changes, so that an iterative solver with a fixed damping factors once.

    Raises ``ValueError`` if ``D`` is not square, not finite or not symmetric (to 1e-9 relatively).
    """

    def __init__(self, D):
        if not (isinstance(D, np.ndarray) and D.ndim == 2 and D.shape[0] == D.shape[1]):
            try:
                D = np.asarray(D, dtype=np.float64)
            except (TypeError, ValueError) as exc:
                raise TypeError(f"D: expected a real square matrix, got {type(D).__name__}") from exc
            if D.ndim != 2 or D.shape[0] != D.shape[1]:
                raise ValueError(f"D: expected a square matrix, got shape {np.shape(D)}")
        D = np.array(D, dtype=np.float64, order="C")  # a copy the caller cannot change
        if not _solvers_k.is_symmetric(D, 1e-9):
            if not _checks_k.all_finite(D.reshape(-1)):
                raise ValueError("D: contains non-finite values (NaN or inf)")
            raise ValueError("D: the Delassus matrix must be symmetric")
        D.setflags(write=False)
        self._D = D
        self._factor = None  # (damping, L) of the last solve: L L^T = G + diag(damping)
        self._max_eigenvalue = None

    @property
    def size(self) -> int:
        """The number of constraint rows ``m``."""
        return self._D.shape[0]

    def __repr__(self) -> str:
        return f"DelassusDense(size={self.size})"

    def matrix(self) -> np.ndarray:
        """``G (m, m)``, read-only."""
        return self._D

    def apply(self, x) -> np.ndarray:
        """``G x`` for ``x (m,)``; a new ``(m,)`` array."""
        return self._D @ finite_vector(x, self.size, "x")

    def diagonal(self) -> np.ndarray:
        """The diagonal of ``G``, a new ``(m,)`` array."""
        return self._D.diagonal().copy()

    def solve(self, b, damping) -> np.ndarray:
        """``(G + diag(damping))^-1 b`` for ``b (m,)`` and ``damping`` a float or an ``(m,)`` array (>= 0); a new
        ``(m,)`` array. Raises ``ValueError`` if ``G + diag(damping)`` is not positive definite (a zero damping on
        a rank-deficient ``G``)."""
        b = finite_vector(b, self.size, "b")
        if self._factor is None or not np.array_equal(np.broadcast_to(damping, (self.size,)), self._factor[0]):
            self._factor = self._factorise(damping_vector(damping, self.size))
        x = b.copy()
        _dense_k.dense_cholesky_solve(self._factor[1], x, x.shape[0])
        return x

    def _factorise(self, damping: np.ndarray) -> tuple:
        L = np.empty((self.size, self.size))
        if not _dense_k.damped_cholesky(self._D, damping, L, self.size):
            raise ValueError("damping: G + diag(damping) is not positive definite; use a positive damping")
        return damping, L

    def max_eigenvalue(self, tol: float = 1e-6) -> float:
        """The largest eigenvalue of ``G`` by power iteration, stopped when the Rayleigh quotient changes by less
        than ``tol`` relatively (its error is then about ``tol``: enough for ADMM's penalty, which needs the scale
        only); kept for later calls with the same ``tol``."""
        if self._max_eigenvalue is None or self._max_eigenvalue[0] != tol:
            self._max_eigenvalue = (tol, float(_solvers_k.power_iteration(self._D, 10000, as_scalar(tol, "tol"))))
        return self._max_eigenvalue[1]
