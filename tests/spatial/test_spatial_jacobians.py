"""Jexp3, Jlog3, Jexp6, Jlog6 against central finite differences taken on the manifold, and their inverse
relations. The finite differences use exp/log, which test_spatial_exp_log.py checks against closed forms."""

import numpy as np
from hypothesis import given

import rbda.spatial as sp
from spatial_strategies import PI, PROPERTY, assert_close, hat, rotation_vectors, twists, vectors

EPS = 1e-6


def fd_jexp3(w):
    """Column k: ``log3(exp3(w)^T exp3(w + eps e_k)) / eps``, centrally."""
    R = sp.exp3(w)
    cols = [
        (sp.log3(R.T @ sp.exp3(w + EPS * e)) - sp.log3(R.T @ sp.exp3(w - EPS * e))) / (2 * EPS) for e in np.eye(3)
    ]
    return np.column_stack(cols)


def fd_jlog3(R):
    """Column k: ``d/de log3(R exp3(e e_k))``."""
    cols = [(sp.log3(R @ sp.exp3(EPS * e)) - sp.log3(R @ sp.exp3(-EPS * e))) / (2 * EPS) for e in np.eye(3)]
    return np.column_stack(cols)


def fd_jexp6(nu):
    Minv = sp.exp6(nu).inverse()
    cols = [
        (sp.log6(Minv * sp.exp6(nu + EPS * e)).vector - sp.log6(Minv * sp.exp6(nu - EPS * e)).vector) / (2 * EPS)
        for e in np.eye(6)
    ]
    return np.column_stack(cols)


def fd_jlog6(M):
    cols = [(sp.log6(M * sp.exp6(EPS * e)).vector - sp.log6(M * sp.exp6(-EPS * e)).vector) / (2 * EPS) for e in np.eye(6)]
    return np.column_stack(cols)


@PROPERTY
@given(rotation_vectors(2 * PI - 0.2))
def test_jexp3_finite_differences(w):
    assert_close(sp.Jexp3(w), fd_jexp3(w), 1e-8)


@PROPERTY
@given(rotation_vectors(3.0))
def test_jlog3_finite_differences(w):
    R = sp.exp3(w)
    assert_close(sp.Jlog3(R), fd_jlog3(R), 1e-7)


@PROPERTY
@given(rotation_vectors(2 * PI - 0.2))
def test_jexp3_closed_form(w):
    # Jr(w) = I - (1 - cos t)/t^2 w_x + (t - sin t)/t^3 w_x^2, evaluated only where it has no cancellation
    t = np.linalg.norm(w)
    if t > 0.5:
        W = hat(w)
        expected = np.eye(3) - (1 - np.cos(t)) / t**2 * W + (t - np.sin(t)) / t**3 * W @ W
        assert_close(sp.Jexp3(w), expected, 1e-14)
    else:  # the series to third order
        assert_close(sp.Jexp3(w), np.eye(3) - 0.5 * hat(w) + hat(w) @ hat(w) / 6, max(t**3, 1e-16))


@PROPERTY
@given(rotation_vectors())
def test_jlog3_inverts_jexp3(w):
    R = sp.exp3(w)
    J = sp.Jlog3(R)
    assert np.all(np.isfinite(J))
    assert_close(J @ sp.Jexp3(sp.log3(R)), np.eye(3), 1e-12)
    # Jlog3(R) w = w: the rotation vector is an eigenvector of eigenvalue 1
    w_out = sp.log3(R)
    assert_close(J @ w_out, w_out, 1e-12, 4)


@PROPERTY
@given(twists(2 * PI - 0.2))
def test_jexp6_finite_differences(nu):
    assert_close(sp.Jexp6(nu), fd_jexp6(nu), 1e-7, 10)
    assert_close(sp.Jexp6(sp.Motion(nu)), sp.Jexp6(nu), 0.0)


@PROPERTY
@given(twists(3.0))
def test_jlog6_finite_differences(nu):
    M = sp.exp6(nu)
    assert_close(sp.Jlog6(M), fd_jlog6(M), 1e-7, 10)


@PROPERTY
@given(twists())
def test_jlog6_inverts_jexp6(nu):
    M = sp.exp6(nu)
    J = sp.Jlog6(M)
    assert np.all(np.isfinite(J))
    assert_close(J @ sp.Jexp6(sp.log6(M)), np.eye(6), 1e-11, 10)
    assert_close(sp.Jexp6(sp.log6(M)) @ J, np.eye(6), 1e-11, 10)


@PROPERTY
@given(vectors(3, -10, 10), rotation_vectors(2.0))
def test_jexp6_series_and_closed_form_agree_across_the_switch(v, w):
    # Jexp6 switches from a series (|w| < 1) to a closed form (|w| >= 1): both sides must agree with the
    # defining series sum_k (-ad nu)^k / (k+1)!, summed here to convergence
    nu = np.concatenate([v, w])
    ad = np.zeros((6, 6))
    ad[:3, :3] = ad[3:, 3:] = hat(w)
    ad[:3, 3:] = hat(v)
    term, total = np.eye(6), np.eye(6)
    for k in range(1, 60):
        term = -term @ ad / (k + 1)
        total = total + term
    assert_close(sp.Jexp6(nu), total, 1e-12, 10)


def test_jexp6_continuous_at_switch():
    rng = np.random.default_rng(11)
    for _ in range(20):
        v, u = rng.normal(size=3) * 5, rng.normal(size=3)
        u /= np.linalg.norm(u)
        below = sp.Jexp6(np.concatenate([v, (1.0 - 1e-12) * u]))
        at = sp.Jexp6(np.concatenate([v, 1.0 * u]))
        assert_close(below, at, 1e-10, 10)
