"""The bridges' worked examples run and reach what they claim, checked with plain rbda and identities that do not
go through the bridges: forward dynamics at the collocation knots, the joint-torque regressor."""

import importlib.util

import numpy as np
import pytest

import rbda
from tests.conftest import load_example


def test_swing_up_and_reaching_satisfy_the_dynamics(tmp_path):
    pytest.importorskip("casadi")
    result = load_example("casadi_trajectory_optimization").main(verbose=False, plot=str(tmp_path / "plot.png"),
                                                                 animations=str(tmp_path))
    up, arm = result["swing_up"], result["reach"]
    for r, S in ((up, np.array([[1.0], [0.0]])), (arm, np.eye(6))):
        assert r["residual"] <= 1e-6  # rnea(q_k, v_k, a_k) = S u_k at every knot, by plain rbda
        data = r["model"].create_data()
        for k in range(r["q"].shape[1]):  # the same knots through forward dynamics, another algorithm
            ddq = rbda.aba(r["model"], data, r["q"][:, k], r["v"][:, k], S @ r["u"][:, k])
            assert np.allclose(ddq, r["a"][:, k], rtol=0.0, atol=1e-6)
        assert np.allclose(r["v"][:, [0, -1]], 0.0, rtol=0.0, atol=1e-8)  # from rest to rest
    assert np.allclose(up["q"][:, 0], [0.0, np.pi], atol=1e-8) and np.allclose(up["q"][:, -1], 0.0, atol=1e-8)
    assert np.all(np.abs(up["q"][0]) <= 1.0 + 1e-8) and np.all(np.abs(up["u"]) <= 20.0 + 1e-8)
    exact = result["swing_up_exact"]  # IPOPT with the exact Hessian from rbda's second-order RNEA derivatives
    assert exact["residual"] <= 1e-6 and np.allclose(exact["q"][:, -1], 0.0, atol=1e-8)
    assert abs(exact["cost"] - up["cost"]) <= 1e-6 * up["cost"]  # the same optimum
    assert exact["iterations"] < up["iterations"]
    assert arm["tool_error"] <= 1e-8
    assert np.all(arm["q"] >= arm["lower"][:, None] - 1e-8) and np.all(arm["q"] <= arm["upper"][:, None] + 1e-8)
    assert abs(arm["q"][2].max() - arm["upper"][2]) <= 1e-6  # the elbow ends on its narrowed limit
    if importlib.util.find_spec("matplotlib"):
        assert (tmp_path / "plot.png").stat().st_size > 0
    if importlib.util.find_spec("trimesh"):  # the viewer extra: the motions as animations
        for name in ("cart_pole_swing_up", "manipulator_reaching"):
            assert "rbda examples" in (tmp_path / f"{name}.html").read_text()


def test_mass_identification_recovers_the_masses(tmp_path):
    pytest.importorskip("jax")
    result = load_example("jax_mass_identification").main(verbose=False, plot=str(tmp_path / "plot.png"),
                                                          animation=str(tmp_path / "motion.html"))
    assert result["relative_error"].max() <= 1e-6
    model, data, Phi = result["model"], result["data"], result["Phi"]
    d = model.create_data()
    for k in (0, 777, len(data["t"]) - 1):
        q, v, a = data["q"][k], data["v"][k], data["ddq"][k]
        # the record is consistent: its torques are the inverse dynamics of its states
        assert np.allclose(rbda.rnea(model, d, q, v, a), data["tau"][k], rtol=0.0, atol=1e-8)
        # the features are the regressor's columns times each body's unit-mass inertial parameters
        Y = rbda.compute_joint_torque_regressor(model, d, q, v, a)
        for i in range(1, model.njoints):
            pi = model.inertias[i].to_dynamic_parameters() / model.inertias[i].mass
            rows = slice(k * model.nv, (k + 1) * model.nv)
            assert np.allclose(Phi[rows, i - 1], Y[:, 10 * (i - 1):10 * i] @ pi, rtol=0.0, atol=1e-9)
    if importlib.util.find_spec("matplotlib"):
        assert (tmp_path / "plot.png").stat().st_size > 0
