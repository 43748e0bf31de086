"""The compiled path of :mod:`rbda.jax`: under ``jax.jit`` (not ``vmap``), the functions of :data:`ALGORITHMS`
(rnea, aba, crba, integrate, the CoM, the joint and frame placements) are XLA FFI custom calls that run rbda's
kernels inside the XLA executable (:mod:`rbda._native.xla_ffi`), their value and, for the JVP, their analytical
Jacobians. The placements' JVP is ``dP = [w x R | v + w x p]`` with the twist ``(v, w)`` of each placement's
joint, the world Jacobian columns of its support times ``dq``, in jnp. ``vmap`` maps them onto the host callback of the batched algorithms (one ``rbda.batch``
call, through ``jax.custom_batching.custom_vmap``).

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
from ..model.layout import whole_body_size
from ..model.elementary import sync_elementary
from .._native import xla_ffi as _ffi

ALGORITHMS = ("rnea", "aba", "integrate", "center_of_mass", "crba", "forward_kinematics", "frames_forward_kinematics",
              "frame_placement")
KINEMATICS = ("forward_kinematics", "frames_forward_kinematics", "frame_placement",
              "frame_jacobian")  # one target: rbda_kinematics
CONSTRAINED = ("constraint_dynamics", "constraint_forces")  # one pair of targets: rbda_constraint_dynamics(_jac)
ALGORITHMS += CONSTRAINED + ("frame_jacobian",)
enabled = True  # False: every call takes the host callback (for comparisons: benchmarks/bench_bridges.py)
_AMBIENT = (JointType.FREE_FLYER, JointType.SPHERICAL, JointType.PLANAR, JointType.REVOLUTE_UNBOUNDED)


def messages(name: str, args: tuple) -> np.ndarray:
    """The message table of a target (:func:`_messages`), kept per function name."""
    if name not in _tables:
        _tables[name] = _messages(name, args)
    return _tables[name]


_tables: dict = {}


def _messages(name: str, args: tuple) -> np.ndarray:
    """The message table of a target: row ``status`` is the NUL-terminated error of that kernel status, naming
    ``rbda.jax.<name>`` and the argument, as rbda's own checks do (``ValueError: rbda.jax.rnea: q: ...``, the
    line that ends JAX's error from the host callback too)."""
    from ..algorithms.constrained import SINGULAR_SET
    from ..kernels import constrained as kc
    rows = {0: "the compiled kernel failed", WRONG_DATA: "workspace of the wrong size", SINGULAR: SINGULAR_INERTIA,
            kc.SINGULAR_SET: SINGULAR_SET,
            kc.NONFINITE_CONSTRAINT: "contact_models: a placement, gain or target of a constraint holds NaN or inf"}
    for k, arg in enumerate(args):
        rows[1 + 2 * k] = f"{arg}: contains non-finite values (NaN or inf)"
        rows[2 + 2 * k] = (f"{arg}: is not a valid configuration: a quaternion or (cos, sin) pair is not of unit "
                           "norm; use rbda.normalize(model, q)")
    rows = {status: f"ValueError: rbda.jax.{name}: {text}" for status, text in rows.items()}  # as the callback's
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


def eligible(model, dtype, name: str = "") -> bool:
    """Whether the compiled path serves ``name`` for ``model`` at ``dtype`` (the frame Jacobian's derivative
    needs joints whose motion subspaces are constant: a model that is its own elementary twin)."""
    if name == "frame_jacobian" and sync_elementary(model)[0] is not model:
        return False
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


def _quaternion_left(Q):
    """``L(Q) (4, 3)``: ``Q (x) [w; 0] = L(Q) w`` for quaternions ``[x, y, z, w]``."""
    x, y, z, w = Q[0], Q[1], Q[2], Q[3]
    return jnp.array([[w, -z, y], [z, w, -x], [-y, x, w], [-x, -y, -z]])


def _quaternion_velocity(Q, dQ):
    """``w = T dQ`` for a quaternion rate: ``(K^T K)^-1 K^T dQ`` with ``K = L(Q) / 2``, whose columns are
    orthogonal of norm ``|Q| / 2``: ``w = 2 L(Q)^T dQ / |Q|^2``."""
    return 2.0 * (_quaternion_left(Q).T @ dQ) / (Q @ Q)


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


def ambient_rate(model, q, v):
    """``K(q) v (nq,)``: the ambient rate of configurations ``q`` moving at the tangent velocity ``v (nv,)``, as
    :func:`rbda._primitives.configuration_map` defines it, joint by joint in jnp (linear in ``v``)."""
    parts = []
    for i in range(1, model.njoints):
        joint, iq, iv, nq, nv = model.joints[i], model.idx_q[i], model.idx_v[i], model.nqs[i], model.nvs[i]
        qi, vi = q[iq:iq + nq], v[iv:iv + nv]
        if nq == nv:
            parts.append(vi)
        elif joint.type == JointType.FREE_FLYER:  # K = diag(R, q (x) [. / 2; 0])
            parts += [_rotation_jnp(qi[3:]) @ vi[:3], 0.5 * _quaternion_left(qi[3:]) @ vi[3:]]
        elif joint.type == JointType.SPHERICAL:
            parts.append(0.5 * _quaternion_left(qi) @ vi)
        elif joint.type == JointType.PLANAR:
            c, s = qi[2], qi[3]
            parts += [jnp.array([[c, -s], [s, c]]) @ vi[:2], jnp.stack([-s, c]) * vi[2]]
        else:  # REVOLUTE_UNBOUNDED
            parts.append(jnp.stack([-qi[1], qi[0]]) * vi[0])
    return jnp.concatenate(parts) if parts else v


def _operands(name, model) -> tuple:
    """The constant operands ``(I, F, ws0, messages)`` of the value and of the Jacobian targets of ``name``."""
    c = _constants(model)
    msg = messages(name, _primitives.PRIMITIVES[name].args)
    if name in KINEMATICS:
        return (*c.value, msg), None
    if name in ("integrate", "center_of_mass"):  # the model's own arrays (c.value); integrate has no
        value = (*c.value[:2], np.zeros(1), msg) if name == "integrate" else (*c.value, msg)  # workspace: a
        return value, value  # one-entry placeholder keeps the operand layout
    return (*c.value, msg), (*c.jacobian, msg)


def _sizes(name, model) -> tuple:
    """``(shape, rows)``: the shape of the value target's result and its Jacobians' rows (tangent rows for a
    configuration)."""
    if name == "integrate":
        return (model.nq,), model.nv
    if name == "crba":
        return (model.nv, model.nv), model.nv * model.nv
    n = 3 if name == "center_of_mass" else model.nv
    return (n,), n


def _workspaces(name, model, jacobians: bool) -> list:
    """The extra results of a target that only serve as its workspaces (dropped)."""
    c = _constants(model)
    if name == "integrate":
        return []
    if name == "center_of_mass":
        return [c.value[2].shape, (whole_body_size(model.njoints, model.nv_extended),)]
    if name == "crba" and jacobians:
        return [c.jacobian[2].shape, (c.dws,), (3, model.nv, model.nv, model.nv)]
    return [c.jacobian[2].shape, (c.dws,)] if jacobians else [c.value[2].shape]


def _ffi_kinematics(name, model, q, static):
    """``(placements, J)``: the placements that ``name`` returns (``(n, 3, 4)``, or ``(3, 4)`` for one frame) and
    the world Jacobian columns ``J (nv, 6)``, from one ``rbda_kinematics`` custom call."""
    value, _ = _operands(name, model)
    results = [(model.njoints, 3, 4), (model.nframes, 3, 4), (model.nv, 6), _constants(model).value[2].shape]
    results = [jax.ShapeDtypeStruct(shape, jnp.float64) for shape in results]
    oMi, oMf, J, _ = _ffi.call("rbda_kinematics", results)(*value, q)
    return (oMi if name == "forward_kinematics" else oMf if name == "frames_forward_kinematics" else
            oMf[static[0]]), J  # frame_placement, frame_jacobian: the frame's placement


def _constraint_operands(model, contact_models, settings, elementary: bool) -> tuple:
    """``(CI, CF, [mu, accuracy, max_iter])``: the packed constraint set (its joints mapped onto the elementary
    twin for the derivatives) and the settings."""
    from ..kernels import constrained as kc
    nc = len(contact_models)
    CI = np.array([cm.ints for cm in contact_models], dtype=np.int64).reshape(nc, kc.CONSTRAINT_INTS)
    CF = np.array([cm.params for cm in contact_models], dtype=np.float64).reshape(nc, kc.CONSTRAINT_FLOATS)
    if elementary:
        CI[:, 2:] = np.asarray(sync_elementary(model)[1])[CI[:, 2:]]
    return CI, CF, kc.proximal_values(settings)


def _ffi_constrained(name, model, xs, static, jacobians: bool):
    """``(ddq or lambda, *Jacobians)`` from one ``rbda_constraint_dynamics`` (or ``_jac``) custom call."""
    from ..kernels import constrained as kc
    from ..kernels import constrained_derivatives as kd
    contact_models, settings = static
    c, nv, nc = _constants(model), model.nv, len(contact_models)
    m = sum(cm.size for cm in contact_models)
    msg = messages(name, _primitives.PRIMITIVES[name].args)
    operands = (*(c.jacobian if jacobians else c.value), msg,
                *_constraint_operands(model, contact_models, settings, jacobians))
    buffers = [(nv, nv), (nv,), (nv,), (nc, kc.RECORD), (m, nv), (m,), (kc.work_size(m, nv, model.nq),), (kc.STATS,)]
    if jacobians:
        results = [(nv,), (m,)] + [(nv, nv)] * 3 + [(m, nv)] * 3 + [c.jacobian[2].shape, (c.dws,)] + buffers \
            + [(kd.work_size(m, nv),)]
    else:
        results = [(nv,), (m,), c.value[2].shape] + buffers
    target = "rbda_constraint_dynamics" + ("_jac" if jacobians else "")
    out = _ffi.call(target, [jax.ShapeDtypeStruct(s, jnp.float64) for s in results])(*operands, *xs)
    forces = name == "constraint_forces"
    if not jacobians:
        return out[forces]
    return (out[forces], *(out[5:8] if forces else out[2:5]))


def _ffi_value(name, model, *xs, static=()):
    if name in CONSTRAINED:
        return _ffi_constrained(name, model, xs, static, False)
    if name == "frame_jacobian":
        return frame_jacobian(*_ffi_kinematics(name, model, xs[0], static), _support(model, name, static),
                              static[1])
    if name in KINEMATICS:
        return _ffi_kinematics(name, model, xs[0], static)[0]
    value, _ = _operands(name, model)
    results = [_sizes(name, model)[0]] + _workspaces(name, model, False)
    results = [jax.ShapeDtypeStruct(shape, jnp.float64) for shape in results]
    return _ffi.call(f"rbda_{name}", results)(*value, *xs)[0]


def _ffi_jacobians(name, model, *xs, static=()):
    if name in CONSTRAINED:
        return _ffi_constrained(name, model, xs, static, True)
    if name in KINEMATICS:
        return _ffi_kinematics(name, model, xs[0], static)
    _, jacobian = _operands(name, model)
    shape, rows = _sizes(name, model)
    J = [(model.nv,) * 3] if name == "crba" else [(rows, model.nv)] * len(xs)
    results = [shape] + J + _workspaces(name, model, True)
    results = [jax.ShapeDtypeStruct(shape, jnp.float64) for shape in results]
    return tuple(_ffi.call(f"rbda_{name}_jac", results)(*jacobian, *xs)[:1 + len(xs)])


def _host_batched(name, model, fn, results, xs, in_batched, axis_size, static=()):
    """The batched host callback (``rbda.batch``) on the vmapped arguments, ``xs`` moved to a leading axis."""
    from . import _host
    xs = [x if b else jnp.broadcast_to(x, (axis_size,) + x.shape) for x, b in zip(xs, in_batched)]
    return jax.pure_callback(_host(_primitives.PRIMITIVES[name], model, fn, jnp.float64, static), results, *xs,
                             vmap_method="broadcast_all")


def _tangent_jacobians(p, model, *X, static=()):
    """rbda's tangent Jacobians in the layout of the Jacobian target: ``dM (B, nv, nv, nv)`` for crba, and for
    the placements the placements and the world Jacobian columns ``(B, nv, 6)``."""
    if p.name in KINEMATICS:
        from .. import batch
        P = (batch.frames_forward_kinematics(model, X[0])[:, static[0]] if p.name == "frame_jacobian" else
             _primitives.evaluate(p, model, *X, static=static))
        return P, batch.compute_joint_jacobians(model, X[0]).transpose(0, 2, 1).copy()
    y, *J = _primitives.jacobians(p, model, *X, static=static, ambient=False)
    return (y, J[0].reshape(y.shape + (model.nv,))) if p.name == "crba" else (y, *J)


def _support(model, name, static) -> np.ndarray:
    """``(n, nv)``, or ``(nv,)`` for one frame: 1 in the columns that move each placement of ``name``."""
    mask = _primitives._support_mask(model)
    if name == "forward_kinematics":
        return mask
    if name == "frame_jacobian":
        return mask[model.frames[static[0]].parent_joint]
    parents = [f.parent_joint for f in model.frames]
    return mask[parents] if name == "frames_forward_kinematics" else mask[parents[static[0]]]


def _motion_cross(a, b):
    """``a x b`` of spatial motions ``[v; w]`` (``(..., 6)``): ``[w_a x v_b + v_a x w_b; w_a x w_b]``."""
    return jnp.concatenate([jnp.cross(a[..., 3:], b[..., :3]) + jnp.cross(a[..., :3], b[..., 3:]),
                            jnp.cross(a[..., 3:], b[..., 3:])], axis=-1)


def _express(columns, P, rf):
    """World columns ``(n, 6)`` (twists at the world origin) in ``rf`` at the placement ``P (3, 4)``, as rows."""
    if rf == int(_primitives.ReferenceFrame.WORLD):
        return columns
    lin = columns[:, :3] + jnp.cross(columns[:, 3:], P[:, 3])  # the velocity of the frame's origin
    lwa = jnp.concatenate([lin, columns[:, 3:]], axis=1)
    if rf == int(_primitives.ReferenceFrame.LOCAL_WORLD_ALIGNED):
        return lwa
    R = P[:, :3]
    return jnp.concatenate([lwa[:, :3] @ R, lwa[:, 3:] @ R], axis=1)  # rows R^T x


def frame_jacobian(P, J, mask, rf):
    """The frame Jacobian ``(6, nv)`` in ``rf`` of a frame at ``P (3, 4)`` moved by the dofs ``mask (nv,)``, from
    the world Jacobian columns ``J (nv, 6)`` (twists at the world origin)."""
    return _express(J * mask[:, None], P, rf).T


def frame_jacobian_rate(P, J, mask, above, rf, dq):
    """The derivative of :func:`frame_jacobian` along the tangent velocity ``dq (nv,)``: column ``c`` moves as
    ``t_c x J_c`` with ``t_c = sum_k above[c, k] dq_k J_k`` (the dofs of its joint and of its ancestors: rbda's
    kinematic Hessians), the frame's origin at ``v_f + w_f x p`` and its rotation at ``w_f`` (``(v_f, w_f) =
    (mask dq) J``), so ``d lwa_c = (dv_c + dw_c x p + w_c x dp, dw_c)`` and ``d local_c = R^T (d lwa_c - w_f x
    lwa_c)``."""
    cols = J * mask[:, None]
    dcols = _motion_cross((above * dq[None, :]) @ J, cols) * mask[:, None]
    if rf == int(_primitives.ReferenceFrame.WORLD):
        return dcols.T
    tf = (mask * dq) @ J
    dp = tf[:3] + jnp.cross(tf[3:], P[:, 3])
    dlin = dcols[:, :3] + jnp.cross(dcols[:, 3:], P[:, 3]) + jnp.cross(cols[:, 3:], dp)
    dlwa = jnp.concatenate([dlin, dcols[:, 3:]], axis=1)
    if rf == int(_primitives.ReferenceFrame.LOCAL_WORLD_ALIGNED):
        return dlwa.T
    lwa = _express(cols, P, int(_primitives.ReferenceFrame.LOCAL_WORLD_ALIGNED))
    turn = jnp.concatenate([jnp.cross(tf[3:], lwa[:, :3]), jnp.cross(tf[3:], lwa[:, 3:])], axis=1)
    R = P[:, :3]
    d = dlwa - turn
    return jnp.concatenate([d[:, :3] @ R, d[:, 3:] @ R], axis=1).T


def _above(model) -> np.ndarray:
    """``(nv, nv)``: 1 at ``[c, k]`` when dof ``k`` belongs to the joint of dof ``c`` or to one of its ancestors."""
    support = _primitives._support_mask(model)
    joint = np.zeros(model.nv, dtype=int)
    for i in range(1, model.njoints):
        joint[model.idx_v[i]:model.idx_v[i] + model.nvs[i]] = i
    return support[joint]


def placement_rate(P, J, mask, dq):
    """``dP``: the rate of the placements ``P (..., 3, 4)`` ``[R | p]`` (world frame) when ``q`` moves at the
    tangent velocity ``dq (nv,)``: each turns at ``w`` and its joint's origin-twist ``(v, w) = J^T (mask dq)``
    (``J (nv, 6)`` the world Jacobian columns, ``mask (..., nv)`` the placement's support), so ``dR = w x R``,
    ``dp = v + w x p``."""
    twist = (mask * dq) @ J  # (..., 6)
    v, w = twist[..., :3], twist[..., 3:]
    dR = jnp.cross(w[..., None, :], jnp.swapaxes(P[..., :3], -1, -2))  # w x (each column of R), as rows
    dp = v + jnp.cross(w, P[..., 3])
    return jnp.concatenate([jnp.swapaxes(dR, -1, -2), dp[..., None]], axis=-1)


def function(name: str, model, static: tuple = ()):
    """``f(*x) -> y`` (one state, float64): the compiled primitive ``name`` (one of :data:`ALGORITHMS`) as a
    ``jax.custom_jvp`` whose JVP is ``dy = sum_k J_k dx_k`` with rbda's tangent Jacobians from a second custom
    call (``dM = dM/dq . dx`` for crba, :func:`placement_rate` for the placements), ``dx_q = T(q) dq`` for the
    configuration and ``dy = K(y) dy_tangent`` for a configuration result (integrate); under ``vmap`` both run as
    one batched host callback."""
    p = _primitives.PRIMITIVES[name]
    nv, ambient = model.nv, model.nq != model.nv
    shape = tuple(p.shape(model, *static))

    @jax.custom_batching.custom_vmap
    def value(*xs):
        return _ffi_value(name, model, *xs, static=static)

    @value.def_vmap
    def value_vmap(axis_size, in_batched, *xs):
        out = jax.ShapeDtypeStruct((axis_size,) + shape, jnp.float64)
        return _host_batched(name, model, _primitives.evaluate, out, xs, in_batched, axis_size, static), True

    @jax.custom_batching.custom_vmap
    def jacobians(*xs):
        return _ffi_jacobians(name, model, *xs, static=static)

    @jacobians.def_vmap
    def jacobians_vmap(axis_size, in_batched, *xs):
        if name in KINEMATICS:
            single = [(3, 4) if name == "frame_jacobian" else shape, (nv, 6)]
        elif name in CONSTRAINED:
            single = [shape] + [shape + (nv,)] * len(xs)
        else:
            rows = _sizes(name, model)[1]
            single = [shape] + ([(nv, nv, nv)] if name == "crba" else [(rows, nv)] * len(xs))
        out = tuple(jax.ShapeDtypeStruct((axis_size,) + s, jnp.float64) for s in single)
        return (_host_batched(name, model, _tangent_jacobians, out, xs, in_batched, axis_size, static),
                (True,) * len(out))

    @jax.custom_jvp
    def f(*xs):
        return value(*xs)

    @f.defjvp
    def f_jvp(xs, dxs):
        y, *J = jacobians(*xs)
        dxs = [tangent_velocity(model, x, dx) if arg == "q" and ambient else dx
               for arg, x, dx in zip(p.args, xs, dxs)]
        if name == "frame_jacobian":
            mask = _support(model, name, static)
            return (frame_jacobian(y, J[0], mask, static[1]),
                    frame_jacobian_rate(y, J[0], mask, _above(model), static[1], dxs[0]))
        if name in KINEMATICS:
            return y, placement_rate(y, J[0], _support(model, name, static), dxs[0])
        dy = sum(Jk @ dx for Jk, dx in zip(J, dxs))  # dy = sum_k J_k dx_k, in the tangent space
        return y, ambient_rate(model, y, dy) if p.configuration_output and ambient else dy

    return f
