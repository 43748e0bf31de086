"""Bad input to the public algorithms gives a ValueError / TypeError / KeyError that names the argument, never a
numba typing error, a crash or a silent NaN."""

import re

import numpy as np
import pytest
from conftest import random_model, random_state

import rbda

MODEL = random_model(0, True)  # a free-flyer root, so q[3:7] is a quaternion
Q, V, A = random_state(MODEL)
F = np.zeros((MODEL.njoints, 6))

#: every public entry point taking (q, v, a-like) arguments: name -> (call(model, data, q, v, a), argument names)
CALLS = {
    "rnea": (lambda m, d, q, v, a: rbda.rnea(m, d, q, v, a), ("q", "v", "a")),
    "rnea_fext": (lambda m, d, q, v, a: rbda.rnea(m, d, q, v, a, F), ("q", "v", "a")),
    "aba": (lambda m, d, q, v, a: rbda.aba(m, d, q, v, a), ("q", "v", "tau")),
    "aba_fext": (lambda m, d, q, v, a: rbda.aba(m, d, q, v, a, F), ("q", "v", "tau")),
    "crba": (lambda m, d, q, v, a: rbda.crba(m, d, q), ("q",)),
    "compute_minverse": (lambda m, d, q, v, a: rbda.compute_minverse(m, d, q), ("q",)),
    "nonlinear_effects": (lambda m, d, q, v, a: rbda.nonlinear_effects(m, d, q, v), ("q", "v")),
    "compute_generalized_gravity": (lambda m, d, q, v, a: rbda.compute_generalized_gravity(m, d, q), ("q",)),
    "compute_static_torque": (lambda m, d, q, v, a: rbda.compute_static_torque(m, d, q, F), ("q",)),
    "compute_coriolis_matrix": (lambda m, d, q, v, a: rbda.compute_coriolis_matrix(m, d, q, v), ("q", "v")),
    "compute_all_terms": (lambda m, d, q, v, a: rbda.compute_all_terms(m, d, q, v), ("q", "v")),
    "forward_kinematics": (lambda m, d, q, v, a: rbda.forward_kinematics(m, d, q, v, a), ("q", "v", "a")),
    "frames_forward_kinematics": (lambda m, d, q, v, a: rbda.frames_forward_kinematics(m, d, q), ("q",)),
    "compute_joint_jacobians": (lambda m, d, q, v, a: rbda.compute_joint_jacobians(m, d, q), ("q",)),
    "compute_joint_jacobian": (lambda m, d, q, v, a: rbda.compute_joint_jacobian(m, d, q, 2), ("q",)),
    "compute_frame_jacobian": (lambda m, d, q, v, a: rbda.compute_frame_jacobian(m, d, q, 2), ("q",)),
    "compute_joint_jacobians_time_variation":
        (lambda m, d, q, v, a: rbda.compute_joint_jacobians_time_variation(m, d, q, v), ("q", "v")),
    "integrate": (lambda m, d, q, v, a: rbda.integrate(m, q, v), ("q", "v")),
    "difference": (lambda m, d, q, v, a: rbda.difference(m, Q, q), ("q1",)),
    "interpolate": (lambda m, d, q, v, a: rbda.interpolate(m, q, Q, 0.5), ("q0",)),
}
every_call = pytest.mark.parametrize("name", list(CALLS))


def arguments(replace: str, value) -> dict:
    """The good (q, v, a), with the argument at the position named ``replace`` replaced by ``value``."""
    args = {"q": Q, "v": V, "a": A}
    args[replace] = value
    return args


def position(name: str, arg: str) -> str:
    """Which of (q, v, a) the call passes as its argument ``arg``."""
    return "qva"[CALLS[name][1].index(arg)]


def outputs(call, q, v, a) -> list:
    """The results of ``call`` (or, for one that returns None, the placements it fills), copied out of data."""
    data = MODEL.create_data()
    result = call(MODEL, data, q, v, a)
    results = result if isinstance(result, tuple) else (data.oMi.array if result is None else result,)
    return [np.array(r, dtype=float) for r in results]


@every_call
def test_good_input_passes(name):
    call, _ = CALLS[name]
    expected = outputs(call, Q, V, A)
    assert all(np.isfinite(x).all() and np.any(x != 0.0) for x in expected)
    for q in (list(Q), np.repeat(Q, 2)[::2]):  # sequences and non-contiguous arrays are converted, exactly
        for got, want in zip(outputs(call, q, list(V), list(A)), expected):
            np.testing.assert_array_equal(got, want)


@every_call
def test_wrong_sizes_name_the_argument(name):
    call, names = CALLS[name]
    for arg in names:
        good = {"q": Q, "v": V, "a": A}[position(name, arg)]
        for bad in (good[:-1], good[:, None], np.concatenate([good, [0.0]])):
            expected = re.escape(f"{arg}: expected shape ({len(good)},), got {bad.shape}")
            with pytest.raises(ValueError, match=f"^{expected}"):
                call(MODEL, MODEL.create_data(), **arguments(position(name, arg), bad))


@every_call
def test_non_finite_values_name_the_argument(name):
    call, names = CALLS[name]
    for arg in names:
        for value in (np.nan, np.inf):
            bad = {"q": Q, "v": V, "a": A}[position(name, arg)].copy()
            bad[-1] = value
            with pytest.raises(ValueError, match=rf"^{arg}: contains non-finite values"):
                call(MODEL, MODEL.create_data(), **arguments(position(name, arg), bad))


@every_call
def test_unnormalized_quaternion_is_refused(name):
    call, names = CALLS[name]
    arg = names[0]
    bad = Q.copy()
    bad[3:7] *= 1.01
    norm = f"{np.linalg.norm(bad[3:7]):.6g}"
    with pytest.raises(ValueError, match=rf"^{arg}: is not a valid configuration: the quaternion \(x, y, z, w\) of "
                                         rf"joint '{MODEL.names[1]}' \(id 1, q\[3:7\]\) has norm {norm}, not 1"):
        call(MODEL, MODEL.create_data(), **arguments("q", bad))
    assert rbda.is_normalized(MODEL, rbda.normalize(MODEL, bad))


@every_call
def test_data_of_another_model_is_refused(name):
    call, _ = CALLS[name]
    if name in ("integrate", "difference", "interpolate"):
        pytest.skip("takes no data")
    with pytest.raises(ValueError, match="^data: "):
        call(MODEL, rbda.sample_models.manipulator().create_data(), Q, V, A)


def test_getters_refuse_data_of_another_model_and_bad_ids():
    data, other = MODEL.create_data(), rbda.sample_models.manipulator().create_data()
    rbda.compute_joint_jacobians_time_variation(MODEL, data, Q, V)
    getters = [rbda.get_joint_jacobian, rbda.get_joint_jacobian_time_variation, rbda.get_velocity,
               rbda.get_acceleration, rbda.get_classical_acceleration]
    frame_getters = [rbda.get_frame_jacobian, rbda.get_frame_jacobian_time_variation, rbda.get_frame_velocity,
                     rbda.get_frame_acceleration, rbda.get_frame_classical_acceleration, rbda.update_frame_placement]
    for get in getters + frame_getters:
        with pytest.raises(ValueError, match="^data: "):
            get(MODEL, other, 1)
    for get in getters:
        for bad in (-1, MODEL.njoints, "j1_joint", 1.0):
            with pytest.raises(ValueError, match="^joint_id: "):
                get(MODEL, data, bad)
    for get in frame_getters:
        for bad in (-1, MODEL.nframes):
            with pytest.raises(ValueError, match="^frame_id: "):
                get(MODEL, data, bad)


def test_external_forces_are_checked():
    data = MODEL.create_data()
    for call in (lambda f: rbda.rnea(MODEL, data, Q, V, A, f), lambda f: rbda.aba(MODEL, data, Q, V, A, f),
                 lambda f: rbda.compute_static_torque(MODEL, data, Q, f)):
        with pytest.raises(ValueError, match=r"^fext: expected shape \(%d, 6\)" % MODEL.njoints):
            call(np.zeros((MODEL.njoints - 1, 6)))
        bad = np.zeros((MODEL.njoints, 6))
        bad[3, 2] = np.nan
        with pytest.raises(ValueError, match="^fext: contains non-finite values"):
            call(bad)
        with pytest.raises(ValueError, match="^fext: contains non-finite values"):
            call([rbda.Force(row) for row in bad[:3]] + [np.full(6, np.inf)] * (MODEL.njoints - 3))


def test_non_numeric_input_is_a_type_error():
    data = MODEL.create_data()
    with pytest.raises(TypeError, match="^q: "):
        rbda.rnea(MODEL, data, "q", V, A)
    with pytest.raises(TypeError, match="^v: "):
        rbda.aba(MODEL, data, Q, ["fast"] * MODEL.nv, A)


def test_unknown_names_are_key_errors():
    with pytest.raises(KeyError, match="no joint named 'knee'"):
        MODEL.get_joint_id("knee")
    with pytest.raises(KeyError, match="no frame named 'knee_link'"):
        MODEL.get_frame_id("knee_link")


def test_model_setters_check_shapes():
    model = random_model(1, False)
    with pytest.raises(ValueError, match="^armature: "):
        model.armature = np.zeros(model.nv + 1)
    with pytest.raises(ValueError, match="^gravity: "):
        model.gravity = np.zeros(4)
    with pytest.raises(ValueError, match="lower_limits"):
        rbda.random_configuration(model, np.zeros(3), np.ones(3))


def test_unknown_reference_frame_names_the_argument():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    rbda.compute_joint_jacobians(model, data, rbda.neutral(model))
    with pytest.raises(ValueError, match="reference_frame: expected one of"):
        rbda.get_joint_jacobian(model, data, 2, 7)


def test_normalize_rejects_non_finite():
    model = rbda.sample_models.every_joint()
    with pytest.raises(ValueError, match="q: contains non-finite"):
        rbda.normalize(model, np.full(model.nq, np.nan))


def test_joint_jacobians_without_q_use_the_last_kinematics():
    model = rbda.sample_models.every_joint()
    data = model.create_data()
    q = rbda.random_configuration(model, rng=np.random.default_rng(5))
    expected = rbda.compute_joint_jacobians(model, data, q).copy()
    rbda.compute_joint_jacobians(model, data, rbda.neutral(model))
    rbda.forward_kinematics(model, data, q)
    np.testing.assert_allclose(rbda.compute_joint_jacobians(model, data), expected, atol=1e-14)


def test_singular_joint_space_inertia_is_a_clear_error():
    """A massless leaf joint makes M(q) singular: forward dynamics and M^-1 say so instead of dividing by 0."""
    model = rbda.sample_models.manipulator()
    model.add_joint(model.njoints - 1, rbda.JointModelRX(), rbda.SE3(), "massless_leaf")
    data = model.create_data()
    q, z = rbda.neutral(model), np.zeros(model.nv)
    for call in (lambda: rbda.aba(model, data, q, z, z), lambda: rbda.compute_minverse(model, data, q),
                 lambda: rbda.compute_aba_derivatives(model, data, q, z, z),
                 lambda: rbda.batch.aba(model, q[None], z[None], z[None])):
        with pytest.raises(ValueError, match="M\\(q\\) is singular"):
            call()
    model.armature[-1] = 0.1  # a rotor inertia makes it regular again
    assert np.isfinite(rbda.aba(model, data, q, z, z)).all()


def test_model_and_data_swapped_or_passed_to_a_batch_say_so():
    data = MODEL.create_data()
    with pytest.raises(TypeError, match=r"^model: expected an rbda.Model, got a Data"):
        rbda.rnea(data, MODEL, Q, V, A)
    with pytest.raises(TypeError, match=r"^data: expected an rbda.Data \(model.create_data\(\)\), got a Model"):
        rbda.compute_rnea_derivatives(MODEL, MODEL, Q, V, A)
    with pytest.raises(TypeError, match=r"^Q: expected an array of shape \(B, \d+\), got a Data; the batched"):
        rbda.batch.rnea(MODEL, data, Q[None], V[None], A[None])
    with pytest.raises(TypeError, match=r"^V: expected an array of shape \(1, \d+\), got str"):
        rbda.batch.rnea(MODEL, Q[None], "V", A[None])
    assert not hasattr(data, "nq") and not hasattr(MODEL, "tau")  # still AttributeErrors for hasattr
