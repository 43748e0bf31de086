"""The arrays of a simulation scene for the compiled step (:mod:`rbda.simulation.compiled`), built once per
:class:`rbda.Simulator`, and the glue of the compiled step: one kernel call over a step context
(:func:`context`, :mod:`rbda.simulation.step_context`).

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

from ..algorithms._check import report, vector
from ..algorithms.constrained import _bind
from ..algorithms.dynamics import NO_FEXT
from ..collision.broadphase import local_boxes
from ..collision.shapes import Cone, Convex, Ellipsoid
from ..model.geometry import Box, Capsule, Cylinder, Halfspace, Mesh, Sphere
from .._native.direct import direct
from . import compiled, compiled_rollout
from .broad_phase import partner_table
from .constraints import ConstraintRows
from .contacts import PATCH_POINTS, ContactSet, bounding_radius, hull_leaves, hull_vertices, points_box
from .pair_kernels import FACE, TYPE, most_contacts, pair_room, shape_table, shape_tables
from .solvers import ConvergenceWarning
from .step_state import IN_SET, CompiledContext, InSet, StepArrays, WarmStart

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
        # a step's room: the geometry objects' world placements, each pair's margin
        self.R, self.p, self.margins = np.empty((ng, 3, 3)), np.empty((ng, 3)), np.empty(len(pairs))


def solver_options(solver) -> np.ndarray:
    """The ``SOLVER_OPTIONS`` record of a :class:`PGSSolver` or :class:`ADMMSolver` for the compiled step
    (``solver.options()``: kept on the solver until a setting changes)."""
    options = solver._options
    return solver.options() if options is None else options


def bilateral_arrays(sim) -> tuple:
    """``(CI, CF, CR, J, bias, work, keys)`` of the bilateral constraints of ``sim`` for the step context: the
    constraints packed as the constrained-dynamics kernels read them (``algorithms.constrained._bind``: the
    constraint models' ``ints`` and ``params`` become views of ``CI``'s and ``CF``'s rows, so that edits of them
    reach the step), room for their rows of ``J`` and their biases, and the rows' keys ``(BILATERAL, c, row)``."""
    from ..kernels import constrained as kc

    model, nv = sim.model, sim.model.nv
    keys = np.array([(compiled.BILATERAL, c, r) for c, cm in enumerate(sim.constraints) for r in range(cm.size)],
                    dtype=np.int64).reshape(-1, 3)
    if not sim.constraints:
        return (np.zeros((0, kc.CONSTRAINT_INTS), dtype=np.int64), np.zeros((0, kc.CONSTRAINT_FLOATS)),
                np.zeros((0, kc.RECORD)), np.zeros((0, nv)), np.zeros(0), np.zeros(0), keys)
    CI, CF, CR, J, bias, work, _ = _bind(model, sim.data, sim.constraints, sim.constraint_datas)
    return CI, CF, CR, J, bias, work, keys


def box_rows(sim) -> int:
    """The most one-dimensional rows a step of ``sim`` can have: each limited dof and tendon at both its limits,
    each dof with dry friction, each row of a bilateral constraint."""
    return (2 * len(sim.limited_dofs[0]) + 2 * len(sim.passive.tendon_limited) + len(sim._scene.friction_dofs)
            + sum(cm.size for cm in sim.constraints))


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
    kept = sim.step_state.context
    if kept is not None and kept.data is sim.data:
        return kept.kernel, kept.sets
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
        scene.friction_dofs, scene.friction, *passive_arrays(sim.passive), scene.zeros, NO_FEXT,
        scene.support, np.empty(PATCH_POINTS, dtype=np.int64), np.empty(3), sim.damping, sim._settings,
        sim.solver.options().copy())))
    arrays.update(zip(("sparam", "hull", "graph", "faces", "face_ranges", "polygons"),
                      (scene.sparam, scene.hull, scene.graph, scene.faces, scene.face_ranges, scene.polygons)))
    arrays.update(zip(("simplex", "simplex_weights", "hull_starts", "witness", "iterations", "epa_polytope",
                       "epa_faces", "epa_planes", "epa_alive", "epa_edges", "pair_placements", "features", "clipped",
                       "patch"), scene.pair_room[:14]))
    arrays["end_sphere"], arrays["pair_rows"] = scene.pair_room[15], scene.pair_rows
    arrays.update(zip(("CI", "CF", "CR", "cJ", "cbias", "cwork", "ckeys"), bilateral_arrays(sim)))
    arrays.update(zip(("plane_pairs", "bounded", "order", "partner_start", "partners", "local_box", "world_box",
                       "candidates"), (scene.plane_pairs, scene.bounded, scene.order, scene.partner_start,
                                       scene.partners, scene.local_box, scene.world_box, scene.candidates)))
    floats, integers = compiled.room_sizes(min(3 * scene.capacity + rows, ROOM_ROWS), nv)
    arrays["room"], arrays["iroom"] = np.empty(floats), np.empty(integers, dtype=np.int64)
    buffers = output_buffers(scene.capacity, rows, nv)
    arrays.update(buffers)
    arrays["parity"] = np.zeros(1, dtype=np.int64)
    sets = tuple({name: buffer[parity] for name, buffer in buffers.items()} for parity in (0, 1))
    sim.step_state.context = CompiledContext(sim.data, step_context(arrays), sets, arrays, arrays["parity"],
                                             sim.model.nq, nv, scene.zeros)
    return sim.step_state.context.kernel, sets


def ready(sim) -> CompiledContext:
    """``sim``'s step context (:func:`context`) ready for a one-call step: the warm start in the set the step reads
    (:func:`stage_warm`), the solver's options copied into the context's when they are not the ones last copied
    (another solver, or a setting changed), and the solver's statistics read from the context's sets."""
    context(sim)
    kept, solver = sim.step_state.context, sim.solver
    stage_warm(sim, kept.sets)
    options = solver.options()
    if options is not kept.options_source:
        kept.arrays["options"][:] = options
        kept.options_source, kept.solver_dict = options, solver.__dict__
        kept.raw_stats = (kept.arrays["out_stats"], kept.parity)
    sim._fast_step = fast_step(sim, kept) or no_fast_step
    return kept


def no_fast_step(q, v, tau, fext=None):
    """A simulator's ``_fast_step`` until its first compiled step, and without the C extension: always None (the
    ordinary path)."""
    return None


def fast_step(sim, kept):
    """``sim``'s one-call step as one C call (``rbda._native.step_entry``): ``(q, v, tau, fext)`` to a new
    ``(q_next, v_next)``, the vectors checked as :func:`compiled_step`'s kernel call takes them (exact float64
    arrays, C-contiguous, of the model's sizes; ``fext`` None or such an array) and the simulator's state as
    :func:`compiled_step` finds it after :func:`ready` (its context, data, solver and options, the warm start in the
    set the step reads); a kept step is followed by :func:`keep_set`'s writes (and the warning of
    :func:`unconverged` when due). For any other call it answers None: :func:`compiled_step` then takes it. None
    where the C extension is not built or not wanted."""
    from .._native import step_entry

    state, solver = sim.step_state, sim.solver
    state_dict, solver_dict = state.__dict__, kept.solver_dict
    expect = ((sim.__dict__, "step_state", state), (sim.__dict__, "data", kept.data),
              (sim.__dict__, "solver", solver), (state_dict, "context", kept), (state_dict, "warm_in_set", True),
              (solver_dict, "_options", kept.options_source))
    write = ((state_dict, "last", IN_SET), (state_dict, "contacts", None), (state_dict, "rows", None),
             (state_dict, "backoff", None), (solver_dict, "_stats", None),
             (solver_dict, "_raw_stats", kept.raw_stats))

    def on_unconverged():
        if not state.unconverged:
            unconverged(sim, kept.sets[kept.parity[0]]["out_stats"])

    return step_entry.bind(compiled.step, kept.kernel, kept.nq, kept.nv, kept.zeros, expect, write,
                           compiled.UNCONVERGED, on_unconverged, (kept.arrays,))


def compiled_step(sim, q, v, tau, fext, _step=None, _empty=np.empty, _ndarray=np.ndarray, _unit=(8,),
                  _f64=np.dtype(np.float64)):
    """One step of ``sim`` (a :class:`rbda.Simulator`) from ``q (nq,)``, ``v (nv,)``, ``tau (nv,)`` and ``fext``
    (None or ``(nv,)``) on its :class:`PackedScene`; returns ``(q_next, v_next)`` and keeps the step's arrays on
    ``sim`` (read by its properties), in one kernel call (``compiled.step``), which checks the sizes and that the
    values are finite. Vectors that are not C-contiguous float64 arrays are converted first (``vector``). A step
    that finds more contacts than the output buffers hold enlarges them (:func:`grow_contacts`) and runs again. A
    bad argument raises the ``ValueError`` of :func:`step_error`, naming it (``_step``: the step of a rollout, named
    too). (The defaults after ``_step`` are module constants made local names.)"""
    state = sim.step_state
    kept = state.context
    if (kept is None or kept.data is not sim.data or not state.warm_in_set
            or sim.solver._options is not kept.options_source):
        kept = ready(sim)
    if not (type(q) is _ndarray is type(v) is type(tau) and q.strides == _unit == v.strides == tau.strides
            and q.dtype is _f64 is v.dtype is tau.dtype):
        names = step_names(_step)
        q, v, tau = vector(q, kept.nq, names[0]), vector(v, kept.nv, names[1]), vector(tau, kept.nv, names[2])
    if fext is None:
        fext = kept.zeros
    elif not (type(fext) is _ndarray and fext.strides == _unit and fext.dtype is _f64):
        fext = vector(fext, kept.nv, step_names(_step)[3])
    q_next, v_next = _empty(kept.nq), _empty(kept.nv)
    status = _k.step(kept.kernel, q, v, tau, fext, q_next, v_next)
    if status and status != compiled.UNCONVERGED:
        if status == compiled.TOO_MANY_CONTACTS:
            grow_contacts(sim)
            return compiled_step(sim, q, v, tau, None if fext is kept.zeros else fext, _step)
        step_error(status, sim.model, (q, v, tau, fext), step_names(_step), kept.sets[1 - kept.parity[0]]["out_stats"])
    keep_set(state, kept)
    if status and not state.unconverged:
        unconverged(sim, kept.sets[kept.parity[0]]["out_stats"])
    return q_next, v_next


def step_names(step=None) -> tuple:
    """The names of a step's arguments in its errors: ``STEP_ARGUMENTS``, prefixed with ``step t:`` for step ``t`` of
    a rollout."""
    return STEP_ARGUMENTS if step is None else tuple(f"step {step}: {name}" for name in STEP_ARGUMENTS)


def unconverged(sim, stats) -> None:
    """Warn, once per simulator, that a step's contact solve stopped before its tolerances
    (:class:`~rbda.simulation.solvers.ConvergenceWarning`); ``stats``: the step's raw statistics."""
    sim.step_state.unconverged = True
    warnings.warn(f"rbda.Simulator: a step's contact solve stopped after {int(stats['iterations'])} iterations "
                  f"without meeting its tolerances (primal {stats['primal']:.1e}, dual {stats['dual']:.1e}, "
                  f"complementarity {stats['complementarity']:.1e}); "
                  "the step is kept. sim.stats holds each step's figures; the solver's max_iter and tolerances "
                  "(solver_options) set the bound. Shown once per simulator.", ConvergenceWarning, stacklevel=4)


def grow_contacts(sim):
    """Twice the room for contacts in ``sim``'s output buffers (at most every pair's most): the last step's results
    kept as arrays of their own (the warm start of the next), and the step context built again at the next step."""
    scene, state = sim._scene, sim.step_state
    if scene.capacity >= scene.most_contacts:
        raise RuntimeError("the step found more contacts than its pairs can have")  # (never: each pair's most)
    own_results(state)
    scene.capacity = min(scene.most_contacts, 2 * max(scene.capacity, 1))
    state.context = None


def own_results(state) -> None:
    """The last step's results, if they are in an output set of the step context, into arrays of their own (with
    the warm start and its backoff): the context's sets are about to be rebuilt, or the state copied."""
    if isinstance(state.last, InSet):
        arrays = step_arrays(state).copy()
        state.backoff = backoff(state)
        state.last = arrays
        state.warm = WarmStart(arrays.keys, arrays.rows, arrays.impulses)
    state.warm_in_set = False


def stage_warm(sim, sets):
    """Unless it is there, write the warm start of ``sim``'s next one-call step (``step_state.warm``: after grown
    buffers, a copy, a reset, or none) into the output set of ``sets`` (its step context's) that the step reads it
    from (the one the context's ``parity`` names), with its counts (the contacts, then the rows) and ADMM's last
    penalty (``solver.last_rho()``)."""
    state = sim.step_state
    if state.warm_in_set:
        return
    out = sets[state.context.parity[0]]
    keys, rows, impulses = state.warm
    k, r = keys.shape[0], rows.shape[0]
    out["out_keys"][:k] = keys
    out["out_impulses"][:3 * k + r] = impulses
    out["out_rows"][:r] = rows
    counts = out["out_counts"]
    counts["contacts"], counts["rows"] = k, r
    counts["failed"], counts["wait"] = backoff(state)
    out["out_stats"]["rho"] = sim.solver.last_rho()  # where the next step reads ADMM's previous penalty
    state.warm_in_set = True


def step_arrays(state) -> StepArrays:
    """The last compiled step's :class:`StepArrays` (``state``: a simulator's ``step_state``): arrays of their own
    (:func:`own_results`), or views of the output set of a one-call step (valid until the step after next, which writes
    that set again; the simulator's properties copy what they return)."""
    if not isinstance(state.last, InSet):
        return state.last
    out = state.context.sets[state.context.parity[0]]
    k, r = int(out["out_counts"]["contacts"]), int(out["out_counts"]["rows"])
    m = 3 * k + r
    return StepArrays(out["out_contacts"][:k], out["out_keys"][:k], out["out_frames"][:k], out["out_J"][:m],
                      out["out_v_free"], out["out_bias"][:r], out["out_lower"][:r], out["out_upper"][:r],
                      out["out_rows"][:r], out["out_impulses"][:m], out["out_velocities"][:m])


def step_error(status, model, arguments, names=STEP_ARGUMENTS, stats=None):
    """Raise the ``ValueError`` of a step's kernel status (``compiled.NOT_SPD``, ``compiled.NOT_FINITE_G``,
    ``compiled.NOT_FINITE_STEP`` with the solve's raw ``stats``, ``compiled.WRONG_SIZE``, or an input status) of the
    step's ``arguments`` ``(q, v, tau, fext)``, named by ``names``."""
    if status == compiled.NOT_SPD:
        raise ValueError("data.M: is not positive definite (a pivot of its factorisation is <= 0)")
    if status == compiled.NOT_FINITE_G:
        raise ValueError("D: contains non-finite values (NaN or inf)")
    if status == compiled.NOT_FINITE_STEP:
        raise ValueError(f"the step's q_next, v_next: not finite (the contact solve diverged after "
                         f"{int(stats['iterations'])} iterations, converged {bool(stats['converged'])}); the state "
                         "given is kept unchanged")
    if status == compiled.WRONG_SIZE:
        for x, n, name in zip(arguments, (model.nq, model.nv, model.nv, model.nv), names):
            if x is not None:
                vector(x, n, name)
    report(status, names, model, arguments[:2])


def keep_set(state, kept) -> None:
    """Keep in ``state`` (a simulator's ``step_state``) the results of its last one-call step, in the output set of
    its step context ``kept`` that the context's ``parity`` names: the set's arrays are the next step's warm start
    (already where the next step reads it), its counts the warm start's backoff, and the step's results, whose
    arrays are views of it, made when read (:func:`step_arrays`); the solver's statistics are read from the set
    (its ``_raw_stats``, written to its ``__dict__`` directly: every step, past ``__setattr__``)."""
    state.last, state.contacts, state.rows = IN_SET, None, None
    state.backoff, state.warm_in_set = None, True  # both in the set (its counts: backoff)
    solver = kept.solver_dict
    solver["_stats"], solver["_raw_stats"] = None, kept.raw_stats


def warm_start(state) -> WarmStart:
    """The next compiled step's :class:`WarmStart` (``state``: a simulator's ``step_state``): the last one-call
    step's keys and impulses in its output set, else ``state.warm`` (after grown buffers or in a copy; empty after a
    reset)."""
    if state.warm_in_set and isinstance(state.last, InSet):
        arrays = step_arrays(state)
        return WarmStart(arrays.keys, arrays.rows, arrays.impulses)
    return state.warm


def backoff(state) -> tuple:
    """``(failed, wait)`` of the next step (``state``: a simulator's ``step_state``): when it tries its warm start
    as it is (``compiled.guess_backoff``); after a one-call step, in its output set's counts."""
    if state.backoff is None:  # (keep_set)
        counts = state.context.sets[state.context.parity[0]]["out_counts"]
        return int(counts["failed"]), int(counts["wait"])
    return state.backoff


def contact_set(arrays: StepArrays) -> ContactSet:
    """The :class:`ContactSet` of a compiled step's arrays (:func:`step_arrays`)."""
    contacts, keys, frames = arrays.contacts, arrays.keys, arrays.frames
    return ContactSet(points=contacts[:, 1:4].copy(), normals=contacts[:, 4:7].copy(),
                      distances=contacts[:, 0].copy(), frames=frames.copy(), pairs=keys[:, 2:4].copy(),
                      mu=contacts[:, 7].copy(), keys=[(int(a), int(b)) for a, b in keys[:, :2]])


def constraint_rows(arrays: StepArrays) -> ConstraintRows:
    """The :class:`ConstraintRows` of a compiled step's arrays (:func:`step_arrays`)."""
    contacts, J, bias, lower, upper, rows = (arrays.contacts, arrays.J, arrays.bias, arrays.lower, arrays.upper,
                                             arrays.rows)
    names = {compiled.LIMIT: "limit", compiled.TENDON_LIMIT: "tendon_limit", compiled.BILATERAL: "constraint"}
    keys = [("friction", int(a)) if kind == compiled.FRICTION else (names[int(kind)], int(a), int(b))
            for kind, a, b in rows]
    return ConstraintRows(J[3 * contacts.shape[0]:].copy(), bias.copy(), lower.copy(), upper.copy(), keys)


# ---------------------------------------------------------------------------------- whole rollouts compiled
def rollout_compiled(sim) -> bool:
    """Whether ``sim``'s rollouts run as one compiled kernel (:mod:`rbda.simulation.compiled_rollout`): no mimic
    joint (a model with mimic joints steps by the Python stages)."""
    return sim._compiled


def compiled_steps(sim, Q, V, taus, fext, first, last):
    """Steps ``first`` to ``last - 1`` of a rollout of ``sim`` (:func:`rollout_compiled` true) in one kernel call:
    fills ``Q[t + 1], V[t + 1]`` (C-contiguous ``(T + 1, nq)``, ``(T + 1, nv)``, rows ``first`` checked) from
    ``taus (T, nv)`` and ``fext (T, nv)`` or ``(0, nv)`` (checked finite), warm-started as :meth:`Simulator.step`
    is; keeps the last step's arrays on ``sim`` as :func:`compiled_step` does. A bad step raises the step's
    ``ValueError`` prefixed with ``step t:``."""
    kept = ready(sim)
    t = first
    while t < last:
        start = t
        status, t = _kr.rollout_steps(kept.kernel, Q, V, taus, fext, start, last)
        if t > start:  # the last step completed: its arrays are the output set the context's parity names
            keep_set(sim.step_state, kept)
        try:
            if status == compiled.TOO_MANY_CONTACTS:  # step t again, with more room for contacts
                grow_contacts(sim)
                kept = ready(sim)
            elif status:
                force = fext[t] if fext.shape[0] else None
                step_error(status, sim.model, (Q[t], V[t], taus[t], force),
                           stats=kept.sets[1 - kept.parity[0]]["out_stats"])
        except ValueError as exc:
            raise ValueError(f"step {t}: {exc}") from None
