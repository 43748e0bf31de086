"""A simulator's compiled step as one C call (``_entry.c``'s ``Step``), past numba's CPython wrapper.

Through its compiled entry point, a call of ``simulation.compiled.step(ctx, q, v, tau, fext, q_next, v_next)``
unboxes the step context (a structref of some 150 arrays: about 0.5 us) and six arrays, and the Python around it
checks and allocates: together more than a small scene's step. A ``Step`` object checks the vectors through the
numpy C API, checks that the simulator's state is the one it was built for (``expect``: dict entries that must
hold given objects), allocates ``q_next`` and ``v_next``, and calls :func:`_step_body`, a numba ``cfunc``
``int64(int64 *table, int64 *values)``, with pointers only: the table holds the address of the step kernel's
compiled function (the one its dispatcher compiled or loaded from the cache), the address of the context's
meminfo, ``nq`` and ``nv``; the body calls the kernel with numba's calling convention, the context passed as that
address (a structref is passed as its meminfo pointer alone: :func:`bind` checks that the two function types are
the same). After a kept step the object writes its ``write`` entries (what the simulator's ``keep_set`` writes);
for anything else it answers None and the simulator takes its ordinary path.

Importing this module imports numba (the simulator binds a step once numba runs its first step).
"""

from __future__ import annotations

from llvmlite import ir
from numba import carray, types
from numba.core import cgutils
from numba.extending import intrinsic

from .fastcall_entries import call_kernel, floats, i64_pointer
from .jit import load, njit, real
from .notice import compiling
from .public import extension

cfunc = load().cfunc
#: the table's slots: the kernel's address, the context's meminfo address, nq, nv
KERNEL, CONTEXT, NQ, NV = range(4)
SLOTS = 4
_VECTOR = types.Array(types.float64, 1, "C")
_SIGNATURE = types.int64(types.intp, types.intp)


@intrinsic
def _void_pointer(typingctx, address):
    """An address (an integer) as ``void*``: the step context's meminfo pointer, which is how numba passes a
    structref argument (its data model: the one member ``meminfo``)."""
    sig = types.voidptr(types.intp)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], ir.IntType(8).as_pointer())
    return sig, codegen


@intrinsic
def _meminfo_address(typingctx, ref):
    """The address of a structref's meminfo."""
    if not isinstance(ref, types.StructRef):
        return None
    sig = types.intp(ref)

    def codegen(context, builder, signature, args):
        proxy = cgutils.create_struct_proxy(ref)(context, builder, value=args[0])
        return builder.ptrtoint(proxy.meminfo, ir.IntType(64))
    return sig, codegen


@njit(cache=True)
def context_address(ctx):
    """The address of the meminfo of the structref ``ctx`` (valid while its Python object lives)."""
    return _meminfo_address(ctx)


def _step_body(table, values):
    """``kernel(context, q, v, tau, fext, q_next, v_next)``: the kernel's status, -1 if it raised."""
    T, x = carray(i64_pointer(table), SLOTS), carray(i64_pointer(values), 6)
    nq, nv = T[NQ], T[NV]
    arguments = (_void_pointer(T[CONTEXT]), floats(x[0], nq), floats(x[1], nv), floats(x[2], nv), floats(x[3], nv),
                 floats(x[4], nq), floats(x[5], nv))
    return call_kernel(T[KERNEL], arguments)


_COMPILED: dict = {}  # "body": the cfunc; (kernel, context type): the kernel's address, kept for the process


def _body() -> int:
    if "body" not in _COMPILED:
        with compiling("the simulator's step entry", "2 to 10 s"):
            _COMPILED["body"] = cfunc(_SIGNATURE, cache=True)(_step_body)
    return _COMPILED["body"].address


def _kernel_address(kernel, context_type) -> int:
    """The address of ``kernel``'s function for ``(context_type, six float64 vectors)`` (compiled or loaded from
    the cache by its dispatcher), or 0 if it does not return int64 or its function type differs from the one the
    body calls (the context as a ``void*``)."""
    key = (kernel, context_type)
    if key not in _COMPILED:
        signature = (context_type,) + (_VECTOR,) * 6
        kernel.compile(signature)
        result = kernel.overloads[signature]
        call_conv = result.target_context.call_conv
        same = (str(call_conv.get_function_type(types.int64, list(signature)))
                == str(call_conv.get_function_type(types.int64, [types.voidptr] + [_VECTOR] * 6)))
        ok = same and result.signature.return_type == types.int64
        _COMPILED[key] = result.library.get_pointer_to_function(result.fndesc.llvm_func_name) if ok else 0
    return _COMPILED[key]


def bind(kernel, context, nq: int, nv: int, zeros, expect: tuple, write: tuple, unconverged: int,
         on_unconverged, keep: tuple):
    """The ``Step`` object (``_entry.c``) of the step kernel ``kernel`` (``simulation.compiled.step``) on the step
    context ``context`` (a structref proxy, kept alive by the object), for ``nq``, ``nv`` and the ``(nv,)``
    ``zeros`` of a step without ``fext``; ``expect``, ``write``: tuples of ``(dict, key, value)``;
    ``unconverged``: the kernel's status of a kept, unconverged step, after which the object calls
    ``on_unconverged()``; ``keep``: objects to keep alive. None without the C extension, or when the kernel's
    function is not one the body can call."""
    import numpy as np
    from numba import typeof

    _extension = extension()
    if _extension is None:
        return None
    address = _kernel_address(real(kernel), typeof(context))
    if not address:
        return None
    table = np.array([address, context_address(context), nq, nv], dtype=np.int64)
    return _extension.Step(_body(), table, zeros, expect, write, unconverged, on_unconverged,
                           (context, *keep))
