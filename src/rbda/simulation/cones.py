"""Friction cones of a frictional point contact, for a force or impulse ``[f_t1, f_t2, f_n]`` (normal last) in
the contact frame.

``CoulombFrictionCone(mu)`` is Coulomb's cone ``K = {||f_t|| <= mu f_n}``, ``DualCoulombFrictionCone(mu)`` its
dual ``K* = {mu ||c_t|| <= c_n}`` (where contact velocities corrected by De Saxcé's term live);
``PyramidalFrictionCone(mu)`` is the four-facet pyramid ``{|f_t1| <= mu f_n, |f_t2| <= mu f_n}`` of the LCP and
``DualPyramidalFrictionCone(mu)`` its dual ``{mu (|c_t1| + |c_t2|) <= c_n}``. Every method takes one vector
``(3,)`` or a stack ``(..., 3)`` and returns the same shape.
"""

from __future__ import annotations

import numpy as np

from ..kernels import cones as _cones
from .._native.direct import direct
from ._check import friction_coefficient
from ..spatial._validate import as_array, as_scalar

_k = direct(_cones)


def _stack(x, name: str) -> np.ndarray:
    """``x`` as a finite float64 array of shape ``(..., 3)``."""
    a = np.asarray(x, dtype=np.float64) if not isinstance(x, np.ndarray) else x
    if a.ndim == 0 or a.shape[-1] != 3:
        raise ValueError(f"{name}: expected shape (3,) or (..., 3), got {np.shape(a)}")
    return as_array(a, a.shape, name)


class _Cone:
    """A cone of one contact, chosen by its kernel code; see the subclasses."""

    _code = -1
    _dual_class: type = None

    def __init__(self, mu: float):
        self.mu = friction_coefficient(mu)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(mu={self.mu!r})"

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and other.mu == self.mu

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.mu))

    def project(self, x) -> np.ndarray:
        """Euclidean projection of ``x (3,) or (..., 3)`` on the cone; returns a new array of the same shape.
        Raises ``ValueError`` for a wrong shape or non-finite values."""
        x = _stack(x, "x")
        flat = np.ascontiguousarray(x.reshape(-1))
        out = np.empty_like(flat)
        _k.project_all(self._code, np.full(flat.size // 3, self.mu), flat, out)
        return out.reshape(x.shape)

    def is_inside(self, x, tol: float = 0.0):
        """Whether ``x (3,) or (..., 3)`` is in the cone up to ``tol`` (its distance to the cone, Euclidean norm);
        a bool, or a boolean array of shape ``x.shape[:-1]``."""
        x = _stack(x, "x")
        inside = np.linalg.norm(x - self.project(x), axis=-1) <= as_scalar(tol, "tol")
        return bool(inside) if inside.ndim == 0 else inside

    def dual(self):
        """The dual cone ``{c : c . f >= 0 for every f in the cone}``."""
        return self._dual_class(self.mu)


class CoulombFrictionCone(_Cone):
    """Coulomb's friction cone ``K_mu = {f = [f_t1, f_t2, f_n] : ||f_t|| <= mu f_n}`` (normal last).

    Parameters: ``mu``, the friction coefficient, a finite float >= 0 (``mu = 0`` is the frictionless ray
    ``f_t = 0, f_n >= 0``). Raises ``ValueError`` for ``mu < 0`` or a non-finite ``mu``.
    """

    _code = _cones.COULOMB

    def weighted_project(self, x, R) -> np.ndarray:
        """Projection of ``x (3,) or (..., 3)`` on the cone in the norm ``||y||_R^2 = y^T diag(R) y``, the
        nearest point for that metric: with ``R = [r_t, r_t, r_n]`` (both tangent weights equal), the change of
        variables ``z = R^(1/2) y`` maps the cone onto ``K_{mu sqrt(r_t / r_n)}``, where the projection is
        Euclidean. Raises ``ValueError`` unless ``R (3,)`` is positive with ``R[0] == R[1]``."""
        R = as_array(R, (3,), "R")
        if not np.all(R > 0.0) or R[0] != R[1]:
            raise ValueError(f"R: expected positive weights [r_t, r_t, r_n] with equal tangent weights, got {R}")
        x = _stack(x, "x")
        scale = np.sqrt(R)
        cone = CoulombFrictionCone(self.mu * np.sqrt(R[0] / R[2]))
        return cone.project(x * scale) / scale

    def radial_projection(self, x) -> np.ndarray:
        """``x (3,) or (..., 3)`` with its normal part clamped at 0 and its tangent part scaled, along its own
        direction, onto the disc ``||f_t|| <= mu f_n`` (not the Euclidean projection: the normal part is kept)."""
        x = _stack(x, "x").copy()
        x[..., 2] = np.maximum(x[..., 2], 0.0)
        r = np.linalg.norm(x[..., :2], axis=-1)
        bound = self.mu * x[..., 2]
        scale = np.where(r > bound, bound / np.where(r > 0.0, r, 1.0), 1.0)
        x[..., :2] *= scale[..., None]
        return x

    def de_saxce_correction(self, c) -> np.ndarray:
        """De Saxcé's correction ``[0, 0, mu ||c_t||]`` of a contact velocity ``c (3,) or (..., 3)``: with it,
        ``K ∋ f ⊥ c + correction ∈ K*`` is exactly Signorini's condition and Coulomb's law with maximal
        dissipation."""
        c = _stack(c, "c")
        out = np.zeros_like(c)
        out[..., 2] = self.mu * np.linalg.norm(c[..., :2], axis=-1)
        return out


    compute_normal_correction = de_saxce_correction  # Pinocchio's names
    compute_radial_projection = radial_projection


class DualCoulombFrictionCone(_Cone):
    """The dual of Coulomb's cone, ``K_mu* = {c : mu ||c_t|| <= c_n}`` (``K_{1/mu}``; the half-space ``c_n >= 0``
    when ``mu = 0``). Parameters and errors as :class:`CoulombFrictionCone`."""

    _code = _cones.COULOMB_DUAL


class PyramidalFrictionCone(_Cone):
    """The four-facet friction pyramid of the LCP, ``P_mu = {|f_t1| <= mu f_n, |f_t2| <= mu f_n}``: it contains
    Coulomb's cone, and its friction bound depends on the sliding direction (``sqrt(2) mu f_n`` along a diagonal
    of the tangent axes, ``mu f_n`` along an axis). Parameters and errors as :class:`CoulombFrictionCone`."""

    _code = _cones.PYRAMID

    def de_saxce_correction(self, c) -> np.ndarray:
        """The pyramid's counterpart of De Saxcé's correction, ``[0, 0, mu (|c_t1| + |c_t2|)]``: with it,
        ``P ∋ f ⊥ c + correction ∈ P*`` is Signorini's condition with box friction on each tangent axis."""
        c = _stack(c, "c")
        out = np.zeros_like(c)
        out[..., 2] = self.mu * np.abs(c[..., :2]).sum(axis=-1)
        return out


class DualPyramidalFrictionCone(_Cone):
    """The dual of the friction pyramid, ``P_mu* = {c : mu (|c_t1| + |c_t2|) <= c_n}``. Parameters and errors as
    :class:`CoulombFrictionCone`."""

    _code = _cones.PYRAMID_DUAL


CoulombFrictionCone._dual_class = DualCoulombFrictionCone
DualCoulombFrictionCone._dual_class = CoulombFrictionCone
PyramidalFrictionCone._dual_class = DualPyramidalFrictionCone
DualPyramidalFrictionCone._dual_class = PyramidalFrictionCone
