"""``rbda.batch.compute_constraint_dynamics_derivatives`` state by state against the single calls (to 1e-12), its
``out=`` arrays and its errors; and repeated single calls on one data (the batch reuses its buffers the same way)."""

import numpy as np
import pytest
from constrained_cases import random_tree_with_constraints, robot_cases

import rbda
from rbda import CONTACT_6D, RigidConstraintModel

TOL = 1e-12
ROBOTS = {c[0]: c for c in robot_cases()}


def states(model, B, seed=0):
    rng = np.random.default_rng(seed)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(B)])
    return Q, rng.normal(size=(B, model.nv)), rng.normal(size=(B, model.nv))


def single(model, cms, q, v, tau, settings=None):
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    rbda.constraint_dynamics(model, data, q, v, tau, cms, cds, settings)
    return [np.array(x) for x in rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds, settings)]


def assert_states(model, cms, Q, V, TAU, result, settings=None):
    for b in range(Q.shape[0]):
        for name, mine, ref in zip(("ddq_dq", "ddq_dv", "ddq_dtau", "dlambda_dq", "dlambda_dv", "dlambda_dtau"),
                                   result, single(model, cms, Q[b], V[b], TAU[b], settings)):
            assert np.max(np.abs(mine[b] - ref)) <= TOL * max(1.0, np.max(np.abs(ref))), (b, name)


@pytest.mark.parametrize("name", ["solo12-3D-LWA", "talos-6D-hands-loop", "talos-3D-hands-loop"])
def test_robots_state_by_state(name):
    _, make_model, make_constraints = ROBOTS[name]
    model = make_model()
    cms = make_constraints(model)
    cms[0].set_baumgarte_corrector_parameters(rbda.BaumgarteCorrectorParameters(3.0, 1.0))
    Q, V, TAU = states(model, 7)
    result = rbda.batch.compute_constraint_dynamics_derivatives(model, Q, V, TAU, cms)
    m = sum(cm.size for cm in cms)
    assert [r.shape for r in result] == [(7, model.nv, model.nv)] * 3 + [(7, m, model.nv)] * 3
    assert_states(model, cms, Q, V, TAU, result)


def test_every_joint_type_and_out_arrays():
    """Universal, spherical-ZYX and composite joints (the elementary twin's joint ids); results into ``out``."""
    model, cms = random_tree_with_constraints(1, True)
    Q, V, TAU = states(model, 5, seed=1)
    m, nv = sum(cm.size for cm in cms), model.nv
    out = tuple(np.full((5, nv, nv), np.nan) for _ in range(3)) + tuple(np.full((5, m, nv), np.nan) for _ in range(3))
    result = rbda.batch.compute_constraint_dynamics_derivatives(model, Q, V, TAU, cms, out=out)
    assert all(r is o for r, o in zip(result, out))
    assert_states(model, cms, Q, V, TAU, result)


def test_damped_redundant_set():
    _, make_model, make_constraints = ROBOTS["talos-6D-feet"]
    model = make_model()
    cms = make_constraints(model)
    cms = cms + [RigidConstraintModel(CONTACT_6D, model, cm.joint1_id, cm.joint1_placement) for cm in cms]
    Q, V, TAU = states(model, 3, seed=2)
    settings = rbda.ProximalSettings(1e-14, 1e-2, 200)
    result = rbda.batch.compute_constraint_dynamics_derivatives(model, Q, V, TAU, cms, settings)
    assert_states(model, cms, Q, V, TAU, result, settings)
    with pytest.raises(ValueError, match="state 0: contact_models: .*redundant.*mu"):
        rbda.batch.compute_constraint_dynamics_derivatives(model, Q, V, TAU, cms)


def test_repeated_single_calls_on_one_data_match_fresh_data():
    """A loop between two branches adds force terms on columns that the RNEA derivatives never write: the second
    call on the same data must not see the first call's."""
    _, make_model, make_constraints = ROBOTS["talos-6D-hands-loop"]
    model = make_model()
    cms = make_constraints(model)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    Q, V, TAU = states(model, 2, seed=3)
    for b in range(2):
        rbda.constraint_dynamics(model, data, Q[b], V[b], TAU[b], cms, cds)
        again = rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds)
        for mine, ref in zip(again, single(model, cms, Q[b], V[b], TAU[b])):
            assert np.array_equal(mine, ref)


def test_errors():
    _, make_model, make_constraints = ROBOTS["solo12-3D-LWA"]
    model = make_model()
    cms = make_constraints(model)
    Q, V, TAU = states(model, 3)
    f = rbda.batch.compute_constraint_dynamics_derivatives
    with pytest.raises(ValueError, match=r"V: expected shape \(3, 18\)"):
        f(model, Q, V[:2], TAU, cms)
    with pytest.raises(TypeError, match=r"contact_models\[1\]: expected a RigidConstraintModel"):
        f(model, Q, V, TAU, [cms[0], "foot"])
    with pytest.raises(TypeError, match="contact_models: expected a list"):
        f(model, Q, V, TAU, cms[0])
    with pytest.raises(ValueError, match="out: expected a tuple of six"):
        f(model, Q, V, TAU, cms, out=(np.zeros((3, 18, 18)),))
    with pytest.raises(ValueError, match="out: expected a C-contiguous"):
        f(model, Q, V, TAU, cms, out=tuple(np.zeros((3, 18, 18)) for _ in range(6)))
    with pytest.raises(ValueError, match="mu: must be >= 0"):
        f(model, Q, V, TAU, cms, rbda.ProximalSettings(1e-12, -1.0, 1))
    bad = TAU.copy()
    bad[2, 4] = np.nan
    with pytest.raises(ValueError, match="state 2: TAU"):
        f(model, Q, V, bad, cms)
