"""rbda.casadi: values equal the plain functions; jacobian() is rbda's analytical derivative and agrees with
central differences on the manifold; a small Opti problem solves with IPOPT; bad input raises rbda's errors."""

import numpy as np
import pytest

casadi = pytest.importorskip("casadi")

import rbda  # noqa: E402
import rbda.casadi as rc  # noqa: E402
from tests.conftest import assert_close, random_model, random_state  # noqa: E402

ARGS = {"rnea": ("q", "v", "a"), "aba": ("q", "v", "tau"), "crba": ("q",), "center_of_mass": ("q",),
        "forward_kinematics": ("q",), "frames_forward_kinematics": ("q",), "integrate": ("q", "v")}


def _plain(name, model, data, *x):
    """The plain rbda result for one state, in the CasADi function's 2-D layout."""
    if name == "forward_kinematics":
        rbda.forward_kinematics(model, data, x[0])
        return data.oMi.array.reshape(-1, 4).copy()
    if name == "frames_forward_kinematics":
        rbda.frames_forward_kinematics(model, data, x[0])
        return data.oMf.array.reshape(-1, 4).copy()
    if name == "integrate":
        return rbda.integrate(model, *x)[:, None]
    y = np.array(getattr(rbda, name)(model, data, *x))
    return y if y.ndim == 2 else y[:, None]


def _symbols(model, name):
    return [casadi.MX.sym(arg, model.nq if arg == "q" else model.nv) for arg in ARGS[name]]


@pytest.mark.parametrize("name", list(ARGS))
def test_values_and_jacobians(model, name):
    """f(x) equals the plain function; the Jacobian through casadi.jacobian along an ambient rate of
    integrate(q, t dv) (and along dv, da) equals central differences of the plain function."""
    data = model.create_data()
    q, v, a = random_state(model)
    x = [{"q": q, "v": v, "a": a, "tau": a}[arg] for arg in ARGS[name]]
    f = getattr(rc, name)(model)
    assert_close(np.asarray(f(*x)), _plain(name, model, data, *x), 1e-12)
    X = _symbols(model, name)
    J = casadi.Function("J", X, [casadi.jacobian(f(*X), s) for s in X])(*x)
    J = J if isinstance(J, (tuple, list)) else [J]
    rng, eps = np.random.default_rng(2), 1e-6
    for k, arg in enumerate(ARGS[name]):
        d = rng.normal(size=model.nv)
        xp, xm = list(x), list(x)
        if arg == "q":
            xp[k], xm[k] = rbda.integrate(model, q, eps * d), rbda.integrate(model, q, -eps * d)
            dx = (xp[k] - xm[k]) / (2 * eps)
        else:
            xp[k], xm[k], dx = x[k] + eps * d, x[k] - eps * d, d
        fd = (_plain(name, model, data, *xp) - _plain(name, model, data, *xm)).ravel(order="F") / (2 * eps)
        assert_close(np.asarray(J[k]) @ dx, fd, 1e-5, f"{name} along {arg}")


def test_frame_placement(model):
    """frame_placement(model, f) equals oMf[f]; its Jacobian along an ambient rate of integrate equals central
    differences; a bad frame id raises naming it."""
    data = model.create_data()
    f = model.nframes - 1
    q = random_state(model)[0]
    g = rc.frame_placement(model, model.frames[f].name)
    rbda.frames_forward_kinematics(model, data, q)
    assert_close(np.asarray(g(q)), data.oMf.array[f], 1e-12)
    x = casadi.MX.sym("q", model.nq)
    J = np.asarray(casadi.Function("J", [x], [casadi.jacobian(g(x), x)])(q))
    eps, d = 1e-6, np.random.default_rng(3).normal(size=model.nv)
    qp, qm = rbda.integrate(model, q, eps * d), rbda.integrate(model, q, -eps * d)
    fd = (_plain("frames_forward_kinematics", model, data, qp)[3 * f:3 * f + 3]
          - _plain("frames_forward_kinematics", model, data, qm)[3 * f:3 * f + 3]) / (2 * eps)
    assert_close(J @ ((qp - qm) / (2 * eps)), fd.ravel(order="F"), 1e-5)
    with pytest.raises(KeyError, match="no frame named 'nowhere'"):
        rc.frame_placement(model, "nowhere")


def test_jacobian_is_rbdas_derivative():
    """jacobian() returns rbda's derivatives exactly in v, a, tau; in q (nq = 41, nv = 36 here) the ambient
    Jacobian times d(q (+) v)/dv (by differences of integrate) is rbda's tangent one."""
    model = random_model(1, False)
    data = model.create_data()
    q, v, a = random_state(model, 3)
    eps = 1e-7
    K = np.stack([(rbda.integrate(model, q, eps * e) - rbda.integrate(model, q, -eps * e)) / (2 * eps)
                  for e in np.eye(model.nv)], axis=1)  # (nq, nv)
    for name, derivatives in (("rnea", rbda.compute_rnea_derivatives), ("aba", rbda.compute_aba_derivatives)):
        f = getattr(rc, name)(model)
        jac = f.jacobian()  # (q, v, a, tau) -> (d/dq, d/dv, d/da)
        Jq, Jv, Ja = (np.asarray(J) for J in jac(q, v, a, np.zeros(model.nv)))
        dq, dv, da = derivatives(model, data, q, v, a)
        np.testing.assert_array_equal(Jv, dv)
        np.testing.assert_array_equal(Ja, da)
        assert Jq.shape == (model.nv, model.nq)
        assert_close(Jq @ K, dq, 1e-6, name)


def test_opti_inverse_kinematics_of_the_com():
    """IPOPT finds q with com(q) at a reachable target (the com of a known configuration), using rbda's
    Jacobian of the CoM."""
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q_true = rbda.random_configuration(model, rng=np.random.default_rng(0))
    target = rbda.center_of_mass(model, data, q_true).copy()
    com = rc.center_of_mass(model)
    opti = casadi.Opti()
    q = opti.variable(model.nq)
    opti.minimize(casadi.sumsqr(q) * 1e-3)
    opti.subject_to(com(q) == target)
    opti.solver("ipopt", {"print_time": False}, {"print_level": 0, "hessian_approximation": "limited-memory",
                                                   "tol": 1e-10, "sb": "yes"})
    q_opt = opti.solve().value(q)
    assert_close(rbda.center_of_mass(model, data, q_opt), target, 1e-8)


def test_bad_input():
    model = random_model(0, True)
    q, v, a = random_state(model)
    f = rc.rnea(model)
    bad = v.copy()
    bad[1] = np.inf
    with pytest.raises(RuntimeError, match=r"rbda\.casadi\.rnea: v: contains non-finite"):
        f(q, bad, a)
    with pytest.raises(RuntimeError, match=r"rbda\.casadi\.rnea: q: .*quaternion"):
        f(q * 2.0, v, a)
    with pytest.raises(RuntimeError, match=r"rbda\.casadi\.rnea: v: contains non-finite"):
        f.jacobian()(q, bad, a, np.zeros(model.nv))
    with pytest.raises(RuntimeError, match=r"Input 0 \(q\) has mismatching shape"):  # CasADi's check names it
        f(q[:-1], v, a)


def test_rnea_exact_hessian_against_differences_and_rbda():
    """The Hessian of w . rnea(q, v, a) that CasADi assembles from the Jacobian's Jacobian equals central
    differences of its gradient (1e-6 relative) and, block by block, rbda's second-order derivatives contracted
    with w; the v-a and a-a blocks are zero. A model with nq != nv offers no second derivative."""
    casadi = pytest.importorskip("casadi")
    import rbda.casadi as rc
    from tests.conftest import assert_close
    model = rbda.sample_models.manipulator()
    rng = np.random.default_rng(30)
    q, v, a, w = rng.normal(size=(4, model.nv))
    f = rc.rnea(model)
    qs, vs, as_ = (casadi.MX.sym(n, model.nv) for n in "qva")
    x = casadi.vertcat(qs, vs, as_)
    L = casadi.dot(w, f(qs, vs, as_))
    Hf = casadi.Function("H", [qs, vs, as_], [casadi.hessian(L, x)[0]])
    H = Hf(q, v, a)
    Gf = casadi.Function("G", [qs, vs, as_], [casadi.gradient(L, x)])
    X, eps, n = np.concatenate([q, v, a]), 1e-6, model.nv
    fd = np.stack([(np.asarray(Gf(*np.split(X + eps * e, 3))) - np.asarray(Gf(*np.split(X - eps * e, 3))))[:, 0]
                   / (2 * eps) for e in np.eye(3 * n)], 1)
    assert_close(np.asarray(H), fd, 1e-6)
    qq, vv, qv, aq = rbda.compute_rnea_second_order_derivatives(model, model.create_data(), q, v, a)
    Hn = np.asarray(H)
    assert_close(Hn[:n, :n], np.einsum("r,rcl->cl", w, qq), 1e-12)
    assert_close(Hn[n:2 * n, n:2 * n], np.einsum("r,rcl->cl", w, vv), 1e-12)
    assert_close(Hn[:n, n:2 * n], np.einsum("r,rcl->cl", w, qv), 1e-12)
    assert_close(Hn[2 * n:, :n], np.einsum("r,rcl->cl", w, aq), 1e-12)
    assert np.all(Hn[n:, 2 * n:] == 0.0) and np.all(Hn[2 * n:, n:2 * n] == 0.0)  # tau is linear in a
    humanoid = rbda.sample_models.humanoid()
    rc.rnea(humanoid).jacobian()
    jacobian = [c for c in rc._alive if isinstance(c, rc._Jacobian) and c.f.model is humanoid][-1]
    assert not jacobian.has_jacobian()
