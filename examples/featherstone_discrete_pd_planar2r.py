"""spatial_v2 tutorial example 2: discrete (sampled) PD control of a planar 2R robot.

As example 1, but the controller samples ``q, qd`` every ``Ts`` seconds and holds its torque until the next
sample (zero-order hold): continuous dynamics (``FDab``, integrated by ``solve_ivp``) under a sampled-time
controller. Each sampling interval is one ``solve_ivp`` run with a constant torque.

Run ``python examples/featherstone_discrete_pd_planar2r.py``
to save ``featherstone_discrete_pd_planar2r.png`` (a plot) and
``featherstone_discrete_pd_planar2r.html`` (the animation).
"""

from types import SimpleNamespace

import numpy as np
from scipy.integrate import solve_ivp

import rbda.featherstone as fs

KP, KD = 100.0, 20.0
Q_TARGET = np.array([np.pi / 3, -np.pi / 2])


def simulate(t_final=3.0, sample_time=0.02, q0=(0.0, 0.0), target=Q_TARGET, rtol=1e-8, atol=1e-10):
    """Simulate the sampled PD loop; returns ``t``, ``q``, ``qd`` (dense) and ``t_samples``, ``tau_samples``."""
    model = fs.planar(2)
    target = np.asarray(target, dtype=float)
    y = np.concatenate([np.asarray(q0, dtype=float), np.zeros(2)])
    ts, ys, t_samples, tau_samples = [0.0], [y], [], []
    for k in range(int(round(t_final / sample_time))):
        t0 = k * sample_time
        tau = KP * (target - y[:2]) - KD * y[2:]  # sampled at t0, held until t0 + Ts

        def rhs(t, x, tau=tau):
            return np.concatenate([x[2:], fs.FDab(model, x[:2], x[2:], tau)])

        sol = solve_ivp(rhs, (t0, t0 + sample_time), y, rtol=rtol, atol=atol,
                        t_eval=np.linspace(t0, t0 + sample_time, 5)[1:])
        y = sol.y[:, -1]
        t_samples.append(t0)
        tau_samples.append(tau)
        ts.extend(sol.t)
        ys.extend(sol.y.T)
    ys = np.array(ys)
    return SimpleNamespace(t=np.array(ts), q=ys[:, :2], qd=ys[:, 2:], t_samples=np.array(t_samples),
                           tau_samples=np.array(tau_samples), target=target, sample_time=sample_time, model=model)


def main():
    traj = simulate()
    print(f"final q = {traj.q[-1]}, target = {traj.target}, error = {np.abs(traj.q[-1] - traj.target).max():.2e}")
    from _animation import showmotion  # examples/_animation.py, next to this script

    showmotion(fs.planar(2), traj.t, traj.q, "featherstone_discrete_pd_planar2r",
               "PD control at discrete sample times drives a planar 2R arm to its target")
    from _output import output_path  # examples/_output.py and _plotting.py, next to this script
    from _plotting import pyplot

    plt = pyplot()
    if plt is None:
        return
    fig, (ax1, ax2) = plt.subplots(2, 1, sharex=True)
    ax1.plot(traj.t, traj.q, label=["q1", "q2"])
    ax1.set_ylabel("joint angle (rad)")
    ax1.legend()
    ax2.step(traj.t_samples, traj.tau_samples, where="post", label=["tau1", "tau2"])
    ax2.set_xlabel("time (s)")
    ax2.set_ylabel("held torque (N m)")
    ax2.legend()
    path = output_path("featherstone_discrete_pd_planar2r.png")
    fig.savefig(path)
    print(f"saved {path}")


if __name__ == "__main__":
    main()
