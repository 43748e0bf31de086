"""``rbda.batch.impulse_dynamics`` and ``rbda.batch.compute_impulse_dynamics_derivatives`` state by state against
the single calls (to 1e-12), their ``out=`` arrays and their errors; the batched impulses also satisfy the impact
equations ``M (v+ - v) = J^T P`` and ``J v+ = -e J v`` on their own."""

import numpy as np
import pytest
from conftest import random_model
from constrained_cases import random_tree_with_constraints, robot_cases

import rbda
from rbda import CONTACT_6D, RigidConstraintModel

TOL = 1e-12
ROBOTS = {c[0]: c for c in robot_cases()}
NAMES = ("dvafter_dq", "dvafter_dv", "dimpulse_dq", "dimpulse_dv")


def states(model, B, seed=0):
    rng = np.random.default_rng(seed)
    return np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)]), rng.normal(size=(B, model.nv))


def single(model, cms, q, v, e, settings=None):
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    v_after = rbda.impulse_dynamics(model, data, q, v, cms, cds, e, settings).copy()
    impulses = data.impulse_c.copy()
    partials = [np.array(x) for x in rbda.compute_impulse_dynamics_derivatives(model, data, cms, cds, settings)]
    return v_after, impulses, partials, data


def close(mine, ref):
    return np.max(np.abs(mine - ref)) <= TOL * max(1.0, np.max(np.abs(ref)))


def assert_states(model, cms, Q, V, e, settings=None):
    v_after, impulses = rbda.batch.impulse_dynamics(model, Q, V, cms, e, settings)
    partials = rbda.batch.compute_impulse_dynamics_derivatives(model, Q, V, cms, e, settings)
    for b in range(Q.shape[0]):
        ref_v, ref_p, ref_partials, data = single(model, cms, Q[b], V[b], e, settings)
        assert close(v_after[b], ref_v) and close(impulses[b], ref_p), b
        for name, mine, ref in zip(NAMES, partials, ref_partials):
            assert close(mine[b], ref), (b, name)
        if settings is None:  # the impact equations, from M and J of the single call (independent of the batch)
            J = data.constraint_jacobian
            assert np.allclose(data.M @ (v_after[b] - V[b]), J.T @ impulses[b], atol=1e-9)
            assert np.allclose(J @ v_after[b], -e * (J @ V[b]), atol=1e-9)
    return partials


@pytest.mark.parametrize("name", ["solo12-3D-LWA", "talos-6D-feet", "talos-6D-hands-loop"])
@pytest.mark.parametrize("e", [0.0, 0.7])
def test_robots_state_by_state(name, e):
    _, make_model, make_constraints = ROBOTS[name]
    model = make_model()
    cms = make_constraints(model)
    cms[0].set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(3.0, 1.0))  # no effect on impacts
    Q, V = states(model, 5)
    partials = assert_states(model, cms, Q, V, e)
    m = sum(cm.size for cm in cms)
    assert [p.shape for p in partials] == [(5, model.nv, model.nv)] * 2 + [(5, m, model.nv)] * 2


def test_every_joint_type_and_out_arrays():
    """Universal, spherical-ZYX and composite joints (the elementary twin's joint ids); results into ``out``."""
    model, cms = random_tree_with_constraints(1, True)
    Q, V = states(model, 5, seed=1)
    assert_states(model, cms, Q, V, 0.3)
    m, nv = sum(cm.size for cm in cms), model.nv
    out = (np.full((5, nv), np.nan), np.full((5, m), np.nan))
    result = rbda.batch.impulse_dynamics(model, Q, V, cms, 0.3, out=out)
    assert all(r is o for r, o in zip(result, out)) and np.isfinite(out[0]).all()
    out = tuple(np.full((5, nv, nv), np.nan) for _ in range(2)) + tuple(np.full((5, m, nv), np.nan) for _ in range(2))
    result = rbda.batch.compute_impulse_dynamics_derivatives(model, Q, V, cms, 0.3, out=out)
    assert all(r is o for r, o in zip(result, out)) and all(np.isfinite(o).all() for o in out)


def test_damped_redundant_set():
    _, make_model, make_constraints = ROBOTS["talos-6D-feet"]
    model = make_model()
    cms = make_constraints(model)
    cms = cms + [RigidConstraintModel(CONTACT_6D, model, cm.joint1_id, cm.joint1_placement) for cm in cms]
    Q, V = states(model, 3, seed=2)
    assert_states(model, cms, Q, V, 0.5, rbda.ProximalSettings(1e-14, 1e-2, 200))
    for f in (rbda.batch.impulse_dynamics, rbda.batch.compute_impulse_dynamics_derivatives):
        with pytest.raises(ValueError, match="state 0: contact_models: .*redundant.*mu"):
            f(model, Q, V, cms)


def test_errors():
    _, make_model, make_constraints = ROBOTS["solo12-3D-LWA"]
    model = make_model()
    cms = make_constraints(model)
    Q, V = states(model, 3)
    for f in (rbda.batch.impulse_dynamics, rbda.batch.compute_impulse_dynamics_derivatives):
        with pytest.raises(ValueError, match=r"V: expected shape \(3, 18\)"):
            f(model, Q, V[:2], cms)
        with pytest.raises(TypeError, match=r"contact_models\[1\]: expected a RigidConstraintModel"):
            f(model, Q, V, [cms[0], "foot"])
        with pytest.raises(TypeError, match="contact_models: expected a list"):
            f(model, Q, V, cms[0])
        with pytest.raises(ValueError, match="r_coeff: the restitution coefficient must be in"):
            f(model, Q, V, cms, 1.5)
        with pytest.raises(TypeError, match="r_coeff: expected a number"):
            f(model, Q, V, cms, "0.5")
        with pytest.raises(ValueError, match="mu: must be >= 0"):
            f(model, Q, V, cms, 0.0, rbda.ProximalSettings(1e-12, -1.0, 1))
        with pytest.raises(ValueError, match="out: expected a tuple of"):
            f(model, Q, V, cms, out=(np.zeros((3, 18)),))
        bad = V.copy()
        bad[2, 4] = np.nan
        with pytest.raises(ValueError, match="state 2: V"):
            f(model, Q, bad, cms)
        bad = Q.copy()
        bad[1, 0] = np.inf
        with pytest.raises(ValueError, match="state 1: Q"):
            f(model, bad, V, cms)
    with pytest.raises(ValueError, match="out: expected a C-contiguous"):
        rbda.batch.compute_impulse_dynamics_derivatives(model, Q, V, cms, out=tuple(np.zeros((3, 18, 18))
                                                                                    for _ in range(4)))


def test_mimic_models_state_by_state():
    """A model with mimic joints runs the single calls state by state: each batched constrained function equals
    them (to 1e-12), and an error names its state."""
    model = random_model(0, True, mimic=True)
    cms = [RigidConstraintModel(CONTACT_6D, model, model.njoints - 1)]
    Q, V = states(model, 3, seed=7)
    TAU = np.random.default_rng(8).normal(size=V.shape)
    assert_states(model, cms, Q, V, 0.4)
    ddq, lam = rbda.batch.constraint_dynamics(model, Q, V, TAU, cms)
    partials = rbda.batch.compute_constraint_dynamics_derivatives(model, Q, V, TAU, cms)
    for b in range(3):
        data, cds = model.create_data(), [cm.create_data() for cm in cms]
        assert close(ddq[b], rbda.constraint_dynamics(model, data, Q[b], V[b], TAU[b], cms, cds))
        assert close(lam[b], data.lambda_c)
        for mine, ref in zip(partials, rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds)):
            assert close(mine[b], ref)
    bad = TAU.copy()
    bad[1, 0] = np.nan
    with pytest.raises(ValueError, match="state 1: tau"):
        rbda.batch.constraint_dynamics(model, Q, V, bad, cms)
