"""Bound fast entries: one call of a public algorithm from Python at the cost of a C function call.

A call through numba's compiled entry point unboxes every array argument into a numba array (about 22 ns an
array, 40 ns fixed), and the Python entry checks each argument first; on a 6-dof arm that fixed cost is most of a
call. Here, each :class:`~rbda.model.Data` gets, at the first call of an algorithm, an entry of the C extension
``_entry`` (``_entry.c``, an ``Entry`` object called through vectorcall): it checks that the model and data are
the bound ones (weak references: a data does not keep its model alive) and the binding current (an edit of the
model clears its token, ``model.data.Bindings``), and parses each argument by the entry's kinds (:data:`ARGUMENTS`)
through the CPython and numpy C API: an exact ``numpy.ndarray``, float64 in native byte order, of the expected
shape, C-contiguous and aligned; an exact int id >= 0; a reference frame; a float; a flag. It then calls the
entry's body, a numba ``cfunc`` (``fastcall_entries.py``), with the entry's int64 table (the addresses of the
packed model arrays, of the data workspace, of the kernel; the sizes) and the parsed values, pointers and integers
only; the body calls the existing kernel on arrays made from those pointers (``numba.carray``), through the address
of the function its dispatcher compiled (or loaded from the cache), and returns a status that the entry turns into
its result (the object it holds, True, False, a float).

On any argument the entry does not take, and whenever the kernel reports a bad input (NaN, a quaternion off the
unit sphere), the entry returns ``None`` and the public function takes its ordinary path, which converts the
argument or raises the named error. So results, errors and the data fields filled are those of the ordinary path;
only its cost changes.

Without the extension (not built: no C compiler where rbda was built from source), with ``RBDA_FASTCALL=0``, or
when the kernels are not called through their entry points (``RBDA_NUMBA_DISPATCH``), no entry is bound and every
call takes the ordinary path. Models with mimic joints keep the ordinary path too.
"""

from __future__ import annotations

import weakref

import numpy as np

from ..model import data as _data
from ..spatial.se3 import SE3
from ..spatial.so3 import ReferenceFrame
from .public import extension

# the table (an int64 array the body reads): the model's packed arrays and the data's workspace (addresses and
# lengths), the sizes, a second buffer (``SECOND_BUFFER``), the address of the kernel's compiled function, the
# constant ``KIND`` passes, a model array an entry passes its kernel (``AUXILIARY``), the entry's own output
# (``OUTPUTS``); for the entries bound to a model, the sizes of their vector arguments
I_PTR, I_LEN, F_PTR, F_LEN, WS_PTR, WS_LEN, NQ, NV, DWS_PTR, DWS_LEN, KERNEL, KIND = range(12)
AUX_PTR, AUX_LEN, OUT_PTR, OUT_LEN, N1, N2, N3 = range(12, 19)
SLOTS = 19
# what a body returns (``_entry.c``'s STATUS_*): None (the ordinary path), the entry's result object, True, False,
# a float (the body writes it at ``VALUE_RESULT`` of the parsed arguments)
ORDINARY, RESULT, TRUE, FALSE, FLOAT = range(5)
# the parsed arguments (``_entry.c``): one value per argument, then the columns of a ``k`` matrix, then the float
# a body returns
VALUE_COLUMNS, VALUE_RESULT, VALUES = 8, 9, 10


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
    "compute_generalized_gravity": ("_q_zero_va_fext", "dynamics", "rnea", "g"),
    "center_of_mass_q": ("_wb_q_none_none", "center_of_mass", "center_of_mass", "com[0]"),
    "center_of_mass_qv": ("_wb_qv_none", "center_of_mass", "center_of_mass", "com[0]"),
    "center_of_mass_qva": ("_wb_qva", "center_of_mass", "center_of_mass", "com[0]"),
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
    "update_frame_placement": ("_frame", "frames", "update_frame_placement", "placements"),
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
    "compute_static_torque": ("_q_zero_va_fx", "dynamics", "rnea", "tau"),
    "compute_subtree_masses": ("_wb_aux", "center_of_mass", "subtree_masses", "mass"),
    "compute_centroidal_dynamics_derivatives": ("_dws_qva_wb_out", "derivatives", "centroidal_derivatives",
                                                "(4 6 nv + 4)"),
    "compute_generalized_gravity_derivatives": ("_dws_q_fext", "derivatives", "static_torque_derivatives", "dtau_dq"),
    "compute_static_torque_derivatives": ("_dws_q_fx", "derivatives", "static_torque_derivatives", "dtau_dq"),
    "get_point_velocity_derivatives": ("_dws_joint_placement_rf_kind_out", "derivatives", "frame_motion_derivatives",
                                       "(5, 6, nv)"),
    "get_point_classic_acceleration_derivatives": ("_dws_joint_placement_rf_kind_out", "derivatives",
                                                   "frame_motion_derivatives", "(5, 6, nv)"),
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
#: ``(nframes, 16)``, the subtree masses ``(njoints,)``, the data's whole-body buffer or ``g``, or the entry's own output, which it returns (field ``aux`` in ENTRIES)
AUXILIARY = {"compute_supported_force_by_frame": lambda model, data: model.frame_supported_inertias,
             "compute_supported_inertia_by_frame": lambda model, data: model.frame_supported_inertias,
             "jacobian_subtree_center_of_mass": lambda model, data: np.zeros((3, model.nv)),
             "compute_subtree_masses": lambda model, data: model.masses[1],
             "compute_centroidal_dynamics_derivatives": lambda model, data: data.wb,
             "compute_generalized_gravity": lambda model, data: data.g}
#: what an entry's body reads as its second buffer (``DWS_PTR``, ``DWS_LEN``), by the body's name: the whole-body
#: buffer ``data.wb`` of the kernels of ``kernels/whole_body.py``, a zero vector of nv (RNEA's v and a for g(q)),
#: or the Data field the entry returns (``_out_*``: the kernel writes it); the derivatives' workspace for ``_dws_*``
SECOND_BUFFER = {"_wb": lambda model, data, field: data.wb,
                 "_q_zero_va_fext": lambda model, data, field: np.zeros(model.nv),
                 "_q_zero_va_fx": lambda model, data, field: np.zeros(model.nv),
                 "_out": lambda model, data, field: getattr(data, field)}
#: the entries whose kernel writes into an output of their own (``OUT_PTR``, ``OUT_LEN``, which they return; the
#: public function copies it): its shape, by the name that stands in ENTRIES' field column
OUTPUTS = {"(6, nv)": lambda model: np.zeros((6, model.nv)), "(6,)": lambda model: np.zeros(6),
           "(13,)": lambda model: np.zeros(13), "(6, 10)": lambda model: np.zeros((6, 10)),
           "(5, 6, nv)": lambda model: np.zeros((5, 6, model.nv)),
           "(6, 6 (njoints - 1))": lambda model: np.zeros((6, 6 * (model.njoints - 1))),
           "(4 6 nv + 4)": lambda model: np.zeros(24 * model.nv + 4)}
#: the results that are not a Data field, by the name in ENTRIES' field column: the frame placements
#: ``(nframes, 3, 4)``, of which the public function copies one; the whole model's CoM (a row of ``data.com``)
RESULTS = {"placements": lambda data: data.oMf.array, "com[0]": lambda data: data.com[0]}
#: the constant that an entry of the ``_kind`` bodies passes its kernel (``kernels.frames.frame_motion``'s kind)
KINDS = {"get_velocity": 0, "get_acceleration": 1, "get_classical_acceleration": 2, "get_frame_velocity": 0,
         "get_frame_acceleration": 1, "get_frame_classical_acceleration": 2,
         # ratios: kernels.derivatives.frame_motion_derivatives' accel
         "get_joint_velocity_derivatives": 0, "get_joint_acceleration_derivatives": 1,
         "get_frame_velocity_derivatives": 0, "get_frame_acceleration_derivatives": 1,
         "get_point_velocity_derivatives": 0, "get_point_classic_acceleration_derivatives": 2}
# config
#: the entries bound to a model (``model.fast_entries``, for the functions that take no data): entry name -> (the
#: name of its cfunc body, the kernel module and kernel it calls, the sizes N1, N2, N3 of its vector arguments by
#: name: ``nq``, ``nv``, ``nj1`` (njoints - 1) or ``-`` (none)). The body ``_m_*`` names what the call passes
#: after the model: ``x``, ``y`` vectors, ``real`` a float, ``arg`` an int, ``out`` an output vector (the entry
#: allocates it and returns it), ``mm`` two
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
#: the arguments each body takes after the model and data (after the model for the ``_m_*`` bodies), one kind
#: each (``_entry.c``): ``v`` a vector, ``m`` a matrix (nv, nv), ``F`` the external forces (njoints, 6), as a matrix
#: or a list of Force (the table holds njoints at ``N1``), ``k`` a matrix (nv, any k), ``K`` one (nv, that
#: k), ``i`` an id (an exact int >= 0), ``r`` a reference frame, ``f`` an exact float, ``b`` True or False, ``o``
#: no argument: the output vector the entry allocates and returns; ``P`` a placement (an SE3)
ARGUMENTS = {
    **dict.fromkeys(("_q", "_q_zero_va_fext", "_wb_q", "_wb_q_none", "_wb_q_none_none", "_out_q",
                     "_out_q_tensor_tensor"), "v"),
    **dict.fromkeys(("_qv", "_wb_qv", "_wb_qv_none", "_out_qv"), "vv"),
    **dict.fromkeys(("_qva", "_qva_fext", "_dws_qva_fext", "_dws_qva", "_wb_qva"), "vvv"),
    **dict.fromkeys(("_frame", "_frame_out", "_joint_out", "_aux_frame_out"), "i"),
    **dict.fromkeys(("_frame_rf_out", "_joint_rf_out", "_frame_rf_kind_out", "_joint_rf_kind_out",
                     "_dws_frame_rf_kind_out", "_dws_joint_rf_kind_out", "_frame_placement_rf_out",
                     "_joint_placement_rf_out"), "ir"),
    "_q_zero_va_fx": "vF", "_wb_aux": "", "_dws_qva_wb_out": "vvv", "_dws_q_fext": "v", "_dws_q_fx": "vF", "_dws_joint_placement_rf_kind_out": "iPr",
    "_q_frame_rf_out": "vir", "_q_joint_rf_out": "vir", "_aux_frame_flag_out": "ib", "_wb_q_joint_aux": "vi",
    "_none": "",
    # config: the entries bound to a model
    "_m_xy_out": "vvo", "_m_xy_work_out": "vvo", "_m_x_out": "vo", "_m_xy_work_float": "vv",
    "_m_x_real_work_bool": "vf",
    "_m_xy_real_work_bool": "vvf", "_m_xy_real_work_out": "vvfo", "_m_xy_arg_mm": "vvimm", "_m_xy_arg_mk": "vvikK",
}


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
    aux, out = AUXILIARY[name](model, data) if name in AUXILIARY else np.zeros(0), np.zeros(0)
    if field in OUTPUTS:
        result = out = OUTPUTS[field](model)
    elif field in RESULTS:
        result = RESULTS[field](data)
    elif field == "aux":
        result = aux
    else:
        result = (True if field is None else getattr(data, field) if isinstance(field, str)
                  else tuple(getattr(data, f) for f in field))
    T, bindings, keep = _table(model, I, F, data.ws, dws, kernel)
    T[KIND] = KINDS.get(name, 0)
    T[[AUX_PTR, AUX_LEN]] = aux.ctypes.data, aux.size
    T[[OUT_PTR, OUT_LEN]] = out.ctypes.data, out.size
    kinds = ARGUMENTS[body]
    sizes = tuple((model.njoints, 6) if kind == "F" else (model.nv if kinds[:j].count("v") else model.nq, 0)
                  for j, kind in enumerate(kinds))  # q, then v's; the external forces, one row per joint
    T[N1] = model.njoints  # (the bodies' external forces)
    entry = _Entry(compiled(name), T, bindings.token, weakref.ref(model), weakref.ref(data), result,
                   kinds.encode(), sizes, ReferenceFrame, (*keep, aux, out), name, SE3)
    setattr(data.fast_entries, name, entry)
    bindings.data.add(data)
    return entry


def _table(model, I, F, ws, dws, kernel: int):
    """``(T, bindings, keep)``: the table of an entry bound to ``model`` (its packed arrays, the buffers ``ws`` and
    ``dws``, the kernel's address, the sizes), the model's :class:`~rbda.model.data.Bindings`, and the arrays the
    table points to, for the entry to keep alive (not the model: a data or a model must not keep the model alive
    through its entries, e.g. in caches keyed by weak references to models)."""
    bindings = model.fast_bindings
    if bindings.token[0] == 0:  # a shallow copy's edit zeroed the token this model shares: a new one
        del model.__dict__["fast_bindings"]
        bindings = model.fast_bindings
    T = np.zeros(SLOTS, dtype=np.int64)
    T[[I_PTR, I_LEN, F_PTR, F_LEN]] = I.ctypes.data, len(I), F.ctypes.data, len(F)
    T[[WS_PTR, WS_LEN, NQ, NV]] = ws.ctypes.data, len(ws), model.nq, model.nv
    T[[DWS_PTR, DWS_LEN, KERNEL]] = dws.ctypes.data, dws.size, kernel
    return T, bindings, (I, F, ws, dws)


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
    work = np.zeros(max(model.nq, model.nv))  # used during a call only: the GIL is held
    T, bindings, keep = _table(model, I, F, work, np.zeros(0), kernel)
    body, _, _, vector_sizes = MODEL_ENTRIES[name]
    by_name = {"nq": model.nq, "nv": model.nv, "nj1": model.njoints - 1, "-": 0}
    T[[N1, N2, N3]] = [by_name[n] for n in vector_sizes]
    vectors = iter(by_name[n] for n in vector_sizes if n != "-")
    sizes = tuple((next(vectors), 0) if kind in "vo" else (model.nv, model.nv if kind == "m" else 0)
                  for kind in ARGUMENTS[body])
    entry = _Entry(compiled(name), T, bindings.token, weakref.ref(model), None, True, ARGUMENTS[body].encode(),
                   sizes, ReferenceFrame, keep, name)
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


# ------------------------------------------------------------------------------------------- the extension
def _extension():
    """The C extension's Entry type (``_entry.c``), or None where it is not built or not wanted
    (:func:`~rbda._native.public.extension`): then no entry is bound and every call takes the ordinary path."""
    _entry = extension()
    if _entry is None:
        return None
    statuses = (_entry.STATUS_ORDINARY, _entry.STATUS_RESULT, _entry.STATUS_TRUE, _entry.STATUS_FALSE,
                _entry.STATUS_FLOAT)
    assert statuses == (ORDINARY, RESULT, TRUE, FALSE, FLOAT), "_entry.c's statuses differ from fastcall's"
    assert (_entry.VALUE_COLUMNS, _entry.VALUE_RESULT, _entry.VALUES) == (VALUE_COLUMNS, VALUE_RESULT, VALUES)
    return _entry.Entry


_Entry = _extension()
ENABLED = _Entry is not None
