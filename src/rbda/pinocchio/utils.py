"""Pinocchio's ``pinocchio.utils``: small numpy helpers (``zero``, ``eye``, ``rand``, ``isapprox``, ``npToTuple``,
...) and the roll-pitch-yaw functions, written for rbda's layer."""

from __future__ import annotations

import sys

import numpy as np
import numpy.linalg as npl

from .rpy import matrixToRpy, rotate, rpyToMatrix


def zero(n) -> np.ndarray:
    """Zeros of shape ``n`` (an int or a shape)."""
    return np.zeros(n)


def eye(n: int) -> np.ndarray:
    return np.eye(n)


def rand(n) -> np.ndarray:
    """Uniform ``[0, 1)`` numbers of shape ``n`` (an int, or a pair for a matrix)."""
    return np.random.rand(n) if isinstance(n, (int, np.integer)) else np.random.rand(*n)


def isapprox(a, b, epsilon: float = 1e-6) -> bool:
    """Whether ``a`` and ``b`` are close: spatial objects through their ``np`` arrays, arrays and lists squeezed
    and compared with relative tolerance ``epsilon`` (and numpy's absolute 1e-8), numbers by ``|a - b| <
    epsilon``."""
    a, b = (getattr(x, "np", x) for x in (a, b))
    if isinstance(a, (np.ndarray, list)) and isinstance(b, (np.ndarray, list)):
        return bool(np.allclose(np.squeeze(np.asarray(a, dtype=float)), np.squeeze(np.asarray(b, dtype=float)),
                                rtol=epsilon))
    return bool(abs(a - b) < epsilon)


def npToTTuple(M) -> tuple:
    """A matrix as a tuple of row tuples."""
    return tuple(tuple(row) for row in np.asarray(M).tolist())


def npToTuple(M) -> tuple:
    """A vector (of any orientation) as a tuple, a matrix as a tuple of row tuples."""
    M = np.asarray(M)
    if M.ndim == 1 or 1 in M.shape:
        return tuple(M.reshape(-1).tolist())
    return npToTTuple(M)


def mprint(M, name: str = "ans", eps: float = 1e-15) -> None:
    """Print ``M`` (an array, or an SE3's homogeneous matrix) as Matlab does, small entries as 0."""
    M = np.atleast_2d(getattr(M, "homogeneous", M))
    sys.stdout.write(f"{name} =\n\n")
    for row in M:
        sys.stdout.write("  " + "  ".join(f"{x: 1.5f}" if abs(x) > eps else " 0" for x in row) + "\n")
    sys.stdout.write("\n")


def fromListToVectorOfString(items) -> list:
    return [str(x) for x in items]


__all__ = ["eye", "fromListToVectorOfString", "isapprox", "matrixToRpy", "mprint", "np", "npToTTuple",
           "npToTuple", "npl", "rand", "rotate", "rpyToMatrix", "zero"]
