"""Frame Jacobians as bridge functions (rbda.jax.frame_jacobian, rbda.casadi.frame_jacobian): the value is
rbda.compute_frame_jacobian; the derivative dJ/dq (rbda's kinematic Hessians moved to the frame) equals a
central difference on the manifold, and contracted with a velocity it equals rbda's independent Jacobian time
variation (get_frame_jacobian_time_variation), in the three reference frames, on models with free flyers,
spherical/planar joints and mimic joints; Pinocchio's getFrameJacobian where installed."""

import numpy as np
import pytest

import rbda
from rbda import _primitives
from tests.conftest import assert_close, jacobian_along_basis, random_model, random_state

MODELS = {"manipulator": rbda.sample_models.manipulator, "random free flyer": lambda: random_model(1, True),
          "random tree": lambda: random_model(2, False), "mimic": lambda: random_model(1, False, mimic=True)}
FRAMES = list(rbda.ReferenceFrame)


@pytest.fixture(params=list(MODELS), scope="module")
def any_model(request):
    return MODELS[request.param]()


def _derivative(model, q, frame_id, rf):
    """rbda's tangent dJ/dq (6, nv, nv) through the primitive (the host path of both bridges)."""
    p = _primitives.PRIMITIVES["frame_jacobian"]
    return _primitives.jacobians(p, model, q[None], static=(frame_id, int(rf)), ambient=False)[1][0].reshape(
        6, model.nv, model.nv)


@pytest.mark.parametrize("rf", FRAMES, ids=[f.name for f in FRAMES])
def test_derivative_against_differences_and_time_variation(any_model, rf):
    """dJ/dq equals central differences of compute_frame_jacobian along q (+) eps e_k (1e-6 relative), and
    dJ/dq . v equals get_frame_jacobian_time_variation after compute_joint_jacobians_time_variation (1e-10)."""
    model, data = any_model, any_model.create_data()
    q, v, _ = random_state(model, 21)
    for frame_id in (model.nframes - 1, model.nframes // 2):
        dJ = _derivative(model, q, frame_id, rf)
        fd = jacobian_along_basis(lambda q, x: rbda.integrate(model, q, x),
                                  lambda q: rbda.compute_frame_jacobian(model, data, q, frame_id, rf), q, model.nv)
        assert_close(dJ, fd, 1e-6)
        rbda.compute_joint_jacobians_time_variation(model, data, q, v)
        assert_close(dJ @ v, rbda.get_frame_jacobian_time_variation(model, data, frame_id, rf), 1e-10)


jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import rbda.jax as rj  # noqa: E402

jax.config.update("jax_enable_x64", True)


@pytest.mark.parametrize("rf", FRAMES, ids=[f.name for f in FRAMES])
def test_jax_frame_jacobian(any_model, rf):
    """jit equals compute_frame_jacobian; jacfwd and jacrev times K(q) equal rbda's dJ/dq; vmap equals the
    batched rbda.batch.compute_frame_jacobian; the frame may be named."""
    model, data = any_model, any_model.create_data()
    frame_id = model.nframes - 1
    q = random_state(model, 22)[0]
    f = lambda q: rj.frame_jacobian(model, q, frame_id, rf)  # noqa: E731
    assert_close(jax.jit(f)(q), rbda.compute_frame_jacobian(model, data, q, frame_id, rf), 1e-12)
    assert_close(rj.frame_jacobian(model, q, model.frames[frame_id].name, rf), jax.jit(f)(q), 1e-12)
    K = _primitives.configuration_map(model, q[None])[0]
    dJ = _derivative(model, q, frame_id, rf)
    for jac in (jax.jacfwd, jax.jacrev):
        assert_close(np.asarray(jax.jit(jac(f))(q)) @ K, dJ, 1e-12)
    rng = np.random.default_rng(23)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(3)])
    assert_close(jax.jit(jax.vmap(f))(Q), rbda.batch.compute_frame_jacobian(model, Q, frame_id, rf), 1e-12)
    Jv = jax.jit(jax.vmap(jax.jacfwd(f)))(Q)
    for b in range(3):
        Kb = _primitives.configuration_map(model, Q[b:b + 1])[0]
        assert_close(np.asarray(Jv[b]) @ Kb, _derivative(model, Q[b], frame_id, rf), 1e-12)


def test_jax_frame_jacobian_errors():
    """An unknown frame, an id out of range, a bad reference frame, a wrong shape, and a NaN under jit raise
    errors naming what is wrong."""
    model = rbda.sample_models.manipulator()
    q = jnp.zeros(model.nq)
    with pytest.raises(KeyError):
        rj.frame_jacobian(model, q, "no such frame")
    with pytest.raises(ValueError, match="frame_id"):
        rj.frame_jacobian(model, q, model.nframes)
    with pytest.raises((ValueError, TypeError), match="reference_frame"):
        rj.frame_jacobian(model, q, 1, 7)
    with pytest.raises(ValueError, match=r"rbda\.jax\.frame_jacobian: q: expected shape"):
        rj.frame_jacobian(model, jnp.zeros(model.nq + 1), 1)
    with pytest.raises(jax.errors.JaxRuntimeError, match=r"rbda\.jax\.frame_jacobian: .*q.*non-finite"):
        np.asarray(jax.jit(lambda q: rj.frame_jacobian(model, q, 1))(q.at[0].set(jnp.nan)))


def test_casadi_frame_jacobian(any_model):
    """The CasADi function's value is compute_frame_jacobian (6, nv) and casadi.jacobian of it (column-major
    vectorisation) times K(q) is rbda's dJ/dq; a NaN raises rbda's message."""
    casadi = pytest.importorskip("casadi")
    import rbda.casadi as rc
    model, data = any_model, any_model.create_data()
    q = random_state(model, 24)[0]
    K = _primitives.configuration_map(model, q[None])[0]
    frame_id = model.nframes - 1
    for rf in FRAMES:
        f = rc.frame_jacobian(model, frame_id, rf)
        assert_close(np.asarray(f(q)), rbda.compute_frame_jacobian(model, data, q, frame_id, rf), 1e-12)
        qs = casadi.MX.sym("q", model.nq)
        d = np.asarray(casadi.Function("d", [qs], [casadi.jacobian(f(qs), qs)])(q))
        d = d.reshape(model.nv, 6, model.nq).transpose(1, 0, 2) @ K
        assert_close(d, _derivative(model, q, frame_id, rf), 1e-12)
    bad = q.copy()
    bad[0] = np.nan
    with pytest.raises(RuntimeError, match=r"rbda\.casadi\.frame_jacobian: .*q.*non-finite"):
        f(bad)


def test_against_pinocchio():
    """On the manipulator and a random free-flyer tree, the value equals Pinocchio's computeFrameJacobian and
    dJ/dq . v its getFrameJacobianTimeVariation, in the three reference frames."""
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio
    from tests.algorithms.test_against_pinocchio import pinocchio_joint_types
    for model in (rbda.sample_models.manipulator(), random_model(1, True, joints=pinocchio_joint_types())):
        pm = to_pinocchio(model)
        pd = pm.createData()
        q, v, _ = random_state(model, 25)
        frame = model.frames[model.nframes - 1]
        pid = pm.getFrameId(frame.name)
        pin.computeJointJacobiansTimeVariation(pm, pd, q, v)
        pin.updateFramePlacements(pm, pd)
        for rf, prf in zip(FRAMES, (getattr(pin.ReferenceFrame, f.name) for f in FRAMES)):
            J = rj.frame_jacobian(model, q, model.nframes - 1, rf)
            assert_close(J, pin.computeFrameJacobian(pm, pm.createData(), q, pid, prf), 1e-10)
            dJ = _derivative(model, q, model.nframes - 1, rf)
            assert_close(dJ @ v, pin.getFrameJacobianTimeVariation(pm, pd, pid, prf), 1e-10)
