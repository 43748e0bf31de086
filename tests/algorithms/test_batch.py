"""rbda.batch against the single-state algorithms, state by state, and its input errors."""

import inspect

import numpy as np
import pytest

import rbda

B = 7


@pytest.fixture(scope="module")
def batch_case():
    model = rbda.sample_models.every_joint()
    rng = np.random.default_rng(11)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    V, A = rng.normal(size=(B, model.nv)), rng.normal(size=(B, model.nv))
    return model, Q, V, A


def test_batch_matches_single_state(batch_case):
    model, Q, V, A = batch_case
    data = model.create_data()
    TAU = rbda.batch.rnea(model, Q, V, A)
    DDQ = rbda.batch.aba(model, Q, V, TAU)
    M = rbda.batch.crba(model, Q)
    Minv = rbda.batch.compute_minverse(model, Q)
    oMi = rbda.batch.forward_kinematics(model, Q)
    J = rbda.batch.compute_joint_jacobians(model, Q)
    for b in range(B):
        np.testing.assert_allclose(TAU[b], rbda.rnea(model, data, Q[b], V[b], A[b]), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(DDQ[b], A[b], rtol=1e-8, atol=1e-8)  # aba(rnea(a)) == a, state by state
        np.testing.assert_allclose(M[b], rbda.crba(model, data, Q[b]), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(Minv[b] @ M[b], np.eye(model.nv), atol=1e-8)
        rbda.forward_kinematics(model, data, Q[b])
        for i in range(1, model.njoints):
            np.testing.assert_allclose(oMi[b, i, :, :3], data.oMi[i].rotation, atol=1e-12)
            np.testing.assert_allclose(oMi[b, i, :, 3], data.oMi[i].translation, atol=1e-12)
        np.testing.assert_allclose(J[b], rbda.compute_joint_jacobians(model, data, Q[b]), atol=1e-12)


def test_batch_reuses_out(batch_case):
    model, Q, V, A = batch_case
    out = np.empty((B, model.nv))
    assert rbda.batch.rnea(model, Q, V, A, out=out) is out


def test_batch_errors_name_the_argument_and_state(batch_case):
    model, Q, V, A = batch_case
    with pytest.raises(ValueError, match="Q: expected shape"):
        rbda.batch.rnea(model, Q[:, :-1], V, A)
    with pytest.raises(ValueError, match=r"V: expected shape \(7,"):
        rbda.batch.rnea(model, Q, V[:-1], A)
    bad = A.copy()
    bad[3, 0] = np.nan
    with pytest.raises(ValueError, match="state 3: A: contains non-finite"):
        rbda.batch.rnea(model, Q, V, bad)
    with pytest.raises(ValueError, match="out: expected"):
        rbda.batch.crba(model, Q, out=np.empty((B, 2, 2)))


@pytest.mark.parametrize("mimic", [False, True], ids=["plain", "mimic"])
def test_batched_frames_match_single_states(mimic):
    from conftest import random_model

    model = random_model(2, True, mimic=mimic)
    rng = np.random.default_rng(3)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    data = model.create_data()
    oMf = rbda.batch.frames_forward_kinematics(model, Q)
    assert oMf.shape == (B, model.nframes, 3, 4)
    frame = model.nframes - 1
    jacobians = {rf: rbda.batch.compute_frame_jacobian(model, Q, model.frames[frame].name, rf)
                 for rf in (rbda.LOCAL, rbda.WORLD, rbda.LOCAL_WORLD_ALIGNED)}
    for b in range(B):
        rbda.frames_forward_kinematics(model, data, Q[b])
        for k in range(model.nframes):
            np.testing.assert_allclose(oMf[b, k, :, :3], data.oMf[k].rotation, rtol=0.0, atol=1e-13)
            np.testing.assert_allclose(oMf[b, k, :, 3], data.oMf[k].translation, rtol=0.0, atol=1e-13)
        for rf, J in jacobians.items():
            np.testing.assert_allclose(J[b], rbda.compute_frame_jacobian(model, data, Q[b], frame, rf), rtol=0.0,
                                       atol=1e-12)
    with pytest.raises(ValueError, match="frame_id"):
        rbda.batch.compute_frame_jacobian(model, Q, model.nframes)


def _batched_calls(model, Q, V, A):
    """Every function of rbda.batch with arguments for this batch (the test below fails on a new one left out)."""
    fid = model.nframes - 1
    return {
        "rnea": (Q, V, A), "aba": (Q, V, A), "crba": (Q,), "compute_minverse": (Q,), "forward_kinematics": (Q,),
        "frames_forward_kinematics": (Q,), "compute_frame_jacobian": (Q, fid), "compute_joint_jacobians": (Q,),
        "center_of_mass": (Q,), "jacobian_center_of_mass": (Q,), "ccrba": (Q, V),
        "compute_centroidal_momentum": (Q, V), "compute_rnea_derivatives": (Q, V, A),
        "compute_aba_derivatives": (Q, V, A), "compute_rnea_second_order_derivatives": (Q, V, A),
        "integrate": (Q, V), "difference": (Q, Q[::-1].copy()), "d_integrate": (Q, V),
        "d_difference": (Q, Q[::-1].copy()),
    }


@pytest.mark.parametrize("mimic", [False, True], ids=["plain", "mimic"])
def test_every_batched_function_writes_into_out(mimic):
    """out= on every batched function: the result is written into the arrays given (a stream of batches runs in
    fixed memory), equal to the call without out=."""
    from tests.conftest import random_model

    model = random_model(3, floating=True, mimic=True) if mimic else rbda.sample_models.every_joint()
    rng = np.random.default_rng(5)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(3)])
    V, A = rng.normal(size=(3, model.nv)), rng.normal(size=(3, model.nv))
    calls = _batched_calls(model, Q, V, A)
    public = [f for name, f in vars(rbda.batch).items()
              if not name.startswith("_") and inspect.isfunction(f) and f.__module__ == "rbda.batch"]
    assert [f.__name__ for f in public if "out" not in inspect.signature(f).parameters] == []
    for name, args in calls.items():
        fn = getattr(rbda.batch, name)
        expected = fn(model, *args)
        out = tuple(np.full_like(e, np.nan) for e in expected) if isinstance(expected, tuple) else \
            np.full_like(expected, np.nan)
        got = fn(model, *args, out=out)
        if isinstance(expected, tuple):
            assert all(g is o for g, o in zip(got, out)), name
            for g, e in zip(got, expected):
                np.testing.assert_array_equal(g, e, err_msg=name)
        else:
            assert got is out, name
            np.testing.assert_array_equal(got, expected, err_msg=name)



@pytest.mark.slow
def test_each_batched_kernel_compiles_only_its_own_kernel(tmp_path):
    """``kernels/batch.py`` builds every batched twin from one function with the kernel's code a compile-time
    constant: numba prunes the other kernels' branches, so that compiling ``batch.crba`` compiles ``crba`` and
    neither ``aba`` nor ``rnea`` (a fresh process with an empty cache: every kernel it needs is compiled)."""
    import os
    import subprocess
    import sys

    code = ("import numpy as np, rbda; from rbda._native.jit import real; from rbda.kernels import batch, dynamics; "
            "model = rbda.sample_models.every_joint(); "
            "Q = np.stack([rbda.random_configuration(model) for _ in range(40)]); rbda.batch.crba(model, Q); "
            "print(len(real(batch.crba).overloads), len(real(dynamics.crba).overloads), "
            "len(real(dynamics.aba).overloads), len(real(dynamics.rnea).overloads))")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.split() == ["1", "1", "0", "0"]
