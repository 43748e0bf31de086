"""spatial_v2 tutorial example 3: the free-floating 'vee' robot, by hybrid dynamics (``HD``).

``vee()`` is two rods joined by a revolute joint at 45 degrees to both, floating in zero gravity. Joint 7 turns
one full revolution along a prescribed smooth profile ``q7(t)`` (an inverse-dynamics joint), while the floating
base (joints 1-6, forward-dynamics joints with zero force) moves freely. ``HD`` returns the base accelerations
and the torque that joint 7 needs. The system starts at rest, so its momentum stays zero, yet the base ends up
reoriented: with identical rods (``L2 = 1``) each rod turns half of the joint's revolution, so the base ends up
turned by pi about the joint axis.

Run ``python examples/featherstone_vee_hd.py`` to save ``featherstone_vee_hd.png`` (a plot) and
``featherstone_vee_hd.html`` (the animation).
"""

from types import SimpleNamespace

import numpy as np
from scipy.integrate import solve_ivp

import rbda.featherstone as fs

FORWARD = np.array([True] * 6 + [False])  # the floating base is free, joint 7 is prescribed


def joint_profile(t, period):
    """Prescribed ``(q7, qd7, qdd7)``: ``2 pi (s - sin(2 pi s) / (2 pi))`` with ``s = t / period``, one full turn
    starting and ending at rest."""
    s, w = t / period, 2 * np.pi / period
    return (2 * np.pi * s - np.sin(2 * np.pi * s), (1 - np.cos(w * t)) * 2 * np.pi / period,
            np.sin(w * t) * w * 2 * np.pi / period)


def simulate(period=2.0, L2=1.0, rtol=1e-9, atol=1e-11):
    """Simulate one prescribed turn of joint 7; returns ``t``, ``q``, ``qd`` (all 7 joints) and ``tau7``."""
    model = fs.vee(L2)

    def rhs(t, y):
        q, qd = y[:7], y[7:]
        qdd = np.zeros(7)
        qdd[6] = joint_profile(t, period)[2]
        qdd_out, _ = fs.HD(model, FORWARD, q, qd, qdd, np.zeros(7))
        return np.concatenate([qd, qdd_out])

    sol = solve_ivp(rhs, (0.0, period), np.zeros(14), rtol=rtol, atol=atol, t_eval=np.linspace(0, period, 201))
    q, qd = sol.y[:7].T, sol.y[7:].T
    tau7 = []
    for tk, qk, qdk in zip(sol.t, q, qd):
        qdd = np.zeros(7)
        qdd[6] = joint_profile(tk, period)[2]
        tau7.append(fs.HD(model, FORWARD, qk, qdk, qdd, np.zeros(7))[1][6])
    return SimpleNamespace(t=sol.t, q=q, qd=qd, tau7=np.array(tau7), period=period, model=model)


def main():
    traj = simulate()
    print(f"joint 7 turned {traj.q[-1, 6]:.4f} rad; base orientation angles after the turn: {traj.q[-1, 3:6]}")
    from _animation import showmotion  # examples/_animation.py, next to this script

    showmotion(traj.model, traj.t, traj.q, "featherstone_vee_hd",
               "turning one joint of a free-floating vee (hybrid dynamics)")
    from _output import output_path  # examples/_output.py and _plotting.py, next to this script
    from _plotting import pyplot

    plt = pyplot()
    if plt is None:
        return
    fig, (ax1, ax2) = plt.subplots(2, 1, sharex=True)
    ax1.plot(traj.t, traj.q[:, 3:], label=["base rx", "base ry", "base rz", "joint 7"])
    ax1.set_ylabel("angle (rad)")
    ax1.legend()
    ax2.plot(traj.t, traj.tau7)
    ax2.set_xlabel("time (s)")
    ax2.set_ylabel("joint 7 torque (N m)")
    path = output_path("featherstone_vee_hd.png")
    fig.savefig(path)
    print(f"saved {path}")


if __name__ == "__main__":
    main()
