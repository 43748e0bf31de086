"""solo12 (example-robot-data, its collision meshes) standing on the ground under rbda.simulation.StandingPD for
2 s at dt = 1 ms, pushed sideways by 10 N on its base for 0.1 s at t = 0.5 s: it sways and settles back, its four
feet sharing its weight. Saves docs/images/solo12_stand.png (the simulation guide's picture): the base's height
and lateral position, and each foot's normal force against a quarter of m g; and ``solo12_stand.html`` (in the
folder of ``--out DIR``, else the current one), the motion as an animation that plays in any browser
(``rbda.viewer.save_animation``, the robot's visual meshes).

    python examples/solo12_stand.py [--out DIR]
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import rbda
from rbda.collision import GeometryData, compute_distances
from rbda.io import GeometryType, build_geom_from_urdf, load_reference_configurations
from rbda.simulation import Simulator, StandingPD, add_ground_plane
from rbda.spatial.so3 import quat_to_matrix

from _plotting import pyplot
from _robots import robot_file

DT, DURATION, PUSH, PUSH_START, PUSH_LENGTH = 1e-3, 2.0, 10.0, 0.5, 0.1
IMAGE = Path(__file__).resolve().parents[1] / "docs" / "images" / "solo12_stand.png"
ANIMATION = "solo12_stand.html"  # in the folder of --out (examples/_output.py), else the working directory


def main(verbose: bool = True) -> dict:
    urdf = robot_file("solo_description/robots/solo12.urdf")
    model = rbda.load_model(str(urdf), floating_base=True)
    collision = build_geom_from_urdf(model, str(urdf), GeometryType.COLLISION, [str(urdf.parents[4])])
    add_ground_plane(model, collision)
    load_reference_configurations(model, str(robot_file("solo_description/srdf/solo.srdf")))
    q = model.reference_configurations["standing"].copy()
    geom_data = GeometryData(collision)
    compute_distances(model, model.create_data(), collision, geom_data, q)
    q[2] -= float(np.min(geom_data.distances)) - 1e-4  # the feet 0.1 mm above the ground
    sim = Simulator(model, collision, DT)
    pd = StandingPD(sim, q)
    steps = int(round(DURATION / DT))
    t, base, Q = DT * np.arange(1, steps + 1), np.empty((steps, 3)), np.empty((steps + 1, model.nq))
    Q[0] = q
    forces: list[dict[int, float]] = []
    v = np.zeros(model.nv)
    for k in range(steps):
        fext = np.zeros(model.nv)
        if PUSH_START <= k * DT < PUSH_START + PUSH_LENGTH:
            fext[:3] = quat_to_matrix(q[3:7]).T @ [0.0, PUSH, 0.0]  # a world force at the base's origin, its frame
        q, v = sim.step(q, v, pd(q), fext)
        base[k], Q[k + 1] = q[:3], q
        contacts = sim.contacts
        assert contacts is not None  # set by every step
        joints = [max(collision.geometry_objects[i].parent_joint for i in pair) for pair in contacts.pairs]
        forces.append({j: float(sim.forces[2::3][np.array(joints) == j].sum()) for j in set(joints)})
    feet = sorted({j for f in forces for j in f})
    F = np.array([[f.get(j, 0.0) for j in feet] for f in forces])
    weight = sum(model.inertias[j].mass for j in range(model.njoints)) * 9.81
    result = {"height": base[:, 2], "lateral": base[:, 1], "foot_forces": F, "weight": weight, "Q": Q}
    if verbose:
        print(f"base height {base[0, 2]:.5f} -> {base[-1, 2]:.5f} m (extremes {base[:, 2].min():.5f}, "
              f"{base[:, 2].max():.5f}); lateral sway up to {1e3 * np.abs(base[:, 1]).max():.2f} mm; "
              f"feet carry {F[-1].sum():.3f} N of m g = {weight:.3f} N")
    plt = pyplot()
    if plt is not None:
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
        axes[0].plot(t, 1e3 * (base[:, 2] - base[0, 2]), label="height - start")
        axes[0].plot(t, 1e3 * base[:, 1], label="lateral position")
        axes[0].axvspan(PUSH_START, PUSH_START + PUSH_LENGTH, color="0.9", label=f"{PUSH:.0f} N push")
        axes[0].set(xlabel="t (s)", ylabel="mm", title="solo12's base")
        axes[0].legend(fontsize=8)
        for i, j in enumerate(feet):
            axes[1].plot(t, F[:, i], label=model.names[j].split("_")[0] + " foot")
        axes[1].axhline(weight / 4, color="k", ls="--", lw=0.8, label="m g / 4")
        axes[1].axvspan(PUSH_START, PUSH_START + PUSH_LENGTH, color="0.9")
        axes[1].set(xlabel="t (s)", ylabel="N", title="normal force per foot")
        axes[1].legend(fontsize=8, ncol=2)
        fig.suptitle("rbda.Simulator: solo12 standing under StandingPD (dt = 1 ms, NCP ADMM)")
        fig.tight_layout()
        fig.savefig(IMAGE, dpi=100)
        if verbose:
            print(f"saved {IMAGE}")
    try:
        from _animation import save_robot_animation  # examples/_animation.py, next to this script
    except ImportError:
        return result
    try:
        save_robot_animation(model, str(urdf), Q[::10], 10 * DT, ANIMATION, "solo12 standing, pushed by 10 N",
                             f"rbda.Simulator, dt = {DT} s, StandingPD; a {PUSH:.0f} N push at t = {PUSH_START} s",
                             package_dirs=[str(urdf.parents[4])], verbose=verbose)
    except ImportError:  # the viewer extra (trimesh) is missing
        pass
    return result


if __name__ == "__main__":
    main()
