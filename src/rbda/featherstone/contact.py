"""spatial_v2's ground-contact model: ``gcPosVel``, ``gcontact`` and ``gcFD``.

The ground is the plane ``z = 0`` (planar: ``y = 0``) with the normal axis pointing up. ``model.gc`` lists the
contact points (:class:`~rbda.featherstone.GroundContact`). A simulation computes the points' positions and
velocities (``gcPosVel``), their ground forces and the rates of the ground's tangential deformation
(``gcontact``), turns the linear forces into spatial ones (``Fpt``) and passes them to a forward-dynamics
function through ``gcFD``.

Compliant ground law of ``gcontact`` (a Hunt-Crossley spring-damper whose stiffness grows with the depth, as a
Hertzian contact patch does): at depth ``z = -p_n > 0`` and penetration rate ``zd = -pd_n``,

- normal force ``f_n = max(0, sqrt(z) (K z + D zd))``;
- the ground surface under the point is displaced tangentially by ``u``; the force that keeps the point
  stuck to it is ``f_stick = -sqrt(z) (K u + D pd_t)``, with ``ud = pd_t``;
- ``fcone = |f_stick| / (mu f_n)``: the point sticks if ``fcone <= 1``; otherwise it slides, the force is
  ``f_t = f_stick / fcone`` (on the friction cone) and ``ud`` solves ``f_t = -sqrt(z) (K u + D ud)``.

A point not in contact (``f_n = 0``) feels no force, its ``u`` relaxes (``ud = -K u / D``) and ``fcone = inf``.
"""

from __future__ import annotations

import numpy as np

from ..algorithms import forward_kinematics

from .arithmetic import _scalar, _vector
from .dynamics import joint_vector
from .floating import FDfb, core_state, floating_core_of
from .model import SystemModel, core_of


def _contact_points(model: SystemModel):
    if model.gc is None:
        raise ValueError("model.gc: this model has no ground-contact points")
    return model.gc.body, model.gc.point


def gcPosVel(model: SystemModel, *args) -> np.ndarray:
    """Positions and linear velocities of the ground-contact points in base coordinates (spatial_v2
    ``gcPosVel``).

    ``gcPosVel(model, q, qd)`` (``(NB,)`` each) or ``gcPosVel(model, xfb[, q, qd])`` (floating base, ``q, qd``
    of joints 7..NB, omitted only when ``NB == 6``). Returns ``(6, np)`` ``[position; velocity]`` per point
    (planar: ``(4, np)``).
    """
    body, point = _contact_points(model)
    if len(args) == 2:
        core = core_of(model)
        q, qd = (joint_vector(x, model.NB, name) for x, name in zip(args, ("q", "qd")))
        joints = body
    elif len(args) in (1, 3):
        if len(args) == 1 and model.NB != 6:
            raise ValueError(f"q, qd: needed for joints 7..NB (NB = {model.NB}); call gcPosVel(model, xfb, q, qd)")
        core = floating_core_of(model)
        _, _, q, qd = core_state(model, *(args if len(args) == 3 else (args[0], [], [])))
        joints = body - 5
        if np.any(joints < 1):
            raise ValueError("model.gc.body: floating-base contact points must lie on bodies 6..NB")
    else:
        raise TypeError(f"gcPosVel: expected (model, q, qd) or (model, xfb[, q, qd]), got {len(args) + 1} arguments")
    forward_kinematics(core.model, core.data, q, qd)
    planar = point.shape[0] == 2
    p = np.vstack([point, np.zeros((1, point.shape[1]))]) if planar else point
    placements = core.data.oMi.array[joints]  # (np, 3, 4): [R | t] per point
    R, t = placements[:, :, :3], placements[:, :, 3]
    v_local = core.data.v[joints]  # (np, 6): [v; w] in the joint frame
    position = np.einsum("kij,jk->ik", R, p) + t.T
    velocity = np.einsum("kij,kj->ik", R, v_local[:, :3] + np.cross(v_local[:, 3:], p.T))
    n = 2 if planar else 3
    return np.vstack([position[:n], velocity[:n]])


def _points(x, name: str, rows: tuple[int, ...]) -> np.ndarray:
    a = np.asarray(x, dtype=np.float64)
    if a.ndim == 1:
        a = a.reshape(1, -1) if rows == (1,) else a.reshape(-1, 1)
    if a.ndim != 2 or a.shape[0] not in rows or not np.isfinite(a).all():
        raise ValueError(f"{name}: expected a finite array of shape ({' or '.join(map(str, rows))}, np), "
                         f"got {np.shape(x)}")
    return a


def _normal_force(K: float, D: float, depth: np.ndarray, rate: np.ndarray) -> np.ndarray:
    """``max(0, sqrt(z) (K z + D zd))`` where the depth ``z > 0``, else 0."""
    z = np.maximum(depth, 0.0)
    return np.maximum(np.sqrt(z) * (K * z + D * rate), 0.0) * (depth > 0)


def gcontact(K, D, mu, p, pd, u=None):
    """Forces of a compliant ground on a set of points (spatial_v2 ``gcontact``; law in the module docstring), of
    stiffness ``K`` and damping ``D`` per unit of penetration, and friction coefficient ``mu``.

    With friction (``mu > 0``): ``p, pd: (nd, np)`` positions and velocities (``nd`` = 3, or 2 planar), ``u:
    (nd - 1, np)`` tangential deformations; returns ``(f: (nd, np), ud: (nd - 1, np), fcone: (np,))``, point i
    being in contact if ``f[-1, i] > 0`` and sticking if ``fcone[i] <= 1``. Simulink's single-output form is
    ``np.vstack([f, ud, fcone])``. Frictionless (``mu == 0``): ``p, pd: (np,)`` or ``(1, np)`` normal
    components, returns the normal forces ``f`` in the shape of ``p``.
    """
    K, D, mu = _scalar(K, "K"), _scalar(D, "D"), _scalar(mu, "mu")
    if K <= 0 or D < 0 or mu < 0:
        raise ValueError(f"K, D, mu: expected K > 0, D >= 0, mu >= 0, got {K}, {D}, {mu}")
    if mu == 0:
        zn, zdn = _points(p, "p", (1,)), _points(pd, "pd", (1,))
        if zdn.shape != zn.shape:
            raise ValueError(f"pd: expected the shape of p, {np.shape(p)}, got {np.shape(pd)}")
        return _normal_force(K, D, -zn, -zdn).reshape(np.shape(p))
    if D <= 0:
        raise ValueError(f"D: the friction model needs a positive damping, got {D}")
    p, pd = _points(p, "p", (2, 3)), _points(pd, "pd", (2, 3))
    nd, count = p.shape
    if pd.shape != p.shape:
        raise ValueError(f"pd: expected shape {p.shape}, got {pd.shape}")
    u = _points(u, "u", (nd - 1,)) if u is not None else None
    if u is None or u.shape != (nd - 1, count):
        raise ValueError(f"u: expected shape ({nd - 1}, {count}), got {None if u is None else np.shape(u)}")
    depth = -p[-1]
    fn = _normal_force(K, D, depth, -pd[-1])
    contact = fn > 0
    root = np.sqrt(np.maximum(depth, 0.0))
    f_stick = -root * (K * u + D * pd[:-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        fcone = np.where(contact, np.linalg.norm(f_stick, axis=0) / (mu * fn), np.inf)
    sliding = contact & (fcone > 1)
    ft = np.where(sliding, f_stick / np.where(sliding, fcone, 1.0), f_stick) * contact
    ud = np.where(contact, pd[:-1], -K / D * u)
    with np.errstate(divide="ignore", invalid="ignore"):
        ud = np.where(sliding, -(ft / np.where(sliding, root, 1.0) + K * u) / D, ud)
    return np.vstack([ft, fn]), ud, fcone


def gcFD(model: SystemModel, FDfun, u) -> np.ndarray:
    """Forward dynamics from one input vector, with ground-contact forces (spatial_v2 ``gcFD``).

    ``FDfun`` is ``FDab``, ``FDcrb``, ``FDgq`` or ``FDfb``. ``u = [q; qd; tau; F]`` (``FDfb``:
    ``[xfb; q; qd; tau; F]``, with joints 7..NB), where the optional ``F`` is the ``(6, np)`` (planar ``(3, np)``)
    matrix of spatial forces on the contact points (base coordinates, e.g. ``Fpt(f, p)``) flattened column by
    column. Body ``gc.body[k]`` receives column k. Returns ``qdd`` (``FDfb``: ``[xdfb; qdd]``).
    """
    floating = FDfun is FDfb
    n = model.NB - 6 if floating else model.NB
    head = 13 if floating else 0
    u = _vector(u, "u", (np.size(u),))
    if u.size < head + 3 * n:
        raise ValueError(f"u: expected at least {head + 3 * n} entries ({'xfb, ' if floating else ''}q, qd, tau), "
                         f"got {u.size}")
    q, qd, tau = np.split(u[head:head + 3 * n], 3)
    f_ext = _contact_forces(model, u[head + 3 * n:])
    if floating:
        xdfb, qdd = FDfb(model, u[:13], q, qd, tau, f_ext)
        return np.concatenate([xdfb, qdd])
    return FDfun(model, q, qd, tau, f_ext)


def _contact_forces(model: SystemModel, forces: np.ndarray) -> list | None:
    """spatial_v2 ``f_ext`` (one summed force per body) of the flattened per-point forces of :func:`gcFD`."""
    if forces.size == 0:
        return None
    body, point = _contact_points(model)
    d = 3 if point.shape[0] == 2 else 6
    if forces.size != d * body.size:
        raise ValueError(f"u: the contact forces need {d} x {body.size} = {d * body.size} entries after tau, "
                         f"got {forces.size}")
    per_body = np.zeros((model.NB, d))
    np.add.at(per_body, body - 1, forces.reshape(body.size, d))
    return list(per_body)
