"""Compiled contact solvers on a dense Delassus matrix ``G (m, m)``, ``m = 3k + r``: projected Gauss-Seidel and
ADMM, each a whole solve in one call (the loops, the dense Cholesky factorisation of ``G + damping I`` and the
stopping tests), for the formulations of ``kernels/cones.py`` (NCP, CCP, LCP).

The first ``3k`` rows are ``k`` frictional contacts (``mu (k,)``); the last ``r`` rows are one-dimensional box
constraints ``lower_j <= lambda_j <= upper_j`` (``lower, upper (r,)``, infinite bounds allowed) whose velocity obeys
the box's complementarity ``lambda_j = clip(lambda_j - v_j, lower_j, upper_j)``: a joint limit is ``[0, inf)``
(Signorini's condition on one row), dry joint friction ``[-F, F]``, a bilateral constraint ``(-inf, inf)``
(``v_j = 0``). Their shift is zero in every formulation.

Both solves start with the exact fast path of ``kernels/active_set.py`` (``active_set_max_iter`` active sets,
each counted as an iteration) and iterate only if it fails. A solver's options come as one record of the
structured type :data:`SOLVER_OPTIONS` (an array of one, read by field name); each solve returns its statistics as
a tuple and writes the impulses into ``lam``, which holds the warm start on entry.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from .checks import all_finite
from .constrained import damped_cholesky, dense_cholesky_solve
from .active_set import active_set_solve, add_rows, velocities, within
from .cones import (CCP, COULOMB, LCP, NCP, PYRAMID, box_residuals, complementarity_residuals, coulomb_project,
                    project, shift)

#: A contact solver's options (``rbda.simulation.PGSSolver``'s and ``ADMMSolver``'s settings, of the same names),
#: one record: ``np.zeros(1, SOLVER_OPTIONS)``.
SOLVER_OPTIONS = np.dtype([
    ("solver", np.int64),  # the simulator's step: ADMM or PGS (rbda.simulation.compiled)
    ("formulation", np.int64),  # kernels/cones.py: NCP, CCP or LCP
    ("max_iter", np.int64),
    ("active_set_max_iter", np.int64),  # the exact fast path's active sets (0: none)
    ("tolerances", np.float64, (4,)),  # absolute and relative feasibility, absolute and relative complementarity
    ("over_relaxation", np.float64),  # PGS
    ("mu_prox", np.float64),  # ADMM from here on
    ("tau", np.float64),
    ("rho", np.float64),  # NaN: the spectral rule's start, sqrt(top mu_prox) (top / mu_prox)^spectral_rho_power_init
    ("rho_min", np.float64),
    ("rho_max", np.float64),
    ("ratio_primal_dual", np.float64),
    ("rho_update", np.int64),  # RHO_SPECTRAL, RHO_OSQP, RHO_LINEAR or RHO_CONSTANT
    ("rho_increment", np.float64),  # NaN: the spectral rule's, (top / mu_prox)^spectral_rho_power_factor
    ("spectral_rho_power_init", np.float64),
    ("spectral_rho_power_factor", np.float64),
    ("warm_start_rho", np.bool_),  # the simulator's step: start from the previous step's final penalty
])
ADMM, PGS = 0, 1  # SOLVER_OPTIONS.solver
RHO_SPECTRAL, RHO_OSQP, RHO_LINEAR, RHO_CONSTANT = 0, 1, 2, 3
RHO_REVERSALS = 16  # each reversal of ADMM's penalty update halves its power down to 1 / 16; the next one stops it


@njit(cache=True)
def copy_vector(src, out):
    """``out[:] = src``, element by element: numba's slice assignment compiles a shape-mismatch error path (string
    formatting, about 2 s of the first compile)."""
    for k in range(out.shape[0]):
        out[k] = src[k]


@njit(cache=True)
def power_iteration(G, max_iter, tol):
    """The largest eigenvalue of a symmetric positive semi-definite ``G`` by power iteration from a fixed start
    (ones plus a ramp, not orthogonal to a leading eigenvector by symmetry), stopped when the Rayleigh quotient
    changes by less than ``tol`` relatively."""
    m = G.shape[0]
    x = 1.0 + np.arange(m) / max(m, 1)
    x /= np.linalg.norm(x)
    y = np.empty(m)  # (both vectors made once: an iteration allocates nothing)
    value = 0.0
    for _ in range(max_iter):
        np.dot(G, x, y)
        new = np.dot(x, y)
        norm = np.linalg.norm(y)
        if norm == 0.0:
            return 0.0
        for i in range(m):
            x[i] = y[i] / norm
        if abs(new - value) <= tol * abs(new):
            return new
        value = new
    return value


@njit(cache=True)
def is_symmetric(G, rtol):
    """Whether ``|G_ij - G_ji| <= rtol max |G|`` for every pair, and every entry is finite."""
    m = G.shape[0]
    scale = 0.0
    for r in range(m):
        for c in range(m):
            if not np.isfinite(G[r, c]):
                return False
            scale = max(scale, abs(G[r, c]))
    for r in range(m):
        for c in range(r):
            if abs(G[r, c] - G[c, r]) > rtol * scale:
                return False
    return True


@njit(cache=True)
def all_friction_coefficients(mu):
    """Whether every entry of ``mu`` is a friction coefficient: finite and >= 0."""
    for k in range(mu.shape[0]):
        if not (np.isfinite(mu[k]) and mu[k] >= 0.0):
            return False
    return True


@njit(cache=True)
def _gershgorin(G, k, m):
    """An upper bound of the largest eigenvalue of the ``m x m`` diagonal block of ``G`` at ``k`` (the largest
    absolute row sum): ``1 / bound`` is a safe projected-gradient step on that block."""
    bound = 0.0
    for r in range(k, k + m):
        row = 0.0
        for c in range(k, k + m):
            row += abs(G[r, c])
        bound = max(bound, row)
    return bound


@njit(cache=True)
def _row_velocity(G, g, lam, r):
    """``(G lam + g)_r``."""
    acc = g[r]
    for c in range(lam.shape[0]):
        acc += G[r, c] * lam[c]
    return acc


@njit(cache=True)
def pgs_sweep(formulation, G, g, mu, lam, omega, lower, upper):
    """One projected Gauss-Seidel sweep over the contacts, in place on ``lam``, with over-relaxation ``omega``;
    returns the largest change of an impulse component.

    NCP and LCP update the normal impulse first (Signorini: ``lam_n = max(0, lam_n - omega v_n / G_nn)``), then
    the tangent impulse with the new normal one: NCP a gradient step on the tangent block followed by the radial
    projection on the disc ``||lam_t|| <= mu lam_n`` (sliding then meets friction opposed to it, at the bound);
    LCP each axis clipped to ``[-mu lam_n, mu lam_n]``. CCP takes a projected gradient step on the whole block.
    Then each box row: ``lam_j = clip(lam_j - omega v_j / G_jj, lower_j, upper_j)``."""
    tiny = 1e-300
    change = 0.0
    for i in range(mu.shape[0]):
        k = 3 * i
        old1, old2, oldn = lam[k], lam[k + 1], lam[k + 2]
        if formulation == CCP:
            step = omega / max(_gershgorin(G, k, 3), tiny)
            v1, v2, vn = (_row_velocity(G, g, lam, k), _row_velocity(G, g, lam, k + 1),
                          _row_velocity(G, g, lam, k + 2))
            lam[k], lam[k + 1], lam[k + 2] = coulomb_project(old1 - step * v1, old2 - step * v2,
                                                             oldn - step * vn, mu[i])
        else:
            if G[k + 2, k + 2] > tiny:
                lam[k + 2] = max(0.0, oldn - omega * _row_velocity(G, g, lam, k + 2) / G[k + 2, k + 2])
            bound = mu[i] * lam[k + 2]
            if formulation == NCP:
                step = omega / max(_gershgorin(G, k, 2), tiny)
                t1 = old1 - step * _row_velocity(G, g, lam, k)
                t2 = old2 - step * _row_velocity(G, g, lam, k + 1)
                r = np.sqrt(t1 * t1 + t2 * t2)
                scale = bound / r if r > bound else 1.0
                lam[k], lam[k + 1] = scale * t1, scale * t2
            else:
                for a in range(k, k + 2):
                    if G[a, a] > tiny:
                        t = lam[a] - omega * _row_velocity(G, g, lam, a) / G[a, a]
                        lam[a] = min(bound, max(-bound, t))
                    else:
                        lam[a] = min(bound, max(-bound, lam[a]))
        change = max(change, abs(lam[k] - old1), abs(lam[k + 1] - old2), abs(lam[k + 2] - oldn))
    first = 3 * mu.shape[0]
    for j in range(lower.shape[0]):
        a = first + j
        old = lam[a]
        t = old - omega * _row_velocity(G, g, lam, a) / G[a, a] if G[a, a] > tiny else old
        lam[a] = min(upper[j], max(lower[j], t))
        change = max(change, abs(lam[a] - old))
    return change


@njit(cache=True)
def admm_update(formulation, mu, lower, upper, g, x, x_prev, y, z, rhs, penalty, mu_prox, p):
    """The projection and dual steps of one ADMM iteration, after the linear step gave ``x``; in place on ``y``,
    ``z`` and ``rhs``, returns ``(primal, dual, complementarity, ||y||_inf, ||z||_inf)``.

    ``y = proj_K(x - z / r)``, ``z <- z - r (x - y)`` (``r = tau rho``, the penalty), then the right-hand side
    of the next linear step (:func:`admm_rhs`). Residuals: primal
    ``||x - y||``, dual ``||r (y - y_prev) + mu_prox (x - x_prev)||``, complementarity ``max_i |y_i . z_i|`` over
    the contacts and the natural-map residual ``|y_j - clip(y_j - z_j)|`` over the box rows (the box's projection
    is a clip). ``p (m,)``: work space."""
    cone = PYRAMID if formulation == LCP else COULOMB
    primal, dual, compl, y_max, z_max = 0.0, 0.0, 0.0, 0.0, 0.0
    m, first = x.shape[0], 3 * mu.shape[0]
    for i in range(mu.shape[0]):
        k = 3 * i
        p[k], p[k + 1], p[k + 2] = project(cone, x[k] - z[k] / penalty, x[k + 1] - z[k + 1] / penalty,
                                           x[k + 2] - z[k + 2] / penalty, mu[i])
    for j in range(lower.shape[0]):
        a = first + j
        p[a] = min(upper[j], max(lower[j], x[a] - z[a] / penalty))
    for a in range(m):
        dy = p[a] - y[a]
        y[a] = p[a]
        z[a] -= penalty * (x[a] - p[a])
        primal = max(primal, abs(x[a] - p[a]))
        dual = max(dual, abs(penalty * dy + mu_prox * (x[a] - x_prev[a])))
        y_max = max(y_max, abs(p[a]))
        z_max = max(z_max, abs(z[a]))
    for i in range(mu.shape[0]):
        k = 3 * i
        compl = max(compl, abs(y[k] * z[k] + y[k + 1] * z[k + 1] + y[k + 2] * z[k + 2]))
    for j in range(lower.shape[0]):
        a = first + j
        compl = max(compl, abs(y[a] - min(upper[j], max(lower[j], y[a] - z[a]))))
    admm_rhs(formulation, mu, g, x, y, z, penalty, mu_prox, rhs)
    return primal, dual, compl, y_max, z_max


@njit(cache=True)
def admm_rhs(formulation, mu, g, x, y, z, penalty, mu_prox, rhs):
    """The right-hand side of ADMM's linear step, ``rhs = r y + mu_prox x - g - s(z) + z`` (no shift on the box
    rows after the contacts)."""
    for a in range(x.shape[0]):
        rhs[a] = penalty * y[a] + mu_prox * x[a] - g[a] + z[a]
    for i in range(mu.shape[0]):
        k = 3 * i
        rhs[k + 2] -= shift(formulation, z[k], z[k + 1], mu[i])


@njit(cache=True)
def pgs_solve(options, rounds, G, g, mu, lower, upper, lam, integers, floats):
    """Projected Gauss-Seidel sweeps (:func:`pgs_sweep`) until the dual feasibility and the complementarity
    (``complementarity_residuals``, :func:`box_residuals`) are within tolerance, or ``max_iter`` sweeps; after at
    most ``rounds`` active sets of the fast path. ``options``: a :data:`SOLVER_OPTIONS` record array. ``lam
    (m,)``: the warm start in, the impulses out; ``integers``, ``floats``: room for the fast path's arrays
    (``active_set.workspace``; empty: new ones). Returns ``(iterations, converged, dual feasibility,
    complementarity)``; a sweep that would leave a non-finite impulse is undone and ends the solve."""
    o = options[0]
    formulation, omega, max_iter, tolerances = o.formulation, o.over_relaxation, o.max_iter, o.tolerances
    m = g.shape[0]
    v, previous = np.empty(m), np.empty(m)
    dual, compl, converged, it = np.inf, np.inf, False, 0
    rounds = min(rounds, max_iter)
    if rounds > 0:  # the exact fast path first (kernels/active_set.py), each active set counted as an iteration
        it, accepted, _, dual, compl = active_set_solve(formulation, G, g, mu, lower, upper, lam, rounds,
                                                        tolerances, integers, floats)
        if accepted:
            return it, True, dual, compl
    for it in range(it + 1, max_iter + 1):
        copy_vector(lam, previous)
        pgs_sweep(formulation, G, g, mu, lam, omega, lower, upper)
        if not all_finite(lam):
            copy_vector(previous, lam)
            break
        velocities(G, g, lam, v)
        dual, compl = complementarity_residuals(formulation, mu, lam, v)
        dual, compl = box_residuals(3 * mu.shape[0], lower, upper, lam, v, dual, compl)
        if within(tolerances, 0.0, dual, compl, np.abs(lam).max(), np.abs(v).max()):
            converged = True
            break
    return it, converged, dual, compl


@njit(cache=True)
def updated_rho(rule, rho, primal, dual, ratio, increment, rho_min, rho_max, power):
    """ADMM's penalty after its update rule, when the primal and dual residuals differ by more than ``ratio``:
    spectral and linear rules multiply or divide it by ``increment``, the OSQP-like rule multiplies it by
    ``sqrt(primal / dual)``; the constant rule keeps it. The factor is raised to ``power`` (see
    :func:`admm_solve`: halved at each reversal of the update's direction), the result clamped to ``[rho_min,
    rho_max]``."""
    if rule == RHO_CONSTANT or power == 0.0 or (primal <= ratio * dual and dual <= ratio * primal):
        return rho
    if rule == RHO_OSQP:
        factor = np.sqrt(primal / dual) if dual > 0.0 else ratio
    else:
        factor = increment if primal > ratio * dual else 1.0 / increment
    return min(rho_max, max(rho_min, rho * factor ** power))


@njit(cache=True)
def box_dual(lower, upper, c):
    """``c`` projected on the dual of a box row's recession cone: ``R`` for a bounded box, ``[0, inf)`` for
    ``[lower, inf)``, ``(-inf, 0]`` for ``(-inf, upper]``, ``{0}`` for a bilateral row."""
    low, up = np.isfinite(lower), np.isfinite(upper)
    if low and up:
        return c
    if low:
        return max(c, 0.0)
    if up:
        return min(c, 0.0)
    return 0.0


JOINT_SPACE = 2  # ADMM factors G + d I in the joint space when G has more than JOINT_SPACE rows per dof


@njit(cache=True, refcount=False)
def gram_lower(J, out):
    """The lower triangle of ``J^T J (nv, nv)`` into ``out``, each row of ``J (m, nv)`` added over its nonzero
    entries (a contact row is zero off its bodies' supports)."""
    nv = J.shape[1]
    for i in range(nv):
        for j in range(i + 1):
            out[i, j] = 0.0
    for r in range(J.shape[0]):
        for i in range(nv):
            a = J[r, i]
            if a != 0.0:
                for j in range(i + 1):
                    out[i, j] += a * J[r, j]


@njit(cache=True, refcount=False)
def joint_space_factor(M, parents, gram, d, K, zeros, factor):
    """The Cholesky factor of ``K = d M + J^T J (nv, nv)`` into ``factor``: ``M`` read on its branch-induced
    pattern (each dof's entries with itself and its ancestors, ``parents`` the dofs' parents, -1 at a root: the
    entries its sparse factor reads; the others are zero), ``gram`` the lower triangle of ``J^T J``
    (:func:`gram_lower`), ``K`` and ``zeros (nv,)`` work space. Returns False if ``K`` is not positive definite."""
    nv = M.shape[0]
    for i in range(nv):
        for j in range(i + 1):
            K[i, j] = gram[i, j]
        j = i
        while j >= 0:
            K[i, j] += d * M[i, j]
            j = parents[j]
    return damped_cholesky(K, zeros, factor, nv)


@njit(cache=True, refcount=False)
def joint_space_solve(J, factor, d, x, t):
    """In place ``x = (G + d I)^-1 x`` for ``G = J M^-1 J^T`` by Woodbury's identity, ``(G + d I)^-1 = (I - J K^-1
    J^T) / d`` with ``K = d M + J^T J`` factored in ``factor`` (:func:`joint_space_factor`); ``t (nv,)``: work
    space. (Its rounding error, about ``eps (sigma_max + d) / d`` relative, is the dense factor's own when ``G``
    is singular, as it is with more rows than dofs.)"""
    for i in range(t.shape[0]):
        t[i] = 0.0
    add_rows(J, x, t)  # J^T x
    dense_cholesky_solve(factor, t, t.shape[0])
    for r in range(J.shape[0]):
        acc = x[r]
        for i in range(t.shape[0]):
            acc -= J[r, i] * t[i]
        x[r] = acc / d


@njit(cache=True)
def admm_solve(options, rho, rounds, G, g, mu, lower, upper, lam, warm, J, M, parents, integers, floats):
    """ADMM on ``G``, De Saxcé's shift updated at each iteration (see ``rbda.simulation.ADMMSolver`` for the
    iteration). ``lam (m,)``: the warm start in (used if ``warm``), the projected impulses ``y`` out. Returns
    ``(iterations, converged, primal, dual, complementarity, rho, factorisations)``; ``factorisations = -1`` if
    ``G + (mu_prox + tau rho) I`` is not positive definite even at ``rho_max`` (``lam`` is then the last
    projected iterate). A step that would leave a non-finite value is undone and ends the solve. ``rho`` follows
    :func:`updated_rho`; each reversal of its direction halves the power of the update's factor, the one after
    it reaches ``1 / RHO_REVERSALS`` stops the updates. ``options``: a :data:`SOLVER_OPTIONS` record array;
    ``rho`` the starting penalty, ``rounds`` the fast path's most active sets. A ``rho_increment`` of NaN is
    ``(top / mu_prox)^spectral_rho_power_factor`` and a ``rho`` of NaN the spectral rule's start (clamped), with
    ``top`` the largest eigenvalue of ``G``, found only when the iterations start (a rho left NaN by an accepted
    fast path is returned NaN). ``J (m, nv)``, ``M (nv, nv)``, ``parents (nv,)``: ``G = J M^-1 J^T``
    and the mass matrix's branch-induced pattern, or ``J`` with no column for none; given, and ``G`` has more than
    :data:`JOINT_SPACE` rows per dof (many contacts on few bodies), ``G + d I`` is factored in the joint space
    (:func:`joint_space_factor`, ``nv^3 / 6`` instead of ``m^3 / 6``: talos lying on 35 points, 133 rows, 4 us
    instead of 108 us a factorisation) and solved by Woodbury's identity (:func:`joint_space_solve`). ``integers``,
    ``floats``: room for the fast path's arrays (``active_set.workspace``; empty: new ones)."""
    o = options[0]
    formulation, mu_prox, tau, rho_min, rho_max = o.formulation, o.mu_prox, o.tau, o.rho_min, o.rho_max
    ratio, increment, tolerances, max_iter, rule = (o.ratio_primal_dual, o.rho_increment, o.tolerances, o.max_iter,
                                                    o.rho_update)
    m = g.shape[0]
    cone = PYRAMID if formulation == LCP else COULOMB
    start, rounds = 0, min(rounds, max_iter)
    if rounds > 0:  # the exact fast path first (kernels/active_set.py), each active set counted as an iteration
        guess = lam if warm else np.zeros(m)
        start, accepted, primal, dual, compl = active_set_solve(formulation, G, g, mu, lower, upper, guess, rounds,
                                                                tolerances, integers, floats)
        if accepted:
            copy_vector(guess, lam)
            return start, True, primal, dual, compl, rho, 0
        if start >= max_iter:
            return start, False, primal, dual, compl, rho, 0
    if np.isnan(increment) or np.isnan(rho):  # left to be found when iterating, from G's largest eigenvalue
        top = max(power_iteration(G, 10000, 1e-3), mu_prox)
        if np.isnan(rho):  # the spectral rule's start
            rho = min(rho_max, max(rho_min, np.sqrt(top * mu_prox) * (top / mu_prox) ** o.spectral_rho_power_init))
        if np.isnan(increment):  # the spectral rule's factor
            increment = max((top / mu_prox) ** o.spectral_rho_power_factor, 1.0 + 1e-12)
    x = lam.copy() if warm else np.zeros(m)
    y, z, rhs, x_prev, y_prev, work = (np.empty(m), np.empty(m), np.empty(m), np.empty(m), np.empty(m),
                                         np.empty(m))
    joint = J.shape[1] > 0 and m > JOINT_SPACE * J.shape[1]
    nv = J.shape[1] if joint else 0  # the joint-space room, none for the dense factor
    factor, diagonal = np.empty((nv, nv) if joint else (m, m)), np.empty(nv if joint else m)
    K, gram, t = np.empty((nv, nv)), np.empty((nv, nv)), np.empty(nv)
    if joint:
        gram_lower(J, gram)
    # start: y = proj_K(x), z = proj_K*(c + s(c)) with c = G y + g the velocity at y (g without a warm start);
    # the dual cone's code is the cone's + 1
    for i in range(mu.shape[0]):
        k = 3 * i
        y[k], y[k + 1], y[k + 2] = project(cone, x[k], x[k + 1], x[k + 2], mu[i])
    first = 3 * mu.shape[0]
    for j in range(lower.shape[0]):
        y[first + j] = min(upper[j], max(lower[j], x[first + j]))
    c = G @ y + g if warm else g.copy()
    for i in range(mu.shape[0]):
        k = 3 * i
        cn = c[k + 2] + shift(formulation, c[k], c[k + 1], mu[i])
        z[k], z[k + 1], z[k + 2] = project(cone + 1, c[k], c[k + 1], cn, mu[i])
    for j in range(lower.shape[0]):
        z[first + j] = box_dual(lower[j], upper[j], c[first + j])
    penalty = tau * rho
    admm_rhs(formulation, mu, g, x, y, z, penalty, mu_prox, rhs)
    damping, factorizations, it, converged = -1.0, 0, 0, False
    power, previous_direction = 1.0, 0
    primal, dual, compl = np.inf, np.inf, np.inf
    for it in range(start + 1, max_iter + 1):
        if mu_prox + penalty != damping:  # factor G + (mu_prox + tau rho) I again when rho changed
            while True:  # a factorisation that fails in rounding (G badly scaled) is retried with 10 rho
                damping = mu_prox + penalty
                if joint:
                    diagonal[:] = 0.0
                    failed = not joint_space_factor(M, parents, gram, damping, K, diagonal, factor)
                else:
                    diagonal[:] = damping
                    failed = not damped_cholesky(G, diagonal, factor, m)
                if not failed or rho >= rho_max:
                    break
                rho = min(rho_max, 10.0 * rho)
                penalty = tau * rho
                admm_rhs(formulation, mu, g, x, y, z, penalty, mu_prox, rhs)
            if failed:
                factorizations = -1
                break
            factorizations += 1
        copy_vector(x, x_prev)
        copy_vector(rhs, x)
        if joint:  # x = (G + (mu_prox + r) I)^-1 rhs
            joint_space_solve(J, factor, damping, x, t)
        else:
            dense_cholesky_solve(factor, x, x.shape[0])
        copy_vector(y, y_prev)
        primal, dual, compl, y_max, z_max = admm_update(formulation, mu, lower, upper, g, x, x_prev, y, z, rhs,
                                                         penalty, mu_prox, work)
        if not (all_finite(y) and all_finite(rhs)):
            copy_vector(y_prev, y)
            break
        if within(tolerances, primal, dual, compl, y_max, z_max):
            converged = True
            break
        new_rho = updated_rho(rule, rho, primal, dual, ratio, increment, rho_min, rho_max, power)
        if new_rho != rho:
            direction = 1 if new_rho > rho else -1
            if direction == -previous_direction:  # a reversal: rho oscillates around a value, take smaller steps
                power = 0.5 * power if power > 1.0 / RHO_REVERSALS else 0.0
            previous_direction = direction
            rho, penalty = new_rho, tau * new_rho
            admm_rhs(formulation, mu, g, x, y, z, penalty, mu_prox, rhs)
    copy_vector(y, lam)
    return it, converged, primal, dual, compl, rho, factorizations
