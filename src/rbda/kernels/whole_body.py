"""The whole-body buffer and the small helpers its kernels share (``center_of_mass.py``, ``centroidal.py``,
``energy.py``, ``regressor.py``, ``sparse.py``).

The whole-body kernels use the data workspace ``ws`` (``model/layout.py``) for the kinematics and a second buffer
``wb`` for their own results, cut by :func:`rbda.model.layout.whole_body_views` (``Data`` keeps it next to ``ws``,
so the workspace layout that the other kernels share is unchanged):

* ``mass (nj,)``, ``com, vcom, acom (nj, 3)``: subtree masses, centres of mass, their velocities and (classical)
  accelerations, world frame; entry 0 is the whole model;
* ``Jcom (nv, 3)``, ``Ag, dAg (nv, 6)``: one row per dof (``data.Jcom``, ``data.Ag`` are the transposed views);
* ``Ig (6, 6)``, ``hg, dhg (6,)``: centroidal inertia, momentum and its rate, ``[linear; angular]`` about the
  CoM in world axes; ``energy (3,)``: kinetic, potential, mechanical;
* ``L (nv, nv)``, ``D, Dinv (nv,)``: the sparse factorisation ``M = L^T D L`` (``data.U = L^T``);
* ``dYcrb (nj, 13)``: rates of the composite inertias (world frame); ``scratch (16, 6)``.

Sums over bodies are taken in the world frame, where composite quantities add without transforms; each body's
mass-weighted CoM terms use ``h = m c`` directly (no division until the end).
"""

from __future__ import annotations

from .._native.jit import njit
from ..model.layout import whole_body_views
from .checks import WRONG_DATA, begin

@njit(cache=True, forceinline=True)
def begin_whole_body(I, F, ws, wb, q, v, a):
    """``(m, d, joints, w, status)``: :func:`~rbda.kernels.checks.begin` and the views ``w`` of the whole-body
    buffer ``wb``, whose size is checked too."""
    m, d, jt, status = begin(I, F, ws, q, v, a)
    w, size = whole_body_views(wb, m.nj, m.nv)
    if size != wb.shape[0]:
        status = WRONG_DATA
    return m, d, jt, w, status


@njit(cache=True, inline="always")
def cross3(a, b, out):
    o0, o1, o2 = a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]
    out[0], out[1], out[2] = o0, o1, o2


@njit(cache=True, inline="always")
def rotate(M, x, out):
    """``out = R x`` for the rotation of ``M = [R | p]``."""
    for r in range(3):
        out[r] = M[r, 0] * x[0] + M[r, 1] * x[1] + M[r, 2] * x[2]


@njit(cache=True, inline="always")
def rotate_inv(M, x, out):
    """``out = R^T x`` for the rotation of ``M = [R | p]`` (``out`` may be ``x``)."""
    o0 = M[0, 0] * x[0] + M[1, 0] * x[1] + M[2, 0] * x[2]
    o1 = M[0, 1] * x[0] + M[1, 1] * x[1] + M[2, 1] * x[2]
    o2 = M[0, 2] * x[0] + M[1, 2] * x[1] + M[2, 2] * x[2]
    out[0], out[1], out[2] = o0, o1, o2


@njit(cache=True, inline="always")
def shift_to_point(f, c, out):
    """``out`` = the force ``f`` (about the world origin) taken about the point ``c``: ``tau_c = tau_o - c x f``
    (``out`` may be ``f``)."""
    t0, t1, t2 = c[1] * f[2] - c[2] * f[1], c[2] * f[0] - c[0] * f[2], c[0] * f[1] - c[1] * f[0]
    out[0], out[1], out[2] = f[0], f[1], f[2]
    out[3], out[4], out[5] = f[3] - t0, f[4] - t1, f[5] - t2
