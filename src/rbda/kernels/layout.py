"""Flat-array layout of a model's constants and of a data workspace, shared by Python and the kernels.

A :class:`~rbda.model.Model` packs into two arrays: ``I`` (int64: sizes, topology, type codes, index tables, the
sub-joint table of composite joints, and the expanded parent array ``dof_parents`` (nv)) and
``F`` (float64: gravity (6), armature (nv), joint placements (nj, 3, 4), body inertias (nj, 13) as
``(m, h, I_o)``, joint parameters (nj, NPARAMS), frame placements (nf, 3, 4), then the sub-joints of composite
joints: placements (nsub, 3, 4) and parameters (nsub, NPARAMS)).
A :class:`~rbda.model.Data` owns one float64 workspace ``ws``. ``model_views`` and ``data_views`` cut these
buffers into named, shaped views (no copies) so that kernels read like the textbook: ``d.oMi[i]``, ``m.parents[i]``.

These and the other helpers of the per-joint step are ``forceinline`` (LLVM ``alwaysinline``): compiled once and
inlined in machine code. numba's ``inline="always"`` types them again at every call site; it took about 2/3 of
each kernel's compile time (measured: compute_joint_jacobians 4.3 s -> 1.4 s, same run time).
"""

from __future__ import annotations

from collections import namedtuple

from numba import njit

from ..joints.base import NPARAMS
from .views import in_python, view

HEADER = 5  # I[0:5] = njoints, nq, nv, nframes, nsub (rows of the composite joints' sub-joint table)
JOINT_INTS = 8  # parent, type, idx_q, idx_v, nq, nv, first sub-joint row, number of sub-joints
SUB_INTS = 3  # per sub-joint of a composite joint: type, nq, nv
JOINT_FLOATS = 12 + 13 + NPARAMS  # placement [R | p], inertia (m, h, I_o), params

ModelViews = namedtuple(
    "ModelViews",
    "nj nq nv nf parents types idx_q idx_v nqs nvs frame_parents gravity armature "
    "placements inertias params frame_placements sub_first sub_count sub_types sub_nqs sub_nvs "
    "sub_placements sub_params dof_parents",
)

#: what the per-joint step needs, kept small: numba copies a tuple argument into every inlined helper, and a
#: helper taking the full ModelViews/DataViews made each joint 2.5x slower (measured on the humanoid)
JointTables = namedtuple(
    "JointTables",
    "types params idx_q idx_v nqs nvs parents placements sub_first sub_count sub_types sub_nqs sub_nvs sub_params "
    "sub_placements S vJ cJ liMi oMi MJ",
)

DataViews = namedtuple(
    "DataViews",
    "liMi oMi oMf v a a_gf f ov oa oa_gf of vJ cJ S J dJ oYcrb oYaba "
    "M Minv C D Dinv tau nle g ddq U UDinv u oc zeros tmp v6 y13",
)


@njit(cache=True, forceinline=True)
def model_views(I, F):
    """Named views of the packed model arrays."""
    nj, nq, nv, nf, ns = I[0], I[1], I[2], I[3], I[4]
    T = view(I, HEADER, (nj, JOINT_INTS))
    frame_parents = I[HEADER + JOINT_INTS * nj : HEADER + JOINT_INTS * nj + nf]
    sub = view(I, HEADER + JOINT_INTS * nj + nf, (ns, SUB_INTS))
    dof_parents = I[HEADER + JOINT_INTS * nj + nf + SUB_INTS * ns : HEADER + JOINT_INTS * nj + nf + SUB_INTS * ns + nv]
    o = 6 + nv
    fs = o + JOINT_FLOATS * nj + 12 * nf  # sub-joint floats
    return ModelViews(
        nj, nq, nv, nf, T[:, 0], T[:, 1], T[:, 2], T[:, 3], T[:, 4], T[:, 5], frame_parents, F[0:6], F[6:o],
        view(F, o, (nj, 3, 4)), view(F, o + 12 * nj, (nj, 13)), view(F, o + 25 * nj, (nj, NPARAMS)),
        view(F, o + JOINT_FLOATS * nj, (nf, 3, 4)), T[:, 6], T[:, 7], sub[:, 0], sub[:, 1], sub[:, 2],
        view(F, fs, (ns, 3, 4)), view(F, fs + 12 * ns, (ns, NPARAMS)), dof_parents,
    )


@njit(cache=True, forceinline=True)
def data_views(ws, nj, nv, nf):
    """Named views of a data workspace, and the number of floats they span (to size and check ``ws``)."""
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
    views = DataViews(liMi, oMi, oMf, v, a, a_gf, f, ov, oa, oa_gf, of, vJ, cJ, S, J, dJ, oYcrb, oYaba,
                      M, Minv, C, D, Dinv, tau, nle, g, ddq, U, UDinv, u, oc, zeros, tmp, v6, y13)
    return views, o


data_views_py = in_python(data_views)


def data_size(nj: int, nv: int, nf: int) -> int:
    """Number of floats of a workspace for these sizes (``data_views`` on a scratch buffer counts them)."""
    import numpy as np

    bound = 6 * nv * nv + 200 * nj + 12 * nf + 64 * nv + 256
    return int(data_views_py(np.empty(bound), nj, nv, nf)[1])
