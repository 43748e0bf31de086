"""rbda's algorithms as differentiable primitives, the common ground of the framework bridges (:mod:`rbda.jax`,
:mod:`rbda.casadi`): for each algorithm its value and its analytical Jacobians on stacked states, in plain numpy.

A :class:`Primitive` names its arguments (``q`` a configuration ``(nq,)``, the others tangent vectors ``(nv,)``),
the shape of its result for one state, and two host functions that take each argument stacked as ``(B, n)``:
``value`` returns ``(B, *shape)`` and ``jacobians`` returns one ``(B, size, n)`` Jacobian per argument
(``size`` = the number of entries of the result, in C order). A single state (``B == 1``) runs the plain
algorithm on a :class:`Data` held by one thread at a time; a batch runs the ``rbda.batch`` twin, one parallel call.

Derivatives with respect to ``q`` are rbda's tangent-space ones (``nv`` columns, ``q (+) dq`` through
``integrate``). A framework differentiates ``q`` in its ambient coordinates (``nq`` entries), so the bridges
receive ``J_q T(q)``, where ``T(q) (nv, nq)`` (:func:`tangent_map`) maps an ambient velocity ``dq/dt`` that
stays on the manifold (unit quaternions, unit ``[cos, sin]`` pairs) to the tangent velocity ``v``; a result
that is a configuration (``integrate``) has its tangent rows mapped to ambient ones by ``K(q)``
(:func:`configuration_map`, ``dq/dt = K(q) v``); for ``nq == nv`` both are identities and are skipped.

A new primitive (a simulator step) is one more :class:`Primitive` in :data:`PRIMITIVES`:
its arguments, its static parameters (contact models and their settings, passed through untouched), result
shape, value and Jacobians (a step returning ``q_next`` sets ``configuration_output``); both bridges then need
one public function each that calls it by name.
"""

from __future__ import annotations

import copy
import threading
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import algorithms as alg
from . import batch
from .algorithms.jacobian import _model_columns, _model_hessian, _support_columns
from .joints.base import JointType
from .model import Model
from .model.constraints import RigidConstraintModel
from .spatial import ReferenceFrame

_free = {}  # id(model) -> (weak reference to the model, [Data not in use]); no threading.local: the callbacks
_lock = threading.Lock()  # run on threads that the frameworks create and tear down


@contextmanager
def _data(model: Model):
    """A :class:`Data` of ``model`` that no other thread uses until the block ends."""
    with _lock:
        entry = _free.get(id(model))
        if entry is None or entry[0]() is not model:
            entry = _free[id(model)] = (weakref.ref(model), [])
            weakref.finalize(model, _free.pop, id(model), None)  # the model's Data go with it
        data = entry[1].pop() if entry[1] else model.create_data()
    try:
        yield data
    finally:
        with _lock:
            entry[1].append(data)


@dataclass(frozen=True)
class Primitive:
    """One algorithm as a primitive: ``args`` (``"q"`` is the configuration, every other name a ``(nv,)``
    tangent vector), ``output`` (the result's name), ``shape(model)`` (the result's shape for one state),
    ``value(model, data, *x)`` on one state, ``value_batch(model, *X)`` on ``(B, n)`` stacks, and
    ``jacobians(model, data, *x)`` / ``jacobians_batch(model, *X)`` giving the result (as value does) and one
    Jacobian ``(size, nv)`` (``(B, size, nv)`` batched) per argument, in the tangent space; with
    ``configuration_output`` the result is a configuration ``(nq,)`` and the Jacobians' rows are ``nv`` tangent
    rows, mapped to ambient ones by :func:`configuration_map`. Parameters named in ``static`` (a frame id, a
    list of contact models) follow the arrays in every call, ``shape(model, *static)`` included."""

    name: str
    args: tuple
    output: str
    shape: Callable
    value: Callable
    value_batch: Callable
    jacobians: Callable
    jacobians_batch: Callable
    configuration_output: bool = False  # the result is a configuration: Jacobian rows in the tangent space
    static: tuple = ()  # names of parameters that are not differentiated (a frame id, contact models)

    def sizes(self, model: Model) -> tuple:
        """The length of each argument: ``nq`` for ``q``, ``nv`` otherwise."""
        return tuple(model.nq if a == "q" else model.nv for a in self.args)


def evaluate(p: Primitive, model: Model, *X: np.ndarray, static: tuple = ()) -> np.ndarray:
    """``p``'s result ``(B, *shape)`` for the stacked arguments ``X`` ``(B, n)`` each and the values of its
    static parameters."""
    if X[0].shape[0] == 1:
        with _data(model) as data:
            return np.array(p.value(model, data, *(x[0] for x in X), *static))[None]
    return np.asarray(p.value_batch(model, *X, *static))


def jacobians(p: Primitive, model: Model, *X: np.ndarray, static: tuple = (), ambient: bool = True) -> tuple:
    """``(value (B, *shape), J_1, ..., J_k)``: ``p``'s result and its Jacobian ``(B, size, n_i)`` with respect to
    each argument, the one of ``q`` in ambient coordinates (``J_q T(q)``, :func:`tangent_map`), or with
    ``ambient=False`` rbda's tangent ones (``nv`` columns, ``nv`` rows for a configuration result)."""
    B = X[0].shape[0]
    if B == 1:
        with _data(model) as data:
            y, *J = p.jacobians(model, data, *(x[0] for x in X), *static)
            y, J = np.array(y)[None], [np.array(j)[None] for j in J]
    else:
        y, *J = p.jacobians_batch(model, *X, *static)
    size = model.nv if p.configuration_output else int(np.prod(p.shape(model, *static)))
    J = [j.reshape(B, size, -1) for j in J]
    if model.nq != model.nv and ambient:
        if "q" in p.args:
            k = p.args.index("q")
            J[k] = J[k] @ tangent_map(model, X[k])
        if p.configuration_output:
            K = configuration_map(model, y)
            J = [K @ j for j in J]
    return (y, *J)


def rnea_second_order(model: Model, q: np.ndarray, v: np.ndarray, a: np.ndarray) -> tuple:
    """The four tensors of :func:`rbda.compute_rnea_second_order_derivatives` at one state (copies):
    ``(d2tau_dqdq, d2tau_dvdv, dtau_dqdv, dtau_dadq)`` ``(nv, nv, nv)``, page ``[:, :, k]`` the derivative of a
    first-order matrix along ``q_k`` or ``v_k``."""
    with _data(model) as data:
        return tuple(np.array(T) for T in alg.compute_rnea_second_order_derivatives(model, data, q, v, a))


def rnea_jacobian_derivatives(model: Model, q: np.ndarray, v: np.ndarray, a: np.ndarray) -> dict:
    """``{(i, j): T}``: the derivative of rnea's Jacobian with respect to argument ``i`` (0, 1, 2 for q, v, a)
    along argument ``j``, ``T[r, c, l] = d(dtau_r/dx_i,c)/dx_j,l`` ``(nv, nv, nv)``, for the nonzero pairs; the
    mixed partials that rbda does not store are read from the ones it does (Schwarz)::

        d(dtau/dq)/dq = d2tau_dqdq        d(dtau/dq)/dv = dtau_dqdv        d(dtau/dq)/da [r,c,l] = dM/dq [r,l,c]
        d(dtau/dv)/dq [r,c,l] = dtau_dqdv [r,l,c]      d(dtau/dv)/dv = d2tau_dvdv      d(dtau/da)/dq = dM/dq

    (``d(dtau/dv)/da`` and ``d(dtau/da)/d(v, a)`` are zero.) Derivatives with respect to ``q`` are in the
    tangent space, the ambient ones for a model whose joints all have ``nq == nv``."""
    qq, vv, qv, aq = rnea_second_order(model, q, v, a)
    return {(0, 0): qq, (0, 1): qv, (0, 2): aq.transpose(0, 2, 1), (1, 0): qv.transpose(0, 2, 1), (1, 1): vv,
            (2, 0): aq}


# ---------------------------------------------------------------------------- ambient and tangent coordinates
def _quaternion_rate(Q: np.ndarray) -> np.ndarray:
    """``(B, 4, 3)``: ``dq/dt = q (x) [w/2; 0]``, the rate of unit quaternions ``[x, y, z, w]`` turning at the
    local angular velocity ``w``: ``(w I + [q_v]x) w / 2`` and ``-q_v . w / 2``."""
    x, y, z, w = Q[:, 0], Q[:, 1], Q[:, 2], Q[:, 3]
    return 0.5 * np.stack([np.stack([w, -z, y], -1), np.stack([z, w, -x], -1),
                           np.stack([-y, x, w], -1), np.stack([-x, -y, -z], -1)], 1)


def _rotation(Q: np.ndarray) -> np.ndarray:
    """``(B, 3, 3)`` rotations of unit quaternions ``[x, y, z, w]``."""
    x, y, z, w = Q[:, 0], Q[:, 1], Q[:, 2], Q[:, 3]
    return np.stack([np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)], -1),
                     np.stack([2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)], -1),
                     np.stack([2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)], -1)], 1)


def _angle_rate(C: np.ndarray) -> np.ndarray:
    """``(B, 2, 1)``: ``d[c, s]/dt = [-s, c] w`` for unit pairs ``[c, s] = [cos t, sin t]``."""
    return np.stack([-C[:, 1], C[:, 0]], -1)[:, :, None]


def configuration_map(model: Model, Q: np.ndarray) -> np.ndarray:
    """``K(q) (B, nq, nv)``: the ambient rate ``dq/dt = K(q) v`` of configurations ``Q (B, nq)`` moving at the
    tangent velocity ``v``, i.e. ``d(q (+) v)/dv`` at ``v = 0``; block by block: identity for joints with
    ``nq == nv``, ``[R, 0; 0, q (x) [. / 2; 0]]`` for a free flyer (local velocity), the quaternion block for a
    spherical joint, ``[R2, 0; 0, (-s, c)]`` for a planar joint, ``(-s, c)`` for an unbounded revolute. Raises
    ``ValueError`` for another joint type whose ``nq != nv``."""
    K = np.zeros((Q.shape[0], model.nq, model.nv))
    for i in range(1, model.njoints):
        joint, iq, iv, nq, nv = model.joints[i], model.idx_q[i], model.idx_v[i], model.nqs[i], model.nvs[i]
        q, k = Q[:, iq:iq + nq], K[:, iq:iq + nq, iv:iv + nv]
        if nq == nv:
            k[:] = np.eye(nq)
        elif joint.type == JointType.FREE_FLYER:
            k[:, :3, :3] = _rotation(q[:, 3:])
            k[:, 3:, 3:] = _quaternion_rate(q[:, 3:])
        elif joint.type == JointType.SPHERICAL:
            k[:] = _quaternion_rate(q)
        elif joint.type == JointType.PLANAR:
            c, s = q[:, 2], q[:, 3]
            k[:, :2, :2] = np.stack([np.stack([c, -s], -1), np.stack([s, c], -1)], 1)
            k[:, 2:, 2:] = _angle_rate(q[:, 2:])
        elif joint.type == JointType.REVOLUTE_UNBOUNDED:
            k[:] = _angle_rate(q)
        else:
            raise ValueError(f"model: joint {i} ({joint.type.name}) has nq={nq} != nv={nv}; the bridges "
                             "differentiate q only for free-flyer, spherical, planar and unbounded revolute joints")
    return K


def tangent_map(model: Model, Q: np.ndarray) -> np.ndarray:
    """``T(q) (B, nv, nq)``: the tangent velocity ``v = T(q) dq/dt`` of configurations moving at the ambient rate
    ``dq/dt`` on the manifold, the left inverse ``(K^T K)^-1 K^T`` of :func:`configuration_map` (for a unit
    quaternion ``w = 2 vec(q* (x) dq/dt)``; a radial rate gives 0)."""
    K = configuration_map(model, Q)
    Kt = K.transpose(0, 2, 1)
    return np.linalg.solve(Kt @ K, Kt)


# ------------------------------------------------------------------------------- placements and their Jacobian
def _support_mask(model: Model) -> np.ndarray:
    """``(njoints, nv_extended)``: 1 in the columns of ``data.J`` (one per joint dof, mimic joints included) of the
    joints that support joint i (the columns of its Jacobian)."""
    idx_v, nvs = model.columns[:2]
    mask = np.zeros((model.njoints, model.nv_extended))
    for i in range(1, model.njoints):
        for j in model.supports[i][1:]:
            mask[i, idx_v[j]:idx_v[j] + nvs[j]] = 1.0
    return mask


LOCAL_WORLD_ALIGNED = ReferenceFrame.LOCAL_WORLD_ALIGNED
_EPS = np.zeros((3, 3, 3))  # Levi-Civita: (a x b)_i = eps_ijk a_j b_k
_EPS[0, 1, 2] = _EPS[1, 2, 0] = _EPS[2, 0, 1] = 1.0
_EPS[0, 2, 1] = _EPS[2, 1, 0] = _EPS[1, 0, 2] = -1.0


def placement_rate(P: np.ndarray, V: np.ndarray, W: np.ndarray) -> np.ndarray:
    """``(B, n, 3, 4, nv)``: the derivative of placements ``P (B, n, 3, 4)`` ``[R | p]`` whose origins move at the
    velocities ``V (B, n, 3, nv)`` while they turn at ``W (B, n, 3, nv)`` (column k each): ``dR = w_k x R``,
    ``dp = v_k``."""
    dP = np.empty(P.shape + (V.shape[-1],))
    dP[..., :3, :] = np.einsum("ijk,bnjs,bnkc->bnics", _EPS, W, P[..., :3])
    dP[..., 3, :] = V
    return dP


def placement_jacobian(P: np.ndarray, J: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """:func:`placement_rate` of placements ``P (B, n, 3, 4)`` (world frame), each attached to a joint whose
    support columns of the world Jacobian ``J (B, 6, nv)`` are ``mask (n, nv)``: column k moves the placement by
    the twist ``(v_k, w_k)`` at the world origin, so its origin at ``v_k + w_k x p``."""
    V = J[:, None, :3, :] * mask[None, :, None, :]  # (B, n, 3, nv)
    W = J[:, None, 3:, :] * mask[None, :, None, :]
    return placement_rate(P, V + np.einsum("ijk,bnjs,bnk->bnis", _EPS, W, P[..., 3]), W)


def _in_model_columns(jacobians):
    """``jacobians(model, *x)``, whose ``dP (..., nv_extended)`` runs over the columns of ``data.J`` (one per joint
    dof, mimic joints included), with ``dP`` in the model's dofs: ``dP G``, a mimic column added, scaled, to its
    mimicked dof's."""
    def run(model, *x):
        P, dP = jacobians(model, *x)
        if not model.mimicking_joints:
            return P, dP
        return P, _model_columns(model, np.arange(model.nv_extended), dP)
    return run


def _placements_jacobians(frames: bool) -> tuple:
    """``(one, batched)``: the joint placements (``frames`` False) or frame placements and their Jacobians, on
    one state and on a batch, from the world joint Jacobians."""
    def mask(model):
        support = _support_mask(model)
        return support[[f.parent_joint for f in model.frames]] if frames else support

    @_in_model_columns
    def one(model, data, q):
        J = alg.compute_joint_jacobians(model, data, q)
        if frames:
            alg.update_frame_placements(model, data)
        P = (data.oMf if frames else data.oMi).array
        return P, placement_jacobian(P[None], J[None], mask(model))[0]

    @_in_model_columns
    def batched(model, Q):
        P = (batch.frames_forward_kinematics if frames else batch.forward_kinematics)(model, Q)
        return P, placement_jacobian(P, batch.compute_joint_jacobians(model, Q), mask(model))

    return one, batched


def _joint_placements(model, data, q):
    alg.forward_kinematics(model, data, q)
    return data.oMi.array


def _frame_placements(model, data, q):
    alg.frames_forward_kinematics(model, data, q)
    return data.oMf.array


# -------------------------------------------------------------------------------------- the other primitives
def _rnea_jacobians(model, data, q, v, a):
    return (alg.rnea(model, data, q, v, a), *alg.compute_rnea_derivatives(model, data, q, v, a))


def _rnea_jacobians_batch(model, Q, V, A):
    return (batch.rnea(model, Q, V, A), *batch.compute_rnea_derivatives(model, Q, V, A))


def _aba_jacobians(model, data, q, v, tau):
    dq, dv, dtau = alg.compute_aba_derivatives(model, data, q, v, tau)
    return data.ddq, dq, dv, dtau


def _aba_jacobians_batch(model, Q, V, TAU):
    return (batch.aba(model, Q, V, TAU), *batch.compute_aba_derivatives(model, Q, V, TAU))


def _crba_jacobians(model, data, q):
    z = np.zeros(model.nv)
    dM_dq = alg.compute_rnea_second_order_derivatives(model, data, q, z, z)[3]  # dM_dq[:, :, k] = dM/dq_k
    return alg.crba(model, data, q), dM_dq


def _crba_jacobians_batch(model, Q):
    Z = np.zeros((Q.shape[0], model.nv))
    return batch.crba(model, Q), batch.compute_rnea_second_order_derivatives(model, Q, Z, Z)[3]


def _com_jacobians(model, data, q):
    Jcom = alg.jacobian_center_of_mass(model, data, q)
    return data.com[0], Jcom


def _com_jacobians_batch(model, Q):
    return batch.center_of_mass(model, Q), batch.jacobian_center_of_mass(model, Q)


def _frame_placement(model, data, q, frame_id):
    alg.frames_forward_kinematics(model, data, q)
    return data.oMf.array[frame_id]


def _frame_placement_batch(model, Q, frame_id):
    return batch.frames_forward_kinematics(model, Q)[:, frame_id]


def _frame_placement_jacobians(model, data, q, frame_id):
    J = alg.compute_frame_jacobian(model, data, q, frame_id, LOCAL_WORLD_ALIGNED)  # also sets data.oMf[frame_id]
    P = data.oMf.array[frame_id]
    return P, placement_rate(P[None, None], J[None, None, :3], J[None, None, 3:])[0, 0]


def _frame_placement_jacobians_batch(model, Q, frame_id):
    J = batch.compute_frame_jacobian(model, Q, frame_id, LOCAL_WORLD_ALIGNED)
    P = batch.frames_forward_kinematics(model, Q)[:, frame_id]
    return P, placement_rate(P[:, None], J[:, None, :3], J[:, None, 3:])[:, 0]


def reference_frame_index(reference_frame) -> int:
    """``reference_frame`` (a :class:`ReferenceFrame` or its int) as an int; ``ValueError`` naming it otherwise."""
    from .algorithms.kinematics import reference_frame_arg
    return int(reference_frame_arg(reference_frame))


def _cross_columns(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a x b`` over the first axis (3 rows), broadcast over the others."""
    return np.einsum("ijk,j...,k...->i...", _EPS, a, b)


def frame_jacobian_derivative(model: Model, data, frame_id: int, reference_frame: int) -> np.ndarray:
    """``dJ/dq (6, nv, nv)``, ``[:, j, k] = d J[:, j] / dq_k`` (tangent directions ``q (+) eps e_k``), of the
    Jacobian of frame ``frame_id`` in ``reference_frame`` (``get_frame_jacobian``), from the world kinematic
    Hessians ``H[:, j, k] = dJ_j/dq_k`` and ``data.J`` of :func:`rbda.compute_joint_kinematic_hessians` (called
    before). A column ``(v_j, w_j)`` at the world origin reads ``(v_j + w_j x p, w_j)`` at the frame's origin
    ``p`` (``LOCAL_WORLD_ALIGNED``) and ``R^T`` of that in ``LOCAL``; along ``q_k`` the origin moves at
    ``p_k = v_k + w_k x p`` and the frame turns at ``w_k``, so::

        d lwa_j = (dv_j + dw_j x p + w_j x p_k,  dw_j),     d local_j = R^T (d lwa_j - w_k x lwa_j)
    """
    f = model.frames[frame_id]
    cols = _support_columns(model, f.parent_joint)
    nx = model.nv_extended
    H = np.zeros((6, nx, nx))
    H[:, cols[:, None], cols[None, :]] = data.kinematic_hessians_extended[:, cols[:, None], cols[None, :]]
    if reference_frame != int(ReferenceFrame.WORLD):
        J = np.zeros((6, nx))
        J[:, cols] = data.J[:, cols]
        oM = data.oMi[f.parent_joint] * f.placement
        R, p = oM.rotation, oM.translation
        H[:3] += _cross_columns(H[3:], np.broadcast_to(p[:, None, None], (3, nx, nx)))
        p_k = J[:3] + _cross_columns(J[3:], np.broadcast_to(p[:, None], (3, nx)))  # (3, nx): origin's rate
        H[:3] += _cross_columns(J[3:, :, None], p_k[:, None, :])
        if reference_frame == int(ReferenceFrame.LOCAL):
            lwa = J.copy()
            lwa[:3] += _cross_columns(J[3:], np.broadcast_to(p[:, None], (3, nx)))
            for rows in (slice(0, 3), slice(3, 6)):
                H[rows] = np.einsum("ji,j...->i...", R, H[rows] - _cross_columns(J[3:, None, :], lwa[rows, :, None]))
    return _model_hessian(model, H)


def _frame_jacobian(model, data, q, frame_id, rf):
    return alg.compute_frame_jacobian(model, data, q, frame_id, rf)


def _frame_jacobian_batch(model, Q, frame_id, rf):
    return batch.compute_frame_jacobian(model, Q, frame_id, rf)


def _frame_jacobian_jacobians(model, data, q, frame_id, rf):
    alg.compute_joint_kinematic_hessians(model, data, q)
    return (alg.get_frame_jacobian(model, data, frame_id, rf),
            frame_jacobian_derivative(model, data, frame_id, rf).reshape(6 * model.nv, model.nv))


def _frame_jacobian_jacobians_batch(model, Q, frame_id, rf):
    """State by state: rbda has no batched kinematic Hessians."""
    with _data(model) as data:
        rows = [_frame_jacobian_jacobians(model, data, q, frame_id, rf) for q in Q]
    return tuple(np.array(r) for r in zip(*rows))


def _integrate(model, data, q, v):
    return alg.integrate(model, q, v)


def _integrate_jacobians(model, data, q, v):
    return (alg.integrate(model, q, v), *alg.d_integrate(model, q, v))


def _integrate_jacobians_batch(model, Q, V):
    return (batch.integrate(model, Q, V), *batch.d_integrate(model, Q, V))


PRIMITIVES = {p.name: p for p in (
    Primitive("rnea", ("q", "v", "a"), "tau", lambda m, *s: (m.nv,), alg.rnea, batch.rnea,
              _rnea_jacobians, _rnea_jacobians_batch),
    Primitive("aba", ("q", "v", "tau"), "ddq", lambda m, *s: (m.nv,), alg.aba, batch.aba,
              _aba_jacobians, _aba_jacobians_batch),
    Primitive("crba", ("q",), "M", lambda m, *s: (m.nv, m.nv), alg.crba, batch.crba,
              _crba_jacobians, _crba_jacobians_batch),
    Primitive("center_of_mass", ("q",), "com", lambda m, *s: (3,), alg.center_of_mass, batch.center_of_mass,
              _com_jacobians, _com_jacobians_batch),
    Primitive("forward_kinematics", ("q",), "oMi", lambda m, *s: (m.njoints, 3, 4), _joint_placements,
              batch.forward_kinematics, *_placements_jacobians(frames=False)),
    Primitive("frames_forward_kinematics", ("q",), "oMf", lambda m, *s: (m.nframes, 3, 4), _frame_placements,
              batch.frames_forward_kinematics, *_placements_jacobians(frames=True)),
    Primitive("frame_placement", ("q",), "oMf", lambda m, *s: (3, 4), _frame_placement, _frame_placement_batch,
              _frame_placement_jacobians, _frame_placement_jacobians_batch, static=("frame_id",)),
    Primitive("frame_jacobian", ("q",), "J", lambda m, *s: (6, m.nv), _frame_jacobian, _frame_jacobian_batch,
              _frame_jacobian_jacobians, _frame_jacobian_jacobians_batch, static=("frame_id", "reference_frame")),
    Primitive("integrate", ("q", "v"), "q_next", lambda m, *s: (m.nq,), _integrate, batch.integrate,
              _integrate_jacobians, _integrate_jacobians_batch, configuration_output=True),
)}


# ------------------------------------------------------------------------------------ constrained dynamics
def constraint_static(model: Model, contact_models, prox_settings) -> tuple:
    """The static parameters ``(contact models, prox_settings)`` of the constrained primitives, checked once:
    a tuple of :class:`RigidConstraintModel` of ``model`` and a :class:`ProximalSettings` (default ``mu = 0``).
    Raises ``ValueError``/``TypeError`` naming the argument (from ``rbda``'s own checks)."""
    from .algorithms.constrained import _settings, check_constraints
    if not isinstance(contact_models, (list, tuple)):
        got = type(contact_models).__name__
        raise TypeError(f"contact_models: expected a list of RigidConstraintModel, got {got}")
    contact_models = tuple(contact_models)
    for k, cm in enumerate(contact_models):
        if not isinstance(cm, RigidConstraintModel):
            raise TypeError(f"contact_models[{k}]: expected a RigidConstraintModel, got {type(cm).__name__}")
    check_constraints(model, contact_models, [cm.create_data() for cm in contact_models])
    return contact_models, _settings(prox_settings)


def _solve(model, data, q, v, tau, contact_models, settings):
    """``rbda.constraint_dynamics`` on fresh constraint datas and a copy of the settings (the callbacks run on
    several threads; the settings' iteration report is not kept); returns the constraint datas."""
    datas = [cm.create_data() for cm in contact_models]
    alg.constraint_dynamics(model, data, q, v, tau, list(contact_models), datas, copy.copy(settings))
    return datas


def _constrained_value(forces: bool):
    def one(model, data, q, v, tau, contact_models, settings):
        _solve(model, data, q, v, tau, contact_models, settings)
        return (data.lambda_c if forces else data.ddq).copy()

    def batched(model, Q, V, TAU, contact_models, settings):
        if model.mimicking_joints:  # one state after the other (as rbda.batch does for mimic models), one data
            with _data(model) as data:
                return np.array([one(model, data, *x, contact_models, settings) for x in zip(Q, V, TAU)])
        return batch.constraint_dynamics(model, Q, V, TAU, list(contact_models), copy.copy(settings))[forces]
    return one, batched


def _constrained_jacobians(forces: bool):
    """``(one, batched)``: ddq (or lambda) and its Jacobians from ``compute_constraint_dynamics_derivatives``,
    a batch from ``rbda.batch``'s twins (state by state for a model with mimic joints, which they refuse)."""
    def one(model, data, q, v, tau, contact_models, settings):
        datas = _solve(model, data, q, v, tau, contact_models, settings)
        d = alg.compute_constraint_dynamics_derivatives(model, data, list(contact_models), datas,
                                                        copy.copy(settings))
        y = (data.lambda_c if forces else data.ddq).copy()
        return (y, *(np.array(j) for j in (d[3:] if forces else d[:3])))

    def batched(model, Q, V, TAU, contact_models, settings):
        if not model.mimicking_joints:
            y = batch.constraint_dynamics(model, Q, V, TAU, list(contact_models), copy.copy(settings))[forces]
            d = batch.compute_constraint_dynamics_derivatives(model, Q, V, TAU, list(contact_models),
                                                              copy.copy(settings))
            return (y, *(d[3:] if forces else d[:3]))
        with _data(model) as data:
            rows = [one(model, data, *x, contact_models, settings) for x in zip(Q, V, TAU)]
        return tuple(np.array(r) for r in zip(*rows))
    return one, batched


def _constraint_size(model, contact_models, settings) -> tuple:
    return (sum(cm.size for cm in contact_models),)


PRIMITIVES.update({p.name: p for p in (
    Primitive("constraint_dynamics", ("q", "v", "tau"), "ddq", lambda m, *s: (m.nv,), *_constrained_value(False),
              *_constrained_jacobians(False), static=("contact_models", "prox_settings")),
    Primitive("constraint_forces", ("q", "v", "tau"), "lambda", _constraint_size, *_constrained_value(True),
              *_constrained_jacobians(True), static=("contact_models", "prox_settings")),
)})
