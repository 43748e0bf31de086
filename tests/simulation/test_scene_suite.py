"""The scene suite's stacks, random piles and heaps, and robots (benchmarks/scenes) stepped by rbda: no NaN or error, no body below
the floor, penetration within the scene's bound, the mechanical energy never more than 0.1 % of its scale above
its value at the start, stacks at rest (``scenes.check``). A few dozen piles here, 500 with ``--slow``."""

from __future__ import annotations

import pytest

from benchmarks import scenes
from benchmarks.scenes import robots

pytest.importorskip("mujoco")
pytest.importorskip("pinocchio")  # example-robot-data's files are installed with it


@pytest.mark.parametrize("scene", scenes.stack(), ids=lambda s: s.name)
def test_stacks_stand_still(scene):
    assert scenes.check(scene, scenes.run_rbda(scene)) == []


@pytest.mark.parametrize("heap", [False, True], ids=["pile", "heap"])
@pytest.mark.parametrize("seed", range(16))
def test_random_piles_of_primitives(seed, heap):
    scene = scenes.pile(seed, heap=heap)
    assert scenes.check(scene, scenes.run_rbda(scene)) == []


@pytest.mark.slow
@pytest.mark.parametrize("heap", [False, True], ids=["pile", "heap"])
@pytest.mark.parametrize("seed", range(16, 500))
def test_random_piles_of_primitives_hundreds_of_seeds(seed, heap):
    scene = scenes.pile(seed, heap=heap)
    assert scenes.check(scene, scenes.run_rbda(scene)) == []


@pytest.mark.parametrize("scene", robots.robot_scenes(), ids=lambda s: s.name)
def test_robots_stand_or_fall_without_gaining_energy(scene):
    """solo12, anymal and talos standing under a StandingPD (it stays up) and falling with zero torque (its energy
    never above the start, nothing through the floor)."""
    run = robots.run_robot(scene)
    assert scenes.check(scene, run) == []
    if scene.standing:
        assert abs(run.heights[-1][0] - run.heights[0][0]) < 0.02
    else:
        assert run.heights[-1][0] < run.heights[0][0] - 0.1
