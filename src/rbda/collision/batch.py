"""Batched distances and collision checks over many configurations, on every core (a run of chunks per thread,
``_native/threads.py``): the motion-planning use. Each thread runs forward kinematics, the geometry placements
and the pairs for its chunks of states (``first .. last - 1``), with no Python between states or pairs."""

from __future__ import annotations

import numpy as np
from .._native import threads
from .._native.jit import njit

from ..algorithms import _check
from ..kernels import kinematics
from ..model.layout import data_views, model_views
from ..model import data as _data
from . import pairs as _pairs
from .distance import DistanceRequest
from .geometry_data import pack_geometry


@njit(cache=True, nogil=True)
def _distances(I, F, WS, Q, types, params, ranges, vertices, graph_ranges, graph, parent_joints, placements, pairs,
               settings, OMG, OUT, STATUS, first, last):
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in range(first, last):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
        out, iterations = np.empty((3, 3)), np.zeros(2, dtype=np.int64)
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = kinematics.forward_kinematics_q(I, F, WS[c], Q[b])
            if STATUS[b] or _pairs.placements_status(d.oMi, parent_joints, placements, OMG[c]) >= 0:
                STATUS[b] = max(STATUS[b], -1)
                continue
            for p in range(pairs.shape[0]):
                OUT[b, p] = _pairs.pair_distance(types, params, ranges, vertices, graph_ranges, graph, OMG[c], pairs,
                                                 p, settings, out, iterations)


@njit(cache=True, nogil=True)
def _collisions(I, F, WS, Q, types, params, ranges, vertices, graph_ranges, graph, local_boxes, parent_joints,
                placements, pairs, pair_index, margin, settings, OMG, BOXES, CANDIDATE, DIST, COLLIDING, OUT, STATUS, first, last):
    nchunks, B = WS.shape[0], Q.shape[0]
    active = np.ones(pairs.shape[0], dtype=np.bool_)
    for c in range(first, last):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = kinematics.forward_kinematics_q(I, F, WS[c], Q[b])
            if STATUS[b] or _pairs.placements_status(d.oMi, parent_joints, placements, OMG[c]) >= 0:
                STATUS[b] = max(STATUS[b], -1)
                continue
            OUT[b] = _pairs.collisions(types, params, ranges, vertices, graph_ranges, graph, local_boxes, OMG[c],
                                       pairs, pair_index, active, margin, settings, True, BOXES[c], CANDIDATE[c],
                                       DIST[c], COLLIDING[c])


def _prepare(model, geom_model, Q, request):
    packed = pack_geometry(geom_model)
    if len(packed.nonconvex_pairs):
        k = packed.pairs[packed.nonconvex_pairs[0]]
        names = [geom_model.geometry_objects[i].name for i in k]
        raise ValueError(f"geom_model: collision pair {names} has a NonConvexMesh, which only coal handles; the "
                         "batched kernels take convex shapes (use compute_distances state by state)")
    Q = _check.states(Q, model.nq, "Q")
    B = Q.shape[0]
    nchunks = max(1, min(threads.thread_count(), B))
    WS = np.stack([_data.new_workspace(*_data.workspace_sizes(model)) for _ in range(nchunks)])  # mimic: qx too
    settings = np.array((request or DistanceRequest()).codes(), dtype=float)
    return packed, Q, B, nchunks, WS, settings, _check.report_states


def _raise(status, report, geom_model):
    bad = np.flatnonzero(status < 0)
    if bad.size and not np.flatnonzero(status > 0).size:
        raise ValueError(f"state {bad[0]}: a geometry placement oMg is not finite (NaN or inf in Q)")
    report(np.maximum(status, 0), ("Q",))


def _out(out, shape: tuple, dtype) -> np.ndarray:
    if out is None:
        return np.zeros(shape, dtype=dtype)
    if not (isinstance(out, np.ndarray) and out.shape == shape and out.dtype == dtype and out.flags.c_contiguous):
        raise ValueError(f"out: expected a C-contiguous {np.dtype(dtype).name} array of shape {shape}")
    return out


def compute_distances(model, geom_model, Q, request: DistanceRequest | None = None,
                      out: np.ndarray | None = None) -> np.ndarray:
    """Signed distances ``(B, npairs)`` of every collision pair of ``geom_model`` at each configuration
    ``Q[b]`` (``Q: (B, nq)``), computed on all cores (into ``out`` if given). Raises ``ValueError`` naming the
    first bad state."""
    packed, Q, B, nchunks, WS, settings, report = _prepare(model, geom_model, Q, request)
    I, F = model.packed
    ng, npairs = len(packed.parent_joints), len(packed.pairs)
    out, status = _out(out, (B, npairs), np.float64), np.zeros(B, dtype=np.int64)
    threads.run(_distances, (I, F, WS, Q, *packed.arrays, packed.parent_joints, packed.placements, packed.pairs,
                             settings, np.zeros((nchunks, ng, 3, 4)), out, status), threads.chunk_runs(nchunks))
    _raise(status, report, geom_model)
    return out


def compute_collisions(model, geom_model, Q, request: DistanceRequest | None = None,
                       security_margin: float = 0.0, out: np.ndarray | None = None) -> np.ndarray:
    """Whether any collision pair of ``geom_model`` collides (signed distance below ``security_margin``) at each
    configuration ``Q[b]`` (``Q: (B, nq)``): ``(B,)`` booleans (into ``out`` if given), computed on all cores,
    each state stopping at its first collision after a broad phase. Raises ``ValueError`` naming the first bad
    state."""
    packed, Q, B, nchunks, WS, settings, report = _prepare(model, geom_model, Q, request)
    I, F = model.packed
    ng, npairs = len(packed.parent_joints), len(packed.pairs)
    if not np.isfinite(security_margin):
        raise ValueError(f"security_margin: expected a finite number, got {security_margin!r}")
    out, status = _out(out, (B,), np.bool_), np.zeros(B, dtype=np.int64)
    threads.run(_collisions, (I, F, WS, Q, *packed.arrays, packed.local_boxes, packed.parent_joints, packed.placements,
                              packed.pairs, packed.pair_index, np.full(npairs, float(security_margin)), settings,
                              np.zeros((nchunks, ng, 3, 4)), np.zeros((nchunks, ng, 6)),
                              np.zeros((nchunks, npairs), dtype=bool), np.zeros((nchunks, npairs)),
                              np.zeros((nchunks, npairs), dtype=bool), out, status), threads.chunk_runs(nchunks))
    _raise(status, report, geom_model)
    return out
