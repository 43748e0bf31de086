"""Mimic joints inside the kernels, as in Pinocchio 4: the recursion runs over one column per joint dof
(``nv_extended``, ``m.nv``), a mimic joint reading its mimicked joint's coordinate scaled,

    q_ext = q[q_src] q_scale + q_offset,    v_ext = G v  (v_ext[k] = v[v_col[k]] v_scale[k]),

and what a mimic column contributes to a per-dof result accumulates onto the mimicked dof by the chain rule:

    tau = G^T tau_ext  (rows),    J = J_ext G  (columns),    M = G^T M_ext G  (both).

``begin`` (``checks.py``) expands the inputs into the workspace's ``qx``, ``vx``, ``ax``; a kernel reads them
through :func:`extended`, and its epilogue compresses its per-dof outputs in place (:func:`compress_axis`, once
per dof axis): the model's ``nv`` entries are left in front of each buffer (a joint-space matrix as a
C-contiguous ``(nv, nv)`` block in the first ``nv * nv`` entries, a second-order tensor as ``(nv, nv, nv)``). Without mimic joints (``m.nq_mimic == 0``) each helper is one comparison.
"""

from __future__ import annotations

from .._native.jit import njit


@njit(cache=True, inline="always")
def extended(m, x, expanded):
    """The input the recursion reads: ``expanded`` (filled by ``begin``) with mimic joints, ``x`` without (or
    when ``x`` is empty: an input left out)."""
    return expanded if m.nq_mimic and x.shape[0] else x


@njit(cache=True, inline="always")
def model_coordinates(m, i):
    """``(iq, iv, mimic)``: where joint ``i``'s coordinates start in the model's ``q`` and ``v``, and whether it is
    a mimic joint (it has none of its own; the configuration kernels skip it)."""
    iq, iv = m.idx_q[i], m.idx_v[i]
    if m.nq_mimic:
        return m.q_src[iq], m.v_col[iv], m.v_keep[m.v_col[iv]] != iv
    return iq, iv, False


@njit(cache=True, inline="always")
def expand_inputs(m, q, v, a, qx, vx, ax):
    """``qx = E(q)``, ``vx = G v``, ``ax = G a`` (``v``, ``a`` may be empty: left out)."""
    for k in range(m.nq_mimic):
        qx[k] = q[m.q_src[k]] * m.q_scale[k] + m.q_offset[k]
    if v.shape[0]:
        for k in range(vx.shape[0]):
            vx[k] = v[m.v_col[k]] * m.v_scale[k]
    if a.shape[0]:
        for k in range(ax.shape[0]):
            ax[k] = a[m.v_col[k]] * m.v_scale[k]


@njit(cache=True, inline="always")
def compress_axis(m, x, outer, inner):
    """``G^T`` along the middle axis of ``x[: outer * nv_extended * inner]`` read as ``(outer, nv_extended,
    inner)``, in place: each mimic slice is added, scaled, onto its mimicked dof's slice, then the model's slices
    move to the front, leaving ``(outer, nv_red, inner)`` C-contiguous in the first entries of ``x`` (flat)."""
    n, nr = m.nv, m.nv_red
    for o in range(outer):
        for k in range(n):
            e = m.v_keep[m.v_col[k]]
            if e != k:  # a mimic column: onto its mimicked dof's
                s, src, dst = m.v_scale[k], (o * n + k) * inner, (o * n + e) * inner
                for b in range(inner):
                    x[dst + b] += s * x[src + b]
    for o in range(outer):  # entry (o, j, b) moves from (o n + v_keep[j]) inner + b >= (o nr + j) inner + b:
        for j in range(nr):  # the reads stay ahead of the writes
            src, dst = (o * n + m.v_keep[j]) * inner, (o * nr + j) * inner
            for b in range(inner):
                x[dst + b] = x[src + b]


@njit(cache=True, inline="always")
def compress_rows(m, X):
    """``X[:nv_red] = G^T X`` for ``X`` ``(nv_extended, w)`` (one row per extended column), in place."""
    if m.nq_mimic:
        compress_axis(m, X.reshape(X.size), 1, X.shape[1])


@njit(cache=True, inline="always")
def compress_vector(m, x):
    """``x[:nv_red] = G^T x`` in place, for ``x`` ``(nv_extended,)``."""
    if m.nq_mimic:
        compress_axis(m, x, 1, 1)


@njit(cache=True, inline="always")
def compress_columns(m, X):
    """``X G`` ``(w, nv_red)``, C-contiguous, into the first entries of ``X`` ``(w, nv_extended)``, in place."""
    if m.nq_mimic:
        compress_axis(m, X.reshape(X.size), X.shape[0], 1)


@njit(cache=True, inline="always")
def compress_matrix(m, X):
    """``G^T X G`` ``(nv_red, nv_red)``, C-contiguous, into the first ``nv_red^2`` entries of ``X``
    ``(nv_extended, nv_extended)``, in place."""
    if m.nq_mimic:
        flat, n = X.reshape(X.size), m.nv
        compress_axis(m, flat, n, 1)  # columns: (n, nr)
        compress_axis(m, flat, 1, m.nv_red)  # rows: (nr, nr)


@njit(cache=True, inline="always")
def compress_tensor(m, T):
    """``T`` ``(nv_extended,) * 3`` compressed on each dof axis (``T_ijk G_ia G_jb G_kc``), ``(nv_red,) * 3``
    C-contiguous in its first entries, in place."""
    if m.nq_mimic:
        flat, n, nr = T.reshape(T.size), m.nv, m.nv_red
        compress_axis(m, flat, n * n, 1)
        compress_axis(m, flat, n, nr)
        compress_axis(m, flat, 1, nr * nr)


@njit(cache=True, inline="always")
def compress_hessian(m, H, out):
    """``out[x, i, j] = sum_ab H[x, a, b] G_ai G_bj`` ``(6, nv_red, nv_red)`` from ``H`` ``(6, nv_extended,
    nv_extended)`` (``H`` is ``out`` itself without mimic joints: nothing to do)."""
    if not m.nq_mimic:
        return
    out[:, :, :] = 0.0
    for a in range(m.nv):
        for b in range(m.nv):
            s, i, j = m.v_scale[a] * m.v_scale[b], m.v_col[a], m.v_col[b]
            for x in range(6):
                out[x, i, j] += s * H[x, a, b]


@njit(cache=True, inline="always")
def add_armature(m, a, tau):
    """``tau += armature a`` on the model's dofs (with mimic joints the armature acts after the accumulation;
    without, the recursion adds it)."""
    if m.nq_mimic:
        for j in range(m.nv_red):
            tau[j] += m.armature_red[j] * a[j]


@njit(cache=True, inline="always")
def add_armature_diagonal(m, M):
    """``M += diag(armature)`` for the compressed ``(nv_red, nv_red)`` block (with mimic joints only)."""
    if m.nq_mimic:
        flat = M.reshape(M.shape[0] * M.shape[1])
        for j in range(m.nv_red):
            flat[j * m.nv_red + j] += m.armature_red[j]


@njit(cache=True, inline="always")
def model_block(m, X):
    """The model's ``(nv_red, nv_red)`` matrix that :func:`compress_matrix` left in ``X``; ``X`` without mimic
    joints."""
    if m.nq_mimic:
        return X.reshape(m.nv * m.nv)[: m.nv_red * m.nv_red].reshape((m.nv_red, m.nv_red))
    return X
