"""How rbda builds its numba dispatchers: fewer compiled units per kernel.

numba compiles every function into its own unit, and gives each one, by default, a CPython wrapper (which unboxes
Python arguments) and a C-callable wrapper: on a cold ``rnea``, 55 functions, 43 wrappers that nothing calls. Here:

- no function gets the C-callable wrapper (``no_cfunc_wrapper``): rbda never passes a compiled function as a
  first-class function value, which is the only use numba makes of it;
- ``refcount=False`` compiles a function without numba's reference counting (numba's private ``_nrt=False``;
  the rules that make it safe are in this package's page);
- a helper, a function declared ``forceinline=True`` (inlined into its callers by LLVM) or ``refcount=False``
  (borrowed arrays only, see ``_native/views.py``), gets no CPython wrapper (``no_cpython_wrapper``): only
  compiled code calls it. Its class is :class:`Helper`, whose call from Python (a test, a numpy-level function
  that reuses it) goes to a twin compiled with the wrapper instead of into the missing one; the twin is cached
  under its own name (``<name>_from_python``), apart from the helper's entries.
"""

from __future__ import annotations

import threading
import types

from numba.core.registry import CPUDispatcher


def is_helper(options: dict) -> bool:
    """Whether a function compiled with ``options`` is called from compiled code only."""
    return bool(options.get("forceinline")) or options.get("refcount") is False


class Helper(CPUDispatcher):
    """A dispatcher without CPython wrapper (see the module docstring); called from Python, its twin runs."""

    _twin_lock = threading.Lock()

    def __call__(self, *args, **kwargs):
        twin = self.__dict__.get("_python_twin")
        if twin is None:
            import numba

            with self._twin_lock:
                twin = self.__dict__.get("_python_twin")
                if twin is None:
                    fn = self.py_func
                    copy = types.FunctionType(fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__,
                                              fn.__closure__)
                    copy.__qualname__, copy.__module__ = f"{fn.__qualname__}_from_python", fn.__module__
                    twin = self.__dict__["_python_twin"] = numba.njit(**self.__dict__["_options"])(copy)
        return twin(*args, **kwargs)


def dispatcher(numba, fn, options: dict):
    """``numba.njit(**options)(fn)`` built as described in the module docstring."""
    helper = is_helper(options)
    options = {"no_cfunc_wrapper": True, **options}
    if "refcount" in options:
        options["_nrt"] = options.pop("refcount")
    if not helper:
        return numba.njit(**options)(fn)
    helper = numba.njit(no_cpython_wrapper=True, **options)(fn)
    helper.__class__ = Helper  # (the same object layout: Helper adds a method only)
    helper._options = options
    return helper
