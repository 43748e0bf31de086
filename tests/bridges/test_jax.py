"""rbda.jax: values equal the plain and batched functions under jit and vmap; JVPs, VJPs and gradients equal
rbda's analytical derivatives and central differences on the manifold; a rollout loss differentiates; bad input
raises rbda's errors."""

import numpy as np
import pytest

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import rbda  # noqa: E402
import rbda.jax as rj  # noqa: E402
from rbda import _primitives  # noqa: E402
from tests.conftest import assert_close, random_model, random_state  # noqa: E402

jax.config.update("jax_enable_x64", True)

ARGS = {"rnea": ("q", "v", "a"), "aba": ("q", "v", "tau"), "crba": ("q",), "center_of_mass": ("q",),
        "forward_kinematics": ("q",), "frames_forward_kinematics": ("q",), "integrate": ("q", "v")}
FUNCTIONS = list(ARGS)


def _plain(name, model, data, *x):
    """The plain rbda result for one state, as an independent reference."""
    if name == "forward_kinematics":
        rbda.forward_kinematics(model, data, x[0])
        return data.oMi.array.copy()
    if name == "frames_forward_kinematics":
        rbda.frames_forward_kinematics(model, data, x[0])
        return data.oMf.array.copy()
    if name == "integrate":
        return rbda.integrate(model, *x)
    return np.array(getattr(rbda, name)(model, data, *x))


def _state(model, name, seed=0):
    q, v, a = random_state(model, seed)
    return {"q": q, "v": v, "a": a, "tau": a}, [{"q": q, "v": v, "a": a, "tau": a}[k] for k in ARGS[name]]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_values_eager_and_jit_equal_plain(model, name):
    data = model.create_data()
    _, x = _state(model, name)
    expected = _plain(name, model, data, *x)
    fn = getattr(rj, name)
    assert_close(fn(model, *x), expected, 1e-12)
    assert_close(jax.jit(lambda *x: fn(model, *x))(*x), expected, 1e-12)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_jvp_equals_central_differences_on_the_manifold(model, name):
    """jax.jvp along an ambient rate dq = d/de integrate(q, e dv) (and along random dv, da) equals the central
    difference of the plain function through integrate."""
    data = model.create_data()
    rng = np.random.default_rng(1)
    _, x = _state(model, name)
    eps = 1e-6
    for k, arg in enumerate(ARGS[name]):
        d = rng.normal(size=model.nv)
        xp, xm = list(x), list(x)
        if arg == "q":
            xp[k], xm[k] = rbda.integrate(model, x[k], eps * d), rbda.integrate(model, x[k], -eps * d)
            dx = (xp[k] - xm[k]) / (2 * eps)  # the ambient rate of the curve q (+) t d
        else:
            xp[k], xm[k], dx = x[k] + eps * d, x[k] - eps * d, d
        fd = (_plain(name, model, data, *xp) - _plain(name, model, data, *xm)) / (2 * eps)
        tangents = [jnp.zeros_like(jnp.asarray(y)) for y in x]
        tangents[k] = jnp.asarray(dx)
        _, dy = jax.jvp(lambda *y: getattr(rj, name)(model, *y), tuple(jnp.asarray(y) for y in x), tuple(tangents))
        assert_close(dy, fd, 1e-5, f"{name} along {arg}")


def test_frame_placement(model):
    """frame_placement (the frame id static) equals oMf[f] plain, jitted and vmapped; its JVP along an ambient rate
    of integrate equals central differences; a bad frame id raises naming it."""
    data = model.create_data()
    f = model.nframes - 1
    q = random_state(model)[0]
    rbda.frames_forward_kinematics(model, data, q)
    assert_close(jax.jit(lambda q: rj.frame_placement(model, q, f))(q), data.oMf.array[f], 1e-12)
    Q = np.stack([rbda.random_configuration(model, rng=np.random.default_rng(k)) for k in range(3)])
    assert_close(jax.vmap(lambda q: rj.frame_placement(model, q, model.frames[f].name))(Q),
                 rbda.batch.frames_forward_kinematics(model, Q)[:, f], 1e-12)
    eps, d = 1e-6, np.random.default_rng(3).normal(size=model.nv)
    qp, qm = rbda.integrate(model, q, eps * d), rbda.integrate(model, q, -eps * d)
    fd = (_plain("frames_forward_kinematics", model, data, qp)[f]
          - _plain("frames_forward_kinematics", model, data, qm)[f]) / (2 * eps)
    _, dy = jax.jvp(lambda q: rj.frame_placement(model, q, f), (q,), ((qp - qm) / (2 * eps),))
    assert_close(dy, fd, 1e-5)
    with pytest.raises(ValueError, match="frame_id: 999"):
        rj.frame_placement(model, q, 999)


def test_jacobians_are_rbdas_derivatives(model):
    """jacfwd and jacrev give exactly rbda's compute_rnea_derivatives / compute_aba_derivatives in v, a, tau;
    in q, the ambient Jacobian times d(q (+) v)/dv (by differences of integrate) is rbda's tangent one."""
    data = model.create_data()
    q, v, a = random_state(model)
    eps = 1e-7
    K = np.stack([(rbda.integrate(model, q, eps * e) - rbda.integrate(model, q, -eps * e)) / (2 * eps)
                  for e in np.eye(model.nv)], axis=1)  # (nq, nv)
    for name, derivatives in (("rnea", rbda.compute_rnea_derivatives), ("aba", rbda.compute_aba_derivatives)):
        f = jax.jit(lambda q, v, a: getattr(rj, name)(model, q, v, a))
        expected = [np.array(x) for x in derivatives(model, data, q, v, a)]
        for jac in (jax.jacfwd, jax.jacrev):
            Jq, Jv, Ja = jac(f, argnums=(0, 1, 2))(q, v, a)
            np.testing.assert_array_equal(Jv, expected[1])
            np.testing.assert_array_equal(Ja, expected[2])
            assert_close(np.asarray(Jq) @ K, expected[0], 1e-6, name)


def test_grad_is_the_transposed_jacobian():
    model = random_model(2, True)
    data = model.create_data()
    q, v, a = random_state(model, 3)
    w = np.random.default_rng(4).normal(size=model.nv)
    gv, ga = jax.grad(lambda v, a: jnp.dot(w, rj.rnea(model, q, v, a)), argnums=(0, 1))(v, a)
    _, dv, da = rbda.compute_rnea_derivatives(model, data, q, v, a)
    assert_close(gv, dv.T @ w, 1e-12)
    assert_close(ga, da.T @ w, 1e-12)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_vmap_is_one_batched_call(monkeypatch, name):
    """jax.vmap (also of jit, and of a JVP) runs the host once for the whole batch, through rbda.batch, and
    equals it."""
    model = random_model(0, True)
    B = 5
    rng = np.random.default_rng(5)
    X = [np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)]) if arg == "q"
         else rng.normal(size=(B, model.nv)) for arg in ARGS[name]]
    calls = []
    for fn_name in ("evaluate", "jacobians"):
        original = getattr(_primitives, fn_name)
        monkeypatch.setattr(_primitives, fn_name,
                            lambda p, m, *X, _f=original, **kw: calls.append(X[0].shape[0]) or _f(p, m, *X, **kw))
    f = lambda *x: getattr(rj, name)(model, *x)  # noqa: E731
    result = jax.jit(jax.vmap(f))(*X)
    assert calls == [B]
    assert_close(result, getattr(rbda.batch, name)(model, *X), 1e-12)
    calls.clear()
    jax.vmap(lambda *x: jax.jvp(f, x, x)[1])(*X).block_until_ready()
    assert calls == [B]


def test_leading_axes_broadcast():
    model = rbda.sample_models.manipulator()
    Q = np.stack([rbda.random_configuration(model) for _ in range(3)])
    v, A = np.ones(model.nv), np.zeros((3, model.nv))
    assert_close(rj.rnea(model, Q, v, A), rbda.batch.rnea(model, Q, np.tile(v, (3, 1)), A), 1e-12)


def test_rollout_loss_differentiates():
    """A loss through 30 steps of semi-implicit Euler with aba: its gradient with respect to the torques equals
    central differences of the same rollout in plain rbda."""
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    dt, steps = 0.01, 30
    q0 = np.full(model.nv, 0.3)
    target = np.linspace(-0.5, 0.5, model.nv)

    def rollout(tau, aba, q, v):
        for k in range(steps):
            v = v + dt * aba(q, v, tau[k])
            q = q + dt * v
        return q

    def loss_jax(tau):
        q = rollout(tau, lambda q, v, t: rj.aba(model, q, v, t), jnp.asarray(q0), jnp.zeros(model.nv))
        return jnp.sum((q - target) ** 2)

    def loss_plain(tau):
        q = rollout(tau, lambda q, v, t: rbda.aba(model, data, q, v, t).copy(), q0, np.zeros(model.nv))
        return np.sum((q - target) ** 2)

    tau = np.random.default_rng(6).normal(size=(steps, model.nv))
    g = jax.jit(jax.grad(loss_jax))(tau)
    eps = 1e-6
    for k, j in ((0, 0), (5, 3), (29, 5), (17, 2)):
        e = np.zeros_like(tau)
        e[k, j] = eps
        fd = (loss_plain(tau + e) - loss_plain(tau - e)) / (2 * eps)
        assert abs(g[k, j] - fd) <= 1e-6 * max(1.0, abs(fd))
    assert abs(loss_jax(tau) - loss_plain(tau)) <= 1e-12


def test_free_flyer_rollout_differentiates():
    """The humanoid falling for 10 steps (aba, then q (+) dt v on its Lie group): the gradient of its final height
    and of a quaternion entry with respect to the initial velocity equals central differences of the plain
    rollout, and the quaternion stays unit (the ambient derivatives of integrate keep it on the manifold)."""
    model = rbda.sample_models.humanoid()
    data = model.create_data()
    dt, steps = 0.01, 10
    q0 = rbda.random_configuration(model, rng=np.random.default_rng(7))
    tau = np.zeros(model.nv)

    def rollout(v0, aba, integrate, q):
        v = v0
        for _ in range(steps):
            v = v + dt * aba(q, v, tau)
            q = integrate(q, dt * v)
        return q

    def final_jax(v0):
        return rollout(v0, lambda q, v, t: rj.aba(model, q, v, t), lambda q, v: rj.integrate(model, q, v),
                       jnp.asarray(q0))

    def final_plain(v0):
        return rollout(v0, lambda q, v, t: rbda.aba(model, data, q, v, t).copy(),
                       lambda q, v: rbda.integrate(model, q, v), q0)

    v0 = np.random.default_rng(8).normal(size=model.nv)
    J = jax.jit(jax.jacrev(final_jax))(v0)  # (nq, nv)
    eps = 1e-6
    for k in (0, 4, 11, 30):
        e = np.zeros(model.nv)
        e[k] = eps
        fd = (final_plain(v0 + e) - final_plain(v0 - e)) / (2 * eps)
        assert_close(J[:, k], fd, 1e-6, f"column {k}")
    assert abs(np.linalg.norm(final_jax(v0)[3:7]) - 1.0) <= 1e-12


def test_float32_inputs_give_float32_results():
    model = rbda.sample_models.manipulator()
    q = jnp.zeros(model.nq, dtype=jnp.float32)
    tau = jax.jit(lambda q: rj.rnea(model, q, q, q))(q)
    assert tau.dtype == jnp.float32
    assert_close(tau, rbda.rnea(model, model.create_data(), np.zeros(6), np.zeros(6), np.zeros(6)), 1e-6)


def test_bad_input():
    model = random_model(0, True)
    q, v, a = random_state(model)
    f = jax.jit(lambda q, v, a: rj.rnea(model, q, v, a))
    with pytest.raises(ValueError, match=rf"rbda\.jax\.rnea: q: expected shape \(\.\.\., {model.nq}\)"):
        f(q[:-1], v, a)
    with pytest.raises(ValueError, match=r"rbda\.jax\.aba: tau: expected shape"):
        jax.grad(lambda t: rj.aba(model, q, v, t).sum())(np.zeros(model.nv + 1))
    with pytest.raises(TypeError, match=r"rbda\.jax\.rnea: v: expected real numbers"):
        rj.rnea(model, q, v.astype(complex), a)
    with pytest.raises(TypeError, match=r"rbda\.jax\.crba: q: expected real numbers, got dtype <U1"):
        rj.crba(model, "q")
    with pytest.raises(TypeError, match=r"rbda\.jax\.crba: q: expected an array of shape"):
        rj.crba(model, [[1.0, 2.0], [1.0]])
    with pytest.raises(ValueError, match=r"leading \(batch\) axes"):
        rj.rnea(model, np.stack([q, q]), np.stack([v, v, v]), a)
    bad = v.copy()
    bad[2] = np.nan
    with pytest.raises(ValueError, match=r"rbda\.jax\.rnea: v: contains non-finite"):
        rj.rnea(model, q, bad, a)  # concrete: rbda's ValueError itself
    with pytest.raises(jax.errors.JaxRuntimeError, match=r"ValueError: rbda\.jax\.rnea: v: contains non-finite"):
        f(q, bad, a).block_until_ready()  # traced: the same message, as the last line of JAX's error
    with pytest.raises(jax.errors.JaxRuntimeError, match=r"ValueError: rbda\.jax\.rnea: state 1: Q: "):
        jax.vmap(lambda q: rj.rnea(model, q, v, a))(np.stack([q, 2.0 * q])).block_until_ready()
