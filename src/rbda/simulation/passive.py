"""The passive forces of a simulated model, applied by the step's first stage besides the joint damping: joint
springs (``model.stiffness``, ``model.springref``), and, for a model read from MJCF (``model.mjcf_physics``,
:mod:`rbda.io.mjcf_physics`), gravity compensation, fluid forces and the springs and dampers of fixed tendons.

At ``(q, v)``, with the world joint Jacobian columns ``J`` and each joint's supporting dofs:

* a joint spring on a one-dof joint: ``tau_i = -k_i (q_i - q_ref,i)``;
* a fixed tendon, length ``L = A_q q``, rate ``A_v v``: ``tau = -A_v^T (k (L - L0) + d A_v v)``;
* gravity compensation of joint ``j``'s bodies, mass ``m_c`` at ``c``: the world force ``-m_c g`` at ``c``;
* fluid forces (MuJoCo's inertia-box model): for each body, the velocity ``u = [R^T (v_c - wind); R^T w]`` of its
  inertial frame ``(R, c)`` in that frame, the force ``f_k = -(b_k + a_k |u_k|) u_k`` (``[linear; angular]``:
  Stokes drag ``b``, quadratic drag ``a``, from the body's equivalent inertia box), applied at ``c``;

a body's world wrench ``W = [F; c x F + N]`` (at the world origin) acts on the dofs that support it,
``tau_i = J_i . W``.

Springs and dampers are implicit, like the joint damping: backward Euler in the velocity, the coordinates moved by
``dt v_next`` as the step moves them. A spring ``-K (q - q_ref)`` with a damper ``-D v``, evaluated at the end of
the step, ``M (v_next - v) = dt (f - D v_next - K (q + dt v_next - q_ref))``, is

    ``(M + dt D + dt^2 K) (v_next - v) = dt (f - D v - K (q - q_ref) - dt K v)``,

with ``K = diag(k)`` for the joint springs and ``k A_v^T A_v``, ``D = d A_v^T A_v`` for a tendon's. On a linear
spring this is ``m v+ (v+ - v) + k q+ (q+ - q) = 0``: the energy ``m v^2 / 2 + k q^2 / 2`` falls each step by
``m (v+ - v)^2 / 2 + k (q+ - q)^2 / 2`` and never rises. Gravity compensation and fluid forces are explicit (as
in MuJoCo); drag only removes energy while ``dt (b + a |u|)`` stays below the body's inertia.

:class:`PassiveForces` holds the arrays (built once per :class:`rbda.Simulator`); :func:`add_implicit` and
:func:`passive_force` are the Python stage (``simulator.kinematics``), :func:`add_implicit_terms` and
:func:`add_passive_forces` the compiled one (``compiled.free_velocity``).
"""

from __future__ import annotations

import numpy as np

from .._native.jit import njit
from ..algorithms.kinematics import forward_kinematics
from .speculative import joint_twists


class PassiveForces:
    """The passive forces of ``model`` as arrays (see the module): joint springs ``spring_v``, ``spring_q`` (the
    velocity and coordinate index of each one-dof joint with a spring), ``spring_k``, ``spring_ref``; fixed tendons
    ``tendon_q (nt, nq)``, ``tendon_v (nt, nv)``, ``tendon_k``, ``tendon_d``, ``tendon_length0``, and the limited
    ones ``tendon_limited`` with ``tendon_lower``, ``tendon_upper (nt,)`` (their rows: :mod:`constraints`);
    gravity compensation ``gravcomp_joint (n,)``, ``gravcomp (n, 4)`` (mass, centre in the joint frame); fluid
    forces ``fluid_joint (nb,)``, ``fluid_R (nb, 3, 3)``, ``fluid_p (nb, 3)`` (the inertial frame in the joint
    frame), ``fluid_viscous``, ``fluid_quadratic (nb, 6)`` (``b``, ``a`` per local ``[linear; angular]``
    component), ``wind (3,)``; ``room (2, njoints, 6)`` and ``velocities (1, nv)``, room for the compiled forces'
    twists and wrenches.

    Raises ``ValueError`` for a spring on a joint that is not a one-dof joint, for what the MJCF file holds that the
    simulator does not model (``model.mjcf_physics.unsupported``), for MJCF physics read for a model of other sizes
    (a model changed after it was read), and for a tendon spring or damper coupling dofs of different branches
    (``dt^2 k A^T A`` would fall outside the sparsity of ``M``'s factor)."""

    def __init__(self, model):
        nq, nv = model.nq, model.nv
        stiffness, springref = np.asarray(model.stiffness, dtype=float), np.asarray(model.springref, dtype=float)
        sq, sv = [], []
        for j in range(1, model.njoints):
            dofs = slice(model.idx_v[j], model.idx_v[j] + model.nvs[j])
            if not np.any(stiffness[dofs] != 0.0):
                continue
            if (model.nqs[j], model.nvs[j]) != (1, 1):
                raise ValueError(f"model.stiffness: joint {model.names[j]!r} ({model.joints[j]!r}) has a spring; "
                                 "springs act on one-dof joints (revolute, prismatic) only")
            sq.append(model.idx_q[j])
            sv.append(model.idx_v[j])
        if not np.all(np.isfinite(stiffness)) or np.any(stiffness < 0.0) or not np.all(np.isfinite(springref)):
            raise ValueError("model.stiffness, model.springref: must be finite, the stiffness >= 0")
        self.spring_q, self.spring_v = np.array(sq, dtype=np.int64), np.array(sv, dtype=np.int64)
        self.spring_k, self.spring_ref = stiffness[self.spring_v].copy(), springref[self.spring_q].copy()

        physics = getattr(model, "mjcf_physics", None)
        if physics is not None and physics.unsupported:
            raise ValueError("model: its MJCF file holds what rbda's simulator does not model: "
                             + "; ".join(f"{element}: {what}" for element, what in physics.unsupported))
        nj = model.njoints
        if physics is not None and (physics.tendon_q.shape[1:], physics.tendon_v.shape[1:],
                                    physics.gravcomp.shape[0]) != ((nq,), (nv,), nj):  # another model's
            if np.any(physics.gravcomp) or len(physics.fluid_joints) or len(physics.tendon_names):
                raise ValueError("model.mjcf_physics: was read for a model of other sizes (a model changed since "
                                 "it was read from MJCF); its gravity compensation, fluid forces and tendons do not "
                                 "apply to this one: set model.mjcf_physics = None to leave them out")
            physics = None
        if physics is None:
            physics = _no_physics(nj, nq, nv)
        self.tendon_names = list(physics.tendon_names)
        self.tendon_q = np.ascontiguousarray(physics.tendon_q, dtype=float).reshape(-1, nq)
        self.tendon_v = np.ascontiguousarray(physics.tendon_v, dtype=float).reshape(-1, nv)
        self.tendon_k = np.array(physics.tendon_stiffness, dtype=float)
        self.tendon_d = np.array(physics.tendon_damping, dtype=float)
        self.tendon_length0 = np.array(physics.tendon_length0, dtype=float)
        ranges = np.asarray(physics.tendon_range, dtype=float).reshape(-1, 2)
        self.tendon_limited = np.flatnonzero(np.isfinite(ranges).any(axis=1)).astype(np.int64)
        self.tendon_lower, self.tendon_upper = ranges[:, 0].copy(), ranges[:, 1].copy()
        self._check_tendon_pattern(model)
        self.gravcomp_joint = np.flatnonzero(physics.gravcomp[:, 0] != 0.0).astype(np.int64)
        self.gravcomp = np.ascontiguousarray(physics.gravcomp[self.gravcomp_joint], dtype=float).reshape(-1, 4)
        frames = np.asarray(physics.fluid_frames, dtype=float).reshape(-1, 3, 4)
        self.fluid_joint = np.array(physics.fluid_joints, dtype=np.int64)
        self.fluid_R, self.fluid_p = np.ascontiguousarray(frames[:, :, :3]), np.ascontiguousarray(frames[:, :, 3])
        self.fluid_viscous, self.fluid_quadratic = fluid_coefficients(
            np.asarray(physics.fluid_boxes, dtype=float).reshape(-1, 3), physics.density, physics.viscosity)
        self.wind = np.array(physics.wind, dtype=float)
        self.room, self.velocities = np.zeros((2, nj, 6)), np.zeros((1, nv))

    def _check_tendon_pattern(self, model) -> None:
        """Each tendon with a spring or damper couples dofs on one branch (each an ancestor of the other)."""
        parents = model.dof_parents
        for t in np.flatnonzero((self.tendon_k != 0.0) | (self.tendon_d != 0.0)):
            dofs = np.flatnonzero(self.tendon_v[t])
            for a in dofs:
                for b in dofs[dofs > a]:
                    k = b
                    while k > a:
                        k = parents[k]
                    if k != a:
                        raise ValueError(f"model.mjcf_physics: tendon {self.tendon_names[t]!r} has a spring or "
                                         f"damper on dofs {a} and {b} of different branches, which the simulator's "
                                         "sparse factorisation of M does not hold")

    def potential_energy(self, model, data, q) -> float:
        """The potential energy of the passive forces at ``q (nq,)``, to add to ``rbda.compute_mechanical_energy``'s
        (kinetic and gravity): the springs' ``k (q - q_ref)^2 / 2`` and ``k (L - L0)^2 / 2``, and the gravity
        compensation's ``m_c g . c`` (the force ``-m_c g`` at ``c`` is its gradient's opposite: it takes back that
        part of the weight's potential ``-m g . c``). Fills ``data``'s placements (forward kinematics)."""
        energy = 0.5 * np.sum(self.spring_k * (q[self.spring_q] - self.spring_ref) ** 2)
        energy += 0.5 * np.sum(self.tendon_k * (self.tendon_q @ q - self.tendon_length0) ** 2)
        if self.gravcomp_joint.size:
            forward_kinematics(model, data, q)
            oMi, g = data.oMi.array, model.gravity.linear
            for j, (mass, *lever) in zip(self.gravcomp_joint, self.gravcomp):
                energy += mass * g @ (oMi[j, :, :3] @ lever + oMi[j, :, 3])
        return float(energy)

    @property
    def any(self) -> bool:
        """Whether the model has any passive force besides the joint damping."""
        return bool(self.spring_v.size or np.any(self.tendon_k) or np.any(self.tendon_d) or self.gravcomp_joint.size
                    or self.fluid_joint.size)


def _no_physics(nj, nq, nv):
    from types import SimpleNamespace

    return SimpleNamespace(tendon_names=[], tendon_q=np.zeros((0, nq)), tendon_v=np.zeros((0, nv)),
                           tendon_stiffness=np.zeros(0), tendon_damping=np.zeros(0), tendon_length0=np.zeros(0),
                           tendon_range=np.zeros((0, 2)), gravcomp=np.zeros((nj, 4)), fluid_frames=np.zeros((0, 3, 4)),
                           fluid_joints=np.zeros(0, dtype=np.int64), fluid_boxes=np.zeros((0, 3)), density=0.0,
                           viscosity=0.0, wind=np.zeros(3))


def fluid_coefficients(boxes: np.ndarray, density: float, viscosity: float) -> tuple[np.ndarray, np.ndarray]:
    """``(b, a)``, each ``(nb, 6)`` per local ``[linear; angular]`` component, of MuJoCo's inertia-box fluid model
    for bodies whose equivalent boxes have the sides ``boxes (nb, 3)``: Stokes drag of the sphere of mean
    diameter ``s = (b_x + b_y + b_z) / 3``, ``b = [3 pi s mu (x3); pi s^3 mu (x3)]``, and quadratic drag
    ``a = [rho b_y b_z / 2, rho b_x b_z / 2, rho b_x b_y / 2; rho b_x (b_y^4 + b_z^4) / 64, ...]``."""
    x, y, z = boxes[:, 0], boxes[:, 1], boxes[:, 2]
    s = (x + y + z) / 3.0
    viscous = np.column_stack([np.repeat((3.0 * np.pi * s * viscosity)[:, None], 3, axis=1),
                               np.repeat((np.pi * s ** 3 * viscosity)[:, None], 3, axis=1)])
    quadratic = density * np.column_stack([0.5 * y * z, 0.5 * x * z, 0.5 * x * y, x * (y ** 4 + z ** 4) / 64.0,
                                           y * (x ** 4 + z ** 4) / 64.0, z * (x ** 4 + y ** 4) / 64.0])
    return np.ascontiguousarray(viscous).reshape(-1, 6), np.ascontiguousarray(quadratic).reshape(-1, 6)


# ------------------------------------------------------------------------------------------------- Python stage
def add_implicit(passive: PassiveForces, M: np.ndarray, dt: float) -> None:
    """``M += dt^2 K + (dt d + dt^2 k) A_v^T A_v``: the implicit terms of the springs and tendon dampers (the
    joint damping's ``dt D`` is added by the caller), in place."""
    M[passive.spring_v, passive.spring_v] += dt * dt * passive.spring_k
    for t in np.flatnonzero((passive.tendon_k != 0.0) | (passive.tendon_d != 0.0)):
        a = passive.tendon_v[t]
        M += (dt * passive.tendon_d[t] + dt * dt * passive.tendon_k[t]) * np.outer(a, a)


def passive_force(passive: PassiveForces, q, v, dt, J, oMi, support, gravity) -> np.ndarray:
    """The passive generalized force ``(nv,)`` at ``(q, v)`` (see the module), with the springs' implicit term
    ``-dt K v``: ``J (6, nv)`` the world joint Jacobian columns, ``oMi (njoints, 3, 4)`` the joint placements,
    ``support (njoints, nv)`` 1 on the dofs that support each joint, ``gravity (3,)``."""
    tau = np.zeros(len(v))
    sv, sq = passive.spring_v, passive.spring_q
    tau[sv] -= passive.spring_k * (q[sq] - passive.spring_ref + dt * v[sv])
    length, rate = passive.tendon_q @ q, passive.tendon_v @ v
    tau -= passive.tendon_v.T @ (passive.tendon_k * (length - passive.tendon_length0 + dt * rate)
                                 + passive.tendon_d * rate)
    if not (passive.gravcomp_joint.size or passive.fluid_joint.size):
        return tau
    wrenches = np.zeros((oMi.shape[0], 6))  # world wrenches [F; moment about the origin]
    for j, (mass, *lever) in zip(passive.gravcomp_joint, passive.gravcomp):
        c = oMi[j, :, :3] @ lever + oMi[j, :, 3]
        F = -mass * np.asarray(gravity, dtype=float)
        wrenches[j] += np.concatenate([F, np.cross(c, F)])
    if passive.fluid_joint.size:
        twists = np.einsum("in,jn,n->ji", J, support, v)  # each joint's world twist [v at the origin; w]
        for j, R_l, p_l, b, a in zip(passive.fluid_joint, passive.fluid_R, passive.fluid_p, passive.fluid_viscous,
                                     passive.fluid_quadratic):
            R, c = oMi[j, :, :3] @ R_l, oMi[j, :, :3] @ p_l + oMi[j, :, 3]
            w = twists[j, 3:]
            u = np.concatenate([R.T @ (twists[j, :3] + np.cross(w, c) - passive.wind), R.T @ w])
            f = -(b + a * np.abs(u)) * u
            F, N = R @ f[:3], R @ f[3:]
            wrenches[j] += np.concatenate([F, N + np.cross(c, F)])
    return tau + np.einsum("in,jn,ji->n", J, support, wrenches)


# ------------------------------------------------------------------------------------------------- compiled stage
@njit(cache=True, refcount=False)
def add_implicit_terms(M, dt, spring_v, spring_k, tendon_v, tendon_k, tendon_d):
    """:func:`add_implicit` compiled: ``M += dt^2 K + (dt d + dt^2 k) A_v^T A_v`` in place."""
    for s in range(spring_v.shape[0]):
        i = spring_v[s]
        M[i, i] += dt * dt * spring_k[s]
    for t in range(tendon_v.shape[0]):
        c = dt * tendon_d[t] + dt * dt * tendon_k[t]
        if c == 0.0:
            continue
        a = tendon_v[t]
        for r in range(a.shape[0]):
            if a[r] != 0.0:
                for s in range(a.shape[0]):
                    M[r, s] += c * a[r] * a[s]


@njit(cache=True, refcount=False)
def add_passive_forces(q, v, dt, spring_q, spring_v, spring_k, spring_ref, tendon_q, tendon_v, tendon_k, tendon_d,
                       tendon_length0, gravcomp_joint, gravcomp, fluid_joint, fluid_R, fluid_p, fluid_viscous,
                       fluid_quadratic, wind, gravity, oMi, Jw, tree, room, velocities, tau):
    """:func:`passive_force` compiled, added to ``tau (nv,)``: ``Jw (nv, 6)`` the world joint Jacobian columns,
    ``oMi (njoints, 3, 4)``, ``tree (njoints, 3)`` each joint's parent, first dof and number of dofs, ``room (2,
    njoints, 6)`` for the joints' twists and wrenches and ``velocities (1, nv)`` for ``v`` (the twists are
    ``speculative.joint_twists``'s). Allocates nothing. The bodies' wrenches are summed over each subtree from the
    leaves, each joint's dofs taking ``J_i . W_subtree``."""
    for s in range(spring_v.shape[0]):
        i = spring_v[s]
        tau[i] -= spring_k[s] * (q[spring_q[s]] - spring_ref[s] + dt * v[i])
    for t in range(tendon_v.shape[0]):
        if tendon_k[t] == 0.0 and tendon_d[t] == 0.0:
            continue
        length, rate = 0.0, 0.0
        for i in range(q.shape[0]):
            length += tendon_q[t, i] * q[i]
        for i in range(v.shape[0]):
            rate += tendon_v[t, i] * v[i]
        force = tendon_k[t] * (length - tendon_length0[t] + dt * rate) + tendon_d[t] * rate
        for i in range(v.shape[0]):
            tau[i] -= tendon_v[t, i] * force
    if gravcomp_joint.shape[0] == 0 and fluid_joint.shape[0] == 0:
        return
    twists, wrenches = room[0:1], room[1]
    for j in range(wrenches.shape[0]):
        for k in range(6):
            wrenches[j, k] = 0.0
    for g in range(gravcomp_joint.shape[0]):
        j, mass = gravcomp_joint[g], gravcomp[g, 0]
        c0, c1, c2 = _point(oMi[j], gravcomp[g, 1], gravcomp[g, 2], gravcomp[g, 3])
        _add_wrench(wrenches[j], c0, c1, c2, -mass * gravity[0], -mass * gravity[1], -mass * gravity[2],
                    0.0, 0.0, 0.0)
    if fluid_joint.shape[0] > 0:
        for i in range(v.shape[0]):
            velocities[0, i] = v[i]
        joint_twists(Jw, tree, velocities, twists)
    for b in range(fluid_joint.shape[0]):
        j = fluid_joint[b]
        X, Rl, V = oMi[j], fluid_R[b], twists[0, j]
        c0, c1, c2 = _point(X, fluid_p[b, 0], fluid_p[b, 1], fluid_p[b, 2])
        w0, w1, w2 = V[3], V[4], V[5]
        vc0 = V[0] + w1 * c2 - w2 * c1 - wind[0]  # v_c = v_o + w x c, less the wind
        vc1 = V[1] + w2 * c0 - w0 * c2 - wind[1]
        vc2 = V[2] + w0 * c1 - w1 * c0 - wind[2]
        F0, F1, F2, N0, N1, N2 = 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        for k in range(3):  # r = column k of R = X_R Rl: u_k = r . v_c, f_k = -(b_k + a_k |u_k|) u_k, F += r f_k
            r0 = X[0, 0] * Rl[0, k] + X[0, 1] * Rl[1, k] + X[0, 2] * Rl[2, k]
            r1 = X[1, 0] * Rl[0, k] + X[1, 1] * Rl[1, k] + X[1, 2] * Rl[2, k]
            r2 = X[2, 0] * Rl[0, k] + X[2, 1] * Rl[1, k] + X[2, 2] * Rl[2, k]
            ul, ua = r0 * vc0 + r1 * vc1 + r2 * vc2, r0 * w0 + r1 * w1 + r2 * w2
            fl = -(fluid_viscous[b, k] + fluid_quadratic[b, k] * abs(ul)) * ul
            fa = -(fluid_viscous[b, 3 + k] + fluid_quadratic[b, 3 + k] * abs(ua)) * ua
            F0, F1, F2 = F0 + r0 * fl, F1 + r1 * fl, F2 + r2 * fl
            N0, N1, N2 = N0 + r0 * fa, N1 + r1 * fa, N2 + r2 * fa
        _add_wrench(wrenches[j], c0, c1, c2, F0, F1, F2, N0, N1, N2)
    for j in range(tree.shape[0] - 1, 0, -1):  # tau_i = J_i . W_subtree(j) for the dofs i of joint j
        parent, first, count = tree[j, 0], tree[j, 1], tree[j, 2]
        for i in range(first, first + count):
            acc = 0.0
            for k in range(6):
                acc += Jw[i, k] * wrenches[j, k]
            tau[i] += acc
        for k in range(6):
            wrenches[parent, k] += wrenches[j, k]


@njit(cache=True, refcount=False)
def _point(X, x, y, z):
    """The world point of ``(x, y, z)`` given in the frame ``X (3, 4) = [R | p]``."""
    return (X[0, 0] * x + X[0, 1] * y + X[0, 2] * z + X[0, 3], X[1, 0] * x + X[1, 1] * y + X[1, 2] * z + X[1, 3],
            X[2, 0] * x + X[2, 1] * y + X[2, 2] * z + X[2, 3])


@njit(cache=True, refcount=False)
def _add_wrench(W, c0, c1, c2, F0, F1, F2, N0, N1, N2):
    """``W += [F; c x F + N]``: the force ``F`` at the world point ``c`` and the torque ``N``, at the origin."""
    W[0] += F0
    W[1] += F1
    W[2] += F2
    W[3] += c1 * F2 - c2 * F1 + N0
    W[4] += c2 * F0 - c0 * F2 + N1
    W[5] += c0 * F1 - c1 * F0 + N2
