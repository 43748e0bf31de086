"""Identification of the link masses of an arm by gradient descent in JAX, from simulated data.

    python examples/jax_mass_identification.py

Data: the 6-dof ``manipulator`` follows a PD law towards moving sinusoidal references for 2 s (semi-implicit
Euler on ``rbda.jax.aba``, jitted), and every step's ``(q, v, ddq, tau)`` is recorded. Unknowns: the six link
masses, each body keeping its centre of mass and its inertia per unit mass (a change of density), so that body
i's spatial inertia is ``m_i Y_i`` with ``Y_i`` of unit mass. Inverse dynamics is linear in the inertias, hence

    tau = armature * ddq + sum_i m_i rnea_i(q, v, ddq),

where ``rnea_i`` is the RNEA of the arm with body i of unit mass and every other body massless. The features
``rnea_i`` are computed once for the whole record, by ``jax.vmap`` of ``rbda.jax.rnea`` (one batched rbda call
per body). The masses then minimise the mean squared torque error by gradient descent with Nesterov momentum
(``jax.grad``, the loop under ``jax.jit``), on variables scaled by the features' norms; the step and the
momentum come from the loss's curvature bounds (its Hessian is ``2 Phi^T Phi / n``, a 6x6 matrix).
"""

from __future__ import annotations

import copy

import jax
import jax.numpy as jnp
import numpy as np

import rbda
import rbda.jax
from _plotting import pyplot

jax.config.update("jax_enable_x64", True)


def simulate(model, T: float = 2.0, dt: float = 1e-3, seed: int = 0) -> dict:
    """``q, v, ddq, tau`` ``(n, nv)`` along a PD tracking of random sinusoids (gains 80, 12), by semi-implicit
    Euler on ``rbda.jax.aba`` inside one jitted ``jax.lax.scan``."""
    rng = np.random.default_rng(seed)
    amplitude, frequency, phase = rng.uniform(0.3, 1.0, model.nv), rng.uniform(0.3, 1.5, model.nv), rng.uniform(
        0.0, 2 * np.pi, model.nv)

    def step(state, t):
        q, v = state
        reference = amplitude * jnp.sin(2 * np.pi * frequency * t + phase)
        tau = 80.0 * (reference - q) - 12.0 * v
        ddq = rbda.jax.aba(model, q, v, tau)
        v_next = v + dt * ddq
        return (q + dt * v_next, v_next), (q, v, ddq, tau)

    times = jnp.arange(int(round(T / dt))) * dt
    _, (q, v, ddq, tau) = jax.jit(lambda s: jax.lax.scan(step, s, times))((jnp.zeros(model.nq), jnp.zeros(model.nv)))
    return {"t": np.asarray(times), "q": np.asarray(q), "v": np.asarray(v), "ddq": np.asarray(ddq),
            "tau": np.asarray(tau)}


def unit_mass_models(model) -> list:
    """One copy of ``model`` per body: body i with unit mass (same CoM, inertia divided by its mass), the other
    bodies massless, no armature."""
    units = []
    for i in range(1, model.njoints):
        unit = copy.deepcopy(model)
        for j in range(1, model.njoints):
            Y = model.inertias[j]
            unit.inertias[j] = rbda.Inertia(1.0, Y.lever, Y.inertia / Y.mass) if j == i else rbda.Inertia.Zero()
        unit.armature = np.zeros(model.nv)
        units.append(unit)
    return units


def features(model, data: dict) -> np.ndarray:
    """``Phi (n nv, nbodies)``: column i is ``rnea_i(q, v, ddq)`` over the whole record (``jax.vmap``)."""
    columns = [jax.jit(jax.vmap(lambda q, v, a, m=unit: rbda.jax.rnea(m, q, v, a)))(data["q"], data["v"], data["ddq"])
               for unit in unit_mass_models(model)]
    return np.stack([np.asarray(c).ravel() for c in columns], axis=1)


def identify(Phi: np.ndarray, target: np.ndarray, m0: np.ndarray, iterations: int = 3000):
    """``(masses, losses)``: gradient descent with Nesterov momentum on ``loss(m) = |Phi m - target|^2 / n``
    from ``m0``, in the scaled variables ``x = m * |Phi_i|``."""
    scale = np.linalg.norm(Phi, axis=0)
    A = jnp.asarray(Phi / scale)
    n = A.shape[0]

    def loss(x):
        return jnp.sum((A @ x - target) ** 2) / n

    eigenvalues = np.linalg.eigvalsh(2.0 * np.asarray(A.T @ A) / n)  # bounds of the loss's curvature
    mu, L = eigenvalues[0], eigenvalues[-1]
    beta = (np.sqrt(L) - np.sqrt(mu)) / (np.sqrt(L) + np.sqrt(mu))
    grad = jax.grad(loss)

    def step(state, _):
        x, x_previous = state
        y = x + beta * (x - x_previous)
        x_next = y - grad(y) / L
        return (x_next, x), loss(x_next)

    x0 = jnp.asarray(m0 * scale)
    (x, _), losses = jax.jit(lambda s: jax.lax.scan(step, s, None, length=iterations))((x0, x0))
    return np.asarray(x) / scale, np.asarray(losses)


def main(verbose: bool = True, plot: str | None = "jax_mass_identification.png",
         animation: str | None = "jax_mass_identification.html") -> dict:
    """Simulate, identify the masses; save the plot ``plot`` and the simulated motion ``animation`` (each body
    drawn as its inertia box); None skips each."""
    model = rbda.sample_models.manipulator()
    true_masses = np.array([model.inertias[i].mass for i in range(1, model.njoints)])
    data = simulate(model)
    Phi = features(model, data)
    target = (data["tau"] - model.armature * data["ddq"]).ravel()
    m0 = np.full(model.njoints - 1, true_masses.mean())  # every link starts at the average mass
    masses, losses = identify(Phi, target, m0)
    error = np.abs(masses - true_masses) / true_masses
    if verbose:
        print(f"{len(data['t'])} samples; identified masses {masses.round(9)} kg")
        print(f"true masses {true_masses} kg; max relative error {error.max():.1e}")
    plt = pyplot() if plot else None
    if plt is not None:
        fig, ax = plt.subplots(1, 2, figsize=(10, 4))
        ax[0].plot(data["t"], data["q"])
        ax[0].set(title="simulated joint positions", xlabel="t [s]", ylabel="q [rad]")
        ax[1].semilogy(losses)
        ax[1].set(title="torque error (mean square) during gradient descent", xlabel="iteration")
        fig.tight_layout()
        from _output import output_path  # examples/_output.py: the folder of --out

        saved = output_path(plot)
        fig.savefig(saved, dpi=100)
        if verbose:
            print(f"plot saved to {saved}")
    if animation is not None:
        from _animation import save_model_animation  # examples/_animation.py, next to this script

        save_model_animation(model, data["q"], data["t"], animation, "the manipulator's simulated motion",
                             "the data of the mass identification (rbda.jax.aba, jitted)", verbose)
    return {"masses": masses, "true_masses": true_masses, "relative_error": error, "losses": losses,
            "data": data, "Phi": Phi, "model": model}


if __name__ == "__main__":
    main()
