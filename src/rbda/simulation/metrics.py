"""Physical criteria of a contact solution (Le Lidec, Jallet, Montaut, Laptev, Schmid & Carpentier, "Contact
Models in Robotics: a Comparative Analysis", 2023, section V): how far impulses ``lambda (3k,)`` and contact
velocities ``v (3k,)`` (each contact ``[t1, t2, n]``, normal last) are from Signorini's condition and Coulomb's
law with maximal dissipation, whatever the formulation that produced them. Each is 0 for an exact solution of
the NCP; every function takes ``mu`` as a float or a ``(k,)`` array and returns the largest value over contacts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..kernels import cones as _cones
from .._native.direct import direct
from ._check import finite_vector, friction_coefficients

_k = direct(_cones)


def _contacts(lam, v, mu=0.0):
    """``lam``, ``v`` as ``(k, 3)`` arrays and ``mu`` as ``(k,)``, checked."""
    n = np.size(v)
    if n % 3:
        raise ValueError(f"v: length {n} is not a multiple of 3 (three components per contact)")
    lam, v = finite_vector(lam, n, "lam"), finite_vector(v, n, "v")
    return lam.reshape(-1, 3), v.reshape(-1, 3), friction_coefficients(mu, n // 3)


def _largest(x) -> float:
    return float(np.max(x)) if np.size(x) else 0.0


def signorini(lam, v) -> float:
    """``max_i |lambda_n,i v_n,i|``: a contact either pushes or separates, not both.

    ``lam``: the impulses (or forces) ``(3 n,)``, ``[f_t1, f_t2, f_n]`` per contact, normal last; ``v``: the contact
    velocities ``(3 n,)`` in the same layout; ``mu``: the friction coefficients ``(n,)`` or one for all."""
    lam, v, _ = _contacts(lam, v)
    return _largest(np.abs(lam[:, 2] * v[:, 2]))


def maximum_dissipation_gap(lam, v, mu) -> float:
    """``max_i (lambda_t . v_t + mu lambda_n ||v_t||)``: how much less the friction dissipates than the most it
    could within the cone, ``min_{||f|| <= mu lambda_n} f . v_t = -mu lambda_n ||v_t||``. It is the sum of the
    paper's saturation term ``(mu lambda_n - ||lambda_t||) ||v_t||`` (a sliding contact's friction is at the
    cone's boundary) and an alignment term ``||lambda_t|| ||v_t|| + lambda_t . v_t`` (and opposed to the
    sliding), both >= 0 inside the cone.

    ``lam``: the impulses (or forces) ``(3 n,)``, ``[f_t1, f_t2, f_n]`` per contact, normal last; ``v``: the contact
    velocities ``(3 n,)`` in the same layout; ``mu``: the friction coefficients ``(n,)`` or one for all."""
    lam, v, mu = _contacts(lam, v, mu)
    slide = np.linalg.norm(v[:, :2], axis=1)
    return _largest(np.abs(np.einsum("ij,ij->i", lam[:, :2], v[:, :2]) + mu * lam[:, 2] * slide))


def ncp_complementarity(lam, v, mu) -> float:
    """``max_i |lambda_i . (v_i + Phi(v_i))|`` with De Saxcé's ``Phi(v) = [0, 0, mu ||v_t||]``.

    ``lam``: the impulses (or forces) ``(3 n,)``, ``[f_t1, f_t2, f_n]`` per contact, normal last; ``v``: the contact
    velocities ``(3 n,)`` in the same layout; ``mu``: the friction coefficients ``(n,)`` or one for all."""
    lam, v, mu = _contacts(lam, v, mu)
    c = v.copy()
    c[:, 2] += mu * np.linalg.norm(v[:, :2], axis=1)
    return _largest(np.abs(np.einsum("ij,ij->i", lam, c)))


def conic_complementarity(lam, v) -> float:
    """``max_i |lambda_i . v_i|``, the complementarity of the CCP.

    ``lam``: the impulses (or forces) ``(3 n,)``, ``[f_t1, f_t2, f_n]`` per contact, normal last; ``v``: the contact
    velocities ``(3 n,)`` in the same layout; ``mu``: the friction coefficients ``(n,)`` or one for all."""
    lam, v, _ = _contacts(lam, v)
    return _largest(np.abs(np.einsum("ij,ij->i", lam, v)))


def dual_feasibility(v, mu) -> float:
    """``max_i ||c_i - proj_K*(c_i)||`` with ``c = v + Phi(v)`` and ``K*`` the dual of Coulomb's cone: 0 when no
    contact penetrates further (``v_n >= 0``).

    ``lam``: the impulses (or forces) ``(3 n,)``, ``[f_t1, f_t2, f_n]`` per contact, normal last; ``v``: the contact
    velocities ``(3 n,)`` in the same layout; ``mu``: the friction coefficients ``(n,)`` or one for all."""
    _, v, mu = _contacts(np.zeros(np.size(v)), v, mu)
    c = v.reshape(-1).copy()
    c[2::3] += mu * np.linalg.norm(v[:, :2], axis=1)
    projected = np.empty_like(c)
    _k.project_all(_cones.COULOMB_DUAL, mu, c, projected)
    return _largest(np.linalg.norm((c - projected).reshape(-1, 3), axis=1))


def primal_feasibility(lam, mu) -> float:
    """``max_i ||lambda_i - proj_K(lambda_i)||``, the impulses' distance to Coulomb's cones.

    ``lam``: the impulses (or forces) ``(3 n,)``, ``[f_t1, f_t2, f_n]`` per contact, normal last; ``v``: the contact
    velocities ``(3 n,)`` in the same layout; ``mu``: the friction coefficients ``(n,)`` or one for all."""
    lam, _, mu = _contacts(lam, np.zeros(np.size(lam)), mu)
    flat = lam.reshape(-1)
    projected = np.empty_like(flat)
    _k.project_all(_cones.COULOMB, mu, flat, projected)
    return _largest(np.linalg.norm((flat - projected).reshape(-1, 3), axis=1))


@dataclass
class ContactMetrics:
    """The criteria of :func:`contact_metrics`, each the largest over the contacts: ``signorini``,
    ``maximum_dissipation_gap``, ``ncp_complementarity``, ``conic_complementarity``, ``dual_feasibility`` and
    ``primal_feasibility``, as the functions of those names compute them."""

    signorini: float
    maximum_dissipation_gap: float
    ncp_complementarity: float
    conic_complementarity: float
    dual_feasibility: float
    primal_feasibility: float


def contact_metrics(lam, v, mu) -> ContactMetrics:
    """Every criterion of this module for impulses ``lam (3k,)``, contact velocities ``v (3k,)`` and friction
    coefficients ``mu`` (a float or ``(k,)``). Raises ``ValueError`` naming the argument for a wrong length, a
    non-finite value or ``mu < 0``."""
    return ContactMetrics(signorini(lam, v), maximum_dissipation_gap(lam, v, mu), ncp_complementarity(lam, v, mu),
                          conic_complementarity(lam, v), dual_feasibility(v, mu), primal_feasibility(lam, mu))
