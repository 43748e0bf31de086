"""Run Pinocchio's own ``unittest/python`` files in this process and print one JSON line of results.

Usage: ``python unittest_runner.py SUITE_DIR OUT_JSON [--real]``. ``SUITE_DIR`` is a copy of the test-data tree
(``unittest/python``, ``unittest/models``, ``models``) prepared by ``test_pinocchio_unittest.py``. Without
``--real``, the name ``pinocchio`` and its submodules resolve to ``rbda.pinocchio`` and its submodules (so this
runs in a process of its own, never beside the real Pinocchio); with ``--real`` the installed Pinocchio runs them
(the reference run). Each test's outcome is ``passed``, ``failed``, ``error`` or ``skipped``, with the first lines
of its traceback.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import json
import os
import sys
import traceback
import unittest
from pathlib import Path


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Resolves ``pinocchio`` and ``pinocchio.<sub>`` to ``rbda.pinocchio`` and ``rbda.pinocchio.<sub>``."""

    def find_spec(self, name, path=None, target=None):
        if name == "pinocchio" or name.startswith("pinocchio."):
            target_name = "rbda." + name
            if importlib.util.find_spec(target_name) is None:
                return None
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module("rbda." + spec.name)

    def exec_module(self, module):
        pass


def _outcome_lines(err) -> str:
    text = "".join(traceback.format_exception(*err))
    return "\n".join(text.strip().splitlines()[-6:])


class _Result(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.outcomes: dict[str, tuple[str, str]] = {}

    def addSuccess(self, test):
        self.outcomes[test.id()] = ("passed", "")

    def addFailure(self, test, err):
        self.outcomes[test.id()] = ("failed", _outcome_lines(err))

    def addError(self, test, err):
        self.outcomes[test.id()] = ("error", _outcome_lines(err))

    def addSkip(self, test, reason):
        self.outcomes[test.id()] = ("skipped", reason)

    def addExpectedFailure(self, test, err):
        self.outcomes[test.id()] = ("passed", "expected failure")

    def addUnexpectedSuccess(self, test):
        self.outcomes[test.id()] = ("failed", "unexpected success")


def main() -> None:
    suite_dir, out = Path(sys.argv[1]), Path(sys.argv[2])
    if "--real" not in sys.argv:
        sys.meta_path.insert(0, _Alias())
    tests_dir = suite_dir / "unittest" / "python"
    sys.path.insert(0, str(tests_dir))
    os.chdir(tests_dir)
    outcomes: dict[str, tuple[str, str]] = {}
    for path in sorted(tests_dir.glob("*.py")):
        if path.stem == "test_case":
            continue
        try:
            module = importlib.import_module(path.stem)
        except Exception:  # noqa: BLE001  (a module that does not import: its import is the failing "test")
            outcomes[f"{path.stem}.<import>"] = ("error", _outcome_lines(sys.exc_info()))
            continue
        result = _Result()
        unittest.defaultTestLoader.loadTestsFromModule(module).run(result)
        for test, err in result.errors:  # class-level errors (setUpClass) that carry no test of their own
            if test.id() not in result.outcomes:
                result.outcomes[test.id()] = ("error", err.strip().splitlines()[-1])
        outcomes.update(result.outcomes)
    out.write_text(json.dumps(outcomes, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
