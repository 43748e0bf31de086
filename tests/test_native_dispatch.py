"""rbda's dispatchers (rbda/_native/dispatch.py): helpers compiled without a CPython wrapper still answer a call
from Python (through an uncached twin), with the same result as the formula; kernels keep their wrapper."""

import numpy as np

from rbda._native.jit import real
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
    assert is_helper({"cache": True, "forceinline": True}) and is_helper({"refcount": False})
    assert not is_helper({"cache": True}) and not is_helper({"cache": True, "parallel": True})


def test_the_python_twin_of_a_helper_is_cached_apart_from_the_helper(tmp_path):
    import os
    import subprocess
    import sys

    code = ("import numpy as np; from rbda._native.jit import real; from rbda.spatial import compiled; "
            "h = real(compiled.quat_rotation); R = np.empty((3, 3)); h(np.array([0.0, 0.0, 0.0, 1.0]), R); "
            "t = h._python_twin; print(np.array_equal(R, np.eye(3)), sum(t.stats.cache_hits.values()))")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), RBDA_COMPILE_NOTICE="0")
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
            for _ in range(2)]
    assert [r.stdout.split() for r in runs] == [["True", "0"], ["True", "1"]], [r.stderr for r in runs]
    assert any("quat_rotation_from_python" in name for _, _, names in os.walk(tmp_path) for name in names)


def test_a_helper_called_through_direct_stays_on_its_twin(tmp_path):
    """``direct`` binds a kernel to its compiled entry point; a helper compiled for compiled callers has none
    (calling its overload's entry from Python crashed a first simulation on an empty cache)."""
    import os
    import subprocess
    import sys

    code = ("import numpy as np; from numba import types; from rbda._native.jit import real; "
            "from rbda._native.direct import direct; from rbda.kernels import checks; "
            "real(checks.all_finite).compile((types.float64[::1],)); d = direct(checks); "
            "print(d.all_finite(np.ones(3)), d.all_finite(np.array([1.0, np.nan])), d.all_finite(np.zeros(2)))")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), RBDA_COMPILE_NOTICE="0")
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and run.stdout.split() == ["True", "False", "True"], (run.returncode, run.stderr)
