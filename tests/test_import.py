"""``import rbda`` stays light: contact simulation and the file readers load on first use, and are then reachable
as before (``rbda.Simulator``, ``rbda.load_scene``, ``rbda.simulation``); numba itself loads on the first kernel
call (``rbda/_jit.py``)."""

import subprocess
import sys


def test_import_rbda_leaves_simulation_and_readers_unloaded():
    code = ("import sys, rbda; print(sorted(m for m in ('rbda.simulation', 'rbda.io', 'rbda.viewer') if m in sys.modules)); "
            "print(rbda.Simulator.__name__, rbda.load_scene.__name__, rbda.simulation.PGSSolver.__name__); "
            "print('rbda.simulation' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == ["[]", "Simulator load_scene PGSSolver", "True"]


def test_numba_loads_on_the_first_kernel_call():
    """No numba after ``import rbda`` nor after building a model and its data; the first call loads it, puts the
    dispatchers in place of the placeholders (``prange`` included), and the kernels are numba's own from then on."""
    code = ("import sys, numpy as np, rbda; m = rbda.sample_models.manipulator(); d = m.create_data(); "
            "print('numba' in sys.modules); tau = rbda.rnea(m, d, rbda.neutral(m), np.zeros(m.nv), np.zeros(m.nv)); "
            "import numba; from numba.core.dispatcher import Dispatcher; from rbda.kernels import batch, dynamics; "
            "print(isinstance(dynamics.rnea, Dispatcher), batch.prange is numba.prange, rbda.batch.numba is numba); "
            "print(np.allclose(tau, rbda.rnea(m, d, rbda.neutral(m), np.zeros(m.nv), np.zeros(m.nv))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "RBDA_COMPILE_NOTICE": "0"}).stdout.splitlines()
    assert out == ["False", "True True True", "True"]


def test_a_placeholder_kept_elsewhere_forwards_to_its_dispatcher():
    """A kernel imported by name before numba loads (as a test or a user script may) is called, inspected and
    typed by numba as its dispatcher."""
    code = ("import sys, numpy as np\n"
            "from rbda.spatial.compiled import dot6\n"
            "assert 'numba' not in sys.modules and dot6.__name__ == 'dot6'\n"
            "x = np.arange(6.0)\n"
            "import numba\n"
            "@numba.njit\n"
            "def twice(x):\n"
            "    return 2.0 * dot6(x, x)\n"
            "y = twice(x)  # numba types the placeholder before anything loaded the rbda kernels\n"
            "print(dot6(x, x), y, len(dot6.signatures))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["55.0", "110.0", "1"]
