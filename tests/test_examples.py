"""The real-robot examples (examples/panda_*.py, talos_whole_body.py, batched_dataset.py) run and reach what they
claim, checked against physical facts and independent computations (finite differences, Pinocchio)."""

import importlib.metadata
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import load_example

try:
    importlib.metadata.distribution("example-robot-data")
except importlib.metadata.PackageNotFoundError:
    pytest.skip("the examples load robots from example-robot-data: pip install 'rbda[test]'", allow_module_level=True)


example = load_example


def test_panda_end_effector_pose_and_jacobian():
    result = example("panda_end_effector").main(verbose=False)
    assert np.allclose(result["twist"], result["twist_fd"], rtol=0.0, atol=1e-8)
    R = result["rotation"]
    assert np.allclose(R.T @ R, np.eye(3), rtol=0.0, atol=1e-12)
    pin = pytest.importorskip("pinocchio")
    from _robots import robot_file

    pm = pin.buildModelFromUrdf(str(robot_file("panda_description/urdf/panda.urdf")))
    pd = pm.createData()
    q = np.array([0.0, -0.4, 0.0, -2.2, 0.0, 1.8, 0.8, 0.02, 0.02])
    pin.framesForwardKinematics(pm, pd, q)
    hand = pd.oMf[pm.getFrameId("panda_hand")]
    assert np.allclose(result["position"], hand.translation, rtol=0.0, atol=1e-12)
    J = pin.computeFrameJacobian(pm, pd, q, pm.getFrameId("panda_hand"), pin.LOCAL_WORLD_ALIGNED)
    assert np.allclose(result["J_world_aligned"], J, rtol=0.0, atol=1e-12)


def test_panda_inverse_kinematics_reaches_its_target():
    result = example("panda_inverse_kinematics").main(verbose=False)
    assert result["position_error"] < 1e-6 and result["rotation_error"] < 1e-6
    assert result["within_limits"] and len(result["errors"]) < 50


def test_talos_whole_body_quantities():
    result = example("talos_whole_body").main(verbose=False)
    left, right = result["feet"]
    assert min(left[1], right[1]) < result["com"][1] < max(left[1], right[1])  # the CoM between the soles
    assert np.allclose(result["Ag"] @ result["v"], result["hg"], rtol=0.0, atol=1e-10)
    # at rest, the free flyer (upright at half_sitting) carries the robot's weight along its z axis
    assert np.allclose(result["gravity_on_base"][:3], [0.0, 0.0, result["mass"] * 9.81], rtol=0.0, atol=1e-8)


def test_batched_dataset_equals_single_calls():
    result = example("batched_dataset").main(states=3000, chunk=1000, verbose=False)
    assert result["TAU"].shape == (3000, 9)
    assert result["worst"] <= 1e-12 * np.abs(result["TAU"]).max()  # SIMD batches: rounding, not bit equality


def test_an_example_writes_into_the_folder_of_out_and_prints_absolute_paths(capsys, monkeypatch, tmp_path):
    """``--out DIR`` on the command line: the plot and the animation land in DIR (made if missing), and every
    path the example prints is absolute."""
    out = tmp_path / "results" / "pd"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["featherstone_pd_planar2r.py", "--out", str(out)])
    load_example("featherstone_pd_planar2r").main()
    printed = [line.split("saved", 1)[1].strip() for line in capsys.readouterr().out.splitlines() if "saved" in line]
    assert printed and all(Path(p).is_absolute() and Path(p).parent == out for p in printed), printed
    assert (out / "featherstone_pd_planar2r.html").exists()
    assert not list(tmp_path.glob("*.html")), "nothing in the working directory"
