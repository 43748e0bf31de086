"""rbda.jax's compiled path (XLA FFI custom calls of rbda's kernels): the structs the handler reads are declared
as the installed C header declares them (field names, order and types parsed from the header); jitted rnea/aba and their Jacobians run
without a host callback and equal plain rbda and its derivatives; vmap maps onto one batched host call; bad
values raise rbda's message naming the argument. The values and derivatives are also checked, on every random
model, by tests/bridges/test_jax.py, which now runs through this path."""

import ctypes
import re
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import rbda  # noqa: E402
import rbda.jax as rj  # noqa: E402
from rbda import _primitives  # noqa: E402
from rbda._native import xla_ffi as _ffi
from rbda.jax import _compiled  # noqa: E402
from tests.conftest import assert_close, random_model, random_state  # noqa: E402

jax.config.update("jax_enable_x64", True)
HEADER = Path(jax.ffi.include_dir()) / "xla" / "ffi" / "api" / "c_api.h"


def _header_fields(struct: str) -> list[tuple[str, str]]:
    """``(C type, name)`` of each field of ``struct XLA_FFI_...`` in the installed c_api.h, in order."""
    text = HEADER.read_text()
    body = re.search(r"struct %s \{(.*?)\n\}[ \w]*;" % struct, text, re.S)
    fields = []
    for line in body.group(1).splitlines():
        line = line.split("//")[0].strip()
        if not line.endswith(";"):
            continue
        macro = re.fullmatch(r"_XLA_FFI_API_STRUCT_FIELD\((\w+)\);", line)  # fn_type* fn_type
        if macro:
            fields.append((macro.group(1) + "*", macro.group(1)))
            continue
        c_type, name = re.fullmatch(r"(?:const |struct )*([\w ]+?\**)\s*(\w+);", line).groups()
        fields.append((c_type.replace(" ", ""), name))
    return fields


def _expected_ctype(c_type: str):
    """The ctypes type of the header's ``c_type`` (LP64; enums are int)."""
    text = HEADER.read_text()
    if c_type.endswith("*"):
        return ctypes.c_void_p
    plain = {"size_t": ctypes.c_size_t, "int64_t": ctypes.c_int64, "int": ctypes.c_int, "uint32_t": ctypes.c_uint32}
    if c_type in plain:
        return plain[c_type]
    if re.search(r"typedef enum \{[^}]*\} %s;" % c_type, text):
        return ctypes.c_int32
    alias = re.search(r"typedef (\w+) %s;" % c_type, text)
    if alias:
        return plain[alias.group(1)]
    return _ffi.STRUCTS.get(c_type, c_type)


def test_structs_are_declared_as_the_header_declares_them():
    """Every struct the handler reads is declared (rbda/_native/xla_ffi.py) with the header's field names, order
    and C types (XLA_FFI_Api: its leading fields, up to the one function the handler calls), so that the offsets
    ctypes gives them are the header's; the API version and the enum values used are the header's."""
    for name, struct in _ffi.STRUCTS.items():
        declared = [(f, t) for f, t in struct._fields_]
        header = _header_fields(name)
        if name == "XLA_FFI_Api":
            header = header[:len(declared)]
        assert [f for f, _ in declared] == [f for _, f in header], name
        for (field, t), (c_type, _) in zip(declared, header):
            expected = _expected_ctype(c_type)
            if c_type == "XLA_FFI_TypeId":  # a struct of one int64_t
                assert [c for c, _ in _header_fields("XLA_FFI_TypeId")] == ["int64_t"]
                expected = ctypes.c_int64
            assert t is expected, f"{name}.{field}: declared {t}, the header's {c_type}"
    assert _header_fields("XLA_FFI_Api")[4][1] == "XLA_FFI_Error_Create"
    frame = _ffi.STRUCTS["XLA_FFI_CallFrame"]
    assert _ffi.FRAME_ARGS == frame.args.offset and _ffi.BUFFER_DATA == _ffi.STRUCTS["XLA_FFI_Buffer"].data.offset
    assert _ffi.FRAME_WORDS * 8 == ctypes.sizeof(frame)
    text = HEADER.read_text()
    assert int(re.search(r"#define XLA_FFI_API_MAJOR (\d+)", text).group(1)) == _ffi.API_MAJOR
    assert int(re.search(r"#define XLA_FFI_API_MINOR (\d+)", text).group(1)) == _ffi.API_MINOR
    assert re.search(r"XLA_FFI_Extension_Metadata = (\d+)", text).group(1) == str(_ffi.EXTENSION_METADATA)
    assert re.search(r"XLA_FFI_Error_Code_INVALID_ARGUMENT = (\d+)", text).group(1) == str(_ffi.INVALID_ARGUMENT)
    assert re.search(r"XLA_FFI_AttrType_SCALAR = (\d+)", text).group(1) == str(_ffi.ATTR_SCALAR)
    assert re.search(r"XLA_FFI_DataType_S64 = (\d+)", text).group(1) == str(_ffi.DTYPE_S64)


def test_a_declaration_unlike_the_header_fails_the_check(monkeypatch):
    """The check above can fail: a declaration with a field's type changed is caught."""
    wrong = type("XLA_FFI_Buffer", (ctypes.Structure,), {"_fields_": [
        (f, ctypes.c_int64 if f == "dtype" else t) for f, t in _ffi.STRUCTS["XLA_FFI_Buffer"]._fields_]})
    monkeypatch.setitem(_ffi.STRUCTS, "XLA_FFI_Buffer", wrong)
    with pytest.raises(AssertionError, match="XLA_FFI_Buffer.dtype"):
        test_structs_are_declared_as_the_header_declares_them()


MODELS = {"manipulator": rbda.sample_models.manipulator, "humanoid": rbda.sample_models.humanoid,
          "random free flyer": lambda: random_model(1, True), "random tree": lambda: random_model(2, False)}


@pytest.fixture(params=list(MODELS), scope="module")
def compiled_model(request):
    return MODELS[request.param]()


def _primitive_names(fn, *x) -> str:
    return str(jax.make_jaxpr(fn)(*x))


@pytest.mark.parametrize("name", ["rnea", "aba"])
def test_jit_value_and_jacobians_run_in_xla(compiled_model, name):
    """On a model of every kind of joint (random trees, a free flyer), jit(rnea/aba) has an ffi_call and no host
    callback, equals plain rbda to 1e-12, and jacfwd/jacrev equal rbda's derivatives: exactly in v, a/tau;
    in q, the ambient Jacobian times K(q) = d(q (+) v)/dv (the configuration map) equals rbda's tangent one."""
    model = compiled_model
    assert _compiled.eligible(model, jnp.float64)
    data = model.create_data()
    q, v, a = random_state(model, 11)
    f = lambda q, v, a: getattr(rj, name)(model, q, v, a)  # noqa: E731
    text = _primitive_names(f, q, v, a) + _primitive_names(jax.jacfwd(f, argnums=(0, 1, 2)), q, v, a)
    assert "ffi_call" in text and "pure_callback" not in text
    expected = np.array(getattr(rbda, name)(model, data, q, v, a))
    assert_close(jax.jit(f)(q, v, a), expected, 1e-12)
    derivatives = rbda.compute_rnea_derivatives if name == "rnea" else rbda.compute_aba_derivatives
    dq, dv, da = [np.array(x) for x in derivatives(model, data, q, v, a)]
    K = _primitives.configuration_map(model, q[None])[0]
    for jac in (jax.jacfwd, jax.jacrev):
        Jq, Jv, Ja = jax.jit(jac(f, argnums=(0, 1, 2)))(q, v, a)
        np.testing.assert_array_equal(Jv, dv)
        np.testing.assert_array_equal(Ja, da)
        assert_close(np.asarray(Jq) @ K, dq, 1e-12)


def test_integrate_runs_in_xla(compiled_model):
    """jit(integrate) has no host callback and equals rbda.integrate; its ambient Jacobians equal K(y) times
    rbda's d_integrate (times T(q) for q, checked as J_q K(q) = K(y) d_integrate_q, T K = I)."""
    model = compiled_model
    q, v, _ = random_state(model, 15)
    f = lambda q, v: rj.integrate(model, q, v)  # noqa: E731
    text = _primitive_names(f, q, v) + _primitive_names(jax.jacfwd(f, argnums=(0, 1)), q, v)
    assert "ffi_call" in text and "pure_callback" not in text
    y = rbda.integrate(model, q, v)
    assert_close(jax.jit(f)(q, v), y, 1e-12)
    Dq, Dv = rbda.d_integrate(model, q, v)
    Ky, Kq = (_primitives.configuration_map(model, x[None])[0] for x in (y, q))
    for jac in (jax.jacfwd, jax.jacrev):
        Jq, Jv = jax.jit(jac(f, argnums=(0, 1)))(q, v)
        assert_close(Jv, Ky @ Dv, 1e-12)
        assert_close(np.asarray(Jq) @ Kq, Ky @ Dq, 1e-12)


def test_center_of_mass_runs_in_xla(compiled_model):
    """jit(center_of_mass) has no host callback and equals rbda.center_of_mass; its ambient Jacobian times K(q)
    equals rbda's jacobian_center_of_mass."""
    model = compiled_model
    data = model.create_data()
    q = random_state(model, 16)[0]
    f = lambda q: rj.center_of_mass(model, q)  # noqa: E731
    text = _primitive_names(f, q) + _primitive_names(jax.jacfwd(f), q)
    assert "ffi_call" in text and "pure_callback" not in text
    assert_close(jax.jit(f)(q), rbda.center_of_mass(model, data, q), 1e-12)
    K = _primitives.configuration_map(model, q[None])[0]
    for jac in (jax.jacfwd, jax.jacrev):
        assert_close(np.asarray(jax.jit(jac(f))(q)) @ K, rbda.jacobian_center_of_mass(model, data, q), 1e-12)


def test_tangent_and_ambient_maps_are_the_primitives_ones():
    """The jnp maps of the JVP equal _primitives.tangent_map and configuration_map (the callback path's) on a
    model with free flyer, spherical, planar and unbounded revolute joints, also slightly off the unit sphere."""
    model = random_model(3, True)
    rng = np.random.default_rng(12)
    q = rbda.random_configuration(model, rng=rng) * (1 + 1e-7)
    dq, v = rng.normal(size=model.nq), rng.normal(size=model.nv)
    T, K = _primitives.tangent_map(model, q[None])[0], _primitives.configuration_map(model, q[None])[0]
    assert model.nq > model.nv
    assert_close(jax.jit(lambda q, dq: _compiled.tangent_velocity(model, q, dq))(q, dq), T @ dq, 1e-12)
    assert_close(jax.jit(lambda q, v: _compiled.ambient_rate(model, q, v))(q, v), K @ v, 1e-12)


def test_vmap_of_the_compiled_path_is_one_batched_host_call(monkeypatch):
    """vmap outside jit (the custom call's batching rule) runs rbda.batch once for the value and once for the
    Jacobians, and equals it."""
    model = random_model(1, True)
    B, rng = 4, np.random.default_rng(13)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    V, A = rng.normal(size=(2, B, model.nv))
    calls = []
    for fn_name in ("evaluate", "jacobians"):
        original = getattr(_primitives, fn_name)
        monkeypatch.setattr(_primitives, fn_name,
                            lambda p, m, *X, _f=original, **kw: calls.append(X[0].shape[0]) or _f(p, m, *X, **kw))
    f = jax.jit(lambda q, v, a: rj.rnea(model, q, v, a))
    assert_close(jax.vmap(f)(Q, V, A), rbda.batch.rnea(model, Q, V, A), 1e-12)
    assert calls == [B]
    calls.clear()
    J = jax.vmap(jax.jacfwd(f, argnums=1))(Q, V, A)
    assert calls == [B]
    assert_close(J, rbda.batch.compute_rnea_derivatives(model, Q, V, A)[1], 1e-12)


@pytest.mark.parametrize("name", ["rnea", "aba"])
def test_bad_values_raise_rbdas_message(name):
    """A NaN (in each argument) or a non-unit quaternion under jit, in the value and in the Jacobians' custom
    call, raises rbda's message naming the function and the argument."""
    model = random_model(1, True)
    q, v, a = random_state(model, 14)
    third = "a" if name == "rnea" else "tau"
    f = jax.jit(lambda q, v, a: getattr(rj, name)(model, q, v, a))
    g = jax.jit(jax.jacfwd(lambda q, v, a: getattr(rj, name)(model, q, v, a), argnums=1))
    for fn in (f, g):
        for k, arg in enumerate(("q", "v", third)):
            x = [q, v, a]
            x[k] = x[k].copy()
            x[k][0] = np.nan
            with pytest.raises(jax.errors.JaxRuntimeError,
                               match=rf"INVALID_ARGUMENT: ValueError: rbda\.jax\.{name}: {arg}: contains non-finite"):
                np.asarray(fn(*x))
        bad = q.copy()
        bad[3:7] *= 1.1  # the free flyer's quaternion
        with pytest.raises(jax.errors.JaxRuntimeError, match=rf"rbda\.jax\.{name}: q: is not a valid configuration"):
            np.asarray(fn(bad, v, a))
    assert np.all(np.isfinite(f(q, v, a)))  # the target still serves good calls


def test_crba_runs_in_xla(compiled_model):
    """jit(crba) has no host callback and equals rbda.crba; its ambient Jacobian times K(q) equals rbda's
    dM/dq (``dtau_dadq`` of the second-order RNEA derivatives), and a central difference on the manifold."""
    model = compiled_model
    data = model.create_data()
    q = random_state(model, 17)[0]
    f = lambda q: rj.crba(model, q)  # noqa: E731
    text = _primitive_names(f, q) + _primitive_names(jax.jacfwd(f), q)
    assert "ffi_call" in text and "pure_callback" not in text
    assert_close(jax.jit(f)(q), rbda.crba(model, data, q), 1e-12)
    z = np.zeros(model.nv)
    dM = np.array(rbda.compute_rnea_second_order_derivatives(model, data, q, z, z)[3])
    K = _primitives.configuration_map(model, q[None])[0]
    for jac in (jax.jacfwd, jax.jacrev):
        assert_close(np.asarray(jax.jit(jac(f))(q)) @ K, dM, 1e-12)
    eps, k = 1e-6, model.nv - 1
    dq = np.eye(model.nv)[k] * eps
    fd = (rbda.crba(model, data, rbda.integrate(model, q, dq)).copy()
          - rbda.crba(model, data, rbda.integrate(model, q, -dq)).copy()) / (2 * eps)
    assert_close(dM[:, :, k], fd, 1e-6)


@pytest.mark.parametrize("name", ["forward_kinematics", "frames_forward_kinematics", "frame_placement"])
def test_placements_run_in_xla(compiled_model, name):
    """jit of the placement functions has no host callback and equals rbda's placements; the ambient Jacobian
    (jacfwd, jacrev) times K(q) equals the host path's (rbda's world joint Jacobians) and a central difference
    on the manifold, column by column."""
    model = compiled_model
    data = model.create_data()
    q = random_state(model, 18)[0]
    static = (model.nframes - 1,) if name == "frame_placement" else ()
    f = lambda q: getattr(rj, name)(model, q, *static)  # noqa: E731
    text = _primitive_names(f, q) + _primitive_names(jax.jacfwd(f), q)
    assert "ffi_call" in text and "pure_callback" not in text
    rbda.frames_forward_kinematics(model, data, q)
    expected = {"forward_kinematics": data.oMi.array, "frames_forward_kinematics": data.oMf.array,
                "frame_placement": data.oMf.array[model.nframes - 1]}[name]
    assert_close(jax.jit(f)(q), expected, 1e-12)
    K = _primitives.configuration_map(model, q[None])[0]
    p = _primitives.PRIMITIVES[name]
    host = _primitives.jacobians(p, model, q[None], static=static, ambient=False)[1][0]
    for jac in (jax.jacfwd, jax.jacrev):
        J = np.asarray(jax.jit(jac(f))(q)) @ K
        assert_close(J.reshape(-1, model.nv), host, 1e-12)
    eps = 1e-6
    for k in range(model.nv):
        dq = np.eye(model.nv)[k] * eps
        P = [np.asarray(jax.jit(f)(rbda.integrate(model, q, s * dq))) for s in (1, -1)]
        assert_close(J[..., k], (P[0] - P[1]) / (2 * eps), 1e-7)


def test_vmap_of_crba_and_placements_is_one_batched_host_call():
    """vmap of jit(jacfwd(crba)) and of jit(jacfwd(frame_placement)) equals the single calls, state by state."""
    model = random_model(1, True)
    rng = np.random.default_rng(19)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(3)])
    for f in (lambda q: rj.crba(model, q), lambda q: rj.frame_placement(model, q, model.nframes - 1)):
        g = jax.jit(jax.jacfwd(f))
        batched = jax.jit(jax.vmap(g))(Q)
        for b in range(3):
            assert_close(batched[b], g(Q[b]), 1e-12)


@pytest.mark.parametrize("name", ["crba", "frames_forward_kinematics"])
def test_bad_configuration_raises_rbdas_message(name):
    """A NaN or a non-unit quaternion in q under jit (value and JVP) raises rbda's message naming the function."""
    model = random_model(1, True)
    q = random_state(model, 20)[0]
    f = lambda q: getattr(rj, name)(model, q)  # noqa: E731
    for fn in (jax.jit(f), jax.jit(jax.jacfwd(f))):
        bad = q.copy()
        bad[0] = np.nan
        with pytest.raises(jax.errors.JaxRuntimeError,
                           match=rf"INVALID_ARGUMENT: ValueError: rbda\.jax\.{name}: q: contains non-finite"):
            np.asarray(fn(bad))
        bad = q.copy()
        bad[3:7] *= 1.1
        with pytest.raises(jax.errors.JaxRuntimeError, match=rf"rbda\.jax\.{name}: q: is not a valid configuration"):
            np.asarray(fn(bad))


def test_concrete_calls_run_a_kept_jit_and_see_model_edits():
    """Concrete (untraced) float64 calls: the first runs the host path, the next ones a jitted function kept
    per model; both equal plain rbda; an in-place edit of the model (gravity) is seen at the next call; a NaN
    raises rbda's own ValueError (not a JAX runtime error), also once the jitted function exists."""
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q, v, a = random_state(model, 26)
    key = ("rnea", id(model), ())
    for _ in range(3):
        assert_close(rj.rnea(model, jnp.asarray(q), v, a), rbda.rnea(model, data, q, v, a), 1e-12)
    assert rj._jitted[key][3] is not None
    jitted = rj._jitted[key][3]
    model.gravity.linear[:] = [0.0, 0.0, -1.0]
    assert_close(rj.rnea(model, q, v, a), rbda.rnea(model, data, q, v, a), 1e-12)  # host path: the model changed
    assert_close(rj.rnea(model, q, v, a), rbda.rnea(model, data, q, v, a), 1e-12)
    assert rj._jitted[key][3] is not jitted
    bad = q.copy()
    bad[0] = np.nan
    with pytest.raises(ValueError, match=r"rbda\.jax\.rnea: q: .*NaN"):
        rj.rnea(model, bad, v, a)
    M = rj.crba(model, q)
    assert_close(rj.crba(model, q), M, 0.0)  # the second call: the jitted path, equal to the host path's
    assert isinstance(M, jax.Array)


def _contacts(model, kinds):
    """Constraints at the last frames of ``model``: one per kind, with a Baumgarte corrector (q, v enter)."""
    cms = []
    for k, kind in enumerate(kinds):
        f = model.frames[model.nframes - 1 - 2 * k]
        cm = rbda.RigidConstraintModel(kind, model, f.parent_joint, f.placement, 0, rbda.SE3(), rbda.LOCAL)
        cm.set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(Kp=5.0, Kd=1.0))
        cms.append(cm)
    return cms


@pytest.mark.parametrize("name", ["constraint_dynamics", "constraint_forces"])
def test_constrained_dynamics_runs_in_xla(name):
    """jit(constraint_dynamics / constraint_forces) has no host callback and equals plain rbda (ddq, lambda);
    jacfwd and jacrev equal compute_constraint_dynamics_derivatives (q through K(q)), on a free-flyer tree with
    a 3D contact and a fixed-base arm with a 6D weld; vmap equals the single calls."""
    for model, kinds in ((random_model(1, True), [rbda.CONTACT_3D]),
                         (rbda.sample_models.manipulator(), [rbda.CONTACT_6D])):
        cms = _contacts(model, kinds)
        q, v, tau = random_state(model, 27)
        f = lambda q, v, tau: getattr(rj, name)(model, q, v, tau, cms)  # noqa: E731
        text = _primitive_names(f, q, v, tau) + _primitive_names(jax.jacfwd(f, argnums=(0, 1, 2)), q, v, tau)
        assert "ffi_call" in text and "pure_callback" not in text
        data, cds = model.create_data(), [cm.create_data() for cm in cms]
        ddq = rbda.constraint_dynamics(model, data, q, v, tau, cms, cds).copy()
        expected = data.lambda_c.copy() if name == "constraint_forces" else ddq
        d = [np.array(x) for x in rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds)]
        d = d[3:] if name == "constraint_forces" else d[:3]
        assert_close(jax.jit(f)(q, v, tau), expected, 1e-10)
        K = _primitives.configuration_map(model, q[None])[0]
        for jac in (jax.jacfwd, jax.jacrev):
            Jq, Jv, Jt = jax.jit(jac(f, argnums=(0, 1, 2)))(q, v, tau)
            assert_close(np.asarray(Jq) @ K, d[0], 1e-10)
            assert_close(Jv, d[1], 1e-10)
            assert_close(Jt, d[2], 1e-10)
        rng = np.random.default_rng(28)
        Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(2)])
        V, T = rng.normal(size=(2, 2, model.nv))
        batched = jax.jit(jax.vmap(f))(Q, V, T)
        for b in range(2):
            assert_close(batched[b], jax.jit(f)(Q[b], V[b], T[b]), 1e-10)


def test_constrained_bad_values_raise_rbdas_message():
    """A NaN in tau, and a redundant set (the same 6D weld twice, mu = 0), under jit raise rbda's messages."""
    model = rbda.sample_models.manipulator()
    q, v, tau = random_state(model, 29)
    cms = _contacts(model, [rbda.CONTACT_6D])
    f = jax.jit(lambda q, v, tau: rj.constraint_dynamics(model, q, v, tau, cms))
    bad = tau.copy()
    bad[0] = np.nan
    with pytest.raises(jax.errors.JaxRuntimeError,
                       match=r"rbda\.jax\.constraint_dynamics: tau: contains non-finite"):
        np.asarray(f(q, v, bad))
    twice = jax.jit(lambda q, v, tau: rj.constraint_dynamics(model, q, v, tau, cms + cms))
    with pytest.raises(jax.errors.JaxRuntimeError, match=r"rbda\.jax\.constraint_dynamics: contact_models: .*redundant"):
        np.asarray(twice(q, v, tau))


def test_concrete_constrained_calls_see_constraint_edits():
    """Concrete constraint_dynamics calls (the jitted path from the second call) equal plain rbda, also after a
    constraint's Baumgarte gains are edited in place (the stamp of its packed rows changes)."""
    model = rbda.sample_models.manipulator()
    cms = _contacts(model, [rbda.CONTACT_6D])
    q, v, tau = random_state(model, 31)

    def plain():
        return rbda.constraint_dynamics(model, model.create_data(), q, v, tau, cms, [cm.create_data() for cm in cms])

    for _ in range(3):
        assert_close(rj.constraint_dynamics(model, q, v, tau, cms), plain(), 1e-10)
    assert any(k[0] == "constraint_dynamics" and k[1] == id(model) and e[3] is not None for k, e in rj._jitted.items())
    cms[0].set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(Kp=50.0, Kd=3.0))
    for _ in range(2):
        assert_close(rj.constraint_dynamics(model, q, v, tau, cms), plain(), 1e-10)


@pytest.mark.parametrize("rf", list(rbda.ReferenceFrame), ids=[f.name for f in rbda.ReferenceFrame])
def test_frame_jacobian_runs_in_xla(compiled_model, rf):
    """jit(frame_jacobian) has no host callback (rbda_kinematics and jnp) and equals compute_frame_jacobian;
    jacfwd and jacrev times K(q) equal the host path's dJ/dq (rbda's kinematic Hessians moved to the frame);
    vmap of jacfwd equals the single calls."""
    model = compiled_model
    if not _compiled.eligible(model, jnp.float64, "frame_jacobian"):
        pytest.skip("a model with non-constant motion subspaces: the host path")
    q = random_state(model, 32)[0]
    frame = model.nframes - 1
    f = lambda q: rj.frame_jacobian(model, q, frame, rf)  # noqa: E731
    text = _primitive_names(f, q) + _primitive_names(jax.jacfwd(f), q)
    assert "ffi_call" in text and "pure_callback" not in text
    assert_close(jax.jit(f)(q), rbda.compute_frame_jacobian(model, model.create_data(), q, frame, rf), 1e-12)
    K = _primitives.configuration_map(model, q[None])[0]
    p = _primitives.PRIMITIVES["frame_jacobian"]
    host = _primitives.jacobians(p, model, q[None], static=(frame, int(rf)), ambient=False)[1][0]
    for jac in (jax.jacfwd, jax.jacrev):
        assert_close((np.asarray(jax.jit(jac(f))(q)) @ K).reshape(-1, model.nv), host, 1e-12)
    Q = np.stack([q, rbda.random_configuration(model, rng=np.random.default_rng(33))])
    batched = jax.jit(jax.vmap(jax.jacfwd(f)))(Q)
    for b in range(2):
        assert_close(batched[b], jax.jit(jax.jacfwd(f))(Q[b]), 1e-12)


def test_kept_jits_are_bounded_and_free_their_models():
    """The jitted functions kept for concrete calls hold their models (JAX keeps the traces' closures): the table
    keeps the most recently used few, so a loop over many models does not keep them all alive."""
    import gc
    import weakref

    refs = []
    for k in range(rj._JITTED_KEPT + 8):
        model = rbda.sample_models.manipulator()
        q, v, a = random_state(model, 28)
        for _ in range(3):
            rj.rnea(model, q, v, a)
        refs.append(weakref.ref(model))
    del model
    gc.collect()
    assert len(rj._jitted) <= rj._JITTED_KEPT
    assert all(r() is None for r in refs[:8])
    assert_close(rj.rnea(refs[-1](), q, v, a), rbda.rnea(refs[-1](), refs[-1]().create_data(), q, v, a), 1e-12)
