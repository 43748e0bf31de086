"""Inverse dynamics (RNEA), joint-space inertia (CRBA) and forward dynamics (ABA), with the quantities built
from them: non-linear effects, generalised gravity, static torque, Coriolis matrix, M^-1 and all terms."""

from __future__ import annotations

import numpy as np

from ..kernels import dynamics
from ..kernels.direct import direct
from ..spatial import force_cross_matrix, motion_cross_matrix, skew
from . import mimic
from ._check import matrix, report, vector

_k = direct(dynamics)  # the kernels, past numba's per-call dispatch


NO_FEXT = np.zeros((0, 6))  # the kernels' "no external forces": one argument type for every call (kernels/direct.py)


def _fext(model, fext) -> np.ndarray:
    """External forces as a ``(njoints, 6)`` array: a sequence of Force/6-vectors (one per joint) or an array (the
    callers pass ``NO_FEXT`` for None)."""
    rows = [getattr(f, "vector", f) for f in fext] if not isinstance(fext, np.ndarray) else fext
    F = matrix(np.asarray(rows, dtype=np.float64), (model.njoints, 6), "fext")
    if not np.isfinite(F).all():  # the kernels check q, v, a and tau, not fext
        raise ValueError("fext: contains non-finite values (NaN or inf)")
    return F


def rnea(model, data, q, v, a, fext=None) -> np.ndarray:
    """Inverse dynamics ``tau = M(q) a + C(q, v) v + g(q) - sum J_i^T fext_i`` (cheat sheet "RNEA").

    ``q: (nq,)``, ``v: (nv,)``, ``a: (nv,)``; ``fext`` one force per joint (``(njoints, 6)`` or a list of
    Force), each expressed in its joint frame. Returns ``data.tau`` ``(nv,)``; fills ``data.v``,
    ``data.a_gf``, ``data.f``, ``data.oMi``, ``data.liMi``. Armature adds ``armature * a``.
    """
    if model.mimicking_joints:
        return mimic.route(rnea, model, data, "rows", "tau", q=q, v=v, a=a, fext=fext)
    I, F = model.packed
    q, v, a = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(a, model.nv, "a")
    status = _k.rnea(I, F, data.ws, q, v, a, NO_FEXT if fext is None else _fext(model, fext))
    if status:
        report(status, ("q", "v", "a"))
    return data.tau


def nonlinear_effects(model, data, q, v) -> np.ndarray:
    """``C(q, v) v + g(q)`` ``(nv,)``, also in ``data.nle``."""
    data.nle[:] = rnea(model, data, q, v, np.zeros(model.nv))
    return data.nle


def compute_generalized_gravity(model, data, q) -> np.ndarray:
    """``g(q)`` ``(nv,)``, also in ``data.g``."""
    z = np.zeros(model.nv)
    data.g[:] = rnea(model, data, q, z, z)
    return data.g


def compute_static_torque(model, data, q, fext) -> np.ndarray:
    """``g(q) - sum J_i^T fext_i`` ``(nv,)``, also in ``data.tau``."""
    z = np.zeros(model.nv)
    return rnea(model, data, q, z, z, fext)


def compute_coriolis_matrix(model, data, q, v) -> np.ndarray:
    """Coriolis matrix ``C(q, v)`` ``(nv, nv)``, with ``C v = nle - g`` and ``dM/dt - 2 C`` skew-symmetric.

    Body by body in the world frame: ``C = sum_i J_i^T (Y_i dJ_i + B_i J_i)`` with
    ``B_i = (V_i x* Y_i - Y_i V_i x + (Y_i V_i) xbar) / 2``, where ``(h xbar) m = m x* h`` (a skew matrix), so that
    ``B_i V_i = V_i x* Y_i V_i`` and ``B_i + B_i^T = dY_i/dt``. Also in ``data.C``.
    """
    if model.mimicking_joints:
        return mimic.route(compute_coriolis_matrix, model, data, "both", "C", q=q, v=v)
    from .jacobian import body_jacobians_and_derivatives

    q, v = vector(q, model.nq, "q"), vector(v, model.nv, "v")
    C = np.zeros((model.nv, model.nv))
    for i, (J, dJ) in enumerate(body_jacobians_and_derivatives(model, data, q, v), start=1):
        Y = data.oMi[i].act(model.inertias[i]).matrix()
        V = J @ v
        h = Y @ V
        B = 0.5 * (force_cross_matrix(V) @ Y - Y @ motion_cross_matrix(V) + _force_bar(h))
        C += J.T @ (Y @ dJ + B @ J)
    data.C[:] = C
    return data.C


def _force_bar(h: np.ndarray) -> np.ndarray:
    """``(6, 6)`` matrix of ``m -> m x* h`` for a force ``h = [f; tau]``: ``[[0, -f_x], [-f_x, -tau_x]]``."""
    F, T = skew(h[:3]), skew(h[3:])
    out = np.zeros((6, 6))
    out[:3, 3:] = -F
    out[3:, :3] = -F
    out[3:, 3:] = -T
    return out


def crba(model, data, q) -> np.ndarray:
    """Joint-space inertia matrix ``M(q)`` ``(nv, nv)``, full and symmetric, in ``data.M`` (armature on the
    diagonal). Also fills ``data.oMi``, ``data.J`` and the composite inertias ``data.oYcrb``."""
    if model.mimicking_joints:
        return mimic.route(crba, model, data, "both", "M", q=q)
    I, F = model.packed
    status = _k.crba(I, F, data.ws, vector(q, model.nq, "q"))
    if status:
        report(status, ("q",))
    return data.M


def aba(model, data, q, v, tau, fext=None) -> np.ndarray:
    """Forward dynamics ``ddq = M^-1 (tau - C v - g + sum J_i^T fext_i)`` by the articulated-body algorithm.

    Shapes as in :func:`rnea`; returns ``data.ddq`` ``(nv,)``.
    """
    if model.mimicking_joints:
        return mimic.aba(model, data, q, v, tau, fext)
    I, F = model.packed
    q, v, tau = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(tau, model.nv, "tau")
    status = _k.aba(I, F, data.ws, q, v, tau, NO_FEXT if fext is None else _fext(model, fext))
    if status:
        report(status, ("q", "v", "tau"))
    return data.ddq


def compute_minverse(model, data, q) -> np.ndarray:
    """``M(q)^-1`` ``(nv, nv)`` in ``data.Minv``."""
    if model.mimicking_joints:
        return mimic.compute_minverse(model, data, q)
    I, F = model.packed
    status = _k.minverse(I, F, data.ws, vector(q, model.nq, "q"))
    if status:
        report(status, ("q",))
    return data.Minv


def compute_all_terms(model, data, q, v) -> None:
    """``data.M``, ``data.nle``, ``data.g``, ``data.J`` and the placements at ``(q, v)``."""
    compute_generalized_gravity(model, data, q)
    nonlinear_effects(model, data, q, v)
    crba(model, data, q)
