"""Compiling never runs silently (rbda/_native/notice.py): a compile says what, that it is paid once and how long
it usually takes, then how long it took; a process served by the cache says nothing."""

import os
import subprocess
import sys
import time

from rbda._native import notice

CALL = ("import numpy as np; from rbda._native.jit import real; from rbda.joints import spherical; "
        "real(spherical.integrate)(np.array([0.0, 0.0, 0.0, 1.0]), np.array([0.1, 0.2, 0.3]), np.empty(4))")


def run(cache_dir, **env):
    environment = {k: v for k, v in os.environ.items() if k != "RBDA_COMPILE_NOTICE"}
    environment.update(NUMBA_CACHE_DIR=str(cache_dir), **env)
    result = subprocess.run([sys.executable, "-c", CALL], env=environment, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stderr


def test_a_compile_says_what_and_how_long_once_and_a_cached_run_says_nothing(tmp_path):
    err = run(tmp_path / "cache").splitlines()
    assert len(err) == 2, err
    assert err[0].startswith("rbda: compiling joints.spherical.integrate (and the helpers it calls) for this machine")
    assert "usually 10 s to 1 min on 2 cores; once" in err[0]
    seconds = float(err[1].removeprefix("rbda: compiled joints.spherical.integrate in ").removesuffix(" s"))
    assert 0 < seconds < 600
    assert run(tmp_path / "cache") == ""
    assert run(tmp_path / "other", RBDA_COMPILE_NOTICE="0") == ""


def test_a_labelled_block_speaks_once_for_all_it_compiles_or_when_it_runs_long(capsys, monkeypatch):
    monkeypatch.delenv("RBDA_COMPILE_NOTICE", raising=False)
    with notice.compiling("a quick thing", "1 s", after=0.5):
        pass
    assert capsys.readouterr().err == ""
    with notice.compiling("a slow thing", "2 s", after=0.05):
        with notice.compiling("a nested thing", "3 s"):
            time.sleep(0.2)
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and err[0].startswith("rbda: compiling a slow thing for this machine, usually 2 s")
    assert err[1].startswith("rbda: compiled a slow thing in 0.")


def test_the_expected_time_goes_by_the_longest_module_prefix():
    assert notice.expected_time("rbda.simulation.compiled") == notice.EXPECTED["rbda.simulation"]
    assert notice.expected_time("rbda.kernels.dynamics") == notice.EXPECTED["rbda"]
    assert notice.expected_time("rbda.simulationx") == notice.EXPECTED["rbda"]
