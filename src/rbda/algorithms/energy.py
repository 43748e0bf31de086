"""Kinetic, potential and mechanical energy of the model (Pinocchio's ``energy`` API)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..kernels import energy
from .._native.direct import direct
from ._check import NONE, report, vector

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model
    from numpy.typing import ArrayLike

_k = direct(energy)  # the kernels, past numba's per-call dispatch


def _energy(model, data, q, v) -> None:
    # the bound fast entries (_native/fastcall.py) answer True, or None for the checks below
    if data.fast_entries.energy_q(model, data, q) if v is None else data.fast_entries.energy_qv(model, data, q, v):
        return
    I, F = model.packed
    q = vector(q, model.nq, "q")
    if v is None:
        status = _k.energy(I, F, data.ws, data.wb, q, NONE)
    else:
        status = _k.energy(I, F, data.ws, data.wb, q, vector(v, model.nv, "v"))
    if status:
        report(status, ("q", "v"), model, (q, v))


def compute_kinetic_energy(model: Model, data: Data, q: ArrayLike, v: ArrayLike) -> float:
    """Kinetic energy ``1/2 sum_i v_i . Y_i v_i + 1/2 sum armature v^2 = 1/2 v^T M(q) v`` at ``q: (nq,)``,
    ``v: (nv,)``; also in ``data.kinetic_energy``. Fills ``data.oMi``, ``data.v``.

    (Pinocchio 4.1 leaves out the armature of unaligned revolute and helical joints; rbda counts every dof's.)
    """
    _energy(model, data, q, v)
    data.kinetic_energy = float(data.energy[0])
    return data.kinetic_energy


def compute_potential_energy(model: Model, data: Data, q: ArrayLike) -> float:
    """Potential energy of gravity ``-g . sum_i m_i c_i`` (zero at the world origin) at ``q: (nq,)``; also in
    ``data.potential_energy``. Fills ``data.oMi``."""
    _energy(model, data, q, None)
    data.potential_energy = float(data.energy[1])
    return data.potential_energy


def compute_mechanical_energy(model: Model, data: Data, q: ArrayLike, v: ArrayLike) -> float:
    """Kinetic plus potential energy at ``q: (nq,)``, ``v: (nv,)``; also in ``data.mechanical_energy``, with
    ``data.kinetic_energy`` and ``data.potential_energy``."""
    _energy(model, data, q, v)
    data.kinetic_energy, data.potential_energy, data.mechanical_energy = data.energy.tolist()
    return data.mechanical_energy


__all__ = ["compute_kinetic_energy", "compute_potential_energy", "compute_mechanical_energy"]
