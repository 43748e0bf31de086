"""Configuration space: the Lie-group operations of the whole model, joint by joint (Pinocchio's
``integrate``, ``difference``, ``interpolate``, ``distance``, ``neutral``, ``normalize``, ...)."""

from __future__ import annotations

import numpy as np

from ..kernels import configuration as _k
from ._check import report, vector


def integrate(model, q, v) -> np.ndarray:
    """``q (+) v``: the configuration ``(nq,)`` reached from ``q: (nq,)`` with velocity ``v: (nv,)`` in unit time."""
    I, F = model.packed
    out = np.empty(model.nq)
    status = _k.integrate(I, F, vector(q, model.nq, "q"), vector(v, model.nv, "v"), out)
    if status:
        report(status, ("q", "v"))
    return out


def difference(model, q0, q1) -> np.ndarray:
    """``q1 (-) q0``: the velocity ``(nv,)`` with ``integrate(q0, difference(q0, q1)) == q1``."""
    I, F = model.packed
    out = np.empty(model.nv)
    status = _k.difference(I, F, vector(q0, model.nq, "q0"), vector(q1, model.nq, "q1"), out)
    if status:
        report(status, ("q0", "q1"))
    return out


def interpolate(model, q0, q1, alpha: float) -> np.ndarray:
    """``q0 (+) alpha (q1 (-) q0)``, ``(nq,)``."""
    return integrate(model, q0, float(alpha) * difference(model, q0, q1))


def squared_distance(model, q0, q1) -> np.ndarray:
    """Per-joint squared norms ``(njoints - 1,)`` of ``difference(q0, q1)``."""
    d = difference(model, q0, q1)
    return np.array([d[model.idx_v[i] : model.idx_v[i] + model.nvs[i]] @ d[model.idx_v[i] : model.idx_v[i] + model.nvs[i]]
                     for i in range(1, model.njoints)])


def distance(model, q0, q1) -> float:
    """Geodesic distance ``|difference(q0, q1)|`` (the sum of the per-joint squared distances, square-rooted)."""
    return float(np.sqrt(np.sum(squared_distance(model, q0, q1))))


def neutral(model) -> np.ndarray:
    """The neutral configuration ``(nq,)``."""
    I, F = model.packed
    out = np.zeros(model.nq)
    _k.neutral(I, F, out)
    return out


def normalize(model, q) -> np.ndarray:
    """``q`` with its quaternions and (cos, sin) pairs projected back to unit norm (a new array)."""
    I, F = model.packed
    out = vector(q, model.nq, "q").copy()
    if not np.isfinite(out).all():
        raise ValueError("q: contains non-finite values (NaN or inf)")
    _k.normalize(I, F, out)
    return out


def is_normalized(model, q, prec: float = 1e-12) -> bool:
    """Whether every unit-norm part of ``q`` has norm 1 to ``prec``."""
    q = vector(q, model.nq, "q")
    return bool(np.all(np.abs(normalize(model, q) - q) <= prec))


def is_same_configuration(model, q0, q1, prec: float = 1e-12) -> bool:
    """Whether ``q0`` and ``q1`` are the same point of the manifold (e.g. ``quat`` and ``-quat``)."""
    return bool(np.all(np.abs(difference(model, q0, q1)) <= prec))


_DEFAULT_HALF_RANGE = np.pi  # used where a position limit is infinite


def random_configuration(model, lower_limits=None, upper_limits=None, rng: np.random.Generator | None = None) -> np.ndarray:
    """A random configuration ``(nq,)``: uniform within the limits (``model.lower/upper_position_limit`` by
    default; infinite limits are replaced by ``-pi``/``pi``), uniform rotations for quaternions and angles."""
    rng = np.random.default_rng() if rng is None else rng
    lower = model.lower_position_limit if lower_limits is None else vector(lower_limits, model.nq, "lower_limits")
    upper = model.upper_position_limit if upper_limits is None else vector(upper_limits, model.nq, "upper_limits")
    lower = np.where(np.isfinite(lower), lower, -_DEFAULT_HALF_RANGE)
    upper = np.where(np.isfinite(upper), upper, _DEFAULT_HALF_RANGE)
    if np.any(lower > upper):
        raise ValueError("lower_limits, upper_limits: lower must be <= upper")
    q = np.empty(model.nq)
    for i in range(1, model.njoints):
        s = slice(model.idx_q[i], model.idx_q[i] + model.nqs[i])
        q[s] = model.joints[i].random(rng, lower[s], upper[s])
    return q
