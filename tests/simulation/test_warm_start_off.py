"""The compiled step without a warm start: PGS and ADMM start from zero impulses, as the Python reference does."""

import numpy as np

from rbda.io import Box
from rbda.simulation.simulator import reference_step

from test_compiled_step import free_body, twins


def test_no_warm_start_starts_pgs_from_zero():
    """``warm_start=False``: the compiled step's PGS starts from zero impulses, as the reference's (it started from
    the previous step's impulses: 1e-3 m/s apart after 5 steps at 3 sweeps), in Simulator.step and rollout. The
    iterations alone (no active-set fast path, which solves this box exactly: its start would not show)."""
    for solver in ("pgs", "admm"):
        a, b, q, v = twins(free_body(Box([0.1, 0.1, 0.1]), 1.0, solver=solver, warm_start=False,
                                     solver_options=dict(max_iter=3, active_set_max_iter=0)))
        qa, va, qb, vb = q.copy(), v.copy(), q.copy(), v.copy()
        for _ in range(5):
            qa, va = a.step(qa, va, np.zeros(6))
            qb, vb = reference_step(b, qb, vb, np.zeros(6))
            np.testing.assert_allclose(a.impulses, b.impulses, atol=1e-12)
        np.testing.assert_allclose(va, vb, atol=1e-12)
        a.reset()
        Q, V = a.rollout(q, v, np.zeros((5, 6)))
        np.testing.assert_allclose(V[-1], vb, atol=1e-12)
