"""Contact problems built independently of the solvers: a free-flying box (four bottom corners) or a sphere (one
point) resting on the plane z = 0, from rbda's CRBA, nonlinear effects and frame Jacobians (LOCAL_WORLD_ALIGNED,
so that each contact's rows are [x, y, z] = [t1, t2, n]). An incline is the same plane with gravity tilted by
theta about the y axis, so that "down the slope" is +x.

One step of velocity-level time stepping: ``v_free = v + dt M^-1 (tau - nle)``, ``g = J v_free``,
``G = J M^-1 J^T``, and after the solve ``v_next = v_free + M^-1 J^T lambda``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

import rbda

GRAVITY = 9.81


@dataclass
class Problem:
    G: np.ndarray
    g: np.ndarray
    J: np.ndarray
    M: np.ndarray
    v_free: np.ndarray

    def v_next(self, lam):
        """The generalized velocity after the contact impulses ``lam``: ``[v_local; w_local]``."""
        return self.v_free + np.linalg.solve(self.M, self.J.T @ lam)


def _problem(inertia, points, dt, lift, force=(0.0, 0.0, 0.0), v0=(0.0, 0.0, 0.0), theta=0.0):
    model = rbda.Model()
    body = model.add_joint(0, rbda.JointModelFreeFlyer(), rbda.SE3.Identity(), "body")
    model.append_body_to_joint(body, inertia)
    model.gravity = rbda.Motion([GRAVITY * np.sin(theta), 0.0, -GRAVITY * np.cos(theta)], [0.0, 0.0, 0.0])
    frames = [model.add_frame(rbda.Frame(f"contact_{k}", body, placement=rbda.SE3(np.eye(3), p)))
              for k, p in enumerate(points)]
    data = model.create_data()
    q = rbda.neutral(model)
    q[2] = lift
    v = np.zeros(6)
    v[:3] = v0
    M = rbda.crba(model, data, q).copy()
    M = np.triu(M) + np.triu(M, 1).T
    nle = rbda.nonlinear_effects(model, data, q, v).copy()
    J = np.vstack([rbda.compute_frame_jacobian(model, data, q, f, rbda.LOCAL_WORLD_ALIGNED)[:3] for f in frames])
    tau = np.zeros(6)
    tau[:3] = force
    v_free = v + dt * np.linalg.solve(M, tau - nle)
    G = J @ np.linalg.solve(M, J.T)
    return Problem(0.5 * (G + G.T), J @ v_free, J, M, v_free)


def box(mass=10.0, side=0.2, dt=1e-3, force=(0.0, 0.0, 0.0), v0=(0.0, 0.0, 0.0), theta=0.0) -> Problem:
    """A cube of ``mass`` and ``side`` on its four bottom corners, pushed by ``force`` at its centre, moving at
    ``v0``."""
    h = side / 2
    corners = [np.array([sx * h, sy * h, -h]) for sx in (-1.0, 1.0) for sy in (-1.0, 1.0)]
    return _problem(rbda.Inertia.FromBox(mass, side, side, side), corners, dt, h, force, v0, theta)


def sphere(mass=1.0, radius=0.1, dt=1e-3, theta=0.0, v0=(0.0, 0.0, 0.0)) -> Problem:
    """A solid sphere on its lowest point."""
    return _problem(rbda.Inertia.FromSphere(mass, radius), [np.array([0.0, 0.0, -radius])], dt, radius,
                    v0=v0, theta=theta)


def particle(mass=1.0, dt=1e-3, v0=(0.0, 0.0, 0.0)) -> Problem:
    """A point mass on the plane (three translations, ``J = I``): ``G = I / m``, ``g = v0 + dt g_gravity``."""
    M = mass * np.eye(3)
    v_free = np.asarray(v0, dtype=float) + dt * np.array([0.0, 0.0, -GRAVITY])
    return Problem(np.eye(3) / mass, v_free.copy(), np.eye(3), M, v_free)
