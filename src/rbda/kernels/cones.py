"""Compiled friction cones, the formulations' shifts and their complementarity residuals.

A contact impulse (or velocity) is ``[t1, t2, n]``, normal last; a problem with ``k`` contacts stacks them in a
``(3k,)`` vector. Four cones, chosen by an integer code:

- ``COULOMB``: ``K_mu = {||t|| <= mu n}``, the second-order cone of Coulomb friction;
- ``COULOMB_DUAL``: its dual ``K_mu* = {mu ||t|| <= n}`` (``K_{1/mu}``, the half-space ``n >= 0`` when mu = 0);
- ``PYRAMID``: the four-facet pyramid ``P_mu = {|t1| <= mu n, |t2| <= mu n}`` of the LCP;
- ``PYRAMID_DUAL``: its dual ``P_mu* = {mu (|t1| + |t2|) <= n}``.

Three formulations, chosen by an integer code, differ by their cone and the shift ``s(v) = [0, 0, phi(v_t)]``
added to the velocity before the complementarity ``cone ∋ lambda ⊥ v + s(v) ∈ dual cone``:

- ``NCP``: Coulomb cone, De Saxcé's shift ``phi = mu ||v_t||`` (exact Coulomb friction and Signorini);
- ``CCP``: Coulomb cone, no shift (the convex relaxation: sliding contacts separate at ``v_n = mu ||v_t||``);
- ``LCP``: pyramid, ``phi = mu (|v_t1| + |v_t2|)``: Signorini on ``v_n`` and box friction on each tangent axis.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

NCP, CCP, LCP = 0, 1, 2
COULOMB, COULOMB_DUAL, PYRAMID, PYRAMID_DUAL = 0, 1, 2, 3


@njit(cache=True, refcount=False)
def coulomb_project(t1, t2, n, mu):
    """Euclidean projection of ``[t1, t2, n]`` on ``K_mu``: itself inside, 0 in the polar cone
    ``{mu ||t|| <= -n}``, else the nearest point of the boundary ray in the plane of ``t``."""
    r = np.sqrt(t1 * t1 + t2 * t2)
    if r <= mu * n and n >= 0.0:  # (n >= 0: with mu = 0, the ray)
        return t1, t2, n
    if mu * r <= -n:
        return 0.0, 0.0, 0.0
    s = (mu * r + n) / (1.0 + mu * mu)  # coordinate along the boundary direction (mu, 1) of (||t||, n)
    k = mu * s / r
    return k * t1, k * t2, s


@njit(cache=True, refcount=False)
def coulomb_dual_project(t1, t2, n, mu):
    """Euclidean projection on ``K_mu* = {mu ||t|| <= n}``, whose polar cone is ``-K_mu``."""
    r = np.sqrt(t1 * t1 + t2 * t2)
    if mu * r <= n:
        return t1, t2, n
    if r <= -mu * n:
        return 0.0, 0.0, 0.0
    s = (r + mu * n) / (1.0 + mu * mu)  # coordinate along the boundary direction (1, mu) of (||t||, n)
    k = s / r
    return k * t1, k * t2, mu * s


@njit(cache=True, refcount=False)
def pyramid_project(t1, t2, n, mu, dual):
    """Euclidean projection on ``P_mu`` (``dual`` False) or ``P_mu*`` (True). Both cones are symmetric under
    ``t_i -> -t_i``, so the point is reflected into ``t1, t2 >= 0``, where the projection lies on one of a few
    faces: the point itself, a facet, an edge ray, or the origin. Each candidate in the cone is a point of the
    cone, the projection is one of them, so the nearest candidate in the cone is the projection."""
    a, b = abs(t1), abs(t2)
    tol = 1e-12 * (a + b + abs(n))
    best, b1, b2, bn = np.inf, 0.0, 0.0, 0.0
    for c in range(5):
        if not dual:  # P: facets a = mu n, b = mu n; edge ray (mu, mu, 1)
            if c == 0:
                ca, cb, cn = a, b, n
            elif c == 1:
                s = (mu * a + n) / (1.0 + mu * mu)
                ca, cb, cn = mu * s, b, s
            elif c == 2:
                s = (mu * b + n) / (1.0 + mu * mu)
                ca, cb, cn = a, mu * s, s
            elif c == 3:
                s = max(0.0, (mu * a + mu * b + n) / (1.0 + 2.0 * mu * mu))
                ca, cb, cn = mu * s, mu * s, s
            else:
                ca, cb, cn = 0.0, 0.0, 0.0
            inside = abs(ca) <= mu * cn + tol and abs(cb) <= mu * cn + tol and cn >= -tol
        else:  # P*: facet mu (a + b) = n; edge rays (1, 0, mu), (0, 1, mu)
            if c == 0:
                ca, cb, cn = a, b, n
            elif c == 1:
                s = (mu * a + mu * b - n) / (1.0 + 2.0 * mu * mu)
                ca, cb, cn = a - mu * s, b - mu * s, n + s
            elif c == 2:
                s = max(0.0, (a + mu * n) / (1.0 + mu * mu))
                ca, cb, cn = s, 0.0, mu * s
            elif c == 3:
                s = max(0.0, (b + mu * n) / (1.0 + mu * mu))
                ca, cb, cn = 0.0, s, mu * s
            else:
                ca, cb, cn = 0.0, 0.0, 0.0
            inside = mu * (abs(ca) + abs(cb)) <= cn + tol
        d = (a - ca) ** 2 + (b - cb) ** 2 + (n - cn) ** 2
        if inside and d < best:
            best, b1, b2, bn = d, ca, cb, cn
    return np.copysign(b1, t1), np.copysign(b2, t2), bn


@njit(cache=True, refcount=False)
def project(cone, t1, t2, n, mu):
    """Euclidean projection of one contact's ``[t1, t2, n]`` on the cone of code ``cone``."""
    if cone == COULOMB:
        return coulomb_project(t1, t2, n, mu)
    if cone == COULOMB_DUAL:
        return coulomb_dual_project(t1, t2, n, mu)
    return pyramid_project(t1, t2, n, mu, cone == PYRAMID_DUAL)


@njit(cache=True, refcount=False)
def shift(formulation, t1, t2, mu):
    """The normal component ``phi(v_t)`` of the formulation's shift ``s(v) = [0, 0, phi]``."""
    if formulation == NCP:
        return mu * np.sqrt(t1 * t1 + t2 * t2)  # De Saxcé
    if formulation == LCP:
        return mu * (abs(t1) + abs(t2))
    return 0.0


@njit(cache=True)
def project_all(cone, mu, x, out):
    """``out_i = proj(x_i)`` for each contact ``i`` of ``x (3k,)``, on the cone of code ``cone`` with ``mu (k,)``."""
    for i in range(mu.shape[0]):
        k = 3 * i
        out[k], out[k + 1], out[k + 2] = project(cone, x[k], x[k + 1], x[k + 2], mu[i])


@njit(cache=True)
def shift_all(formulation, mu, v, out):
    """``out = s(v)``: zero tangent components, the formulation's shift as normal components."""
    for i in range(mu.shape[0]):
        k = 3 * i
        out[k], out[k + 1], out[k + 2] = 0.0, 0.0, shift(formulation, v[k], v[k + 1], mu[i])


@njit(cache=True, refcount=False)
def complementarity_residuals(formulation, mu, lam, v):
    """``(dual feasibility, complementarity)`` of ``lam`` with velocity ``v``: with ``c = v + s(v)``, the largest
    distance (infinity norm) from a contact's ``c_i`` to the dual cone, and the largest ``|lam_i . c_i|``."""
    dual_cone = (PYRAMID if formulation == LCP else COULOMB) + 1
    dual, compl = 0.0, 0.0
    for i in range(mu.shape[0]):
        k = 3 * i
        c1, c2 = v[k], v[k + 1]
        cn = v[k + 2] + shift(formulation, c1, c2, mu[i])
        p1, p2, pn = project(dual_cone, c1, c2, cn, mu[i])
        dual = max(dual, abs(c1 - p1), abs(c2 - p2), abs(cn - pn))
        compl = max(compl, abs(lam[k] * c1 + lam[k + 1] * c2 + lam[k + 2] * cn))
    return dual, compl


@njit(cache=True, refcount=False)
def box_residuals(first, lower, upper, lam, v, dual, compl):
    """``(dual feasibility, complementarity)`` updated with the box rows from ``first``: each row's natural-map
    residual ``|lam_j - clip(lam_j - v_j, lower_j, upper_j)|`` (zero if and only if the row's complementarity
    holds) counts in both."""
    for j in range(lower.shape[0]):
        a = first + j
        r = abs(lam[a] - min(upper[j], max(lower[j], lam[a] - v[a])))
        dual, compl = max(dual, r), max(compl, r)
    return dual, compl
