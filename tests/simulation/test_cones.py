"""Friction cones: projections against their variational characterisation, Moreau's decomposition (which ties
each primal projection to its dual's, two separate kernels) and a generic constrained minimiser.

Not against Pinocchio: in pin 4.1's Python bindings, ``CoulombFrictionCone.project``, ``dual().project``,
``computeNormalCorrection`` and ``isInside`` return wrong values (the projection of [1, 0, 1] with mu = 0.5 as
[0, 0, 1], not [0.6, 0, 1.2]; [0.1, 0, 1] outside the cone; denormal garbage at times). Its solvers are compared
in test_solvers.py."""

import numpy as np
import pytest
from scipy.optimize import minimize

from rbda.simulation import (CoulombFrictionCone, DualCoulombFrictionCone, DualPyramidalFrictionCone,
                             PyramidalFrictionCone)

CONES = [CoulombFrictionCone, DualCoulombFrictionCone, PyramidalFrictionCone, DualPyramidalFrictionCone]
MUS = [0.0, 0.3, 1.0, 2.5]


def _points(seed=0, n=400):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 3)) * rng.choice([1e-3, 1.0, 1e3], size=(n, 1))
    x[:20, :2] = 0.0  # on the axis
    x[20:40, 2] = 0.0  # in the tangent plane
    return x


def _members(cone, n=200, seed=1):
    """Points of ``cone``: projections of random points, plus its generators."""
    return cone.project(np.random.default_rng(seed).normal(size=(n, 3)))


@pytest.mark.parametrize("Cone", CONES)
@pytest.mark.parametrize("mu", MUS)
def test_projection_variational_inequality(Cone, mu):
    """p = proj_K(x) iff p in K, (x - p) . p = 0 and (x - p) . k <= 0 for every k in K."""
    cone = Cone(mu)
    x = _points()
    p = cone.project(x)
    scale = np.linalg.norm(x, axis=1)
    assert np.all(cone.is_inside(p, tol=1e-9 * scale.max()))
    r = x - p
    assert np.all(np.abs(np.einsum("ij,ij->i", r, p)) <= 1e-9 * scale ** 2 + 1e-300)
    k = _members(cone)
    assert np.all(r @ k.T <= 1e-9 * scale[:, None])
    assert np.allclose(cone.project(p), p, atol=1e-12 * scale.max())  # idempotent


@pytest.mark.parametrize("Cone", CONES)
@pytest.mark.parametrize("mu", MUS)
def test_moreau_decomposition(Cone, mu):
    """x = proj_K(x) - proj_K*(-x), the two parts orthogonal (Moreau)."""
    cone = Cone(mu)
    x = _points(3)
    p, d = cone.project(x), cone.dual().project(-x)
    scale = np.linalg.norm(x, axis=1)[:, None]
    assert np.allclose(p - d, x, atol=1e-9 * scale.max(), rtol=0)
    assert np.all(np.abs(np.einsum("ij,ij->i", p, d)) <= 1e-9 * scale[:, 0] ** 2)


@pytest.mark.parametrize("Cone", CONES)
def test_projection_against_a_generic_minimiser(Cone):
    """The nearest point of the cone found by SLSQP on its defining inequalities."""
    mu = 0.6
    constraints = {
        CoulombFrictionCone: lambda y: mu * y[2] - np.hypot(y[0], y[1]),
        DualCoulombFrictionCone: lambda y: y[2] - mu * np.hypot(y[0], y[1]),
        PyramidalFrictionCone: lambda y: np.array([mu * y[2] - abs(y[0]), mu * y[2] - abs(y[1])]),
        DualPyramidalFrictionCone: lambda y: y[2] - mu * (abs(y[0]) + abs(y[1])),
    }[Cone]
    for x in np.random.default_rng(5).normal(size=(25, 3)):
        best = min((minimize(lambda y: np.sum((y - x) ** 2), start, method="SLSQP", tol=1e-14,
                             constraints={"type": "ineq", "fun": constraints})
                    for start in (x, np.array([0.0, 0.0, 1.0]), np.array([0.3, -0.2, 1.0]))),
                   key=lambda r: r.fun if np.all(np.asarray(constraints(r.x)) >= -1e-9) else np.inf)
        assert np.allclose(Cone(mu).project(x), best.x, atol=2e-5)


def test_dual_cones_and_membership():
    mu = 0.5
    assert CoulombFrictionCone(mu).dual() == DualCoulombFrictionCone(mu)
    assert CoulombFrictionCone(mu).dual().dual() == CoulombFrictionCone(mu)
    assert PyramidalFrictionCone(mu).dual() == DualPyramidalFrictionCone(mu)
    assert CoulombFrictionCone(mu).is_inside([0.3, 0.4, 1.0])          # ||t|| = 0.5 = mu n
    assert not CoulombFrictionCone(mu).is_inside([0.31, 0.4, 1.0])
    assert DualCoulombFrictionCone(mu).is_inside([1.2, 1.6, 1.0])      # mu ||t|| = 1 = n
    assert PyramidalFrictionCone(mu).is_inside([0.5, -0.5, 1.0])       # a corner, outside Coulomb's cone
    assert not CoulombFrictionCone(mu).is_inside([0.5, -0.5, 1.0])
    assert DualPyramidalFrictionCone(mu).is_inside([1.0, -1.0, 1.0])
    assert not DualPyramidalFrictionCone(mu).is_inside([1.0, -1.01, 1.0])
    assert list(CoulombFrictionCone(mu).is_inside(np.array([[0.0, 0.0, 1.0], [0.0, 0.0, -1.0]]))) == [True, False]
    # the dual of the frictionless ray is the half-space n >= 0
    assert np.allclose(DualCoulombFrictionCone(0.0).project([3.0, -2.0, -1.0]), [3.0, -2.0, 0.0])
    assert np.allclose(CoulombFrictionCone(0.0).project([3.0, -2.0, 1.5]), [0.0, 0.0, 1.5])


def test_de_saxce_and_radial_projection():
    c = np.array([[3.0, 4.0, -1.0], [0.0, 0.0, 2.0]])
    assert np.allclose(CoulombFrictionCone(0.5).de_saxce_correction(c), [[0.0, 0.0, 2.5], [0.0, 0.0, 0.0]])
    assert np.allclose(PyramidalFrictionCone(0.5).de_saxce_correction(c), [[0.0, 0.0, 3.5], [0.0, 0.0, 0.0]])
    cone = CoulombFrictionCone(0.5)
    assert np.allclose(cone.radial_projection([3.0, 4.0, 2.0]), [0.6, 0.8, 2.0])  # normal kept, t scaled
    assert np.allclose(cone.radial_projection([3.0, 4.0, -2.0]), [0.0, 0.0, 0.0])
    assert np.allclose(cone.radial_projection([0.1, 0.2, 2.0]), [0.1, 0.2, 2.0])
    assert cone.compute_normal_correction == cone.de_saxce_correction  # Pinocchio's names
    assert cone.compute_radial_projection == cone.radial_projection


def test_weighted_projection_minimises_the_weighted_distance():
    cone, R = CoulombFrictionCone(0.7), np.array([2.0, 2.0, 0.3])
    for x in np.random.default_rng(7).normal(size=(20, 3)):
        p = cone.weighted_project(x, R)
        assert cone.is_inside(p, tol=1e-12)
        best = minimize(lambda y: (y - x) @ (R * (y - x)), p + 0.01, method="SLSQP", tol=1e-14,
                        constraints={"type": "ineq", "fun": lambda y: 0.7 * y[2] - np.hypot(y[0], y[1])})
        assert (p - x) @ (R * (p - x)) <= best.fun + 1e-7
    assert np.allclose(cone.weighted_project(x, np.ones(3)), cone.project(x))


@pytest.mark.parametrize("Cone", CONES)
def test_errors(Cone):
    with pytest.raises(ValueError, match="mu"):
        Cone(-0.1)
    with pytest.raises(ValueError, match="mu"):
        Cone(np.nan)
    with pytest.raises(TypeError, match="mu"):
        Cone("a lot")
    with pytest.raises(ValueError, match="x"):
        Cone(0.5).project([1.0, 2.0])
    with pytest.raises(ValueError, match="x"):
        Cone(0.5).project([1.0, np.nan, 0.0])
    with pytest.raises(ValueError, match="R"):
        CoulombFrictionCone(0.5).weighted_project([1.0, 0.0, 0.0], [1.0, 2.0, 1.0])
