"""``rbda warmup`` compiles every kernel family, with one progress line per family."""

import io

import numba

import rbda
from rbda.kernels import dynamics, kinematics


def test_warmup_compiles_every_family():
    stream = io.StringIO()
    seconds = rbda.warmup.warmup(stream)
    text = stream.getvalue()
    assert seconds > 0 and "12/12 batched configuration space" in text and "every kernel is compiled" in text
    for kernel in (dynamics.rnea, dynamics.aba, kinematics.jacobians_time_variation):
        assert isinstance(kernel, numba.core.dispatcher.Dispatcher) and kernel.overloads
