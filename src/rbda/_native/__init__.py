"""rbda's machinery: everything that touches numba's, CPython's, numpy's or XLA's internals, and nothing else.

``kernels/``, ``collision/``, ``simulation/`` and the rest hold mathematics; they take from here a decorator
(:func:`jit.njit`, :func:`jit.intrinsic`), a view (:mod:`views`), a way to call a kernel
(:mod:`direct`, :mod:`fastcall`). Importing this package imports nothing; numba loads at the first kernel call.

==============================  =========================================================================
``jit``                         numba imported on first use; ``njit``/``intrinsic`` placeholders until then
``dispatch``                    how each dispatcher is built: no C-callable wrapper; helpers without a CPython
                                wrapper; ``refcount=False`` (numba's private ``_nrt=False``); a callee compiled
                                for its arguments' plain types, not once per constant argument
``cache``                       numba's on-disk cache keyed on every rbda source a function can reach
``notice``                      a notice on stderr whenever something compiles, and how long it took
``views``                       array headers built in LLVM IR: ``view``, ``borrowed``, ``borrowed_all``, ``take``
``lanes``                       the SIMD kernels' ``noalias`` pipeline and vector row updates
``direct``                      a kernel called through its compiled entry point, past numba's dispatch
``threads``                     batched kernels (``nogil``) run as one run of chunks per thread of a kept pool
==============================  =========================================================================

Rules (each one guards against a crash, a corrupted heap or stale machine code, not against slowness):

1. **No numba internal outside this package.** Another module may use numba's public API only
   (``get_num_threads``, ``types`` in a signature); whatever needs more is written here, once.
2. **Every compiled function is built by** :func:`jit.njit` (or with numba loaded by :func:`jit.load`), so that
   its cache is keyed by :mod:`cache` and its compile announced by :mod:`notice`. A function decorated with
   numba's own ``njit`` would be cached on its own file only: an edit to a helper in another file would leave it
   running the old helper.
3. **Without reference counting** (``refcount=False``): such a function calls only functions compiled so too (or
   inlined), and never returns one of its array arguments (``tests/test_refcount_free_helpers.py`` checks both
   on the source). numba compiles a callee not compiled yet with its caller's flag.
4. **Borrowed arrays** (:func:`views.borrowed`): valid while the caller keeps the owner alive, i.e. during the
   call; never returned to Python, never stored past the call.
5. **A helper** (``forceinline=True`` or ``refcount=False``) has no CPython wrapper; calling it from Python runs
   an uncached-then-cached twin (:class:`dispatch.Helper`). A kernel that Python calls in a hot loop must not be
   declared a helper.
6. **Fast entries** read objects only through the CPython and numpy C API (``_entry.c``; without it every call
   takes the ordinary path). XLA handlers read XLA's call frame at offsets checked against ``c_api.h``.
7. **The supported numba range** is the one the tests ran on (``pyproject.toml``): ``_nrt``, the cache locators,
   ``CPUDispatcher`` (and its ``get_call_template``), ``make_array``, ``CompilerBase``,
   ``overloads``/``entry_point``, the calling convention.
"""
