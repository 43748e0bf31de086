"""rbda.batch at SIMD width (kernels/simd.py, structures of arrays over blocks of states) against the single-state
algorithms, state by state, on every model family it takes; the models it leaves to the per-state kernels; its
input errors; and its vectorised cos/sin against libm's."""

import numpy as np
import pytest
from numba import njit

import rbda
from rbda.kernels import simd

from conftest import random_model
from constrained_cases import panda, solo12, talos

ONE_DOF = ("JointModelRX", "JointModelRY", "JointModelRZ", "JointModelRevoluteUnaligned", "JointModelPX",
           "JointModelPY", "JointModelPZ", "JointModelPrismaticUnaligned")


def one_dof_joints():
    return [j for j in rbda.sample_models.all_joint_types() if type(j).__name__ in ONE_DOF]


MODELS = {
    "manipulator": rbda.sample_models.manipulator,
    "humanoid": rbda.sample_models.humanoid,
    "revolute-prismatic tree": lambda: random_model(3, False, one_dof_joints() * 2),
    "floating revolute-prismatic tree": lambda: random_model(4, True, one_dof_joints() * 2),
    "panda": panda,
    "talos": talos,
    "solo12": solo12,
}


@pytest.fixture(scope="module", params=list(MODELS))
def simd_model(request):
    model = MODELS[request.param]()
    assert simd.accepts(model)
    return model


def states(model, B, seed=0):
    rng = np.random.default_rng(seed)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    return Q, rng.normal(size=(B, model.nv)), rng.normal(size=(B, model.nv))


@pytest.mark.parametrize("B", [1, 13, 37, 64])  # serial (< 32) and parallel, a tail block shorter than W and none
def test_rnea_matches_single_state(simd_model, B):
    model = simd_model
    Q, V, A = states(model, B, seed=B)
    revolute = [i for i in range(1, model.njoints) if model.joints[i].type == rbda.joints.base.JointType.REVOLUTE]
    Q[0, model.idx_q[revolute[-1]]] = 3.0e5  # past the vectorised range reduction: libm's cos/sin for that block
    data = model.create_data()
    TAU = rbda.batch.rnea(model, Q, V, A)
    for b in range(B):
        np.testing.assert_allclose(TAU[b], rbda.rnea(model, data, Q[b], V[b], A[b]), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("B", [1, 13, 37, 64])
def test_aba_matches_single_state(simd_model, B):
    """Fixed base: to 1e-12. With a free flyer the 6x6 block of the root is solved per state, in another order
    than the single-state kernel's: the results agree to 1e-12 relative to the condition of the system, measured
    by the spread between the single-state kernel and Pinocchio's aba (about 5e-12 of max |ddq| on the humanoid);
    both satisfy rnea(q, v, ddq) = tau."""
    model = simd_model
    Q, V, TAU = states(model, B, seed=B)
    data = model.create_data()
    DDQ = rbda.batch.aba(model, Q, V, TAU)
    floating = model.joints[1].type == rbda.joints.base.JointType.FREE_FLYER
    for b in range(B):
        single = rbda.aba(model, data, Q[b], V[b], TAU[b]).copy()
        scale = np.abs(single).max()
        tol = 1e-12 * max(1.0, scale) * (100.0 if floating else 1.0)
        np.testing.assert_allclose(DDQ[b], single, rtol=0, atol=tol)
        np.testing.assert_allclose(rbda.rnea(model, data, Q[b], V[b], DDQ[b]), TAU[b], rtol=0, atol=1e-9 * max(1.0, scale))


@pytest.mark.parametrize("B", [1, 13, 37, 64])
def test_crba_matches_single_state(simd_model, B):
    model = simd_model
    Q = states(model, B, seed=B)[0]
    data = model.create_data()
    M = rbda.batch.crba(model, Q)
    for b in range(B):
        np.testing.assert_allclose(M[b], rbda.crba(model, data, Q[b]), rtol=1e-12, atol=1e-12)
    M2 = rbda.batch.crba(model, Q[::-1].copy())  # entries off the supports stay zero from one call to the next
    np.testing.assert_array_equal(M2[::-1], M)


@pytest.mark.parametrize("B", [1, 13, 37])
def test_minverse_matches_single_state(simd_model, B):
    """M^-1 amplifies the rounding differences of M by its condition (as in ABA): 1e-12 relative to max |M^-1|
    fixed base, 1e-10 with a free flyer; and M^-1 M = 1."""
    model = simd_model
    Q = states(model, B, seed=B)[0]
    data = model.create_data()
    Minv = rbda.batch.compute_minverse(model, Q)
    floating = model.joints[1].type == rbda.joints.base.JointType.FREE_FLYER
    for b in range(B):
        single = rbda.compute_minverse(model, data, Q[b]).copy()
        tol = 1e-12 * np.abs(single).max() * (100.0 if floating else 1.0)
        np.testing.assert_allclose(Minv[b], single, rtol=0, atol=tol)
        np.testing.assert_allclose(Minv[b] @ rbda.crba(model, data, Q[b]), np.eye(model.nv), rtol=0, atol=1e-8)


@pytest.mark.parametrize("B", [1, 13, 37])
def test_kinematics_match_single_state(simd_model, B):
    model = simd_model
    Q = states(model, B, seed=B)[0]
    data = model.create_data()
    oMi, J = rbda.batch.forward_kinematics(model, Q), rbda.batch.compute_joint_jacobians(model, Q)
    for b in range(B):
        rbda.forward_kinematics(model, data, Q[b])
        for i in range(model.njoints):
            np.testing.assert_allclose(oMi[b, i, :, :3], data.oMi[i].rotation, rtol=0, atol=1e-12)
            np.testing.assert_allclose(oMi[b, i, :, 3], data.oMi[i].translation, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(J[b], rbda.compute_joint_jacobians(model, data, Q[b]), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("B", [5, 40])
def test_aba_singular_state_is_named(B):
    model = rbda.sample_models.manipulator()
    model.inertias[model.njoints - 1] = rbda.Inertia.Zero()  # the last joint moves no mass: D = 0
    model.armature = np.zeros(model.nv)
    Q, V, TAU = states(model, B)
    with pytest.raises(ValueError) as single:
        rbda.aba(model, model.create_data(), Q[0], V[0], TAU[0])
    with pytest.raises(ValueError, match="state 0: ") as batch:
        rbda.batch.aba(model, Q, V, TAU)
    assert str(single.value) in str(batch.value)
    with pytest.raises(ValueError, match="state 0: ") as batch:
        rbda.batch.compute_minverse(model, Q)
    assert str(single.value) in str(batch.value)


def test_out_is_filled_and_returned(simd_model):
    model = simd_model
    Q, V, A = states(model, 40)
    out = np.full((40, model.nv), np.nan)
    assert rbda.batch.rnea(model, Q, V, A, out=out) is out
    np.testing.assert_array_equal(out, rbda.batch.rnea(model, Q, V, A))
    assert rbda.batch.aba(model, Q, V, A, out=out) is out
    np.testing.assert_array_equal(out, rbda.batch.aba(model, Q, V, A))
    M = np.full((40, model.nv, model.nv), np.nan)
    assert rbda.batch.crba(model, Q, out=M) is M
    np.testing.assert_array_equal(M, rbda.batch.crba(model, Q))


def test_models_left_to_the_per_state_kernels():
    arm = rbda.sample_models.manipulator()
    assert not simd.accepts(rbda.sample_models.every_joint())
    assert not simd.accepts(random_model(0, True, mimic=True))
    assert not simd.accepts(rbda.transform_joint_into_mimic(arm, arm.njoints - 2, arm.njoints - 1, -1.0, 0.1))
    chain = [rbda.JointModelRX(), rbda.JointModelSpherical(), rbda.JointModelPY()]
    assert not simd.accepts(rbda.sample_models.random_tree(chain, np.random.default_rng(0)))
    # a free flyer below the root is not the root's free flyer
    chain = [rbda.JointModelRX(), rbda.JointModelFreeFlyer()]
    assert not simd.accepts(rbda.sample_models.random_tree(chain, np.random.default_rng(0)))


@pytest.mark.parametrize("B", [5, 50])
def test_bad_state_is_named(B):
    model = rbda.sample_models.humanoid()
    Q, V, A = states(model, B)
    V[3, 2] = np.nan
    with pytest.raises(ValueError, match="state 3: V"):
        rbda.batch.rnea(model, Q, V, A)
    V[3, 2] = 0.0
    A[B - 1, 0] = np.inf
    with pytest.raises(ValueError, match=f"state {B - 1}: A"):
        rbda.batch.rnea(model, Q, V, A)
    A[B - 1, 0] = 0.0
    Q[2, 3:7] *= 1.1  # the free flyer's quaternion off the unit sphere
    with pytest.raises(ValueError, match="state 2: Q"):
        rbda.batch.rnea(model, Q, V, A)
    with pytest.raises(ValueError, match="state 2: Q"):
        rbda.batch.crba(model, Q)
    with pytest.raises(ValueError, match="V"):
        rbda.batch.rnea(model, Q, V[:, :-1], A)


@njit
def lane_sincos(x, c, s):
    for b in range(0, x.shape[0], simd.W):
        simd.sincos(x[b : b + simd.W], c[b : b + simd.W], s[b : b + simd.W])


@pytest.mark.parametrize("scale", [1.0, 10.0, 1e3, 0.9 * simd.REDUCE_MAX, 1e7])
def test_sincos_within_an_ulp_of_libm(scale):
    x = np.random.default_rng(1).uniform(-scale, scale, 8 * 4096)
    x[:8] = [0.0, -0.0, 1e-300, np.pi / 4, -np.pi / 4, np.pi / 2, np.pi, -3 * np.pi / 2]
    c, s = np.empty_like(x), np.empty_like(x)
    lane_sincos(x, c, s)
    ulp = np.spacing(1.0)
    assert np.abs(c - np.cos(x)).max() <= ulp and np.abs(s - np.sin(x)).max() <= ulp


def test_thread_counts_and_a_forked_child():
    """The kept thread pool follows numba.set_num_threads, and a forked child (worker processes) builds its own."""
    import multiprocessing
    import numba

    model = rbda.sample_models.manipulator()
    Q, V, A = states(model, 100)
    tau = rbda.batch.rnea(model, Q, V, A)
    n = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        np.testing.assert_array_equal(rbda.batch.rnea(model, Q, V, A), tau)
    finally:
        numba.set_num_threads(n)
    np.testing.assert_array_equal(rbda.batch.rnea(model, Q, V, A), tau)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        np.testing.assert_array_equal(pool.apply(rbda.batch.rnea, (model, Q, V, A)), tau)


def test_threads_asking_for_different_thread_counts_at_once():
    """numba's thread count is per calling thread: two threads running SIMD batches with 1 and 2 threads at once
    each get their own pool (a pool rebuilt for one and shut down under the other raised 'cannot schedule new
    futures after shutdown'), and both get the single-state results."""
    import threading

    import numba

    model = rbda.sample_models.manipulator()
    rng = np.random.default_rng(5)
    B = 200
    Q = np.array([rbda.random_configuration(model) for _ in range(B)])
    V, A = rng.standard_normal((2, B, model.nv))
    expected = rbda.batch.rnea(model, Q, V, A)
    errors = []

    def run(n):
        try:
            numba.set_num_threads(n)
            for _ in range(30):
                np.testing.assert_allclose(rbda.batch.rnea(model, Q, V, A), expected, rtol=0, atol=1e-12)
        except Exception as e:  # noqa: BLE001  (reported below)
            errors.append(e)

    threads = [threading.Thread(target=run, args=(n,)) for n in (1, min(2, numba.config.NUMBA_NUM_THREADS))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
