"""Argument checks shared by the solver layer: finite vectors and friction coefficients, with errors that name the
argument. The solvers are called once per time step, so the checks avoid numpy's per-call overhead: finiteness is
tested by a compiled loop (about 0.2 us), not ``np.all(np.isfinite(x))`` (several us)."""

from __future__ import annotations

import numpy as np

from ..algorithms._check import vector
from ..kernels import checks as _checks
from ..kernels import contact_solvers as _solvers
from ..kernels.direct import direct
from ..spatial._validate import as_scalar

_k = direct(_solvers)
_checks_k = direct(_checks)


def finite_vector(x, n: int, name: str) -> np.ndarray:
    """``x`` as a C-contiguous float64 ``(n,)`` array with finite entries, else a ``ValueError`` naming ``name``."""
    x = vector(x, n, name)
    if not _checks_k.all_finite(x):
        raise ValueError(f"{name}: contains non-finite values (NaN or inf)")
    return x


def friction_coefficient(mu, name: str = "mu") -> float:
    """``mu`` as a float, finite and non-negative, else a ``ValueError``/``TypeError`` naming ``name``."""
    value = as_scalar(mu, name)
    if value < 0.0:
        raise ValueError(f"{name}: a friction coefficient must be >= 0, got {value}")
    return value


def friction_coefficients(mu, k: int) -> np.ndarray:
    """``mu`` (a float, or one per contact) as a ``(k,)`` array, finite and non-negative."""
    if isinstance(mu, np.ndarray) and mu.ndim == 1 or isinstance(mu, (list, tuple)):
        mu = vector(mu, k, "mu")
        if not _k.all_friction_coefficients(mu):
            raise ValueError(f"mu: friction coefficients must be finite and >= 0, got {mu}")
        return mu
    out = np.empty(k)
    out.fill(friction_coefficient(mu))
    return out
