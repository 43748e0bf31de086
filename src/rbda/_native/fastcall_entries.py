"""The compiled half of :mod:`rbda._native.fastcall` (imported by the first call that binds an entry, so that
``import rbda`` does not import numba): the raw-memory intrinsics, the checks, the METH_FASTCALL bodies as numba
``cfunc`` s, and the addresses of the kernels they call."""

from __future__ import annotations

import ctypes
import importlib

from llvmlite import ir
from numba import carray, types
from numba.core import cgutils
from numba.extending import intrinsic

from .jit import load, njit
from .notice import compiling
from .fastcall import (A_DATA, A_DESCR, A_DIMS, A_FLAGS, A_ND, AS_LONG, BIG_ENDIAN, C_CONTIGUOUS_ALIGNED,
                       D_BYTEORDER, D_TYPENUM, DATA, DWS_LEN, DWS_PTR, ENTRIES, F64, F_LEN, F_PTR, I_LEN, I_PTR, INT,
                       KERNEL, KIND, MODEL, NDARRAY, NONE, NPY_DOUBLE, NQ, NV, OB_TYPE, OUT_LEN, OUT_PTR, REFERENCE_FRAME,
                       RESULT, SLOTS,
                       T_ITEMS, TOKEN, WR_OBJECT, WS_LEN, WS_PTR, INCREF)
from .fastcall import AS_DOUBLE, AUX_LEN, AUX_PTR, FALSE, FLOAT, FROM_DOUBLE, MODEL_ENTRIES, N1, N2, N3, TRUE  # config


cfunc = load().cfunc  # numba's, loaded by rbda first (its cache locators)

# ------------------------------------------------------------------------------------------- raw memory access
@intrinsic
def load_i64(typingctx, address):
    """The int64 at ``address``."""
    def codegen(context, builder, signature, args):
        return builder.load(builder.inttoptr(args[0], ir.IntType(64).as_pointer()))
    return types.int64(types.intp), codegen


@intrinsic
def load_i32(typingctx, address):
    """The int32 at ``address``, widened."""
    def codegen(context, builder, signature, args):
        return builder.sext(builder.load(builder.inttoptr(args[0], ir.IntType(32).as_pointer())), ir.IntType(64))
    return types.int64(types.intp), codegen


@intrinsic
def load_u8(typingctx, address):
    """The byte at ``address``, widened."""
    def codegen(context, builder, signature, args):
        return builder.zext(builder.load(builder.inttoptr(args[0], ir.IntType(8).as_pointer())), ir.IntType(64))
    return types.int64(types.intp), codegen


@intrinsic
def f64_pointer(typingctx, address):
    """``address`` as a ``double*``."""
    sig = types.CPointer(types.float64)(types.intp)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))
    return sig, codegen


@intrinsic
def i64_pointer(typingctx, address):
    """``address`` as an ``int64_t*``."""
    sig = types.CPointer(types.int64)(types.intp)

    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(signature.return_type))
    return sig, codegen


@intrinsic
def call_incref(typingctx, function, obj):
    """``function(obj)`` for the address of CPython's ``Py_IncRef``: the address is read from the table at run
    time, never baked into the cached code (it moves from process to process)."""
    def codegen(context, builder, signature, args):
        voidp = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.VoidType(), [voidp])
        builder.call(builder.inttoptr(args[0], fnty.as_pointer()), [builder.inttoptr(args[1], voidp)])
        return context.get_dummy_value()
    return types.void(types.intp, types.intp), codegen


@intrinsic
def call_as_long(typingctx, function, obj):
    """``PyLong_AsLongLongAndOverflow(obj, &overflow)`` for the address of that CPython function (read from the table
    at run time, as Py_IncRef's): the value of the int ``obj``, or INT64_MIN when it does not fit."""
    def codegen(context, builder, signature, args):
        voidp, i32, i64 = ir.IntType(8).as_pointer(), ir.IntType(32), ir.IntType(64)
        fnty = ir.FunctionType(i64, [voidp, i32.as_pointer()])
        overflow = cgutils.alloca_once_value(builder, ir.Constant(i32, 0))
        value = builder.call(builder.inttoptr(args[0], fnty.as_pointer()), [builder.inttoptr(args[1], voidp), overflow])
        fits = builder.icmp_signed("==", builder.load(overflow), ir.Constant(i32, 0))
        return builder.select(fits, value, ir.Constant(i64, -(2**63)))
    return types.int64(types.intp, types.intp), codegen


@intrinsic
def call_kernel(typingctx, address, arguments):
    """The status that the compiled kernel at ``address`` returns for the tuple ``arguments``, called with numba's
    own calling convention (the function the kernel's dispatcher compiled or loaded from its cache: this cfunc
    does not compile the kernel again); -1 if the kernel raised."""
    def codegen(context, builder, signature, args):
        argtypes = list(signature.args[1])
        values = [builder.extract_value(args[1], k) for k in range(len(argtypes))]
        fnty = context.call_conv.get_function_type(types.int64, argtypes)
        callee = builder.inttoptr(args[0], fnty.as_pointer())
        status, out = context.call_conv.call_function(builder, callee, types.int64, argtypes, values)
        return builder.select(status.is_ok, out, ir.Constant(ir.IntType(64), -1))
    return types.int64(types.intp, arguments), codegen


# config
@intrinsic
def call_as_double(typingctx, function, obj):
    """``PyFloat_AsDouble(obj)`` for the address of that CPython function (read from the table at run time, as
    Py_IncRef's): the value of the float ``obj``."""
    def codegen(context, builder, signature, args):
        voidp = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.DoubleType(), [voidp])
        return builder.call(builder.inttoptr(args[0], fnty.as_pointer()), [builder.inttoptr(args[1], voidp)])
    return types.float64(types.intp, types.intp), codegen


@intrinsic
def call_from_double(typingctx, function, value):
    """``PyFloat_FromDouble(value)`` for the address of that CPython function: a new reference to a float."""
    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(ir.IntType(8).as_pointer(), [ir.DoubleType()])
        return builder.ptrtoint(builder.call(builder.inttoptr(args[0], fnty.as_pointer()), [args[1]]), i64)
    return types.int64(types.intp, types.float64), codegen


# ------------------------------------------------------------------------------------------- the checks
@njit(forceinline=True)
def table(self):
    """The int64 table of a builtin's ``self`` tuple."""
    return carray(i64_pointer(load_i64(load_i64(self + T_ITEMS) + A_DATA)), SLOTS)


@njit(forceinline=True)
def bound(T, args, nargs, expected):
    """True if the call passes ``expected`` arguments, the first two the model and data of the binding, and the
    binding is current. The model is compared with the referent of a weak reference to it (None once it is gone, so
    that another object at its address never passes): a data does not keep its model alive."""
    return model_bound(T, args, nargs, expected) and load_i64(args + 8) == T[DATA]


@njit(forceinline=True)
def model_bound(T, args, nargs, expected):
    """True if the call passes ``expected`` arguments, the first the model of the binding (the referent of a weak
    reference to it), and the binding is current."""
    model = load_i64(args)
    return (nargs == expected and model == load_i64(T[MODEL] + WR_OBJECT) and model != T[NONE]
            and load_i64(T[TOKEN]) != 0)


@njit(forceinline=True)
def vector_at(T, args, k, n):
    """The data address of argument ``k`` if it is an exact ndarray of ``n`` native float64, C-contiguous and
    aligned; else 0 (numpy never gives an array a null data pointer)."""
    obj = load_i64(args + 8 * k)
    if load_i64(obj + OB_TYPE) != T[NDARRAY] or load_i32(obj + A_ND) != 1 or load_i64(load_i64(obj + A_DIMS)) != n:
        return 0
    if load_i32(obj + A_FLAGS) & C_CONTIGUOUS_ALIGNED != C_CONTIGUOUS_ALIGNED:
        return 0
    descr = load_i64(obj + A_DESCR)
    if descr != T[F64] and (load_i32(descr + D_TYPENUM) != NPY_DOUBLE or load_u8(descr + D_BYTEORDER) == BIG_ENDIAN):
        return 0
    return load_i64(obj + A_DATA)


@njit(forceinline=True)
def matrix_at(T, args, k, rows, cols):
    """The data address of argument ``k`` if it is an exact ndarray of ``(rows, cols)`` native float64,
    C-contiguous and aligned; else 0."""
    obj = load_i64(args + 8 * k)
    if load_i64(obj + OB_TYPE) != T[NDARRAY] or load_i32(obj + A_ND) != 2:
        return 0
    dims = load_i64(obj + A_DIMS)
    if load_i64(dims) != rows or load_i64(dims + 8) != cols:
        return 0
    if load_i32(obj + A_FLAGS) & C_CONTIGUOUS_ALIGNED != C_CONTIGUOUS_ALIGNED:
        return 0
    descr = load_i64(obj + A_DESCR)
    if descr != T[F64] and (load_i32(descr + D_TYPENUM) != NPY_DOUBLE or load_u8(descr + D_BYTEORDER) == BIG_ENDIAN):
        return 0
    return load_i64(obj + A_DATA)


@njit(forceinline=True)
def columns_at(T, args, k):
    """The number of columns of argument ``k`` if it is an exact two-dimensional ndarray; else -1."""
    obj = load_i64(args + 8 * k)
    if load_i64(obj + OB_TYPE) != T[NDARRAY] or load_i32(obj + A_ND) != 2:
        return -1
    return load_i64(load_i64(obj + A_DIMS) + 8)


@njit(forceinline=True)
def real_at(T, args, k):
    """``(True, value)`` if argument ``k`` is an exact float; else ``(False, 0.0)``."""
    obj = load_i64(args + 8 * k)
    if load_i64(obj + OB_TYPE) != T[FLOAT]:
        return False, 0.0
    return True, call_as_double(T[AS_DOUBLE], obj)


@njit(forceinline=True)
def flag_at(T, args, k):
    """1 if argument ``k`` is True, 0 if it is False, else -1."""
    obj = load_i64(args + 8 * k)
    return 1 if obj == T[TRUE] else 0 if obj == T[FALSE] else -1


@njit(forceinline=True)
def index_at(T, args, k):
    """The value of argument ``k`` if it is an exact int (not a bool, not numpy's) that is >= 0; else -1."""
    obj = load_i64(args + 8 * k)
    if load_i64(obj + OB_TYPE) != T[INT]:
        return -1
    value = call_as_long(T[AS_LONG], obj)
    return value if value >= 0 else -1


@njit(forceinline=True)
def reference_frame_at(T, args, k):
    """The value of argument ``k`` if it is an exact int or a ReferenceFrame of value 0, 1 or 2; else -1."""
    obj = load_i64(args + 8 * k)
    kind = load_i64(obj + OB_TYPE)
    if kind != T[INT] and kind != T[REFERENCE_FRAME]:
        return -1
    value = call_as_long(T[AS_LONG], obj)
    return value if 0 <= value <= 2 else -1


@njit(forceinline=True)
def vector_args(T, args, nargs, count):
    """``(ok, q, v, a)`` of a call ``f(model, data, q[, v[, a]])`` with ``count`` vectors: their data addresses
    (:func:`vector_at`; 1 for one not passed), and ok if the call is the bound pair's and each vector one the kernel
    takes."""
    if not bound(T, args, nargs, 2 + count):
        return False, 0, 0, 0
    q = vector_at(T, args, 2, T[NQ])
    v = vector_at(T, args, 3, T[NV]) if count > 1 else 1
    a = vector_at(T, args, 4, T[NV]) if count > 2 else 1
    return q != 0 and v != 0 and a != 0, q, v, a


@njit(forceinline=True)
def id_args(T, args, nargs):
    """The id (:func:`index_at`) of a call ``f(model, data, id)`` of the bound pair, else -1."""
    return index_at(T, args, 2) if bound(T, args, nargs, 3) else -1


@njit(forceinline=True)
def id_rf_args(T, args, nargs):
    """``(id, rf)`` of a call ``f(model, data, id, rf)`` of the bound pair (:func:`index_at`,
    :func:`reference_frame_at`); the id is -1 if the call is another or either argument is not one the kernel
    takes."""
    if not bound(T, args, nargs, 4):
        return -1, -1
    i, rf = index_at(T, args, 2), reference_frame_at(T, args, 3)
    return (i, rf) if i >= 0 and rf >= 0 else (-1, -1)


@njit(forceinline=True)
def floats(address, n):
    return carray(f64_pointer(address), n)


@njit(forceinline=True)
def model_arrays(T):
    """``(I, F, ws)``: the packed model and the data workspace."""
    return (carray(i64_pointer(T[I_PTR]), T[I_LEN]), floats(T[F_PTR], T[F_LEN]), floats(T[WS_PTR], T[WS_LEN]))


@njit(forceinline=True)
def answer(T, slot):
    """A new reference to the object whose address is ``T[slot]``: the result, or None for the ordinary path."""
    call_incref(T[INCREF], T[slot])
    return T[slot]


# ------------------------------------------------------------------------------------------- the entries
# One body per shape of kernel call, each ``self, args, nargs -> object`` (CPython's METH_FASTCALL), compiled on first
# use by :func:`compiled`; the kernel it runs is the one whose address the table holds.
def _q(self, args, nargs):
    """``kernel(I, F, ws, q)`` for ``f(model, data, q)``."""
    T = table(self)
    ok, q, _, _ = vector_args(T, args, nargs, 1)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, floats(q, T[NQ]))) else RESULT)


def _qv(self, args, nargs):
    """``kernel(I, F, ws, q, v)`` for ``f(model, data, q, v)``."""
    T = table(self)
    ok, q, v, _ = vector_args(T, args, nargs, 2)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, floats(q, T[NQ]), floats(v, T[NV]))) else RESULT)


def _qva(self, args, nargs):
    """``kernel(I, F, ws, q, v, a)`` for ``f(model, data, q, v, a)``."""
    T = table(self)
    ok, q, v, a = vector_args(T, args, nargs, 3)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    status = call_kernel(T[KERNEL], (I, F, ws, floats(q, T[NQ]), floats(v, T[NV]), floats(a, T[NV])))
    return answer(T, NONE if status else RESULT)


def _qva_fext(self, args, nargs):
    """``kernel(I, F, ws, q, v, a, no external forces)`` for ``f(model, data, q, v, a)``."""
    T = table(self)
    ok, q, v, a = vector_args(T, args, nargs, 3)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    no_fext = carray(f64_pointer(T[WS_PTR]), (0, 6))
    status = call_kernel(T[KERNEL], (I, F, ws, floats(q, T[NQ]), floats(v, T[NV]), floats(a, T[NV]), no_fext))
    return answer(T, NONE if status else RESULT)


def _dws_qva_fext(self, args, nargs):
    """``kernel(I, F, ws, dws, q, v, a, no external forces)`` for ``f(model, data, q, v, a)``."""
    T = table(self)
    ok, q, v, a = vector_args(T, args, nargs, 3)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    dws, no_fext = floats(T[DWS_PTR], T[DWS_LEN]), carray(f64_pointer(T[WS_PTR]), (0, 6))
    status = call_kernel(T[KERNEL], (I, F, ws, dws, floats(q, T[NQ]), floats(v, T[NV]), floats(a, T[NV]), no_fext))
    return answer(T, NONE if status else RESULT)


def _q_zero_va_fext(self, args, nargs):
    """``kernel(I, F, ws, q, 0, 0, no external forces)`` for ``f(model, data, q)`` (the zeros: the second
    buffer)."""
    T = table(self)
    ok, q, _, _ = vector_args(T, args, nargs, 1)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    zero, no_fext = floats(T[DWS_PTR], T[NV]), carray(f64_pointer(T[WS_PTR]), (0, 6))
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, floats(q, T[NQ]), zero, zero, no_fext)) else RESULT)


# The kernels of the whole-body quantities take the whole-body buffer (the second buffer) after ``ws``, then the
# vectors; one left out is passed empty.
def _wb_q(self, args, nargs):
    """``kernel(I, F, ws, wb, q)`` for ``f(model, data, q)``."""
    T = table(self)
    ok, q, _, _ = vector_args(T, args, nargs, 1)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    wb = floats(T[DWS_PTR], T[DWS_LEN])
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, wb, floats(q, T[NQ]))) else RESULT)


def _wb_q_none(self, args, nargs):
    """``kernel(I, F, ws, wb, q, empty)`` for ``f(model, data, q)``."""
    T = table(self)
    ok, q, _, _ = vector_args(T, args, nargs, 1)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    wb, empty = floats(T[DWS_PTR], T[DWS_LEN]), floats(T[WS_PTR], 0)
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, wb, floats(q, T[NQ]), empty)) else RESULT)


def _wb_q_none_none(self, args, nargs):
    """``kernel(I, F, ws, wb, q, empty, empty)`` for ``f(model, data, q)``."""
    T = table(self)
    ok, q, _, _ = vector_args(T, args, nargs, 1)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    wb, empty = floats(T[DWS_PTR], T[DWS_LEN]), floats(T[WS_PTR], 0)
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, wb, floats(q, T[NQ]), empty, empty)) else RESULT)


def _wb_qv(self, args, nargs):
    """``kernel(I, F, ws, wb, q, v)`` for ``f(model, data, q, v)``."""
    T = table(self)
    ok, q, v, _ = vector_args(T, args, nargs, 2)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    wb = floats(T[DWS_PTR], T[DWS_LEN])
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, wb, floats(q, T[NQ]), floats(v, T[NV]))) else RESULT)


def _wb_qv_none(self, args, nargs):
    """``kernel(I, F, ws, wb, q, v, empty)`` for ``f(model, data, q, v)``."""
    T = table(self)
    ok, q, v, _ = vector_args(T, args, nargs, 2)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    wb, empty = floats(T[DWS_PTR], T[DWS_LEN]), floats(T[WS_PTR], 0)
    status = call_kernel(T[KERNEL], (I, F, ws, wb, floats(q, T[NQ]), floats(v, T[NV]), empty))
    return answer(T, NONE if status else RESULT)


def _wb_qva(self, args, nargs):
    """``kernel(I, F, ws, wb, q, v, a)`` for ``f(model, data, q, v, a)``."""
    T = table(self)
    ok, q, v, a = vector_args(T, args, nargs, 3)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    wb = floats(T[DWS_PTR], T[DWS_LEN])
    status = call_kernel(T[KERNEL], (I, F, ws, wb, floats(q, T[NQ]), floats(v, T[NV]), floats(a, T[NV])))
    return answer(T, NONE if status else RESULT)


# The frame quantities (``kernels/frames.py``): ``f(model, data, [q,] id, reference_frame)``, an id and a reference
# frame as ints, into the entry's own output; the kernel checks the id's range.
def _frame(self, args, nargs):
    """``kernel(I, F, ws, frame_id)`` for ``f(model, data, frame_id)``."""
    T = table(self)
    frame = id_args(T, args, nargs)
    if frame < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, frame)) else RESULT)


def _frame_rf_out(self, args, nargs):
    """``kernel(I, F, ws, frame_id, 0, rf, out (6, nv))`` for ``f(model, data, frame_id, rf)``."""
    T = table(self)
    frame, rf = id_rf_args(T, args, nargs)
    if frame < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    out = carray(f64_pointer(T[OUT_PTR]), (6, T[NV]))
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, frame, 0, rf, out)) else RESULT)


def _joint_rf_out(self, args, nargs):
    """``kernel(I, F, ws, -1, joint_id, rf, out (6, nv))`` for ``f(model, data, joint_id, rf)``."""
    T = table(self)
    joint, rf = id_rf_args(T, args, nargs)
    if joint < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    out = carray(f64_pointer(T[OUT_PTR]), (6, T[NV]))
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, -1, joint, rf, out)) else RESULT)


def _q_frame_rf_out(self, args, nargs):
    """``kernel(I, F, ws, q, frame_id, 0, rf, out (6, nv))`` for ``f(model, data, q, frame_id, rf)``."""
    T = table(self)
    if not bound(T, args, nargs, 5):
        return answer(T, NONE)
    q, frame, rf = vector_at(T, args, 2, T[NQ]), index_at(T, args, 3), reference_frame_at(T, args, 4)
    if q == 0 or frame < 0 or rf < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    out = carray(f64_pointer(T[OUT_PTR]), (6, T[NV]))
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, floats(q, T[NQ]), frame, 0, rf, out)) else RESULT)


def _q_joint_rf_out(self, args, nargs):
    """``kernel(I, F, ws, q, -1, joint_id, rf, out (6, nv))`` for ``f(model, data, q, joint_id, rf)``."""
    T = table(self)
    if not bound(T, args, nargs, 5):
        return answer(T, NONE)
    q, joint, rf = vector_at(T, args, 2, T[NQ]), index_at(T, args, 3), reference_frame_at(T, args, 4)
    if q == 0 or joint < 0 or rf < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    out = carray(f64_pointer(T[OUT_PTR]), (6, T[NV]))
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, floats(q, T[NQ]), -1, joint, rf, out)) else RESULT)


def _frame_rf_kind_out(self, args, nargs):
    """``kernel(I, F, ws, frame_id, 0, rf, KIND, out (6,))`` for ``f(model, data, frame_id, rf)``."""
    T = table(self)
    frame, rf = id_rf_args(T, args, nargs)
    if frame < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    out = floats(T[OUT_PTR], 6)
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, frame, 0, rf, T[KIND], out)) else RESULT)


def _joint_rf_kind_out(self, args, nargs):
    """``kernel(I, F, ws, -1, joint_id, rf, KIND, out (6,))`` for ``f(model, data, joint_id, rf)``."""
    T = table(self)
    joint, rf = id_rf_args(T, args, nargs)
    if joint < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    out = floats(T[OUT_PTR], 6)
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, -1, joint, rf, T[KIND], out)) else RESULT)


# config
@njit(forceinline=True)
def finish(T, status, slot):
    """A new reference to the object of ``T[slot]`` (the result) if the kernel's ``status`` is 0, else None."""
    return answer(T, NONE if status else slot)


@njit(forceinline=True)
def model_inputs(self, args, nargs, expected):
    """``(T, ok, I, F, work, x, y)`` for an entry bound to a model, called ``f(model, x, y, ...)``: ``ok`` if the
    call passes ``expected`` arguments, the first the bound model, then a vector ``x`` of ``N1`` and (if ``N2``) a
    vector ``y`` of ``N2`` floats; ``work`` the entry's work buffer (``ws``)."""
    T = table(self)
    x = vector_at(T, args, 1, T[N1]) if model_bound(T, args, nargs, expected) else 0
    y = vector_at(T, args, 2, T[N2]) if T[N2] and x != 0 else x
    I, F, work = model_arrays(T)
    return T, x != 0 and y != 0, I, F, work, floats(x, T[N1]), floats(y, T[N2])


# The supported force and inertia of a frame (``kernels/supported.py``): the frames' supported inertias (the
# auxiliary model array, (nframes, 16)) after ``ws``, the frame id, into the entry's own output.
@njit(forceinline=True)
def frame_inputs(self, args, nargs, expected):
    """``(T, frame, I, F, ws, aux, out)`` for ``f(model, data, frame_id, ...)``: ``frame`` the id, or -1 if the call
    is not the bound one's or the id not an int >= 0."""
    T = table(self)
    frame = index_at(T, args, 2) if bound(T, args, nargs, expected) else -1
    I, F, ws = model_arrays(T)
    aux = carray(f64_pointer(T[AUX_PTR]), (T[AUX_LEN] // 16, 16))
    return T, frame, I, F, ws, aux, floats(T[OUT_PTR], T[OUT_LEN])


def _aux_frame_out(self, args, nargs):
    """``kernel(I, F, ws, aux (nframes, 16), frame_id, out)`` for ``f(model, data, frame_id)``."""
    T, frame, I, F, ws, aux, out = frame_inputs(self, args, nargs, 3)
    if frame < 0:
        return answer(T, NONE)
    return finish(T, call_kernel(T[KERNEL], (I, F, ws, aux, frame, out)), RESULT)


def _aux_frame_flag_out(self, args, nargs):
    """``kernel(I, F, ws, aux (nframes, 16), frame_id, flag, out)`` for ``f(model, data, frame_id, flag)``, ``flag``
    True or False."""
    T, frame, I, F, ws, aux, out = frame_inputs(self, args, nargs, 4)
    flag = flag_at(T, args, 3)
    if frame < 0 or flag < 0:
        return answer(T, NONE)
    return finish(T, call_kernel(T[KERNEL], (I, F, ws, aux, frame, flag, out)), RESULT)


def _wb_q_joint_aux(self, args, nargs):
    """``kernel(I, F, ws, wb, q, joint_id, aux (3, nv))`` for ``f(model, data, q, joint_id)``."""
    T = table(self)
    if not bound(T, args, nargs, 4):
        return answer(T, NONE)
    q, joint = vector_at(T, args, 2, T[NQ]), index_at(T, args, 3)
    if q == 0 or joint < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    wb, out = floats(T[DWS_PTR], T[DWS_LEN]), carray(f64_pointer(T[AUX_PTR]), (3, T[NV]))
    return finish(T, call_kernel(T[KERNEL], (I, F, ws, wb, floats(q, T[NQ]), joint, out)), RESULT)


# The entries bound to a model (``MODEL_ENTRIES``): ``f(model, ...)``, the vector arguments of sizes N1, N2, the
# output of size N3 (allocated by the public function: a model is shared between threads), the entry's work
# buffer (``ws``, max(nq, nv)) and result buffer (``dws``, one float) for the float and bool results.
def _m_xy_out(self, args, nargs):
    """``kernel(I, F, x, y, out)`` for ``f(model, x, y, out)``."""
    T, ok, I, F, _, x, y = model_inputs(self, args, nargs, 4)
    out = vector_at(T, args, 3, T[N3])
    if not ok or out == 0:
        return answer(T, NONE)
    return finish(T, call_kernel(T[KERNEL], (I, F, x, y, floats(out, T[N3]))), TRUE)


def _m_x_out(self, args, nargs):
    """``kernel(I, F, x, out)`` for ``f(model, x, out)``."""
    T, ok, I, F, _, x, _ = model_inputs(self, args, nargs, 3)
    out = vector_at(T, args, 2, T[N3])
    if not ok or out == 0:
        return answer(T, NONE)
    return finish(T, call_kernel(T[KERNEL], (I, F, x, floats(out, T[N3]))), TRUE)


def _m_xy_work_out(self, args, nargs):
    """``kernel(I, F, x, y, work (nv,), out)`` for ``f(model, x, y, out)``."""
    T, ok, I, F, work, x, y = model_inputs(self, args, nargs, 4)
    out = vector_at(T, args, 3, T[N3])
    if not ok or out == 0:
        return answer(T, NONE)
    return finish(T, call_kernel(T[KERNEL], (I, F, x, y, work[: T[NV]], floats(out, T[N3]))), TRUE)


def _m_xy_real_work_out(self, args, nargs):
    """``kernel(I, F, x, y, real, work (nv,), out)`` for ``f(model, x, y, real, out)``."""
    T, ok, I, F, work, x, y = model_inputs(self, args, nargs, 5)
    is_real, real = real_at(T, args, 3)
    out = vector_at(T, args, 4, T[N3])
    if not ok or not is_real or out == 0:
        return answer(T, NONE)
    return finish(T, call_kernel(T[KERNEL], (I, F, x, y, real, work[: T[NV]], floats(out, T[N3]))), TRUE)


def _m_xy_work_float(self, args, nargs):
    """``kernel(I, F, x, y, work (nv,), result (1,))`` for ``f(model, x, y)``; returns ``result[0]``."""
    T, ok, I, F, work, x, y = model_inputs(self, args, nargs, 3)
    result = floats(T[DWS_PTR], 1)
    if not ok or call_kernel(T[KERNEL], (I, F, x, y, work[: T[NV]], result)):
        return answer(T, NONE)
    return call_from_double(T[FROM_DOUBLE], result[0])


def _m_xy_real_work_bool(self, args, nargs):
    """``kernel(I, F, x, y, real, work (nv,), result (1,))`` for ``f(model, x, y, real)``; returns
    ``result[0] != 0``."""
    T, ok, I, F, work, x, y = model_inputs(self, args, nargs, 4)
    is_real, real = real_at(T, args, 3)
    result = floats(T[DWS_PTR], 1)
    if not ok or not is_real or call_kernel(T[KERNEL], (I, F, x, y, real, work[: T[NV]], result)):
        return answer(T, NONE)
    return answer(T, TRUE if result[0] != 0.0 else FALSE)


def _m_x_real_work_bool(self, args, nargs):
    """``kernel(I, F, x, real, work (nq,), result (1,))`` for ``f(model, x, real)``; returns ``result[0] != 0``."""
    T, ok, I, F, work, x, _ = model_inputs(self, args, nargs, 3)
    is_real, real = real_at(T, args, 2)
    result = floats(T[DWS_PTR], 1)
    if not ok or not is_real or call_kernel(T[KERNEL], (I, F, x, real, work[: T[NQ]], result)):
        return answer(T, NONE)
    return answer(T, TRUE if result[0] != 0.0 else FALSE)


def _m_xy_arg_mm(self, args, nargs):
    """``kernel(I, F, x, y, arg, J0 (nv, nv), J1 (nv, nv))`` for ``f(model, x, y, arg, J0, J1)``."""
    T, ok, I, F, _, x, y = model_inputs(self, args, nargs, 6)
    arg, J0, J1 = index_at(T, args, 3), matrix_at(T, args, 4, T[NV], T[NV]), matrix_at(T, args, 5, T[NV], T[NV])
    if not ok or arg < 0 or J0 == 0 or J1 == 0:
        return answer(T, NONE)
    shape = (T[NV], T[NV])
    J0, J1 = carray(f64_pointer(J0), shape), carray(f64_pointer(J1), shape)
    return finish(T, call_kernel(T[KERNEL], (I, F, x, y, arg, J0, J1)), TRUE)


def _m_xy_arg_mk(self, args, nargs):
    """``kernel(I, F, x, y, arg, J (nv, k), out (nv, k))`` for ``f(model, x, y, arg, J, out)``."""
    T, ok, I, F, _, x, y = model_inputs(self, args, nargs, 6)
    k = columns_at(T, args, 4)
    arg, J, out = index_at(T, args, 3), matrix_at(T, args, 4, T[NV], k), matrix_at(T, args, 5, T[NV], k)
    if not ok or arg < 0 or J == 0 or out == 0:
        return answer(T, NONE)
    shape = (T[NV], k)
    J, out = carray(f64_pointer(J), shape), carray(f64_pointer(out), shape)
    return finish(T, call_kernel(T[KERNEL], (I, F, x, y, arg, J, out)), TRUE)
# ratios
def _frame_out(self, args, nargs):
    """``kernel(I, F, ws, frame_id, 0, out (6, n))`` for ``f(model, data, frame_id)``."""
    T = table(self)
    frame = id_args(T, args, nargs)
    if frame < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    out = carray(f64_pointer(T[OUT_PTR]), (6, T[OUT_LEN] // 6))
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, frame, 0, out)) else RESULT)


def _joint_out(self, args, nargs):
    """``kernel(I, F, ws, -1, joint_id, out (6, n))`` for ``f(model, data, joint_id)``."""
    T = table(self)
    joint = id_args(T, args, nargs)
    if joint < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    out = carray(f64_pointer(T[OUT_PTR]), (6, T[OUT_LEN] // 6))
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, -1, joint, out)) else RESULT)


def _dws_frame_rf_kind_out(self, args, nargs):
    """``kernel(I, F, ws, dws, frame_id, 0, no placement, rf, KIND, out (5, 6, nv))`` for
    ``f(model, data, frame_id, rf)``."""
    T = table(self)
    frame, rf = id_rf_args(T, args, nargs)
    if frame < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    dws, out = floats(T[DWS_PTR], T[DWS_LEN]), carray(f64_pointer(T[OUT_PTR]), (5, 6, T[NV]))
    no_placement = carray(f64_pointer(T[WS_PTR]), (0, 4))
    status = call_kernel(T[KERNEL], (I, F, ws, dws, frame, 0, no_placement, rf, T[KIND], out))
    return answer(T, NONE if status else RESULT)


def _dws_joint_rf_kind_out(self, args, nargs):
    """``kernel(I, F, ws, dws, -1, joint_id, no placement, rf, KIND, out (5, 6, nv))`` for
    ``f(model, data, joint_id, rf)``."""
    T = table(self)
    joint, rf = id_rf_args(T, args, nargs)
    if joint < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    dws, out = floats(T[DWS_PTR], T[DWS_LEN]), carray(f64_pointer(T[OUT_PTR]), (5, 6, T[NV]))
    no_placement = carray(f64_pointer(T[WS_PTR]), (0, 4))
    status = call_kernel(T[KERNEL], (I, F, ws, dws, -1, joint, no_placement, rf, T[KIND], out))
    return answer(T, NONE if status else RESULT)


def _none(self, args, nargs):
    """``kernel(I, F, ws)`` for ``f(model, data)``."""
    T = table(self)
    if not bound(T, args, nargs, 2):
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws)) else RESULT)


def _dws_qva(self, args, nargs):
    """``kernel(I, F, ws, dws, q, v, a)`` for ``f(model, data, q, v, a)``."""
    T = table(self)
    ok, q, v, a = vector_args(T, args, nargs, 3)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    dws = floats(T[DWS_PTR], T[DWS_LEN])
    status = call_kernel(T[KERNEL], (I, F, ws, dws, floats(q, T[NQ]), floats(v, T[NV]), floats(a, T[NV])))
    return answer(T, NONE if status else RESULT)


def _out_q_tensor_tensor(self, args, nargs):
    """``kernel(I, F, ws, q, out (6, nv, nv), out)`` for ``f(model, data, q)``, ``out`` the Data field returned."""
    T = table(self)
    ok, q, _, _ = vector_args(T, args, nargs, 1)
    if not ok:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    out = carray(f64_pointer(T[DWS_PTR]), (6, T[NV], T[NV]))
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, floats(q, T[NQ]), out, out)) else RESULT)


def _frame_placement_rf_out(self, args, nargs):
    """``kernel(I, F, ws, frame_id, 0, no placement, rf, out (6, n))`` for ``f(model, data, frame_id, rf)``."""
    T = table(self)
    frame, rf = id_rf_args(T, args, nargs)
    if frame < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    no_placement, out = carray(f64_pointer(T[WS_PTR]), (0, 4)), carray(f64_pointer(T[OUT_PTR]), (6, T[OUT_LEN] // 6))
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, frame, 0, no_placement, rf, out)) else RESULT)


def _joint_placement_rf_out(self, args, nargs):
    """``kernel(I, F, ws, -1, joint_id, no placement, rf, out (6, n))`` for ``f(model, data, joint_id, rf)``."""
    T = table(self)
    joint, rf = id_rf_args(T, args, nargs)
    if joint < 0:
        return answer(T, NONE)
    I, F, ws = model_arrays(T)
    no_placement, out = carray(f64_pointer(T[WS_PTR]), (0, 4)), carray(f64_pointer(T[OUT_PTR]), (6, T[OUT_LEN] // 6))
    return answer(T, NONE if call_kernel(T[KERNEL], (I, F, ws, -1, joint, no_placement, rf, out)) else RESULT)


#: the bodies by name (``ENTRIES``' first item)
BODIES = {"_q": _q, "_qv": _qv, "_qva": _qva, "_qva_fext": _qva_fext, "_dws_qva_fext": _dws_qva_fext,
          "_q_zero_va_fext": _q_zero_va_fext, "_wb_q": _wb_q, "_wb_q_none": _wb_q_none,
          "_wb_q_none_none": _wb_q_none_none, "_wb_qv": _wb_qv, "_wb_qv_none": _wb_qv_none, "_wb_qva": _wb_qva,
          "_frame_rf_out": _frame_rf_out, "_joint_rf_out": _joint_rf_out, "_q_frame_rf_out": _q_frame_rf_out,
          "_q_joint_rf_out": _q_joint_rf_out, "_frame_rf_kind_out": _frame_rf_kind_out,
          "_joint_rf_kind_out": _joint_rf_kind_out, "_frame": _frame,
          # config
          "_m_xy_out": _m_xy_out, "_m_x_out": _m_x_out, "_m_xy_work_out": _m_xy_work_out,
          "_m_xy_real_work_out": _m_xy_real_work_out, "_m_xy_work_float": _m_xy_work_float,
          "_m_xy_real_work_bool": _m_xy_real_work_bool, "_m_x_real_work_bool": _m_x_real_work_bool,
          "_m_xy_arg_mm": _m_xy_arg_mm, "_aux_frame_out": _aux_frame_out, "_aux_frame_flag_out": _aux_frame_flag_out,
          "_wb_q_joint_aux": _wb_q_joint_aux, "_m_xy_arg_mk": _m_xy_arg_mk,
          # ratios (``_out_*``: the ``_wb_*`` bodies, whose second buffer is the Data field the entry returns)
          "_out_q": _wb_q, "_out_qv": _wb_qv, "_frame_out": _frame_out, "_joint_out": _joint_out,
          "_dws_frame_rf_kind_out": _dws_frame_rf_kind_out, "_dws_joint_rf_kind_out": _dws_joint_rf_kind_out,
          "_none": _none, "_dws_qva": _dws_qva, "_out_q_tensor_tensor": _out_q_tensor_tensor,
          "_frame_placement_rf_out": _frame_placement_rf_out, "_joint_placement_rf_out": _joint_placement_rf_out}
#: ``PyObject *(PyObject *self, PyObject *const *args, Py_ssize_t nargs)``, pointers as integers (the same registers)
SIGNATURE = types.intp(types.intp, types.intp, types.intp)
METH_FASTCALL = 0x0080


class PyMethodDef(ctypes.Structure):
    _fields_ = [("ml_name", ctypes.c_char_p), ("ml_meth", ctypes.c_void_p), ("ml_flags", ctypes.c_int),
                ("ml_doc", ctypes.c_char_p)]


_COMPILED: dict[str, tuple] = {}  # body name -> (cfunc, its PyMethodDef), kept alive for the process


def compiled(name: str):
    """The method definition of entry ``name``, its cfunc compiled (or loaded from numba's cache) on first use."""
    body = BODIES[_ALL_ENTRIES[name][0]]
    if body.__name__ not in _COMPILED:
        with compiling(f"the fast entry {name}", "2 to 10 s"):
            entry = cfunc(SIGNATURE, cache=True)(body)
        method = PyMethodDef(f"rbda_fast{body.__name__}".encode(), entry.address, METH_FASTCALL, None)
        _COMPILED[body.__name__] = (entry, method)
    return _COMPILED[body.__name__][1]


_V, _M, _I = types.Array(types.float64, 1, "C"), types.Array(types.float64, 2, "C"), types.Array(types.int64, 1, "C")
_N, _R, _T3 = types.int64, types.float64, types.Array(types.float64, 3, "C")
_ALL_ENTRIES = {**ENTRIES, **MODEL_ENTRIES}  # config
#: the argument types each entry passes its kernel: ``I, F, ws``, a derivatives' workspace, the vectors, the empty
#: external forces; the one set of types the ordinary path passes too (``_native/direct.py``)
KERNEL_SIGNATURES = {
    "forward_kinematics_q": (_I, _V, _V, _V), "forward_kinematics_qv": (_I, _V, _V, _V, _V),
    "forward_kinematics_qva": (_I, _V, _V, _V, _V, _V), "compute_joint_jacobians": (_I, _V, _V, _V),
    "rnea": (_I, _V, _V, _V, _V, _V, _M), "crba": (_I, _V, _V, _V), "aba": (_I, _V, _V, _V, _V, _V, _M),
    "compute_minverse": (_I, _V, _V, _V), "compute_rnea_derivatives": (_I, _V, _V, _V, _V, _V, _V, _M),
    "compute_aba_derivatives": (_I, _V, _V, _V, _V, _V, _V, _M), "compute_generalized_gravity": (_I, _V, _V, _V, _V, _V, _M),
    "center_of_mass_q": (_I, _V, _V, _V, _V, _V, _V), "center_of_mass_qv": (_I, _V, _V, _V, _V, _V, _V),
    "center_of_mass_qva": (_I, _V, _V, _V, _V, _V, _V), "jacobian_center_of_mass": (_I, _V, _V, _V, _V),
    "compute_centroidal_map": (_I, _V, _V, _V, _V, _V), "ccrba": (_I, _V, _V, _V, _V, _V),
    "compute_centroidal_momentum": (_I, _V, _V, _V, _V, _V, _V),
    "compute_centroidal_momentum_time_variation": (_I, _V, _V, _V, _V, _V, _V),
    "energy_q": (_I, _V, _V, _V, _V, _V), "energy_qv": (_I, _V, _V, _V, _V, _V),
    **{name: (_I, _V, _V, _N, _N, _N, _M) for name in ("get_frame_jacobian", "get_joint_jacobian",
                                                        "get_frame_jacobian_time_variation",
                                                        "get_joint_jacobian_time_variation")},
    "compute_frame_jacobian": (_I, _V, _V, _V, _N, _N, _N, _M), "compute_joint_jacobian": (_I, _V, _V, _V, _N, _N, _N, _M),
    "update_frame_placement": (_I, _V, _V, _N),
    **{name: (_I, _V, _V, _N, _N, _N, _N, _V) for name in ("get_frame_velocity", "get_frame_acceleration",
                                                            "get_frame_classical_acceleration", "get_velocity",
                                                            "get_acceleration", "get_classical_acceleration")},
    # config
    "integrate": (_I, _V, _V, _V, _V), "difference": (_I, _V, _V, _V, _V), "normalize": (_I, _V, _V, _V),
    "interpolate": (_I, _V, _V, _V, _R, _V, _V), "is_normalized": (_I, _V, _V, _R, _V, _V),
    "is_same_configuration": (_I, _V, _V, _V, _R, _V, _V), "squared_distance": (_I, _V, _V, _V, _V, _V),
    "distance": (_I, _V, _V, _V, _V, _V), "d_integrate": (_I, _V, _V, _V, _N, _M, _M),
    "d_difference": (_I, _V, _V, _V, _N, _M, _M),
    "compute_supported_force_by_frame": (_I, _V, _V, _M, _N, _V),
    "compute_supported_inertia_by_frame": (_I, _V, _V, _M, _N, _N, _V),
    "jacobian_subtree_center_of_mass": (_I, _V, _V, _V, _V, _N, _M),
    "d_integrate_transport": (_I, _V, _V, _V, _N, _M, _M),
    # ratios
    "compute_static_regressor": (_I, _V, _V, _V, _V), "compute_potential_energy_regressor": (_I, _V, _V, _V, _V),
    "compute_kinetic_energy_regressor": (_I, _V, _V, _V, _V, _V),
    "joint_body_regressor": (_I, _V, _V, _N, _N, _M), "frame_body_regressor": (_I, _V, _V, _N, _N, _M),
    **{name: (_I, _V, _V, _V, _N, _N, _M, _N, _N, _T3) for name in (
        "get_joint_velocity_derivatives", "get_joint_acceleration_derivatives", "get_frame_velocity_derivatives",
        "get_frame_acceleration_derivatives")},
    "update_frame_placements": (_I, _V, _V), "update_global_placements": (_I, _V, _V),
    "frames_forward_kinematics": (_I, _V, _V, _V), "compute_joint_jacobians_time_variation": (_I, _V, _V, _V, _V),
    "compute_joint_kinematic_hessians": (_I, _V, _V, _V, _T3, _T3),
    "compute_forward_kinematics_derivatives": (_I, _V, _V, _V, _V, _V, _V),
    "compute_joint_kinematic_regressor": (_I, _V, _V, _N, _N, _M, _N, _M),
    "compute_frame_kinematic_regressor": (_I, _V, _V, _N, _N, _M, _N, _M),
}
_KERNELS: dict[str, int] = {}  # entry name -> address of its kernel's compiled function (0: not callable so)


def kernel_address(name: str) -> int:
    """The address of the function that the kernel of entry ``name`` compiled to (its dispatcher compiles it or
    loads it from numba's cache, for the one set of argument types the algorithms pass it), or 0 if its
    signature is not the one the entry calls."""
    if name not in _KERNELS:
        _, module, kernel_name, _ = _ALL_ENTRIES[name]
        kernel = getattr(importlib.import_module(f"..kernels.{module}", __package__), kernel_name)
        signature = KERNEL_SIGNATURES[name]
        kernel.compile(signature)
        compiled_kernel = kernel.overloads[signature]
        ok = compiled_kernel.signature.return_type == types.int64
        _KERNELS[name] = (compiled_kernel.library.get_pointer_to_function(compiled_kernel.fndesc.llvm_func_name)
                          if ok else 0)
    return _KERNELS[name]
