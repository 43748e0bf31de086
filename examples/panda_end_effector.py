"""The pose, velocity and Jacobian of a Franka Panda's hand, checked against a finite difference.

    python examples/panda_end_effector.py    # also saves panda_end_effector.html, the arm moving at v

Loads ``panda.urdf`` from example-robot-data, places the arm at a configuration, reads the hand's placement
``data.oMf`` after ``frames_forward_kinematics``, and its Jacobian in the three reference frames; the Jacobian maps
the joint velocity to the hand's spatial velocity, which a finite difference of the placement confirms.
"""

from __future__ import annotations

import numpy as np

import rbda
from _robots import robot_file


def main(verbose: bool = True, animation: str | None = None) -> dict:
    """Compute and print the hand's pose, twist and Jacobian; save the arm moving at ``v`` for 2 s as the
    animation ``animation`` (a path) if given."""
    urdf = robot_file("panda_description/urdf/panda.urdf")
    model = rbda.load_model(urdf)
    data = model.create_data()
    hand = model.get_frame_id("panda_hand")
    q = np.array([0.0, -0.4, 0.0, -2.2, 0.0, 1.8, 0.8, 0.02, 0.02])
    v = np.array([0.3, -0.2, 0.1, 0.4, -0.3, 0.2, 0.5, 0.0, 0.0])

    rbda.frames_forward_kinematics(model, data, q)
    oMhand = data.oMf[hand].copy()  # the next kinematics call overwrites data.oMf
    J_world_aligned = rbda.compute_frame_jacobian(model, data, q, hand, rbda.LOCAL_WORLD_ALIGNED).copy()
    J_local = rbda.compute_frame_jacobian(model, data, q, hand, rbda.LOCAL).copy()

    # the hand's velocity from the Jacobian, and from the motion of its placement over a short time step
    eps = 1e-6
    placements = []
    for t in (-eps, eps):
        rbda.frames_forward_kinematics(model, data, rbda.integrate(model, q, t * v))
        placements.append(data.oMf[hand].copy())
    twist_fd = rbda.spatial.log6(placements[0].inverse() * placements[1]).vector / (2 * eps)  # LOCAL
    twist = J_local @ v

    result = {"position": oMhand.translation, "rotation": oMhand.rotation, "J_world_aligned": J_world_aligned,
              "twist": twist, "twist_fd": twist_fd}
    if verbose:
        np.set_printoptions(precision=4, suppress=True)
        print(f"panda: nq = {model.nq}, nv = {model.nv}; hand frame {hand}")
        print("hand position (world):", oMhand.translation)
        print("hand rotation (world):\n", oMhand.rotation)
        print("linear velocity of the hand (world axes):", J_world_aligned[:3] @ v)
        print("hand twist (LOCAL), Jacobian:         ", twist)
        print("hand twist (LOCAL), finite difference:", twist_fd)
    if animation is not None:
        from _animation import save_robot_animation

        Q = np.stack([rbda.integrate(model, q, t * v) for t in np.linspace(0.0, 2.0, 101)])
        save_robot_animation(model, urdf, Q, 0.02, animation, "Panda: moving at a constant joint velocity v",
                             "q(t) = integrate(q, t v) for 2 s")
    return result


if __name__ == "__main__":
    main(animation="panda_end_effector.html")
