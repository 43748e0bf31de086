import subprocess
import sys

import rbda


def test_version_on_the_command_line():
    out = subprocess.run([sys.executable, "-m", "rbda.cli", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.startswith(f"rbda {rbda.__version__} (numpy ")
    assert "numba" in out.stdout


def test_the_command_line_leaves_numpy_print_options_alone(capsys):
    import numpy as np

    from rbda.cli import main

    before = np.get_printoptions()
    main(["bench", "manipulator", "--number", "3"])
    assert np.get_printoptions() == before
