"""Public functions as one C call (``_entry.c``'s ``Public``), and the C extension they need.

:func:`public` turns a public function whose first step is its fast entry (``data.fast_entries.<name>``, or
``model.fast_entries.<name>`` for the functions that take no data) into one C object: a call with positional
arguments reaches the entry without running Python, and its answer comes back copied (``"copy"``), wrapped in a
new object of a class with a ``vector`` slot, e.g. :class:`~rbda.spatial.Motion` (``"wrap"``), as a new
:class:`~rbda.spatial.SE3` (``"placement"``), as None (``"none"``) or as it is (``"as is"``). Whenever the entry
answers None (an argument it does not take, a bad input, no entry bound), and for a call with keywords or
another number of arguments, the object calls the Python function itself, which takes its ordinary path: results,
errors and the fields filled are the function's. ``__doc__``, ``__name__``, ``__qualname__``, ``__module__`` and
``__wrapped__`` are the function's, so that ``help``, :func:`inspect.signature` and Sphinx read it as the function.

Without the extension (not built), with ``RBDA_FASTCALL=0``, or when the kernels are not called through their
entry points, :func:`public` returns the function unchanged.
"""

from __future__ import annotations

import inspect
import os
import sysconfig
from typing import Callable, TypeVar

from .direct import MODE

F = TypeVar("F", bound=Callable)


def extension():
    """The C extension ``_entry`` (``_entry.c``), or None where it is not built or not wanted: with
    ``RBDA_FASTCALL=0``, when the kernels are not called through their entry points (``RBDA_NUMBA_DISPATCH``), and
    on free-threaded CPython (the entries of a model share its work buffer under the GIL)."""
    if os.environ.get("RBDA_FASTCALL", "1") == "0" or MODE != "direct" or sysconfig.get_config_var("Py_GIL_DISABLED"):
        return None
    try:
        from . import _entry
    except ImportError:
        return None
    return _entry


_EXTENSION = extension()
#: what the C object does with the entry's answer (``_entry.c``'s POST_*)
POSTS = {"as is": 0, "none": 1, "copy": 2, "wrap": 3, "placement": 4}


def public(post: str, holder: str = "data", constants: tuple = (), wrapper: type | None = None,
           arity: int | None = None, entries: tuple | None = None) -> Callable[[F], F]:
    """Decorate a public function ``f(model, data, *inputs)`` (``holder="data"``) or ``f(model, *inputs)``
    (``holder="model"``) whose fast entry has its name: the entry is called with the positional arguments, the
    omitted defaults filled in and ``constants`` appended; ``post`` (a key of :data:`POSTS`) says what the function
    returns of the entry's answer (``"wrap"``: a copy of it as the ``vector`` of a new ``wrapper``, made without
    ``__init__``; ``"placement"``: row ``args[2]`` of the ``(n, 3, 4)`` placements answered, as a new ``wrapper``
    with ``rotation`` and ``translation`` copied from it). ``arity``: the number of leading parameters the entry
    takes (all of them by default); a call that passes more (e.g. ``fext``) goes to the function itself.
    ``entries``: the entry's name by number of arguments, from the fewest the function takes (``None``: the
    function itself), e.g. ``forward_kinematics_q``, ``_qv``, ``_qva`` for ``(model, data, q[, v[, a]])``; the
    defaults are then not filled in."""
    def decorate(function: F) -> F:
        if _EXTENSION is None:
            return function
        parameters = list(inspect.signature(function).parameters.values())[:arity]
        defaults = tuple(p.default for p in parameters if p.default is not inspect.Parameter.empty)
        name = function.__name__ if entries is None else tuple(entries)
        fast = _EXTENSION.Public(name, function, {"model": 0, "data": 1}[holder], len(parameters), defaults,
                                 tuple(constants), POSTS[post], wrapper)
        fast.__dict__.update(__doc__=function.__doc__, __name__=function.__name__,
                             __qualname__=function.__qualname__, __module__=function.__module__,
                             __wrapped__=function, __annotations__=getattr(function, "__annotations__", {}))
        return fast  # type: ignore[return-value]
    return decorate
