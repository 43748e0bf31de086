"""A fast path before PGS's or ADMM's iterations. First the guess (the previous step's impulses) is kept as it is
if it already solves the problem to ``GUESS`` times the tolerances (a body at rest or sliding steadily meets the
same problem step after step). Else: guess which contacts stick, slide or separate (and which box rows sit on a
bound), solve the linear problem that guess leaves, and accept the result only if it passes the problem's own
residual tests; otherwise update the guess from the result (a primal-dual active-set step) and try again, a few
times at most.

For a guess, each contact ``i`` (impulse ``[t1, t2, n]``) is

- ``SEPARATE``: ``lambda_i = 0``;
- ``STICK``: three unknowns, and the equations ``v_i = 0``;
- ``SLIDE``: one unknown ``n``, ``lambda_t = mu n d`` with a fixed tangent ``d`` (the NCP's and CCP's unit slip
  direction; for the LCP, ``d_a`` in ``{-1, 0, 1}`` per axis, ``0`` where that axis sticks and is an unknown of its
  own with ``v_a = 0``), and one equation: ``v_n = 0`` (NCP and LCP: Signorini with the De Saxcé or pyramid
  shift zero at a velocity opposed to ``d``) or ``v_n + mu d . v_t = 0`` (CCP: ``lambda . v = 0`` on the cone's
  boundary).

A box row is an unknown with ``v_j = 0`` strictly inside its bounds, else fixed at its bound. The unknowns ``u``
solve ``A u = b`` (``A = E^T G P``: ``P`` maps ``u`` to impulses, ``E`` picks the equations; with a sliding
contact ``E != P`` and the normal equations are solved). ``G`` is often rank-deficient (a rigid patch of more than
three points), so ``A`` is solved as ``(A + eps I)`` with iterative refinement from zero (a few proximal-point
steps: on a consistent symmetric system they converge to the solution of least norm, which splits the load
between redundant points without internal stresses, the same split for the same problem whatever the previous
steps; a kept guess keeps the split of the problem it was solved for).

Acceptance: the impulses lie in the cones and boxes within the feasibility tolerance (then projected on them),
and with ``v = G lambda + g``, the dual feasibility and complementarity (``cones.complementarity_residuals``,
``cones.box_residuals``; for the NCP and CCP, the dual feasibility also counts a sliding contact's tangent
velocity that does not oppose its friction, :func:`misalignment`) meet ``abs_f + rel_f ||v||_inf`` and ``abs_c +
rel_c ||lambda||_inf ||v||_inf``: an accepted result is a solution of the problem to the solver's tolerance (a kept
guess to a thousandth of it), not an approximation of one.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from .checks import all_finite
from .cones import CCP, COULOMB, LCP, PYRAMID, box_residuals, complementarity_residuals, project
from .constrained import damped_cholesky, dense_cholesky_solve, nonzero_range
from .._native.views import take, view

SEPARATE, STICK, SLIDE = 0, 1, 2
FREE, AT_LOWER, AT_UPPER = 0, 1, 2
BOUNDARY = 1e-9  # a guess's tangent impulse within this fraction of mu n is on the cone's boundary: sliding
REFINEMENTS = 12
POLISH = 4  # realignments of the sliding directions after acceptance
EPS = 1e-6  # the reduced solve's regularisation, relative to G's largest diagonal entry. Rounding leaves the
# reduced system inconsistent by ~1e-15, which each refinement step amplifies by 1 / eps along G's null space (the
# split between redundant points): with 1e-8 a resting box's four corners came out split unevenly by 1e-4 of their
# load; with 1e-6, by 1e-6 of it, for one more refinement step (4 instead of 3 there)
GUESS = 1e-3  # the guess is kept as it is if it passes the tolerances times this (1e-6: half as many kept on the
# cube and ball of benchmarks/bench_rollout.py, its residuals drifting up to that level between exact solves)
DIRECT = 1.0  # a reduced matrix whose pivots all exceed DIRECT times that regularisation is solved directly


@njit(cache=True, refcount=False)
def classify(formulation, mu, lower, upper, lam, mode, slip, rows, boundary_slides):
    """The active set of the impulses ``lam (3k + r,)``: ``mode (k,)``, ``slip (k, 2)`` (see the module) and
    ``rows (r,)`` (``FREE``, ``AT_LOWER``, ``AT_UPPER``); a contact on its cone's boundary slides along its
    tangent impulse if ``boundary_slides``, else sticks. Returns whether one slides."""
    sliding = False
    for i in range(mu.shape[0]):
        k = 3 * i
        t1, t2, n = lam[k], lam[k + 1], lam[k + 2]
        slip[i, 0], slip[i, 1] = 0.0, 0.0
        bound = mu[i] * n * (1.0 - BOUNDARY)
        if not boundary_slides:
            bound = np.inf
        if not n > 0.0:
            mode[i] = SEPARATE
        elif formulation == LCP:
            mode[i] = STICK
            if abs(t1) >= bound:
                slip[i, 0], mode[i] = (1.0 if t1 >= 0.0 else -1.0), SLIDE
            if abs(t2) >= bound:
                slip[i, 1], mode[i] = (1.0 if t2 >= 0.0 else -1.0), SLIDE
        else:
            r = np.sqrt(t1 * t1 + t2 * t2)
            if r >= bound:
                mode[i] = SLIDE
                if r > 0.0:
                    slip[i, 0], slip[i, 1] = t1 / r, t2 / r
            else:
                mode[i] = STICK
        sliding = sliding or mode[i] == SLIDE
    first = 3 * mu.shape[0]
    for j in range(lower.shape[0]):
        x = lam[first + j]
        rows[j] = AT_LOWER if x <= lower[j] else AT_UPPER if x >= upper[j] else FREE
    return sliding


@njit(cache=True, refcount=False)
def update(formulation, G, mu, lower, upper, lam, v, slack, mode, slip, rows):
    """One primal-dual active-set step from a rejected trial ``lam`` with velocities ``v = G lam + g``: a
    contact whose normal impulse is negative separates; a separating one whose velocity leaves the dual cone
    slides against its tangent velocity if that exceeds ``slack`` (NCP, CCP: a contact made while sliding, as a
    sliding box's corners that touch down) and sticks otherwise; a sticking one outside its cone slides along its
    tangent impulse; a sliding one slides against its tangent velocity, and sticks if it has none or if that
    velocity follows the friction (the friction overshot: LCP, on such an axis); each box row follows
    :func:`row_update`, pushed off its bound by more than ``slack``. Returns whether anything changed. (Sticking
    the contacts made while sliding, or re-aiming a friction that overshot, made the active sets cycle on a
    sliding cube's back corners: 47 ADMM iterations on the first step of each sliding rollout, 3 rounds now.)"""
    changed = False
    for i in range(mu.shape[0]):
        k = 3 * i
        t1, t2, n = lam[k], lam[k + 1], lam[k + 2]
        v1, v2, vn = v[k], v[k + 1], v[k + 2]
        old, o1, o2 = mode[i], slip[i, 0], slip[i, 1]
        if mode[i] == SEPARATE:
            vt = np.sqrt(v1 * v1 + v2 * v2)
            gap = vn if formulation != CCP else vn - mu[i] * vt  # the CCP's dual cone: v_n >= mu ||v_t||
            if gap < 0.0 and formulation != LCP and vt > slack and mu[i] > 0.0:
                mode[i], slip[i, 0], slip[i, 1] = SLIDE, -v1 / vt, -v2 / vt  # a contact made while sliding
            elif gap < 0.0:
                mode[i] = STICK
        elif n < 0.0:
            mode[i], slip[i, 0], slip[i, 1] = SEPARATE, 0.0, 0.0
        elif formulation == LCP:
            for a in range(2):
                ta, va = lam[k + a], v[k + a]
                if slip[i, a] == 0.0 and abs(ta) > mu[i] * n:
                    slip[i, a] = 1.0 if ta > 0.0 else -1.0
                elif slip[i, a] != 0.0 and slip[i, a] * va > 0.0:
                    slip[i, a] = 0.0
            mode[i] = SLIDE if slip[i, 0] != 0.0 or slip[i, 1] != 0.0 else STICK
        elif mode[i] == STICK:
            r = np.sqrt(t1 * t1 + t2 * t2)
            if r > mu[i] * n:
                mode[i], slip[i, 0], slip[i, 1] = SLIDE, t1 / r, t2 / r
        else:
            r = np.sqrt(v1 * v1 + v2 * v2)
            if mu[i] > 0.0 and (r == 0.0 or v1 * slip[i, 0] + v2 * slip[i, 1] > 0.0):
                mode[i], slip[i, 0], slip[i, 1] = STICK, 0.0, 0.0  # no slip left, or friction overshot: sticks
            elif mu[i] > 0.0:
                slip[i, 0], slip[i, 1] = -v1 / r, -v2 / r
        changed = changed or mode[i] != old or slip[i, 0] != o1 or slip[i, 1] != o2
    first = 3 * mu.shape[0]
    for j in range(lower.shape[0]):
        a, old = first + j, rows[j]
        rows[j] = row_update(rows[j], lam[a], v[a], slack, G[a, a], lower[j], upper[j])
        changed = changed or rows[j] != old
    return changed


@njit(cache=True, refcount=False)
def row_update(state, x, v, slack, diagonal, lower, upper):
    """The next state of a box row (``FREE``, ``AT_LOWER``, ``AT_UPPER``) from its trial impulse ``x`` and
    velocity ``v`` (``diagonal``: its entry of ``G``). A free row past a bound goes to it. A row on a bound that
    its velocity pushes off by more than ``slack`` (the dual feasibility tolerance: a smaller velocity passes the
    test, and its sign may be rounding's, as on a joint limit that duplicates the joint's friction row) takes the
    bound, or the free interval, where the row's own Gauss-Seidel step ``x - v / G_jj`` would land: a row that
    slipped one way at its bound of friction and finds its velocity reversed goes straight to the other bound
    when that step crosses the interval (a joint's dry friction reversing in one time step), not through a round
    free."""
    if state == FREE:
        return AT_LOWER if x < lower else AT_UPPER if x > upper else FREE
    if (state == AT_LOWER and v < -slack) or (state == AT_UPPER and v > slack):
        step = x - v / diagonal if diagonal > 0.0 else x
        return AT_LOWER if step <= lower else AT_UPPER if step >= upper else FREE
    return state


@njit(cache=True, refcount=False)
def unstick(mu, v, tol, mode, slip):
    """Sliding contacts whose tangent velocity in ``v`` is within ``tol`` of zero set to stick; returns whether
    there was one. (A body that stopped may hold a contact at its friction bound by internal stresses between
    redundant points: a solution, but sticking gives the least-norm one without them. Tried on the first active
    set only: where the least-norm split leaves a cone, as on a pushed box's unloaded corners, the contact at its
    bound with no slip is the solution.)"""
    found = False
    for i in range(mu.shape[0]):
        k = 3 * i
        if mode[i] == SLIDE and mu[i] > 0.0 and max(abs(v[k]), abs(v[k + 1])) <= tol:
            mode[i], slip[i, 0], slip[i, 1], found = STICK, 0.0, 0.0, True
    return found


@njit(cache=True, refcount=False)
def realign(mu, v, mode, slip):
    """Each sliding contact's direction ``slip`` set against its tangent velocity in ``v`` (NCP and CCP);
    returns whether one moved by more than 1e-14."""
    moved = False
    for i in range(mu.shape[0]):
        k = 3 * i
        r = np.sqrt(v[k] * v[k] + v[k + 1] * v[k + 1])
        if mode[i] == SLIDE and mu[i] > 0.0 and r > 0.0:
            d1, d2 = -v[k] / r, -v[k + 1] / r
            moved = moved or max(abs(d1 - slip[i, 0]), abs(d2 - slip[i, 1])) > 1e-14
            slip[i, 0], slip[i, 1] = d1, d2
    return moved


@njit(cache=True, refcount=False)
def unknowns(formulation, mu, lower, upper, mode, slip, rows, index, column, equation, fixed):
    """The reduced problem's unknowns for an active set: unknown ``u`` adds ``column[u, s]`` times itself to the
    impulse ``index[u, s]`` (``s < 3``), and its equation is ``sum_s equation[u, s] v[index[u, s]] = 0``;
    ``fixed (m,)`` the impulses that are not unknowns (box rows at a bound, zero elsewhere). Returns how many
    unknowns, and whether ``E = P`` (the reduced matrix is symmetric)."""
    for a in range(fixed.shape[0]):
        fixed[a] = 0.0
    count, symmetric = 0, True
    for i in range(mu.shape[0]):
        k = 3 * i
        if mode[i] == SEPARATE:
            continue
        # the normal impulse, with the sliding tangent it carries
        index[count, 0], index[count, 1], index[count, 2] = k + 2, k, k + 1
        column[count, 0], column[count, 1], column[count, 2] = 1.0, mu[i] * slip[i, 0], mu[i] * slip[i, 1]
        equation[count, 0], equation[count, 1], equation[count, 2] = 1.0, 0.0, 0.0
        if formulation == CCP:
            equation[count, 1], equation[count, 2] = column[count, 1], column[count, 2]
        elif column[count, 1] != 0.0 or column[count, 2] != 0.0:
            symmetric = False
        count += 1
        for a in range(2):  # the free tangent axes
            if mode[i] == STICK or (formulation == LCP and slip[i, a] == 0.0):
                index[count, 0], index[count, 1], index[count, 2] = k + a, k + a, k + a
                column[count, 0], column[count, 1], column[count, 2] = 1.0, 0.0, 0.0
                equation[count, 0], equation[count, 1], equation[count, 2] = 1.0, 0.0, 0.0
                count += 1
    first = 3 * mu.shape[0]
    for j in range(lower.shape[0]):
        a = first + j
        if rows[j] == FREE:
            index[count, 0], index[count, 1], index[count, 2] = a, a, a
            column[count, 0], column[count, 1], column[count, 2] = 1.0, 0.0, 0.0
            equation[count, 0], equation[count, 1], equation[count, 2] = 1.0, 0.0, 0.0
            count += 1
        else:
            fixed[a] = lower[j] if rows[j] == AT_LOWER else upper[j]
    return count, symmetric


@njit(cache=True, refcount=False)
def reduced_system(G, g, count, symmetric, index, column, equation, fixed, A, b, base):
    """The reduced problem's ``A = E^T G P`` and ``b = -E^T (G fixed + g)`` (:func:`unknowns`) into ``A[:count,
    :count]`` and ``b[:count]``; ``base (m,)``: work space. An unknown's first coefficient is its own impulse's;
    its other two, the sliding tangent's, count only if either is nonzero: most entries are then the one product
    ``e_p0 c_q0 G[i_p0, i_q0]``, written out (the same number as the full sum, whose other terms are zeros). For
    ``E = P`` the lower triangle is computed and mirrored. (The widths are tested inline: a call per entry that
    takes the arrays costs more than the entry.)"""
    velocities(G, g, fixed, base)  # G fixed + g
    for p in range(count):
        wp = 3 if equation[p, 1] != 0.0 or equation[p, 2] != 0.0 else 1
        acc = 0.0
        for s in range(wp):
            acc -= equation[p, s] * base[index[p, s]]
        b[p] = acc
        for q in range(p + 1 if symmetric else count):
            wq = 3 if column[q, 1] != 0.0 or column[q, 2] != 0.0 else 1
            if wp == 1 and wq == 1:
                A[p, q] = equation[p, 0] * column[q, 0] * G[index[p, 0], index[q, 0]]
                continue
            acc = 0.0
            for s in range(wp):
                for t in range(wq):
                    acc += equation[p, s] * column[q, t] * G[index[p, s], index[q, t]]
            A[p, q] = acc
    if symmetric:
        for p in range(count):
            for q in range(p):
                A[q, p] = A[p, q]


@njit(cache=True, refcount=False)
def normal_equations(A, b, count, product, scratch):
    """``A <- A^T A`` and ``b <- A^T b`` on the first ``count`` rows and columns, in place, summed row by row of
    ``A`` (contiguous updates that vectorise), each over the row's nonzero entries, from its first to its last (the
    terms left out are exact zeros); ``product (m, m)``, ``scratch (m,)``: work space. Returns the largest diagonal
    entry of the product."""
    for p in range(count):
        scratch[p] = 0.0
        for q in range(count):
            product[p, q] = 0.0
    for r in range(count):
        first, last = nonzero_range(A[r, :count])
        for p in range(first, last):
            x = A[r, p]
            if x != 0.0:
                for q in range(last - first):  # (counting from 0, as in damped_cholesky)
                    product[p, first + q] += x * A[r, first + q]
                scratch[p] += x * b[r]
    scale = 0.0
    for p in range(count):
        b[p] = scratch[p]
        scale = max(scale, product[p, p])
        for q in range(count):
            A[p, q] = product[p, q]
    return scale


@njit(cache=True, refcount=False)
def refine(A, factor, b, u, count, residual):
    """``A u = b`` for a symmetric positive semi-definite ``A`` by iterative refinement from ``u = 0`` with the
    factor of ``A + eps I`` (proximal-point steps: on a consistent system they converge to the solution of least
    norm), into ``u[:count]``; ``residual (m,)``: work space. Stops after ``REFINEMENTS`` steps, or when the
    residual ``b - A u`` is zero or no longer halves (not at a residual of rounding's size: on an ill-conditioned
    ``A``, as the normal equations of redundant sliding points, a tiny residual still leaves ``u`` far from the
    least-norm solution along the small eigenvalues). The first residual is ``b``; the next add ``-u_q`` times row
    ``q`` of ``A`` (its column, by symmetry) for each ``q``: contiguous updates that vectorise."""
    size = 0.0
    for p in range(count):
        u[p] = 0.0
        residual[p] = b[p]
        size = max(size, abs(b[p]))
    previous = np.inf
    for step in range(REFINEMENTS):
        if step > 0:
            for p in range(count):
                residual[p] = b[p]
            for q in range(count):
                x = u[q]
                if x != 0.0:
                    for p in range(count):
                        residual[p] -= x * A[q, p]
            size = 0.0
            for p in range(count):
                size = max(size, abs(residual[p]))
        if size == 0.0 or size >= 0.5 * previous:
            break
        previous = size
        dense_cholesky_solve(factor, residual, count)
        for p in range(count):
            u[p] += residual[p]


@njit(cache=True, refcount=False)
def reduced_solve(G, g, lam, eps, count, symmetric, index, column, equation, fixed, A, factor, work):
    """The impulses of the active set (:func:`unknowns`) into ``lam``: ``A u = b`` (:func:`reduced_system`)
    solved through the Cholesky factor of ``A + eps I`` (symmetric) or of the normal equations' ``A^T A + eps
    sqrt(max diag A^T A) I`` (a sliding contact's equation is not its column, :func:`normal_equations`), with
    iterative refinement from ``u = 0`` (:func:`refine`). A well-conditioned ``A`` (every pivot of its own factor
    above ``DIRECT eps``: no redundant rows, so the solution is unique and the refinement would converge to it)
    is solved directly, in one solve. ``A, factor (m, m)``, ``work (5, m)``: work space. Returns False if the
    factorisation fails."""
    m = g.shape[0]
    base, b, u, residual, damping = work[0], work[1], work[2], work[3], work[4]
    reduced_system(G, g, count, symmetric, index, column, equation, fixed, A, b, base)
    if not symmetric:
        eps = eps * np.sqrt(normal_equations(A, b, count, factor, residual))
    for p in range(count):
        damping[p] = 0.0
    if damped_cholesky(A, damping, factor, count, DIRECT * eps):  # every pivot above DIRECT eps, or it stops
        for p in range(count):
            u[p] = b[p]
        dense_cholesky_solve(factor, u, count)
    else:
        for p in range(count):
            damping[p] = eps
        if not damped_cholesky(A, damping, factor, count):  # A + eps I
            return False
        refine(A, factor, b, u, count, residual)
    for a in range(m):
        lam[a] = fixed[a]
    for p in range(count):
        for s in range(3):
            if column[p, s] != 0.0:
                lam[index[p, s]] += column[p, s] * u[p]
    return True


@njit(cache=True, refcount=False)
def residuals(formulation, G, g, mu, lower, upper, lam, v):
    """``(primal, dual, complementarity, ||lam||_inf, ||v||_inf)`` of ``lam``: the largest distance to its cone
    or box (``lam`` is then projected on them, in place), and with ``v = G lam + g`` (filled) the dual
    feasibility and complementarity (``complementarity_residuals``, ``box_residuals``)."""
    primal = project_impulses(formulation, mu, lower, upper, lam)
    velocities(G, g, lam, v)
    dual, compl = dual_residuals(formulation, mu, lower, upper, lam, v)
    return primal, dual, compl, largest_magnitude(lam), largest_magnitude(v)


@njit(cache=True, refcount=False)
def project_impulses(formulation, mu, lower, upper, lam):
    """``lam (3k + r,)`` projected on its cones (the pyramids for the LCP) and boxes, in place; returns the largest
    distance an entry moved (the primal residual)."""
    cone = PYRAMID if formulation == LCP else COULOMB
    primal = 0.0
    for i in range(mu.shape[0]):
        k = 3 * i
        p1, p2, pn = project(cone, lam[k], lam[k + 1], lam[k + 2], mu[i])
        primal = max(primal, abs(lam[k] - p1), abs(lam[k + 1] - p2), abs(lam[k + 2] - pn))
        lam[k], lam[k + 1], lam[k + 2] = p1, p2, pn
    first = 3 * mu.shape[0]
    for j in range(lower.shape[0]):
        a = first + j
        x = min(upper[j], max(lower[j], lam[a]))
        primal = max(primal, abs(lam[a] - x))
        lam[a] = x
    return primal


@njit(cache=True, refcount=False)
def dual_residuals(formulation, mu, lower, upper, lam, v):
    """``(dual feasibility, complementarity)`` of impulses ``lam`` (in their cones and boxes) with velocities
    ``v``: the contacts' (``complementarity_residuals``; for the NCP and CCP also a sliding contact's tangent
    velocity that does not oppose its friction, :func:`misalignment`) and the box rows' (``box_residuals``)."""
    dual, compl = complementarity_residuals(formulation, mu, lam, v)
    dual, compl = box_residuals(3 * mu.shape[0], lower, upper, lam, v, dual, compl)
    if formulation != LCP:
        dual = max(dual, misalignment(mu, lam, v))
    return dual, compl


@njit(cache=True, refcount=False)
def largest_magnitude(x):
    """``||x||_inf`` (0 for an empty ``x``), without the temporary array of ``np.abs(x).max()``; NaN if an entry
    is, as that expression (a NaN in the impulses or velocities must fail :func:`within`'s tests)."""
    top = 0.0
    for value in x:
        if not abs(value) <= top:  # larger, or NaN
            top = abs(value)
            if np.isnan(top):
                return top
    return top


@njit(cache=True, refcount=False)
def misalignment(mu, lam, v):
    """The largest tangent velocity of a contact on its cone's boundary that does not oppose its friction
    impulse: ``||v_t - max(v_t . u, 0) u||`` with ``u = -lambda_t / ||lambda_t||``. Coulomb's law asks for zero;
    the complementarity ``lambda . (v + s(v))`` only bounds it by its square (``mu lambda_n ||v_t|| (1 -
    cos angle)``), so a slip direction off by 1e-5 rad would pass a 1e-13 test."""
    worst = 0.0
    for i in range(mu.shape[0]):
        k = 3 * i
        r = np.sqrt(lam[k] * lam[k] + lam[k + 1] * lam[k + 1])
        if lam[k + 2] > 0.0 and r > 0.0 and r >= mu[i] * lam[k + 2] * (1.0 - BOUNDARY):
            u1, u2 = -lam[k] / r, -lam[k + 1] / r
            along = max(v[k] * u1 + v[k + 1] * u2, 0.0)
            worst = max(worst, abs(v[k] - along * u1), abs(v[k + 1] - along * u2))
    return worst


@njit(cache=True, refcount=False)
def velocities(G, g, lam, v):
    """``v = G lam + g`` into ``v``, for a symmetric ``G``: ``g`` plus ``lam_c`` times row ``c`` of ``G`` for each
    nonzero ``lam_c`` (contiguous, independent updates that vectorise, where a dot product per row waits on each
    addition; a contact that separates costs nothing)."""
    for r in range(g.shape[0]):
        v[r] = g[r]
    add_rows(G, lam, v)


@njit(cache=True, refcount=False)
def add_rows(A, x, out):
    """``out += A^T x`` for ``A (m, n)``: each row of ``A`` times its entry of ``x``, for the nonzero entries,
    added along contiguous rows."""
    for c in range(A.shape[0]):
        xc = x[c]
        if xc != 0.0:
            for r in range(out.shape[0]):
                out[r] += xc * A[c, r]


@njit(cache=True, refcount=False)
def within(tolerances, primal, dual, compl, lam_max, v_max, scale=1.0):
    """Whether residuals pass the solvers' tests, ``tolerances = [abs_f, rel_f, abs_c, rel_c]`` (each times
    ``scale``): ``primal <= abs_f + rel_f ||lambda||_inf``, ``dual <= abs_f + rel_f ||v||_inf`` and ``compl <= abs_c +
    rel_c ||lambda||_inf ||v||_inf``."""
    abs_f, rel_f = scale * tolerances[0], scale * tolerances[1]
    abs_c, rel_c = scale * tolerances[2], scale * tolerances[3]
    return (primal <= abs_f + rel_f * lam_max and dual <= abs_f + rel_f * v_max
            and compl <= abs_c + rel_c * lam_max * v_max)


@njit(cache=True, refcount=False)
def largest_diagonal(G):
    """``max_i |G_ii|`` (0 for an empty ``G``; NaN if an entry is)."""
    top = 0.0
    for i in range(G.shape[0]):
        if not abs(G[i, i]) <= top:  # larger, or NaN
            top = abs(G[i, i])
            if np.isnan(top):
                return top
    return top


@njit(cache=True, forceinline=True)
def workspace(m, k, integers, floats):
    """The fast path's arrays for ``m = 3k + r`` rows, cut from one integer and one float array (:func:`views.take`:
    from the rooms ``integers`` and ``floats`` if they hold them, else new): ``(mode (k,), rows (r,), index (m, 3),
    slip (k, 2), column, equation (m, 3), fixed, raw, trial, v, v_raw (m,), A, factor (m, m), work (5, m))``."""
    r = m - 3 * k
    integers, _ = take(integers, (k + r + 3 * m,))
    floats, _ = take(floats, (2 * k + 6 * m + 5 * m + 2 * m * m + 5 * m,))
    mode, rows, index = view(integers, 0, (k,)), view(integers, k, (r,)), view(integers, k + r, (m, 3))
    slip, column, equation = view(floats, 0, (k, 2)), view(floats, 2 * k, (m, 3)), view(floats, 2 * k + 3 * m, (m, 3))
    o = 2 * k + 6 * m
    fixed, raw, trial = view(floats, o, (m,)), view(floats, o + m, (m,)), view(floats, o + 2 * m, (m,))
    v, v_raw = view(floats, o + 3 * m, (m,)), view(floats, o + 4 * m, (m,))
    o += 5 * m
    A, factor, work = view(floats, o, (m, m)), view(floats, o + m * m, (m, m)), view(floats, o + 2 * m * m, (5, m))
    return mode, rows, index, slip, column, equation, fixed, raw, trial, v, v_raw, A, factor, work


@njit(cache=True)
def active_set_solve(formulation, G, g, mu, lower, upper, lam, max_rounds, tolerances, integers, floats,
                     guess_first=True):
    """The fast path (see the module) from the guess ``lam (m,)``, ``m = 3k + r``: the guess itself first (unless
    ``guess_first`` is False: a simulator's step that tried it, or waits to, on the whole problem), then at most
    ``max_rounds`` active sets, the reduced solve regularised by ``EPS`` times ``G``'s largest diagonal entry; ``tolerances = [abs_f,
    rel_f, abs_c, rel_c]`` (:func:`within`); ``integers``, ``floats``: room for its arrays (:func:`workspace`;
    empty: new ones). Returns ``(rounds, accepted, primal, dual, complementarity)``: if accepted, ``lam`` holds the
    solution (in the cones and boxes); otherwise ``lam`` is unchanged."""
    m, k = g.shape[0], mu.shape[0]
    eps = EPS * max(largest_diagonal(G), 1e-300)
    mode, rows, index, slip, column, equation, fixed, raw, trial, v, v_raw, A, factor, work = workspace(m, k, integers,
                                                                                                      floats)
    if guess_first:  # the guess itself first (GUESS)
        trial[:] = lam
        primal, dual, compl, lam_max, v_max = residuals(formulation, G, g, mu, lower, upper, trial, v)
        if within(tolerances, primal, dual, compl, lam_max, v_max, GUESS):
            lam[:] = trial
            return 0, True, primal, dual, compl
    retry = classify(formulation, mu, lower, upper, lam, mode, slip, rows, True)
    primal, dual, compl, rounds = np.inf, np.inf, np.inf, 0
    for rounds in range(1, max_rounds + 1):
        count, symmetric = unknowns(formulation, mu, lower, upper, mode, slip, rows, index, column, equation, fixed)
        if (not reduced_solve(G, g, raw, eps, count, symmetric, index, column, equation, fixed, A, factor, work)
                or not all_finite(raw)):
            break
        trial[:] = raw
        primal, dual, compl, lam_max, v_max = residuals(formulation, G, g, mu, lower, upper, trial, v)
        if (within(tolerances, primal, dual, compl, lam_max, v_max)
                and not (rounds == 1 and rounds < max_rounds
                         and unstick(mu, v, tolerances[0] + tolerances[1] * v_max, mode, slip))):
            # polish: the complementarity bounds a slip direction's error only to its square root, so the
            # sliding directions are aligned with their velocities and the problem solved again while it passes
            for _ in range(POLISH):
                if formulation == LCP or not realign(mu, v, mode, slip):
                    break
                count, symmetric = unknowns(formulation, mu, lower, upper, mode, slip, rows, index, column,
                                            equation, fixed)
                if (not reduced_solve(G, g, raw, eps, count, symmetric, index, column, equation, fixed, A, factor,
                                      work) or not all_finite(raw)):
                    break
                p2, d2, c2, lam2, v2 = residuals(formulation, G, g, mu, lower, upper, raw, v_raw)
                if not within(tolerances, p2, d2, c2, lam2, v2):
                    break
                trial[:] = raw
                v[:] = v_raw
                primal, dual, compl = p2, d2, c2
            lam[:] = trial
            return rounds, True, primal, dual, compl
        velocities(G, g, raw, v)  # the velocities of the unprojected trial drive the update
        if retry:  # the guess's contacts on their cones' boundaries may rest there (a degenerate split): stick
            retry = False
            classify(formulation, mu, lower, upper, lam, mode, slip, rows, False)
        elif not update(formulation, G, mu, lower, upper, raw, v, tolerances[0] + tolerances[1] * np.abs(v).max(),
                        mode, slip, rows):
            break
    return rounds, False, primal, dual, compl
