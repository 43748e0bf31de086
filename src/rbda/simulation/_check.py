"""Argument checks shared by the solver layer: finite vectors and friction coefficients, with errors that name the
argument. The solvers are called once per time step, so the checks avoid numpy's per-call overhead: finiteness is
tested by a compiled loop (about 0.2 us), not ``np.all(np.isfinite(x))`` (several us)."""

from __future__ import annotations

import numpy as np

from ..algorithms._check import vector
from ..kernels import checks as _checks
from ..kernels import contact_solvers as _solvers
from .._native.direct import direct
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


_NO_BOX = np.zeros(0)


def box_bounds(lower, upper) -> tuple[np.ndarray, np.ndarray]:
    """The bounds ``(lower (r,), upper (r,))`` of ``r`` box rows (both None: none), not NaN (infinite allowed) and
    ``lower <= upper``, else a ``ValueError``/``TypeError`` naming the argument."""
    if lower is None and upper is None:
        return _NO_BOX, _NO_BOX
    if lower is None or upper is None:
        raise ValueError("lower, upper: give both bounds of the box rows, or neither")
    r = np.shape(lower)[0] if np.ndim(lower) == 1 else -1
    if r < 0:
        raise ValueError(f"lower: expected a vector (r,), got shape {np.shape(lower)}")
    lower, upper = vector(lower, r, "lower"), vector(upper, r, "upper")
    if np.isnan(lower).any() or np.isnan(upper).any():
        raise ValueError("lower, upper: contain NaN")
    if (lower > upper).any():
        raise ValueError(f"lower, upper: need lower <= upper, got {lower} > {upper} at rows "
                         f"{np.flatnonzero(lower > upper).tolist()}")
    return lower, upper
