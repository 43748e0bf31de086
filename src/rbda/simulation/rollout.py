"""Batched rollouts: many independent simulations of one scene, spread over the cores (``rbda.batch.rollout``).

Each worker has one :class:`Simulator` of the scene (its workspace; the model is shipped once per worker process,
not once per state) and runs its share of the states one after the other, each from a fresh warm start, exactly as
a loop of :meth:`Simulator.rollout` would. A rollout is one compiled kernel call that releases the GIL
(:mod:`rbda.simulation.compiled_rollout`; Python only for the steps where a pair without a compiled contact
function is near, or every step for a scene with bilateral constraints), so threads run states at once with no
Python between steps: the thread backend, the default for such scenes.
"""

from __future__ import annotations

import math
import os
import queue
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed

import numpy as np
from numpy.typing import ArrayLike

from ..io.geometry import GeometryModel
from ..model import Model
from .packed import rollout_compiled
from .progress import progress_bar
from .simulator import Simulator

BACKENDS = ("process", "thread", "serial")
_worker = threading.local()  # the worker process's Simulator


def _make(model, collision_model, dt, options):
    _worker.sim = Simulator(model, collision_model, dt, **options)


def _run(first, Q0, V0, TAUS, sim=None, out=None):
    """Roll out the states ``first, first + 1, ...`` on ``sim`` (default: this worker's simulator) into ``out = (Q,
    V)`` (the batch's output rows; default: new arrays); an error names its state."""
    sim = sim or _worker.sim
    B, T = TAUS.shape[0], TAUS.shape[1]
    Q, V = out if out is not None else (np.empty((B, T + 1, Q0.shape[1])), np.empty((B, T + 1, V0.shape[1])))
    for b in range(B):
        sim.reset()
        try:
            sim._rollout_into(Q[b], V[b], Q0[b], V0[b], TAUS[b])
        except ValueError as exc:
            raise ValueError(f"state {first + b}: {exc}") from None
    return first, Q, V


def _run_threaded(free, make, first, Q0, V0, TAUS, out):
    """:func:`_run` into ``out`` on a simulator taken from the queue ``free`` and given back (one per thread: each
    its own workspace), or made by ``make()`` if none is free (in the worker thread: the pool's simulators are built
    side by side)."""
    try:
        sim = free.get_nowait()
    except queue.Empty:
        sim = make()
    try:
        return _run(first, Q0, V0, TAUS, sim, out)
    finally:
        free.put(sim)


def _outputs(out, *shapes: tuple) -> list:
    """The arrays of the tuple ``out``, each checked to be C-contiguous float64 of its shape in ``shapes``, or new
    ones if None."""
    if out is None:
        return [np.empty(shape) for shape in shapes]
    if not (isinstance(out, (tuple, list)) and len(out) == len(shapes) and all(
            isinstance(o, np.ndarray) and o.shape == shape and o.dtype == np.float64 and o.flags.c_contiguous
            for o, shape in zip(out, shapes))):
        raise ValueError(f"out: expected a tuple of C-contiguous float64 arrays of shapes {list(shapes)}")
    return list(out)


def _batch(x, shape: tuple, name: str) -> np.ndarray:
    """``x`` as a float64 array of ``shape`` (``-1``: any size), finite, else a ``ValueError``/``TypeError``."""
    try:
        a = np.ascontiguousarray(np.asarray(x, dtype=np.float64))
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected an array of shape {shape}, got {type(x).__name__}") from None
    if a.ndim != len(shape) or any(s != -1 and s != n for s, n in zip(shape, a.shape)):
        want = "(" + ", ".join(str(s) if s != -1 else "B" if i == 0 else "T" for i, s in enumerate(shape)) + ")"
        raise ValueError(f"{name}: expected shape {want}, got {a.shape}")
    if not np.isfinite(a).all():
        b = int(np.flatnonzero(~np.isfinite(a).reshape(a.shape[0], -1).all(axis=1))[0])
        raise ValueError(f"{name}: state {b} contains non-finite values (NaN or inf)")
    return a


def rollout(model: Model, collision_model: GeometryModel, Q0: ArrayLike, V0: ArrayLike, TAUS: ArrayLike, dt: float,
            workers: int | None = None,
            backend: str | None = None, progress: bool | None = None, out: tuple | None = None, **options):
    """:func:`rbda.batch.rollout` (its documentation is there)."""
    if backend is not None and backend not in BACKENDS:
        raise ValueError(f"backend: expected one of {BACKENDS}, got {backend!r}")
    TAUS = _batch(TAUS, (-1, -1, model.nv), "TAUS")
    B, T = TAUS.shape[0], TAUS.shape[1]
    Q0, V0 = _batch(Q0, (B, model.nq), "Q0"), _batch(V0, (B, model.nv), "V0")
    first_sim = Simulator(model, collision_model, dt, **options)  # the options' errors, here, not in a worker
    if backend is None:  # threads where a rollout is one compiled call, processes where Python steps remain
        backend = "thread" if rollout_compiled(first_sim) else "process"
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise ValueError(f"workers: expected an integer >= 1, got {workers!r}")
    workers = min(int(workers), max(B, 1))
    Q, V = _outputs(out, (B, T + 1, model.nq), (B, T + 1, model.nv))
    if B == 0:
        return Q, V
    chunk = max(1, math.ceil(B / (4 * workers)))  # a few chunks per worker: balance and a moving progress bar
    starts = range(0, B, chunk)
    bar = progress_bar(B * T, f"rbda: {B} rollouts", progress)
    with bar:
        if backend == "serial" or workers == 1:
            results = (_run(s, Q0[s:s + chunk], V0[s:s + chunk], TAUS[s:s + chunk], first_sim,
                            (Q[s:s + chunk], V[s:s + chunk])) for s in starts)
            pool = None
        elif backend == "thread":
            free = queue.SimpleQueue()  # the workers' simulators: this one, and those the threads make
            free.put(first_sim)
            pool = ThreadPoolExecutor(workers)
            results = as_completed([pool.submit(_run_threaded, free, lambda: Simulator(model, collision_model, dt,
                                                                                       **options),
                                                s, Q0[s:s + chunk], V0[s:s + chunk], TAUS[s:s + chunk],
                                                (Q[s:s + chunk], V[s:s + chunk])) for s in starts])
        else:
            pool = ProcessPoolExecutor(workers, initializer=_make, initargs=(model, collision_model, dt, options))
            results = as_completed([pool.submit(_run, s, Q0[s:s + chunk], V0[s:s + chunk], TAUS[s:s + chunk])
                                    for s in starts])
        try:
            for r in results:
                first, q, v = r if pool is None else r.result()
                if pool is not None and backend == "process":  # (serial and thread workers wrote into Q, V)
                    Q[first:first + len(q)], V[first:first + len(q)] = q, v
                bar.update(len(q) * T)
        finally:
            if pool is not None:
                pool.shutdown(cancel_futures=True)
    return Q, V


def _dask_shapes(model, collision_model, Q0, V0, TAUS, *args, **kwargs):
    """The trailing shapes and dtypes of ``rollout``'s two outputs for a batch ``TAUS`` of shape ``(B, T, nv)``."""
    T = TAUS[1]
    return [((T + 1, model.nq), np.dtype(np.float64)), ((T + 1, model.nv), np.dtype(np.float64))]


