"""Entry-point checks of the public algorithms: sizes, dtype, finiteness and unit quaternions.

The fast path accepts a C-contiguous float64 array of the right shape after four attribute reads; anything else
goes through the slow path, which converts or raises a ``ValueError`` naming the argument and both shapes.
Finiteness and normalisation are checked inside the kernels (``kernels/configuration.py``) where they cost
nanoseconds, and reported here by name.
"""

from __future__ import annotations

import numpy as np

from ..kernels.checks import SINGULAR, WRONG_DATA
from ..model.data import Data
from ..spatial._validate import as_array

_F64 = np.dtype(np.float64)  # the usual float64 dtype instance (numba's arrays carry another one)
_F64_NUM = _F64.num
_UNIT_STRIDE = (8,)
NONE = np.zeros(0)  # an optional array argument left out: kernels take it empty, never None (_native/direct.py)
SINGULAR_INERTIA = ("model: the joint-space inertia M(q) is singular (a massless subtree, or zero inertia about a "
                    "joint axis); forward dynamics and M^-1 are undefined, add armature or mass")


def vector(x, n: int, name: str, _ndarray=np.ndarray, _f64=_F64, _unit=_UNIT_STRIDE) -> np.ndarray:
    """``x`` as a C-contiguous float64 array of shape ``(n,)`` (a strided view is copied: the kernels are compiled
    for contiguous vectors). The fast path (about 0.1 us; the defaults make its globals local names) reads
    strides ``(8,)`` as one-dimensional and contiguous, compares the length, then the dtype by identity or, as
    arrays made by numba (``data.tau`` and its copies) carry another float64 dtype instance, by number; anything
    it does not accept goes through the full conversion."""
    if type(x) is _ndarray and x.strides == _unit and len(x) == n and (x.dtype is _f64 or x.dtype.num == _F64_NUM):
        return x
    return np.ascontiguousarray(as_array(x, (n,), name))


def matrix(x, shape: tuple, name: str) -> np.ndarray:
    """``x`` as a C-contiguous float64 array of exactly ``shape``."""
    if type(x) is np.ndarray and x.shape == shape and x.dtype.num == _F64_NUM and x.flags.c_contiguous:
        return x
    return np.ascontiguousarray(as_array(x, shape, name))


def check_data(model, data) -> None:
    """Raise if ``data`` was not created for a model of ``model``'s sizes."""
    if data.model_sizes != (model.njoints, model.nv, model.nframes):
        raise ValueError(
            f"data: created for a model with (njoints, nv, nframes) = {data.model_sizes}, "
            f"this model has {(model.njoints, model.nv, model.nframes)}; use model.create_data()"
        )


def report(status: int, names: tuple, model=None, values: tuple = ()) -> None:
    """Turn a kernel's input status into an error: ``1 + 2k`` non-finite ``names[k]``, ``2 + 2k`` ``names[k]`` off
    the configuration manifold (with ``model`` and the argument ``values[k]``, the error names the joint and the
    norm)."""
    if status == WRONG_DATA:
        raise ValueError("data: was created for another model (sizes differ); use model.create_data()")
    if status == SINGULAR:
        raise ValueError(SINGULAR_INERTIA)
    k, kind = divmod(status - 1, 2)
    if kind == 0:
        raise ValueError(f"{names[k]}: contains non-finite values (NaN or inf)")
    where = _off_manifold(model, values[k]) if model is not None and k < len(values) else ""
    raise ValueError(
        f"{names[k]}: is not a valid configuration: {where or 'a quaternion or (cos, sin) pair is not of unit norm'}; "
        "use rbda.normalize(model, q)"
    )


def states(x, width: int, name: str, batch: int | None = None) -> np.ndarray:
    """``x`` as a C-contiguous float64 array of shape ``(B, width)`` (``B`` given by ``batch`` when not None): the
    states of a batched function; a ``TypeError`` for a Data or what is not an array, a ``ValueError`` naming
    ``name`` and both shapes."""
    rows = "B" if batch is None else str(batch)
    if isinstance(x, Data):
        raise TypeError(f"{name}: expected an array of shape ({rows}, {width}), got a Data; the batched functions "
                        "take no data: rbda.batch.f(model, Q, ...)")
    try:
        a = np.ascontiguousarray(np.asarray(x, dtype=np.float64))
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected an array of shape ({rows}, {width}), got {type(x).__name__}") from None
    if a.ndim != 2 or a.shape[1] != width or (batch is not None and a.shape[0] != batch):
        raise ValueError(f"{name}: expected shape ({rows}, {width}), got {a.shape}")
    return a


def report_states(status: np.ndarray, names: tuple) -> None:
    """Raise the error of the first state whose kernel status is not 0, prefixed with ``state k``."""
    bad = np.flatnonzero(status)
    if bad.size:
        try:
            report(int(status[bad[0]]), names)
        except ValueError as exc:
            raise ValueError(f"state {bad[0]}: {exc}") from None


def _off_manifold(model, q) -> str:
    """Which joint's part of ``q`` is not of unit norm, and its norm (quaternions are ``(x, y, z, w)``)."""
    from ..joints import JointModelMimic

    q = np.asarray(q, dtype=np.float64)
    for i in range(1, model.njoints):
        joint, iq, nq = model.joints[i], model.idx_q[i], model.nqs[i]
        if isinstance(joint, JointModelMimic) or nq == 0:
            continue
        qi = q[iq : iq + nq]
        try:
            if np.all(np.abs(joint.normalize(qi) - qi) <= 1e-6):
                continue
        except ZeroDivisionError:  # a zero quaternion or (cos, sin) pair: off the manifold, reported below
            pass
        unit = np.flatnonzero(joint.normalize(np.full(nq, 2.0)) != 2.0)  # the entries of unit-norm parts
        part = "quaternion (x, y, z, w)" if len(unit) == 4 else "(cos, sin) pair" if len(unit) == 2 else "unit parts"
        return (f"the {part} of joint {model.names[i]!r} (id {i}, q[{iq + unit[0]}:{iq + unit[-1] + 1}]) has norm "
                f"{np.linalg.norm(qi[unit]):.6g}, not 1")
    return ""
