"""Cross-product matrices: ``skew(u) @ v == cross(u, v)``."""

from __future__ import annotations

import numpy as np

from ._validate import as_array


def skew(u) -> np.ndarray:
    """Skew-symmetric matrix of ``u: (3,)``, returns ``(3, 3)`` with ``skew(u) @ v == u x v``."""
    x, y, z = as_array(u, (3,), "u")
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def unskew(S) -> np.ndarray:
    """Vector of the skew-symmetric part of ``S: (3, 3)``, returns ``(3,)`` (inverse of :func:`skew`)."""
    S = as_array(S, (3, 3), "S")
    return 0.5 * np.array([S[2, 1] - S[1, 2], S[0, 2] - S[2, 0], S[1, 0] - S[0, 1]])


def skew_square(u, v) -> np.ndarray:
    """``skew(u) @ skew(v)`` for ``u, v: (3,)``, returns ``(3, 3)``, formed as ``v u^T - (u . v) I``."""
    u = as_array(u, (3,), "u")
    v = as_array(v, (3,), "v")
    return np.outer(v, u) - np.dot(u, v) * np.eye(3)
