"""Whatever touches numba's internals lives in rbda/_native (its package docstring has the rules): elsewhere
only numba's public API (``types``, ``prange``, ``get_num_threads``, the documented ``numba.experimental``)."""

import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "rbda"
INTERNAL = re.compile(r"numba\.(core|np|cpython|misc|parfors|typed\.typeddict)\b|numba\.extending|\bllvmlite\b|"
                      r"_nrt\s*=|from numba import[^\n]*\b(njit|jit|cfunc|intrinsic)\b")


def test_no_numba_internal_outside_the_machinery_package():
    found = [f"{path.relative_to(SRC)}:{n}: {line.strip()}"
             for path in sorted(SRC.rglob("*.py")) if "_native" not in path.parts
             for n, line in enumerate(path.read_text().splitlines(), 1) if INTERNAL.search(line)]
    assert not found, "\n".join(found)


def test_every_compiled_function_outside_the_package_is_built_by_its_njit():
    """numba's own ``njit`` would key the cache on the function's file only (rule 2 of the package's page)."""
    found = [f"{path.relative_to(SRC)}:{n}" for path in sorted(SRC.rglob("*.py")) if "_native" not in path.parts
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if re.search(r"@numba\.(njit|jit)\b|numba\.njit\(", line)]
    assert not found, found
