"""Composite joint: a chain of joints acting as one, ``M = (P_0 M_0(q_0)) (P_1 M_1(q_1)) ... `` where ``P_k`` is
the placement of sub-joint k in the output frame of sub-joint k-1 (Pinocchio's ``JointModelComposite``).

With ``T_k`` the placement of the composite's output frame in the output frame of sub-joint k, each sub-joint's
columns are expressed in the output frame, ``S = [T_k^-1 S_k]``, ``v_J = sum_k T_k^-1 v_Jk``, and since
``T_k^-1`` changes with the joints after k (output velocity relative to sub-joint k: ``w_k = sum_{l>k}
T_l^-1 v_Jl``), ``c_J = sum_k T_k^-1 c_Jk + (T_k^-1 v_Jk) x w_k``. Sub-joints cannot themselves be composite.
"""

from __future__ import annotations

import numpy as np
from .._native.jit import njit

from ..spatial import SE3, Motion, motion_cross_matrix
from ..spatial._validate import as_array
from ..spatial.compiled import motion_act_inv, motion_cross, se3_compose
from .base import JointModel, JointType
from .dispatch import joint_calc


@njit(cache=True, forceinline=True)
def copy_placement(src, out):
    """``out[:, :] = src`` for (3, 4) placements, written out: numba's slice assignment compiles a shape-mismatch
    error path (string formatting) that took ~9 s of the first kernel compile."""
    for r in range(3):
        for c in range(4):
            out[r, c] = src[r, c]


@njit(cache=True)
def calc(types, nqs, nvs, params, placements, q, v, M, S, vJ, cJ):
    """Fill ``M`` (3, 4), ``S`` (nv, 6), ``vJ``, ``cJ`` from the sub-joint table (``types``, ``nqs``, ``nvs``,
    ``params`` (K, NPARAMS), ``placements`` (K, 3, 4))."""
    K = types.shape[0]
    A = np.empty((K, 3, 4))  # placement of sub-joint k's output in sub-joint k-1's output
    MJ = np.empty((3, 4))
    vJk, cJk = np.empty((K, 6)), np.empty((K, 6))
    iq, iv = 0, 0
    for k in range(K):
        joint_calc(types[k], params[k], q[iq : iq + nqs[k]], v[iv : iv + nvs[k]], MJ, S[iv : iv + nvs[k]], vJk[k], cJk[k])
        se3_compose(placements[k], MJ, A[k])
        iq += nqs[k]
        iv += nvs[k]
    copy_placement(A[0], M)
    for k in range(1, K):
        se3_compose(M.copy(), A[k], M)
    T = np.zeros((3, 4))  # output frame in sub-joint k's output frame, from the last sub-joint backwards
    T[0, 0] = T[1, 1] = T[2, 2] = 1.0
    w, col, tmp = np.zeros(6), np.empty(6), np.empty(6)
    for r in range(6):
        vJ[r] = cJ[r] = 0.0
    for k in range(K - 1, -1, -1):
        iv -= nvs[k]
        for c in range(iv, iv + nvs[k]):
            for r in range(6):
                col[r] = S[c, r]
            motion_act_inv(T, col, S[c])
        motion_act_inv(T, vJk[k], col)  # T_k^-1 v_Jk
        motion_act_inv(T, cJk[k], tmp)
        motion_cross(col, w, cJk[k])
        for r in range(6):
            cJ[r] += tmp[r] + cJk[k, r]
            vJ[r] += col[r]
            w[r] += col[r]
        se3_compose(A[k], T.copy(), T)


class JointModelComposite(JointModel):
    """A chain of joints (``joints``, each at ``placements[k]`` after the previous one) acting as one joint."""

    type = JointType.COMPOSITE

    def __init__(self, joints=(), placements=None):
        super().__init__()
        self.joints: list[JointModel] = []
        self.placements: list[SE3] = []
        placements = [SE3() for _ in joints] if placements is None else list(placements)
        if len(placements) != len(joints):
            raise ValueError(f"placements: expected {len(joints)} placements, one per joint, got {len(placements)}")
        for joint, placement in zip(joints, placements):
            self.add_joint(joint, placement)

    def add_joint(self, joint: JointModel, placement: SE3 = None) -> "JointModelComposite":
        """Append ``joint`` at ``placement`` (in the output frame of the previous sub-joint); returns ``self``."""
        if not isinstance(joint, JointModel) or isinstance(joint, JointModelComposite):
            raise TypeError(f"joint: expected a non-composite JointModel, got {type(joint).__name__}")
        placement = SE3() if placement is None else placement
        if not isinstance(placement, SE3):
            raise TypeError(f"placement: expected an SE3, got {type(placement).__name__}")
        self.joints.append(joint)
        self.placements.append(placement.copy())
        return self

    @property
    def nq(self) -> int:
        return sum(j.nq for j in self.joints)

    @property
    def nv(self) -> int:
        return sum(j.nv for j in self.joints)

    def table(self):
        """The sub-joint table ``(types, nqs, nvs, params, placements)`` that the kernels read."""
        if not self.joints:
            raise ValueError("JointModelComposite: has no sub-joints; add_joint first")
        return (
            np.array([int(j.type) for j in self.joints], dtype=np.int64),
            np.array([j.nq for j in self.joints], dtype=np.int64),
            np.array([j.nv for j in self.joints], dtype=np.int64),
            np.stack([j.params for j in self.joints]),
            np.stack([np.column_stack([P.rotation, P.translation]) for P in self.placements]),
        )

    def calc(self, q, v=None):
        q = self._check_q(q)
        v = np.zeros(self.nv) if v is None else as_array(v, (self.nv,), "v")
        M, S, vJ, cJ = np.zeros((3, 4)), np.zeros((self.nv, 6)), np.zeros(6), np.zeros(6)
        calc(*self.table(), q, v, M, S, vJ, cJ)
        return SE3(M[:, :3], M[:, 3]), S.T.copy(), Motion(vJ), Motion(cJ)

    def _split(self, x, sizes: str):
        out, o = [], 0
        for j in self.joints:
            n = getattr(j, sizes)
            out.append(np.asarray(x)[o : o + n])
            o += n
        return out

    def integrate(self, q, v):
        q, v = self._check_q(q), np.asarray(v, dtype=np.float64)
        return np.concatenate([j.integrate(qk, vk) for j, qk, vk in zip(self.joints, self._split(q, "nq"), self._split(v, "nv"))])

    def difference(self, q0, q1):
        q0, q1 = self._check_q(q0, "q0"), self._check_q(q1, "q1")
        return np.concatenate([j.difference(a, b) for j, a, b in zip(self.joints, self._split(q0, "nq"), self._split(q1, "nq"))])

    def d_integrate(self, q, v):
        """``(J_q, J_v)`` ``(nv, nv)`` at ``q: (nq,)``, ``v: (nv,)``: block-diagonal, each sub-joint's own."""
        q, v = self._check_q(q), as_array(v, (self.nv,), "v")
        from scipy.linalg import block_diag

        blocks = [j.d_integrate(a, b) for j, a, b in zip(self.joints, self._split(q, "nq"), self._split(v, "nv"))]
        return tuple(block_diag(*[b[k] for b in blocks]) for k in (0, 1))

    def d_difference(self, q0, q1):
        """``(J_q0, J_q1)`` ``(nv, nv)`` of ``difference(q0, q1)``: block-diagonal, each sub-joint's own."""
        q0, q1 = self._check_q(q0, "q0"), self._check_q(q1, "q1")
        from scipy.linalg import block_diag

        blocks = [j.d_difference(a, b) for j, a, b in zip(self.joints, self._split(q0, "nq"), self._split(q1, "nq"))]
        return tuple(block_diag(*[b[k] for b in blocks]) for k in (0, 1))

    def neutral(self):
        return np.concatenate([j.neutral() for j in self.joints])

    def normalize(self, q):
        return np.concatenate([j.normalize(qk) for j, qk in zip(self.joints, self._split(self._check_q(q), "nq"))])

    def random(self, rng, lower, upper):
        """Each sub-joint's random configuration (``rng``, ``lower``, ``upper`` as :meth:`JointModel.random`)."""
        return np.concatenate([j.random(rng, lo, up) for j, lo, up in
                               zip(self.joints, self._split(lower, "nq"), self._split(upper, "nq"))])

    def motion_subspace_derivative(self, q, v):
        """``dS/dt`` ``(6, nv)`` at ``q: (nq,)`` along ``v: (nv,)``; the columns of sub-joint k are
        ``T_k^-1 dS_k/dt + (T_k^-1 S_k) x w_k`` (see the module docstring)."""
        q, v = self._check_q(q), np.asarray(v, dtype=np.float64)
        S = self.calc(q, v)[1]
        out = np.zeros((6, self.nv))
        qs, vs = self._split(q, "nq"), self._split(v, "nv")
        col = self.nv
        T, w = SE3(), np.zeros(6)
        for k in range(len(self.joints) - 1, -1, -1):
            j = self.joints[k]
            col -= j.nv
            Mk, _, vJk, _ = j.calc(qs[k], vs[k])
            dSk = j.motion_subspace_derivative(qs[k], vs[k])
            Xinv = T.action_inverse
            for c in range(j.nv):
                out[:, col + c] = Xinv @ dSk[:, c] + motion_cross_matrix(S[:, col + c]) @ w
            w = w + Xinv @ vJk.vector
            T = self.placements[k] * Mk * T
        return out

    def __eq__(self, other) -> bool:
        return (isinstance(other, JointModelComposite) and self.joints == other.joints
                and self.placements == other.placements)

    def __hash__(self):
        return hash(tuple(hash(j) for j in self.joints))

    def __repr__(self) -> str:
        return f"JointModelComposite({self.joints!r})"
