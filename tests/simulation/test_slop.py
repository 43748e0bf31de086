"""The simulator's ``slop``: Baumgarte's correction acts on the part of a penetration beyond it, so a box resting
with a penetration within the slop stays where it is, and one pressed deeper is pushed out at
``baumgarte (d + slop) / dt`` (the normal velocity its rows impose), on the compiled step and the Python stages."""

import numpy as np
import pytest

from rbda.io import Box
from rbda.simulation import Simulator
from rbda.simulation.simulator import reference_step
from test_simulator import world


@pytest.mark.parametrize("step", ["compiled", "reference"])
@pytest.mark.parametrize("depth", [0.0, 4e-6, 1e-4])
def test_penetration_beyond_the_slop_is_corrected(step, depth):
    slop, b, dt = 1e-5, 0.2, 1e-3
    sim, q, v = world(Box((0.2, 0.2, 0.2)), 10.0, slop=slop, baumgarte=b, dt=dt)
    q[2] -= depth  # four corners at d = -depth
    _, v1 = sim.step(q, v, np.zeros(6)) if step == "compiled" else reference_step(sim, q, v, np.zeros(6))
    assert sim.contacts.size == 4
    np.testing.assert_allclose(sim.contacts.distances, -depth, atol=1e-12)
    expected = b * max(depth - slop, 0.0) / dt  # upwards: 0 within the slop, 0.018 m/s at 0.1 mm
    assert v1[2] == pytest.approx(expected, abs=1e-9)
    assert np.abs(np.delete(v1, 2)).max() < 1e-9


def test_slop_zero_corrects_every_penetration():
    sim, q, v = world(Box((0.2, 0.2, 0.2)), 10.0, slop=0.0, baumgarte=0.2)
    q[2] -= 4e-6
    _, v1 = sim.step(q, v, np.zeros(6))
    assert v1[2] == pytest.approx(0.2 * 4e-6 / 1e-3, rel=1e-6)


@pytest.mark.parametrize("slop, error", [(-1e-6, ValueError), (np.nan, ValueError), ("a", TypeError)])
def test_bad_slop(slop, error):
    sim, _, _ = world(Box((0.2, 0.2, 0.2)), 1.0)
    with pytest.raises(error, match="slop"):
        Simulator(sim.model, sim.collision_model, 1e-3, slop=slop)
