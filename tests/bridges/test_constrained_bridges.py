"""rbda.jax.constraint_dynamics / constraint_forces and their rbda.casadi twins: values equal plain rbda under jit
and vmap; JVPs, VJPs and CasADi Jacobians equal compute_constraint_dynamics_derivatives and central differences
through integrate, on solo12 (floating base, nq != nv, four 3D feet) and a fixed-base arm (panda) with a 6D weld;
a constrained rollout differentiates; bad constraint lists raise rbda's errors."""

import os

import numpy as np
import pytest

import rbda
from rbda import CONTACT_3D, CONTACT_6D, LOCAL, LOCAL_WORLD_ALIGNED, RigidConstraintModel
from rbda import _primitives
from tests.conftest import assert_close


def _robot(relative: str, floating: bool):
    pin = pytest.importorskip("pinocchio")
    path = os.path.join(os.path.dirname(pin.__file__), *[".."] * 4, "share", "example-robot-data", "robots", relative)
    if not os.path.exists(path):
        pytest.skip(f"example-robot-data's {relative} is not installed")
    return rbda.load_model(os.path.normpath(path), floating_base=floating)


def _contact(model, kind, frame, rf):
    f = model.frames[model.get_frame_id(frame)]
    cm = RigidConstraintModel(kind, model, f.parent_joint, f.placement, 0, rbda.SE3(), rf)
    cm.set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(Kp=5.0, Kd=1.0))  # q, v enter gamma
    return cm


def solo():
    model = _robot("solo_description/robots/solo12.urdf", True)
    return model, [_contact(model, CONTACT_3D, f, LOCAL) for f in ("FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT")]


def arm():
    model = _robot("panda_description/urdf/panda.urdf", False)
    return model, [_contact(model, CONTACT_6D, "panda_hand", LOCAL_WORLD_ALIGNED)]


CASES = {"solo12-4x3D": solo, "panda-6D-weld": arm}


@pytest.fixture(params=list(CASES), scope="module")
def case(request):
    model, cms = CASES[request.param]()
    return model, cms


def _state(model, seed=0):
    rng = np.random.default_rng(seed)
    return rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)


def _plain(model, cms, q, v, tau):
    """``(ddq, lambda, derivatives)`` of plain rbda, the independent reference."""
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    ddq = rbda.constraint_dynamics(model, data, q, v, tau, cms, cds).copy()
    lam = data.lambda_c.copy()
    return ddq, lam, [np.array(d) for d in rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds)]


def _central(model, cms, q, v, tau, dq, dv, dtau, eps=1e-6):
    """Central differences of (ddq, lambda) along (dq tangent through integrate, dv, dtau)."""
    plus = _plain(model, cms, rbda.integrate(model, q, eps * dq), v + eps * dv, tau + eps * dtau)
    minus = _plain(model, cms, rbda.integrate(model, q, -eps * dq), v - eps * dv, tau - eps * dtau)
    return (plus[0] - minus[0]) / (2 * eps), (plus[1] - minus[1]) / (2 * eps)


def _ambient(model, q, dq):
    """The ambient rate d/dt integrate(q, t dq) at t = 0."""
    return _primitives.configuration_map(model, q[None])[0] @ dq


# ------------------------------------------------------------------------------------------------------ JAX
@pytest.fixture(scope="module")
def jx():
    """``(jax, rbda.jax)`` in double precision (skips without JAX)."""
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    import rbda.jax as rj
    return jax, rj


def test_jax_values_jit_vmap(case, jx):
    jax, rj = jx
    model, cms = case
    states = [_state(model, s) for s in range(3)]
    Q, V, TAU = (np.array(x) for x in zip(*states))
    f = jax.jit(lambda q, v, tau: rj.constraint_dynamics(model, q, v, tau, cms))
    g = jax.jit(lambda q, v, tau: rj.constraint_forces(model, q, v, tau, cms))
    for q, v, tau in states:
        ddq, lam, _ = _plain(model, cms, q, v, tau)
        assert_close(rj.constraint_dynamics(model, q, v, tau, cms), ddq, 1e-12)
        assert_close(f(q, v, tau), ddq, 1e-12)
        assert_close(g(q, v, tau), lam, 1e-12)
    ddq_b, lam_b = rbda.batch.constraint_dynamics(model, Q, V, TAU, cms)
    assert_close(jax.vmap(f)(Q, V, TAU), ddq_b, 1e-12)
    assert_close(jax.vmap(g)(Q, V, TAU), lam_b, 1e-12)
    assert_close(jax.jit(jax.vmap(f))(Q, V, TAU), np.array([_plain(model, cms, *s)[0] for s in states]), 1e-10)


def test_jax_jvp_vjp_equal_rbda_derivatives_and_central_differences(case, jx):
    jax, rj = jx
    model, cms = case
    q, v, tau = _state(model, 1)
    rng = np.random.default_rng(2)
    dq, dv, dtau = rng.normal(size=model.nv), rng.normal(size=model.nv), rng.normal(size=model.nv)
    _, _, (ddq_dq, ddq_dv, ddq_dtau, dl_dq, dl_dv, dl_dtau) = _plain(model, cms, q, v, tau)
    fd_ddq, fd_lam = _central(model, cms, q, v, tau, dq, dv, dtau)
    tangent = (_ambient(model, q, dq), dv, dtau)
    for fn, exact, fd in ((rj.constraint_dynamics, (ddq_dq, ddq_dv, ddq_dtau), fd_ddq),
                          (rj.constraint_forces, (dl_dq, dl_dv, dl_dtau), fd_lam)):
        h = jax.jit(lambda q, v, tau: fn(model, q, v, tau, cms))
        _, dy = jax.jvp(h, (q, v, tau), tangent)
        assert_close(dy, exact[0] @ dq + exact[1] @ dv + exact[2] @ dtau, 1e-9)
        scale = max(1.0, np.abs(fd).max())
        assert np.abs(np.asarray(dy) - fd).max() <= 1e-5 * scale
        w = rng.normal(size=dy.shape)  # reverse mode: w^T J equals rbda's, the q part through T(q)^T
        _, pullback = jax.vjp(h, q, v, tau)
        gq, gv, gtau = pullback(w)
        T = _primitives.tangent_map(model, q[None])[0]
        assert_close(gq, T.T @ (exact[0].T @ w), 1e-9)
        assert_close(gv, exact[1].T @ w, 1e-9)
        assert_close(gtau, exact[2].T @ w, 1e-9)


def test_jax_vmapped_jacobian_equals_rbda_per_state(case, jx):
    jax, rj = jx
    model, cms = case
    states = [_state(model, s) for s in range(2)]
    Q, V, TAU = (np.array(x) for x in zip(*states))
    J = jax.vmap(jax.jacfwd(lambda v, q, tau: rj.constraint_dynamics(model, q, v, tau, cms)))(V, Q, TAU)
    for k, s in enumerate(states):
        assert_close(J[k], _plain(model, cms, *s)[2][1], 1e-9)


def test_jax_constrained_rollout_differentiates(jx):
    """A loss through 10 semi-implicit Euler steps of solo12 standing on its four feet (integrate on the free
    flyer's group): its gradient with respect to constant joint torques equals central differences of the
    same rollout in plain rbda."""
    jax, rj = jx
    import jax.numpy as jnp
    model, cms = solo()
    q0, dt, steps = rbda.neutral(model), 0.005, 10
    data = model.create_data()
    rbda.frames_forward_kinematics(model, data, q0)
    for cm, f in zip(cms, ("FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT")):  # the feet held where they are
        cm.joint2_placement = data.oMf[model.get_frame_id(f)]
    target = np.linspace(-0.2, 0.2, model.nv)

    def loss_jax(tau):
        q, v = jnp.asarray(q0), jnp.zeros(model.nv)
        for _ in range(steps):
            v = v + dt * rj.constraint_dynamics(model, q, v, tau, cms)
            q = rj.integrate(model, q, dt * v)
        return jnp.sum((v - target) ** 2)

    def loss_plain(tau):
        q, v = q0, np.zeros(model.nv)
        for _ in range(steps):
            v = v + dt * _plain(model, cms, q, v, tau)[0]
            q = rbda.integrate(model, q, dt * v)
        return np.sum((v - target) ** 2)

    tau = np.random.default_rng(3).normal(size=model.nv)
    grad = np.asarray(jax.jit(jax.grad(loss_jax))(tau))
    eps = 1e-6
    fd = np.array([(loss_plain(tau + eps * e) - loss_plain(tau - eps * e)) / (2 * eps) for e in np.eye(model.nv)])
    assert np.abs(grad - fd).max() <= 1e-6 * max(1.0, np.abs(fd).max())
    assert_close(loss_jax(tau), loss_plain(tau), 1e-12)


def test_jax_bad_input():
    jax = pytest.importorskip("jax")
    import rbda.jax as rj
    model, cms = arm()
    q, v, tau = _state(model)
    with pytest.raises(TypeError, match="contact_models"):
        rj.constraint_dynamics(model, q, v, tau, cms[0])
    with pytest.raises(TypeError, match=r"contact_models\[0\]"):
        rj.constraint_dynamics(model, q, v, tau, ["not a constraint"])
    other, _ = solo()
    with pytest.raises(ValueError, match=r"contact_models\[0\]"):
        rj.constraint_dynamics(other, rbda.neutral(other), np.zeros(other.nv), np.zeros(other.nv), cms)
    with pytest.raises(ValueError, match="tau"):
        jax.jit(lambda q, v, tau: rj.constraint_dynamics(model, q, v, tau, cms))(q, v, tau[:-1])
    with pytest.raises(ValueError, match="q"):
        rj.constraint_dynamics(model, np.full(model.nq, np.nan), v, tau, cms)
    with pytest.raises(Exception, match="q"):  # JaxRuntimeError carrying rbda's ValueError naming q
        jax.jit(lambda q: rj.constraint_dynamics(model, q, v, tau, cms))(np.full(model.nq, np.nan))


# --------------------------------------------------------------------------------------------------- CasADi
def test_casadi_values_and_jacobians(case):
    casadi = pytest.importorskip("casadi")
    import rbda.casadi as rc
    model, cms = case
    q, v, tau = _state(model, 4)
    ddq, lam, (ddq_dq, ddq_dv, ddq_dtau, dl_dq, dl_dv, dl_dtau) = _plain(model, cms, q, v, tau)
    rng = np.random.default_rng(5)
    dq, dv, dtau = rng.normal(size=model.nv), rng.normal(size=model.nv), rng.normal(size=model.nv)
    fd_ddq, fd_lam = _central(model, cms, q, v, tau, dq, dv, dtau)
    T = _primitives.tangent_map(model, q[None])[0]
    qs, vs, ts = casadi.MX.sym("q", model.nq), casadi.MX.sym("v", model.nv), casadi.MX.sym("tau", model.nv)
    for make, y, exact, fd in ((rc.constraint_dynamics, ddq, (ddq_dq, ddq_dv, ddq_dtau), fd_ddq),
                               (rc.constraint_forces, lam, (dl_dq, dl_dv, dl_dtau), fd_lam)):
        f = make(model, cms)
        assert_close(np.array(f(q, v, tau)).ravel(), y, 1e-12)
        out = f(qs, vs, ts)
        jac = casadi.Function("J", [qs, vs, ts], [casadi.jacobian(out, qs), casadi.jacobian(out, vs),
                                                   casadi.jacobian(out, ts)])
        Jq, Jv, Jt = (np.array(j) for j in jac(q, v, tau))
        assert_close(Jq, exact[0] @ T, 1e-9)
        assert_close(Jv, exact[1], 1e-9)
        assert_close(Jt, exact[2], 1e-9)
        dy = Jq @ _ambient(model, q, dq) + Jv @ dv + Jt @ dtau
        assert np.abs(dy - fd).max() <= 1e-5 * max(1.0, np.abs(fd).max())


def test_casadi_bad_input():
    casadi = pytest.importorskip("casadi")
    import rbda.casadi as rc
    model, cms = arm()
    with pytest.raises(TypeError, match="contact_models"):
        rc.constraint_dynamics(model, cms[0])
    with pytest.raises(TypeError, match="prox_settings|ProximalSettings"):
        rc.constraint_dynamics(model, cms, prox_settings="fast")
    f = rc.constraint_dynamics(model, cms)
    with pytest.raises(RuntimeError, match="q"):
        f(np.full(model.nq, np.nan), np.zeros(model.nv), np.zeros(model.nv))


def test_jax_redundant_set_needs_mu(jx):
    """A foot constrained twice: mu = 0 raises rbda's error naming contact_models (eagerly, and under jit inside
    JAX's runtime error); with ProximalSettings(mu > 0) the jitted value equals plain rbda with those settings."""
    jax, rj = jx
    model, cms = solo()
    cms = cms + [cms[0]]
    q, v, tau = _state(model, 6)
    with pytest.raises(ValueError, match="contact_models"):
        rj.constraint_dynamics(model, q, v, tau, cms)
    with pytest.raises(Exception, match="redundant"):
        jax.jit(lambda q: rj.constraint_dynamics(model, q, v, tau, cms))(q)
    settings = rbda.ProximalSettings(1e-12, 1e-6, 50)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    expected = rbda.constraint_dynamics(model, data, q, v, tau, cms, cds, rbda.ProximalSettings(1e-12, 1e-6, 50))
    assert_close(jax.jit(lambda q: rj.constraint_dynamics(model, q, v, tau, cms, settings))(q), expected, 1e-12)


def test_jax_vmap_mimic_model_loops_single_calls(jx):
    """Mimic models: vmap loops single calls (as rbda.batch.constraint_dynamics does for them); values and the
    vmapped ddq_dtau equal plain rbda state by state (a 3D contact on a random tree with mimic joints)."""
    from tests.conftest import random_model
    jax, rj = jx
    model = random_model(1, False, mimic=True)
    rng = np.random.default_rng(0)
    cms = [RigidConstraintModel(CONTACT_3D, model, model.njoints - 1, rbda.SE3.Random(rng), 0, rbda.SE3.Random(rng))]
    settings = rbda.ProximalSettings(1e-12, 1e-8, 100)
    states = [(rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv))
              for _ in range(3)]
    Q, V, TAU = (np.array(x) for x in zip(*states))
    batched = rbda.batch.constraint_dynamics(model, Q, V, TAU, cms, settings)[0]
    ddq = jax.vmap(jax.jit(lambda q, v, t: rj.constraint_dynamics(model, q, v, t, cms, settings)))(Q, V, TAU)
    J = jax.vmap(jax.jacfwd(lambda t, q, v: rj.constraint_dynamics(model, q, v, t, cms, settings)))(TAU, Q, V)
    for k, (q, v, tau) in enumerate(states):
        data, cds = model.create_data(), [cm.create_data() for cm in cms]
        assert_close(ddq[k], rbda.constraint_dynamics(model, data, q, v, tau, cms, cds, settings), 1e-12)
        assert_close(batched[k], data.ddq, 1e-12)
        assert_close(J[k], rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds, settings)[2], 1e-12)
