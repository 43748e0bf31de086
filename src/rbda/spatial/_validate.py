"""Argument checks shared by the public functions: shape, dtype and finiteness, with errors that name the argument."""

from __future__ import annotations

import math

import numpy as np


def as_array(x, shape: tuple, name: str) -> np.ndarray:
    """Return ``x`` as a float64 array of exactly ``shape`` (``-1`` matches any length), all entries finite.

    Raises ``ValueError`` naming ``name``, the expected and the received shape, or the non-finite entry.
    """
    try:
        a = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name}: expected a real array of shape {_fmt(shape)}, got {type(x).__name__}") from exc
    if a.ndim != len(shape) or any(s != -1 and s != n for s, n in zip(shape, a.shape)):
        raise ValueError(f"{name}: expected shape {_fmt(shape)}, got {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name}: contains non-finite values (NaN or inf)")
    return a


def as_points(x, name: str) -> np.ndarray:
    """Return ``x`` as a finite float64 array of shape ``(3,)`` or ``(N, 3)``."""
    a = np.asarray(x, dtype=np.float64)
    if a.ndim == 1:
        return as_array(a, (3,), name)
    return as_array(a, (-1, 3), name)


def as_scalar(x, name: str) -> float:
    """Return ``x`` as a finite Python float."""
    try:
        s = float(x)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{name}: expected a real scalar, got {type(x).__name__}") from exc
    if not math.isfinite(s):
        raise ValueError(f"{name}: must be finite, got {s}")
    return s


def positive(x, name: str) -> float:
    """Return ``x`` as a finite Python float > 0, else a ``ValueError`` naming ``name``."""
    x = as_scalar(x, name)
    if not x > 0.0:
        raise ValueError(f"{name}: must be > 0, got {x}")
    return x


def non_negative(x, name: str) -> float:
    """Return ``x`` as a finite Python float >= 0, else a ``ValueError`` naming ``name``."""
    x = as_scalar(x, name)
    if not x >= 0.0:
        raise ValueError(f"{name}: must be >= 0, got {x}")
    return x


def _fmt(shape: tuple) -> str:
    return "(" + ", ".join("N" if s == -1 else str(s) for s in shape) + (",)" if len(shape) == 1 else ")")
