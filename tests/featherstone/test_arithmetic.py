"""Tests of ``rbda.featherstone`` rotation and spatial/planar arithmetic and of its converters to the core.

Every expected value is computed here independently: from explicit textbook formulas (Rodrigues, quaternion
sandwich products, point velocities, point-mass inertias), from the core ``rbda.spatial`` classes (after reordering
``[angular; linear] <-> [linear; angular]``), from Pinocchio when installed, or from identities between functions
(e.g. ``plux(rx(h), r) == rotx(h) @ xlt(r)``, invariance of ``f . m`` under ``X`` and its dual).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import rbda.featherstone as fs
from rbda.spatial import SE3, Force, Inertia, Motion

PI = np.pi
PROPERTY = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SPECIAL_ANGLES = [0.0, 1e-12, 1e-8, 1e-4, 0.3, PI / 2, 2.0, PI - 1e-3, PI - 1e-7, PI - 1e-10, PI]
PLANAR = [2, 3, 4]  # indices of (w_z, v_x, v_y) in an angular-first 6-vector


# ---------------------------------------------------------------------------------------------- references
def hat(u) -> np.ndarray:
    x, y, z = u
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def rodrigues(axis, angle: float) -> np.ndarray:
    """Active rotation ``aRb`` by ``angle`` about the unit ``axis``; the coordinate transform E is its transpose."""
    K = hat(axis)
    return np.eye(3) + np.sin(angle) * K + (1.0 - np.cos(angle)) * (K @ K)


def quat_mul(a, b) -> np.ndarray:
    """Hamilton product of scalar-first quaternions, written out term by term."""
    a0, a1, a2, a3 = a
    b0, b1, b2, b3 = b
    return np.array(
        [
            a0 * b0 - a1 * b1 - a2 * b2 - a3 * b3,
            a0 * b1 + a1 * b0 + a2 * b3 - a3 * b2,
            a0 * b2 - a1 * b3 + a2 * b0 + a3 * b1,
            a0 * b3 + a1 * b2 - a2 * b1 + a3 * b0,
        ]
    )


def quat_rotation(q) -> np.ndarray:
    """``aRb`` of the unit quaternion ``q`` (B relative to A), column i = vector part of ``q e_i q*``."""
    q = np.asarray(q) / np.linalg.norm(q)
    conj = q * np.array([1.0, -1.0, -1.0, -1.0])
    return np.column_stack([quat_mul(quat_mul(q, np.r_[0.0, e]), conj)[1:] for e in np.eye(3)])


def swap(M: np.ndarray) -> np.ndarray:
    """Reorder a 6-vector or a 6x6 matrix between ``[angular; linear]`` and ``[linear; angular]``."""
    P = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])
    return P @ M if M.ndim == 1 else P @ M @ P


def blockdiag(E: np.ndarray) -> np.ndarray:
    return np.block([[E, np.zeros((3, 3))], [np.zeros((3, 3)), E]])


def point_mass_inertia(masses, points) -> np.ndarray:
    """Angular-first rigid-body inertia of point masses: ``sum m_i A_i^T A_i`` with ``v_point = A_i [w; v_O]``."""
    rbi = np.zeros((6, 6))
    for m, p in zip(masses, points):
        A = np.hstack([-hat(p), np.eye(3)])  # v_O + w x p = v_O - p x w
        rbi += m * A.T @ A
    return rbi


# ---------------------------------------------------------------------------------------------- strategies
finite = st.floats(-3.0, 3.0, allow_nan=False)
vec2 = arrays(np.float64, 2, elements=finite)
vec3 = arrays(np.float64, 3, elements=finite)
vec6 = arrays(np.float64, 6, elements=finite)
angles = st.floats(-PI, PI) | st.sampled_from(SPECIAL_ANGLES + [-a for a in SPECIAL_ANGLES])
unit_axes = vec3.filter(lambda u: np.linalg.norm(u) > 1e-3).map(lambda u: u / np.linalg.norm(u))
quats = arrays(np.float64, 4, elements=finite).filter(lambda q: np.linalg.norm(q) > 1e-3)
rotations = quats.map(lambda q: quat_rotation(q).T)  # coordinate transforms E
transforms = st.tuples(rotations, vec3).map(lambda Er: fs.plux(*Er))
placements = st.tuples(quats, vec3).map(lambda qp: SE3(quat_rotation(qp[0]), qp[1]))
inertias = st.tuples(
    st.floats(0.1, 5.0), vec3, arrays(np.float64, (3, 3), elements=st.floats(-1.0, 1.0))
).map(lambda a: (a[0], a[1], a[2] @ a[2].T + 0.1 * np.eye(3)))


# ---------------------------------------------------------------------------------------------- 3-D rotations
@PROPERTY
@given(angles)
def test_rx_ry_rz_are_transposed_rodrigues_and_match_rq(h):
    for axis, E in zip(np.eye(3), (fs.rx(h), fs.ry(h), fs.rz(h))):
        np.testing.assert_allclose(E, rodrigues(axis, h).T, atol=1e-14)
        np.testing.assert_allclose(E, fs.rq(np.r_[np.cos(h / 2), np.sin(h / 2) * axis]), atol=1e-14)


def test_rz_maps_coordinates_from_A_to_B():
    # B rotated by +90 deg about z: A's x axis is B's -y axis
    np.testing.assert_allclose(fs.rz(PI / 2) @ [1.0, 0.0, 0.0], [0.0, -1.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(fs.rx(1.0), [[1, 0, 0], [0, np.cos(1), np.sin(1)], [0, -np.sin(1), np.cos(1)]])


def test_rv_seed_examples():
    np.testing.assert_allclose(fs.rv([1.0, 0.0, 0.0]), fs.rx(1.0), atol=1e-15)
    np.testing.assert_allclose(fs.rv(fs.ry(2.0)), [0.0, 2.0, 0.0], atol=1e-14)
    np.testing.assert_allclose(fs.rv(np.array([[0.0, 0.0, 0.5]])), fs.rz(0.5), atol=1e-15)  # row vector
    np.testing.assert_allclose(fs.rv(np.array([[0.0], [0.0], [0.5]])), fs.rz(0.5), atol=1e-15)  # column vector


@PROPERTY
@given(unit_axes, angles)
def test_rv_is_transposed_rodrigues_and_round_trips(axis, h):
    v = h * axis
    E = fs.rv(v)
    np.testing.assert_allclose(E, rodrigues(axis, h).T, atol=1e-14)
    np.testing.assert_allclose(E @ v, v, atol=1e-13)  # v is common to A and B
    back = fs.rv(E)
    assert np.linalg.norm(back) <= PI + 1e-12
    if abs(h) < PI - 1e-6:
        np.testing.assert_allclose(back, v, atol=1e-12)
    else:  # near pi, v and -v are the same rotation
        assert min(np.linalg.norm(back - v), np.linalg.norm(back + v)) < 1e-6
    np.testing.assert_allclose(fs.rv(back), E, atol=1e-12)


@PROPERTY
@given(quats, st.floats(0.2, 5.0), st.sampled_from([1.0, -1.0]))
def test_rq_normalises_and_is_transposed_quaternion_rotation(q, scale, sign):
    E = fs.rq(sign * scale * q)
    np.testing.assert_allclose(E, quat_rotation(q).T, atol=1e-13)
    back = fs.rq(E)
    assert back[0] >= 0.0 and abs(np.linalg.norm(back) - 1.0) < 1e-14
    unit = q / np.linalg.norm(q)
    np.testing.assert_allclose(min(np.linalg.norm(back - unit), np.linalg.norm(back + unit)), 0.0, atol=1e-12)


@pytest.mark.parametrize("h", SPECIAL_ANGLES)
def test_rq_round_trip_near_identity_and_pi(h):
    axis = np.array([2.0, -1.0, 0.5]) / np.linalg.norm([2.0, -1.0, 0.5])
    q = np.r_[np.cos(h / 2), np.sin(h / 2) * axis]
    np.testing.assert_allclose(fs.rq(fs.rq(q)), q, atol=1e-12)
    np.testing.assert_allclose(fs.rq(q.reshape(1, 4)), fs.rq(q.reshape(4, 1)), atol=0.0)


@PROPERTY
@given(quats, vec3)
def test_rqd_matches_finite_differences_of_rq(q, wB):
    q = q / np.linalg.norm(q)
    E = fs.rq(q)
    wA = E.T @ wB  # E maps A coordinates to B coordinates
    eps = 1e-6
    for qd, expected in ((fs.rqd(q, wB), -hat(wB) @ E), (fs.rqd(wA, q), -E @ hat(wA))):
        Ed = (fs.rq(q + eps * qd) - fs.rq(q - eps * qd)) / (2 * eps)
        np.testing.assert_allclose(Ed, expected, atol=1e-7)
    np.testing.assert_allclose(fs.rqd(wA, q), fs.rqd(q, wB), atol=1e-13)
    np.testing.assert_allclose(fs.rqd(q, wB) @ q, 0.0, atol=1e-13)  # no stabilizing term at |q| = 1


def test_rqd_stabilizing_term_drives_norm_to_one():
    wB = np.array([0.3, -1.0, 2.0])
    h = 1e-2
    for start in (0.5, 1.5):
        q = start * np.array([0.5, 0.5, -0.5, 0.5])
        distances = []
        for _ in range(2000):  # classical Runge-Kutta over 20 s
            k1 = fs.rqd(q, wB)
            k2 = fs.rqd(q + 0.5 * h * k1, wB)
            k3 = fs.rqd(q + 0.5 * h * k2, wB)
            k4 = fs.rqd(q + h * k3, wB)
            q = q + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4)
            distances.append(abs(np.linalg.norm(q) - 1.0))
        assert np.all(np.diff(distances) <= 0.0)
        assert distances[-1] < 0.5 * abs(start - 1.0)
    q = 2.0 * np.array([1.0, 0.0, 0.0, 0.0])
    assert fs.rqd(q, wB) @ q < 0.0 and fs.rqd(wB, q / 4.0) @ q > 0.0
    np.testing.assert_allclose(fs.rqd(np.zeros(3), q), 0.0)


@PROPERTY
@given(vec3, vec3, arrays(np.float64, (3, 3), elements=finite))
def test_skew_both_ways(a, b, S):
    np.testing.assert_allclose(fs.skew(a) @ b, np.cross(a, b), atol=1e-13)
    np.testing.assert_allclose(fs.skew(a.reshape(1, 3)), hat(a), atol=0.0)
    np.testing.assert_allclose(fs.skew(hat(a) + S + S.T), a, atol=1e-13)  # the symmetric part is ignored


# ---------------------------------------------------------------------------------------------- cross products
@PROPERTY
@given(vec6, vec6, vec6)
def test_crm_crf_against_core_cross_products(v, m, f):
    np.testing.assert_allclose(fs.crf(v), -fs.crm(v).T, atol=0.0)
    core_v = fs.motion_to_core(v)
    np.testing.assert_allclose(fs.crm(v) @ m, fs.motion_from_core(core_v.cross(fs.motion_to_core(m))), atol=1e-12)
    np.testing.assert_allclose(fs.crf(v) @ f, fs.force_from_core(core_v.cross(fs.force_to_core(f))), atol=1e-12)
    np.testing.assert_allclose(fs.crm(v) @ v, 0.0, atol=1e-12)
    np.testing.assert_allclose(m @ fs.crf(v) @ f, -(fs.crm(v) @ m) @ f, atol=1e-11)  # power is invariant


@PROPERTY
@given(vec3, vec3, vec3)
def test_planar_crm_crf_are_the_spatial_ones_restricted_to_the_plane(v, m, f):
    V, Mv, Fv = (np.zeros(6) for _ in range(3))
    V[PLANAR], Mv[PLANAR], Fv[PLANAR] = v, m, f
    np.testing.assert_allclose(fs.crm(v) @ m, (fs.crm(V) @ Mv)[PLANAR], atol=1e-13)
    np.testing.assert_allclose(fs.crf(v) @ f, (fs.crf(V) @ Fv)[PLANAR], atol=1e-13)
    np.testing.assert_allclose(fs.crm(v), fs.crm(V)[np.ix_(PLANAR, PLANAR)], atol=0.0)
    assert fs.crf(v.reshape(3, 1)).shape == (3, 3)


# ---------------------------------------------------------------------------------------------- inertia
@PROPERTY
@given(arrays(np.float64, 4, elements=st.floats(0.1, 3.0)), arrays(np.float64, (4, 3), elements=finite))
def test_mcI_of_point_masses(masses, points):
    m = masses.sum()
    c = masses @ points / m
    I = sum(mi * ((d @ d) * np.eye(3) - np.outer(d, d)) for mi, d in zip(masses, points - c))
    np.testing.assert_allclose(fs.mcI(m, c, I), point_mass_inertia(masses, points), atol=1e-10)
    m2, c2, I2 = fs.mcI(point_mass_inertia(masses, points))
    np.testing.assert_allclose([m2, *c2], [m, *c], atol=1e-11)
    np.testing.assert_allclose(I2, I, atol=1e-10)


@PROPERTY
@given(inertias)
def test_mcI_is_the_core_inertia_matrix_reordered(mcI_args):
    m, c, I = mcI_args
    np.testing.assert_allclose(fs.mcI(m, c.reshape(1, 3), I), swap(Inertia(m, c, I).matrix()), atol=1e-12)
    np.testing.assert_allclose(fs.inertia_from_core(Inertia(m, c, I)), swap(Inertia(m, c, I).matrix()), atol=1e-12)
    Y = fs.inertia_to_core(fs.mcI(m, c, I))
    assert abs(Y.mass - m) < 1e-12
    np.testing.assert_allclose(Y.lever, c, atol=1e-12)
    np.testing.assert_allclose(Y.inertia, I, atol=1e-11)


@PROPERTY
@given(st.floats(0.1, 5.0), vec2, st.floats(0.01, 3.0))
def test_planar_mcI_is_the_spatial_one_restricted_to_the_plane(m, c, Izz):
    I3 = np.diag([1.0, 2.0, Izz])
    spatial = fs.mcI(m, np.r_[c, 0.0], I3)
    planar = fs.mcI(m, c, Izz)
    np.testing.assert_allclose(planar, spatial[np.ix_(PLANAR, PLANAR)], atol=1e-12)
    m2, c2, I2 = fs.mcI(planar)
    np.testing.assert_allclose([m2, *c2, I2], [m, *c, Izz], atol=1e-11)


def test_pinocchio_inertia_and_action_agree_after_reordering():
    pin = pytest.importorskip("pinocchio")
    rng = np.random.default_rng(3)
    for _ in range(5):
        Y = Inertia.Random(rng)
        M = SE3.Random(rng)
        pin_Y = pin.Inertia(Y.mass, Y.lever, Y.inertia)
        np.testing.assert_allclose(fs.inertia_from_core(Y), swap(pin_Y.matrix()), atol=1e-12)
        np.testing.assert_allclose(fs.se3_to_X(M), swap(pin.SE3(M.rotation, M.translation).actionInverse), atol=1e-12)


# ---------------------------------------------------------------------------------------------- transforms
@PROPERTY
@given(angles, vec3)
def test_plux_equals_rotation_times_translation(h, r):
    for rot, E in ((fs.rotx, fs.rx(h)), (fs.roty, fs.ry(h)), (fs.rotz, fs.rz(h))):
        np.testing.assert_allclose(rot(h), blockdiag(E), atol=0.0)
        np.testing.assert_allclose(fs.plux(E, r), rot(h) @ fs.xlt(r), atol=1e-13)
    np.testing.assert_allclose(fs.plux(fs.rx(1.0), [2, 3, 4]), fs.rotx(1.0) @ fs.xlt([2, 3, 4]), atol=1e-14)


@PROPERTY
@given(vec3, vec6)
def test_xlt_gives_the_velocity_of_the_new_origin(r, v):
    w, vO = v[:3], v[3:]
    np.testing.assert_allclose(fs.xlt(r.reshape(3, 1)) @ v, np.r_[w, vO + np.cross(w, r)], atol=1e-13)


@PROPERTY
@given(rotations, vec3)
def test_plux_and_pluho_round_trips(E, r):
    X = fs.plux(E, r)
    E2, r2 = fs.plux(X)
    np.testing.assert_allclose(E2, E, atol=0.0)
    np.testing.assert_allclose(r2, r, atol=1e-12)
    T = fs.pluho(X)
    np.testing.assert_allclose(T, np.block([[E, -(E @ r)[:, None]], [np.zeros((1, 3)), np.ones((1, 1))]]), atol=1e-13)
    np.testing.assert_allclose(fs.pluho(T), X, atol=1e-12)
    # the displacement operator of B relative to A is inv(T): the core placement aMb
    np.testing.assert_allclose(np.linalg.inv(T), fs.X_to_se3(X).homogeneous, atol=1e-12)


@PROPERTY
@given(transforms, transforms)
def test_pluho_is_a_homomorphism(X1, X2):
    np.testing.assert_allclose(fs.pluho(X1 @ X2), fs.pluho(X1) @ fs.pluho(X2), atol=1e-11)


@PROPERTY
@given(angles, vec2)
def test_plnr_is_rotz_xlt_restricted_to_the_plane_and_round_trips(theta, r):
    X = fs.plnr(theta, r)
    np.testing.assert_allclose(X, (fs.rotz(theta) @ fs.xlt(np.r_[r, 0.0]))[np.ix_(PLANAR, PLANAR)], atol=1e-13)
    theta2, r2 = fs.plnr(X)
    np.testing.assert_allclose(np.cos(theta2 - theta), 1.0, atol=1e-14)  # angle equal modulo 2 pi
    assert -PI <= theta2 <= PI
    np.testing.assert_allclose(r2, r, atol=1e-12)
    np.testing.assert_allclose(fs.plnr(theta, r.reshape(2, 1)), X, atol=0.0)


@PROPERTY
@given(transforms, angles, vec2)
def test_XtoV_is_an_invariant_of_X(X, theta, r):
    np.testing.assert_allclose(X @ fs.XtoV(X), fs.XtoV(X), atol=1e-11)
    Xp = fs.plnr(theta, r)
    vp = fs.XtoV(Xp)
    np.testing.assert_allclose(Xp @ vp, vp, atol=1e-12)
    # the planar vector is the spatial one of the same transform, restricted to the plane
    np.testing.assert_allclose(vp, fs.XtoV(fs.rotz(theta) @ fs.xlt(np.r_[r, 0.0]))[PLANAR], atol=1e-12)


@PROPERTY
@given(unit_axes, vec3)
def test_XtoV_exact_for_translations_first_order_for_small_motions(axis, r):
    np.testing.assert_allclose(fs.XtoV(fs.xlt(r)), np.r_[0.0, 0.0, 0.0, r], atol=1e-14)
    np.testing.assert_allclose(fs.XtoV(blockdiag(fs.rv(0.5 * axis))), np.r_[np.sin(0.5) * axis, 0.0, 0.0, 0.0], atol=1e-14)
    u = np.r_[axis, r]
    for eps in (1e-3, 1e-5):
        # a small constant velocity u over one time unit displaces B from A by the transform expm(-eps crm(u))
        X = np.eye(6) - eps * fs.crm(u) + 0.5 * eps**2 * fs.crm(u) @ fs.crm(u)
        np.testing.assert_allclose(fs.XtoV(X), eps * u, atol=10 * eps**2)


# ---------------------------------------------------------------------------------------------- points
@PROPERTY
@given(rotations, vec3, arrays(np.float64, (3, 4), elements=finite))
def test_Xpt_against_direct_formula_and_core(E, r, p):
    X = fs.plux(E, r)
    expected = E @ (p - r[:, None])
    np.testing.assert_allclose(fs.Xpt(X, p), expected, atol=1e-12)
    np.testing.assert_allclose(fs.Xpt(X, p), fs.X_to_se3(X).act_inv(p.T).T, atol=1e-12)
    np.testing.assert_allclose(fs.Xpt(X, p[:, 0]), expected[:, 0], atol=1e-12)
    assert fs.Xpt(X, p[:, :1]).shape == (3, 1)


@PROPERTY
@given(angles, vec2, arrays(np.float64, (2, 4), elements=finite))
def test_planar_Xpt(theta, r, p):
    c, s = np.cos(theta), np.sin(theta)
    expected = np.array([[c, s], [-s, c]]) @ (p - r[:, None])
    np.testing.assert_allclose(fs.Xpt(fs.plnr(theta, r), p), expected, atol=1e-12)
    np.testing.assert_allclose(fs.Xpt(fs.plnr(theta, r), p[:, 1]), expected[:, 1], atol=1e-12)


@PROPERTY
@given(vec6, arrays(np.float64, (6, 3), elements=finite), arrays(np.float64, (3, 3), elements=finite))
def test_Vpt_is_the_velocity_of_points(v, V, p):
    expected = np.column_stack([v[3:] + np.cross(v[:3], p[:, i]) for i in range(3)])
    np.testing.assert_allclose(fs.Vpt(v, p), expected, atol=1e-12)
    # the same from the core: the motion expressed at a frame whose origin is the point
    core = [SE3(np.eye(3), p[:, i]).act_inv(fs.motion_to_core(v)).linear for i in range(3)]
    np.testing.assert_allclose(fs.Vpt(v, p), np.column_stack(core), atol=1e-12)
    columnwise = np.column_stack([V[3:, i] + np.cross(V[:3, i], p[:, i]) for i in range(3)])
    np.testing.assert_allclose(fs.Vpt(V, p), columnwise, atol=1e-12)
    np.testing.assert_allclose(fs.Vpt(v, p[:, 0]), expected[:, 0], atol=1e-12)


@PROPERTY
@given(vec3, arrays(np.float64, (3, 3), elements=finite), arrays(np.float64, (2, 3), elements=finite))
def test_planar_Vpt_is_the_spatial_one_restricted(v, V, p):
    V6 = np.zeros(6)
    V6[PLANAR] = v
    p3 = np.vstack([p, np.zeros((1, 3))])
    np.testing.assert_allclose(fs.Vpt(v, p), fs.Vpt(V6, p3)[:2], atol=1e-12)
    for i in range(3):
        w, vx, vy = V[:, i]
        np.testing.assert_allclose(fs.Vpt(V, p)[:, i], [vx - w * p[1, i], vy + w * p[0, i]], atol=1e-12)


@PROPERTY
@given(arrays(np.float64, (3, 4), elements=finite), arrays(np.float64, (3, 4), elements=finite), vec6)
def test_Fpt_against_direct_formula_and_virtual_power(fp, p, v):
    f = fs.Fpt(fp, p)
    np.testing.assert_allclose(f, np.vstack([np.cross(p, fp, axis=0), fp]), atol=1e-12)
    # the power of the spatial forces on v equals the power of the point forces on the point velocities
    np.testing.assert_allclose(v @ f, np.sum(fp * fs.Vpt(v, p), axis=0), atol=1e-10)
    np.testing.assert_allclose(fs.Fpt(fp[:, 0], p[:, 0]), f[:, 0], atol=0.0)


@PROPERTY
@given(arrays(np.float64, (2, 4), elements=finite), arrays(np.float64, (2, 4), elements=finite), vec3)
def test_planar_Fpt_and_virtual_power(fp, p, v):
    f = fs.Fpt(fp, p)
    np.testing.assert_allclose(f[0], p[0] * fp[1] - p[1] * fp[0], atol=1e-12)
    np.testing.assert_allclose(f[1:], fp, atol=0.0)
    np.testing.assert_allclose(v @ f, np.sum(fp * fs.Vpt(v, p), axis=0), atol=1e-10)


# ---------------------------------------------------------------------------------------------- converters
@PROPERTY
@given(placements, vec6, vec6)
def test_se3_to_X_agrees_with_core_actions(M, m, f):
    X = fs.se3_to_X(M)
    np.testing.assert_allclose(X, swap(M.action_inverse), atol=1e-13)
    np.testing.assert_allclose(fs.plux(M.rotation.T, M.translation), X, atol=0.0)
    np.testing.assert_allclose(X @ fs.motion_from_core(Motion(m)), fs.motion_from_core(M.act_inv(Motion(m))), atol=1e-12)
    X_star = np.linalg.inv(X).T
    np.testing.assert_allclose(X_star @ fs.force_from_core(Force(f)), fs.force_from_core(M.act_inv(Force(f))), atol=1e-11)
    assert fs.X_to_se3(X).is_approx(M, 1e-12)


@PROPERTY
@given(transforms, vec6, vec6)
def test_X_and_its_dual_preserve_power(X, m, f):
    np.testing.assert_allclose((np.linalg.inv(X).T @ f) @ (X @ m), f @ m, atol=1e-10)
    M = fs.X_to_se3(X)
    np.testing.assert_allclose(fs.se3_to_X(M), X, atol=1e-13)
    core_power = fs.force_to_core(f).dot(fs.motion_to_core(m))
    np.testing.assert_allclose(core_power, f @ m, atol=1e-12)


@PROPERTY
@given(transforms, inertias)
def test_inertia_transform_agrees_with_core(X, mcI_args):
    rbi = fs.mcI(*mcI_args)
    X_inv = np.linalg.inv(X)
    rbi_B = X_inv.T @ rbi @ X_inv  # Featherstone: I_B = X* I_A X^-1
    Y_B = fs.X_to_se3(X).act_inv(fs.inertia_to_core(rbi))
    np.testing.assert_allclose(rbi_B, fs.inertia_from_core(Y_B), atol=1e-10)


@PROPERTY
@given(vec6)
def test_vector_converters_reorder(v):
    core = fs.motion_to_core(v)
    np.testing.assert_allclose(core.angular, v[:3], atol=0.0)
    np.testing.assert_allclose(core.linear, v[3:], atol=0.0)
    np.testing.assert_allclose(fs.motion_from_core(core.vector), v, atol=0.0)
    force = fs.force_to_core(v)
    np.testing.assert_allclose(np.r_[force.angular, force.linear], v, atol=0.0)
    np.testing.assert_allclose(fs.force_from_core(force), v, atol=0.0)


# ---------------------------------------------------------------------------------------------- bad input
NAN3 = [1.0, np.nan, 0.0]
BAD_CALLS = [
    (fs.rx, (np.nan,), "theta"),
    (fs.rotz, ([0.1, 0.2],), "theta"),
    (fs.mcI, (1.0, [0.0, 0.0], np.eye(3)), "I"),
    (fs.rv, ([1.0, 2.0],), "v"),
    (fs.rv, (np.full((3, 3), np.nan),), "E"),
    (fs.rv, (np.zeros((2, 3)),), "v"),
    (fs.rq, ([1.0, 0.0, 0.0],), "q"),
    (fs.rq, ([0.0, 0.0, 0.0, 0.0],), "q"),
    (fs.rqd, ([1.0, 0.0, 0.0, 0.0], [1.0, 2.0]), "wB"),
    (fs.rqd, ([1.0, 0.0], [1.0, 0.0, 0.0, 0.0]), "wA"),
    (fs.rqd, (NAN3, [1.0, 0.0, 0.0, 0.0]), "wA"),
    (fs.skew, ([1.0, 2.0, 3.0, 4.0],), "v"),
    (fs.crm, (np.zeros(5),), "v"),
    (fs.crf, ([np.inf, 0, 0, 0, 0, 0],), "v"),
    (fs.mcI, (1.0, [0.0, 0.0, 0.0], np.eye(2)), "I"),
    (fs.mcI, (1.0, [0.0, 0.0, 0.0, 0.0], np.eye(3)), "c"),
    (fs.mcI, (np.nan, [0.0, 0.0], 1.0), "m"),
    (fs.mcI, (np.zeros((6, 6)),), "rbi"),
    (fs.mcI, (np.zeros((4, 4)),), "rbi"),
    (fs.xlt, (NAN3,), "r"),
    (fs.xlt, ([1.0, 2.0],), "r"),
    (fs.plnr, (0.5, [1.0, 2.0, 3.0]), "r"),
    (fs.plnr, (np.zeros((2, 2)),), "X"),
    (fs.plux, (np.eye(2), [1.0, 2.0, 3.0]), "E"),
    (fs.plux, (np.eye(3), NAN3), "r"),
    (fs.plux, (np.eye(5),), "X"),
    (fs.pluho, (np.eye(5),), "X/T"),
    (fs.pluho, (np.full((4, 4), np.nan),), "T"),
    (fs.XtoV, (np.eye(4),), "X"),
    (fs.Xpt, (np.eye(6), np.zeros((2, 3))), "p"),
    (fs.Xpt, (np.eye(3), np.zeros((3, 3))), "p"),
    (fs.Vpt, (np.zeros(6), np.full((3, 2), np.nan)), "p"),
    (fs.Vpt, (np.zeros((6, 2)), np.zeros((3, 3))), "v"),
    (fs.Vpt, (np.zeros(4), np.zeros((3, 3))), "v"),
    (fs.Fpt, (np.zeros((3, 2)), np.zeros((3, 3))), "p"),
    (fs.Fpt, (np.zeros((4, 2)), np.zeros((4, 2))), "fp"),
    (fs.motion_to_core, (np.zeros(5),), "v"),
    (fs.force_from_core, (np.full(6, np.nan),), "f"),
    (fs.X_to_se3, (2.0 * np.eye(6),), "X"),
    (fs.X_to_se3, (np.eye(6) + np.diag(np.ones(3), 3),), "X"),
    (fs.inertia_to_core, (np.eye(6) + np.diag(np.ones(3), 3),), "rbi"),
    (fs.inertia_to_core, (np.zeros((3, 3)),), "rbi"),
]


@pytest.mark.parametrize(("function", "args", "name"), BAD_CALLS)
def test_bad_input_raises_value_error_naming_the_argument(function, args, name):
    with pytest.raises(ValueError, match=f"^{re.escape(name)}:"):
        function(*args)


def test_wrong_types_and_arity():
    with pytest.raises(TypeError, match="mcI"):
        fs.mcI(1.0, [0.0, 0.0])
    with pytest.raises(TypeError, match="plux"):
        fs.plux()
    with pytest.raises(TypeError, match="M"):
        fs.se3_to_X(np.eye(4))
    with pytest.raises(TypeError, match="m"):
        fs.motion_from_core(Force.Zero())
    with pytest.raises(TypeError, match="Y"):
        fs.inertia_from_core(np.eye(6))
