"""Collision timings, rbda against coal / Pinocchio + coal in one process (ratios rbda / theirs, lower is
better):

1. one pair of shapes from Python: ``rbda.collision.distance`` against ``coal.distance``;
2. a whole self-collision check and all distances of panda and talos (meshes as convex hulls, SRDF pairs
   removed): ``compute_collisions`` / ``compute_distances`` against Pinocchio's ``computeCollisions`` /
   ``computeDistances``;
3. batched: ``rbda.batch.compute_collisions`` on B configurations against a Python loop of Pinocchio calls;
4. non-convex meshes: coal's mesh-mesh distance (a BVH of triangles) against the convex-hull distance.

    python benchmarks/bench_collision.py [--batch 1000]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numba
import numpy as np

import rbda
from rbda.bench import best_time
from rbda.collision import (Convex, Ellipsoid, GeometryData, compute_collisions, compute_distances, distance)
from rbda.model.geometry import Box, Capsule

sys.path.insert(0, str(Path(__file__).parents[1]))  # the repository: its tests' shared cases
from tests.collision.coal_oracle import to_coal  # noqa: E402
from tests.collision.robot_pairs import load  # noqa: E402  (rbda's and Pinocchio's models, meshes as hulls)

import coal  # noqa: E402
import pinocchio as pin  # noqa: E402


def one_pair_rows(rng):
    rows = []
    T1, T2 = coal.Transform3s(), coal.Transform3s()
    for name, s1, s2 in [("box-box", Box((1.0, 1.0, 1.0)), Box((0.5, 0.5, 2.0))),
                         ("capsule-box", Capsule(0.2, 1.0), Box((0.5, 0.5, 2.0))),
                         ("ellipsoid-ellipsoid", Ellipsoid((0.3, 0.2, 0.5)), Ellipsoid((0.4, 0.1, 0.2))),
                         ("hull-hull (100 points)", Convex(rng.normal(size=(100, 3))), Convex(rng.normal(size=(100, 3))))]:
        M1 = np.hstack([np.eye(3), np.zeros((3, 1))])
        M2 = np.hstack([np.eye(3), [[2.5], [0.3], [0.1]]])
        v1 = np.asarray(s1.vertices if isinstance(s1, Convex) else np.zeros((0, 3)))
        v2 = np.asarray(s2.vertices if isinstance(s2, Convex) else np.zeros((0, 3)))
        g1, g2 = to_coal(s1, v1), to_coal(s2, v2)
        T2 = coal.Transform3s(M2[:, :3], M2[:, 3])
        req, res = coal.DistanceRequest(), coal.DistanceResult()
        req.gjk_tolerance = 1e-10
        ours = best_time(lambda: distance(s1, M1, s2, M2), 200)
        theirs = best_time(lambda: coal.distance(g1, T1, g2, T2, req, res), 200)
        rows.append((f"one pair {name} (Python call)", ours, theirs))
    return rows


def robot_rows(name, batch, rng):
    model, gm, pm, pg = load(name)
    data, gd = model.create_data(), GeometryData(gm)
    pd, pgd = pm.createData(), pin.GeometryData(pg)
    for req in list(pgd.distanceRequests) + list(pgd.collisionRequests):
        req.gjk_tolerance = 1e-10
    qs = [pin.randomConfiguration(pm) for _ in range(20)]
    k = iter(range(10**9))
    q = lambda: qs[next(k) % 20]  # noqa: E731
    rows = [(f"{name}: compute_collisions ({len(gm.collision_pairs)} pairs)",
             best_time(lambda: compute_collisions(model, data, gm, gd, q()), 20),
             best_time(lambda: pin.computeCollisions(pm, pd, pg, pgd, q(), False), 20)),
            (f"{name}: compute_distances",
             best_time(lambda: compute_distances(model, data, gm, gd, q()), 20),
             best_time(lambda: pin.computeDistances(pm, pd, pg, pgd, q()), 20))]
    Q = np.stack([pin.randomConfiguration(pm) for _ in range(batch)])
    rbda.batch.compute_collisions(model, gm, Q)

    def loop():
        for b in range(batch):
            pin.computeCollisions(pm, pd, pg, pgd, Q[b], True)

    rows.append((f"{name}: batch compute_collisions, B={batch}, {numba.get_num_threads()} threads",
                 best_time(lambda: rbda.batch.compute_collisions(model, gm, Q), 1, 7), best_time(loop, 1, 5)))
    return rows, (model, gm, pm, pg)


def mesh_rows(model, gm, pm, pg):
    """coal's distance between the non-convex meshes (a BVH of triangles) against rbda's between their convex
    hulls, per pair from Python, on 30 pairs of talos's meshes at the neutral configuration."""
    from rbda.model.meshes import load_mesh

    pd, pgd = pm.createData(), pin.GeometryData(pg)
    pin.forwardKinematics(pm, pd, pin.neutral(pm))
    pin.updateGeometryPlacements(pm, pd, pg, pgd)
    meshes = [k for k, o in enumerate(gm.geometry_objects) if hasattr(o.geometry, "path")][:12]
    bvh = {}
    for k in meshes:
        o = gm.geometry_objects[k]
        m = load_mesh(o.geometry.path, o.geometry.scale)
        b = coal.BVHModelOBBRSS()
        b.beginModel(len(m.faces), len(m.vertices))
        b.addVertices(np.asarray(m.vertices))
        b.addTriangles(np.asarray(m.faces))
        b.endModel()
        bvh[k] = b
    pairs = [(i, j) for i in meshes for j in meshes if i < j][:30]
    req, res = coal.DistanceRequest(), coal.DistanceResult()
    placements = {k: pgd.oMg[k].homogeneous for k in meshes}

    def coal_bvh():
        for i, j in pairs:
            coal.distance(bvh[i], pgd.oMg[i], bvh[j], pgd.oMg[j], req, res)

    def rbda_hull():
        for i, j in pairs:
            distance(gm.geometry_objects[i].geometry, placements[i], gm.geometry_objects[j].geometry, placements[j])

    rbda_hull()
    return [("talos mesh pairs, per pair: rbda hull vs coal BVH (non-convex)", best_time(rbda_hull, 3, 3) / len(pairs),
             best_time(coal_bvh, 3, 3) / len(pairs))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=1000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    rows = one_pair_rows(rng)
    for name in ("panda", "talos"):
        r, loaded = robot_rows(name, args.batch, rng)
        rows += r
    rows += mesh_rows(*loaded)
    width = max(len(r[0]) for r in rows)
    print(f"{'case':<{width}}  {'rbda [us]':>12}  {'theirs [us]':>12}  {'ratio':>6}")
    for name, ours, theirs in rows:
        print(f"{name:<{width}}  {ours * 1e6:>12.1f}  {theirs * 1e6:>12.1f}  {ours / theirs:>6.2f}")


if __name__ == "__main__":
    main()
