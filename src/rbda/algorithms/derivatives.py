"""Analytical derivatives of inverse and forward dynamics (Carpentier & Mansard, RSS 2018; seed 002).

Derivatives with respect to ``q`` are taken in the tangent space, through ``integrate``: column ``k`` of
``dtau/dq`` is ``d/de tau(integrate(q, e e_k), v, a)`` at ``e = 0``, as Pinocchio's. The compiled kernels
(``kernels/derivatives.py``) need joints whose motion subspace is constant in their own frame; a model with
universal, spherical-ZYX or composite joints is evaluated on its elementary twin (``model/elementary.py``), which
has the same q, v, dynamics and tangent space. Mimic joints are handled inside the kernels (``kernels/mimic.py``):
the recursions run over one column per joint dof and compress their results by the chain rule, ``G^T X G`` on
joint-space matrices, ``X G`` on ``(6, nv)`` derivatives, each dof axis of the second-order tensors; the
kernels' outputs are then sized ``nv_extended`` with the model's result in their first entries (:func:`leading`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..kernels import derivatives
from .._native.direct import direct
from ..model.data import leading
from ..spatial import SE3, ReferenceFrame
from ._check import report, vector
from ._elementary import copy_back, workspaces
from .dynamics import NO_FEXT, _fext
from .kinematics import _frame_id, _joint_id, reference_frame_code

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model
    from numpy.typing import ArrayLike

_k = direct(derivatives)  # the kernels, past numba's per-call dispatch

def _elementary_fext(model, fext, elementary):
    """``fext`` as the kernels take it (``NO_FEXT`` for None), on the elementary twin's joints if there is one."""
    if fext is None:
        return NO_FEXT
    F = _fext(model, fext)
    if elementary is None:
        return F
    me, last = elementary
    Fe = np.zeros((me.njoints, 6))
    Fe[last] = F
    return Fe


def compute_rnea_derivatives(model: Model, data: Data, q: ArrayLike, v: ArrayLike, a: ArrayLike,
                             fext: ArrayLike | None = None):
    """``(dtau_dq, dtau_dv, dtau_da)`` ``(nv, nv)`` each, the partial derivatives of ``rnea(q, v, a, fext)``;
    ``dtau_da = M``: new arrays, also in ``data.dtau_dq``, ``data.dtau_dv`` and ``data.M``. Also fills ``data.tau``,
    ``data.J`` and ``data.oMi``."""
    data.kinematics_derivatives = False  # the workspace is about to hold the dynamics' columns
    out = data.fast_entries.compute_rnea_derivatives(model, data, q, v, a) if fext is None else None  # or None
    if out is None:
        out = _dynamics_derivatives("rnea_derivatives", model, data, q, v, a, fext, ("q", "v", "a"),
                                    ("tau", "M", "J"), ("dtau_dq", "dtau_dv", "M"))
    return out[0].copy(), out[1].copy(), out[2].copy()


def _dynamics_derivatives(kernel, model, data, q, v, x, fext, names: tuple, fields: tuple, results: tuple) -> tuple:
    """The checked path of :func:`compute_rnea_derivatives` and :func:`compute_aba_derivatives` (where their fast
    entry answers None or is not asked): the kernel named ``kernel`` (looked up only here: a kernel that has not run
    yet is costly to look up) on the checked arguments (``names``), the elementary twin's ``fields`` copied back;
    returns the data's three ``results``."""
    I, F, ws, dws, elementary = workspaces(model, data)
    q, v, x = vector(q, model.nq, names[0]), vector(v, model.nv, names[1]), vector(x, model.nv, names[2])
    status = getattr(_k, kernel)(I, F, ws, dws, q, v, x, _elementary_fext(model, fext, elementary))
    if status:
        report(status, names, model, (q, v, x))
    if elementary is not None:
        copy_back(data, elementary, fields)
    return tuple(getattr(data, name) for name in results)


def compute_rnea_second_order_derivatives(model: Model, data: Data, q: ArrayLike, v: ArrayLike, a: ArrayLike,
                                          fext: ArrayLike | None = None):
    """``(d2tau_dqdq, d2tau_dvdv, dtau_dqdv, dtau_dadq)`` ``(nv, nv, nv)`` each, the second-order partial
    derivatives of ``rnea(q, v, a, fext)`` in Pinocchio's layout (``computeRNEASecondOrderDerivatives``): the
    last index is the outer derivative, ``d2tau_dqdq[:, :, k] = d(dtau_dq)/dq_k``, ``d2tau_dvdv[:, :, k] =
    d(dtau_dv)/dv_k``, ``dtau_dqdv[:, :, k] = d(dtau_dq)/dv_k`` (q along the columns, as Pinocchio 4.1 computes
    it, though its header comment says v), ``dtau_dadq[:, :, k] = dM/dq_k`` (``q`` directions through
    ``integrate``). Pinocchio's has no ``fext`` (and no Python binding in 4.1). The results are new arrays, also
    stored as ``data.d2tau_dqdq``, ``data.d2tau_dvdv``, ``data.d2tau_dqdv`` and ``data.d2tau_dadq`` (Pinocchio's names);
    the first-order results are left as :func:`compute_rnea_derivatives` leaves them."""
    I, F, ws, dws, elementary = workspaces(model, data)
    data.kinematics_derivatives = False
    q, v, a = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(a, model.nv, "a")
    nv, nx = model.nv, model.nv_extended
    if data.d2tau_extended is None:
        data.d2tau_extended = np.zeros((4, nx, nx, nx))
        data.d2tau_dqdq, data.d2tau_dvdv, data.d2tau_dqdv, data.d2tau_dadq = (
            leading(T, (nv, nv, nv)) for T in data.d2tau_extended)
    out = (data.d2tau_dqdq, data.d2tau_dvdv, data.d2tau_dqdv, data.d2tau_dadq)
    status = _k.rnea_second_order_derivatives(I, F, ws, dws, q, v, a, _elementary_fext(model, fext, elementary),
                                              *data.d2tau_extended)
    if status:
        report(status, ("q", "v", "a"), model, (q, v, a))
    if elementary is not None:
        copy_back(data, elementary, ("tau", "M", "J"))
    return tuple(T.copy() for T in out)


def compute_generalized_gravity_derivatives(model: Model, data: Data, q: ArrayLike) -> np.ndarray:
    """``dg/dq`` ``(nv, nv)`` at ``q: (nq,)``, the derivative of :func:`compute_generalized_gravity` in the tangent
    space (a new array, also in ``data.dtau_dq``). Also fills ``data.tau`` (``g(q)``), ``data.J`` and
    ``data.oMi``."""
    out = data.fast_entries.compute_generalized_gravity_derivatives(model, data, q)  # the bound fast entry, or None
    data.kinematics_derivatives = False  # the workspace now holds the dynamics' columns
    if out is not None:
        return out.copy()
    return _static_torque_derivatives(model, data, q, None)


def compute_static_torque_derivatives(model: Model, data: Data, q: ArrayLike, fext: ArrayLike | None) -> np.ndarray:
    """``d/dq (g(q) - sum J_i^T fext_i)`` ``(nv, nv)``, the derivative of :func:`compute_static_torque`
    (``fext`` fixed in the joint frames, one force per joint, or None for none): a new array, also in
    ``data.dtau_dq``. Also fills ``data.tau`` (the static torque), ``data.J`` and ``data.oMi``."""
    out = data.fast_entries.compute_static_torque_derivatives(model, data, q, fext)  # the bound fast entry, or None
    data.kinematics_derivatives = False  # the workspace now holds the dynamics' columns
    if out is not None:
        return out.copy()
    return _static_torque_derivatives(model, data, q, fext)


def _static_torque_derivatives(model, data, q, fext) -> np.ndarray:
    """The ordinary path of :func:`compute_static_torque_derivatives`: checked arguments, the kernel, the twin."""
    I, F, ws, dws, elementary = workspaces(model, data)
    q = vector(q, model.nq, "q")
    status = _k.static_torque_derivatives(I, F, ws, dws, q, _elementary_fext(model, fext, elementary))
    if status:
        report(status, ("q",), model, (q,))
    if elementary is not None:
        copy_back(data, elementary, ("tau", "J"))
    return data.dtau_dq.copy()


def compute_aba_derivatives(model: Model, data: Data, q: ArrayLike, v: ArrayLike, tau: ArrayLike,
                            fext: ArrayLike | None = None):
    """``(ddq_dq, ddq_dv, ddq_dtau)`` ``(nv, nv)`` each, the partial derivatives of ``aba(q, v, tau, fext)``:
    ``dFD/dx = -M^-1 dID/dx`` at ``(q, v, FD(q, v, tau))``, and ``ddq_dtau = M^-1``: new arrays, also in
    ``data.ddq_dq``, ``data.ddq_dv`` and ``data.Minv``. Also fills ``data.ddq``, ``data.M``, ``data.dtau_dq``,
    ``data.dtau_dv``."""
    data.kinematics_derivatives = False  # the workspace is about to hold the dynamics' columns
    out = data.fast_entries.compute_aba_derivatives(model, data, q, v, tau) if fext is None else None  # or None
    if out is None:
        out = _dynamics_derivatives("aba_derivatives", model, data, q, v, tau, fext, ("q", "v", "tau"),
                                    ("ddq", "tau", "M", "Minv", "J"), ("ddq_dq", "ddq_dv", "Minv"))
    return out[0].copy(), out[1].copy(), out[2].copy()


# ------------------------------------------------------------------------------------ kinematics derivatives
def compute_forward_kinematics_derivatives(model: Model, data: Data, q: ArrayLike, v: ArrayLike, a: ArrayLike) -> None:
    """The forward kinematics at ``q: (nq,)``, ``v``, ``a`` ``(nv,)`` and the quantities from which the
    ``get_*_derivatives`` functions assemble the partial derivatives of joint, frame and point velocities and
    accelerations. Fills ``data.oMi``, ``data.v``, ``data.a`` (local), ``data.ov``, ``data.oa`` (world) and
    ``data.J``; returns None."""
    if data.fast_entries.compute_forward_kinematics_derivatives(model, data, q, v, a):  # the bound fast entry
        data.kinematics_derivatives = True
        return
    I, F, ws, dws, elementary = workspaces(model, data)
    q, v, a = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(a, model.nv, "a")
    status = _k.forward_kinematics_derivatives(I, F, ws, dws, q, v, a)
    if status:
        report(status, ("q", "v", "a"), model, (q, v, a))
    if elementary is not None:
        copy_back(data, elementary, ("J",))
        edata, last = data.elementary_data, elementary[1]
        for name in ("v", "a", "ov", "oa"):
            getattr(data, name)[:] = getattr(edata, name)[last]
    data.kinematics_derivatives = True


def _extended_outputs(model, count: int, rows: int = 6):
    """``count`` zeroed outputs ``(rows, nv_extended)`` for a kernel, and their model-sized results ``(rows, nv)``
    (the same arrays without mimic joints; with, the kernel leaves them in the first entries)."""
    nx, shape = model.nv_extended, (rows, model.nv)
    outs = list(np.zeros((count, rows, nx)))  # one allocation: the outputs are its disjoint blocks
    return outs, (outs if nx == model.nv else [leading(x, shape) for x in outs])


def _check_kinematics_derivatives(data) -> None:
    if not data.kinematics_derivatives:
        raise ValueError("data: call compute_forward_kinematics_derivatives(model, data, q, v, a) first")


def _motion_derivatives(model, data, joint_id, placement, rf, accel):
    """``(v_dq, v_dv, a_dq, a_dv, a_da)`` ``(6, nv)`` each (only the first two if not ``accel``), one new array
    ``(5 or 2, 6, nv)``, of the frame at ``placement`` (an SE3, or None for the joint's own frame) on ``joint_id`` (checked);
    ``accel`` one of the kernel's VELOCITY_ONLY, SPATIAL_ACCELERATION, POINT_CLASSICAL_ACCELERATION (or a bool)."""
    _check_kinematics_derivatives(data)
    rf = reference_frame_code(rf)
    I, F, ws, dws, elementary = workspaces(model, data)
    joint = joint_id if elementary is None else int(elementary[1][joint_id])
    if placement is None:
        P = _JOINT_FRAME
    else:
        P = np.empty((3, 4))
        P[:, :3], P[:, 3] = placement.rotation, placement.translation
    nx = model.nv_extended
    out = np.empty((5, 6, nx))  # (the kernel zeroes what it returns)
    _k.frame_motion_derivatives(I, F, ws, dws, -1, joint, P, rf, int(accel), out)
    if nx != model.nv:  # mimic joints: the model's (6, nv) in the first entries of each block
        out = np.array([leading(x, (6, model.nv)) for x in out])
    return out if accel else out[:2]


_JOINT_FRAME = np.zeros((0, 4))  # the placement argument of a joint's own frame


def _frame_motion_derivatives(model, data, frame_id, reference_frame, accel):
    """The velocity (and if ``accel``, acceleration) derivatives of frame ``frame_id`` (an id or a name), as
    :func:`_motion_derivatives` gives them."""
    frame_id = _frame_id(model, data, frame_id)
    frame = model.frames[frame_id]
    return _motion_derivatives(model, data, frame.parent_joint, frame.placement, reference_frame, accel)


def get_joint_velocity_derivatives(model: Model, data: Data, joint_id: int,
                                   reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL):
    """``(v_partial_dq, v_partial_dv)`` ``(6, nv)``: derivatives of the spatial velocity of joint ``joint_id`` in
    ``reference_frame``, after :func:`compute_forward_kinematics_derivatives`."""
    _check_kinematics_derivatives(data)
    out = data.fast_entries.get_joint_velocity_derivatives(model, data, joint_id, reference_frame)  # fast, or None
    if out is None:
        return tuple(_motion_derivatives(model, data, _joint_id(model, data, joint_id), None, reference_frame, False))
    out = out[:2].copy()  # (the entry's own buffer)
    return out[0], out[1]


def get_joint_acceleration_derivatives(model: Model, data: Data, joint_id: int,
                                       reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL):
    """``(v_partial_dq, a_partial_dq, a_partial_dv, a_partial_da)`` ``(6, nv)``: derivatives of the spatial
    velocity and spatial acceleration of joint ``joint_id`` in ``reference_frame``."""
    _check_kinematics_derivatives(data)
    out = data.fast_entries.get_joint_acceleration_derivatives(model, data, joint_id, reference_frame)  # or None
    if out is None:
        out = _motion_derivatives(model, data, _joint_id(model, data, joint_id), None, reference_frame, True)
    else:
        out = out.copy()  # (the entry's own buffer)
    return out[0], out[2], out[3], out[4]


def get_frame_velocity_derivatives(model: Model, data: Data, frame_id: int | str,
                                   reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL):
    """``(v_partial_dq, v_partial_dv)`` ``(6, nv)``: derivatives of the spatial velocity of frame ``frame_id`` (an
    id or a name) in ``reference_frame`` (``LOCAL``, ``WORLD`` or ``LOCAL_WORLD_ALIGNED``), after
    :func:`compute_forward_kinematics_derivatives`."""
    _check_kinematics_derivatives(data)
    out = data.fast_entries.get_frame_velocity_derivatives(model, data, frame_id, reference_frame)  # fast, or None
    if out is None:
        return tuple(_frame_motion_derivatives(model, data, frame_id, reference_frame, False))
    out = out[:2].copy()  # (the entry's own buffer)
    return out[0], out[1]


def get_frame_acceleration_derivatives(model: Model, data: Data, frame_id: int | str,
                                       reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL):
    """``(v_partial_dq, a_partial_dq, a_partial_dv, a_partial_da)`` ``(6, nv)``: derivatives of the spatial velocity
    and acceleration of frame ``frame_id`` (an id or a name) in ``reference_frame`` (``LOCAL``, ``WORLD`` or
    ``LOCAL_WORLD_ALIGNED``), after :func:`compute_forward_kinematics_derivatives`."""
    _check_kinematics_derivatives(data)
    out = data.fast_entries.get_frame_acceleration_derivatives(model, data, frame_id, reference_frame)  # or None
    if out is None:
        out = _frame_motion_derivatives(model, data, frame_id, reference_frame, True)
    else:
        out = out.copy()  # (the entry's own buffer)
    return out[0], out[2], out[3], out[4]


def _point_frame(model, data, joint_id, placement, reference_frame):
    joint_id = _joint_id(model, data, joint_id)
    if not isinstance(placement, SE3):
        raise TypeError(f"placement: expected an SE3, got {type(placement).__name__}")
    if reference_frame_code(reference_frame) == ReferenceFrame.WORLD:
        raise ValueError("reference_frame: a point's derivatives are given in LOCAL or LOCAL_WORLD_ALIGNED")
    return joint_id


def get_point_velocity_derivatives(model: Model, data: Data, joint_id: int, placement: SE3,
                                   reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL):
    """``(v_partial_dq, v_partial_dv)`` ``(3, nv)``: derivatives of the linear velocity of the point at ``placement``
    (an SE3 in the frame of joint ``joint_id``), expressed as ``reference_frame`` says: the point's frame (``LOCAL``)
    or world axes (``LOCAL_WORLD_ALIGNED``). After :func:`compute_forward_kinematics_derivatives`."""
    out = data.fast_entries.get_point_velocity_derivatives(model, data, joint_id, placement, reference_frame) if (
        data.kinematics_derivatives) else None  # the bound fast entry (its own buffer), or None
    if out is None:
        joint_id = _point_frame(model, data, joint_id, placement, reference_frame)
        out = _motion_derivatives(model, data, joint_id, placement, reference_frame, False)
    return out[0, :3].copy(), out[1, :3].copy()


def get_point_classic_acceleration_derivatives(model: Model, data: Data, joint_id: int, placement: SE3,
                                               reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL):
    """``(v_partial_dq, a_partial_dq, a_partial_dv, a_partial_da)`` ``(3, nv)``: derivatives of the linear velocity
    and of the classical acceleration ``a + w x v`` of the point at ``placement`` on joint ``joint_id``, in
    ``reference_frame`` ``LOCAL`` or ``LOCAL_WORLD_ALIGNED``, by the product rule on the frame's spatial quantities.
    After :func:`compute_forward_kinematics_derivatives`."""
    out = data.fast_entries.get_point_classic_acceleration_derivatives(model, data, joint_id, placement,
                                                                      reference_frame) if (
        data.kinematics_derivatives) else None  # the bound fast entry (its own buffer), or None
    if out is None:
        joint_id = _point_frame(model, data, joint_id, placement, reference_frame)
        out = _motion_derivatives(model, data, joint_id, placement, reference_frame,
                                  derivatives.POINT_CLASSICAL_ACCELERATION)
    return out[0, :3].copy(), out[2, :3].copy(), out[3, :3].copy(), out[4, :3].copy()


# ------------------------------------------------------------------------------------ centroidal derivatives
def compute_centroidal_dynamics_derivatives(model: Model, data: Data, q: ArrayLike, v: ArrayLike, a: ArrayLike):
    """``(dh_dq, dhdot_dq, dhdot_dv, dhdot_da)`` ``(6, nv)`` each, at ``q: (nq,)``, ``v``, ``a`` ``(nv,)``: partial
    derivatives of the centroidal momentum ``hg = Ag v`` and of its rate ``dhg = Ag a + dAg v`` (``dhdot_da = Ag``).
    Also fills ``data.hg``, ``data.dhg``, ``data.com[0]`` and ``data.dvcom_dq`` (see
    :func:`get_center_of_mass_velocity_derivatives`)."""
    out = data.fast_entries.compute_centroidal_dynamics_derivatives(model, data, q, v, a)  # the bound fast entry
    data.kinematics_derivatives = False
    if out is not None:  # its own buffer: the four blocks, then the CoM and the mass
        blocks, mass = out[:24 * model.nv].reshape(4, 6, model.nv).copy(), out[-1]
        data.dvcom_dq = blocks[0, :3] / mass
        return blocks[0], blocks[1], blocks[2], blocks[3]
    I, F, ws, dws, elementary = workspaces(model, data)
    q, v, a = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(a, model.nv, "a")
    buffers, outs = _extended_outputs(model, 4)
    com_mass = np.zeros(4)
    status = _k.centroidal_derivatives(I, F, ws, dws, q, v, a, *buffers, data.hg, data.dhg, com_mass)
    if status:
        report(status, ("q", "v", "a"), model, (q, v, a))
    if not com_mass[3] > 0.0:
        raise ValueError("model: has no mass, its centroidal quantities are undefined")
    data.com[0] = com_mass[:3]
    data.dvcom_dq = outs[0][:3] / float(com_mass[3])
    return tuple(outs)


def get_center_of_mass_velocity_derivatives(model: Model, data: Data) -> np.ndarray:
    """``dvcom/dq`` ``(3, nv)``, the derivative of the CoM velocity with respect to ``q`` (the velocity held
    fixed), from the last :func:`compute_centroidal_dynamics_derivatives` (``vcom = p / m``)."""
    dv = data.dvcom_dq
    if dv is None or dv.shape != (3, model.nv):
        raise ValueError("data: call compute_centroidal_dynamics_derivatives(model, data, q, v, a) first")
    return dv.copy()
