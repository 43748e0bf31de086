"""spatial_v2 tutorial example 5: a spinning two-body scissor (``gcFD``, ``FDfb``, ``fbanim``).

``scissor()`` is two strips pinned at their middles by a free revolute joint (joint 7), floating in zero
gravity. Spun about the strips' common long axis with the scissor nearly closed, it opens under the centrifugal
effect, closes again and so on, trading spin for opening. ``gcFD(model, FDfb, u)`` evaluates the dynamics from
one input vector ``u = [x; q; qd; tau]``. With no external force and a passive joint, the kinetic energy and the
spatial momentum are constant.

Run ``python examples/featherstone_spinning_scissor.py`` to save ``featherstone_spinning_scissor.png`` (a plot) and
``featherstone_spinning_scissor.html`` (the animation).
"""

from types import SimpleNamespace

import numpy as np
from scipy.integrate import solve_ivp

import rbda.featherstone as fs

SPIN = 3.0  # rad/s about the long (z) axis
OPENING_RATE = 0.05  # initial joint rate (rad/s), to leave the closed, unstable equilibrium


def simulate(t_final=6.0, spin=SPIN, opening_rate=OPENING_RATE, rtol=1e-10, atol=1e-12):
    """Integrate ``[x; q7; qd7]`` with ``gcFD``; returns ``t``, ``x`` (samples x 13), ``q``, ``qd``, ``Q``."""
    model = fs.scissor()

    def rhs(t, y):
        x, q, qd = y[:13], y[13:14], y[14:15]
        out = fs.gcFD(model, fs.FDfb, np.concatenate([x, q, qd, [0.0]]))  # [xdfb; qdd]
        return np.concatenate([out[:13], qd, out[13:]])

    x0 = np.concatenate([[1.0, 0.0, 0.0, 0.0], np.zeros(3), [0.0, 0.0, spin], np.zeros(3)])
    y0 = np.concatenate([x0, [0.0, opening_rate]])
    sol = solve_ivp(rhs, (0.0, t_final), y0, rtol=rtol, atol=atol, t_eval=np.linspace(0.0, t_final, 301))
    x, q, qd = sol.y[:13].T, sol.y[13:14].T, sol.y[14:15].T
    return SimpleNamespace(t=sol.t, x=x, q=q, qd=qd, Q=fs.fbanim(x.T, q.T).T, model=model)


def main():
    traj = simulate()
    print(f"scissor angle range: {traj.q.min():.3f} .. {traj.q.max():.3f} rad")
    from _animation import showmotion  # examples/_animation.py, next to this script

    showmotion(traj.model, traj.t, traj.Q, "featherstone_spinning_scissor",
               "a free-floating scissor spins in zero gravity")
    from _output import output_path  # examples/_output.py and _plotting.py, next to this script
    from _plotting import pyplot

    plt = pyplot()
    if plt is None:
        return
    fig, (ax1, ax2) = plt.subplots(2, 1, sharex=True)
    ax1.plot(traj.t, traj.q[:, 0])
    ax1.set_ylabel("scissor angle (rad)")
    ax2.plot(traj.t, traj.x[:, 7:10], label=["wx", "wy", "wz"])
    ax2.set_xlabel("time (s)")
    ax2.set_ylabel("base angular velocity (rad/s)")
    ax2.legend()
    path = output_path("featherstone_spinning_scissor.png")
    fig.savefig(path)
    print(f"saved {path}")


if __name__ == "__main__":
    main()
