"""A Panda arm moves between two postures along a minimum-jerk path; rbda computes the joint torques it needs
(inverse dynamics of the whole path in one batched call) and shows the motion.

Saves ``panda_motion.html``, an animation that plays in any browser (``rbda.viewer.save_animation``, with the
robot's meshes), and ``panda_motion.png``, a plot of q, v, tau and the energy (``rbda.viewer.plots``, needs
matplotlib). Along the path the mechanical energy changes at the rate of the joint power:
``dE/dt = tau . v``, which the test checks.

Run ``python examples/panda_motion.py`` (``--view`` also serves the motion in the live viewer, rbda[viewer]).
"""

import sys
from pathlib import Path

import numpy as np

import rbda
from rbda.io import build_models_from_urdf
from rbda.viewer import save_animation

from _robots import robot_file  # examples/_robots.py, next to this script

Q_START = np.array([0.0, -0.4, 0.0, -2.2, 0.0, 1.8, 0.8, 0.02, 0.02])
Q_END = np.array([1.2, 0.5, -0.3, -1.4, 0.4, 2.4, -0.2, 0.04, 0.04])


def minimum_jerk(t: np.ndarray, duration: float):
    """Position, velocity and acceleration fractions ``s, ds, dds`` of the minimum-jerk profile
    ``s = 10 u^3 - 15 u^4 + 6 u^5``, ``u = t / duration``."""
    u = t / duration
    return (10 * u**3 - 15 * u**4 + 6 * u**5, (30 * u**2 - 60 * u**3 + 30 * u**4) / duration,
            (60 * u - 180 * u**2 + 120 * u**3) / duration**2)


def main(out_dir=None, duration: float = 3.0, rate: float = 100.0, verbose: bool = True, view: bool = False) -> dict:
    urdf = robot_file("panda_description/urdf/panda.urdf")
    model, _, visual = build_models_from_urdf(urdf, package_dirs=[str(urdf.parents[3])])
    t = np.linspace(0.0, duration, int(duration * rate) + 1)
    s, ds, dds = minimum_jerk(t, duration)
    step = Q_END - Q_START  # all joints revolute or prismatic here: q = Q_START + s (Q_END - Q_START)
    Q, V, A = Q_START + np.outer(s, step), np.outer(ds, step), np.outer(dds, step)
    TAU = rbda.batch.rnea(model, Q, V, A)
    from _output import output_dir  # examples/_output.py: the folder of --out

    out = Path(out_dir).resolve() if out_dir is not None else output_dir()
    html = save_animation(model, visual, Q, t[1] - t[0], out / "panda_motion.html", title="Panda: minimum-jerk move",
                          author="rbda examples", description="inverse dynamics along a minimum-jerk joint path")
    result = {"t": t, "Q": Q, "V": V, "TAU": TAU, "model": model, "html": html, "png": None}
    try:
        from rbda.viewer.plots import energies, plot_trajectory

        plot_trajectory(model, t, Q, V, TAU, energy=True, path=out / "panda_motion.png",
                        title="Panda: minimum-jerk move")
        result["png"] = str(out / "panda_motion.png")
        result["energy"] = energies(model, Q, V)
    except ImportError as exc:
        print(f"no plot: {exc}")
    if verbose:
        print(f"peak torques (N m): {np.round(np.abs(TAU).max(axis=0)[:7], 2)}")
        print("saved", html, "and", result["png"] or "no plot")
    if view:
        from rbda.viewer import Viewer

        with Viewer(model, visual, Q[0]) as viewer:
            print(f"open {viewer.url}; playing the motion in a loop (Ctrl-C to stop)")
            try:
                while True:
                    viewer.play(Q, t[1] - t[0])
            except KeyboardInterrupt:
                pass
    return result


if __name__ == "__main__":
    main(view="--view" in sys.argv[1:])
