"""Every public function that takes a ``data``: called twice on one Data, and after every other such function,
it gives what it gives on a fresh Data (no state left behind), and its results are arrays its caller owns (no
view of the workspace: ``rnea(q, v, 0) - rnea(q, 0, 0)`` on one Data is the velocity term, not zero).

The registry below lists each function with its arguments and, for the functions that read what another filled
(``get_*``, ``cholesky.solve``, the constrained derivatives), the call that fills it. A test fails when a public
function that takes ``data`` is missing from it, so that a new function is checked too.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pytest

import rbda
from rbda import cholesky
from rbda.spatial import SE3, Force, Inertia, Motion

from conftest import random_model


@dataclass
class Call:
    """``function(model, data, *args(case))``, after ``setup(case, data)`` when it reads what another call
    filled; ``fields``: the data fields that hold its result when it returns None."""

    function: Callable
    args: Callable = lambda c: ()
    setup: Callable | None = None
    fields: tuple = ()
    name: str = field(default="")

    def __post_init__(self):
        self.name = self.name or f"{self.function.__module__.split('.')[-1]}.{self.function.__name__}"

    def run(self, case, data):
        if self.setup is not None:
            self.setup(case, data)
        out = self.function(case.model, data, *self.args(case))
        if out is None:
            return tuple(np.array(getattr(data, f).array if f in ("oMi", "oMf") else getattr(data, f))
                         for f in self.fields)
        return out


class Case:
    """A model and one state of it: ``q``, ``v``, ``a``, ``tau``, external forces, a joint, a frame, two
    constraints and a constraint Jacobian."""

    def __init__(self, model, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.model = model
        self.q = rbda.random_configuration(model, rng=rng)
        self.v, self.a, self.tau = (rng.normal(size=model.nv) for _ in range(3))
        self.fext = [Force(rng.normal(size=6)) for _ in range(model.njoints)]
        data = model.create_data()  # two joints of disjoint branches, of Jacobian ranks 6 and >= 3: a regular set
        rank = [0] + [np.linalg.matrix_rank(rbda.compute_joint_jacobian(model, data, self.q, i))
                      for i in range(1, model.njoints)]
        self.joint = max(i for i in range(model.njoints) if rank[i] == 6)
        other = max(i for i in range(model.njoints) if rank[i] >= 3
                    and i not in model.supports[self.joint] and self.joint not in model.supports[i])
        self.frame = model.nframes - 1
        self.placement = SE3.Random(rng)
        self.contacts = [rbda.RigidConstraintModel(rbda.CONTACT_6D, model, self.joint, self.placement),
                         rbda.RigidConstraintModel(rbda.CONTACT_3D, model, other, self.placement)]
        self.J = rbda.compute_joint_jacobian(model, data, self.q, self.joint)[:3]

        self.contact_datas = self.datas()  # the datas of a constrained call and of its derivatives

    def datas(self):
        return [c.create_data() for c in self.contacts]


def _constraint(case, data):
    rbda.constraint_dynamics(case.model, data, case.q, case.v, case.tau, case.contacts, case.contact_datas)


def _impulse(case, data):
    rbda.impulse_dynamics(case.model, data, case.q, case.v, case.contacts, case.contact_datas, 0.5)


def _fk_derivatives(case, data):
    rbda.compute_forward_kinematics_derivatives(case.model, data, case.q, case.v, case.a)


def _jacobians(case, data):
    rbda.compute_joint_jacobians(case.model, data, case.q)


def _time_variation(case, data):
    rbda.compute_joint_jacobians_time_variation(case.model, data, case.q, case.v)


def _factor(case, data):
    rbda.crba(case.model, data, case.q)
    cholesky.decompose(case.model, data)


def _fk_qva(case, data):
    rbda.forward_kinematics(case.model, data, case.q, case.v, case.a)


def _rnea(case, data):
    rbda.rnea(case.model, data, case.q, case.v, case.a)


LWA = rbda.LOCAL_WORLD_ALIGNED
CALLS = [
    # kinematics
    Call(rbda.forward_kinematics, lambda c: (c.q, c.v, c.a), fields=("oMi", "v", "a")),
    Call(rbda.frames_forward_kinematics, lambda c: (c.q,), fields=("oMi", "oMf")),
    Call(rbda.update_global_placements, setup=_fk_qva, fields=("oMi",)),
    Call(rbda.update_frame_placements, setup=_fk_qva, fields=("oMf",)),
    Call(rbda.update_frame_placement, lambda c: (c.frame,), setup=_fk_qva),
    Call(rbda.get_velocity, lambda c: (c.joint, rbda.WORLD), setup=_fk_qva),
    Call(rbda.get_acceleration, lambda c: (c.joint, LWA), setup=_fk_qva),
    Call(rbda.get_classical_acceleration, lambda c: (c.joint, LWA), setup=_fk_qva),
    Call(rbda.get_frame_velocity, lambda c: (c.frame, LWA), setup=_fk_qva),
    Call(rbda.get_frame_acceleration, lambda c: (c.frame, rbda.WORLD), setup=_fk_qva),
    Call(rbda.get_frame_classical_acceleration, lambda c: (c.frame, LWA), setup=_fk_qva),
    # Jacobians
    Call(rbda.compute_joint_jacobians, lambda c: (c.q,)),
    Call(rbda.compute_joint_jacobian, lambda c: (c.q, c.joint)),
    Call(rbda.get_joint_jacobian, lambda c: (c.joint, LWA), setup=_jacobians),
    Call(rbda.compute_frame_jacobian, lambda c: (c.q, c.frame, LWA)),
    Call(rbda.get_frame_jacobian, lambda c: (c.frame, rbda.LOCAL), setup=_jacobians),
    Call(rbda.compute_joint_jacobians_time_variation, lambda c: (c.q, c.v)),
    Call(rbda.get_joint_jacobian_time_variation, lambda c: (c.joint, rbda.LOCAL), setup=_time_variation),
    Call(rbda.get_frame_jacobian_time_variation, lambda c: (c.frame, LWA), setup=_time_variation),
    Call(rbda.compute_joint_kinematic_hessians, lambda c: (c.q,)),
    Call(rbda.get_joint_kinematic_hessian, lambda c: (c.joint, rbda.LOCAL),
         setup=lambda c, d: rbda.compute_joint_kinematic_hessians(c.model, d, c.q)),
    # dynamics
    Call(rbda.rnea, lambda c: (c.q, c.v, c.a)),
    Call(rbda.rnea, lambda c: (c.q, c.v, c.a, c.fext), name="dynamics.rnea(fext)"),
    Call(rbda.nonlinear_effects, lambda c: (c.q, c.v)),
    Call(rbda.compute_generalized_gravity, lambda c: (c.q,)),
    Call(rbda.compute_static_torque, lambda c: (c.q, c.fext)),
    Call(rbda.compute_coriolis_matrix, lambda c: (c.q, c.v)),
    Call(rbda.crba, lambda c: (c.q,)),
    Call(rbda.aba, lambda c: (c.q, c.v, c.tau)),
    Call(rbda.aba, lambda c: (c.q, c.v, c.tau, c.fext), name="dynamics.aba(fext)"),
    Call(rbda.compute_minverse, lambda c: (c.q,)),
    Call(rbda.compute_all_terms, lambda c: (c.q, c.v), fields=("M", "nle", "g", "J")),
    # derivatives
    Call(rbda.compute_rnea_derivatives, lambda c: (c.q, c.v, c.a)),
    Call(rbda.compute_rnea_derivatives, lambda c: (c.q, c.v, c.a, c.fext), name="derivatives.rnea(fext)"),
    Call(rbda.compute_rnea_second_order_derivatives, lambda c: (c.q, c.v, c.a)),
    Call(rbda.compute_generalized_gravity_derivatives, lambda c: (c.q,)),
    Call(rbda.compute_static_torque_derivatives, lambda c: (c.q, c.fext)),
    Call(rbda.compute_aba_derivatives, lambda c: (c.q, c.v, c.tau)),
    Call(rbda.compute_aba_derivatives, lambda c: (c.q, c.v, c.tau, c.fext), name="derivatives.aba(fext)"),
    Call(rbda.compute_forward_kinematics_derivatives, lambda c: (c.q, c.v, c.a), fields=("oMi", "v", "a", "ov",
                                                                                          "oa")),
    Call(rbda.get_joint_velocity_derivatives, lambda c: (c.joint, rbda.WORLD), setup=_fk_derivatives),
    Call(rbda.get_joint_acceleration_derivatives, lambda c: (c.joint, LWA), setup=_fk_derivatives),
    Call(rbda.get_frame_velocity_derivatives, lambda c: (c.frame, rbda.LOCAL), setup=_fk_derivatives),
    Call(rbda.get_frame_acceleration_derivatives, lambda c: (c.frame, LWA), setup=_fk_derivatives),
    Call(rbda.get_point_velocity_derivatives, lambda c: (c.joint, c.placement, LWA), setup=_fk_derivatives),
    Call(rbda.get_point_classic_acceleration_derivatives, lambda c: (c.joint, c.placement, rbda.LOCAL),
         setup=_fk_derivatives),
    Call(rbda.compute_centroidal_dynamics_derivatives, lambda c: (c.q, c.v, c.a)),
    Call(rbda.get_center_of_mass_velocity_derivatives,
         setup=lambda c, d: rbda.compute_centroidal_dynamics_derivatives(c.model, d, c.q, c.v, c.a)),
    # centre of mass, centroidal, energy
    Call(rbda.center_of_mass, lambda c: (c.q, c.v, c.a)),
    Call(rbda.jacobian_center_of_mass, lambda c: (c.q,)),
    Call(rbda.jacobian_subtree_center_of_mass, lambda c: (c.q, c.model.parents[c.joint])),
    Call(rbda.compute_total_mass),
    Call(rbda.compute_subtree_masses),
    Call(rbda.ccrba, lambda c: (c.q, c.v)),
    Call(rbda.dccrba, lambda c: (c.q, c.v)),
    Call(rbda.compute_centroidal_map, lambda c: (c.q,)),
    Call(rbda.compute_centroidal_map_time_variation, lambda c: (c.q, c.v)),
    Call(rbda.compute_centroidal_momentum, lambda c: (c.q, c.v)),
    Call(rbda.compute_centroidal_momentum_time_variation, lambda c: (c.q, c.v, c.a)),
    Call(rbda.compute_kinetic_energy, lambda c: (c.q, c.v)),
    Call(rbda.compute_potential_energy, lambda c: (c.q,)),
    Call(rbda.compute_mechanical_energy, lambda c: (c.q, c.v)),
    # regressors, supported quantities
    Call(rbda.joint_body_regressor, lambda c: (c.joint,), setup=_rnea),
    Call(rbda.frame_body_regressor, lambda c: (c.frame,), setup=_rnea),
    Call(rbda.compute_joint_torque_regressor, lambda c: (c.q, c.v, c.a)),
    Call(rbda.compute_static_regressor, lambda c: (c.q,)),
    Call(rbda.compute_kinetic_energy_regressor, lambda c: (c.q, c.v)),
    Call(rbda.compute_potential_energy_regressor, lambda c: (c.q,)),
    Call(rbda.compute_joint_kinematic_regressor, lambda c: (c.joint, LWA, c.placement), setup=_fk_qva),
    Call(rbda.compute_frame_kinematic_regressor, lambda c: (c.frame, rbda.LOCAL), setup=_fk_qva),
    Call(rbda.compute_supported_inertia_by_frame, lambda c: (c.frame, True), setup=_fk_qva),
    Call(rbda.compute_supported_force_by_frame, lambda c: (c.frame,), setup=_rnea),
    # the factor of M
    Call(cholesky.decompose, setup=lambda c, d: rbda.crba(c.model, d, c.q)),
    Call(cholesky.solve, lambda c: (c.tau,), setup=_factor),
    Call(cholesky.compute_minv, setup=_factor),
    Call(cholesky.Mv, lambda c: (c.v,), setup=_factor),
    Call(cholesky.Uv, lambda c: (c.v,), setup=_factor),
    Call(cholesky.Utv, lambda c: (c.v,), setup=_factor),
    Call(cholesky.Uiv, lambda c: (c.v,), setup=_factor),
    Call(cholesky.Utiv, lambda c: (c.v,), setup=_factor),
    Call(cholesky.UDUtv, lambda c: (c.v,), setup=_factor),
    # constrained dynamics
    Call(rbda.init_constraint_dynamics, lambda c: (c.contacts,)),  # allocates: returns None, fills no result
    Call(rbda.constraint_dynamics, lambda c: (c.q, c.v, c.tau, c.contacts, c.datas())),
    Call(rbda.impulse_dynamics, lambda c: (c.q, c.v, c.contacts, c.datas(), 0.5)),
    Call(rbda.impulse_dynamics, lambda c: (c.q, c.v, c.J), name="constrained.impulse_dynamics(J)"),
    Call(rbda.forward_dynamics, lambda c: (c.q, c.v, c.tau, c.J, np.zeros(3))),
    Call(rbda.compute_kkt_contact_dynamic_matrix_inverse, lambda c: (c.q, c.J)),
    Call(rbda.compute_delassus_matrix, lambda c: (c.q, c.contacts, c.datas(), 1e-3)),
    Call(rbda.compute_damped_delassus_matrix_inverse, lambda c: (c.q, c.contacts, c.datas(), 1e-3)),
    Call(rbda.compute_constraint_dynamics_derivatives, lambda c: (c.contacts, c.contact_datas), setup=_constraint),
    Call(rbda.compute_impulse_dynamics_derivatives, lambda c: (c.contacts, c.contact_datas), setup=_impulse),
]


def _public_functions_taking_data() -> set:
    names = set()
    for module, prefix in ((rbda, ""), (cholesky, "cholesky.")):
        for name in getattr(module, "__all__", None) or dir(module):
            f = getattr(module, name)
            if inspect.isfunction(inspect.unwrap(f)) and list(inspect.signature(f).parameters)[1:2] == ["data"]:
                names.add(f)
    return names


def test_every_public_function_is_registered():
    registered = {c.function for c in CALLS}
    missing = sorted(f.__name__ for f in _public_functions_taking_data() - registered)
    assert not missing, f"add these to CALLS: {missing}"


CASES = {"every-joint-floating": lambda: Case(random_model(0, True)),
         "mimic": lambda: Case(random_model(1, False, mimic=True), seed=1)}


@pytest.fixture(scope="module", params=sorted(CASES))
def case(request):
    return CASES[request.param]()


@pytest.fixture(scope="module")
def fresh_results(case):
    """Each call's result on a fresh Data: the reference."""
    return {c.name: c.run(case, case.model.create_data()) for c in CALLS}


def _close(x, y, path="result") -> list[str]:
    """Where ``x`` and ``y`` differ (beyond 1e-12 relative), as a list of paths."""
    if isinstance(x, (tuple, list)):
        if not isinstance(y, (tuple, list)) or len(x) != len(y):
            return [f"{path}: {type(x).__name__} of {len(x)} against {type(y).__name__}"]
        return [d for k, (a, b) in enumerate(zip(x, y)) for d in _close(a, b, f"{path}[{k}]")]
    if isinstance(x, (Motion, Force)):
        x, y = x.vector, y.vector
    elif isinstance(x, SE3):
        x, y = x.homogeneous, y.homogeneous
    elif isinstance(x, Inertia):
        x, y = x.matrix(), y.matrix()
    a, b = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if a.shape != b.shape:
        return [f"{path}: shape {a.shape} against {b.shape}"]
    err = np.max(np.abs(a - b), initial=0.0)
    if not err <= 1e-12 * max(1.0, np.max(np.abs(b), initial=0.0)):
        return [f"{path}: differs by {err:.3g}"]
    return []


def _workspace_arrays(data) -> list[np.ndarray]:
    """The arrays a Data holds (its buffers and the fields that view them)."""
    out = []
    for v in vars(data).values():
        if isinstance(v, np.ndarray):
            out.append(v)
        elif hasattr(v, "array") and isinstance(v.array, np.ndarray):
            out.append(v.array)
    return out


def _arrays(x):
    if isinstance(x, np.ndarray):
        yield x
    elif isinstance(x, (tuple, list)):
        for v in x:
            yield from _arrays(v)
    elif isinstance(x, (Motion, Force)):
        yield x.vector
    elif isinstance(x, SE3):
        yield x.rotation
        yield x.translation


def test_twice_on_one_data(case, fresh_results):
    failures = []
    for c in CALLS:
        data = case.model.create_data()
        c.run(case, data)
        failures += [f"{c.name}: {d}" for d in _close(c.run(case, data), fresh_results[c.name])]
    assert not failures, "\n".join(failures)


def test_after_every_other(case, fresh_results):
    failures = []
    for before in CALLS:
        for c in CALLS:
            data = case.model.create_data()
            before.run(case, data)
            failures += [f"{c.name} after {before.name}: {d}" for d in _close(c.run(case, data),
                                                                               fresh_results[c.name])]
    assert not failures, f"{len(failures)} differences:\n" + "\n".join(failures[:60])


def test_results_are_owned(case):
    """No result views the workspace: the next call cannot change it."""
    failures = []
    for c in CALLS:
        data = case.model.create_data()
        out = c.run(case, data)
        if c.fields or (isinstance(out, tuple) and not out):  # returns None: its results are data fields
            continue
        held = _workspace_arrays(data)
        for k, x in enumerate(_arrays(out)):
            if any(np.may_share_memory(x, w) for w in held):
                failures.append(f"{c.name}: result array {k} shares memory with the data")
    assert not failures, "\n".join(failures)


def test_rnea_velocity_term_is_not_zero():
    """The README's example of the aliasing defect: two results of one Data subtracted."""
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q, v, z = rbda.random_configuration(model, rng=np.random.default_rng(0)), np.ones(model.nv), np.zeros(model.nv)
    c = rbda.rnea(model, data, q, v, z) - rbda.rnea(model, data, q, z, z)
    C = rbda.compute_coriolis_matrix(model, model.create_data(), q, v)
    np.testing.assert_allclose(c, C @ v, atol=1e-12)
    assert np.abs(c).max() > 1e-3
