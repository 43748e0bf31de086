"""Inertia factories against textbook values and quadrature, and the parameterisations: dynamic parameters,
pseudo-inertia, log-Cholesky; the physical-consistency check."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.integrate import quad

import rbda.spatial as sp
from spatial_strategies import PROPERTY, assert_close, floats, hat, inertia_triples, inertias, vectors


def scale_of(Y: sp.Inertia) -> float:
    return Y.mass * (1.0 + np.linalg.norm(Y.lever)) ** 2 + np.linalg.norm(Y.inertia)


# ---------------------------------------------------------------------------------------------- factories
def solid_of_revolution(mass, radius_at, z0, z1, breaks=()):
    """Diagonal rotational inertia about the origin of a uniform solid of revolution about z, of radius
    ``radius_at(z)`` for ``z`` in ``[z0, z1]``, by integrating thin discs: a disc of mass dm and radius rho has
    ``dIzz = dm rho^2 / 2`` and ``dIxx = dm (rho^2 / 4 + z^2)``."""
    kw = dict(points=list(breaks) or None, epsabs=0.0, epsrel=1e-13, limit=200)
    volume = quad(lambda z: np.pi * radius_at(z) ** 2, z0, z1, **kw)[0]
    density = mass / volume
    Ixx = density * quad(lambda z: np.pi * radius_at(z) ** 2 * (radius_at(z) ** 2 / 4 + z * z), z0, z1, **kw)[0]
    Izz = density * quad(lambda z: np.pi * radius_at(z) ** 4 / 2, z0, z1, **kw)[0]
    return np.diag([Ixx, Ixx, Izz])


def capsule_radius(r, h):
    def radius_at(z):
        d = abs(z) - h / 2
        return r if d <= 0 else np.sqrt(max(r * r - d * d, 0.0))

    return radius_at


MASSES_AND_SIZES = st.tuples(floats(0.1, 10.0), floats(0.05, 2.0), floats(0.05, 2.0), floats(0.05, 2.0))


@PROPERTY
@given(MASSES_AND_SIZES)
def test_sphere(ms):
    m, r = ms[0], ms[1]
    Y = sp.Inertia.FromSphere(m, r)
    assert Y.mass == m and np.array_equal(Y.lever, np.zeros(3))
    assert_close(Y.inertia, 0.4 * m * r * r * np.eye(3), 1e-15, m * r * r)
    assert_close(Y.inertia, solid_of_revolution(m, capsule_radius(r, 0.0), -r, r), 1e-10, m * r * r)
    assert Y.is_physically_consistent()


@PROPERTY
@given(MASSES_AND_SIZES)
def test_box(ms):
    m, x, y, z = ms
    Y = sp.Inertia.FromBox(m, x, y, z)
    # second moment of a uniform density on [-a/2, a/2]: a^2 / 12
    s = [quad(lambda u: u * u / a, -a / 2, a / 2)[0] for a in (x, y, z)]
    assert_close(Y.inertia, m * np.diag([s[1] + s[2], s[0] + s[2], s[0] + s[1]]), 1e-13, m)
    assert_close(Y.inertia, m / 12 * np.diag([y * y + z * z, x * x + z * z, x * x + y * y]), 1e-15, m)
    assert Y.mass == m and Y.is_physically_consistent()


@PROPERTY
@given(MASSES_AND_SIZES)
def test_ellipsoid(ms):
    m, a, b, c = ms
    Y = sp.Inertia.FromEllipsoid(m, a, b, c)
    # E[u^2] over the unit ball, by discs: the ellipsoid is the unit ball scaled by (a, b, c)
    k = quad(lambda z: np.pi * (1 - z * z) * z * z, -1, 1)[0] / (4 * np.pi / 3)
    assert abs(k - 0.2) < 1e-14
    assert_close(Y.inertia, m * k * np.diag([b * b + c * c, a * a + c * c, a * a + b * b]), 1e-13, m)
    assert_close(sp.Inertia.FromEllipsoid(m, a, a, a).inertia, sp.Inertia.FromSphere(m, a).inertia, 1e-15, m)
    assert Y.mass == m and Y.is_physically_consistent()


@PROPERTY
@given(MASSES_AND_SIZES)
def test_cylinder(ms):
    m, r, h = ms[0], ms[1], ms[2]
    Y = sp.Inertia.FromCylinder(m, r, h)
    lateral = m * (3 * r * r + h * h) / 12
    assert_close(Y.inertia, np.diag([lateral, lateral, m * r * r / 2]), 1e-15, m)
    assert_close(Y.inertia, solid_of_revolution(m, lambda z: r, -h / 2, h / 2), 1e-10, m * (r + h) ** 2)
    assert Y.mass == m and Y.is_physically_consistent()


@PROPERTY
@given(MASSES_AND_SIZES)
def test_capsule(ms):
    m, r, h = ms[0], ms[1], ms[2]
    Y = sp.Inertia.FromCapsule(m, r, h)
    assert Y.mass == m and np.array_equal(Y.lever, np.zeros(3))
    expected = solid_of_revolution(m, capsule_radius(r, h), -h / 2 - r, h / 2 + r, breaks=(-h / 2, h / 2))
    assert_close(Y.inertia, expected, 1e-10, m * (r + h) ** 2)
    # the same as a composite: a cylinder and two hemispheres (2/5 m r^2 about the flat face's centre,
    # centre of mass 3r/8 from the face), summed as 6x6 matrices at their own centres of mass
    rho = m / (np.pi * r * r * h + 4 / 3 * np.pi * r**3)
    m_cyl, m_hemi = rho * np.pi * r * r * h, rho * 2 / 3 * np.pi * r**3
    total = sp.Inertia.FromCylinder(m_cyl, r, h).matrix()
    lateral_c = 0.4 * m_hemi * r * r - m_hemi * (3 * r / 8) ** 2
    for sign in (1.0, -1.0):
        c = np.array([0.0, 0.0, sign * (h / 2 + 3 * r / 8)])
        C = hat(c)
        Yh = np.zeros((6, 6))
        Yh[:3, :3], Yh[:3, 3:], Yh[3:, :3] = m_hemi * np.eye(3), -m_hemi * C, m_hemi * C
        Yh[3:, 3:] = np.diag([lateral_c, lateral_c, 0.4 * m_hemi * r * r]) - m_hemi * C @ C
        total += Yh
    assert_close(Y.matrix(), total, 1e-13, m * (r + h) ** 2)
    assert Y.is_physically_consistent()


def test_capsule_of_zero_height_is_a_sphere():
    assert_close(sp.Inertia.FromCapsule(2.0, 0.3, 0.0).matrix(), sp.Inertia.FromSphere(2.0, 0.3).matrix(), 1e-16)


@pytest.mark.parametrize(
    "factory, args, name",
    [
        (sp.Inertia.FromSphere, (-1.0, 1.0), "mass"),
        (sp.Inertia.FromSphere, (1.0, 0.0), "radius"),
        (sp.Inertia.FromBox, (1.0, 1.0, -1.0, 1.0), "y"),
        (sp.Inertia.FromEllipsoid, (1.0, 1.0, 1.0, 0.0), "z"),
        (sp.Inertia.FromCylinder, (1.0, 1.0, -2.0), "length"),
        (sp.Inertia.FromCapsule, (1.0, 1.0, -0.1), "height"),
        (sp.Inertia.FromCapsule, (1.0, float("nan"), 1.0), "radius"),
    ],
)
def test_factories_reject_bad_sizes(factory, args, name):
    with pytest.raises(ValueError, match=name):
        factory(*args)


# ---------------------------------------------------------------------------------------------- parameterisations
def point_cloud(masses, points):
    """(m, c, I_c), spatial inertia matrix and pseudo-inertia of point masses, from their definitions."""
    m = masses.sum()
    c = (masses[:, None] * points).sum(0) / m
    I_c = sum(mi * ((d @ d) * np.eye(3) - np.outer(d, d)) for mi, d in zip(masses, points - c))
    Y = sum(mi * np.block([[np.eye(3), -hat(r)], [hat(r), -hat(r) @ hat(r)]]) for mi, r in zip(masses, points))
    J = sum(mi * np.outer(np.append(r, 1.0), np.append(r, 1.0)) for mi, r in zip(masses, points))
    return (m, c, I_c), Y, J


POINT_CLOUDS = st.tuples(vectors(5, 0.1, 3.0), st.lists(vectors(3, -2, 2), min_size=5, max_size=5).map(np.array))


@PROPERTY
@given(POINT_CLOUDS)
def test_point_masses(cloud):
    (m, c, I_c), Y_expected, J_expected = point_cloud(*cloud)
    Y = sp.Inertia(m, c, I_c)
    assert_close(Y.matrix(), Y_expected, 1e-13, 60)
    assert_close(Y.to_pseudo_inertia(), J_expected, 1e-13, 60)
    assert_close(sp.Inertia.FromPseudoInertia(J_expected).matrix(), Y_expected, 1e-12, 60)


@PROPERTY
@given(inertia_triples())
def test_dynamic_parameters(triple):
    m, c, I = triple
    Y = sp.Inertia(m, c, I)
    I_o = I + m * ((c @ c) * np.eye(3) - np.outer(c, c))  # parallel-axis theorem
    expected = np.array([m, *(m * c), I_o[0, 0], I_o[0, 1], I_o[1, 1], I_o[0, 2], I_o[1, 2], I_o[2, 2]])
    p = Y.to_dynamic_parameters()
    assert_close(p, expected, 1e-13, scale_of(Y))
    assert_close(sp.Inertia.FromDynamicParameters(p).matrix(), Y.matrix(), 1e-12, scale_of(Y))


@PROPERTY
@given(inertias(), inertias(), floats(0.1, 3.0))
def test_parameters_are_linear_in_the_matrix(Y1, Y2, a):
    p1, p2 = Y1.to_dynamic_parameters(), Y2.to_dynamic_parameters()
    # the 6x6 matrix from the parameters [m, h, I_o]: [[m 1, -h_x], [h_x, I_o]]
    m, h, (ixx, ixy, iyy, ixz, iyz, izz) = p1[0], p1[1:4], p1[4:]
    I_o = np.array([[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]])
    assert_close(Y1.matrix(), np.block([[m * np.eye(3), -hat(h)], [hat(h), I_o]]), 1e-13, scale_of(Y1))
    scale = a * scale_of(Y1) + scale_of(Y2)
    combo = sp.Inertia.FromDynamicParameters(a * p1 + p2)
    assert_close(combo.matrix(), a * Y1.matrix() + Y2.matrix(), 1e-12, scale)
    assert_close((Y1 + Y2).to_dynamic_parameters(), p1 + p2, 1e-12, scale)
    assert_close((Y1 + Y2).to_pseudo_inertia(), Y1.to_pseudo_inertia() + Y2.to_pseudo_inertia(), 1e-12, scale)


@PROPERTY
@given(inertia_triples())
def test_pseudo_inertia(triple):
    m, c, I = triple
    Y = sp.Inertia(m, c, I)
    J = Y.to_pseudo_inertia()
    I_o = I + m * ((c @ c) * np.eye(3) - np.outer(c, c))
    assert_close(J[:3, :3], 0.5 * np.trace(I_o) * np.eye(3) - I_o, 1e-13, scale_of(Y))
    assert_close(J[:3, 3], m * c, 1e-14, scale_of(Y))
    assert_close(J[3, :3], m * c, 1e-14, scale_of(Y))
    assert J[3, 3] == m
    assert np.all(np.linalg.eigvalsh(J) > 0)  # physically consistent <=> J positive definite
    assert_close(sp.Inertia.FromPseudoInertia(J).matrix(), Y.matrix(), 1e-12, scale_of(Y))


LOG_CHOLESKY = vectors(10, -2.0, 2.0)


def log_cholesky_pseudo_inertia(theta):
    alpha, d1, d2, d3, s12, s23, s13, t1, t2, t3 = theta
    U = np.exp(alpha) * np.array(
        [[np.exp(d1), s12, s13, t1], [0, np.exp(d2), s23, t2], [0, 0, np.exp(d3), t3], [0, 0, 0, 1.0]]
    )
    return U @ U.T


@PROPERTY
@given(LOG_CHOLESKY)
def test_log_cholesky(theta):
    Y = sp.Inertia.FromLogCholeskyParameters(theta)
    J = log_cholesky_pseudo_inertia(theta)
    assert_close(Y.to_pseudo_inertia(), J, 1e-12, np.abs(J).max())
    assert Y.is_physically_consistent()
    assert_close(Y.to_log_cholesky_parameters(), theta, 1e-9, 2)
    assert_close(sp.Inertia.FromLogCholeskyParameters(Y.to_log_cholesky_parameters()).matrix(), Y.matrix(), 1e-11,
                 scale_of(Y))


@PROPERTY
@given(inertias())
def test_log_cholesky_round_trip_from_inertia(Y):
    theta = Y.to_log_cholesky_parameters()
    assert_close(log_cholesky_pseudo_inertia(theta), Y.to_pseudo_inertia(), 1e-11, scale_of(Y))
    assert_close(sp.Inertia.FromLogCholeskyParameters(theta).matrix(), Y.matrix(), 1e-11, scale_of(Y))


def test_log_cholesky_needs_consistency():
    with pytest.raises(ValueError, match="inertia"):
        sp.Inertia(1.0, np.zeros(3), np.diag([1.0, 1.0, 3.0])).to_log_cholesky_parameters()


# ---------------------------------------------------------------------------------------------- consistency
@PROPERTY
@given(inertias())
def test_consistent_samples(Y):
    assert Y.is_physically_consistent()


def test_factories_and_random_are_consistent():
    rng = np.random.default_rng(2)
    for _ in range(50):
        assert sp.Inertia.Random(rng).is_physically_consistent()
    assert sp.Inertia.Identity().is_physically_consistent()


@pytest.mark.parametrize(
    "mass, inertia",
    [
        (-1.0, np.eye(3)),  # negative mass
        (0.0, np.eye(3)),  # zero mass
        (1.0, np.diag([1.0, 1.0, -0.1])),  # not positive definite
        (1.0, np.zeros((3, 3))),  # a point mass has no positive-definite inertia
        (1.0, np.diag([1.0, 1.0, 3.0])),  # 1 + 1 < 3: triangle inequality violated
        (1.0, np.diag([0.1, 2.0, 1.0])),  # 0.1 + 1 < 2
    ],
)
def test_inconsistent(mass, inertia):
    Y = sp.Inertia(mass, [0.1, 0.2, 0.3], inertia)
    assert not Y.is_physically_consistent()


def test_triangle_inequality_boundary():
    # a thin rod (I = diag(a, a, 0)) is degenerate; a flat disc (a, a, 2a) is on the boundary, still consistent
    assert sp.Inertia(1.0, np.zeros(3), np.diag([0.25, 0.25, 0.5])).is_physically_consistent()
    assert not sp.Inertia(1.0, np.zeros(3), np.diag([0.25, 0.25, 0.0])).is_physically_consistent()
