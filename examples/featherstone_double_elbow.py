"""spatial_v2 tutorial example 6: controlling a robot with a kinematic constraint (``FDgq``).

``doubleElbow()`` is a planar robot whose elbow is two revolute joints geared 1:1 (``q2 = q3``), described by
the model's ``gamma_q``. A PD law on the independent coordinates ``y = [q1, q2]`` drives joints 1 and 2 (joint 3
follows through the gearing); ``FDgq`` gives the constrained accelerations, with a stabilisation term that makes
any violation ``e = q3 - q2`` decay as ``e'' + (2/T) e' + e/T^2 = 0``, i.e. ``e(t) = e0 (1 + t/T) exp(-t/T)`` from
rest. The simulation starts with a violation of ``e0``.

Run ``python examples/featherstone_double_elbow.py`` to save ``featherstone_double_elbow.png`` (a plot) and
``featherstone_double_elbow.html`` (the animation).
"""

from types import SimpleNamespace

import numpy as np
from scipy.integrate import solve_ivp

import rbda.featherstone as fs

KP, KD = 50.0, 15.0
Y_TARGET = np.array([np.pi / 4, np.pi / 6])


def pd_torque(q, qd, target):
    """PD on ``y = [q1, q2]``, applied at joints 1 and 2; joint 3 is driven by the gearing only."""
    return np.concatenate([KP * (target - q[:2]) - KD * qd[:2], [0.0]])


def simulate(t_final=3.0, violation=0.05, target=Y_TARGET, rtol=1e-9, atol=1e-11):
    """Start at rest at ``q = [0, 0, violation]``; returns ``t``, ``q``, ``qd`` and ``violation = q3 - q2``."""
    model = fs.doubleElbow()

    def rhs(t, y):
        q, qd = y[:3], y[3:]
        return np.concatenate([qd, fs.FDgq(model, q, qd, pd_torque(q, qd, target))])

    y0 = np.array([0.0, 0.0, violation, 0.0, 0.0, 0.0])
    sol = solve_ivp(rhs, (0.0, t_final), y0, rtol=rtol, atol=atol, t_eval=np.linspace(0.0, t_final, 301))
    q, qd = sol.y[:3].T, sol.y[3:].T
    return SimpleNamespace(t=sol.t, q=q, qd=qd, violation=q[:, 2] - q[:, 1], target=np.asarray(target),
                           model=model)


def main():
    traj = simulate()
    print(f"constraint violation: {traj.violation[0]:.3e} -> {traj.violation[-1]:.3e}; final y = {traj.q[-1, :2]}")
    from _animation import showmotion  # examples/_animation.py, next to this script

    showmotion(traj.model, traj.t, traj.q, "featherstone_double_elbow",
               "a planar arm with a 1:1 geared double elbow, controlled with FDgq")
    from _output import output_path  # examples/_output.py and _plotting.py, next to this script
    from _plotting import pyplot

    plt = pyplot()
    if plt is None:
        return
    fig, (ax1, ax2) = plt.subplots(2, 1, sharex=True)
    ax1.plot(traj.t, traj.q, label=["q1", "q2", "q3"])
    ax1.set_ylabel("joint angle (rad)")
    ax1.legend()
    ax2.semilogy(traj.t, np.abs(traj.violation) + 1e-16)
    ax2.set_xlabel("time (s)")
    ax2.set_ylabel("|q3 - q2| (rad)")
    path = output_path("featherstone_double_elbow.png")
    fig.savefig(path)
    print(f"saved {path}")


if __name__ == "__main__":
    main()
