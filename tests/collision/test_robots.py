"""Self-collision and distances of real robots (example-robot-data's panda, talos, solo12, ur5 with their meshes
and SRDF) against Pinocchio's computeCollisions / computeDistances with coal, meshes as convex hulls on both
sides, along random configurations."""

import numpy as np
import pytest

from rbda.collision import GeometryData, compute_collision, compute_collisions, compute_distance, compute_distances

from robot_pairs import ROBOTS, load

pin = pytest.importorskip("pinocchio")
coal = pytest.importorskip("coal")


@pytest.mark.parametrize("name", list(ROBOTS))
def test_against_pinocchio(name):
    model, gm, pm, pg = load(name)
    data, gd = model.create_data(), GeometryData(gm)
    pd, pgd = pm.createData(), pin.GeometryData(pg)
    for req in list(pgd.distanceRequests) + list(pgd.collisionRequests):  # coal's GJK to 1e-10, not 1e-6
        req.gjk_tolerance = 1e-10
    theirs = {(p.first, p.second): k for k, p in enumerate(pg.collisionPairs)}
    order = [theirs[p] for p in gm.collision_pairs]
    assert sorted(order) == list(range(len(pg.collisionPairs)))
    rng = np.random.default_rng(0)
    ncollide = 0
    for _ in range(20):
        q = pin.randomConfiguration(pm)  # same layout in rbda
        anything = compute_collisions(model, data, gm, gd, q)
        assert anything == pin.computeCollisions(pm, pd, pg, pgd, q, False)
        compute_distances(model, data, gm, gd, q)
        pin.computeDistances(pm, pd, pg, pgd, q)
        for k in range(gm.ngeoms):
            np.testing.assert_allclose(gd.oMg.array[k, :, :3], pgd.oMg[k].rotation, atol=1e-12)
            np.testing.assert_allclose(gd.oMg.array[k, :, 3], pgd.oMg[k].translation, atol=1e-12)
        d_theirs = np.array([pgd.distanceResults[k].min_distance for k in order])
        c_theirs = np.array([pgd.collisionResults[k].isCollision() for k in order])
        np.testing.assert_allclose(gd.distances, d_theirs, rtol=1e-6, atol=1e-6)
        touching = np.abs(d_theirs) < 1e-6
        assert np.array_equal(gd.collisions[~touching], c_theirs[~touching])
        ncollide += int(c_theirs.sum())
        k = int(rng.integers(len(order)))  # one pair alone
        assert compute_distance(gm, gd, k).min_distance == pytest.approx(d_theirs[k], rel=1e-6, abs=1e-6)
        assert compute_collision(gm, gd, k) == (d_theirs[k] < 0)
    print(f"{name}: {len(order)} pairs, {ncollide} colliding pair-configurations over 20 configurations")
