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

from .contacts import _shape_table


def pair_speed_bounds(sim, velocities, rotations, centres) -> np.ndarray:
    """A bound ``(npairs,)`` (m/s) on the closing speed of each collision pair of ``sim.collision_model``, the
    largest over the generalized velocities ``velocities (m, nv)`` (e.g. a step's start and free velocities),
    from ``sim.data.J`` (the world joint Jacobians of the current configuration, filled by the simulator's
    kinematics stage) and the geometry objects' world placements ``rotations (ngeoms, 3, 3)``, ``centres
    (ngeoms, 3)``. A pair of two unbounded objects (two half-spaces) gets ``inf``."""
    geoms = sim.collision_model.geometry_objects
    pairs = np.array(sim.collision_model.collision_pairs, dtype=np.int64).reshape(-1, 2)
    if not len(pairs):
        return np.zeros(0)
    plane, radius, normal, _ = _shape_table(geoms)
    joints = np.array([g.parent_joint for g in geoms], dtype=np.int64)
    velocities = np.asarray(velocities, dtype=float).reshape(-1, sim.model.nv)
    # (m, ngeoms, 6): each object's joint twist [v at the world origin; w], through its supports' columns of J
    twists = np.einsum("gn,mn,in->mgi", sim.support_mask[joints], velocities, sim.data.J)
    flat = plane[pairs[:, 0]] | plane[pairs[:, 1]]
    a = np.where(plane[pairs[:, 1]], pairs[:, 1], pairs[:, 0])  # the half-space of the pair, if any
    b = np.where(plane[pairs[:, 1]], pairs[:, 0], pairs[:, 1])  # the bounded object (the ball's)
    dv = twists[:, b, :3] - twists[:, a, :3]
    dw = twists[:, b, 3:] - twists[:, a, 3:]
    u = dv + np.cross(dw, centres[b])  # (m, npairs, 3): the relative velocity at the ball's centre
    r = np.where(np.isinf(radius[b]), 0.0, radius[b])
    n = np.einsum("kij,kj->ki", rotations[a], normal[a])  # the half-space's world normal (zero for the others)
    closing = np.maximum(0.0, -np.sum(n * u, axis=2) + np.linalg.norm(np.cross(n, dw), axis=2) * r)
    speed = np.linalg.norm(u, axis=2) + np.linalg.norm(dw, axis=2) * r
    bound = np.where(flat, closing, speed).max(axis=0)
    bound[np.isinf(radius[b])] = np.inf  # two half-spaces (no contact function: pair_contacts says so)
    return bound


def speculative_margins(sim, velocities, rotations, centres) -> np.ndarray:
    """The contact margin ``(npairs,)`` of each collision pair for one step of ``sim``: the larger of ``sim.margin``
    and ``sim.dt`` times :func:`pair_speed_bounds` (same arguments)."""
    return np.maximum(sim.margin, sim.dt * pair_speed_bounds(sim, velocities, rotations, centres))
