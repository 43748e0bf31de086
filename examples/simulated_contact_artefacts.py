"""The artefacts of the relaxed contact models in simulation: a 1 kg cube (side 0.1 m) on the ground, mu = 0.5,
dt = 1 ms, stepped by ``rbda.Simulator`` (ADMM, tight tolerances) on its four bottom corners.

- Sliding: launched at 1 m/s along x. Under Coulomb's law with Signorini (NCP) it stays on the ground and slows
  at mu g to a stop at ``v0^2 / (2 mu g)``. Under the convex relaxation (CCP) each step in contact ends with the
  contact velocity on the cone's boundary, ``v_n = mu ||v_t||`` (the complementarity is between the impulse and
  the velocity on the cone, not between the normal impulse and the normal gap): the first step throws the cube
  up at ``mu s'`` (``s' = (s - mu g dt) / (1 + mu^2)``, 0.4 m/s), it flies 8 mm high without friction, lands,
  then hovers ``mu ||v_t|| dt`` above the ground (Baumgarte's gap term in ``v_n``) while it slows at mu g. It
  stops when the NCP's does: sliding, friction is mu times the normal impulse, whose sum is ``m g t`` once the
  vertical velocity is back to 0, so the speed lost at take-off and landing makes up for the frictionless flight.
- Direction: launched at 1 m/s in a direction ``phi`` between the tangent axes t1 = x and t2 = y (the ground's
  contact frame), it slows at mu g in every direction under the NCP (Coulomb's circle). Under the LCP, whose
  four-facet pyramid bounds each tangent component by ``mu f_n`` separately, both components sit at their bound
  while they slide, so it slows at ``||(mu g, mu g)|| = sqrt(2) mu g`` for any ``0 < phi < 90`` deg (mu g along
  an axis), along the diagonal rather than against its velocity.

Saves ``simulated_contact_artefacts.png`` (matplotlib, optional; docs/images/ holds the README's copy).

    python examples/simulated_contact_artefacts.py
"""

from __future__ import annotations

import numpy as np

import rbda
from rbda.io import Box, GeometryModel
from rbda.simulation import Simulator, add_free_body, add_ground_plane

MASS, SIDE, MU, DT, GRAVITY, SPEED = 1.0, 0.1, 0.5, 1e-3, 9.81, 1.0
TIGHT = dict(max_iter=5000, absolute_feasibility_tol=1e-12, relative_feasibility_tol=1e-12,
             absolute_complementarity_tol=1e-14, relative_complementarity_tol=1e-12)


def launch(formulation: str, phi: float, steps: int) -> dict:
    """The cube launched at ``SPEED`` in the direction ``phi`` (rad from x), simulated for ``steps`` steps under
    ``formulation``: ``Q (steps + 1, 7)``, ``V (steps + 1, 6)`` (``V[:, :3]`` the linear velocity in the cube's
    frame, here the world's: it does not turn) and ``contact (steps, 3)``, the first corner's contact velocity
    ``[v_t1, v_t2, v_n]`` after each step (``G lambda + g``, Baumgarte's gap term included; NaN without
    contact) and ``impulse (steps, 3)``, its impulse ``[l_t1, l_t2, l_n]`` (NaN without contact)."""
    model, collision_model = rbda.Model(), GeometryModel()
    add_free_body(model, collision_model, "cube", Box((SIDE, SIDE, SIDE)), MASS)
    add_ground_plane(model, collision_model)
    model.gravity = rbda.Motion([0.0, 0.0, -GRAVITY], [0.0, 0.0, 0.0])
    sim = Simulator(model, collision_model, DT, formulation=formulation, mu=MU, solver_options=TIGHT)
    Q, V = np.empty((steps + 1, model.nq)), np.zeros((steps + 1, model.nv))
    Q[0] = rbda.neutral(model)
    Q[0, 2] = SIDE / 2
    V[0, :2] = SPEED * np.cos(phi), SPEED * np.sin(phi)
    contact, impulse = np.full((steps, 3), np.nan), np.full((steps, 3), np.nan)
    for t in range(steps):
        Q[t + 1], V[t + 1] = sim.step(Q[t], V[t], np.zeros(model.nv))
        assert sim.stats.converged, sim.stats
        if sim.impulses.size:
            contact[t], impulse[t] = sim.contact_velocities[:3], sim.impulses[:3]
    return {"Q": Q, "V": V, "contact": contact, "impulse": impulse}


def main(verbose: bool = True, steps: int = 260, angles=None) -> dict:
    """Both experiments; returns ``{"time", "sliding": {formulation: launch}, "angles", "deceleration":
    {formulation: (n,)}}``, the deceleration over the first step in units of mu g."""
    time = DT * np.arange(steps + 1)
    sliding = {f: launch(f, 0.0, steps) for f in ("ncp", "ccp")}
    angles = np.radians(np.arange(0.0, 91.0, 7.5)) if angles is None else np.asarray(angles, dtype=float)
    deceleration = {}
    for formulation in ("ncp", "lcp"):
        dv = np.array([launch(formulation, phi, 1)["V"][:, :2] for phi in angles])  # (n, 2, 2)
        deceleration[formulation] = np.linalg.norm(dv[:, 0] - dv[:, 1], axis=1) / (MU * GRAVITY * DT)
    result = {"time": time, "sliding": sliding, "angles": angles, "deceleration": deceleration}
    if verbose:
        lift = 1e3 * (sliding["ccp"]["Q"][:, 2] - SIDE / 2)
        print(f"CCP: leaves the ground at {sliding['ccp']['V'][1, 2]:.4f} m/s and rises {lift.max():.3f} mm (NCP: "
              f"{1e3 * np.abs(sliding['ncp']['Q'][:, 2] - SIDE / 2).max():.1e} mm)")
        print(f"LCP: slows at {deceleration['lcp'].max():.4f} mu g along the diagonal, {deceleration['lcp'][0]:.4f} "
              f"along an axis (NCP: {deceleration['ncp'].min():.4f} to {deceleration['ncp'].max():.4f})")
        _plot(result)
    return result


def _plot(result: dict) -> None:
    from _plotting import pyplot, save

    plt = pyplot()
    if plt is None:
        return
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(13, 3.8))
    ms = 1e3 * result["time"]
    for formulation, label in (("ncp", "NCP (Coulomb, Signorini)"), ("ccp", "CCP (convex relaxation)")):
        run = result["sliding"][formulation]
        ax1.plot(ms, 1e3 * (run["Q"][:, 2] - SIDE / 2), label=label)
        ax2.plot(ms, np.linalg.norm(run["V"][:, :2], axis=1), label=label)
    ax1.set(xlabel="time (ms)", ylabel="height above resting (mm)", title="cube launched at 1 m/s: height")
    ax2.set(xlabel="time (ms)", ylabel="speed (m/s)", title="speed (both slow at mu g while in contact)")
    degrees = np.degrees(result["angles"])
    for formulation, label in (("ncp", "NCP (Coulomb's circle)"), ("lcp", "LCP (four-facet pyramid)")):
        ax3.plot(degrees, result["deceleration"][formulation], "o-", ms=3, label=label)
    ax3.set(xlabel="sliding direction (deg from t1 = x)", ylabel="deceleration / (mu g)",
            title="deceleration vs sliding direction")
    save(fig, (ax1, ax2, ax3), "simulated_contact_artefacts.png")


if __name__ == "__main__":
    main()
