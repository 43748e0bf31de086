"""Batched rollouts: many independent simulations of one scene, spread over the cores (``rbda.batch.rollout``, and
:class:`RolloutPool`, whose workers and their simulators last from batch to batch).

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
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor, as_completed, wait

import numpy as np
from numpy.typing import ArrayLike

from ..model.geometry import GeometryModel
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


class RolloutPool:
    """Workers that keep their simulators between batches of rollouts of one scene: ``rbda.batch.rollout``
    without the set-up of each call (the simulators' workspaces, the threads or processes, the scene shipped to
    each process), for a loop that rolls out batch after batch (a sampler, a learner's data collection).

    ``RolloutPool(model, collision_model, dt, workers=None, backend=None, **options)``: the arguments of
    :func:`rbda.batch.rollout` that name the scene and the workers; ``pool.rollout(Q0, V0, TAUS, progress=None,
    out=None)`` then runs a batch exactly as ``rbda.batch.rollout`` would with them (the same results, state by
    state those of a fresh :class:`Simulator`). The scene is the one given when the pool was made. ``close()``
    (or a ``with`` block) stops the workers; a closed pool raises ``RuntimeError``.

    Raises the :class:`Simulator`'s errors for bad options, ``ValueError`` for an unknown backend or
    ``workers < 1``.
    """

    def __init__(self, model: Model, collision_model: GeometryModel, dt: float, workers: int | None = None,
                 backend: str | None = None, **options):
        if backend is not None and backend not in BACKENDS:
            raise ValueError(f"backend: expected one of {BACKENDS}, got {backend!r}")
        self.model, self.collision_model, self.dt, self.options = model, collision_model, dt, options
        self.workers = _worker_count(workers)
        first = Simulator(model, collision_model, dt, **options)  # the options' errors, here, not in a worker
        if backend is None:  # threads where a rollout is one compiled call, processes where Python steps remain
            backend = "thread" if rollout_compiled(first) else "process"
        self._free = queue.SimpleQueue()  # the simulators not running: this one, and those the threads make
        self._free.put(first)
        self.backend = "serial" if self.workers == 1 else backend
        self._pool = None  # the thread or process pool, started by the first batch that uses it
        self._closed = False

    def _simulator(self) -> Simulator:
        """A simulator of the scene for this thread: a free one, or a new one (in the worker thread: the pool's
        simulators are built side by side)."""
        try:
            return self._free.get_nowait()
        except queue.Empty:
            return Simulator(self.model, self.collision_model, self.dt, **self.options)

    def _run_on_free(self, first, Q0, V0, TAUS, out):
        """:func:`_run` into ``out`` on a free simulator (:meth:`_simulator`), given back afterwards."""
        sim = self._simulator()
        try:
            return _run(first, Q0, V0, TAUS, sim, out)
        finally:
            self._free.put(sim)

    def rollout(self, Q0: ArrayLike, V0: ArrayLike, TAUS: ArrayLike, progress: bool | None = None,
                out: tuple | None = None):
        """``B`` rollouts of ``T`` steps on this pool's workers, ``(Q (B, T + 1, nq), V (B, T + 1, nv))``, as
        :func:`rbda.batch.rollout` gives them: ``Q0 (B, nq)``, ``V0 (B, nv)`` the initial states, ``TAUS (B, T, nv)``
        the torques of each step, ``progress`` a tqdm bar (None: on a terminal for long runs), ``out`` a tuple
        ``(Q, V)`` of C-contiguous float64 arrays to write into, or None.

        Raises ``ValueError`` for a wrong shape or a non-finite entry (naming the argument and the state), or a
        step's error prefixed with ``state b:`` (the pool stays usable); ``RuntimeError`` once closed."""
        if self._closed:
            raise RuntimeError("this RolloutPool is closed")
        model = self.model
        TAUS = _batch(TAUS, (-1, -1, model.nv), "TAUS")
        B, T = TAUS.shape[0], TAUS.shape[1]
        Q0, V0 = _batch(Q0, (B, model.nq), "Q0"), _batch(V0, (B, model.nv), "V0")
        Q, V = _outputs(out, (B, T + 1, model.nq), (B, T + 1, model.nv))
        if B == 0:
            return Q, V
        workers = min(self.workers, B)
        serial = self.backend == "serial" or workers == 1
        chunk = max(1, math.ceil(B / (4 * workers)))  # a few chunks per worker: balance and a moving progress bar
        parts = [(s, Q0[s:s + chunk], V0[s:s + chunk], TAUS[s:s + chunk]) for s in range(0, B, chunk)]
        with progress_bar(B * T, f"rbda: {B} rollouts", progress) as bar:
            if serial:
                for s, q0, v0, taus in parts:
                    self._run_on_free(s, q0, v0, taus, (Q[s:s + chunk], V[s:s + chunk]))
                    bar.update(len(taus) * T)
                return Q, V
            if self._pool is None:
                self._pool = (ThreadPoolExecutor(self.workers) if self.backend == "thread" else ProcessPoolExecutor(
                    self.workers, initializer=_make, initargs=(model, self.collision_model, self.dt, self.options)))
            if self.backend == "thread":  # (its workers write into Q, V)
                futures = [self._pool.submit(self._run_on_free, s, q0, v0, taus, (Q[s:s + chunk], V[s:s + chunk]))
                           for s, q0, v0, taus in parts]
            else:
                futures = [self._pool.submit(_run, *part) for part in parts]
            try:
                for future in as_completed(futures):
                    first, q, v = future.result()
                    if self.backend == "process":
                        Q[first:first + len(q)], V[first:first + len(q)] = q, v
                    bar.update(len(q) * T)
            finally:  # after an error: the batch's other tasks cancelled or finished, none writes into Q, V later
                for future in futures:
                    future.cancel()
                wait(futures)
        return Q, V

    def close(self) -> None:
        """Stop the workers (idle: each batch has finished when :meth:`rollout` returns or raises)."""
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def __enter__(self) -> RolloutPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def rollout(model: Model, collision_model: GeometryModel, Q0: ArrayLike, V0: ArrayLike, TAUS: ArrayLike, dt: float,
            workers: int | None = None, backend: str | None = None, progress: bool | None = None,
            out: tuple | None = None, **options):
    """:func:`rbda.batch.rollout` (its documentation is there): one batch on a :class:`RolloutPool` of its own, with
    no more workers than states."""
    TAUS = _batch(TAUS, (-1, -1, model.nv), "TAUS")
    workers = min(_worker_count(workers), max(TAUS.shape[0], 1))
    with RolloutPool(model, collision_model, dt, workers, backend, **options) as pool:
        return pool.rollout(Q0, V0, TAUS, progress, out)


def _worker_count(workers) -> int:
    """``workers`` checked (an integer >= 1, else ``ValueError``), or the number of cores if None."""
    if workers is None:
        workers = os.cpu_count() or 1
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise ValueError(f"workers: expected an integer >= 1, got {workers!r}")
    return int(workers)


def _dask_shapes(model, collision_model, Q0, V0, TAUS, *args, **kwargs):
    """The trailing shapes and dtypes of ``rollout``'s two outputs for a batch ``TAUS`` of shape ``(B, T, nv)``."""
    T = TAUS[1]
    return [((T + 1, model.nq), np.dtype(np.float64)), ((T + 1, model.nv), np.dtype(np.float64))]


