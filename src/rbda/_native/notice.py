"""Compiling never runs silently: one notice on stderr when numba starts compiling an rbda function for this
machine (what, that it is paid once, how long it usually takes), and a second one with the time it took.

numba broadcasts a ``"numba:compile"`` event (its documented event API, ``numba.core.event``) around every compile
that its cache could not serve; the listener here prints on the outermost one of each thread. A compile whose
length is known better than by its module (a JAX primitive, the fast entries) runs inside :func:`compiling`, which
names it, gives its expected time, and prints one notice for everything compiled inside.
``RBDA_COMPILE_NOTICE=0`` silences both.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from contextlib import contextmanager

from numba.core import event

#: how long a first compile takes, by the module that holds the function (the longest prefix wins), on a
#: 2-core machine with an empty cache; a faster machine takes less
EXPECTED = {
    "rbda": "10 s to 1 min",  # CPU time, empty cache: rnea 16 s, compute_aba_derivatives 45 s
    "rbda.collision": "1 to 2 min",  # compute_distances: 75 s
    "rbda.simulation": "1 to 2 min",  # a first Simulator.step: 55 to 115 s
}
_THREAD = threading.local()  # depth: compiles open on this thread; label: the compiling() block around them


def _enabled() -> bool:
    return os.environ.get("RBDA_COMPILE_NOTICE", "1") != "0"


def _say(message: str) -> None:
    print(f"rbda: {message}", file=sys.stderr, flush=True)


_FIRST = {"said": False}  # the first notice of a process says why, and how to avoid it; later ones are short


def _announce(what: str, expected: str) -> None:
    if _FIRST["said"]:
        _say(f"compiling {what} for this machine, usually {expected} on 2 cores")
        return
    _FIRST["said"] = True
    _say(f"compiling {what} for this machine, usually {expected} on 2 cores; once: later runs load it from the "
         "cache ('rbda warmup' compiles every kernel ahead of time, RBDA_COMPILE_NOTICE=0 silences this)")


def expected_time(module: str) -> str:
    """The entry of :data:`EXPECTED` for ``module`` (dotted name)."""
    best = max((k for k in EXPECTED if module == k or module.startswith(k + ".")), key=len, default="rbda")
    return EXPECTED[best]


class _Label:
    def __init__(self, what, expected):
        self.what, self.expected, self.announced, self.start = what, expected, False, time.perf_counter()
        self.lock = threading.Lock()

    def announce(self):
        with self.lock:
            if not self.announced and _enabled():
                self.announced = True
                _announce(self.what, self.expected)


@contextmanager
def compiling(what: str, expected: str, after: float = 1.0):
    """A block that may compile: the first compile inside it (or the block lasting ``after`` seconds, for compiles
    numba broadcasts no event for, as a ``cfunc``'s) prints one notice naming ``what`` with ``expected``, its end
    the seconds the block took. Blocks nest: the outermost one speaks."""
    if getattr(_THREAD, "label", None) is not None:
        yield
        return
    label = _THREAD.label = _Label(what, expected)
    timer = threading.Timer(after, label.announce)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        _THREAD.label = None
        with label.lock:
            if label.announced:
                _say(f"compiled {what} in {time.perf_counter() - label.start:.1f} s")
            label.announced = True  # (a timer that fires late says nothing)


class _Listener(event.Listener):
    """Prints on the outermost compile of an rbda function on each thread (see the module docstring)."""

    def on_start(self, ev):
        depth = getattr(_THREAD, "depth", 0)
        _THREAD.depth = depth + 1
        if depth:
            return
        label = getattr(_THREAD, "label", None)
        if label is not None:
            label.announce()
            return
        py_func = ev.data["dispatcher"].py_func
        module = py_func.__module__ or ""
        _THREAD.outer = None
        if (module == "rbda" or module.startswith("rbda.")) and _enabled():
            _THREAD.outer = (f"{module.removeprefix('rbda.')}.{py_func.__qualname__}", time.perf_counter())
            _announce(_THREAD.outer[0] + " (and the helpers it calls)", expected_time(module))

    def on_end(self, ev):
        depth = getattr(_THREAD, "depth", 0)
        if depth == 0:  # a compile that started before rbda loaded numba (and this listener)
            return
        _THREAD.depth = depth - 1
        if depth == 1 and getattr(_THREAD, "outer", None) is not None:
            name, start = _THREAD.outer
            _THREAD.outer = None
            _say(f"compiled {name} in {time.perf_counter() - start:.1f} s")


_LISTENER = _Listener()


def install() -> None:
    """Listen to numba's compile events (once)."""
    if not getattr(install, "done", False):
        event.register("numba:compile", _LISTENER)
        install.done = True
