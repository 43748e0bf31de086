"""The first hour's frictions: a missing extra is named before the work that needs it, not after."""

from __future__ import annotations

import importlib.util

import pytest

from rbda import bench, cli


def _without(module, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == module else real(name, *a))


def test_simulate_plot_without_matplotlib_stops_before_simulating(monkeypatch):
    _without("matplotlib", monkeypatch)
    loaded = []
    monkeypatch.setattr(cli, "load", lambda *a, **k: loaded.append(a))
    with pytest.raises(SystemExit, match=r"--plot needs matplotlib: pip install 'rbda\[viewer\]'"):
        cli.simulate("robot.urdf", plot="out.png")
    assert not loaded  # the robot was not even read


def test_bench_says_why_the_pinocchio_column_is_empty(monkeypatch):
    _without("pinocchio", monkeypatch)
    table = bench.format_table("panda", [("rnea", 1e-6, None), ("crba", 2e-6, None)])
    assert "no pinocchio column: Pinocchio is not installed (pip install 'rbda[bench]')" in table
    assert "no pinocchio column" not in bench.format_table("panda", [("rnea", 1e-6, 1e-6)])
