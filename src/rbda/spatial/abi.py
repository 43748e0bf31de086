"""Articulated-body inertia (Featherstone 1983; Drake's ``ArticulatedBodyInertia``).

``P`` relates the spatial acceleration of the base body of an articulated body to the force applied on it,
``F = P A + Z``. It is a symmetric positive semi-definite ``(6, 6)`` matrix on ``[linear; angular]`` vectors,
about a point Q and expressed in a frame E; unlike a spatial :class:`~rbda.spatial.Inertia` it needs all 21
entries. The class, like Drake's, does not track Q and E: that is the caller's bookkeeping.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_array
from .inertia import Inertia
from .motion import Force, Motion
from .skew import skew


class ArticulatedBodyInertia:
    """Symmetric ``(6, 6)`` articulated-body inertia ``P_AQ_E`` on ``[linear; angular]`` vectors."""

    __slots__ = ("_P",)

    def __init__(self, matrix):
        """From a :class:`Inertia` (a single rigid body), or from a ``(6, 6)`` matrix of which only the lower
        triangle is read (the strictly upper part is ignored, as in Drake)."""
        if isinstance(matrix, Inertia):
            self._P = matrix.matrix()
            return
        L = np.tril(as_array(matrix, (6, 6), "matrix"))
        self._P = L + np.tril(L, -1).T

    @classmethod
    def from_spatial_inertia(cls, inertia: Inertia) -> "ArticulatedBodyInertia":
        """ABI of an articulated body made of one rigid body: its spatial inertia matrix."""
        return cls(inertia)

    def is_physically_valid(self, tol: float = 1e-14) -> bool:
        """Symmetric and positive semi-definite: smallest eigenvalue ``>= -tol * (largest eigenvalue)``."""
        eig = np.linalg.eigvalsh(self._P)
        return bool(eig[0] >= -tol * max(1.0, abs(eig[-1])))

    def copy(self) -> "ArticulatedBodyInertia":
        """An independent copy (also what ``copy.copy`` and ``copy.deepcopy`` give)."""
        out = type(self).__new__(type(self))
        out._P = self._P.copy()
        return out

    __copy__ = copy

    def __deepcopy__(self, memo) -> "ArticulatedBodyInertia":
        return self.copy()

    def copy_to_full_matrix6(self) -> np.ndarray:
        """The full ``(6, 6)`` symmetric matrix (a copy)."""
        return self._P.copy()

    @property
    def matrix(self) -> np.ndarray:
        return self._P.copy()

    def shift(self, p_QR) -> "ArticulatedBodyInertia":
        """The same ABI about point R, with ``p_QR: (3,)`` from Q to R expressed in E (rigid-body shift).

        ``P_R = X^T P_Q X`` with ``X = [[1, p_x], [0, 1]]`` the motion transform from R to Q
        (``v_Q = v_R + p_QR x w``), which is Drake's ``Phi(p_RQ) P_Q Phi(p_RQ)^T`` in ``[linear; angular]`` order.
        """
        out = ArticulatedBodyInertia.__new__(ArticulatedBodyInertia)
        out._P = self._P.copy()
        return out.shift_in_place(p_QR)

    def shift_in_place(self, p_QR) -> "ArticulatedBodyInertia":
        """In-place :meth:`shift` by ``p_QR: (3,)`` (as :meth:`shift`); returns ``self``."""
        X = np.eye(6)
        X[:3, 3:] = skew(as_array(p_QR, (3,), "p_QR"))
        P = X.T @ self._P @ X
        self._P = 0.5 * (P + P.T)
        return self

    def _other(self, other) -> np.ndarray:
        if not isinstance(other, ArticulatedBodyInertia):
            raise TypeError(f"expected an ArticulatedBodyInertia, got {type(other).__name__}")
        return other._P

    def __iadd__(self, other: "ArticulatedBodyInertia") -> "ArticulatedBodyInertia":
        """``P_AQ_E += P_BQ_E``: both about the same point, in the same frame."""
        self._P = self._P + self._other(other)
        return self

    def __isub__(self, other: "ArticulatedBodyInertia") -> "ArticulatedBodyInertia":
        self._P = self._P - self._other(other)
        return self

    def __add__(self, other: "ArticulatedBodyInertia") -> "ArticulatedBodyInertia":
        return ArticulatedBodyInertia(self._P + self._other(other))

    def __sub__(self, other: "ArticulatedBodyInertia") -> "ArticulatedBodyInertia":
        return ArticulatedBodyInertia(self._P - self._other(other))

    def __mul__(self, rhs):
        """``P * A`` for a spatial acceleration (:class:`Motion`) gives a :class:`Force`; ``P * X`` for a
        ``(6,)`` vector or ``(6, N)`` matrix gives the matrix product."""
        if isinstance(rhs, Motion):
            return Force(self._P @ rhs.vector)
        rhs = np.asarray(rhs, dtype=np.float64)
        if rhs.ndim == 0 or rhs.shape[0] != 6 or rhs.ndim > 2:
            raise ValueError(f"rhs: expected shape (6,) or (6, N), got {rhs.shape}")
        return self._P @ rhs

    def __matmul__(self, rhs):
        return self * rhs

    def __rmatmul__(self, lhs):
        """``X @ P`` for ``X: (N, 6)``."""
        lhs = np.asarray(lhs, dtype=np.float64)
        if lhs.shape[-1] != 6:
            raise ValueError(f"lhs: expected shape (N, 6), got {lhs.shape}")
        return lhs @ self._P

    def __array__(self, dtype=None, copy=None):
        return self._P.astype(dtype) if dtype is not None else self._P.copy()

    def __eq__(self, other) -> bool:
        return isinstance(other, ArticulatedBodyInertia) and bool(np.array_equal(self._P, other._P))

    __hash__ = None

    def __repr__(self) -> str:
        return f"ArticulatedBodyInertia({self._P.tolist()})"
