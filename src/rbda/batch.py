"""Batched algorithms: the same names and arguments as the single-state ones, minus ``data``, over a leading
batch axis, running on every core (one run of states per thread, the GIL released) with no Python work per state. Each also takes Dask arrays
of states (the extra ``rbda[dask]``) and returns lazy Dask arrays, mapped block by block.

>>> import numpy as np, rbda
>>> model = rbda.sample_models.manipulator()
>>> Q = np.stack([rbda.random_configuration(model) for _ in range(4)])
>>> rbda.batch.rnea(model, Q, np.zeros((4, 6)), np.zeros((4, 6))).shape
(4, 6)
"""

from __future__ import annotations

__all__ = ["aba", "ccrba", "center_of_mass", "compute_aba_derivatives", "compute_centroidal_momentum",
           "compute_frame_jacobian", "compute_joint_jacobians", "compute_minverse", "compute_rnea_derivatives",
           "compute_rnea_second_order_derivatives", "crba", "d_difference", "d_integrate", "difference",
           "forward_kinematics", "frames_forward_kinematics", "integrate", "jacobian_center_of_mass", "rnea",
           "constraint_dynamics", "compute_distances", "compute_collisions",
           "compute_constraint_dynamics_derivatives"]

import threading
from typing import TYPE_CHECKING

import numpy as np

from ._native import threads as _threads
from ._native.jit import load as _load_numba
from .algorithms import _check
from .kernels import batch as _batch_kernels
from .kernels import center_of_mass as _com_kernels
from .kernels import centroidal as _centroidal_kernels
from .kernels import constrained as _constrained_module
from .model import data as _data
from .model.data import Data as _Data
from .model.model import frame_id_arg as _frame_id_arg
from .spatial import ReferenceFrame as _ReferenceFrame

from .model.constraints import ProximalSettings, RigidConstraintModel  # noqa: E402  (constrained dynamics' types)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .algorithms.configuration import ArgumentPosition
    from .collision import DistanceRequest
    from .model.geometry import GeometryModel
    from .model import Model
    from numpy.typing import ArrayLike

_k, _com, _centroidal, _constrained_kernels = _batch_kernels, _com_kernels, _centroidal_kernels, _constrained_module


def _workspaces(model, batch: int) -> np.ndarray:
    """One workspace per thread (at most one per state)."""
    n = max(1, min(_threads.thread_count(), batch))
    return np.stack([_data.new_workspace(*_data.workspace_sizes(model)) for _ in range(n)])


def _output(out, shape: tuple) -> np.ndarray:
    """``out`` checked to be a C-contiguous float64 array of ``shape``, or a new one if None."""
    if out is None:
        return np.empty(shape)
    if not (isinstance(out, np.ndarray) and out.shape == shape and out.dtype == np.float64 and out.flags.c_contiguous):
        raise ValueError(f"out: expected a C-contiguous float64 array of shape {shape}")
    return out


def _outputs(out, n: int, shape: tuple) -> list:
    """``n`` output arrays of ``shape``: those of the tuple ``out``, each checked as by :func:`_output`, or new
    ones if None."""
    if out is None:
        return [np.empty(shape) for _ in range(n)]
    if not (isinstance(out, (tuple, list)) and len(out) == n):
        raise ValueError(f"out: expected a tuple of {n} C-contiguous float64 arrays of shape {shape}")
    return [_output(o, shape) for o in out]


#: Batches smaller than this run state after state in the calling thread, through the single-state kernels'
#: compiled entry points and one workspace kept per thread and model: starting a parallel region (waking the
#: worker threads) costs more than a few states (``benchmarks/first_use.py --batch``).
SERIAL_BELOW = 32
_serial_data = threading.local()


def _thread_data(model) -> _Data:
    """A Data of ``model`` kept for this thread (rebuilt when the model's packed arrays change)."""
    kept = getattr(_serial_data, "kept", None)
    I = model.packed[0]
    if kept is None or kept[0] is not I:
        kept = _serial_data.kept = (I, model.create_data())
    return kept[1]


def _serial(name: str, field: str, model, Q, arrays, out, status) -> None:
    """``out[b] = data.<field>`` after the single-state kernel ``name`` of ``kernels/dynamics.py`` at state ``b``,
    for each state, stopping at the first bad one (its status); what the batched kernel of that name computes."""
    from .algorithms.dynamics import NO_FEXT, _k as single

    data = _thread_data(model)
    I, F = model.packed
    kernel, result = getattr(single, name), getattr(data, field)
    extra = (NO_FEXT,) if name in ("rnea", "aba", "forward_dynamics_through_factor") else ()
    for b in range(Q.shape[0]):
        status[b] = kernel(I, F, data.ws, Q[b], *(x[b] for x in arrays), *extra)
        if status[b]:
            return
        out[b] = result


def _run(kernel, model, Q, velocities: dict, out, out_shape: tuple, serial: tuple | None = None) -> np.ndarray:
    """Check the batch ``Q: (B, nq)`` and the ``(B, nv)`` arrays ``velocities`` (name -> array), run ``kernel``
    over them into ``out`` (allocated with ``out_shape[1:]`` per state if None) and raise on a bad state.
    ``serial``: ``(kernel name, data field)`` of the single-state kernel that runs a batch of fewer than
    ``SERIAL_BELOW`` states (:func:`_serial`)."""
    I, F = model.packed
    Q = _check.states(Q, model.nq, "Q")
    B = Q.shape[0]
    arrays = [_check.states(x, model.nv, name, B) for name, x in velocities.items()]
    shape = (B, *out_shape)
    out = _output(out, shape)
    status = np.zeros(B, dtype=np.int64)
    if serial is not None and B < SERIAL_BELOW:
        _serial(*serial, model, Q, arrays, out, status)
    else:  # every batched kernel takes two arrays of states after Q: (B, 0) where it uses fewer
        unused = [np.empty((B, 0))] * (2 - len(arrays))
        WS = _workspaces(model, B)
        _threads.run(kernel, (I, F, WS, Q, *arrays, *unused, out, status), _threads.chunk_runs(WS.shape[0]))
    _check.report_states(status, ("Q", *velocities))
    return out


# Models of revolute/prismatic joints under an optional free flyer run at SIMD width (kernels/simd.py): blocks of
# states as structures of arrays, one run of blocks per thread (``_native/threads.py``); a batch below
# SERIAL_BELOW runs in the calling thread.
_simd_models: dict = {}


def _simd_accepts(model) -> bool:
    """``kernels.simd.accepts(model)``, kept per packed model (rebuilt when the model's arrays change)."""
    _load_numba()  # before kernels/simd.py, which compiles with numba's own njit, takes rbda's helpers by name
    from .kernels import simd

    I = model.packed[0]
    kept = _simd_models.get(id(I))
    if kept is None or kept[0] is not I:
        if len(_simd_models) > 64:
            _simd_models.clear()
        kept = _simd_models[id(I)] = (I, simd.accepts(model))
    return kept[1]


def _run_simd(name: str, model, Q, velocities: dict, out, out_shape: tuple, flag: bool | None = None,
              outputs: int = 1):
    """:func:`_run` for the structure-of-arrays kernel ``name`` of ``kernels/simd.py`` (``kernels/simd_derivatives.py``
    for the derivatives); ``flag``: the kinematics kernel's ``jacobians`` argument (it writes ``out`` flattened per
    state); ``outputs`` > 1: the kernel writes that many arrays of ``out_shape`` per state, ``out`` their tuple."""
    from .kernels import simd

    I, F = model.packed
    Q = _check.states(Q, model.nq, "Q")
    B = Q.shape[0]
    arrays = [_check.states(x, model.nv, n, B) for n, x in velocities.items()]
    outs = [_output(out, (B, *out_shape))] if outputs == 1 else _outputs(out, outputs, (B, *out_shape))
    status = np.zeros(B, dtype=np.int64)
    blocks = (B + simd.W - 1) // simd.W
    if name.endswith("derivatives"):
        from .kernels import simd_derivatives as module
    else:
        module = simd
    kernel = getattr(module, name + "_chunk")
    result = outs[0] if outputs == 1 else tuple(outs)
    if flag is not None:
        arrays, outs = [flag], [outs[0].reshape(B, int(np.prod(out_shape)))]
    n = 1 if B < SERIAL_BELOW else min(_threads.thread_count(), blocks)
    _threads.run(kernel, (I, F, Q, *arrays, *outs, status), _threads.state_runs(blocks, n))  # a run of blocks each
    _check.report_states(status, ("Q", *velocities))
    return result


def rnea(model: Model, Q: ArrayLike, V: ArrayLike, A: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """``tau[b] = rnea(Q[b], V[b], A[b])``; ``Q: (B, nq)``, ``V, A: (B, nv)``, returns ``(B, nv)``; ``out``: an array
    of that shape to write into and return (a stream of batches in fixed memory)."""
    if _simd_accepts(model):
        return _run_simd("rnea", model, Q, {"V": V, "A": A}, out, (model.nv,))
    return _run(_k.rnea, model, Q, {"V": V, "A": A}, out, (model.nv,), ("rnea", "tau"))


def aba(model: Model, Q: ArrayLike, V: ArrayLike, TAU: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """``ddq[b] = aba(Q[b], V[b], TAU[b])``; ``Q: (B, nq)``, ``V, TAU: (B, nv)``, returns ``(B, nv)``; ``out``: an
    array of that shape to write into and return (a stream of batches in fixed memory)."""
    if _simd_accepts(model):
        return _run_simd("aba", model, Q, {"V": V, "TAU": TAU}, out, (model.nv,))
    if model.mimicking_joints:  # no ABA with mimic joints: forward dynamics through the factor of M
        return _run(_k.forward_dynamics_through_factor, model, Q, {"V": V, "TAU": TAU}, out, (model.nv,),
                    ("forward_dynamics_through_factor", "ddq"))
    return _run(_k.aba, model, Q, {"V": V, "TAU": TAU}, out, (model.nv,), ("aba", "ddq"))


def crba(model: Model, Q: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """``M[b] = crba(Q[b])`` for ``Q: (B, nq)``, returns ``(B, nv, nv)``; ``out``: an array of that shape to write
    into and return (a stream of batches in fixed memory)."""
    if _simd_accepts(model):
        return _run_simd("crba", model, Q, {}, out, (model.nv, model.nv))
    return _run(_k.crba, model, Q, {}, out, (model.nv, model.nv), ("crba", "M"))


def compute_minverse(model: Model, Q: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """``Minv[b] = M(Q[b])^-1`` for ``Q: (B, nq)``, returns ``(B, nv, nv)``; ``out``: an array of that shape to write
    into and return (a stream of batches in fixed memory)."""
    if _simd_accepts(model):
        return _run_simd("minverse", model, Q, {}, out, (model.nv, model.nv))
    return _run(_k.minverse, model, Q, {}, out, (model.nv, model.nv), ("minverse", "Minv"))


def forward_kinematics(model: Model, Q: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """Joint placements ``oMi`` for each state of ``Q: (B, nq)``, returns ``(B, njoints, 3, 4)`` arrays ``[R | p]``;
    ``out``: an array of that shape to write into and return (a stream of batches in fixed memory)."""
    if _simd_accepts(model):
        return _run_simd("kinematics", model, Q, {}, out, (model.njoints, 3, 4), False)
    return _run(_k.forward_kinematics, model, Q, {}, out, (model.njoints, 3, 4))


def frames_forward_kinematics(model: Model, Q: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """Frame placements ``oMf`` for each state, returns ``(B, nframes, 3, 4)`` arrays ``[R | p]`` (world frame;
    ``out[b, k]`` is ``data.oMf[k]`` after ``rbda.frames_forward_kinematics(model, data, Q[b])``)."""
    return _run(_k.frames_forward_kinematics, model, Q, {}, out, (model.nframes, 3, 4))


def compute_frame_jacobian(model: Model, Q: ArrayLike, frame_id: int,
                           reference_frame: _ReferenceFrame | int = _ReferenceFrame.LOCAL,
                           out: np.ndarray | None = None) -> np.ndarray:
    """The Jacobian of frame ``frame_id`` (an id or a name) for each state in ``reference_frame`` (``LOCAL``,
    ``WORLD`` or ``LOCAL_WORLD_ALIGNED``), returns ``(B, 6, nv)``: ``out[b]`` is
    ``rbda.compute_frame_jacobian(model, data, Q[b], frame_id, reference_frame)``."""
    from .algorithms.kinematics import reference_frame_arg

    frame_id = _frame_id_arg(model, frame_id)
    rf = int(reference_frame_arg(reference_frame))
    Q = _check.states(Q, model.nq, "Q")
    result = _output(out, (Q.shape[0], 6, model.nv))
    status = np.zeros(Q.shape[0], dtype=np.int64)
    I, F = model.packed
    WS = _workspaces(model, Q.shape[0])
    _threads.run(_k.frame_jacobians, (I, F, WS, Q, int(frame_id), rf, result, status), _threads.chunk_runs(WS.shape[0]))
    _check.report_states(status, ("Q",))
    return result


def compute_joint_jacobians(model: Model, Q: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """World-frame joint Jacobians (``data.J`` of :func:`rbda.compute_joint_jacobians`) for each state of ``Q: (B,
    nq)``, returns ``(B, 6, nv)``; ``out``: an array of that shape to write into and return (a stream of batches in
    fixed memory)."""
    if _simd_accepts(model):
        return _run_simd("kinematics", model, Q, {}, out, (6, model.nv), True)
    return _run(_k.joint_jacobians, model, Q, {}, out, (6, model.nv_extended))


def center_of_mass(model: Model, Q: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """Centre of mass ``com[b]`` (world frame) of each configuration of ``Q: (B, nq)``, returns ``(B, 3)``; ``out``:
    an array of that shape to write into and return (a stream of batches in fixed memory)."""
    return _run(_com.center_of_mass_batch, model, Q, {}, out, (3,))


def jacobian_center_of_mass(model: Model, Q: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """CoM Jacobian ``Jcom[b]`` (world frame) of each configuration of ``Q: (B, nq)``, returns ``(B, 3, nv)``;
    ``out``: an array of that shape to write into and return (a stream of batches in fixed memory)."""
    return _run(_com.jacobian_center_of_mass_batch, model, Q, {}, out, (3, model.nv))


def ccrba(model: Model, Q: ArrayLike, V: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """Centroidal momentum matrix ``Ag[b]`` of each state (``Q: (B, nq)``, ``V: (B, nv)`` checked as in
    ``rbda.ccrba``), returns ``(B, 6, nv)``; ``hg[b] = Ag[b] @ V[b]``; ``out``: an array of that shape to write into
    and return (a stream of batches in fixed memory)."""
    return _run(_centroidal.ccrba_batch, model, Q, {"V": V}, out, (6, model.nv))


def compute_centroidal_momentum(model: Model, Q: ArrayLike, V: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """Centroidal momentum ``hg[b]`` ``[linear; angular]`` about the CoM of each state (``Q: (B, nq)``, ``V: (B,
    nv)``), returns ``(B, 6)``; ``out``: an array of that shape to write into and return (a stream of batches in
    fixed memory)."""
    return _run(_centroidal.centroidal_momentum_batch, model, Q, {"V": V}, out, (6,))


# ---------------------------------------------------------------------------------------------- derivatives
def _run_derivatives(kernel, model, Q, X, Y, names, outputs=3, order=1, out=None):
    """Run a batched derivative kernel on the model's elementary twin (``algorithms/derivatives.py``), with one
    data and one derivative workspace per thread; returns its ``outputs`` arrays ``(B, nv, nv)`` (``order`` 1) or
    ``(B, nv, nv, nv)`` (``order`` 2), written into the tuple ``out`` if given. Mimic joints are handled in the
    kernels (``kernels/mimic.py``); the second order then takes per thread scratch tensors over the extended
    columns."""
    from .kernels.derivatives import derivative_size
    from .model.elementary import sync_elementary

    me = sync_elementary(model)[0]
    I, F = me.packed
    Q = _check.states(Q, model.nq, names[0])
    B = Q.shape[0]
    X, Y = _check.states(X, model.nv, names[1], B), _check.states(Y, model.nv, names[2], B)
    WS = _workspaces(me, B)
    nx = me.nv_extended
    DWS = np.zeros((WS.shape[0], derivative_size(me.njoints, nx)))
    outs = _outputs(out, outputs, (B,) + (model.nv,) * (order + 1))
    status = np.zeros(B, dtype=np.int64)
    if order == 2:
        scratch = (WS.shape[0], 4) + ((nx,) * 3 if me.mimicking_joints else (0, 0, 0))
        args = (I, F, WS, DWS, np.zeros(scratch), Q, X, Y, *outs, status)
    else:
        args = (I, F, WS, DWS, Q, X, Y, *outs, status)
    _threads.run(kernel, args, _threads.chunk_runs(WS.shape[0]))
    _check.report_states(status, names)
    return tuple(outs)


def compute_rnea_derivatives(model: Model, Q: ArrayLike, V: ArrayLike, A: ArrayLike, out: tuple | None = None):
    """``(dtau_dq, dtau_dv, dtau_da)`` ``(B, nv, nv)`` each, :func:`rbda.compute_rnea_derivatives` at each state of
    ``Q: (B, nq)``, ``V, A: (B, nv)``; ``out``: a tuple of three such arrays to write into (a stream of batches in
    fixed memory)."""
    from .kernels.derivatives import batch_rnea_derivatives

    if _simd_accepts(model):  # structures of arrays (kernels/simd_derivatives.py)
        return _run_simd("rnea_derivatives", model, Q, {"V": V, "A": A}, out, (model.nv, model.nv), None, 3)
    return _run_derivatives(batch_rnea_derivatives, model, Q, V, A, ("Q", "V", "A"), out=out)


def compute_aba_derivatives(model: Model, Q: ArrayLike, V: ArrayLike, TAU: ArrayLike, out: tuple | None = None):
    """``(ddq_dq, ddq_dv, ddq_dtau)`` ``(B, nv, nv)`` each, :func:`rbda.compute_aba_derivatives` at each state of
    ``Q: (B, nq)``, ``V, TAU: (B, nv)``; ``out``: a tuple of three such arrays to write into."""
    from .kernels.derivatives import batch_aba_derivatives

    if _simd_accepts(model):  # structures of arrays (kernels/simd_derivatives.py)
        return _run_simd("aba_derivatives", model, Q, {"V": V, "TAU": TAU}, out, (model.nv, model.nv), None, 3)
    return _run_derivatives(batch_aba_derivatives, model, Q, V, TAU, ("Q", "V", "TAU"), out=out)


def compute_rnea_second_order_derivatives(model: Model, Q: ArrayLike, V: ArrayLike, A: ArrayLike,
                                          out: tuple | None = None):
    """``(d2tau_dqdq, d2tau_dvdv, dtau_dqdv, dtau_dadq)`` ``(B, nv, nv, nv)`` each,
    :func:`rbda.compute_rnea_second_order_derivatives` at each state of ``Q: (B, nq)``, ``V, A: (B, nv)`` (``4 B
    nv^3`` floats: mind the batch size); ``out``: a tuple of four such arrays to write into."""
    from .kernels.derivatives import batch_rnea_second_order_derivatives

    return _run_derivatives(batch_rnea_second_order_derivatives, model, Q, V, A, ("Q", "V", "A"), 4, 2, out)


# ---------------------------------------------------------------------------------------------- configuration space
def _configuration(kernel, model, X, Y, names, out_width, arg=None, out=None):
    """Run a batched configuration kernel (``kernels/configuration.py``) over ``X: (B, nq)`` and ``Y``
    (``(B, nv)`` if ``names[1]`` is ``"V"``, else ``(B, nq)``): into ``out`` ``(B, out_width)`` for ``arg`` False
    (allocated if None), else the Jacobians ``(B, nv, nv)`` (one, or two for ``arg`` None) of
    ``d_integrate``/``d_difference``."""
    from .algorithms.configuration import _which

    which = None if arg is False else _which(arg)
    I, F = model.packed
    X = _check.states(X, model.nq, names[0])
    B = X.shape[0]
    Y = _check.states(Y, model.nv if names[1] == "V" else model.nq, names[1], B)
    status = np.zeros(B, dtype=np.int64)
    runs = _threads.state_runs(B, 1 if B < SERIAL_BELOW else min(_threads.thread_count(), B))
    if which is None:
        out = _output(out, (B, out_width))
        _threads.run(kernel, (I, F, X, Y, out, status), runs)
    elif which < 2:
        out = J0 = _output(out, (B, model.nv, model.nv))
        _threads.run(kernel, (I, F, X, Y, which, J0, J0, status), runs)
    else:
        J0, J1 = _outputs(out, 2, (B, model.nv, model.nv))
        _threads.run(kernel, (I, F, X, Y, which, J0, J1, status), runs)
        out = (J0, J1)
    _check.report_states(status, names)
    return out


def integrate(model: Model, Q: ArrayLike, V: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """``Q[b] (+) V[b]``: :func:`rbda.integrate` per state; ``Q: (B, nq)``, ``V: (B, nv)``, returns ``(B, nq)``;
    ``out``: an array of that shape to write into and return (a stream of batches in fixed memory)."""
    from .kernels.configuration import batch_integrate

    return _configuration(batch_integrate, model, Q, V, ("Q", "V"), model.nq, False, out)


def difference(model: Model, Q0: ArrayLike, Q1: ArrayLike, out: np.ndarray | None = None) -> np.ndarray:
    """``Q1[b] (-) Q0[b]``: :func:`rbda.difference` per state; ``Q0, Q1: (B, nq)``, returns ``(B, nv)``; ``out``: an
    array of that shape to write into and return (a stream of batches in fixed memory)."""
    from .kernels.configuration import batch_difference

    return _configuration(batch_difference, model, Q0, Q1, ("Q0", "Q1"), model.nv, False, out)


def d_integrate(model: Model, Q: ArrayLike, V: ArrayLike, arg: ArgumentPosition | int | None = None,
                out: np.ndarray | tuple | None = None):
    """:func:`rbda.d_integrate` at each state of ``Q: (B, nq)``, ``V: (B, nv)``: ``(B, nv, nv)`` for ``arg`` ARG0 or
    ARG1, a pair of them for None (``out``: such an array, or a pair, to write into)."""
    from .kernels.configuration import batch_d_integrate

    return _configuration(batch_d_integrate, model, Q, V, ("Q", "V"), model.nv, arg, out)


def d_difference(model: Model, Q0: ArrayLike, Q1: ArrayLike, arg: ArgumentPosition | int | None = None,
                 out: np.ndarray | tuple | None = None):
    """:func:`rbda.d_difference` at each pair of states ``Q0, Q1: (B, nq)``: ``(B, nv, nv)`` for ``arg`` ARG0 or
    ARG1, a pair of them for None (``out``: such an array, or a pair, to write into)."""
    from .kernels.configuration import batch_d_difference

    return _configuration(batch_d_difference, model, Q0, Q1, ("Q0", "Q1"), model.nv, arg, out)


# ------------------------------------------------------------------------------------------------ constrained
def _constraint_inputs(model, contact_models, prox_settings, elementary: bool, r_coeff=None):
    """Checked inputs of a batched constrained function: ``(I, F, settings array, CI, CF, m, ws_model)`` with the
    model's packed arrays (its elementary twin's, the constraints' joints mapped onto it, for ``elementary``),
    ``[mu, accuracy, max_iter]`` (plus ``r_coeff`` when given) and the packed constraints."""
    from .algorithms.constrained import _restitution, _settings, check_constraints
    from .kernels import constrained as kc
    from .model.elementary import sync_elementary

    settings = _settings(prox_settings)
    if isinstance(contact_models, RigidConstraintModel) or not isinstance(contact_models, (list, tuple)):
        raise TypeError("contact_models: expected a list of RigidConstraintModel")
    for k, cm in enumerate(contact_models):  # before create_data(), so that a wrong item is named
        if not isinstance(cm, RigidConstraintModel):
            raise TypeError(f"contact_models[{k}]: expected a RigidConstraintModel, got {type(cm).__name__}")
    m = check_constraints(model, contact_models, [cm.create_data() for cm in contact_models])
    values = kc.proximal_values(settings, None if r_coeff is None else _restitution(r_coeff))
    nc = len(contact_models)
    CI = np.array([cm.ints for cm in contact_models], dtype=np.int64).reshape(nc, kc.CONSTRAINT_INTS)
    CF = np.array([cm.params for cm in contact_models]).reshape(nc, kc.CONSTRAINT_FLOATS)
    target = model
    if elementary:  # the derivatives need constant motion subspaces
        target, last = sync_elementary(model)
        CI[:, 2:] = np.asarray(last)[CI[:, 2:]]
    I, F = target.packed
    return I, F, values, CI, CF, m, target


def _constrained_outputs(out, shapes: list, names: str) -> list:
    """The arrays of the tuple ``out`` checked against ``shapes`` (new ones for None)."""
    if out is None:
        return [np.empty(s) for s in shapes]
    if not (isinstance(out, (tuple, list)) and len(out) == len(shapes)):
        count = {2: "two", 4: "four", 6: "six"}[len(shapes)]
        raise ValueError(f"out: expected a tuple of {count} arrays ({names}) of shapes "
                         + ", ".join(str(s) for s in shapes))
    return [_output(o, s) for o, s in zip(out, shapes)]


def _constrained_buffers(target, n: int, m: int, nc: int, derivatives: bool) -> list:
    """Per chunk (leading axis ``n``) buffers of the constrained kernels: ``L, D, Dinv, R, Jc, rhs, work, stats``,
    then the derivative workspace and work for ``derivatives``."""
    from .kernels import constrained as kc

    nv = target.nv
    buffers = [np.zeros((n, nv, nv)), np.zeros((n, nv)), np.zeros((n, nv)), np.zeros((n, nc, kc.RECORD)),
               np.zeros((n, m, nv)), np.zeros((n, m)), np.zeros((n, kc.work_size(m, nv, target.nq))), np.zeros((n, kc.STATS))]
    if derivatives:
        from .kernels import constrained_derivatives as kd
        from .kernels.derivatives import derivative_size

        buffers += [np.zeros((n, derivative_size(target.njoints, nv))), np.zeros((n, kd.work_size(m, nv)))]
    return buffers


def _constrained_status(status) -> None:
    from .algorithms.constrained import SINGULAR_SET
    from .kernels import constrained as kc

    bad = np.flatnonzero(status == kc.SINGULAR_SET)
    if bad.size:
        raise ValueError(f"state {bad[0]}: {SINGULAR_SET}")


def _state_by_state(kind: str, model, arrays: list, contact_models, prox_settings, r_coeff, outs: list) -> None:
    """Models with mimic joints, which the compiled constrained kernels do not take: the single call ``kind``
    (``"dynamics"``, ``"dynamics derivatives"``, ``"impulse"``, ``"impulse derivatives"``) at each state of
    ``arrays`` (``Q`` then the velocities), in this thread, into ``outs``; an error names its state."""
    from .algorithms.constrained import constraint_dynamics as dynamics, impulse_dynamics as impulse
    from .algorithms.constrained_derivatives import (compute_constraint_dynamics_derivatives,
                                                      compute_impulse_dynamics_derivatives)

    data, datas = model.create_data(), [cm.create_data() for cm in contact_models]
    for b in range(arrays[0].shape[0]):
        state = [x[b] for x in arrays]
        try:
            if kind.startswith("dynamics"):
                results = (dynamics(model, data, *state, contact_models, datas, prox_settings), data.lambda_c)
                if kind == "dynamics derivatives":
                    results = compute_constraint_dynamics_derivatives(model, data, contact_models, datas,
                                                                      prox_settings)
            else:
                results = (impulse(model, data, *state, contact_models, datas, r_coeff, prox_settings),
                           data.impulse_c)
                if kind == "impulse derivatives":
                    results = compute_impulse_dynamics_derivatives(model, data, contact_models, datas, prox_settings)
        except ValueError as exc:
            raise ValueError(f"state {b}: {exc}") from None
        for out, result in zip(outs, results):
            out[b] = result


def constraint_dynamics(model: Model, Q: ArrayLike, V: ArrayLike, TAU: ArrayLike,
                        contact_models: Sequence[RigidConstraintModel], prox_settings: ProximalSettings | None = None,
                        out: tuple | None = None):
    """:func:`rbda.constraint_dynamics` per state, in parallel: ``Q: (B, nq)``, ``V, TAU: (B, nv)``, the same
    ``contact_models`` for every state. Returns ``(ddq (B, nv), lambda (B, m))`` (``out``: such a pair to write
    into). ``prox_settings`` as for the single call (its ``iter`` and residuals are not reported per state).
    Raises for a bad state, naming it, or a redundant set with ``mu = 0``. Models with mimic joints run state
    by state through the single calls, in this thread."""
    I, F, settings, CI, CF, m, target = _constraint_inputs(model, contact_models, prox_settings, False)
    Q = _check.states(Q, model.nq, "Q")
    B = Q.shape[0]
    V, TAU = _check.states(V, model.nv, "V", B), _check.states(TAU, model.nv, "TAU", B)
    ddq, lam = _constrained_outputs(out, [(B, model.nv), (B, m)], "ddq, lambda")
    if model.mimicking_joints:
        _state_by_state("dynamics", model, [Q, V, TAU], contact_models, prox_settings, None, [ddq, lam])
        return ddq, lam
    WS = _workspaces(model, B)
    status = np.zeros(B, dtype=np.int64)
    L, D, Dinv, *rest = _constrained_buffers(target, WS.shape[0], m, len(CI), False)
    _threads.run(_constrained_kernels.batch_constraint_dynamics,
                 (I, F, WS, L, D, Dinv, Q, V, TAU, CI, CF, settings, *rest, ddq, lam, status),
                 _threads.chunk_runs(WS.shape[0]))
    _constrained_status(status)
    _check.report_states(status, ("Q", "V", "TAU"))
    return ddq, lam


def compute_constraint_dynamics_derivatives(model: Model, Q: ArrayLike, V: ArrayLike, TAU: ArrayLike,
                                            contact_models: Sequence[RigidConstraintModel],
                                            prox_settings: ProximalSettings | None = None, out: tuple | None = None):
    """:func:`rbda.constraint_dynamics` then :func:`rbda.compute_constraint_dynamics_derivatives` at each state of
    ``Q: (B, nq)``, ``V, TAU: (B, nv)``, in parallel, with the same ``contact_models`` (``m`` rows in all) for every
    state. Returns ``(ddq_dq, ddq_dv, ddq_dtau)`` ``(B, nv, nv)`` and ``(dlambda_dq, dlambda_dv, dlambda_dtau)``
    ``(B, m, nv)`` as the single call (``q`` in the tangent space, the forces in each constraint's frame);
    ``out``: a tuple of six such arrays to write into. ``prox_settings``: its ``mu`` as for the single call.
    Raises for a bad state, naming it, or a redundant set with ``mu = 0``. Models with mimic joints run state
    by state through the single calls, in this thread."""
    from .kernels import constrained_derivatives as kd

    I, F, settings, CI, CF, m, me = _constraint_inputs(model, contact_models, prox_settings, True)
    Q = _check.states(Q, model.nq, "Q")
    B, nv = Q.shape[0], model.nv
    V, TAU = _check.states(V, nv, "V", B), _check.states(TAU, nv, "TAU", B)
    outs = _constrained_outputs(out, [(B, nv, nv)] * 3 + [(B, m, nv)] * 3,
                                "ddq_dq, ddq_dv, ddq_dtau, dlambda_dq, dlambda_dv, dlambda_dtau")
    if model.mimicking_joints:
        _state_by_state("dynamics derivatives", model, [Q, V, TAU], contact_models, prox_settings, None, outs)
        return tuple(outs)
    WS = _workspaces(me, B)
    L, D, Dinv, R, Jc, rhs, work, stats, DWS, dwork = _constrained_buffers(me, WS.shape[0], m, len(CI), True)
    status = np.zeros(B, dtype=np.int64)
    _threads.run(kd.batch_constraint_dynamics_derivatives,
                 (I, F, WS, DWS, L, D, Dinv, Q, V, TAU, CI, CF, settings, R, Jc, rhs, work, stats, dwork, *outs, status),
                 _threads.chunk_runs(WS.shape[0]))
    _constrained_status(status)
    _check.report_states(status, ("Q", "V", "TAU"))
    return tuple(outs)


def impulse_dynamics(model: Model, Q: ArrayLike, V: ArrayLike, contact_models: Sequence[RigidConstraintModel],
                     r_coeff: float = 0.0, prox_settings: ProximalSettings | None = None, out: tuple | None = None):
    """:func:`rbda.impulse_dynamics` (the constraint-model form) per state, in parallel: ``Q: (B, nq)``, ``V: (B,
    nv)`` the velocities before the impact, the same ``contact_models`` (``m`` rows in all), restitution
    ``r_coeff`` in [0, 1] and ``prox_settings`` for every state. Returns ``(v_after (B, nv), impulses (B, m))``
    (``out``: such a pair to write into). Raises for a bad state, naming it, a bad ``r_coeff``, or a redundant set
    with ``mu = 0``. Models with mimic joints run state by state through the single calls, in this thread."""
    I, F, settings, CI, CF, m, target = _constraint_inputs(model, contact_models, prox_settings, False, r_coeff)
    Q = _check.states(Q, model.nq, "Q")
    B = Q.shape[0]
    V = _check.states(V, model.nv, "V", B)
    v_after, impulses = _constrained_outputs(out, [(B, model.nv), (B, m)], "v_after, impulses")
    if model.mimicking_joints:
        _state_by_state("impulse", model, [Q, V], contact_models, prox_settings,
                        settings[_constrained_module.RESTITUTION], [v_after, impulses])
        return v_after, impulses
    WS = _workspaces(model, B)
    status = np.zeros(B, dtype=np.int64)
    L, D, Dinv, *rest = _constrained_buffers(target, WS.shape[0], m, len(CI), False)
    _threads.run(_constrained_kernels.batch_impulse_dynamics,
                 (I, F, WS, L, D, Dinv, Q, V, CI, CF, settings, *rest, v_after, impulses, status),
                 _threads.chunk_runs(WS.shape[0]))
    _constrained_status(status)
    _check.report_states(status, ("Q", "V"))
    return v_after, impulses


def compute_impulse_dynamics_derivatives(model: Model, Q: ArrayLike, V: ArrayLike,
                                         contact_models: Sequence[RigidConstraintModel], r_coeff: float = 0.0,
                                         prox_settings: ProximalSettings | None = None, out: tuple | None = None):
    """:func:`rbda.impulse_dynamics` then :func:`rbda.compute_impulse_dynamics_derivatives` at each state of
    ``Q: (B, nq)``, ``V: (B, nv)`` (the velocities before the impact), in parallel, with the same
    ``contact_models`` (``m`` rows in all), ``r_coeff`` and ``prox_settings`` for every state. Returns
    ``(dvafter_dq, dvafter_dv)`` ``(B, nv, nv)`` and ``(dimpulse_dq, dimpulse_dv)`` ``(B, m, nv)`` as the single
    call (``q`` in the tangent space, the impulses in each constraint's frame); ``out``: a tuple of four such
    arrays to write into. Raises for a bad state, naming it, a bad ``r_coeff``, or a redundant set with ``mu = 0``.
    Models with mimic joints run state by state through the single calls, in this thread."""
    from .kernels import constrained_derivatives as kd

    I, F, settings, CI, CF, m, me = _constraint_inputs(model, contact_models, prox_settings, True, r_coeff)
    Q = _check.states(Q, model.nq, "Q")
    B, nv = Q.shape[0], model.nv
    V = _check.states(V, nv, "V", B)
    outs = _constrained_outputs(out, [(B, nv, nv)] * 2 + [(B, m, nv)] * 2,
                                "dvafter_dq, dvafter_dv, dimpulse_dq, dimpulse_dv")
    if model.mimicking_joints:
        _state_by_state("impulse derivatives", model, [Q, V], contact_models, prox_settings,
                        settings[_constrained_module.RESTITUTION], outs)
        return tuple(outs)
    WS = _workspaces(me, B)
    L, D, Dinv, R, Jc, rhs, work, stats, DWS, dwork = _constrained_buffers(me, WS.shape[0], m, len(CI), True)
    status = np.zeros(B, dtype=np.int64)
    _threads.run(kd.batch_impulse_dynamics_derivatives,
                 (I, F, kd.without_gravity(F), WS, DWS, L, D, Dinv, Q, V, CI, CF, settings, R, Jc, rhs, work, stats,
                  dwork, np.empty((B, nv)), *outs, status), _threads.chunk_runs(WS.shape[0]))
    _constrained_status(status)
    _check.report_states(status, ("Q", "V"))
    return tuple(outs)


__all__ += ["impulse_dynamics", "compute_impulse_dynamics_derivatives"]

# collision (rbda.collision.batch, imported on first use): distances and collision flags of a GeometryModel
def compute_distances(model: Model, geom_model: GeometryModel, Q: ArrayLike, request: DistanceRequest | None = None,
                      out: np.ndarray | None = None) -> np.ndarray:
    """Signed distances ``(B, npairs)`` of every collision pair of ``geom_model`` at each state of ``Q: (B, nq)``,
    computed as ``request`` (a :class:`rbda.collision.DistanceRequest`, GJK's defaults when None) says; ``out``:
    a ``(B, npairs)`` array to write into. See :func:`rbda.collision.batch.compute_distances`."""
    from .collision import batch as collision_batch

    return collision_batch.compute_distances(model, geom_model, Q, request, out)


def compute_collisions(model: Model, geom_model: GeometryModel, Q: ArrayLike, request: DistanceRequest | None = None,
                       security_margin: float = 0.0, out: np.ndarray | None = None) -> np.ndarray:
    """Whether any collision pair of ``geom_model`` collides (signed distance below ``security_margin``) at each
    state of ``Q: (B, nq)``, ``(B,)`` booleans; ``request`` as for :func:`compute_distances`; ``out``: a ``(B,)``
    boolean array to write into. See :func:`rbda.collision.batch.compute_collisions`."""
    from .collision import batch as collision_batch

    return collision_batch.compute_collisions(model, geom_model, Q, request, security_margin, out)


# -------------------------------------------------------------------------------- simulation (rbda.Simulator)
def rollout(model: Model, collision_model: GeometryModel, Q0: ArrayLike, V0: ArrayLike, TAUS: ArrayLike, dt: float,
            workers: int | None = None, backend: str | None = None, progress: bool | None = None,
            out: tuple | None = None, **options):
    """Simulate ``B`` states for ``T`` steps each: ``(Q (B, T + 1, nq), V (B, T + 1, nv))``, row ``[b, t]`` the
    state of rollout ``b`` after ``t`` steps (``Q[:, 0] = Q0``), equal state by state to
    ``Simulator(model, collision_model, dt, **options).rollout(Q0[b], V0[b], TAUS[b])`` from a fresh simulator.

    Parameters: ``model`` (an :class:`rbda.Model`) and ``collision_model`` (an :class:`rbda.io.GeometryModel`),
    the scene; ``Q0 (B, nq)``, ``V0 (B, nv)`` the initial states; ``TAUS (B, T, nv)`` the joint torques of each
    step; ``dt > 0`` the time step; ``workers``: how many workers (default: the number of cores, at most ``B``);
    ``backend``: ``"thread"`` (a thread pool, no start-up cost, one simulator per thread: a rollout is one compiled
    kernel call that releases the GIL, :mod:`rbda.simulation.compiled_rollout`), ``"process"`` (worker processes,
    each given the scene once) or ``"serial"`` (this process); None (default): threads, or processes for a scene
    with bilateral constraints or mimic joints (their steps run Python); ``progress``: a tqdm
    bar over the states (None: shown when stderr is a terminal and the run is long, :func:`rbda.simulation.progress.progress_bar`);
    ``out``: a tuple ``(Q, V)`` of C-contiguous float64 arrays of those shapes to write into (a stream of batches
    in fixed memory), or None; ``options``: the :class:`rbda.Simulator`'s keyword arguments (``solver``, ``formulation``, ``mu``, ``baumgarte``,
    ``constraints``, ...).

    Raises ``ValueError`` for a wrong shape (of an argument or of ``out``), a non-finite entry (naming the argument
    and the state), an unknown backend, ``workers < 1``, or a step's error prefixed with ``state b:``; the Simulator's own errors for bad
    options.

    Each call makes its workers (their simulators, the threads or processes); :class:`RolloutPool` keeps them for
    batch after batch of one scene.
    """
    from .simulation.rollout import rollout as run  # rbda.simulation loads on first use

    return run(model, collision_model, Q0, V0, TAUS, dt, workers, backend, progress, out, **options)


def _rollout_dask_shapes(*args, **kwargs):
    from .simulation.rollout import _dask_shapes

    return _dask_shapes(*args, **kwargs)


rollout.dask_shapes = _rollout_dask_shapes  # type: ignore[attr-defined]
rollout.dask_defaults = {"backend": "serial"}  # type: ignore[attr-defined]  # on Dask, blocks are the tasks
__all__ += ["rollout"]

# ----------------------------------------------------------------------- Dask arrays of states (rbda[dask])
from ._dask import accepts_dask as _accepts_dask  # noqa: E402

for _name in __all__:  # each function maps itself block by block over Dask arrays (rbda/_dask.py)
    globals()[_name] = _accepts_dask(globals()[_name])


def __getattr__(name):  # ``rbda.batch.numba``: numba itself, imported on first use (``rbda/_native/jit.py``)
    if name == "numba":
        return _load_numba()
    if name == "RolloutPool":  # rbda.simulation loads on first use
        from .simulation import RolloutPool

        return RolloutPool
    raise AttributeError(f"module 'rbda.batch' has no attribute {name!r}")
