"""rbda's algorithms inside JAX: functions of JAX arrays that work under ``jax.jit``, map ``jax.vmap`` onto
``rbda.batch`` and differentiate (``jax.jvp``, ``jax.vjp``, ``jax.grad``, ``jax.jacfwd``) through rbda's
analytical derivatives, never by tracing the algorithm. Needs the ``jax`` extra (``pip install 'rbda[jax]'``).

>>> import jax, jax.numpy as jnp, numpy as np, rbda, rbda.jax
>>> jax.config.update("jax_enable_x64", True)
>>> model = rbda.sample_models.manipulator()
>>> q, v, a = jnp.zeros(6), jnp.ones(6), jnp.zeros(6)
>>> dtau = jax.jacfwd(lambda v: rbda.jax.rnea(model, q, v, a))(v)   # rbda's dtau_dv
>>> bool(np.allclose(dtau, rbda.compute_rnea_derivatives(model, rbda.Data(model), q, v, a)[1]))
True

How: each function is a ``jax.custom_jvp`` whose value is a ``jax.pure_callback`` to the compiled algorithm and
whose JVP is ``dy = sum_i J_i dx_i`` with the Jacobians ``J_i`` from a second callback to rbda's derivative
functions; reverse mode transposes that linear map. Under ``jax.vmap`` the callbacks receive the whole batch
(``vmap_method="broadcast_all"``) and run the ``rbda.batch`` twin in one call. Concrete (not traced) arguments
skip the callback and call rbda directly. Under ``jit`` (one float64 state, a model without mimic joints),
:func:`rnea`, :func:`aba`, :func:`crba`, :func:`integrate`, :func:`center_of_mass`, :func:`forward_kinematics`,
:func:`frames_forward_kinematics`, :func:`frame_placement`, :func:`constraint_dynamics` and
:func:`constraint_forces` skip the callback too: their value and Jacobians
are XLA FFI custom calls of rbda's compiled kernels (:mod:`rbda.jax._compiled`), a few us a call instead of
100+ us. Their model enters the compiled program as constants when it is traced: after
editing the model (masses, gravity), trace again (a new ``jax.jit``), as for any constant a jitted function
closes over.

Arguments take the shapes of the plain functions, ``q: (nq,)`` and ``v, a, tau: (nv,)``, with optional leading
batch axes (broadcast against each other). Results have the arguments' float dtype (float32 unless
``jax_enable_x64`` is set; rbda computes in float64 either way). Derivatives with respect to ``q`` are taken in
ambient coordinates: a model with ``nq != nv`` (free flyer, spherical, planar, unbounded revolute joints) maps an
ambient tangent ``dq`` to rbda's tangent velocity by ``T(q)`` (``v = T(q) dq`` for ``dq`` tangent to the unit
quaternions and ``[cos, sin]`` pairs; a radial component is ignored), so that a gradient with respect to ``q``
is ``T(q)^T`` times rbda's tangent-space gradient. :func:`integrate`, whose result is a configuration, maps its
tangent derivatives to ambient rates at the result (``dq = K(q) v``, ``K = d(q (+) v)/dv`` at ``v = 0``).

Errors: a wrong shape or dtype raises ``ValueError``/``TypeError`` naming the argument when the function is
called (also while tracing). A bad value (NaN, a non-unit quaternion) is only known when the computation runs:
on concrete arguments it raises rbda's ``ValueError``; under ``jit``/``grad``/``vmap`` JAX re-raises it as a
``jax.errors.JaxRuntimeError`` whose message ends with rbda's ``ValueError: rbda.jax.<name>: q: ...`` line (from
a custom call: ``INVALID_ARGUMENT: ValueError: rbda.jax.<name>: q: ...``, without the joint's name).
"""

from __future__ import annotations

try:
    import jax
    import jax.numpy as jnp
except ImportError as exc:
    raise ImportError("rbda.jax needs JAX: pip install 'rbda[jax]' (or pip install jax)") from exc

import weakref

import numpy as np

from .. import _primitives
from .._primitives import PRIMITIVES
from ..model.model import frame_id_arg
from . import _compiled

__all__ = ["aba", "center_of_mass", "constraint_dynamics", "constraint_forces", "crba", "forward_kinematics",
           "frame_jacobian", "frame_placement", "frames_forward_kinematics", "integrate", "rnea", "simulator_step"]


def _inputs(p, model, xs) -> tuple:
    """``(arrays, leading shape, dtype)``: the arguments (numpy or JAX arrays) checked by their shapes and dtypes,
    which are known while tracing, their broadcast leading axes and their common float dtype."""
    who = f"rbda.jax.{p.name}"
    arrays = []
    for arg, n, x in zip(p.args, p.sizes(model), xs):
        if not isinstance(x, (jax.Array, np.ndarray)):
            try:
                x = np.asarray(x)
            except (TypeError, ValueError):
                got = type(x).__name__
                raise TypeError(f"{who}: {arg}: expected an array of shape (..., {n}), got {got}") from None
        if x.dtype != np.float64 and not (jnp.issubdtype(x.dtype, jnp.floating) or jnp.issubdtype(x.dtype, jnp.integer)):
            raise TypeError(f"{who}: {arg}: expected real numbers, got dtype {x.dtype}")
        if x.ndim == 0 or x.shape[-1] != n:
            size = "nq" if arg == "q" else "nv"
            raise ValueError(f"{who}: {arg}: expected shape (..., {n}) ({size} = {n}), got {x.shape}")
        arrays.append(x)
    try:
        lead = np.broadcast_shapes(*(x.shape[:-1] for x in arrays))
    except ValueError:
        shapes = ", ".join(f"{a}: {x.shape}" for a, x in zip(p.args, arrays))
        raise ValueError(f"{who}: the leading (batch) axes of the arguments do not broadcast ({shapes})") from None
    if all(x.dtype == np.float64 for x in arrays):  # the common case, without JAX's type lattice (50+ us)
        return arrays, lead, np.dtype(np.float64 if jax.config.jax_enable_x64 else np.float32)
    return arrays, lead, jnp.result_type(float, *(x.dtype for x in arrays))


def _host(p, model, fn, dtype, static: tuple):
    """``fn(p, model, *X, static=static)`` (``_primitives.evaluate`` or ``jacobians``) on the callback's numpy
    arrays, whose leading axes (the caller's and vmap's) are flattened into one batch axis and restored on the
    results. The callback's arrays are read-only: they are copied into writable ones, for which the kernels are
    compiled (a read-only array would compile each kernel it reaches a second time, for minutes)."""
    def call(*xs):
        lead = xs[0].shape[:-1]
        X = [np.require(np.reshape(x, (-1, x.shape[-1])), np.float64, ("C", "W")) for x in xs]
        try:
            out = fn(p, model, *X, static=static)
        except ValueError as exc:
            raise ValueError(f"rbda.jax.{p.name}: {exc}") from None
        if isinstance(out, tuple):
            return tuple(np.asarray(y.reshape(lead + y.shape[1:]), dtype=dtype) for y in out)
        return np.asarray(out.reshape(lead + out.shape[1:]), dtype=dtype)
    return call


def _primitive(p, model, static: tuple):
    """``p`` as a ``jax.custom_jvp`` function of its arguments (checked arrays of one dtype and leading shape)."""
    shape = p.shape(model, *static)
    size = int(np.prod(shape))

    @jax.custom_jvp
    def f(*xs):
        lead, dtype = xs[0].shape[:-1], xs[0].dtype
        result = jax.ShapeDtypeStruct(lead + shape, dtype)
        return jax.pure_callback(_host(p, model, _primitives.evaluate, dtype, static), result, *xs,
                                 vmap_method="broadcast_all")

    @f.defjvp
    def f_jvp(xs, dxs):
        lead, dtype = xs[0].shape[:-1], xs[0].dtype
        results = (jax.ShapeDtypeStruct(lead + shape, dtype),
                   *(jax.ShapeDtypeStruct(lead + (size, x.shape[-1]), dtype) for x in xs))
        y, *J = jax.pure_callback(_host(p, model, _primitives.jacobians, dtype, static), results, *xs,
                                  vmap_method="broadcast_all")
        dy = sum(jnp.einsum("...ij,...j->...i", Jk, dx) for Jk, dx in zip(J, dxs))  # dy = sum_k J_k dx_k
        return y, dy.reshape(y.shape)

    return f


# (name, id(model), static) -> [weak reference, packed I, stamp (bytes), jitted or None], the most recently used
# last. A traced function holds its model through closures that JAX keeps in objects the garbage collector cannot
# see into, so a kept jitted function keeps its model alive: the table keeps the last _JITTED_KEPT only.
_jitted: dict = {}
_JITTED_KEPT = 32


def _concrete_constrained(name: str, model, xs, contact_models, prox_settings):
    """The constrained ``name`` on concrete arguments through a kept ``jax.jit`` made by an earlier, checked call
    with the same constraint objects, unchanged, and settings of the same values (so the checks of
    :func:`rbda._primitives.constraint_static`, ~90 us, are not repeated); None otherwise."""
    if type(contact_models) not in (list, tuple) or any(isinstance(x, jax.core.Tracer) for x in xs):
        return None
    if not all(hasattr(cm, "ints") and hasattr(cm, "params") for cm in contact_models):
        return None
    if prox_settings is None:
        if not _DEFAULT_SETTINGS:
            _DEFAULT_SETTINGS.append(_primitives.constraint_static(model, (), None)[1])
        prox_settings = _DEFAULT_SETTINGS[0]  # read for its values only
    elif not hasattr(prox_settings, "max_iter"):
        return None
    return _concrete_compiled(name, model, xs, (tuple(contact_models), prox_settings), create=False)


_DEFAULT_SETTINGS: list = []  # ProximalSettings(), made once


def _concrete_compiled(name: str, model, xs, static: tuple, create: bool = True):
    """The value of a compiled primitive (:data:`_compiled.ALGORITHMS`) on concrete float64 vectors (one state)
    through a ``jax.jit`` of it kept per model, frame and shapes: one XLA call instead of a round trip through
    numpy and back into a JAX array (``jnp.asarray`` alone costs 40+ us). None when that path does not apply,
    and on the first call of a function for a model (a one-off call does not pay for a compilation). The
    model's packed arrays (and a constraint set's packed rows) are compared with those the function was traced
    with: an edited model or constraint is traced again. A bad value returns None, so that the host path
    reports it with rbda's own error."""
    if name not in _compiled.ALGORITHMS or not jax.config.jax_enable_x64:
        return None
    for x in xs:
        if not isinstance(x, (np.ndarray, jax.Array)) or x.ndim != 1 or x.dtype != np.float64:
            return None
    I, F = model.packed
    stamp = F.tobytes()
    if name in _compiled.CONSTRAINED:  # contact models may be edited in place: their packed rows join the stamp
        cms, settings = static
        key = (name, id(model), tuple(map(id, cms)), (settings.mu, settings.absolute_accuracy, settings.max_iter))
        stamp += b"".join(cm.ints.tobytes() + cm.params.tobytes() for cm in cms)
    else:
        key = (name, id(model), static)
    entry = _jitted.get(key)
    if entry is None or entry[0]() is not model or entry[1] is not I or entry[2] != stamp:
        if not create or not _compiled.eligible(model, jnp.float64, name):
            return None
        _jitted[key] = [weakref.ref(model), I, stamp, None]
        weakref.finalize(model, _jitted.pop, key, None)
        while len(_jitted) > _JITTED_KEPT:  # the least recently used goes, and its model with it
            del _jitted[next(iter(_jitted))]
        return None
    _jitted[key] = _jitted.pop(key)  # most recently used: last
    if entry[3] is None:
        entry[3] = jax.jit(lambda *x: _call(name, model, *x, static=static))
    try:
        return entry[3](*xs)
    except jax.errors.JaxRuntimeError:  # a bad value: rbda's own message from the host path
        return None


def _call(name: str, model, *xs, static: tuple = ()):
    if not any(isinstance(x, jax.core.Tracer) for x in xs) and _compiled.enabled:
        y = _concrete_compiled(name, model, xs, static)
        if y is not None:
            return y
    p = PRIMITIVES[name]
    arrays, lead, dtype = _inputs(p, model, xs)
    if not any(isinstance(x, jax.core.Tracer) for x in arrays):  # concrete: no callback, rbda's own errors
        arrays = [np.broadcast_to(np.asarray(x), lead + x.shape[-1:]) for x in arrays]
        return jnp.asarray(_host(p, model, _primitives.evaluate, dtype, static)(*arrays))
    arrays = [jnp.broadcast_to(jnp.asarray(x, dtype), lead + x.shape[-1:]) for x in arrays]
    if name in _compiled.ALGORITHMS and not lead and _compiled.eligible(model, dtype, name):  # one state: in XLA
        return _compiled.function(name, model, static)(*arrays)
    return _primitive(p, model, static)(*arrays)


def rnea(model, q, v, a):
    """Inverse dynamics ``tau = M(q) a + b(q, v)`` (:func:`rbda.rnea`) as a JAX function.

    Parameters: ``model`` (:class:`rbda.Model`), ``q: (..., nq)``, ``v: (..., nv)``, ``a: (..., nv)`` (JAX or
    numpy arrays; leading axes broadcast). Returns ``tau: (..., nv)``. Derivatives: rbda's
    ``compute_rnea_derivatives`` (``dtau_dq``, ``dtau_dv``, ``dtau_da = M``). Raises ``ValueError``/``TypeError``
    naming the argument for a wrong shape, dtype or value (see the module's notes on errors under ``jit``)."""
    return _call("rnea", model, q, v, a)


def aba(model, q, v, tau):
    """Forward dynamics ``ddq = M(q)^-1 (tau - b(q, v))`` (:func:`rbda.aba`) as a JAX function.

    Parameters: ``model``, ``q: (..., nq)``, ``v: (..., nv)``, ``tau: (..., nv)``. Returns ``ddq: (..., nv)``.
    Derivatives: rbda's ``compute_aba_derivatives`` (``ddq_dq``, ``ddq_dv``, ``ddq_dtau = M^-1``). Raises as
    :func:`rnea` does."""
    return _call("aba", model, q, v, tau)


def crba(model, q):
    """Joint-space inertia matrix ``M(q)`` (:func:`rbda.crba`, both triangles) as a JAX function.

    Parameters: ``model``, ``q: (..., nq)``. Returns ``M: (..., nv, nv)``. Derivatives: ``dM/dq_k``, rbda's
    ``compute_rnea_second_order_derivatives`` (``dtau_dadq``). Raises as :func:`rnea` does."""
    return _call("crba", model, q)


def center_of_mass(model, q):
    """Centre of mass of the whole model in the world frame (:func:`rbda.center_of_mass`) as a JAX function.

    Parameters: ``model``, ``q: (..., nq)``. Returns ``com: (..., 3)``. Derivatives: rbda's
    ``jacobian_center_of_mass``. Raises as :func:`rnea` does."""
    return _call("center_of_mass", model, q)


def forward_kinematics(model, q):
    """Joint placements ``oMi`` in the world frame (:func:`rbda.forward_kinematics`) as a JAX function.

    Parameters: ``model``, ``q: (..., nq)``. Returns ``(..., njoints, 3, 4)`` arrays ``[R | p]`` (entry 0 the
    universe), as :func:`rbda.batch.forward_kinematics` does. Derivatives: from rbda's world joint Jacobians
    (``compute_joint_jacobians``): a dof moving joint i by the twist ``(v, w)`` at the world origin changes its
    placement by ``dR = w x R``, ``dp = v + w x p``. Raises as :func:`rnea` does."""
    return _call("forward_kinematics", model, q)


def frames_forward_kinematics(model, q):
    """Frame placements ``oMf`` in the world frame (:func:`rbda.frames_forward_kinematics`) as a JAX function.

    Parameters: ``model``, ``q: (..., nq)``. Returns ``(..., nframes, 3, 4)`` arrays ``[R | p]``, as
    :func:`rbda.batch.frames_forward_kinematics` does (``model.get_frame_id(name)`` indexes them). Derivatives:
    as :func:`forward_kinematics`, each frame moving with its parent joint. Raises as :func:`rnea` does."""
    return _call("frames_forward_kinematics", model, q)


def integrate(model, q, v):
    """``q (+) v``: the configuration reached from ``q`` along the tangent velocity ``v`` in unit time
    (:func:`rbda.integrate`), as a JAX function; the step of a rollout on the configuration's Lie group.

    Parameters: ``model``, ``q: (..., nq)``, ``v: (..., nv)``. Returns ``(..., nq)``. Derivatives: rbda's
    ``d_integrate`` (tangent spaces), mapped to ambient coordinates at ``q`` and at the result. Raises as
    :func:`rnea` does."""
    return _call("integrate", model, q, v)


def frame_placement(model, q, frame_id):
    """The placement ``oMf`` of one frame in the world frame as a JAX function (an end effector's pose).

    Parameters: ``model``, ``q: (..., nq)``, ``frame_id``: a frame id or name (static, not differentiated).
    Returns ``(..., 3, 4)`` ``[R | p]``. Derivatives: rbda's frame Jacobian (``compute_frame_jacobian`` in
    ``LOCAL_WORLD_ALIGNED``, ``dR = w x R``, ``dp = v``). Raises ``KeyError`` for an unknown frame name,
    ``ValueError`` for an id out of range, and as :func:`rnea` does."""
    return _call("frame_placement", model, q, static=(frame_id_arg(model, frame_id),))


def frame_jacobian(model, q, frame_id, reference_frame=_primitives.ReferenceFrame.LOCAL):
    """The Jacobian ``(6, nv)`` of one frame (:func:`rbda.compute_frame_jacobian`, Pinocchio's
    ``getFrameJacobian``) as a JAX function: the frame's spatial velocity ``[v; w] = J(q) dq/dt`` in
    ``reference_frame``.

    Parameters: ``model``, ``q: (..., nq)``, ``frame_id``: a frame id or name, ``reference_frame``:
    :class:`rbda.ReferenceFrame` ``LOCAL`` (the default), ``WORLD`` or ``LOCAL_WORLD_ALIGNED`` (both static, not
    differentiated). Returns ``(..., 6, nv)``. Derivatives: ``dJ/dq`` from rbda's kinematic Hessians
    (``compute_joint_kinematic_hessians``) moved to the frame (its origin's velocity and its rotation along each
    dof; :func:`rbda._primitives.frame_jacobian_derivative`). Under ``jit`` (one float64 state, a model whose
    joints have constant motion subspaces) both come from the placements' custom call, in jnp. Raises ``KeyError`` for an unknown frame name,
    ``ValueError`` for an id out of range or a bad reference frame, and as :func:`rnea` does."""
    static = (frame_id_arg(model, frame_id), _primitives.reference_frame_index(reference_frame))
    return _call("frame_jacobian", model, q, static=static)


def constraint_dynamics(model, q, v, tau, contact_models, prox_settings=None):
    """Forward dynamics under rigid constraints (:func:`rbda.constraint_dynamics`) as a JAX function: ``ddq``
    with ``M ddq + nle = tau + J^T lambda`` and ``J ddq + gamma = a_c``.

    Parameters: ``model``, ``q: (..., nq)``, ``v: (..., nv)``, ``tau: (..., nv)``; ``contact_models``: a list of
    :class:`rbda.RigidConstraintModel` (static: not differentiated; each call makes its own constraint datas);
    ``prox_settings``: :class:`rbda.ProximalSettings` (static, default ``mu = 0``; its iteration report is not
    filled). Returns ``ddq: (..., nv)``. Under ``vmap`` one call to :func:`rbda.batch.constraint_dynamics` (a
    loop of single calls for a model with mimic joints, which the batch refuses). Derivatives: rbda's
    ``compute_constraint_dynamics_derivatives`` (``ddq_dq``, ``ddq_dv``, ``ddq_dtau``; a batch through
    :func:`rbda.batch.compute_constraint_dynamics_derivatives`). Under ``jit`` (one float64 state, no mimic
    joints) the value and the derivatives are XLA FFI custom calls, the constraint set and settings constants
    of the program: after editing a constraint in place, trace again. Raises ``TypeError``/``ValueError`` naming the argument for a bad constraint list or settings, a
    redundant set with ``mu = 0``, and as :func:`rnea` does."""
    y = _concrete_constrained("constraint_dynamics", model, (q, v, tau), contact_models, prox_settings)
    if y is not None:
        return y
    return _call("constraint_dynamics", model, q, v, tau,
                 static=_primitives.constraint_static(model, contact_models, prox_settings))


def constraint_forces(model, q, v, tau, contact_models, prox_settings=None):
    """The constraint forces ``lambda`` of :func:`constraint_dynamics` (``data.lambda_c`` of
    :func:`rbda.constraint_dynamics`) as a JAX function: each constraint's force (3D) or wrench (6D) in its
    frame, stacked in the order of ``contact_models``.

    Parameters: ``model``, ``q: (..., nq)``, ``v: (..., nv)``, ``tau: (..., nv)``, ``contact_models`` and
    ``prox_settings`` (static) as in :func:`constraint_dynamics`. Returns ``lambda: (..., m)`` (``m`` the sum of
    the constraint sizes). Derivatives: rbda's ``dlambda_dq``, ``dlambda_dv``, ``dlambda_dtau``. Raises as
    :func:`constraint_dynamics` does."""
    y = _concrete_constrained("constraint_forces", model, (q, v, tau), contact_models, prox_settings)
    if y is not None:
        return y
    return _call("constraint_forces", model, q, v, tau,
                 static=_primitives.constraint_static(model, contact_models, prox_settings))


_STEP_ARGUMENTS = type("StepArguments", (), {"name": "simulator_step", "args": ("q", "v", "tau"),
                                            "sizes": staticmethod(lambda model: (model.nq, model.nv, model.nv))})


def simulator_step(sim, q, v, tau):
    """One step of a :class:`rbda.Simulator` (:meth:`rbda.Simulator.step`) as a JAX function:
    ``(q_next, v_next)``.

    Parameters: ``sim`` (static: its model, scene, ``dt`` and solver; each evaluation runs ``sim.step``, which
    updates its warm start and its ``contacts``, ``impulses``...); ``q: (nq,)``, ``v: (nv,)``, ``tau: (nv,)``
    (one state; ``jax.vmap`` runs the states one after the other). Returns ``q_next: (nq,)``, ``v_next: (nv,)``.
    The value runs on the host (a callback under ``jit``). Derivatives (``jax.jvp``, ``jax.grad``, ``jacfwd``):
    the implicit function theorem on the step's solved contact problem with its active set held (separated
    contacts and rows at a bound keep their impulse, sticking contacts and free rows their velocity, sliding
    contacts stay on the cone boundary), with rbda's RNEA derivatives for the free motion
    (:mod:`rbda.jax._step`). They are exact in ``v`` and ``tau`` while the active set does not change; in ``q``
    the contact Jacobian and contact geometry are held (exact for a translation along a flat ground or a joint
    against its limit, first order otherwise). ``q`` is differentiated in ambient coordinates as in
    :func:`integrate`. Raises ``TypeError`` for a ``sim`` that is not a Simulator, ``ValueError`` naming the
    argument for a wrong shape or, at evaluation, a bad value; the derivatives of a simulator with restitution
    raise ``ValueError``."""
    from ..simulation.simulator import Simulator
    from . import _step
    if not isinstance(sim, Simulator):
        raise TypeError(f"rbda.jax.simulator_step: sim: expected a rbda.Simulator, got {type(sim).__name__}")
    model = sim.model
    arrays, lead, dtype = _inputs(_STEP_ARGUMENTS, model, (q, v, tau))
    if lead:
        raise ValueError(f"rbda.jax.simulator_step: expected one state (q of shape ({model.nq},)), got leading "
                         f"axes {lead}; use jax.vmap")

    def host(fn):  # (writable copies: the callback's arrays are read-only, and the step's kernel is compiled for
        def call(*x):  # writable arrays; a read-only one would compile it again, for half a minute)
            try:
                out = fn(sim, *(np.array(a, dtype=np.float64) for a in x))
            except ValueError as exc:
                raise ValueError(f"rbda.jax.simulator_step: {exc}") from None
            return tuple(np.asarray(y, dtype=dtype) for y in out)
        return call

    def flat_jacobians(sim, *x):
        q_next, v_next, dq, dv = _step.step_jacobians(sim, *x)
        return (q_next, v_next, *dq, *dv)

    if not any(isinstance(x, jax.core.Tracer) for x in arrays):
        return tuple(jnp.asarray(y) for y in host(lambda sim, *x: sim.step(*x))(*arrays))
    nq, nv = model.nq, model.nv
    shapes = (jax.ShapeDtypeStruct((nq,), dtype), jax.ShapeDtypeStruct((nv,), dtype))

    @jax.custom_jvp
    def f(q, v, tau):
        return jax.pure_callback(host(lambda sim, *x: sim.step(*x)), shapes, q, v, tau, vmap_method="sequential")

    @f.defjvp
    def f_jvp(xs, dxs):
        q, v, tau = xs
        out = jax.pure_callback(host(flat_jacobians), shapes + (jax.ShapeDtypeStruct((nv, nv), dtype),) * 6,
                                q, v, tau, vmap_method="sequential")
        q_next, v_next, Jq = out[0], out[1], out[2:5]
        Jv = out[5:]
        dq = _compiled.tangent_velocity(model, q, dxs[0]) if nq != nv else dxs[0]
        dx = (dq, dxs[1], dxs[2])
        dq_next = sum(J @ d for J, d in zip(Jq, dx))
        dv_next = sum(J @ d for J, d in zip(Jv, dx))
        return (q_next, v_next), (_compiled.ambient_rate(model, q_next, dq_next) if nq != nv else dq_next, dv_next)

    return f(*(jnp.asarray(x, dtype) for x in arrays))
