"""Batched kernels on every core: runs of a batch, one per thread, each a call of a kernel that releases the GIL.

A batched kernel (``nogil=True``) takes, after its arrays, the run it computes, ``first, last``: a range of chunks
(one workspace per chunk, ``WS[c]``) or of states, as the kernel's docstring says. :func:`run` calls it once per
run, the first in the calling thread and the others on a pool of threads kept for the process, and waits for all.
numba's ``parallel=True`` would compile a second copy of every kernel a batch reaches (the outlined loop body),
at several times the compile time of the kernel itself; these threads cost one Python call per run.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor, wait

_pools: dict = {}  # (pid, thread count) -> ThreadPoolExecutor
_lock = threading.Lock()


def thread_count() -> int:
    """The threads a batch runs on: numba's ``get_num_threads()`` (``NUMBA_NUM_THREADS``, ``numba.set_num_threads``
    in the calling thread)."""
    from .jit import load

    return load().get_num_threads()


def chunk_runs(n: int) -> list[tuple[int, int]]:
    """``[(c, c + 1)]`` for the ``n`` chunks (workspaces) of a batch: one chunk a run."""
    return [(c, c + 1) for c in range(n)]


def state_runs(states: int, n: int) -> list[tuple[int, int]]:
    """The ``states`` of a batch cut into ``n`` contiguous runs ``(first, last)`` (as even as they divide)."""
    return [(c * states // n, (c + 1) * states // n) for c in range(n)]


def pool(n: int) -> ThreadPoolExecutor:
    """A pool of ``n`` threads kept for this process, one per thread count (``numba.set_num_threads`` is per calling
    thread, so two threads may ask for different counts at once: no pool is shut down while another thread may
    submit to it); a forked child makes its own (it inherits the parent's pools but not their threads)."""
    key = (os.getpid(), n)
    found = _pools.get(key)
    if found is None:
        with _lock:
            for stale in [k for k in _pools if k[0] != key[0]]:
                del _pools[stale]
            found = _pools.setdefault(key, ThreadPoolExecutor(n, thread_name_prefix="rbda-batch"))
    return found


def run(kernel, args: tuple, runs: list[tuple[int, int]]) -> None:
    """``kernel(*args, first, last)`` for each run, at once: the first run in this thread, the others on
    :func:`pool`; returns when all are done (raising the first error of a run)."""
    if len(runs) == 1:
        kernel(*args, *runs[0])
        return
    others = [pool(len(runs) - 1).submit(kernel, *args, *r) for r in runs[1:]]
    try:
        kernel(*args, *runs[0])
    finally:
        wait(others)  # every run ended (they write into the caller's arrays), then the first error of theirs
    for other in others:
        other.result()
