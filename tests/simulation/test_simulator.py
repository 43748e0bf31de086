"""The simulator against physical laws: a box at rest and pushed, a cube sliding to a stop, a box on an incline,
a sphere rolling down it, the physical criteria of each step, and the contact points of each shape."""

import numpy as np
import pytest

import rbda
from rbda.io import Box, Capsule, Cylinder, GeometryModel, Halfspace, Sphere
from rbda.simulation import Simulator, add_free_body, add_ground_plane, contact_metrics
from rbda.simulation.contacts import pair_contacts

G0 = 9.81
TIGHT = dict(max_iter=5000, absolute_feasibility_tol=1e-12, relative_feasibility_tol=1e-12,
             absolute_complementarity_tol=1e-14, relative_complementarity_tol=1e-12)


def world(shape, mass, theta=0.0, mu=0.4, solver="admm", formulation="ncp", dt=1e-3, **kw):
    """A free body of ``shape`` resting on the ground z = 0, gravity tilted by ``theta`` about y (down the slope is
    +x), and its simulator."""
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "body", shape, mass)
    add_ground_plane(model, cm)
    model.gravity = rbda.Motion([G0 * np.sin(theta), 0.0, -G0 * np.cos(theta)], [0.0, 0.0, 0.0])
    sim = Simulator(model, cm, dt, solver=solver, formulation=formulation, mu=mu, solver_options=TIGHT, **kw)
    q = rbda.neutral(model)
    q[2] = shape.size[2] / 2 if isinstance(shape, Box) else shape.radius
    return sim, q, np.zeros(6)


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_box_at_rest_and_pushed(solver):
    m, mu, dt = 10.0, 0.4, 1e-3
    sim, q, v = world(Box((0.2, 0.2, 0.2)), m, mu=mu, solver=solver)
    _, v1 = sim.step(q, v, np.zeros(6))
    assert sim.contacts.size == 4
    assert sim.impulses[2::3].sum() == pytest.approx(m * G0 * dt, rel=1e-8)
    assert np.abs(v1).max() < 1e-9
    tau = np.zeros(6)
    tau[0] = 0.9 * mu * m * G0
    _, v1 = sim.step(q, v, tau)
    assert np.abs(v1).max() < 1e-9  # stuck
    tau[0] = 1.1 * mu * m * G0
    _, v1 = sim.step(q, v, tau)
    assert v1[0] == pytest.approx(0.1 * mu * G0 * dt, rel=1e-6)
    assert np.abs(v1[1:]).max() < 1e-9  # no rotation, no lift


@pytest.mark.parametrize("solver", ["admm", "pgs"])
def test_cube_slides_to_a_stop_at_mu_g(solver):
    mu, v0, dt = 0.5, 1.0, 1e-3
    sim, q, v = world(Box((0.1, 0.1, 0.1)), 1.0, mu=mu, solver=solver, dt=dt)
    v[0] = v0
    T = 260
    Q, V = sim.rollout(q, v, np.zeros((T, 6)))
    still_sliding = V[1:, 0] > 1e-9  # after the step
    decel = -np.diff(V[:, 0])[still_sliding]
    assert still_sliding.sum() > 150
    np.testing.assert_allclose(decel, mu * G0 * dt, rtol=1e-6)  # decelerates at exactly mu g
    stop = v0 ** 2 / (2 * mu * G0)
    assert Q[-1, 0] == pytest.approx(stop, abs=v0 * dt)  # semi-implicit Euler: within one step's travel
    assert np.abs(V[-1]).max() < 1e-9 and abs(Q[-1, 2] - 0.05) < 1e-6


@pytest.mark.parametrize("formulation", ["ncp", "ccp", "lcp"])
def test_incline_sticks_iff_tan_theta_le_mu(formulation):
    mu = 0.5
    for ratio, sticks in ((0.95, True), (1.05, False)):
        theta = np.arctan(ratio * mu)
        sim, q, v = world(Box((0.2, 0.2, 0.2)), 2.0, theta=theta, mu=mu, formulation=formulation)
        Q, V = sim.rollout(q, v, np.zeros((100, 6)))
        if sticks:
            assert abs(Q[-1, 0]) < 1e-9
        else:
            a = G0 * (np.sin(theta) - mu * np.cos(theta))  # sliding: Coulomb's kinetic friction
            assert V[-1, 0] == pytest.approx(a * 0.1, rel=1e-4 if formulation != "ccp" else 0.05)


def test_sphere_rolls_at_five_sevenths_g_sin_theta():
    theta, dt, T = 0.3, 1e-3, 300
    sim, q, v = world(Sphere(0.1), 1.0, theta=theta, mu=1.0)
    Q, V = sim.rollout(q, v, np.zeros((T, 6)))
    x = Q[:, 0]
    a = 2 * (x[-1] - x[0]) / ((T * dt) ** 2)
    assert a == pytest.approx(5 / 7 * G0 * np.sin(theta), rel=5e-3)
    # rolling without slipping: the contact point's velocity is zero
    assert np.abs(sim.contact_velocities[:2]).max() < 1e-8


def test_ncp_metrics_within_tolerance_each_step():
    sim, q, v = world(Box((0.1, 0.1, 0.1)), 1.0, mu=0.5)
    v[0] = 0.5
    for _ in range(60):
        q, v = sim.step(q, v, np.zeros(6))
        m = contact_metrics(sim.impulses, sim.contact_velocities, sim.contacts.mu)
        scale = max(1.0, np.abs(sim.impulses).max())
        assert sim.stats.converged
        assert m.signorini < 1e-8 * scale and m.ncp_complementarity < 1e-8 * scale
        assert m.maximum_dissipation_gap < 1e-8 * scale and m.dual_feasibility < 1e-8


def test_bad_input():
    sim, q, v = world(Box((0.2, 0.2, 0.2)), 1.0)
    model, cm = sim.model, sim.collision_model
    with pytest.raises(ValueError, match="dt"):
        Simulator(model, cm, 0.0)
    with pytest.raises(ValueError, match="mu"):
        Simulator(model, cm, 1e-3, mu=-0.1)
    with pytest.raises(ValueError, match="solver"):
        Simulator(model, cm, 1e-3, solver="lemke")
    with pytest.raises(ValueError, match="formulation"):
        Simulator(model, cm, 1e-3, formulation="qp")
    with pytest.raises(TypeError, match="collision_model"):
        Simulator(model, [], 1e-3)
    with pytest.raises(ValueError, match="^q"):
        sim.step(np.full(7, np.nan), v, np.zeros(6))
    taus = np.zeros((5, 6))
    taus[3, 1] = np.nan
    with pytest.raises(ValueError, match="step 3: tau"):
        sim.rollout(q, v, taus)
    with pytest.raises(ValueError, match="tau"):
        sim.step(q, v, np.zeros(5))
    for i, name in enumerate(("q", "v", "tau", "fext")):  # the compiled step's own checks, in the arguments' order
        args = [q.copy(), v.copy(), np.zeros(6), np.zeros(6)]
        for later in args[i:]:
            later[0] = np.inf if i % 2 else np.nan
        with pytest.raises(ValueError, match=f"^{name}: contains non-finite"):
            sim.step(*args)
    for name, value in (("dt", 0.0), ("dt", np.nan), ("margin", -1e-3), ("baumgarte", 1.5), ("slop", -1.0),
                        ("restitution", 2.0)):
        with pytest.raises(ValueError, match=f"^{name}: must"):
            setattr(sim, name, value)
    assert sim.dt == 1e-3 and sim.margin == 1e-3 and sim.restitution is None  # unchanged by the failed sets


def test_settings_changed_between_steps_take_effect():
    """A setting changed on a simulator that already stepped (its compiled step keeps the settings in an array of
    its own) gives the step of a new simulator built with it; a copy's settings are its own."""
    import copy

    shape, mass = Box((0.2, 0.2, 0.2)), 1.0
    sim, q, v = world(shape, mass)
    q[2] += 0.002  # falling: dt, the margin and the restitution all change the step
    v[2] = -1.0
    sim.step(q, v, np.zeros(6))
    other = copy.copy(sim)
    for name, value in (("dt", 2e-3), ("margin", 0.05), ("restitution", 0.5), ("baumgarte", 0.0),
                        ("warm_start", False), ("speculative", False)):
        setattr(sim, name, value)
        fresh, _, _ = world(shape, mass, **{k: getattr(sim, k) for k in ("dt", "margin", "restitution", "baumgarte",
                                                                         "warm_start", "speculative")})
        fresh.step(q, v, np.zeros(6))  # the same warm start as sim's
        np.testing.assert_array_equal(sim.step(q, v, np.zeros(6))[1], fresh.step(q, v, np.zeros(6))[1])
    assert other.dt == 1e-3 and other.margin == 1e-3 and other.restitution is None
    reference, _, _ = world(shape, mass)
    reference.step(q, v, np.zeros(6))
    np.testing.assert_array_equal(other.step(q, v, np.zeros(6))[1], reference.step(q, v, np.zeros(6))[1])


def test_solver_that_does_not_converge_says_so_and_stays_finite():
    sim, q, v = world(Box((0.2, 0.2, 0.2)), 1.0, mu=0.4)
    sim.solver.max_iter = 1
    tau = np.zeros(6)
    tau[0] = 3.0
    q1, v1 = sim.step(q, v, tau)
    assert not sim.stats.converged and sim.stats.iterations == 1
    assert np.isfinite(q1).all() and np.isfinite(v1).all()


# ------------------------------------------------------------------------------------------------ contact points
def _placed(R, p):
    return (np.asarray(R, dtype=float), np.asarray(p, dtype=float))


def _axis_angle(axis, angle):
    a = np.asarray(axis, float) / np.linalg.norm(axis)
    K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


GROUND = (Halfspace(), _placed(np.eye(3), np.zeros(3)))


def test_tilted_box_corners_against_the_plane():
    R = _axis_angle([1.0, 2.0, 0.5], 0.7)
    half = np.array([0.1, 0.2, 0.3])
    p = np.array([0.3, -0.2, 0.25])
    contacts = pair_contacts(*GROUND, Box(tuple(2 * half)), _placed(R, p), 1.0)
    corners = [R @ (half * s) + p for s in np.array(np.meshgrid([-1, 1], [-1, 1], [-1, 1])).reshape(3, -1).T]
    expected = sorted(c[2] for c in corners if c[2] <= 1.0)
    assert sorted(d for d, *_ in contacts) == pytest.approx(expected, abs=1e-14)
    for d, p1, p2, n in contacts:
        assert n == pytest.approx([0, 0, 1]) and p1[2] == 0.0 and p2[2] == pytest.approx(d)


def test_capsule_cylinder_sphere_distances():
    R = _axis_angle([1.0, -0.3, 0.2], 0.4)
    p = np.array([0.0, 0.0, 0.5])
    a = R[:, 2]
    r, length = 0.1, 0.6
    caps = pair_contacts(*GROUND, Capsule(r, length), _placed(R, p), 10.0)
    assert sorted(d for d, *_ in caps) == pytest.approx(sorted([p[2] + s * 0.3 * a[2] - r for s in (-1, 1)]))
    cyl = pair_contacts(*GROUND, Cylinder(r, length), _placed(R, p), 10.0)
    lowest = p[2] - 0.3 * abs(a[2]) - r * np.sqrt(1 - a[2] ** 2)  # the lowest rim point
    assert min(d for d, *_ in cyl) == pytest.approx(lowest, abs=1e-14)
    flat = pair_contacts(*GROUND, Cylinder(r, length), _placed(np.eye(3), [0, 0, 0.3]), 1e-3)
    assert len(flat) == 4 and all(abs(d) < 1e-14 for d, *_ in flat)  # a cap on the floor: a patch
    s = pair_contacts(Sphere(0.2), _placed(np.eye(3), [0, 0, 0]), Sphere(0.3), _placed(np.eye(3), [0.3, 0.4, 0]),
                      1.0)
    (d, p1, p2, n), = s
    assert d == pytest.approx(0.0) and n == pytest.approx([0.6, 0.8, 0]) and p1 == pytest.approx([0.12, 0.16, 0])
    # the reversed pair: same points, normal from the first object (now the shape) to the second (the plane)
    (d2, q1, q2, n2), = pair_contacts(Sphere(0.1), _placed(np.eye(3), [0, 0, 0.05]), *GROUND, 1.0)
    assert d2 == pytest.approx(-0.05) and n2 == pytest.approx([0, 0, -1]) and q2[2] == 0.0
