"""``rbda._native.threads``: the runs of a batch, one per thread, each run once, errors raised in the caller."""

import threading

import numpy as np
import pytest

from rbda._native import threads


@pytest.mark.parametrize("states, n", [(1, 1), (7, 2), (2, 2), (100, 3), (5, 8)])
def test_state_runs_cut_the_batch_into_contiguous_runs(states, n):
    runs = threads.state_runs(states, n)
    assert len(runs) == n and runs[0][0] == 0 and runs[-1][1] == states
    assert all(a[1] == b[0] for a, b in zip(runs, runs[1:]))
    sizes = [last - first for first, last in runs]
    assert max(sizes) - min(sizes) <= 1


def test_every_run_runs_once_the_first_in_the_calling_thread():
    seen, names = np.zeros(10, dtype=int), {}

    def kernel(out, first, last):
        names[first] = threading.current_thread().name
        for c in range(first, last):
            out[c] += 1

    threads.run(kernel, (seen,), threads.chunk_runs(10))
    assert (seen == 1).all()
    assert names[0] == threading.current_thread().name
    assert all(names[c].startswith("rbda-batch") for c in range(1, 10))


def test_an_error_in_a_run_reaches_the_caller_after_every_run_ended():
    done = []

    def kernel(first, last):
        if first == 1:
            raise ValueError("run 1")
        done.append(first)

    with pytest.raises(ValueError, match="run 1"):
        threads.run(kernel, (), threads.chunk_runs(3))
    assert sorted(done) == [0, 2]


def test_the_batched_kernels_are_numba_free_of_parallel_regions():
    """No kernel asks numba for ``parallel=True`` (its outlined loop body compiled every kernel a batch reaches a
    second time): the batches run on these threads."""
    from pathlib import Path

    import rbda

    root = Path(rbda.__file__).parent
    offenders = [str(p.relative_to(root)) for p in root.rglob("*.py")
                 if p.name != "threads.py" and "parallel=True" in p.read_text()]
    assert offenders == []
