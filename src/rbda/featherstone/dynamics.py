"""spatial_v2's dynamics functions on a :class:`~rbda.featherstone.SystemModel`, built on the core algorithms.

Each function converts its arguments at the boundary and calls ``rbda.rnea``, ``rbda.aba``,
``rbda.crba``, ... on the cached core twin of the model (:func:`~rbda.featherstone.core_of`). Vectors ``q, qd,
qdd, tau`` are ``(NB,)``; ``f_ext`` is spatial_v2's per-body list of external forces in **base coordinates**
(angular first; planar ``[n_z; f_x; f_y]``), an entry ``None`` or ``[]`` meaning no force, the whole list
``None``/``[]`` meaning none at all. The core wants forces per joint in each joint frame: body i's force ``f``
becomes ``oMi.act_inv(f)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..algorithms import (aba, center_of_mass, compute_centroidal_momentum, compute_kinetic_energy,
                          compute_potential_energy, compute_total_mass, crba, forward_kinematics, rnea)
from ..spatial import Force

from .arithmetic import _scalar, _vector, plnr, rotx, roty, rotz, xlt
from .model import (
    SystemModel,
    core_of,
    force_to_3d,
    joint_code,
    matrix_from_3d,
    motion_from_3d,
)


# ---------------------------------------------------------------------------------------------- arguments
def joint_vector(x, n: int, name: str) -> np.ndarray:
    """``x`` as a finite ``(n,)`` float array (``(n, 1)`` and ``(1, n)`` accepted), else a ``ValueError``."""
    return _vector(x, name, (n,))


def has_forces(f_ext) -> bool:
    """Whether ``f_ext`` holds any force (``None``, ``{}``, ``[]`` and lists of empty entries do not)."""
    return f_ext is not None and len(f_ext) > 0 and any(f is not None and np.size(f) > 0 for f in f_ext)


def core_fext(f_ext, nb: int, oMi, planar: bool, offset: int = 0) -> np.ndarray | None:
    """Core external forces ``(njoints, 6)`` (joint frames, linear first) of spatial_v2's ``f_ext``.

    ``f_ext[i]`` acts on body ``i + 1``, which is core joint ``i + 1 - offset``; bodies without a core joint
    (``i + 1 <= offset``, the massless chain of a floating base) are skipped. ``oMi``: the core placements.
    """
    if not has_forces(f_ext):
        return None
    if len(f_ext) != nb:
        raise ValueError(f"f_ext: expected NB = {nb} entries (one per body, None for no force), got {len(f_ext)}")
    fext = np.zeros((len(oMi), 6))
    for i, f in enumerate(f_ext):
        joint = i + 1 - offset
        if f is None or np.size(f) == 0 or joint < 1:
            continue
        f = _vector(f, f"f_ext[{i}]", (3,) if planar else (6,))
        fext[joint] = oMi[joint].act_inv(Force(force_to_3d(f, planar))).vector
    return fext


def _fext(core, q, f_ext, nb: int) -> np.ndarray | None:
    if not has_forces(f_ext):
        return None
    forward_kinematics(core.model, core.data, q)
    return core_fext(f_ext, nb, core.data.oMi, core.planar)


def _states(model: SystemModel, **vectors) -> list[np.ndarray]:
    return [joint_vector(x, model.NB, name) for name, x in vectors.items()]


# ---------------------------------------------------------------------------------------------- joints
def jcalc(jtyp, q) -> tuple[np.ndarray, np.ndarray]:
    """Joint transform and motion subspace (spatial_v2 ``jcalc``; RBDA Table 4.1).

    ``jtyp``: a code of ``SPATIAL_CODES``/``PLANAR_CODES`` or ``{"code": "H", "pars": {"pitch": h}}``; ``q``:
    scalar. Returns ``(Xj, S)``: the transform from the joint's predecessor to its successor frame, ``(6, 6)``
    or planar ``(3, 3)``, and ``S`` ``(6,)``/``(3,)`` in successor coordinates, so that ``Xup = Xj @ Xtree`` and
    ``vJ = S * qd``.
    """
    code, pitch = joint_code(jtyp)
    q = _scalar(q, "q")
    e = np.eye(6)
    table = {
        "Rx": (rotx, e[0]), "Ry": (roty, e[1]), "Rz": (rotz, e[2]), "R": (rotz, e[2]),
        "Px": (lambda x: xlt([x, 0, 0]), e[3]), "Py": (lambda x: xlt([0, x, 0]), e[4]),
        "Pz": (lambda x: xlt([0, 0, x]), e[5]), "P": (lambda x: xlt([0, 0, x]), e[5]),
        "H": (lambda x: rotz(x) @ xlt([0, 0, pitch * x]), np.array([0, 0, 1, 0, 0, pitch], dtype=float)),
        "r": (lambda x: plnr(x, [0, 0]), np.eye(3)[0]), "px": (lambda x: plnr(0, [x, 0]), np.eye(3)[1]),
        "py": (lambda x: plnr(0, [0, x]), np.eye(3)[2]),
    }
    transform, S = table[code]
    return transform(q), S.copy()


# ---------------------------------------------------------------------------------------------- dynamics
def ID(model: SystemModel, q, qd, qdd, f_ext=None) -> np.ndarray:
    """Inverse dynamics ``tau: (NB,)`` by the recursive Newton-Euler algorithm (RBDA Table 5.1; ``rbda.rnea``).

    ``q``, ``qd``, ``qdd`` ``(NB,)``: joint positions, velocities and accelerations; ``f_ext`` (optional): one
    external force per body in base coordinates, angular first (``None`` or ``[]``: none)."""
    core = core_of(model)
    q, qd, qdd = _states(model, q=q, qd=qd, qdd=qdd)
    fext = _fext(core, q, f_ext, model.NB)
    return rnea(core.model, core.data, q, qd, qdd, fext).copy()


def FDab(model: SystemModel, q, qd, tau, f_ext=None) -> np.ndarray:
    """Forward dynamics ``qdd: (NB,)`` by the articulated-body algorithm (RBDA Table 7.1; ``rbda.aba``).

    ``q``, ``qd``, ``tau`` ``(NB,)``: joint positions, velocities and forces; ``f_ext`` (optional): one external
    force per body in base coordinates, angular first (``None`` or ``[]``: none)."""
    core = core_of(model)
    q, qd, tau = _states(model, q=q, qd=qd, tau=tau)
    fext = _fext(core, q, f_ext, model.NB)
    return aba(core.model, core.data, q, qd, tau, fext).copy()


def HandC(model: SystemModel, q, qd, f_ext=None) -> tuple[np.ndarray, np.ndarray]:
    """Coefficients of ``H qdd + C = tau``: ``(H: (NB, NB), C: (NB,))``, ``C = ID(model, q, qd, 0, f_ext)``.

    ``H`` by the composite-rigid-body algorithm (RBDA Table 6.2; ``rbda.crba``), ``C`` by ``rbda.rnea``.
    """
    core = core_of(model)
    q, qd = _states(model, q=q, qd=qd)
    fext = _fext(core, q, f_ext, model.NB)
    C = rnea(core.model, core.data, q, qd, np.zeros(model.NB), fext)
    H = crba(core.model, core.data, q)
    return H, C


def FDcrb(model: SystemModel, q, qd, tau, f_ext=None) -> np.ndarray:
    """Forward dynamics ``qdd: (NB,)`` by solving ``H qdd = tau - C`` with ``H, C = HandC(...)``.

    ``q``, ``qd``, ``tau`` ``(NB,)``: joint positions, velocities and forces; ``f_ext`` (optional): one external
    force per body in base coordinates, angular first (``None`` or ``[]``: none)."""
    H, C = HandC(model, q, qd, f_ext)
    return np.linalg.solve(H, joint_vector(tau, model.NB, "tau") - C)


def hybrid_solve(H: np.ndarray, C: np.ndarray, fd: np.ndarray, tau: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unknowns of ``H qdd + C = tau`` when ``C`` already holds the known accelerations' share ``H[:, ~fd] qdd``.

    Returns ``(qdd_fd, tau_id)``: the accelerations of the forward-dynamics variables
    (``H_FF qdd_F = tau_F - C_F``) and the forces of the others (``tau_I = C_I + H_IF qdd_F``).
    """
    qdd_fd = np.linalg.solve(H[np.ix_(fd, fd)], tau[fd] - C[fd])
    return qdd_fd, C[~fd] + H[np.ix_(~fd, fd)] @ qdd_fd


def HD(model: SystemModel, fd, q, qd, qdd, tau, f_ext=None) -> tuple[np.ndarray, np.ndarray]:
    """Hybrid dynamics (spatial_v2 ``HD``): ``(qdd_out, tau_out)``, both ``(NB,)`` and fully instantiated.

    ``q``, ``qd`` ``(NB,)``: joint positions and velocities; ``f_ext`` (optional): one external force per body in
    base coordinates, angular first. ``fd: (NB,)`` booleans: joint i is forward-dynamics (``tau[i]`` given, ``qdd[i]`` ignored) when ``fd[i]``,
    otherwise inverse-dynamics (``qdd[i]`` given, ``tau[i]`` ignored). Built on the core: ``C`` is ``rbda.rnea``
    at the given accelerations (zero at the forward joints), ``H`` is ``rbda.crba``, and the forward block
    ``H_FF qdd_F = tau_F - C_F`` is solved (RBDA section 9.2's partition of the equation of motion).
    """
    fd = np.asarray(fd)
    if fd.shape not in ((model.NB,), (model.NB, 1), (1, model.NB)):
        raise ValueError(f"fd: expected NB = {model.NB} booleans, got shape {fd.shape}")
    fd = fd.reshape(-1).astype(bool)
    core = core_of(model)
    q, qd, qdd, tau = _states(model, q=q, qd=qd, qdd=qdd, tau=tau)
    fext = _fext(core, q, f_ext, model.NB)
    C = rnea(core.model, core.data, q, qd, np.where(fd, 0.0, qdd), fext)
    H = crba(core.model, core.data, q)
    qdd_out, tau_out = qdd.copy(), tau.copy()
    qdd_out[fd], tau_out[~fd] = hybrid_solve(H, C, fd, tau)
    return qdd_out, tau_out


def FDgq(model: SystemModel, q, qd, tau, f_ext=None) -> np.ndarray:
    """Forward dynamics of a kinematic tree under constraints ``q = gamma(y)`` (spatial_v2 ``FDgq``), with
    optional external forces ``f_ext`` (one per body, base coordinates, angular first).

    ``model.gamma_q(model, q, qd)`` returns ``(q, qd, G, g)``: corrected ``q`` and ``qd`` satisfying the
    constraints, ``G = d gamma / d y`` ``(NB, ny)`` and ``g`` ``(NB,)`` with ``qdd = G ydd + g`` (``g`` holds
    ``dG/dt yd`` plus a constraint-stabilisation term). With ``H, C = HandC`` at the corrected state,
    ``(G^T H G) ydd = G^T (tau - C - H g)`` and ``qdd = G ydd + g: (NB,)`` is returned.
    """
    if model.gamma_q is None:
        raise ValueError("model.gamma_q: FDgq needs a constraint function gamma_q(model, q, qd) -> (q, qd, G, g)")
    tau = joint_vector(tau, model.NB, "tau")
    qc, qdc, G, g = model.gamma_q(model, joint_vector(q, model.NB, "q"), joint_vector(qd, model.NB, "qd"))
    G = np.asarray(G, dtype=np.float64).reshape(model.NB, -1)
    g = joint_vector(g, model.NB, "g (from gamma_q)")
    H, C = HandC(model, qc, qdc, f_ext)
    ydd = np.linalg.solve(G.T @ H @ G, G.T @ (tau - C - H @ g))
    return G @ ydd + g


# ---------------------------------------------------------------------------------------------- energy
@dataclass
class EnergyMomentum:
    """spatial_v2 ``EnerMo``'s fields, in base coordinates: kinetic/potential energy ``KE``/``PE`` (zero when
    ``cm`` is zero), total spatial momentum ``htot`` about the base origin (``(6,)`` or planar ``(3,)``), total
    spatial inertia ``Itot``, ``mass``, centre of mass ``cm`` and its velocity ``vcm`` (``(3,)``/``(2,)``)."""

    KE: float
    PE: float
    htot: np.ndarray
    Itot: np.ndarray
    mass: float
    cm: np.ndarray
    vcm: np.ndarray


def EnerMo(model: SystemModel, q, qd) -> EnergyMomentum:
    """Energy, momentum and related quantities (spatial_v2 ``EnerMo``) at joint positions ``q`` and velocities
    ``qd`` ``(NB,)``, from the core's ``compute_kinetic_energy``,
    ``compute_potential_energy``, ``center_of_mass`` and ``compute_centroidal_momentum``.

    The centroidal momentum ``[p; L_G]`` moves to the base origin as ``L_O = L_G + c x p``;
    ``Itot = sum_i oMi.act(Y_i)``.
    """
    core = core_of(model)
    q, qd = _states(model, q=q, qd=qd)
    m, d = core.model, core.data
    KE = compute_kinetic_energy(m, d, q, qd)
    PE = compute_potential_energy(m, d, q)
    cm = center_of_mass(m, d, q, qd)
    vcm = d.vcom[0].copy()
    p, L_G = np.split(compute_centroidal_momentum(m, d, q, qd).copy(), 2)
    h = np.concatenate([p, L_G + np.cross(cm, p)])
    Itot = sum(d.oMi[i].act(m.inertias[i]).matrix() for i in range(1, m.njoints))
    n = 2 if core.planar else 3
    return EnergyMomentum(float(KE), float(PE), motion_from_3d(h, core.planar), matrix_from_3d(Itot, core.planar),
                          float(compute_total_mass(m)), cm[:n], vcm[:n])
