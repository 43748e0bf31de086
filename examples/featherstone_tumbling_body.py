"""spatial_v2 tutorial example 4: a free-floating rigid body tumbling chaotically (``FDfb``, ``fbanim``).

``singlebody()`` is a 3 x 2 x 1 box in zero gravity. Spun mostly about its intermediate principal axis, it
tumbles: the spin axis flips over periodically (the Dzhanibekov effect). ``FDfb`` integrates the 13-element
quaternion state ``x = [qn; r; v]``, free of the Euler-angle singularity; ``fbanim`` turns the result into
wrap-free joint angles for plotting or animation. With no external force, the kinetic energy and the spatial
momentum ``h = I_0 v`` (fixed coordinates) are constant.

Run ``python examples/featherstone_tumbling_body.py`` to save ``featherstone_tumbling_body.png`` (a plot) and
``featherstone_tumbling_body.html`` (the animation).
"""

from types import SimpleNamespace

import numpy as np
from scipy.integrate import solve_ivp

import rbda.featherstone as fs

#: initial angular velocity (fixed coordinates): mostly about the box's intermediate axis y
OMEGA0 = np.array([0.02, 1.0, 0.02])


def initial_state(model, omega=OMEGA0):
    """``x0``: identity orientation, origin at 0, the centre of mass at rest, angular velocity ``omega``."""
    _, c, _ = fs.mcI(model.I[5])
    v = np.concatenate([omega, np.cross(c, omega)])  # v_O = v_c + w x (0 - c)
    return np.concatenate([[1.0, 0.0, 0.0, 0.0], np.zeros(3), v])


def simulate(t_final=20.0, omega=OMEGA0, rtol=1e-10, atol=1e-12):
    """Integrate ``FDfb``; returns ``t``, ``x`` (samples x 13) and ``Q = fbanim(x)`` (samples x 6)."""
    model = fs.singlebody()

    def rhs(t, x):
        return fs.FDfb(model, x, [], [], [])[0]

    sol = solve_ivp(rhs, (0.0, t_final), initial_state(model, omega), rtol=rtol, atol=atol,
                    t_eval=np.linspace(0.0, t_final, 401))
    return SimpleNamespace(t=sol.t, x=sol.y.T, Q=fs.fbanim(sol.y).T, model=model)


def main():
    traj = simulate()
    print(f"{traj.t.size} samples; final orientation quaternion {traj.x[-1, :4]}")
    from _animation import showmotion  # examples/_animation.py, next to this script

    showmotion(traj.model, traj.t, traj.Q, "featherstone_tumbling_body",
               "a free box tumbles in zero gravity")
    from _output import output_path  # examples/_output.py and _plotting.py, next to this script
    from _plotting import pyplot

    plt = pyplot()
    if plt is None:
        return
    fig, (ax1, ax2) = plt.subplots(2, 1, sharex=True)
    ax1.plot(traj.t, traj.Q[:, 3:], label=["rx", "ry", "rz"])
    ax1.set_ylabel("wrap-free angle (rad)")
    ax1.legend()
    ax2.plot(traj.t, traj.x[:, 7:10], label=["wx", "wy", "wz"])
    ax2.set_xlabel("time (s)")
    ax2.set_ylabel("angular velocity (rad/s)")
    ax2.legend()
    path = output_path("featherstone_tumbling_body.png")
    fig.savefig(path)
    print(f"saved {path}")


if __name__ == "__main__":
    main()
