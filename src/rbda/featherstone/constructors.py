"""spatial_v2's model constructors: ``autoTree``, ``floatbase``, ``planar``, ``gfxExample`` and the models of the
seven tutorial examples (``vee``, ``singlebody``, ``scissor``, ``doubleElbow``, ``rollingdisc``).

Each returns a :class:`~rbda.featherstone.SystemModel`. Drawing instructions are reduced to a small
``appearance`` dict (a list of labelled shapes per body) that the dynamics ignore.
"""

from __future__ import annotations

import warnings

import numpy as np

from .arithmetic import _scalar, mcI, plnr, plux, rx
from .model import GroundContact, SystemModel, check_model

_ZERO_GRAVITY = np.zeros(3)


# ---------------------------------------------------------------------------------------------- inertias
def _rod(m: float, length: float, direction) -> np.ndarray:
    """``(6, 6)`` inertia of a uniform solid rod of radius ``length / 20`` from the origin to
    ``length * direction`` (unit): ``m r^2 / 2`` about its axis, ``m (3 r^2 + l^2) / 12`` across."""
    d = np.asarray(direction, dtype=np.float64)
    r2 = (length / 20) ** 2
    across = m * (3 * r2 + length**2) / 12
    return mcI(m, length / 2 * d, across * np.eye(3) + (m * r2 / 2 - across) * np.outer(d, d))


def _box(m: float, size, centre) -> np.ndarray:
    """``(6, 6)`` inertia of a uniform box of dimensions ``size`` centred at ``centre``."""
    a, b, c = np.asarray(size, dtype=np.float64) ** 2
    return mcI(m, centre, m / 12 * np.diag([b + c, a + c, a + b]))


def _planar_rod(m: float = 1.0, length: float = 1.0) -> np.ndarray:
    """``(3, 3)`` planar inertia of a thin uniform rod from the origin along x."""
    return mcI(m, [length / 2, 0.0], m * length**2 / 12)


# ---------------------------------------------------------------------------------------------- test trees
def _tree_parents(nb: int, bf: float) -> list[int]:
    """Breadth-first parent array: the base has one child, and the bodies have alternately floor(bf) and
    ceil(bf) children, so that body ``i`` hangs from ``floor((i - 2 + ceil(bf)) / bf)``."""
    return [int(np.floor((i - 2 + np.ceil(bf)) / bf)) for i in range(1, nb + 1)]


def autoTree(nb: int, bf: float = 1.0, skew: float = 0.0, taper: float = 1.0) -> SystemModel:
    """A spatial kinematic tree of ``nb`` revolute joints (spatial_v2 ``autoTree``), for testing.

    ``bf >= 1``: branching factor (1 unbranched, 2 binary, fractions alternate); the base has one child and
    bodies are numbered breadth-first. Body i is a thin-walled cylinder of length ``l_i = taper^(i-1)``, radius
    ``l_i / 20`` and mass ``taper^(3(i-1))`` along its x axis; its joint axis is its z axis, and its children's
    axes pass through ``(l_i, 0, 0)``, rotated by ``skew`` about x (``skew = 0`` gives a planar mechanism).
    """
    nb = int(_scalar(nb, "nb"))
    bf, skew, taper = _scalar(bf, "bf"), _scalar(skew, "skew"), _scalar(taper, "taper")
    if nb < 1:
        raise ValueError(f"nb: expected an integer >= 1, got {nb}")
    if bf < 1:
        raise ValueError(f"bf: expected a branching factor >= 1, got {bf}")
    if taper <= 0:
        raise ValueError(f"taper: expected a positive size ratio, got {taper}")
    parent = _tree_parents(nb, bf)
    length = [taper**i for i in range(nb)]
    Xtree, I = [], []
    for i in range(nb):
        p = parent[i]
        Xtree.append(np.eye(6) if p == 0 else plux(rx(skew), [length[p - 1], 0.0, 0.0]))
        l, m = length[i], taper ** (3 * i)
        r = l / 20
        I.append(mcI(m, [l / 2, 0.0, 0.0], m * np.diag([r**2, r**2 / 2 + l**2 / 12, r**2 / 2 + l**2 / 12])))
    appearance = {"body": [[("cylinder", [[0, 0, 0], [length[i], 0, 0]], length[i] / 20)] for i in range(nb)]}
    return SystemModel(parent, ["R"] * nb, Xtree, I, appearance=appearance)


def floatbase(model: SystemModel) -> SystemModel:
    """The floating-base twin of a fixed-base spatial tree (spatial_v2 ``floatbase``).

    Joint 1 is replaced by prismatic x, y, z and revolute x, y, z joints carrying 5 massless bodies; body 1
    becomes body 6, the floating base, and body i becomes body i + 5. Needs a spatial model whose only body on
    the base is body 1. Warns if ``Xtree[0]`` is not the identity (the offset is lost) or if the model has a
    ``gamma_q`` (its joint numbers change). Ground-contact points and drawings follow their bodies.
    """
    if check_model(model):
        raise ValueError("model: floatbase needs a spatial model, got a planar one")
    if model.parent.count(0) != 1:
        raise ValueError("model.parent: floatbase needs exactly one body (body 1) connected to the base")
    if np.linalg.norm(np.asarray(model.Xtree[0]) - np.eye(6)) > 1e-12:
        warnings.warn("floatbase: model.Xtree[0] is not the identity; its offset is lost", stacklevel=2)
    if model.gamma_q is not None:
        warnings.warn("floatbase: model.gamma_q refers to the old joint numbers", stacklevel=2)
    parent = [0, 1, 2, 3, 4, 5] + [p + 5 for p in model.parent[1:]]
    jtype = ["Px", "Py", "Pz", "Rx", "Ry", "Rz"] + list(model.jtype[1:])
    Xtree = [np.eye(6)] * 6 + [np.array(X, dtype=np.float64) for X in model.Xtree[1:]]
    I = [np.zeros((6, 6))] * 5 + [np.array(Y, dtype=np.float64) for Y in model.I]
    gc = None if model.gc is None else GroundContact(model.gc.body + 5, model.gc.point)
    appearance = model.appearance
    if isinstance(appearance, dict) and "body" in appearance:
        appearance = {**appearance, "body": [[]] * 5 + list(appearance["body"])}
    return SystemModel(parent, jtype, Xtree, I, gravity=model.gravity, gamma_q=model.gamma_q, gc=gc,
                       appearance=appearance, camera=model.camera)


def planar(n: int) -> SystemModel:
    """An unbranched planar robot of ``n`` identical links and revolute joints (spatial_v2 ``planar``).

    Each link lies along its local x axis: unit length, unit mass, rotational inertia 1/12 about its centre
    (a thin rod). At ``q = 0`` the links line up on the base x axis. Gravity: spatial_v2's planar default, zero.
    """
    n = int(_scalar(n, "n"))
    if n < 1:
        raise ValueError(f"n: expected an integer >= 1, got {n}")
    Xtree = [plnr(0.0, [0.0, 0.0])] + [plnr(0.0, [1.0, 0.0]) for _ in range(n - 1)]
    appearance = {"body": [[("line", [[0, 0], [1, 0]])] for _ in range(n)]}
    return SystemModel(list(range(n)), ["r"] * n, Xtree, [_planar_rod() for _ in range(n)], appearance=appearance)


def gfxExample(arg=None) -> SystemModel:
    """``planar(2)`` adorned with drawing data (spatial_v2 ``gfxExample``); any ``arg`` adds a tracking camera.

    The drawing data are descriptive only: a list of labelled shapes per body, and the camera's target body.
    """
    robot = planar(2)
    robot.appearance = {
        "base": [("tiles", "ground plane"), ("box", [[-0.2, -0.3], [0.2, -0.1]])],
        "body": [[("line", [[0, 0], [1, 0]]), ("cylinder", [[0, 0], 0.07])],
                 [("line", [[0, 0], [1, 0]]), ("triangle", [[0.8, 0.1], [1.0, 0.0], [0.8, -0.1]])]],
    }
    robot.camera = {"body": 2, "trackpoint": [1.0, 0.0]} if arg is not None else {"body": 0}
    return robot


# ---------------------------------------------------------------------------------------------- tutorial models
def vee(L2: float = 1.0) -> SystemModel:
    """Two rods joined by a revolute joint at 45 degrees to both, floating in zero gravity (``vee``).

    The rods are solid, of radius length / 20 (a rod of zero radius would spin freely about its own axis, and
    make the joint's effective inertia zero). At ``q = 0`` rod 1 (mass and length 1) lies on the base x axis, rod 2 (mass and length ``L2``) on the y
    axis, and the joint axis points along ``(1, 1, 0)``. Bodies 1-5 are floatbase's chain, 6 and 7 the rods.
    """
    L2 = _scalar(L2, "L2")
    if L2 <= 0:
        raise ValueError(f"L2: expected a positive length, got {L2}")
    s = np.sqrt(0.5)
    E = np.array([[s, -s, 0.0], [0.0, 0.0, -1.0], [s, s, 0.0]])  # rows: joint frame axes; z = (1, 1, 0)/sqrt 2
    rods = [_rod(1.0, 1.0, [1.0, 0.0, 0.0]), _rod(L2, L2, E @ [0.0, 1.0, 0.0])]
    appearance = {"body": [[("rod", [0, 0, 0], [1, 0, 0])], [("rod", [0, 0, 0], list(L2 * E @ [0, 1, 0]))]]}
    tree = SystemModel([0, 1], ["R", "R"], [np.eye(6), plux(E, np.zeros(3))], rods, gravity=_ZERO_GRAVITY,
                       appearance=appearance)
    return floatbase(tree)


def singlebody() -> SystemModel:
    """A free-floating uniform box of unit mass and size 3 x 2 x 1, a vertex at the origin and one at
    ``(3, 2, 1)``, in zero gravity (``singlebody``; tutorial example 4). ``NB = 6``."""
    box = _box(1.0, [3.0, 2.0, 1.0], [1.5, 1.0, 0.5])
    tree = SystemModel([0], ["R"], [np.eye(6)], [box], gravity=_ZERO_GRAVITY,
                       appearance={"body": [[("box", [[0, 0, 0], [3, 2, 1]])]]})
    return floatbase(tree)


def scissor() -> SystemModel:
    """Two identical strips (mass 1, 0.1 x 0.02 x 1) pinned at their middles by a revolute joint on the y axis,
    floating in zero gravity (``scissor``; tutorial example 5). At ``q = 0`` the system's centre of mass is at
    the origin and the strips' long axes are parallel to z. Bodies 6 and 7 are the strips."""
    size = [0.1, 0.02, 1.0]
    strips = [_box(1.0, size, [0.0, -0.01, 0.0]), _box(1.0, size, [0.0, 0.01, 0.0])]
    tree = SystemModel([0, 1], ["R", "Ry"], [np.eye(6), np.eye(6)], strips, gravity=_ZERO_GRAVITY,
                       appearance={"body": [[("box", [[-0.05, -0.02, -0.5], [0.05, 0, 0.5]])],
                                            [("box", [[-0.05, 0, -0.5], [0.05, 0.02, 0.5]])]]})
    return floatbase(tree)


#: time constant (s) of the constraint stabilisation of doubleElbow's gamma_q
DOUBLE_ELBOW_TSTAB = 0.1


def _double_elbow_gamma_q(model: SystemModel, q, qd):
    """Constraint ``q2 = q3`` of :func:`doubleElbow` (independent variables ``y = [q1, (q2 + q3) / 2]``).

    Returns the projected ``q = gamma(y)``, ``qd = G yd``, ``G = d gamma / d y`` and
    ``g = dG/dt yd + (2/T)(qd - qd_o) + (q - q_o)/T^2``, which makes a violation ``e = q_o - q`` obey
    ``e'' + (2/T) e' + e / T^2 = 0`` (critically damped, time constant ``T = DOUBLE_ELBOW_TSTAB``).
    """
    q_o, qd_o = np.asarray(q, dtype=np.float64), np.asarray(qd, dtype=np.float64)
    G = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    y = np.array([q_o[0], (q_o[1] + q_o[2]) / 2])
    yd = np.array([qd_o[0], (qd_o[1] + qd_o[2]) / 2])
    q_c, qd_c = G @ y, G @ yd
    T = DOUBLE_ELBOW_TSTAB
    g = 2 / T * (qd_c - qd_o) + (q_c - q_o) / T**2  # dG/dt = 0
    return q_c, qd_c, G, g


def doubleElbow() -> SystemModel:
    """``planar(2)`` with its elbow replaced by two revolute joints 0.1 apart, geared 1:1 (``doubleElbow``).

    Bodies: link 1 (a unit rod), a short elbow piece between the two elbow joints (mass 0.1, length 0.1) and
    link 2 (a unit rod). ``gamma_q`` imposes ``q2 = q3``; use :func:`FDgq`. Gravity: zero (planar default).
    """
    Xtree = [plnr(0.0, [0.0, 0.0]), plnr(0.0, [1.0, 0.0]), plnr(0.0, [0.1, 0.0])]
    I = [_planar_rod(), _planar_rod(0.1, 0.1), _planar_rod()]
    appearance = {"body": [[("line", [[0, 0], [1, 0]])], [("line", [[0, 0], [0.1, 0]])],
                           [("line", [[0, 0], [1, 0]])]]}
    return SystemModel([0, 1, 2], ["r", "r", "r"], Xtree, I, gamma_q=_double_elbow_gamma_q, appearance=appearance)


#: rollingdisc's radius, thickness and mass
DISC_RADIUS, DISC_THICKNESS, DISC_MASS = 1.0, 0.2, 1.0


def rollingdisc(npt: int) -> SystemModel:
    """A free-floating polyhedral disc with ``2 * npt`` ground-contact points (``rollingdisc``; example 7).

    Radius 1, thickness 0.2, mass 1, centred on its body origin with its axis along the body y axis; the
    contact points are the vertices of the two ``npt``-gons ``(cos a, +-0.1, sin a)``. Gravity ``-9.81 z``.
    """
    npt = int(_scalar(npt, "npt"))
    if npt < 3:
        raise ValueError(f"npt: expected at least 3 vertices, got {npt}")
    R, T, m = DISC_RADIUS, DISC_THICKNESS, DISC_MASS
    inertia = mcI(m, np.zeros(3), m / 12 * np.diag([3 * R**2 + T**2, 6 * R**2, 3 * R**2 + T**2]))
    a = 2 * np.pi * np.arange(npt) / npt
    rim = np.vstack([R * np.cos(a), np.zeros(npt), R * np.sin(a)])
    points = np.hstack([rim + [[0.0], [T / 2], [0.0]], rim - [[0.0], [T / 2], [0.0]]])
    tree = SystemModel([0], ["R"], [np.eye(6)], [inertia], appearance={"body": [[("prism", points.tolist())]]},
                       gc=GroundContact(np.ones(2 * npt, dtype=int), points))
    return floatbase(tree)

