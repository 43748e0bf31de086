"""The arrays of a simulation scene for the compiled step (:mod:`rbda.simulation.compiled`), built once per
:class:`rbda.Simulator`, and the glue of the compiled step: one kernel call over a step context
(:func:`context`, :mod:`rbda.simulation.step_context`) or two with Python between (:func:`two_call_step`).

:class:`PackedScene` holds, per geometry object, a shape code, its parent joint and placement, its radius, half
length, half-space normal and offset, bounding radius and friction coefficient, and the vertices it is checked
by (a sphere's centre, a capsule's two end centres, a box's corners, a mesh's convex hull) and their box; a hull's
vertices are stored in leaves of ``contacts.LEAF_POINTS``, each with its box (``contacts.hull_leaves``); the shape
tables of the pairs of bounded shapes (:func:`rbda.simulation.pair_kernels.shape_tables`) and each shape's box in
its frame; per collision pair, the pair's code (a half-space first or second, two bounded shapes, or disabled) and
its most contacts; the broad phase's tables (:mod:`rbda.simulation.broad_phase`); the joint limits and
dry-friction dofs of the model; each joint's parent and dofs (``tree``). :func:`compiled_step` runs one step on
it. A collision pair without a contact function (two half-spaces, a shape the step does not know) is refused when
the scene is packed, naming the pair.
"""

from __future__ import annotations

import warnings

import numpy as np

from ..algorithms._check import report
from ..algorithms.constrained import constraint_kinematics
from ..algorithms.dynamics import NO_FEXT
from ..collision.broadphase import local_boxes
from ..collision.shapes import Cone, Convex, Ellipsoid
from ..io.geometry import Box, Capsule, Cylinder, Halfspace, Mesh, Sphere
from .._native.direct import direct
from . import compiled, compiled_rollout
from .broad_phase import partner_table
from .constraints import ConstraintRows
from .contacts import PATCH_POINTS, ContactSet, bounding_radius, hull_leaves, hull_vertices, points_box
from .pair_kernels import FACE, TYPE, most_contacts, pair_room, shape_table, shape_tables
from .solvers import FORMULATIONS, RHO_UPDATES, ADMMSolver, ConvergenceWarning

_k = direct(compiled)
_kr = direct(compiled_rollout)
STEP_ARGUMENTS = ("q", "v", "tau", "fext")  # a step's arguments, as its errors name them
ROOM_ROWS = 120  # a step context's room holds the scratch arrays of a contact problem of this many rows (0.4 MB)
CONTACTS_PER_OBJECT = 8  # the output buffers first hold this many contacts per bounded object (plus the half-space
# pairs' most), or every pair's most if fewer; a step that finds more enlarges them (grow_contacts)


def _shape_row(shape):
    """``(code, vertices (n, 3), [radius, half_length])`` of one shape for the half-space contacts
    (:mod:`rbda.simulation.compiled`'s geometry codes)."""
    if isinstance(shape, Halfspace):
        return compiled.HALFSPACE, np.zeros((0, 3)), [0.0, 0.0]
    if isinstance(shape, Sphere):
        return compiled.SPHERES, np.zeros((1, 3)), [float(shape.radius), 0.0]
    if isinstance(shape, Capsule):
        h = float(shape.half_length)
        return compiled.SPHERES, np.array([[0.0, 0.0, -h], [0.0, 0.0, h]]), [float(shape.radius), h]
    if isinstance(shape, Box):
        half = shape.half_side
        corners = [[sx * half[0], sy * half[1], sz * half[2]] for sx in (-1.0, 1.0) for sy in (-1.0, 1.0)
                   for sz in (-1.0, 1.0)]
        return compiled.VERTICES, np.array(corners), [0.0, 0.0]
    if isinstance(shape, Cylinder):
        return compiled.CYLINDER, np.zeros((0, 3)), [float(shape.radius), float(shape.half_length)]
    if isinstance(shape, Mesh):
        return compiled.HULL, hull_vertices(shape), [0.0, 0.0]
    if isinstance(shape, Convex):
        return compiled.HULL, shape_table(shape)[2], [0.0, 0.0]
    if isinstance(shape, Ellipsoid):
        return compiled.ELLIPSOID, np.zeros((0, 3)), [0.0, 0.0]
    if isinstance(shape, Cone):
        return compiled.CONE, np.zeros((0, 3)), [float(shape.radius), 0.5 * float(shape.length)]
    return compiled.OTHER, np.zeros((0, 3)), [0.0, 0.0]


# the most contacts of a half-space pair, by the shape's code (else its vertex count; a hull's patch is reduced)
PLANE_MOST = {compiled.CYLINDER: 8, compiled.CONE: 5, compiled.ELLIPSOID: 1}


def _pair_code(g1, g2, code1, code2) -> tuple[int, int]:
    """``(pair code, most contacts)`` of two geometry objects (:mod:`rbda.simulation.compiled`); the code None for a
    pair without a contact function."""
    if g1.disable_collision or g2.disable_collision:
        return compiled.DISABLED, 0
    if code1 == compiled.OTHER or code2 == compiled.OTHER or code1 == code2 == compiled.HALFSPACE:
        return None, 0
    if code1 == compiled.HALFSPACE:
        return compiled.PLANE_FIRST, -1
    if code2 == compiled.HALFSPACE:
        return compiled.PLANE_SECOND, -1
    return compiled.SHAPES, 0


def _refused(geoms, pairs) -> str:
    """The message of the collision pairs ``pairs`` (index, i, j) that have no contact function."""
    named = ", ".join(f"{index} ('{geoms[i].name}' {type(geoms[i].geometry).__name__}, '{geoms[j].name}' "
                      f"{type(geoms[j].geometry).__name__})" for index, i, j in pairs)
    return (f"collision_model: no contact function for the collision pairs {named}: the simulator handles every pair "
            "of half-spaces, spheres, capsules, boxes, cylinders, cones, ellipsoids and convex meshes but two "
            "half-spaces (disable the pair or remove it)")


class PackedScene:
    """The packed arrays of ``collision_model`` and ``model``'s limits for the compiled step (see the module);
    ``friction (ngeoms,)`` each object's coefficient. The collision model is read here, once: its objects'
    shapes, placements, ``disable_collision`` flags and pairs as they are when the simulator is built. Raises
    ``ValueError`` naming the collision pairs that have no contact function (and the errors of
    ``collision.shapes.shape_row`` for a bad shape: a size that is not positive, a mesh file that is missing)."""

    def __init__(self, model, collision_model, friction):
        geoms = collision_model.geometry_objects
        ng = len(geoms)
        # code, parent joint, first vertex, vertex count, first leaf, then pair_kernels' columns from TYPE on
        self.gint = np.zeros((ng, TYPE + 7), dtype=np.int64)
        self.gR, self.gp = np.zeros((ng, 3, 3)), np.zeros((ng, 3))
        # radius, half length, unit normal (3), offset, bounding radius, friction, box of the vertices (6)
        self.gparam = np.zeros((ng, 14))
        vertices, boxes = [], []
        for g, obj in enumerate(geoms):
            code, V, (radius, half_length) = _shape_row(obj.geometry)
            V = np.asarray(V, dtype=float).reshape(-1, 3)
            index = np.arange(len(V))
            if code == compiled.HULL:  # in leaves (contacts.plane_hull), each vertex with its index
                index, leaves = hull_leaves(V)
                self.gint[g, 4] = sum(len(b) for b in boxes)
                boxes.append(leaves)
            start = sum(len(x) for x in vertices)
            self.gint[g, :4] = code, obj.parent_joint, start, len(V)
            vertices.append(np.column_stack([V[index], index]))
            self.gR[g], self.gp[g] = obj.placement.rotation, obj.placement.translation
            self.gparam[g, :2] = radius, half_length
            if code == compiled.HALFSPACE:
                n = np.asarray(obj.geometry.normal, dtype=float)
                self.gparam[g, 2:5] = n / np.sqrt(n @ n)
                self.gparam[g, 5] = float(obj.geometry.offset)
            self.gparam[g, 6] = np.inf if code == compiled.HALFSPACE else bounding_radius(obj.geometry)
            self.gparam[g, 7] = friction[g]
            self.gparam[g, 8:14] = points_box(V)
        # (4, n): x, y, z, index; one per row, each contiguous; a hull's in leaves whose boxes are (nleaves, 6)
        self.vertices = np.ascontiguousarray((np.concatenate(vertices) if vertices else np.zeros((0, 4))).T)
        self.boxes = np.concatenate(boxes) if boxes else np.zeros((0, 6))
        # the bounded pairs' shape tables (pair_kernels.shape_tables): a half-space's row is its normal and offset
        columns, self.sparam, self.hull, self.graph, self.faces, self.face_ranges, self.polygons, widest = (
            shape_tables([obj.geometry if self.gint[g, 0] != compiled.OTHER else Halfspace()
                          for g, obj in enumerate(geoms)], [f"collision_model: {obj.name!r}" for obj in geoms]))
        self.gint[:, TYPE:] = columns
        pairs = np.array(collision_model.collision_pairs, dtype=np.int64).reshape(-1, 2)
        self.pairs = np.zeros((len(pairs), 4), dtype=np.int64)  # i, j, pair code, most contacts
        refused = []
        for index, (i, j) in enumerate(pairs):
            code, most = _pair_code(geoms[i], geoms[j], self.gint[i, 0], self.gint[j, 0])
            if code is None:
                refused.append((index, i, j))
                continue
            if most < 0:  # a half-space and a shape: its vertices (a mesh's patch reduced), a cylinder's 8
                shape = j if code == compiled.PLANE_FIRST else i
                most = min(self.gint[shape, 3], PATCH_POINTS) if self.gint[shape, 0] == compiled.HULL else (
                    PLANE_MOST.get(self.gint[shape, 0], self.gint[shape, 3]))
            elif code == compiled.SHAPES:
                most = most_contacts(self.gint[i, TYPE], self.gint[j, TYPE])
            self.pairs[index] = i, j, code, most
        if refused:
            raise ValueError(_refused(geoms, refused))
        # the broad phase (broad_phase.py): the half-space pairs, the bounded objects, their partners and boxes
        codes = self.pairs[:, 2]
        self.plane_pairs = np.flatnonzero((codes == compiled.PLANE_FIRST) | (codes == compiled.PLANE_SECOND))
        shapes = codes == compiled.SHAPES
        self.bounded = np.unique(self.pairs[shapes, :2]).astype(np.int64)
        self.order = self.bounded.copy()  # sorted by the boxes' lower x at each step
        self.partner_start, self.partners = partner_table(self.pairs[:, :2], shapes, ng)
        self.local_box = np.zeros((ng, 6))
        ranges = np.ascontiguousarray(self.gint[:, TYPE + 1:TYPE + 3])
        local_boxes(np.ascontiguousarray(self.gint[:, TYPE]), self.sparam, ranges, self.hull, self.local_box)
        self.world_box = np.zeros((ng, 6))
        self.candidates = np.zeros(len(pairs), dtype=np.int64)
        self.most_contacts = int(self.pairs[:, 3].sum())
        self.capacity = min(self.most_contacts,
                            int(self.pairs[self.plane_pairs, 3].sum()) + CONTACTS_PER_OBJECT * len(self.bounded))
        self.pair_room, self.pair_rows = pair_room(widest), np.empty((FACE, 10))
        self.parents = self.gint[:, 1].copy()
        support = np.zeros((model.njoints, model.nv))
        for j in range(1, model.njoints):
            for s in model.supports[j][1:]:
                support[j, model.idx_v[s]:model.idx_v[s] + model.nvs[s]] = 1.0
        self.support = support
        # each joint's parent, first dof and number of dofs (the speculative margins' joint twists)
        self.tree = np.array([[model.parents[j], model.idx_v[j], model.nvs[j]] if j else [-1, 0, 0]
                              for j in range(model.njoints)], dtype=np.int64).reshape(-1, 3)
        self.lower_limit = np.ascontiguousarray(model.lower_position_limit, dtype=float)
        self.upper_limit = np.ascontiguousarray(model.upper_position_limit, dtype=float)
        self.friction = np.ascontiguousarray(model.friction, dtype=float)
        self.friction_dofs = np.flatnonzero(self.friction > 0.0).astype(np.int64)
        self.zeros = np.zeros(model.nv)
        self.work = np.empty((max(8, int(self.gint[:, 3].max(initial=0))), 5))  # one shape's vertices
        # the speculative margins' tables (compiled.candidate_pairs): contiguous copies, and their room
        self.plane = (self.gint[:, 0] == compiled.HALFSPACE).astype(np.int64)
        self.radius = np.ascontiguousarray(self.gparam[:, 6])
        self.normals = np.ascontiguousarray(self.gparam[:, 2:5])
        self.velocities, self.twists = np.empty((2, model.nv)), np.empty((2, model.njoints, 6))
        # a step's room: the geometry objects' world placements, each pair's margin; no bilateral rows
        self.R, self.p, self.margins = np.empty((ng, 3, 3)), np.empty((ng, 3)), np.empty(len(pairs))
        self.no_rows = (np.zeros((0, model.nv)), np.zeros(0), np.zeros((0, 3), dtype=np.int64))


def solver_options(solver) -> tuple[int, int, np.ndarray]:
    """``(solver code, formulation code, options)`` of a :class:`PGSSolver` or :class:`ADMMSolver` for
    ``compiled.solve_contacts``, from its current settings: built once and kept on the solver until a setting
    changes (``_ContactSolver.__setattr__``); ADMM's entry 15, the previous penalty, is refreshed at each call.
    The options array is the solver's own: a caller that changes it works on a copy."""
    if solver._options is None:
        tolerances = [solver.absolute_feasibility_tol, solver.relative_feasibility_tol,
                      solver.absolute_complementarity_tol, solver.relative_complementarity_tol]
        formulation = FORMULATIONS[solver.formulation]
        if not isinstance(solver, ADMMSolver):
            options = (compiled.PGS, formulation, np.array([solver.over_relaxation, solver.max_iter, *tolerances,
                                                            solver.active_set_max_iter], dtype=float))
        else:
            options = (compiled.ADMM, formulation, np.array(
                [solver.mu_prox, solver.tau, np.nan if solver.rho is None else solver.rho, solver.rho_min,
                 solver.rho_max, solver.ratio_primal_dual, solver.spectral_rho_power_init,
                 solver.spectral_rho_power_factor, solver.linear_update_rule_factor, *tolerances, solver.max_iter,
                 RHO_UPDATES[solver.rho_update], np.nan, solver.active_set_max_iter], dtype=float))
        solver._options = options
    options = solver._options
    if options[0] == compiled.ADMM:
        options[2][15] = solver.last_rho() if solver.warm_start_rho else np.nan
    return options


def _bilateral_rows(sim):
    """``(J (r, nv), bias (r,), keys (r, 3))`` of the bilateral constraints (``constraints.constraint_rows``)."""
    J, bias, keys = [], [], []
    for c, (cm, cd) in enumerate(zip(sim.constraints, sim.constraint_datas)):
        constraint_kinematics(sim.model, sim.data, cm, cd)
        for r in range(cm.size):
            J.append(cd.jacobian[r])
            bias.append(sim.baumgarte * cd.contact_placement_error[r] / sim.dt)
            keys.append((compiled.BILATERAL, c, r))
    nv = sim.model.nv
    return (np.array(J, dtype=float).reshape(-1, nv), np.array(bias, dtype=float),
            np.array(keys, dtype=np.int64).reshape(-1, 3))


def box_rows(sim) -> int:
    """The most joint-limit, tendon-limit and dry-friction rows a step of ``sim`` can have: each limited dof and
    tendon at both its limits, each dof with dry friction."""
    return 2 * len(sim.limited_dofs[0]) + 2 * len(sim.passive.tendon_limited) + len(sim._scene.friction_dofs)


def passive_arrays(passive) -> tuple:
    """The arrays of a :class:`~rbda.simulation.passive.PassiveForces` in the order of the step context's fields."""
    return (passive.spring_q, passive.spring_v, passive.spring_k, passive.spring_ref, passive.tendon_q,
            passive.tendon_v, passive.tendon_k, passive.tendon_d, passive.tendon_length0, passive.tendon_limited,
            passive.tendon_lower, passive.tendon_upper, passive.gravcomp_joint, passive.gravcomp, passive.fluid_joint,
            passive.fluid_R, passive.fluid_p, passive.fluid_viscous, passive.fluid_quadratic, passive.wind,
            passive.room, passive.velocities)


def context(sim):
    """``(context, sets)``: the :class:`~rbda.simulation.step_context.StepContext` of ``sim``'s compiled step (the
    arrays that stay the same objects from step to step: ``sim.data``'s, the packed scene's, the joint-limit tables,
    the empty bilateral rows, room, and two sets of output buffers) and the two sets as dicts of arrays; built once
    per :class:`rbda.Simulator` and again if its ``data`` is replaced, and kept on it with the arrays (the context
    borrows them: they must live as long as it). (The context holds the simulator's damping and settings arrays,
    which their setters change in place: a change takes effect at the next step.)"""
    kept = sim.__dict__.get("_context")
    if kept is not None and kept[0] is sim.data:
        return kept[1], kept[2]
    from .step_context import FIELDS, output_buffers, step_context

    data, scene, nv = sim.data, sim._scene, sim.model.nv
    I, F = sim.model.packed
    d = data._views
    rows = box_rows(sim)
    arrays = dict(zip(FIELDS, (
        I, F, data.ws, data.M, data._cholesky_L, data.D, data.Dinv, data.dof_parents, d.tau, d.oMi, d.J,
        scene.pairs, scene.gint, scene.gR, scene.gp, scene.gparam, scene.vertices, scene.boxes, scene.tree, scene.work,
        scene.R, scene.p, scene.margins, scene.plane, scene.radius, scene.normals, scene.velocities,
        scene.twists, scene.parents, sim.limited_dofs[0], sim.limited_dofs[1], scene.lower_limit, scene.upper_limit,
        scene.friction_dofs, scene.friction, *passive_arrays(sim.passive), scene.zeros, NO_FEXT, *scene.no_rows,
        scene.support, np.empty(PATCH_POINTS, dtype=np.int64), np.empty(3), sim.damping, sim._settings)))
    arrays.update(zip(("sparam", "hull", "graph", "faces", "face_ranges", "polygons"),
                      (scene.sparam, scene.hull, scene.graph, scene.faces, scene.face_ranges, scene.polygons)))
    arrays.update(zip(("simplex", "simplex_weights", "hull_starts", "witness", "iterations", "epa_polytope",
                       "epa_faces", "epa_planes", "epa_alive", "epa_edges", "pair_placements", "features", "clipped",
                       "patch"), scene.pair_room[:14]))
    arrays["pair_rows"] = scene.pair_rows
    arrays.update(zip(("plane_pairs", "bounded", "order", "partner_start", "partners", "local_box", "world_box",
                       "candidates"), (scene.plane_pairs, scene.bounded, scene.order, scene.partner_start,
                                       scene.partners, scene.local_box, scene.world_box, scene.candidates)))
    floats, integers = compiled.room_sizes(min(3 * scene.capacity + rows, ROOM_ROWS), nv)
    arrays["room"], arrays["iroom"] = np.empty(floats), np.empty(integers, dtype=np.int64)
    buffers = output_buffers(scene.capacity, rows, nv)
    arrays.update(buffers)
    sets = tuple({name: buffer[parity] for name, buffer in buffers.items()} for parity in (0, 1))
    sim._context = sim.data, step_context(arrays), sets, arrays
    sim._parity = 0
    return sim._context[1], sets


def compiled_step(sim, q, v, tau, fext, names=STEP_ARGUMENTS, _empty=np.empty):
    """One step of ``sim`` (a :class:`rbda.Simulator`) from ``q``, ``v``, ``tau`` and ``fext`` (None or ``(nv,)``;
    C-contiguous float64 vectors of the right sizes, whose finiteness the kernel checks) on its
    :class:`PackedScene`; returns ``(q_next, v_next)`` and keeps the step's arrays on ``sim`` (read by its
    properties). A scene without bilateral constraints steps in one kernel call (``compiled.step``); a scene with
    bilateral constraints in two calls with Python between (:func:`two_call_step`). A step that finds more contacts
    than the output buffers hold enlarges them (:func:`grow_contacts`) and runs again. A bad argument raises the
    ``ValueError`` of :func:`step_error`, naming it by ``names``. (``_empty``: ``np.empty`` as a local name, which
    halves its call's 0.1 us.)"""
    if sim.constraints:
        return two_call_step(sim, q, v, tau, fext, names)
    ctx, sets = context(sim)
    stage_warm(sim, sets)
    parity = 1 - sim._parity  # the other set holds the previous step's results: the warm start
    solver, formulation, options = solver_options(sim.solver)
    q_next, v_next = _empty(len(q)), _empty(len(v))
    status, k, r = _k.step(ctx, parity, q, v, tau, sim._scene.zeros if fext is None else fext, solver, formulation,
                           options, q_next, v_next)
    if status == compiled.TOO_MANY_CONTACTS:
        grow_contacts(sim)
        return compiled_step(sim, q, v, tau, fext, names)
    if status:
        step_error(status, sim.model, q, v, names, sets[parity]["out_stats"])
    keep_set(sim, sets, parity, k, r)
    if sets[parity]["out_stats"][1] == 0.0 and not sim._unconverged:
        unconverged(sim, sets[parity]["out_stats"])
    return q_next, v_next


def unconverged(sim, stats) -> None:
    """Warn, once per simulator, that a step's contact solve stopped before its tolerances
    (:class:`~rbda.simulation.solvers.ConvergenceWarning`); ``stats``: the step's raw statistics."""
    sim._unconverged = True
    warnings.warn(f"rbda.Simulator: a step's contact solve stopped after {int(stats[0])} iterations without meeting "
                  f"its tolerances (primal {stats[2]:.1e}, dual {stats[3]:.1e}, complementarity {stats[4]:.1e}); "
                  "the step is kept. sim.stats holds each step's figures; the solver's max_iter and tolerances "
                  "(solver_options) set the bound. Shown once per simulator.", ConvergenceWarning, stacklevel=4)


def grow_contacts(sim):
    """Twice the room for contacts in ``sim``'s output buffers (at most every pair's most): the last step's results
    kept as arrays of their own (the warm start of the next), and the step context built again at the next step."""
    scene = sim._scene
    if scene.capacity >= scene.most_contacts:
        raise RuntimeError("the step found more contacts than its pairs can have")  # (never: each pair's most)
    if sim._fused is not None:  # the last one-call step's arrays: from the output set to arrays of their own
        arrays = tuple(x.copy() for x in step_arrays(sim))
        sim._backoff = backoff(sim)
        sim._step_arrays, sim._fused = arrays, None
        sim._warm = arrays[1], arrays[8], arrays[9], arrays[1].shape[0], arrays[8].shape[0]
    sim._warm_in_set = False
    scene.capacity = min(scene.most_contacts, 2 * max(scene.capacity, 1))
    del sim._context


def stage_warm(sim, sets):
    """Unless it is there, write the warm start of ``sim``'s next one-call step (:func:`warm_arrays`: after a
    two-call step, a reset, or none) into the output set of ``sets`` that the step reads it from (``sim._parity``),
    with its counts: the contacts, then the rows."""
    if sim._warm_in_set:
        return
    out = sets[sim._parity]
    keys, rows, impulses = warm_arrays(sim)
    k, r = keys.shape[0], rows.shape[0]
    out["out_keys"][:k] = keys
    out["out_impulses"][:3 * k + r] = impulses
    out["out_rows"][:r] = rows
    out["out_counts"][:] = k, r, *backoff(sim)
    sim._warm_in_set = True


def step_arrays(sim) -> tuple:
    """The last compiled step's arrays ``(contacts, keys, frames, J, v_free, bias, lower, upper, rows, impulses,
    velocities)``: kept by :func:`keep_step`, or views of the output set of a one-call step (valid until the step
    after next, which writes that set again; the simulator's properties copy what they return)."""
    if sim._fused is None:
        return sim._step_arrays
    parity, k, r = sim._fused
    out, m = sim._context[2][parity], 3 * k + r
    return (out["out_contacts"][:k], out["out_keys"][:k], out["out_frames"][:k], out["out_J"][:m],
            out["out_v_free"], out["out_bias"][:r], out["out_lower"][:r], out["out_upper"][:r], out["out_rows"][:r],
            out["out_impulses"][:m], out["out_velocities"][:m])


def two_call_step(sim, q, v, tau, fext, names=STEP_ARGUMENTS):
    """:func:`compiled_step` in two kernel calls, the bilateral rows computed between them. Stages 1 and 2 write into
    the output set that does not hold the warm start; what this step keeps is copied out of it."""
    scene = sim._scene
    ctx, sets = context(sim)
    parity = 1 - sim._parity
    status, k = _k.dynamics_and_contacts(ctx, parity, q, v, tau, scene.zeros if fext is None else fext)
    if status == compiled.TOO_MANY_CONTACTS:
        grow_contacts(sim)
        return two_call_step(sim, q, v, tau, fext, names)
    if status:
        step_error(status, sim.model, q, v, names)
    out = sets[parity]
    contacts, keys, v_free = out["out_contacts"][:k].copy(), out["out_keys"][:k].copy(), out["out_v_free"].copy()
    bilateral = _bilateral_rows(sim) if sim.constraints else scene.no_rows
    solver, formulation, options = solver_options(sim.solver)
    q_next, v_next = np.empty(q.shape[0]), np.empty(v.shape[0])
    k, r_max = len(contacts), box_rows(sim) + len(bilateral[1])
    J, frames, stats = np.empty((3 * k + r_max, v.shape[0])), np.empty((k, 3, 3)), np.empty(7)
    bias, lower, upper, rows = np.empty(r_max), np.empty(r_max), np.empty(r_max), np.empty((r_max, 3), dtype=np.int64)
    impulses, velocities = np.empty(3 * k + r_max), np.empty(3 * k + r_max)
    failed, wait = backoff(sim)
    m, r = _k.contact_step(ctx, q, v, v_free, contacts, keys, *bilateral, *warm_arrays(sim), wait == 0, solver,
                           formulation, options, q_next, v_next, J, frames, bias, lower, upper, rows, impulses,
                           velocities, stats)
    if stats[0] < 0:
        step_error(compiled.NOT_FINITE_G, sim.model, q, v, names)
    if not (np.isfinite(v_next).all() and np.isfinite(q_next).all()):
        step_error(compiled.NOT_FINITE_STEP, sim.model, q, v, names, stats)
    J, bias, lower, upper, rows, impulses, velocities = (J[:m], bias[:r], lower[:r], upper[:r], rows[:r], impulses[:m],
                                                         velocities[:m])
    keep_step(sim, contacts, keys, v_free, impulses, velocities, J, frames, bias, lower, upper, rows, stats)
    sim._backoff = compiled.guess_backoff(failed, wait, stats[0] == 0.0 and stats[1] == 1.0)
    if stats[1] == 0.0 and not sim._unconverged:
        unconverged(sim, stats)
    return q_next, v_next


def step_error(status, model, q, v, names=STEP_ARGUMENTS, stats=None):
    """Raise the ``ValueError`` of a step's kernel status (``compiled.NOT_SPD``, ``compiled.NOT_FINITE_G``,
    ``compiled.NOT_FINITE_STEP`` with the solve's raw ``stats``, or an input status of ``q``, ``v``, ``tau``,
    ``fext``, named by ``names``)."""
    if status == compiled.NOT_SPD:
        raise ValueError("data.M: is not positive definite (a pivot of its factorisation is <= 0)")
    if status == compiled.NOT_FINITE_G:
        raise ValueError("D: contains non-finite values (NaN or inf)")
    if status == compiled.NOT_FINITE_STEP:
        raise ValueError(f"the step's q_next, v_next: not finite (the contact solve diverged after {int(stats[0])} "
                         f"iterations, converged {bool(stats[1])}); the state given is kept unchanged")
    report(status, names, model, (q, v))


def keep_step(sim, contacts, keys, v_free, impulses, velocities, J, frames, bias, lower, upper, rows, stats):
    """Keep a compiled step's arrays on ``sim``: the next step's warm start, the arrays its ``contacts`` and
    ``rows`` are built from when read (:func:`step_arrays`), the solver's raw statistics (its ``stats`` are built
    from them when read)."""
    sim._warm = keys, rows, impulses, keys.shape[0], rows.shape[0]
    sim._warm_in_set = False
    sim._step_arrays = contacts, keys, frames, J, v_free, bias, lower, upper, rows, impulses, velocities
    sim._fused = None
    sim.solver.keep_raw_stats(stats)
    sim._contacts = sim._rows = None  # built from the step's arrays when read


def keep_set(sim, sets, parity, k, r):
    """Keep on ``sim`` a one-call step's results, ``k`` contacts and ``r`` rows in the output set ``parity`` of its
    step context (``sets``, :func:`context`): as :func:`keep_step` does with a two-call step's arrays, the set's
    arrays are the next step's warm start, and the step's arrays are views of it, made when read
    (:func:`step_arrays`)."""
    out = sets[parity]
    sim._parity = parity
    sim._backoff = None  # in the set's counts (backoff)
    sim._warm = out["out_keys"], out["out_rows"], out["out_impulses"], k, r
    sim._warm_in_set = True
    sim._fused = parity, k, r
    sim.solver.keep_raw_stats(out["out_stats"])
    sim._contacts = sim._rows = None


def backoff(sim) -> tuple:
    """``(failed, wait)`` of ``sim``'s next step: when it tries its warm start as it is (``compiled.guess_backoff``);
    after a one-call step, in its output set's counts, else kept on the simulator."""
    if sim._backoff is None:  # (keep_set)
        counts = context(sim)[1][sim._fused[0]]["out_counts"]
        return int(counts[2]), int(counts[3])
    return sim._backoff


def warm_arrays(sim) -> tuple:
    """The warm start of ``sim``'s next step, ``(keys (k, 4), rows (r, 3), impulses (3k + r,))``: the previous
    step's (empty after :meth:`~rbda.Simulator.reset`)."""
    keys, rows, impulses, k, r = sim._warm
    return keys[:k], rows[:r], impulses[:3 * k + r]


def contact_set(arrays) -> ContactSet:
    """The :class:`ContactSet` of a compiled step's arrays (:func:`step_arrays`)."""
    contacts, keys, frames = arrays[:3]
    return ContactSet(points=contacts[:, 1:4].copy(), normals=contacts[:, 4:7].copy(),
                      distances=contacts[:, 0].copy(), frames=frames.copy(), pairs=keys[:, 2:4].copy(),
                      mu=contacts[:, 7].copy(), keys=[(int(a), int(b)) for a, b in keys[:, :2]])


def constraint_rows(arrays) -> ConstraintRows:
    """The :class:`ConstraintRows` of a compiled step's arrays (:func:`step_arrays`)."""
    contacts, J, bias, lower, upper, rows = arrays[0], arrays[3], *arrays[5:9]
    names = {compiled.LIMIT: "limit", compiled.TENDON_LIMIT: "tendon_limit", compiled.BILATERAL: "constraint"}
    keys = [("friction", int(a)) if kind == compiled.FRICTION else (names[int(kind)], int(a), int(b))
            for kind, a, b in rows]
    return ConstraintRows(J[3 * contacts.shape[0]:].copy(), bias.copy(), lower.copy(), upper.copy(), keys)


# ---------------------------------------------------------------------------------- whole rollouts compiled
def rollout_compiled(sim) -> bool:
    """Whether ``sim``'s rollouts run as one compiled kernel (:mod:`rbda.simulation.compiled_rollout`): no
    bilateral constraint and no mimic joint."""
    return sim._compiled and not sim.constraints


def compiled_steps(sim, Q, V, taus, fext, first, last):
    """Steps ``first`` to ``last - 1`` of a rollout of ``sim`` (:func:`rollout_compiled` true) in one kernel call:
    fills ``Q[t + 1], V[t + 1]`` (C-contiguous ``(T + 1, nq)``, ``(T + 1, nv)``, rows ``first`` checked) from
    ``taus (T, nv)`` and ``fext (T, nv)`` or ``(0, nv)`` (checked finite), warm-started as :meth:`Simulator.step`
    is; keeps the last step's arrays on ``sim`` as :func:`compiled_step` does. A bad step raises the step's
    ``ValueError`` prefixed with ``step t:``."""
    ctx, sets = context(sim)
    solver, formulation, options = solver_options(sim.solver)
    options = options.copy()  # the kernel keeps ADMM's penalty in it
    warm_rho = solver == compiled.ADMM and sim.solver.warm_start_rho
    t = first
    while t < last:
        start = t
        stage_warm(sim, sets)
        status, t, parity = _kr.rollout_steps(ctx, sim._parity, Q, V, taus, fext, start, last, solver, formulation,
                                              options, warm_rho)
        if t > start:  # the last step completed: its arrays are the output set parity's
            k, r = sets[parity]["out_counts"][:2]
            keep_set(sim, sets, parity, int(k), int(r))
        try:
            if status == compiled.TOO_MANY_CONTACTS:  # step t again, with more room for contacts
                grow_contacts(sim)
                ctx, sets = context(sim)
            elif status:
                step_error(status, sim.model, Q[t], V[t], stats=sets[1 - parity]["out_stats"])
        except ValueError as exc:
            raise ValueError(f"step {t}: {exc}") from None
