"""Whole rollouts compiled: :func:`rbda.simulation.compiled.step` chained over the steps of one state, with no
Python between steps.

- :func:`rollout_steps` runs steps ``first`` to ``last - 1`` of one state on a simulator's step context
  (:mod:`rbda.simulation.step_context`): each step writes one of the context's two output sets and is warm-started
  from the other (the step's impulses and keys the next step's warm start), ADMM's final penalty its next start
  (when the solver keeps it; the solvers' active-set fast path, on by default, first). It stops at the first step
  whose input is bad, and returns that step and its status.
- It releases the GIL: threads, each with its own simulator (a Data of the model and its packed scene: the
  workspace), run rollouts of different states at once (``rbda.batch.rollout``'s thread backend).

It serves scenes without bilateral constraints (:func:`rbda.simulation.packed.rollout_compiled` decides). A
collision pair without a compiled contact function (two general convex shapes, a half-space against a cone) is
checked by its bounding balls each step: while they lie apart by more than the pair's margin it has no contact and
the step stays compiled; a step where they do not returns to Python (``compiled.PYTHON_STEP``), which runs that step
as :meth:`rbda.Simulator.step` does and calls the kernel again.
"""

from __future__ import annotations

from .._jit import njit

from ..kernels.checks import all_finite
from .compiled import step


@njit(cache=True, nogil=True)
def rollout_steps(ctx, parity, Q, V, taus, fext, first, last, damping, dt, margin, speculative, baumgarte, slop,
                  restitution, warm, solver, formulation, options, warm_rho, previous_keys, previous_rows, previous,
                  kp, rp):
    """Steps ``t = first, ..., last - 1`` of one state: ``Q[t + 1], V[t + 1]`` from ``Q[t], V[t]`` under ``taus[t]``
    (and ``fext[t]`` if ``fext`` has rows, else none), each by :func:`~rbda.simulation.compiled.step` on the step
    context ``ctx``, the first warm-started from ``kp`` contacts and ``rp`` rows of ``previous_keys (kp, 4)``,
    ``previous_rows (rp, 3)``, ``previous (3 kp + rp,)`` (the step before ``first``, which must not lie in the
    output set ``1 - parity``; empty for a fresh start), each next one from the output set its predecessor wrote.
    The settings are :meth:`rbda.Simulator.step`'s; ``options`` (the solver's, ``packed.solver_options``) is
    updated in place with ADMM's final penalty when ``warm_rho``.

    Returns ``(status, t, parity, k, r)``: ``status`` 0, or the kernel status of step ``t`` (an input status of
    ``q``/``v``: 1 or 3 non-finite, 2 off the manifold; ``compiled.NOT_SPD``; ``compiled.NOT_FINITE_G``;
    ``compiled.PYTHON_STEP``: step ``t`` needs the contacts of a pair in Python, the caller runs it and calls again from
    ``t + 1``); the output set of the last step completed and its numbers of contacts and rows (those given, if
    none was).
    """
    with_fext = fext.shape[0] > 0
    k, r = kp, rp
    for t in range(first, last):
        if t > first and not (all_finite(Q[t]) and all_finite(V[t])):  # the input statuses of q, v
            return 1 if not all_finite(Q[t]) else 3, t, parity, k, r
        if t > first:  # the previous step's results: the warm start
            previous_keys, previous_rows = ctx.out_keys[parity], ctx.out_rows[parity]
            previous = ctx.out_impulses[parity]
        force = fext[t] if with_fext else ctx.zeros
        status, k_next, r_next = step(ctx, 1 - parity, Q[t], V[t], taus[t], force, damping, dt, margin, speculative,
                                      baumgarte, slop, restitution, warm, solver, formulation, options, previous_keys,
                                      previous_rows, previous, k, r, Q[t + 1], V[t + 1])
        if status:
            return status, t, parity, k, r
        parity, k, r = 1 - parity, k_next, r_next
        if warm_rho:
            options[15] = ctx.out_stats[parity, 5]
    return 0, last, parity, k, r
