"""Inverse kinematics of a Franka Panda's hand: damped least squares on the configuration's Lie group.

    python examples/panda_inverse_kinematics.py    # also saves panda_inverse_kinematics.html, the iterations

The error between the hand's placement ``oMf`` and the target ``oMt`` is the twist ``e = log6(oMt^-1 oMf)``
(LOCAL frame of the target). Its Jacobian is ``Jlog6(oMt^-1 oMf) J_local``. Each step solves the damped
least-squares problem ``min |J dq + e|^2 + damping |dq|^2`` and moves ``q`` along the group with
``integrate(q, dq)``, so that ``q`` stays a valid configuration whatever the joints (the same loop works with
a free flyer or a spherical joint). Joint limits are respected by clipping.
"""

from __future__ import annotations

import numpy as np

import rbda
from _robots import robot_file


def solve_ik(model, frame_id: int, oMt, q0, tol: float = 1e-10, damping: float = 1e-6, max_iter: int = 200,
             iterates: list | None = None):
    """``(q, errors)``: a configuration whose frame ``frame_id`` reaches the placement ``oMt``, and the norm of
    the error twist at each iteration; each iterate's ``q`` is appended to ``iterates`` if given."""
    data = model.create_data()
    q, errors = q0.copy(), []
    lower, upper = model.lower_position_limit, model.upper_position_limit
    for _ in range(max_iter):
        if iterates is not None:
            iterates.append(q.copy())
        rbda.frames_forward_kinematics(model, data, q)
        tMf = oMt.inverse() * data.oMf[frame_id]
        e = rbda.spatial.log6(tMf).vector
        errors.append(float(np.linalg.norm(e)))
        if errors[-1] < tol:
            break
        J = rbda.spatial.Jlog6(tMf) @ rbda.compute_frame_jacobian(model, data, q, frame_id, rbda.LOCAL)
        dq = -J.T @ np.linalg.solve(J @ J.T + damping * np.eye(6), e)
        q = np.clip(rbda.integrate(model, q, dq), lower, upper)
    return q, errors


def main(verbose: bool = True, animation: str | None = None) -> dict:
    """Solve, print what was reached, and save the iterations as the animation ``animation`` (a path) if given."""
    urdf = robot_file("panda_description/urdf/panda.urdf")
    model = rbda.load_model(urdf)
    data = model.create_data()
    hand = model.get_frame_id("panda_hand")
    # a reachable target: the hand's placement at another configuration
    q_goal = np.array([0.5, 0.3, -0.4, -1.9, 0.3, 2.0, 0.2, 0.03, 0.03])
    rbda.frames_forward_kinematics(model, data, q_goal)
    oMt = data.oMf[hand].copy()
    q0 = np.array([0.0, -0.4, 0.0, -2.2, 0.0, 1.8, 0.8, 0.02, 0.02])
    iterates: list[np.ndarray] = []
    q, errors = solve_ik(model, hand, oMt, q0, iterates=iterates)
    rbda.frames_forward_kinematics(model, data, q)
    reached = data.oMf[hand].copy()
    result = {"errors": errors, "position_error": float(np.linalg.norm(reached.translation - oMt.translation)),
              "rotation_error": float(np.linalg.norm(rbda.spatial.log3(reached.rotation.T @ oMt.rotation))),
              "q": q, "within_limits": bool(np.all((q >= model.lower_position_limit) & (q <= model.upper_position_limit)))}
    if verbose:
        print(f"reached the target in {len(errors) - 1} iterations; error twist norms:",
              ", ".join(f"{x:.1e}" for x in errors))
        print(f"position error {result['position_error']:.2e} m, rotation error {result['rotation_error']:.2e} rad")
        print("q =", np.round(q, 4))
    if animation is not None:
        from _animation import save_robot_animation

        save_robot_animation(model, urdf, np.array(iterates), 0.25, animation, "Panda: inverse kinematics",
                             "one damped least-squares iteration every 0.25 s")
    return result


if __name__ == "__main__":
    main(animation="panda_inverse_kinematics.html")
