"""Plots of a trajectory with matplotlib (``pip install matplotlib``): joint positions, velocities, torques,
energy and contact forces against time, one panel each."""

from __future__ import annotations

import os

import numpy as np

from ..model import Model
from .scene import trajectory


def _pyplot():
    try:
        import matplotlib.pyplot as plt  # without a display, matplotlib draws with its file backend
    except ImportError as err:
        raise ImportError("plots need matplotlib: pip install matplotlib (or 'rbda[viewer]')") from err
    return plt


def _rows(X, t: np.ndarray, width: int, name: str) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape != (len(t), width):
        raise ValueError(f"{name}: expected shape ({len(t)}, {width}) (one row per time), got {X.shape}")
    return X


def energies(model: Model, Q, V) -> np.ndarray:
    """``(T, 3)``: kinetic, potential and mechanical energy (J) at each state ``Q[k]`` ``(nq,)``, ``V[k]``
    ``(nv,)``, from :func:`rbda.compute_mechanical_energy`."""
    from ..algorithms import compute_mechanical_energy

    data = model.create_data()
    out = np.empty((len(Q), 3))
    for k, (q, v) in enumerate(zip(Q, V)):
        compute_mechanical_energy(model, data, q, v)
        out[k] = data.kinetic_energy, data.potential_energy, data.mechanical_energy
    return out


def plot_trajectory(model: Model, t, Q, V=None, TAU=None, *, energy: bool = False, contact_forces=None,
                    path=None, title: str | None = None):
    """A figure of a trajectory of ``model`` against the times ``t`` ``(T,)`` (s): one panel per quantity given.

    Parameters:

    - ``Q``: ``(T, nq)`` configurations (a free flyer's quaternion entries are plotted as they are).
    - ``V``: ``(T, nv)`` velocities, or None.
    - ``TAU``: ``(T, nv)`` joint torques or forces, or None.
    - ``energy``: also plot the kinetic, potential and total energy (needs ``V``).
    - ``contact_forces``: ``(T, nc, 3)`` contact forces in their contact frames ``[f_t1, f_t2, f_n]``, or None:
      the normal force of each contact (solid) and the norm of its tangential part (dashed).
    - ``path``: a file to save the figure to (PNG, PDF, SVG: matplotlib's formats), or None.
    - ``title``: the figure's title (default: the model's name).

    Returns the matplotlib ``Figure``. Raises ``ValueError`` naming the argument whose shape does not match
    ``t`` and the model, ``ImportError`` if matplotlib is missing.
    """
    plt = _pyplot()
    t = np.asarray(t, dtype=float).reshape(-1)
    Q = trajectory(model, Q)
    if len(Q) != len(t):
        raise ValueError(f"Q: expected {len(t)} rows (one per time in t), got {len(Q)}")
    panels = [("q", Q, [f"{model.names[j]}" + (f"[{k}]" if model.nqs[j] > 1 else "") for j in range(1, model.njoints)
                        for k in range(model.nqs[j])], "configuration")]
    dof_names = [model.names[j] + (f"[{k}]" if model.nvs[j] > 1 else "") for j in range(1, model.njoints)
                 for k in range(model.nvs[j])]
    if V is not None:
        panels.append(("v", _rows(V, t, model.nv, "V"), dof_names, "velocity"))
    if TAU is not None:
        panels.append(("tau", _rows(TAU, t, model.nv, "TAU"), dof_names, "torque / force (N m, N)"))
    if energy:
        if V is None:
            raise ValueError("energy: the energy needs the velocities V")
        panels.append(("energy", energies(model, Q, _rows(V, t, model.nv, "V")), ["kinetic", "potential", "total"],
                       "energy (J)"))
    if contact_forces is not None:
        F = np.asarray(contact_forces, dtype=float)
        if F.ndim != 3 or F.shape[0] != len(t) or F.shape[2] != 3:
            raise ValueError(f"contact_forces: expected shape ({len(t)}, nc, 3) (contact frames, normal last), "
                             f"got {F.shape}")
        panels.append(("contact", F, [f"contact {c}" for c in range(F.shape[1])], "contact force (N)"))
    fig, axes = plt.subplots(len(panels), 1, sharex=True, figsize=(8, 2.2 * len(panels) + 0.6), squeeze=False)
    for ax, (kind, X, labels, ylabel) in zip(axes[:, 0], panels):
        if kind == "contact":
            for c, label in enumerate(labels):
                line, = ax.plot(t, X[:, c, 2], label=f"{label} normal")
                ax.plot(t, np.linalg.norm(X[:, c, :2], axis=1), "--", color=line.get_color(),
                        label=f"{label} tangential")
        else:
            for k, label in enumerate(labels):
                ax.plot(t, X[:, k], label=label)
        ax.set_ylabel(ylabel)
        ax.grid(True, alpha=0.3)
        if len(labels) <= 12:
            ax.legend(fontsize=7, ncol=min(len(labels), 4), loc="upper right")
    axes[-1, 0].set_xlabel("time (s)")
    fig.suptitle(model.name if title is None else title)
    fig.tight_layout()
    if path is not None:
        fig.savefig(os.fspath(path), dpi=120)
    return fig
