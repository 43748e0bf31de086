"""spatial_v2 tutorial example 7: a disc bouncing and rolling on compliant ground (the ground-contact model).

``rollingdisc(npt)`` is a floating polyhedral disc (radius 1, mass 1, axis along its body y axis) with
``2 npt`` ground-contact points at its vertices. Dropped upright with a forward speed and no spin, it bounces,
slides, and friction spins it up until it rolls without slipping. Each evaluation chains the ground-contact
functions: ``gcPosVel`` (points' positions and velocities), ``gcontact`` (compliant ground forces, the rates of
the ground's tangential deformation ``u`` and the sticking indicator) and ``gcFD`` (``FDfb`` under those forces).
The state is ``[x (13); u (2 x 2 npt)]``.

Run ``python examples/featherstone_rolling_disc.py`` to save ``featherstone_rolling_disc.png`` (a plot) and
``featherstone_rolling_disc.html`` (the animation).
"""

from types import SimpleNamespace

import numpy as np
from scipy.integrate import solve_ivp

import rbda.featherstone as fs

NPT = 16  # vertices of each polygonal face
K, D, MU = 1e4, 100.0, 0.6  # ground stiffness, damping, friction coefficient


def contact(model, x, u):
    """``(p, pd, f, ud, fcone)`` of the contact points at state ``x`` and ground deformation ``u: (2, np)``."""
    posvel = fs.gcPosVel(model, x)
    p, pd = posvel[:3], posvel[3:]
    f, ud, fcone = fs.gcontact(K, D, MU, p, pd, u)
    return p, pd, f, ud, fcone


def simulate(t_final=3.0, height=1.3, speed=2.0, npt=NPT, rtol=1e-6, atol=1e-8, max_step=0.005):
    """Drop the disc with its centre at ``height`` moving at ``speed`` along x; returns ``t``, ``x``, ``u`` and,
    per sample, the contact forces ``f: (samples, 3, np)`` and sticking indicators ``fcone: (samples, np)``.

    ``max_step`` keeps the integrator from trying, after a flight phase, a step that lands deep in the ground
    (whose stiff forces would be absurd there)."""
    model = fs.rollingdisc(npt)
    n = 2 * npt

    def rhs(t, y):
        x, u = y[:13], y[13:].reshape(2, n)
        p, _, f, ud, _ = contact(model, x, u)
        F = fs.Fpt(f, p)  # spatial forces on the points, base coordinates
        return np.concatenate([fs.gcFD(model, fs.FDfb, np.concatenate([x, F.T.ravel()])), ud.ravel()])

    x0 = np.concatenate([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, height], np.zeros(3), [speed, 0.0, 0.0]])
    sol = solve_ivp(rhs, (0.0, t_final), np.concatenate([x0, np.zeros(2 * n)]), rtol=rtol, atol=atol,
                    max_step=max_step, t_eval=np.linspace(0.0, t_final, 301))
    x, u = sol.y[:13].T, sol.y[13:].T.reshape(-1, 2, n)
    samples = [contact(model, xk, uk) for xk, uk in zip(x, u)]
    return SimpleNamespace(t=sol.t, x=x, u=u, p=np.array([s[0] for s in samples]),
                           pd=np.array([s[1] for s in samples]), f=np.array([s[2] for s in samples]),
                           fcone=np.array([s[4] for s in samples]), model=model, nfev=sol.nfev)


def ground(model):
    """``model`` drawn on a ground grid (its base's appearance)."""
    model.appearance = {**model.appearance, "base": [("tiles", "ground")]}
    return model


def main():
    traj = simulate()
    w, r, vO = traj.x[-1, 7:10], traj.x[-1, 4:7], traj.x[-1, 10:]
    v_centre = vO + np.cross(w, r)
    print(f"final centre speed {v_centre[0]:.3f} m/s, rolling speed w_y R = {w[1]:.3f} m/s; "
          f"{traj.nfev} evaluations")
    from _animation import showmotion  # examples/_animation.py, next to this script

    showmotion(ground(traj.model), traj.t, fs.fbanim(traj.x.T).T, "featherstone_rolling_disc",
               "a polyhedral disc rolls on compliant ground")
    from _output import output_path  # examples/_output.py and _plotting.py, next to this script
    from _plotting import pyplot

    plt = pyplot()
    if plt is None:
        return
    fig, (ax1, ax2) = plt.subplots(2, 1, sharex=True)
    ax1.plot(traj.t, traj.x[:, 6], label="centre height")
    ax1.set_ylabel("z (m)")
    ax2.plot(traj.t, traj.x[:, 10] + traj.x[:, 8] * traj.x[:, 6], label="centre speed")
    ax2.plot(traj.t, traj.x[:, 8], label="w_y R")
    ax2.set_xlabel("time (s)")
    ax2.legend()
    path = output_path("featherstone_rolling_disc.png")
    fig.savefig(path)
    print(f"saved {path}")


if __name__ == "__main__":
    main()
