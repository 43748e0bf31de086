"""Trajectory plots (matplotlib) and the example that uses them with a saved animation."""

import base64
import importlib.metadata
from pathlib import Path

import numpy as np
import pytest

import rbda
from rbda.viewer.plots import energies, plot_trajectory
from tests.conftest import load_example

def example(name: str):
    """The script ``examples/<name>.py`` as a module (:func:`tests.conftest.load_example`), or a skip without
    example-robot-data."""
    try:
        importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("the example loads the Panda from example-robot-data: pip install 'rbda[test]'")
    return load_example(name)


def test_energies_are_half_vMv_and_minus_m_g_c(model):
    rng = np.random.default_rng(5)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(3)])
    V = rng.normal(size=(3, model.nv))
    E = energies(model, Q, V)
    data = model.create_data()
    mass = sum(Y.mass for Y in model.inertias)
    for (kinetic, potential, total), q, v in zip(E, Q, V):
        M = rbda.crba(model, data, q).copy()
        M = np.triu(M) + np.triu(M, 1).T
        assert kinetic == pytest.approx(0.5 * v @ M @ v, rel=1e-10)
        assert potential == pytest.approx(-mass * model.gravity.vector[:3] @ rbda.center_of_mass(model, data, q),
                                          rel=1e-10, abs=1e-12)
        assert total == pytest.approx(kinetic + potential, rel=1e-12)


def test_plot_panels_and_errors(tmp_path):
    pytest.importorskip("matplotlib")
    model = rbda.sample_models.manipulator()
    t = np.linspace(0, 1, 11)
    Q, V = np.zeros((11, 6)), np.ones((11, 6))
    F = np.zeros((11, 2, 3))
    F[:, :, 2] = 10.0
    fig = plot_trajectory(model, t, Q, V, V, energy=True, contact_forces=F, path=tmp_path / "p.png")
    assert [ax.get_ylabel() for ax in fig.axes] == ["configuration", "velocity", "torque / force (N m, N)",
                                                  "energy (J)", "contact force (N)"]
    assert (tmp_path / "p.png").stat().st_size > 10_000
    np.testing.assert_allclose(fig.axes[4].lines[0].get_ydata(), 10.0)
    with pytest.raises(ValueError, match=r"V: expected shape \(11, 6\)"):
        plot_trajectory(model, t, Q, V[:, :5])
    with pytest.raises(ValueError, match=r"Q: expected configurations of width nq = 6"):
        plot_trajectory(model, t, Q[:, :5])
    with pytest.raises(ValueError, match=r"contact_forces: expected shape \(11, nc, 3\)"):
        plot_trajectory(model, t, Q, contact_forces=F[:, :, :2])
    with pytest.raises(ValueError, match="energy: the energy needs the velocities V"):
        plot_trajectory(model, t, Q, energy=True)


def test_panda_motion_example_saves_its_animation_and_energy_follows_the_power(tmp_path):
    pytest.importorskip("matplotlib")
    r = example("panda_motion").main(out_dir=tmp_path, verbose=False)
    assert Path(r["html"]).stat().st_size > 100_000 and Path(r["png"]).exists()
    # dE/dt = tau . v along the path (central differences of the energy, O(dt^2))
    t, E = r["t"], r["energy"][:, 2]
    power = np.einsum("ij,ij->i", r["TAU"], r["V"])
    dE = (E[2:] - E[:-2]) / (t[2:] - t[:-2])
    assert np.max(np.abs(dE - power[1:-1])) < 1e-3 * np.max(np.abs(power))
    assert np.max(np.abs(power)) > 1.0


def test_inverse_kinematics_example_saves_its_iterations(tmp_path):
    result = example("panda_inverse_kinematics").main(verbose=False, animation=str(tmp_path / "ik.html"))
    from test_scene import embedded

    data = embedded(tmp_path / "ik.html")
    times = np.frombuffer(base64.b64decode(data["times"]), np.float32)
    np.testing.assert_allclose(times, 0.25 * np.arange(len(result["errors"])), atol=1e-6)  # one frame per iterate
    assert data["meta"]["title"] == "Panda: inverse kinematics" and len(data["parts"]) > 5
