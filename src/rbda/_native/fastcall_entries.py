"""The compiled half of :mod:`rbda._native.fastcall` (imported by the first call that binds an entry, so that
``import rbda`` does not import numba): the bodies of the fast entries as numba ``cfunc`` s, and the addresses of
the kernels they call.

A body is ``int64 body(int64 *table, int64 *values)``: the C entry (``_entry.c``) has checked the call and parsed
its arguments into ``values`` (an array's data address, an id's value, a float's bits); the body makes arrays of
the table's addresses and of those values (``numba.carray``), calls its kernel, and returns a status
(``fastcall.RESULT``, ``TRUE``, ``FALSE``, ``FLOAT``, or ``ORDINARY`` when the kernel reports a bad input). It reads
no Python object.
"""

from __future__ import annotations

import importlib

import numpy as np
from llvmlite import ir
from numba import carray, types
from numba.extending import intrinsic

from ..model.layout import data_views, model_views, whole_body_views
from .jit import load, njit
from .views import view
from .notice import compiling
from .fastcall import (AUX_LEN, AUX_PTR, DWS_LEN, DWS_PTR, ENTRIES, F_LEN, F_PTR, FALSE, FLOAT, I_LEN, I_PTR, KERNEL,
                       KIND, MODEL_ENTRIES, N1, N2, N3, NQ, NV, ORDINARY, OUT_LEN, OUT_PTR, RESULT, SLOTS, TRUE,
                       VALUE_COLUMNS, VALUE_RESULT, VALUES, WS_LEN, WS_PTR)


cfunc = load().cfunc  # numba's, loaded by rbda first (its cache locators)


# ------------------------------------------------------------------------------------------- pointers and calls
def _pointer(dtype):
    """An intrinsic: an address (an integer) as a pointer to ``dtype``."""
    @intrinsic
    def pointer(typingctx, address):
        sig = types.CPointer(dtype)(types.intp)

        def codegen(context, builder, signature, args):
            return builder.inttoptr(args[0], context.get_value_type(signature.return_type))
        return sig, codegen
    return pointer


f64_pointer, i64_pointer = _pointer(types.float64), _pointer(types.int64)  # ``double*``, ``int64_t*``


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


# ------------------------------------------------------------------------------------------- the shared steps
@njit(forceinline=True)
def floats(address, n):
    """The ``n`` float64 at ``address``."""
    return carray(f64_pointer(address), n)


@njit(forceinline=True)
def inputs(table, values):
    """``(T, x, I, F, ws)``: the entry's table, the parsed arguments, the packed model and the data workspace (for
    an entry bound to a model, its work buffer)."""
    T, x = carray(i64_pointer(table), SLOTS), carray(i64_pointer(values), VALUES)
    return T, x, carray(i64_pointer(T[I_PTR]), T[I_LEN]), floats(T[F_PTR], T[F_LEN]), floats(T[WS_PTR], T[WS_LEN])


@njit(forceinline=True)
def done(status):
    """The entry's result if the kernel's ``status`` is 0 (it took the inputs), else the ordinary path."""
    return ORDINARY if status else RESULT


@njit(forceinline=True)
def q_of(T, x):
    """The configuration, the first argument after the model and data."""
    return floats(x[0], T[NQ])


@njit(forceinline=True)
def v_of(T, x, k):
    """The vector of nv of argument ``k``."""
    return floats(x[k], T[NV])


@njit(forceinline=True)
def second(T):
    """The second buffer (``fastcall.SECOND_BUFFER``): the whole-body buffer, a derivatives' workspace, zeros."""
    return floats(T[DWS_PTR], T[DWS_LEN])


@njit(forceinline=True)
def no_rows(T, columns):
    """An empty ``(0, columns)`` matrix: no external forces (6), no placement (4)."""
    return carray(f64_pointer(T[WS_PTR]), (0, columns))


@njit(forceinline=True)
def out_of(T, rows):
    """The entry's own output as ``(rows, OUT_LEN / rows)``."""
    return carray(f64_pointer(T[OUT_PTR]), (rows, T[OUT_LEN] // rows))


# ------------------------------------------------------------------------------------------- the entries
# One body per shape of kernel call, compiled on first use by :func:`compiled`; the kernel it runs is the one whose
# address the table holds. Arguments: ``fastcall.ARGUMENTS`` (q first, then v and a; an id, a reference frame).
def _q(table, values):
    """``kernel(I, F, ws, q)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, q_of(T, x))))


def _qv(table, values):
    """``kernel(I, F, ws, q, v)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, q_of(T, x), v_of(T, x, 1))))


def _qva(table, values):
    """``kernel(I, F, ws, q, v, a)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, q_of(T, x), v_of(T, x, 1), v_of(T, x, 2))))


def _qva_fext(table, values):
    """``kernel(I, F, ws, q, v, a, no external forces)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, q_of(T, x), v_of(T, x, 1), v_of(T, x, 2), no_rows(T, 6))))


def _dws_qva_fext(table, values):
    """``kernel(I, F, ws, dws, q, v, a, no external forces)``."""
    T, x, I, F, ws = inputs(table, values)
    arguments = (I, F, ws, second(T), q_of(T, x), v_of(T, x, 1), v_of(T, x, 2), no_rows(T, 6))
    return done(call_kernel(T[KERNEL], arguments))


def _q_zero_va_fext(table, values):
    """``kernel(I, F, ws, q, 0, 0, no external forces)`` (the zeros: the second buffer), then RNEA's ``tau`` (that
    is ``g(q)``) copied into the auxiliary array (``data.g``)."""
    T, x, I, F, ws = inputs(table, values)
    zero = floats(T[DWS_PTR], T[NV])
    if call_kernel(T[KERNEL], (I, F, ws, q_of(T, x), zero, zero, no_rows(T, 6))):
        return ORDINARY
    m = model_views(I, F)
    d = data_views(ws, m.nj, m.nv, m.nf, m.nq_mimic)[0]
    g = floats(T[AUX_PTR], T[AUX_LEN])
    for k in range(T[NV]):
        g[k] = d.tau[k]
    return RESULT


@njit(forceinline=True)
def forces_of(T, x, k):
    """The external forces ``(njoints, 6)`` of argument ``k`` (``N1``: njoints), or None when one is not finite
    (the kernels do not check them: the ordinary path names the argument)."""
    fext = carray(f64_pointer(x[k]), (T[N1], 6))
    for i in range(fext.shape[0]):
        for c in range(6):
            if not np.isfinite(fext[i, c]):
                return None
    return fext


def _q_zero_va_fx(table, values):
    """``kernel(I, F, ws, q, 0, 0, fext)`` (the zeros: the second buffer)."""
    T, x, I, F, ws = inputs(table, values)
    fext = forces_of(T, x, 1)
    if fext is None:
        return ORDINARY
    zero = floats(T[DWS_PTR], T[NV])
    return done(call_kernel(T[KERNEL], (I, F, ws, q_of(T, x), zero, zero, fext)))


def _dws_q_fext(table, values):
    """``kernel(I, F, ws, dws, q, no external forces)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), q_of(T, x), no_rows(T, 6))))


def _dws_q_fx(table, values):
    """``kernel(I, F, ws, dws, q, fext)``."""
    T, x, I, F, ws = inputs(table, values)
    fext = forces_of(T, x, 1)
    if fext is None:
        return ORDINARY
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), q_of(T, x), fext)))


def _dws_qva_wb_out(table, values):
    """``kernel(I, F, ws, dws, q, v, a, out (6, nv) x 4, hg, dhg, com_mass)``: the entry's own output holds the four
    blocks, then ``com_mass`` (4,); ``hg`` and ``dhg`` are the whole-body buffer's (the auxiliary array), whose
    ``com[0]`` receives the centre of mass. The ordinary path for a massless model (it raises)."""
    T, x, I, F, ws = inputs(table, values)
    nv, out = T[NV], floats(T[OUT_PTR], T[OUT_LEN])
    m = model_views(I, F)
    w, _ = whole_body_views(floats(T[AUX_PTR], T[AUX_LEN]), m.nj, m.nv)
    blocks, com_mass = view(out, 0, (4, 6, nv)), view(out, 24 * nv, (4,))
    arguments = (I, F, ws, second(T), q_of(T, x), v_of(T, x, 1), v_of(T, x, 2), blocks[0], blocks[1], blocks[2],
                 blocks[3], w.hg, w.dhg, com_mass)
    if call_kernel(T[KERNEL], arguments) or not com_mass[3] > 0.0:
        return ORDINARY
    for k in range(3):
        w.com[0, k] = com_mass[k]
    return RESULT


def _dws_qva(table, values):
    """``kernel(I, F, ws, dws, q, v, a)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), q_of(T, x), v_of(T, x, 1), v_of(T, x, 2))))


def _none(table, values):
    """``kernel(I, F, ws)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws)))


def _out_q_tensor_tensor(table, values):
    """``kernel(I, F, ws, q, out (6, nv, nv), out)``, ``out`` the Data field returned (the second buffer)."""
    T, x, I, F, ws = inputs(table, values)
    out = carray(f64_pointer(T[DWS_PTR]), (6, T[NV], T[NV]))
    return done(call_kernel(T[KERNEL], (I, F, ws, q_of(T, x), out, out)))


# The kernels of the whole-body quantities take the whole-body buffer (the second buffer) after ``ws``, then the
# vectors; one left out is passed empty.
def _wb_aux(table, values):
    """``kernel(I, F, ws, wb, aux)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), floats(T[AUX_PTR], T[AUX_LEN]))))


def _wb_q(table, values):
    """``kernel(I, F, ws, wb, q)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), q_of(T, x))))


def _wb_q_none(table, values):
    """``kernel(I, F, ws, wb, q, empty)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), q_of(T, x), ws[:0])))


def _wb_q_none_none(table, values):
    """``kernel(I, F, ws, wb, q, empty, empty)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), q_of(T, x), ws[:0], ws[:0])))


def _wb_qv(table, values):
    """``kernel(I, F, ws, wb, q, v)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), q_of(T, x), v_of(T, x, 1))))


def _wb_qv_none(table, values):
    """``kernel(I, F, ws, wb, q, v, empty)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), q_of(T, x), v_of(T, x, 1), ws[:0])))


def _wb_qva(table, values):
    """``kernel(I, F, ws, wb, q, v, a)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), q_of(T, x), v_of(T, x, 1), v_of(T, x, 2))))


def _wb_q_joint_aux(table, values):
    """``kernel(I, F, ws, wb, q, joint_id, aux (3, nv))`` for ``f(model, data, q, joint_id)``."""
    T, x, I, F, ws = inputs(table, values)
    out = carray(f64_pointer(T[AUX_PTR]), (3, T[NV]))
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), q_of(T, x), x[1], out)))


# The frame quantities (``kernels/frames.py``): ``f(model, data, [q,] id[, reference_frame])``, a frame id as
# ``(frame_id, 0)`` and a joint id as ``(-1, joint_id)``, into the entry's own output; the kernel checks the id's range.
def _frame(table, values):
    """``kernel(I, F, ws, frame_id)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, x[0])))


def _frame_rf_out(table, values):
    """``kernel(I, F, ws, frame_id, 0, rf, out (6, nv))``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, x[0], 0, x[1], out_of(T, 6))))


def _joint_rf_out(table, values):
    """``kernel(I, F, ws, -1, joint_id, rf, out (6, nv))``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, -1, x[0], x[1], out_of(T, 6))))


def _q_frame_rf_out(table, values):
    """``kernel(I, F, ws, q, frame_id, 0, rf, out (6, nv))`` for ``f(model, data, q, frame_id, rf)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, q_of(T, x), x[1], 0, x[2], out_of(T, 6))))


def _q_joint_rf_out(table, values):
    """``kernel(I, F, ws, q, -1, joint_id, rf, out (6, nv))`` for ``f(model, data, q, joint_id, rf)``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, q_of(T, x), -1, x[1], x[2], out_of(T, 6))))


def _frame_rf_kind_out(table, values):
    """``kernel(I, F, ws, frame_id, 0, rf, KIND, out (6,))``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, x[0], 0, x[1], T[KIND], floats(T[OUT_PTR], 6))))


def _joint_rf_kind_out(table, values):
    """``kernel(I, F, ws, -1, joint_id, rf, KIND, out (6,))``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, -1, x[0], x[1], T[KIND], floats(T[OUT_PTR], 6))))


def _frame_out(table, values):
    """``kernel(I, F, ws, frame_id, 0, out (6, n))``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, x[0], 0, out_of(T, 6))))


def _joint_out(table, values):
    """``kernel(I, F, ws, -1, joint_id, out (6, n))``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, -1, x[0], out_of(T, 6))))


def _dws_frame_rf_kind_out(table, values):
    """``kernel(I, F, ws, dws, frame_id, 0, no placement, rf, KIND, out (5, 6, nv))``."""
    T, x, I, F, ws = inputs(table, values)
    out = carray(f64_pointer(T[OUT_PTR]), (5, 6, T[NV]))
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), x[0], 0, no_rows(T, 4), x[1], T[KIND], out)))


def _dws_joint_rf_kind_out(table, values):
    """``kernel(I, F, ws, dws, -1, joint_id, no placement, rf, KIND, out (5, 6, nv))``."""
    T, x, I, F, ws = inputs(table, values)
    out = carray(f64_pointer(T[OUT_PTR]), (5, 6, T[NV]))
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), -1, x[0], no_rows(T, 4), x[1], T[KIND], out)))


def _dws_joint_placement_rf_kind_out(table, values):
    """``kernel(I, F, ws, dws, -1, joint_id, placement (3, 4), rf, KIND, out (5, 6, nv))``; the ordinary path for
    ``rf`` WORLD (a point's derivatives are not given in it)."""
    T, x, I, F, ws = inputs(table, values)
    if x[2] == 0:
        return ORDINARY
    out = carray(f64_pointer(T[OUT_PTR]), (5, 6, T[NV]))
    P = carray(f64_pointer(x[1]), (3, 4))
    return done(call_kernel(T[KERNEL], (I, F, ws, second(T), -1, x[0], P, x[2], T[KIND], out)))


def _frame_placement_rf_out(table, values):
    """``kernel(I, F, ws, frame_id, 0, no placement, rf, out (6, n))``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, x[0], 0, no_rows(T, 4), x[1], out_of(T, 6))))


def _joint_placement_rf_out(table, values):
    """``kernel(I, F, ws, -1, joint_id, no placement, rf, out (6, n))``."""
    T, x, I, F, ws = inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, ws, -1, x[0], no_rows(T, 4), x[1], out_of(T, 6))))


# The supported force and inertia of a frame (``kernels/supported.py``): the frames' supported inertias (the
# auxiliary model array, (nframes, 16)) after ``ws``, the frame id, into the entry's own output.
def _aux_frame_out(table, values):
    """``kernel(I, F, ws, aux (nframes, 16), frame_id, out)``."""
    T, x, I, F, ws = inputs(table, values)
    aux = carray(f64_pointer(T[AUX_PTR]), (T[AUX_LEN] // 16, 16))
    return done(call_kernel(T[KERNEL], (I, F, ws, aux, x[0], floats(T[OUT_PTR], T[OUT_LEN]))))


def _aux_frame_flag_out(table, values):
    """``kernel(I, F, ws, aux (nframes, 16), frame_id, flag, out)``, ``flag`` 1 for True, 0 for False."""
    T, x, I, F, ws = inputs(table, values)
    aux = carray(f64_pointer(T[AUX_PTR]), (T[AUX_LEN] // 16, 16))
    return done(call_kernel(T[KERNEL], (I, F, ws, aux, x[0], x[1], floats(T[OUT_PTR], T[OUT_LEN]))))


# The entries bound to a model (``MODEL_ENTRIES``): ``f(model, x, [y, ...])``, the vectors ``x``, ``y`` of sizes N1,
# N2, the output of size N3 (allocated by the public function: a model is shared between threads), the entry's
# work buffer (``ws``, max(nq, nv)); a float result at ``VALUE_RESULT`` of the values.
@njit(forceinline=True)
def model_inputs(table, values):
    """``(T, x, I, F, work, X, Y)``: :func:`inputs` and the vectors ``X`` (N1) and ``Y`` (N2) of the first two
    arguments."""
    T, x, I, F, work = inputs(table, values)
    return T, x, I, F, work, floats(x[0], T[N1]), floats(x[1], T[N2])


@njit(forceinline=True)
def real_of(values, k):
    """The float of argument ``k`` (its bits among the values)."""
    return floats(values, VALUES)[k]


@njit(forceinline=True)
def result_of(values):
    """The float result, ``(1,)`` at ``VALUE_RESULT`` of the values."""
    return floats(values + 8 * VALUE_RESULT, 1)


def _m_xy_out(table, values):
    """``kernel(I, F, x, y, out)`` for ``f(model, x, y, out)``."""
    T, x, I, F, _, X, Y = model_inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, X, Y, floats(x[2], T[N3]))))


def _m_x_out(table, values):
    """``kernel(I, F, x, out)`` for ``f(model, x, out)``."""
    T, x, I, F, _, X, _ = model_inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, X, floats(x[1], T[N3]))))


def _m_xy_work_out(table, values):
    """``kernel(I, F, x, y, work (nv,), out)`` for ``f(model, x, y, out)``."""
    T, x, I, F, work, X, Y = model_inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, X, Y, work[: T[NV]], floats(x[2], T[N3]))))


def _m_xy_real_work_out(table, values):
    """``kernel(I, F, x, y, real, work (nv,), out)`` for ``f(model, x, y, real, out)``."""
    T, x, I, F, work, X, Y = model_inputs(table, values)
    return done(call_kernel(T[KERNEL], (I, F, X, Y, real_of(values, 2), work[: T[NV]], floats(x[3], T[N3]))))


def _m_xy_work_float(table, values):
    """``kernel(I, F, x, y, work (nv,), result (1,))`` for ``f(model, x, y)``; returns ``result[0]``."""
    T, x, I, F, work, X, Y = model_inputs(table, values)
    return ORDINARY if call_kernel(T[KERNEL], (I, F, X, Y, work[: T[NV]], result_of(values))) else FLOAT


def _m_xy_real_work_bool(table, values):
    """``kernel(I, F, x, y, real, work (nv,), result (1,))`` for ``f(model, x, y, real)``; returns
    ``result[0] != 0``."""
    T, x, I, F, work, X, Y = model_inputs(table, values)
    result = result_of(values)
    if call_kernel(T[KERNEL], (I, F, X, Y, real_of(values, 2), work[: T[NV]], result)):
        return ORDINARY
    return TRUE if result[0] != 0.0 else FALSE


def _m_x_real_work_bool(table, values):
    """``kernel(I, F, x, real, work (nq,), result (1,))`` for ``f(model, x, real)``; returns ``result[0] != 0``."""
    T, x, I, F, work, X, _ = model_inputs(table, values)
    result = result_of(values)
    if call_kernel(T[KERNEL], (I, F, X, real_of(values, 1), work[: T[NQ]], result)):
        return ORDINARY
    return TRUE if result[0] != 0.0 else FALSE


def _m_xy_arg_mm(table, values):
    """``kernel(I, F, x, y, arg, J0 (nv, nv), J1 (nv, nv))`` for ``f(model, x, y, arg, J0, J1)``."""
    T, x, I, F, _, X, Y = model_inputs(table, values)
    shape = (T[NV], T[NV])
    J0, J1 = carray(f64_pointer(x[3]), shape), carray(f64_pointer(x[4]), shape)
    return done(call_kernel(T[KERNEL], (I, F, X, Y, x[2], J0, J1)))


def _m_xy_arg_mk(table, values):
    """``kernel(I, F, x, y, arg, J (nv, k), out (nv, k))`` for ``f(model, x, y, arg, J, out)``."""
    T, x, I, F, _, X, Y = model_inputs(table, values)
    shape = (T[NV], x[VALUE_COLUMNS])
    J, out = carray(f64_pointer(x[3]), shape), carray(f64_pointer(x[4]), shape)
    return done(call_kernel(T[KERNEL], (I, F, X, Y, x[2], J, out)))


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
          "_none": _none, "_dws_qva": _dws_qva, "_q_zero_va_fx": _q_zero_va_fx, "_dws_q_fext": _dws_q_fext,
          "_dws_q_fx": _dws_q_fx, "_wb_aux": _wb_aux, "_dws_qva_wb_out": _dws_qva_wb_out, "_dws_joint_placement_rf_kind_out": _dws_joint_placement_rf_kind_out, "_out_q_tensor_tensor": _out_q_tensor_tensor,
          "_frame_placement_rf_out": _frame_placement_rf_out, "_joint_placement_rf_out": _joint_placement_rf_out}
#: ``int64_t body(int64_t *table, int64_t *values)``, pointers as integers (the same registers)
SIGNATURE = types.int64(types.intp, types.intp)
_COMPILED: dict[str, object] = {}  # body name -> its cfunc, kept alive for the process


def compiled(name: str) -> int:
    """The address of the body of entry ``name``, its cfunc compiled (or loaded from numba's cache) on first use."""
    body = BODIES[_ALL_ENTRIES[name][0]]
    if body.__name__ not in _COMPILED:
        with compiling(f"the fast entry {name}", "2 to 10 s"):
            _COMPILED[body.__name__] = cfunc(SIGNATURE, cache=True)(body)
    return _COMPILED[body.__name__].address


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
        "get_frame_acceleration_derivatives", "get_point_velocity_derivatives",
        "get_point_classic_acceleration_derivatives")},
    "compute_static_torque": (_I, _V, _V, _V, _V, _V, _M), "compute_subtree_masses": (_I, _V, _V, _V, _V),
    "compute_centroidal_dynamics_derivatives": (_I, _V, _V, _V, _V, _V, _V, _M, _M, _M, _M, _V, _V, _V),
    "compute_generalized_gravity_derivatives": (_I, _V, _V, _V, _V, _M),
    "compute_static_torque_derivatives": (_I, _V, _V, _V, _V, _M),
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
