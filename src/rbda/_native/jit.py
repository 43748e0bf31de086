"""numba, imported on first use: ``import rbda`` does not import numba (about 0.2 s) nor build its ~250 dispatchers
(about 0.1 s); the first kernel call does both, once.

The kernel modules decorate with :func:`njit` and :func:`intrinsic` from here. Until numba is loaded these return
placeholders that remember the function and the options. The first time anything needs numba (a placeholder is
called, or asked for an attribute a dispatcher has: ``overloads``, ``signatures``, ...), :func:`load` imports numba,
builds the real dispatchers of every placeholder made so far, and puts them in place of the placeholders in the
globals of every loaded ``rbda`` module, where numba's typing looks them up. A placeholder that stays referenced
elsewhere (a test module's own import, a closure, a module compiled with numba's own ``njit``) keeps working: it
forwards to its dispatcher, and numba types it as that dispatcher, or an intrinsic as its registered global
(``_numba_type_``). After :func:`load`, :func:`njit` and :func:`intrinsic` are numba's own.
"""

from __future__ import annotations

import sys

_PENDING: list = []  # placeholders made before numba was loaded
_LOADED: dict = {}  # "numba": the module, once loaded


class _Placeholder:
    """A numba dispatcher (or intrinsic) not built yet: ``py_func``, its options; anything else builds it."""

    def __init__(self, py_func, make):
        self.py_func, self._make, self._real = py_func, make, None
        self.__name__, self.__qualname__ = py_func.__name__, py_func.__qualname__
        self.__doc__, self.__module__ = py_func.__doc__, py_func.__module__

    def _build(self):
        if self._real is None:
            load()
        return self._real

    def __call__(self, *args, **kwargs):
        return self._build()(*args, **kwargs)

    def __getattr__(self, name):  # overloads, signatures, _numba_type_, _cache, ...: the real dispatcher's
        real = self._build()
        if name == "_numba_type_" and not hasattr(real, name):  # an intrinsic: numba types it as a registered global
            from numba.core.registry import cpu_target

            return cpu_target.typing_context._get_global_type(real)
        return getattr(real, name)

    def __repr__(self):
        return f"<rbda kernel {self.__module__}.{self.__qualname__} (numba not loaded yet)>"


def njit(*args, **options):
    """``numba.njit``, deferred until numba is loaded (used as ``@njit`` or ``@njit(cache=True, ...)``)."""
    if args and not (callable(args[0]) and len(args) == 1 and not options):
        raise TypeError("rbda._native.jit.njit takes options as keywords only (no signatures)")
    if "numba" in _LOADED:
        from .dispatch import dispatcher

        build = lambda fn: dispatcher(_LOADED["numba"], fn, options)  # noqa: E731
    else:
        build = lambda fn: _defer(fn, lambda numba, fn: _dispatcher(numba, fn, options))  # noqa: E731
    return build(args[0]) if args else build


def _dispatcher(numba, fn, options):
    from .dispatch import dispatcher

    return dispatcher(numba, fn, options)


def intrinsic(fn):
    """``numba.extending.intrinsic``, deferred until numba is loaded."""
    if "numba" in _LOADED:
        from numba.extending import intrinsic as numba_intrinsic

        return numba_intrinsic(fn)
    return _defer(fn, lambda numba, fn: __import__("numba.extending", fromlist=["intrinsic"]).intrinsic(fn))


def _defer(fn, make):
    placeholder = _Placeholder(fn, make)
    _PENDING.append(placeholder)
    return placeholder


def load():
    """Import numba, build every pending dispatcher and put it in place of its placeholder; returns numba."""
    numba = _LOADED.get("numba")
    if numba is not None:
        return numba
    import numba

    from . import cache, notice

    cache.install()  # cached functions keyed on every rbda source they reach, before any dispatcher is built
    notice.install()  # a notice on stderr whenever one compiles
    for placeholder in _PENDING:
        placeholder._real = placeholder._make(numba, placeholder.py_func)
    _LOADED["numba"] = numba
    for name, module in list(sys.modules.items()):
        if module is None or name == __name__ or not (name == "rbda" or name.startswith("rbda.")):
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, _Placeholder):
                setattr(module, attr, value._real)
    _PENDING.clear()
    from numba.core.registry import cpu_target

    cpu_target.typing_context.refresh()  # the intrinsics registered now, when a compile already running loaded numba
    return numba


def real(fn):
    """The numba dispatcher behind ``fn`` (a placeholder or already a dispatcher), loading numba if needed."""
    return fn._build() if isinstance(fn, _Placeholder) else fn
