"""A controller that holds a robot standing on its contacts: joint PD plus gravity compensation through the feet.

Plain gravity compensation ``tau = g(q)`` only carries the limbs' own weight. A legged robot standing on the
ground must also push the body's weight through its feet: with the contact points of the standing configuration
and their Jacobian ``J (3k, nv)``, the contact forces ``f`` that carry the weight solve the floating base's rows of
the static equilibrium ``g_b(q) = J_b^T f`` (the minimum-norm solution: the weight shared evenly), and the joints
need ``tau = g_a(q) - J_a^T f`` (``b``: the free flyer's six rows, ``a``: the actuated ones).

The PD gains see the same load. A joint of a standing leg moves the body, not only the limb below it: the
inertia it feels is the diagonal of ``N^T M N``, with ``N = [-J_b^+ J_a; I]`` the base motion that keeps the
contact points in place (least squares) for a joint motion. Scaling the gains by ``M``'s own diagonal (the limb
alone) would make them far too soft: on solo12 a knee's ``M_jj`` is 5e-4 kg m^2 but it carries 8e-3 kg m^2
standing.
"""

from __future__ import annotations

import numpy as np

from ..algorithms.configuration import difference
from ..algorithms.dynamics import compute_generalized_gravity, crba
from ..spatial._validate import as_scalar
from . import simulator as _stages
from ._check import finite_vector


class StandingPD:
    """Hold the configuration ``q_ref (nq,)`` of a robot simulated by ``sim`` (a :class:`Simulator`):
    ``tau = tau_ff + kp (q_ref - q) - kd v`` on the actuated joints (every joint but a free flyer), the derivative
    term implicit.

    ``tau_ff (nv,)`` is the gravity compensation at ``q_ref`` through the contact points that ``sim`` finds there
    (the module's docstring; the plain ``g(q_ref)`` for a fixed base or without contacts), and the gains are
    critically damped at ``omega`` rad/s on the standing inertia ``I_j = diag(N^T M N)``: ``kp = omega^2 I_j``,
    ``kd = 2 omega I_j``. The derivative term is applied implicitly, as a joint damping: the constructor adds
    ``kd`` to ``sim.damping`` (the model is not changed), which the simulator integrates implicitly (MuJoCo's
    Euler integrator treats a joint's damping the same way), and a call returns ``tau_ff + kp (q_ref - q)``. Explicit, ``kd`` would be
    unstable on a light link that carries a heavy load standing (talos's ankle: ``kd dt / M_jj`` in the
    hundreds). Build one per simulator: each adds its ``kd`` to the simulator's damping.

    Attributes: ``q_ref``, ``tau_ff (nv,)``, ``kp (nv,)``, ``kd (nv,)`` (zero on the free flyer), ``contact_forces
    (3k,)`` (the forces of ``tau_ff`` in the contact frames, normal last). Raises ``ValueError`` for a ``q_ref`` of
    the wrong size or not finite, or ``omega <= 0``.
    """

    def __init__(self, sim, q_ref, omega: float = 20.0):
        model = sim.model
        self.q_ref = finite_vector(q_ref, model.nq, "q_ref").copy()
        omega = as_scalar(omega, "omega")
        if omega <= 0.0:
            raise ValueError(f"omega: must be > 0, got {omega}")
        nv = model.nv
        base = 6 if model.njoints > 1 and model.nvs[1] == 6 and model.nqs[1] == 7 else 0
        data = model.create_data()
        M = crba(model, data, self.q_ref).copy()
        M = np.triu(M) + np.triu(M, 1).T
        gravity = compute_generalized_gravity(model, data, self.q_ref).copy()
        J = np.zeros((0, nv))
        if base:
            _stages.kinematics(sim, self.q_ref, np.zeros(nv), np.zeros(nv), None)
            J = _stages.delassus(sim, _stages.contacts(sim))[0]
        if J.shape[0]:
            Jb_pinv = np.linalg.pinv(J[:, :base])
            self.contact_forces = Jb_pinv.T @ gravity[:base]  # g_b = J_b^T f, minimum norm
            N = np.vstack([-Jb_pinv @ J[:, base:], np.eye(nv - base)])
        else:
            self.contact_forces = np.zeros(0)
            N = np.vstack([np.zeros((base, nv - base)), np.eye(nv - base)])
        actuated = np.r_[np.zeros(base), np.ones(nv - base)]
        self.tau_ff = actuated * (gravity - J.T @ self.contact_forces)
        standing = np.r_[np.zeros(base), np.diag(N.T @ M @ N)]
        self.kp, self.kd = omega ** 2 * standing, 2.0 * omega * standing
        sim.damping += self.kd  # - kd v, implicit in the simulator's step
        self.model = model

    def __call__(self, q) -> np.ndarray:
        """The joint torques ``(nv,)`` at ``q (nq,)`` but the damping's (``- kd v``, in the simulator's damping now)."""
        return self.tau_ff + self.kp * difference(self.model, q, self.q_ref)
