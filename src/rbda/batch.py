"""Batched algorithms: the same names and arguments as the single-state ones, minus ``data``, over a leading
batch axis, running on every core (``numba.prange``) with no Python work per state (DESIGN.md §3).

>>> import numpy as np, rbda
>>> model = rbda.sample_models.manipulator()
>>> Q = np.stack([rbda.random_configuration(model) for _ in range(4)])
>>> rbda.batch.rnea(model, Q, np.zeros((4, 6)), np.zeros((4, 6))).shape
(4, 6)
"""

from __future__ import annotations

import numba
import numpy as np

from .algorithms._check import report
from .kernels import batch as _k
from .model.data import new_workspace


def _workspaces(model, batch: int) -> np.ndarray:
    """One workspace per thread (at most one per state)."""
    n = max(1, min(numba.get_num_threads(), batch))
    return np.stack([new_workspace(model.njoints, model.nv, model.nframes) for _ in range(n)])


def _stack(x, width: int, name: str, batch: int | None = None) -> np.ndarray:
    a = np.ascontiguousarray(np.asarray(x, dtype=np.float64))
    if a.ndim != 2 or a.shape[1] != width or (batch is not None and a.shape[0] != batch):
        rows = "B" if batch is None else str(batch)
        raise ValueError(f"{name}: expected shape ({rows}, {width}), got {a.shape}")
    return a


def _out(out, shape: tuple, name: str = "out") -> np.ndarray:
    if out is None:
        return np.empty(shape)
    if not (isinstance(out, np.ndarray) and out.shape == shape and out.dtype == np.float64 and out.flags.c_contiguous):
        raise ValueError(f"{name}: expected a C-contiguous float64 array of shape {shape}")
    return out


def _raise(status: np.ndarray, names: tuple) -> None:
    bad = np.flatnonzero(status)
    if bad.size:
        try:
            report(int(status[bad[0]]), names)
        except ValueError as exc:
            raise ValueError(f"state {bad[0]}: {exc}") from None


def rnea(model, Q, V, A, out=None) -> np.ndarray:
    """``tau[b] = rnea(Q[b], V[b], A[b])``; ``Q: (B, nq)``, ``V, A: (B, nv)``, returns ``(B, nv)``."""
    I, F = model.packed
    Q = _stack(Q, model.nq, "Q")
    B = Q.shape[0]
    V, A = _stack(V, model.nv, "V", B), _stack(A, model.nv, "A", B)
    out, status = _out(out, (B, model.nv)), np.zeros(B, dtype=np.int64)
    _k.rnea(I, F, _workspaces(model, B), Q, V, A, out, status)
    _raise(status, ("Q", "V", "A"))
    return out


def aba(model, Q, V, TAU, out=None) -> np.ndarray:
    """``ddq[b] = aba(Q[b], V[b], TAU[b])``, returns ``(B, nv)``."""
    I, F = model.packed
    Q = _stack(Q, model.nq, "Q")
    B = Q.shape[0]
    V, TAU = _stack(V, model.nv, "V", B), _stack(TAU, model.nv, "TAU", B)
    out, status = _out(out, (B, model.nv)), np.zeros(B, dtype=np.int64)
    _k.aba(I, F, _workspaces(model, B), Q, V, TAU, out, status)
    _raise(status, ("Q", "V", "TAU"))
    return out


def crba(model, Q, out=None) -> np.ndarray:
    """``M[b] = crba(Q[b])``, returns ``(B, nv, nv)``."""
    I, F = model.packed
    Q = _stack(Q, model.nq, "Q")
    out, status = _out(out, (Q.shape[0], model.nv, model.nv)), np.zeros(Q.shape[0], dtype=np.int64)
    _k.crba(I, F, _workspaces(model, Q.shape[0]), Q, out, status)
    _raise(status, ("Q",))
    return out


def compute_minverse(model, Q, out=None) -> np.ndarray:
    """``Minv[b] = M(Q[b])^-1``, returns ``(B, nv, nv)``."""
    I, F = model.packed
    Q = _stack(Q, model.nq, "Q")
    out, status = _out(out, (Q.shape[0], model.nv, model.nv)), np.zeros(Q.shape[0], dtype=np.int64)
    _k.minverse(I, F, _workspaces(model, Q.shape[0]), Q, out, status)
    _raise(status, ("Q",))
    return out


def forward_kinematics(model, Q, out=None) -> np.ndarray:
    """Joint placements ``oMi`` for each state, returns ``(B, njoints, 3, 4)`` arrays ``[R | p]``."""
    I, F = model.packed
    Q = _stack(Q, model.nq, "Q")
    out, status = _out(out, (Q.shape[0], model.njoints, 3, 4)), np.zeros(Q.shape[0], dtype=np.int64)
    _k.forward_kinematics(I, F, _workspaces(model, Q.shape[0]), Q, out, status)
    _raise(status, ("Q",))
    return out


def compute_joint_jacobians(model, Q, out=None) -> np.ndarray:
    """World-frame joint Jacobians ``data.J`` for each state, returns ``(B, 6, nv)``."""
    I, F = model.packed
    Q = _stack(Q, model.nq, "Q")
    out, status = _out(out, (Q.shape[0], 6, model.nv)), np.zeros(Q.shape[0], dtype=np.int64)
    _k.joint_jacobians(I, F, _workspaces(model, Q.shape[0]), Q, out, status)
    _raise(status, ("Q",))
    return out
