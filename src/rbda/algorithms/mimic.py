"""The algorithms on a model with mimic joints: each runs on the model's extended twin (``model/mimic.py``), its
inputs mapped in (``q_ext = E(q)``, ``v_ext = G v``) and its results mapped out by the chain rule:

    per joint or frame (placements, spatial velocities, com, hg):  unchanged
    generalized forces, rows of a regressor:                       tau = G^T tau_ext
    Jacobians, centroidal map, derivatives d(.)/dq, d(.)/dv:      J = J_ext G
    joint-space matrices (M, C, dtau/dq, ...):                     M = G^T M_ext G

The other algorithms handle mimic joints inside their kernels (``kernels/mimic.py``); only the analytical
derivatives (first, second order, centroidal, kinematics, ABA's) and the kinematic Hessians still start with
``if model.mimicking_joints: return mimic.route(...)``.
"""

from __future__ import annotations

import numpy as np

from ..model.mimic import MimicData, expand_configuration, sync_extended
from ._check import SINGULAR_INERTIA, vector

_CONFIGURATION = ("q", "q0", "q1")
_TANGENT = ("v", "a")
_SCALARS = ("kinetic_energy", "potential_energy", "mechanical_energy")


def _twin(model, data):
    if not isinstance(data, MimicData):
        raise ValueError("data: was created for another model (this model has mimic joints); use model.create_data()")
    ext = sync_extended(model)
    return ext, data.extended, ext.mimic_map


def map_out(kind, x, G, batched: bool = False):
    """A result of the extended twin mapped back: ``kind`` None (unchanged), ``"cols"`` (``x G``), ``"rows"``
    (``G^T x``), ``"both"`` (``G^T x G``), ``"hessian"`` ((6, n, n): both last indices), ``"tensor"`` (all three
    indices); ``batched``: ``x`` has a leading batch axis."""
    if kind is None:
        return x
    if kind == "cols" or (kind == "rows" and batched):  # (..., nv_ext) -> (..., nv)
        return x @ G
    if kind == "rows":  # (nv_ext, ...) -> (nv, ...)
        return G.T @ x
    if kind == "both":  # (..., nv_ext, nv_ext) -> (..., nv, nv)
        return G.T @ x @ G
    b = "z" if batched else ""
    subscripts = {"hessian": f"{b}kab,ai,bj->{b}kij", "tensor": f"{b}abc,ai,bj,ck->{b}ijk"}[kind]
    operands = {"hessian": (x, G, G), "tensor": (x, G, G, G)}[kind]
    return np.einsum(subscripts, *operands, optimize=True)  # one index at a time, not the naive nested sum


def route(fn, model, data, kinds=None, store=(), also=(), **args):
    """``fn(ext, data_ext, *args)`` with ``q``-like arguments expanded and ``v``/``a`` multiplied by ``G``; each
    result mapped by its kind in ``kinds`` (``None`` unchanged, ``"rows"``, ``"cols"``, ``"both"``,
    ``"hessian"``, ``"tensor"``, a tuple for a tuple of results) and written into ``data.<store[k]>`` when named;
    ``also``: ``(name, kind)`` pairs of further per-dof fields the call fills, mapped from the twin's data."""
    ext, dext, mm = _twin(model, data)
    for X in (dext.M, dext.Minv, dext.C):  # their first entries hold the model's matrices, left by the kernels
        X[...] = 0.0
    values = []
    for name, x in args.items():
        if x is not None and name in _CONFIGURATION:
            x = expand_configuration(model, x, name)
        elif x is not None and name in _TANGENT:
            x = mm.G @ vector(x, model.nv, name)
        values.append(x)
    result = fn(ext, dext, *values)
    for name in _SCALARS:
        setattr(data, name, getattr(dext, name))
    for name, kind in also:
        getattr(data, name)[...] = map_out(kind, getattr(dext, name), mm.G)
    single = not isinstance(kinds, tuple)
    results = [map_out(k, r, mm.G) for k, r in zip((kinds,) if single else kinds, (result,) if single else result)]
    for k, name in enumerate((store,) if isinstance(store, str) else store):
        target = getattr(data, name, None)
        if isinstance(target, np.ndarray) and target.shape == results[k].shape:
            target[...] = results[k]
            results[k] = target
        else:
            setattr(data, name, results[k])
    return results[0] if single else tuple(results)


# ------------------------------------------------------------------------------------ forward dynamics
def _solve(M, b):
    """``M^-1 b`` for the reduced joint-space inertia ``M`` (symmetric; an error if not positive definite)."""
    try:
        np.linalg.cholesky(M)
    except np.linalg.LinAlgError:
        raise ValueError(SINGULAR_INERTIA) from None
    return np.linalg.solve(M, b)


def compute_aba_derivatives(model, data, q, v, tau, fext=None):
    """``-M^-1 dID/dx`` at the forward-dynamics solution, with the reduced derivatives of inverse dynamics."""
    from .derivatives import compute_rnea_derivatives
    from .dynamics import aba

    ddq = aba(model, data, q, v, tau, fext).copy()
    dtau_dq, dtau_dv, M = route(compute_rnea_derivatives, model, data, ("both", "both", "both"),
                                ("dtau_dq", "dtau_dv", "M"), q=q, v=v, a=ddq, fext=fext)
    data.Minv[:] = _solve(M, np.eye(model.nv))
    data.ddq[:] = ddq
    data.ddq_dq, data.ddq_dv = -data.Minv @ dtau_dq, -data.Minv @ dtau_dv
    return data.ddq_dq, data.ddq_dv, data.Minv
