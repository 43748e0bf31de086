"""Compiled kinetic, potential and mechanical energy (``data`` buffers: ``kernels/whole_body.py``).
"""

from __future__ import annotations

from .._native.jit import njit

from ..spatial.compiled import (
    dot6,
    inertia_apply,
)
from .kinematics import body_velocity, calc_joint
from .mimic import extended
from .whole_body import begin_whole_body, rotate


@njit(cache=True)
def energy(I, F, ws, wb, q, v):
    """Potential energy ``-g . sum m_i c_i`` and, if ``v`` is not empty, kinetic energy
    ``1/2 sum v_i . Y_i v_i + 1/2 sum armature v^2`` (= ``1/2 v^T M v``) into ``energy``."""
    m, d, jt, w, status = begin_whole_body(I, F, ws, wb, q, v, ws[:0])
    if status:
        return status
    v_model = v
    q, v = extended(m, q, d.qx), extended(m, v, d.vx)
    Yv, mc = w.scratch[0], w.scratch[1]
    kinetic = potential = 0.0
    for i in range(1, m.nj):
        Y = m.inertias[i]
        if v.shape[0] == 0:
            calc_joint(jt, i, q, d.zeros)
        else:
            calc_joint(jt, i, q, v)
            body_velocity(d.liMi[i], d.v[m.parents[i]], d.vJ[i], d.v[i])
            inertia_apply(Y, d.v[i], Yv)
            kinetic += 0.5 * dot6(d.v[i], Yv)
        rotate(d.oMi[i], Y[1:4], mc)
        for k in range(3):
            potential -= m.gravity[k] * (mc[k] + Y[0] * d.oMi[i, k, 3])
    if v.shape[0] > 0:
        for k in range(m.nv_red):  # the model's dofs (with mimic joints too)
            kinetic += 0.5 * m.armature_red[k] * v_model[k] * v_model[k]
    w.energy[0], w.energy[1], w.energy[2] = kinetic, potential, kinetic + potential
    return 0
