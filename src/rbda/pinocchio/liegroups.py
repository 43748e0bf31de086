"""Pinocchio's ``pinocchio.liegroups``: ``R3()``, ``Rn(n)``, ``SO2()``, ``SO3()``, ``SE2()``, ``SE3()`` and their
Cartesian products (``R3() * SO3()``), over rbda's joint Lie groups.

A group is a chain of rbda joints whose configuration spaces are its factors (``R^n``: prismatic joints,
``SO(2)``: an unbounded revolute joint, ``SO(3)``: a spherical joint, ``SE(2)``: a planar joint, ``SE(3)``: a
free-flyer), so every operation is rbda's configuration-space function of that chain (``rbda.integrate``,
``rbda.d_integrate``, ...), in Pinocchio's layout: ``SO(3)`` as ``(x, y, z, w)``, ``SE(3)`` as ``[p; quat]`` with
its tangent ``[v; w]`` in the local frame, ``SE(2)`` and ``SO(2)`` with ``(cos, sin)``.
"""

from __future__ import annotations

import numpy as np

from .. import algorithms as _a
from .. import joints as _j
from ..model import Model
from ..spatial import SE3 as _SE3
from ..algorithms import ARG0, ARG1
from ._convert import vector
from .spatial import _rng


class LieGroup:
    """A product of rbda joint Lie groups: ``factors`` are ``(name, joints)`` pairs, each a factor of the product
    (``R^n`` is ``n`` prismatic joints)."""

    def __init__(self, factors: list):
        self.factors = list(factors)
        self._model = Model("liegroup")
        for _, joints in self.factors:
            for joint in joints:
                self._model.add_joint(self._model.njoints - 1, joint, _SE3(), f"joint{self._model.njoints}",
                                      min_config=-1.0, max_config=1.0)

    @property
    def name(self) -> str:
        return " x ".join(name for name, _ in self.factors)

    nq = property(lambda self: self._model.nq)
    nv = property(lambda self: self._model.nv)

    def __mul__(self, other: "LieGroup") -> "LieGroup":
        return LieGroup(self.factors + other.factors)

    def neutral(self) -> np.ndarray:
        return _a.neutral(self._model)

    def random(self) -> np.ndarray:
        return _a.random_configuration(self._model, rng=_rng)

    def integrate(self, q, v) -> np.ndarray:
        return _a.integrate(self._model, vector(q), vector(v))

    def difference(self, q0, q1) -> np.ndarray:
        return _a.difference(self._model, vector(q0), vector(q1))

    def interpolate(self, q0, q1, u: float) -> np.ndarray:
        return _a.interpolate(self._model, vector(q0), vector(q1), u)

    def distance(self, q0, q1) -> float:
        return _a.distance(self._model, vector(q0), vector(q1))

    def squaredDistance(self, q0, q1) -> float:
        return float(_a.squared_distance(self._model, vector(q0), vector(q1)).sum())

    def normalize(self, q) -> np.ndarray:
        return _a.normalize(self._model, vector(q))

    def dIntegrate(self, q, v, arg) -> np.ndarray:
        return _a.d_integrate(self._model, vector(q), vector(v), arg)

    def dDifference(self, q0, q1, arg, *product) -> np.ndarray:
        """``J``, or ``J @ M`` for ``(..., 0, M)``, ``M @ J`` for ``(..., M, 0)`` (Pinocchio's ``SELF = 0``)."""
        return _product(_a.d_difference(self._model, vector(q0), vector(q1), arg), product)

    def dIntegrate_dq(self, q, v, *product) -> np.ndarray:
        return _product(self.dIntegrate(q, v, ARG0), product)

    def dIntegrate_dv(self, q, v, *product) -> np.ndarray:
        return _product(self.dIntegrate(q, v, ARG1), product)

    def dIntegrateTransport(self, q, v, J, arg) -> np.ndarray:
        return _a.d_integrate_transport(self._model, vector(q), vector(v), J, arg)

    def __repr__(self) -> str:
        return f"LieGroup({self.name})"


def _product(J: np.ndarray, product: tuple) -> np.ndarray:
    if not product:
        return J
    left, right = product
    if isinstance(left, (int, np.integer)) and not isinstance(left, np.ndarray):
        return J @ right
    return left @ J


def Rn(n: int) -> LieGroup:
    return LieGroup([(f"R^{int(n)}", [_j.JointModelPX() for _ in range(int(n))])])


def R3() -> LieGroup:
    return LieGroup([("R^3", [_j.JointModelTranslation()])])


def SO2() -> LieGroup:
    return LieGroup([("SO(2)", [_j.JointModelRUBZ()])])


def SO3() -> LieGroup:
    return LieGroup([("SO(3)", [_j.JointModelSpherical()])])


def SE2() -> LieGroup:
    return LieGroup([("SE(2)", [_j.JointModelPlanar()])])


def SE3() -> LieGroup:
    return LieGroup([("SE(3)", [_j.JointModelFreeFlyer()])])
