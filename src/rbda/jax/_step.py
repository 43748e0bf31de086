"""The derivatives of one step of :class:`rbda.Simulator` by the implicit function theorem on its solved contact
problem, for :func:`rbda.jax.simulator_step`.

The step (its stages in :mod:`rbda.simulation.simulator`) is ``v_free = v + dt M_s^-1 (tau - nle - damping v
- K (q - q_ref) - dt K v - D v)`` (``M_s = M + dt diag(damping) + dt D + dt^2 K``; ``K``, ``D`` the joint and
tendon springs' stiffness and the tendons' damping, :mod:`rbda.simulation.passive`) with the free flyers' change of
coordinates (``simulator.transport``), the impulses ``lambda`` of the contact problem ``v_c = G lambda + g`` with
``g = J v_free + b(q)``, then ``v_next = v_free + M^-1 J^T lambda`` and ``(q_next, v_next) = advance(q,
v_next)`` (``q (+) dt v_next``, a free flyer's centre of mass moved in a straight line;
:mod:`rbda.kernels.time_stepping`). At the solution each row is classified, and the classification (the active
set) is held fixed::

    separated contact (lambda_n ~ 0), bound row (a limit at 0)     d lambda_i = 0
    sticking contact (|lambda_t| < mu lambda_n), free row          d v_c,i = G_i d lambda + d g_i = 0
    sliding contact (|lambda_t| = mu lambda_n, s = v_t / |v_t|)   d v_c,n = 0,
        d lambda_t = -mu (s d lambda_n + lambda_n (I - s s^T) / |v_t| d v_c,t)   (the cone boundary, maximal
                                                                                   dissipation)

a linear system ``A d lambda = -B d g`` (solved in the least-squares sense: a redundant contact set has many
impulses but one velocity). With ``a* = (v_free - v) / dt``, rbda's RNEA derivatives at ``(q, v, a*)`` give the
free velocity's: ``dv_free/dq = -dt M_s^-1 (dtau/dq + K)``, ``dv_free/dv = I - dt M_s^-1 (dtau/dv +
diag(damping) + D + dt K)``, ``dv_free/dtau = dt M_s^-1`` (exact; not available with gravity compensation or fluid
forces). The bias ``b(q)`` varies with ``q`` along the rows' own Jacobian (a
contact's distance along its normal row, a limit's along its dof; factor ``1 / dt``, or ``baumgarte / dt`` for
a penetration). Held fixed, so approximate in ``q``: the contact Jacobian ``J`` and ``G`` (their change under a
rotation of the bodies), the contact points and frames. So the derivatives in ``v`` and ``tau`` are exact for a
step whose active set does not change (and no restitution), those in ``q`` exact for motions that keep the
contact geometry (a translation along a flat ground, a limit's dof) and first-order approximate otherwise.
"""

from __future__ import annotations

import numpy as np

from ..algorithms import cholesky
from ..algorithms.configuration import d_integrate
from ..algorithms.derivatives import compute_rnea_derivatives
from ..simulation.constraints import augment, constraint_rows
from ..simulation.simulator import (_free_flyers, _midpoint_rotation, contacts, delassus, explicit_free_velocity,
                                    transport)
from ..spatial import Jexp3, exp3, skew


def _active_set(sim, cs, rows, G, lam, vc):
    """``(A, B)`` of ``A d lambda + B d g = 0`` for the active set of the solution ``lam`` (contact velocities
    ``vc``), as the module docstring says."""
    n, k3 = lam.size, 3 * cs.size
    A, B = np.zeros((n, n)), np.zeros((n, n))
    scale = max(np.abs(lam).max(initial=0.0), 1e-300)
    for c in range(cs.size):
        r, t, nr = slice(3 * c, 3 * c + 3), slice(3 * c, 3 * c + 2), 3 * c + 2
        ln, lt, mu, vt = lam[nr], lam[t], cs.mu[c], vc[t]
        speed = np.linalg.norm(vt)
        if ln <= 1e-9 * scale:  # separated
            A[r, r] = np.eye(3)
        elif np.linalg.norm(lt) < mu * ln * (1.0 - 1e-6) or speed <= 1e-12:  # sticking
            A[r], B[r, r] = G[r], np.eye(3)
        else:  # sliding on the cone boundary
            A[nr], B[nr, nr] = G[nr], 1.0
            s = vt / speed
            P = mu * ln * (np.eye(2) - np.outer(s, s)) / speed
            A[t] = P @ G[t]
            A[t, t] += np.eye(2)
            A[t, nr] += mu * s
            B[t, t] = P
    for i in range(rows.size):
        k = k3 + i
        width = max(1e-12, 1e-9 * scale)
        if rows.lower[i] + width < lam[k] < rows.upper[i] - width:  # strictly inside its bounds: v_row = 0
            A[k], B[k, k] = G[k], 1.0
        else:
            A[k, k] = 1.0
    return A, B


def _bias_derivative(sim, q, cs, rows, J) -> np.ndarray:
    """``db/dq (n, nv)``: a contact's normal bias (``d / dt``, ``baumgarte (d + slop) / dt`` for a penetration
    beyond the slop, zero within it) along its normal row, a limit's along its dof; the other rows' biases (joint
    friction: none; bilateral constraints) held fixed."""
    model, dt = sim.model, sim.dt
    k3 = 3 * cs.size
    dB = np.zeros((k3 + rows.size, model.nv))
    for c in range(cs.size):
        d = cs.distances[c]
        factor = (1.0 if d > 0.0 else 0.0 if d > -sim.slop else sim.baumgarte) / dt
        dB[3 * c + 2] = factor * J[3 * c + 2]
    q_index = dict(zip(sim.limited_dofs[1].tolist(), sim.limited_dofs[0].tolist()))
    passive = sim.passive
    for r, key in enumerate(rows.keys):
        if key[0] == "limit":
            i, sign = key[1], key[2]
            limit = model.lower_position_limit if sign > 0 else model.upper_position_limit
            d = sign * (q[q_index[i]] - limit[q_index[i]])
            dB[k3 + r, i] = sign * (1.0 if d > 0.0 else sim.baumgarte) / dt
        elif key[0] == "tendon_limit":  # the same on the tendon's length, along its row A_v
            t, sign = key[1], key[2]
            limit = passive.tendon_lower[t] if sign > 0 else passive.tendon_upper[t]
            d = sign * (passive.tendon_q[t] @ q - limit)
            dB[k3 + r] = sign * (1.0 if d > 0.0 else sim.baumgarte) / dt * passive.tendon_v[t]
    return dB


def _springs(sim) -> tuple[np.ndarray, np.ndarray]:
    """``(K, D) (nv, nv)``: the stiffness of the joint and tendon springs (``diag(k)``, ``k A_v^T A_v``) and the
    tendons' damping ``d A_v^T A_v``, the derivatives of their forces (:mod:`rbda.simulation.passive`); raises
    ``ValueError`` for the passive forces whose derivatives are not available (gravity compensation, fluid)."""
    passive, nv = sim.passive, sim.model.nv
    if passive.gravcomp_joint.size or passive.fluid_joint.size:
        raise ValueError("sim: the derivatives of a step with gravity compensation or fluid forces "
                         "(model.mjcf_physics) are not available")
    K, D = np.zeros((nv, nv)), np.zeros((nv, nv))
    K[passive.spring_v, passive.spring_v] = passive.spring_k
    A = passive.tendon_v
    return K + A.T @ (passive.tendon_k[:, None] * A), A.T @ (passive.tendon_d[:, None] * A)


def _transport_jacobians(sim, v, explicit) -> tuple:
    """``(G_e, G_v)``: the derivatives of stage 1's change of coordinates of the free flyers
    (``simulator.transport``: ``v_free = explicit + t(v)``, and a free body's implicit gyroscopic rotation) with
    respect to the explicit free velocity ``explicit (nv,)`` and to ``v``, each ``(nv, nv)``."""
    model, dt, nv = sim.model, sim.dt, sim.model.nv
    Ge, Gv = np.eye(nv), np.zeros((nv, nv))
    for i in _free_flyers(model):
        k, Y = model.idx_v[i], model.inertias[i]
        lin, ang, c, w = slice(k, k + 3), slice(k + 3, k + 6), Y.lever, v[k + 3:k + 6]
        s = v[lin] + np.cross(w, c)
        Gv[lin, lin] = dt * skew(w)  # d (dt w x (v + w x c))
        Gv[lin, ang] = -dt * (skew(s) + skew(w) @ skew(c))
        if sim._settings[0]["free_bodies"] and Y.mass > 0.0 and not np.any(model.armature[k:k + 6]):
            Ic = Y.inertia  # the midpoint rule's w_1 (explicit w_e, start w_0), by the implicit function theorem
            w1 = _midpoint_rotation(Ic, w, explicit[ang], dt)
            wm = 0.5 * (w + w1)
            curl = 0.5 * dt * (skew(Ic @ wm) - skew(wm) @ Ic)
            K = np.linalg.inv(Ic - curl)
            De, D0 = K @ Ic, K @ (curl + dt * (skew(w) @ Ic - skew(Ic @ w)))
            Ge[ang, ang] = De
            Ge[lin, ang] = skew(c) @ (De - np.eye(3))  # v_lin -= (w_1 - w_e) x c
            Gv[ang, ang] += D0
            Gv[lin, ang] += skew(c) @ D0
    return Ge, Gv


def _advance_jacobians(model, q, v_next, dt) -> tuple:
    """``(A_q, A_v, B_v)``: stage 5's ``(q_next, v_out) = advance(q, v_next)`` (``simulator.advance``), its
    tangent ``d q_next = A_q d q + A_v d v_next`` and ``d v_out = B_v d v_next`` (``v_out`` does not depend on
    ``q``): ``d_integrate``'s blocks, except on a free flyer, whose centre of mass moves in a straight line. With
    ``E = exp3(dt w)``, ``J_r`` its right Jacobian, ``s = v + w x c`` and ``u~ = E^T s``: the rotation's tangent
    ``E^T d theta + dt J_r d w``, the translation's ``E^T (d p - ([c]x + dt [s]x) d theta + dt d v - dt [c]x d w)
    + [c]x`` (the rotation's), and ``d v_out = E^T d v + (dt [u~]x J_r + [c]x - E^T [c]x) d w``."""
    Dq, Dv = d_integrate(model, q, dt * v_next)
    Aq, Av, Bv = Dq.copy(), dt * Dv, np.eye(model.nv)
    for i in _free_flyers(model):
        k, c = model.idx_v[i], model.inertias[i].lever
        lin, ang, w = slice(k, k + 3), slice(k + 3, k + 6), v_next[k + 3:k + 6]
        s = v_next[lin] + np.cross(w, c)
        Et, Jr, C = exp3(dt * w).T, Jexp3(dt * w), skew(c)
        Aq[lin, lin], Aq[lin, ang], Aq[ang, lin], Aq[ang, ang] = Et, C @ Et - Et @ (C + dt * skew(s)), 0.0, Et
        Av[lin, lin], Av[lin, ang], Av[ang, lin], Av[ang, ang] = dt * Et, dt * (C @ Jr - Et @ C), 0.0, dt * Jr
        Bv[lin, ang] = dt * skew(Et @ s) @ Jr + C - Et @ C
        Bv[lin, lin] = Et
    return Aq, Av, Bv


def step_jacobians(sim, q: np.ndarray, v: np.ndarray, tau: np.ndarray) -> tuple:
    """``(q_next, v_next, dq_next/d(q, v, tau), dv_next/d(q, v, tau))``: one ``sim.step(q, v, tau)`` and its six
    tangent-space Jacobians ``(nv, nv)`` (``q`` directions and ``q_next`` rows through ``integrate``), by the
    implicit function theorem on the step's active set (module docstring: exact in ``v`` and ``tau``, partly
    approximate in ``q``). Raises ``ValueError`` for a simulator with restitution (its bias depends on ``v``)."""
    if sim.restitution is not None:
        raise ValueError("sim: the derivatives of a step with restitution are not available; use restitution=None")
    K, D = _springs(sim)
    q_next, v_next = sim.step(q, v, tau)
    model, data, dt, nv = sim.model, sim.data, sim.dt, sim.model.nv
    explicit = explicit_free_velocity(sim, q, v, tau, None)  # the step's stages again: M_s factored, J, the
    v_free = explicit.copy()  # contact problem
    transport(sim, v, v_free)
    cs = contacts(sim, v, v_free)  # the step's own contact set (its speculative margins)
    J, MinvJt, G = delassus(sim, cs)
    rows = constraint_rows(sim, q, v_free)
    J, MinvJt, G = augment(sim, J, MinvJt, G, rows)
    lam = np.concatenate([sim.impulses, sim.row_impulses])
    vc = np.concatenate([sim.contact_velocities, sim.row_velocities])
    Minv = cholesky.solve(model, data, np.eye(nv))  # M_s^-1
    dtau_dq, dtau_dv, _ = compute_rnea_derivatives(model, model.create_data(), q, v, (explicit - v) / dt)
    Ge, Gv = _transport_jacobians(sim, v, explicit)
    F = (-dt * Ge @ Minv @ (dtau_dq + K),
         Ge @ (np.eye(nv) - dt * Minv @ (dtau_dv + np.diag(sim.damping) + D + dt * K)) + Gv, dt * Ge @ Minv)
    if lam.size:
        A, B = _active_set(sim, cs, rows, G, lam, vc)
        S = -np.linalg.lstsq(A, B, rcond=None)[0]  # d lambda = S d g
        P = np.eye(nv) + MinvJt @ S @ J
        dv = [P @ F[0] + MinvJt @ S @ _bias_derivative(sim, q, cs, rows, J), P @ F[1], P @ F[2]]
    else:
        dv = list(F)
    Aq, Av, Bv = _advance_jacobians(model, q, v_free + MinvJt @ lam if lam.size else v_free, dt)
    dq = [Aq + Av @ dv[0], Av @ dv[1], Av @ dv[2]]
    return q_next, v_next, dq, [Bv @ x for x in dv]
