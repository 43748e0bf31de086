"""rbda.jax.simulator_step: the value is Simulator.step; jacfwd (the implicit function theorem on the step's
active set) equals central differences of Simulator.step on scenes whose active set does not change under the
perturbation: a box resting on a fixed box pushed gently (four sticking contacts, a redundant set), the same box
sliding (four contacts on the cone boundary), and a pendulum pressed into its upper joint limit (a limit row),
with and without a spring on its hinge;
in q along the motions that keep the contact geometry (horizontal translations and yaw of the box, the
pendulum's angle), on the manifold; bad input raises errors naming it."""

import numpy as np
import pytest

import rbda
from rbda import _primitives
from rbda.io import Box, GeometryModel, GeometryObject
from rbda.simulation import Simulator, add_free_body

jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import rbda.jax as rj  # noqa: E402

jax.config.update("jax_enable_x64", True)
TIGHT = dict(max_iter=5000, absolute_feasibility_tol=1e-12, relative_feasibility_tol=1e-12,
             absolute_complementarity_tol=1e-14, relative_complementarity_tol=1e-12)


def box(mu, lift=0.0):
    """A 10 kg cube of side 0.2 resting on a fixed 2 x 2 x 0.5 box (top at z = 0), or ``lift`` above it."""
    model, cm = rbda.Model(), GeometryModel()
    cm.add_geometry_object(GeometryObject("table", 0, 0, rbda.SE3(np.eye(3), [0.0, 0.0, -0.25]), Box((2.0, 2.0, 0.5))))
    add_free_body(model, cm, "body", Box((0.2, 0.2, 0.2)), 10.0)
    q = rbda.neutral(model)
    q[2] = 0.1 + lift
    return Simulator(model, cm, 1e-3, mu=mu, solver_options=TIGHT, warm_start=False), q


def pendulum(stiffness=0.0):
    """A 1 kg ball on a 0.3 m arm about y, its angle 5e-4 rad past its upper limit 0.5 (a penetration); with
    ``stiffness``, a spring about 0.1 rad on its hinge (implicit in the step)."""
    model = rbda.Model()
    j = model.add_joint(0, rbda.JointModelRY(), rbda.SE3.Identity(), "hinge")
    model.append_body_to_joint(j, rbda.Inertia.FromSphere(1.0, 0.05), rbda.SE3(np.eye(3), [0.3, 0.0, 0.0]))
    model.lower_position_limit[:] = -0.5
    model.upper_position_limit[:] = 0.5
    model.stiffness[:], model.springref[:] = stiffness, 0.1
    return Simulator(model, GeometryModel(), 1e-3, solver_options=TIGHT, warm_start=False), np.array([0.5005])


SCENES = {  # name: (scene, v, tau, q directions (tangent) that keep the contact geometry)
    "box sticking": (lambda: box(0.5), [0.001, 0, 0, 0, 0, 0], [5.0, 2.0, 0, 0, 0, 0.1], [0, 1, 5]),
    "box sliding": (lambda: box(0.2), [0.3, 0.1, 0, 0, 0, 0], [1.0, 0, 0, 0, 0, 0], [0, 1]),
    "box tumbling in the air": (lambda: box(0.2, lift=1.0), [0.3, 0.1, -0.5, 3.0, -2.0, 5.0], [1.0, 0, 0, 0, 0.3, 0.5],
                                range(6)),
    "pendulum at its limit": (pendulum, [0.2], [0.1], [0]),
    "sprung pendulum at its limit": (lambda: pendulum(40.0), [0.2], [20.0], [0]),
}


@pytest.mark.parametrize("name", list(SCENES))
def test_jacobians_against_differences(name):
    scene, v, tau, directions = SCENES[name]
    sim, q = scene()
    model, eps = sim.model, 1e-6
    v, tau = np.array(v, dtype=float), np.array(tau, dtype=float)
    q_next, v_next = sim.step(q, v, tau)
    f = jax.jit(lambda q, v, tau: rj.simulator_step(sim, q, v, tau))
    y = f(q, v, tau)
    np.testing.assert_allclose(y[0], q_next, rtol=0, atol=1e-12)
    np.testing.assert_allclose(y[1], v_next, rtol=0, atol=1e-12)
    if name in ("box sticking", "box sliding"):  # the active set of the scene
        assert sim.contacts.size == 4 and np.all(sim.impulses[2::3] > 0)
        lt, ln = np.linalg.norm(sim.impulses.reshape(4, 3)[:, :2], axis=1), sim.impulses[2::3]
        assert np.all(lt < 0.5 * ln * 0.99) if name == "box sticking" else np.allclose(lt, 0.2 * ln, rtol=1e-8)
    elif name == "box tumbling in the air":  # the free flyer's coordinates and gyroscopic rule, no contact
        assert sim.contacts.size == 0
    else:
        assert sim.row_impulses.size == 1 and sim.row_impulses[0] > 0
    Jqn, Jvn = jax.jit(jax.jacfwd(f, argnums=(0, 1, 2)))(q, v, tau)  # d q_next / d(q, v, tau), d v_next / ...
    K, Kn = (_primitives.configuration_map(model, x[None])[0] for x in (q, q_next))
    Tn = np.linalg.pinv(Kn)  # ambient rates of q_next back to tangent velocities

    def difference(k, e):
        x = [q, v, tau]
        out = []
        for s in (1.0, -1.0):
            y = list(x)
            y[k] = rbda.integrate(model, q, s * eps * e) if k == 0 else x[k] + s * eps * e
            a, b = sim.step(*y)
            out.append((rbda.difference(model, q_next, a), b))
        return (out[0][0] - out[1][0]) / (2 * eps), (out[0][1] - out[1][1]) / (2 * eps)

    for k, cols in ((0, directions), (1, range(model.nv)), (2, range(model.nv))):
        for c in cols:
            e = np.eye(model.nv)[c]
            fq, fv = difference(k, e)
            dq_next = Tn @ (np.asarray(Jqn[k]) @ (K @ e if k == 0 else e))
            dv_next = np.asarray(Jvn[k]) @ (K @ e if k == 0 else e)
            scale = max(1.0, np.abs(fv).max(), np.abs(fq).max())
            np.testing.assert_allclose(dv_next, fv, rtol=0, atol=1e-6 * scale, err_msg=f"{name}: d v_next / d x{k}[{c}]")
            np.testing.assert_allclose(dq_next, fq, rtol=0, atol=1e-6 * scale, err_msg=f"{name}: d q_next / d x{k}[{c}]")


def test_grad_through_two_steps_and_errors():
    """grad of the box's final x through two steps equals a central difference in the push; bad input raises."""
    sim, q = box(0.2)
    v = np.array([0.3, 0.0, 0, 0, 0, 0])

    def final_x(push):
        tau = jnp.zeros(6).at[0].set(push)
        q1, v1 = rj.simulator_step(sim, q, v, tau)
        return rj.simulator_step(sim, q1, v1, tau)[0][0]

    g = jax.grad(final_x)(1.0)
    eps = 1e-4
    fd = (final_x(1.0 + eps) - final_x(1.0 - eps)) / (2 * eps)
    assert abs(g - fd) <= 1e-8 * max(1.0, abs(fd)) and g > 0
    with pytest.raises(TypeError, match="sim"):
        rj.simulator_step(object(), q, v, np.zeros(6))
    with pytest.raises(ValueError, match=r"rbda\.jax\.simulator_step: tau: expected shape"):
        rj.simulator_step(sim, q, v, np.zeros(5))
    with pytest.raises(ValueError, match="one state"):
        rj.simulator_step(sim, np.stack([q, q]), np.stack([v, v]), np.zeros((2, 6)))
    with pytest.raises(ValueError, match=r"rbda\.jax\.simulator_step: .*v"):
        rj.simulator_step(sim, q, np.full(6, np.nan), np.zeros(6))
    bouncy = Simulator(sim.model, sim.collision_model, 1e-3, restitution=0.5)
    with pytest.raises(jax.errors.JaxRuntimeError, match="restitution"):
        jax.jacfwd(lambda t: rj.simulator_step(bouncy, q, v, t)[1])(jnp.zeros(6))


@pytest.mark.parametrize("name", list(SCENES))
def test_casadi_step_equals_the_jax_step(name):
    """rbda.casadi.simulator_step: its value is Simulator.step, its Jacobians (ambient q, CasADi's jacobian of
    each output) equal rbda.jax.simulator_step's jacfwd, which the test above checks against differences."""
    casadi = pytest.importorskip("casadi")
    import rbda.casadi as rc

    scene, v, tau, _ = SCENES[name]
    sim, q = scene()
    v, tau = np.array(v, dtype=float), np.array(tau, dtype=float)
    f = rc.simulator_step(sim)
    q_next, v_next = sim.step(q, v, tau)
    y = f(q, v, tau)
    np.testing.assert_allclose(np.asarray(y[0]).ravel(), q_next, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.asarray(y[1]).ravel(), v_next, rtol=0, atol=1e-12)
    x = [casadi.MX.sym(n, k) for n, k in (("q", sim.model.nq), ("v", sim.model.nv), ("tau", sim.model.nv))]
    out = f(*x)
    jac = casadi.Function("step_jacobians", x, [casadi.jacobian(o, xi) for o in out for xi in x])
    expected = jax.jit(jax.jacfwd(lambda q, v, tau: rj.simulator_step(sim, q, v, tau), argnums=(0, 1, 2)))(q, v, tau)
    for k, J in enumerate(jac(q, v, tau)):
        np.testing.assert_allclose(np.asarray(J), np.asarray(expected[k // 3][k % 3]), rtol=0, atol=1e-9,
                                   err_msg=f"{name}: output {k // 3}, argument {k % 3}")
    with pytest.raises(TypeError, match="sim"):
        rc.simulator_step(object())
    with pytest.raises(RuntimeError, match="v"):
        f(q, np.full(sim.model.nv, np.nan), tau)
