"""The artefacts of the relaxed contact models, one time step of a 1 kg point mass sliding on the ground
(dt = 1 ms, mu = 0.5), solved by ADMM on the three formulations:

- the friction pyramid (LCP) is anisotropic: sliding in any direction strictly between its tangent axes, both
  friction components sit at their bound mu f_n, so the friction is sqrt(2) times Coulomb's and points along a
  diagonal, off the sliding direction by up to 45 degrees (along an axis it is Coulomb's);
- the convex relaxation (CCP) levitates: a contact sliding at speed s leaves the ground at v_n = mu s' (s' the
  speed after the step), where Coulomb's law with Signorini (NCP) keeps v_n = 0.

For the point mass, the Delassus matrix is ``I / m`` and the free velocity ``g = v + dt g_gravity``. Saves
``contact_artefacts.png`` (matplotlib, optional).

    python examples/contact_artefacts.py
"""

from __future__ import annotations

import numpy as np

from rbda.simulation import ADMMSolver, DelassusDense

MASS, MU, DT, GRAVITY = 1.0, 0.5, 1e-3, 9.81


def step(formulation: str, velocity) -> np.ndarray:
    """The point mass's velocity after one step from ``velocity (3,)``."""
    G = DelassusDense(np.eye(3) / MASS)
    g = np.asarray(velocity, dtype=float) + DT * np.array([0.0, 0.0, -GRAVITY])
    solver = ADMMSolver(formulation, absolute_feasibility_tol=1e-12, relative_feasibility_tol=0.0,
                        absolute_complementarity_tol=1e-14, relative_complementarity_tol=0.0)
    lam = solver.solve(G, g, MU)
    assert solver.stats.converged, solver.stats
    return G.apply(lam) + g


def main(verbose: bool = True) -> dict:
    angles = np.linspace(0.0, np.pi / 2, 19)
    magnitude: dict[str, list[float]] = {}
    deviation: dict[str, list[float]] = {}
    for formulation in ("ncp", "lcp"):
        magnitude[formulation], deviation[formulation] = [], []
        for phi in angles:
            v0 = np.array([np.cos(phi), np.sin(phi), 0.0])
            friction = v0 - step(formulation, v0)  # the velocity change the friction makes, opposite the sliding
            magnitude[formulation].append(float(np.linalg.norm(friction[:2])) / (MU * GRAVITY * DT))
            cosine = friction[:2] @ v0[:2] / np.linalg.norm(friction[:2])
            deviation[formulation].append(np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0))))
    speeds = np.linspace(0.0, 2.0, 21)
    lift = {f: np.array([step(f, [s, 0.0, 0.0])[2] for s in speeds]) for f in ("ncp", "ccp")}
    result: dict = {"angles": angles, "magnitude": {k: np.array(v) for k, v in magnitude.items()},
              "deviation": {k: np.array(v) for k, v in deviation.items()}, "speeds": speeds, "lift": lift}
    if verbose:
        print(f"pyramid: friction sliding along a diagonal {result['magnitude']['lcp'][9]:.3f} x mu g dt (Coulomb: "
              f"{result['magnitude']['ncp'][9]:.3f}); largest deviation from the sliding direction "
              f"{result['deviation']['lcp'].max():.1f} deg")
        print(f"CCP: normal velocity after a step sliding at 2 m/s {lift['ccp'][-1]:.3f} m/s "
              f"(NCP: {lift['ncp'][-1]:.1e})")
        _plot(result)
    return result


def _plot(result: dict) -> None:
    from _plotting import pyplot, save

    plt = pyplot()
    if plt is None:
        return
    fig, (ax1, ax2, ax3) = plt.subplots(1, 3, figsize=(12, 3.6))
    degrees = np.degrees(result["angles"])
    for formulation, label in (("ncp", "NCP (Coulomb)"), ("lcp", "LCP (pyramid)")):
        ax1.plot(degrees, result["magnitude"][formulation], "o-", ms=3, label=label)
        ax2.plot(degrees, result["deviation"][formulation], "o-", ms=3, label=label)
    ax1.set(xlabel="sliding direction (deg from t1)", ylabel="|friction impulse| / (mu m g dt)",
            title="friction magnitude")
    ax2.set(xlabel="sliding direction (deg from t1)", ylabel="deg", title="friction off the sliding direction")
    for formulation, label in (("ncp", "NCP"), ("ccp", "CCP")):
        ax3.plot(result["speeds"], result["lift"][formulation], "o-", ms=3, label=label)
    ax3.set(xlabel="sliding speed (m/s)", ylabel="normal velocity after the step (m/s)", title="CCP levitation")
    save(fig, (ax1, ax2, ax3), "contact_artefacts.png")


if __name__ == "__main__":
    main()
