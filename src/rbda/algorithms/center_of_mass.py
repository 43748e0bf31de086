"""Centre of mass of the whole model and of every subtree, its velocity, acceleration and Jacobians, and the
masses (Pinocchio's ``center-of-mass`` API). Everything is in the world frame; ``data.com[0]`` is the model's
CoM, ``data.com[i]`` that of the subtree rooted at joint ``i``."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._native.public import public
from ..kernels import center_of_mass as center_of_mass_kernels
from .._native.direct import direct
from ._check import NONE, check_data, report, vector
from .kinematics import _joint_id

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model
    from numpy.typing import ArrayLike

_k = direct(center_of_mass_kernels)  # the kernels, past numba's per-call dispatch


@public("copy", arity=5, entries=("center_of_mass_q", "center_of_mass_qv", "center_of_mass_qva"))
def center_of_mass(model: Model, data: Data, q: ArrayLike, v: ArrayLike | None = None, a: ArrayLike | None = None,
                   compute_subtree_coms: bool = True) -> np.ndarray:
    """CoM ``(3,)`` of the model at ``q: (nq,)``, in the world frame; with ``v: (nv,)`` also its velocity, with
    ``a: (nv,)`` its acceleration (without gravity).

    Fills ``data.com``, ``data.vcom``, ``data.acom`` ``(njoints, 3)``: row 0 the whole model in the world frame,
    row i > 0 the subtree of joint i expressed in joint i's frame, as Pinocchio does (``data.oMi[i].act(
    data.com[i])`` is its world position; subtrees are always computed, ``compute_subtree_coms`` is accepted
    for Pinocchio's signature); also ``data.mass`` ``(njoints,)`` and the kinematics ``data.oMi``, ``data.v``,
    ``data.a``. A massless subtree gets its joint's origin and zero rates. Returns ``data.com[0]`` (a copy).
    """
    if v is None:  # the bound fast entries (_native/fastcall.py) answer data.com[0], or None for the checks below
        com = data.fast_entries.center_of_mass_q(model, data, q) if a is None else None
    else:
        com = (data.fast_entries.center_of_mass_qv(model, data, q, v) if a is None
               else data.fast_entries.center_of_mass_qva(model, data, q, v, a))
    if com is not None:
        return com.copy()
    I, F = model.packed
    q = vector(q, model.nq, "q")
    if v is None:
        if a is not None:
            raise ValueError("a: an acceleration needs a velocity v")
        status = _k.center_of_mass(I, F, data.ws, data.wb, q, NONE, NONE)
    elif a is None:
        status = _k.center_of_mass(I, F, data.ws, data.wb, q, vector(v, model.nv, "v"), NONE)
    else:
        status = _k.center_of_mass(I, F, data.ws, data.wb, q, vector(v, model.nv, "v"), vector(a, model.nv, "a"))
    if status:
        report(status, ("q", "v", "a"), model, (q, v, a))
    return data.com[0].copy()


@public("copy")
def jacobian_center_of_mass(model: Model, data: Data, q: ArrayLike, compute_subtree_coms: bool = True) -> np.ndarray:
    """Jacobian ``(3, nv)`` of the centre of mass at ``q: (nq,)`` (world frame): ``d com / dt = Jcom v``; a new
    array, also in ``data.Jcom``. Also fills ``data.mass``, ``data.J``, ``data.oMi``, and with
    ``compute_subtree_coms`` (the default, as in Pinocchio) every subtree's centre of mass ``data.com`` in the world
    frame."""
    Jcom = data.fast_entries.jacobian_center_of_mass(model, data, q)  # the bound fast entry (_native/fastcall.py), or None
    if Jcom is not None:
        return Jcom.copy()
    I, F = model.packed
    status = _k.jacobian_center_of_mass(I, F, data.ws, data.wb, vector(q, model.nq, "q"))
    if status:
        report(status, ("q",), model, (q,))
    return data.Jcom.copy()


@public("copy")
def jacobian_subtree_center_of_mass(model: Model, data: Data, q: ArrayLike, subtree_root_joint_id: int) -> np.ndarray:
    """Jacobian ``(3, nv)`` (world frame) at ``q: (nq,)`` of the centre of mass of the subtree rooted at joint
    ``subtree_root_joint_id`` (``kernels/center_of_mass.py``); a new array. Fills the fields of
    :func:`jacobian_center_of_mass` too."""
    J = data.fast_entries.jacobian_subtree_center_of_mass(model, data, q, subtree_root_joint_id)  # or None
    if J is not None:
        return J.copy()
    root = _joint_id(model, data, subtree_root_joint_id)
    I, F = model.packed
    out = np.empty((3, model.nv))
    status = _k.jacobian_subtree_center_of_mass(I, F, data.ws, data.wb, vector(q, model.nq, "q"), root, out)
    if status:
        report(status, ("q",), model, (q,))
    return out


def compute_total_mass(model: Model, data: Data | None = None) -> float:
    """Total mass of the model; stored in ``data.mass[0]`` when ``data`` is given."""
    total = model.masses[0]
    if data is not None:
        data.mass[0] = total
    return total


@public("copy")
def compute_subtree_masses(model: Model, data: Data) -> np.ndarray:
    """Mass of every subtree into ``data.mass`` ``(njoints,)`` (``data.mass[0]`` the total); returns a copy."""
    check_data(model, data)
    mass = model.masses[1]
    data.mass[:] = mass
    return mass.copy()


__all__ = ["center_of_mass", "jacobian_center_of_mass", "jacobian_subtree_center_of_mass", "compute_total_mass",
           "compute_subtree_masses"]
