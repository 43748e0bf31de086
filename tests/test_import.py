"""``import rbda`` stays light: contact simulation and the file readers load on first use, and are then reachable
as before (``rbda.Simulator``, ``rbda.load_scene``, ``rbda.simulation``)."""

import subprocess
import sys


def test_import_rbda_leaves_simulation_and_readers_unloaded():
    code = ("import sys, rbda; print(sorted(m for m in ('rbda.simulation', 'rbda.io', 'rbda.viewer') if m in sys.modules)); "
            "print(rbda.Simulator.__name__, rbda.load_scene.__name__, rbda.simulation.PGSSolver.__name__); "
            "print('rbda.simulation' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.splitlines()
    assert out == ["[]", "Simulator load_scene PGSSolver", "True"]
