"""Narrow phase (GJK, EPA, closed forms) against coal 3 on random pairs of every two shape types, separated,
touching and penetrating; where coal's penetration disagrees, against the minimum over directions of the
Minkowski difference's support function (the penetration depth's definition); degenerate cases by hand."""

import zlib

import numpy as np
import pytest
from scipy.optimize import minimize

from rbda.collision.distance import DistanceRequest, distance
from rbda.collision.narrowphase import shape_distance
from rbda.collision.shapes import Ellipsoid, pack_shapes
from rbda.collision.support import BOX, CAPSULE, CONE, CONVEX, CYLINDER, ELLIPSOID, SPHERE
from coal_oracle import KINDS, coal_distance, random_rotation, random_shape, to_coal

coal = pytest.importorskip("coal")

PAIRS = [(a, b) for a in KINDS for b in KINDS if not ({a, b} <= {"halfspace", "plane"})]
PER_PAIR = 132  # 77 ordered pairs x 132 = 10,164 configurations
REL, ABS = 1e-6, 1e-9


def _support_value(t, params, vertices, M, N):
    """``max_x n . x`` over the inflated shape of type ``t`` (packed ``params``, hull ``vertices``) placed at ``M``,
    for each unit direction ``n`` of ``N (k, 3)``: the shapes' support functions in closed form (numpy)."""
    D = N @ M[:, :3]  # R^T n, the directions in the shape frame
    dx, dy, dz = D[:, 0], D[:, 1], D[:, 2]
    if t == SPHERE:
        h = params[0] * np.ones(len(N))
    elif t == CAPSULE:
        h = params[1] * np.abs(dz) + params[0]
    elif t == BOX:
        h = np.abs(D) @ params[:3]
    elif t == CYLINDER:
        h = params[0] * np.hypot(dx, dy) + params[1] * np.abs(dz)
    elif t == CONE:  # apex (0, 0, h) or a point of the base rim (r, -h)
        h = np.maximum(params[1] * dz, params[0] * np.hypot(dx, dy) - params[1] * dz)
    elif t == ELLIPSOID:
        h = np.sqrt((D * D) @ (params[:3] ** 2))
    elif t == CONVEX:
        h = (D @ vertices.T).max(axis=1)
    else:
        raise ValueError(f"no bounded support function for shape type {t}")
    return h + N @ M[:, 3]


def _support_gaps(a, M1, M2, N):
    """The support function of ``A - B`` (inflated) along each unit direction of ``N (k, 3)``: ``(k,)``."""
    return _support_value(a[0], a[1], a[2], M1, N) + _support_value(a[4], a[5], a[6], M2, -N)


def _fibonacci_sphere(n):
    k = np.arange(n) + 0.5
    z, phi = 1 - 2 * k / n, np.pi * (1 + 5**0.5) * k
    r = np.sqrt(1 - z * z)
    return np.stack([r * np.cos(phi), r * np.sin(phi), z], axis=1)


GRID = _fibonacci_sphere(4000)


def _signed_distance_by_definition(a, M1, M2, normal):
    """-min over unit n of the support function of A - B along n: the signed distance of two convex shapes (the
    separating-axis form, for overlapping and separated shapes alike). The minimum is searched on 4,000
    directions, then refined by Nelder-Mead in the tangent plane of the 3 best of them and of ``normal``."""
    h = _support_gaps(a, M1, M2, GRID)

    def refine(n0):
        n0 = n0 / np.linalg.norm(n0)
        e1 = np.cross(n0, np.eye(3)[np.argmin(np.abs(n0))])
        e1 /= np.linalg.norm(e1)
        e2 = np.cross(n0, e1)

        def f(u):
            n = n0 + u[0] * e1 + u[1] * e2
            return _support_gaps(a, M1, M2, (n / np.linalg.norm(n))[None])[0]

        simplex = np.array([[0.0, 0.0], [0.05, 0.0], [0.0, 0.05]])
        opts = dict(xatol=1e-12, fatol=1e-15, maxiter=4000, initial_simplex=simplex)
        return minimize(f, np.zeros(2), method="Nelder-Mead", options=opts).fun

    return -min(refine(n0) for n0 in [normal, *GRID[np.argsort(h)[:3]]])


def _placements(a, rng, regime):
    """Shape 2 moved along the normal so that the pair is separated, touching or penetrating."""
    M1 = np.hstack([random_rotation(rng), rng.normal(size=(3, 1)) * 0.3])
    u = rng.normal(size=3)
    M2 = np.hstack([random_rotation(rng), (M1[:, 3] + 4.0 * u / np.linalg.norm(u))[:, None]])
    out, its = np.empty((3, 3)), np.zeros(2, dtype=np.int64)
    d = shape_distance(*a[:4], M1, *a[4:], M2, 0, 1e-12, 1000, out, its)
    target = {"separated": rng.uniform(1e-3, 0.5), "touching": 0.0, "penetrating": -rng.uniform(1e-3, 0.3)}[regime]
    M2[:, 3] += (target - d) * out[2]
    return M1, M2


STATS = {}


@pytest.mark.parametrize("kind1, kind2", PAIRS)
def test_against_coal(kind1, kind2):
    rng = np.random.default_rng(zlib.crc32(f"{kind1}-{kind2}".encode()))
    out, its = np.empty((3, 3)), np.zeros(2, dtype=np.int64)
    coal_wrong = 0
    for trial in range(PER_PAIR):
        regime = ("separated", "touching", "penetrating")[trial % 3]
        s1, s2 = random_shape(kind1, rng), random_shape(kind2, rng)
        pk = pack_shapes([s1, s2])
        a = (pk.types[0], pk.params[0], pk.vertices_of(0), pk.graph_of(0),
             pk.types[1], pk.params[1], pk.vertices_of(1), pk.graph_of(1))
        M1, M2 = _placements(a, rng, regime)
        d = shape_distance(*a[:4], M1, *a[4:], M2, 0, 1e-10, 1000, out, its)
        dc, p1, p2, nc = coal_distance(to_coal(s1, a[2]), M1, to_coal(s2, a[6]), M2)
        where = f"{kind1}-{kind2} #{trial} ({regime}): ours {d!r}, coal {dc!r}"
        assert np.all(np.isfinite(out)) and np.isfinite(d), where
        np.testing.assert_allclose(out[1], out[0] + d * out[2], atol=1e-9, err_msg=where)  # p2 = p1 + d n
        assert abs(np.linalg.norm(out[2]) - 1) < 1e-12, where
        if abs(d - dc) > max(ABS, REL * abs(dc)):
            # coal is off on some curved pairs (EPA: -DBL_MAX, a non-minimal depth, 1e-8 off at touching;
            # ellipsoid witness points 1e-6 outside the surface): the definition decides
            ref = _signed_distance_by_definition(a, M1, M2, out[2].copy())
            assert abs(d - ref) <= max(ABS, REL * abs(ref)), f"{where}, by definition {ref!r}"
            coal_wrong += 1
            continue
        if min(abs(d), abs(dc)) > ABS:
            assert (d < 0) == (dc < 0), where
        # separated: the normal is unique; on a curved boundary a distance 1e-10 off moves it by about 1e-5
        if d > 1e-6:
            assert np.abs(out[2] - nc).max() < 1e-4, f"{where}: normal {out[2]} vs {nc}"
            if kind1 in ("sphere", "ellipsoid") and kind2 in ("sphere", "ellipsoid"):  # so are the witness points
                assert np.abs(out[0] - p1).max() < 1e-4 and np.abs(out[1] - p2).max() < 1e-4, where
    STATS[(kind1, kind2)] = coal_wrong


def test_nesterov_fewer_iterations_same_distance():
    """Montaut et al. (RSS 2022): on strictly convex pairs close to contact (gap 0.01) Nesterov-accelerated GJK
    needs fewer iterations; both variants reach the same distance (and coal's)."""
    rng = np.random.default_rng(7)
    its = {"default": 0, "nesterov": 0}
    for _ in range(100):
        s1, s2 = Ellipsoid(tuple(rng.uniform(0.05, 0.5, 3))), Ellipsoid(tuple(rng.uniform(0.05, 0.5, 3)))
        M1 = np.hstack([random_rotation(rng), np.zeros((3, 1))])
        M2 = np.hstack([random_rotation(rng), rng.normal(size=(3, 1))])
        r = distance(s1, M1, s2, M2)
        M2[:, 3] += (0.01 - r.min_distance) * r.normal
        results = {v: distance(s1, M1, s2, M2, DistanceRequest(v, 1e-8)) for v in its}
        for v, r in results.items():
            its[v] += r.gjk_iterations
        assert abs(results["default"].min_distance - results["nesterov"].min_distance) < 1e-7
        dc = coal_distance(to_coal(s1, None), M1, to_coal(s2, None), M2)[0]
        assert results["nesterov"].min_distance == pytest.approx(dc, rel=1e-5)
    assert its["nesterov"] < 0.75 * its["default"], its
