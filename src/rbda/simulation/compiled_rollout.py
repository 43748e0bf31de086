"""Whole rollouts compiled: :func:`rbda.simulation.compiled.step` chained over the steps of one state, with no
Python between steps.

- :func:`rollout_steps` runs steps ``first`` to ``last - 1`` of one state on a simulator's step context
  (:mod:`rbda.simulation.step_context`): each step writes one of the context's two output sets and is warm-started
  from the other (the step's impulses and keys the next step's warm start), ADMM's final penalty its next start
  (when the solver keeps it; the solvers' active-set fast path, on by default, first). It stops at the first step
  whose input is bad, and returns that step and its status.
- It releases the GIL: threads, each with its own simulator (a Data of the model and its packed scene: the
  workspace), run rollouts of different states at once (``rbda.batch.rollout``'s thread backend).

It serves scenes without bilateral constraints (:func:`rbda.simulation.packed.rollout_compiled` decides). A step
that finds more contacts than the output buffers hold returns (``compiled.TOO_MANY_CONTACTS``): the caller enlarges
them and calls the kernel again from that step.
"""

from __future__ import annotations

from .._native.jit import njit

from .compiled import UNCONVERGED, step


@njit(cache=True, nogil=True)
def rollout_steps(ctx, Q, V, taus, fext, first, last):
    """Steps ``t = first, ..., last - 1`` of one state: ``Q[t + 1], V[t + 1]`` from ``Q[t], V[t]`` under ``taus[t]``
    (and ``fext[t]`` if ``fext`` has rows, else none), each by :func:`~rbda.simulation.compiled.step` on the step
    context ``ctx`` (its settings and solver options :meth:`rbda.Simulator.step`'s), the first warm-started from the
    output set ``ctx.parity[0]`` names (the step before ``first``'s, or a warm start written there), each next one
    from the set its predecessor wrote (which ``ctx.parity[0]`` then names).

    Returns ``(status, t)``: ``status`` 0, or the kernel status of step ``t`` (an input status: 1 or 3 for a
    non-finite ``q`` or ``v``, 2 off the manifold; ``compiled.NOT_SPD``; ``compiled.NOT_FINITE_G``;
    ``compiled.NOT_FINITE_STEP``; ``compiled.TOO_MANY_CONTACTS``: step ``t``'s contacts do not fit, the caller
    enlarges the buffers and calls again from ``t``), steps before ``t`` kept. A step whose solve stopped short of
    its tolerances (``compiled.UNCONVERGED``) is kept as the others are.
    """
    with_fext = fext.shape[0] > 0
    for t in range(first, last):
        force = fext[t] if with_fext else ctx.zeros
        status = step(ctx, Q[t], V[t], taus[t], force, Q[t + 1], V[t + 1])
        if status and status != UNCONVERGED:
            return status, t
    return 0, last
