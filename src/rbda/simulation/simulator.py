"""Velocity-level, semi-implicit time stepping with frictional contacts (``rbda.Simulator``).

One step reads as its stages, each a function of the simulator and the step's state:

1. ``kinematics``: placements, world joint Jacobians, ``M`` (with ``dt`` times the joint damping and ``dt^2`` times
   the joint stiffness on its diagonal, and the tendons' terms: implicit damping and springs,
   :mod:`rbda.simulation.passive`) factored sparsely as ``U D U^T``, and the free velocity
   ``v_free = v + dt M^-1 (tau + J_ext - nle - damping v + passive)``, ``passive`` the springs' ``-K (q - q_ref)
   - dt K v``, the tendons', gravity compensation and fluid forces;
2. ``contacts``: the contact points of the collision pairs (:mod:`rbda.simulation.contacts`);
3. ``delassus``: the contact Jacobian ``J (3k, nv)`` (rows ``[t1, t2, n]`` of the relative velocity of the second
   object with respect to the first), ``M^-1 J^T`` by the sparse factorisation and ``G = J M^-1 J^T``;
4. ``solve``: the contact problem ``v_c = G lambda + g`` with ``g = J v_free`` plus the Baumgarte term (or, with
   restitution, Newton's impact law) on the normal rows, extended by the one-dimensional rows of
   :mod:`rbda.simulation.constraints` (joint limits, dry joint friction, bilateral constraints) after the contacts
   (``constraint_rows``, ``augment``), solved by PGS or ADMM warm-started from the previous step's impulses of the
   same contacts and rows;
5. ``integrate``: ``v_next = v_free + M^-1 J^T lambda`` and ``q_next = integrate(q, dt v_next)``.
"""

from __future__ import annotations

import copy
import dataclasses
import math

import numpy as np

from ..algorithms import cholesky
from ..algorithms._check import vector
from ..algorithms.configuration import integrate as _integrate
from ..algorithms.dynamics import crba, nonlinear_effects
from ..algorithms.jacobian import compute_joint_jacobians
from ..model.geometry import GeometryModel
from ..joints import JointModelFreeFlyer
from ..kernels.dynamics import free_bodies_after_kinematics
from ..kernels.time_stepping import MIDPOINT_ITERATIONS
from ..spatial import quat_to_matrix, skew
from ..spatial._validate import as_scalar, non_negative, positive
from ._check import finite_vector, friction_coefficient
from .constraints import (ConstraintRows, augment, check_bilateral, check_equalities, constraint_rows,
                          limited_dofs)
from .contacts import compute_contacts
from .progress import _Silent, progress_bar
from .speculative import speculative_margins
from .delassus import DelassusDense
from .passive import PassiveForces, add_implicit, passive_force
from . import compiled as compiled_kernels
from .compiled import SETTINGS
from .packed import PackedScene, compiled_step, compiled_steps, constraint_rows as step_rows
from .packed import contact_set, no_fast_step, own_results, rollout_compiled, step_arrays, step_names
from .solvers import FORMULATIONS, ADMMSolver, PGSSolver, SolverStats
from .step_state import StepState, WarmStart

SOLVERS = {"admm": ADMMSolver, "pgs": PGSSolver}


def _step_rows(x, name: str, T: int = -1, nv: int = 0) -> np.ndarray:
    """A rollout's per-step rows ``x (T, nv)`` as a C-contiguous float64 array (``(0, nv)`` for None), checked
    finite: a bad row raises ``ValueError`` naming its step and ``name``."""
    if x is None:
        return np.zeros((0, nv))
    x = np.ascontiguousarray(x, dtype=float)
    if T >= 0 and x.shape != (T, nv):
        raise ValueError(f"{name}: expected shape ({T}, {nv}), got {x.shape}")
    bad = np.flatnonzero(~np.isfinite(x).all(axis=1))
    if bad.size:
        raise ValueError(f"step {bad[0]}: {name}: contains non-finite values (NaN or inf)")
    return x


def kinematics(sim, q, v, tau, fext):
    """Stage 1: fills ``sim.data`` (placements, ``J``, ``M`` factored) and returns ``v_free (nv,)``: the explicit
    free velocity (:func:`explicit_free_velocity`) with the free flyers' change of coordinates (:func:`transport`)."""
    v_free = explicit_free_velocity(sim, q, v, tau, fext)
    transport(sim, v, v_free)
    return v_free


def explicit_free_velocity(sim, q, v, tau, fext):
    """``v + dt M_s^-1 (tau + fext - nle - damping v + passive)`` (``M_s = M + dt diag(damping)`` plus the springs'
    and tendons' implicit terms; ``passive`` their forces, gravity compensation and fluid forces:
    :mod:`rbda.simulation.passive`), filling ``sim.data``."""
    model, data, dt = sim.model, sim.data, sim.dt
    compute_joint_jacobians(model, data, q)
    if sim._settings[0]["free_bodies"]:  # M constant: each body's own spatial inertia, as in the
        free_bodies_after_kinematics(*model.packed, data.ws)  # compiled step (the same rounding)
    else:
        crba(model, data, q)
    data.M[np.diag_indices(model.nv)] += dt * sim.damping
    add_implicit(sim.passive, data.M, dt)  # springs and tendon dampers, implicit (simulation/passive.py)
    cholesky.decompose(model, data)
    force = tau - nonlinear_effects(model, data, q, v) - sim.damping * v
    force += passive_force(sim.passive, q, v, dt, data.J, data.oMi.array, sim.support_mask, model.gravity.linear)
    if fext is not None:
        force = force + fext
    return v + dt * cholesky.solve(model, data, force)


def _free_flyers(model) -> list:
    """The free-flyer joints of ``model``."""
    return [i for i in range(1, model.njoints) if isinstance(model.joints[i], JointModelFreeFlyer)]


def transport(sim, v, v_free) -> None:
    """Stage 1's change of coordinates of a free flyer (:mod:`rbda.kernels.time_stepping`), in place on ``v_free``:
    ``+ dt [w x (v_lin + w x c); 0]``, the velocity of its centre of mass ``c`` kept in its parent's frame; in a
    model of free bodies, each body's gyroscopic torque implicit, ``I_c (w_1 - w) = dt (I_c w_m) x w_m +
    dt tau_c`` by the implicit midpoint rule, where its dofs have no armature."""
    model, dt = sim.model, sim.dt
    for i in _free_flyers(model):
        k, Y = model.idx_v[i], model.inertias[i]
        w, c = v[k + 3:k + 6], Y.lever
        v_free[k:k + 3] += dt * np.cross(w, v[k:k + 3] + np.cross(w, c))
        if sim._settings[0]["free_bodies"] and Y.mass > 0.0 and not np.any(model.armature[k:k + 6]):
            explicit = v_free[k + 3:k + 6].copy()
            implicit = _midpoint_rotation(Y.inertia, w, explicit, dt)
            v_free[k:k + 3] -= np.cross(implicit - explicit, c)
            v_free[k + 3:k + 6] = implicit


def _midpoint_rotation(Ic, w0, explicit, dt):
    """``w_1`` of the implicit midpoint rule ``Ic (w_1 - w_0) = dt (Ic w_m) x w_m + dt tau_c`` (``w_m`` the mean),
    ``dt tau_c`` recovered from the explicit step ``explicit``; by Newton's method from it."""
    impulse = Ic @ (explicit - w0) + dt * np.cross(w0, Ic @ w0)
    w1 = explicit.copy()
    for _ in range(MIDPOINT_ITERATIONS):
        wm = 0.5 * (w0 + w1)
        residual = Ic @ (w1 - w0) - dt * np.cross(Ic @ wm, wm) - impulse
        step = np.linalg.solve(Ic - 0.5 * dt * (skew(Ic @ wm) - skew(wm) @ Ic), residual)
        w1 = w1 - step
        if np.abs(step).sum() <= 1e-15 * np.abs(w1).sum():
            break
    return w1


def advance(model, q, v_next, dt):
    """Stage 5's ``(q_next, v_next)`` from ``v_next`` in the coordinates of the step's start: ``q (+) dt v_next``,
    except that each free flyer's centre of mass moves by ``dt u`` in a straight line, ``u = R(q) (v_lin + w x c)``,
    its origin follows, and its linear velocity is expressed in its new frame, ``R_next^T u - w x c``
    (:mod:`rbda.kernels.time_stepping`)."""
    q_next, v_next = _integrate(model, q, dt * v_next), v_next.copy()
    for i in _free_flyers(model):
        a, k, c = model.idx_q[i], model.idx_v[i], model.inertias[i].lever
        R, R_next, w = quat_to_matrix(q[a + 3:a + 7]), quat_to_matrix(q_next[a + 3:a + 7]), v_next[k + 3:k + 6]
        u = R @ (v_next[k:k + 3] + np.cross(w, c))
        q_next[a:a + 3] = q[a:a + 3] + R @ c + dt * u - R_next @ c
        v_next[k:k + 3] = R_next.T @ u - np.cross(w, c)
    return q_next, v_next


def contacts(sim, *velocities):
    """Stage 2: the :class:`ContactSet` of the current placements; given the step's ``velocities`` (start and free)
    and ``sim.speculative``, each pair's margin grows to the distance it can close in the step, if larger
    (:mod:`rbda.simulation.speculative`)."""
    geoms = sim.collision_model.geometry_objects
    oM = sim.data.oMi.array[[g.parent_joint for g in geoms]]  # (ngeoms, 3, 4): [R | p] of each parent joint
    R = oM[:, :, :3] @ np.array([g.placement.rotation for g in geoms]).reshape(-1, 3, 3)
    p = np.einsum("gij,gj->gi", oM[:, :, :3], np.array([g.placement.translation for g in geoms]).reshape(-1, 3))
    p += oM[:, :, 3]
    margin = speculative_margins(sim, velocities, R, p) if sim.speculative and velocities else sim.margin
    return compute_contacts(sim.collision_model, list(zip(R, p)), sim.friction, margin)


def delassus(sim, cs):
    """Stage 3: ``(J (3k, nv), M^-1 J^T (nv, 3k), G (3k, 3k))`` for the contacts ``cs``: each contact's rows are
    ``frame^T (v_second - v_first)``, a point's world velocity ``J_lin - p x J_ang`` on its joint's supports."""
    nv, k = sim.model.nv, cs.size
    joints = np.array([g.parent_joint for g in sim.collision_model.geometry_objects], dtype=np.int64)[cs.pairs]
    J_lin, J_ang = sim.data.J[:3], sim.data.J[3:]
    point = J_lin[None] - np.cross(cs.points[:, :, None], J_ang[None], axis=1)  # (k, 3, nv)
    relative = point * (sim.support_mask[joints[:, 1]] - sim.support_mask[joints[:, 0]])[:, None, :]
    J = np.einsum("kji,kjn->kin", cs.frames, relative).reshape(3 * k, nv)
    MinvJt = cholesky.solve(sim.model, sim.data, J.T) if k else np.zeros((nv, 0))
    G = J @ MinvJt
    return J, MinvJt, 0.5 * (G + G.T)


def normal_bias(sim, d, vn):
    """The bias of the normal rows for the distances ``d (k,)`` and the normal velocities ``vn (k,)`` before the
    step (read with restitution only): Baumgarte's ``d / dt`` for a gap (it closes in one step at most) and
    ``b min(d + slop, 0) / dt`` for a penetration, the part beyond ``sim.slop`` corrected. With restitution ``e``, a
    contact that the step reaches (``d + dt min(vn, 0) <= 0``) obeys Newton's impact law ``v_n,next >= -e min(vn,
    0)`` instead (plus the same correction)."""
    dt = sim.dt
    correction = sim.baumgarte * np.minimum(d + sim.slop, 0.0) / dt
    bias = np.where(d > 0.0, d / dt, correction)
    if sim.restitution is None:
        return bias
    approach = np.minimum(vn, 0.0)
    return np.where(d + dt * approach <= 0.0, sim.restitution * approach + correction, bias)


def solve(sim, cs, J, G, v_free, rows, v):
    """Stage 4: the impulses ``lambda (3k + r,)``: the contacts' (contact frames, normal last), then the rows'."""
    g = J @ v_free
    k3 = 3 * cs.size
    g[2:k3:3] += normal_bias(sim, cs.distances, None if sim.restitution is None else J[2:k3:3] @ v)
    g[k3:] += rows.bias
    guess = np.zeros(k3 + rows.size)
    state = sim.step_state
    for c, key in enumerate(cs.keys):
        if key in state.previous:
            guess[3 * c:3 * c + 3] = state.previous[key]
    for r, key in enumerate(rows.keys):
        guess[k3 + r] = state.previous.get(key, 0.0)
    lam = solve_problem(sim.solver, G, g, cs, guess if sim.warm_start and g.size else None, rows)
    state.previous = {key: lam[3 * c:3 * c + 3].copy() for c, key in enumerate(cs.keys)}
    state.previous.update((key, lam[k3 + r]) for r, key in enumerate(rows.keys))
    state.reference, state.last = (k3, lam, G @ lam + g), None
    return lam


def solve_problem(solver, G, g, cs, guess, rows):
    """The impulses of ``v_c = G lambda + g`` (contacts ``cs``, then the ``rows``) by ``solver`` from ``guess`` (None:
    zero), as the compiled step solves it (``compiled.contact_step``): the fast path on the whole problem
    (``kernels.active_set``); if it fails, PGS or ADMM on the working set (``compiled.contact_rows``: the contacts
    that the guess loads, that penetrate or that the free motion closes, and the rows), accepted if it converged
    and the contacts left out are dual feasible at its velocities (``compiled.excluded_dual``); else the solver on
    the whole problem."""
    from ..kernels.active_set import active_set_solve

    m, rounds = len(g), min(solver.active_set_max_iter, solver.max_iter)
    lam = np.zeros(m) if guess is None else guess.copy()
    formulation, tolerances = FORMULATIONS[solver.formulation], solver.options()[0]["tolerances"].copy()
    no_ints, no_floats = np.zeros(0, dtype=np.int64), np.zeros(0)
    spent, stats = 0, SolverStats()
    if rounds > 0 and m > 0:
        spent, accepted, primal, dual, compl = active_set_solve(formulation, G, g, cs.mu, rows.lower, rows.upper,
                                                                lam, rounds, tolerances, no_ints, no_floats)
        stats = SolverStats(spent, bool(accepted), primal, dual, compl, math.nan, 0)
        if accepted:
            solver.stats = stats
            return lam
    index = np.empty(m, dtype=np.int64)
    contacts = np.zeros((cs.size, 8))
    contacts[:, 0] = cs.distances
    n = compiled_kernels.contact_rows(contacts, lam, g, True, rows.size, index)
    rest = copy.copy(solver)  # without the fast path, within max_iter less the iterations spent
    rest.active_set_max_iter = 0
    if n < m and spent < solver.max_iter:
        index = index[:n]
        rest.max_iter = solver.max_iter - spent
        part = rest.solve(DelassusDense(np.ascontiguousarray(G[np.ix_(index, index)])), g[index],
                          cs.mu[index[:n - rows.size:3] // 3], lam[index], rows.lower, rows.upper)
        full = np.zeros(m)
        full[index] = part
        stats = rest.stats
        spent += stats.iterations
        if stats.converged:
            velocities = G @ full + g
            dual = compiled_kernels.excluded_dual(formulation, cs.mu, index, n, velocities)
            if dual <= tolerances[0] + tolerances[1] * np.abs(velocities).max(initial=0.0):
                solver.stats = dataclasses.replace(stats, iterations=spent)
                return full
        if spent >= solver.max_iter:  # none left: its iterate is the step's
            solver.stats = dataclasses.replace(stats, iterations=spent, converged=False)
            return full
    if spent < solver.max_iter:
        rest.max_iter = solver.max_iter - spent
        lam = rest.solve(DelassusDense(G), g, cs.mu, lam, rows.lower, rows.upper)
        stats = rest.stats
        spent += stats.iterations
    solver.stats = dataclasses.replace(stats, iterations=spent)
    return lam


def reference_step(sim, q, v, tau, fext=None):
    """One step of ``sim`` by the stage functions above, in Python: the reference of the compiled step
    (:mod:`rbda.simulation.compiled`), which gives the same result; ``q``, ``v``, ``tau``, ``fext`` checked.
    Returns ``(q_next, v_next)`` and fills the simulator's ``contacts``, ``impulses``, ``rows``, ... as
    :meth:`Simulator.step` does."""
    v_free = kinematics(sim, q, v, tau, fext)
    cs = contacts(sim, v, v_free)
    J, MinvJt, G = delassus(sim, cs)
    rows = constraint_rows(sim, q, v_free)
    J, MinvJt, G = augment(sim, J, MinvJt, G, rows)
    lam = solve(sim, cs, J, G, v_free, rows, v)
    sim.contacts, sim.rows = cs, rows
    return advance(sim.model, q, v_free + MinvJt @ lam, sim.dt)


def _fraction(value, name):
    value = as_scalar(value, name)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name}: must lie in [0, 1], got {value}")
    return value


def _optional_fraction(value, name):
    return None if value is None else _fraction(value, name)


def _flag(value, name):
    return bool(value)


class _Setting:
    """A setting of :class:`Simulator` (``dt``, ``margin``, ...): an attribute checked when set, whose value is also
    written into the field of that name of the simulator's ``compiled.SETTINGS`` record (None as NaN), which the
    compiled step reads (so that a step passes one array, not seven numbers, and a changed setting takes effect at
    the next step)."""

    def __init__(self, check, doc: str):
        self.check, self.__doc__ = check, doc

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, sim, owner=None):
        return self if sim is None else sim.__dict__[self.name]

    def __set__(self, sim, value):
        value = self.check(value, self.name)
        sim.__dict__[self.name] = value
        sim._settings[0][self.name] = np.nan if value is None else value


class Simulator:
    """A contact simulator for ``model`` and its ``collision_model``, stepping by ``dt`` seconds (velocity-level,
    semi-implicit: the contact impulses, then ``v_next``, then ``q_next``; in a passive scene it creates no energy).

    - ``collision_model``: an :class:`rbda.io.GeometryModel`, its objects and collision pairs read once, here
      (ground planes: :class:`rbda.io.Halfspace` objects on joint 0); build a new simulator after changing it.
    - ``solver``: ``"admm"`` or ``"pgs"`` (:class:`ADMMSolver`, :class:`PGSSolver`), with ``solver_options`` their
      keyword arguments; ``formulation``: ``"ncp"``, ``"ccp"`` or ``"lcp"``.
    - ``mu``: the friction coefficient of every object whose ``friction`` is None, or a dict ``{name: mu}`` with
      ``default`` for the others (a pair uses the larger of its two).
    - ``baumgarte`` in ``[0, 1]``: the fraction of a penetration (and of a constraint's placement error) corrected
      per step; ``slop >= 0``: the penetration (m) left uncorrected; ``margin >= 0``: contacts are kept within this
      distance; ``speculative``: each pair's margin widens to the distance it may close in one step.
    - ``warm_start``: each solve starts from the previous step's impulses of the same contacts.
    - ``restitution``: None, or Newton's coefficient ``e`` in ``[0, 1]`` on the contacts a step reaches.
    - ``constraints``: bilateral constraints (:class:`rbda.RigidConstraintModel`: loop closures, welds).

    The joint damping (``damping``, a copy of ``model.damping`` that a controller may add its gains to) and the
    joint springs (``model.stiffness`` about ``model.springref``) are implicit; a model read from MJCF adds its
    gravity compensation, fluid forces and fixed tendons (:mod:`rbda.simulation.passive`); one-dof joints' position
    limits and fixed tendons' limits are unilateral constraints, ``model.friction`` dry joint friction.

    After :meth:`step`: ``contacts`` (:class:`ContactSet`), ``impulses (3k,)`` (contact frames, normal last),
    ``forces (3k,)``, ``contact_velocities (3k,)``, ``stats`` (:class:`SolverStats`), ``rows``
    (:class:`ConstraintRows`: limits, friction, constraints), ``row_impulses (r,)``, ``row_velocities (r,)``;
    ``step_state`` holds what the simulator keeps between steps (:mod:`rbda.simulation.step_state`). The settings
    ``dt``, ``margin``, ``speculative``, ``baumgarte``, ``slop``, ``restitution``, ``warm_start`` may change
    between steps.

    Raises ``ValueError`` for ``dt <= 0``, ``mu < 0``, an unknown solver or formulation, a restitution outside
    ``[0, 1]``, a spring on a joint that is not a one-dof joint, a collision pair without a contact function (named),
    an MJCF element the step does not model (``model.mjcf_physics.unsupported``, named), MJCF ``connect``/``weld``
    equalities not passed as ``constraints`` (``rbda.io.constraints_from_mjcf(model)``); ``TypeError`` for a
    collision model that is not a ``GeometryModel`` or a constraint that is not a ``RigidConstraintModel``.
    """

    dt = _Setting(positive, "The time step (s), > 0.")
    margin = _Setting(non_negative, "The distance (m, >= 0) within which contacts are kept.")
    speculative = _Setting(_flag, "Whether each pair's margin widens to the distance it may close in one step.")
    baumgarte = _Setting(_fraction, "The fraction of a penetration corrected per step, in [0, 1].")
    slop = _Setting(non_negative, "The penetration (m, >= 0) left uncorrected.")
    restitution = _Setting(_optional_fraction, "None (Baumgarte on the normal rows) or Newton's coefficient in [0, 1].")
    warm_start = _Setting(_flag, "Whether each solve starts from the previous step's impulses of the same contacts.")

    def __init__(self, model, collision_model, dt: float, solver: str = "admm", formulation: str = "ncp",
                 mu=0.5, default: float = 0.5, baumgarte: float = 0.2, slop: float = 0.0, margin: float = 1e-3,
                 warm_start: bool = True, solver_options: dict | None = None, constraints=(),
                 restitution: float | None = None, speculative: bool = True):
        if not isinstance(collision_model, GeometryModel):
            raise TypeError(f"collision_model: expected a GeometryModel, got {type(collision_model).__name__}")
        self._settings = np.zeros(1, SETTINGS)  # the compiled step's settings: one record
        self.dt = dt
        if solver not in SOLVERS:
            raise ValueError(f"solver: expected one of {sorted(SOLVERS)}, got {solver!r}")
        if formulation not in FORMULATIONS:
            raise ValueError(f"formulation: expected one of {sorted(FORMULATIONS)}, got {formulation!r}")
        self.model, self.collision_model = model, collision_model
        self.data = model.create_data()
        self.damping = np.array(model.damping, dtype=float)  # implicit in the step; controllers may add to it
        names = [g.name for g in collision_model.geometry_objects]
        if isinstance(mu, dict):
            unknown = set(mu) - set(names)
            if unknown:
                raise ValueError(f"mu: no geometry object named {sorted(unknown)}")
            default = friction_coefficient(default, "default")
        else:
            default, mu = friction_coefficient(mu, "mu"), {}
        own = {g.name: g.friction for g in collision_model.geometry_objects if g.friction is not None}
        self.friction = np.array([friction_coefficient(mu.get(n, own.get(n, default)), f"mu[{n!r}]")
                                  for n in names])
        self.baumgarte, self.slop, self.margin = baumgarte, slop, margin
        self.warm_start, self.speculative, self.restitution = warm_start, speculative, restitution
        self.constraints, self.constraint_datas = check_bilateral(model, constraints)
        check_equalities(model, self.constraints)
        self.passive = PassiveForces(model)  # springs, tendons, gravity compensation, fluid forces
        self.limited_dofs = limited_dofs(model)
        self.solver = SOLVERS[solver](formulation=formulation, **(solver_options or {}))
        self.step_state = StepState()  # the warm start, the compiled step's context, the last step's results
        self._fast_step = no_fast_step  # the step as one C call, once the compiled step has run (packed.fast_step)
        self._scene = PackedScene(model, collision_model, self.friction)
        self.support_mask = self._scene.support  # (njoints, nv): 1 on the dofs supporting each joint
        self._compiled = model.nv_extended == model.nv  # mimic joints: the reference step
        self._settings[0]["free_bodies"] = all(  # M is then constant (compiled.free_velocity)
            isinstance(model.joints[i], JointModelFreeFlyer) and model.parents[i] == 0 for i in range(1, model.njoints))
        self.step_state.rows = ConstraintRows(np.zeros((0, model.nv)), np.zeros(0), np.zeros(0), np.zeros(0))
        self.step_state.reference = 0, np.zeros(0), np.zeros(0)

    @property
    def damping(self) -> np.ndarray:
        """The joint damping ``(nv,)`` that the step applies implicitly: a copy of ``model.damping``, to which a
        controller may add its derivative gains (:class:`StandingPD` does, in place). Set to an ``(nv,)`` array of
        finite values (kept as a C-contiguous float64 array, what the compiled step reads); ``ValueError``
        otherwise."""
        return self._damping

    @damping.setter
    def damping(self, value) -> None:
        value = finite_vector(value, self.model.nv, "damping")
        if "_damping" in self.__dict__:  # in place: the compiled step's context holds this array
            self._damping[:] = value
        else:
            self._damping = value.copy()

    @property
    def contacts(self):
        """The last step's :class:`ContactSet` (None before the first step)."""
        state = self.step_state
        if state.contacts is None and state.last is not None:
            state.contacts = contact_set(step_arrays(state))
        return state.contacts

    @contacts.setter
    def contacts(self, value) -> None:
        self.step_state.contacts, self.step_state.last = value, None

    @property
    def rows(self) -> ConstraintRows:
        """The last step's :class:`ConstraintRows` (joint limits, dry friction, bilateral constraints)."""
        state = self.step_state
        if state.rows is None:
            state.rows = step_rows(step_arrays(state))
        return state.rows

    @rows.setter
    def rows(self, value) -> None:
        self.step_state.rows = value

    @property
    def stats(self):
        """The solver's statistics of the last step (:class:`SolverStats`)."""
        return self.solver.stats

    def __getstate__(self) -> dict:
        """The simulator's state for ``copy`` and ``pickle``: the last step's results as arrays of their own, without
        the compiled step's context (a numba object, rebuilt by the next step)."""
        state = self.__dict__.copy()
        step_state = copy.copy(self.step_state)
        own_results(step_state)  # (before the context goes)
        step_state.context = None
        step_state.previous = dict(step_state.previous)
        state["step_state"] = step_state
        state["_settings"], state["_damping"] = self._settings.copy(), self._damping.copy()  # a copy's own
        state["_fast_step"] = no_fast_step  # (bound to this simulator's state: a copy binds its own)
        return state

    def _last_step(self, which: str, rows: bool) -> np.ndarray:
        """A new array of the last step's ``which`` ("impulses" or "velocities", ``G lambda + g``): the contacts'
        ``(3k,)`` part, or with ``rows`` the rows' ``(r,)`` part."""
        state = self.step_state
        if state.last is None:
            k3, impulses, velocities = state.reference
        else:
            arrays = step_arrays(state)
            k3, impulses, velocities = 3 * arrays.contacts.shape[0], arrays.impulses, arrays.velocities
        values = impulses if which == "impulses" else velocities
        return (values[k3:] if rows else values[:k3]).copy()

    @property
    def impulses(self) -> np.ndarray:
        """The last step's contact impulses ``(3k,)``, in the contact frames, normal last (a new array)."""
        return self._last_step("impulses", rows=False)

    @property
    def row_impulses(self) -> np.ndarray:
        """The last step's impulses ``(r,)`` of the rows (joint limits, dry friction, bilateral constraints; a new
        array)."""
        return self._last_step("impulses", rows=True)

    @property
    def contact_velocities(self) -> np.ndarray:
        """The contacts' velocities after the last step ``(3k,)``, ``G lambda + g`` (contact frames; a new array)."""
        return self._last_step("velocities", rows=False)

    @property
    def row_velocities(self) -> np.ndarray:
        """The rows' velocities after the last step ``(r,)`` (a new array)."""
        return self._last_step("velocities", rows=True)

    @property
    def forces(self) -> np.ndarray:
        """The last step's contact forces ``(3k,)`` (``impulses / dt``)."""
        return self.impulses / self.dt

    def reset(self) -> None:
        """Forget the previous step's impulses (the warm start) and the solver's penalty: the next step starts as
        on a new simulator."""
        state = self.step_state
        state.previous, state.warm, state.warm_in_set, state.backoff = {}, WarmStart.empty(), False, (0, 0)
        self.solver.stats = SolverStats()

    def step(self, q, v, tau, fext=None, _step: int | None = None):
        """One time step from ``q (nq,)``, ``v (nv,)`` under joint torques ``tau (nv,)`` and an optional generalized
        external force ``fext (nv,)``; returns ``(q_next, v_next)``. Fills ``contacts``, ``impulses``,
        ``contact_velocities`` and the solver's ``stats``. Raises ``ValueError`` naming the argument for a wrong
        size or a non-finite value."""
        result = self._fast_step(q, v, tau, fext)  # one C call (packed.fast_step), or None
        if result is not None:
            return result
        if self._compiled:  # one kernel call, which checks the sizes and that the values are finite
            return compiled_step(self, q, v, tau, fext, _step)
        names, model = step_names(_step), self.model
        q, v, tau = vector(q, model.nq, names[0]), vector(v, model.nv, names[1]), vector(tau, model.nv, names[2])
        if fext is not None:
            fext = vector(fext, model.nv, names[3])
        for x, name in zip((q, v, tau, fext), names):
            if x is not None:
                finite_vector(x, len(x), name)
        return reference_step(self, q, v, tau, fext)

    def rollout(self, q0, v0, taus, fext=None, progress: bool | None = None):
        """``T`` steps from ``(q0, v0)`` under the torques ``taus (T, nv)`` (and ``fext (T, nv)`` if given); returns
        ``(Q (T + 1, nq), V (T + 1, nv))``, the first rows ``q0``, ``v0``. ``progress``: a tqdm bar (None: when
        stderr is a terminal and ``T`` is long, see :func:`rbda.simulation.progress.progress_bar`). A bad row
        raises ``ValueError`` naming the step and the argument.

        Without bilateral constraints or mimic joints the steps run in one compiled call
        (:mod:`rbda.simulation.compiled_rollout`, a few with a progress bar), equal to calling :meth:`step` for each
        row; afterwards ``contacts``, ``impulses``, ``rows``, ``stats``, ... are the last step's, as after
        :meth:`step`."""
        taus = np.asarray(taus, dtype=float)
        if taus.ndim != 2 or taus.shape[1] != self.model.nv:
            raise ValueError(f"taus: expected shape (T, {self.model.nv}), got {taus.shape}")
        T = taus.shape[0]
        return self._rollout_into(np.empty((T + 1, self.model.nq)), np.empty((T + 1, self.model.nv)), q0, v0, taus,
                                  fext, progress)

    def _rollout_into(self, Q, V, q0, v0, taus, fext=None, progress=None):
        """:meth:`rollout` into ``Q (T + 1, nq)``, ``V (T + 1, nv)`` (C-contiguous float64: ``rbda.batch.rollout``'s
        output rows) for ``taus`` already a float array of shape ``(T, nv)``; returns ``(Q, V)``."""
        T = taus.shape[0]
        Q[0] = finite_vector(q0, self.model.nq, "q0")
        V[0] = finite_vector(v0, self.model.nv, "v0")
        with progress_bar(T, "rbda: rollout", progress) as bar:
            if rollout_compiled(self):  # every step in one kernel call (a few, to move the bar)
                taus, fext = _step_rows(taus, "tau"), _step_rows(fext, "fext", T, self.model.nv)
                chunk = T if isinstance(bar, _Silent) else max(1, -(-T // 100))
                for first in range(0, T, chunk):
                    compiled_steps(self, Q, V, taus, fext, first, min(T, first + chunk))
                    bar.update(min(T, first + chunk) - first)
                return Q, V
            for t in range(T):
                Q[t + 1], V[t + 1] = self.step(Q[t], V[t], taus[t], None if fext is None else fext[t], _step=t)
                bar.update()
        return Q, V
