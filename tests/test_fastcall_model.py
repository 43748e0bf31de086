"""The fast entries bound to a model (``model.fast_entries``: the configuration-space functions, which take no data)
and the data-bound entries of the supported force and inertia and of the subtree CoM Jacobian: the same results
as the ordinary path, bit for bit, and the same errors on every input they do not take."""

import copy
import pickle
import sys
import threading

import numpy as np
import pytest

import rbda
from rbda._native import fastcall
from tests.test_fastcall import MODELS, VARIANTS, ordinary, outcome, same_outcome, state

pytestmark = pytest.mark.skipif(not fastcall.ENABLED, reason="fast entries disabled (RBDA_FASTCALL=0, "
                                "RBDA_NUMBA_DISPATCH or the C extension not built: python src/rbda/_native/build.py)")

#: the public functions with an entry bound to the model: name -> call(model, q0, q1, v)
CALLS = {
    "integrate": lambda m, q0, q1, v: rbda.integrate(m, q0, v),
    "difference": lambda m, q0, q1, v: rbda.difference(m, q0, q1),
    "interpolate": lambda m, q0, q1, v: rbda.interpolate(m, q0, q1, 0.3),
    "normalize": lambda m, q0, q1, v: rbda.normalize(m, q0),
    "is_normalized": lambda m, q0, q1, v: rbda.is_normalized(m, q0),
    "is_same_configuration": lambda m, q0, q1, v: rbda.is_same_configuration(m, q0, q1),
    "squared_distance": lambda m, q0, q1, v: rbda.squared_distance(m, q0, q1),
    "distance": lambda m, q0, q1, v: rbda.distance(m, q0, q1),
    "d_integrate": lambda m, q0, q1, v: rbda.d_integrate(m, q0, v),
    "d_difference": lambda m, q0, q1, v: rbda.d_difference(m, q0, q1, rbda.ARG1),
    "d_integrate_transport": lambda m, q0, q1, v: rbda.d_integrate_transport(m, q0, v, np.outer(v, v[:3]), rbda.ARG0),
}


def ordinary_model(model):
    """A copy of ``model`` whose every call takes the ordinary path (its entries answer None)."""
    twin = copy.deepcopy(model)
    for name in fastcall.MODEL_ENTRIES:
        setattr(twin.fast_entries, name, fastcall._ordinary)
    return twin


def as_array(result):
    return np.array(result) if isinstance(result, tuple) else result


def test_every_configuration_function_has_an_entry():
    assert set(CALLS) == set(fastcall.MODEL_ENTRIES)


@pytest.mark.parametrize("model_name", list(MODELS))
@pytest.mark.parametrize("name", list(CALLS))
def test_model_entry_equals_ordinary_path_bit_for_bit(model_name, name):
    model = copy.deepcopy(MODELS[model_name])  # unbound entries
    slow, rng = ordinary_model(model), np.random.default_rng(1)
    for _ in range(4):
        q0, v, _ = state(model, rng)
        q1 = rbda.random_configuration(model, rng=rng)
        for x0, x1 in ((q0, q1), (q0, q0.copy()), (q0 * 1.01, q1)):  # also equal and unnormalised configurations
            r_fast = outcome(lambda: CALLS[name](model, x0, x1, v))
            r_slow = outcome(lambda: CALLS[name](slow, x0, x1, v))
            same_outcome(as_array(r_fast), as_array(r_slow))
            assert type(r_fast) is type(r_slow)
    assert type(getattr(model.fast_entries, name)) is fastcall._Entry


def test_results_are_new_objects():
    model = MODELS["humanoid"]
    q0, v, _ = state(model, np.random.default_rng(2))
    q1 = rbda.random_configuration(model, rng=np.random.default_rng(3))
    for name in ("integrate", "difference", "interpolate", "normalize", "squared_distance", "d_integrate"):
        r1, r2 = CALLS[name](model, q0, q1, v), CALLS[name](model, q0, q1, v)
        assert not np.shares_memory(r1, r2) and not np.shares_memory(r1, q0)
    assert isinstance(rbda.distance(model, q0, q1), float) and isinstance(rbda.is_normalized(model, q0), bool)
    q = rbda.neutral(model)
    q[:] = 7.0  # the neutral configuration kept by the model is not the returned array
    np.testing.assert_array_equal(rbda.neutral(model), rbda.neutral(ordinary_model(model)))


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("name", list(CALLS))
def test_every_fallback_gives_todays_result_or_error(name, variant):
    model = copy.deepcopy(MODELS["every_joint"])  # quaternions and (cos, sin) pairs
    slow, rng = ordinary_model(model), np.random.default_rng(4)
    q0, v, _ = state(model, rng)
    q1 = rbda.random_configuration(model, rng=rng)
    CALLS[name](model, q0, q1, v)  # bound
    for k in range(3):  # the variant in q0, in q1, in v
        args = [q0, q1, v]
        args[k] = VARIANTS[variant](args[k])
        same_outcome(as_array(outcome(lambda: CALLS[name](model, *args))),
                     as_array(outcome(lambda: CALLS[name](slow, *args))))


def test_scalar_and_argument_variants_take_the_ordinary_path():
    model = copy.deepcopy(MODELS["every_joint"])
    slow = ordinary_model(model)
    q0, v, _ = state(model, np.random.default_rng(5))
    q1 = rbda.random_configuration(model, rng=np.random.default_rng(6))
    cases = [
        lambda m, x: rbda.interpolate(m, q0, q1, x),
        lambda m, x: rbda.is_normalized(m, q0, x),
        lambda m, x: rbda.is_same_configuration(m, q0, q1, x),
        lambda m, x: rbda.d_integrate(m, q0, v, x),
        lambda m, x: rbda.d_difference(m, q0, q1, x),
        lambda m, x: rbda.d_integrate_transport(m, q0, v, np.eye(m.nv), x),
    ]
    for call in cases:
        for x in (0.5, 1, 0, np.float64(0.25), np.nan, np.inf, 1e300, "0.5", None, True, rbda.ARG0, rbda.ARG1, 2, -1):
            same_outcome(as_array(outcome(lambda: call(model, x))), as_array(outcome(lambda: call(slow, x))))
    J = np.eye(model.nv)
    for bad in (J[:, ::2], np.asfortranarray(J), J[:-1], J.astype(np.float32), np.where(J > 0, np.nan, J), J[:, :0]):
        same_outcome(outcome(lambda: rbda.d_integrate_transport(model, q0, v, bad, rbda.ARG1)),
                     outcome(lambda: rbda.d_integrate_transport(slow, q0, v, bad, rbda.ARG1)))


def test_mistaken_arguments_name_the_mistake():
    model = MODELS["manipulator"]
    data = model.create_data()
    q = rbda.neutral(model)
    for call in (lambda: rbda.integrate(data, q, q), lambda: rbda.distance(data, q, q), lambda: rbda.neutral(data),
                 lambda: rbda.is_normalized(data, q), lambda: rbda.is_same_configuration(data, q, q),
                 lambda: rbda.d_integrate(data, q, q), lambda: rbda.compute_total_mass(data)):
        with pytest.raises(TypeError, match="model: expected an rbda.Model, got a Data"):
            call()
    with pytest.raises(TypeError, match="data: expected an rbda.Data"):  # a model where a data belongs
        rbda.rnea(model, model, q, q, q)
    entry = model.fast_entries.integrate
    rbda.integrate(model, q, np.zeros(model.nv))
    entry = model.fast_entries.integrate
    assert entry(copy.deepcopy(model), q, np.zeros(model.nv)) is None  # another model
    assert entry(model, q) is None and entry(model, q, q, q) is None  # wrong argument count
    out = entry(model, q, np.zeros(model.nv))  # the entry allocates its output: a new array each call
    assert out is not entry(model, q, np.zeros(model.nv)) and np.array_equal(out, q)


def test_an_edited_model_rebinds():
    model = rbda.sample_models.manipulator()
    q, v, _ = state(model, np.random.default_rng(7))
    before = rbda.integrate(model, q, v)
    stale = model.fast_entries.integrate
    assert type(stale) is fastcall._Entry
    model.inertias[2] = model.inertias[2]  # an edit: new packed arrays, the derived forms dropped
    assert model.fast_entries.integrate is not stale
    assert stale(model, q, v) is None  # an entry kept from before the edit falls back
    np.testing.assert_array_equal(rbda.integrate(model, q, v), before)
    assert type(model.fast_entries.integrate) is fastcall._Entry


def test_copies_and_pickles_of_a_model_bind_their_own_entries():
    model = MODELS["manipulator"]
    q, v, _ = state(model, np.random.default_rng(8))
    expected = rbda.integrate(model, q, v)
    for clone in (copy.copy(model), copy.deepcopy(model), pickle.loads(pickle.dumps(model))):
        assert clone.fast_entries is not model.fast_entries
        np.testing.assert_array_equal(rbda.integrate(clone, q, v), expected)


def test_mimic_models_keep_the_ordinary_path():
    arm = rbda.sample_models.manipulator()
    mimic = rbda.transform_joint_into_mimic(arm, arm.njoints - 2, arm.njoints - 1, -1.0, 0.1)
    q, v = rbda.random_configuration(mimic, rng=np.random.default_rng(0)), np.ones(mimic.nv)
    rbda.integrate(mimic, q, v)
    assert mimic.fast_entries.integrate is fastcall._ordinary
    np.testing.assert_allclose(rbda.difference(mimic, q, rbda.integrate(mimic, q, v)), v, atol=1e-12)
    assert rbda.squared_distance(mimic, q, q).shape == (mimic.njoints - 1,)


def test_threads_sharing_a_model_get_their_own_results():
    model = MODELS["humanoid"]
    rng = np.random.default_rng(9)
    states = [state(model, rng) for _ in range(8)]
    expected = [rbda.integrate(ordinary_model(model), q, v) for q, v, _ in states]
    errors = []

    def work(k):
        q, v, _ = states[k]
        for _ in range(2000):
            if not np.array_equal(rbda.integrate(model, q, v), expected[k]):
                errors.append(k)
                return

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(states))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_no_reference_leak():
    model = MODELS["manipulator"]
    q0, v, _ = state(model, np.random.default_rng(10))
    q1 = rbda.random_configuration(model, rng=np.random.default_rng(11))
    for name in CALLS:
        CALLS[name](model, q0, q1, v)
    counts = [sys.getrefcount(x) for x in (model, q0, q1, v)]
    bad = q0.astype(np.float32)
    for _ in range(5000):
        for name in CALLS:
            CALLS[name](model, q0, q1, v)
        rbda.integrate(model, bad, v)
    assert [sys.getrefcount(x) for x in (model, q0, q1, v)] == counts


# ------------------------------------------------------------------------------------------- data-bound entries
#: name -> call(model, data, q, id), after rnea at q (forward kinematics, data.v, data.a_gf, data.f)
DATA_CALLS = {
    "compute_supported_force_by_frame": lambda m, d, q, i: rbda.compute_supported_force_by_frame(m, d, i).vector,
    "compute_supported_inertia_by_frame":
        lambda m, d, q, i: _inertia(rbda.compute_supported_inertia_by_frame(m, d, i, True)),
    "jacobian_subtree_center_of_mass": lambda m, d, q, i: rbda.jacobian_subtree_center_of_mass(m, d, q, i),
}


def _inertia(Y):
    return np.concatenate([[Y.mass], Y.lever, Y.inertia.ravel()])


@pytest.mark.parametrize("model_name", list(MODELS))
@pytest.mark.parametrize("name", list(DATA_CALLS))
def test_data_entries_equal_the_ordinary_path_bit_for_bit(model_name, name):
    model, rng = MODELS[model_name], np.random.default_rng(12)
    fast, slow = model.create_data(), ordinary(model)
    count = model.njoints if name == "jacobian_subtree_center_of_mass" else model.nframes
    for _ in range(2):
        q, v, a = state(model, rng)
        rbda.rnea(model, fast, q, v, a), rbda.rnea(model, slow, q, v, a)
        for i in range(count):
            r_fast, r_slow = DATA_CALLS[name](model, fast, q, i), DATA_CALLS[name](model, slow, q, i)
            assert not np.shares_memory(r_fast, fast.ws) and not np.shares_memory(r_fast, fast.wb)
            np.testing.assert_array_equal(r_fast, r_slow)
        assert type(getattr(fast.fast_entries, name)) is fastcall._Entry
        np.testing.assert_array_equal(fast.wb, slow.wb)
    Y = rbda.compute_supported_inertia_by_frame(model, fast, 1, False)
    Y_slow = rbda.compute_supported_inertia_by_frame(model, slow, 1, False)
    np.testing.assert_array_equal(_inertia(Y), _inertia(Y_slow))


@pytest.mark.parametrize("name", list(DATA_CALLS))
def test_data_entries_leave_other_ids_to_the_ordinary_path(name):
    model = MODELS["humanoid"]
    q, v, a = state(model, np.random.default_rng(13))
    fast, slow = model.create_data(), ordinary(model)
    rbda.rnea(model, fast, q, v, a), rbda.rnea(model, slow, q, v, a)
    count = model.njoints if name == "jacobian_subtree_center_of_mass" else model.nframes
    for i in [np.int64(1), True, -1, count, 2**63, 1.0, "no such name", None, model.frames[2].name]:
        same_outcome(outcome(lambda: DATA_CALLS[name](model, fast, q, i)),
                     outcome(lambda: DATA_CALLS[name](model, slow, q, i)))
    for flag in (1, 0, np.bool_(True), None):
        same_outcome(outcome(lambda: _inertia(rbda.compute_supported_inertia_by_frame(model, fast, 3, flag))),
                     outcome(lambda: _inertia(rbda.compute_supported_inertia_by_frame(model, slow, 3, flag))))
