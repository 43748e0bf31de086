"""Argument checks shared by the solver layer: finite vectors and friction coefficients, with errors that name the
argument."""

from __future__ import annotations

import numpy as np

from ..algorithms._check import vector
from ..spatial._validate import as_scalar


def finite_vector(x, n: int, name: str) -> np.ndarray:
    """``x`` as a C-contiguous float64 ``(n,)`` array with finite entries, else a ``ValueError`` naming ``name``."""
    x = vector(x, n, name)
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name}: contains non-finite values (NaN or inf)")
    return x


def friction_coefficient(mu, name: str = "mu") -> float:
    """``mu`` as a float, finite and non-negative, else a ``ValueError``/``TypeError`` naming ``name``."""
    mu = as_scalar(mu, name)
    if mu < 0.0:
        raise ValueError(f"{name}: a friction coefficient must be >= 0, got {mu}")
    return mu


def friction_coefficients(mu, k: int) -> np.ndarray:
    """``mu`` (a float, or one per contact) as a ``(k,)`` array, finite and non-negative."""
    if np.ndim(mu) == 0:
        return np.full(k, friction_coefficient(mu))
    mu = finite_vector(mu, k, "mu")
    if np.any(mu < 0.0):
        raise ValueError(f"mu: friction coefficients must be >= 0, got a minimum of {mu.min()}")
    return mu
