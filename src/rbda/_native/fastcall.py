"""Bound fast entries: one call of a public algorithm from Python at the cost of a C function call.

A call through numba's compiled entry point unboxes every array argument into a numba array (about 22 ns an
array, 40 ns fixed), and the Python entry checks each argument first; on a 6-dof arm that fixed cost is most of a
call. Here, each :class:`~rbda.model.Data` gets, at the first call of an algorithm, a builtin function of
CPython's ``METH_FASTCALL`` kind whose C body is a numba ``cfunc``: Python hands it the argument objects as an
array of pointers, and it reads each numpy array's header directly (type, dtype, dimensions, flags, data pointer),
then calls the existing kernel on arrays made from raw pointers (``numba.carray``). The kernel is called through
the address of the function its dispatcher compiled (or loaded from the cache), with numba's calling convention
(:func:`call_kernel`): the cfunc does not compile the kernel a second time, and stays valid when a kernel is
edited. Its ``self`` is a tuple whose first item is a small int64 table (:data:`SLOTS`): the addresses of the
packed model arrays, of the data workspace, of the kernel and of the object to return, the identities of the
model and data it was bound for; the tuple also holds references to everything those addresses point to, so they
stay valid while the builtin lives.

The checks are complete but cheap: the model and data are the bound ones, the binding is current (an edit of the
model clears its token, ``model.data.Bindings``), and each array argument is an exact ``numpy.ndarray``, float64 in
native byte order, one-dimensional, C-contiguous and aligned, of the right length. On any mismatch, and whenever
the kernel reports a bad input (NaN, a quaternion off the unit sphere), the builtin returns ``None`` and the
public function takes its ordinary path, which converts the argument or raises the named error. So results,
errors and the data fields filled are those of the ordinary path; only its cost changes.

The header offsets of numpy arrays, dtypes and tuples are checked at import against known objects
(:func:`layout_ok`); if any differs (another numpy or CPython build), or with ``RBDA_FASTCALL=0``, or when the
kernels are not called through their entry points (``RBDA_NUMBA_DISPATCH``), no entry is bound and every call
takes the ordinary path. Models with mimic joints keep the ordinary path too.
"""

from __future__ import annotations

import ctypes
import os
import sys
import sysconfig
import weakref

import numpy as np

from ..model import data as _data
from ..spatial.so3 import ReferenceFrame
from .direct import MODE

# the table (self's first item): identities, buffer addresses and lengths, then per entry the object it returns
MODEL, DATA, TOKEN, I_PTR, I_LEN, F_PTR, F_LEN, WS_PTR, WS_LEN, NQ, NV, NDARRAY, F64, INCREF, NONE, RESULT = range(16)
DWS_PTR, DWS_LEN, KERNEL = 16, 17, 18  # a second buffer (``SECOND_BUFFER``); the kernel's compiled function
# the entries with integer arguments (ids, a reference frame): the types int and ReferenceFrame, the address of
# CPython's ``PyLong_AsLongLongAndOverflow`` (read at run time, as Py_IncRef's), the constant ``KIND`` passes
INT, REFERENCE_FRAME, AS_LONG, KIND = 19, 20, 21, 22
# config: the entries bound to a model: the sizes of their vector arguments, the objects True, False and the type
# float, the addresses of CPython's ``PyFloat_AsDouble`` and ``PyFloat_FromDouble`` (read at run time, as Py_IncRef's)
N1, N2, N3, TRUE, FALSE, FLOAT, AS_DOUBLE, FROM_DOUBLE = range(23, 31)
AUX_PTR, AUX_LEN = 31, 32  # a model array an entry passes its kernel (``AUXILIARY``)
OUT_PTR, OUT_LEN = 33, 34  # ratios: the entry's own output (``OUTPUTS``)
SLOTS = 35
# CPython / numpy object layouts (64-bit): PyObject_HEAD is (refcount, type); a PyArrayObject continues with data,
# nd, dimensions, strides, base, descr, flags; a PyArray_Descr has byteorder at 26 and type_num at 28; a tuple's
# items start at 24; a weak reference's referent is at 16
OB_TYPE, A_DATA, A_ND, A_DIMS, A_DESCR, A_FLAGS, D_BYTEORDER, D_TYPENUM, T_ITEMS = 8, 16, 24, 32, 56, 64, 26, 28, 24
WR_OBJECT = 16
C_CONTIGUOUS_ALIGNED = 0x0001 | 0x0100  # NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED
NPY_DOUBLE = 12
BIG_ENDIAN = ord(">")



#: entry name -> (the name of its cfunc body in ``fastcall_entries.BODIES``, the kernel module and kernel it calls,
#: the Data field or fields it returns, None for True)
ENTRIES = {
    "forward_kinematics_q": ("_q", "kinematics", "forward_kinematics_q", None),
    "forward_kinematics_qv": ("_qv", "kinematics", "forward_kinematics_qv", None),
    "forward_kinematics_qva": ("_qva", "kinematics", "forward_kinematics_qva", None),
    "compute_joint_jacobians": ("_q", "kinematics", "compute_joint_jacobians", "J"),
    "rnea": ("_qva_fext", "dynamics", "rnea", "tau"),
    "crba": ("_q", "dynamics", "crba", "M"),
    "aba": ("_qva_fext", "dynamics", "aba", "ddq"),
    "compute_minverse": ("_q", "dynamics", "minverse", "Minv"),
    "compute_rnea_derivatives": ("_dws_qva_fext", "derivatives", "rnea_derivatives", ("dtau_dq", "dtau_dv", "M")),
    "compute_aba_derivatives": ("_dws_qva_fext", "derivatives", "aba_derivatives", ("ddq_dq", "ddq_dv", "Minv")),
    "compute_generalized_gravity": ("_q_zero_va_fext", "dynamics", "rnea", "tau"),
    "center_of_mass_q": ("_wb_q_none_none", "center_of_mass", "center_of_mass", None),
    "center_of_mass_qv": ("_wb_qv_none", "center_of_mass", "center_of_mass", None),
    "center_of_mass_qva": ("_wb_qva", "center_of_mass", "center_of_mass", None),
    "jacobian_center_of_mass": ("_wb_q", "center_of_mass", "jacobian_center_of_mass", "Jcom"),
    "compute_centroidal_map": ("_wb_q_none", "centroidal", "centroidal_map", "Ag"),
    "ccrba": ("_wb_qv", "centroidal", "centroidal_map", "Ag"),
    "compute_centroidal_momentum": ("_wb_qv_none", "centroidal", "centroidal_momentum", "hg"),
    "compute_centroidal_momentum_time_variation": ("_wb_qva", "centroidal", "centroidal_momentum", "dhg"),
    "energy_q": ("_wb_q_none", "energy", "energy", None),
    "energy_qv": ("_wb_qv", "energy", "energy", None),
    "get_frame_jacobian": ("_frame_rf_out", "frames", "frame_jacobian", "(6, nv)"),
    "get_joint_jacobian": ("_joint_rf_out", "frames", "frame_jacobian", "(6, nv)"),
    "get_frame_jacobian_time_variation": ("_frame_rf_out", "frames", "frame_jacobian_time_variation", "(6, nv)"),
    "get_joint_jacobian_time_variation": ("_joint_rf_out", "frames", "frame_jacobian_time_variation", "(6, nv)"),
    "compute_frame_jacobian": ("_q_frame_rf_out", "frames", "compute_frame_jacobian", "(6, nv)"),
    "compute_joint_jacobian": ("_q_joint_rf_out", "frames", "compute_frame_jacobian", "(6, nv)"),
    "get_frame_velocity": ("_frame_rf_kind_out", "frames", "frame_motion", "(6,)"),
    "get_frame_acceleration": ("_frame_rf_kind_out", "frames", "frame_motion", "(6,)"),
    "get_frame_classical_acceleration": ("_frame_rf_kind_out", "frames", "frame_motion", "(6,)"),
    "get_velocity": ("_joint_rf_kind_out", "frames", "frame_motion", "(6,)"),
    "get_acceleration": ("_joint_rf_kind_out", "frames", "frame_motion", "(6,)"),
    "get_classical_acceleration": ("_joint_rf_kind_out", "frames", "frame_motion", "(6,)"),
    "update_frame_placement": ("_frame", "frames", "update_frame_placement", None),
    # ratios
    "compute_static_regressor": ("_out_q", "regressor", "static_regressor", "static_regressor"),
    "compute_kinetic_energy_regressor": ("_out_qv", "regressor", "kinetic_energy_regressor",
                                         "kinetic_energy_regressor"),
    "compute_potential_energy_regressor": ("_out_q", "regressor", "potential_energy_regressor",
                                           "potential_energy_regressor"),
    "joint_body_regressor": ("_joint_out", "regressor", "frame_body_regressor", "(6, 10)"),
    "frame_body_regressor": ("_frame_out", "regressor", "frame_body_regressor", "(6, 10)"),
    "get_joint_velocity_derivatives": ("_dws_joint_rf_kind_out", "derivatives", "frame_motion_derivatives",
                                       "(5, 6, nv)"),
    "get_joint_acceleration_derivatives": ("_dws_joint_rf_kind_out", "derivatives", "frame_motion_derivatives",
                                           "(5, 6, nv)"),
    "get_frame_velocity_derivatives": ("_dws_frame_rf_kind_out", "derivatives", "frame_motion_derivatives",
                                       "(5, 6, nv)"),
    "get_frame_acceleration_derivatives": ("_dws_frame_rf_kind_out", "derivatives", "frame_motion_derivatives",
                                           "(5, 6, nv)"),
    "update_frame_placements": ("_none", "kinematics", "update_frame_placements", None),
    "update_global_placements": ("_none", "kinematics", "update_global_placements", None),
    "frames_forward_kinematics": ("_q", "kinematics", "frames_forward_kinematics", None),
    "compute_joint_jacobians_time_variation": ("_qv", "kinematics", "jacobians_time_variation", "dJ"),
    "compute_joint_kinematic_hessians": ("_out_q_tensor_tensor", "kinematics", "kinematic_hessians",
                                         "kinematic_hessians"),
    "compute_forward_kinematics_derivatives": ("_dws_qva", "derivatives", "forward_kinematics_derivatives", None),
    "compute_joint_kinematic_regressor": ("_joint_placement_rf_out", "frames", "kinematic_regressor",
                                          "(6, 6 (njoints - 1))"),
    "compute_frame_kinematic_regressor": ("_frame_placement_rf_out", "frames", "kinematic_regressor",
                                          "(6, 6 (njoints - 1))"),
}
#: the entries outside the derivatives whose ordinary path runs on the model's elementary twin when it has one
#: (``algorithms/_elementary.py``): bound only to a model that is its own twin
ON_ELEMENTARY_TWIN = {"compute_joint_jacobians_time_variation", "compute_joint_kinematic_hessians"}
# config
ENTRIES.update({
    "compute_supported_force_by_frame": ("_aux_frame_out", "supported", "supported_force_by_frame", "(6,)"),
    "compute_supported_inertia_by_frame": ("_aux_frame_flag_out", "supported", "supported_inertia_by_frame", "(13,)"),
    "jacobian_subtree_center_of_mass": ("_wb_q_joint_aux", "center_of_mass", "jacobian_subtree_center_of_mass",
                                        "aux"),
})
#: a third array that an entry passes its kernel (``AUX_PTR``, ``AUX_LEN``): the frames' supported inertias
#: ``(nframes, 16)``, or the entry's own output, which it returns (field ``aux`` in ENTRIES)
AUXILIARY = {"compute_supported_force_by_frame": lambda model: model.frame_supported_inertias,
             "compute_supported_inertia_by_frame": lambda model: model.frame_supported_inertias,
             "jacobian_subtree_center_of_mass": lambda model: np.zeros((3, model.nv))}
#: what an entry's body reads as its second buffer (``DWS_PTR``, ``DWS_LEN``), by the body's name: the whole-body
#: buffer ``data.wb`` of the kernels of ``kernels/whole_body.py``, a zero vector of nv (RNEA's v and a for g(q)),
#: or the Data field the entry returns (``_out_*``: the kernel writes it); the derivatives' workspace for ``_dws_*``
SECOND_BUFFER = {"_wb": lambda model, data, field: data.wb,
                 "_q_zero_va_fext": lambda model, data, field: np.zeros(model.nv),
                 "_out": lambda model, data, field: getattr(data, field)}
#: the entries whose kernel writes into an output of their own (``OUT_PTR``, ``OUT_LEN``, which they return; the
#: public function copies it): its shape, by the name that stands in ENTRIES' field column
OUTPUTS = {"(6, nv)": lambda model: np.zeros((6, model.nv)), "(6,)": lambda model: np.zeros(6),
           "(13,)": lambda model: np.zeros(13), "(6, 10)": lambda model: np.zeros((6, 10)),
           "(5, 6, nv)": lambda model: np.zeros((5, 6, model.nv)),
           "(6, 6 (njoints - 1))": lambda model: np.zeros((6, 6 * (model.njoints - 1)))}
#: the constant that an entry of the ``_kind`` bodies passes its kernel (``kernels.frames.frame_motion``'s kind)
KINDS = {"get_velocity": 0, "get_acceleration": 1, "get_classical_acceleration": 2, "get_frame_velocity": 0,
         "get_frame_acceleration": 1, "get_frame_classical_acceleration": 2,
         # ratios: kernels.derivatives.frame_motion_derivatives' accel
         "get_joint_velocity_derivatives": 0, "get_joint_acceleration_derivatives": 1,
         "get_frame_velocity_derivatives": 0, "get_frame_acceleration_derivatives": 1}
# config
#: the entries bound to a model (``model.fast_entries``, for the functions that take no data): entry name -> (the
#: name of its cfunc body, the kernel module and kernel it calls, the sizes N1, N2, N3 of its vector arguments by
#: name: ``nq``, ``nv``, ``nj1`` (njoints - 1) or ``-`` (none)). The body ``_m_*`` names what the call passes
#: after the model: ``x``, ``y`` vectors, ``real`` a float, ``arg`` an int, ``out`` an output vector, ``mm`` two
#: output matrices (nv, nv), ``mk`` an input and an output matrix (nv, k); ``float``, ``bool`` the result; ``work``
#: a buffer of the entry.
MODEL_ENTRIES = {
    "integrate": ("_m_xy_out", "configuration", "integrate", ("nq", "nv", "nq")),
    "difference": ("_m_xy_out", "configuration", "difference", ("nq", "nq", "nv")),
    "interpolate": ("_m_xy_real_work_out", "configuration", "interpolate", ("nq", "nq", "nq")),
    "normalize": ("_m_x_out", "configuration", "normalized", ("nq", "-", "nq")),
    "is_normalized": ("_m_x_real_work_bool", "configuration", "is_normalized", ("nq", "-", "-")),
    "is_same_configuration": ("_m_xy_real_work_bool", "configuration", "is_same_configuration", ("nq", "nq", "-")),
    "squared_distance": ("_m_xy_work_out", "configuration", "squared_distance", ("nq", "nq", "nj1")),
    "distance": ("_m_xy_work_float", "configuration", "distance", ("nq", "nq", "-")),
    "d_integrate": ("_m_xy_arg_mm", "configuration", "d_integrate", ("nq", "nv", "-")),
    "d_difference": ("_m_xy_arg_mm", "configuration", "d_difference", ("nq", "nq", "-")),
    "d_integrate_transport": ("_m_xy_arg_mk", "configuration", "d_integrate_transport", ("nq", "nv", "-")),
}
assert not set(MODEL_ENTRIES) & set(ENTRIES), "an entry name both bound to a data and to a model"
_new_builtin = ctypes.pythonapi.PyCFunction_NewEx
_new_builtin.argtypes = [ctypes.c_void_p, ctypes.py_object, ctypes.py_object]
_new_builtin.restype = ctypes.py_object
_INCREF = ctypes.cast(ctypes.pythonapi.Py_IncRef, ctypes.c_void_p).value
_AS_LONG = ctypes.cast(ctypes.pythonapi.PyLong_AsLongLongAndOverflow, ctypes.c_void_p).value
_AS_DOUBLE = ctypes.cast(ctypes.pythonapi.PyFloat_AsDouble, ctypes.c_void_p).value
_FROM_DOUBLE = ctypes.cast(ctypes.pythonapi.PyFloat_FromDouble, ctypes.c_void_p).value


def compile_all() -> None:
    """Compile (or load from the cache) every entry: ``rbda warmup``'s step."""
    if ENABLED:
        from .fastcall_entries import compiled, kernel_address

        for name in (*ENTRIES, *MODEL_ENTRIES):
            compiled(name), kernel_address(name)


# ------------------------------------------------------------------------------------------- binding
_ordinary = _data.ordinary  # the entry of a data that has no fast entry: always the ordinary path


def bind(name: str, model, data):
    """Bind entry ``name`` to ``(model, data)`` and store it as ``data.fast_entries.<name>``; returns it (or a
    function that always answers None, stored too, where the fast path does not apply)."""
    from ..model import Model

    if not isinstance(model, Model) or type(data).__name__ != "Data":  # wrong arguments: the ordinary path raises
        return _ordinary
    if not ENABLED or model.mimicking_joints:
        setattr(data.fast_entries, name, _ordinary)
        return _ordinary
    if data.model_sizes != (model.njoints, model.nv, model.nframes):
        return _ordinary
    I, F = model.packed
    dws = np.zeros(0)
    if ENTRIES[name][1] == "derivatives" or name in ON_ELEMENTARY_TWIN:  # the derivatives' workspace, laid out by
        # the ordinary path's helper
        from ..algorithms._elementary import workspaces

        I, F, _, dws, elementary = workspaces(model, data)
        if elementary is not None:  # run on the model's elementary twin: the ordinary path
            setattr(data.fast_entries, name, _ordinary)
            return _ordinary
    body, field = ENTRIES[name][0], ENTRIES[name][3]
    for prefix, buffer in SECOND_BUFFER.items():
        if body.startswith(prefix):
            dws = buffer(model, data, field)
    from .fastcall_entries import compiled, kernel_address  # numba: loaded by the first call, not by import rbda

    kernel = kernel_address(name)
    if not kernel:  # (never so far: each kernel is compiled for one set of argument types)
        setattr(data.fast_entries, name, _ordinary)
        return _ordinary
    aux, out = AUXILIARY[name](model) if name in AUXILIARY else np.zeros(0), np.zeros(0)
    if field in OUTPUTS:
        result = out = OUTPUTS[field](model)
    elif field == "aux":
        result = aux
    else:
        result = (True if field is None else getattr(data, field) if isinstance(field, str)
                  else tuple(getattr(data, f) for f in field))
    T, bindings, keep = _table(model, I, F, data.ws, dws, kernel)
    T[[DATA, RESULT, KIND]] = id(data), id(result), KINDS.get(name, 0)
    T[[AUX_PTR, AUX_LEN]] = aux.ctypes.data, aux.size
    T[[OUT_PTR, OUT_LEN]] = out.ctypes.data, out.size
    entry = _new_builtin(ctypes.addressof(compiled(name)), (*keep, result, aux, out), None)
    setattr(data.fast_entries, name, entry)
    bindings.data.add(data)
    return entry


def _table(model, I, F, ws, dws, kernel: int):
    """``(T, bindings, keep)``: the table of an entry bound to ``model`` (its identity, token and packed arrays,
    the buffers ``ws`` and ``dws``, the kernel's address, the sizes and the objects and CPython functions the bodies
    compare with or call), the model's :class:`~rbda.model.data.Bindings`, and everything the table points to, for
    the builtin to keep alive (not the model: a data or a model must not keep the model alive through its entries,
    e.g. in caches keyed by weak references to models)."""
    bindings = model.fast_bindings
    if bindings.token[0] == 0:  # a shallow copy's edit zeroed the token this model shares: a new one
        del model.__dict__["fast_bindings"]
        bindings = model.fast_bindings
    T = np.zeros(SLOTS, dtype=np.int64)
    model_ref = weakref.ref(model)
    T[[MODEL, TOKEN]] = id(model_ref), bindings.token.ctypes.data
    T[[I_PTR, I_LEN, F_PTR, F_LEN]] = I.ctypes.data, len(I), F.ctypes.data, len(F)
    T[[WS_PTR, WS_LEN, NQ, NV]] = ws.ctypes.data, len(ws), model.nq, model.nv
    T[[NDARRAY, F64, INCREF, NONE]] = id(np.ndarray), id(_F64), _INCREF, id(None)
    T[[DWS_PTR, DWS_LEN, KERNEL]] = dws.ctypes.data, dws.size, kernel
    T[[INT, REFERENCE_FRAME, AS_LONG]] = id(int), id(ReferenceFrame), _AS_LONG
    T[[TRUE, FALSE, FLOAT, AS_DOUBLE, FROM_DOUBLE]] = id(True), id(False), id(float), _AS_DOUBLE, _FROM_DOUBLE
    return T, bindings, (T, model_ref, I, F, ws, dws, bindings.token)


# config
def bind_model(name: str, model):
    """Bind entry ``name`` of :data:`MODEL_ENTRIES` to ``model`` and store it as ``model.fast_entries.<name>``;
    returns it (or :func:`~rbda.model.data.ordinary`, stored too, where the fast path does not apply)."""
    from ..model import Model

    if not isinstance(model, Model):  # wrong arguments: the ordinary path raises
        return _ordinary
    if not ENABLED or model.mimicking_joints:
        setattr(model.fast_entries, name, _ordinary)
        return _ordinary
    from .fastcall_entries import compiled, kernel_address  # numba: loaded by the first call, not by import rbda

    kernel = kernel_address(name)
    if not kernel:
        setattr(model.fast_entries, name, _ordinary)
        return _ordinary
    I, F = model.packed
    work, result = np.zeros(max(model.nq, model.nv)), np.zeros(1)  # used during a call only: the GIL is held
    T, _, keep = _table(model, I, F, work, result, kernel)
    sizes = {"nq": model.nq, "nv": model.nv, "nj1": model.njoints - 1, "-": 0}
    T[[N1, N2, N3]] = [sizes[n] for n in MODEL_ENTRIES[name][3]]
    entry = _new_builtin(ctypes.addressof(compiled(name)), keep, None)
    setattr(model.fast_entries, name, entry)
    return entry


def _unbound(name: str):
    """A data's entry ``data.fast_entries.<name>`` until its first call: binds, then calls the bound entry."""
    def first_call(model, data, *args):
        return bind(name, model, data)(model, data, *args)

    first_call.__name__ = f"bind_{name}"
    return first_call


#: the entries of a data before their first call: the model layer's table, filled here (``rbda`` imports this
#: module), so that ``Data`` does not import the machinery; ``data.fast_entries`` holds them in slots
UNBOUND = _data.FAST_ENTRIES
UNBOUND.update({name: _unbound(name) for name in ENTRIES})
assert set(ENTRIES) == set(_data.FastEntries.__slots__), "an entry without a slot in model.data.FastEntries"


# config
def _unbound_model(name: str):
    """A model's entry ``model.fast_entries.<name>`` until its first call: binds, then calls the bound entry."""
    def first_call(model, *args):
        return bind_model(name, model)(model, *args)

    first_call.__name__ = f"bind_{name}"
    return first_call


_data.MODEL_FAST_ENTRIES.update({name: _unbound_model(name) for name in MODEL_ENTRIES})
assert set(MODEL_ENTRIES) == set(_data.ModelFastEntries.__slots__), "an entry without a slot in ModelFastEntries"


# ------------------------------------------------------------------------------------------- the layout check
_F64 = np.dtype(np.float64)


def layout_ok() -> bool:
    """True if the object layouts the entries read are those of this process (checked on known objects)."""
    if sys.maxsize != 2**63 - 1 or sys.byteorder != "little" or sysconfig.get_config_var("Py_GIL_DISABLED"):
        return False

    def i64(address):
        return ctypes.c_int64.from_address(address).value

    def i32(address):
        return ctypes.c_int32.from_address(address).value

    try:
        a = np.arange(6.0).reshape(2, 3)
        col, swapped, single = a[:, 1], np.zeros(2, dtype=">f8"), np.zeros(2, dtype=np.float32)
        t, ref = (a, col), weakref.ref(a)
        checks = [
            i64(id(a) + OB_TYPE) == id(np.ndarray), i64(id(a) + A_DATA) == a.ctypes.data, i32(id(a) + A_ND) == 2,
            i64(i64(id(a) + A_DIMS)) == 2 and i64(i64(id(a) + A_DIMS) + 8) == 3, i64(id(a) + A_DESCR) == id(a.dtype),
            i32(id(a) + A_FLAGS) & C_CONTIGUOUS_ALIGNED == C_CONTIGUOUS_ALIGNED,
            i32(id(col) + A_FLAGS) & 1 == 0, i64(id(col) + A_DATA) == a.ctypes.data + 8,
            i32(id(a.dtype) + D_TYPENUM) == NPY_DOUBLE == _F64.num,
            i32(id(single.dtype) + D_TYPENUM) == single.dtype.num,
            ctypes.c_uint8.from_address(id(swapped.dtype) + D_BYTEORDER).value == BIG_ENDIAN,
            ctypes.c_uint8.from_address(id(_F64) + D_BYTEORDER).value != BIG_ENDIAN,
            i64(id(t) + T_ITEMS) == id(a) and i64(id(t) + T_ITEMS + 8) == id(col),
            i64(id(ref) + WR_OBJECT) == id(a),
        ]
    except Exception:  # noqa: BLE001  (any surprise: no fast path)
        return False
    return all(checks)


ENABLED = os.environ.get("RBDA_FASTCALL", "1") != "0" and MODE == "direct" and layout_ok()
