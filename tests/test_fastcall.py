"""The bound fast entries (``_native/fastcall.py``): the same results as the ordinary path, bit for bit, the same
errors on every input they do not take, and no leak of references or memory."""

import copy
import pickle
import sys
import tracemalloc

import numpy as np
import pytest

import rbda
from rbda._native import fastcall

pytestmark = pytest.mark.skipif(not fastcall.ENABLED, reason="fast entries disabled (RBDA_FASTCALL=0, "
                                "RBDA_NUMBA_DISPATCH or the C extension not built: python src/rbda/_native/build.py)")

#: the public functions with a fast entry: name -> call(model, data, q, v, a)
CALLS = {
    "forward_kinematics_q": lambda m, d, q, v, a: rbda.forward_kinematics(m, d, q),
    "forward_kinematics_qv": lambda m, d, q, v, a: rbda.forward_kinematics(m, d, q, v),
    "forward_kinematics_qva": lambda m, d, q, v, a: rbda.forward_kinematics(m, d, q, v, a),
    "compute_joint_jacobians": lambda m, d, q, v, a: rbda.compute_joint_jacobians(m, d, q),
    "rnea": lambda m, d, q, v, a: rbda.rnea(m, d, q, v, a),
    "crba": lambda m, d, q, v, a: rbda.crba(m, d, q),
    "aba": lambda m, d, q, v, a: rbda.aba(m, d, q, v, a),
    "compute_minverse": lambda m, d, q, v, a: rbda.compute_minverse(m, d, q),
    "compute_rnea_derivatives": lambda m, d, q, v, a: rbda.compute_rnea_derivatives(m, d, q, v, a),
    "compute_aba_derivatives": lambda m, d, q, v, a: rbda.compute_aba_derivatives(m, d, q, v, a),
    "compute_generalized_gravity": lambda m, d, q, v, a: rbda.compute_generalized_gravity(m, d, q),
    # (these return a row of a field or a number: their fields are compared, their results in
    # test_results_of_the_whole_body_entries)
    "center_of_mass_q": lambda m, d, q, v, a: _filled(rbda.center_of_mass(m, d, q)),
    "center_of_mass_qv": lambda m, d, q, v, a: _filled(rbda.center_of_mass(m, d, q, v)),
    "center_of_mass_qva": lambda m, d, q, v, a: _filled(rbda.center_of_mass(m, d, q, v, a)),
    "jacobian_center_of_mass": lambda m, d, q, v, a: rbda.jacobian_center_of_mass(m, d, q),
    "compute_centroidal_map": lambda m, d, q, v, a: rbda.compute_centroidal_map(m, d, q),
    "ccrba": lambda m, d, q, v, a: rbda.ccrba(m, d, q, v),
    "compute_centroidal_momentum": lambda m, d, q, v, a: rbda.compute_centroidal_momentum(m, d, q, v),
    "compute_centroidal_momentum_time_variation":
        lambda m, d, q, v, a: rbda.compute_centroidal_momentum_time_variation(m, d, q, v, a),
    "energy_q": lambda m, d, q, v, a: _filled(rbda.compute_potential_energy(m, d, q)),
    "energy_qv": lambda m, d, q, v, a: _filled(rbda.compute_mechanical_energy(m, d, q, v)),
    "compute_static_regressor": lambda m, d, q, v, a: rbda.compute_static_regressor(m, d, q),
    "compute_kinetic_energy_regressor": lambda m, d, q, v, a: rbda.compute_kinetic_energy_regressor(m, d, q, v),
    "compute_potential_energy_regressor": lambda m, d, q, v, a: rbda.compute_potential_energy_regressor(m, d, q),
    "frames_forward_kinematics": lambda m, d, q, v, a: rbda.frames_forward_kinematics(m, d, q),
    "update_global_placements": lambda m, d, q, v, a: rbda.update_global_placements(m, d),
    "update_frame_placements": lambda m, d, q, v, a: rbda.update_frame_placements(m, d),
    "compute_joint_jacobians_time_variation":
        lambda m, d, q, v, a: rbda.compute_joint_jacobians_time_variation(m, d, q, v),
    "compute_joint_kinematic_hessians": lambda m, d, q, v, a: rbda.compute_joint_kinematic_hessians(m, d, q),
    "compute_forward_kinematics_derivatives":
        lambda m, d, q, v, a: rbda.compute_forward_kinematics_derivatives(m, d, q, v, a),
    "compute_static_torque": lambda m, d, q, v, a: rbda.compute_static_torque(m, d, q, _forces(m, v)),
    "compute_static_torque_derivatives":  # (external forces as a list of Force)
        lambda m, d, q, v, a: rbda.compute_static_torque_derivatives(m, d, q, [rbda.Force(f) for f in _forces(m, v)]),
    "compute_generalized_gravity_derivatives": lambda m, d, q, v, a: rbda.compute_generalized_gravity_derivatives(m, d, q),
    "compute_subtree_masses": lambda m, d, q, v, a: rbda.compute_subtree_masses(m, d),
}
#: the data fields each call fills (its returned array among them)
FIELDS = {
    "forward_kinematics_q": ("liMi", "oMi"), "forward_kinematics_qv": ("liMi", "oMi", "v"),
    "forward_kinematics_qva": ("liMi", "oMi", "v", "a"), "compute_joint_jacobians": ("J", "oMi"),
    "rnea": ("tau", "v", "a_gf", "f", "oMi"), "crba": ("M", "oMi", "J", "oYcrb"),
    "aba": ("ddq", "oMi", "ov", "oa_gf", "of", "oYaba"), "compute_minverse": ("Minv", "M"),
    "compute_rnea_derivatives": ("dtau_dq", "dtau_dv", "M", "tau", "J", "oMi"),
    "compute_aba_derivatives": ("ddq_dq", "ddq_dv", "Minv", "ddq", "tau", "M", "J", "oMi"),
    "compute_generalized_gravity": ("g", "tau", "v", "a_gf", "f", "oMi"),
    "center_of_mass_q": ("com", "mass", "oMi"), "center_of_mass_qv": ("com", "vcom", "mass", "oMi", "v"),
    "center_of_mass_qva": ("com", "vcom", "acom", "mass", "oMi", "v", "a"),
    "jacobian_center_of_mass": ("Jcom", "mass", "J", "oMi", "com"),
    "compute_centroidal_map": ("Ag", "Ig", "com", "mass", "J", "oYcrb"),
    "ccrba": ("Ag", "Ig", "hg", "com", "vcom", "J"), "compute_centroidal_momentum": ("hg", "com", "vcom", "mass", "v"),
    "compute_centroidal_momentum_time_variation": ("dhg", "hg", "com", "vcom", "acom"),
    "energy_q": ("energy", "oMi"), "energy_qv": ("energy", "oMi", "v"),
    "compute_static_regressor": ("static_regressor", "oMi", "liMi"),
    "compute_kinetic_energy_regressor": ("kinetic_energy_regressor", "oMi", "liMi", "v"),
    "compute_potential_energy_regressor": ("potential_energy_regressor", "oMi", "liMi"),
    "frames_forward_kinematics": ("oMf", "oMi", "liMi"), "update_global_placements": ("oMi",),
    "update_frame_placements": ("oMf",), "compute_joint_jacobians_time_variation": ("dJ", "J", "oMi", "v", "ov"),
    "compute_joint_kinematic_hessians": ("kinematic_hessians", "J", "oMi"),
    "compute_forward_kinematics_derivatives": ("oMi", "v", "a", "ov", "oa", "J", "dws"),
    "compute_static_torque": ("tau", "v", "a_gf", "f", "oMi"),
    "compute_static_torque_derivatives": ("dtau_dq", "tau", "J", "oMi"),
    "compute_generalized_gravity_derivatives": ("dtau_dq", "tau", "J", "oMi"),
    "compute_subtree_masses": ("mass",),
}
TUPLES = {"compute_rnea_derivatives": 3, "compute_aba_derivatives": 3}  # these return (first 3 fields)
#: the entries whose ordinary path runs on the model's elementary twin (every_joint has one: ordinary path)
ON_TWIN = {*TUPLES, "compute_joint_jacobians_time_variation", "compute_joint_kinematic_hessians",
           "compute_forward_kinematics_derivatives", "compute_static_torque_derivatives",
           "compute_generalized_gravity_derivatives"}
MODELS = {"every_joint": rbda.sample_models.every_joint(), "manipulator": rbda.sample_models.manipulator(),
          "humanoid": rbda.sample_models.humanoid()}


def _forces(model, v):
    """External forces ``(njoints, 6)`` made of ``v``'s entries."""
    return np.resize(v, (model.njoints, 6))


def _filled(result) -> None:
    """None for a call whose data fields the tests compare (its result: test_results_of_the_whole_body_entries)."""
    return None


def ordinary(model):
    """A data whose every call takes the ordinary path (its fast entries answer None)."""
    data = model.create_data()
    for name in fastcall.ENTRIES:
        setattr(data.fast_entries, name, fastcall._ordinary)
    return data


def fields(data, name):
    out = []
    for f in FIELDS[name]:
        x = getattr(data, f)
        out.append(np.array(x.array if hasattr(x, "array") else x))
    return out


def state(model, rng):
    return rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)


@pytest.mark.parametrize("model_name", list(MODELS))
@pytest.mark.parametrize("name", list(CALLS))
def test_fast_entry_equals_ordinary_path_bit_for_bit(model_name, name):
    model, rng = MODELS[model_name], np.random.default_rng(1)
    fast, slow = model.create_data(), ordinary(model)
    for _ in range(5):
        q, v, a = state(model, rng)
        r_fast, r_slow = CALLS[name](model, fast, q, v, a), CALLS[name](model, slow, q, v, a)
        twin = name in ON_TWIN and model_name == "every_joint"  # derivatives run on the elementary twin: ordinary
        assert (getattr(fast.fast_entries, name) is fastcall._ordinary) == twin
        if r_slow is None:
            assert r_fast is None
        else:
            if name in TUPLES:  # copies of the data arrays, as the ordinary path returns
                for x, f in zip(r_fast, FIELDS[name][:3]):
                    assert x is not getattr(fast, f) and np.array_equal(x, getattr(fast, f))
                assert fast.kinematics_derivatives is False
            else:
                assert r_fast is not getattr(fast, FIELDS[name][0])
                np.testing.assert_array_equal(r_fast, getattr(fast, FIELDS[name][0]))
            np.testing.assert_array_equal(r_fast, r_slow)
        for x, y in zip(fields(fast, name), fields(slow, name)):
            np.testing.assert_array_equal(x, y)


def test_results_of_the_whole_body_entries():
    """The centre of mass (a row of data.com) and the energies (numbers, also in data.*_energy) that the fast
    entries leave in the data are returned as the ordinary path returns them."""
    model, rng = MODELS["humanoid"], np.random.default_rng(7)
    fast, slow = model.create_data(), ordinary(model)
    q, v, a = state(model, rng)
    for args in ((q,), (q, v), (q, v, a)):
        r_fast, r_slow = rbda.center_of_mass(model, fast, *args), rbda.center_of_mass(model, slow, *args)
        assert r_fast is not fast.com[0] and not np.shares_memory(r_fast, fast.com)
        np.testing.assert_array_equal(r_fast, r_slow)
    for energy in (rbda.compute_kinetic_energy, rbda.compute_mechanical_energy):
        assert energy(model, fast, q, v) == energy(model, slow, q, v)
    assert rbda.compute_potential_energy(model, fast, q) == rbda.compute_potential_energy(model, slow, q)
    for name in ("kinetic_energy", "potential_energy", "mechanical_energy"):
        assert getattr(fast, name) == getattr(slow, name)
    with pytest.raises(ValueError, match="a: an acceleration needs a velocity v"):
        rbda.center_of_mass(model, fast, q, None, a)


def test_fast_results_against_independent_identities():
    """Through the fast entries: M ddq + nle = tau (aba against crba and rnea), M Minv = 1, and the Jacobian
    columns against a manifold finite difference of the placements."""
    model, rng = MODELS["humanoid"], np.random.default_rng(2)
    data = model.create_data()
    q, v, tau = state(model, rng)
    ddq = rbda.aba(model, data, q, v, tau).copy()
    M = rbda.crba(model, data, q).copy()
    nle = rbda.rnea(model, data, q, v, np.zeros(model.nv)).copy()
    np.testing.assert_allclose(M @ ddq + nle, tau, atol=1e-9)
    np.testing.assert_allclose(rbda.compute_minverse(model, data, q) @ M, np.eye(model.nv), atol=1e-9)
    J = rbda.compute_joint_jacobians(model, data, q).copy()
    eps, k = 1e-6, model.nv - 1
    dv = np.zeros(model.nv)
    dv[k] = eps
    rbda.forward_kinematics(model, data, rbda.integrate(model, q, dv))
    p_plus = data.oMi.array[-1, :, 3].copy()
    rbda.forward_kinematics(model, data, rbda.integrate(model, q, -dv))
    p_minus = data.oMi.array[-1, :, 3].copy()
    rbda.forward_kinematics(model, data, q)
    p = data.oMi.array[-1, :, 3]
    # the world-frame column of the last joint's dof: linear part at the origin, so dp/dt = v + w x p
    np.testing.assert_allclose((p_plus - p_minus) / (2 * eps), J[:3, k] + np.cross(J[3:, k], p), atol=1e-6)


def test_fast_rnea_against_pinocchio():
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio

    model, rng = MODELS["manipulator"], np.random.default_rng(3)
    pm = to_pinocchio(model)
    pd, data = pm.createData(), model.create_data()
    for _ in range(3):
        q, v, a = state(model, rng)
        np.testing.assert_allclose(rbda.rnea(model, data, q, v, a), pin.rnea(pm, pd, q, v, a), atol=1e-10)
        np.testing.assert_allclose(rbda.aba(model, data, q, v, a), pin.aba(pm, pd, q, v, a), atol=1e-9)


class Sub(np.ndarray):
    pass


#: arguments the fast entries leave to the ordinary path: name -> f(q) -> the argument passed
VARIANTS = {
    "float32": lambda x: x.astype(np.float32),
    "int": lambda x: np.round(x).astype(np.int64),
    "big_endian": lambda x: x.astype(">f8"),
    "strided": lambda x: np.repeat(x, 2)[::2],
    "too_long": lambda x: np.append(x, 0.0),
    "too_short": lambda x: x[:-1].copy(),
    "two_d": lambda x: x[None].copy(),
    "list": lambda x: list(x),
    "subclass": lambda x: x.view(Sub),
    "nan": lambda x: np.where(np.arange(len(x)) == 0, np.nan, x),
    "inf": lambda x: np.where(np.arange(len(x)) == len(x) - 1, np.inf, x),
    "none": lambda x: None,
    "readonly": lambda x: np.frombuffer(x.tobytes()),
}


def outcome(fn):
    """A call's result (copied) or its exception's type and message."""
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001
        return (type(e), str(e))
    return None if r is None else np.array(r)  # a tuple of arrays: stacked


def same_outcome(x, y):
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        assert isinstance(x, np.ndarray) and isinstance(y, np.ndarray)
        np.testing.assert_array_equal(x, y)
    else:
        assert x == y


@pytest.mark.parametrize("variant", list(VARIANTS))
@pytest.mark.parametrize("name", list(CALLS))
def test_every_fallback_gives_todays_result_or_error(name, variant):
    # quaternions and (cos, sin) pairs; the derivatives' fast entries need a model that is its elementary twin
    model = MODELS["humanoid" if name in ON_TWIN else "every_joint"]
    q, v, a = state(model, np.random.default_rng(4))
    fast, slow = model.create_data(), ordinary(model)
    CALLS[name](model, fast, q, v, a), CALLS[name](model, slow, q, v, a)  # bound, and the same state
    for k in range(3):  # the variant in q, in v, in a
        args = [q, v, a]
        args[k] = VARIANTS[variant](args[k])
        same_outcome(outcome(lambda: CALLS[name](model, fast, *args)), outcome(lambda: CALLS[name](model, slow, *args)))


def test_unit_norm_and_quaternion_errors_come_from_the_ordinary_path():
    model = MODELS["every_joint"]
    q, v, a = state(model, np.random.default_rng(5))
    data = model.create_data()
    rbda.rnea(model, data, q, v, a)
    bad = q * 1.5
    with pytest.raises(ValueError, match="q: is not a valid configuration"):
        rbda.rnea(model, data, bad, v, a)
    with pytest.raises(ValueError, match="tau: contains non-finite"):
        rbda.aba(model, data, q, v, np.full(model.nv, np.nan))


def test_other_model_or_data_take_the_ordinary_path():
    model = MODELS["manipulator"]
    twin = copy.deepcopy(model)  # equal, but another object with its own packed arrays
    q, v, a = state(model, np.random.default_rng(6))
    data, other = model.create_data(), model.create_data()
    expected = np.array(rbda.rnea(model, ordinary(model), q, v, a))
    rbda.rnea(model, data, q, v, a)
    entry = data.fast_entries.rnea
    assert entry(model, other, q, v, a) is None and entry(twin, data, q, v, a) is None  # not the bound pair
    assert entry(model, data, q, v) is None and entry(model, data, q, v, a, a) is None  # wrong argument count
    np.testing.assert_array_equal(rbda.rnea(twin, data, q, v, a), expected)  # a data used with another model
    np.testing.assert_array_equal(rbda.rnea(model, other, q, v, a), expected)
    np.testing.assert_array_equal(entry(model, data, q, v, a), expected)
    with pytest.raises(TypeError, match="model: expected an rbda.Model, got a Data"):
        rbda.rnea(data, model, q, v, a)
    arm = rbda.sample_models.manipulator()  # a mimic model keeps the ordinary path
    mimic = rbda.transform_joint_into_mimic(arm, arm.njoints - 2, arm.njoints - 1, -1.0, 0.1)
    md = mimic.create_data()
    qm = rbda.random_configuration(mimic, rng=np.random.default_rng(0))
    rbda.aba(mimic, md, qm, np.zeros(mimic.nv), np.zeros(mimic.nv))
    assert md.fast_entries.aba is fastcall._ordinary


def test_an_edited_model_rebinds():
    model = rbda.sample_models.manipulator()
    q, v, a = state(model, np.random.default_rng(7))
    data = model.create_data()
    before = np.array(rbda.rnea(model, data, q, v, a))
    stale = data.fast_entries.rnea
    inertia = model.inertias[2]
    model.inertias[2] = rbda.Inertia(inertia.mass * 2, inertia.lever, inertia.inertia * 2)  # new packed arrays
    assert data.fast_entries.rnea is fastcall.UNBOUND["rnea"]  # unbound again
    assert stale(model, data, q, v, a) is None  # a builtin kept from before the edit falls back
    after = np.array(rbda.rnea(model, data, q, v, a))
    assert not np.allclose(after, before)
    np.testing.assert_array_equal(after, rbda.rnea(model, ordinary(model), q, v, a))
    assert type(data.fast_entries.rnea) is fastcall._Entry
    model.gravity.linear[:] = 0.0  # an in-place edit of the packed floats is seen as before
    np.testing.assert_array_equal(rbda.rnea(model, data, q, v, a), rbda.rnea(model, ordinary(model), q, v, a))


def test_copies_and_pickles_of_a_data_bind_their_own_entries():
    model = MODELS["manipulator"]
    q, v, a = state(model, np.random.default_rng(8))
    data = model.create_data()
    expected = np.array(rbda.rnea(model, data, q, v, a))
    for clone in (copy.deepcopy(data), pickle.loads(pickle.dumps(data))):
        assert all(getattr(clone.fast_entries, k) is entry for k, entry in fastcall.UNBOUND.items())  # none bound
        np.testing.assert_array_equal(rbda.rnea(model, clone, q, v, a), expected)
        tau = rbda.rnea(model, clone, q, v, a)
        assert tau is not clone.tau and np.array_equal(tau, clone.tau) and np.shares_memory(clone.tau, clone.ws)


def test_no_reference_or_memory_leak():
    model = MODELS["manipulator"]
    q, v, a = state(model, np.random.default_rng(9))
    data = model.create_data()
    rbda.rnea(model, data, q, v, a)
    rbda.forward_kinematics(model, data, q)
    entry, bad = data.fast_entries.rnea, q.astype(np.float32)
    counts = [sys.getrefcount(x) for x in (data.tau, True, None, model, data, q)]
    for _ in range(10_000):
        entry(model, data, q, v, a)
        entry(model, data, bad, v, a)  # answers None
        rbda.forward_kinematics(model, data, q)  # answers True
    after = [sys.getrefcount(x) for x in (data.tau, True, None, model, data, q)]
    assert after[0] == counts[0] and after[3:] == counts[3:]
    assert abs(after[1] - counts[1]) < 50 and abs(after[2] - counts[2]) < 50  # shared singletons: others move them
    tracemalloc.start()
    try:
        for _ in range(1000):
            rbda.rnea(model, data, q, v, a)
        start = tracemalloc.get_traced_memory()[0]
        for _ in range(100_000):
            rbda.rnea(model, data, q, v, a)
        grown = tracemalloc.get_traced_memory()[0] - start
    finally:
        tracemalloc.stop()
    assert grown < 10_000


def test_no_hand_written_object_offset():
    """The entries read their arguments through the CPython and numpy C API (``_entry.c``): the compiled bodies
    take pointers and integers only, and nothing in the package reads an object at an address it computed."""
    import pathlib

    native = pathlib.Path(fastcall.__file__).parent
    for path in (native / "fastcall.py", native / "fastcall_entries.py"):
        text = path.read_text()
        for word in ("OB_TYPE", "A_DATA", "A_DIMS", "A_FLAGS", "layout_ok", "from_address", "load_i64", "Py_IncRef"):
            assert word not in text, f"{path.name}: {word}"


WITHOUT_EXTENSION = """
import sys, numpy as np
sys.modules["rbda._native._entry"] = None  # as if the extension were not built: importing it fails
import rbda
from rbda._native import fastcall
assert not fastcall.ENABLED
m = rbda.sample_models.manipulator(); d = m.create_data(); q = rbda.neutral(m); v = np.linspace(0, 1, m.nv)
tau = rbda.rnea(m, d, q, v, v)
assert d.fast_entries.rnea is fastcall._ordinary
J = rbda.compute_frame_jacobian(m, d, q, 2, rbda.LOCAL)
assert rbda.distance(m, q, rbda.integrate(m, q, v)) > 0 and m.fast_entries.integrate is fastcall._ordinary
np.save(sys.argv[1], np.concatenate([tau, J.ravel()]))
"""


@pytest.mark.parametrize("how", ["no extension", "RBDA_FASTCALL=0"])
def test_without_the_extension_every_call_takes_the_ordinary_path(how, tmp_path):
    import os
    import subprocess

    env = dict(os.environ)
    script = WITHOUT_EXTENSION if how == "no extension" else WITHOUT_EXTENSION.replace(
        'sys.modules["rbda._native._entry"] = None', "")
    if how != "no extension":
        env["RBDA_FASTCALL"] = "0"
    out = tmp_path / "r.npy"
    subprocess.run([sys.executable, "-c", script, str(out)], env=env, check=True, timeout=600)
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q, v = rbda.neutral(model), np.linspace(0, 1, model.nv)
    expected = np.concatenate([rbda.rnea(model, data, q, v, v), rbda.compute_frame_jacobian(model, data, q, 2,
                                                                                           rbda.LOCAL).ravel()])
    np.testing.assert_array_equal(np.load(out), expected)


def test_a_bound_data_does_not_keep_its_model_alive():
    """A data's fast entries refer to their model weakly: caches of data keyed by weak references to models
    (rbda.jax's, rbda._primitives') free both once nobody holds the model; the data's entry then falls back, and
    the ordinary path names the mistake of passing None for the model."""
    import gc
    import weakref

    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q = rbda.neutral(model)
    v = np.zeros(model.nv)
    rbda.rnea(model, data, q, v, v)
    assert type(data.fast_entries.rnea) is fastcall._Entry
    ref = weakref.ref(model)
    del model
    gc.collect()
    assert ref() is None
    with pytest.raises((TypeError, ValueError, AttributeError)):
        rbda.rnea(None, data, q, v, v)


#: the frame entries (ids and a reference frame as ints): name -> call(model, data, q, id, rf), after the
#: kinematics each reads
FRAME_CALLS = {
    "get_frame_jacobian": lambda m, d, q, i, rf: rbda.get_frame_jacobian(m, d, i, rf),
    "get_joint_jacobian": lambda m, d, q, i, rf: rbda.get_joint_jacobian(m, d, i, rf),
    "get_frame_jacobian_time_variation": lambda m, d, q, i, rf: rbda.get_frame_jacobian_time_variation(m, d, i, rf),
    "get_joint_jacobian_time_variation": lambda m, d, q, i, rf: rbda.get_joint_jacobian_time_variation(m, d, i, rf),
    "compute_frame_jacobian": lambda m, d, q, i, rf: rbda.compute_frame_jacobian(m, d, q, i, rf),
    "compute_joint_jacobian": lambda m, d, q, i, rf: rbda.compute_joint_jacobian(m, d, q, i),
    "get_frame_velocity": lambda m, d, q, i, rf: rbda.get_frame_velocity(m, d, i, rf).vector,
    "get_frame_acceleration": lambda m, d, q, i, rf: rbda.get_frame_acceleration(m, d, i, rf).vector,
    "get_frame_classical_acceleration": lambda m, d, q, i, rf: rbda.get_frame_classical_acceleration(m, d, i, rf).vector,
    "get_velocity": lambda m, d, q, i, rf: rbda.get_velocity(m, d, i, rf).vector,
    "get_acceleration": lambda m, d, q, i, rf: rbda.get_acceleration(m, d, i, rf).vector,
    "get_classical_acceleration": lambda m, d, q, i, rf: rbda.get_classical_acceleration(m, d, i, rf).vector,
    "update_frame_placement": lambda m, d, q, i, rf: rbda.update_frame_placement(m, d, i).homogeneous,
    "joint_body_regressor": lambda m, d, q, i, rf: rbda.joint_body_regressor(m, d, i),
    "frame_body_regressor": lambda m, d, q, i, rf: rbda.frame_body_regressor(m, d, i),
    "compute_joint_kinematic_regressor": lambda m, d, q, i, rf: rbda.compute_joint_kinematic_regressor(m, d, i, rf),
    "compute_frame_kinematic_regressor": lambda m, d, q, i, rf: rbda.compute_frame_kinematic_regressor(m, d, i, rf),
    "get_joint_velocity_derivatives": lambda m, d, q, i, rf: rbda.get_joint_velocity_derivatives(m, d, i, rf),
    "get_joint_acceleration_derivatives": lambda m, d, q, i, rf: rbda.get_joint_acceleration_derivatives(m, d, i, rf),
    "get_frame_velocity_derivatives": lambda m, d, q, i, rf: rbda.get_frame_velocity_derivatives(m, d, i, rf),
    "get_frame_acceleration_derivatives": lambda m, d, q, i, rf: rbda.get_frame_acceleration_derivatives(m, d, i, rf),
}


def _frame_state(model, data, q, v, a):
    """What every frame entry reads: the Jacobians' time variation, the forward kinematics derivatives, an RNEA's
    accelerations with gravity, the forward kinematics at (q, v, a)."""
    rbda.compute_joint_jacobians_time_variation(model, data, q, v)
    rbda.compute_forward_kinematics_derivatives(model, data, q, v, a)
    rbda.rnea(model, data, q, v, a)
    rbda.forward_kinematics(model, data, q, v, a)


@pytest.mark.parametrize("model_name", list(MODELS))
@pytest.mark.parametrize("name", list(FRAME_CALLS))
def test_frame_entries_equal_the_ordinary_path_bit_for_bit(model_name, name):
    model, rng = MODELS[model_name], np.random.default_rng(8)
    fast, slow = model.create_data(), ordinary(model)
    count = model.nframes if "frame" in name else model.njoints
    for _ in range(2):
        q, v, a = state(model, rng)
        _frame_state(model, fast, q, v, a), _frame_state(model, slow, q, v, a)
        for i in range(count):
            for rf in (rbda.LOCAL, rbda.WORLD, rbda.LOCAL_WORLD_ALIGNED, 0, 1, 2):
                r_fast, r_slow = FRAME_CALLS[name](model, fast, q, i, rf), FRAME_CALLS[name](model, slow, q, i, rf)
                for x in (r_fast if isinstance(r_fast, tuple) else (r_fast,)):
                    assert not np.shares_memory(x, fast.ws) and not np.shares_memory(x, fast.dws)
                np.testing.assert_array_equal(np.array(r_fast), np.array(r_slow))
        twin = "derivatives" in name and model_name == "every_joint"  # run on the elementary twin: ordinary
        assert (getattr(fast.fast_entries, name) is fastcall._ordinary) == twin
        np.testing.assert_array_equal(fast.ws, slow.ws)
        r1 = FRAME_CALLS[name](model, fast, q, 1, rbda.WORLD)
        r2 = FRAME_CALLS[name](model, fast, q, 1, rbda.WORLD)
        first = (lambda r: r[0] if isinstance(r, tuple) else r)
        assert not np.shares_memory(first(r1), first(r2))  # each call's result is its own


@pytest.mark.parametrize("name", list(FRAME_CALLS))
def test_frame_entries_leave_other_ids_and_frames_to_the_ordinary_path(name):
    model = MODELS["humanoid"]
    q, v, a = state(model, np.random.default_rng(9))
    fast, slow = model.create_data(), ordinary(model)
    _frame_state(model, fast, q, v, a), _frame_state(model, slow, q, v, a)
    count = model.nframes if "frame" in name else model.njoints
    ids = [np.int64(1), True, -1, count, 2**63, -(2**64), 1.0, "no such name", None,
           model.frames[2].name if "frame" in name else 2]
    for i in ids:
        same_outcome(outcome(lambda: FRAME_CALLS[name](model, fast, q, i, rbda.LOCAL)),
                     outcome(lambda: FRAME_CALLS[name](model, slow, q, i, rbda.LOCAL)))
    for rf in (np.int64(2), 3, -1, 2**70, 1.0, "LOCAL", None, True):
        same_outcome(outcome(lambda: FRAME_CALLS[name](model, fast, q, 1, rf)),
                     outcome(lambda: FRAME_CALLS[name](model, slow, q, 1, rf)))


def test_motion_derivative_entries_need_the_forward_kinematics_derivatives():
    model = MODELS["humanoid"]
    q, v, a = state(model, np.random.default_rng(11))
    data = model.create_data()
    rbda.rnea(model, data, q, v, a)
    for name in FRAME_CALLS:
        if "derivatives" in name:
            with pytest.raises(ValueError, match="compute_forward_kinematics_derivatives"):
                FRAME_CALLS[name](model, data, q, 1, rbda.LOCAL)


FORCE_VARIANTS = {  # name -> f(forces (njoints, 6)) -> the argument passed as fext
    "array": lambda F: F, "forces": lambda F: [rbda.Force(f) for f in F], "tuple": lambda F: tuple(map(rbda.Force, F)),
    "vectors": lambda F: [f.copy() for f in F], "lists": lambda F: [list(f) for f in F],
    "one_short": lambda F: [rbda.Force(f) for f in F[:-1]], "float32": lambda F: [f.astype(np.float32) for f in F],
    "nan_in_a_force": lambda F: [rbda.Force(f) for f in F[:2]] + [_nan_force()] + [rbda.Force(f) for f in F[3:]],
    "nan_array": lambda F: np.where(F == F[1, 2], np.nan, F), "transposed": lambda F: np.asfortranarray(F),
    "none": lambda F: None, "numbers": lambda F: [1.0] * len(F),
}


def _nan_force():
    f = rbda.Force(np.ones(6))
    f.vector[4] = np.nan  # (past the constructor's check)
    return f


@pytest.mark.parametrize("variant", list(FORCE_VARIANTS))
@pytest.mark.parametrize("name", ["compute_static_torque", "compute_static_torque_derivatives"])
def test_external_forces_in_any_form_give_todays_result_or_error(name, variant):
    model = MODELS["humanoid"]
    rng = np.random.default_rng(5)
    q, F = rbda.random_configuration(model, rng=rng), rng.normal(size=(model.njoints, 6))
    function = getattr(rbda, name)
    fast, slow = model.create_data(), ordinary(model)
    function(model, fast, q, F)  # bound
    assert getattr(fast.fast_entries, name) is not fastcall._ordinary
    fext = FORCE_VARIANTS[variant](F)
    same_outcome(outcome(lambda: function(model, fast, q, fext)), outcome(lambda: function(model, slow, q, fext)))
    takes = variant in ("array", "forces", "tuple", "vectors")
    assert (getattr(fast.fast_entries, name)(model, fast, q, fext) is not None) == takes


POINT_CALLS = {name: getattr(rbda, name) for name in ("get_point_velocity_derivatives",
                                                      "get_point_classic_acceleration_derivatives")}


class SubSE3(rbda.SE3):
    pass


def _odd_placements():
    """Placements the point entries leave to the ordinary path, and arguments that are not placements."""
    fortran = rbda.SE3.Random()
    fortran.rotation = np.asfortranarray(fortran.rotation)
    single = rbda.SE3.Random()
    single.translation = single.translation.astype(np.float32)
    return [fortran, single, SubSE3(np.eye(3), np.ones(3)), "x", None, np.eye(4), rbda.SE3.Random().homogeneous]


@pytest.mark.parametrize("model_name", list(MODELS))
@pytest.mark.parametrize("name", list(POINT_CALLS))
def test_point_entries_equal_the_ordinary_path_bit_for_bit(model_name, name):
    model, rng = MODELS[model_name], np.random.default_rng(12)
    fast, slow = model.create_data(), ordinary(model)
    q, v, a = state(model, rng)
    _frame_state(model, fast, q, v, a), _frame_state(model, slow, q, v, a)
    call = POINT_CALLS[name]
    for i in range(model.njoints):
        for placement in (rbda.SE3.Random(), rbda.SE3.Identity()):
            for rf in (rbda.LOCAL, rbda.LOCAL_WORLD_ALIGNED, 1, 2):
                r_fast, r_slow = call(model, fast, i, placement, rf), call(model, slow, i, placement, rf)
                for x, y in zip(r_fast, r_slow):
                    assert not np.shares_memory(x, fast.dws)
                    np.testing.assert_array_equal(x, y)
    twin = model_name == "every_joint"  # run on the elementary twin: ordinary
    assert (getattr(fast.fast_entries, name) is fastcall._ordinary) == twin
    np.testing.assert_array_equal(fast.ws, slow.ws)
    for placement in _odd_placements():
        for rf in (rbda.LOCAL, rbda.WORLD, 0, 3, "LOCAL", None):
            for i in (1, -1, model.njoints, 1.0):
                same_outcome(outcome(lambda: call(model, fast, i, placement, rf)),
                             outcome(lambda: call(model, slow, i, placement, rf)))
    with pytest.raises(ValueError, match="compute_forward_kinematics_derivatives"):
        call(model, model.create_data(), 1, rbda.SE3.Identity(), rbda.LOCAL)


def test_no_reference_leak_through_forces_and_placements():
    """The 'F' and 'P' arguments read attributes (new references) of each Force and of the SE3: all released,
    whether the entry takes the call or not."""
    model = MODELS["humanoid"]
    q, v, a = state(model, np.random.default_rng(13))
    data = model.create_data()
    rbda.compute_forward_kinematics_derivatives(model, data, q, v, a)
    forces = [rbda.Force(f) for f in np.random.default_rng(14).normal(size=(model.njoints, 6))]
    short = forces[:-1]
    placement = rbda.SE3.Random()
    rbda.compute_static_torque(model, data, q, forces)
    rbda.get_point_velocity_derivatives(model, data, 1, placement, rbda.LOCAL)
    torque, point = data.fast_entries.compute_static_torque, data.fast_entries.get_point_velocity_derivatives
    watched = (forces[0], forces[0].vector, forces[-1].vector, placement, placement.rotation, placement.translation)
    counts = [sys.getrefcount(x) for x in watched]
    for _ in range(2000):
        assert torque(model, data, q, forces) is not None and torque(model, data, q, short) is None
        assert point(model, data, 1, placement, rbda.LOCAL) is not None
        assert point(model, data, 1, placement, rbda.WORLD) is None
    assert [sys.getrefcount(x) for x in watched] == counts


@pytest.mark.parametrize("model_name", list(MODELS))
def test_centroidal_dynamics_derivatives_entry_equals_the_ordinary_path(model_name):
    model, rng = MODELS[model_name], np.random.default_rng(15)
    fast, slow = model.create_data(), ordinary(model)
    for _ in range(3):
        q, v, a = state(model, rng)
        r_fast = rbda.compute_centroidal_dynamics_derivatives(model, fast, q, v, a)
        r_slow = rbda.compute_centroidal_dynamics_derivatives(model, slow, q, v, a)
        for x, y in zip(r_fast, r_slow, strict=True):
            assert not np.shares_memory(x, fast.dws) and not np.shares_memory(x, fast.wb)
            np.testing.assert_array_equal(x, y)
        for field in ("hg", "dhg", "com", "dvcom_dq", "ws", "wb"):
            np.testing.assert_array_equal(getattr(fast, field), getattr(slow, field))
        assert fast.kinematics_derivatives is False
    twin = model_name == "every_joint"
    assert (fast.fast_entries.compute_centroidal_dynamics_derivatives is fastcall._ordinary) == twin
    a1 = rbda.compute_centroidal_dynamics_derivatives(model, fast, q, v, a)[0]
    assert not np.shares_memory(a1, rbda.compute_centroidal_dynamics_derivatives(model, fast, q, v, a)[0])


def test_centroidal_dynamics_derivatives_of_a_massless_model_raise_through_the_entry():
    model = rbda.Model()
    model.add_joint(0, rbda.JointModelRX(), rbda.SE3.Identity(), "j")
    data = model.create_data()
    z = np.zeros(1)
    for _ in range(2):
        with pytest.raises(ValueError, match="no mass"):
            rbda.compute_centroidal_dynamics_derivatives(model, data, z, z, z)
