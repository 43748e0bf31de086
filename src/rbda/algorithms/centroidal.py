"""Centroidal dynamics (Pinocchio's ``centroidal`` API): the centroidal momentum ``hg``, its rate ``dhg``, the
centroidal momentum matrix ``Ag`` (``hg = Ag v``), its time derivative ``dAg`` and the centroidal composite
inertia ``Ig`` (Orin, Goswami and Lee, "Centroidal dynamics of a humanoid robot", 2013).

Momenta are forces ``[linear; angular]`` about the centre of mass, in world axes. ``data.hg``, ``data.dhg``
``(6,)``, ``data.Ag``, ``data.dAg`` ``(6, nv)``, ``data.Ig`` ``(6, 6)`` (the matrix ``[[m 1, 0], [0, I_c]]``).
"""

from __future__ import annotations

import numpy as np

from ..kernels import whole_body as _k
from ..spatial import force_cross_matrix, motion_cross_matrix
from ._check import report, vector
from .jacobian import compute_joint_jacobians_time_variation


def compute_centroidal_map(model, data, q) -> np.ndarray:
    """Centroidal momentum matrix ``Ag`` ``(6, nv)`` at ``q: (nq,)``, in ``data.Ag``; also ``data.Ig``,
    ``data.com``, ``data.mass``, ``data.J`` and ``data.oYcrb``."""
    I, F = model.packed
    status = _k.centroidal_map(I, F, data.ws, data.wb, vector(q, model.nq, "q"), None)
    if status:
        report(status, ("q",))
    return data.Ag


def ccrba(model, data, q, v) -> np.ndarray:
    """Centroidal composite-rigid-body algorithm at ``q: (nq,)``, ``v: (nv,)``: ``Ag`` ``(6, nv)`` (returned,
    in ``data.Ag``), ``data.Ig``, ``data.hg = Ag v``, ``data.com[0]``, ``data.vcom[0]``, ``data.J``."""
    I, F = model.packed
    q, v = vector(q, model.nq, "q"), vector(v, model.nv, "v")
    status = _k.centroidal_map(I, F, data.ws, data.wb, q, v)
    if status:
        report(status, ("q", "v"))
    return data.Ag


def compute_centroidal_momentum(model, data, q, v) -> np.ndarray:
    """Centroidal momentum ``hg`` ``(6,)`` at ``q: (nq,)``, ``v: (nv,)``: the sum of the body momenta, about the
    CoM; in ``data.hg``, with ``data.com[0]``, ``data.vcom[0]``, ``data.mass[0]``, ``data.v``. (``Force(hg)``
    gives Pinocchio's return type.)"""
    I, F = model.packed
    q, v = vector(q, model.nq, "q"), vector(v, model.nv, "v")
    status = _k.centroidal_momentum(I, F, data.ws, data.wb, q, v, None)
    if status:
        report(status, ("q", "v"))
    return data.hg


def compute_centroidal_momentum_time_variation(model, data, q, v, a) -> np.ndarray:
    """Rate of the centroidal momentum ``dhg`` ``(6,)`` at ``q: (nq,)``, ``v, a: (nv,)`` (the sum of the
    forces acting on the bodies, without gravity, about the CoM); in ``data.dhg``, with ``data.hg``,
    ``data.com[0]``, ``data.vcom[0]``, ``data.acom[0]``."""
    I, F = model.packed
    q, v, a = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(a, model.nv, "a")
    status = _k.centroidal_momentum(I, F, data.ws, data.wb, q, v, a)
    if status:
        report(status, ("q", "v", "a"))
    return data.dhg


def dccrba(model, data, q, v) -> np.ndarray:
    """Time derivative ``dAg`` ``(6, nv)`` of the centroidal momentum matrix along ``v`` at ``q``, in
    ``data.dAg``; also ``data.Ag``, ``data.hg``, ``data.Ig``, ``data.J`` and ``data.dJ``.

    Column k of ``Ag`` is ``X_c^* (Ycrb_i J_k)`` (subtree i moved by dof k, force taken about the CoM c), so
    ``dAg_k = X_c^* (dYcrb_i J_k + Ycrb_i dJ_k) - [0; dc/dt x (Ycrb_i J_k)_lin]`` with, per body,
    ``dY/dt = V x* Y - Y V x`` (world frame) summed over the subtree.
    """
    q, v = vector(q, model.nq, "q"), vector(v, model.nv, "v")
    compute_joint_jacobians_time_variation(model, data, q, v)
    dJ = data.dJ.copy()
    ccrba(model, data, q, v)
    J, c, vc = data.J, data.com[0], data.vcom[0]
    Ycrb = np.zeros((model.njoints, 6, 6))
    dYcrb = np.zeros((model.njoints, 6, 6))
    for i in range(1, model.njoints):
        Y = data.oMi[i].act(model.inertias[i]).matrix()
        V = data.ov_of(i)
        Ycrb[i] += Y
        dYcrb[i] += force_cross_matrix(V) @ Y - Y @ motion_cross_matrix(V)
    for i in range(model.njoints - 1, 0, -1):
        cols = slice(model.idx_v[i], model.idx_v[i] + model.nvs[i])
        Fc = Ycrb[i] @ J[:, cols]
        dF = dYcrb[i] @ J[:, cols] + Ycrb[i] @ dJ[:, cols]
        data.dAg[:3, cols] = dF[:3]
        data.dAg[3:, cols] = dF[3:] - np.cross(c, dF[:3].T).T - np.cross(vc, Fc[:3].T).T
        Ycrb[model.parents[i]] += Ycrb[i]
        dYcrb[model.parents[i]] += dYcrb[i]
    return data.dAg


def compute_centroidal_map_time_variation(model, data, q, v) -> np.ndarray:
    """Same as :func:`dccrba` (Pinocchio's second name for it): ``dAg`` ``(6, nv)``."""
    return dccrba(model, data, q, v)


__all__ = ["ccrba", "dccrba", "compute_centroidal_map", "compute_centroidal_map_time_variation",
           "compute_centroidal_momentum", "compute_centroidal_momentum_time_variation"]
