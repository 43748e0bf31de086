"""rbda's dispatchers (rbda/_native/dispatch.py): helpers compiled without a CPython wrapper still answer a call
from Python (through an uncached twin), with the same result as the formula; kernels keep their wrapper."""

import numpy as np

from rbda._jit import real
from rbda._native.dispatch import Helper, is_helper
from rbda.kernels import dynamics
from rbda.spatial import compiled


def test_a_forceinline_helper_called_from_python_gives_the_formula():
    motion_act = real(compiled.motion_act)  # forceinline: a helper
    assert isinstance(motion_act, Helper)
    rng = np.random.default_rng(0)
    R, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    p, m = rng.normal(size=3), rng.normal(size=6)
    M = np.zeros((3, 4))  # a placement [R | p]
    M[:, :3], M[:, 3] = R, p
    out = np.empty(6)
    motion_act(M, m, out)
    v, w = m[:3], m[3:]
    np.testing.assert_allclose(out, np.r_[R @ v + np.cross(p, R @ w), R @ w], rtol=0, atol=1e-14)


def test_kernels_keep_their_cpython_wrapper_and_helpers_are_the_declared_ones():
    assert not isinstance(real(dynamics.rnea), Helper)
    assert is_helper({"cache": True, "forceinline": True}) and is_helper({"_nrt": False})
    assert not is_helper({"cache": True}) and not is_helper({"cache": True, "parallel": True})
