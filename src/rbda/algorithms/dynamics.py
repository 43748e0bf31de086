"""Inverse dynamics (RNEA), joint-space inertia (CRBA) and forward dynamics (ABA), with the quantities built
from them: non-linear effects, generalised gravity, static torque, Coriolis matrix, M^-1 and all terms."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._native.public import public
from ..kernels import coriolis, dynamics
from ..kernels.checks import NEEDS_FACTOR
from .._native.direct import direct
from ._check import matrix, report, vector
from ._elementary import workspaces
from .kinematics import forward_kinematics

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model
    from numpy.typing import ArrayLike

_k = direct(dynamics)  # the kernels, past numba's per-call dispatch
_coriolis = direct(coriolis)


NO_FEXT = np.zeros((0, 6))  # the kernels' "no external forces": one argument type for every call (_native/direct.py)


def _fext(model, fext) -> np.ndarray:
    """External forces as a ``(njoints, 6)`` array: a sequence of Force/6-vectors (one per joint) or an array (the
    callers pass ``NO_FEXT`` for None)."""
    rows = [getattr(f, "vector", f) for f in fext] if not isinstance(fext, np.ndarray) else fext
    F = matrix(np.asarray(rows, dtype=np.float64), (model.njoints, 6), "fext")
    if not np.isfinite(F).all():  # the kernels check q, v, a and tau, not fext
        raise ValueError("fext: contains non-finite values (NaN or inf)")
    return F


def _of_configuration(model, data, kernel, q, field: str) -> np.ndarray:
    """A copy of ``data.<field>`` after the kernel ``kernel(I, F, ws, q)`` at ``q: (nq,)``, checked; raises
    ``ValueError`` naming ``q`` on a bad one."""
    I, F = model.packed
    status = kernel(I, F, data.ws, vector(q, model.nq, "q"))
    if status:
        report(status, ("q",), model, (q,))
    return getattr(data, field).copy()


@public("copy", arity=5)
def rnea(model: Model, data: Data, q: ArrayLike, v: ArrayLike, a: ArrayLike,
         fext: ArrayLike | None = None) -> np.ndarray:
    """Inverse dynamics ``tau = M(q) a + C(q, v) v + g(q) - sum J_i^T fext_i`` (Pinocchio's SE(3) cheat sheet
    "RNEA").

    ``q: (nq,)``, ``v: (nv,)``, ``a: (nv,)``; ``fext`` one force per joint (``(njoints, 6)`` or a list of Force),
    each expressed in its joint frame. Returns ``tau`` ``(nv,)``, a new array, also in ``data.tau``; fills
    ``data.v``, ``data.a_gf``, ``data.f``, ``data.oMi``, ``data.liMi``. Armature adds ``armature * a``."""
    if fext is None:  # the bound fast entry (_native/fastcall.py), or None for the checks below
        tau = data.fast_entries.rnea(model, data, q, v, a)
        if tau is not None:
            return tau.copy()
    q, v, a = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(a, model.nv, "a")
    status = _k.rnea(*model.packed, data.ws, q, v, a, NO_FEXT if fext is None else _fext(model, fext))
    if status:
        report(status, ("q", "v", "a"), model, (q, v, a))
    return data.tau.copy()


def nonlinear_effects(model: Model, data: Data, q: ArrayLike, v: ArrayLike) -> np.ndarray:
    """``C(q, v) v + g(q)`` ``(nv,)`` (a new array), also in ``data.nle``."""
    nle = rnea(model, data, q, v, np.zeros(model.nv))
    data.nle[:] = nle
    return nle


@public("copy")
def compute_generalized_gravity(model: Model, data: Data, q: ArrayLike) -> np.ndarray:
    """``g(q)`` ``(nv,)`` (a new array), also in ``data.g``; fills what :func:`rnea` fills."""
    z = np.zeros(model.nv)
    g = rnea(model, data, q, z, z)
    data.g[:] = g
    return g


@public("copy")
def compute_static_torque(model: Model, data: Data, q: ArrayLike, fext: ArrayLike | None) -> np.ndarray:
    """``g(q) - sum J_i^T fext_i`` ``(nv,)``: the torques that hold configuration ``q: (nq,)`` still against gravity
    and the external forces ``fext`` (one per joint, in its joint frame, as in :func:`rnea`; None for none). Returns
    a new array, also in ``data.tau``."""
    z = np.zeros(model.nv)
    return rnea(model, data, q, z, z, fext)


def compute_coriolis_matrix(model: Model, data: Data, q: ArrayLike, v: ArrayLike) -> np.ndarray:
    """Coriolis matrix ``C(q, v)`` ``(nv, nv)``, with ``C v = nle - g`` and ``dM/dt - 2 C`` skew-symmetric.

    Body by body in the world frame: ``C = sum_i J_i^T (Y_i dJ_i + B_i J_i)`` with
    ``B_i = (V_i x* Y_i - Y_i V_i x + (Y_i V_i) xbar) / 2``, where ``(h xbar) m = m x* h``, so that
    ``B_i V_i = V_i x* Y_i V_i`` and ``B_i + B_i^T = dY_i/dt``, summed over subtrees from the leaves
    (``kernels/coriolis.py``). Returns a new array, also in ``data.C``; also fills ``data.J``, ``data.dJ``,
    ``data.oMi`` and ``data.v``.
    """
    q, v = vector(q, model.nq, "q"), vector(v, model.nv, "v")
    I, F, ws, dws, elementary = workspaces(model, data)
    status = _coriolis.coriolis_matrix(I, F, ws, dws, q, v)
    if status:
        report(status, ("q", "v"), model, (q, v))
    if elementary is not None:
        edata = data.elementary_data
        data.C[...], data.J[...], data.dJ[...] = edata.C, edata.J, edata.dJ
        forward_kinematics(model, data, q, v)
    return data.C.copy()


@public("copy")
def crba(model: Model, data: Data, q: ArrayLike) -> np.ndarray:
    """Joint-space inertia matrix ``M(q)`` ``(nv, nv)``, full and symmetric (armature on the diagonal): a new array,
    also in ``data.M``. Also fills ``data.oMi``, ``data.J`` and the composite inertias ``data.oYcrb``."""
    M = data.fast_entries.crba(model, data, q)  # the bound fast entry (_native/fastcall.py), or None: the checks below
    return M.copy() if M is not None else _of_configuration(model, data, _k.crba, q, "M")


@public("copy", arity=5)
def aba(model: Model, data: Data, q: ArrayLike, v: ArrayLike, tau: ArrayLike,
        fext: ArrayLike | None = None) -> np.ndarray:
    """Forward dynamics ``ddq = M^-1 (tau - C v - g + sum J_i^T fext_i)`` by the articulated-body algorithm.

    ``q: (nq,)``, ``v: (nv,)``, ``tau: (nv,)``; ``fext`` one force per joint (``(njoints, 6)`` or a list of Force),
    each in its joint frame, or None. Returns ``ddq`` ``(nv,)``, a new array, also in ``data.ddq``; fills
    ``data.oMi``, ``data.ov``, ``data.oa_gf``, ``data.of``, ``data.oYcrb``, ``data.oYaba``. Armature adds
    ``armature * ddq``. Raises ``ValueError`` naming the argument for a wrong size, a NaN or an unnormalised
    quaternion."""
    if fext is None:  # the bound fast entry (_native/fastcall.py), or None for the checks below
        ddq = data.fast_entries.aba(model, data, q, v, tau)
        if ddq is not None:
            return ddq.copy()
    I, F = model.packed
    q, v, tau = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(tau, model.nv, "tau")
    fext = NO_FEXT if fext is None else _fext(model, fext)
    status = _k.aba(I, F, data.ws, q, v, tau, fext)
    if status == NEEDS_FACTOR:  # mimic joints: no ABA, forward dynamics through the factor of M
        status = _k.forward_dynamics_through_factor(I, F, data.ws, q, v, tau, fext)
    if status:
        report(status, ("q", "v", "tau"), model, (q, v, tau))
    return data.ddq.copy()


@public("copy")
def compute_minverse(model: Model, data: Data, q: ArrayLike) -> np.ndarray:
    """``M(q)^-1`` ``(nv, nv)``: a new array, also in ``data.Minv``."""
    Minv = data.fast_entries.compute_minverse(model, data, q)  # the bound fast entry (_native/fastcall.py), or None
    return Minv.copy() if Minv is not None else _of_configuration(model, data, _k.minverse, q, "Minv")


def compute_all_terms(model: Model, data: Data, q: ArrayLike, v: ArrayLike) -> None:
    """``data.M``, ``data.nle``, ``data.g``, ``data.J`` and the placements at ``(q, v)``."""
    compute_generalized_gravity(model, data, q)
    nonlinear_effects(model, data, q, v)
    crba(model, data, q)
