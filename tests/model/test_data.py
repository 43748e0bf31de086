"""Data: its buffers and what creating one costs."""


def test_create_data_does_not_load_compiled_code():
    """Creating a Data cuts its buffers in plain Python: numba's compiled-code machinery (0.3 s to load the first
    time in a process) is not touched until the first algorithm runs."""
    import subprocess
    import sys

    code = ("import sys, rbda; m = rbda.sample_models.humanoid(); d = m.create_data(); "
            "print('numba.np.arraymath' in sys.modules, d.ws.size > 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True"]
