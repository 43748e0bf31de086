"""rbda's algorithms as CasADi functions whose Jacobians are rbda's analytical derivatives, for symbolic
expressions, ``casadi.Opti`` and IPOPT. Needs the ``casadi`` extra (``pip install 'rbda[casadi]'``).

>>> import casadi, numpy as np, rbda, rbda.casadi
>>> model = rbda.sample_models.manipulator()
>>> f = rbda.casadi.rnea(model)                      # tau = f(q, v, a)
>>> q, v, a = casadi.MX.sym("q", 6), casadi.MX.sym("v", 6), casadi.MX.sym("a", 6)
>>> M = casadi.Function("M", [q, v, a], [casadi.jacobian(f(q, v, a), a)])
>>> bool(np.allclose(M(np.zeros(6), np.zeros(6), np.zeros(6)), rbda.crba(model, rbda.Data(model), np.zeros(6))))
True

Each function is a ``casadi.Callback`` (a ``casadi.Function``) with dense inputs ``q: (nq, 1)`` and
``v, a, tau: (nv, 1)`` and one dense output; its ``jacobian()`` is another callback that returns rbda's
derivatives (``compute_rnea_derivatives``, ``compute_aba_derivatives``, ...), so CasADi's forward and reverse
modes, ``casadi.jacobian`` and IPOPT's constraint Jacobian all use them. :func:`rnea`'s Jacobian (on a model
with ``nq == nv``) has a Jacobian of its own, from rbda's second-order RNEA derivatives, so that IPOPT can run
with the exact Hessian of the Lagrangian (``hessian_approximation = "exact"``, its default); for the other
functions use ``hessian_approximation = "limited-memory"``. With respect to ``q`` the Jacobian is
taken in ambient coordinates, rbda's tangent-space derivative times the map ``T(q)`` from an ambient rate on the
manifold to the tangent velocity (the identity when ``nq == nv``; see :mod:`rbda.jax`).

A callback must outlive every expression that uses it, and CasADi holds it by a plain pointer, so it cannot tell
Python when the last such expression is gone: the functions made here (and their Jacobian callbacks) are kept
alive by this module for the life of the process. Make a function once per model and reuse it, not inside a loop.
A bad value (NaN, a non-unit quaternion) raises rbda's ``ValueError`` message inside CasADi's ``RuntimeError``.
"""

from __future__ import annotations

try:
    import casadi
except ImportError as exc:
    raise ImportError("rbda.casadi needs CasADi: pip install 'rbda[casadi]' (or pip install casadi)") from exc

import numpy as np

from .. import _primitives
from .._primitives import PRIMITIVES
from ..model.model import frame_id_arg

__all__ = ["aba", "center_of_mass", "constraint_dynamics", "constraint_forces", "crba", "forward_kinematics",
           "frame_jacobian", "frame_placement", "frames_forward_kinematics", "integrate", "rnea", "simulator_step"]

_alive = []  # every callback made here: CasADi calls back into them for as long as an expression uses them


def _matrix_shape(shape: tuple) -> tuple:
    """The CasADi (2-D) shape of a result: ``(n, 1)`` for a vector, ``(r, c)`` for a matrix, ``(n r, c)`` for a
    stack of ``n`` matrices (placements ``(n, 3, 4)`` become ``(3 n, 4)``, placement k in rows ``3k:3k+3``)."""
    if len(shape) == 1:
        return shape[0], 1
    return int(np.prod(shape[:-1])), shape[-1]


def _arguments(p, args) -> list:
    return [np.ascontiguousarray(np.asarray(x, dtype=np.float64).reshape(1, -1)) for x in args]


def _raise(p, exc):
    raise ValueError(f"rbda.casadi.{p.name}: {exc}") from None


class _Callback(casadi.Callback):
    """A CasADi callback into rbda whose Jacobian is a callback of the class :meth:`jacobian_type` returns (None:
    it has none), made as ``cls(self, name, opts)``; ``n_in``, ``n_out``: its numbers of inputs and outputs."""

    n_in = n_out = 1

    def __init__(self, f, name: str, opts: dict):
        """The callback ``name`` derived from the callback ``f`` (a Jacobian of ``f``)."""
        casadi.Callback.__init__(self)
        self.f = f
        self.construct(name, opts)

    def get_n_in(self):
        return self.n_in

    def get_n_out(self):
        return self.n_out

    def jacobian_type(self):
        return None

    def has_jacobian(self):
        return self.jacobian_type() is not None

    def get_jacobian(self, name, inames, onames, opts):
        jacobian = self.jacobian_type()(self, name, opts)
        _alive.append(jacobian)
        return jacobian


class _Primitive(_Callback):
    """``y = p(*x)`` with rbda's Jacobian (:class:`_Jacobian`)."""

    def __init__(self, p, model, opts: dict, static: tuple):
        casadi.Callback.__init__(self)
        self.p, self.model, self.static = p, model, static
        self.sizes, self.rows_cols = p.sizes(model), _matrix_shape(p.shape(model, *static))
        self.construct(p.name, opts)

    def get_n_in(self):
        return len(self.p.args)

    def get_name_in(self, i):
        return self.p.args[i]

    def get_name_out(self, i):
        return self.p.output

    def get_sparsity_in(self, i):
        return casadi.Sparsity.dense(self.sizes[i], 1)

    def get_sparsity_out(self, i):
        return casadi.Sparsity.dense(*self.rows_cols)

    def eval(self, args):
        try:
            y = _primitives.evaluate(self.p, self.model, *_arguments(self.p, args), static=self.static)
        except ValueError as exc:
            _raise(self.p, exc)
        return [casadi.DM(y.reshape(self.rows_cols))]

    def jacobian_type(self):
        return _Jacobian


class _Jacobian(_Callback):
    """``(jac_y_x1, ..., jac_y_xk) = J(x1, ..., xk, y)``: the Jacobian of the result (CasADi's column-major
    vectorisation) with respect to each argument, from :func:`rbda._primitives.jacobians`."""

    def get_n_in(self):
        return len(self.f.p.args) + 1

    def get_n_out(self):
        return len(self.f.p.args)

    def get_sparsity_in(self, i):
        return self.f.get_sparsity_in(i) if i < len(self.f.p.args) else self.f.get_sparsity_out(0)

    def get_sparsity_out(self, i):
        r, c = self.f.rows_cols
        return casadi.Sparsity.dense(r * c, self.f.sizes[i])

    def eval(self, args):
        p, (r, c) = self.f.p, self.f.rows_cols
        try:
            _, *J = _primitives.jacobians(p, self.f.model, *_arguments(p, args[:len(p.args)]), static=self.f.static)
        except ValueError as exc:
            _raise(p, exc)
        # rows of J are the result's entries in C order; CasADi's are in column-major order
        return [casadi.DM(j[0].reshape(r, c, -1).transpose(1, 0, 2).reshape(r * c, -1)) for j in J]

    def jacobian_type(self):  # second derivatives: rnea's, on models whose tangent and ambient coordinates agree
        return _RneaHessian if self.f.p.name == "rnea" and self.f.model.nq == self.f.model.nv else None


class _RneaHessian(_Callback):
    """The Jacobian of rnea's Jacobian callback: inputs ``(q, v, a, tau, J_q, J_v, J_a)`` (the Jacobian's inputs
    and its nominal outputs), outputs ``d J_i / d x_j`` for ``i`` in ``(q, v, a)`` and ``j`` in ``(q, v, a,
    tau)``, each ``(nv * nv, n_j)`` with ``J_i`` vectorised column by column; from rbda's second-order RNEA
    derivatives (:func:`rbda._primitives.rnea_jacobian_derivatives`); the zero blocks are structurally empty. This
    gives CasADi the exact Hessian of a Lagrangian through rnea (IPOPT's ``hessian_approximation = "exact"``)."""

    n_in, n_out = 7, 12

    def get_sparsity_in(self, i):
        j = self.f
        return j.get_sparsity_in(i) if i < 4 else j.get_sparsity_out(i - 4)

    def get_sparsity_out(self, k):
        i, j = divmod(k, 4)
        nv = self.f.f.model.nv
        if (i, j) in _RNEA_SECOND_ORDER:
            return casadi.Sparsity.dense(nv * nv, nv)
        return casadi.Sparsity(nv * nv, nv)

    def eval(self, args):
        model = self.f.f.model
        nv = model.nv
        x = [np.asarray(a, dtype=np.float64).reshape(-1) for a in args[:3]]
        try:
            blocks = _primitives.rnea_jacobian_derivatives(model, *x)
        except ValueError as exc:
            _raise(self.f.f.p, exc)
        out = []
        for k in range(12):
            T = blocks.get(divmod(k, 4))  # T[r, c, l]: row c * nv + r (column-major J_i), column l
            out.append(casadi.DM(casadi.Sparsity(nv * nv, nv)) if T is None
                       else casadi.DM(T.transpose(1, 0, 2).reshape(nv * nv, nv)))
        return out


_RNEA_SECOND_ORDER = {(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)}  # the nonzero blocks (i, j)


def _function(name: str, model, opts: dict | None, static: tuple = ()) -> casadi.Function:
    f = _Primitive(PRIMITIVES[name], model, dict(opts or {}), static)
    _alive.append(f)
    return f


def rnea(model, opts: dict | None = None) -> casadi.Function:
    """``tau = f(q, v, a)``: inverse dynamics (:func:`rbda.rnea`) as a ``casadi.Function``.

    Parameters: ``model`` (:class:`rbda.Model`); ``opts``: CasADi function options. Inputs ``q: (nq, 1)``,
    ``v: (nv, 1)``, ``a: (nv, 1)``; output ``tau: (nv, 1)``. Jacobian: rbda's ``compute_rnea_derivatives``
    (``dtau_dq`` through the tangent map when ``nq != nv``). Evaluating at a bad value raises CasADi's
    ``RuntimeError`` carrying rbda's ``ValueError`` message, which names the argument."""
    return _function("rnea", model, opts)


def aba(model, opts: dict | None = None) -> casadi.Function:
    """``ddq = f(q, v, tau)``: forward dynamics (:func:`rbda.aba`) as a ``casadi.Function``.

    Parameters: ``model``, ``opts`` as in :func:`rnea`. Inputs ``q: (nq, 1)``, ``v, tau: (nv, 1)``; output
    ``ddq: (nv, 1)``. Jacobian: rbda's ``compute_aba_derivatives``. Errors as in :func:`rnea`."""
    return _function("aba", model, opts)


def crba(model, opts: dict | None = None) -> casadi.Function:
    """``M = f(q)``: the joint-space inertia matrix (:func:`rbda.crba`, both triangles) as a ``casadi.Function``.

    Parameters: ``model``, ``opts`` as in :func:`rnea`. Input ``q: (nq, 1)``; output ``M: (nv, nv)``.
    Jacobian: ``dM/dq`` from rbda's ``compute_rnea_second_order_derivatives``. Errors as in :func:`rnea`."""
    return _function("crba", model, opts)


def center_of_mass(model, opts: dict | None = None) -> casadi.Function:
    """``com = f(q)``: the centre of mass in the world frame (:func:`rbda.center_of_mass`).

    Parameters: ``model``, ``opts`` as in :func:`rnea`. Input ``q: (nq, 1)``; output ``com: (3, 1)``.
    Jacobian: rbda's ``jacobian_center_of_mass``. Errors as in :func:`rnea`."""
    return _function("center_of_mass", model, opts)


def forward_kinematics(model, opts: dict | None = None) -> casadi.Function:
    """``oMi = f(q)``: joint placements in the world frame (:func:`rbda.forward_kinematics`).

    Parameters: ``model``, ``opts`` as in :func:`rnea`. Input ``q: (nq, 1)``; output ``oMi: (3 njoints, 4)``,
    rows ``3i:3i+3`` the ``[R | p]`` of joint i. Jacobian: from rbda's world joint Jacobians (``dR = w x R``,
    ``dp = v + w x p``). Errors as in :func:`rnea`."""
    return _function("forward_kinematics", model, opts)


def frames_forward_kinematics(model, opts: dict | None = None) -> casadi.Function:
    """``oMf = f(q)``: frame placements in the world frame (:func:`rbda.frames_forward_kinematics`).

    Parameters: ``model``, ``opts`` as in :func:`rnea`. Input ``q: (nq, 1)``; output ``oMf: (3 nframes, 4)``,
    rows ``3k:3k+3`` the ``[R | p]`` of frame k (``model.get_frame_id(name)``). Jacobian: as in
    :func:`forward_kinematics`. Errors as in :func:`rnea`."""
    return _function("frames_forward_kinematics", model, opts)


def integrate(model, opts: dict | None = None) -> casadi.Function:
    """``q_next = f(q, v)``: ``q (+) v`` (:func:`rbda.integrate`) as a ``casadi.Function``, for transcriptions on
    the configuration's Lie group (free flyers, spherical joints).

    Parameters: ``model``, ``opts`` as in :func:`rnea`. Inputs ``q: (nq, 1)``, ``v: (nv, 1)``; output
    ``q_next: (nq, 1)``. Jacobian: rbda's ``d_integrate``, mapped to ambient coordinates at ``q`` and ``q_next``.
    Errors as in :func:`rnea`."""
    return _function("integrate", model, opts)


def frame_placement(model, frame_id, opts: dict | None = None) -> casadi.Function:
    """``oMf = f(q)``: the placement of one frame in the world frame (an end effector's pose).

    Parameters: ``model``, ``frame_id`` (a frame id or name), ``opts`` as in :func:`rnea`. Input ``q: (nq, 1)``;
    output ``oMf: (3, 4)`` ``[R | p]``. Jacobian: rbda's frame Jacobian (``compute_frame_jacobian`` in
    ``LOCAL_WORLD_ALIGNED``). Raises ``KeyError`` for an unknown frame name, ``ValueError`` for an id out of
    range; errors as in :func:`rnea`."""
    return _function("frame_placement", model, opts, (frame_id_arg(model, frame_id),))


def frame_jacobian(model, frame_id, reference_frame=_primitives.ReferenceFrame.LOCAL,
                   opts: dict | None = None) -> casadi.Function:
    """``J = f(q)``: the Jacobian ``(6, nv)`` of one frame (:func:`rbda.compute_frame_jacobian`, Pinocchio's
    ``getFrameJacobian``) as a ``casadi.Function``, for velocity-level tasks (``J(q) v`` the frame's twist).

    Parameters: ``model``, ``frame_id`` (a frame id or name), ``reference_frame``: :class:`rbda.ReferenceFrame`
    ``LOCAL`` (the default), ``WORLD`` or ``LOCAL_WORLD_ALIGNED``; ``opts`` as in :func:`rnea`. Input
    ``q: (nq, 1)``; output ``J: (6, nv)``. Jacobian: ``dJ/dq`` from rbda's kinematic Hessians moved to the frame
    (:func:`rbda._primitives.frame_jacobian_derivative`). Raises ``KeyError`` for an unknown frame name,
    ``ValueError`` for an id out of range or a bad reference frame; errors as in :func:`rnea`."""
    static = (frame_id_arg(model, frame_id), _primitives.reference_frame_index(reference_frame))
    return _function("frame_jacobian", model, opts, static)


def constraint_dynamics(model, contact_models, prox_settings=None, opts: dict | None = None) -> casadi.Function:
    """``ddq = f(q, v, tau)``: forward dynamics under rigid constraints (:func:`rbda.constraint_dynamics`) as a
    ``casadi.Function``.

    Parameters: ``model``; ``contact_models``: a list of :class:`rbda.RigidConstraintModel` (fixed for the
    function; each evaluation makes its own constraint datas); ``prox_settings``: :class:`rbda.ProximalSettings`
    (default ``mu = 0``); ``opts`` as in :func:`rnea`. Inputs ``q: (nq, 1)``, ``v, tau: (nv, 1)``; output
    ``ddq: (nv, 1)``. Jacobian: rbda's ``compute_constraint_dynamics_derivatives``. Raises ``TypeError``/
    ``ValueError`` naming the argument for a bad constraint list or settings; errors at evaluation as in
    :func:`rnea` (a redundant set with ``mu = 0`` among them)."""
    return _function("constraint_dynamics", model, opts,
                     _primitives.constraint_static(model, contact_models, prox_settings))


def constraint_forces(model, contact_models, prox_settings=None, opts: dict | None = None) -> casadi.Function:
    """``lambda = f(q, v, tau)``: the constraint forces of :func:`constraint_dynamics` (``data.lambda_c``), each
    constraint's force (3D) or wrench (6D) in its frame, stacked in the order of ``contact_models``.

    Parameters: ``model``, ``contact_models``, ``prox_settings`` and ``opts`` as in :func:`constraint_dynamics`.
    Inputs ``q: (nq, 1)``, ``v, tau: (nv, 1)``; output
    ``lambda: (m, 1)``. Jacobian: rbda's ``dlambda_dq``, ``dlambda_dv``, ``dlambda_dtau``. Raises as
    :func:`constraint_dynamics` does."""
    return _function("constraint_forces", model, opts,
                     _primitives.constraint_static(model, contact_models, prox_settings))


class _Step(_Callback):
    """``(q_next, v_next) = sim.step(q, v, tau)`` with the Jacobians of :func:`rbda.jax._step.step_jacobians`
    (:class:`_StepJacobian`)."""

    n_in, n_out = 3, 2

    def __init__(self, sim, opts: dict):
        casadi.Callback.__init__(self)
        self.sim, model = sim, sim.model
        self.sizes_in, self.sizes_out = (model.nq, model.nv, model.nv), (model.nq, model.nv)
        self.construct("simulator_step", opts)

    def get_name_in(self, i):
        return ("q", "v", "tau")[i]

    def get_name_out(self, i):
        return ("q_next", "v_next")[i]

    def get_sparsity_in(self, i):
        return casadi.Sparsity.dense(self.sizes_in[i], 1)

    def get_sparsity_out(self, i):
        return casadi.Sparsity.dense(self.sizes_out[i], 1)

    def eval(self, args):
        try:
            q_next, v_next = self.sim.step(*(np.asarray(x, dtype=float).ravel() for x in args))
        except ValueError as exc:
            raise ValueError(f"rbda.casadi.simulator_step: {exc}") from None
        return [casadi.DM(q_next), casadi.DM(v_next)]

    def jacobian_type(self):
        return _StepJacobian


class _StepJacobian(_Callback):
    """``(jac_q_next_q, jac_q_next_v, jac_q_next_tau, jac_v_next_q, ...) = J(q, v, tau, q_next, v_next)``: the
    tangent-space Jacobians of the step in ambient coordinates (``K(q_next) J T(q)`` for ``q`` and ``q_next``)."""

    n_in, n_out = 5, 6

    def get_sparsity_in(self, i):
        return self.f.get_sparsity_in(i) if i < 3 else self.f.get_sparsity_out(i - 3)

    def get_sparsity_out(self, i):
        return casadi.Sparsity.dense(self.f.sizes_out[i // 3], self.f.sizes_in[i % 3])

    def eval(self, args):
        from ..jax._step import step_jacobians

        sim = self.f.sim
        q, v, tau = (np.asarray(x, dtype=float).ravel() for x in args[:3])
        try:
            q_next, _, dq, dv = step_jacobians(sim, q, v, tau)
        except ValueError as exc:
            raise ValueError(f"rbda.casadi.simulator_step: {exc}") from None
        T = _primitives.tangent_map(sim.model, q[None])[0]  # ambient rate of q -> tangent velocity
        K = _primitives.configuration_map(sim.model, q_next[None])[0]  # tangent velocity -> ambient rate of q_next
        return [casadi.DM(J) for J in (K @ dq[0] @ T, K @ dq[1], K @ dq[2], dv[0] @ T, dv[1], dv[2])]


def simulator_step(sim, opts: dict | None = None) -> casadi.Function:
    """One step of the :class:`rbda.Simulator` ``sim`` as a ``casadi.Function`` ``(q_next, v_next) = f(q, v,
    tau)`` (``q: (nq, 1)``, ``v, tau: (nv, 1)``; ``opts``: CasADi function options), each evaluation a ``sim.step`` (which updates its warm start and
    its ``contacts``, ``impulses``, ...). Its ``jacobian()`` is the implicit function theorem on the step's solved
    contact problem with its active set held, as :func:`rbda.jax.simulator_step` documents: exact in ``v`` and
    ``tau`` while the active set does not change, in ``q`` exact for motions that keep the contact geometry and
    first order otherwise; ``q`` and ``q_next`` in ambient coordinates. Raises ``TypeError`` for a ``sim`` that is
    not a Simulator; a bad value at evaluation raises rbda's ``ValueError`` inside CasADi's ``RuntimeError``, and so
    do the derivatives of a simulator with restitution. Use IPOPT with ``hessian_approximation =
    "limited-memory"``."""
    from ..simulation.simulator import Simulator

    if not isinstance(sim, Simulator):
        raise TypeError(f"rbda.casadi.simulator_step: sim: expected a rbda.Simulator, got {type(sim).__name__}")
    f = _Step(sim, dict(opts or {}))
    _alive.append(f)
    return f
