"""Compiled input checks run at the start of every kernel: workspace size, finite entries, unit-norm parts of
configurations. They return a status code that the Python entry turns into a named error
(``algorithms/_check.py``): 0 ok, ``1 + 2k`` argument k non-finite, 2 ``q`` off the manifold, 99 wrong data.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..joints.dispatch import COMPOSITE, joint_normalization_error
from ..model.layout import JointTables, data_views, model_views
from .mimic import expand_inputs, model_coordinates
from .._native.views import borrowed, view

NORMALIZATION_TOL = 1e-6
WRONG_DATA = 99
SINGULAR = 97  # the joint-space inertia (or an articulated block of it) is not positive definite
#: ``aba`` on a model with mimic joints, where ABA does not apply: the caller runs the kernel
#: ``forward_dynamics_through_factor`` instead (a kernel of its own, so that ABA does not compile RNEA, CRBA and M^-1)
NEEDS_FACTOR = 96


@njit(cache=True, refcount=False)
def all_finite(x):
    for k in range(x.shape[0]):
        if not np.isfinite(x[k]):
            return False
    return True


@njit(cache=True)
def configuration_status(m, q):
    """0 if the model's configuration ``q`` is finite and on the manifold, 1 if not finite, 2 if a unit-norm part
    is off by > 1e-6."""
    if not all_finite(q):
        return 1
    for i in range(1, m.nj):
        iq = m.idx_q[i]
        if m.nq_mimic:  # the model's coordinates; a mimic joint has none (a vector space, another joint's coordinate)
            iq, _, mimic = model_coordinates(m, i)
            if mimic:
                continue
        if m.types[i] == COMPOSITE:
            for s in range(m.sub_first[i], m.sub_first[i] + m.sub_count[i]):
                if joint_normalization_error(m.sub_types[s], q[iq : iq + m.sub_nqs[s]]) > NORMALIZATION_TOL:
                    return 2
                iq += m.sub_nqs[s]
        elif joint_normalization_error(m.types[i], q[iq : iq + m.nqs[i]]) > NORMALIZATION_TOL:
            return 2
    return 0


@njit(cache=True, forceinline=True)
def left_out(ws):
    """An input left out of :func:`begin`: empty, cut from the borrowed workspace (a slice of the kernel's own
    argument costs two atomic reference counts)."""
    return borrowed(ws)[:0]


@njit(cache=True, forceinline=True)
def begin(I, F, ws, q, v, a):
    """``(m, d, joints, status)``: model and data views, the joint tables of the per-joint step, and the status
    of the inputs; with mimic joints, the extended inputs in ``d.qx``, ``d.vx``, ``d.ax``. An input left out is
    passed empty (:func:`left_out`), never None: one compiled version of ``begin`` serves every kernel (each None
    pattern was a version of its own, about 3 s of compile each). The views are :func:`borrowed`: they live only
    during the kernel."""
    m = model_views(borrowed(I), borrowed(F))
    d, size = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)
    joints = JointTables(m.types, m.params, m.idx_q, m.idx_v, m.nqs, m.nvs, m.parents, m.placements, m.sub_first,
                         m.sub_count, m.sub_types, m.sub_nqs, m.sub_nvs, m.sub_params, m.sub_placements,
                         d.S, d.vJ, d.cJ, d.liMi, d.oMi, view(d.tmp, 0, (3, 4)))
    if size != ws.shape[0]:
        return m, d, joints, WRONG_DATA
    status = 0
    if q.shape[0]:
        status = configuration_status(m, q)
        if m.nq_mimic:  # mimic joints: the extended inputs d.qx, d.vx, d.ax (kernels/mimic.py)
            expand_inputs(m, q, v, a, d.qx, d.vx, d.ax)
    if status == 0 and not all_finite(v):
        status = 3
    if status == 0 and not all_finite(a):
        status = 5
    return m, d, joints, status

