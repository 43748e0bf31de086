"""Inertia and force supported by a frame (Pinocchio's ``computeSupportedInertiaByFrame`` and
``computeSupportedForceByFrame``): what a frame on a body carries of that body, and of the joints below it
(``kernels/supported.py``).

The part of a body that a frame supports is the inertia the frame and the frames declared after it on the
same joint, descending from it (``parent_frame`` chain), brought in (``Frame.inertia``, added to the body by
``model.add_frame(frame, append_inertia=True)``): ``model.frame_supported_inertias``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .._native.public import public
from .._native.direct import direct
from ..kernels import supported as supported_kernels
from ..spatial import Force, Inertia
from ._check import report
from .kinematics import _frame_id

if TYPE_CHECKING:
    from ..model import Data
    from ..model import Model

_k = direct(supported_kernels)  # the kernels, past numba's per-call dispatch


def compute_supported_inertia_by_frame(model: Model, data: Data, frame_id: int | str, with_subtree: bool) -> Inertia:
    """Inertia supported by frame ``frame_id`` (an id or a name), expressed in that frame: its own and its child
    frames' inertias and, if ``with_subtree``, the bodies of every joint below its parent joint (placements of the
    last :func:`forward_kinematics`)."""
    y = data.fast_entries.compute_supported_inertia_by_frame(model, data, frame_id, with_subtree)  # or None
    if y is None:
        y = _run("supported_inertia_by_frame", model, data, frame_id, 1 if with_subtree else 0, np.empty(13))
    Y = Inertia.__new__(Inertia)  # (m, c, I_c) from the kernel, symmetric: the constructor's checks left out
    y = y.copy()
    Y.mass, Y.lever, Y.inertia = float(y[0]), y[1:4], y[4:].reshape(3, 3)
    return Y


@public("wrap", wrapper=Force)
def compute_supported_force_by_frame(model: Model, data: Data, frame_id: int | str) -> Force:
    """Force that frame ``frame_id`` (an id or a name) transmits, expressed in that frame: the rate of momentum of
    the inertia it supports on its body, with gravity (``Y a_gf + v x* Y v``, velocity and acceleration of the
    frame), plus the forces ``data.f`` of the child joints of its parent joint (run :func:`rnea` first)."""
    f = data.fast_entries.compute_supported_force_by_frame(model, data, frame_id)  # the bound fast entry, or None
    if f is None:
        f = _run("supported_force_by_frame", model, data, frame_id, np.empty(6))
    return Force._from_storage(f.copy())


def _run(kernel: str, model, data, frame_id, *args) -> np.ndarray:
    """Run ``kernel(I, F, ws, model.frame_supported_inertias, frame_id, *args)`` on the checked arguments; returns
    its output, the last of ``args``."""
    frame_id = _frame_id(model, data, frame_id)
    I, F = model.packed
    status = getattr(_k, kernel)(I, F, data.ws, model.frame_supported_inertias, frame_id, *args)
    if status:
        report(status, ())
    return args[-1]


__all__ = ["compute_supported_inertia_by_frame", "compute_supported_force_by_frame"]
