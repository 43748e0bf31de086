"""Flat-array layout of a model's constants and of a data workspace, shared by Python and the kernels.

A :class:`~rbda.model.Model` packs into two arrays: ``I`` (int64: sizes, topology, type codes, index tables, the
sub-joint table of composite joints, and the expanded parent array ``dof_parents`` (nv) of the model's ``M``) and
``F`` (float64: gravity (6), armature (nv), joint placements (nj, 3, 4), body inertias (nj, 13) as
``(m, h, I_o)``, joint parameters (nj, NPARAMS), frame placements (nf, 3, 4), then the sub-joints of composite
joints: placements (nsub, 3, 4) and parameters (nsub, NPARAMS)).
A :class:`~rbda.model.Data` owns one float64 workspace ``ws`` and the whole-body buffer ``wb``
(:func:`whole_body_views`, filled by the kernels of ``kernels/whole_body.py``). ``model_views`` and
``data_views`` cut these buffers into named, shaped views (no copies) so that kernels read like the textbook:
``d.oMi[i]``, ``m.parents[i]``.

These and the other helpers of the per-joint step are ``forceinline`` (LLVM ``alwaysinline``): compiled once and
inlined in machine code. numba's ``inline="always"`` types them again at every call site; it took about 2/3 of
each kernel's compile time, for the same run time.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._native.jit import njit
from ..joints.base import NPARAMS
from .._native.views import in_python, view

HEADER = 7  # I[0:7] = njoints, nq, nv, nframes, nsub (rows of the composite joints' sub-joint table), nq_red, nv_red
JOINT_INTS = 8  # parent, type, idx_q, idx_v, nq, nv, first sub-joint row, number of sub-joints
SUB_INTS = 3  # per sub-joint of a composite joint: type, nq, nv
JOINT_FLOATS = 12 + 13 + NPARAMS  # placement [R | p], inertia (m, h, I_o), params

ModelViews = namedtuple(
    "ModelViews",
    "nj nq nv nf parents types idx_q idx_v nqs nvs frame_parents gravity armature "
    "placements inertias params frame_placements sub_first sub_count sub_types sub_nqs sub_nvs "
    "sub_placements sub_params dof_parents nq_red nv_red nq_mimic q_src q_scale q_offset v_col v_scale v_keep "
    "armature_red",
)

#: what the per-joint step needs, kept small: numba copies a tuple argument into every inlined helper, and a
#: helper taking the full ModelViews/DataViews made each joint 2.5x slower
JointTables = namedtuple(
    "JointTables",
    "types params idx_q idx_v nqs nvs parents placements sub_first sub_count sub_types sub_nqs sub_nvs sub_params "
    "sub_placements S vJ cJ liMi oMi MJ",
)

DataViews = namedtuple(
    "DataViews",
    "liMi oMi oMf v a a_gf f ov oa oa_gf of vJ cJ S J dJ oYcrb oYaba "
    "M Minv C D Dinv tau nle g ddq U UDinv u oc zeros tmp v6 y13 qx vx ax",
)


@njit(cache=True, forceinline=True)
def model_views(I, F):
    """Named views of the packed model arrays."""
    nj, nq, nv, nf, ns = I[0], I[1], I[2], I[3], I[4]
    T = view(I, HEADER, (nj, JOINT_INTS))
    frame_parents = I[HEADER + JOINT_INTS * nj : HEADER + JOINT_INTS * nj + nf]
    sub = view(I, HEADER + JOINT_INTS * nj + nf, (ns, SUB_INTS))
    nv_red = I[6]  # the factor of M is of the model's M: with mimic joints a chain of nv_red dofs
    dof_parents = I[HEADER + JOINT_INTS * nj + nf + SUB_INTS * ns : HEADER + JOINT_INTS * nj + nf + SUB_INTS * ns + nv_red]
    o = 6 + nv
    fs = o + JOINT_FLOATS * nj + 12 * nf  # sub-joint floats
    # mimic joints: the recursion runs over nq, nv coordinates, one per joint dof (Pinocchio's nvExtended); the
    # model's own q, v have nq_red, nv_red entries: q_ext[k] = q[q_src[k]] q_scale[k] + q_offset[k],
    # v_ext[k] = v[v_col[k]] v_scale[k], and v_keep[j] is the extended column of the model's dof j
    nq_red = I[5]
    nqm = nq if nv_red < nv else 0  # the tables below are empty without mimic joints
    nvm = nv if nv_red < nv else 0
    mi = HEADER + JOINT_INTS * nj + nf + SUB_INTS * ns + nv
    mf = fs + (12 + NPARAMS) * ns
    nkeep = nv_red if nqm else 0
    armature_red = F[6:o]
    if nqm:
        armature_red = view(F, mf + 2 * nqm + nvm, (nv_red,))
    return ModelViews(
        nj, nq, nv, nf, T[:, 0], T[:, 1], T[:, 2], T[:, 3], T[:, 4], T[:, 5], frame_parents, F[0:6], F[6:o],
        view(F, o, (nj, 3, 4)), view(F, o + 12 * nj, (nj, 13)), view(F, o + 25 * nj, (nj, NPARAMS)),
        view(F, o + JOINT_FLOATS * nj, (nf, 3, 4)), T[:, 6], T[:, 7], sub[:, 0], sub[:, 1], sub[:, 2],
        view(F, fs, (ns, 3, 4)), view(F, fs + 12 * ns, (ns, NPARAMS)), dof_parents, nq_red, nv_red, nqm,
        I[mi : mi + nqm], view(F, mf, (nqm,)), view(F, mf + nqm, (nqm,)), I[mi + nqm : mi + nqm + nvm],
        view(F, mf + 2 * nqm, (nvm,)), I[mi + nqm + nvm : mi + nqm + nvm + nkeep], armature_red,
    )


@njit(cache=True, forceinline=True)
def data_views(ws, nj, nv, nf, nq_mimic):
    """Named views of a data workspace, and the number of floats they span (to size and check ``ws``).
    ``nq_mimic`` (``ModelViews.nq_mimic``): with mimic joints, the size of the extended configuration ``qx``,
    which the kernels fill with ``vx``, ``ax`` from the model's ``q``, ``v``, ``a`` (none without)."""
    o = 0
    liMi = view(ws, o, (nj, 3, 4))
    o += 12 * nj
    oMi = view(ws, o, (nj, 3, 4))
    o += 12 * nj
    oMf = view(ws, o, (nf, 3, 4))
    o += 12 * nf
    # per joint: v a a_gf f ov oa oa_gf of vJ cJ oc, (nj, 6) each
    v = view(ws, o, (nj, 6))
    a = view(ws, o + 6 * nj, (nj, 6))
    a_gf = view(ws, o + 12 * nj, (nj, 6))
    f = view(ws, o + 18 * nj, (nj, 6))
    ov = view(ws, o + 24 * nj, (nj, 6))
    oa = view(ws, o + 30 * nj, (nj, 6))
    oa_gf = view(ws, o + 36 * nj, (nj, 6))
    of = view(ws, o + 42 * nj, (nj, 6))
    vJ = view(ws, o + 48 * nj, (nj, 6))
    cJ = view(ws, o + 54 * nj, (nj, 6))
    oc = view(ws, o + 60 * nj, (nj, 6))
    o += 66 * nj
    oYcrb = view(ws, o, (nj, 13))
    o += 13 * nj
    oYaba = view(ws, o, (nj, 6, 6))
    o += 36 * nj
    S = view(ws, o, (nv, 6))  # per dof: S J dJ U UDinv, (nv, 6) each
    J = view(ws, o + 6 * nv, (nv, 6))
    dJ = view(ws, o + 12 * nv, (nv, 6))
    U = view(ws, o + 18 * nv, (nv, 6))
    UDinv = view(ws, o + 24 * nv, (nv, 6))
    o += 30 * nv
    M = view(ws, o, (nv, nv))
    Minv = view(ws, o + nv * nv, (nv, nv))
    C = view(ws, o + 2 * nv * nv, (nv, nv))
    D = view(ws, o + 3 * nv * nv, (nv, nv))  # ABA's joint-space blocks D_i = S_i^T U_i on the diagonal
    Dinv = view(ws, o + 4 * nv * nv, (nv, nv))
    o += 5 * nv * nv
    tau, nle, g, ddq, u, zeros = ws[o : o + nv], ws[o + nv : o + 2 * nv], ws[o + 2 * nv : o + 3 * nv], \
        ws[o + 3 * nv : o + 4 * nv], ws[o + 4 * nv : o + 5 * nv], ws[o + 5 * nv : o + 6 * nv]
    o += 6 * nv
    tmp = ws[o : o + 6 * nv + 128]  # scratch: [0:12] the joint's placement M_J, then the named views below
    v6 = view(ws, o + 12, (16, 6))  # sixteen 6-vectors of scratch for the kernels' local spatial vectors
    y13 = view(ws, o + 108, (13,))  # one inertia as a 10-vector (m, h, I_o) and 3 spare entries
    o += 6 * nv + 128
    nvx = nv if nq_mimic else 0
    qx, vx, ax = view(ws, o, (nq_mimic,)), view(ws, o + nq_mimic, (nvx,)), view(ws, o + nq_mimic + nvx, (nvx,))
    o += nq_mimic + 2 * nvx
    views = DataViews(liMi, oMi, oMf, v, a, a_gf, f, ov, oa, oa_gf, of, vJ, cJ, S, J, dJ, oYcrb, oYaba,
                      M, Minv, C, D, Dinv, tau, nle, g, ddq, U, UDinv, u, oc, zeros, tmp, v6, y13, qx, vx, ax)
    return views, o


data_views_py = in_python(data_views)
model_views_py = in_python(model_views)


def data_size(nj: int, nv: int, nf: int, nq_mimic: int = 0) -> int:
    """Number of floats of a workspace for these sizes (``data_views`` on a scratch buffer counts them)."""
    bound = 6 * nv * nv + 200 * nj + 12 * nf + 64 * nv + 256 + nq_mimic + 2 * nv
    return int(data_views_py(np.empty(bound), nj, nv, nf, nq_mimic)[1])


# ------------------------------------------------------------------ the whole-body buffer (kernels/whole_body.py)
WholeBodyViews = namedtuple("WholeBodyViews", "mass com vcom acom Jcom Ag dAg Ig hg dhg energy L D Dinv dYcrb scratch")


@njit(cache=True, inline="always")
def whole_body_views(wb, nj, nv):
    """Named views of a whole-body buffer, and the number of floats they span."""
    mass = wb[0:nj]
    o = nj
    com, vcom, acom = view(wb, o, (nj, 3)), view(wb, o + 3 * nj, (nj, 3)), view(wb, o + 6 * nj, (nj, 3))
    o += 9 * nj
    Jcom = view(wb, o, (nv, 3))
    o += 3 * nv
    Ag, dAg = view(wb, o, (nv, 6)), view(wb, o + 6 * nv, (nv, 6))
    o += 12 * nv
    Ig = view(wb, o, (6, 6))
    o += 36
    hg, dhg, energy = wb[o : o + 6], wb[o + 6 : o + 12], wb[o + 12 : o + 15]
    o += 15
    L = view(wb, o, (nv, nv))
    o += nv * nv
    D, Dinv = wb[o : o + nv], wb[o + nv : o + 2 * nv]
    o += 2 * nv
    dYcrb = view(wb, o, (nj, 13))
    o += 13 * nj
    scratch = view(wb, o, (16, 6))
    o += 96
    return WholeBodyViews(mass, com, vcom, acom, Jcom, Ag, dAg, Ig, hg, dhg, energy, L, D, Dinv, dYcrb, scratch), o


@njit(cache=True)
def whole_body_size(nj, nv):
    """Number of floats of a whole-body buffer for these sizes (the views of a scratch buffer count them)."""
    return whole_body_views(np.empty(23 * nj + nv * nv + 17 * nv + 147), nj, nv)[1]


whole_body_views_py = in_python(whole_body_views)
whole_body_size_py = in_python(whole_body_size, whole_body_views=whole_body_views_py)
