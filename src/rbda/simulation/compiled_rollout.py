"""Whole rollouts compiled: the two kernels of a step (:mod:`rbda.simulation.compiled`) chained over the steps of
one state, with no Python between steps.

- :func:`rollout_steps` runs steps ``first`` to ``last - 1`` of one state: each step is
  :func:`~rbda.simulation.compiled.dynamics_and_contacts` then :func:`~rbda.simulation.compiled.contact_step`,
  the step's impulses and keys the next step's warm start, ADMM's final penalty its next start (when the solver
  keeps it; the solvers' active-set fast path, on by default, first). It stops at the first step whose input is
  bad, and returns that step and its status.
- It releases the GIL: threads, each with its own simulator (a Data of the model: the workspace), run
  rollouts of different states at once (``rbda.batch.rollout``'s thread backend).

It serves scenes without bilateral constraints (:func:`rbda.simulation.packed.rollout_compiled` decides). A
collision pair without a compiled contact function (two general convex shapes, a half-space against a cone) is
checked by its bounding balls each step: while they lie apart by more than the pair's margin it has no contact and
the step stays compiled; a step where they do not returns to Python (:data:`PYTHON_STEP`), which runs that step
as :meth:`rbda.Simulator.step` does and calls the kernel again.
"""

from __future__ import annotations

import numpy as np
from .._jit import njit

from ..kernels.checks import all_finite
from .compiled import NOT_FINITE_G, PYTHON_STEP, contact_step, dynamics_and_contacts, python_pair_near


@njit(cache=True, nogil=True)
def rollout_steps(I, F, ws, M, L, D, Dinv, lam, nle, oMi, Jw,
                  pairs, gint, gR, gp, gparam, vertices, boxes, support, tree, capacity, work, pair_ids, plane,
                  radius, normals, velocities, twists, limit_q, limit_v, lower_limit, upper_limit, friction_v, friction,
                  damping, dt, margin, speculative, baumgarte, slop, restitution, zeros, no_fext, warm, solver,
                  formulation, options, warm_rho, Q, V, taus, fext, first, last, previous_keys, previous_rows,
                  previous, v_free, R, p, margins):
    """Steps ``t = first, ..., last - 1`` of one state: ``Q[t + 1], V[t + 1]`` from ``Q[t], V[t]`` under ``taus[t]``
    (and ``fext[t]`` if ``fext`` has rows, else none), warm-started from ``previous_keys (kp, 4)``,
    ``previous_rows (rp, 3)``, ``previous (3 kp + rp,)`` (the step before ``first``; empty for a fresh start).
    ``options`` (the solver's, ``packed.solver_options``) is updated in place with ADMM's final penalty when
    ``warm_rho``. The data arrays (``I`` to ``Jw``) and the scene's (``pairs`` to ``friction``) are those
    :func:`rbda.simulation.packed.compiled_step` passes; ``v_free (nv,)``, ``R (ng, 3, 3)``, ``p (ng, 3)``,
    ``margins (npairs,)`` room.

    Returns ``(status, t, contacts, keys, frames, J, bias, lower, upper, rows, impulses, velocities, stats)``:
    ``status`` 0, or the kernel status of step ``t`` (an input status of ``q``/``v``: 1 or 3 non-finite, 2 off
    the manifold; ``compiled.NOT_SPD``; :data:`NOT_FINITE_G`; :data:`PYTHON_STEP`: step ``t`` needs the contacts
    of a pair in Python, the caller runs it and calls again from ``t + 1``), the rest the arrays of the last step completed (empty with ``stats`` zero if none).
    """
    nv = V.shape[1]
    no_rows_J, no_rows_bias, no_rows_keys = np.zeros((0, nv)), np.zeros(0), np.zeros((0, 3), dtype=np.int64)
    contacts, keys, frames = np.zeros((0, 8)), np.zeros((0, 4), dtype=np.int64), np.zeros((0, 3, 3))
    J, bias, lower, upper = np.zeros((0, nv)), np.zeros(0), np.zeros(0), np.zeros(0)
    rows, impulses, velocities_out, stats = np.zeros((0, 3), dtype=np.int64), previous, np.zeros(0), np.zeros(7)
    with_fext = fext.shape[0] > 0
    for t in range(first, last):
        if t > first and not (all_finite(Q[t]) and all_finite(V[t])):  # the input statuses of q, v
            return (1 if not all_finite(Q[t]) else 3, t, contacts, keys, frames, J, bias, lower, upper, rows,
                    impulses, velocities_out, stats)
        force = fext[t] if with_fext else zeros
        status, step_contacts, step_keys = dynamics_and_contacts(
            I, F, ws, M, L, D, Dinv, lam, nle, oMi, Jw, Q[t], V[t], taus[t], force,
            damping, dt, zeros, no_fext, pairs, gint, gR, gp, gparam, vertices, boxes, tree, margin, speculative,
            capacity, work, v_free, R, p, margins, pair_ids, plane, radius, normals, velocities, twists)
        if not status and python_pair_near(pairs, gparam, p, margins):
            status = PYTHON_STEP
        if status:
            return (status, t, contacts, keys, frames, J, bias, lower, upper, rows, impulses, velocities_out,
                    stats)
        step = contact_step(I, F, M, L, Dinv, lam, Jw, support, Q[t], V[t], v_free, dt, margin, baumgarte, slop,
                            restitution, step_contacts, step_keys, gint[:, 1], limit_q, limit_v, lower_limit,
                            upper_limit, friction_v, friction, no_rows_J, no_rows_bias, no_rows_keys, previous_keys,
                            previous_rows, previous, warm, solver, formulation, options, Q[t + 1], V[t + 1])
        if step[8][0] < 0:
            return (NOT_FINITE_G, t, contacts, keys, frames, J, bias, lower, upper, rows, impulses,
                    velocities_out, stats)
        contacts, keys = step_contacts, step_keys
        impulses, velocities_out, J, frames, bias, lower, upper, rows, stats = step
        previous_keys, previous_rows, previous = keys, rows, impulses
        if warm_rho:
            options[15] = stats[5]
    return 0, last, contacts, keys, frames, J, bias, lower, upper, rows, impulses, velocities_out, stats
