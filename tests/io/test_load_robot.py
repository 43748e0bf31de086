"""rbda.io.load_robot: example-robot-data's robots by name, the same models as their URDF files read by Pinocchio."""

from __future__ import annotations

import importlib.metadata

import numpy as np
import pytest

import rbda
from rbda.io import robots


@pytest.mark.parametrize("name", sorted(robots.ROBOTS))
def test_every_robot_of_the_table_loads_as_pinocchio_reads_its_urdf(name):
    try:
        robot = rbda.io.load_robot(name, geometry=False)
    except ModuleNotFoundError:
        pytest.skip("example-robot-data is not installed")
    model = robot.model
    assert robot.urdf.exists() and (robot.srdf is None or robot.srdf.exists())
    pin = pytest.importorskip("pinocchio")
    root = (pin.JointModelFreeFlyer(),) if robots.ROBOTS[name][2] else ()
    pm = pin.buildModelFromUrdf(str(robot.urdf), *root)
    assert (model.nq, model.nv, list(model.names)) == (pm.nq, pm.nv, list(pm.names))
    q = rbda.random_configuration(model, rng=np.random.default_rng(0))
    m = sum(model.inertias[j].mass for j in range(model.njoints))
    assert np.isclose(m, sum(pm.inertias[j].mass for j in range(pm.njoints)))
    if robot.srdf is not None and model.reference_configurations:
        posture = next(iter(model.reference_configurations.values()))
        assert posture.shape == (model.nq,)
    assert q.shape == (model.nq,)


def test_geometry_and_postures_of_a_legged_robot():
    try:
        robot = rbda.io.load_robot("solo12")
    except ModuleNotFoundError:
        pytest.skip("example-robot-data is not installed")
    assert robot.model.joints[1].shortname() == "JointModelFreeFlyer"
    assert "standing" in robot.model.reference_configurations
    assert robot.collision_model.ngeoms > 0 and robot.visual_model.ngeoms > 0


def test_unknown_name_and_missing_package(monkeypatch):
    with pytest.raises(KeyError, match=r"name: no robot named 'tallos'.*did you mean 'talos'"):
        rbda.io.load_robot("tallos")

    def missing(name):
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    with pytest.raises(ModuleNotFoundError, match="pip install example-robot-data"):
        rbda.io.load_robot("talos")


def test_the_command_line_takes_a_robot_by_name(capsys):
    from rbda import cli

    try:
        urdf, floating, srdf, dirs = cli.example_robot("solo12")
    except SystemExit:
        pytest.skip("example-robot-data is not installed")
    assert urdf.endswith("solo12.urdf") and floating and srdf.endswith("solo.srdf") and dirs
    assert cli.main(["info", "talos"]) == 0
    out = capsys.readouterr().out
    assert "nv = 38" in out and "JointModelFreeFlyer" in out
    t, Q, V, TAU = cli.simulate("solo12", duration=0.01, progress=False)  # on the ground at its SRDF posture
    assert Q.shape == (11, 19) and np.isfinite(Q).all()
    with pytest.raises(SystemExit, match="nor a robot of example-robot-data"):
        cli.main(["info", "no_such_robot"])
