"""Whole-body quantities of the humanoid Talos at its ``half_sitting`` posture: mass, centre of mass, centroidal
momentum, and the support polygon check a balance controller starts from.

    python examples/talos_whole_body.py    # also saves talos_whole_body.html, the posture with the torso turning

Loads ``talos_reduced.urdf`` with a free-flyer root and the ``half_sitting`` configuration of ``talos.srdf``,
then computes the centre of mass, the centroidal momentum matrix ``Ag`` (``h_g = Ag v``, about the CoM) and the
generalized gravity; at rest on its feet, the CoM lies between the soles.
"""

from __future__ import annotations

import numpy as np

import rbda
from _robots import robot_file


def main(verbose: bool = True, animation: str | None = None) -> dict:
    """Compute and print the whole-body quantities; save the posture, the torso turning by +-0.4 rad, as the
    animation ``animation`` (a path) if given."""
    urdf = robot_file("talos_data/robots/talos_reduced.urdf")
    model = rbda.load_model(urdf, floating_base=True)
    rbda.io.load_reference_configurations(model, robot_file("talos_data/srdf/talos.srdf"))
    q = model.reference_configurations["half_sitting"]
    data = model.create_data()

    com = rbda.center_of_mass(model, data, q).copy()
    mass = rbda.compute_total_mass(model)
    rbda.frames_forward_kinematics(model, data, q)
    feet = [data.oMf[model.get_frame_id(name)].translation.copy() for name in ("left_sole_link", "right_sole_link")]
    rng = np.random.default_rng(0)
    v = rng.normal(size=model.nv)
    Ag = rbda.compute_centroidal_map(model, data, q).copy()
    hg = rbda.compute_centroidal_momentum(model, data, q, v).copy()
    g = rbda.compute_generalized_gravity(model, data, q).copy()

    result = {"mass": mass, "com": com, "feet": feet, "Ag": Ag, "hg": hg, "v": v, "gravity_on_base": g[:6]}
    if verbose:
        np.set_printoptions(precision=4, suppress=True)
        print(f"talos: {model.njoints - 1} joints, nq = {model.nq}, nv = {model.nv}, mass {mass:.3f} kg")
        print("centre of mass (world):", com)
        print("left and right soles:  ", feet[0], feet[1])
        print("centroidal momentum at a random velocity, Ag v:", Ag @ v)
        print("generalized gravity on the free flyer (its weight in its own frame):", g[:6])
    if animation is not None:
        from _animation import save_robot_animation

        Q = np.tile(q, (81, 1))
        Q[:, model.idx_q[model.get_joint_id("torso_1_joint")]] = 0.4 * np.sin(np.linspace(0.0, 2 * np.pi, 81))
        save_robot_animation(model, urdf, Q, 0.05, animation, "Talos at half sitting",
                             "the torso turns by +-0.4 rad")
    return result


if __name__ == "__main__":
    main(animation="talos_whole_body.html")
