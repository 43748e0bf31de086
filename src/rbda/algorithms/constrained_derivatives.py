"""Analytical derivatives of constrained forward dynamics and of impulse dynamics (in the tangent space).

Differentiating the KKT conditions (as in Carpentier, Budhiraja & Mansard, RSS 2021)

    r1 = ID(q, v, ddq) - J(q)^T lambda - tau = 0,    r2 = J(q) ddq + gamma(q, v) - a_c(q, v) = 0

at the solution gives, for each input x, ``[[M, -J^T], [J, 0]] [dddq; dlambda] = -[dr1/dx; dr2/dx]``, i.e.
``dlambda = G^-1 (J M^-1 dr1/dx - dr2/dx)``, ``dddq = M^-1 (J^T dlambda - dr1/dx)`` with ``G = J M^-1 J^T``.
``dr1/dq`` is the RNEA derivative with the constraint wrenches as external forces plus the change of those
wrenches' directions; ``dr2`` is the derivative of the constraint acceleration (frame or point accelerations
from :func:`rbda.compute_forward_kinematics_derivatives`) minus that of the Baumgarte corrector.

:func:`compute_constraint_dynamics_derivatives` runs as one compiled kernel (``kernels/constrained_derivatives.py``,
world-frame columns and a row-wise solve of the KKT system through the sparse factor of ``M``); the step-by-step
numpy form below serves models with mimic joints. :func:`compute_impulse_dynamics_derivatives` likewise (the same
kernel pieces and KKT row solve, on ``r1 = M(q) (v+ - v) - J^T P``, ``r2 = J(q) (v+ + e v)``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from collections.abc import Sequence

from ..model.constraints import CONTACT_3D, ProximalSettings, RigidConstraintData, RigidConstraintModel
from ..spatial import SE3, Jlog6, log6, motion_cross_matrix
from . import cholesky
from ._check import check_data
from ..kernels import constrained_derivatives as kd
from .._native.direct import direct
from ._check import report
from ._elementary import workspaces
from .constrained import (LOCAL, SINGULAR_SET, WORLD, _bind, _cholesky, _cho_solve, _settings, _world_jacobian,
                          constraint_kinematics)
from .delassus import delassus_factors
from .derivatives import (compute_forward_kinematics_derivatives, compute_generalized_gravity_derivatives,
                          compute_rnea_derivatives, get_joint_acceleration_derivatives)

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model

LWA = 2
_kd = direct(kd)  # the kernel, past numba's per-call dispatch


def _hat(u) -> np.ndarray:
    """``(3, 3)`` skew matrix of ``u`` (``_hat(u) @ x = u x x``), without argument checks: the derivatives build
    dozens per call."""
    x, y, z = u
    return np.array(((0.0, -z, y), (z, 0.0, -x), (-y, x, 0.0)))


def _force_cross_columns(W: np.ndarray) -> np.ndarray:
    """``(6, 6)`` matrix of ``m -> m x* W`` for a fixed force ``W = [f; tau]``: ``[[0, -f^], [-f^, -tau^]]``."""
    F, T = _hat(W[:3]), _hat(W[3:])
    return np.block([[np.zeros((3, 3)), -F], [-F, -T]])


def _rotate_blocks(R, y, rows: int) -> np.ndarray:
    """``(rows, 3)``: the derivative of ``R y`` (each 3-block of ``y`` in a frame of rotation ``R``) with respect
    to that frame's own angular velocity, ``d(R y) = R (w x y) = -R y^ w``."""
    return np.vstack([-R @ _hat(y[k:k + 3]) for k in range(0, rows, 3)])


class _Frame:
    """Derivatives of the frame ``placement`` on ``joint`` (LOCAL, its own axes) after the kinematics
    derivatives at ``(q, v, a)``: velocity/acceleration values and their ``dq``/``dv`` Jacobians ``(6, nv)``,
    the world Jacobian ``Jw`` and its point-velocity rows ``Jp`` at the frame's origin."""

    def __init__(self, model, data, joint, placement, cols, point: bool, world: bool):
        nv = model.nv
        self.Jw = _world_jacobian(model, data, joint, cols)
        self.oM = data.oMi[joint] * placement
        p = self.oM.translation
        self.Jp = self.Jw[:3] - _hat(p) @ self.Jw[3:]
        zero = np.zeros((6, nv))
        if joint == 0:
            self.v, self.a = np.zeros(6), np.zeros(6)
            self.v_dq = self.v_dv = self.a_dq = self.a_dv = zero
            self.pv_dq = self.pa_dq = self.pa_dv = zero[:3]
            self.ov_dq = self.oa_dq = self.oa_dv = zero
            return
        Ainv = placement.action_inverse
        self.v, self.a = Ainv @ data.v[joint], Ainv @ data.a[joint]
        v_dq, a_dq, a_dv, _ = get_joint_acceleration_derivatives(model, data, joint, LOCAL)
        self.v_dq, self.a_dq, self.a_dv = Ainv @ v_dq, Ainv @ a_dq, Ainv @ a_dv
        self.v_dv = self.oM.action_inverse @ self.Jw  # the frame's LOCAL Jacobian
        if point:  # world-axes velocity and classical acceleration c = R (a_lin + w x v_lin) of the origin,
            R, (lin, w) = self.oM.rotation, (self.v[:3], self.v[3:])  # with d(R x) = R (x + dw x x)
            c_local = self.a[:3] + _hat(w) @ lin
            Jl, Ja = self.v_dv[:3], self.v_dv[3:]
            self.pv_dq = R @ (self.v_dq[:3] - _hat(lin) @ Ja)
            self.pa_dq = R @ (self.a_dq[:3] - _hat(lin) @ self.v_dq[3:] + _hat(w) @ self.v_dq[:3]
                              - _hat(c_local) @ Ja)
            self.pa_dv = R @ (self.a_dv[:3] - _hat(lin) @ Ja + _hat(w) @ Jl)
        if world:  # the world-frame spatial velocity and acceleration of the body
            self.ov_dq, self.oa_dq, self.oa_dv, _ = get_joint_acceleration_derivatives(model, data, joint, WORLD)


def _constraint_terms(model, data, cm, cd, lam):
    """For one constraint at the current state: ``(dc_dq, dc_dv, dev_dq, dep_dq)`` ``(size, nv)``, the partials
    of the constraint acceleration ``c = J ddq + gamma`` and of the velocity and placement errors, and the bodies'
    world wrenches with their q derivatives ``[(Jw, W, dW_dq)]`` for joint 1 and joint 2."""
    is3d, rf = cm.type == CONTACT_3D, cm.reference_frame
    f1 = _Frame(model, data, cm.joint1_id, cm.joint1_placement, cm.columns1, is3d, rf == WORLD)
    f2 = _Frame(model, data, cm.joint2_id, cm.joint2_placement, cm.columns2, is3d, rf == WORLD)
    J = cd.jacobian
    R1, p1, p2 = f1.oM.rotation, f1.oM.translation, f2.oM.translation
    w1 = R1.T @ f1.Jw[3:]  # c1's angular velocity Jacobian, c1's axes
    if is3d:
        t = cm.desired_contact_placement.translation
        c = (R1 @ (f1.a[:3] + _hat(f1.v[3:]) @ f1.v[:3])
             - f2.oM.rotation @ (f2.a[:3] + _hat(f2.v[3:]) @ f2.v[:3]))  # world relative acceleration
        dc_dq, dc_dv = f1.pa_dq - f2.pa_dq, f1.pa_dv - f2.pa_dv
        dev_dq = f1.pv_dq - f2.pv_dq
        dep_dq = (f1.Jp - f2.Jp) - R1 @ _hat(t) @ w1
        f = lam[:3] if rf != LOCAL else R1 @ lam[:3]
        df = np.zeros((3, model.nv)) if rf != LOCAL else -_hat(f) @ f1.Jw[3:]
        if rf == LOCAL:  # d(R1^T y) = R1^T dy + (R1^T y)^ w1
            ev, ep = cd.contact_velocity_error[:3], cd.contact_placement_error[:3]
            dc_dq = R1.T @ dc_dq + _hat(R1.T @ c) @ w1
            dc_dv = R1.T @ dc_dv
            dev_dq = R1.T @ dev_dq + _hat(ev) @ w1
            dep_dq = R1.T @ (f1.Jp - f2.Jp) + _hat(ep - t) @ w1
        wrenches = [(f1.Jw, np.r_[f, _hat(p1) @ f], np.vstack([df, _hat(p1) @ df - _hat(f) @ f1.Jp])),
                    (f2.Jw, -np.r_[f, _hat(p2) @ f], -np.vstack([df, _hat(p2) @ df - _hat(f) @ f2.Jp]))]
    else:
        X = cd.c1Mc2
        AX, Xv2, Xa2 = X.action, X.action @ f2.v, X.action @ f2.a
        JL = {LOCAL: J, LWA: np.vstack([R1.T @ J[:3], R1.T @ J[3:]]), WORLD: f1.oM.action_inverse @ J}[rf]
        ad = motion_cross_matrix
        dv_rel = f1.v_dq - AX @ f2.v_dq - ad(Xv2) @ JL  # d(v1 - X v2)/dq
        Y = X * cm.desired_contact_placement.inverse()
        epL = -_log6(Y)
        depL = Jlog6(Y) @ Y.action_inverse @ JL
        if rf == LOCAL:
            dc_dq = (f1.a_dq - AX @ f2.a_dq - ad(Xa2) @ JL - ad(Xv2) @ f1.v_dq
                     + ad(f1.v) @ (AX @ f2.v_dq + ad(Xv2) @ JL))
            dc_dv = f1.a_dv - AX @ f2.a_dv - ad(Xv2) @ f1.v_dv + ad(f1.v) @ AX @ f2.v_dv
            dev_dq, dep_dq = dv_rel, depL
        elif rf == LWA:
            T = np.kron(np.eye(2), R1)
            y = f1.a - Xa2
            dc_dq = T @ (f1.a_dq - AX @ f2.a_dq - ad(Xa2) @ JL) + _rotate_blocks(R1, y, 6) @ w1
            dc_dv = T @ (f1.a_dv - AX @ f2.a_dv)
            dev_dq = T @ dv_rel + _rotate_blocks(R1, f1.v - Xv2, 6) @ w1
            dep_dq = T @ depL + _rotate_blocks(R1, epL, 6) @ w1
        else:
            A = f1.oM.action
            dc_dq, dc_dv = f1.oa_dq - f2.oa_dq, f1.oa_dv - f2.oa_dv
            dev_dq = f1.ov_dq - f2.ov_dq
            J1L = f1.oM.action_inverse @ f1.Jw
            dep_dq = A @ (depL - ad(epL) @ J1L)
        if rf == LOCAL:
            W = f1.oM.dual_action @ lam
            dW = _force_cross_columns(W) @ f1.Jw
        elif rf == LWA:
            W = np.r_[lam[:3], _hat(p1) @ lam[:3] + lam[3:]]
            dW = np.vstack([np.zeros((3, model.nv)), -_hat(lam[:3]) @ f1.Jp])
        else:
            W, dW = lam.copy(), np.zeros((6, model.nv))
        wrenches = [(f1.Jw, W, dW), (f2.Jw, -W, -dW)]
    return dc_dq, dc_dv, dev_dq, dep_dq, wrenches


def _log6(M: SE3) -> np.ndarray:
    return log6(M).vector


def _joint_force(data, joint, W) -> np.ndarray:
    """The world wrench ``W`` (at the origin) in joint ``joint``'s frame."""
    return data.oMi[joint].dual_action_inverse @ W


def _kkt_derivatives(model, data, J, G_factor, r1, r2):
    """``(dddq, dlambda)`` from ``dlambda = G^-1 (J M^-1 r1 - r2)``, ``dddq = M^-1 (J^T dlambda - r1)``."""
    Minv_r1 = cholesky.solve(model, data, r1)
    dlam = _cho_solve(G_factor, J @ Minv_r1 - r2)
    return cholesky.solve(model, data, J.T @ dlam) - Minv_r1, dlam


def _derivatives(model, data, contact_models, contact_datas, q, v, acc, lam, settings):
    """The partials of ``r1 = ID(q, v, acc) - J^T lam`` and ``r2 = J acc + gamma - a_c`` at the state:
    ``(J, factor of G, dr1_dq, dr1_dv, dr2_dq, dr2_dv)``."""
    nv = model.nv
    compute_forward_kinematics_derivatives(model, data, q, v, acc)
    fext = np.zeros((model.njoints, 6))
    r1_q_correction = np.zeros((nv, nv))
    r2_q, r2_v, r = [], [], 0
    for cm, cd in zip(contact_models, contact_datas):
        dc_dq, dc_dv, dev_dq, dep_dq, wrenches = _constraint_terms(model, data, cm, cd, lam[r:r + cm.size])
        Kp, Kd = cm.corrector.Kp, cm.corrector.Kd  # a_c = a_des - Kp e_p - Kd (e_v - v_des), de_v/dv = J
        r2_q.append(dc_dq + Kp * dep_dq + Kd * dev_dq)
        r2_v.append(dc_dv + Kd * cd.jacobian)
        for (Jw, W, dW), joint in zip(wrenches, (cm.joint1_id, cm.joint2_id)):
            if joint:
                fext[joint] += _joint_force(data, joint, W)
                r1_q_correction -= Jw.T @ (dW - _force_cross_columns(W) @ Jw)
        r += cm.size
    dtau_dq, dtau_dv, _ = compute_rnea_derivatives(model, data, q, v, acc, fext)
    J = np.vstack([cd.jacobian for cd in contact_datas])
    r1_q = dtau_dq + r1_q_correction
    cholesky.decompose(model, data)
    _, G = delassus_factors(model, data, J)
    factor = _cholesky(G, settings.mu)
    return J, factor, r1_q, dtau_dv, np.vstack(r2_q), np.vstack(r2_v)


def _last_call(model, data, contact_models, contact_datas, prox_settings, kind: str, call: str):
    """Checked arguments, ``(settings, inputs, packed)`` of the last constrained call of ``kind`` on ``data``
    (``packed``: the constraint set bound to ``data`` at that call, ``(CI, CF, R, Jc, rhs, work, stats)`` as
    ``constrained._bind``, holding that call's records, Jacobian, forces and Delassus matrix)."""
    check_data(model, data)
    settings = _settings(prox_settings)
    state, forward = data.constraint_state, data.constraint_binding
    packed = _bind(model, data, contact_models, contact_datas)  # checks a set it has not bound
    if state is None or state[0] != kind or forward is None:
        raise ValueError(f"data: call {call} first")
    if forward[1][3].shape != packed[3].shape:
        raise ValueError(f"contact_models: not the constraint set of the last call of {call.split('(')[0]}")
    return settings, state[1:], forward[1]


def compute_constraint_dynamics_derivatives(model: Model, data: Data, contact_models: Sequence[RigidConstraintModel],
                                            contact_datas: Sequence[RigidConstraintData],
                                            prox_settings: ProximalSettings | None = None) -> tuple:
    """Partial derivatives of :func:`rbda.constraint_dynamics` at its last call (same model, data and
    constraints): ``(ddq_dq, ddq_dv, ddq_dtau)`` ``(nv, nv)`` and ``(dlambda_dq, dlambda_dv, dlambda_dtau)``
    ``(m, nv)``, derivatives with respect to ``q`` taken in the tangent space (through ``integrate``), with the
    forces ``lambda`` in each constraint's frame (so their change of frame is included) and the Baumgarte
    corrector's dependence on ``q`` and ``v`` included.

    New arrays, also in ``data.ddq_dq``, ``data.ddq_dv``, ``data.ddq_dtau``, ``data.dlambda_dq``, ``data.dlambda_dv``,
    ``data.dlambda_dtau``. ``prox_settings``: its ``mu`` damps ``G`` as in the solve (for redundant sets).
    ``contact_models``, ``contact_datas``: the constraint set of that call. Raises ValueError if
    :func:`rbda.constraint_dynamics` was not called first with this data.
    """
    settings, (q, v, _), packed = _last_call(model, data, contact_models, contact_datas, prox_settings, "dynamics",
                                     "constraint_dynamics(model, data, q, v, tau, contact_models, contact_datas)")
    if model.mimicking_joints:
        return _constraint_dynamics_derivatives_python(model, data, contact_models, contact_datas, q, v, settings)
    I, F, ws, dws, CI, CF = _compiled_inputs(model, data, packed)
    nv, m = model.nv, len(data.lambda_c)
    _, work, dlam_dq, dlam_dv, dlam_dtau = _buffers(data, "constraint derivatives", m, nv, len(CI), 3)
    if data.ddq_dtau.shape != (nv, nv):
        data.ddq_dtau = np.zeros((nv, nv))
    data.kinematics_derivatives = False  # the derivative workspace now holds the dynamics' columns
    status = _kd.constraint_dynamics_derivatives(I, F, ws, dws, data._cholesky_L, data.D, data.Dinv, q, v,
                                                 data.ddq, CI, CF, *packed[2:4], packed[5], float(settings.mu), work,
                                                 data.ddq_dtau, dlam_dq, dlam_dv, dlam_dtau)
    if status:
        if status == kd.SINGULAR_SET:
            raise ValueError(SINGULAR_SET)
        report(status, ("q", "v", "ddq"), model, (q, v, data.ddq))
    data.dlambda_dq, data.dlambda_dv, data.dlambda_dtau = dlam_dq, dlam_dv, dlam_dtau
    return tuple(X.copy() for X in (data.ddq_dq, data.ddq_dv, data.ddq_dtau, dlam_dq, dlam_dv, dlam_dtau))


def _compiled_inputs(model, data, packed):
    """``(I, F, ws, dws, CI, CF)`` for the compiled derivatives: the model's packed arrays (its elementary twin's
    where it has one, with the constraints' joint ids mapped onto it)."""
    I, F, ws, dws, elementary = workspaces(model, data)
    CI, CF = packed[:2]
    if elementary is not None:  # the constraints' joints on the elementary twin
        CI = CI.copy()
        CI[:, 2:] = elementary[1][CI[:, 2:]]
    return I, F, ws, dws, CI, CF


def _buffers(data, kind: str, m: int, nv: int, nc: int, results: int, F=None) -> tuple:
    """``data``'s derivative workspace for ``kind``: ``(key, work, *results (m, nv) arrays)``, kept while the
    sizes stay; given the model's packed floats ``F``, also ``(F, F without gravity)``, kept while ``F`` is."""
    key = (kind, m, nc)
    buffers = data.constraint_derivative_buffers
    if buffers is None or buffers[0] != key or (F is not None and buffers[-1][0] is not F):
        buffers = (key, np.zeros(kd.work_size(m, nv)), *(np.zeros((m, nv)) for _ in range(results)))
        if F is not None:
            buffers += ((F, kd.without_gravity(F)),)
        data.constraint_derivative_buffers = buffers
    return buffers


def _constraint_dynamics_derivatives_python(model, data, contact_models, contact_datas, q, v, settings):
    """:func:`compute_constraint_dynamics_derivatives` step by step through the public algorithms (models with
    mimic joints, whose Jacobian columns come from their extended twin)."""
    ddq, lam = data.ddq.copy(), data.lambda_c.copy()
    J, factor, r1_q, r1_v, r2_q, r2_v = _derivatives(model, data, contact_models, contact_datas, q, v, ddq, lam,
                                                     settings)
    ddq_dq, dlam_dq = _kkt_derivatives(model, data, J, factor, r1_q, r2_q)
    ddq_dv, dlam_dv = _kkt_derivatives(model, data, J, factor, r1_v, r2_v)
    ddq_dtau, dlam_dtau = _kkt_derivatives(model, data, J, factor, -np.eye(model.nv), np.zeros_like(J))
    data.ddq[:], data.lambda_c = ddq, lam
    return _store(data, ddq_dq=ddq_dq, ddq_dv=ddq_dv, ddq_dtau=ddq_dtau, dlambda_dq=dlam_dq, dlambda_dv=dlam_dv,
                  dlambda_dtau=dlam_dtau)


def _store(data, **results):
    """Write each result into ``data``'s field of that name (in place when it has the shape: ``ddq_dq`` and
    ``ddq_dv`` are views of the derivative workspace); returns copies of them as a tuple."""
    for name, value in results.items():
        target = getattr(data, name, None)
        if isinstance(target, np.ndarray) and target.shape == value.shape:
            target[...] = value
        else:
            setattr(data, name, value)
    return tuple(getattr(data, name).copy() for name in results)


def compute_impulse_dynamics_derivatives(model: Model, data: Data, contact_models: Sequence[RigidConstraintModel],
                                         contact_datas: Sequence[RigidConstraintData],
                                         prox_settings: ProximalSettings | None = None) -> tuple:
    """Partial derivatives of :func:`rbda.impulse_dynamics` (constraint-model form) at its last call:
    ``(dvafter_dq, dvafter_dv)`` ``(nv, nv)`` and ``(dimpulse_dq, dimpulse_dv)`` ``(m, nv)`` (``q`` in the
    tangent space, ``v`` the velocity before the impact). The impact is the KKT system
    ``r1 = M(q) (v+ - v) - J^T P = 0``, ``r2 = J (v+ + e v) = 0``, differentiated as in
    :func:`compute_constraint_dynamics_derivatives`. New arrays, also in ``data.dvafter_dq``, ``data.dvafter_dv``,
    ``data.dimpulse_dq``, ``data.dimpulse_dv``. ``contact_models``, ``contact_datas`` and ``prox_settings`` are
    those of that call. Raises ValueError if :func:`rbda.impulse_dynamics` was not called first with this data.
    """
    settings, (q, v, e), packed = _last_call(model, data, contact_models, contact_datas, prox_settings, "impulse",
                                     "impulse_dynamics(model, data, q, v, contact_models, contact_datas, r_coeff)")
    if model.mimicking_joints:
        return _impulse_dynamics_derivatives_python(model, data, contact_models, contact_datas, q, v, e, settings)
    I, F, ws, dws, CI, CF = _compiled_inputs(model, data, packed)
    nv, m = model.nv, len(data.impulse_c)
    _, work, dP_dq, dP_dv, (_, F0) = _buffers(data, "impulse derivatives", m, nv, len(CI), 2, F)
    for name in ("dvafter_dq", "dvafter_dv"):
        if getattr(data, name).shape != (nv, nv):
            setattr(data, name, np.zeros((nv, nv)))
    data.kinematics_derivatives = False  # the derivative workspace now holds the impulses' columns
    status = _kd.impulse_dynamics_derivatives(I, F0, ws, dws, data._cholesky_L, data.D, data.Dinv, q, v, float(e),
                                              data.dq_after, CI, CF, *packed[2:4], packed[5], float(settings.mu),
                                              work, data.dvafter_dq, data.dvafter_dv, dP_dq, dP_dv)
    if status:
        if status == kd.SINGULAR_SET:
            raise ValueError(SINGULAR_SET)
        report(status, ("q", "v", "dq_after"), model, (q, v, data.dq_after))
    data.dimpulse_dq, data.dimpulse_dv = dP_dq, dP_dv
    return tuple(X.copy() for X in (data.dvafter_dq, data.dvafter_dv, dP_dq, dP_dv))


def _impulse_dynamics_derivatives_python(model, data, contact_models, contact_datas, q, v, e, settings):
    """:func:`compute_impulse_dynamics_derivatives` step by step through the public algorithms (models with
    mimic joints)."""
    v_after, P = data.dq_after.copy(), data.impulse_c.copy()
    # r1 = M(q) (v+ - v) - J^T P = ID(q, 0, v+ - v) - g(q) - J^T P;  r2 = J(q) (v+ + e v)
    J, factor, r1_q, _, _, _ = _derivatives(model, data, contact_models, contact_datas, q, np.zeros(model.nv),
                                            v_after - v, P, settings)
    r1_q = r1_q - compute_generalized_gravity_derivatives(model, data, q)
    r2_q = _constraint_velocity_dq(model, data, contact_models, q, v_after + e * v)
    cholesky.decompose(model, data)
    dv_dq, dP_dq = _kkt_derivatives(model, data, J, factor, r1_q, r2_q)
    dv_dv, dP_dv = _kkt_derivatives(model, data, J, factor, -data.M, e * J)
    data.dq_after[:], data.impulse_c = v_after, P
    return _store(data, dvafter_dq=dv_dq, dvafter_dv=dv_dv, dimpulse_dq=dP_dq, dimpulse_dv=dP_dv)


def _constraint_velocity_dq(model, data, contact_models, q, w):
    """``d(J(q) w)/dq`` ``(m, nv)`` for a fixed ``w``: the velocity errors' q-derivatives at velocity ``w``
    (computed on fresh constraint datas, so that the caller's keep the impact's state)."""
    compute_forward_kinematics_derivatives(model, data, q, w, np.zeros(model.nv))
    rows = []
    for cm in contact_models:
        cd = cm.create_data()
        constraint_kinematics(model, data, cm, cd)
        rows.append(_constraint_terms(model, data, cm, cd, np.zeros(cm.size))[2])
    return np.vstack(rows)


__all__ = ["compute_constraint_dynamics_derivatives", "compute_impulse_dynamics_derivatives"]
