"""Kinematic Hessians dJ/dq against finite differences of the Jacobians on the manifold, and against Pinocchio."""

import numpy as np
import pytest
from conftest import jacobian_along_basis, random_model, random_state

import rbda

FRAMES = [rbda.WORLD, rbda.LOCAL, rbda.LOCAL_WORLD_ALIGNED]


@pytest.mark.parametrize("floating, mimic", [(False, False), (True, False), (False, True), (True, True)],
                         ids=["fixed", "floating", "fixed-mimic", "floating-mimic"])
@pytest.mark.parametrize("reference_frame", FRAMES, ids=lambda rf: rf.name)
def test_hessians_match_finite_differences(floating, mimic, reference_frame):
    model = random_model(1, floating, mimic=mimic)
    data = model.create_data()
    q, _, _ = random_state(model, 4)

    def jacobian(joint_id):
        def f(qq):
            rbda.compute_joint_jacobians(model, data, qq)
            return rbda.get_joint_jacobian(model, data, joint_id, reference_frame)
        return f

    integrate = lambda qq, vv: rbda.integrate(model, qq, vv)  # noqa: E731
    for joint_id in range(1, model.njoints):  # every joint, so every joint type's own column derivatives
        expected = jacobian_along_basis(integrate, jacobian(joint_id), q, model.nv)
        rbda.compute_joint_kinematic_hessians(model, data, q)
        H = rbda.get_joint_kinematic_hessian(model, data, joint_id, reference_frame)
        assert H.shape == (6, model.nv, model.nv)
        np.testing.assert_allclose(H, expected, atol=1e-7, err_msg=f"joint {joint_id} ({model.joints[joint_id]})")


def test_hessians_against_pinocchio():
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio

    for model in (rbda.sample_models.manipulator(), rbda.sample_models.humanoid()):
        data = model.create_data()
        pm = to_pinocchio(model)
        pd = pm.createData()
        q, _, _ = random_state(model, 2)
        pin.computeJointJacobians(pm, pd, q)
        pin.computeJointKinematicHessians(pm, pd, q)
        rbda.compute_joint_kinematic_hessians(model, data, q)
        for joint_id in (model.njoints // 2, model.njoints - 1):
            for rf in FRAMES:
                # the binding returns the column-major Eigen tensor (6, nv, nv) read as a C-ordered array
                Hp = np.asarray(pin.getJointKinematicHessian(pm, pd, joint_id, pin.ReferenceFrame(int(rf))))
                Hp = Hp.ravel(order="C").reshape((6, model.nv, model.nv), order="F")
                np.testing.assert_allclose(rbda.get_joint_kinematic_hessian(model, data, joint_id, rf), Hp, atol=1e-12)
