"""``import rbda`` stays light: contact simulation and the file readers load on first use, and are then reachable
as before (``rbda.Simulator``, ``rbda.load_scene``, ``rbda.simulation``); numba itself loads on the first kernel
call (``rbda/_native/jit.py``)."""

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
    dispatchers in place of the placeholders, and the kernels are numba's own from then on."""
    code = ("import sys, numpy as np, rbda; m = rbda.sample_models.manipulator(); d = m.create_data(); "
            "print('numba' in sys.modules); tau = rbda.rnea(m, d, rbda.neutral(m), np.zeros(m.nv), np.zeros(m.nv)); "
            "import numba; from numba.core.dispatcher import Dispatcher; from rbda.kernels import batch, dynamics; "
            "print(isinstance(dynamics.rnea, Dispatcher), isinstance(batch.frame_jacobians, Dispatcher), "
            "rbda.batch.numba is numba); "
            "print(np.allclose(tau, rbda.rnea(m, d, rbda.neutral(m), np.zeros(m.nv), np.zeros(m.nv))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "RBDA_COMPILE_NOTICE": "0"}).stdout.splitlines()
    assert out == ["False", "True True True", "True"]


def test_a_placeholder_kept_elsewhere_forwards_to_its_dispatcher(tmp_path):
    """A kernel imported by name before numba loads (as a test or a user script may) is called, inspected and
    typed by numba as its dispatcher."""
    code = ("import sys, numpy as np\n"
            "from rbda.spatial.compiled import dot6\n"
            "from rbda._native.views import view  # an intrinsic\n"
            "assert 'numba' not in sys.modules and dot6.__name__ == 'dot6' and 'not loaded' in repr(view)\n"
            "x = np.arange(6.0)\n"
            "import numba\n"
            "@numba.njit\n"
            "def twice(x):\n"
            "    return 2.0 * dot6(x, x)\n"
            "y = twice(x)  # numba types the placeholder before anything loaded the rbda kernels\n"
            "print(dot6(x, x), y, len(dot6.signatures))\n"
            "@numba.njit\n"
            "def block(x):\n"
            "    return view(x, 2, (2, 2)).sum()\n"
            "print(block(x))\n")
    env = {**__import__("os").environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout.split()
    assert out == ["55.0", "110.0", "1", "14.0"]


def test_numba_loaded_by_a_compile_types_the_kernels_intrinsics(tmp_path):
    """numba loaded in the middle of a compile (a user's kernel into which numba inlines rbda's whole-body views,
    which call the ``view`` intrinsic): the intrinsics registered then are typed (numba's typing registry is
    refreshed). An empty cache, so that the views compile."""
    code = ("import numba, numpy as np, rbda\n"
            "from rbda.model.layout import whole_body_views\n"
            "@numba.njit\n"
            "def size(wb, nj, nv):\n"
            "    return whole_body_views(wb, nj, nv)[1]\n"
            "print(size(np.zeros(10000), 3, 2) == rbda.model.layout.whole_body_size_py(3, 2))\n")
    env = {**__import__("os").environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout.split()
    assert out == ["True"]


def test_a_module_imported_after_numba_loads_gets_numba_dispatchers():
    """A kernel module first imported after numba has loaded (the collision batch, after a first rnea) is built
    with numba's own dispatchers, not placeholders."""
    code = ("import sys, numpy as np, rbda; m = rbda.sample_models.manipulator(); d = m.create_data(); "
            "rbda.rnea(m, d, rbda.neutral(m), np.zeros(m.nv), np.zeros(m.nv)); import numba; "
            "from numba.core.dispatcher import Dispatcher; "
            "assert 'rbda.collision.batch' not in sys.modules; from rbda.collision import batch; "
            "print(isinstance(batch._distances, Dispatcher), isinstance(batch._collisions, Dispatcher))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "RBDA_COMPILE_NOTICE": "0"}).stdout.splitlines()
    assert out == ["True True"]
