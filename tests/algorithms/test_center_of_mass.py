"""Centre of mass: subtree CoMs against their definition, velocities/accelerations and Jacobians against finite
differences on the manifold, masses, Pinocchio (when installed), batches and input errors."""

import numpy as np
import pytest
from conftest import MODEL_CASES, assert_close, derivative_along, jacobian_along_basis, random_model, random_state

import rbda


def world_subtree_coms(model, data, q) -> np.ndarray:
    """``(njoints, 3)`` subtree CoMs in the world frame from their definition (spatial classes)."""
    rbda.forward_kinematics(model, data, q)
    mc = np.array([model.inertias[i].mass * data.oMi[i].act(model.inertias[i].lever) for i in range(model.njoints)])
    mass = np.array([Y.mass for Y in model.inertias])
    mc[0], mass[0] = 0.0, 0.0
    for i in range(model.njoints - 1, 0, -1):
        mc[model.parents[i]] += mc[i]
        mass[model.parents[i]] += mass[i]
    return mc / mass[:, None]


def to_world(data, rows: np.ndarray, point: bool) -> np.ndarray:
    """Rows i > 0 given in joint i's frame (Pinocchio's subtree convention) moved to the world frame."""
    out = rows.copy()
    for i in range(1, rows.shape[0]):
        out[i] = data.oMi[i].act(rows[i]) if point else data.oMi[i].rotation @ rows[i]
    return out


def test_subtree_coms_and_masses(model):
    data = model.create_data()
    q, v, a = random_state(model)
    com = rbda.center_of_mass(model, data, q, v, a)
    assert_close(com, world_subtree_coms(model, model.create_data(), q)[0])
    assert_close(to_world(data, data.com, True), world_subtree_coms(model, model.create_data(), q))
    masses = data.mass.copy()
    assert masses[0] == pytest.approx(sum(Y.mass for Y in model.inertias[1:]), rel=1e-14)
    assert rbda.compute_total_mass(model) == pytest.approx(masses[0], rel=1e-14)
    data.mass[:] = 0.0
    assert_close(rbda.compute_subtree_masses(model, data), masses, 1e-14)
    for i in range(model.njoints):
        assert masses[i] == pytest.approx(sum(model.inertias[k].mass for k in model.subtrees[i] if k > 0), rel=1e-13)


def test_com_velocity_and_acceleration_by_finite_differences(model):
    data = model.create_data()
    q, v, a = random_state(model)
    rbda.center_of_mass(model, data, q, v, a)
    vcom, acom = to_world(data, data.vcom, False), to_world(data, data.acom, False)
    scratch = model.create_data()
    d_com = derivative_along(lambda x, dx: rbda.integrate(model, x, dx), lambda x: world_subtree_coms(model, scratch, x), q, v)
    assert_close(vcom, d_com, 1e-6)

    def world_vcom(t):
        rbda.center_of_mass(model, scratch, rbda.integrate(model, q, t * v), v + t * a)
        return to_world(scratch, scratch.vcom, False)

    assert_close(acom, derivative_along(lambda t, dt: t + dt, world_vcom, 0.0, 1.0), 1e-6)  # d/dt at t = 0
    rbda.center_of_mass(model, data, q, v)  # without a: same position and velocity
    assert_close(to_world(data, data.vcom, False), vcom)


def test_com_jacobians_by_finite_differences(model):
    data = model.create_data()
    q, v, _ = random_state(model)
    scratch = model.create_data()
    fd = jacobian_along_basis(lambda x, dx: rbda.integrate(model, x, dx),
                              lambda x: world_subtree_coms(model, scratch, x), q, model.nv)  # (nj, 3, nv)
    Jcom = rbda.jacobian_center_of_mass(model, data, q).copy()
    assert_close(Jcom, fd[0], 1e-6)
    assert_close(data.com, world_subtree_coms(model, scratch, q))  # world frame here, as in Pinocchio
    rbda.center_of_mass(model, scratch, q, v)
    assert_close(Jcom @ v, scratch.vcom[0])
    for root in range(1, model.njoints):
        assert_close(rbda.jacobian_subtree_center_of_mass(model, data, q, root), fd[root], 1e-6)


def test_batch_matches_single_state():
    model = rbda.sample_models.every_joint()
    data = model.create_data()
    rng = np.random.default_rng(4)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(5)])
    C, J = rbda.batch.center_of_mass(model, Q), rbda.batch.jacobian_center_of_mass(model, Q)
    for b in range(5):
        assert_close(C[b], rbda.center_of_mass(model, data, Q[b]), 1e-13)
        assert_close(J[b], rbda.jacobian_center_of_mass(model, data, Q[b]), 1e-13)
    with pytest.raises(ValueError, match="Q"):
        rbda.batch.center_of_mass(model, Q[:, :-1])


def test_bad_input():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q, v, a = random_state(model)
    with pytest.raises(ValueError, match="q"):
        rbda.center_of_mass(model, data, q[:-1])
    with pytest.raises(ValueError, match="v: contains non-finite"):
        rbda.center_of_mass(model, data, q, np.full(model.nv, np.nan))
    with pytest.raises(ValueError, match="a: an acceleration needs a velocity"):
        rbda.center_of_mass(model, data, q, None, a)
    with pytest.raises(ValueError, match="joint_id"):
        rbda.jacobian_subtree_center_of_mass(model, data, q, model.njoints)
    with pytest.raises(ValueError, match="data"):
        rbda.jacobian_center_of_mass(model, rbda.sample_models.humanoid().create_data(), q)


@pytest.mark.parametrize("case", MODEL_CASES[:4], ids=str)
def test_against_pinocchio(case):
    pin = pytest.importorskip("pinocchio")
    from test_against_pinocchio import pinocchio_joint_types
    from rbda.interop.pinocchio import to_pinocchio

    model = random_model(*case, joints=pinocchio_joint_types())
    data, pm = model.create_data(), to_pinocchio(model)
    pd = pm.createData()
    q, v, a = random_state(model, 1)
    rbda.center_of_mass(model, data, q, v, a)
    pin.centerOfMass(pm, pd, q, v, a, True)
    for name in ("com", "vcom", "acom", "mass"):
        assert_close(getattr(data, name), np.array(getattr(pd, name)), err_msg=name)
    assert_close(rbda.jacobian_center_of_mass(model, data, q), pin.jacobianCenterOfMass(pm, pd, q, True))
    assert_close(data.com, np.array(pd.com))
    for root in (1, model.njoints // 2, model.njoints - 1):
        assert_close(rbda.jacobian_subtree_center_of_mass(model, data, q, root), pin.jacobianSubtreeCenterOfMass(pm, pd, q, root))
