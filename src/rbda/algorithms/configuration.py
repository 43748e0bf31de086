"""Configuration space: the Lie-group operations of the whole model, joint by joint (Pinocchio's
``integrate``, ``difference``, ``interpolate``, ``distance``, ``neutral``, ``normalize``, ...)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from enum import IntEnum

import numpy as np

from ..kernels import configuration
from .._native.direct import direct
from .._native.public import public
from ._check import report, vector

if TYPE_CHECKING:
    from ..model import Model
    from numpy.typing import ArrayLike

_k = direct(configuration)  # the kernels, past numba's per-call dispatch


# Each function first tries its fast entry bound to the model (``model.fast_entries``, ``_native/fastcall.py``),
# which fills the output allocated here and answers True (or the result), or None for the checked path below.
@public("as is", holder="model")
def integrate(model: Model, q: ArrayLike, v: ArrayLike) -> np.ndarray:
    """``q (+) v``: the configuration ``(nq,)`` reached from ``q: (nq,)`` with velocity ``v: (nv,)`` in unit time."""
    n = model.nq  # first: a Data passed as the model raises here, naming the mistake
    out = model.fast_entries.integrate(model, q, v)
    if out is None:
        out = np.empty(n)
        I, F = model.packed
        status = _k.integrate(I, F, vector(q, model.nq, "q"), vector(v, model.nv, "v"), out)
        if status:
            report(status, ("q", "v"), model, (q, v))
    return out


@public("as is", holder="model")
def difference(model: Model, q0: ArrayLike, q1: ArrayLike) -> np.ndarray:
    """``q1 (-) q0``: the velocity ``(nv,)`` with ``integrate(q0, difference(q0, q1)) == q1``."""
    n = model.nv  # first: a Data passed as the model raises here, naming the mistake
    out = model.fast_entries.difference(model, q0, q1)
    return out if out is not None else _differences(_k.difference, model, q0, q1, np.empty(n))


@public("as is", holder="model")
def interpolate(model: Model, q0: ArrayLike, q1: ArrayLike, alpha: float) -> np.ndarray:
    """``q0 (+) alpha (q1 (-) q0)``, ``(nq,)``."""
    n = model.nq  # first: a Data passed as the model raises here, naming the mistake
    out = model.fast_entries.interpolate(model, q0, q1, alpha)
    if out is None:
        out = _differences(_k.interpolate, model, q0, q1, float(alpha), np.empty(model.nv), np.empty(n),
                           names=("q0", "q1", "alpha"))
    return out


def _differences(kernel, model: Model, q0: ArrayLike, q1: ArrayLike, *args, names: tuple = ("q0", "q1")) -> np.ndarray:
    """Run ``kernel(I, F, q0, q1, *args)``, one of the kernels that start from ``difference(q0, q1)``, and return
    its output, the last of ``args``; a status names the argument ``names[k]`` (``q0``, ``q1`` and what ``args``
    begin with)."""
    I, F = model.packed
    q0, q1 = vector(q0, model.nq, "q0"), vector(q1, model.nq, "q1")
    status = kernel(I, F, q0, q1, *args)
    if status:
        report(status, names, model, (q0, q1))
    return args[-1]


@public("as is", holder="model")
def squared_distance(model: Model, q0: ArrayLike, q1: ArrayLike) -> np.ndarray:
    """Per-joint squared norms ``(njoints - 1,)`` of ``difference(q0, q1)``."""
    n = model.njoints - 1  # first: a Data passed as the model raises here, naming the mistake
    out = model.fast_entries.squared_distance(model, q0, q1)
    return out if out is not None else _differences(_k.squared_distance, model, q0, q1, np.empty(model.nv), np.empty(n))


@public("as is", holder="model")
def distance(model: Model, q0: ArrayLike, q1: ArrayLike) -> float:
    """Geodesic distance ``|difference(q0, q1)|`` (the sum of the per-joint squared distances, square-rooted)."""
    n = model.nv  # first: a Data passed as the model raises here, naming the mistake
    d = model.fast_entries.distance(model, q0, q1)
    if d is not None:
        return d
    out = np.empty(1)
    _differences(_k.distance, model, q0, q1, np.empty(n), out)
    return float(out[0])


def neutral(model: Model) -> np.ndarray:
    """The neutral configuration ``(nq,)`` (a new array)."""
    q = model.derived_values.get("neutral")
    if q is None:
        I, F = model.packed
        q = model.derived_values["neutral"] = np.zeros(model.nq)
        _k.neutral(I, F, q)
    return q.copy()


@public("as is", holder="model")
def normalize(model: Model, q: ArrayLike) -> np.ndarray:
    """``q`` with its quaternions and (cos, sin) pairs projected back to unit norm (a new array)."""
    n = model.nq  # first: a Data passed as the model raises here, naming the mistake
    out = model.fast_entries.normalize(model, q)
    if out is None:
        out = np.empty(n)
        I, F = model.packed
        if _k.normalized(I, F, vector(q, model.nq, "q"), out):
            raise ValueError("q: contains non-finite values (NaN or inf)")
    return out


@public("as is", holder="model")
def is_normalized(model: Model, q: ArrayLike, prec: float = 1e-12) -> bool:
    """Whether every unit-norm part of ``q`` has norm 1 to ``prec``."""
    n = model.nq  # first: a Data passed as the model raises here, naming the mistake
    answer = model.fast_entries.is_normalized(model, q, prec)
    if answer is not None:
        return answer
    I, F = model.packed
    out = np.empty(1)
    if _k.is_normalized(I, F, vector(q, n, "q"), float(prec), np.empty(n), out):
        raise ValueError("q: contains non-finite values (NaN or inf)")
    return bool(out[0])


@public("as is", holder="model")
def is_same_configuration(model: Model, q0: ArrayLike, q1: ArrayLike, prec: float = 1e-12) -> bool:
    """Whether ``q0`` and ``q1`` ``(nq,)`` are the same point of the manifold to ``prec`` (a quaternion and its
    negative are the same rotation)."""
    n = model.nv  # first: a Data passed as the model raises here, naming the mistake
    answer = model.fast_entries.is_same_configuration(model, q0, q1, prec)
    if answer is not None:
        return answer
    out = np.empty(1)
    _differences(_k.is_same_configuration, model, q0, q1, float(prec), np.empty(n), out)
    return bool(out[0])


_DEFAULT_HALF_RANGE = np.pi  # used where a position limit is infinite


def random_configuration(model: Model, lower_limits: ArrayLike | None = None, upper_limits: ArrayLike | None = None,
                         rng: np.random.Generator | None = None) -> np.ndarray:
    """A random configuration ``(nq,)``: vector-space coordinates uniform between ``lower_limits`` and
    ``upper_limits`` (``(nq,)``, ``model.lower_position_limit``/``upper_position_limit`` when None; infinite limits
    are replaced by ``-pi``/``pi``), uniform rotations for quaternions and angles; drawn with the
    ``numpy.random.Generator`` ``rng`` (a fresh one when None)."""
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


class ArgumentPosition(IntEnum):
    """Which argument a derivative of ``integrate``/``difference`` is taken with respect to (Pinocchio's)."""

    ARG0 = 0
    ARG1 = 1


ARG0, ARG1 = ArgumentPosition.ARG0, ArgumentPosition.ARG1


def _which(arg) -> int:
    """The kernels' ``arg``: 0 (ARG0), 1 (ARG1), or 2 for both (None); identities first (hashing an enum member
    runs Python code)."""
    if arg is ARG0:
        return 0
    if arg is ARG1:
        return 1
    if arg is None:
        return 2
    try:
        return int(ArgumentPosition(arg))
    except (ValueError, TypeError):
        raise ValueError(f"arg: expected ARG0 or ARG1, got {arg!r}") from None


def _jacobians(name, model, x, y, ny, arg, names):
    """Run the kernel ``name`` (``d_integrate`` or ``d_difference``; ``y`` of size ``ny``), first through its fast
    entry, into new ``(nv, nv)`` arrays: one, or two for ``arg`` None."""
    which = _which(arg)
    nv = model.nv
    J0 = np.empty((nv, nv))
    J1 = J0 if which < 2 else np.empty((nv, nv))
    if getattr(model.fast_entries, name)(model, x, y, which, J0, J1):
        return J0 if which < 2 else (J0, J1)
    I, F = model.packed
    status = getattr(_k, name)(I, F, vector(x, model.nq, names[0]), vector(y, ny, names[1]), which, J0, J1)
    if status:
        report(status, names, model, (x, y))
    return J0 if which < 2 else (J0, J1)


def d_integrate(model: Model, q: ArrayLike, v: ArrayLike, arg: ArgumentPosition | int | None = None):
    """Derivatives ``(nv, nv)`` of ``integrate(q, v)`` with respect to ``q`` (``ARG0``) or ``v`` (``ARG1``), in the
    tangent spaces; both as a tuple when ``arg`` is None. Block-diagonal, one block per joint (identities on vector
    spaces; ``Ad(exp nu)^-1`` and the right Jacobian ``Jexp(nu)`` of the joint's twist ``nu`` on Lie groups)."""
    return _jacobians("d_integrate", model, q, v, model.nv, arg, ("q", "v"))


def d_difference(model: Model, q0: ArrayLike, q1: ArrayLike, arg: ArgumentPosition | int | None = None):
    """Derivatives ``(nv, nv)`` of ``difference(q0, q1)`` with respect to ``q0`` (``ARG0``) or ``q1`` (``ARG1``);
    both as a tuple when ``arg`` is None. Block-diagonal (``-1``, ``1`` on vector spaces)."""
    return _jacobians("d_difference", model, q0, q1, model.nq, arg, ("q0", "q1"))


def d_integrate_transport(model: Model, q: ArrayLike, v: ArrayLike, J: ArrayLike, arg: ArgumentPosition | int | None):
    """``d_integrate(q, v, arg) @ J``: moves the columns of ``J`` ``(nv, k)`` (or ``(nv,)``) from the tangent space at
    ``q`` (for ``ARG0``; of ``v`` for ``ARG1``) to the one at ``integrate(q, v)`` (Pinocchio's
    ``dIntegrateTransport``), joint block by joint block: ``O(nv k)``."""
    if arg is None:
        raise ValueError("arg: expected ARG0 or ARG1, got None")
    which = _which(arg)
    if type(J) is np.ndarray and J.ndim == 2:  # first the fast entry, which takes a C-contiguous float64 J
        out = np.empty(J.shape)
        if model.fast_entries.d_integrate_transport(model, q, v, which, J, out):
            return out
    J = np.asarray(J, dtype=np.float64)
    if J.ndim not in (1, 2) or J.shape[0] != model.nv:
        raise ValueError(f"J: expected shape ({model.nv}, k), got {J.shape}")
    I, F = model.packed
    J2 = np.ascontiguousarray(J[:, None] if J.ndim == 1 else J)
    out = np.empty(J2.shape)
    status = _k.d_integrate_transport(I, F, vector(q, model.nq, "q"), vector(v, model.nv, "v"), which, J2, out)
    if status:
        report(status, ("q", "v", "J"), model, (q, v))
    return out.reshape(J.shape)
