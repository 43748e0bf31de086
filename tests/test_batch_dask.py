"""Every ``rbda.batch`` function on Dask arrays of states, on a ``distributed.LocalCluster`` of this machine: a
lazy array with the input's chunks, equal to the same call on NumPy arrays (computed by the independent NumPy
path); the errors of the Dask path."""

import numpy as np
import pytest

import rbda
from rbda.io import GeometryModel, Sphere
from rbda.simulation import add_free_body, add_ground_plane

da = pytest.importorskip("dask.array")
distributed = pytest.importorskip("distributed")

B = 7


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as c, \
            distributed.Client(c) as cl:
        yield cl


def arm_states():
    model = rbda.sample_models.manipulator()
    rng = np.random.default_rng(0)
    Q = np.stack([rbda.random_configuration(model) for _ in range(B)])
    V, A = rng.standard_normal((B, model.nv)), rng.standard_normal((B, model.nv))
    return model, Q, V, A


def balls():
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "a", Sphere(0.05), 1.0)
    add_free_body(model, cm, "b", Sphere(0.05), 0.5)
    add_ground_plane(model, cm)
    Q = np.tile(rbda.neutral(model), (B, 1))
    Q[:, 2] = 0.05 + 0.01 * np.arange(B)
    Q[:, 7], Q[:, 9] = 0.3, 0.2 + 0.01 * np.arange(B)
    return model, cm, Q


def calls():
    """name -> (model, [positional args after the model, arrays of B states marked by being ndarrays], kwargs)."""
    model, Q, V, A = arm_states()
    Q1 = rbda.batch.integrate(model, Q, 0.3 * V)
    cm = rbda.RigidConstraintModel(rbda.CONTACT_3D, model, model.njoints - 1)
    bmodel, geom, QB = balls()
    T = 20
    taus = 0.1 * np.random.default_rng(1).standard_normal((B, T, bmodel.nv))
    frame = model.nframes - 1
    return {
        "aba": (model, [Q, V, A], {}), "ccrba": (model, [Q, V], {}), "center_of_mass": (model, [Q], {}),
        "compute_aba_derivatives": (model, [Q, V, A], {}), "compute_centroidal_momentum": (model, [Q, V], {}),
        "compute_frame_jacobian": (model, [Q, frame], {"reference_frame": rbda.ReferenceFrame.WORLD}),
        "compute_joint_jacobians": (model, [Q], {}), "compute_minverse": (model, [Q], {}),
        "compute_rnea_derivatives": (model, [Q, V, A], {}),
        "compute_rnea_second_order_derivatives": (model, [Q, V, A], {}), "crba": (model, [Q], {}),
        "d_difference": (model, [Q, Q1], {}), "d_integrate": (model, [Q, V], {"arg": rbda.ARG0}),
        "difference": (model, [Q, Q1], {}), "forward_kinematics": (model, [Q], {}),
        "frames_forward_kinematics": (model, [Q], {}), "integrate": (model, [Q, V], {}),
        "jacobian_center_of_mass": (model, [Q], {}), "rnea": (model, [Q, V, A], {}),
        "constraint_dynamics": (model, [Q, V, A, [cm]], {}),
        "compute_constraint_dynamics_derivatives": (model, [Q, V, A, [cm]], {}),
        "impulse_dynamics": (model, [Q, V, [cm], 0.5], {}),
        "compute_impulse_dynamics_derivatives": (model, [Q, V, [cm]], {"r_coeff": 0.5}),
        "compute_distances": (bmodel, [geom, QB], {}), "compute_collisions": (bmodel, [geom, QB], {}),
        "rollout": (bmodel, [geom, QB, np.zeros((B, bmodel.nv)), taus, 1e-3], {"mu": 0.4}),
    }


def test_every_batch_function_maps_dask_blocks(client):
    cases = calls()
    assert set(cases) == set(rbda.batch.__all__)  # a new batched function needs its case here
    for name, (model, args, kwargs) in cases.items():
        fn = getattr(rbda.batch, name)
        expected = fn(model, *args, **kwargs)
        lazy_args = [da.from_array(a, chunks=(3,) + a.shape[1:]) if isinstance(a, np.ndarray) else a for a in args]
        lazy = fn(model, *lazy_args, **kwargs)
        many = isinstance(expected, tuple)
        lazy, expected = (lazy, expected) if many else ((lazy,), (expected,))
        assert len(lazy) == len(expected), name
        for x, e in zip(lazy, expected):
            assert isinstance(x, da.Array), name
            assert x.chunks[0] == (3, 3, 1) and x.shape == e.shape and x.dtype == e.dtype, name
        got = client.compute(list(lazy), sync=True)
        for x, e in zip(got, expected):
            np.testing.assert_array_equal(x, e, err_msg=name)


def test_mixed_chunks_are_aligned_and_nothing_computes_until_asked(client):
    model, Q, V, A = arm_states()
    dQ, dV = da.from_array(Q, chunks=2), da.from_array(V, chunks=4)
    calls_made = []
    dQ = dQ.map_blocks(lambda b: calls_made.append(1) or b, dtype=float, meta=np.empty((0, 0)))
    tau = rbda.batch.rnea(model, dQ, dV, A)  # A: NumPy states join the blocks
    assert calls_made == [] and tau.chunks[0] == (2, 2, 2, 1)
    np.testing.assert_array_equal(tau.compute(), rbda.batch.rnea(model, Q, V, A))


def test_dask_errors():
    model, Q, V, A = arm_states()
    dQ = da.from_array(Q, chunks=3)
    with pytest.raises(TypeError, match="out"):
        rbda.batch.crba(model, dQ, out=np.empty((B, model.nv, model.nv)))
    with pytest.raises(ValueError, match="rows"):
        rbda.batch.rnea(model, dQ, da.from_array(V[:3], chunks=3), da.from_array(A, chunks=3))


def test_the_model_is_one_key_of_the_graph_not_one_copy_per_block():
    import cloudpickle

    model, Q, V, A = arm_states()
    Q, V, A = (np.repeat(x, 40, axis=0) for x in (Q, V, A))  # 280 states
    size = {}
    for blocks in (4, 140):
        lazy = rbda.batch.rnea(model, *(da.from_array(x, chunks=len(Q) // blocks) for x in (Q, V, A)))
        size[blocks] = len(cloudpickle.dumps(dict(lazy.__dask_graph__())))
    # 136 more blocks cost much less than 136 more copies of the model
    assert size[140] - size[4] < 0.25 * 136 * len(cloudpickle.dumps(model))
