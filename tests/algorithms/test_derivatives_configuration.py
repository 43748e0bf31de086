"""Derivatives of integrate and difference on every joint type: finite differences on the manifold, group
identities, and Pinocchio's dIntegrate / dDifference / dIntegrateTransport."""

import numpy as np
import pytest
from conftest import SEEDS, assert_close, jacobian_along_basis

import rbda
from rbda import ARG0, ARG1

FD_TOL = 1e-6


def states(model, seed=0):
    rng = np.random.default_rng(seed)
    return (rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv),
            rbda.random_configuration(model, rng=rng))


def test_d_integrate_matches_finite_differences(model):
    q, v, _ = states(model)
    J0, J1 = rbda.d_integrate(model, q, v)
    end = rbda.integrate(model, q, v)
    # measure the variation of the result in the tangent space at the result
    at_end = lambda q_: rbda.difference(model, end, q_)
    assert_close(J0, jacobian_along_basis(lambda x, d: rbda.integrate(model, x, d),
                                          lambda q_: at_end(rbda.integrate(model, q_, v)), q, model.nv), FD_TOL)
    assert_close(J1, jacobian_along_basis(lambda x, d: x + d, lambda v_: at_end(rbda.integrate(model, q, v_)),
                                          v, model.nv), FD_TOL)
    assert_close(rbda.d_integrate(model, q, v, ARG0), J0, 0.0)
    assert_close(rbda.d_integrate(model, q, v, ARG1), J1, 0.0)


def test_d_difference_matches_finite_differences(model):
    q0, _, q1 = states(model, seed=1)
    J0, J1 = rbda.d_difference(model, q0, q1)
    step = lambda x, d: rbda.integrate(model, x, d)
    assert_close(J0, jacobian_along_basis(step, lambda q_: rbda.difference(model, q_, q1), q0, model.nv), FD_TOL)
    assert_close(J1, jacobian_along_basis(step, lambda q_: rbda.difference(model, q0, q_), q1, model.nv), FD_TOL)


def test_lie_group_identities(model):
    q, v, _ = states(model, seed=2)
    # difference(q, integrate(q, v)) == v, so d/dv of it is the identity: J_q1(q, q (+) v) J_v(q, v) == 1
    J1 = rbda.d_integrate(model, q, v, ARG1)
    Jd1 = rbda.d_difference(model, q, rbda.integrate(model, q, v), ARG1)
    assert_close(Jd1 @ J1, np.eye(model.nv), 1e-9)
    # at v = 0 integrate is the identity in both arguments; at q0 == q1 difference has -1 and 1
    z = np.zeros(model.nv)
    for J in rbda.d_integrate(model, q, z):
        assert_close(J, np.eye(model.nv), 1e-12)
    D0, D1 = rbda.d_difference(model, q, q)
    assert_close(D0, -np.eye(model.nv), 1e-12)
    assert_close(D1, np.eye(model.nv), 1e-12)


def test_d_integrate_transport_and_argument_checks():
    model = rbda.sample_models.humanoid()
    q, v, _ = states(model)
    Jin = np.random.default_rng(0).normal(size=(model.nv, 4))
    for arg in (ARG0, ARG1):
        assert_close(rbda.d_integrate_transport(model, q, v, Jin, arg), rbda.d_integrate(model, q, v, arg) @ Jin, 1e-14)
    with pytest.raises(ValueError, match="arg"):
        rbda.d_integrate(model, q, v, 2)
    with pytest.raises(ValueError, match="J: expected shape"):
        rbda.d_integrate_transport(model, q, v, Jin[:-1], ARG0)
    with pytest.raises(ValueError, match="v: expected shape"):
        rbda.d_integrate(model, q, v[:-1])
    bad = q.copy()
    bad[3:7] = [1.0, 1.0, 0.0, 0.0]
    with pytest.raises(ValueError, match="q0: is not a valid configuration"):
        rbda.d_difference(model, bad, q)


@pytest.mark.parametrize("case", ["humanoid"] + [f"all-seed{s}-{r}" for s in SEEDS for r in ("tree", "floating")])
def test_configuration_derivatives_agree_with_pinocchio(case):
    pin = pytest.importorskip("pinocchio")
    from test_against_pinocchio import make_model

    from rbda.interop.pinocchio import to_pinocchio

    model = make_model(case)
    pmodel = to_pinocchio(model)
    q, v, q1 = states(model, seed=3)
    for ours, theirs in zip(rbda.d_integrate(model, q, v) + rbda.d_difference(model, q, q1),
                            pin.dIntegrate(pmodel, q, v) + pin.dDifference(pmodel, q, q1)):
        assert_close(ours, theirs, 1e-9)
    Jin = np.random.default_rng(1).normal(size=(model.nv, 3))
    assert_close(rbda.d_integrate_transport(model, q, v, Jin, ARG0),
                 pin.dIntegrateTransport(pmodel, q, v, Jin, pin.ArgumentPosition.ARG0), 1e-9)


def joint_blocks(model, x, y, method):
    """The block-diagonal ``(nv, nv)`` pair assembled from each joint's own numpy ``method``."""
    out = (np.zeros((model.nv, model.nv)), np.zeros((model.nv, model.nv)))
    for i in range(1, model.njoints):
        if model.nvs[i] == 0:  # a mimic joint owns no coordinate
            continue
        sq = slice(model.idx_q[i], model.idx_q[i] + model.nqs[i])
        sv = slice(model.idx_v[i], model.idx_v[i] + model.nvs[i])
        blocks = getattr(model.joints[i], method)(x[sq], y[sq] if method == "d_difference" else y[sv])
        out[0][sv, sv], out[1][sv, sv] = blocks
    return out


@pytest.mark.parametrize("scale", [0.0, 1e-7, 0.3, 1.0, 3.0])
def test_compiled_blocks_match_the_joints_numpy_methods(model, scale):
    """Every joint type, velocities from zero to rotations near pi: the kernels against ``JointModel.d_integrate``
    and ``d_difference`` (``joints/base.py``: S^T Ad^-1 S, S^T Jexp6 S, ...), one block per joint."""
    q, v, _ = states(model, seed=4)
    v = scale * v / max(1.0, np.abs(v).max())
    q1 = rbda.integrate(model, q, v)
    for ours, theirs in zip(rbda.d_integrate(model, q, v) + rbda.d_difference(model, q, q1),
                            joint_blocks(model, q, v, "d_integrate") + joint_blocks(model, q, q1, "d_difference")):
        assert_close(ours, theirs, 1e-11)
    for arg in (ARG0, ARG1):
        assert_close(rbda.d_integrate(model, q, v, arg), joint_blocks(model, q, v, "d_integrate")[arg], 1e-11)
        assert_close(rbda.d_difference(model, q, q1, arg), joint_blocks(model, q, q1, "d_difference")[arg], 1e-11)
        Jin = np.random.default_rng(2).normal(size=(model.nv, 5))
        assert_close(rbda.d_integrate_transport(model, q, v, Jin, arg), joint_blocks(model, q, v, "d_integrate")[arg] @ Jin,
                     1e-11)
        assert_close(rbda.d_integrate_transport(model, q, v, Jin[:, 0], arg),
                     rbda.d_integrate_transport(model, q, v, Jin, arg)[:, 0], 1e-15)


def test_se3_jacobians_of_the_kernels_match_spatial():
    """The compiled SE(3) Jacobians at twists of every rotation angle (series and closed forms, near pi)."""
    from rbda.kernels.configuration import se3_jacobian
    from rbda.spatial import Jexp6, Jlog6, exp6

    rng = np.random.default_rng(5)
    X = np.empty((6, 6))
    for angle in (0.0, 1e-9, 1e-4, 0.09, 0.11, 0.5, 0.999, 1.001, 2.0, np.pi - 1e-3):
        for _ in range(5):
            nu = rng.normal(size=6)
            nu[3:] *= angle / np.linalg.norm(nu[3:])
            M = exp6(nu)
            for kind, expected in enumerate((M.action_inverse, Jexp6(nu), -Jlog6(M) @ M.action_inverse, Jlog6(M))):
                se3_jacobian(kind, nu, X)
                assert_close(X, expected, 1e-12, f"angle {angle}, kind {kind}")


def test_mimic_models_match_finite_differences():
    plain = rbda.sample_models.humanoid()
    ids = [i for i in range(1, plain.njoints) if plain.nvs[i] == 1]
    model = rbda.transform_joint_into_mimic(plain, ids[2], ids[5], -1.3, 0.25)
    q, v, q1 = states(model, seed=6)
    step = lambda x, d: rbda.integrate(model, x, d)
    end = rbda.integrate(model, q, v)
    J0, J1 = rbda.d_integrate(model, q, v)
    assert_close(J0, jacobian_along_basis(step, lambda q_: rbda.difference(model, end, rbda.integrate(model, q_, v)),
                                          q, model.nv), FD_TOL)
    assert_close(J1, jacobian_along_basis(lambda x, d: x + d, lambda v_: rbda.difference(model, end, step(q, v_)),
                                          v, model.nv), FD_TOL)
    D0, D1 = rbda.d_difference(model, q, q1)
    assert_close(D0, jacobian_along_basis(step, lambda q_: rbda.difference(model, q_, q1), q, model.nv), FD_TOL)
    assert_close(D1, jacobian_along_basis(step, lambda q_: rbda.difference(model, q, q_), q1, model.nv), FD_TOL)
    Jin = np.ones((model.nv, 2))
    assert_close(rbda.d_integrate_transport(model, q, v, Jin, ARG1), J1 @ Jin, 1e-14)


def test_bad_inputs_are_named():
    model = rbda.sample_models.every_joint()
    q, v, q1 = states(model, seed=7)
    for bad_arg in (2, "ARG0", [0]):
        with pytest.raises(ValueError, match="arg: expected ARG0 or ARG1"):
            rbda.d_difference(model, q, q1, bad_arg)
    with pytest.raises(ValueError, match="arg: expected ARG0 or ARG1, got None"):
        rbda.d_integrate_transport(model, q, v, np.eye(model.nv), None)
    nan = v.copy()
    nan[0] = np.nan
    with pytest.raises(ValueError, match="v: contains non-finite"):
        rbda.d_integrate(model, q, nan, ARG1)
    with pytest.raises(ValueError, match="v: contains non-finite"):
        rbda.d_integrate_transport(model, q, nan, np.eye(model.nv), ARG1)
    with pytest.raises(ValueError, match="J: contains non-finite"):
        rbda.d_integrate_transport(model, q, v, np.full((model.nv, 2), np.nan), ARG0)
    with pytest.raises(ValueError, match="q1: expected shape"):
        rbda.d_difference(model, q, q1[:-1])
    unnormalised = rbda.neutral(model) * 1.5
    with pytest.raises(ValueError, match="q1: is not a valid configuration"):
        rbda.d_difference(model, q, unnormalised)
    with pytest.raises(ValueError, match="q: is not a valid configuration"):
        rbda.d_integrate(model, unnormalised, v)
