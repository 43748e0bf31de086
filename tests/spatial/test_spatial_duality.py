"""Motion/force duality and the spatial cross products (Pinocchio's cheat sheet: "Force application", "Cross
products")."""

import numpy as np
import pytest
from hypothesis import given

import rbda.spatial as sp
from spatial_strategies import PROPERTY, assert_close, crf, crm, floats, forces, motions, se3s, vectors


@PROPERTY
@given(se3s(), motions(), forces())
def test_power_is_frame_invariant(M, m, f):
    scale = 100 * (1 + np.linalg.norm(M.translation))
    assert abs(f.dot(m) - float(f.vector @ m.vector)) <= 1e-15 * scale
    assert m.dot(f) == f.dot(m)
    assert abs(M.act(f).dot(M.act(m)) - f.dot(m)) <= 1e-12 * scale
    assert abs(M.act_inv(f).dot(M.act_inv(m)) - f.dot(m)) <= 1e-12 * scale


@PROPERTY
@given(motions(), motions(), forces())
def test_cross_products_match_cheat_sheet(m1, m2, f):
    v1, w1, v2, w2 = m1.linear, m1.angular, m2.linear, m2.angular
    expected = np.concatenate([np.cross(v1, w2) + np.cross(w1, v2), np.cross(w1, w2)])
    assert_close(m1.cross(m2).vector, expected, 1e-14, 100)
    expected = np.concatenate([np.cross(w1, f.linear), np.cross(w1, f.angular) + np.cross(v1, f.linear)])
    assert_close(m1.cross(f).vector, expected, 1e-14, 100)
    assert_close((m1 ^ m2).vector, m1.cross(m2).vector, 0.0)
    assert isinstance(m1.cross(m2), sp.Motion) and isinstance(m1.cross(f), sp.Force)


@PROPERTY
@given(se3s(), motions(), motions(), forces())
def test_cross_products_commute_with_se3(M, m1, m2, f):
    scale = 100 * (1 + np.linalg.norm(M.translation)) ** 2
    assert_close(M.act(m1).cross(M.act(m2)).vector, M.act(m1.cross(m2)).vector, 1e-12, scale)
    assert_close(M.act(m1).cross(M.act(f)).vector, M.act(m1.cross(f)).vector, 1e-12, scale)
    assert_close(M.act_inv(m1).cross(M.act_inv(f)).vector, M.act_inv(m1.cross(f)).vector, 1e-11, scale)


@PROPERTY
@given(motions(), motions(), motions())
def test_jacobi_identity(a, b, c):
    total = a.cross(b.cross(c)) + b.cross(c.cross(a)) + c.cross(a.cross(b))
    assert_close(total.vector, np.zeros(6), 1e-13, 1000)
    assert_close(a.cross(b).vector, -b.cross(a).vector, 0.0)
    assert_close(a.cross(a).vector, np.zeros(6), 0.0)


@PROPERTY
@given(motions(), motions(), forces())
def test_cross_product_matrices(m, x, f):
    assert_close(m.action, crm(m.vector), 0.0)
    assert_close(m.dual_action, crf(m.vector), 0.0)
    assert_close(m.action @ x.vector, m.cross(x).vector, 1e-14, 100)
    assert_close(m.dual_action @ f.vector, m.cross(f).vector, 1e-14, 100)
    assert_close(sp.motion_cross_matrix(m.vector), crm(m.vector), 0.0)
    assert_close(sp.force_cross_matrix(m.vector), crf(m.vector), 0.0)


@PROPERTY
@given(motions(), motions(), forces())
def test_force_cross_is_dual_of_motion_cross(m, x, f):
    # (m x* f) . x == -f . (m x x): the cross products are adjoint
    assert abs(m.cross(f).dot(x) + f.dot(m.cross(x))) <= 1e-12 * 1000


@PROPERTY
@given(se3s(), motions())
def test_adjoint_of_twist_via_action_matrix(M, m):
    # X crm(m) X^-1 == crm(X m): the action matrix is a Lie algebra automorphism
    scale = 10 * (1 + np.linalg.norm(M.translation)) ** 3
    assert_close(M.action @ crm(m.vector) @ M.action_inverse, crm(M.act(m).vector), 1e-12, scale)


# ---------------------------------------------------------------------------------------------- vector space
@PROPERTY
@given(vectors(6, -10, 10), vectors(6, -10, 10), floats(-10, 10))
def test_linear_operations(a, b, s):
    for cls in (sp.Motion, sp.Force):
        x, y = cls(a), cls(b)
        assert_close((x + y).vector, a + b, 0.0)
        assert_close((x - y).vector, a - b, 0.0)
        assert_close((-x).vector, -a, 0.0)
        assert_close((s * x).vector, s * a, 0.0)
        assert_close((x * s).vector, s * a, 0.0)
        assert isinstance(np.float64(s) * x, cls)
        assert_close((np.float64(s) * x).vector, s * a, 0.0)
        if abs(s) > 1e-3:
            assert_close((x / s).vector, a / s, 1e-15, 10 / abs(s))
        z = x.copy()
        z += y
        assert_close(z.vector, a + b, 0.0)
        z -= y
        assert_close(z.vector, (a + b) - b, 0.0)
        assert_close(x.vector, a, 0.0)  # in-place ops acted on the copy only
        assert_close(cls(a[:3], a[3:]).vector, a, 0.0)
        assert_close(x.linear, a[:3], 0.0)
        assert_close(x.angular, a[3:], 0.0)
        assert_close(np.asarray(x), a, 0.0)
        assert x == cls(a) and not (x == cls(a + 1.0))


def test_parts_zero_and_random():
    m = sp.Motion.Zero()
    assert np.array_equal(m.vector, np.zeros(6)) and np.array_equal(sp.Force().vector, np.zeros(6))
    m.linear = [1.0, 2.0, 3.0]
    m.angular = [4.0, 5.0, 6.0]
    assert np.array_equal(m.vector, np.arange(1.0, 7.0))
    assert np.array_equal(sp.Motion(angular=[1.0, 2.0, 3.0]).vector, [0, 0, 0, 1, 2, 3])
    r = sp.Force.Random(np.random.default_rng(0))
    assert isinstance(r, sp.Force) and np.all(np.abs(r.vector) <= 1.0)
    assert m.is_approx(sp.Motion(m.vector + 1e-14)) and not m.is_approx(sp.Motion(m.vector + 1e-6))


def test_classic_acceleration():
    # a point rotating on a circle of radius r at rate w about z: centripetal acceleration w^2 r towards the axis
    r, w = 0.7, 3.0
    velocity = sp.Motion([0.0, w * r, 0.0], [0.0, 0.0, w])  # frame at (r, 0, 0), x pointing outwards
    acceleration = sp.Motion.Zero()
    assert_close(sp.classic_acceleration(velocity, acceleration), [-w * w * r, 0.0, 0.0], 1e-15, 10)
    # the same through a frame C at the axis, bMc = translation (-r, 0, 0): the origin of C does not move
    M = sp.SE3(np.eye(3), [-r, 0.0, 0.0])
    assert_close(sp.classic_acceleration(velocity, acceleration, M), np.zeros(3), 1e-15, 10)


def test_motion_plus_force_is_type_error():
    with pytest.raises(TypeError):
        sp.Motion.Zero() + sp.Force.Zero()
    with pytest.raises(TypeError):
        sp.Force.Zero() - sp.Motion.Zero()
    with pytest.raises(TypeError):
        sp.Motion.Zero().dot(sp.Motion.Zero())
    with pytest.raises(TypeError):
        sp.Force.Zero().dot(sp.Force.Zero())
    with pytest.raises(TypeError):
        sp.Motion.Zero().cross(np.zeros(6))
