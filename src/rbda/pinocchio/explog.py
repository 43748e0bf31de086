"""Pinocchio's ``pinocchio.explog``: ``exp`` and ``log`` of a number (``math``'s), a rotation (``exp3``, ``log3``)
or a rigid motion (``exp6``, ``log6``), chosen by the argument's type and shape."""

from __future__ import annotations

import math

import numpy as np

from .. import spatial as _s
from . import spatial as _ps


def exp(x):
    """``math.exp`` of a number; ``exp3`` of a ``(3,)`` array (a rotation matrix); ``exp6`` of a Motion or a
    ``(6,)`` array (an SE3). Anything else raises ``ValueError``."""
    if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool):
        return math.exp(x)
    if isinstance(x, _s.Motion):
        return _ps.exp6(x)
    if isinstance(x, np.ndarray) and x.size in (3, 6) and (x.ndim == 1 or x.shape[1] == 1):
        return _ps.exp3(x) if x.size == 3 else _ps.exp6(x)
    raise ValueError(f"exp: expected a number, a (3,) or (6,) array or a Motion, got {type(x).__name__} "
                     f"of shape {np.shape(x)}")


def log(x):
    """``math.log`` of a number; ``log3`` of a ``(3, 3)`` rotation; ``log6`` of an SE3 or a ``(4, 4)``
    homogeneous matrix (a Motion). Anything else raises ``ValueError``."""
    if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool):
        return math.log(x)
    if isinstance(x, _s.SE3):
        return _ps.log6(x)
    if isinstance(x, np.ndarray) and x.shape in ((3, 3), (4, 4)):
        return _ps.log3(x) if x.shape == (3, 3) else _ps.log6(x)
    raise ValueError(f"log: expected a number, a (3, 3) or (4, 4) array or an SE3, got {type(x).__name__} "
                     f"of shape {np.shape(x)}")
