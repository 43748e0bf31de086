"""The simulator's step compiled: the five stages of :mod:`rbda.simulation.simulator` as numba functions over the
packed arrays of :class:`PackedScene` (built once per :class:`rbda.Simulator`). Every step is one call,
:func:`step`, which reads every fixed array from one structref (:mod:`rbda.simulation.step_context`) and writes
its results into that object's buffers. Its stages read the context's arrays once each and pass them to helpers
compiled without reference counting (numba's ``refcount=False``: no atomic increment and decrement per array argument
of a call):

- :func:`dynamics_and_contacts` runs stages 1 and 2: the joint Jacobians, ``M`` with ``dt`` times the damping on
  its diagonal (and the implicit terms of the springs, :mod:`rbda.simulation.passive`), its sparse factor
  ``U D U^T``, ``nle``, the passive forces and the free velocity (:func:`free_velocity`), the world
  placement of every geometry object, the broad phase (:func:`candidate_pairs`: the pairs with a half-space, and
  the pairs of bounded objects whose boxes overlap, by sort-and-sweep, :mod:`rbda.simulation.broad_phase`) and
  each candidate's margin, then the candidates' contacts (:func:`pair_contacts`): a half-space against a sphere,
  capsule, box, cylinder, cone, ellipsoid or convex hull, with the patch reduction of
  :func:`rbda.simulation.contacts.reduce_patch`, and every pair of two bounded shapes
  (:func:`rbda.simulation.pair_kernels.shape_pair`: closed forms, GJK/EPA, face and segment patches). A
  half-space pair is first rejected by the shape's bounding ball and its box (:func:`plane_near`); a hull is then
  scanned only in the leaves whose boxes reach within the margin (:func:`plane_shape`).
- :func:`bilateral_rows`: the rows of the bilateral constraints and their biases (``kernels/constrained.py``).
- :func:`contact_step` runs stages 3 to 5: contact frames, the contact Jacobian on the joints' supports
  (:func:`contact_jacobian`), the joint-limit and joint-friction rows (:func:`limit_and_friction_rows`),
  ``G = J M^-1 J^T`` through the sparse factor (``kernels/constrained.py: delassus``), the biases, the warm
  start matched by integer keys (:func:`warm_start`), PGS or ADMM (``kernels/contact_solvers.py``), first on the
  working set of the contacts that are loaded, penetrate or close (:func:`solve_working`, accepted only if the
  contacts left out are dual feasible: then it solves the whole problem), then
  ``v_next = v_free + M^-1 J^T lambda`` and ``q_next = q (+) dt v_next``.

The kernels release the GIL (``nogil``): threads run the steps of different simulators at once.

Keys: a contact's is ``(pair index, point index)``; a row's is ``(kind, a, b)`` with kinds :data:`LIMIT` (dof,
+1 at the lower limit or -1 at the upper), :data:`TENDON_LIMIT` (tendon, +1 or -1), :data:`FRICTION` (dof, 0) and
:data:`BILATERAL` (constraint, row).
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..kernels.active_set import (GUESS, active_set_solve, add_rows, dual_residuals, largest_diagonal,
                                  largest_magnitude, project_impulses, within)
from ..kernels.active_set import velocities as g_plus_G_times
from ..kernels.checks import all_finite
from ..kernels.configuration import integrate
from ..kernels.constrained import CONTACT_3D, EP, constraint_kinematics, delassus
from ..kernels.cones import COULOMB, LCP, PYRAMID, project, shift
from ..kernels.contact_solvers import ADMM, PGS, admm_solve, pgs_solve
from ..kernels.dynamics import crba_after_kinematics, free_bodies_after_kinematics, rnea
from ..kernels.sparse import cholesky_decompose, cholesky_solve
from ..kernels.time_stepping import advance, advance_free_bodies, transport
from .._native.views import borrowed, take
from .broad_phase import boxes_within, heap_sort, sweep, sweep_growth, world_boxes
from .contacts import box_lowest, hull_patch, plane_cylinder, plane_frame, plane_hull, plane_spheres
from .halfspace_contacts import plane_cone, plane_ellipsoid
from .pair_kernels import shape_pair
from .passive import add_implicit_terms, add_passive_forces
from .speculative import closing_speed, joint_twists

# geometry codes (PackedScene.gint[:, 0]) for the half-space contacts; OTHER: a shape without contacts
HALFSPACE, SPHERES, VERTICES, HULL, CYLINDER, ELLIPSOID, CONE, OTHER = range(8)
# pair codes (PackedScene.pairs[:, 2]): a half-space first or second, two bounded shapes (pair_kernels), disabled
PLANE_FIRST, PLANE_SECOND, SHAPES, DISABLED = range(4)
LIMIT, FRICTION, BILATERAL, TENDON_LIMIT = 0, 1, 2, 3
BACKOFF = 4  # a warm start that keeps failing is tried every 2^BACKOFF steps (guess_backoff)
NOT_SPD = 1000  # status: M + dt diag(damping) has a pivot <= 0
NOT_FINITE_G = 1001  # status: the Delassus matrix of a step is not finite
TOO_MANY_CONTACTS = 1003  # status: the step's contacts do not fit in the output buffers (the caller enlarges them)
NOT_FINITE_STEP = 1004  # status: the step's q_next or v_next is not finite (the contact solve diverged)
UNCONVERGED = 1005  # status of a step that is complete and kept, whose contact solve stopped short of its tolerances
WRONG_SIZE = 1006  # status: an argument of the step has the wrong size (the caller names it)
#: The simulator's settings (StepContext.settings: an array of one record), set by the Simulator's setters of the
#: same names; ``restitution`` NaN for none; ``free_bodies``: whether every joint is a free flyer on the universe
#: (set from the model).
SETTINGS = np.dtype([("dt", np.float64), ("margin", np.float64), ("speculative", np.bool_),
                     ("baumgarte", np.float64), ("slop", np.float64), ("restitution", np.float64),
                     ("warm_start", np.bool_), ("free_bodies", np.bool_)])
#: A step's counts (StepContext.out_counts: one record per output set): the contacts and rows it wrote, and the
#: warm start's trials failed in a row and steps to wait before the next (:func:`guess_backoff`).
COUNTS = np.dtype([("contacts", np.int64), ("rows", np.int64), ("failed", np.int64), ("wait", np.int64)])


# ---------------------------------------------------------------------------------------------- stage 1
@njit(cache=True)  # not without reference counting: RNEA and CRBA need it, and would inherit the flag
def free_velocity(I, F, ws, M, L, D, Dinv, lam, nle, q, v, tau, fext, damping, dt, zeros, no_fext, free_bodies,
                  v_free, ctx):
    """``v_free = v + dt M^-1 (tau - nle - damping v + passive + fext)`` with ``M`` (CRBA, plus ``dt damping`` on
    its diagonal and the springs' and tendons' terms: implicit damping and springs, ``passive.add_implicit_terms``)
    factored in ``L, D, Dinv``; ``passive`` the passive forces of the step context ``ctx``'s arrays
    (``passive.add_passive_forces``); ``fext (nv,)`` a generalized external force (zeros for none). One kinematics
    pass: RNEA's (``nle`` into ``d.tau``, which ``nle`` views; it leaves the placements and motion subspaces
    current), then CRBA from them (the world Jacobian columns, read by the contact stage, and the composite
    inertias), or, if ``free_bodies`` (every joint a free flyer on the universe), the world columns and the bodies'
    own inertias (``kernels/dynamics.free_bodies_after_kinematics``: ``M`` does not depend on ``q``). Returns a
    kernel status (0, or the input status of ``q``/``v``, or :data:`NOT_SPD`)."""
    status = rnea(I, F, ws, q, v, zeros, no_fext)
    if status:
        return status
    if free_bodies:
        free_bodies_after_kinematics(I, F, ws)
    else:
        crba_after_kinematics(I, F, ws)
    for i in range(M.shape[0]):
        M[i, i] += dt * damping[i]
    # without springs, tendons, gravity compensation and fluid forces, the calls that would add nothing are skipped
    springs = ctx.spring_v.shape[0] > 0 or ctx.tendon_v.shape[0] > 0
    if springs:
        add_implicit_terms(M, dt, ctx.spring_v, ctx.spring_k, ctx.tendon_v, ctx.tendon_k, ctx.tendon_d)
    if cholesky_decompose(M, lam, L, D, Dinv):
        return NOT_SPD
    for i in range(v.shape[0]):
        v_free[i] = tau[i] - nle[i] - damping[i] * v[i] + fext[i]
    if springs or ctx.gravcomp_joint.shape[0] > 0 or ctx.fluid_joint.shape[0] > 0:
        add_passive_forces(q, v, dt, ctx.spring_q, ctx.spring_v, ctx.spring_k, ctx.spring_ref, ctx.tendon_q,
                           ctx.tendon_v, ctx.tendon_k, ctx.tendon_d, ctx.tendon_length0, ctx.gravcomp_joint,
                           ctx.gravcomp, ctx.fluid_joint, ctx.fluid_R, ctx.fluid_p, ctx.fluid_viscous,
                           ctx.fluid_quadratic, ctx.wind, F[0:3], ctx.oMi, ctx.Jw, ctx.tree, ctx.passive_room,
                           ctx.passive_velocities, v_free)
    cholesky_solve(L, Dinv, lam, v_free)
    for i in range(v.shape[0]):
        v_free[i] = v[i] + dt * v_free[i]
    transport(I, F, v, dt, free_bodies, v_free)  # free flyers: in coordinates that create no energy
    return 0


# ---------------------------------------------------------------------------------------------- stage 2
@njit(cache=True, refcount=False)
def geometry_placements(oMi, gint, gR, gp, R, p):
    """World ``R (ng, 3, 3)``, ``p (ng, 3)`` of every geometry object: its parent joint's placement composed with
    the object's placement ``gR, gp`` in the joint frame."""
    for g in range(gint.shape[0]):
        M = oMi[gint[g, 1]]
        for r in range(3):
            for c in range(3):
                R[g, r, c] = M[r, 0] * gR[g, 0, c] + M[r, 1] * gR[g, 1, c] + M[r, 2] * gR[g, 2, c]
            p[g, r] = M[r, 0] * gp[g, 0] + M[r, 1] * gp[g, 1] + M[r, 2] * gp[g, 2] + M[r, 3]


@njit(cache=True, refcount=False)
def plane_near(plane, shape, gint, gparam, R, p, margin, n):
    """Whether the half-space ``plane`` and the object ``shape`` may have a contact within ``margin``, and the
    plane's offset (``n . x = offset``, world); its world normal into ``n (3,)``. Not if the shape's bounding
    ball (see ``contacts._near_plane``) or its box (``gparam[shape, 8:14]``, ``contacts.box_lowest``) lies farther
    (``contacts.plane_frame`` gives the shape's distance terms; a hull's leaves' boxes are tested by
    ``contacts.plane_hull``, which scans only the leaves within the margin). Its helpers run without reference
    counting: a pair it rejects costs a few nanoseconds."""
    for r in range(3):
        n[r] = R[plane, r, 0] * gparam[plane, 2] + R[plane, r, 1] * gparam[plane, 3] + R[plane, r, 2] * gparam[plane, 4]
    offset = gparam[plane, 5] + (n[0] * p[plane, 0] + n[1] * p[plane, 1] + n[2] * p[plane, 2])
    height = (n[0] * (p[shape, 0] - p[plane, 0]) + n[1] * (p[shape, 1] - p[plane, 1])
              + n[2] * (p[shape, 2] - p[plane, 2]))
    if height - gparam[plane, 5] - gparam[shape, 6] > margin:
        return False, offset
    code = gint[shape, 0]
    if code == CYLINDER or code == ELLIPSOID or code == CONE:  # no vertices: the ball's test only
        return True, offset
    a0, a1, a2, lowest, scale = plane_frame(n, offset, R[shape], p[shape], gparam[shape, 0])
    return box_lowest(a0, a1, a2, lowest, scale, gparam, shape, 8) <= margin, offset


@njit(cache=True, refcount=False)
def plane_shape(plane, shape, gint, gparam, sparam, vertices, boxes, R, p, margin, offset, n, work, keep):
    """The contacts of the half-space ``plane`` (normal ``n``, ``offset``: :func:`plane_near`'s) with the object
    ``shape``: rows ``[distance, x, y, z]`` (the point of the shape nearest the plane) in ``work``; returns how
    many. A hull's vertices are scanned only in the leaves whose box reaches within ``margin``
    (``contacts.plane_hull``), its patch reduced or ordered (``contacts.hull_patch``, ``keep (5,)`` its room); an
    ellipsoid's radii are ``sparam[shape, :3]``."""
    code, first, count = gint[shape, 0], gint[shape, 2], gint[shape, 3]
    if code == CYLINDER:
        return plane_cylinder(n, offset, R[shape], p[shape], gparam[shape, 0], gparam[shape, 1], margin, work)
    if code == CONE:
        return plane_cone(n, offset, R[shape], p[shape], gparam[shape, 0], 2.0 * gparam[shape, 1], margin, work)
    if code == ELLIPSOID:
        return plane_ellipsoid(n, offset, R[shape], p[shape], sparam[shape, 0], sparam[shape, 1], sparam[shape, 2],
                               margin, work)
    if code != HULL:
        return plane_spheres(n, offset, R[shape], p[shape], vertices[0, first:first + count],
                             vertices[1, first:first + count], vertices[2, first:first + count], gparam[shape, 0],
                             margin, work)
    Rs, ps = R[shape], p[shape]
    a0, a1, a2, height, scale = plane_frame(n, offset, Rs, ps, 0.0)
    m = plane_hull(a0, a1, a2, height, scale, n, Rs, ps, vertices, first, count, boxes, gint[shape, 4], margin, work)
    return hull_patch(n, work, m, keep)


@njit(cache=True, refcount=False)
def pair_contacts(pairs, candidates, gint, gparam, vertices, boxes, shapes, world_box, R, p, margins, work, room, rows,
                  out, keys, keep, n):
    """Stage 2 on the pairs ``candidates`` (ascending), each within its margin ``margins (npairs,)``: each contact
    as a row ``[distance, point (3), normal (3), mu]`` of ``out`` and its key ``(pair, point index)`` and geometry
    ids in ``keys (cap, 4)``; returns how many, or -1 if they would exceed ``out``'s rows (a pair's most contacts:
    ``pairs[:, 3]``). The point is halfway between the surfaces, the normal from the pair's first object to its
    second. The shapes are ``PackedScene``'s (``gint`` to ``boxes``, and ``shapes``: ``(sparam, hull, graph,
    faces, face_ranges, polygons)``, :mod:`rbda.simulation.pair_kernels`' tables), ``world_box (ng, 6)`` the
    bounded objects' world boxes; ``work (n, 5)``: room for the vertices of one shape (8 at least), ``room`` and
    ``rows (FACE, 10)`` a bounded pair's (``pair_kernels.pair_room``), ``keep (PATCH_POINTS,)`` and ``n (3,)``
    room too."""
    sparam, hull, graph, faces, face_ranges, polygons = shapes
    k = 0
    for c in range(candidates.shape[0]):
        index = candidates[c]
        a, b, kind = pairs[index, 0], pairs[index, 1], pairs[index, 2]
        if k + pairs[index, 3] > out.shape[0]:
            return -1
        mu = max(gparam[a, 7], gparam[b, 7])
        if kind == PLANE_FIRST or kind == PLANE_SECOND:
            plane, shape = (a, b) if kind == PLANE_FIRST else (b, a)
            near, offset = plane_near(plane, shape, gint, gparam, R, p, margins[index], n)
            m = plane_shape(plane, shape, gint, gparam, sparam, vertices, boxes, R, p, margins[index], offset, n,
                            work, keep) if near else 0
            sign = 1.0 if kind == PLANE_FIRST else -1.0
            for i in range(m):
                d = work[i, 0]
                out[k, 0] = d
                for r in range(3):
                    x = work[i, 1 + r]
                    out[k, 1 + r] = 0.5 * ((x - d * n[r]) + x)
                    out[k, 4 + r] = sign * n[r]
                out[k, 7] = mu
                keys[k, 0], keys[k, 1], keys[k, 2], keys[k, 3] = index, i, a, b
                k += 1
        elif kind == SHAPES and boxes_within(world_box, a, b, margins[index]):
            m = shape_pair(a, b, gint, sparam, hull, graph, faces, face_ranges, polygons, R, p, margins[index], room,
                           rows)
            for i in range(m):
                out[k, 0] = rows[i, 0]
                for r in range(3):
                    out[k, 1 + r] = 0.5 * (rows[i, 1 + r] + rows[i, 4 + r])
                    out[k, 4 + r] = rows[i, 7 + r]
                out[k, 7] = mu
                keys[k, 0], keys[k, 1], keys[k, 2], keys[k, 3] = index, i, a, b
                k += 1
    return k


@njit(cache=True, refcount=False)
def candidate_pairs(pairs, plane_pairs, bounded, order, local_box, world_box, partner_start, partners, parents, plane,
                    radius, normals, tree, Jw, v, v_free, R, p, margin, dt, speculative, velocities, twists,
                    candidates, margins):
    """The broad phase (:mod:`rbda.simulation.broad_phase`): the pairs that may have a contact this step into
    ``candidates`` (ascending; returns how many), each one's margin into ``margins (npairs,)`` (the others' are
    not written): ``margin``, or with ``speculative`` the larger of ``margin`` and ``dt`` times the bound on the
    pair's closing speed over ``v`` and ``v_free`` (:func:`rbda.simulation.speculative.closing_speed`). Every pair
    with a half-space (``plane_pairs``) is a candidate, and every pair of the bounded objects ``bounded`` whose
    world boxes (into ``world_box (ng, 6)``, from ``local_box``) overlap when grown by the bound of every margin
    (``broad_phase.sweep_growth``), swept in the ``order`` kept from the previous step (``partner_start``,
    ``partners``: each object's partners, ``broad_phase.partner_table``). Per object ``parents``, ``plane``,
    ``radius``, ``normals (ng, 3)`` and ``tree (njoints, 3)`` as :class:`PackedScene` holds them; ``Jw (nv, 6)``
    the world joint Jacobian columns. ``velocities (2, nv)``, ``twists (2, njoints, 6)``: room. Allocates
    nothing."""
    grow = margin
    if speculative:
        for i in range(v.shape[0]):
            velocities[0, i], velocities[1, i] = v[i], v_free[i]
        joint_twists(Jw, tree, velocities, twists)
        grow = sweep_growth(bounded, parents, radius, p, twists, margin, dt)
    world_boxes(bounded, local_box, R, p, world_box)
    count = 0
    for k in plane_pairs:
        candidates[count] = k
        count += 1
    count = sweep(order, world_box, grow, partner_start, partners, candidates, count)
    heap_sort(candidates, count)
    for c in range(count):
        k = candidates[c]
        margins[k] = margin
        if speculative:
            margins[k] = max(margin, dt * closing_speed(pairs[k, 0], pairs[k, 1], parents, plane, radius, normals, R,
                                                        p, twists))
    return count


@njit(cache=True, nogil=True)
def dynamics_and_contacts(ctx, parity, q, v, tau, fext):
    """Stages 1 and 2 (see the module) on the arrays and settings of the step context ``ctx``
    (:mod:`rbda.simulation.step_context`): fills its ``v_free``, contacts and keys of output set ``parity``, the
    world placements ``R, p`` of the geometry objects and each candidate pair's margin (:func:`candidate_pairs`);
    returns ``(status, k)``: a kernel status (0, :func:`free_velocity`'s, or :data:`TOO_MANY_CONTACTS`) and the
    number of contacts (:func:`pair_contacts`). The functions it calls run without reference
    counting: reading the context's fields here, once each, is the only count of this stage's arrays."""
    v_free, settings = ctx.out_v_free[parity], ctx.settings[0]
    dt, margin, speculative = settings.dt, settings.margin, settings.speculative
    status = free_velocity(ctx.I, ctx.F, ctx.ws, ctx.M, ctx.L, ctx.D, ctx.Dinv, ctx.lam, ctx.nle, q, v, tau, fext,
                           ctx.damping, dt, ctx.zeros, ctx.no_fext, settings.free_bodies, v_free, ctx)
    if status:
        return status, 0
    geometry_placements(ctx.oMi, ctx.gint, ctx.gR, ctx.gp, ctx.R, ctx.p)
    if ctx.plane_pairs.shape[0] == 0 and ctx.bounded.shape[0] == 0:  # no pair that may collide: no contacts
        return 0, 0
    count = candidate_pairs(ctx.pairs, ctx.plane_pairs, ctx.bounded, ctx.order, ctx.local_box, ctx.world_box,
                            ctx.partner_start, ctx.partners, ctx.gint[:, 1], ctx.plane, ctx.radius, ctx.normals,
                            ctx.tree, ctx.Jw, v, v_free, ctx.R, ctx.p, margin, dt, speculative, ctx.velocities,
                            ctx.twists, ctx.candidates, ctx.margins)
    if count == 0:
        return 0, 0
    shapes = (ctx.sparam, ctx.hull, ctx.graph, ctx.faces, ctx.face_ranges, ctx.polygons)
    room = (ctx.simplex, ctx.simplex_weights, ctx.hull_starts, ctx.witness, ctx.iterations, ctx.epa_polytope,
            ctx.epa_faces, ctx.epa_planes, ctx.epa_alive, ctx.epa_edges, ctx.pair_placements, ctx.features,
            ctx.clipped, ctx.patch, ctx.keep, ctx.end_sphere)
    k = pair_contacts(ctx.pairs, ctx.candidates[:count], ctx.gint, ctx.gparam, ctx.vertices, ctx.boxes, shapes,
                      ctx.world_box, ctx.R, ctx.p, ctx.margins, ctx.work, room, ctx.pair_rows,
                      ctx.out_contacts[parity], ctx.out_keys[parity], ctx.keep, ctx.normal)
    if k < 0:
        return TOO_MANY_CONTACTS, 0
    return 0, k


# ---------------------------------------------------------------------------------------------- stage 3
@njit(cache=True, refcount=False)
def contact_frames(normals, frames):
    """Each contact's rotation ``[t1, t2, n]`` (columns): ``t1`` the x axis (y for a normal within 26 degrees of
    x) made orthogonal to ``n``, ``t2 = n x t1`` (as ``contacts.contact_frames``). Written out in scalars: no
    array is allocated per contact."""
    for c in range(normals.shape[0]):
        n0, n1, n2 = normals[c, 0], normals[c, 1], normals[c, 2]
        if abs(n0) >= 0.9:  # t = a - (a . n) n with a = y, else x
            t0, t1, t2 = -n1 * n0, 1.0 - n1 * n1, -n1 * n2
        else:
            t0, t1, t2 = 1.0 - n0 * n0, -n0 * n1, -n0 * n2
        length = np.sqrt(t0 * t0 + t1 * t1 + t2 * t2)
        t0, t1, t2 = t0 / length, t1 / length, t2 / length
        F = frames[c]
        F[0, 0], F[1, 0], F[2, 0] = t0, t1, t2
        F[0, 1], F[1, 1], F[2, 1] = n1 * t2 - n2 * t1, n2 * t0 - n0 * t2, n0 * t1 - n1 * t0
        F[0, 2], F[1, 2], F[2, 2] = n0, n1, n2


@njit(cache=True, refcount=False)
def contact_jacobian(points, frames, keys, gparent, support, Jw, J):
    """Rows ``[t1, t2, n]^T (v_second - v_first)`` of each contact into ``J (3k, nv)``: a point's world velocity
    is ``J_lin - p x J_ang`` of the world Jacobian columns ``Jw (nv, 6)``, on the supports of the joints of the
    pair's objects (``keys[c, 2:4]`` their geometry ids, ``gparent`` each object's joint; ``support (njoints,
    nv)``: 1 on the dofs supporting a joint)."""
    for c in range(points.shape[0]):
        x0, x1, x2, Rc = points[c, 0], points[c, 1], points[c, 2], frames[c]
        first, second = support[gparent[keys[c, 2]]], support[gparent[keys[c, 3]]]
        rows = J[3 * c], J[3 * c + 1], J[3 * c + 2]
        for col in range(Jw.shape[0]):
            s = second[col] - first[col]
            if s == 0.0:
                rows[0][col], rows[1][col], rows[2][col] = 0.0, 0.0, 0.0
                continue
            w = Jw[col]
            u0 = (w[0] - (x1 * w[5] - x2 * w[4])) * s
            u1 = (w[1] - (x2 * w[3] - x0 * w[5])) * s
            u2 = (w[2] - (x0 * w[4] - x1 * w[3])) * s
            for i in range(3):
                rows[i][col] = Rc[0, i] * u0 + Rc[1, i] * u1 + Rc[2, i] * u2


@njit(cache=True, refcount=False)
def limit_and_friction_rows(q, v_free, limit_q, limit_v, lower_limit, upper_limit, tendon_limited, tendon_q,
                            tendon_v, tendon_lower, tendon_upper, friction_v, friction, dt, margin, baumgarte, J,
                            bias, lower, upper, keys):
    """The rows of the joint limits and of the limited fixed tendons (``tendon_limited``: their rows of
    ``tendon_q (nt, nq)``, ``tendon_v (nt, nv)``, ``tendon_lower``, ``tendon_upper``) within ``margin`` (plus this
    step's travel) and of dry joint friction (``constraints.constraint_rows``), written from row 0 of ``J``,
    ``bias``, ``lower``, ``upper``, ``keys``; returns how many."""
    r = 0
    for k in range(limit_q.shape[0]):
        a, i = limit_q[k], limit_v[k]
        for sign in (1.0, -1.0):
            d = sign * (q[a] - (lower_limit[a] if sign > 0.0 else upper_limit[a]))
            if d < margin + dt * max(0.0, -sign * v_free[i]):
                for c in range(J.shape[1]):
                    J[r, c] = 0.0
                J[r, i] = sign
                bias[r] = (d if d > 0.0 else baumgarte * d) / dt
                lower[r], upper[r] = 0.0, np.inf
                keys[r, 0], keys[r, 1], keys[r, 2] = LIMIT, i, int(sign)
                r += 1
    for t in tendon_limited:  # the same on the tendon's length L = A_q q, J = +-A_v
        length, rate = 0.0, 0.0
        for c in range(q.shape[0]):
            length += tendon_q[t, c] * q[c]
        for c in range(J.shape[1]):
            rate += tendon_v[t, c] * v_free[c]
        for sign in (1.0, -1.0):
            d = sign * (length - (tendon_lower[t] if sign > 0.0 else tendon_upper[t]))
            if d < margin + dt * max(0.0, -sign * rate):
                for c in range(J.shape[1]):
                    J[r, c] = sign * tendon_v[t, c]
                bias[r] = (d if d > 0.0 else baumgarte * d) / dt
                lower[r], upper[r] = 0.0, np.inf
                keys[r, 0], keys[r, 1], keys[r, 2] = TENDON_LIMIT, t, int(sign)
                r += 1
    for i in friction_v:
        for c in range(J.shape[1]):
            J[r, c] = 0.0
        J[r, i] = 1.0
        bound = friction[i] * dt
        bias[r], lower[r], upper[r] = 0.0, -bound, bound
        keys[r, 0], keys[r, 1], keys[r, 2] = FRICTION, i, 0
        r += 1
    return r


# ---------------------------------------------------------------------------------------------- stage 4
@njit(cache=True, refcount=False)
def normal_bias(d, vn, dt, baumgarte, slop, restitution):
    """A normal row's bias (``simulator.normal_bias``): Baumgarte's ``d / dt`` (gap) or ``b min(d + slop, 0) / dt``
    (penetration beyond the slop); with restitution (not NaN) Newton's ``e min(vn, 0)`` on a contact the step
    reaches."""
    correction = baumgarte * min(d + slop, 0.0) / dt
    if not np.isnan(restitution):
        approach = min(vn, 0.0)
        if d + dt * approach <= 0.0:
            return restitution * approach + correction
    return d / dt if d > 0.0 else correction


@njit(cache=True, refcount=False)
def warm_start(keys, rows, previous_keys, previous_rows, previous, k, guess):
    """``guess (3k + r,)``: each contact's (``keys (k, 4)``) and row's (``rows (r, 3)``) impulse of the previous
    step with the same key (``previous_keys``, ``previous_rows``, ``previous`` its impulses), zero otherwise."""
    for a in range(guess.shape[0]):  # (element by element: this function runs without reference counting)
        guess[a] = 0.0
    kp = previous_keys.shape[0]
    for c in range(k):
        for o in range(kp):
            if previous_keys[o, 0] == keys[c, 0] and previous_keys[o, 1] == keys[c, 1]:
                for a in range(3):
                    guess[3 * c + a] = previous[3 * o + a]
                break
    for j in range(rows.shape[0]):
        for o in range(previous_rows.shape[0]):
            if (previous_rows[o, 0] == rows[j, 0] and previous_rows[o, 1] == rows[j, 1]
                    and previous_rows[o, 2] == rows[j, 2]):
                guess[3 * k + j] = previous[3 * kp + o]
                break


@njit(cache=True, refcount=False)
def given_rho(o, previous):
    """ADMM's starting penalty from its options record ``o``: the previous step's final penalty ``previous`` (with
    ``warm_start_rho``; NaN: none), else the solver's own ``rho``, else NaN (the spectral rule's, found if ADMM
    iterates)."""
    return previous if o.warm_start_rho and not np.isnan(previous) else o.rho


@njit(cache=True)
def solve_contacts(options, rho, rounds, G, g, mu, lower, upper, lam, warm, J, M, parents, stats, integers, floats):
    """PGS or ADMM (``options``: a ``SOLVER_OPTIONS`` record array, ``kernels/contact_solvers.py``; at most
    ``rounds`` active sets of the fast path) on ``G lambda + g`` (``lam`` the warm start in, the impulses out);
    writes the statistics into the ``STEP_STATS`` record ``stats``, its scratch arrays cut from the rooms
    ``integers`` and ``floats`` (``views.take``). ADMM starts from ``rho`` (:func:`given_rho`; NaN: the spectral
    rule's, found from ``G``'s largest eigenvalue as in
    ``ADMMSolver.solve``, a power iteration that ``admm_solve`` runs only if it iterates: a step solved by the fast
    path reports rho NaN, unless the solver has one. ``J (m, nv)``, ``M (nv, nv)``, ``parents (nv,)``: ``G = J M^-1
    J^T``, for ADMM's factorisation in the joint space when ``G`` has many more rows than dofs
    (``kernels/contact_solvers.admm_solve``); ``J`` without columns for none."""
    stats.iterations, stats.converged, stats.factorizations = 0, False, 0
    stats.primal, stats.dual, stats.complementarity, stats.rho = 0.0, 0.0, 0.0, np.nan
    if g.shape[0] == 0:
        stats.converged = True
        return
    o = options[0]
    if o.solver == PGS:
        it, converged, dual, compl = pgs_solve(options, rounds, G, g, mu, lower, upper, lam, integers, floats)
        stats.iterations, stats.converged, stats.dual, stats.complementarity = it, converged, dual, compl
        return
    it, converged, primal, dual, compl, rho, factorizations = admm_solve(options, rho, rounds, G, g, mu, lower,
                                                                         upper, lam, warm, J, M, parents, integers,
                                                                         floats)
    stats.iterations, stats.converged, stats.primal, stats.dual = it, converged, primal, dual
    stats.complementarity, stats.rho, stats.factorizations = compl, rho, factorizations


@njit(cache=True)
def solve_loaded(formulation, rounds, tolerances, L, Dinv, lam, J, g, mu, index, lower, upper, guess, impulses,
                 velocities, dv, integers, floats):
    """The fast path (``kernels/active_set.py``) on the rows ``index (n,)`` that the warm start loads
    (:func:`contact_rows` without ``closing``; the caller calls it only if they are fewer than all, else there is nothing to save), the
    other contacts left at zero impulse: with ``G_s = J_s M^-1 J_s^T`` of those rows only (a resting robot loads a
    few of the points its feet's patches keep), then checked on the whole problem, its velocities ``v = g + J M^-1
    J_s^T lambda_s`` found through the sparse factor. Accepted only if the whole problem passes
    the solver's ``tolerances`` (a separated contact that the step would push into the ground fails its dual
    feasibility): then ``impulses``, ``velocities (m,)``, ``dv = M^-1 J^T lambda (nv,)`` are filled. Returns
    ``(rounds, accepted, primal, dual, complementarity)``: the active sets tried and whether the result was
    accepted. ``integers``, ``floats``: room for its arrays (``views.take``). The active sets start from the warm
    start's own active set: the warm start as it is was tried on the whole problem before, or is waited for
    (:func:`contact_step`)."""
    nv, n, r = J.shape[1], index.shape[0], lower.shape[0]
    Js, floats = take(floats, (n, nv))
    gs, floats = take(floats, (n,))
    lam_s, floats = take(floats, (n,))
    mu_s, floats = take(floats, ((n - r) // 3,))
    for i in range(n):
        Js[i], gs[i], lam_s[i] = J[index[i]], g[index[i]], guess[index[i]]
    for c in range(mu_s.shape[0]):
        mu_s[c] = mu[index[3 * c] // 3]
    used, primal = 1, 0.0
    if n > 0:
        Gs, floats = take(floats, (n, n))
        Y, floats = take(floats, (nv, n))
        delassus(L, Dinv, lam, Js, Y, Gs)
        if not np.isfinite(largest_diagonal(Gs)):  # (the diagonal is enough: see contact_step)
            return 0, False, 0.0, 0.0, 0.0
        used, accepted, primal, _, _ = active_set_solve(formulation, Gs, gs, mu_s, lower, upper, lam_s, rounds,
                                                        tolerances, integers, floats, False)
        if not accepted:
            return used, False, 0.0, 0.0, 0.0
    impulses[:] = 0.0
    for i in range(n):
        impulses[index[i]] = lam_s[i]
    passed, dual, compl = solves_whole(formulation, tolerances, 1.0, L, Dinv, lam, J, g, mu, lower, upper, impulses,
                                       primal, velocities, dv)
    if not passed:
        return used, False, 0.0, 0.0, 0.0
    return used, True, primal, dual, compl


@njit(cache=True, forceinline=True)
def solves_whole(formulation, tolerances, scale, L, Dinv, lam, J, g, mu, lower, upper, impulses, primal, velocities,
                 dv):
    """Whether ``impulses (m,)`` (in their cones and boxes, ``primal`` their distance before the projection) solve
    the whole problem within the solver's ``tolerances`` times ``scale`` (``kernels/active_set.within``), with its
    velocities ``v = g + J M^-1 J^T lambda`` found through the sparse factor (``L, Dinv, lam``) without the
    Delassus matrix: fills ``velocities (m,)`` and ``dv = M^-1 J^T lambda (nv,)``. Returns ``(passed, dual,
    complementarity)``."""
    dv[:] = 0.0
    add_rows(J, impulses, dv)  # J^T lambda, the rows of nonzero impulses only
    cholesky_solve(L, Dinv, lam, dv)  # M^-1 J^T lambda
    np.dot(J, dv, velocities)  # g + J dv (BLAS: the whole problem's rows, tens)
    for i in range(g.shape[0]):
        velocities[i] += g[i]
    dual, compl = dual_residuals(formulation, mu, lower, upper, impulses, velocities)
    return (within(tolerances, primal, dual, compl, largest_magnitude(impulses), largest_magnitude(velocities), scale),
            dual, compl)


@njit(cache=True, refcount=False)
def contact_rows(contacts, guess, g, closing, r, index):
    """The rows of the contacts that ``guess`` loads (a positive normal impulse), that penetrate, or (if
    ``closing``) that the free motion closes (``g_n < 0``: the step's velocity without impulses would cross the
    contact's bound), then the ``r`` box rows, into ``index``; returns how many. Without ``closing``: the rows of
    the fast path on the loaded contacts; with it: the working set of :func:`solve_working`."""
    n, k = 0, contacts.shape[0]
    for c in range(k):
        if guess[3 * c + 2] > 0.0 or contacts[c, 0] <= 0.0 or (closing and g[3 * c + 2] < 0.0):
            for a in range(3):
                index[n] = 3 * c + a
                n += 1
    for j in range(r):
        index[n] = 3 * k + j
        n += 1
    return n


@njit(cache=True, refcount=False)
def excluded_dual(formulation, mu, index, n, velocities):
    """The largest dual infeasibility (``cones.complementarity_residuals``') of the contacts outside the working set
    ``index[:n]`` (contact rows first, ascending), whose impulses are zero, at the velocities ``velocities``: their
    only condition (with a zero impulse, complementarity holds and the cone's own is met)."""
    dual_cone = (PYRAMID if formulation == LCP else COULOMB) + 1
    dual, w = 0.0, 0
    for c in range(mu.shape[0]):
        if w < n and index[w] == 3 * c:
            w += 3
            continue
        c1, c2 = velocities[3 * c], velocities[3 * c + 1]
        cn = velocities[3 * c + 2] + shift(formulation, c1, c2, mu[c])
        p1, p2, pn = project(dual_cone, c1, c2, cn, mu[c])
        dual = max(dual, abs(c1 - p1), abs(c2 - p2), abs(cn - pn))
    return dual


@njit(cache=True)
def solve_working(options, rho, G, J, g, mu, index, lower, upper, impulses, full, M, parents, stats, integers, floats):
    """PGS or ADMM (:func:`solve_contacts`, without the fast path, which failed) on the rows ``index (n,)`` of the
    working set (:func:`contact_rows` with ``closing``) only, ``G_s`` those rows and columns of ``G``, the other contacts left at zero
    impulse (a robot lying on the ground: tens of points within the margin, a few of them loaded; the rows of the
    others make the problem larger and more rank-deficient, and the solve slower), warm-started from ``impulses``.
    Accepted if the solve converged and the contacts left out are dual feasible at the velocities ``G lambda + g``
    within the solver's feasibility tolerance (:func:`excluded_dual`): then the impulses solve the whole problem as
    a solve of it would (their rows' conditions are the solve's own, the others' hold with zero impulse), and
    ``impulses`` and ``stats`` are filled. ``J (m, nv)``, ``M``, ``parents``: as :func:`solve_contacts` takes them.
    Returns whether it was accepted (``impulses`` is unchanged if not); ``full (m,)``: its iterate, on all rows."""
    nv, n = J.shape[1], index.shape[0]
    Gs, floats = take(floats, (n, n))
    Js, floats = take(floats, (n, nv))
    gs, floats = take(floats, (n,))
    lam_s, floats = take(floats, (n,))
    mu_s, floats = take(floats, ((n - lower.shape[0]) // 3,))
    velocities, floats = take(floats, (g.shape[0],))
    for i in range(n):
        Js[i], gs[i], lam_s[i] = J[index[i]], g[index[i]], impulses[index[i]]
        for j in range(n):
            Gs[i, j] = G[index[i], index[j]]
    for c in range(mu_s.shape[0]):
        mu_s[c] = mu[index[3 * c] // 3]
    solve_contacts(options, rho, 0, Gs, gs, mu_s, lower, upper, lam_s, True, Js, M, parents, stats, integers, floats)
    full[:] = 0.0
    for i in range(n):
        full[index[i]] = lam_s[i]
    if not stats.converged:
        return False
    g_plus_G_times(G, g, full, velocities)
    o = options[0]
    tolerances = o.tolerances
    if excluded_dual(o.formulation, mu, index, n, velocities) > tolerances[0] + tolerances[1] * largest_magnitude(
            velocities):
        return False
    impulses[:] = full
    return True


# ---------------------------------------------------------------------------------------------- stages 3-5
def room_sizes(m, nv):
    """The floats and integers of room that the scratch arrays of :func:`contact_step` (and of the solves it calls:
    :func:`solve_loaded`, or the Delassus matrix and :func:`solve_contacts`; the fast path's workspace) take for a
    problem of ``m`` rows (at most) and ``nv`` dofs. A larger problem gets new arrays for what does not fit."""
    return 3 * m * m + 2 * nv * m + 24 * m + nv + 16, 5 * m


@njit(cache=True, nogil=True)
def contact_step(ctx, q, v, v_free, contacts, keys, bilateral_J, bilateral_bias, bilateral_keys, previous_keys,
                 previous_rows, previous, previous_rho, try_guess, options, q_next, v_next, J, frames, bias,
                 lower, upper, rows, impulses, velocities, stats):
    """Stages 3 to 5 (see the module) for the contacts ``contacts (k, 8)``, ``keys (k, 4)`` of stage 2 and the
    bilateral rows given, on the model, workspace, joint-limit tables and settings of the step context ``ctx``;
    fills ``q_next``, ``v_next``. With the setting ``warm_start``, the solve starts from the previous step's
    impulses of the same keys (:func:`warm_start`), else from zero; ADMM from the previous step's final penalty
    ``previous_rho`` (:func:`given_rho`). With ``try_guess`` (:func:`guess_backoff`), the
    warm start is tried first as it is (``kernels/active_set.GUESS``: a body at rest, whose problem repeats each
    step), on the whole problem through the sparse factor (:func:`solves_whole`), before the Delassus matrix is
    formed (the fast path on the loaded rows then starts from its active set; the whole problem's solve tries it
    again on ``G``, which is how a step that waits still finds a body come to rest). If the fast path fails, PGS or
    ADMM runs on the working set (:func:`solve_working`), and on the whole problem only if that is not accepted.
    Writes from their first entry ``J (m, nv)``, ``frames (k, 3, 3)``, the
    rows' bias, lower and upper bounds ``(r,)`` and keys ``(r, 3)``, ``impulses``, ``velocities G lambda + g (m,)``
    and the ``STEP_STATS`` record ``stats`` (arrays at least that large: a context's output set), with
    ``m = 3k + r``; returns ``(m, r)``. The statistics' iterations are -1 if ``G`` is not finite."""
    k, nv, rb = contacts.shape[0], v.shape[0], bilateral_bias.shape[0]
    L, Dinv, lam, settings = ctx.L, ctx.Dinv, ctx.lam, ctx.settings[0]
    dt, margin, baumgarte, slop = settings.dt, settings.margin, settings.baumgarte, settings.slop
    restitution, warm = settings.restitution, settings.warm_start
    contact_frames(contacts[:, 4:7], frames)
    contact_jacobian(contacts[:, 1:4], frames, keys, ctx.gparent, ctx.support, ctx.Jw, J)
    r = 0  # (no limited dof or tendon, no dry friction: no rows, the call skipped)
    if ctx.limit_q.shape[0] > 0 or ctx.tendon_limited.shape[0] > 0 or ctx.friction_v.shape[0] > 0:
        r = limit_and_friction_rows(q, v_free, ctx.limit_q, ctx.limit_v, ctx.lower_limit, ctx.upper_limit,
                                    ctx.tendon_limited, ctx.tendon_q, ctx.tendon_v, ctx.tendon_lower,
                                    ctx.tendon_upper, ctx.friction_v, ctx.friction, dt, margin, baumgarte, J[3 * k:],
                                    bias, lower, upper, rows)
    J[3 * k + r:3 * k + r + rb] = bilateral_J
    bias[r:r + rb], rows[r:r + rb] = bilateral_bias, bilateral_keys
    lower[r:r + rb], upper[r:r + rb] = -np.inf, np.inf
    r += rb
    m = 3 * k + r
    J, bias, lower, upper, rows, impulses, velocities = (J[:m], bias[:r], lower[:r], upper[:r], rows[:r],
                                                         impulses[:m], velocities[:m])
    floats, integers = ctx.room, ctx.iroom  # the scratch arrays' room (views.take)
    g, floats = take(floats, (m,))
    np.dot(J, v_free, g)  # (as the Python stages compute it: PGS's split of a redundant patch follows its rounding)
    for c in range(k):
        vn = 0.0  # the normal velocity before the step: read by Newton's impact law only
        if not np.isnan(restitution):
            for i in range(nv):
                vn += J[3 * c + 2, i] * v[i]
        g[3 * c + 2] += normal_bias(contacts[c, 0], vn, dt, baumgarte, slop, restitution)
    for j in range(r):
        g[3 * k + j] += bias[j]
    tau, floats = take(floats, (nv,))
    mu, floats = take(floats, (k,))
    guess, floats = take(floats, (m,))
    for c in range(k):
        mu[c] = contacts[c, 7]
    if warm:  # without, PGS and ADMM start from zero, as reference_step's solve
        warm_start(keys, rows, previous_keys, previous_rows, previous, k, impulses)  # (zero where no key matches)
    else:
        impulses[:] = 0.0
    o = options[0]
    formulation, tolerances, rounds = o.formulation, o.tolerances, min(o.active_set_max_iter, o.max_iter)
    rho = given_rho(o, previous_rho)
    if m == 0 and warm and try_guess and rounds > 0:  # no rows: the warm start's trial (below) accepts at once
        stats.iterations, stats.converged, stats.factorizations = 0, True, 0
        stats.primal, stats.dual, stats.complementarity = 0.0, 0.0, 0.0
        stats.rho = rho if o.solver == ADMM else np.nan
        tau[:] = 0.0
        integrate_step(ctx, q, v_free, tau, dt, settings.free_bodies, q_next, v_next)
        return m, r
    used, accepted = 0, False
    if warm and try_guess and rounds > 0:  # the previous impulses, kept if they solve this problem to GUESS times the
        guess[:] = impulses  # tolerances, as the fast path's first trial would
        primal = project_impulses(formulation, mu, lower, upper, guess)
        accepted, dual, compl = solves_whole(formulation, tolerances, GUESS, L, Dinv, lam, J, g, mu, lower, upper,
                                             guess, primal, velocities, tau)
        if accepted:
            impulses[:] = guess
    index, rest = take(integers, (m,))
    n = contact_rows(contacts, impulses, g, False, r, index) if rounds > 0 and not accepted else m
    if not accepted and n < m:  # the fast path on the loaded rows (all loaded: the whole problem's, below)
        guess[:] = impulses
        used, accepted, primal, dual, compl = solve_loaded(formulation, rounds, tolerances, L, Dinv, lam, J, g, mu,
                                                           index[:n], lower, upper, guess, impulses, velocities, tau,
                                                           rest, floats)
    if accepted:
        stats.iterations, stats.converged, stats.factorizations = used, True, 0
        stats.primal, stats.dual, stats.complementarity = primal, dual, compl
        stats.rho = rho if o.solver == ADMM else np.nan
    else:
        G, floats = take(floats, (m, m))
        Y, floats = take(floats, (nv, m))
        delassus(L, Dinv, lam, J, Y, G)  # G = J M^-1 J^T through the sparse factor
        # G = Y^T D^-1 Y with D > 0: an entry that is not finite comes from a term d y_kr y_ks whose y_kr, y_ks or d
        # is not, which puts one that is not on the diagonal too
        if not np.isfinite(largest_diagonal(G)):
            stats.iterations = -1
            return m, r
        # the fast path on the whole problem (the active sets tried on the loaded rows count against the step's
        # budget of them), then PGS or ADMM on the working set (solve_working), then on the whole problem
        spent = 0  # the iterations of this solve: the fast path's active sets on the whole problem (those on the
        if rounds - used > 0:  # loaded rows not counted), then the working set's, which count against max_iter
            spent, accepted, primal, dual, compl = active_set_solve(formulation, G, g, mu, lower, upper, impulses,
                                                                    rounds - used, tolerances, rest, floats)
        if accepted:
            stats.iterations, stats.converged, stats.factorizations = spent, True, 0
            stats.primal, stats.dual, stats.complementarity = primal, dual, compl
            stats.rho = rho if o.solver == ADMM else np.nan
        else:
            stats.iterations, stats.converged, stats.factorizations = spent, False, 0
            n = contact_rows(contacts, impulses, g, True, r, index)
            budget = options.copy()  # max_iter less the iterations spent
            if n < m and spent < o.max_iter:
                budget[0].max_iter = o.max_iter - spent
                accepted = solve_working(budget, rho, G, J, g, mu, index[:n], lower, upper, impulses, guess, ctx.M,
                                         lam, stats, rest, floats)
                spent += stats.iterations
                if not accepted and spent >= o.max_iter:  # none left: its iterate is the step's
                    impulses[:] = guess
            if not accepted and spent < o.max_iter:
                budget[0].max_iter = o.max_iter - spent
                solve_contacts(budget, rho, 0, G, g, mu, lower, upper, impulses, warm and m > 0, J, ctx.M, lam,
                               stats, integers, floats)
                spent += stats.iterations
            stats.iterations = spent
        g_plus_G_times(G, g, impulses, velocities)  # G lambda + g
        tau[:] = 0.0
        add_rows(J, impulses, tau)  # J^T lambda
        cholesky_solve(L, Dinv, lam, tau)  # M^-1 J^T lambda
    integrate_step(ctx, q, v_free, tau, dt, settings.free_bodies, q_next, v_next)
    return m, r


@njit(cache=True)
def integrate_step(ctx, q, v_free, dv, dt, free_bodies, q_next, v_next):
    """Stage 5: ``v_next = v_free + dv`` (``dv = M^-1 J^T lambda``) and ``q_next = q (+) dt v_next``, each free
    flyer moved straight and ``v_next`` expressed in its new frame (``kernels/time_stepping.advance``; in a model of
    free bodies only, both in one pass: ``advance_free_bodies``, the same to the bit). ``dv`` becomes ``dt
    v_next``."""
    for i in range(v_free.shape[0]):
        v_next[i] = v_free[i] + dv[i]
        dv[i] = dt * v_next[i]
    if free_bodies:
        advance_free_bodies(ctx.I, ctx.F, q, dt, dv, q_next, v_next)
    else:
        integrate(ctx.I, ctx.F, q, dv, q_next)
        advance(ctx.I, ctx.F, q, dt, q_next, v_next)  # free flyers: a straight move, v_next in their new frame


# ---------------------------------------------------------------------------------------------- one step, one call
@njit(cache=True, nogil=True)
def step(ctx, q, v, tau, fext, q_next, v_next):
    """One whole step of the step context ``ctx`` (:mod:`rbda.simulation.step_context`) from ``q (nq,)``, ``v``,
    ``tau``, ``fext (nv,)`` into ``q_next (nq,)``, ``v_next (nv,)``, with the solver's options ``ctx.options``: the
    step of :func:`step_in_set` into the output set other than the one ``ctx.parity[0]`` names (the last step's,
    which holds its warm start), which it then names if the step is kept. Returns a kernel status: 0, or
    :data:`UNCONVERGED` (the step is kept, its solve stopped short of its tolerances), :data:`WRONG_SIZE` (a
    vector's size is not the model's), or an error status of :func:`step_in_set` (the step is not kept)."""
    nq, nv = ctx.lower_limit.shape[0], ctx.zeros.shape[0]
    if (q.shape[0] != nq or q_next.shape[0] != nq or v.shape[0] != nv or tau.shape[0] != nv or fext.shape[0] != nv
            or v_next.shape[0] != nv):
        return WRONG_SIZE
    parity = 1 - ctx.parity[0]
    status, _, _, converged = step_in_set(ctx, parity, q, v, tau, fext, ctx.options, q_next, v_next)
    if status:
        return status
    ctx.parity[0] = parity
    return 0 if converged else UNCONVERGED


@njit(cache=True, nogil=True)
def step_in_set(ctx, parity, q, v, tau, fext, options, q_next, v_next):
    """One whole step (stages 1 to 5; the bilateral constraints' rows between them), its arrays and settings read
    from the step context ``ctx`` (:mod:`rbda.simulation.step_context`); fills ``q_next``, ``v_next`` and the
    context's output set ``parity`` (contacts, keys, frames, ``J``, row bias, bounds and keys, impulses,
    velocities, statistics, ``v_free``, the counts of contacts and rows), warm-started from the other set (the
    previous step's: its impulses, and ADMM's final penalty with ``warm_start_rho``). Returns ``(status, k, r,
    converged)``: a kernel status (0; an input status: ``1 + 2 i`` if argument ``i`` of ``q, v, tau, fext`` is not finite, 2 if ``q`` is off the
    configuration manifold; :data:`NOT_SPD`; :data:`NOT_FINITE_G`; :data:`TOO_MANY_CONTACTS`;
    :data:`NOT_FINITE_STEP`), the numbers of contacts and rows written, and whether the solve converged."""
    q, v, tau, fext, options = borrowed(q), borrowed(v), borrowed(tau), borrowed(fext), borrowed(options)
    q_next, v_next = borrowed(q_next), borrowed(v_next)  # (the caller's, alive for the call: no reference counting)
    if not all_finite(q):
        return 1, 0, 0, False
    if not all_finite(v):
        return 3, 0, 0, False
    if not all_finite(tau):
        return 5, 0, 0, False
    if not all_finite(fext):
        return 7, 0, 0, False
    status, k = dynamics_and_contacts(ctx, parity, q, v, tau, fext)
    if status:
        return status, 0, 0, False
    bilateral_rows(ctx)
    o = 1 - parity
    before = ctx.out_counts[o]  # the previous step's counts (COUNTS)
    kp, rp, failed, wait = before.contacts, before.rows, before.failed, before.wait
    v_free, contacts, keys = ctx.out_v_free[parity], ctx.out_contacts[parity, :k], ctx.out_keys[parity, :k]
    m, r = contact_step(ctx, q, v, v_free, contacts, keys, ctx.cJ, ctx.cbias, ctx.ckeys,
                        ctx.out_keys[o, :kp], ctx.out_rows[o, :rp], ctx.out_impulses[o, :3 * kp + rp],
                        ctx.out_stats[o].rho, wait == 0,
                        options, q_next, v_next, ctx.out_J[parity], ctx.out_frames[parity],
                        ctx.out_bias[parity], ctx.out_lower[parity], ctx.out_upper[parity], ctx.out_rows[parity],
                        ctx.out_impulses[parity], ctx.out_velocities[parity], ctx.out_stats[parity])
    stats = ctx.out_stats[parity]
    if stats.iterations < 0:
        return NOT_FINITE_G, 0, 0, False
    if not (all_finite(v_next) and all_finite(q_next)):
        return NOT_FINITE_STEP, 0, 0, False
    counts = ctx.out_counts[parity]
    counts.failed, counts.wait = guess_backoff(failed, wait, stats.iterations == 0 and stats.converged)
    counts.contacts, counts.rows = k, r
    return 0, k, r, stats.converged


@njit(cache=True)
def bilateral_rows(ctx):
    """The rows of the bilateral constraints of the step context ``ctx`` (``kernels/constrained.py``'s
    ``constraint_kinematics``, from the kinematics of stage 1: placements, world Jacobian columns) into ``ctx.cJ``,
    and their biases, ``baumgarte`` times each row's placement error over ``dt``, into ``ctx.cbias`` (as
    ``simulator.constraint_rows`` computes them)."""
    CI = ctx.CI
    if CI.shape[0] == 0:
        return
    constraint_kinematics(ctx.I, ctx.F, ctx.ws, CI, ctx.CF, ctx.CR, ctx.cJ, ctx.cbias, ctx.cwork)
    settings = ctx.settings[0]
    scale = settings.baumgarte / settings.dt
    r = 0
    for c in range(CI.shape[0]):
        n = 3 if CI[c, 0] == CONTACT_3D else 6
        for i in range(n):
            ctx.cbias[r + i] = scale * ctx.CR[c, EP + i]
        r += n


@njit(cache=True, refcount=False)
def guess_backoff(failed, wait, kept):
    """When a simulator's step tries its warm start as it is (``contact_step``'s ``try_guess``): each step while
    it is kept; after ``f`` trials in a row that failed, again after ``2^(f - 2)`` steps (at most ``2^BACKOFF``), so
    that a robot under control, whose problem changes each step, seldom pays for the trial, while a body that
    comes to rest is caught within a few steps. From the previous step's ``(failed, wait)`` (trials failed in a row,
    steps left to wait: the warm start is tried when ``wait`` is 0) and whether it ``kept`` its warm start,
    returns this step's."""
    if kept:
        return 0, 0
    if wait > 0:
        return failed, wait - 1
    failed = min(failed + 1, BACKOFF + 2)
    return failed, (1 << (failed - 2)) if failed >= 2 else 0
