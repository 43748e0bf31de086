"""Contact solvers: projected Gauss-Seidel (PGS) and ADMM on the Delassus operator.

The problem, for ``k`` frictional point contacts with impulses ``lambda = [lambda_1; ...; lambda_k]`` (each
``[t1, t2, n]``, normal last) and contact velocities ``v = G lambda + g`` (``G`` the Delassus operator, ``g`` the
free velocity, both in the contact frames)::

    find lambda in K,   v = G lambda + g,   K ∋ lambda ⊥ v + s(v) ∈ K*

with, by ``formulation``:

- ``"ncp"``: ``K`` Coulomb's cones, ``s(v) = [0, 0, mu ||v_t||]`` (De Saxcé): Signorini's condition and Coulomb's
  law with maximal dissipation, exactly (a nonlinear complementarity problem);
- ``"ccp"``: ``K`` Coulomb's cones, ``s = 0``: the convex relaxation (the optimality conditions of
  ``min 1/2 lambda^T G lambda + g^T lambda`` on ``K``), in which a sliding contact separates at
  ``v_n = mu ||v_t||``;
- ``"lcp"``: ``K`` the four-facet pyramids, ``s(v) = [0, 0, mu (|v_t1| + |v_t2|)]``: Signorini's condition and
  box friction on each tangent axis (the linear complementarity problem of the pyramid).

After the ``k`` contacts, a problem may carry ``r`` one-dimensional box rows ``lower_j <= lambda_j <= upper_j``
(arguments ``lower``, ``upper`` of ``solve``) with the box's complementarity: ``v_j >= 0`` at the lower bound,
``v_j <= 0`` at the upper one, ``v_j = 0`` strictly inside. A joint limit is ``[0, inf)``, dry joint friction
``[-F, F]``, a bilateral constraint ``(-inf, inf)``; no shift applies to them in any formulation.

Both solvers first try an exact fast path (``active_set_max_iter`` active sets at most, 8 by default; 0 turns it
off; ``rbda.kernels.active_set``; in a simulator's step, the active sets it first tries on the rows that the warm
start loads count against the same budget). The warm start itself is tried first and kept as it is if it meets a
thousandth of the solver's tolerances (``kernels.active_set.GUESS``; a body at rest or sliding steadily meets the
same problem step after step), with 0 iterations in the statistics. Else the warm start's sticking, sliding and
separating contacts give a linear problem, solved directly and accepted only if it meets the solver's tolerances on
the problem itself (dual feasibility, complementarity, and a sliding contact's velocity opposed to its friction);
else the guess is updated from the result, then the iterations run from the warm start. Each active set counts as
one iteration in the statistics. A resting or steadily sliding scene is solved this way in one or two active sets,
without iterating; a degenerate one (many redundant points, joints held by dry friction) often falls back to the
iterations.

Both solvers keep their last statistics in ``solver.stats`` (a :class:`SolverStats`); a solver that stops at
``max_iter`` says ``converged = False`` and returns its last iterate, which is finite.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..kernels import cones as _cones
from ..kernels import contact_solvers as _solvers
from .._native.direct import direct
from ..spatial._validate import as_scalar, non_negative
from ._check import box_bounds, finite_vector, friction_coefficients

_k = direct(_solvers)

_NO_MATRIX, _NO_PARENTS = np.empty((0, 0)), np.empty(0, dtype=np.int64)  # ADMM without G's joint-space form
_NO_INTEGERS, _NO_FLOATS = np.empty(0, dtype=np.int64), np.empty(0)  # no room: the fast path's arrays are new ones
FORMULATIONS = {"ncp": _cones.NCP, "ccp": _cones.CCP, "lcp": _cones.LCP}
RHO_UPDATES = {"spectral": _solvers.RHO_SPECTRAL, "osqp": _solvers.RHO_OSQP, "linear": _solvers.RHO_LINEAR,
               "constant": _solvers.RHO_CONSTANT}


class ConvergenceWarning(RuntimeWarning):
    """A contact solve of a simulator's step stopped before its tolerances (at ``max_iter``)."""


@dataclass
class SolverStats:
    """Statistics of a solver's last ``solve``.

    ``iterations``: iterations (sweeps for PGS) run; ``converged``: whether the tolerances were met;
    ``primal_feasibility``: ADMM: ``||x - y||_inf`` between the unconstrained and the projected impulses (PGS: 0,
    its iterates are in the cones); ``dual_feasibility``: ADMM: the dual residual ``||tau rho (y - y_prev) +
    mu_prox (x - x_prev)||_inf``, PGS: the largest distance of a contact's ``v + s(v)`` to the dual cone;
    ``complementarity``: the largest ``|lambda_i . (v_i + s(v_i))|``; ``rho``: ADMM's final penalty ``rho`` (in a
    simulator's step solved by the fast path without iterating, NaN unless the solver was given one);
    ``factorizations``: ADMM's factorisations of ``G + damping``; ``message``: why a solve stopped early, if it
    did for another reason than ``max_iter`` (empty otherwise).
    """

    iterations: int = 0
    converged: bool = False
    primal_feasibility: float = 0.0
    dual_feasibility: float = 0.0
    complementarity: float = 0.0
    rho: float = math.nan
    factorizations: int = 0
    message: str = ""


NOT_POSITIVE_DEFINITE = ("G + (mu_prox + tau rho) I is not positive definite up to rho_max: G is not positive "
                         "semi-definite, or too large for mu_prox and rho_max")


#: A simulator step's solve statistics, one record per step (the compiled step writes them; :class:`SolverStats`
#: is built from them when read). ``iterations`` -1: the Delassus matrix was not finite; ``factorizations`` -1:
#: ADMM's matrix was not positive definite.
STEP_STATS = np.dtype([("iterations", np.int64), ("converged", np.bool_), ("primal", np.float64),
                       ("dual", np.float64), ("complementarity", np.float64), ("rho", np.float64),
                       ("factorizations", np.int64)])


def raw_record(raw):
    """A compiled step's :data:`STEP_STATS` record from what a solver keeps of it (its ``_raw_stats``): the
    record itself, or ``(records (2,), parity (1,))``: the record of a step context's output sets that ``parity``
    names (the set of its last step)."""
    return raw[0][raw[1][0]] if type(raw) is tuple else raw


def stats_from_record(raw) -> SolverStats:
    """The :class:`SolverStats` of a :data:`STEP_STATS` record (or what :func:`raw_record` reads one from)."""
    raw = raw_record(raw)
    factorizations = int(raw["factorizations"])
    return SolverStats(int(raw["iterations"]), bool(raw["converged"]), float(raw["primal"]), float(raw["dual"]),
                       float(raw["complementarity"]), float(raw["rho"]), max(factorizations, 0),
                       "" if factorizations >= 0 else NOT_POSITIVE_DEFINITE)


def _positive_int(x, name: str, minimum: int = 1) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, np.integer)):
        raise TypeError(f"{name}: expected an integer, got {type(x).__name__}")
    if x < minimum:
        raise ValueError(f"{name}: must be >= {minimum}, got {x}")
    return int(x)


class _ContactSolver:
    """What PGS and ADMM share: the formulation, the stopping tolerances, checking a problem's arguments."""

    def __init__(self, formulation, max_iter, absolute_feasibility_tol, relative_feasibility_tol,
                 absolute_complementarity_tol, relative_complementarity_tol, active_set_max_iter):
        if formulation not in FORMULATIONS:
            raise ValueError(f"formulation: expected one of {sorted(FORMULATIONS)}, got {formulation!r}")
        self.formulation = formulation
        self.max_iter = _positive_int(max_iter, "max_iter")
        self.absolute_feasibility_tol = non_negative(absolute_feasibility_tol, "absolute_feasibility_tol")
        self.relative_feasibility_tol = non_negative(relative_feasibility_tol, "relative_feasibility_tol")
        self.absolute_complementarity_tol = non_negative(absolute_complementarity_tol, "absolute_complementarity_tol")
        self.relative_complementarity_tol = non_negative(relative_complementarity_tol, "relative_complementarity_tol")
        self.active_set_max_iter = _positive_int(active_set_max_iter, "active_set_max_iter", minimum=0)
        self.stats = SolverStats()

    def __setattr__(self, name, value):
        """Set an attribute; a setting (a public name other than ``stats``) drops the compiled step's options
        built from the settings (``packed.solver_options``), so that the next step reads them again."""
        object.__setattr__(self, name, value)
        if not name.startswith("_") and name != "stats":
            object.__setattr__(self, "_options", None)

    @property
    def stats(self) -> SolverStats:
        """The statistics of the last solve (:class:`SolverStats`); after a compiled simulator step, built from
        the step's raw statistics when first read."""
        if self._stats is None:
            self._stats = stats_from_record(self._raw_stats)
        return self._stats

    @stats.setter
    def stats(self, value: SolverStats) -> None:
        self._stats, self._raw_stats = value, None

    def last_rho(self) -> float:
        """The penalty ``rho`` of the last solve (NaN if none), without building :attr:`stats`."""
        return float(raw_record(self._raw_stats)["rho"]) if self._stats is None else self._stats.rho

    def options(self) -> np.ndarray:
        """The solver's settings as one :data:`~rbda.kernels.contact_solvers.SOLVER_OPTIONS` record (an array of
        one), what the compiled solves read: built once and kept until a setting changes (:meth:`__setattr__`).
        The record is the solver's own (the compiled step reads it; nothing writes it)."""
        if self._options is None:
            options = np.zeros(1, _solvers.SOLVER_OPTIONS)
            o = options[0]
            o["formulation"], o["max_iter"] = FORMULATIONS[self.formulation], self.max_iter
            o["active_set_max_iter"] = self.active_set_max_iter
            o["tolerances"] = (self.absolute_feasibility_tol, self.relative_feasibility_tol,
                               self.absolute_complementarity_tol, self.relative_complementarity_tol)
            self._own_options(o)
            object.__setattr__(self, "_options", options)
        return self._options

    def _problem(self, delassus, g, mu, lambda_guess, lower=None, upper=None):
        """Check the arguments of ``solve``: returns ``(m, g, mu (k,), guess or None, lower (r,), upper (r,))``."""
        for member in ("size", "matrix", "apply", "solve", "max_eigenvalue"):
            if not hasattr(delassus, member):
                raise TypeError(f"delassus: expected a Delassus operator (DelassusDense, ...), it has no {member!r}; "
                                f"got {type(delassus).__name__}")
        m = int(delassus.size)
        lower, upper = box_bounds(lower, upper)
        r = lower.shape[0]
        if (m - r) % 3 or r > m:
            raise ValueError(f"delassus: size {m} minus the {r} box rows is not a multiple of 3 (three rows per "
                             "frictional contact)")
        g = finite_vector(g, m, "g")
        mu = friction_coefficients(mu, (m - r) // 3)
        if lambda_guess is not None:
            lambda_guess = finite_vector(lambda_guess, m, "lambda_guess").copy()
        return m, g, mu, lambda_guess, lower, upper

    @staticmethod
    def _matrix(delassus, m: int) -> np.ndarray:
        """The operator's dense ``G (m, m)``, C-contiguous float64, its shape checked (the kernels index it
        unchecked)."""
        G = np.ascontiguousarray(delassus.matrix(), dtype=np.float64)
        if G.shape != (m, m):
            raise ValueError(f"delassus: matrix() has shape {G.shape}, expected {(m, m)} (its size)")
        return G

    def _finish(self, iterations, converged, primal, dual, compl, **extra):
        self.stats = SolverStats(iterations, bool(converged), float(primal), float(dual), float(compl), **extra)


class PGSSolver(_ContactSolver):
    """Projected Gauss-Seidel on the Delassus matrix, contact by contact, with over-relaxation.

    Parameters: ``formulation`` ``"ncp" | "ccp" | "lcp"``; ``max_iter`` sweeps at most; ``over_relaxation``
    ``omega`` in ``(0, 2)`` (1: plain Gauss-Seidel); the tolerances: a sweep stops the solve when the dual
    feasibility is within ``absolute_feasibility_tol + relative_feasibility_tol ||v||_inf`` and the
    complementarity within ``absolute_complementarity_tol + relative_complementarity_tol ||lambda||_inf
    ||v||_inf``; ``active_set_max_iter >= 0`` the fast path's active sets (see the module; 0: off). Each sweep: see
    ``kernels/contact_solvers.py: pgs_sweep``. Raises ``ValueError`` for an unknown
    formulation or an out-of-range setting.
    """

    def __init__(self, formulation: str = "ncp", max_iter: int = 1000, over_relaxation: float = 1.0,
                 absolute_feasibility_tol: float = 1e-6, relative_feasibility_tol: float = 1e-6,
                 absolute_complementarity_tol: float = 1e-6, relative_complementarity_tol: float = 1e-6,
                 active_set_max_iter: int = 8):
        super().__init__(formulation, max_iter, absolute_feasibility_tol, relative_feasibility_tol,
                         absolute_complementarity_tol, relative_complementarity_tol, active_set_max_iter)
        omega = as_scalar(over_relaxation, "over_relaxation")
        if not 0.0 < omega < 2.0:
            raise ValueError(f"over_relaxation: must lie in (0, 2), got {omega}")
        self.over_relaxation = omega

    def _own_options(self, o) -> None:
        o["solver"], o["over_relaxation"], o["warm_start_rho"] = _solvers.PGS, self.over_relaxation, False

    def solve(self, delassus, g, mu, lambda_guess=None, lower=None, upper=None) -> np.ndarray:
        """The impulses ``lambda (m,)``, ``m = 3k + r``, for the Delassus operator ``delassus`` (size ``m``; PGS
        reads its ``matrix()``), the free velocity ``g (m,)``, the friction coefficients ``mu`` (a float or
        ``(k,)``), an optional warm start ``lambda_guess (m,)`` (zero otherwise) and the bounds ``lower, upper
        (r,)`` of the ``r`` box rows after the contacts (none by default). Fills ``self.stats``. Raises
        ``ValueError`` or ``TypeError`` naming the argument for a wrong size, a non-finite value, ``mu < 0`` or
        ``lower > upper``."""
        m, g, mu, lam, lower, upper = self._problem(delassus, g, mu, lambda_guess, lower, upper)
        lam = np.zeros(m) if lam is None else lam
        if m == 0:
            self._finish(0, True, 0.0, 0.0, 0.0)
            return lam
        G = self._matrix(delassus, m)
        iterations, converged, dual, compl = _k.pgs_solve(self.options(), self.active_set_max_iter, G, g, mu, lower,
                                                          upper, lam, _NO_INTEGERS, _NO_FLOATS)
        self._finish(iterations, converged, 0.0, dual, compl)
        return lam


class ADMMSolver(_ContactSolver):
    """ADMM on the Delassus operator (Carpentier, Le Lidec et al.'s contact solver, as in Pinocchio 4.1), with De
    Saxcé's shift updated at each iteration for the NCP.

    Splitting ``x = y`` with ``y`` in the cones and ``z`` the dual variable (the shifted contact velocity
    ``v + s(v)`` at the solution), and ``r = tau rho``, each iteration is::

        s = s(z)                                                   (0 for the CCP)
        x = (G + (mu_prox + r) I)^-1 (r y + mu_prox x - g - s + z)
        y = proj_K(x - z / r)
        z = z - r (x - y)

    and ``rho`` follows ``rho_update`` when the primal and dual residuals differ by more than
    ``ratio_primal_dual``: ``"spectral"`` multiplies or divides it by ``(L / m)^spectral_rho_power_factor`` from
    ``rho = sqrt(L m) (L / m)^spectral_rho_power_init`` (``L`` the largest eigenvalue of ``G``, ``m = mu_prox``);
    ``"osqp"`` multiplies it by ``sqrt(primal / dual)``; ``"linear"`` by ``linear_update_rule_factor`` or its
    inverse; ``"constant"`` keeps it. ``rho`` stays in ``[rho_min, rho_max]``.

    Parameters: ``formulation`` ``"ncp" | "ccp" | "lcp"``; ``max_iter``; ``mu_prox > 0`` the proximal damping (1e-5,
    ten times Pinocchio's default: the points of a mesh's contact patch on one rigid body make ``G`` rank-deficient,
    and with 1e-6 about one solve in 500 stalls just above the tolerance; the converged impulses are the same);
    ``tau`` in ``(0, 1]``; ``rho`` the initial penalty (None: the spectral rule's); ``rho_min``, ``rho_max``;
    ``rho_update`` (each reversal of the update's direction halves its step, in the logarithm, and the fifth
    stops it: on a redundant contact set the rule would otherwise flip ``rho`` between two values every few
    iterations and stall); ``ratio_primal_dual > 1``; the tolerances: converged when the primal and dual residuals are
    within ``absolute_feasibility_tol + relative_feasibility_tol`` times the largest impulse (primal) or dual
    variable (dual), and the complementarity ``max_i |y_i . z_i|`` within ``absolute_complementarity_tol +
    relative_complementarity_tol ||y||_inf ||z||_inf``. ``warm_start_rho``: start from the last solve's ``rho``;
    ``active_set_max_iter >= 0`` the fast path's active sets (see the module; 0: off).
    Raises ``ValueError`` for an unknown formulation or rule, or an out-of-range setting.
    """

    def __init__(self, formulation: str = "ncp", max_iter: int = 1000, mu_prox: float = 1e-5, tau: float = 0.5,
                 rho: float | None = None, rho_min: float = 1e-6, rho_max: float = 1e6,
                 rho_update: str = "spectral", ratio_primal_dual: float = 10.0,
                 spectral_rho_power_init: float = 0.2, spectral_rho_power_factor: float = 0.05,
                 linear_update_rule_factor: float = 2.0, warm_start_rho: bool = False,
                 absolute_feasibility_tol: float = 1e-6, relative_feasibility_tol: float = 1e-6,
                 absolute_complementarity_tol: float = 1e-6, relative_complementarity_tol: float = 1e-6,
                 active_set_max_iter: int = 8):
        super().__init__(formulation, max_iter, absolute_feasibility_tol, relative_feasibility_tol,
                         absolute_complementarity_tol, relative_complementarity_tol, active_set_max_iter)
        self.mu_prox = as_scalar(mu_prox, "mu_prox")
        if self.mu_prox <= 0.0:
            raise ValueError(f"mu_prox: must be > 0, got {self.mu_prox}")
        self.tau = as_scalar(tau, "tau")
        if not 0.0 < self.tau <= 1.0:
            raise ValueError(f"tau: must lie in (0, 1], got {self.tau}")
        self.rho_min, self.rho_max = as_scalar(rho_min, "rho_min"), as_scalar(rho_max, "rho_max")
        if not 0.0 < self.rho_min <= self.rho_max:
            raise ValueError(f"rho_min, rho_max: need 0 < rho_min <= rho_max, got {self.rho_min}, {self.rho_max}")
        self.rho = None if rho is None else as_scalar(rho, "rho")
        if self.rho is not None and not self.rho_min <= self.rho <= self.rho_max:
            raise ValueError(f"rho: must lie in [rho_min, rho_max] = [{self.rho_min}, {self.rho_max}], got {rho}")
        if rho_update not in RHO_UPDATES:
            raise ValueError(f"rho_update: expected one of {tuple(RHO_UPDATES)}, got {rho_update!r}")
        self.rho_update = rho_update
        self.ratio_primal_dual = as_scalar(ratio_primal_dual, "ratio_primal_dual")
        if self.ratio_primal_dual <= 1.0:
            raise ValueError(f"ratio_primal_dual: must be > 1, got {self.ratio_primal_dual}")
        self.spectral_rho_power_init = as_scalar(spectral_rho_power_init, "spectral_rho_power_init")
        self.spectral_rho_power_factor = as_scalar(spectral_rho_power_factor, "spectral_rho_power_factor")
        self.linear_update_rule_factor = as_scalar(linear_update_rule_factor, "linear_update_rule_factor")
        if self.spectral_rho_power_factor <= 0.0 or self.linear_update_rule_factor <= 1.0:
            raise ValueError("spectral_rho_power_factor must be > 0 and linear_update_rule_factor > 1, got "
                             f"{self.spectral_rho_power_factor}, {self.linear_update_rule_factor}")
        self.warm_start_rho = bool(warm_start_rho)

    def _own_options(self, o) -> None:
        o["solver"], o["mu_prox"], o["tau"] = _solvers.ADMM, self.mu_prox, self.tau
        o["rho"] = math.nan if self.rho is None else self.rho
        o["rho_min"], o["rho_max"], o["ratio_primal_dual"] = self.rho_min, self.rho_max, self.ratio_primal_dual
        o["rho_update"] = RHO_UPDATES[self.rho_update]
        o["rho_increment"] = (math.nan if self.rho_update == "spectral"  # found from G's largest eigenvalue
                              else max(self.linear_update_rule_factor, 1.0 + 1e-12))
        o["spectral_rho_power_init"] = self.spectral_rho_power_init
        o["spectral_rho_power_factor"] = self.spectral_rho_power_factor
        o["warm_start_rho"] = self.warm_start_rho

    def _initial_rho(self, L: float) -> float:
        if self.warm_start_rho and not math.isnan(self.last_rho()):
            return self.last_rho()
        if self.rho is not None:
            return self.rho
        m = self.mu_prox
        rho = math.sqrt(L * m) * (L / m) ** self.spectral_rho_power_init
        return min(self.rho_max, max(self.rho_min, rho))

    def solve(self, delassus, g, mu, lambda_guess=None, lower=None, upper=None) -> np.ndarray:
        """The impulses ``lambda (m,)``, ``m = 3k + r``, for the Delassus operator ``delassus`` (size ``m``; ADMM
        reads its ``matrix()`` and ``max_eigenvalue()`` and factors ``G + (mu_prox + tau rho) I`` itself,
        compiled), the free velocity ``g (m,)``, the friction coefficients ``mu`` (a float or ``(k,)``), an
        optional warm start ``lambda_guess (m,)`` (zero otherwise) and the bounds ``lower, upper (r,)`` of the
        ``r`` box rows after the contacts (none by default). Returns the projected iterate ``y``, in the cones and
        boxes. Fills ``self.stats``. Raises ``ValueError`` or ``TypeError`` naming the argument for a wrong size, a
        non-finite value, ``mu < 0`` or ``lower > upper``. If ``G + (mu_prox + tau rho) I``
        cannot be factored (``G`` not positive semi-definite), the solve stops with ``converged = False`` and says
        why in ``stats.message``."""
        m, g, mu, guess, lower, upper = self._problem(delassus, g, mu, lambda_guess, lower, upper)
        if m == 0:
            self._finish(0, True, 0.0, 0.0, 0.0, rho=math.nan)
            return np.zeros(0)
        G = self._matrix(delassus, m)
        L = max(float(delassus.max_eigenvalue(tol=1e-3)), self.mu_prox)  # the scale of G (an indefinite G gives L < 0)
        increment = ((L / self.mu_prox) ** self.spectral_rho_power_factor if self.rho_update == "spectral"
                     else self.linear_update_rule_factor)
        options = self.options().copy()
        options[0]["rho_increment"] = max(increment, 1.0 + 1e-12)
        lam = np.zeros(m) if guess is None else guess
        iterations, converged, primal, dual, compl, rho, factorizations = _k.admm_solve(
            options, self._initial_rho(L), self.active_set_max_iter, G, g, mu, lower, upper, lam, guess is not None,
            _NO_MATRIX, _NO_MATRIX, _NO_PARENTS, _NO_INTEGERS, _NO_FLOATS)
        message = "" if factorizations >= 0 else NOT_POSITIVE_DEFINITE
        self._finish(iterations, converged, primal, dual, compl, rho=rho, factorizations=max(factorizations, 0),
                     message=message)
        return lam
