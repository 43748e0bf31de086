"""Kernels called through their compiled entry points, past numba's per-call dispatch.

At every call, numba's dispatcher types each argument to choose an overload: about 45 ns an array
argument, 0.2 us of the 0.8 us that a 4-array call of a kernel costs before any work. The public algorithms
already bring every argument to one fixed type (the model's packed arrays, the Data workspace, C-contiguous
float64 vectors and matrices checked by ``algorithms/_check.py``), so each kernel they call has a single overload,
and its compiled entry point (the CPython wrapper numba builds for it, which unboxes the arguments by that
signature) can be called directly.

``direct(module)`` stands for a kernel module: the first call of a kernel goes through its dispatcher, which
compiles it or loads it from the cache; the kernel is then replaced by its entry point if it has exactly one
overload whose arguments are all arrays or numbers (for a helper, which Python calls through its twin,
``dispatch.Helper``: by the twin's entry point). Otherwise (an argument typed None, as in ``q`` or ``None``
calls, or several overloads) it stays on the dispatcher, which is always correct. So a caller must pass each
kernel one set of argument types; an optional array is passed empty rather than as None.

``RBDA_NUMBA_DISPATCH=numba`` keeps every kernel on its dispatcher; ``RBDA_NUMBA_DISPATCH=check`` does too and
records the argument types of every call in ``SEEN`` (``tests/algorithms/test_direct_kernels.py`` asserts that
each kernel the algorithms call sees one set of types).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from .jit import load

MODE = os.environ.get("RBDA_NUMBA_DISPATCH", "direct")
SEEN: dict[str, set] = {}


def _bindable(t) -> bool:
    """An argument type the entry point may take unchecked: a number, a C-contiguous array of float64 or int64,
    what the algorithms' argument checks produce, a C-contiguous array of records (the simulator's options and
    statistics, built only by rbda, each of one structured type), or a structref (the simulator's step context,
    built only by rbda with one type of every field). Anything else (a strided view, float32, an object) keeps the
    kernel on its dispatcher, which types every call."""
    from numba import types

    if isinstance(t, types.Array):
        return t.layout == "C" and (t.dtype in (types.float64, types.int64) or isinstance(t.dtype, types.Record))
    return isinstance(t, (types.Array, types.Integer, types.Float, types.Boolean, types.StructRef))


def entry_point(kernel: Callable):
    """The compiled entry point of ``kernel``'s single overload, if every argument type is bindable, else None (also
    for a helper, which has no entry point for Python: its calls from Python go to its twin)."""
    if len(kernel.overloads) != 1 or kernel.targetoptions.get("no_cpython_wrapper"):  # (a helper: dispatch.py)
        return None
    compiled = next(iter(kernel.overloads.values()))
    if not all(_bindable(t) for t in compiled.signature.args):
        return None
    return compiled.entry_point


class direct:
    """A kernel module whose kernels, once called, are their entry points (see the module docstring)."""

    def __init__(self, module):
        self._module = module

    def __getattr__(self, name):  # only names not yet resolved reach here
        load()  # numba, imported on first use (jit.py): the module's kernels are its dispatchers from now on
        from numba.core.dispatcher import Dispatcher

        kernel = getattr(self._module, name)
        if not isinstance(kernel, Dispatcher) or MODE == "numba":
            self.__dict__[name] = kernel
            return kernel
        if MODE == "check":
            return lambda *args: _record(kernel, args)

        def first_call(*args):  # (compiling prints its notice: rbda/_native/notice.py)
            result = kernel(*args)
            # a helper runs its twin from Python (dispatch.Helper): the twin's entry point then
            self.__dict__[name] = entry_point(kernel.__dict__.get("_python_twin", kernel)) or kernel
            return result

        return first_call


def _record(kernel, args):
    """Call ``kernel`` through its dispatcher, recording its argument types (read-only or not) in ``SEEN``."""
    from numba import typeof, types

    def plain(t):
        return t.copy(readonly=False) if isinstance(t, types.Array) else t

    SEEN.setdefault(f"{kernel.py_func.__module__}.{kernel.__name__}", set()).add(tuple(plain(typeof(a)) for a in args))
    return kernel(*args)
