"""The import graph of ``src/rbda`` follows the layers of ``docs/architecture.md``: every import goes to the same
layer or a lower one, and no two packages import each other, directly or around a loop.

Every ``import`` and ``from ... import`` statement counts, wherever it stands: at module level, inside a function
(a lazy import is still a dependency: it runs on the first call instead of at import time) or under
``if TYPE_CHECKING``; so does ``importlib.import_module`` of a constant name (one built at run time, as
``f".{name}"``, cannot be read and is not counted). The graph is read from the source with :mod:`ast`; nothing is
imported.
"""

from __future__ import annotations

import ast
import pathlib
from collections import defaultdict

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1] / "src" / "rbda"

# The machinery: what touches numba's, CPython's, numpy's or XLA's internals. Its base (the kernels' decorators,
# their direct calls, the view intrinsic) is the lowest layer, beside ``spatial``; its fast entries (a public call
# as one C call, the kernels as XLA handlers) bind particular kernels to a Model and a Data, so they sit above the
# algorithms. The two lines to change when these modules move into one package.
MACHINERY = ("rbda._native", "rbda._native.jit", "rbda._native.direct", "rbda._native.views", "rbda._native.cache",
             "rbda._native.notice", "rbda._native.dispatch", "rbda._native.lanes")
FAST_ENTRIES = ("rbda._native.fastcall", "rbda._native.fastcall_entries", "rbda._native.step_entry",
                "rbda._native.xla_ffi")

# Lowest first. A module belongs to the layer of the longest name here that is its name or a prefix of it; a
# module may import its own layer and those below, never one above.
LAYERS = (
    ("version", ("rbda._version",)),
    ("machinery", MACHINERY),
    ("spatial", ("rbda.spatial",)),
    ("joints", ("rbda.joints",)),
    ("model", ("rbda.model",)),
    ("kernels", ("rbda.kernels",)),
    ("algorithms", ("rbda.algorithms",)),
    ("fast entries", FAST_ENTRIES),
    ("collision", ("rbda.collision",)),
    ("simulation", ("rbda.simulation",)),
    # the batched twins of every layer below (``rbda.batch`` re-exports collision's and the simulator's) and
    # the Dask arrays through them
    ("batch", ("rbda.batch", "rbda._dask")),
    # files, the spatial_v2 namespace, the viewer, the JAX and CasADi bridges with the table they share, the
    # Pinocchio-named API and conversion, and the tools on top of everything: the command line, timing, warm-up
    ("top", ("rbda.io", "rbda.featherstone", "rbda.viewer", "rbda.jax", "rbda.casadi", "rbda._primitives",
             "rbda.pinocchio", "rbda.interop", "rbda.bench")),
    # ``import rbda``: the public names of all of it
    ("rbda", ("rbda",)),
    # what calls the public API as a user does (``import rbda``): the warm-up and the command line that runs it
    ("tools", ("rbda.warmup", "rbda.cli")),
)

RANK = {prefix: rank for rank, (_, prefixes) in enumerate(LAYERS) for prefix in prefixes}


def modules() -> dict[str, tuple[pathlib.Path, bool]]:
    """Every module under src/rbda by dotted name: (file, whether it is a package's ``__init__``)."""
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path, package)
    return found


def layer_of(module: str) -> int:
    """Rank of the layer ``module`` belongs to (the longest matching prefix in LAYERS)."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        prefix = ".".join(parts[:n])
        if prefix in RANK:
            return RANK[prefix]
    raise AssertionError(f"{module} is in no layer of tests/test_layers.py: add it to LAYERS")


def package_of(module: str) -> str:
    """The unit of the cycle check: the machinery's base or its fast entries, a subpackage of rbda
    (``rbda.kernels``) or a top-level module (``rbda.batch``)."""
    for unit, prefixes in (("fast entries", FAST_ENTRIES), ("machinery", MACHINERY)):  # the longer names first
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return unit
    return ".".join(module.split(".")[:2])


def imports(known: dict) -> list[tuple[str, str, int]]:
    """Every import between rbda modules: (importer, imported module, line)."""
    edges = []
    for name, (path, package) in known.items():
        here = name.split(".") if package else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                source = absolute(here, node.level, node.module or "")
                # ``from pkg import name``: the submodule pkg.name when there is one, else pkg itself
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in known else source for a in node.names]
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr == "import_module" and node.args and isinstance(node.args[0], ast.Constant)):
                text = node.args[0].value
                level = len(text) - len(text.lstrip("."))
                targets = [absolute(here, level, text[level:])]
            else:
                continue
            for target in targets:
                if target != "rbda" and not target.startswith("rbda."):
                    continue
                while target not in known:  # ``import rbda.x.y`` of a name that is not a module: its module
                    target = target.rsplit(".", 1)[0]
                edges.append((name, target, node.lineno))
    return sorted(set(edges))


def absolute(package: list[str], level: int, name: str) -> str:
    """The absolute name of ``name`` imported ``level`` dots up from ``package`` (0: already absolute)."""
    base = ".".join(package[:len(package) - level + 1]) if level else ""
    return ".".join(p for p in (base, name) if p)


def where(known: dict, module: str, line: int) -> str:
    return f"{known[module][0].relative_to(ROOT.parent.parent)}:{line}"


def test_every_import_goes_down_or_sideways():
    known = modules()
    upward = [f"{where(known, a, line)}: {a} ({LAYERS[layer_of(a)][0]}) imports {b} ({LAYERS[layer_of(b)][0]})"
              for a, b, line in imports(known) if layer_of(b) > layer_of(a)]
    if upward:
        pytest.fail("upward imports:\n  " + "\n  ".join(upward), pytrace=False)


def test_no_import_cycle_between_packages():
    known = modules()
    graph = defaultdict(dict)  # package -> imported package -> first (module, line) that imports it
    for a, b, line in imports(known):
        pa, pb = package_of(a), package_of(b)
        if pa != pb:
            graph[pa].setdefault(pb, (a, line))
    cycles = []
    for start in sorted(graph):  # a cycle through ``start`` back to it, by breadth-first search
        paths, seen = [[start]], {start}
        while paths:
            path = paths.pop(0)
            for nxt in sorted(graph[path[-1]]):
                if nxt == start:
                    cycle = path + [start]
                    if min(cycle[:-1]) == start:  # report each cycle once, from its smallest package
                        cycles.append(" -> ".join(f"{p} [{where(known, *graph[p][q])}]"
                                                  for p, q in zip(cycle, cycle[1:])) + f" -> {start}")
                elif nxt not in seen:
                    seen.add(nxt)
                    paths.append(path + [nxt])
    if cycles:
        pytest.fail("import cycles between packages:\n  " + "\n  ".join(cycles), pytrace=False)


def test_every_module_has_a_layer_and_every_layer_names_modules():
    known = modules()
    for name in known:
        layer_of(name)
    stale = [prefix for prefix in RANK if not any(m == prefix or m.startswith(prefix + ".") for m in known)]
    assert not stale, f"LAYERS names what is no module of src/rbda: {stale}"
