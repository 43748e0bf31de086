"""The compiled path of :mod:`rbda.jax`: under ``jax.jit`` (not ``vmap``), :func:`rbda.jax.rnea` and
:func:`rbda.jax.aba` are XLA FFI custom calls that run rbda's kernels inside the XLA executable
(:mod:`rbda.jax._ffi`), their value and, for the JVP, their analytical Jacobians. ``vmap`` maps them onto the
host callback of the batched algorithms (one ``rbda.batch`` call, ``jax.custom_batching.custom_vmap``).

Used for float64 arguments of models without mimic joints whose joints with ``nq != nv`` are free flyers,
spherical, planar or unbounded revolute joints; anything else stays on the host callback.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from .. import _primitives
from ..algorithms._check import SINGULAR_INERTIA
from ..joints.base import JointType
from ..kernels.checks import SINGULAR, WRONG_DATA
from ..kernels.derivatives import derivative_size
from ..model.elementary import sync_elementary
from . import _ffi

ALGORITHMS = ("rnea", "aba")
enabled = True  # False: every call takes the host callback (for comparisons: benchmarks/bench_bridges.py)
_AMBIENT = (JointType.FREE_FLYER, JointType.SPHERICAL, JointType.PLANAR, JointType.REVOLUTE_UNBOUNDED)


def messages(name: str, args: tuple) -> np.ndarray:
    """The message table of a target: row ``status`` is the NUL-terminated error of that kernel status, naming
    ``rbda.jax.<name>`` and the argument, as rbda's own checks do."""
    rows = {0: f"rbda.jax.{name}: the compiled kernel failed",
            WRONG_DATA: f"rbda.jax.{name}: workspace of the wrong size", SINGULAR: f"rbda.jax.{name}: {SINGULAR_INERTIA}"}
    for k, arg in enumerate(args):
        rows[1 + 2 * k] = f"rbda.jax.{name}: {arg}: contains non-finite values (NaN or inf)"
        rows[2 + 2 * k] = (f"rbda.jax.{name}: {arg}: is not a valid configuration: a quaternion or (cos, sin) pair "
                           "is not of unit norm; use rbda.normalize(model, q)")
    table = np.zeros((max(rows) + 1, max(len(r) for r in rows.values()) + 1), np.uint8)
    for status, text in rows.items():
        table[status, :len(text)] = np.frombuffer(text.encode(), np.uint8)
    return table


@dataclass
class _Constants:
    """The operands of a model's targets: packed arrays and template workspaces (of the model, and of its
    elementary twin for the derivatives), the derivative workspace's size, the message tables."""
    packed: tuple
    value: tuple
    jacobian: tuple
    dws: int


_cache: dict = {}  # id(model) -> (weak reference, packed I at build time, _Constants)


def _constants(model) -> _Constants:
    entry = _cache.get(id(model))
    if entry is not None and entry[0]() is model and entry[1] is model.packed[0]:
        return entry[2]
    me, _ = sync_elementary(model)
    c = _Constants(model.packed, (*model.packed, model.create_data().ws),
                   (*me.packed, me.create_data().ws), derivative_size(me.njoints, me.nv_extended))
    _cache[id(model)] = (weakref.ref(model), model.packed[0], c)
    weakref.finalize(model, _cache.pop, id(model), None)
    return c


def eligible(model, dtype) -> bool:
    """Whether the compiled path serves ``model`` at ``dtype``."""
    if not enabled or dtype != jnp.float64 or model.mimicking_joints:
        return False
    me = sync_elementary(model)[0]
    if (me.nq, me.nv) != (model.nq, model.nv):
        return False
    return all(model.nqs[i] == model.nvs[i] or model.joints[i].type in _AMBIENT for i in range(1, model.njoints))


def _rotation_jnp(Q):
    """The rotation of a quaternion ``[x, y, z, w]`` (the formula of ``_primitives._rotation``, in jnp)."""
    x, y, z, w = Q[0], Q[1], Q[2], Q[3]
    return jnp.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                      [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                      [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _quaternion_velocity(Q, dQ):
    """``w = T dQ`` for a quaternion rate: ``(K^T K)^-1 K^T dQ`` with ``K = Q (x) [. / 2; 0]``, whose columns are
    orthogonal of norm ``|Q| / 2``: ``w = 2 L(Q)^T dQ / |Q|^2``."""
    x, y, z, w = Q[0], Q[1], Q[2], Q[3]
    L = jnp.array([[w, -z, y], [z, w, -x], [-y, x, w], [-x, -y, -z]])
    return 2.0 * (L.T @ dQ) / (Q @ Q)


def _angle_velocity(C, dC):
    """``w = T dC`` for a ``[cos, sin]`` rate: ``[-s, c] . dC / (c^2 + s^2)``."""
    return jnp.reshape((C[0] * dC[1] - C[1] * dC[0]) / (C @ C), (1,))


def tangent_velocity(model, q, dq):
    """``T(q) dq (nv,)``: the tangent velocity of the ambient rate ``dq (nq,)`` at ``q``, as
    :func:`rbda._primitives.tangent_map` defines it, joint by joint in jnp (linear in ``dq``)."""
    parts = []
    for i in range(1, model.njoints):
        joint, iq, nq, nv = model.joints[i], model.idx_q[i], model.nqs[i], model.nvs[i]
        qi, di = q[iq:iq + nq], dq[iq:iq + nq]
        if nq == nv:
            parts.append(di)
        elif joint.type == JointType.FREE_FLYER:  # K = diag(R, quaternion block)
            parts += [jnp.linalg.solve(_rotation_jnp(qi[3:]), di[:3]), _quaternion_velocity(qi[3:], di[3:])]
        elif joint.type == JointType.SPHERICAL:
            parts.append(_quaternion_velocity(qi, di))
        elif joint.type == JointType.PLANAR:  # K = diag([[c, -s], [s, c]], [-s, c]^T)
            c, s = qi[2], qi[3]
            R2 = jnp.array([[c, -s], [s, c]])
            parts += [jnp.linalg.solve(R2, di[:2]), _angle_velocity(qi[2:], di[2:])]
        else:  # REVOLUTE_UNBOUNDED
            parts.append(_angle_velocity(qi, di))
    return jnp.concatenate(parts) if parts else dq


def _ffi_value(name, model, q, x1, x2):
    c = _constants(model)
    nv = model.nv
    msg = messages(name, _primitives.PRIMITIVES[name].args)
    y, _ = jax.ffi.ffi_call(_ffi.target(f"rbda_{name}"),
                            (jax.ShapeDtypeStruct((nv,), jnp.float64),
                             jax.ShapeDtypeStruct(c.value[2].shape, jnp.float64)))(*c.value, msg, q, x1, x2)
    return y


def _ffi_jacobians(name, model, q, x1, x2):
    c = _constants(model)
    nv = model.nv
    msg = messages(name, _primitives.PRIMITIVES[name].args)
    square = jax.ShapeDtypeStruct((nv, nv), jnp.float64)
    y, Jq, J1, J2, _, _ = jax.ffi.ffi_call(
        _ffi.target(f"rbda_{name}_jac"),
        (jax.ShapeDtypeStruct((nv,), jnp.float64), square, square, square,
         jax.ShapeDtypeStruct(c.jacobian[2].shape, jnp.float64),
         jax.ShapeDtypeStruct((c.dws,), jnp.float64)))(*c.jacobian, msg, q, x1, x2)
    return y, Jq, J1, J2


def _host_batched(name, model, fn, results, xs, in_batched, axis_size):
    """The batched host callback (``rbda.batch``) on the vmapped arguments, ``xs`` moved to a leading axis."""
    from . import _host
    xs = [x if b else jnp.broadcast_to(x, (axis_size,) + x.shape) for x, b in zip(xs, in_batched)]
    return jax.pure_callback(_host(_primitives.PRIMITIVES[name], model, fn, jnp.float64, ()), results, *xs,
                             vmap_method="broadcast_all")


def _tangent_jacobians(p, model, *X, static=()):
    return _primitives.jacobians(p, model, *X, static=static, ambient=False)


def function(name: str, model):
    """``f(q, x1, x2) -> y`` (one state, float64): the compiled primitive ``name`` (``rnea`` or ``aba``) as a
    ``jax.custom_jvp`` whose JVP is ``dy = J_q T(q) dq + J_1 dx1 + J_2 dx2`` with the Jacobians of a second
    custom call; under ``vmap`` both run as one batched host callback."""
    nv = model.nv

    @jax.custom_batching.custom_vmap
    def value(q, x1, x2):
        return _ffi_value(name, model, q, x1, x2)

    @value.def_vmap
    def value_vmap(axis_size, in_batched, q, x1, x2):
        out = jax.ShapeDtypeStruct((axis_size, nv), jnp.float64)
        return _host_batched(name, model, _primitives.evaluate, out, (q, x1, x2), in_batched, axis_size), True

    @jax.custom_batching.custom_vmap
    def jacobians(q, x1, x2):
        return _ffi_jacobians(name, model, q, x1, x2)

    @jacobians.def_vmap
    def jacobians_vmap(axis_size, in_batched, q, x1, x2):
        square = jax.ShapeDtypeStruct((axis_size, nv, nv), jnp.float64)
        out = (jax.ShapeDtypeStruct((axis_size, nv), jnp.float64), square, square, square)
        return (_host_batched(name, model, _tangent_jacobians, out, (q, x1, x2), in_batched, axis_size),
                (True,) * 4)

    @jax.custom_jvp
    def f(q, x1, x2):
        return value(q, x1, x2)

    @f.defjvp
    def f_jvp(xs, dxs):
        q, x1, x2 = xs
        dq, d1, d2 = dxs
        y, Jq, J1, J2 = jacobians(q, x1, x2)
        if model.nq != model.nv:
            dq = tangent_velocity(model, q, dq)
        return y, Jq @ dq + J1 @ d1 + J2 @ d2

    return f
