"""The scene suite's stacks and random piles (benchmarks/scenes) stepped by rbda: no NaN or error, no body below
the floor, penetration within the scene's bound, the mechanical energy never more than 0.1 % of its scale above
its value at the start, stacks at rest (``scenes.check``). A few dozen piles here, 500 with ``--slow``."""

from __future__ import annotations

import pytest

from benchmarks import scenes

pytest.importorskip("mujoco")


@pytest.mark.parametrize("scene", scenes.stack(), ids=lambda s: s.name)
def test_stacks_stand_still(scene):
    assert scenes.check(scene, scenes.run_rbda(scene)) == []


@pytest.mark.parametrize("seed", range(24))
def test_random_piles_of_primitives(seed):
    scene = scenes.pile(seed)
    assert scenes.check(scene, scenes.run_rbda(scene)) == []


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(24, 500))
def test_random_piles_of_primitives_hundreds_of_seeds(seed):
    scene = scenes.pile(seed)
    assert scenes.check(scene, scenes.run_rbda(scene)) == []
