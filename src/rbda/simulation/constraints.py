"""The one-dimensional rows of a simulation step, solved with the contacts in one problem: joint limits, dry joint
friction and bilateral constraints (loop closures, welds).

Each row ``j`` has a Jacobian row ``J_j (nv,)``, a bias ``b_j`` (its velocity is ``v_j = J_j v_next + b_j``) and a
box ``[lower_j, upper_j]`` for its impulse (see :mod:`rbda.simulation.solvers`):

- a **joint limit** of a one-dof joint (revolute, prismatic) whose coordinate is within ``margin`` (plus this
  step's travel) of ``model.lower_position_limit`` or ``model.upper_position_limit``: ``J = +e_i`` at the lower
  limit, ``-e_i`` at the upper, the distance ``d`` to the limit corrected as a contact's penetration (a gap
  closes in one step at most, a violation by ``baumgarte d`` per step), impulse in ``[0, inf)``;
- a **tendon limit** of a fixed tendon of an MJCF model (``model.mjcf_physics``) whose length ``L = A_q q`` is
  within ``margin`` (plus this step's travel) of its range: the same, with ``J = +A_v`` at the lower limit,
  ``-A_v`` at the upper;
- **dry friction** of every velocity coordinate with ``model.friction > 0``: ``J = e_i``, no bias, impulse in
  ``[-F dt, F dt]`` (sticks while the other forces stay below ``F``, else slides against ``F``);
- a **bilateral constraint** (:class:`rbda.RigidConstraintModel`, 3 or 6 rows): ``J`` its Jacobian, the bias
  ``baumgarte e_p / dt`` on its placement error ``e_p``, impulse free.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..algorithms import cholesky
from ..algorithms.constrained import check_constraints, constraint_kinematics
from ..model.constraints import RigidConstraintModel


@dataclass
class ConstraintRows:
    """The ``r`` one-dimensional rows of a step: ``J (r, nv)``, ``bias (r,)``, ``lower``, ``upper (r,)`` and a
    ``keys`` list (``("limit", dof, +1 | -1)``, ``("tendon_limit", tendon, +1 | -1)``, ``("friction", dof)``,
    ``("constraint", index, row)``) to warm
    start each row from the previous step's row with the same key."""

    J: np.ndarray
    bias: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    keys: list = field(default_factory=list)

    @property
    def size(self) -> int:
        return self.bias.shape[0]


def limited_dofs(model) -> tuple[np.ndarray, np.ndarray]:
    """``(q indices, v indices)`` of the one-dof joints (``nq = nv = 1``) with a finite position limit."""
    iq, iv = [], []
    for j in range(1, model.njoints):
        if model.nqs[j] == 1 and model.nvs[j] == 1:
            a = model.idx_q[j]
            if np.isfinite(model.lower_position_limit[a]) or np.isfinite(model.upper_position_limit[a]):
                iq.append(a)
                iv.append(model.idx_v[j])
    return np.array(iq, dtype=np.int64), np.array(iv, dtype=np.int64)


def check_equalities(model, constraints) -> None:
    """Raise ``ValueError`` if ``model`` (read from MJCF) has active ``connect``/``weld`` equalities
    (``model.mjcf_equality``) and no bilateral ``constraints`` are given: the step would ignore them."""
    active = [e.name or f"equality {k}" for k, e in enumerate(getattr(model, "mjcf_equality", None) or ())
              if e.active and e.type in ("connect", "weld")]
    if active and not constraints:
        raise ValueError(f"constraints: the MJCF equalities {active} of the model are not enforced unless given: "
                         "pass constraints=rbda.io.constraints_from_mjcf(model) (or empty model.mjcf_equality "
                         "to leave them out)")


def check_bilateral(model, constraints) -> tuple[list, list]:
    """``(constraint models, their datas)`` from a sequence of :class:`rbda.RigidConstraintModel`; raises
    ``TypeError`` naming ``constraints``."""
    constraints = list(constraints or ())
    for i, c in enumerate(constraints):
        if not isinstance(c, RigidConstraintModel):
            raise TypeError(f"constraints[{i}]: expected a RigidConstraintModel, got {type(c).__name__}")
    datas = [c.create_data() for c in constraints]
    if constraints:
        check_constraints(model, constraints, datas)
    return constraints, datas


def constraint_rows(sim, q, v_free) -> ConstraintRows:
    """The rows of the step at ``q (nq,)`` whose free velocity is ``v_free (nv,)``, from the kinematics in
    ``sim.data`` (placements, ``J``, velocities: stage 1)."""
    model, dt, nv = sim.model, sim.dt, sim.model.nv
    J, bias, lower, upper, keys = [], [], [], [], []

    def row(jac, b, lo, hi, key):
        J.append(jac)
        bias.append(b)
        lower.append(lo)
        upper.append(hi)
        keys.append(key)

    for a, i in zip(*sim.limited_dofs):  # joint limits: Signorini's condition on the distance to the limit
        for sign, limit in ((1.0, model.lower_position_limit[a]), (-1.0, model.upper_position_limit[a])):
            d = sign * (q[a] - limit)
            if d < sim.margin + dt * max(0.0, -sign * v_free[i]):
                e = np.zeros(nv)
                e[i] = sign
                row(e, (d if d > 0.0 else sim.baumgarte * d) / dt, 0.0, np.inf, ("limit", int(i), int(sign)))
    passive = sim.passive  # fixed tendons' limits: the same on the length L = A_q q, J = +-A_v
    for t in passive.tendon_limited:
        length, rate = passive.tendon_q[t] @ q, passive.tendon_v[t] @ v_free
        for sign, limit in ((1.0, passive.tendon_lower[t]), (-1.0, passive.tendon_upper[t])):
            d = sign * (length - limit)
            if d < sim.margin + dt * max(0.0, -sign * rate):
                row(sign * passive.tendon_v[t], (d if d > 0.0 else sim.baumgarte * d) / dt, 0.0, np.inf,
                    ("tendon_limit", int(t), int(sign)))
    for i in np.flatnonzero(model.friction > 0.0):  # dry friction: an impulse within [-F dt, F dt]
        e = np.zeros(nv)
        e[i] = 1.0
        bound = model.friction[i] * dt
        row(e, 0.0, -bound, bound, ("friction", int(i)))
    for c, (cm, cd) in enumerate(zip(sim.constraints, sim.constraint_datas)):  # bilateral: J v = -b e_p / dt
        constraint_kinematics(model, sim.data, cm, cd)
        for r in range(cm.size):
            row(cd.jacobian[r].copy(), sim.baumgarte * cd.contact_placement_error[r] / dt, -np.inf, np.inf,
                ("constraint", c, r))
    if not J:
        return ConstraintRows(np.zeros((0, nv)), np.zeros(0), np.zeros(0), np.zeros(0))
    return ConstraintRows(np.array(J), np.array(bias), np.array(lower), np.array(upper), keys)


def augment(sim, J, MinvJt, G, rows: ConstraintRows):
    """The contact problem's ``(J, M^-1 J^T, G)`` extended by the rows after the contacts: ``J`` stacked,
    ``M^-1 J_r^T`` by the sparse factor of ``M``, and the blocks ``J_c M^-1 J_r^T``, ``J_r M^-1 J_r^T`` of ``G``."""
    if rows.size == 0:
        return J, MinvJt, G
    MinvJr = cholesky.solve(sim.model, sim.data, rows.J.T)
    JJ = np.vstack((J, rows.J))
    MinvJJ = np.hstack((MinvJt, MinvJr))
    cross = J @ MinvJr
    Grr = rows.J @ MinvJr
    GG = np.block([[G, cross], [cross.T, 0.5 * (Grr + Grr.T)]])
    return JJ, MinvJJ, GG
