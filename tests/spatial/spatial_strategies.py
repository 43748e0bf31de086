"""Hypothesis strategies and independent reference formulas shared by the ``rbda.spatial`` tests.

Everything here is written from the textbook formulas (Pinocchio's cheat sheet, Featherstone, Rodrigues), without
calling the code under test, so that the tests compare ``rbda.spatial`` with an independent computation.
Samples deliberately include near-identity rotations (angles 1e-12 ... 1e-3), near-pi ones (pi - 1e-9 ... pi) and
large translations.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import rbda.spatial as sp

PI = np.pi

#: the settings of every property test: no deadline (first calls compile nothing but numpy warms up), 60 examples
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NEAR_IDENTITY_ANGLES = [0.0, 1e-12, 1e-9, 1e-7, 1e-5, 1e-3]
NEAR_PI_ANGLES = [PI - 1e-2, PI - 1e-4, PI - 1e-7, PI - 1e-9, PI]
SPECIAL_ANGLES = NEAR_IDENTITY_ANGLES + [0.1, 0.5, 1.0, PI / 2] + NEAR_PI_ANGLES


# ---------------------------------------------------------------------------------------------- reference formulas
def hat(u) -> np.ndarray:
    """Cross-product matrix, ``hat(u) @ v == np.cross(u, v)``."""
    x, y, z = u
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def rodrigues(axis, angle: float) -> np.ndarray:
    """``R = I + sin(t) K + (1 - cos t) K^2`` for a unit ``axis``."""
    K = hat(axis)
    return np.eye(3) + np.sin(angle) * K + (1.0 - np.cos(angle)) * (K @ K)


def rot_x(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_y(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rot_z(a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def action_matrix(R, p) -> np.ndarray:
    """Cheat sheet ``aXb = [[R, p_x R], [0, R]]``."""
    X = np.zeros((6, 6))
    X[:3, :3] = X[3:, 3:] = R
    X[:3, 3:] = hat(p) @ R
    return X


def crm(nu) -> np.ndarray:
    """Motion cross-product matrix ``[[w_x, v_x], [0, w_x]]`` of ``nu = [v; w]``."""
    X = np.zeros((6, 6))
    X[:3, :3] = X[3:, 3:] = hat(nu[3:])
    X[:3, 3:] = hat(nu[:3])
    return X


def crf(nu) -> np.ndarray:
    """Force cross-product matrix, ``-crm(nu)^T`` (spatial_v2's one-liner)."""
    return -crm(nu).T


def spatial_inertia_matrix(m: float, c, I) -> np.ndarray:
    """Cheat sheet ``Y = [[m 1, m c_x^T], [m c_x, I + m c_x c_x^T]]`` with ``I`` about the centre of mass."""
    C = hat(c)
    Y = np.zeros((6, 6))
    Y[:3, :3] = m * np.eye(3)
    Y[:3, 3:] = m * C.T
    Y[3:, :3] = m * C
    Y[3:, 3:] = I + m * C @ C.T
    return Y


def se3_matrix_exp(nu) -> np.ndarray:
    """``expm([[w_x, v], [0, 0]])`` of a twist ``nu = [v; w]``, by scipy (a generic matrix exponential)."""
    from scipy.linalg import expm

    A = np.zeros((4, 4))
    A[:3, :3] = hat(nu[3:])
    A[:3, 3] = nu[:3]
    return expm(A)


def wrap_angle(a):
    """Angle(s) wrapped into ``[-pi, pi)``."""
    return (np.asarray(a) + PI) % (2 * PI) - PI


def assert_close(actual, expected, tol: float = 1e-12, scale: float = 1.0, msg: str = "") -> None:
    """``max |actual - expected| <= tol * max(1, scale, max |expected|)``: relative for large values."""
    actual, expected = np.asarray(actual, dtype=float), np.asarray(expected, dtype=float)
    assert actual.shape == expected.shape, f"{msg} shape {actual.shape} != {expected.shape}"
    assert np.all(np.isfinite(actual)), f"{msg} non-finite result {actual}"
    bound = tol * max(1.0, scale, float(np.max(np.abs(expected), initial=0.0)))
    err = float(np.max(np.abs(actual - expected), initial=0.0))
    assert err <= bound, f"{msg} max error {err:.3g} > {bound:.3g}\nactual={actual}\nexpected={expected}"


# ---------------------------------------------------------------------------------------------- strategies
def floats(lo: float, hi: float):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def vectors(n: int, lo: float = -1.0, hi: float = 1.0):
    return st.lists(floats(lo, hi), min_size=n, max_size=n).map(np.array)


@st.composite
def unit_vectors(draw):
    v = draw(vectors(3))
    n = np.linalg.norm(v)
    if n < 1e-3:  # fall back to a coordinate axis, keeping them among the samples
        v, n = np.eye(3)[draw(st.integers(0, 2))], 1.0
    return v / n


def angles(max_angle: float = PI):
    """Angles in ``[0, max_angle]`` with near-identity and (if reachable) near-pi values over-represented."""
    special = [a for a in SPECIAL_ANGLES if a <= max_angle]
    return st.one_of(st.sampled_from(special), floats(0.0, max_angle))


def rotation_vectors(max_angle: float = PI):
    return st.builds(lambda a, u: a * u, angles(max_angle), unit_vectors())


def rotations(max_angle: float = PI):
    """Rotation matrices from Rodrigues' formula (independent of ``exp3``)."""
    return st.builds(lambda a, u: rodrigues(u, a), angles(max_angle), unit_vectors())


def translations():
    """Small, unit-scale and large (up to 1e3) translations."""
    return st.one_of(vectors(3, -1e-6, 1e-6), vectors(3), vectors(3, -1e3, 1e3))


def se3s(max_angle: float = PI):
    return st.builds(sp.SE3, rotations(max_angle), translations())


def twists(max_angle: float = PI, v_scale: float = 10.0):
    """Twists ``[v; w]`` with ``|w|`` in ``[0, max_angle]``."""
    return st.builds(lambda v, w: np.concatenate([v, w]), vectors(3, -v_scale, v_scale), rotation_vectors(max_angle))


def motions(scale: float = 10.0):
    return vectors(6, -scale, scale).map(sp.Motion)


def forces(scale: float = 10.0):
    return vectors(6, -scale, scale).map(sp.Force)


@st.composite
def inertia_triples(draw):
    """``(m, c, I)`` with ``I`` the inertia of a solid ellipsoid-like body: PD and satisfying the triangle
    inequalities, in random principal axes."""
    m = draw(floats(0.01, 100.0))
    c = draw(vectors(3, -2.0, 2.0))
    a, b, d = draw(vectors(3, 0.01, 1.0))
    principal = m * np.array([b + d, a + d, a + b])
    R = draw(rotations())
    return m, c, R @ np.diag(principal) @ R.T


def inertias():
    return inertia_triples().map(lambda t: sp.Inertia(*t))
