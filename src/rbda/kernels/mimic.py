"""Mimic joints inside the kernels, as in Pinocchio 4: the recursion runs over one column per joint dof
(``nv_extended``, ``m.nv``), a mimic joint reading its mimicked joint's coordinate scaled,

    q_ext = q[q_src] q_scale + q_offset,    v_ext = G v  (v_ext[k] = v[v_col[k]] v_scale[k]),

and what a mimic column contributes to a per-dof result accumulates onto the mimicked dof by the chain rule:

    tau = G^T tau_ext  (rows),    J = J_ext G  (columns),    M = G^T M_ext G  (both).

``begin`` (``checks.py``) expands the inputs into the workspace's ``qx``, ``vx``, ``ax``; a kernel reads them
through :func:`extended`, and its epilogue compresses its per-dof outputs in place: the model's ``nv`` entries
are left in front of each buffer (a joint-space matrix as a C-contiguous ``(nv, nv)`` block in the first
``nv * nv`` entries). Without mimic joints (``m.nq_mimic == 0``) each helper is one comparison.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, forceinline=True)
def extended(m, x, expanded):
    """The input the recursion reads: ``expanded`` (filled by ``begin``) with mimic joints, ``x`` without (or
    when ``x`` is empty: an input left out)."""
    return expanded if m.nq_mimic and x.shape[0] else x


@njit(cache=True, forceinline=True)
def model_coordinates(m, i):
    """``(iq, iv, mimic)``: where joint ``i``'s coordinates start in the model's ``q`` and ``v``, and whether it is
    a mimic joint (it has none of its own; the configuration kernels skip it)."""
    iq, iv = m.idx_q[i], m.idx_v[i]
    if m.nq_mimic:
        return m.q_src[iq], m.v_col[iv], m.v_keep[m.v_col[iv]] != iv
    return iq, iv, False


@njit(cache=True, forceinline=True)
def expand_inputs(m, q, v, a, qx, vx, ax):
    """``qx = E(q)``, ``vx = G v``, ``ax = G a`` (``v``, ``a`` may be None or empty: left out)."""
    for k in range(m.nq_mimic):
        qx[k] = q[m.q_src[k]] * m.q_scale[k] + m.q_offset[k]
    if v is not None and v.shape[0]:
        for k in range(vx.shape[0]):
            vx[k] = v[m.v_col[k]] * m.v_scale[k]
    if a is not None and a.shape[0]:
        for k in range(ax.shape[0]):
            ax[k] = a[m.v_col[k]] * m.v_scale[k]


@njit(cache=True, forceinline=True)
def compress_rows(m, X):
    """``X[:nv_red] = G^T X`` for ``X`` ``(nv_extended, w)`` (one row per extended column) in place: each mimic
    row is added, scaled, to the row of its mimicked dof, then the model's rows move to the front."""
    if not m.nq_mimic:
        return
    for k in range(m.nv):
        e = m.v_keep[m.v_col[k]]
        if e != k:  # a mimic column: onto its mimicked dof's column
            for c in range(X.shape[1]):
                X[e, c] += m.v_scale[k] * X[k, c]
    for j in range(m.nv_red):  # v_keep is increasing, v_keep[j] >= j: the moves never overwrite a row still to read
        for c in range(X.shape[1]):
            X[j, c] = X[m.v_keep[j], c]


@njit(cache=True, forceinline=True)
def compress_vector(m, x):
    """``x[:nv_red] = G^T x`` in place, for ``x`` ``(nv_extended,)``."""
    if m.nq_mimic:
        compress_rows(m, x.reshape((x.shape[0], 1)))


@njit(cache=True, forceinline=True)
def compress_matrix(m, X):
    """``G^T X G`` ``(nv_red, nv_red)``, C-contiguous, into the first ``nv_red^2`` entries of ``X``
    ``(nv_extended, nv_extended)``, in place."""
    if not m.nq_mimic:
        return
    n, nr = m.nv, m.nv_red
    for k in range(n):  # columns, then rows
        e = m.v_keep[m.v_col[k]]
        if e != k:
            for r in range(n):
                X[r, e] += m.v_scale[k] * X[r, k]
    for k in range(n):
        e = m.v_keep[m.v_col[k]]
        if e != k:
            for c in range(n):
                X[e, c] += m.v_scale[k] * X[k, c]
    flat = X.reshape(n * n)
    for i in range(nr):  # entry (i, j) moves from v_keep[i] n + v_keep[j] >= i nr + j: reads stay ahead of writes
        for j in range(nr):
            flat[i * nr + j] = X[m.v_keep[i], m.v_keep[j]]


@njit(cache=True, forceinline=True)
def add_armature(m, a, tau):
    """``tau += armature a`` on the model's dofs (with mimic joints the armature acts after the accumulation;
    without, the recursion adds it)."""
    if m.nq_mimic:
        for j in range(m.nv_red):
            tau[j] += m.armature_red[j] * a[j]


@njit(cache=True, forceinline=True)
def add_armature_diagonal(m, M):
    """``M += diag(armature)`` for the compressed ``(nv_red, nv_red)`` block (with mimic joints only)."""
    if m.nq_mimic:
        flat = M.reshape(M.shape[0] * M.shape[1])
        for j in range(m.nv_red):
            flat[j * m.nv_red + j] += m.armature_red[j]


@njit(cache=True, forceinline=True)
def model_block(m, X):
    """The model's ``(nv_red, nv_red)`` matrix that :func:`compress_matrix` left in ``X``; ``X`` without mimic
    joints."""
    if m.nq_mimic:
        return X.reshape(m.nv * m.nv)[: m.nv_red * m.nv_red].reshape((m.nv_red, m.nv_red))
    return X
