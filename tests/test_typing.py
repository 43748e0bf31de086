"""rbda ships ``py.typed``: a user's code type-checks against its public signatures. The examples, which use the
public API as a user does, are checked by mypy (``follow_imports=silent``: rbda's own internals are not judged
here, only how its public names and signatures look from outside)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_examples_type_check():
    pytest.importorskip("mypy", reason="the type checker: pip install mypy (in rbda[test])")
    out = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", "--ignore-missing-imports",
                          "--no-error-summary", "--cache-dir", str(ROOT / "build" / "mypy"), str(ROOT / "examples")],
                         capture_output=True, text=True, env={**os.environ, "MYPYPATH": str(ROOT / "src")})
    assert out.returncode == 0, out.stdout + out.stderr
