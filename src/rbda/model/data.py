"""The workspace of the algorithms (Pinocchio's ``Data``), allocated once per model.

Every quantity is a numpy view into one float64 buffer that the compiled kernels fill. Names follow Pinocchio:
``oMi``, ``liMi``, ``oMf`` (placements, as :class:`~rbda.spatial.SE3` sequences whose elements share the
buffer), ``v``, ``a``, ``f``, ``ov``, ``oa`` (per joint, ``(njoints, 6)`` arrays; the Motion/Force views are
``data.motion(...)``), ``J``, ``dJ`` (``(6, nv)``), ``M``, ``Minv``, ``C`` (``(nv, nv)``), ``tau``, ``nle``,
``g``, ``ddq`` (``(nv,)``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..kernels.layout import data_size, data_views
from ..spatial import SE3, Motion


class SE3Views(Sequence):
    """A sequence of :class:`SE3` sharing memory with a ``(n, 3, 4)`` array ``[R | p]``."""

    __slots__ = ("array",)

    def __init__(self, array: np.ndarray):
        self.array = array

    def __len__(self) -> int:
        return self.array.shape[0]

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        M = SE3.__new__(SE3)
        M.rotation, M.translation = self.array[i, :, :3], self.array[i, :, 3]
        return M

    def __setitem__(self, i, M: SE3) -> None:
        self.array[i, :, :3] = M.rotation
        self.array[i, :, 3] = M.translation

    def __repr__(self) -> str:
        return f"SE3Views({len(self)} placements)"


def new_workspace(nj: int, nv: int, nf: int) -> np.ndarray:
    """A zeroed workspace whose placements are identities (the universe's ``oMi[0]`` is read, never written)."""
    ws = np.zeros(data_size(nj, nv, nf))
    d = data_views(ws, nj, nv, nf)[0]
    for M in (d.liMi, d.oMi, d.oMf):
        M[:, :, :3] = np.eye(3)
    return ws


class Data:
    """Workspace for one model; create it with ``model.create_data()``."""

    def __init__(self, model):
        nj, nv, nf = model.njoints, model.nv, model.nframes
        self.model_sizes = (nj, nv, nf)
        self.ws = new_workspace(nj, nv, nf)
        d = data_views(self.ws, nj, nv, nf)[0]
        self._views = d
        self.liMi, self.oMi, self.oMf = SE3Views(d.liMi), SE3Views(d.oMi), SE3Views(d.oMf)
        for name in ("v", "a", "a_gf", "f", "ov", "oa", "oa_gf", "of", "oYcrb", "oYaba", "M", "Minv", "C",
                     "tau", "nle", "g", "ddq"):
            setattr(self, name, getattr(d, name))
        self.J = d.J.T  # (6, nv) view of the row-per-column storage
        self.dJ = d.dJ.T
        self.S = d.S.T

    def ov_of(self, joint_id: int) -> np.ndarray:
        """World-frame spatial velocity ``(6,)`` of joint ``joint_id`` from ``oMi`` and the local ``v``."""
        return self.oMi[joint_id].act(Motion(self.v[joint_id])).vector

    def __repr__(self) -> str:
        nj, nv, nf = self.model_sizes
        return f"Data(njoints={nj}, nv={nv}, nframes={nf})"
