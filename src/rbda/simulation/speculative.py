"""Speculative contact margins: each collision pair keeps its contacts within ``max(margin, dt * closing speed bound)``.

With a fixed margin, a body falling faster than ``margin / dt`` crosses the margin and the surface in one step: its
contact is found a step late, already penetrating by up to one step's travel. Widening each pair's margin to the
distance its two objects can close in one step finds the contact the step before. Below ``margin / dt`` (1 m/s
for the default 1 mm at 1 ms) the margin is unchanged: a slow or resting scene is simulated bit for bit as with the
fixed margin, and its contact set does not flicker with the velocity (a mesh's patch, reduced to a few points,
would change its points from step to step). A gap row's bias ``d / dt``
(:func:`rbda.simulation.simulator.normal_bias`) then lets the step close the gap exactly and no further (the
contact impulse is zero while the gap stays open), so a speculative contact that the motion does not reach
exerts no force.

The bound: for a pair of objects on joints ``a`` and ``b`` with world spatial velocities ``(v_a, w_a)``,
``(v_b, w_b)`` (linear part at the world origin), a point ``x`` of ``b`` moves relative to ``a`` at
``u(x) = dv + dw x x`` (``dv = v_b - v_a``, ``dw = w_b - w_a``). Every contact point lies in the ball of centre
``c`` and radius ``r`` that holds the pair's bounded object. Against a half-space of world normal ``n`` (the
object ``a``), the distance of ``x`` changes at ``n . u(x)``, so the pair closes at most at
``max(0, -n . (dv + dw x c) + |n x dw| r)``; between two bounded objects, at most at ``|dv + dw x c| + |dw| r``.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from .contacts import _shape_table


@njit(cache=True, refcount=False)
def joint_twists(Jw, tree, velocities, twists):
    """``twists (m, njoints, 6)``: each joint's world spatial velocity (linear part at the world origin) under each
    row of ``velocities (m, nv)``: its parent's plus its own columns ``Jw[c] (6,)`` of the world joint Jacobians
    ``Jw (nv, 6)`` times their velocities; ``tree (njoints, 3)``: each joint's parent, first dof and number of dofs
    (parents before children, as the model orders them: each twist sums its supports' columns in the dofs'
    order)."""
    for s in range(velocities.shape[0]):
        twists[s, 0] = 0.0
        for j in range(1, tree.shape[0]):
            parent, first, count = tree[j, 0], tree[j, 1], tree[j, 2]
            for i in range(6):
                acc = twists[s, parent, i]
                for c in range(first, first + count):
                    acc += Jw[c, i] * velocities[s, c]
                twists[s, j, i] = acc


@njit(cache=True, refcount=False)
def closing_speeds(pairs, joints, plane, radius, normal, rotations, centres, twists, out):
    """The bound of each pair ``pairs (npairs, 2)`` of geometry ids into ``out (npairs,)`` (:func:`closing_speed`).
    Allocates nothing and returns nothing (it runs without reference counting)."""
    for k in range(pairs.shape[0]):
        out[k] = closing_speed(pairs[k, 0], pairs[k, 1], joints, plane, radius, normal, rotations, centres, twists)


@njit(cache=True, refcount=False)
def closing_speed(a, b, joints, plane, radius, normal, rotations, centres, twists):
    """The bound of the pair of geometry objects ``a``, ``b``, the largest over the joints' twists ``twists (m,
    njoints, 6)`` (:func:`joint_twists`); the per-object arguments as :func:`closing_speed_bounds` takes them."""
    if plane[b]:
        a, b = b, a  # a: the half-space, if any; b: the bounded object
    if plane[b] or not np.isfinite(radius[b]):  # two half-spaces, or a shape without a bounding ball
        return np.inf
    n0 = n1 = n2 = 0.0
    if plane[a]:  # the world normal R_a n_a
        R = rotations[a]
        n0 = R[0, 0] * normal[a, 0] + R[0, 1] * normal[a, 1] + R[0, 2] * normal[a, 2]
        n1 = R[1, 0] * normal[a, 0] + R[1, 1] * normal[a, 1] + R[1, 2] * normal[a, 2]
        n2 = R[2, 0] * normal[a, 0] + R[2, 1] * normal[a, 1] + R[2, 2] * normal[a, 2]
    c0, c1, c2, r = centres[b, 0], centres[b, 1], centres[b, 2], radius[b]
    ja, jb = joints[a], joints[b]
    out = 0.0
    for s in range(twists.shape[0]):
        w0 = twists[s, jb, 3] - twists[s, ja, 3]  # dw
        w1 = twists[s, jb, 4] - twists[s, ja, 4]
        w2 = twists[s, jb, 5] - twists[s, ja, 5]
        u0 = twists[s, jb, 0] - twists[s, ja, 0] + (w1 * c2 - w2 * c1)  # dv + dw x c: the velocity at the centre
        u1 = twists[s, jb, 1] - twists[s, ja, 1] + (w2 * c0 - w0 * c2)
        u2 = twists[s, jb, 2] - twists[s, ja, 2] + (w0 * c1 - w1 * c0)
        if plane[a]:
            x0, x1, x2 = n1 * w2 - n2 * w1, n2 * w0 - n0 * w2, n0 * w1 - n1 * w0  # n x dw
            bound = max(0.0, -(n0 * u0 + n1 * u1 + n2 * u2) + np.sqrt(x0 * x0 + x1 * x1 + x2 * x2) * r)
        else:
            bound = np.sqrt(u0 * u0 + u1 * u1 + u2 * u2) + np.sqrt(w0 * w0 + w1 * w1 + w2 * w2) * r
        out = max(out, bound)
    return out


@njit(cache=True)
def closing_speed_bounds(pairs, joints, plane, radius, normal, rotations, centres, tree, velocities, Jw, out):
    """Compiled core of :func:`pair_speed_bounds`: writes into ``out (npairs,)`` the bound of each pair ``pairs
    (npairs, 2)`` of geometry ids, the largest over the rows of ``velocities (m, nv)``. Per geometry object:
    ``joints`` its parent joint, ``plane`` whether it is a half-space, ``radius`` its bounding radius (inf for a
    half-space), ``normal (ngeoms, 3)`` its half-space normal (shape frame), ``rotations (ngeoms, 3, 3)`` and
    ``centres (ngeoms, 3)`` its world placement; ``tree (njoints, 3)`` as :func:`joint_twists` takes it; ``Jw (nv,
    6)`` the world joint Jacobians' columns (linear part at the world origin)."""
    twists = np.empty((velocities.shape[0], tree.shape[0], 6))
    joint_twists(Jw, tree, velocities, twists)
    closing_speeds(pairs, joints, plane, radius, normal, rotations, centres, twists, out)
    return out


def pair_speed_bounds(sim, velocities, rotations, centres) -> np.ndarray:
    """A bound ``(npairs,)`` (m/s) on the closing speed of each collision pair of ``sim.collision_model``, the
    largest over the generalized velocities ``velocities (m, nv)`` (e.g. a step's start and free velocities),
    from ``sim.data.J`` (the world joint Jacobians of the current configuration, filled by the simulator's
    kinematics stage) and the geometry objects' world placements ``rotations (ngeoms, 3, 3)``, ``centres
    (ngeoms, 3)``. A pair of two unbounded objects (two half-spaces), or with a shape that has no bounding ball
    (:func:`rbda.simulation.contacts.bounding_radius`), gets ``inf``."""
    geoms = sim.collision_model.geometry_objects
    pairs = np.array(sim.collision_model.collision_pairs, dtype=np.int64).reshape(-1, 2)
    plane, radius, normal, _ = _shape_table(geoms)
    joints = np.array([g.parent_joint for g in geoms], dtype=np.int64)
    velocities = np.ascontiguousarray(velocities, dtype=float).reshape(-1, sim.model.nv)
    return closing_speed_bounds(pairs, joints, plane, radius, normal, np.ascontiguousarray(rotations, dtype=float),
                                np.ascontiguousarray(centres, dtype=float), sim._scene.tree, velocities,
                                np.ascontiguousarray(sim.data.J.T), np.empty(len(pairs)))


def speculative_margins(sim, velocities, rotations, centres) -> np.ndarray:
    """The contact margin ``(npairs,)`` of each collision pair for one step of ``sim``: the larger of ``sim.margin``
    and ``sim.dt`` times :func:`pair_speed_bounds` (same arguments)."""
    return np.maximum(sim.margin, sim.dt * pair_speed_bounds(sim, velocities, rotations, centres))
