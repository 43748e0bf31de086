"""Converters between spatial_v2's conventions and the core ``rbda.spatial`` ones.

spatial_v2 orders spatial vectors ``[angular; linear]`` and describes a frame B relative to A by the coordinate
transform ``X = plux(E, r)`` from A to B coordinates, with ``E = bRa`` and ``r`` the origin of B in A. The core
orders them ``[linear; angular]`` and describes B by the placement ``aMb = SE3(aRb, apb) = SE3(E^T, r)``
(Pinocchio's cheat sheet: "For Featherstone, E = bRa = aRb^T and r = apb"). Then ``X`` is ``aMb.action_inverse``
(``bXa``) with its blocks reordered, and a rigid-body inertia ``mcI(m, c, I)`` is ``Inertia(m, c, I).matrix()`` reordered.
"""

from __future__ import annotations

import numpy as np

from rbda.spatial import SE3, Force, Inertia, Motion
from rbda.spatial._validate import as_array

from .arithmetic import mcI, plux

_TOLERANCE = 1e-9  # relative tolerance of the structure checks of X and rbi


def _swap_halves(vector: np.ndarray) -> np.ndarray:
    """``[a; b] -> [b; a]`` for a ``(6,)`` vector: angular-first <-> linear-first."""
    return np.concatenate([vector[3:], vector[:3]])


def _core_vector(x, cls: type, name: str) -> np.ndarray:
    """The ``[linear; angular]`` 6-vector of a core ``Motion``/``Force`` or of a ``(6,)`` array."""
    if isinstance(x, cls):
        return x.vector
    if isinstance(x, (Motion, Force)):
        raise TypeError(f"{name}: expected a {cls.__name__} or a (6,) array, got {type(x).__name__}")
    return as_array(x, (6,), name)


def motion_to_core(v) -> Motion:
    """Core :class:`Motion` ``[v_O; w]`` of a spatial_v2 motion vector ``v: (6,) = [w; v_O]``."""
    return Motion(_swap_halves(as_array(v, (6,), "v")))


def motion_from_core(m) -> np.ndarray:
    """spatial_v2 motion vector ``(6,) = [w; v_O]`` of ``m``, a core :class:`Motion` or ``(6,)`` array ``[v_O; w]``."""
    return _swap_halves(_core_vector(m, Motion, "m"))


def force_to_core(f) -> Force:
    """Core :class:`Force` ``[f; n_O]`` of a spatial_v2 force vector ``f: (6,) = [n_O; f]``."""
    return Force(_swap_halves(as_array(f, (6,), "f")))


def force_from_core(f) -> np.ndarray:
    """spatial_v2 force vector ``(6,) = [n_O; f]`` of a core :class:`Force` or ``(6,)`` array ``[f; n_O]``."""
    return _swap_halves(_core_vector(f, Force, "f"))


def X_to_se3(X) -> SE3:
    """Core placement ``aMb = SE3(E^T, r)`` of the spatial_v2 motion transform ``X = plux(E, r): (6, 6)``, A to B.

    Raises ``ValueError`` if ``X`` is not of the form ``[[E, 0], [-E r_x, E]]`` with ``E`` a rotation.
    """
    X = as_array(X, (6, 6), "X")
    E, r = plux(X)
    scale = max(1.0, float(np.linalg.norm(X)))
    if (
        np.linalg.norm(E.T @ E - np.eye(3)) > 1e-6
        or np.linalg.det(E) < 0.0
        or np.linalg.norm(plux(E, r) - X) > _TOLERANCE * scale
    ):
        raise ValueError("X: expected a Plücker transform [[E, 0], [-E r_x, E]] with E a rotation matrix")
    return SE3(E.T, r)


def se3_to_X(M: SE3) -> np.ndarray:
    """spatial_v2 motion transform ``X = plux(E, r): (6, 6)`` from A to B of the core placement ``M = aMb``."""
    if not isinstance(M, SE3):
        raise TypeError(f"M: expected an SE3, got {type(M).__name__}")
    return plux(M.rotation.T, M.translation)


def inertia_to_core(rbi) -> Inertia:
    """Core :class:`Inertia` of a spatial_v2 rigid-body inertia ``rbi: (6, 6) = mcI(m, c, I)``.

    Raises ``ValueError`` if ``rbi`` is not symmetric, has zero mass, or is not of the form ``mcI(m, c, I)``.
    """
    rbi = as_array(rbi, (6, 6), "rbi")
    m, c, I = mcI(rbi)
    scale = max(1.0, float(np.linalg.norm(rbi)))
    if np.linalg.norm(rbi - rbi.T) > _TOLERANCE * scale or np.linalg.norm(mcI(m, c, I) - rbi) > _TOLERANCE * scale:
        raise ValueError("rbi: expected a symmetric rigid-body inertia [[I + m c_x c_x^T, m c_x], [m c_x^T, m 1]]")
    return Inertia(m, c, I)


def inertia_from_core(Y: Inertia) -> np.ndarray:
    """spatial_v2 rigid-body inertia ``(6, 6) = mcI(m, c, I)`` of the core :class:`Inertia` ``Y``."""
    if not isinstance(Y, Inertia):
        raise TypeError(f"Y: expected an Inertia, got {type(Y).__name__}")
    return mcI(Y.mass, Y.lever, Y.inertia)
