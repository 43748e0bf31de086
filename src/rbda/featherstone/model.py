"""spatial_v2's system model data structure, and its conversion to and from the core :class:`rbda.Model`.

A system model (Featherstone, RBDA section 4.2; spatial_v2 "The System Model Data Structure") describes a kinematic
tree of ``NB`` bodies numbered 1..NB so that ``parent(i) < i`` (0 is the fixed base). Body ``i`` is connected to its
parent by joint ``i`` of type ``jtype[i]``; ``Xtree[i]`` is the coordinate transform from the parent body's frame
to joint i's predecessor frame, so that ``Xup = Xj @ Xtree[i]`` (``Xj, S = jcalc(jtype[i], q[i])``); ``I[i]`` is
body i's rigid-body inertia in its own frame. Spatial models use 6-D angular-first vectors, planar models 3-D
``[w; x; y]`` ones.

In the core, body i is joint i (the universe is joint 0), placed at ``X_to_se3(Xtree[i])``. Planar models become
chains of revolute-Z / prismatic-X/Y joints moving in the xy-plane; a planar inertia ``mcI(m, c, I)`` becomes a
thin lamina ``Inertia(m, [c; 0], diag(I/2, I/2, I))`` (the out-of-plane moments never enter planar motion).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

import numpy as np

from ..joints import (AXIS_JOINT_FAMILIES, JointModel, JointModelHZ, JointModelHelicalUnaligned, JointModelPX,
                      JointModelPY, JointModelPZ, JointModelRX, JointModelRY, JointModelRZ)
from ..model import Model
from ..spatial import SE3, Inertia, exp3

from .arithmetic import mcI, plnr
from .convert import X_to_se3, inertia_to_core, se3_to_X

#: joint type codes of spatial_v2's ``jcalc``: spatial (6-D) and planar (3-D) arithmetic
SPATIAL_CODES = ("Rx", "Ry", "Rz", "R", "Px", "Py", "Pz", "P", "H")
PLANAR_CODES = ("r", "px", "py")

#: spatial_v2's default gravity ``[0, 0, -9.81]``; a planar model takes its first two components, i.e. zero
DEFAULT_GRAVITY = np.array([0.0, 0.0, -9.81])

_CORE_JOINTS = {
    "Rx": JointModelRX, "Ry": JointModelRY, "Rz": JointModelRZ, "R": JointModelRZ,
    "Px": JointModelPX, "Py": JointModelPY, "Pz": JointModelPZ, "P": JointModelPZ,
    "r": JointModelRZ, "px": JointModelPX, "py": JointModelPY,
}


@dataclass
class GroundContact:
    """Ground-contact points of a model (spatial_v2's ``model.gc``): point ``k`` is fixed in body ``body[k]``
    (1-based) at local coordinates ``point[:, k]`` (``(3, np)`` spatial, ``(2, np)`` planar)."""

    body: np.ndarray
    point: np.ndarray

    def __post_init__(self):
        self.body = np.asarray(self.body, dtype=np.int64).reshape(-1)
        self.point = np.asarray(self.point, dtype=np.float64)
        if self.point.ndim != 2 or self.point.shape[0] not in (2, 3) or self.point.shape[1] != self.body.size:
            raise ValueError(f"gc.point: expected shape (3, {self.body.size}) or (2, {self.body.size}) (one column "
                             f"per entry of gc.body), got {self.point.shape}")


@dataclass(eq=False)
class SystemModel:
    """spatial_v2's system model: ``NB``, ``parent`` (1-based, 0 = base), ``jtype``, ``Xtree``, ``I``, ``gravity``.

    ``jtype[i]`` is a code of :data:`SPATIAL_CODES` or :data:`PLANAR_CODES`, or for a helical joint a dict
    ``{"code": "H", "pars": {"pitch": h}}``. ``Xtree[i]``/``I[i]``: ``(6, 6)`` spatial or ``(3, 3)`` planar.
    ``gravity``: ``(3,)`` spatial or ``(2,)`` planar; ``None`` means spatial_v2's default (``[0, 0, -9.81]``
    spatial, zero planar). Optional: ``gamma_q`` (``q, qd, G, g = gamma_q(model, q, qd)``, see :func:`FDgq`),
    ``gc`` (:class:`GroundContact`), ``appearance``/``camera`` (drawing data, ignored by the dynamics).
    """

    parent: list
    jtype: list
    Xtree: list
    I: list
    gravity: Any = None
    gamma_q: Callable | None = None
    gc: GroundContact | None = None
    appearance: Any = None
    camera: Any = None
    _cache: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.parent = [int(p) for p in np.asarray(self.parent).reshape(-1)]
        self.jtype, self.Xtree, self.I = list(self.jtype), list(self.Xtree), list(self.I)

    @property
    def NB(self) -> int:
        """Number of bodies (and joints)."""
        return len(self.parent)

    @property
    def planar(self) -> bool:
        """Whether the model uses planar (3-D) arithmetic."""
        return check_model(self)


# ---------------------------------------------------------------------------------------------- checks
def joint_code(jtyp, name: str = "jtyp") -> tuple[str, float]:
    """``(code, pitch)`` of a joint type: a code string, or a dict/object with ``code`` and ``pars.pitch``."""
    code = jtyp.get("code") if isinstance(jtyp, dict) else getattr(jtyp, "code", jtyp)
    if not isinstance(code, str) or code not in SPATIAL_CODES + PLANAR_CODES:
        raise ValueError(f"{name}: unknown joint type {jtyp!r}; expected one of {SPATIAL_CODES + PLANAR_CODES}")
    pitch = 0.0
    if code == "H":
        pars = jtyp.get("pars") if isinstance(jtyp, dict) else getattr(jtyp, "pars", None)
        pitch = pars.get("pitch") if isinstance(pars, dict) else getattr(pars, "pitch", None)
        if pitch is None:
            raise ValueError(f"{name}: a helical joint 'H' needs pars.pitch, e.g. {{'code': 'H', 'pars': "
                             "{'pitch': 0.1}}")
    return code, float(pitch)


def check_model(model: SystemModel) -> bool:
    """Check the fields of ``model`` (sizes, parents, codes, shapes); returns whether it is planar.

    Raises ``ValueError`` naming the offending field.
    """
    nb = model.NB
    if nb < 1:
        raise ValueError("model.parent: a model needs at least one body (NB >= 1)")
    for name in ("jtype", "Xtree", "I"):
        if len(getattr(model, name)) != nb:
            raise ValueError(f"model.{name}: expected NB = {nb} entries (one per body), got "
                             f"{len(getattr(model, name))}")
    for i, p in enumerate(model.parent):
        if not 0 <= p <= i:
            raise ValueError(f"model.parent: needs 0 <= parent(i) < i (1-based), but parent({i + 1}) = {p}")
    codes = [joint_code(j, f"model.jtype[{i}]")[0] for i, j in enumerate(model.jtype)]
    planar = codes[0] in PLANAR_CODES
    n = 3 if planar else 6
    for i, code in enumerate(codes):
        if (code in PLANAR_CODES) != planar:
            raise ValueError(f"model.jtype[{i}]: {code!r} mixes planar and spatial joint types")
    for name in ("Xtree", "I"):
        for i, X in enumerate(getattr(model, name)):
            if np.shape(X) != (n, n):
                raise ValueError(f"model.{name}[{i}]: expected shape ({n}, {n}) for a "
                                 f"{'planar' if planar else 'spatial'} model, got {np.shape(X)}")
    dim = 2 if planar else 3
    if model.gravity is not None and np.shape(model.gravity) not in ((dim,), (dim, 1)):
        raise ValueError(f"model.gravity: expected shape ({dim},), got {np.shape(model.gravity)}")
    return planar


def gravity_of(model: SystemModel) -> np.ndarray:
    """The model's gravity as a 3-D vector in base coordinates (planar: ``[g_x, g_y, 0]``)."""
    planar = check_model(model)
    if model.gravity is None:
        return np.array([0.0, 0.0, 0.0]) if planar else DEFAULT_GRAVITY.copy()
    g = np.asarray(model.gravity, dtype=np.float64).reshape(-1)
    return np.array([g[0], g[1], 0.0]) if planar else g.copy()


# ---------------------------------------------------------------------------------------------- planar <-> 3-D
def motion_to_3d(v: np.ndarray, planar: bool) -> np.ndarray:
    """Core ``[v; w]`` 6-vector of a spatial_v2 motion ``[w; v_O]`` (planar ``[w_z; v_x; v_y]``)."""
    if planar:
        return np.array([v[1], v[2], 0.0, 0.0, 0.0, v[0]])
    return np.concatenate([v[3:], v[:3]])


def motion_from_3d(c: np.ndarray, planar: bool) -> np.ndarray:
    """spatial_v2 motion (or force) vector of a core linear-first 6-vector: the inverse of :func:`motion_to_3d`."""
    if planar:
        return np.array([c[5], c[0], c[1]])
    return np.concatenate([c[3:], c[:3]])


# forces ``[n; f]`` map as motions ``[w; v]`` do
force_to_3d, force_from_3d = motion_to_3d, motion_from_3d


def matrix_from_3d(A: np.ndarray, planar: bool) -> np.ndarray:
    """spatial_v2 ``(6, 6)``/``(3, 3)`` matrix (inertia, force-from-motion) of a core linear-first ``(6, 6)`` one."""
    rows = [5, 0, 1] if planar else [3, 4, 5, 0, 1, 2]
    return A[np.ix_(rows, rows)]


def core_placement(X, planar: bool, name: str) -> SE3:
    if planar:
        theta, r = plnr(X)
        if np.linalg.norm(plnr(theta, r) - X) > 1e-9 * max(1.0, np.linalg.norm(X)):
            raise ValueError(f"{name}: expected a planar transform plnr(theta, r)")
        return SE3(exp3([0.0, 0.0, theta]), [r[0], r[1], 0.0])
    try:
        return X_to_se3(X)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None


def core_inertia(rbi, planar: bool, name: str) -> Inertia:
    rbi = np.asarray(rbi, dtype=np.float64)
    m = rbi[-1, -1]
    if m == 0.0:  # a massless body: only a rotational inertia (often none) may remain
        if np.abs(rbi).max() != 0.0 and (planar or np.abs(rbi[3:, :]).max() + np.abs(rbi[:, 3:]).max() != 0.0):
            raise ValueError(f"{name}: a massless body may carry rotational inertia only")
        return Inertia.Zero() if planar else Inertia(0.0, np.zeros(3), rbi[:3, :3])
    if planar:
        m, c, Izz = mcI(rbi)
        if np.linalg.norm(mcI(m, c, Izz) - rbi) > 1e-9 * max(1.0, np.linalg.norm(rbi)):
            raise ValueError(f"{name}: expected a planar rigid-body inertia mcI(m, c, I)")
        return Inertia(m, [c[0], c[1], 0.0], np.diag([Izz / 2, Izz / 2, Izz]))
    try:
        return inertia_to_core(rbi)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None


# ---------------------------------------------------------------------------------------------- conversion
def core_joint(jtyp, name: str = "jtyp") -> JointModel:
    """The core joint model of a spatial_v2 joint type (``'H'`` is a helical joint about z with its pitch)."""
    code, pitch = joint_code(jtyp, name)
    return JointModelHZ(pitch) if code == "H" else _CORE_JOINTS[code]()


def to_rbda(model: SystemModel) -> Model:
    """The core :class:`rbda.Model` of a system model: body ``i`` is core joint ``i``, at ``X_to_se3(Xtree[i])``.

    Planar models become RZ/PX/PY chains in the xy-plane; the gravity is ``gravity_of(model)``.
    """
    planar = check_model(model)
    core = Model("featherstone")
    core.gravity = gravity_of(model)
    for i in range(model.NB):
        placement = core_placement(model.Xtree[i], planar, f"model.Xtree[{i}]")
        joint = core.add_joint(model.parent[i], core_joint(model.jtype[i], f"model.jtype[{i}]"), placement,
                               f"joint{i + 1}")
        core.append_body_to_joint(joint, core_inertia(model.I[i], planar, f"model.I[{i}]"), SE3.Identity())
    return core


def _axis_of(joint) -> tuple[str, np.ndarray, float]:
    """``(code, axis, pitch)`` of a core one-axis joint, the code being that of spatial_v2 about the z axis."""
    families = {"revolute": "Rz", "prismatic": "Pz"}
    for family, code in families.items():
        classes = AXIS_JOINT_FAMILIES[family]
        if isinstance(joint, classes):
            return code, np.asarray(joint.axis, dtype=np.float64), 0.0
    if isinstance(joint, JointModelHelicalUnaligned):
        return "H", np.asarray(joint.axis, dtype=np.float64), joint.pitch
    raise ValueError(f"rbda_model.joints: {joint!r} has no spatial_v2 joint type (one-axis revolute, prismatic "
                     "and helical joints only; float a base with floatbase)")


def _z_to(axis: np.ndarray) -> np.ndarray:
    """A rotation matrix ``R`` with ``R e_z = axis`` (unit): the rotation about ``e_z x axis``."""
    axis = axis / np.linalg.norm(axis)
    n = np.cross([0.0, 0.0, 1.0], axis)
    angle = np.arctan2(np.linalg.norm(n), axis[2])
    if np.linalg.norm(n) < 1e-12:
        return np.eye(3) if axis[2] > 0 else exp3([np.pi, 0.0, 0.0])
    return exp3(n / np.linalg.norm(n) * angle)


def from_rbda(rbda_model: Model) -> SystemModel:
    """The spatial system model of the core model ``rbda_model``, made of one-axis revolute, prismatic and helical
    joints.

    Joint ``i`` of the core becomes body ``i``. A joint about an axis ``a`` other than x, y or z (and any helical
    joint) becomes ``'Rz'``/``'Pz'``/``'H'`` in a body frame rotated by ``R`` with ``R e_z = a``; the joint-space
    dynamics are unchanged. Raises ``ValueError`` for other joint types.
    """
    codes = {JointModelRX: "Rx", JointModelRY: "Ry", JointModelRZ: "Rz",
             JointModelPX: "Px", JointModelPY: "Py", JointModelPZ: "Pz"}
    rotations = [np.eye(3)]  # core joint frame i -> spatial_v2 body frame i
    parent, jtype, Xtree, I = [], [], [], []
    for i in range(1, rbda_model.njoints):
        joint = rbda_model.joints[i]
        if type(joint) in codes:
            jtype.append(codes[type(joint)])
            R = np.eye(3)
        else:
            code, axis, pitch = _axis_of(joint)
            jtype.append({"code": "H", "pars": {"pitch": pitch}} if code == "H" else code)
            R = _z_to(axis)
        p = rbda_model.parents[i]
        placement = SE3(rotations[p], np.zeros(3)).inverse() * rbda_model.joint_placements[i] * SE3(R, np.zeros(3))
        parent.append(p)
        Xtree.append(se3_to_X(placement))
        Y = SE3(R, np.zeros(3)).act_inv(rbda_model.inertias[i])
        I.append(mcI(Y.mass, Y.lever, Y.inertia) if Y.mass != 0.0 else _massless(Y.inertia))
        rotations.append(R)
    return SystemModel(parent, jtype, Xtree, I, gravity=np.array(rbda_model.gravity.vector[:3]))


def _massless(rotational: np.ndarray) -> np.ndarray:
    rbi = np.zeros((6, 6))
    rbi[:3, :3] = rotational
    return rbi


# ---------------------------------------------------------------------------------------------- cached core model
class CoreModel(NamedTuple):
    """A converted core model with its data, and whether the system model is planar."""

    model: Model
    data: Any
    planar: bool


def _fingerprint(model: SystemModel) -> tuple:
    arrays = [np.ravel(np.asarray(x, dtype=np.float64)) for x in (*model.Xtree, *model.I)]
    gravity = np.ravel(np.asarray(model.gravity if model.gravity is not None else [], dtype=np.float64))
    jtypes = tuple(j if isinstance(j, str) else joint_code(j) for j in model.jtype)
    return tuple(model.parent), jtypes, np.concatenate([*arrays, gravity]).tobytes()


def cached(model: SystemModel, kind: str, build: Callable) -> CoreModel:
    """The core model ``build(model)`` of ``kind``, rebuilt only when a field of ``model`` has changed."""
    if not isinstance(model, SystemModel):
        raise TypeError(f"model: expected a featherstone.SystemModel, got {type(model).__name__}")
    key = _fingerprint(model)
    hit = model._cache.get(kind)
    if hit is None or hit[0] != key:
        core = build(model)
        hit = (key, CoreModel(core, core.create_data(), check_model(model)))
        model._cache[kind] = hit
    return hit[1]


def core_of(model: SystemModel) -> CoreModel:
    """The cached core twin of ``model`` (:func:`to_rbda`) and its data."""
    return cached(model, "tree", to_rbda)

