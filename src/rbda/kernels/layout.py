"""Flat-array layout of a model's constants and of a data workspace, shared by Python and the kernels.

A :class:`~rbda.model.Model` packs into two arrays: ``I`` (int64: sizes, topology, type codes, index tables) and
``F`` (float64: gravity (6), armature (nv), joint placements (nj, 3, 4), body inertias (nj, 13) as
``(m, h, I_o)``, joint parameters (nj, NPARAMS), frame placements (nf, 3, 4)).
A :class:`~rbda.model.Data` owns one float64 workspace ``ws``. ``model_views`` and ``data_views`` cut these
buffers into named, shaped views (no copies) so that kernels read like the textbook: ``d.oMi[i]``, ``m.parents[i]``.
"""

from __future__ import annotations

from collections import namedtuple

from numba import njit

NPARAMS = 8  # float parameters per joint (joints/base.py)
HEADER = 4  # I[0:4] = njoints, nq, nv, nframes
JOINT_INTS = 6  # parent, type, idx_q, idx_v, nq, nv
JOINT_FLOATS = 12 + 13 + NPARAMS  # placement [R | p], inertia (m, h, I_o), params

ModelViews = namedtuple(
    "ModelViews",
    "nj nq nv nf parents types idx_q idx_v nqs nvs frame_parents gravity armature "
    "placements inertias params frame_placements",
)

DataViews = namedtuple(
    "DataViews",
    "liMi oMi oMf v a a_gf f ov oa oa_gf of vJ cJ S J dJ oYcrb oYaba "
    "M Minv C tau nle g ddq U UDinv Dinv u oc zeros tmp",
)


@njit(cache=True, inline="always")
def model_views(I, F):
    """Named views of the packed model arrays."""
    nj, nq, nv, nf = I[0], I[1], I[2], I[3]
    T = I[HEADER : HEADER + JOINT_INTS * nj].reshape(nj, JOINT_INTS)
    frame_parents = I[HEADER + JOINT_INTS * nj : HEADER + JOINT_INTS * nj + nf]
    o = 0
    gravity = F[o : o + 6]
    o += 6
    armature = F[o : o + nv]
    o += nv
    placements = F[o : o + 12 * nj].reshape(nj, 3, 4)
    o += 12 * nj
    inertias = F[o : o + 13 * nj].reshape(nj, 13)
    o += 13 * nj
    params = F[o : o + NPARAMS * nj].reshape(nj, NPARAMS)
    o += NPARAMS * nj
    frame_placements = F[o : o + 12 * nf].reshape(nf, 3, 4)
    return ModelViews(
        nj, nq, nv, nf, T[:, 0], T[:, 1], T[:, 2], T[:, 3], T[:, 4], T[:, 5], frame_parents, gravity, armature,
        placements, inertias, params, frame_placements,
    )


@njit(cache=True, inline="always")
def _take(ws, o, n):
    return ws[o : o + n], o + n


@njit(cache=True, inline="always")
def data_views(ws, nj, nv, nf):
    """Named views of a data workspace; also returns the number of floats used (to size ``ws``)."""
    o = 0
    liMi, o = _take(ws, o, 12 * nj)
    oMi, o = _take(ws, o, 12 * nj)
    oMf, o = _take(ws, o, 12 * nf)
    v, o = _take(ws, o, 6 * nj)
    a, o = _take(ws, o, 6 * nj)
    a_gf, o = _take(ws, o, 6 * nj)
    f, o = _take(ws, o, 6 * nj)
    ov, o = _take(ws, o, 6 * nj)
    oa, o = _take(ws, o, 6 * nj)
    oa_gf, o = _take(ws, o, 6 * nj)
    of, o = _take(ws, o, 6 * nj)
    vJ, o = _take(ws, o, 6 * nj)
    cJ, o = _take(ws, o, 6 * nj)
    S, o = _take(ws, o, 6 * nv)
    J, o = _take(ws, o, 6 * nv)
    dJ, o = _take(ws, o, 6 * nv)
    oYcrb, o = _take(ws, o, 13 * nj)
    oYaba, o = _take(ws, o, 36 * nj)
    M, o = _take(ws, o, nv * nv)
    Minv, o = _take(ws, o, nv * nv)
    C, o = _take(ws, o, nv * nv)
    tau, o = _take(ws, o, nv)
    nle, o = _take(ws, o, nv)
    g, o = _take(ws, o, nv)
    ddq, o = _take(ws, o, nv)
    U, o = _take(ws, o, 6 * nv)
    UDinv, o = _take(ws, o, 6 * nv)
    Dinv, o = _take(ws, o, 6 * nv)
    u, o = _take(ws, o, nv)
    oc, o = _take(ws, o, 6 * nj)
    zeros, o = _take(ws, o, nv)
    tmp, o = _take(ws, o, 6 * nv + 36)
    views = DataViews(
        liMi.reshape(nj, 3, 4), oMi.reshape(nj, 3, 4), oMf.reshape(nf, 3, 4),
        v.reshape(nj, 6), a.reshape(nj, 6), a_gf.reshape(nj, 6), f.reshape(nj, 6),
        ov.reshape(nj, 6), oa.reshape(nj, 6), oa_gf.reshape(nj, 6), of.reshape(nj, 6),
        vJ.reshape(nj, 6), cJ.reshape(nj, 6), S.reshape(nv, 6), J.reshape(nv, 6), dJ.reshape(nv, 6),
        oYcrb.reshape(nj, 13), oYaba.reshape(nj, 6, 6),
        M.reshape(nv, nv), Minv.reshape(nv, nv), C.reshape(nv, nv), tau, nle, g, ddq,
        U.reshape(nv, 6), UDinv.reshape(nv, 6), Dinv.reshape(nv, 6), u, oc.reshape(nj, 6), zeros, tmp,
    )
    return views, o


def data_size(nj: int, nv: int, nf: int) -> int:
    """Number of floats of a workspace for these sizes (measured on an oversized scratch buffer)."""
    import numpy as np

    bound = 16 * nv * nv + 256 * nj + 16 * nf + 64 * nv + 64
    return int(data_views(np.empty(bound), nj, nv, nf)[1])
