"""What a :class:`rbda.Simulator` keeps from one step to the next, in one object with named fields
(:class:`StepState`, the simulator's ``step_state``): the warm start and when to try it as it is, the compiled
step's context and which of its two output sets holds the last step, and the last step's results.

A one-call step (:func:`rbda.simulation.packed.compiled_step`) writes its results into one of the two output sets
of its step context and reads its warm start from the other (the context's ``parity`` names the set of the last
step, its counts the numbers of contacts and rows); its results are not copied out: ``last`` is :data:`IN_SET`, and
the simulator's properties build their arrays from the set when read. A step whose output buffers were enlarged, a
copy and an unpickled simulator keep arrays of their own (:class:`StepArrays`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np


class StepArrays(NamedTuple):
    """A compiled step's results, ``k`` contacts, ``r`` rows, ``m = 3k + r``."""

    contacts: np.ndarray  # (k, 8): distance, point (3), normal (3), friction coefficient
    keys: np.ndarray  # (k, 4) int: pair index, point index, the pair's two geometry objects
    frames: np.ndarray  # (k, 3, 3): contact frames, the normal last
    J: np.ndarray  # (m, nv): the contacts' rows, then the rows'
    v_free: np.ndarray  # (nv,): the velocity without contact impulses
    bias: np.ndarray  # (r,): the rows' biases
    lower: np.ndarray  # (r,): the rows' lower bounds
    upper: np.ndarray  # (r,): the rows' upper bounds
    rows: np.ndarray  # (r, 3) int: the rows' keys (kind, a, b)
    impulses: np.ndarray  # (m,)
    velocities: np.ndarray  # (m,): G lambda + g

    def copy(self) -> StepArrays:
        """The same results in arrays of their own."""
        return StepArrays(*(x.copy() for x in self))


class InSet:
    """The last step's results are in the output set of the step context that its ``parity`` names (its counts: the
    numbers of contacts and rows): the one value :data:`IN_SET`."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "IN_SET"

    def __reduce__(self) -> str:  # (copied and unpickled as the one value)
        return "IN_SET"


IN_SET = InSet()


class WarmStart(NamedTuple):
    """The next compiled step's warm start: the previous step's contact keys ``(k, 4)``, row keys ``(r, 3)`` and
    impulses ``(3k + r,)``."""

    keys: np.ndarray
    rows: np.ndarray
    impulses: np.ndarray

    @staticmethod
    def empty() -> WarmStart:
        return WarmStart(np.zeros((0, 4), dtype=np.int64), np.zeros((0, 3), dtype=np.int64), np.zeros(0))


@dataclass(eq=False)
class CompiledContext:
    """The compiled step's context, built for ``data`` (built again if the simulator's data is replaced): the
    numba object ``kernel`` (:mod:`rbda.simulation.step_context`), its output ``sets`` (two dicts of arrays),
    ``arrays`` (every array it refers to: the context borrows them, so they are kept here); ``parity`` its array
    naming the set of the last step; the sizes ``nq``, ``nv`` and ``zeros (nv,)`` (the step's "no ``fext``");
    ``options_source`` the solver's options record last copied into the context's (``solver._options``: the
    solver's settings are copied again when it changes), ``solver_dict`` that solver's ``__dict__`` (where each step
    invalidates its statistics) and ``raw_stats`` the ``(out_stats, parity)`` pair its statistics are read from."""

    data: object
    kernel: object
    sets: tuple
    arrays: dict
    parity: np.ndarray
    nq: int
    nv: int
    zeros: np.ndarray
    options_source: object = None
    solver_dict: dict | None = None
    raw_stats: tuple = ()


@dataclass(eq=False)
class StepState:
    """A simulator's bookkeeping between steps (see the module)."""

    warm: WarmStart = field(default_factory=WarmStart.empty)  # the next compiled step's warm start
    warm_in_set: bool = False  # whether the warm start is also in the output set the next one-call step reads
    backoff: tuple | None = (0, 0)  # (failed, wait) of compiled.guess_backoff; None: in the last set's counts
    context: CompiledContext | None = None  # built at the first compiled step
    last: InSet | StepArrays | None = None  # the last compiled step's results
    contacts: object = None  # the last step's ContactSet, once built (from ``last`` when read)
    rows: object = None  # the last step's ConstraintRows, once built
    reference: tuple | None = None  # reference_step's results: (3k, impulses, velocities)
    previous: dict = field(default_factory=dict)  # reference_step's warm start: impulses by key
    unconverged: bool = False  # whether a step's solve has stopped short of its tolerances (warned once)
