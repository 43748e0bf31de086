"""Centroidal dynamics (Pinocchio's ``centroidal`` API): the centroidal momentum ``hg``, its rate ``dhg``, the
centroidal momentum matrix ``Ag`` (``hg = Ag v``), its time derivative ``dAg`` and the centroidal composite
inertia ``Ig`` (Orin, Goswami and Lee, "Centroidal dynamics of a humanoid robot", 2013).

Momenta are forces ``[linear; angular]`` about the centre of mass, in world axes. ``data.hg``, ``data.dhg``
``(6,)``, ``data.Ag``, ``data.dAg`` ``(6, nv)``, ``data.Ig`` ``(6, 6)`` (the matrix ``[[m 1, 0], [0, I_c]]``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._native.public import public
from ..kernels import centroidal
from .._native.direct import direct
from ._check import NONE, report, vector
from ._elementary import workspaces
from .kinematics import forward_kinematics

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model
    from numpy.typing import ArrayLike

_k = direct(centroidal)  # the kernels, past numba's per-call dispatch


@public("copy")
def compute_centroidal_map(model: Model, data: Data, q: ArrayLike) -> np.ndarray:
    """Centroidal momentum matrix ``Ag`` ``(6, nv)`` at ``q: (nq,)``: a new array, also in ``data.Ag``; fills
    ``data.Ig``, ``data.com``, ``data.mass``, ``data.J`` and ``data.oYcrb``."""
    Ag = data.fast_entries.compute_centroidal_map(model, data, q)  # the bound fast entry (_native/fastcall.py), or None
    if Ag is not None:
        return Ag.copy()
    I, F = model.packed
    status = _k.centroidal_map(I, F, data.ws, data.wb, vector(q, model.nq, "q"), NONE)
    if status:
        report(status, ("q",), model, (q,))
    return data.Ag.copy()


@public("copy")
def ccrba(model: Model, data: Data, q: ArrayLike, v: ArrayLike) -> np.ndarray:
    """Centroidal composite-rigid-body algorithm at ``q: (nq,)``, ``v: (nv,)``: ``Ag`` ``(6, nv)`` (returned as a
    new array, also in ``data.Ag``), ``data.Ig``, ``data.hg = Ag v``, ``data.com[0]``, ``data.vcom[0]``, ``data.J``."""
    Ag = data.fast_entries.ccrba(model, data, q, v)  # the bound fast entry (_native/fastcall.py), or None
    if Ag is not None:
        return Ag.copy()
    I, F = model.packed
    q, v = vector(q, model.nq, "q"), vector(v, model.nv, "v")
    status = _k.centroidal_map(I, F, data.ws, data.wb, q, v)
    if status:
        report(status, ("q", "v"), model, (q, v))
    return data.Ag.copy()


@public("copy")
def compute_centroidal_momentum(model: Model, data: Data, q: ArrayLike, v: ArrayLike) -> np.ndarray:
    """Centroidal momentum ``hg`` ``(6,)`` at ``q: (nq,)``, ``v: (nv,)``: the sum of the body momenta, about the
    CoM; a new array, also in ``data.hg``, with ``data.com[0]``, ``data.vcom[0]``, ``data.mass[0]``, ``data.v``.
    (``Force(hg)`` gives Pinocchio's return type.)"""
    hg = data.fast_entries.compute_centroidal_momentum(model, data, q, v)  # the bound fast entry, or None
    if hg is not None:
        return hg.copy()
    I, F = model.packed
    q, v = vector(q, model.nq, "q"), vector(v, model.nv, "v")
    status = _k.centroidal_momentum(I, F, data.ws, data.wb, q, v, NONE)
    if status:
        report(status, ("q", "v"), model, (q, v))
    return data.hg.copy()


@public("copy")
def compute_centroidal_momentum_time_variation(model: Model, data: Data, q: ArrayLike, v: ArrayLike,
                                               a: ArrayLike) -> np.ndarray:
    """Rate of the centroidal momentum ``dhg`` ``(6,)`` at ``q: (nq,)``, ``v, a: (nv,)`` (the sum of the
    forces acting on the bodies, without gravity, about the CoM); a new array, also in ``data.dhg``, with ``data.hg``,
    ``data.com[0]``, ``data.vcom[0]``, ``data.acom[0]``."""
    dhg = data.fast_entries.compute_centroidal_momentum_time_variation(model, data, q, v, a)  # the bound fast entry, or None
    if dhg is not None:
        return dhg.copy()
    I, F = model.packed
    q, v, a = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(a, model.nv, "a")
    status = _k.centroidal_momentum(I, F, data.ws, data.wb, q, v, a)
    if status:
        report(status, ("q", "v", "a"), model, (q, v, a))
    return data.dhg.copy()


def dccrba(model: Model, data: Data, q: ArrayLike, v: ArrayLike) -> np.ndarray:
    """Time derivative ``dAg`` ``(6, nv)`` of the centroidal momentum matrix along ``v`` at ``q``: a new array,
    also in ``data.dAg``; fills ``data.Ag``, ``data.hg``, ``data.Ig``, ``data.com[0]``, ``data.vcom[0]``, ``data.J`` and
    ``data.dJ`` (with ``dS/dt`` for joints whose subspace depends on q, through the model's elementary twin:
    rbda's dAg matches finite differences on every joint, Pinocchio's leaves that term out).

    Column k of ``Ag`` is ``X_c^* (Ycrb_i J_k)`` (subtree i moved by dof k, force taken about the CoM c), so
    ``dAg_k = X_c^* (dYcrb_i J_k + Ycrb_i dJ_k) - [0; dc/dt x (Ycrb_i J_k)_lin]``, with the rates of the body
    inertias (world frame) summed over the subtree (``kernels/centroidal.py``).
    """
    q, v = vector(q, model.nq, "q"), vector(v, model.nv, "v")
    I, F, _, _, elementary = workspaces(model, data)
    target = data if elementary is None else data.elementary_data
    status = _k.centroidal_map_time_variation(I, F, target.ws, target.wb, q, v)
    if status:
        report(status, ("q", "v"), model, (q, v))
    if elementary is not None:
        for name in ("Ag", "dAg", "J", "dJ", "Ig", "hg"):
            getattr(data, name)[...] = getattr(target, name)
        data.com[0], data.vcom[0], data.mass[0] = target.com[0], target.vcom[0], target.mass[0]
        forward_kinematics(model, data, q, v)
    return data.dAg.copy()


def compute_centroidal_map_time_variation(model: Model, data: Data, q: ArrayLike, v: ArrayLike) -> np.ndarray:
    """The same as :func:`dccrba` (Pinocchio's second name for it): ``dAg`` ``(6, nv)`` at ``q: (nq,)``, ``v:
    (nv,)``; also fills ``data.Ag``."""
    return dccrba(model, data, q, v)


__all__ = ["ccrba", "dccrba", "compute_centroidal_map", "compute_centroidal_map_time_variation",
           "compute_centroidal_momentum", "compute_centroidal_momentum_time_variation"]
