"""Hill climbing on a hull's vertex graph: the same support value as a scan of every vertex, from any start, on
random hulls of many sizes, on hulls with coplanar faces (boxes, cylinders: ties), and on pairs of large hulls
against coal."""

import numpy as np
import pytest

from rbda.collision.distance import distance
from rbda.collision.shapes import CLIMB_MIN_VERTICES, Convex, pack_shapes, vertex_graph
from rbda.collision.support import hull_support
from rbda.model.meshes import convex_hull
from coal_oracle import coal_distance, random_rotation, to_coal


def _hulls(rng):
    for n in (40, 100, 400, 2000):
        yield convex_hull(rng.normal(size=(n, 3)) * rng.uniform(0.1, 2.0, size=3))
    # flat faces: a box's corners with points on its faces and edges, a prism
    cube = rng.uniform(-1, 1, size=(300, 3))
    cube[np.arange(300), rng.integers(0, 3, 300)] = rng.choice([-1.0, 1.0], 300)
    yield convex_hull(np.vstack([cube, np.array(np.meshgrid([-1, 1], [-1, 1], [-1, 1])).reshape(3, -1).T]))
    a = np.linspace(0, 2 * np.pi, 64, endpoint=False)
    yield convex_hull(np.vstack([np.c_[np.cos(a), np.sin(a), np.full(64, z)] for z in (-0.5, 0.5)]))


def test_climbing_equals_scan():
    rng = np.random.default_rng(11)
    empty = np.zeros(0, dtype=np.int64)
    for hull in _hulls(rng):
        V, G = hull.vertices, vertex_graph(len(hull.vertices), hull.faces)
        assert G[len(V)] == len(G) and np.all(np.diff(G[: len(V) + 1]) >= 3)  # every vertex has >= 3 edges
        dirs = np.vstack([rng.normal(size=(300, 3)), np.eye(3), -np.eye(3), [[1.0, 1.0, 0.0]]])
        for d in dirs:
            scan = V[hull_support(V, empty, 0, d)] @ d
            assert scan == pytest.approx(np.max(V @ d), rel=1e-14, abs=1e-14)
            for start in rng.integers(0, len(V), 5):
                k = hull_support(V, G, start, d)
                assert V[k] @ d >= scan - 1e-12 * np.abs(V).max(), (len(V), d, start)


def test_packed_graph_only_for_large_hulls():
    rng = np.random.default_rng(5)
    sphere = rng.normal(size=(200, 3))
    small, large = Convex(rng.normal(size=(10, 3))), Convex(sphere / np.linalg.norm(sphere, axis=1)[:, None])
    pk = pack_shapes([small, large])
    assert len(pk.graph_of(0)) == 0 and len(pk.vertices_of(1)) >= CLIMB_MIN_VERTICES
    G = pk.graph_of(1)
    assert len(G) == len(pk.vertices_of(1)) + 1 + G[len(pk.vertices_of(1))] - G[0]


def test_large_hull_pairs_against_coal():
    """300 pairs of hulls of 50 to 1000 points (a third each separated, touching, penetrating): distances agree
    with coal's to 1e-6 relative or 1e-9 absolute."""
    pytest.importorskip("coal")
    rng = np.random.default_rng(2)
    for trial in range(300):
        s1, s2 = (Convex(rng.normal(size=(int(rng.integers(50, 1000)), 3)) * rng.uniform(0.2, 0.8, 3))
                  for _ in range(2))
        M1 = np.hstack([random_rotation(rng), rng.normal(size=(3, 1)) * 0.3])
        M2 = np.hstack([random_rotation(rng), rng.normal(size=(3, 1)) * 3.0])
        r = distance(s1, M1, s2, M2)
        M2[:, 3] += ((rng.uniform(1e-3, 0.5), 0.0, -rng.uniform(1e-3, 0.3))[trial % 3] - r.min_distance) * r.normal
        r = distance(s1, M1, s2, M2)
        v1, v2 = pack_shapes([s1]).vertices_of(0), pack_shapes([s2]).vertices_of(0)
        dc = coal_distance(to_coal(s1, v1), M1, to_coal(s2, v2), M2)[0]
        assert abs(r.min_distance - dc) <= max(1e-9, 1e-6 * abs(dc)), (trial, r.min_distance, dc)
