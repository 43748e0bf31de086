"""Cross-product matrices: ``skew(u) @ v == cross(u, v)``."""

from __future__ import annotations

import numpy as np

from ._validate import as_array


def skew(u) -> np.ndarray:
    """Skew-symmetric matrix of ``u: (3,)``, returns ``(3, 3)`` with ``skew(u) @ v == u x v``."""
    x, y, z = as_array(u, (3,), "u")
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def cross3(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a x b`` along the first axis, unchecked: of two 3-vectors, or column by column of ``(3, n)`` arrays (either
    may be one 3-vector); about 2 us where ``np.cross`` takes 10 to 20."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]])


def unskew(S) -> np.ndarray:
    """Vector of the skew-symmetric part of ``S: (3, 3)``, returns ``(3,)`` (inverse of :func:`skew`)."""
    S = as_array(S, (3, 3), "S")
    return 0.5 * np.array([S[2, 1] - S[1, 2], S[0, 2] - S[2, 0], S[1, 0] - S[0, 1]])


def skew_square(u, v) -> np.ndarray:
    """``skew(u) @ skew(v)`` for ``u, v: (3,)``, returns ``(3, 3)``, formed as ``v u^T - (u . v) I``."""
    u = as_array(u, (3,), "u")
    v = as_array(v, (3,), "v")
    return np.outer(v, u) - np.dot(u, v) * np.eye(3)
