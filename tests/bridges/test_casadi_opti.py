"""rbda.casadi.constraint_dynamics inside casadi.Opti with IPOPT: the manipulator holds its wrist on a point
contact while turning its tool onto a target. The solution must satisfy the constrained dynamics of plain rbda
at every step to 1e-6, reach the target, and keep the held point in place."""

import numpy as np
import pytest

casadi = pytest.importorskip("casadi")

import rbda  # noqa: E402
import rbda.casadi as rc  # noqa: E402
from rbda import CONTACT_3D, LOCAL_WORLD_ALIGNED, RigidConstraintModel  # noqa: E402


def test_opti_holds_a_contact_while_reaching():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    wrist, tool = model.get_joint_id("joint4"), model.get_frame_id("tool")
    q0 = np.array([0.2, 0.5, 1.4, 0.1, 0.5, -0.2])  # the wrist well off the base axis
    rbda.forward_kinematics(model, data, q0)
    anchor = rbda.SE3(np.eye(3), data.oMi[wrist].translation.copy())  # the wrist's origin, held in the world
    cms = [RigidConstraintModel(CONTACT_3D, model, wrist, rbda.SE3.Identity(), 0, anchor, LOCAL_WORLD_ALIGNED)]
    q_goal = q0 + np.array([0.0, 0.0, 0.0, 0.6, -0.5, 0.4])  # the same arm, another wrist: a reachable target
    rbda.frames_forward_kinematics(model, data, q_goal)
    target = data.oMf[tool].translation.copy()

    ddq, placement = rc.constraint_dynamics(model, cms), rc.frame_placement(model, tool)
    N, dt, nv = 12, 0.05, model.nv
    opti = casadi.Opti()
    Q, V, TAU = opti.variable(nv, N + 1), opti.variable(nv, N + 1), opti.variable(nv, N)
    opti.subject_to(Q[:, 0] == q0)
    opti.subject_to(V[:, 0] == 0)
    for k in range(N):  # semi-implicit Euler on the constrained dynamics
        opti.subject_to(V[:, k + 1] == V[:, k] + dt * ddq(Q[:, k], V[:, k], TAU[:, k]))
        opti.subject_to(Q[:, k + 1] == Q[:, k] + dt * V[:, k + 1])
    opti.subject_to(placement(Q[:, N])[:2, 3] == target[:2])  # the tool moves on a sphere about the held
    # wrist: two coordinates pin it to the target's branch (three would be dependent there, LICQ fails)
    opti.subject_to(V[3:, N] == 0)  # the arm's joints are locked by the contact: their rest is not a constraint
    opti.minimize(dt * casadi.sumsqr(TAU))
    g0 = rbda.compute_generalized_gravity(model, data, q0).copy()
    opti.set_initial(Q, np.tile(q0[:, None], (1, N + 1)))
    opti.set_initial(TAU, np.tile(g0[:, None], (1, N)))
    opti.solver("ipopt", {"print_time": False}, {"print_level": 0, "hessian_approximation": "limited-memory",
                                                  "tol": 1e-6, "constr_viol_tol": 1e-10, "max_iter": 500})
    sol = opti.solve()
    assert sol.stats()["return_status"] == "Solve_Succeeded", sol.stats()["return_status"]
    print("IPOPT iterations:", sol.stats()["iter_count"])
    q, v, tau = sol.value(Q), sol.value(V), sol.value(TAU)

    cds = [cm.create_data() for cm in cms]
    for k in range(N):  # the constrained dynamics of plain rbda at every step
        a = rbda.constraint_dynamics(model, data, q[:, k], v[:, k], tau[:, k], cms, cds)
        assert np.abs((v[:, k + 1] - v[:, k]) / dt - a).max() <= 1e-6
        assert np.abs(q[:, k + 1] - q[:, k] - dt * v[:, k + 1]).max() <= 1e-8
    rbda.frames_forward_kinematics(model, data, q[:, N])
    assert np.abs(data.oMf[tool].translation - target).max() <= 1e-6
    drift = 0.0
    for k in range(N + 1):
        rbda.forward_kinematics(model, data, q[:, k])
        drift = max(drift, np.linalg.norm(data.oMi[wrist].translation - anchor.translation))
    assert drift <= 1e-3  # held at the acceleration level; Euler's drift is of order dt^2 |v|^2
    assert np.abs(q[3:, N] - q0[3:]).max() > 0.1  # the wrist turned
