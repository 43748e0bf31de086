"""Small operations on 3-vectors held as tuples of floats, for compiled kernels that keep their vectors in registers
(no array allocated per vector): the dot and cross products, sums and differences, the norm."""

from __future__ import annotations

import math

from .._native.jit import njit


@njit(cache=True, forceinline=True)
def dot(a, b):
    """``a . b``."""
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@njit(cache=True, forceinline=True)
def cross(a, b):
    """``a x b``."""
    return a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]


@njit(cache=True, forceinline=True)
def sub(a, b):
    """``a - b``."""
    return a[0] - b[0], a[1] - b[1], a[2] - b[2]


@njit(cache=True, forceinline=True)
def axpy(a, s, b):
    """``a + s b``."""
    return a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]


@njit(cache=True, forceinline=True)
def neg(a):
    """``-a``."""
    return -a[0], -a[1], -a[2]


@njit(cache=True, forceinline=True)
def norm(a):
    """``|a|``."""
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])
