"""Dask arrays through ``rbda.batch``: a batched function given Dask arrays of states maps itself block by block.

The Dask array arguments (and the NumPy arrays of as many rows, taken as states too) are aligned on the batch
axis (the chunks of the first, one chunk along every other axis); every other argument (the model, a geometry model, ``dt``, a frame, options) becomes one ``dask.delayed``
key of the graph, shipped once to each worker that needs it rather than once per block. The result is a lazy Dask
array (or a tuple of them) with the same chunks along the batch axis: nothing is computed until the caller asks
(``.compute()``, ``dask.compute``, ``client.compute``). The shape of each block's result is read from one call on
a single state (the neutral configuration, zero velocities), or from a function's ``dask_shapes``; a function's
``dask_defaults`` (keyword arguments) apply to its blocks unless given.
"""

from __future__ import annotations

import functools
import sys

import numpy as np


def _is_dask_array(x) -> bool:
    da = sys.modules.get("dask.array")
    return da is not None and isinstance(x, da.Array)


def _probe(model, x, generic: bool) -> np.ndarray:
    """One state shaped like a block of ``x``: for a ``(B, nq)`` argument the neutral configuration (``generic``:
    a configuration of random joint angles about it, away from the neutral one's singularities), zeros else
    (``generic``: a fixed random vector)."""
    from .algorithms.configuration import integrate, neutral

    rng = np.random.default_rng(7)
    if x.ndim == 2 and x.shape[1] == model.nq:
        q = neutral(model)
        return (integrate(model, q, 0.5 * rng.standard_normal(model.nv)) if generic else q)[None, :].copy()
    shape = (1,) + tuple(x.shape[1:])
    return rng.standard_normal(shape).astype(x.dtype) if generic else np.zeros(shape, dtype=x.dtype)


def _output_shapes(fn, model, args, kwargs, positions, names):
    """``[(trailing shape, dtype)]`` of each output of ``fn`` (a list, or one pair for a single output), from a
    call on one probe state (the neutral one, else a generic one if that call raises: a singular constraint
    set)."""
    for generic in (False, True):
        probe_args = list(args)
        for i in positions:
            probe_args[i] = _probe(model, args[i], generic)
        probe_kwargs = dict(kwargs, **{n: _probe(model, kwargs[n], generic) for n in names})
        try:
            result = fn(*probe_args, **probe_kwargs)
            break
        except ValueError:
            if generic:
                raise
    many = isinstance(result, tuple)
    outputs = [(np.shape(r)[1:], np.asarray(r).dtype) for r in (result if many else (result,))]
    return outputs if many else outputs[0]


def _block(fn, positions, names, *values):
    """``fn`` on one block: ``values`` are the blocks of the Dask arguments (at ``positions``, then keyword
    ``names``) followed by the delayed other arguments; the outputs come flattened side by side ``(b, w)``."""
    k = len(positions) + len(names)
    blocks, (args, kwargs) = values[:k], values[k]
    args = list(args)
    for p, b in zip(positions, blocks):
        args[p] = b
    kwargs = dict(kwargs, **dict(zip(names, blocks[len(positions):])))
    result = fn(*args, **kwargs)
    result = result if isinstance(result, tuple) else (result,)
    return np.concatenate([np.asarray(r, dtype=np.float64).reshape(len(r), -1) for r in result], axis=1)


def accepts_dask(fn):
    """``fn`` (a batched function ``fn(model, ...)``) that also takes Dask arrays of states: see the module's
    docstring. Without a Dask array among the arguments it is ``fn`` itself, at the cost of one type test per
    argument."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not any(map(_is_dask_array, args)) and not any(map(_is_dask_array, kwargs.values())):
            return fn(*args, **kwargs)
        # the graph names the function by reference (module and name), not by value with its module's globals:
        # the wrapper where it replaced ``fn`` in ``fn``'s module (rbda.batch), else ``fn``
        named = getattr(sys.modules.get(fn.__module__), fn.__qualname__, None)
        return _map_blocks(fn, wrapper if named is wrapper else fn, args, kwargs)

    return wrapper


def _map_blocks(fn, task, args, kwargs):
    import dask
    import dask.array as da

    kwargs = {**getattr(fn, "dask_defaults", {}), **kwargs}
    if kwargs.get("out") is not None:
        raise TypeError("out: not supported with Dask arrays (the result is a new lazy array)")
    B = next(a for a in list(args) + list(kwargs.values()) if _is_dask_array(a)).shape[0]
    lift = lambda a: da.from_array(a) if isinstance(a, np.ndarray) and a.ndim and a.shape[0] == B else a  # noqa: E731
    args, kwargs = [lift(a) for a in args], {n: lift(a) for n, a in kwargs.items()}  # NumPy states join the blocks
    positions = [i for i, a in enumerate(args) if _is_dask_array(a)]
    names = [n for n, a in kwargs.items() if _is_dask_array(a)]
    arrays = [args[i] for i in positions] + [kwargs[n] for n in names]
    first = arrays[0]
    for i, a in zip(positions + names, arrays):
        if a.ndim < 1 or a.shape[0] != first.shape[0]:
            raise ValueError(f"{'argument ' + str(i) if isinstance(i, int) else i}: a Dask array of states with "
                             f"{first.shape[0]} rows (the batch) expected, got shape {a.shape}")
    rows = first.chunks[0]
    arrays = [a.rechunk((rows,) + tuple(-1 for _ in a.shape[1:])) for a in arrays]
    rest_args = [None if i in positions else a for i, a in enumerate(args)]
    rest_kwargs = {n: a for n, a in kwargs.items() if n not in names}
    shapes = getattr(fn, "dask_shapes", None)
    if shapes is not None:  # (trailing shape, dtype) per output, without a probe call
        outputs = shapes(*[a.shape if _is_dask_array(a) else a for a in args],
                         **{n: a.shape if _is_dask_array(a) else a for n, a in kwargs.items()})
    else:
        outputs = _output_shapes(fn, args[0], args, kwargs, positions, names)
    rest = dask.delayed((rest_args, rest_kwargs), pure=True)  # the model and options: one key, once per worker
    many = isinstance(outputs, list)
    outputs = outputs if many else [outputs]
    widths = [int(np.prod(t)) for t, _ in outputs]
    indexed = []
    for n, a in enumerate(arrays):  # the batch axis "b" shared, each other axis its own (one chunk each)
        indexed += [a, ("b",) + tuple(f"a{n}_{d}" for d in range(1, a.ndim))]
    flat = da.blockwise(_block, ("b", "w"), task, None, positions, None, names, None, *indexed, rest, None,
                        new_axes={"w": sum(widths)}, concatenate=True, dtype=np.float64, meta=np.empty((0, 0)))
    out, start = [], 0
    for (trailing, dtype), w in zip(outputs, widths):
        out.append(flat[:, start:start + w].reshape((flat.shape[0],) + tuple(trailing)).astype(dtype))
        start += w
    return tuple(out) if many else out[0]
