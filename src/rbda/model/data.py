"""The workspace of the algorithms (Pinocchio's ``Data``), allocated once per model.

Every field of a :class:`Data` is declared here, in :meth:`Data.__init__` and the ``_init_*`` methods it calls,
with its shape and meaning; no algorithm adds an attribute. The fields are numpy views into three float64 buffers
that the compiled kernels fill:

* ``ws`` (``model/layout.py``): kinematics and dynamics, per joint, per dof and joint-space matrices;
* ``wb`` (``kernels/whole_body.py``): centre of mass, centroidal quantities, the factor of ``M``;
* ``dws`` (``kernels/derivatives.py``): the derivatives' workspace, allocated on the first derivative call.

Names follow Pinocchio. The algorithms fill these buffers and return copies of their results, which the caller
owns; the fields themselves hold the last call's values (a second call overwrites them).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence

import numpy as np

from .layout import data_size
from .layout import data_views_py as data_views
from ..spatial import SE3, Motion


class ArgumentOrderError(TypeError, AttributeError):
    """A Model passed where a Data belongs, or the reverse (also an AttributeError, so ``hasattr`` still works)."""


_MODEL_ATTRIBUTES = frozenset({"packed", "mimicking_joints", "nq", "nv", "njoints", "nframes", "joints", "parents",
                               "names", "frames", "idx_q", "idx_v", "nqs", "nvs", "inertias", "gravity", "elementary",
                               "get_frame_id", "get_joint_id", "create_data", "masses",
                               "derived_values", "frame_supported_inertias"})
DATA_ATTRIBUTES = frozenset({"ws", "wb", "dws", "model_sizes", "oMi", "oMf", "liMi", "tau", "M", "J", "ddq",
                             "derivatives_layout", "elementary_data", "kinematics_derivatives"})


class SE3Views(Sequence):
    """A sequence of :class:`SE3` sharing memory with a ``(n, 3, 4)`` array ``[R | p]``."""

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray):
        self.array = array

    def __len__(self) -> int:
        return self.array.shape[0]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        M = SE3.__new__(SE3)
        M.rotation, M.translation = self.array[i, :, :3], self.array[i, :, 3]
        return M

    def __setitem__(self, i, M: SE3) -> None:
        self.array[i, :, :3] = M.rotation
        self.array[i, :, 3] = M.translation

    def __repr__(self) -> str:
        return f"SE3Views({len(self)} placements)"


def new_workspace(nj: int, nv: int, nf: int, nq_mimic: int = 0) -> np.ndarray:
    """A zeroed workspace whose placements are identities (the universe's ``oMi[0]`` is read, never written)."""
    ws = np.zeros(data_size(nj, nv, nf, nq_mimic))
    d = data_views(ws, nj, nv, nf, nq_mimic)[0]
    for M in (d.liMi, d.oMi, d.oMf):
        M[:, :, :3] = np.eye(3)
    return ws


def leading(X: np.ndarray, shape: tuple) -> np.ndarray:
    """The C-contiguous array of ``shape`` stored in the first entries of the C-contiguous ``X``: with mimic
    joints, where the kernels leave a result of the model's size after computing it over the ``nv_extended``
    columns (``kernels/mimic.py``); ``X`` itself when it has that shape."""
    return X if X.shape == shape else X.reshape(-1)[: math.prod(shape)].reshape(shape)


def leading_block(X: np.ndarray, n: int) -> np.ndarray:
    """:func:`leading` ``(n, n)`` of the square ``X``: a joint-space matrix of the model."""
    return leading(X, (n, n))


def workspace_sizes(model) -> tuple[int, int, int, int]:
    """``(njoints, nv_extended, nframes, nq_mimic)``: the sizes a workspace ``ws`` of ``model`` is laid out for
    (``model/layout.py``: the kernels run over one column per joint dof, mimic joints included, and with mimic
    joints keep the extended configuration of ``nq + len(mimicking_joints)`` entries)."""
    nq_mimic = model.nq + len(model.mimicking_joints) if model.mimicking_joints else 0
    return model.njoints, model.nv_extended, model.nframes, nq_mimic


def ordinary(*args):
    """The fast entry that sends every call down the algorithm's ordinary path."""
    return None


#: The unbound fast entries, by algorithm: what a new data's :class:`FastEntries` hold until their first call,
#: which binds them. The fast-entry machinery (``_native/fastcall.py``) fills this table when it is imported, which
#: ``import rbda`` does; an algorithm missing here keeps its ordinary path.
FAST_ENTRIES: dict = {}


class FastEntries:
    """A data's fast entries (``data.fast_entries``), one per algorithm that has one: ``entry(model, data,
    *inputs)`` returns the algorithm's result (True for forward kinematics), or None to send the call down the
    ordinary path, which converts the inputs or raises the named error."""

    __slots__ = ("compute_static_torque", "compute_generalized_gravity_derivatives", "compute_static_torque_derivatives",
                 "get_point_velocity_derivatives", "get_point_classic_acceleration_derivatives", "compute_subtree_masses",
                 "compute_centroidal_dynamics_derivatives",
                 "forward_kinematics_q", "forward_kinematics_qv", "forward_kinematics_qva", "compute_joint_jacobians",
                 "rnea", "crba", "aba", "compute_minverse", "compute_rnea_derivatives", "compute_aba_derivatives",
                 "compute_generalized_gravity", "center_of_mass_q", "center_of_mass_qv", "center_of_mass_qva",
                 "jacobian_center_of_mass", "compute_centroidal_map", "ccrba", "compute_centroidal_momentum",
                 "compute_centroidal_momentum_time_variation", "energy_q", "energy_qv", "get_frame_jacobian",
                 "get_joint_jacobian", "get_frame_jacobian_time_variation", "get_joint_jacobian_time_variation",
                 "compute_frame_jacobian", "compute_joint_jacobian", "get_frame_velocity", "get_frame_acceleration",
                 "get_frame_classical_acceleration", "get_velocity", "get_acceleration", "get_classical_acceleration",
                 "update_frame_placement",
                 # config
                 "compute_supported_force_by_frame", "compute_supported_inertia_by_frame",
                 "jacobian_subtree_center_of_mass",
                 # ratios
                 "compute_static_regressor", "compute_kinetic_energy_regressor", "compute_potential_energy_regressor",
                 "joint_body_regressor", "frame_body_regressor", "get_joint_velocity_derivatives",
                 "get_joint_acceleration_derivatives", "get_frame_velocity_derivatives",
                 "get_frame_acceleration_derivatives", "update_frame_placements", "update_global_placements",
                 "frames_forward_kinematics", "compute_joint_jacobians_time_variation",
                 "compute_joint_kinematic_hessians", "compute_forward_kinematics_derivatives",
                 "compute_joint_kinematic_regressor", "compute_frame_kinematic_regressor")

    def __init__(self, entries: dict = FAST_ENTRIES):
        self.unbind(entries)

    def unbind(self, entries: dict = FAST_ENTRIES) -> None:
        """Every entry back to its unbound one in ``entries`` (:data:`FAST_ENTRIES`), else :func:`ordinary`."""
        for name in self.__slots__:
            setattr(self, name, entries.get(name, ordinary))


# config
#: The unbound fast entries of a model (:class:`ModelFastEntries`), by function: filled as :data:`FAST_ENTRIES` is.
MODEL_FAST_ENTRIES: dict = {}


class ModelFastEntries:
    """A model's fast entries (``model.fast_entries``), for the functions that take no data (the configuration
    space): ``entry(model, *inputs, *outputs)`` fills the outputs the function allocated and returns True (or the
    function's float or bool result), or None to send the call down the ordinary path. Any other name reads as
    :func:`ordinary`: a model passed where a data belongs takes the ordinary path, which names the mistake."""

    __slots__ = ("integrate", "difference", "interpolate", "normalize", "is_normalized", "is_same_configuration",
                 "squared_distance", "distance", "d_integrate", "d_difference", "d_integrate_transport")

    def __init__(self, entries: dict = MODEL_FAST_ENTRIES):
        for name in self.__slots__:
            setattr(self, name, entries.get(name, ordinary))

    def __getattr__(self, name):  # only reached for a name that is not a slot
        return ordinary


class Bindings:
    """A model's token and the data bound to it (``model.fast_bindings``): an edit of the model
    (``Model._invalidate``) zeroes the token, which every entry bound to the old packed arrays checks, and puts
    back the unbound entries of the bound data, which bind again at their next call."""

    def __init__(self):
        self.token = np.ones(1, dtype=np.int64)
        self.data = weakref.WeakSet()

    def unbind(self) -> None:
        self.token[0] = 0
        for data in list(self.data):
            data.fast_entries.unbind()
        self.data.clear()


class Data:
    """Workspace for one model; create it with ``model.create_data()``.

    Kinematics (``model/layout.py``; per joint ``i``, in the joint frame unless prefixed ``o`` for the world):
    ``liMi``, ``oMi`` (``njoints`` placements, :class:`SE3Views` over ``(njoints, 3, 4)`` arrays ``[R | p]``),
    ``oMf`` (``nframes`` frame placements); ``v``, ``a``, ``a_gf`` (acceleration with gravity), ``f`` (RNEA's
    body forces), ``ov``, ``oa``, ``oa_gf``, ``of`` ``(njoints, 6)`` spatial vectors ``[linear; angular]``;
    ``oYcrb`` ``(njoints, 13)`` composite inertias ``(m, m c, I_o)`` in the world frame, ``oYaba``
    ``(njoints, 6, 6)`` articulated inertias; ``J``, ``dJ`` ``(6, nv_extended)`` the joint Jacobians and their
    time variation in the world frame, ``S`` ``(6, nv_extended)`` the motion subspaces in the joint frames: one
    column per joint dof, a mimic joint's included (Pinocchio's layout; ``model.nv_extended == model.nv``
    without mimic joints).

    Dynamics: ``M``, ``Minv``, ``C`` ``(nv, nv)``; ``tau``, ``nle``, ``g``, ``ddq`` ``(nv,)``.

    Mimic joints (``kernels/mimic.py``): ``ws`` is laid out for ``nv_extended`` columns (:func:`workspace_sizes`)
    and ends with the extended inputs ``q_ext (nq + number of mimic joints)``, ``v_ext``, ``a_ext``
    ``(nv_extended,)``, which the kernels fill from the model's ``q``, ``v``, ``a``; the per-dof fields above are
    the model's ``nv`` entries that the kernels leave in front of each buffer (:func:`leading_block` for the
    matrices).

    Whole body (:meth:`_init_whole_body`), derivatives (:meth:`_init_derivatives`): see those methods.
    """

    def __init__(self, model):
        nj, nx, nf, nq_mimic = workspace_sizes(model)
        nv = model.nv
        self.fast_entries = FastEntries()  # the algorithms' fast entries, bound by their first call
        self.model_sizes = (nj, nv, nf)
        self.ws = new_workspace(nj, nx, nf, nq_mimic)
        d = data_views(self.ws, nj, nx, nf, nq_mimic)[0]
        self._views = d
        self.liMi, self.oMi, self.oMf = SE3Views(d.liMi), SE3Views(d.oMi), SE3Views(d.oMf)
        for name in ("v", "a", "a_gf", "f", "ov", "oa", "oa_gf", "of", "oYcrb", "oYaba"):
            setattr(self, name, getattr(d, name))
        # per dof: the kernels run over nv_extended columns and leave the model's nv entries in front
        for name in ("tau", "nle", "g", "ddq"):
            setattr(self, name, getattr(d, name)[:nv])
        for name in ("M", "Minv", "C"):
            setattr(self, name, leading_block(getattr(d, name), nv))
        self.J = d.J.T  # (6, nv_extended) view of the row-per-column storage
        self.dJ = d.dJ.T
        self.S = d.S.T
        self._init_whole_body(model)
        self._init_derivatives(model)
        self._init_constrained(model)

    def _init_whole_body(self, model) -> None:
        """Whole-body quantities (Pinocchio's names): ``mass (njoints,)``, ``com``, ``vcom``, ``acom``
        ``(njoints, 3)`` (subtrees, world frame; entry 0 is the whole model), ``Jcom (3, nv)``, ``Ag``, ``dAg``
        ``(6, nv)``, ``Ig (6, 6)``, ``hg``, ``dhg (6,)``, the factor ``U (nv, nv)``, ``D``, ``Dinv (nv,)`` of
        ``M = U D U^T`` (views of the buffer ``wb`` that the kernels of ``kernels/whole_body.py`` fill), and the
        regressors of ``algorithms/regressor.py``: ``joint_torque_regressor (nv, 10 (njoints - 1))``, the first
        rows of ``torque_regressor_rows (nv_extended, 10 (njoints - 1))`` that its kernel fills."""
        from .layout import whole_body_size_py as whole_body_size
        from .layout import whole_body_views_py as whole_body_views

        nj, nv, nx = model.njoints, model.nv, model.nv_extended
        self.wb = np.zeros(whole_body_size(nj, nx))
        w = whole_body_views(self.wb, nj, nx)[0]
        for name in ("mass", "com", "vcom", "acom", "Ig", "hg", "dhg"):
            setattr(self, name, getattr(w, name))
        self.D, self.Dinv = w.D[:nv], w.Dinv[:nv]
        self._cholesky_L = leading_block(w.L, nv)  # U^T, C-contiguous, for the kernels
        self.Jcom, self.Ag, self.dAg, self.U = w.Jcom[:nv].T, w.Ag[:nv].T, w.dAg[:nv].T, self._cholesky_L.T
        self.energy = w.energy
        self.kinetic_energy = self.potential_energy = self.mechanical_energy = 0.0
        self.torque_regressor_rows = np.zeros((nx, 10 * (nj - 1)))  # one row per column of J; the model's first
        self.joint_torque_regressor = self.torque_regressor_rows[:nv]
        self.static_regressor = np.zeros((3, 4 * (nj - 1)))
        self.kinetic_energy_regressor = np.zeros(10 * (nj - 1))
        self.potential_energy_regressor = np.zeros(10 * (nj - 1))
        self.dof_parents = model.dof_parents

    def _init_derivatives(self, model) -> None:
        """The analytical derivatives (``algorithms/derivatives.py``, Pinocchio's names).

        ``dtau_dq``, ``dtau_dv``, ``ddq_dq``, ``ddq_dv`` ``(nv, nv)``: views of the derivative workspace ``dws``,
        which the first derivative call allocates (``None`` until then); ``elementary_data``: the data of the
        model's elementary twin (``model/elementary.py``) when it differs from the model, on which the derivative
        kernels then run; ``derivatives_layout``: ``(I, F, ws, dws, (model_e, last) or None)``, the packed model
        and the workspaces the derivative kernels take, as laid out by the first derivative call;
        ``kinematics_derivatives``: True while ``dws`` holds :func:`compute_forward_kinematics_derivatives`' columns.
        ``d2tau_dqdq``, ``d2tau_dvdv``, ``d2tau_dqdv``, ``d2tau_dadq`` ``(nv, nv, nv)``: the second-order derivatives,
        views of ``d2tau_extended`` ``(4, nv_extended, nv_extended, nv_extended)``, the kernel's output (with mimic
        joints it leaves the model's tensors in their first entries), both allocated on the first call;
        ``kinematic_hessians`` ``(6, nv, nv)`` and ``kinematic_hessians_extended`` ``(6, nv_extended,
        nv_extended)``, the derivatives of the Jacobian's columns in the model's dofs and in ``data.J``'s columns
        (the same array without mimic joints); ``dvcom_dq`` ``(3, nv)``, set by
        :func:`compute_centroidal_dynamics_derivatives` (``None`` before).
        """
        nv, nx = model.nv, model.nv_extended
        self.dws = self.elementary_data = self.derivatives_layout = None
        self.dtau_dq = self.dtau_dv = self.ddq_dq = self.ddq_dv = None
        self.kinematics_derivatives = False
        self.d2tau_extended = self.d2tau_dqdq = self.d2tau_dvdv = self.d2tau_dqdv = self.d2tau_dadq = None
        self.kinematic_hessians_extended = np.zeros((6, nx, nx))
        self.kinematic_hessians = self.kinematic_hessians_extended if nx == nv else np.zeros((6, nv, nv))
        self.dvcom_dq = None

    def _init_constrained(self, model) -> None:
        """Constrained dynamics (``algorithms/constrained.py``): ``lambda_c``, ``impulse_c`` ``(m,)`` the stacked
        constraint forces and impulses (``m`` the total constraint size, 0 until a constrained call), ``dq_after``
        ``(nv,)`` the velocity after an impulse, ``constraint_jacobian`` ``(m, nv)`` the stacked Jacobian,
        ``kkt_inverse`` ``(nv + m, nv + m)``, ``delassus`` ``(m, m)``; the derivatives ``ddq_dtau`` ``(nv, nv)``,
        ``dlambda_dq``, ``dlambda_dv``, ``dlambda_dtau`` ``(m, nv)``, ``dvafter_dq``, ``dvafter_dv`` ``(nv, nv)``,
        ``dimpulse_dq``, ``dimpulse_dv`` ``(m, nv)`` (set by the calls that compute them); ``constraint_state``:
        the kind and inputs of the last constrained call, which the derivative functions differentiate;
        ``constraint_binding``: the packed constraint set and result buffers of the last constrained call;
        ``constraint_derivative_buffers``: the workspace and results of the compiled constrained derivatives."""
        nv = model.nv
        self.lambda_c, self.impulse_c, self.dq_after = np.zeros(0), np.zeros(0), np.zeros(nv)
        self.constraint_jacobian, self.kkt_inverse = np.zeros((0, nv)), np.zeros((nv, nv))
        self.delassus = np.zeros((0, 0))
        self.dlambda_dq, self.dlambda_dv, self.dlambda_dtau = (np.zeros((0, nv)) for _ in range(3))
        self.ddq_dtau, self.dvafter_dq, self.dvafter_dv = (np.zeros((nv, nv)) for _ in range(3))
        self.dimpulse_dq, self.dimpulse_dv = np.zeros((0, nv)), np.zeros((0, nv))
        self.constraint_state = self.constraint_binding = None
        self.constraint_derivative_buffers = None

    def __getstate__(self):
        """The fields, for pickles and copies: the fast entries left out (they are bound to this object), and each
        array that views a buffer (``ws``, ``wb``, ``dws``) as where it lies in it, so that the fields of the
        copy view the copy's buffers as these view this data's."""
        buffers = {name: self.__dict__.get(name) for name in _BUFFERS}
        return {k: _describe(v, buffers) for k, v in self.__dict__.items() if k != "fast_entries"}

    def __setstate__(self, state):
        buffers = {name: state.get(name) for name in _BUFFERS}
        self.__dict__.update({k: _restore(v, buffers) for k, v in state.items()})
        self.fast_entries = FastEntries()

    def copy(self) -> "Data":
        """An independent workspace holding the same values (Pinocchio's ``Data.copy``; also ``copy.copy`` and
        ``copy.deepcopy``): its fields view its own buffers."""
        import copy

        data = type(self).__new__(type(self))
        data.__setstate__(copy.deepcopy(self.__getstate__()))
        return data

    __copy__ = copy

    def __deepcopy__(self, memo) -> "Data":
        return self.copy()

    def ov_of(self, joint_id: int) -> np.ndarray:
        """World-frame spatial velocity ``(6,)`` of joint ``joint_id`` from ``oMi`` and the local ``v``."""
        return self.oMi[joint_id].act(Motion(self.v[joint_id])).vector

    def __repr__(self) -> str:
        nj, nv, nf = self.model_sizes
        return f"Data(njoints={nj}, nv={nv}, nframes={nf})"


_BUFFERS = ("ws", "wb", "dws")  # the float64 buffers that the fields of a Data view


class _BufferView(tuple):
    """Where an array lies in one of a data's buffers: ``(buffer name, byte offset, shape, strides)``."""


def _describe(x, buffers: dict):
    """``x`` (a field of a Data, or an item of one) with every array that views one of ``buffers`` (but is not
    the buffer itself) replaced by its :class:`_BufferView`."""
    if isinstance(x, np.ndarray):
        for name, buffer in buffers.items():
            if buffer is not None and x is not buffer and np.may_share_memory(x, buffer):
                offset = x.__array_interface__["data"][0] - buffer.__array_interface__["data"][0]
                return _BufferView((name, offset, x.shape, x.strides))
        return x
    if isinstance(x, SE3Views):
        return SE3Views(_describe(x.array, buffers))
    if isinstance(x, tuple) and not isinstance(x, _BufferView):
        items = [_describe(v, buffers) for v in x]
        return type(x)._make(items) if hasattr(type(x), "_make") else tuple(items)
    if isinstance(x, list):
        return [_describe(v, buffers) for v in x]
    return x


def _restore(x, buffers: dict):
    """The inverse of :func:`_describe`, on the buffers of the data being restored."""
    if isinstance(x, _BufferView):
        name, offset, shape, strides = x
        return np.ndarray(shape, dtype=np.float64, buffer=buffers[name], offset=offset, strides=strides)
    if isinstance(x, SE3Views):
        return SE3Views(_restore(x.array, buffers))
    if isinstance(x, tuple):
        items = [_restore(v, buffers) for v in x]
        return type(x)._make(items) if hasattr(type(x), "_make") else tuple(items)
    if isinstance(x, list):
        return [_restore(v, buffers) for v in x]
    return x


class _ModelAttribute:
    # A Model attribute read on a Data: a Data passed where a Model belongs. A descriptor per name rather than a
    # ``__getattr__`` on Data, which would slow the read of every attribute of a Data, its fast entries' included,
    # by ~20 ns (CPython does not specialise attribute reads on a class with ``__getattr__``).
    def __get__(self, data, owner=None):
        if data is None:
            return self
        raise ArgumentOrderError("model: expected an rbda.Model, got a Data; the algorithms take "
                                 "(model, data, ...) and the batched ones (model, Q, ...)")


for _name in _MODEL_ATTRIBUTES:
    setattr(Data, _name, _ModelAttribute())
