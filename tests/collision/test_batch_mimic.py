"""The batched collision functions on a model with mimic joints: each state equals the single-state functions
(whose forward kinematics expands the mimic joints) and ``distance`` between the shapes placed by hand from
``rbda.forward_kinematics``."""

import numpy as np

import rbda
from rbda.collision import GeometryData, compute_collisions, compute_distances, distance
from rbda.io import GeometryModel, GeometryObject
from rbda.model.geometry import Box, Capsule, Sphere
from conftest import random_model


def _geometry(model, rng):
    gm = GeometryModel()
    shapes = [Sphere(0.15), Box((0.3, 0.2, 0.1)), Capsule(0.08, 0.4)]
    for j in range(1, model.njoints):
        placement = rbda.SE3(np.eye(3), rng.normal(size=3) * 0.1)
        gm.add_geometry_object(GeometryObject(f"g{j}", j, 0, placement, shapes[j % 3]))
    gm.add_all_collision_pairs()
    return gm


def test_batch_with_mimic_joints_equals_single_states():
    model = random_model(4, False, mimic=True)
    assert model.mimicking_joints
    rng = np.random.default_rng(0)
    gm = _geometry(model, rng)
    data, gd = model.create_data(), GeometryData(gm)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(30)])
    D, C = rbda.batch.compute_distances(model, gm, Q), rbda.batch.compute_collisions(model, gm, Q)
    for b in range(len(Q)):
        compute_distances(model, data, gm, gd, Q[b])
        np.testing.assert_allclose(D[b], gd.distances, rtol=1e-12, atol=1e-12)
        assert C[b] == compute_collisions(model, data, gm, gd, Q[b]) == bool(np.any(D[b] < 0))
        rbda.forward_kinematics(model, data, Q[b])
        objects = gm.geometry_objects
        for p, (i, j) in enumerate(gm.collision_pairs):
            Mi = data.oMi[objects[i].parent_joint] * objects[i].placement
            Mj = data.oMi[objects[j].parent_joint] * objects[j].placement
            assert abs(distance(objects[i].geometry, Mi, objects[j].geometry, Mj).min_distance - D[b, p]) < 1e-9
    assert 0 < C.sum() < len(Q)  # both outcomes occur
