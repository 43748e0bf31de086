"""rbda's kernels as XLA FFI custom calls on the CPU: a jitted :func:`rbda.jax.rnea` runs the compiled kernel
inside the XLA executable, without re-entering Python (as ``jax.pure_callback`` would, at 100+ us a call).

Every target is served by one numba ``@cfunc`` handler of XLA's typed FFI (``XLA_FFI_Error*
handler(XLA_FFI_CallFrame*)``, ``xla/ffi/api/c_api.h`` in ``jax.ffi.include_dir()``), exported to XLA as a PyCapsule
and registered under each target's name; a call says which algorithm it runs in its one attribute, the int64 scalar
``rbda_code`` (:data:`HANDLERS`: ``2 algorithm + jacobians``), which :func:`call` adds. The handler reads the call
frame's C structs at the offsets of their ``ctypes`` declarations (:data:`STRUCTS`, each checked against the
installed header in the tests), answers XLA's metadata query (its API version) and runs the kernel on the operand buffers (one handler:
one per target would compile its own copy of every kernel it reaches). It serves every model: the model's packed
arrays ``I, F`` (``model.packed``) and a template workspace (``model.create_data().ws``) are operands, constants
of the jitted program. XLA allocates the workspaces (extra results that the wrappers drop); the handler copies
the template into the data workspace and zeroes the derivative workspace before the kernel runs. A nonzero kernel
status (a NaN, a quaternion off the unit sphere) becomes an FFI error whose message, a row of a message table
operand, names the function and the argument (``JaxRuntimeError: INVALID_ARGUMENT: ValueError: rbda.jax.rnea: q: ...``).

Targets (operands -> results; ``x1, x2`` are ``(v, a)`` or ``(v, tau)``)::

    rbda_rnea, rbda_aba                 (I, F, ws0, msg, q, x1, x2) -> (y (nv,), ws)
    rbda_rnea_jac, rbda_aba_jac         (I, F, ws0, msg, q, x1, x2) -> (y, J_q, J_x1, J_x2 (nv, nv), ws, dws)
    rbda_integrate                      (I, F, ws0, msg, q, v) -> (q_next (nq,))       (ws0 unused)
    rbda_integrate_jac                  (I, F, ws0, msg, q, v) -> (q_next, J_q, J_v (nv, nv))
    rbda_center_of_mass                 (I, F, ws0, msg, q) -> (com (3,), ws, wb)
    rbda_center_of_mass_jac             (I, F, ws0, msg, q) -> (com, J_q (3, nv), ws, wb)
    rbda_crba                           (I, F, ws0, msg, q) -> (M (nv, nv), ws)
    rbda_crba_jac                       (I, F, ws0, msg, q) -> (M, dM (nv, nv, nv), ws, dws, T (3, nv, nv, nv))
    rbda_kinematics                     (I, F, ws0, msg, q) -> (oMi (nj, 3, 4), oMf (nf, 3, 4), J (nv, 6), ws)
    rbda_constraint_dynamics            (I, F, ws0, msg, CI, CF, settings, q, v, tau)
                                          -> (ddq (nv,), lambda (m,), ws, L, D, Dinv, R, Jc, rhs, work, stats)
    rbda_constraint_dynamics_jac        (I, F, ws0, msg, CI, CF, settings, q, v, tau)
                                          -> (ddq, lambda, ddq_dq, ddq_dv, ddq_dtau (nv, nv), dlambda_dq,
                                              dlambda_dv, dlambda_dtau (m, nv), ws, dws, L, D, Dinv, R, Jc, rhs,
                                              work, stats, dwork)

The Jacobian targets return the tangent-space Jacobians of ``compute_rnea_derivatives``,
``compute_aba_derivatives``, ``d_integrate``, ``jacobian_center_of_mass`` and (``dM[:, :, k] = dM/dq_k``)
``compute_rnea_second_order_derivatives`` at ``v = a = 0``, on the model's elementary twin as those functions do.
``rbda_kinematics`` serves the value and JVP of every placement function (``J``: the world twist of each dof). The
constrained targets take the packed constraints ``CI, CF`` and the settings ``[mu, accuracy, max_iter]``; their
buffers are those of ``rbda.batch.compute_constraint_dynamics_derivatives`` for one state.
"""

from __future__ import annotations

import ctypes

import numpy as np
from llvmlite import ir
from numba import carray, types
from numba.extending import intrinsic

from .jit import load, njit
from .notice import compiling
from ..kernels import center_of_mass as _com_kernels
from ..kernels import configuration as _configuration
from ..kernels import constrained as _constrained
from ..kernels import constrained_derivatives as _constrained_derivatives
from ..kernels import derivatives as _derivatives
from ..kernels import dynamics as _dynamics_kernels
from ..kernels import kinematics as _kinematics_kernels
from ..model.layout import data_views, model_views
from ..model.layout import whole_body_views

cfunc = load().cfunc  # numba's, loaded by rbda first (its cache locators)

API_MAJOR, API_MINOR = 0, 3  # XLA_FFI_API_MAJOR / MINOR of the c_api.h this handler follows
EXTENSION_METADATA = 1  # XLA_FFI_Extension_Metadata
INVALID_ARGUMENT = 3  # XLA_FFI_Error_Code_INVALID_ARGUMENT


# ------------------------------------------------------------------------------- the structs of c_api.h
# The structs the handler reads or writes, declared as c_api.h declares them (field names, order and C types;
# tests/bridges/test_jax_ffi.py checks each declaration against the installed header): ctypes lays them out by the
# platform's C rules, and the handler reads each field at the offset ctypes gives it.
_SIZE, _PTR, _I64, _I32, _U32 = ctypes.c_size_t, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int32, ctypes.c_uint32


def _struct(name: str, fields: list) -> type:
    return type(name, (ctypes.Structure,), {"_fields_": fields})


XLA_FFI_Api_Version = _struct("XLA_FFI_Api_Version", [("struct_size", _SIZE), ("extension_start", _PTR),
                                                      ("major_version", ctypes.c_int), ("minor_version", ctypes.c_int)])
XLA_FFI_Args = _struct("XLA_FFI_Args", [("struct_size", _SIZE), ("extension_start", _PTR), ("size", _I64),
                                        ("types", _PTR), ("args", _PTR)])
XLA_FFI_Rets = _struct("XLA_FFI_Rets", [("struct_size", _SIZE), ("extension_start", _PTR), ("size", _I64),
                                        ("types", _PTR), ("rets", _PTR)])
XLA_FFI_Attrs = _struct("XLA_FFI_Attrs", [("struct_size", _SIZE), ("extension_start", _PTR), ("size", _I64),
                                          ("types", _PTR), ("names", _PTR), ("attrs", _PTR)])
STRUCTS = {s.__name__: s for s in (
    XLA_FFI_Api_Version, XLA_FFI_Args, XLA_FFI_Rets, XLA_FFI_Attrs,
    _struct("XLA_FFI_CallFrame", [("struct_size", _SIZE), ("extension_start", _PTR), ("api", _PTR), ("ctx", _PTR),
                                  ("stage", _I32), ("args", XLA_FFI_Args), ("rets", XLA_FFI_Rets),
                                  ("attrs", XLA_FFI_Attrs), ("future", _PTR)]),
    _struct("XLA_FFI_Scalar", [("dtype", _I32), ("value", _PTR)]),
    _struct("XLA_FFI_Buffer", [("struct_size", _SIZE), ("extension_start", _PTR), ("dtype", _I32), ("data", _PTR),
                               ("rank", _I64), ("dims", _PTR)]),
    _struct("XLA_FFI_Extension_Base", [("struct_size", _SIZE), ("type", _I32), ("next", _PTR)]),
    _struct("XLA_FFI_Metadata", [("struct_size", _SIZE), ("api_version", XLA_FFI_Api_Version), ("traits", _U32),
                                 ("state_type_id", _I64)]),
    _struct("XLA_FFI_Error_Create_Args", [("struct_size", _SIZE), ("extension_start", _PTR), ("message", _PTR),
                                          ("errc", _I32)]),
    # the leading fields only: the handler calls XLA_FFI_Error_Create and nothing after it
    _struct("XLA_FFI_Api", [("struct_size", _SIZE), ("extension_start", _PTR), ("api_version", XLA_FFI_Api_Version),
                            ("internal_api", _PTR), ("XLA_FFI_Error_Create", _PTR)]),
)}
STRUCTS["XLA_FFI_Metadata_Extension"] = _struct("XLA_FFI_Metadata_Extension", [
    ("extension_base", STRUCTS["XLA_FFI_Extension_Base"]), ("metadata", _PTR)])


def _at(field: str) -> int:
    """The byte offset of ``"struct.field"`` in its struct."""
    struct, name = field.split(".")
    return getattr(STRUCTS[struct], name).offset


def _struct_size(struct: str, last: str) -> int:
    """``XLA_FFI_STRUCT_SIZE(struct, last)``: the size up to the end of the field ``last``, as XLA checks it."""
    field = getattr(STRUCTS[struct], last)
    return field.offset + field.size


FRAME_EXTENSION, FRAME_API, FRAME_ARGS, FRAME_RETS, FRAME_ATTRS = (
    _at(f"XLA_FFI_CallFrame.{f}") for f in ("extension_start", "api", "args", "rets", "attrs"))
LIST_SIZE, LIST_ITEMS = _at("XLA_FFI_Args.size"), _at("XLA_FFI_Args.args")  # the same in XLA_FFI_Rets
ATTRS_SIZE, ATTRS_TYPES, ATTRS_ITEMS = (_at(f"XLA_FFI_Attrs.{f}") for f in ("size", "types", "attrs"))
SCALAR_DTYPE, SCALAR_VALUE = _at("XLA_FFI_Scalar.dtype"), _at("XLA_FFI_Scalar.value")
ATTR_SCALAR, DTYPE_S64 = 3, 5  # XLA_FFI_AttrType_SCALAR, XLA_FFI_DataType_S64
BUFFER_DATA, BUFFER_RANK, BUFFER_DIMS = (_at(f"XLA_FFI_Buffer.{f}") for f in ("data", "rank", "dims"))
EXTENSION_TYPE = _at("XLA_FFI_Extension_Base.type")
EXTENSION_METADATA_POINTER = _at("XLA_FFI_Metadata_Extension.metadata")
METADATA_VERSION, METADATA_TRAITS, METADATA_STATE = (
    _at(f"XLA_FFI_Metadata.{f}") for f in ("api_version", "traits", "state_type_id"))
VERSION_MAJOR, VERSION_MINOR = _at("XLA_FFI_Api_Version.major_version"), _at("XLA_FFI_Api_Version.minor_version")
API_ERROR_CREATE = _at("XLA_FFI_Api.XLA_FFI_Error_Create")
ERROR_MESSAGE, ERROR_CODE = _at("XLA_FFI_Error_Create_Args.message"), _at("XLA_FFI_Error_Create_Args.errc")
API_VERSION_SIZE = _struct_size("XLA_FFI_Api_Version", "minor_version")
ERROR_ARGS_SIZE = _struct_size("XLA_FFI_Error_Create_Args", "errc")
FRAME_WORDS = ctypes.sizeof(STRUCTS["XLA_FFI_CallFrame"]) // 8  # the call frame, read as int64 words
assert LIST_SIZE == _at("XLA_FFI_Rets.size") and LIST_ITEMS == _at("XLA_FFI_Rets.rets")


# ------------------------------------------------------------------------------------- raw memory in numba
@intrinsic
def _pointer(typingctx, address):
    """The ``void*`` at the integer ``address``."""
    def codegen(context, builder, signature, args):
        return builder.inttoptr(args[0], context.get_value_type(types.voidptr))
    return types.voidptr(types.int64), codegen


@intrinsic
def _address(typingctx, pointer):
    """The integer address of the ``void*`` ``pointer``."""
    def codegen(context, builder, signature, args):
        return builder.ptrtoint(args[0], ir.IntType(64))
    return types.int64(types.voidptr), codegen


@intrinsic
def _call_pointer(typingctx, function, argument):
    """``((void* (*)(void*)) function)(argument)`` as an integer: a call of a C function pointer."""
    def codegen(context, builder, signature, args):
        p = ir.IntType(8).as_pointer()
        fn = builder.inttoptr(args[0], ir.FunctionType(p, [p]).as_pointer())
        return builder.ptrtoint(builder.call(fn, [builder.inttoptr(args[1], p)]), ir.IntType(64))
    return types.int64(types.int64, types.int64), codegen


@njit(cache=True, inline="always")
def _words(address, n):
    """``n`` int64 words at ``address``."""
    return carray(_pointer(address), (n,), np.int64)


@njit(cache=True, inline="always")
def _buffer(items, k, dtype, n):
    """The data of the ``k``-th buffer of an argument or result list, as a flat array of ``n`` entries."""
    b = _words(items[k], 6)
    return carray(_pointer(b[BUFFER_DATA // 8]), (n,), dtype)


@njit(cache=True, inline="always")
def _length(items, k):
    """The first dimension of the ``k``-th buffer of an argument or result list."""
    return _words(_words(items[k], 6)[BUFFER_DIMS // 8], 1)[0]


@njit(cache=True, inline="always")
def _matrix(items, k, n):
    """The ``k``-th buffer of a list as an ``(n, n)`` matrix."""
    return carray(_pointer(_words(items[k], 6)[BUFFER_DATA // 8]), (n, n), np.float64)


@njit(cache=True)
def _metadata(frame):
    """Answer XLA's metadata query if the call frame carries one (then return True): the API version, no
    traits, no state."""
    ext = frame[FRAME_EXTENSION // 8]
    if ext == 0:
        return False
    if carray(_pointer(ext), (4,), np.int32)[EXTENSION_TYPE // 4] != EXTENSION_METADATA:
        return False
    md = _words(ext, 4)[EXTENSION_METADATA_POINTER // 8]
    words, halves = _words(md, 6), carray(_pointer(md), (12,), np.int32)
    words[METADATA_VERSION // 8] = API_VERSION_SIZE
    words[METADATA_VERSION // 8 + 1] = 0  # extension_start
    halves[(METADATA_VERSION + VERSION_MAJOR) // 4] = API_MAJOR
    halves[(METADATA_VERSION + VERSION_MINOR) // 4] = API_MINOR
    halves[METADATA_TRAITS // 4] = 0
    words[METADATA_STATE // 8] = 0  # XLA_FFI_UNKNOWN_TYPE_ID
    return True


@njit(cache=True)
def _error(frame, messages, status):
    """An ``XLA_FFI_Error*`` (as an integer) whose message is row ``status`` of ``messages`` (NUL-terminated
    rows; row 0 for a status without a row of its own)."""
    row = status if 0 < status < messages.shape[0] and messages[status, 0] != 0 else 0
    args = np.zeros(4, np.int64)
    args[0] = ERROR_ARGS_SIZE
    args[ERROR_MESSAGE // 8] = messages[row].ctypes.data
    args[ERROR_CODE // 8] = INVALID_ARGUMENT
    create = _words(frame[FRAME_API // 8], 7)[API_ERROR_CREATE // 8]
    return _call_pointer(create, args.ctypes.data)


@njit(cache=True, inline="always")
def _operands(frame):
    """``(argument addresses, result addresses, I, F, ws0, messages, ws0's size)``: the call's buffer lists, the
    model's packed arrays, the template workspace and the message table (the first four operands)."""
    a, r = FRAME_ARGS // 8, FRAME_RETS // 8
    args = _words(frame[a + LIST_ITEMS // 8], frame[a + LIST_SIZE // 8])
    rets = _words(frame[r + LIST_ITEMS // 8], frame[r + LIST_SIZE // 8])
    nw = _length(args, 2)
    md = _words(_words(args[3], 6)[BUFFER_DIMS // 8], 2)
    I = _buffer(args, 0, np.int64, _length(args, 0))
    F = _buffer(args, 1, np.float64, _length(args, 1))
    ws0 = _buffer(args, 2, np.float64, nw)
    msg = carray(_pointer(_words(args[3], 6)[BUFFER_DATA // 8]), (md[0], md[1]), np.uint8)
    return args, rets, I, F, ws0, msg, nw


RNEA, ABA, INTEGRATE, CENTER_OF_MASS, CRBA, KINEMATICS, CONSTRAINED = 0, 1, 2, 3, 4, 5, 6  # codes of _run


@njit(cache=True, inline="always")
def _dynamics(args, rets, I, F, ws0, nw, m, algorithm, jacobians):
    """rnea or aba (value, or with its Jacobians) on the call's buffers; returns the kernel's status."""
    nv = m.nv
    q, x1, x2 = _buffer(args, 4, np.float64, m.nq), _buffer(args, 5, np.float64, nv), _buffer(args, 6, np.float64, nv)
    ws = _buffer(rets, 4 if jacobians else 1, np.float64, nw)
    ws[:] = ws0
    if jacobians:
        dws = _buffer(rets, 5, np.float64, _length(rets, 5))
        dws[:] = 0.0  # a new derivative workspace: the kernels leave the entries of unrelated dofs at 0
        Jq, J1, J2 = _matrix(rets, 1, nv), _matrix(rets, 2, nv), _matrix(rets, 3, nv)
        if algorithm == RNEA:
            status = _derivatives.rnea_derivatives_into(I, F, ws, dws, q, x1, x2, Jq, J1, J2)
        else:
            status = _derivatives.aba_derivatives_into(I, F, ws, dws, q, x1, x2, Jq, J1, J2)
    else:
        no_fext = np.zeros((0, 6))
        if algorithm == RNEA:
            status = _dynamics_kernels.rnea(I, F, ws, q, x1, x2, no_fext)
        else:
            status = _dynamics_kernels.aba(I, F, ws, q, x1, x2, no_fext)
            if status == _dynamics_kernels.NEEDS_FACTOR:  # mimic joints: no ABA
                status = _dynamics_kernels.forward_dynamics_through_factor(I, F, ws, q, x1, x2, no_fext)
    if status == 0:
        d = data_views(ws, m.nj, m.nv, m.nf, m.nq_mimic)[0]
        out, y = d.tau if algorithm == RNEA else d.ddq, _buffer(rets, 0, np.float64, nv)
        for i in range(nv):
            y[i] = out[i]
    return status


@njit(cache=True, inline="always")
def _integrate(args, rets, I, F, m, jacobians):
    """``q (+) v``, with ``d_integrate`` (both arguments) for ``jacobians``; returns the kernel's status."""
    q, v = _buffer(args, 4, np.float64, m.nq), _buffer(args, 5, np.float64, m.nv)
    status = _configuration.integrate(I, F, q, v, _buffer(rets, 0, np.float64, m.nq))
    if status == 0 and jacobians:
        status = _configuration.d_integrate(I, F, q, v, 2, _matrix(rets, 1, m.nv), _matrix(rets, 2, m.nv))
    return status


@njit(cache=True, inline="always")
def _center_of_mass(args, rets, I, F, ws0, nw, m, jacobians):
    """The CoM, and its Jacobian ``(3, nv)`` for ``jacobians`` (``jacobian_center_of_mass`` gives both)."""
    k = 2 if jacobians else 1
    ws, wb = _buffer(rets, k, np.float64, nw), _buffer(rets, k + 1, np.float64, _length(rets, k + 1))
    ws[:] = ws0
    wb[:] = 0.0
    status = _com_kernels.jacobian_center_of_mass(I, F, ws, wb, _buffer(args, 4, np.float64, m.nq))
    if status == 0:
        w = whole_body_views(wb, m.nj, m.nv)[0]
        com = _buffer(rets, 0, np.float64, 3)
        for r in range(3):
            com[r] = w.com[0, r]
        if jacobians:
            J = carray(_pointer(_words(rets[1], 6)[BUFFER_DATA // 8]), (3, m.nv), np.float64)
            for r in range(3):
                for c in range(m.nv):
                    J[r, c] = w.Jcom[c, r]
    return status


@njit(cache=True, inline="always")
def _copy(source, out):
    """``out[:] = source`` for a contiguous ``source`` of ``out.size`` entries, any shape."""
    flat = source.reshape(source.size)
    for i in range(out.size):
        out[i] = flat[i]


@njit(cache=True, inline="always")
def _crba(args, rets, I, F, ws0, nw, m, jacobians):
    """``M(q)``, with ``dM/dq`` (``dtau_dadq`` of the second-order RNEA derivatives at ``v = a = 0``) for
    ``jacobians``; returns the kernel's status."""
    nv, q = m.nv, _buffer(args, 4, np.float64, m.nq)
    ws = _buffer(rets, 2 if jacobians else 1, np.float64, nw)
    ws[:] = ws0
    if jacobians:
        dws = _buffer(rets, 3, np.float64, _length(rets, 3))
        dws[:] = 0.0
        T = carray(_pointer(_words(rets[4], 6)[BUFFER_DATA // 8]), (3, nv, nv, nv), np.float64)
        dM = carray(_pointer(_words(rets[1], 6)[BUFFER_DATA // 8]), (nv, nv, nv), np.float64)
        z = np.zeros(nv)
        status = _derivatives.rnea_second_order_derivatives(I, F, ws, dws, q, z, z, None, T[0], T[1], T[2], dM)
    else:
        status = _dynamics_kernels.crba(I, F, ws, q)
    if status == 0:
        _copy(data_views(ws, m.nj, m.nv, m.nf, m.nq_mimic)[0].M, _buffer(rets, 0, np.float64, nv * nv))
    return status


@njit(cache=True, inline="always")
def _kinematics(args, rets, I, F, ws0, nw, m):
    """Joint and frame placements and the world Jacobian columns at ``q``; returns the kernel's status."""
    ws = _buffer(rets, 3, np.float64, nw)
    ws[:] = ws0
    status = _kinematics_kernels.compute_joint_jacobians(I, F, ws, _buffer(args, 4, np.float64, m.nq))
    if status == 0:
        status = _kinematics_kernels.update_frame_placements(I, F, ws)
    if status == 0:
        d = data_views(ws, m.nj, m.nv, m.nf, m.nq_mimic)[0]
        _copy(d.oMi, _buffer(rets, 0, np.float64, 12 * m.nj))
        _copy(d.oMf, _buffer(rets, 1, np.float64, 12 * m.nf))
        _copy(d.J, _buffer(rets, 2, np.float64, 6 * m.nv))
    return status


@njit(cache=True, inline="always")
def _zeroed(rets, k):
    """The ``k``-th result buffer, flat, set to zero."""
    x = _buffer(rets, k, np.float64, _size(rets, k))
    x[:] = 0.0
    return x


@njit(cache=True, inline="always")
def _size(items, k):
    """The number of entries of the ``k``-th buffer of a list (the product of its dimensions)."""
    b = _words(items[k], 6)
    rank = b[BUFFER_RANK // 8]
    dims = _words(b[BUFFER_DIMS // 8], rank)
    n = 1
    for r in range(rank):
        n *= dims[r]
    return n


@njit(cache=True, inline="always")
def _constrained_dynamics(args, rets, I, F, ws0, nw, m, jacobians):
    """ddq and lambda under the constraints ``CI, CF`` (operands 4, 5) with the settings (operand 6), and for
    ``jacobians`` their six partial derivatives (``derivatives_into``); returns the kernel's status."""
    nv, nc = m.nv, _length(args, 4)
    CI = carray(_pointer(_words(args[4], 6)[BUFFER_DATA // 8]), (nc, _constrained.CONSTRAINT_INTS), np.int64)
    CF = carray(_pointer(_words(args[5], 6)[BUFFER_DATA // 8]), (nc, _constrained.CONSTRAINT_FLOATS), np.float64)
    settings = _buffer(args, 6, np.float64, 3)
    q, v, tau = _buffer(args, 7, np.float64, m.nq), _buffer(args, 8, np.float64, nv), _buffer(args, 9, np.float64, nv)
    nm = _length(rets, 1)
    k = 8 if jacobians else 2  # the first buffer after the outputs
    ws = _buffer(rets, k, np.float64, nw)
    ws[:] = ws0
    if jacobians:
        dws = _zeroed(rets, k + 1)
        k += 1
    L = _zeroed(rets, k + 1).reshape((nv, nv))
    D, Dinv = _zeroed(rets, k + 2), _zeroed(rets, k + 3)
    R = _zeroed(rets, k + 4).reshape((nc, _constrained.RECORD))
    Jc, rhs = _zeroed(rets, k + 5).reshape((nm, nv)), _zeroed(rets, k + 6)
    work, stats = _zeroed(rets, k + 7), _zeroed(rets, k + 8)
    if jacobians:
        dwork = _zeroed(rets, k + 9)
        status = _constrained_derivatives.derivatives_into(
            I, F, ws, dws, L, D, Dinv, q, v, tau, CI, CF, settings, R, Jc, rhs, work, stats, dwork,
            _matrix(rets, 2, nv), _matrix(rets, 3, nv), _matrix(rets, 4, nv), _zeroed(rets, 5).reshape((nm, nv)),
            _zeroed(rets, 6).reshape((nm, nv)), _zeroed(rets, 7).reshape((nm, nv)))
    else:
        status = _constrained.constraint_dynamics(I, F, ws, L, D, Dinv, q, v, tau, CI, CF, settings, R, Jc, rhs,
                                                  work, stats)
    if status == 0:
        _copy(data_views(ws, m.nj, m.nv, m.nf, m.nq_mimic)[0].ddq, _buffer(rets, 0, np.float64, nv))
        lam = _buffer(rets, 1, np.float64, nm)
        for i in range(nm):
            lam[i] = work[i]
    return status


@njit(cache=True, inline="always")
def _code(frame):
    """The call's ``rbda_code`` attribute (``2 algorithm + jacobians``), or -1 if its attributes are not one int64
    scalar."""
    a = FRAME_ATTRS // 8
    if frame[a + ATTRS_SIZE // 8] != 1:
        return -1
    if carray(_pointer(frame[a + ATTRS_TYPES // 8]), (1,), np.int32)[0] != ATTR_SCALAR:
        return -1
    scalar = _words(frame[a + ATTRS_ITEMS // 8], 1)[0]
    if carray(_pointer(scalar), (1,), np.int32)[SCALAR_DTYPE // 4] != DTYPE_S64:
        return -1
    return _words(_words(scalar, 2)[SCALAR_VALUE // 8], 1)[0]


UNKNOWN_CODE = 1000  # the status of a call without a valid ``rbda_code`` (its message: row 0 of the table)


@njit(cache=True, inline="always")
def _run(call_frame):
    """The handler: answers a metadata query, or runs the kernel that the call's ``rbda_code`` names
    (:data:`HANDLERS`) on the call's buffers; returns the error (an ``XLA_FFI_Error*``, 0 for none) as an
    integer."""
    frame = _words(call_frame, FRAME_WORDS)
    if _metadata(frame):
        return 0
    args, rets, I, F, ws0, msg, nw = _operands(frame)
    code = _code(frame)
    algorithm, jacobians = code // 2, code % 2 == 1
    m = model_views(I, F)
    if code < 0 or algorithm > CONSTRAINED:
        status = UNKNOWN_CODE
    elif algorithm == INTEGRATE:
        status = _integrate(args, rets, I, F, m, jacobians)
    elif algorithm == CENTER_OF_MASS:
        status = _center_of_mass(args, rets, I, F, ws0, nw, m, jacobians)
    elif algorithm == CRBA:
        status = _crba(args, rets, I, F, ws0, nw, m, jacobians)
    elif algorithm == KINEMATICS:
        status = _kinematics(args, rets, I, F, ws0, nw, m)
    elif algorithm == CONSTRAINED:
        status = _constrained_dynamics(args, rets, I, F, ws0, nw, m, jacobians)
    else:
        status = _dynamics(args, rets, I, F, ws0, nw, m, algorithm, jacobians)
    return _error(frame, msg, status) if status else 0


# ----------------------------------------------------------------------------------------------- the handler
def _handler(call_frame):
    return _pointer(_run(_address(call_frame)))


#: target name -> its ``rbda_code``: ``2 algorithm + jacobians``
HANDLERS = {"rbda_rnea": 2 * RNEA, "rbda_aba": 2 * ABA, "rbda_rnea_jac": 2 * RNEA + 1, "rbda_aba_jac": 2 * ABA + 1,
            "rbda_integrate": 2 * INTEGRATE, "rbda_integrate_jac": 2 * INTEGRATE + 1,
            "rbda_center_of_mass": 2 * CENTER_OF_MASS, "rbda_center_of_mass_jac": 2 * CENTER_OF_MASS + 1,
            "rbda_crba": 2 * CRBA, "rbda_crba_jac": 2 * CRBA + 1, "rbda_kinematics": 2 * KINEMATICS,
            "rbda_constraint_dynamics": 2 * CONSTRAINED, "rbda_constraint_dynamics_jac": 2 * CONSTRAINED + 1}
_compiled = {}  # "handler": the numba cfunc (kept alive: XLA holds its address)


def handler(name: str):
    """The compiled handler that serves target ``name`` (of :data:`HANDLERS`; the same numba cfunc for every
    target), compiled or loaded from numba's cache once per process; it needs no JAX (``rbda warmup`` compiles it
    this way)."""
    if name not in HANDLERS:
        raise KeyError(f"no XLA target {name!r}")
    if "handler" not in _compiled:
        with compiling("the XLA handler of rbda.jax", "1 to 3 min"):
            _compiled["handler"] = cfunc(types.voidptr(types.voidptr), cache=True)(_handler)
    return _compiled["handler"]


_registered: set = set()


def target(name: str) -> str:
    """Register the handler of ``name`` (:func:`handler`) with XLA under that name, once; returns ``name``."""
    if name not in _registered:
        import jax

        jax.ffi.register_ffi_target(name, jax.ffi.pycapsule(handler(name).address), platform="cpu")
        _registered.add(name)
    return name


def call(name: str, results):
    """``jax.ffi.ffi_call`` of target ``name`` (registered by :func:`target`) with ``results`` (its result shapes),
    as a function of the operands that adds the call's ``rbda_code`` attribute."""
    import jax

    run, code = jax.ffi.ffi_call(target(name), results), np.int64(HANDLERS[name])
    return lambda *operands: run(*operands, rbda_code=code)
