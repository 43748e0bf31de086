"""examples/simulated_contact_artefacts.py: the relaxations' artefacts in rbda.Simulator against closed forms.

CCP: each step in contact ends on the cone's boundary, ``v_n = mu ||v_t||`` (contact velocities with Baumgarte's gap
term); the first step of a cube launched at ``s`` is a point mass's (no rotation, four equal corners): the impulse
is the projection of ``-g = [-s, 0, g dt]`` on Coulomb's cone, so ``s' = (s - mu g dt) / (1 + mu^2)`` and the cube
leaves the ground at ``mu s'``, then flies ballistically to ``(mu s')^2 / (2 g)``. NCP: ``v_n = 0`` and it slows at
``mu g`` on the ground. LCP: the pyramid ``{|l_t1| <= mu l_n, |l_t2| <= mu l_n}`` (PyramidalFrictionCone) bounds
each tangent component alone, so sliding off an axis both sit at ``mu l_n`` and the deceleration is
``||(mu g, mu g)|| = sqrt(2) mu g``; along an axis, and under the NCP in every direction, it is ``mu g``.
"""

import numpy as np

from rbda.simulation import CoulombFrictionCone, PyramidalFrictionCone
from tests.conftest import load_example


def _example():
    return load_example("simulated_contact_artefacts")


def test_ccp_levitates_where_ncp_stays_on_the_ground():
    m = _example()
    angles = np.radians([0.0, 30.0, 45.0, 80.0, 90.0])
    r = m.main(verbose=False, steps=230, angles=angles)
    mu, g, dt, s, h = m.MU, m.GRAVITY, m.DT, m.SPEED, m.SIDE / 2
    ncp, ccp = r["sliding"]["ncp"], r["sliding"]["ccp"]
    # NCP: on the ground (v_n = 0 in every step), slowing at mu g until it stops at s^2 / (2 mu g)
    assert np.isfinite(ncp["contact"]).all() and np.abs(ncp["contact"][:, 2]).max() < 1e-9
    assert np.abs(ncp["Q"][:, 2] - h).max() < 1e-9
    sliding = ncp["V"][1:, 0] > 1e-9
    np.testing.assert_allclose(-np.diff(ncp["V"][:, 0])[sliding], mu * g * dt, rtol=1e-6)
    assert abs(ncp["Q"][-1, 0] - s ** 2 / (2 * mu * g)) < s * dt
    # CCP: the first step is the point mass's projection on the cone
    s1 = (s - mu * g * dt) / (1 + mu ** 2)
    np.testing.assert_allclose(ccp["V"][1, [0, 2]], [s1, mu * s1], rtol=1e-8)
    assert np.abs(ccp["V"][:, 3:]).max() < 1e-7  # no rotation
    # every step with a contact impulse ends on the cone's boundary, v_n = mu ||v_t||; one without is separating
    c, lam = ccp["contact"], ccp["impulse"]
    pushing = lam[:, 2] > 1e-8
    tangential = np.hypot(c[:, 0], c[:, 1])
    assert pushing.sum() > 30 and (tangential[pushing] > 1e-3).sum() > 30
    np.testing.assert_allclose(c[pushing, 2], mu * tangential[pushing], atol=1e-8)
    # v_n holds Baumgarte's d / dt: the cube hovers at the gap d' = d + dt v_z' = mu ||v_t|| dt after each such step
    gap = ccp["Q"][1:, 2] - h
    np.testing.assert_allclose(gap[pushing], mu * tangential[pushing] * dt, atol=1e-10)
    free = np.isfinite(c[:, 0]) & ~pushing
    assert (c[free, 2] >= mu * tangential[free] - 1e-8).all()
    assert CoulombFrictionCone(mu).is_inside(lam[pushing], tol=1e-12).all()
    slipping = pushing & (tangential > 1e-3)  # sliding: friction on the cone's boundary, against the sliding
    np.testing.assert_allclose(np.hypot(lam[slipping, 0], lam[slipping, 1]), mu * lam[slipping, 2], rtol=1e-6)
    # a ballistic flight to (mu s')^2 / (2 g) (semi-implicit Euler: within one step's rise), then a landing
    assert np.isnan(c[:, 0]).sum() > 50
    assert abs(ccp["Q"][:, 2].max() - h - (mu * s1) ** 2 / (2 * g)) < mu * s1 * dt
    assert abs(ccp["Q"][-1, 2] - h) < 1e-6 and np.abs(ccp["V"][-1]).max() < 1e-8
    # it still stops at s / (mu g): sliding, friction is mu times the normal impulse, whose sum over the motion is
    # m g t when the vertical velocity is back to 0 (the friction lost at take-off and landing makes up for the flight)
    stops = [np.flatnonzero(run["V"][:, 0] < 1e-9)[0] for run in (ncp, ccp)]
    assert abs(stops[0] - s / (mu * g * dt)) < 1 and abs(stops[1] - s / (mu * g * dt)) < 2


def test_pyramid_slows_sqrt2_faster_off_its_axes():
    m = _example()
    angles = np.radians([0.0, 30.0, 45.0, 80.0, 90.0])
    r = m.main(verbose=False, steps=1, angles=angles)
    off_axis = np.array([False, True, True, True, False])
    np.testing.assert_allclose(r["deceleration"]["ncp"], 1.0, rtol=1e-6)
    np.testing.assert_allclose(r["deceleration"]["lcp"][off_axis], np.sqrt(2.0), rtol=1e-6)
    np.testing.assert_allclose(r["deceleration"]["lcp"][~off_axis], 1.0, rtol=1e-6)
    # the pyramid's edge: both tangent impulses at mu l_n, the velocity change along the diagonal, not -v
    run = m.launch("lcp", np.radians(30.0), 1)
    lam = run["impulse"][0]
    assert PyramidalFrictionCone(m.MU).is_inside(lam, tol=1e-12)
    np.testing.assert_allclose(np.abs(lam[:2]), m.MU * lam[2], rtol=1e-6)
    dv = run["V"][0, :2] - run["V"][1, :2]
    np.testing.assert_allclose(dv, m.MU * m.GRAVITY * m.DT * np.ones(2), rtol=1e-6)
