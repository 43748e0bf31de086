"""Analytical derivatives of inverse and forward dynamics (Carpentier & Mansard, RSS 2018; seed 002).

Derivatives with respect to ``q`` are taken in the tangent space, through ``integrate``: column ``k`` of
``dtau/dq`` is ``d/de tau(integrate(q, e e_k), v, a)`` at ``e = 0``, as Pinocchio's. The compiled kernels
(``kernels/derivatives.py``) need joints whose motion subspace is constant in their own frame; a model with
universal, spherical-ZYX or composite joints is evaluated on its *elementary twin*, the same tree with each such
joint split into a chain of one-axis joints (massless between them), which has the same q, v, dynamics and
tangent space.
"""

from __future__ import annotations

import numpy as np

from ..joints import JointModelRevoluteUnaligned, JointModelRX, JointModelRY, JointModelRZ, JointType
from ..kernels import derivatives as _k
from ..spatial import SE3
from ._check import report, vector
from .dynamics import _fext

_SPLIT = (JointType.UNIVERSAL, JointType.SPHERICAL_ZYX, JointType.COMPOSITE)


def _elementary_chain(joint, placement):
    """``[(joint, placement), ...]``: ``joint`` at ``placement`` as a chain of joints with constant subspaces."""
    if joint.type == JointType.UNIVERSAL:
        p = joint.params
        return [(JointModelRevoluteUnaligned(p[0:3]), placement), (JointModelRevoluteUnaligned(p[3:6]), SE3())]
    if joint.type == JointType.SPHERICAL_ZYX:
        return [(JointModelRZ(), placement), (JointModelRY(), SE3()), (JointModelRX(), SE3())]
    if joint.type == JointType.COMPOSITE:
        chain = []
        for k, (sub, P) in enumerate(zip(joint.joints, joint.placements)):
            chain += _elementary_chain(sub, placement * P if k == 0 else P)
        return chain
    return [(joint, placement)]


def elementary_model(model):
    """``(model_e, last)``: the elementary twin of ``model`` (``model`` itself when no joint needs splitting) and,
    per joint of ``model``, the id of the joint of ``model_e`` that carries its body. Cached until ``model``
    changes."""
    I = model.packed[0]
    cached = model.__dict__.get("_elementary")
    if cached is not None and cached[0] is I:
        me = cached[1]
        if me is not model:  # gravity and armature are edited in place, without repacking
            me.gravity.vector[:] = model.gravity.vector
            me.armature[:] = model.armature
        return me, cached[2]
    if not any(j is not None and j.type in _SPLIT for j in model.joints):
        result = (model, np.arange(model.njoints))
    else:
        from ..model import Model

        me = Model(model.name)
        last = [0]
        for i in range(1, model.njoints):
            parent = last[model.parents[i]]
            chain = _elementary_chain(model.joints[i], model.joint_placements[i])
            for k, (joint, placement) in enumerate(chain):
                name = model.names[i] if k == len(chain) - 1 else f"{model.names[i]}/{k}"
                parent = me.add_joint(parent, joint, placement, name)
            me.inertias[parent] = model.inertias[i]
            last.append(parent)
        me.armature = model.armature.copy()
        me.gravity = model.gravity
        result = (me, np.array(last))
    model.__dict__["_elementary"] = (I, *result)
    return result


def _workspaces(model, data):
    """``(I, F, ws, dws, elementary)``: the packed elementary model, its data workspace and the derivative
    workspace (kept on ``data``, whose attributes ``dtau_dq``, ``dtau_dv``, ``ddq_dq``, ``ddq_dv`` view it)."""
    me, last = elementary_model(model)
    I, F = me.packed
    ws = data.ws
    if me is not model:
        edata = data.__dict__.get("_elementary_data")
        if edata is None or edata.model_sizes != (me.njoints, me.nv, me.nframes):
            edata = data.__dict__["_elementary_data"] = me.create_data()
        ws = edata.ws
    dws = data.__dict__.get("_dws")
    if dws is None or dws.shape[0] != _k.derivative_size(me.njoints, me.nv):
        dws = data.__dict__["_dws"] = np.zeros(_k.derivative_size(me.njoints, me.nv))
        g = _k.derivative_views(dws, me.njoints, me.nv)[0]
        for name in ("dtau_dq", "dtau_dv", "ddq_dq", "ddq_dv"):
            setattr(data, name, getattr(g, name))
    return I, F, ws, dws, (me, last) if me is not model else None


def _copy_back(data, elementary, names):
    """After a kernel ran on the elementary twin: copy the results that share the dof layout into ``data``."""
    if elementary is None:
        return
    me, last = elementary
    edata = data.__dict__["_elementary_data"]
    for name in names:
        getattr(data, name)[...] = getattr(edata, name)
    data.oMi.array[:] = edata.oMi.array[last]


def _elementary_fext(model, fext, elementary):
    F = _fext(model, fext)
    if F is None or elementary is None:
        return F
    me, last = elementary
    Fe = np.zeros((me.njoints, 6))
    Fe[last] = F
    return Fe


def compute_rnea_derivatives(model, data, q, v, a, fext=None):
    """``(dtau_dq, dtau_dv, dtau_da)`` ``(nv, nv)`` each, the partial derivatives of ``rnea(q, v, a, fext)``;
    ``dtau_da = M``. Also fills ``data.tau``, ``data.M``, ``data.J`` and ``data.oMi``; the results are
    ``data.dtau_dq``, ``data.dtau_dv`` and ``data.M``."""
    I, F, ws, dws, elementary = _workspaces(model, data)
    q, v, a = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(a, model.nv, "a")
    status = _k.rnea_derivatives(I, F, ws, dws, q, v, a, _elementary_fext(model, fext, elementary))
    if status:
        report(status, ("q", "v", "a"))
    _copy_back(data, elementary, ("tau", "M", "J"))
    return data.dtau_dq, data.dtau_dv, data.M


def compute_generalized_gravity_derivatives(model, data, q) -> np.ndarray:
    """``dg/dq`` ``(nv, nv)``, the derivative of :func:`compute_generalized_gravity`."""
    z = np.zeros(model.nv)
    return compute_rnea_derivatives(model, data, q, z, z)[0]


def compute_static_torque_derivatives(model, data, q, fext) -> np.ndarray:
    """``d/dq (g(q) - sum J_i^T fext_i)`` ``(nv, nv)``, the derivative of :func:`compute_static_torque`
    (``fext`` fixed in the joint frames)."""
    z = np.zeros(model.nv)
    return compute_rnea_derivatives(model, data, q, z, z, fext)[0]


def compute_aba_derivatives(model, data, q, v, tau, fext=None):
    """``(ddq_dq, ddq_dv, ddq_dtau)`` ``(nv, nv)`` each, the partial derivatives of ``aba(q, v, tau, fext)``:
    ``dFD/dx = -M^-1 dID/dx`` at ``(q, v, FD(q, v, tau))``, and ``ddq_dtau = M^-1``. Also fills ``data.ddq``,
    ``data.M``, ``data.Minv``, ``data.dtau_dq``, ``data.dtau_dv``; the results are ``data.ddq_dq``,
    ``data.ddq_dv`` and ``data.Minv``."""
    I, F, ws, dws, elementary = _workspaces(model, data)
    q, v, tau = vector(q, model.nq, "q"), vector(v, model.nv, "v"), vector(tau, model.nv, "tau")
    status = _k.aba_derivatives(I, F, ws, dws, q, v, tau, _elementary_fext(model, fext, elementary))
    if status:
        report(status, ("q", "v", "tau"))
    _copy_back(data, elementary, ("ddq", "tau", "M", "Minv", "J"))
    return data.ddq_dq, data.ddq_dv, data.Minv
