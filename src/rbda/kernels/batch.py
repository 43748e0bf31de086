"""Batched kernels: the single-state kernels run over a leading batch axis, a run of chunks per call (one thread
each, ``_native/threads.py``).

The batch is cut into one contiguous chunk per workspace (one workspace per thread); each chunk runs the
single-state kernel state after state and copies its result out, element by element (a slice assignment
compiles numba's shape-mismatch error path, seconds per kernel). No Python work per state. Every batched kernel
takes ``(I, F, WS, Q, V, A, OUT, STATUS, first, last)`` (``V``, ``A`` ``(B, 0)`` where it does not use them;
``first .. last - 1`` the chunks of this call), but :func:`frame_jacobians`, which also takes the frame.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from . import dynamics, kinematics
from ..model.layout import data_views, model_views
from .mimic import model_block


#: the single-state kernels that :func:`batched` runs, by code
(RNEA, ABA, FORWARD_DYNAMICS_THROUGH_FACTOR, CRBA, MINVERSE, FORWARD_KINEMATICS, JOINT_JACOBIANS,
 FRAMES_FORWARD_KINEMATICS) = range(8)


def batched(kernel):
    """The batched twin ``(I, F, WS, Q, V, A, OUT, STATUS, first, last)`` of the single-state kernel with code ``kernel``: for
    each state ``b``, ``STATUS[b]`` is the kernel's status at ``(Q[b], V[b], A[b])`` and ``OUT[b]`` its result.

    ``WS: (nchunks, size)`` one workspace per chunk of states; ``Q: (B, nq)``; ``V, A: (B, nv)``, or ``(B, 0)``
    for a kernel of ``q`` alone (``A`` holds ``tau`` for forward dynamics); ``OUT``: ``(B, nv)`` for ``tau`` and
    ``ddq``, ``(B, nv, nv)`` for ``M`` and ``M^-1``, ``(B, njoints, 3, 4)`` for ``oMi``, ``(B, 6, nv)`` for the
    joint Jacobians, ``(B, nframes, 3, 4)`` for ``oMf``; ``STATUS: (B,)`` int64.

    ``kernel`` is a constant of the compiled function (a closure variable): numba prunes the branches of the other
    kernels before typing, so that each batched twin compiles only its own kernel, and caches it on disk under
    this function's name, one entry per code.
    """

    @njit(cache=True, nogil=True)
    def batched_kernel(I, F, WS, Q, V, A, OUT, STATUS, first, last):
        nchunks, B = WS.shape[0], Q.shape[0]
        for c in range(first, last):
            m = model_views(I, F)
            d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
            no_fext = np.zeros((0, 6))  # the single-state calls' argument types: one compiled overload for both
            for b in range(c * B // nchunks, (c + 1) * B // nchunks):
                if kernel == RNEA:
                    STATUS[b] = dynamics.rnea(I, F, WS[c], Q[b], V[b], A[b], no_fext)
                    copy_vector(d.tau, OUT[b])
                elif kernel == ABA:
                    STATUS[b] = dynamics.aba(I, F, WS[c], Q[b], V[b], A[b], no_fext)
                    copy_vector(d.ddq, OUT[b])
                elif kernel == FORWARD_DYNAMICS_THROUGH_FACTOR:  # aba for a model with mimic joints
                    STATUS[b] = dynamics.forward_dynamics_through_factor(I, F, WS[c], Q[b], V[b], A[b], no_fext)
                    copy_vector(d.ddq, OUT[b])
                elif kernel == CRBA:
                    STATUS[b] = dynamics.crba(I, F, WS[c], Q[b])
                    copy_matrix(model_block(m, d.M), OUT[b])
                elif kernel == MINVERSE:
                    STATUS[b] = dynamics.minverse(I, F, WS[c], Q[b])
                    copy_matrix(model_block(m, d.Minv), OUT[b])
                elif kernel == FORWARD_KINEMATICS:
                    STATUS[b] = kinematics.forward_kinematics_q(I, F, WS[c], Q[b])
                    copy_placements(d.oMi, OUT[b])
                elif kernel == JOINT_JACOBIANS:
                    STATUS[b] = kinematics.compute_joint_jacobians(I, F, WS[c], Q[b])
                    copy_matrix(d.J.T, OUT[b])
                elif kernel == FRAMES_FORWARD_KINEMATICS:
                    STATUS[b] = kinematics.forward_kinematics_q(I, F, WS[c], Q[b])
                    kinematics.update_frame_placements(I, F, WS[c])
                    copy_placements(d.oMf, OUT[b])

    return batched_kernel


rnea = batched(RNEA)
aba = batched(ABA)
forward_dynamics_through_factor = batched(FORWARD_DYNAMICS_THROUGH_FACTOR)
crba = batched(CRBA)
minverse = batched(MINVERSE)
forward_kinematics = batched(FORWARD_KINEMATICS)
joint_jacobians = batched(JOINT_JACOBIANS)
frames_forward_kinematics = batched(FRAMES_FORWARD_KINEMATICS)


# Element by element: a slice assignment compiles numba's shape-mismatch error path (seconds per kernel). Each
# copies the leading block of ``x`` that ``out`` has room for.
@njit(cache=True, forceinline=True)
def copy_vector(x, out):
    """``out[:] = x[:len(out)]``."""
    for k in range(out.shape[0]):
        out[k] = x[k]


@njit(cache=True, forceinline=True)
def copy_matrix(X, out):
    """``out[:, :] = X[:rows, :cols]`` of ``out``."""
    for r in range(out.shape[0]):
        for k in range(out.shape[1]):
            out[r, k] = X[r, k]


@njit(cache=True, forceinline=True)
def copy_placements(X, out):
    """``out[i] = X[i]``, placements ``[R | p]`` ``(n, 3, 4)``."""
    for i in range(out.shape[0]):
        copy_matrix(X[i], out[i])


@njit(cache=True, nogil=True)
def frame_jacobians(I, F, WS, Q, frame, reference_frame, OUT, STATUS, first, last):
    """``OUT[b]`` ``(6, nv)``: the Jacobian of frame ``frame`` at ``Q[b]`` in ``reference_frame`` (0 WORLD, 1
    LOCAL, 2 LOCAL_WORLD_ALIGNED), zero outside the columns of the joints that support it."""
    nchunks, B = WS.shape[0], Q.shape[0]
    for c in range(first, last):
        m = model_views(I, F)
        d = data_views(WS[c], m.nj, m.nv, m.nf, m.nq_mimic)[0]
        joint = m.frame_parents[frame]
        for b in range(c * B // nchunks, (c + 1) * B // nchunks):
            STATUS[b] = kinematics.compute_joint_jacobians(I, F, WS[c], Q[b])
            kinematics.update_frame_placements(I, F, WS[c])
            oMf = d.oMf[frame]
            for r in range(6):
                for k in range(m.nv_red):
                    OUT[b, r, k] = 0.0
            j = joint
            while j > 0:
                for k in range(m.idx_v[j], m.idx_v[j] + m.nvs[j]):
                    express_column(d.J[k], oMf, reference_frame, d.v6[0])  # one signature: C-contiguous out
                    for x in range(6):
                        if m.nq_mimic:  # a mimic joint's column adds, scaled, to its mimicked dof's (J = J_ext G)
                            OUT[b, x, m.v_col[k]] += m.v_scale[k] * d.v6[0, x]
                        else:
                            OUT[b, x, k] = d.v6[0, x]
                j = m.parents[j]


@njit(cache=True, forceinline=True)
def express_column(col, oM, reference_frame, out):
    """A world-frame Jacobian column in ``reference_frame`` at the placement ``oM``: the linear part moved to the
    frame's origin (``v_p = v_0 - p x w``), then, for LOCAL, both parts rotated into the frame's axes."""
    if reference_frame == 0:
        for x in range(6):
            out[x] = col[x]
        return
    p = oM[:, 3]
    lin0 = col[0] - (p[1] * col[5] - p[2] * col[4])
    lin1 = col[1] - (p[2] * col[3] - p[0] * col[5])
    lin2 = col[2] - (p[0] * col[4] - p[1] * col[3])
    if reference_frame == 2:
        out[0], out[1], out[2], out[3], out[4], out[5] = lin0, lin1, lin2, col[3], col[4], col[5]
        return
    for r in range(3):  # R^T
        out[r] = oM[0, r] * lin0 + oM[1, r] * lin1 + oM[2, r] * lin2
        out[3 + r] = oM[0, r] * col[3] + oM[1, r] * col[4] + oM[2, r] * col[5]
