"""Compiled Coriolis matrix ``C(q, v)``, with ``C v = nle - g`` and ``dM/dt - 2 C`` skew-symmetric.

Body by body in the world frame, ``C = sum_i J_i^T (Y_i dJ_i + B_i J_i)``, with ``J_i`` the body's Jacobian (its
support columns), ``Y_i`` its world inertia and ``B_i = (ov_i x* Y_i - Y_i ov_i x + (Y_i ov_i) xbar) / 2``
(``(h xbar) m = m x* h``), so that ``B_i ov_i = ov_i x* Y_i ov_i`` and ``B_i + B_i^T = dY_i/dt``. The sums over
the bodies of a subtree are composite quantities ``Yc``, ``Bc``, summed from the leaves (one world frame, no
transforms): for a dof ``c`` of joint ``i`` and a dof ``r`` of ``i`` or of an ancestor ``j``,

    C[r, c] = J_r . (Yc_i dJ_c + Bc_i J_c),      C[c, r] = (Yc_i J_c) . dJ_r + (Bc_i^T J_c) . J_r   (j != i).

Constant motion subspaces are assumed (``dJ_c = ov_i x J_c``): a model with universal, spherical-ZYX or
composite joints runs this kernel on its elementary twin.
"""

from __future__ import annotations

from .._native.jit import njit

from ..spatial.compiled import add6x6, dot6, inertia_act, inertia_to_matrix, matvec6, matvec6_add, \
    matvec6_transpose, velocity_variation
from .derivatives import derivative_views
from .kinematics import jacobians_time_variation
from ..model.layout import data_views, model_views
from .mimic import compress_matrix
from .._native.views import borrowed


@njit(cache=True)
def coriolis_matrix(I, F, ws, dws, q, v):
    """``C(q, v)`` into ``d.C``; also fills ``oMi``, ``v``, ``ov``, ``J``, ``dJ``, ``oYcrb`` (``dws``: the composite
    ``Yc``, ``Bc`` as 6x6 matrices)."""
    status = jacobians_time_variation(I, F, ws, q, v)
    if status:
        return status
    m = model_views(borrowed(I), borrowed(F))
    d = data_views(borrowed(ws), m.nj, m.nv, m.nf, m.nq_mimic)[0]
    g = derivative_views(borrowed(dws), m.nj, m.nv)[0]
    Yc, Bc = g.Yo, g.Bc
    h, e, t, F1, F2, F3 = d.v6[0], d.v6[1], d.v6[2], d.v6[3], d.v6[4], d.v6[5]
    if m.nq_mimic:  # the compressed C of the last call overlaps entries that the loops below leave alone
        d.C[:, :] = 0.0
    for i in range(1, m.nj):  # Y_i and B_i in the world frame
        inertia_act(d.oMi[i], m.inertias[i], d.oYcrb[i])
        inertia_to_matrix(d.oYcrb[i], Yc[i])
        matvec6(Yc[i], d.ov[i], h)  # h = Y ov
        velocity_variation(Yc[i], d.ov[i], h, Bc[i], e, t)
        for r in range(6):
            for c in range(6):
                Bc[i, r, c] *= 0.5
    for i in range(m.nj - 1, 0, -1):
        for c in range(m.idx_v[i], m.idx_v[i] + m.nvs[i]):
            matvec6(Yc[i], d.dJ[c], F1)  # F1 = Yc dJ_c + Bc J_c
            matvec6_add(Bc[i], d.J[c], F1, False)
            matvec6(Yc[i], d.J[c], F2)  # F2 = Yc J_c
            matvec6_transpose(Bc[i], d.J[c], F3)  # F3 = Bc^T J_c
            j = i
            while j > 0:
                for r in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
                    d.C[r, c] = dot6(d.J[r], F1)
                    if j != i:
                        d.C[c, r] = dot6(F2, d.dJ[r]) + dot6(F3, d.J[r])
                j = m.parents[j]
        parent = m.parents[i]
        if parent > 0:  # composite sums
            add6x6(Yc[parent], Yc[i])
            add6x6(Bc[parent], Bc[i])
    compress_matrix(m, d.C)  # mimic joints: C = G^T C_ext G
    return 0
