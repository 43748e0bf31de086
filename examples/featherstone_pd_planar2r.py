"""spatial_v2 tutorial example 1: PD control of a planar 2R robot.

The robot is ``planar(2)`` (two unit rods, no gravity); a continuous PD law
``tau = Kp (q_target - q) - Kd qd`` drives it from rest at ``q0`` to ``q_target``; ``FDab`` gives the
accelerations and ``scipy.integrate.solve_ivp`` integrates ``[q; qd]``.

Run ``python examples/featherstone_pd_planar2r.py`` to save ``featherstone_pd_planar2r.png`` (a plot) and
``featherstone_pd_planar2r.html`` (the animation).
"""

from types import SimpleNamespace

import numpy as np
from scipy.integrate import solve_ivp

import rbda.featherstone as fs

KP, KD = 100.0, 20.0  # gains: close to critically damped for the robot's unit-size inertia
Q_TARGET = np.array([np.pi / 3, -np.pi / 2])


def pd_torque(q, qd, target):
    """The PD law ``Kp (target - q) - Kd qd``."""
    return KP * (target - q) - KD * qd


def simulate(t_final=3.0, q0=(0.0, 0.0), target=Q_TARGET, rtol=1e-8, atol=1e-10):
    """Simulate the PD-controlled robot from rest at ``q0``; returns ``t``, ``q``, ``qd``, ``tau`` (per sample)."""
    model = fs.planar(2)
    target = np.asarray(target, dtype=float)

    def rhs(t, y):
        q, qd = y[:2], y[2:]
        return np.concatenate([qd, fs.FDab(model, q, qd, pd_torque(q, qd, target))])

    y0 = np.concatenate([np.asarray(q0, dtype=float), np.zeros(2)])
    sol = solve_ivp(rhs, (0.0, t_final), y0, rtol=rtol, atol=atol, t_eval=np.linspace(0.0, t_final, 301))
    q, qd = sol.y[:2].T, sol.y[2:].T
    tau = np.array([pd_torque(qk, qdk, target) for qk, qdk in zip(q, qd)])
    return SimpleNamespace(t=sol.t, q=q, qd=qd, tau=tau, target=target, model=model)


def main():
    traj = simulate()
    print(f"final q = {traj.q[-1]}, target = {traj.target}, error = {np.abs(traj.q[-1] - traj.target).max():.2e}")
    from _animation import showmotion  # examples/_animation.py, next to this script

    showmotion(traj.model, traj.t, traj.q, "featherstone_pd_planar2r",
               "PD control drives a planar 2R arm to its target")
    from _output import output_path  # examples/_output.py and _plotting.py, next to this script
    from _plotting import pyplot

    plt = pyplot()
    if plt is None:
        return
    fig, (ax1, ax2) = plt.subplots(2, 1, sharex=True)
    ax1.plot(traj.t, traj.q, label=["q1", "q2"])
    ax1.plot(traj.t[[0, -1]], [traj.target, traj.target], "k:")
    ax1.set_ylabel("joint angle (rad)")
    ax1.legend()
    ax2.plot(traj.t, traj.tau, label=["tau1", "tau2"])
    ax2.set_xlabel("time (s)")
    ax2.set_ylabel("torque (N m)")
    ax2.legend()
    path = output_path("featherstone_pd_planar2r.png")
    fig.savefig(path)
    print(f"saved {path}")


if __name__ == "__main__":
    main()
