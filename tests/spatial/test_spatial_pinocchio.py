"""Cross-checks against Pinocchio's Python classes (same [linear; angular] order). Skipped without ``pin``."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import rbda.spatial as sp
from spatial_strategies import (
    PI,
    PROPERTY,
    assert_close,
    floats,
    forces,
    inertias,
    motions,
    rotation_vectors,
    rotations,
    se3s,
    twists,
    vectors,
)

pin = pytest.importorskip("pinocchio")


def to_pin(x):
    if isinstance(x, sp.SE3):
        return pin.SE3(x.rotation, x.translation)
    if isinstance(x, sp.Motion):
        return pin.Motion(x.vector)
    if isinstance(x, sp.Force):
        return pin.Force(x.vector)
    if isinstance(x, sp.Inertia):
        return pin.Inertia(x.mass, x.lever, x.inertia)
    raise TypeError(type(x))


def tscale(M):
    return 1.0 + np.linalg.norm(M.translation)


def iscale(Y):
    return Y.mass * (1.0 + np.linalg.norm(Y.lever)) ** 2 + np.linalg.norm(Y.inertia)


# ---------------------------------------------------------------------------------------------- SE3
@PROPERTY
@given(se3s(), se3s())
def test_se3(A, B):
    pA, pB = to_pin(A), to_pin(B)
    s = tscale(A) * tscale(B)
    assert_close(A.action, pA.action, 1e-15 * 4, s)
    assert_close(A.action_inverse, pA.actionInverse, 1e-15 * 4, s)
    assert_close(A.dual_action, pA.dualAction, 1e-15 * 4, s)
    assert_close((A * B).homogeneous, (pA * pB).homogeneous, 1e-15 * 4, s)
    assert_close(A.inverse().homogeneous, pA.inverse().homogeneous, 1e-15 * 4, s)
    assert_close(A.act_inv(B).homogeneous, pA.actInv(pB).homogeneous, 1e-14, s)
    assert_close(A.act(B.translation), pA.act(B.translation), 1e-15 * 4, s)
    assert_close(A.act_inv(B.translation), pA.actInv(B.translation), 1e-14, s)


@PROPERTY
@given(se3s())
def test_xyzquat(M):
    ours, theirs = M.to_xyzquat(), pin.SE3ToXYZQUAT(to_pin(M))
    assert_close(ours[:3], theirs[:3], 0.0)
    assert min(np.abs(ours[3:] - theirs[3:]).max(), np.abs(ours[3:] + theirs[3:]).max()) < 1e-14
    assert_close(sp.SE3.from_xyzquat(theirs).homogeneous, M.homogeneous, 1e-14, tscale(M))


@PROPERTY
@given(se3s(3.0), se3s(3.0), floats(0.0, 1.0))
def test_interpolate(A, B, t):
    ours = sp.SE3.Interpolate(A, B, t)
    theirs = pin.SE3.Interpolate(to_pin(A), to_pin(B), t)
    assert_close(ours.homogeneous, theirs.homogeneous, 1e-9, tscale(A) + tscale(B))


# ---------------------------------------------------------------------------------------------- Motion / Force
@PROPERTY
@given(se3s(), motions(), motions(), forces())
def test_motion_force(M, m1, m2, f):
    pM, pm1, pm2, pf = to_pin(M), to_pin(m1), to_pin(m2), to_pin(f)
    s = 100 * tscale(M)
    assert_close(m1.cross(m2).vector, pm1.cross(pm2).vector, 1e-15 * 4, 100)
    assert_close(m1.cross(f).vector, pm1.cross(pf).vector, 1e-15 * 4, 100)
    assert_close(m1.action, pm1.action, 0.0)
    assert_close(m1.dual_action, pm1.dualAction, 0.0)
    assert abs(f.dot(m1) - pf.dot(pm1)) <= 1e-13 * 100
    assert_close(M.act(m1).vector, pM.act(pm1).vector, 1e-15 * 4, s)
    assert_close(M.act_inv(m1).vector, pM.actInv(pm1).vector, 1e-15 * 4, s)
    assert_close(M.act(f).vector, pM.act(pf).vector, 1e-15 * 4, s)
    assert_close(M.act_inv(f).vector, pM.actInv(pf).vector, 1e-15 * 4, s)


# ---------------------------------------------------------------------------------------------- Inertia
@PROPERTY
@given(se3s(), inertias(), motions())
def test_inertia(M, Y, nu):
    pY, pnu, pM = to_pin(Y), to_pin(nu), to_pin(M)
    s = iscale(Y)
    assert_close(Y.matrix(), pY.matrix(), 1e-15 * 4, s)
    assert_close((Y * nu).vector, (pY * pnu).vector, 1e-14, 10 * s)
    assert_close(Y.vxiv(nu).vector, pY.vxiv(pnu).vector, 1e-14, 100 * s)
    assert_close(Y.vxi(nu), pY.vxi(pnu), 1e-14, 10 * s)
    assert_close(Y.ivx(nu), pY.ivx(pnu), 1e-14, 10 * s)
    assert_close(Y.variation(nu), pY.variation(pnu), 1e-14, 10 * s)
    assert abs(Y.vtiv(nu) - pY.vtiv(pnu)) <= 1e-12 * 100 * s
    assert_close(M.act(Y).matrix(), pM.act(pY).matrix(), 1e-13, s * tscale(M) ** 2)
    assert_close(M.act_inv(Y).matrix(), pM.actInv(pY).matrix(), 1e-13, s * tscale(M) ** 2)
    assert_close(Y.inverse(), pY.inverse(), 1e-9, np.abs(Y.inverse()).max())


@PROPERTY
@given(inertias(), inertias())
def test_inertia_sum(Y1, Y2):
    assert_close((Y1 + Y2).matrix(), (to_pin(Y1) + to_pin(Y2)).matrix(), 1e-13, iscale(Y1) + iscale(Y2))


@PROPERTY
@given(inertias(), vectors(10, -2, 2))
def test_inertia_parameterisations(Y, theta):
    pY = to_pin(Y)
    s = iscale(Y)
    assert_close(Y.to_dynamic_parameters(), pY.toDynamicParameters(), 1e-14, s)
    assert_close(Y.to_pseudo_inertia(), pY.toPseudoInertia().toMatrix(), 1e-14, s)
    assert_close(sp.Inertia.FromDynamicParameters(pY.toDynamicParameters()).matrix(), Y.matrix(), 1e-12, s)
    pJ = pin.PseudoInertia.FromMatrix(Y.to_pseudo_inertia())
    assert_close(pin.Inertia.FromPseudoInertia(pJ).matrix(), Y.matrix(), 1e-12, s)
    lc = pin.LogCholeskyParameters(theta)
    ours = sp.Inertia.FromLogCholeskyParameters(theta)
    assert_close(ours.matrix(), lc.toInertia().matrix(), 1e-12, iscale(ours))
    assert_close(pin.LogCholeskyParameters(Y.to_log_cholesky_parameters()).toInertia().matrix(), Y.matrix(), 1e-11, s)


@PROPERTY
@given(st.tuples(floats(0.1, 10.0), floats(0.05, 2.0), floats(0.05, 2.0), floats(0.05, 2.0)))
def test_inertia_factories(ms):
    m, a, b, c = ms
    pairs = [
        (sp.Inertia.FromSphere(m, a), pin.Inertia.FromSphere(m, a)),
        (sp.Inertia.FromBox(m, a, b, c), pin.Inertia.FromBox(m, a, b, c)),
        (sp.Inertia.FromEllipsoid(m, a, b, c), pin.Inertia.FromEllipsoid(m, a, b, c)),
        (sp.Inertia.FromCylinder(m, a, b), pin.Inertia.FromCylinder(m, a, b)),
        (sp.Inertia.FromCapsule(m, a, b), pin.Inertia.FromCapsule(m, a, b)),
    ]
    for ours, theirs in pairs:
        assert_close(ours.matrix(), theirs.matrix(), 1e-14, m * (a + b + c) ** 2)


# ---------------------------------------------------------------------------------------------- exp / log
@PROPERTY
@given(rotation_vectors(2 * PI - 0.2))
def test_so3_maps(w):
    R = sp.exp3(w)
    assert_close(R, pin.exp3(w), 1e-15 * 4)
    # Pinocchio's Jexp3 and Jlog3 lose up to ~1e-10 to cancellation at small angles (e.g. Jexp3 at |w| = 2^-9,
    # Jlog3 at |w| = 1e-3, both checked with mpmath); test_spatial_jacobians.py holds ours to tighter bounds
    assert_close(sp.Jexp3(w), pin.Jexp3(w), 1e-12)
    w_ours, w_pin = sp.log3(R), pin.log3(R)
    t = np.linalg.norm(w_pin)
    if t < PI - 1e-6:
        conditioning = 1.0 / max(np.sin(t), 1e-6) if t > 1.0 else 1.0  # of the axis, near pi
        assert_close(w_ours, w_pin, 1e-13 * conditioning, 4)
        assert_close(sp.Jlog3(R), pin.Jlog3(R), 1e-10 * conditioning, 10)
    assert_close(pin.exp3(w_ours), R, 1e-14)


@PROPERTY
@given(twists(2 * PI - 0.2))
def test_se3_maps(nu):
    M = sp.exp6(nu)
    pM = pin.exp6(pin.Motion(nu))
    assert_close(M.homogeneous, pM.homogeneous, 1e-13, 10)  # pin.exp6 itself is off by ~4e-13 at some small |w|
    # Pinocchio's own Jexp6/Jlog6 lose ~1e-8 to cancellation for small |w| (e.g. v = e_z, w = 1e-3 e_z, checked
    # against a 50-digit series), and ~1e-6 at |w| = 2e-4 (a sample hypothesis found); test_spatial_jacobians.py
    # checks ours against the series to 1e-12
    if np.linalg.norm(nu[3:]) > 1e-2 or np.linalg.norm(nu[3:]) == 0.0:
        assert_close(sp.Jexp6(nu), pin.Jexp6(pin.Motion(nu)), 1e-7, 10)
    nu_ours, nu_pin = sp.log6(M).vector, pin.log6(to_pin(M)).vector
    t = np.linalg.norm(nu_pin[3:])
    if t < PI - 1e-6:
        conditioning = 1.0 / max(np.sin(t), 1e-6) if t > 1.0 else 1.0  # of the axis, near pi
        assert_close(nu_ours, nu_pin, 1e-12 * conditioning, 10)
        assert_close(sp.Jlog6(M), pin.Jlog6(to_pin(M)), 1e-7 * conditioning, 10)
    assert_close(pin.exp6(pin.Motion(nu_ours)).homogeneous, M.homogeneous, 1e-13, 10)


@PROPERTY
@given(rotations(), rotations())
def test_quaternions(R1, R2):
    q1, q2 = sp.matrix_to_quat(R1), sp.matrix_to_quat(R2)
    p1 = pin.Quaternion(R1)
    assert min(np.abs(q1 - p1.coeffs()).max(), np.abs(q1 + p1.coeffs()).max()) < 1e-14
    prod = (pin.Quaternion(R1) * pin.Quaternion(R2)).coeffs()
    assert min(np.abs(sp.quat_multiply(q1, q2) - prod).max(), np.abs(sp.quat_multiply(q1, q2) + prod).max()) < 1e-14
    aa = pin.AngleAxis(R1)
    ours = sp.AngleAxis.from_matrix(R1)
    assert_close(ours.matrix(), aa.matrix(), 1e-14)


# ---------------------------------------------------------------------------------------------- rpy
@PROPERTY
@given(vectors(3, -PI, PI), vectors(3, -2, 2), rotations())
def test_rpy(rpy, rpydot, R):
    assert_close(sp.rpy_to_matrix(rpy), pin.rpy.rpyToMatrix(rpy), 1e-15 * 4)
    # the angles may differ by the rpy ambiguity; the rotations they describe may not
    assert_close(sp.rpy_to_matrix(sp.matrix_to_rpy(R)), pin.rpy.rpyToMatrix(pin.rpy.matrixToRpy(R)), 1e-14)
    frames = [
        (sp.ReferenceFrame.LOCAL, pin.LOCAL),
        (sp.ReferenceFrame.WORLD, pin.WORLD),
        (sp.ReferenceFrame.LOCAL_WORLD_ALIGNED, pin.LOCAL_WORLD_ALIGNED),
    ]
    for ours, theirs in frames:
        assert int(ours) == int(theirs)
        assert_close(sp.compute_rpy_jacobian(rpy, ours), pin.rpy.computeRpyJacobian(rpy, theirs), 1e-15 * 4)
        assert_close(
            sp.compute_rpy_jacobian_time_derivative(rpy, rpydot, ours),
            pin.rpy.computeRpyJacobianTimeDerivative(rpy, rpydot, theirs),
            1e-15 * 8,
        )
        if abs(np.cos(rpy[1])) > 1e-3:
            assert_close(
                sp.compute_rpy_jacobian_inverse(rpy, ours),
                pin.rpy.computeRpyJacobianInverse(rpy, theirs),
                1e-12,
                1 / abs(np.cos(rpy[1])),
            )
