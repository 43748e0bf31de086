"""Constrained dynamics: rigid contacts and loop closures (Pinocchio's ``constraintDynamics`` family).

The equations of motion under rigid constraints ``J ddq + gamma = a_c`` (``rbda.model.constraints``) are the KKT
system (Carpentier, Budhiraja & Mansard, RSS 2021)

    [ M   J^T ] [  ddq    ]   [ tau - nle   ]
    [ J   0   ] [ -lambda ] = [ a_c - gamma ]

with ``lambda`` the constraint forces, ``M ddq + nle = tau + J^T lambda``. It is solved through the sparse
factorisation of ``M = U D U^T`` along the tree (``rbda.cholesky``): the Delassus matrix ``G = J M^-1 J^T =
Y^T D^-1 Y`` with ``Y = U^-1 J^T`` (sparse columns), then the paper's proximal iterations
``(G + mu I) lambda_k+1 = mu lambda_k - (J M^-1 (tau - nle) + gamma - a_c)`` on the small dense ``G``, and
``ddq = M^-1 (tau - nle + J^T lambda)``. ``mu = 0`` is the exact solve (one iteration). These steps run in
one compiled kernel (``kernels/constrained.py``); models with mimic joints go through the public algorithms.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..model.constraints import CONTACT_3D, ProximalSettings, RigidConstraintData, RigidConstraintModel
from ..spatial import Motion, ReferenceFrame, log6
from . import cholesky
from ..kernels import constrained as kc
from .._native.direct import direct
from ..kernels.checks import SINGULAR
from ._check import check_data, report, vector
from .delassus import delassus_factors, jacobian_arg
from .dynamics import crba, nonlinear_effects
from .jacobian import get_joint_jacobian
from .kinematics import forward_kinematics

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model
    from numpy.typing import ArrayLike

_kc = direct(kc)  # the kernels, past numba's per-call dispatch
LOCAL, WORLD, LWA = ReferenceFrame.LOCAL, ReferenceFrame.WORLD, ReferenceFrame.LOCAL_WORLD_ALIGNED
SINGULAR_SET = ("contact_models: the constraint set is redundant or conflicting (its Delassus matrix J M^-1 J^T "
                "is singular); solve it with proximal iterations, e.g. ProximalSettings(accuracy=1e-12, mu=1e-8, "
                "max_iter=100)")
SINGULAR_J = ("J: is rank-deficient (J M^-1 J^T is singular: redundant or conflicting rows); pass "
              "inv_damping > 0")


# ------------------------------------------------------------------------------------------------ arguments
def check_constraints(model: Model, contact_models, contact_datas) -> int:
    """Validate the constraint lists; returns the total constraint size ``m``."""
    if isinstance(contact_models, RigidConstraintModel) or not isinstance(contact_models, Sequence):
        raise TypeError("contact_models: expected a list of RigidConstraintModel")
    if isinstance(contact_datas, RigidConstraintData) or not isinstance(contact_datas, Sequence):
        raise TypeError("contact_datas: expected a list of RigidConstraintData")
    if len(contact_models) != len(contact_datas):
        raise ValueError(f"contact_datas: {len(contact_datas)} datas for {len(contact_models)} contact models; "
                         "use [cm.create_data() for cm in contact_models]")
    m = 0
    for k, (cm, cd) in enumerate(zip(contact_models, contact_datas)):
        if not isinstance(cm, RigidConstraintModel):
            raise TypeError(f"contact_models[{k}]: expected a RigidConstraintModel, got {type(cm).__name__}")
        if not isinstance(cd, RigidConstraintData):
            raise TypeError(f"contact_datas[{k}]: expected a RigidConstraintData, got {type(cd).__name__}")
        if cm.model_sizes != (model.njoints, model.nv):
            raise ValueError(f"contact_models[{k}]: was built for another model (njoints, nv) = {cm.model_sizes}")
        if cd.size != cm.size or cd.jacobian.shape[1] != model.nv:
            raise ValueError(f"contact_datas[{k}]: does not match contact_models[{k}] (sizes differ); use "
                             "contact_models[k].create_data()")
        m += cm.size
    return m


def _settings(prox_settings) -> ProximalSettings:
    if prox_settings is None:
        return ProximalSettings()
    if not isinstance(prox_settings, ProximalSettings):
        raise TypeError(f"prox_settings: expected a ProximalSettings, got {type(prox_settings).__name__}")
    if not prox_settings.mu >= 0.0:
        raise ValueError(f"prox_settings.mu: must be >= 0, got {prox_settings.mu}")
    return prox_settings


def init_constraint_dynamics(model: Model, data: Data, contact_models: Sequence[RigidConstraintModel],
                             contact_datas: Sequence[RigidConstraintData] | None = None) -> None:
    """Prepare ``data`` for :func:`constraint_dynamics` with the constraint set ``contact_models`` and their
    ``contact_datas`` (created when None): checks the lists, allocates the
    packed constraints and result buffers (``data.constraint_binding``; the datas' records and Jacobians become
    views of them) and sizes ``data.lambda_c`` ``(m,)`` (``m`` the sum of the constraint sizes). Optional: the
    first call with a new set does it. Raises as :func:`constraint_dynamics`."""
    check_data(model, data)
    if contact_datas is None:
        contact_datas = [cm.create_data() for cm in contact_models]
    m = check_constraints(model, contact_models, contact_datas)
    _bind(model, data, contact_models, contact_datas)
    if data.lambda_c.shape != (m,):
        data.lambda_c, data.impulse_c = np.zeros(m), np.zeros(m)


# ------------------------------------------------------------------------------------------------ kinematics
def _world_jacobian(model, data, joint_id: int, cols) -> np.ndarray:
    """World-frame Jacobian ``(6, nv)`` of joint ``joint_id`` (``cols``: its supporting dofs) from the columns
    ``data.J`` of the last :func:`rbda.crba`; through :func:`rbda.get_joint_jacobian` for a model with mimic joints."""
    if model.mimicking_joints:
        return get_joint_jacobian(model, data, joint_id, WORLD) if joint_id else np.zeros((6, model.nv))
    out = np.zeros((6, model.nv))
    out[:, cols] = data.J[:, cols]
    return out


def _point_rows(Jw, p):
    """World-axes Jacobian ``(3, nv)`` of the velocity of the point ``p`` (world) on the body of the world
    Jacobian ``Jw``: ``v_p = v_O + w x p = J_lin - p_x J_ang``."""
    return Jw[:3] - np.cross(p, Jw[3:].T).T


def _frame(data, joint_id, placement):
    """``(oMc, v_c, a_c)``: placement, local velocity and local drift acceleration of a frame on a joint."""
    oMc = data.oMi[joint_id] * placement
    if joint_id == 0:
        return oMc, Motion.Zero(), Motion.Zero()
    return (oMc, placement.act_inv(Motion(data.v[joint_id].copy())),
            placement.act_inv(Motion(data.a[joint_id].copy())))


def _classical(vel: Motion, acc: Motion) -> np.ndarray:
    return acc.linear + np.cross(vel.angular, vel.linear)


def constraint_kinematics(model, data, cm: RigidConstraintModel, cd: RigidConstraintData):
    """The readable form of the compiled ``kernels/constrained.py: constraint_rows``, used for models with mimic
    joints (whose ``data.J`` has a column per joint dof, mimic joints included). Fill ``cd`` (placements, velocities, errors, ``jacobian``, drift ``gamma`` and corrector ``a_c``) from
    ``data.oMi``, ``data.v``, ``data.a`` (the forward kinematics at ``ddq = 0``) and ``data.J`` (world columns).

    6D, c1's frame: ``J = Ad(oMc1)^-1 (J_1 - J_2)`` (world columns), ``e_v = v1 - X v2``, ``gamma = a1 - X a2 +
    v1 x X v2``, ``e_p = -log6(X Pd^-1)`` with ``X = c1Mc2``; LOCAL_WORLD_ALIGNED rotates those by ``oMc1``'s
    rotation, with ``gamma = R (a1 - X a2)`` (Pinocchio's convention); WORLD is ``Ad(oMc1)`` of them with
    ``gamma = oa1 - oa2``. 3D: the velocities of the two points, ``gamma`` their classical accelerations, ``e_p``
    the distance ``R1^T (p1 - p2) + Pd.t`` (LOCAL) or ``p1 - p2 + R1 Pd.t`` (world axes).
    """
    oMc1, v1, a1 = _frame(data, cm.joint1_id, cm.joint1_placement)
    oMc2, v2, a2 = _frame(data, cm.joint2_id, cm.joint2_placement)
    X = oMc1.inverse() * oMc2
    for offset, M in ((0, oMc1), (12, oMc2), (24, X)):
        cd.record[offset:offset + 12].reshape(3, 4)[:] = np.column_stack((M.rotation, M.translation))
    cd.contact1_velocity[:], cd.contact2_velocity[:] = v1.vector, v2.vector
    R1, p1, R2, p2 = oMc1.rotation, oMc1.translation, oMc2.rotation, oMc2.translation
    Pd, rf = cm.desired_contact_placement, cm.reference_frame
    n = cm.size
    J1 = _world_jacobian(model, data, cm.joint1_id, cm.columns1)
    J2 = _world_jacobian(model, data, cm.joint2_id, cm.columns2)
    if cm.type == CONTACT_3D:
        rows = _point_rows(J1, p1) - _point_rows(J2, p2)
        c1, c2 = R1 @ _classical(v1, a1), R2 @ _classical(v2, a2)  # world classical accelerations
        ev = R1 @ v1.linear - R2 @ v2.linear
        ep = p1 - p2 + R1 @ Pd.translation
        gamma = c1 - c2
        if rf == LOCAL:
            rows, ev, ep, gamma = R1.T @ rows, R1.T @ ev, R1.T @ ep, R1.T @ gamma
        cd.contact_velocity_error[:], cd.contact_placement_error[:] = 0.0, 0.0
        cd.contact_velocity_error[:3], cd.contact_placement_error[:3] = ev, ep
    else:
        Jd = J1 - J2
        Xv2 = X.act(v2)
        ev = (v1 - Xv2).vector
        ep = -log6(X * Pd.inverse()).vector
        if rf == WORLD:
            A = oMc1.action
            rows, ev, ep = Jd, A @ ev, A @ ep
            gamma = A @ a1.vector - oMc2.action @ a2.vector
        else:
            rows = Jd.copy()
            rows[:3] -= np.cross(p1, Jd[3:].T).T  # world axes at c1's origin (LOCAL_WORLD_ALIGNED)
            gamma = (a1 - X.act(a2)).vector
            if rf == LOCAL:
                rows = np.vstack((R1.T @ rows[:3], R1.T @ rows[3:]))
                gamma = gamma + v1.cross(Xv2).vector
            else:
                ev = np.concatenate((R1 @ ev[:3], R1 @ ev[3:]))
                ep = np.concatenate((R1 @ ep[:3], R1 @ ep[3:]))
                gamma = np.concatenate((R1 @ gamma[:3], R1 @ gamma[3:]))
        cd.contact_velocity_error[:], cd.contact_placement_error[:] = ev, ep
    Kp, Kd = cm.corrector.Kp, cm.corrector.Kd
    cd.jacobian[:] = rows
    cd.contact_acceleration_drift[:] = gamma
    cd.contact_acceleration_desired[:] = (cm.desired_contact_acceleration[:n] - Kp * cd.contact_placement_error[:n]
                                          - Kd * (cd.contact_velocity_error[:n] - cm.desired_contact_velocity[:n]))


def _bound(views, contact_models, contact_datas) -> bool:
    """Whether ``contact_models`` and ``contact_datas`` are the constraint set bound as ``views`` (each model's
    ``ints`` and ``params`` and each data's ``record`` still the rows of the packed arrays); identity tests only."""
    if (type(contact_models) not in (list, tuple) or type(contact_datas) not in (list, tuple)
            or len(contact_models) != len(views) or len(contact_datas) != len(views)):
        return False
    try:
        for (ints, params, record), cm, cd in zip(views, contact_models, contact_datas):
            if cm.params is not params or cd.record is not record or cm.ints is not ints:
                return False
    except AttributeError:  # not a constraint model or data: check_constraints names it
        return False
    return True


def _bind(model, data, contact_models, contact_datas):
    """The packed constraints and result buffers of this constraint set in ``data``: ``(CI, CF, R, Jc, rhs, work,
    stats)`` (and, in ``data.constraint_binding[2]``, the settings array of the kernels, the forces' array, the
    views of ``work`` that hold the kernels' copy of ``(q, v, tau)``, and the impulses' array). On the first call with these lists (or when one of them was bound to another data since), the
    lists are checked and each model's ``ints`` and ``params`` and each data's ``record`` and ``jacobian`` become
    views of the rows of ``CI``, ``CF``, ``R`` and ``Jc`` (their values copied in): the kernels then read the
    models' current values, edits in place and setters included, with no copy per call."""
    b = data.constraint_binding
    if b is not None and _bound(b[0], contact_models, contact_datas):
        return b[1]
    check_constraints(model, contact_models, contact_datas)
    nc, m = len(contact_models), sum(cm.size for cm in contact_models)
    CI, CF = np.zeros((nc, kc.CONSTRAINT_INTS), dtype=np.int64), np.zeros((nc, kc.CONSTRAINT_FLOATS))
    R, Jc, rhs = np.zeros((nc, kc.RECORD)), np.zeros((m, model.nv)), np.zeros(m)
    views, r = [], 0
    for k, (cm, cd) in enumerate(zip(contact_models, contact_datas)):
        CI[k], CF[k], R[k] = cm.ints, cm.params, cd.record
        cm.ints, cm.params, cd.record, cd.jacobian = CI[k], CF[k], R[k], Jc[r:r + cm.size]
        views.append((cm.ints, cm.params, cd.record))
        r += cm.size
    nq, nv = model.nq, model.nv
    work = np.zeros(kc.work_size(m, nv, nq))
    packed = (CI, CF, R, Jc, rhs, work, np.zeros(kc.STATS))
    o = len(work) - nq - 2 * nv  # the kernels' copy of the state (q, v, tau) of the call
    # the forces and the impulses in arrays of their own (the kernels' solution work[:m] is shared by both):
    # data.lambda_c and data.impulse_c are separate fields, as Pinocchio's
    results = (np.zeros(4), np.zeros(m), work[o:o + nq], work[o + nq:o + nq + nv], work[o + nq + nv:], np.zeros(m))
    data.constraint_binding = (tuple(views), packed, results)
    return packed


def _stack(model, data, contact_models, contact_datas):
    """``(J (m, nv), gamma - a_c (m,))`` of the constraint set in list order, from the kinematics in ``data``
    (at ``ddq = 0``); views of the bound buffers."""
    CI, CF, R, Jc, rhs, work, _ = _bind(model, data, contact_models, contact_datas)
    if model.mimicking_joints:
        r = 0
        for cm, cd in zip(contact_models, contact_datas):
            constraint_kinematics(model, data, cm, cd)
            rhs[r:r + cm.size] = cd.contact_acceleration_drift - cd.contact_acceleration_desired
            r += cm.size
    else:
        I, F = model.packed
        _kc.constraint_kinematics(I, F, data.ws, CI, CF, R, Jc, rhs, work)
    return Jc, rhs


def _scatter_forces(contact_models, contact_datas, lam) -> None:
    r = 0
    for cm, cd in zip(contact_models, contact_datas):
        cd.contact_force[:] = 0.0
        cd.contact_force[:cm.size] = lam[r:r + cm.size]
        r += cm.size


# ------------------------------------------------------------------------------------------------ solves
def _proximal_solve(G, b, settings: ProximalSettings) -> np.ndarray:
    """``lambda`` with ``G lambda + b = 0`` by the compiled proximal iterations (``kernels/constrained.py:
    proximal_solve``: one exact solve for ``mu = 0``, which raises if ``G`` is singular); fills the settings'
    ``iter`` and residuals."""
    m = len(b)
    lam, previous, residual, stats = np.zeros(m), np.zeros(m), np.zeros(m), np.zeros(kc.STATS)
    if not _kc.proximal_solve(np.ascontiguousarray(G), np.zeros((m, m)), np.ascontiguousarray(b, dtype=np.float64),
                              settings.mu, settings.absolute_accuracy, settings.max_iter, lam, previous, residual,
                              stats):
        raise ValueError(SINGULAR_SET)
    settings.iter, settings.absolute_residual, settings.relative_residual = int(stats[0]), stats[1], stats[2]
    return lam


def _cholesky(G, mu: float, message: str = SINGULAR_SET) -> np.ndarray:
    """Lower Cholesky factor of ``G + mu I`` (compiled, ``kernels/constrained.py: dense_cholesky``); a pivot
    below ``1e-12`` of the largest diagonal entry means a redundant set (``G`` singular) and raises ``message``."""
    L = np.ascontiguousarray(G + mu * np.eye(len(G)))
    if len(G) and not _kc.dense_cholesky(L, len(G)):
        raise ValueError(message)
    return L


def _cho_solve(L, b):
    """``(L L^T)^-1 b`` for ``b: (m,)`` or ``(m, k)`` (a new array)."""
    X = np.array(np.atleast_2d(b.T) if b.ndim == 2 else b[None], dtype=np.float64, order="C")
    _kc.dense_cholesky_solve_rows(L, X)
    return X[0] if b.ndim == 1 else X.T.copy()


# ------------------------------------------------------------------------------------------------ dynamics
def _state(model, data, q, v, tau):
    """Kinematics at ``ddq = 0``, ``M`` and its factor, ``nle``; returns the checked ``(q, v, tau)``."""
    q, v = vector(q, model.nq, "q"), vector(v, model.nv, "v")
    if tau is not None:
        tau = vector(tau, model.nv, "tau")
        if not np.isfinite(tau).all():
            raise ValueError("tau: contains non-finite values (NaN or inf)")
    nonlinear_effects(model, data, q, v)
    forward_kinematics(model, data, q, v, np.zeros(model.nv))
    crba(model, data, q)
    cholesky.decompose(model, data)
    return q, v, tau


def constraint_dynamics(model: Model, data: Data, q: ArrayLike, v: ArrayLike, tau: ArrayLike,
                        contact_models: Sequence[RigidConstraintModel], contact_datas: Sequence[RigidConstraintData],
                        prox_settings: ProximalSettings | None = None) -> np.ndarray:
    """Forward dynamics under rigid constraints: ``ddq`` with ``M ddq + nle = tau + J^T lambda`` and
    ``J ddq + gamma = a_c`` (each constraint's Baumgarte corrector; 0 by default).

    ``q: (nq,)``, ``v, tau: (nv,)``; ``contact_models``: a list of :class:`RigidConstraintModel`,
    ``contact_datas`` their datas (``cm.create_data()``); ``prox_settings``: :class:`ProximalSettings` (default
    ``mu = 0``, the exact solve), which receives the iterations and residuals. Returns ``ddq`` ``(nv,)``, a new
    array, also in ``data.ddq``; fills ``data.lambda_c`` ``(m,)`` (the forces stacked in the order of the list,
    each in its constraint's frame), each ``contact_datas[k].contact_force`` and the other fields of the
    constraint datas, ``data.M``, its factor ``data.U``/``data.D``, ``data.nle``, ``data.J``, ``data.oMi``,
    ``data.v``, ``data.a`` (at ``ddq = 0``) and ``data.constraint_jacobian`` ``(m, nv)``.

    Raises ValueError/TypeError naming the argument for wrong sizes, NaN, datas that do not match the models,
    ``mu < 0``, and a redundant constraint set with ``mu = 0`` (the message suggests ``mu > 0``).
    """
    check_data(model, data)
    settings = _settings(prox_settings)
    if model.mimicking_joints:
        return _constraint_dynamics_python(model, data, q, v, tau, contact_models, contact_datas, settings)
    q, v, tau = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(tau, model.nv, "tau")
    CI, CF, R, Jc, rhs, work, stats = _bind(model, data, contact_models, contact_datas)
    values, lam, *state, _ = data.constraint_binding[2]
    kc.proximal_values(settings, out=values)
    I, F = model.packed
    status = _kc.constraint_dynamics(I, F, data.ws, data._cholesky_L, data.D, data.Dinv, q, v, tau, CI, CF, values,
                                     R, Jc, rhs, work, stats)
    if status:
        _report(status, model, q, v, tau)
    _statistics(settings, stats)
    lam[:] = work[:len(lam)]
    data.lambda_c, data.constraint_jacobian = lam, Jc
    data.constraint_state = ("dynamics", *state)  # views of the kernel's copy of (q, v, tau)
    return data.ddq.copy()


def _statistics(settings, stats) -> None:
    """The iterations and residuals of the last solve into ``settings``."""
    iterations, settings.absolute_residual, settings.relative_residual = stats.tolist()
    settings.iter = int(iterations)


def _report(status, model, q, v, tau):
    if status == kc.SINGULAR_SET:
        raise ValueError(SINGULAR_SET)
    if status == kc.NONFINITE_CONSTRAINT:
        raise ValueError("contact_models: a placement, gain or target of a constraint holds NaN or inf")
    report(status, ("q", "v", "tau"), model, (q, v, tau))


def _constraint_dynamics_python(model, data, q, v, tau, contact_models, contact_datas, settings):
    """:func:`constraint_dynamics` for models with mimic joints, step by step through the public algorithms."""
    check_constraints(model, contact_models, contact_datas)
    q, v, tau = _state(model, data, q, v, tau)
    J, rhs = _stack(model, data, contact_models, contact_datas)
    free = cholesky.solve(model, data, tau - data.nle)  # M^-1 (tau - nle)
    _, G = delassus_factors(model, data, J)
    lam = _proximal_solve(G, J @ free + rhs, settings)
    data.ddq[:] = free + cholesky.solve(model, data, J.T @ lam)
    data.lambda_c, data.constraint_jacobian = lam, J
    data.constraint_state = ("dynamics", q.copy(), v.copy(), tau.copy())
    _scatter_forces(contact_models, contact_datas, lam)
    return data.ddq.copy()


def impulse_dynamics(model: Model, data: Data, q: ArrayLike, v: ArrayLike,
                     contact_models: Sequence[RigidConstraintModel] | ArrayLike,
                     contact_datas: Sequence[RigidConstraintData] | float | None = None, r_coeff: float = 0.0,
                     prox_settings: ProximalSettings | float | None = None) -> np.ndarray:
    """Velocity after an impact on the constraints: ``M (v+ - v) = J^T P`` with ``J v+ = -r_coeff J v``.

    Two forms (Pinocchio's overloads): ``impulse_dynamics(model, data, q, v, contact_models, contact_datas,
    r_coeff=0.0, prox_settings=None)`` with constraint models, or the dense
    ``impulse_dynamics(model, data, q, v, J, r_coeff=0.0, inv_damping=0.0)`` with a Jacobian ``J: (m, nv)``
    (``r_coeff`` by position or by name, ``inv_damping`` by position).
    ``q: (nq,)``, ``v: (nv,)`` the velocity before the impact, ``r_coeff`` in [0, 1] the restitution. Returns
    ``v+`` ``(nv,)``, a new array, also in ``data.dq_after``; fills ``data.impulse_c`` ``(m,)`` (the impulses
    ``P``), each constraint data's ``contact_force`` (its impulse), and ``data.M`` with its factor. Errors as
    :func:`constraint_dynamics`; the constraint form without ``contact_datas`` raises ``TypeError``.
    """
    if not ((type(contact_models) in (list, tuple) or isinstance(contact_models, Sequence))
            and all(isinstance(c, RigidConstraintModel) for c in contact_models)):
        if contact_datas is None:  # the dense form with its defaults, or r_coeff by name
            return _dense_impulse(model, data, q, v, contact_models, r_coeff, 0.0, prox_settings)
        return _dense_impulse(model, data, q, v, contact_models, contact_datas, r_coeff, prox_settings)
    if contact_datas is None:
        raise TypeError("impulse_dynamics: contact_datas is required with constraint models "
                        "([cm.create_data() for cm in contact_models])")
    check_data(model, data)
    settings = _settings(prox_settings)
    r_coeff = _restitution(r_coeff)
    if model.mimicking_joints:
        check_constraints(model, contact_models, contact_datas)
        q, v, _ = _state(model, data, q, v, None)
        J, _ = _stack(model, data, contact_models, contact_datas)
        _, G = delassus_factors(model, data, J)
        P = _proximal_solve(G, (1.0 + r_coeff) * (J @ v), settings)
        data.dq_after = v + cholesky.solve(model, data, J.T @ P)
        _scatter_forces(contact_models, contact_datas, P)
        state = (q.copy(), v.copy())
    else:
        q, v = vector(q, model.nq, "q"), vector(v, model.nv, "v")
        CI, CF, R, J, rhs, work, stats = _bind(model, data, contact_models, contact_datas)
        values, _, qs, vs, _, P = data.constraint_binding[2]
        kc.proximal_values(settings, r_coeff, values)
        I, F = model.packed
        status = _kc.impulse_dynamics(I, F, data.ws, data._cholesky_L, data.D, data.Dinv, q, v, CI, CF, values, R, J,
                                      rhs, work, stats, data.dq_after)
        if status:
            _report(status, model, q, v, None)
        _statistics(settings, stats)
        P[:] = work[:len(P)]
        state = (qs, vs)  # the kernel's copy
    data.impulse_c, data.constraint_jacobian = P, J
    data.constraint_state = ("impulse", *state, r_coeff)
    return data.dq_after.copy()


def _restitution(r_coeff) -> float:
    if isinstance(r_coeff, bool) or not isinstance(r_coeff, (int, float, np.integer, np.floating)):
        raise TypeError(f"r_coeff: expected a number, got {type(r_coeff).__name__}")
    if not 0.0 <= r_coeff <= 1.0:
        raise ValueError(f"r_coeff: the restitution coefficient must be in [0, 1], got {r_coeff}")
    return float(r_coeff)


# ------------------------------------------------------------------------------------------------ dense forms
def _damping(inv_damping, name: str = "inv_damping") -> float:
    if type(inv_damping) is float and 0.0 <= inv_damping < math.inf:  # the usual case, first
        return inv_damping
    if isinstance(inv_damping, bool) or not isinstance(inv_damping, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name}: expected a number, got {type(inv_damping).__name__}")
    if not inv_damping >= 0.0 or not np.isfinite(inv_damping):
        raise ValueError(f"{name}: must be finite and >= 0, got {inv_damping}")
    return float(inv_damping)


def forward_dynamics(model: Model, data: Data, q: ArrayLike, v: ArrayLike, tau: ArrayLike, J: ArrayLike,
                     gamma: ArrayLike, inv_damping: float = 0.0) -> np.ndarray:
    """The dense KKT form: ``ddq`` and ``lambda`` with ``M ddq + nle = tau + J^T lambda`` and
    ``J ddq + gamma = inv_damping lambda`` (``inv_damping = 0``: the rigid constraint ``J ddq + gamma = 0``),
    compiled (``kernels/constrained.py``).

    ``q: (nq,)``, ``v``, ``tau`` ``(nv,)``; ``J: (m, nv)`` any constraint Jacobian, ``gamma: (m,)`` its drift
    ``dJ/dt v``. Returns ``ddq`` ``(nv,)``, a new array, also in ``data.ddq``; fills
    ``data.lambda_c`` ``(m,)``, ``data.M``, its factor and ``data.nle``. Raises for wrong shapes, NaN,
    ``inv_damping < 0``, and a rank-deficient ``J`` with ``inv_damping = 0``.
    """
    check_data(model, data)
    J = jacobian_arg(model, J, finite=bool(model.mimicking_joints))  # (the kernel checks J and gamma)
    gamma = vector(gamma, J.shape[0], "gamma")
    mu = _damping(inv_damping)
    if model.mimicking_joints:
        if not np.isfinite(gamma).all():
            raise ValueError("gamma: contains non-finite values (NaN or inf)")
        return _forward_dynamics_python(model, data, q, v, tau, J, gamma, mu)
    q, v, tau = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(tau, model.nv, "tau")
    (nc, nv), (I, F) = J.shape, model.packed
    lam = np.empty(nc)
    status = _kc.forward_dynamics(I, F, data.ws, data._cholesky_L, data.D, data.Dinv, q, v, tau, J, gamma, mu,
                                  np.empty((nv, nc)), np.empty((nc, nc)), lam, np.empty(nv))
    if status == kc.SINGULAR_SET:
        raise ValueError(SINGULAR_J)
    if status == SINGULAR:
        raise ValueError(cholesky.NOT_POSITIVE_DEFINITE)
    if status:
        report(status, ("q", "v", "tau", "J", "gamma"), model, (q, v, tau))
    data.lambda_c = lam
    return data.ddq.copy()


def _forward_dynamics_python(model, data, q, v, tau, J, gamma, mu):
    """:func:`forward_dynamics` for models with mimic joints, step by step through the public algorithms."""
    q, v, tau = _state(model, data, q, v, tau)
    free = cholesky.solve(model, data, tau - data.nle)
    _, G = delassus_factors(model, data, J)
    lam = _cho_solve(_cholesky(G, mu, SINGULAR_J), -(J @ free + gamma))
    data.ddq[:] = free + cholesky.solve(model, data, J.T @ lam)
    data.lambda_c = lam
    return data.ddq.copy()


def _dense_impulse(model, data, q, v, J, r_coeff=0.0, inv_damping=0.0, extra=None) -> np.ndarray:
    if extra is not None:
        raise TypeError("impulse_dynamics: the dense form takes (model, data, q, v, J, r_coeff, inv_damping)")
    check_data(model, data)
    J = jacobian_arg(model, J)
    r_coeff, mu = _restitution(r_coeff), _damping(inv_damping)
    q, v, _ = _state(model, data, q, v, None)
    _, G = delassus_factors(model, data, J)
    P = _cho_solve(_cholesky(G, mu, SINGULAR_J), -(1.0 + r_coeff) * (J @ v))
    data.dq_after = v + cholesky.solve(model, data, J.T @ P)
    data.impulse_c = P
    return data.dq_after.copy()


def compute_kkt_contact_dynamic_matrix_inverse(model: Model, data: Data, q: ArrayLike, J: ArrayLike,
                                               inv_damping: float = 0.0) -> np.ndarray:
    """``K^-1`` ``(nv + m, nv + m)`` of the KKT matrix ``K = [[M, J^T], [J, -inv_damping I]]``, by blocks from
    the sparse factor of ``M`` and the Schur complement ``G + inv_damping I`` (``G = J M^-1 J^T``):
    ``[[M^-1 - M^-1 J^T S^-1 J M^-1, M^-1 J^T S^-1], [S^-1 J M^-1, -S^-1]]``, at ``q: (nq,)`` with ``J: (m, nv)``,
    compiled (``kernels/constrained.py``). Also in ``data.kkt_inverse``.
    Fills ``data.M``, its factor and ``data.Minv``."""
    check_data(model, data)
    J = jacobian_arg(model, J, finite=bool(model.mimicking_joints))  # (the kernel checks J)
    mu = _damping(inv_damping)
    if model.mimicking_joints:
        return _kkt_inverse_python(model, data, q, J, mu)
    q = vector(q, model.nq, "q")
    (m, nv), (I, F) = J.shape, model.packed
    K = np.empty((nv + m, nv + m))
    status = _kc.kkt_contact_dynamic_matrix_inverse(I, F, data.ws, data._cholesky_L, data.D, data.Dinv, q, J, mu,
                                                    np.empty((nv, m)), np.empty((m, m)), np.empty((m, nv)),
                                                    np.empty((nv, m)), K)
    if status == kc.SINGULAR_SET:
        raise ValueError(SINGULAR_J)
    if status == SINGULAR:
        raise ValueError(cholesky.NOT_POSITIVE_DEFINITE)
    if status:
        report(status, ("q", "J"), model, (q,))
    data.kkt_inverse = K
    return K.copy()


def _kkt_inverse_python(model, data, q, J, mu):
    """:func:`compute_kkt_contact_dynamic_matrix_inverse` for models with mimic joints, through the public
    algorithms."""
    crba(model, data, vector(q, model.nq, "q"))
    cholesky.decompose(model, data)
    Minv = cholesky.compute_minv(model, data)
    _, G = delassus_factors(model, data, J)
    MJt = cholesky.solve(model, data, J.T)  # M^-1 J^T (nv, m)
    S = _cholesky(G, mu, SINGULAR_J)  # S = G + inv_damping I
    SinvJMinv = _cho_solve(S, MJt.T)  # S^-1 J M^-1 (m, nv)
    nv, m = model.nv, J.shape[0]
    K = np.empty((nv + m, nv + m))
    K[:nv, :nv] = Minv - MJt @ SinvJMinv
    K[nv:, :nv] = SinvJMinv
    K[:nv, nv:] = SinvJMinv.T
    K[nv:, nv:] = -_cho_solve(S, np.eye(m))
    data.kkt_inverse = K
    return K.copy()


# ------------------------------------------------------------------------------------------------ Delassus
def _constraint_jacobian(model, data, q, contact_models, contact_datas) -> np.ndarray:
    check_data(model, data)
    check_constraints(model, contact_models, contact_datas)
    _state(model, data, q, np.zeros(model.nv), None)
    J, _ = _stack(model, data, contact_models, contact_datas)
    data.constraint_jacobian = J
    return J


def compute_delassus_matrix(model: Model, data: Data, q: ArrayLike, contact_models: Sequence[RigidConstraintModel],
                            contact_datas: Sequence[RigidConstraintData], mu: float = 0.0) -> np.ndarray:
    """The Delassus matrix ``G + mu I = J M^-1 J^T + mu I`` ``(m, m)`` at ``q: (nq,)`` of the constraint set
    ``contact_models`` (with their ``contact_datas``), with ``J``
    in each constraint's own frame (LOCAL_WORLD_ALIGNED rows included), through the sparse factor of ``M``
    (compiled, ``kernels/constrained.py``).
    Returns a new array, also in ``data.delassus``; fills ``data.constraint_jacobian``, ``data.M`` and its factor."""
    return _delassus(model, data, q, contact_models, contact_datas, _damping(mu, "mu"), False)[0].copy()


def compute_damped_delassus_matrix_inverse(model: Model, data: Data, q: ArrayLike,
                                           contact_models: Sequence[RigidConstraintModel],
                                           contact_datas: Sequence[RigidConstraintData], mu: float = 0.0) -> np.ndarray:
    """``(J M^-1 J^T + mu I)^-1`` ``(m, m)`` at ``q: (nq,)`` for the constraints ``contact_models`` and their
    ``contact_datas`` (``mu >= 0``; ``mu = 0`` raises on a redundant set).
    Fills ``data.delassus`` (``G + mu I``) as :func:`compute_delassus_matrix`."""
    return _delassus(model, data, q, contact_models, contact_datas, _damping(mu, "mu"), True)[1]


def _delassus(model, data, q, contact_models, contact_datas, mu: float, inverse: bool):
    """``(data.delassus, its inverse or None)``: ``G + mu I`` of the constraint set at ``q``."""
    check_data(model, data)
    if model.mimicking_joints:  # step by step through the public algorithms
        J = _constraint_jacobian(model, data, q, contact_models, contact_datas)
        data.delassus = delassus_factors(model, data, J)[1] + mu * np.eye(len(J))
        return data.delassus, _cho_solve(_cholesky(data.delassus, 0.0), np.eye(len(J))) if inverse else None
    q = vector(q, model.nq, "q")
    CI, CF, R, Jc, rhs, work, _ = _bind(model, data, contact_models, contact_datas)  # (checks a new set's lists)
    (m, nv), (I, F) = Jc.shape, model.packed
    G, n = np.empty((m, m)), m if inverse else 0
    Lc, Ginv = np.empty((n, n)), np.empty((n, n))
    status = _kc.delassus_matrix(I, F, data.ws, data._cholesky_L, data.D, data.Dinv, q, CI, CF, R, Jc, rhs, work, mu,
                                 np.empty((nv, m)), G, Lc, Ginv)
    if status:
        if status == SINGULAR:
            raise ValueError(cholesky.NOT_POSITIVE_DEFINITE)
        _report(status, model, q, None, None)
    data.constraint_jacobian, data.delassus = Jc, G
    return G, Ginv if inverse else None


__all__ = ["compute_delassus_matrix", "compute_damped_delassus_matrix_inverse", "init_constraint_dynamics", "constraint_dynamics", "impulse_dynamics", "forward_dynamics",
           "compute_kkt_contact_dynamic_matrix_inverse"]
