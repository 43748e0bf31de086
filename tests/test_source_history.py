"""The source says what is true now: no docstring longer than 40 lines, and no measurement diary ("measured",
"session", "tried and left out", a date) in any docstring or comment of ``src/rbda``; history goes to
CHANGELOG.md and figures to the generated performance page."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path


SRC = Path(__file__).resolve().parents[1] / "src" / "rbda"
MAX_DOCSTRING_LINES = 40
DIARY = re.compile(r"\bmeasured\b|\bsessions?\b|tried and left out|\b20\d\d-[01]\d(?:-[0-3]\d)?\b", re.I)


def texts(path: Path):
    """``(line, kind, text)`` of every docstring (module, class, function) and comment of the file ``path``."""
    source = path.read_text()
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc is not None:
                yield (node.body[0].lineno, "docstring", doc)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            yield (token.start[0], "comment", token.string)


def violations(files) -> list[str]:
    found = []
    for path in files:
        for line, kind, text in texts(path):
            where = f"{path.relative_to(SRC.parent)}:{line} ({kind})"
            if kind == "docstring" and len(text.strip().splitlines()) > MAX_DOCSTRING_LINES:
                found.append(f"{where}: {len(text.strip().splitlines())} lines")
            for match in DIARY.finditer(text):
                found.append(f"{where}: {match.group(0)!r}")
    return found


def modules(simulation: bool):
    files = sorted(SRC.rglob("*.py"))
    inside = SRC / "simulation"
    return [p for p in files if (inside in p.parents) == simulation]


def test_no_long_docstring_or_diary_outside_the_simulation_package():
    found = violations(modules(simulation=False))
    assert not found, "\n".join(found)


def test_no_long_docstring_or_diary_in_the_simulation_package():
    found = violations(modules(simulation=True))
    assert not found, "\n".join(found)
