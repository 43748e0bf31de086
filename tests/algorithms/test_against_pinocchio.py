"""Cross-checks against Pinocchio through ``rbda.interop.pinocchio.to_pinocchio``, to 1e-9 relative, on random
trees of every joint type Pinocchio has and on the sample robots. Skipped without ``pin``."""

import numpy as np
import pytest
from conftest import SEEDS, assert_close, random_model, random_state

import rbda
from rbda import LOCAL, LOCAL_WORLD_ALIGNED, WORLD
from rbda.joints import JointType

pin = pytest.importorskip("pinocchio")
from rbda.interop.pinocchio import to_pinocchio, to_pinocchio_joint  # noqa: E402

TOL = 1e-9
# joints whose motion subspace S depends on q (a composite's columns move with its later sub-joints)
Q_DEPENDENT_SUBSPACE = {JointType.UNIVERSAL, JointType.SPHERICAL_ZYX, JointType.COMPOSITE}
FRAMES = (LOCAL, WORLD, LOCAL_WORLD_ALIGNED)
PIN_FRAME = {LOCAL: pin.ReferenceFrame.LOCAL, WORLD: pin.ReferenceFrame.WORLD,
             LOCAL_WORLD_ALIGNED: pin.ReferenceFrame.LOCAL_WORLD_ALIGNED}


def builds_in_pinocchio(joint) -> bool:
    try:
        to_pinocchio_joint(joint)
    except ValueError:
        return False
    return True


def pinocchio_joint_types(with_q_dependent_subspace: bool = True) -> list:
    """Every joint type that Pinocchio's bindings can build (all but the unaligned unbounded revolute); without
    universal, spherical-ZYX and composite joints if asked."""
    excluded = set() if with_q_dependent_subspace else Q_DEPENDENT_SUBSPACE
    return [j for j in rbda.sample_models.all_joint_types() if builds_in_pinocchio(j) and j.type not in excluded]


def has_q_dependent_subspace(model) -> bool:
    return any(j.type in Q_DEPENDENT_SUBSPACE for j in model.joints[1:])


def make_model(case: str) -> rbda.Model:
    if case == "manipulator":
        return rbda.sample_models.manipulator()
    if case == "humanoid":
        return rbda.sample_models.humanoid()
    kind, seed, root = case.split("-")
    joints = pinocchio_joint_types(kind == "all")
    model = random_model(int(seed[4:]), root == "floating", joints)
    model.armature = np.random.default_rng(int(seed[4:])).uniform(0.0, 0.1, model.nv)
    return model


CASES = (["manipulator", "humanoid"]
         + [f"all-seed{s}-{r}" for s in SEEDS for r in ("tree", "floating")]
         + [f"constS-seed{s}-{r}" for s in SEEDS[:2] for r in ("tree", "floating")])


@pytest.fixture(params=CASES)
def models(request):
    """``(model, data, pinocchio model, pinocchio data)``."""
    model = make_model(request.param)
    pmodel = to_pinocchio(model)
    return model, model.create_data(), pmodel, pmodel.createData()


def upper_to_full(A: np.ndarray) -> np.ndarray:
    """Pinocchio fills the upper triangle of M and M^-1 only."""
    U = np.triu(A)
    return U + np.triu(A, 1).T


def test_converter_builds_the_same_sizes(models):
    model, _, pmodel, _ = models
    assert (pmodel.nq, pmodel.nv, pmodel.njoints, pmodel.nframes) == (model.nq, model.nv, model.njoints, model.nframes)
    assert list(pmodel.idx_qs) == list(model.idx_q) and list(pmodel.idx_vs) == list(model.idx_v)
    assert [f.name for f in pmodel.frames] == [f.name for f in model.frames]


def test_converter_rejects_the_unaligned_unbounded_revolute_only():
    rejected = [j for j in rbda.sample_models.all_joint_types() if not builds_in_pinocchio(j)]
    assert [type(j) for j in rejected] == [rbda.JointModelRevoluteUnboundedUnaligned]
    model = rbda.Model()
    model.add_joint(0, rbda.JointModelRevoluteUnboundedUnaligned([1.0, 1.0, 0.0]), rbda.SE3(), "j")
    with pytest.raises(ValueError, match="unbounded"):
        to_pinocchio(model)


def test_dynamics(models):
    model, data, pmodel, pdata = models
    q, v, a = random_state(model)
    tau = np.random.default_rng(1).normal(size=model.nv)
    assert_close(rbda.rnea(model, data, q, v, a), pin.rnea(pmodel, pdata, q, v, a), TOL)
    assert_close(rbda.aba(model, data, q, v, tau), pin.aba(pmodel, pdata, q, v, tau), TOL)
    assert_close(rbda.crba(model, data, q), upper_to_full(pin.crba(pmodel, pdata, q)), TOL)
    assert_close(rbda.compute_minverse(model, data, q), upper_to_full(pin.computeMinverse(pmodel, pdata, q)), TOL)
    assert_close(rbda.nonlinear_effects(model, data, q, v), pin.nonLinearEffects(pmodel, pdata, q, v), TOL)
    assert_close(rbda.compute_generalized_gravity(model, data, q), pin.computeGeneralizedGravity(pmodel, pdata, q), TOL)


def test_dynamics_with_external_forces(models):
    model, data, pmodel, pdata = models
    q, v, a = random_state(model, 2)
    rng = np.random.default_rng(2)
    F = rng.normal(size=(model.njoints, 6))
    F[0] = 0.0
    pf = pin.StdVec_Force()
    for f in F:
        pf.append(pin.Force(f))
    tau = rng.normal(size=model.nv)
    assert_close(rbda.rnea(model, data, q, v, a, F), pin.rnea(pmodel, pdata, q, v, a, pf), TOL)
    assert_close(rbda.aba(model, data, q, v, tau, F), pin.aba(pmodel, pdata, q, v, tau, pf), TOL)
    assert_close(rbda.compute_static_torque(model, data, q, F), pin.computeStaticTorque(pmodel, pdata, q, pf), TOL)


def test_coriolis_matrix(models):
    model, data, pmodel, pdata = models
    # Pinocchio omits the dS/dt term of universal and spherical-ZYX joints in its dJ, hence in its C: compare
    # only on models without them (rbda's C is checked against dM/dt - 2C skew-symmetry on every joint type)
    if has_q_dependent_subspace(model):
        pytest.skip("Pinocchio's C lacks the dS/dt term of universal / spherical-ZYX joints")
    q, v, _ = random_state(model, 3)
    assert_close(rbda.compute_coriolis_matrix(model, data, q, v), pin.computeCoriolisMatrix(pmodel, pdata, q, v), TOL)


def test_forward_kinematics(models):
    model, data, pmodel, pdata = models
    q, v, a = random_state(model, 4)
    rbda.forward_kinematics(model, data, q, v, a)
    pin.forwardKinematics(pmodel, pdata, q, v, a)
    for i in range(1, model.njoints):
        assert_close(data.oMi[i].homogeneous, pdata.oMi[i].homogeneous, TOL)
        assert_close(data.liMi[i].homogeneous, pdata.liMi[i].homogeneous, TOL)
        assert_close(data.v[i], pdata.v[i].vector, TOL)
        assert_close(data.a[i], pdata.a[i].vector, TOL)
        for rf in FRAMES:
            assert_close(rbda.get_classical_acceleration(model, data, i, rf).vector,
                         pin.getClassicalAcceleration(pmodel, pdata, i, PIN_FRAME[rf]).vector, TOL)


def test_frames(models):
    model, data, pmodel, pdata = models
    q, v, a = random_state(model, 5)
    rbda.forward_kinematics(model, data, q, v, a)
    rbda.update_frame_placements(model, data)
    pin.forwardKinematics(pmodel, pdata, q, v, a)
    pin.updateFramePlacements(pmodel, pdata)
    for k in range(model.nframes):
        assert_close(data.oMf[k].homogeneous, pdata.oMf[k].homogeneous, TOL)
        for rf in FRAMES:
            prf = PIN_FRAME[rf]
            assert_close(rbda.get_frame_velocity(model, data, k, rf).vector,
                         pin.getFrameVelocity(pmodel, pdata, k, prf).vector, TOL)
            assert_close(rbda.get_frame_acceleration(model, data, k, rf).vector,
                         pin.getFrameAcceleration(pmodel, pdata, k, prf).vector, TOL)
            assert_close(rbda.get_frame_classical_acceleration(model, data, k, rf).vector,
                         pin.getFrameClassicalAcceleration(pmodel, pdata, k, prf).vector, TOL)


def test_jacobians(models):
    model, data, pmodel, pdata = models
    q, _, _ = random_state(model, 6)
    assert_close(rbda.compute_joint_jacobians(model, data, q), pin.computeJointJacobians(pmodel, pdata, q), TOL)
    pin.updateFramePlacements(pmodel, pdata)
    for rf in FRAMES:
        for i in range(1, model.njoints):
            assert_close(rbda.get_joint_jacobian(model, data, i, rf),
                         pin.getJointJacobian(pmodel, pdata, i, PIN_FRAME[rf]), TOL, f"joint {i} {rf!r}")
        for k in range(model.nframes):
            assert_close(rbda.get_frame_jacobian(model, data, k, rf),
                         pin.getFrameJacobian(pmodel, pdata, k, PIN_FRAME[rf]), TOL, f"frame {k} {rf!r}")


def test_jacobian_time_variations(models):
    model, data, pmodel, pdata = models
    # Pinocchio leaves out the dS/dt term of universal and spherical-ZYX joints in dJ (see test_coriolis_matrix)
    if has_q_dependent_subspace(model):
        pytest.skip("Pinocchio's dJ lacks the dS/dt term of universal / spherical-ZYX joints")
    q, v, _ = random_state(model, 7)
    assert_close(rbda.compute_joint_jacobians_time_variation(model, data, q, v),
                 pin.computeJointJacobiansTimeVariation(pmodel, pdata, q, v), TOL)
    pin.updateFramePlacements(pmodel, pdata)
    for rf in FRAMES:
        for i in range(1, model.njoints):
            assert_close(rbda.get_joint_jacobian_time_variation(model, data, i, rf),
                         pin.getJointJacobianTimeVariation(pmodel, pdata, i, PIN_FRAME[rf]), TOL, f"joint {i} {rf!r}")
        for k in range(model.nframes):
            assert_close(rbda.get_frame_jacobian_time_variation(model, data, k, rf),
                         pin.getFrameJacobianTimeVariation(pmodel, pdata, k, PIN_FRAME[rf]), TOL, f"frame {k} {rf!r}")


def test_configuration_space(models):
    model, _, pmodel, _ = models
    rng = np.random.default_rng(8)
    q0, q1 = rbda.random_configuration(model, rng=rng), rbda.random_configuration(model, rng=rng)
    v = rng.normal(size=model.nv)
    assert_close(rbda.integrate(model, q0, v), pin.integrate(pmodel, q0, v), TOL)
    assert_close(rbda.difference(model, q0, q1), pin.difference(pmodel, q0, q1), TOL)
    assert_close(rbda.neutral(model), pin.neutral(pmodel), 0.0)
    for t in (0.0, 0.3, 1.0):
        assert_close(rbda.interpolate(model, q0, q1, t), pin.interpolate(pmodel, q0, q1, t), TOL)
    assert rbda.distance(model, q0, q1) == pytest.approx(pin.distance(pmodel, q0, q1), rel=TOL)
