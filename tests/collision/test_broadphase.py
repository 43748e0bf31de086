"""Sweep-and-prune against the all-pairs box test on 300 shapes; boxes bound the shapes (every colliding pair is
a candidate); the world boxes contain the exact ones computed from support points along the world axes."""

import numpy as np

from rbda.collision.broadphase import local_boxes, overlapping_pairs, world_boxes
from rbda.collision.narrowphase import shape_distance
from rbda.collision.shapes import pack_shapes
from rbda.collision.support import radius, support_world
from coal_oracle import random_rotation, random_shape


def test_sweep_and_prune_equals_all_pairs():
    rng = np.random.default_rng(3)
    kinds = ["sphere", "capsule", "box", "cylinder", "cone", "ellipsoid", "convex"]
    shapes = [random_shape(kinds[k % len(kinds)], rng) for k in range(300)]
    pk = pack_shapes(shapes)
    oMg = np.stack([np.hstack([random_rotation(rng), rng.uniform(-6, 6, (3, 1))]) for _ in shapes])
    local, boxes = np.zeros((300, 6)), np.zeros((300, 6))
    local_boxes(pk.types, pk.params, pk.vertex_ranges, pk.vertices, local)
    world_boxes(pk.types, local, oMg, boxes)
    pairs = np.array([(i, j) for i in range(300) for j in range(i + 1, 300)])
    index = -np.ones((300, 300), dtype=np.int64)
    index[pairs[:, 0], pairs[:, 1]] = index[pairs[:, 1], pairs[:, 0]] = np.arange(len(pairs))
    candidate = np.zeros(len(pairs), dtype=bool)
    overlapping_pairs(boxes, index, np.zeros(len(pairs)), candidate)
    lo, hi = boxes[:, :3], boxes[:, 3:]
    expected = np.all((lo[pairs[:, 0]] <= hi[pairs[:, 1]]) & (lo[pairs[:, 1]] <= hi[pairs[:, 0]]), axis=1)
    assert np.array_equal(candidate, expected) and 0 < candidate.sum() < 0.1 * len(pairs)
    out, its = np.empty((3, 3)), np.zeros(2, dtype=np.int64)
    point = np.empty(3)
    for k in range(300):  # the world box contains the exact box (support along +-e, plus the radius)
        V = pk.vertices_of(k)
        for r in range(3):
            e = np.eye(3)[r]
            support_world(pk.types[k], pk.params[k], V, pk.graph_of(k), 0, oMg[k], e, point)
            assert point[r] + radius(pk.types[k], pk.params[k]) <= hi[k, r] + 1e-12
            support_world(pk.types[k], pk.params[k], V, pk.graph_of(k), 0, oMg[k], -e, point)
            assert point[r] - radius(pk.types[k], pk.params[k]) >= lo[k, r] - 1e-12
    for p in np.flatnonzero(~candidate):  # the pairs ruled out are apart
        i, j = pairs[p]
        d = shape_distance(pk.types[i], pk.params[i], pk.vertices_of(i), pk.graph_of(i), oMg[i], pk.types[j],
                           pk.params[j], pk.vertices_of(j), pk.graph_of(j), oMg[j], 0, 1e-10, 256, out, its)
        assert d > 0, (i, j)
