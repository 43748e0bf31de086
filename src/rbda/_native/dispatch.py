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
  under its own name (``<name>_from_python``), apart from the helper's entries;
- a call from compiled code compiles the callee for its arguments' plain types (:class:`Kernel`): numba types a
  constant argument (``f(x, 2)``, ``f(x, True)``) as a literal, and by default compiles the callee once per
  value: each a full copy of the function and of what it inlines, where the code is the same (numba prunes no
  branch on an integer literal). The literal signature is compiled only where the plain one does not type.
"""

from __future__ import annotations

import threading
import types

from numba.core import errors
from numba.core import types as nbtypes
from numba.core.registry import CPUDispatcher


class Kernel(CPUDispatcher):
    """numba's dispatcher, called from compiled code with its arguments' plain types (see the module docstring)."""

    def get_call_template(self, args, kws):
        plain = tuple(nbtypes.unliteral(a) for a in args)
        plain_kws = {k: nbtypes.unliteral(v) for k, v in kws.items()}
        if plain != tuple(args) or plain_kws != kws:
            try:
                return super().get_call_template(plain, plain_kws)
            except errors.TypingError:
                pass  # the callee needs a value at compile time (a tuple index, a shape): the literal signature
        return super().get_call_template(args, kws)


def is_helper(options: dict) -> bool:
    """Whether a function compiled with ``options`` is called from compiled code only."""
    return bool(options.get("forceinline")) or options.get("refcount") is False


class Helper(Kernel):
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
        kernel = numba.njit(**options)(fn)
        kernel.__class__ = Kernel  # (the same object layout: Kernel overrides a method only)
        return kernel
    helper = numba.njit(no_cpython_wrapper=True, **options)(fn)
    helper.__class__ = Helper  # (the same object layout: Helper adds a method only)
    helper._options = options
    return helper
