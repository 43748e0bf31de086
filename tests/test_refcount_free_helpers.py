"""The kernels compiled without reference counting (``refcount=False``: numba's ``_nrt=False``, given by
rbda/_native/dispatch.py; docs/architecture.md "Calls between kernels") keep the two rules that make it safe,
checked on the source:

- every rbda kernel such a function calls is compiled without reference counting too (or inlined): numba compiles
  a callee that is not compiled yet with its caller's flag, so an empty cache would compile, say, RNEA without
  reference counting, which it needs (the first ``Simulator.step`` on a new machine failed so);
- it does not return one of its array arguments: its caller would release a reference it was never given."""

import ast
import pathlib

SRC = pathlib.Path(__file__).resolve().parent.parent / "src" / "rbda"


def kernels():
    """``{name: [(path, decorator sources, node)]}`` of the module-level functions of rbda."""
    found = {}
    for path in SRC.rglob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef):
                found.setdefault(node.name, []).append((path, [ast.unparse(d) for d in node.decorator_list], node))
    return found


def without_counting(decorators):
    return any("refcount=False" in d for d in decorators)


def inlined(decorators):
    return any("forceinline=True" in d or "inline=\"always\"" in d or "inline='always'" in d for d in decorators)


def test_refcount_free_kernels_call_only_refcount_free_kernels():
    table = kernels()
    free = [(name, path, node) for name, defs in table.items() for path, decos, node in defs
            if without_counting(decos)]
    assert len(free) > 40  # the step's helpers, the active set's, the cones', the dense and sparse factors
    wrong = []
    for name, path, node in free:
        body = node.body
        called = {n.func.id for stmt in body for n in ast.walk(stmt)
                  if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
        for callee in sorted(called & table.keys()):
            defs = [decos for _, decos, _ in table[callee] if any("njit" in d for d in decos)]
            if defs and not any(without_counting(d) or inlined(d) for d in defs):
                wrong.append(f"{path.relative_to(SRC)}: {name} calls {callee}")
    assert not wrong, wrong


def test_refcount_free_kernels_return_no_argument():
    wrong = []
    for name, defs in kernels().items():
        for path, decos, node in defs:
            if not without_counting(decos):
                continue
            arguments = {a.arg for a in node.args.args}
            arrays = {n.value.id for n in ast.walk(node) if isinstance(n, (ast.Subscript, ast.Attribute))
                      and isinstance(n.value, ast.Name) and n.value.id in arguments}  # indexed, or .shape
            for n in ast.walk(node):
                if isinstance(n, ast.Return) and n.value is not None:
                    values = n.value.elts if isinstance(n.value, ast.Tuple) else [n.value]
                    if any(isinstance(v, ast.Name) and v.id in arrays for v in values):
                        wrong.append(f"{path.relative_to(SRC)}: {name} returns an array argument")
    assert not wrong, wrong
