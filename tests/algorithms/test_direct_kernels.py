"""The public algorithms call their kernels past numba's dispatcher (``_native/direct.py``), which is safe only if
each kernel is called with one set of argument types. Run every algorithm in all its variants (optional
arguments given or not, lists, other dtypes, strided views, fixed and floating models) with the dispatcher
recording the types, and check that no kernel saw two; and check that the entry points are really in use."""

import json
import os
import subprocess
import sys

import numpy as np

import rbda

EXERCISE = r"""
import json, numpy as np, rbda
from rbda._native import direct

def run(model):
    data = model.create_data()
    rng = np.random.default_rng(0)
    q = rbda.random_configuration(model, rng=rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    fext = rng.normal(size=(model.njoints, 6))
    for x in (q, list(q), np.repeat(q, 2)[::2]):  # an array, a list, a strided view
        rbda.forward_kinematics(model, data, x)
    rbda.forward_kinematics(model, data, q, v)
    rbda.forward_kinematics(model, data, q, v, a)
    rbda.frames_forward_kinematics(model, data, q)
    rbda.update_global_placements(model, data)
    rbda.update_frame_placements(model, data)
    rbda.compute_joint_jacobians(model, data, q)
    rbda.compute_joint_jacobians(model, data)
    rbda.compute_joint_jacobians_time_variation(model, data, q, v)
    rbda.compute_frame_jacobian(model, data, q, model.nframes - 1)
    rbda.compute_joint_kinematic_hessians(model, data, q)
    for f in (None, fext, list(fext)):
        rbda.rnea(model, data, q, v, a, f)
        rbda.aba(model, data, q, v, a, f)
        rbda.compute_rnea_derivatives(model, data, q, v, a, f)
        rbda.compute_aba_derivatives(model, data, q, v, a, f)
        rbda.compute_rnea_second_order_derivatives(model, data, q, v, a, f)
    rbda.compute_static_torque(model, data, q, fext)
    rbda.compute_static_torque_derivatives(model, data, q, fext)
    rbda.compute_generalized_gravity_derivatives(model, data, q)
    rbda.nonlinear_effects(model, data, q, v)
    rbda.compute_generalized_gravity(model, data, q)
    rbda.compute_coriolis_matrix(model, data, q, v)
    rbda.crba(model, data, q)
    rbda.compute_minverse(model, data, q)
    rbda.compute_all_terms(model, data, q, v)
    rbda.compute_forward_kinematics_derivatives(model, data, q, v, a)
    for rf in (rbda.LOCAL, rbda.WORLD, rbda.LOCAL_WORLD_ALIGNED):
        rbda.get_joint_velocity_derivatives(model, data, model.njoints - 1, rf)
        rbda.get_joint_acceleration_derivatives(model, data, model.njoints - 1, rf)
        rbda.get_frame_velocity_derivatives(model, data, model.nframes - 1, rf)
        rbda.get_frame_acceleration_derivatives(model, data, model.nframes - 1, rf)
    rbda.compute_centroidal_dynamics_derivatives(model, data, q, v, a)
    rbda.get_center_of_mass_velocity_derivatives(model, data)
    for args in ((q,), (q, v), (q, v, a)):
        rbda.center_of_mass(model, data, *args)
    rbda.jacobian_center_of_mass(model, data, q)
    rbda.compute_centroidal_map(model, data, q)
    rbda.compute_centroidal_momentum(model, data, q, v)
    rbda.compute_centroidal_momentum_time_variation(model, data, q, v, a)
    rbda.ccrba(model, data, q, v)
    rbda.dccrba(model, data, q, v)
    rbda.compute_kinetic_energy(model, data, q, v)
    rbda.compute_potential_energy(model, data, q)
    rbda.compute_mechanical_energy(model, data, q, v)
    rbda.compute_joint_torque_regressor(model, data, q, v, a)
    rbda.compute_kinetic_energy_regressor(model, data, q, v)
    rbda.compute_potential_energy_regressor(model, data, q)
    rbda.compute_static_regressor(model, data, q)
    rbda.crba(model, data, q)
    rbda.cholesky.decompose(model, data)
    for x in (v, np.stack([v, a], axis=1)):
        rbda.cholesky.solve(model, data, x)
        for apply in (rbda.cholesky.Mv, rbda.cholesky.Uv, rbda.cholesky.Utv, rbda.cholesky.Uiv, rbda.cholesky.Utiv,
                      rbda.cholesky.UDUtv):
            apply(model, data, x)
    rbda.cholesky.compute_minv(model, data)
    rbda.compute_subtree_masses(model, data)
    rbda.integrate(model, q, v)
    rbda.difference(model, q, rbda.random_configuration(model))
    rbda.interpolate(model, q, q, 0.5)
    rbda.neutral(model)
    rbda.normalize(model, q)
    q1 = rbda.random_configuration(model, rng=rng)
    for arg in (None, rbda.ARG0, rbda.ARG1, 0, 1):
        rbda.d_integrate(model, q, v, arg)
        rbda.d_difference(model, q, list(q1), arg)
    for arg in (rbda.ARG0, rbda.ARG1):
        for J in (np.ones((model.nv, 3)), v, np.asfortranarray(np.ones((model.nv, 2))), list(v)):
            rbda.d_integrate_transport(model, q, v, J, arg)
    rbda.crba(model, data, q)
    rbda.compute_minverse(model, data, q)

for model in (rbda.sample_models.manipulator(), rbda.sample_models.humanoid(), rbda.sample_models.every_joint()):
    run(model)
print(json.dumps({name: sorted(map(str, sigs)) for name, sigs in direct.SEEN.items()}))
"""


def test_every_kernel_is_called_with_one_set_of_argument_types():
    env = dict(os.environ, RBDA_NUMBA_DISPATCH="check")
    out = subprocess.run([sys.executable, "-c", EXERCISE], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-3000:]
    seen = json.loads(out.stdout.strip().splitlines()[-1])
    assert len(seen) > 30, sorted(seen)  # the exercise reaches the kernels through the recording proxies
    assert {name: sigs for name, sigs in seen.items() if len(sigs) > 1} == {}


def test_the_core_algorithms_run_on_entry_points():
    model = rbda.sample_models.manipulator()
    data = model.create_data()
    q, v = rbda.neutral(model), np.ones(model.nv)
    rbda.rnea(model, data, q, v, v)
    rbda.aba(model, data, q, v, v)
    rbda.forward_kinematics(model, data, q)
    rbda.center_of_mass(model, data, q, v)
    rbda.ccrba(model, data, q, v)
    rbda.compute_mechanical_energy(model, data, q, v)
    from rbda.algorithms import centroidal, dynamics, energy, kinematics

    center_of_mass = sys.modules["rbda.algorithms.center_of_mass"]  # the package attribute is the function

    if os.environ.get("RBDA_NUMBA_DISPATCH", "direct") == "direct":
        for kernels, name, fast_name in ((dynamics._k, "rnea", "rnea"), (dynamics._k, "aba", "aba"),
                                         (kinematics._k, "forward_kinematics_q", "forward_kinematics_q"),
                                         (center_of_mass._k, "center_of_mass", "center_of_mass_qv"),
                                         (centroidal._k, "centroidal_map", "ccrba"), (energy._k, "energy", "energy_qv")):
            fast = getattr(data.fast_entries, fast_name)  # the bound fast entry (_native/fastcall.py) calls the
            # kernel's entry point; where none is bound, the ordinary path resolved the entry point itself
            entry = fast if type(fast).__name__ == "Entry" else kernels.__dict__[name]  # (_native/_entry.c)
            assert type(entry).__name__ in ("Entry", "builtin_function_or_method"), name


def test_the_fast_path_takes_every_float64_vector_without_a_copy():
    """Arrays made by numba (``data.tau`` and its copies) carry a float64 dtype that is another instance than
    numpy's; they must not fall to the slow conversion path (it cost 5 us an argument)."""
    from rbda.algorithms._check import vector

    model = rbda.sample_models.manipulator()
    data = model.create_data()
    tau = rbda.rnea(model, data, rbda.neutral(model), np.ones(model.nv), np.ones(model.nv)).copy()
    for x in (tau, np.zeros(model.nv), np.arange(model.nv, dtype=np.float64)):
        assert vector(x, model.nv, "x") is x
    assert vector(np.zeros(2 * model.nv)[::2], model.nv, "x").flags.c_contiguous


def test_an_entry_point_is_bound_only_for_contiguous_float64_and_int64_arrays():
    """A kernel first called with a strided or float32 array stays on numba's dispatcher, which types (and so
    checks) every later call; one called with C-contiguous float64/int64 arrays is bound to its entry point."""
    from numba import njit

    from rbda._native.direct import entry_point

    def total(x):
        return x.sum()

    for arg, bound in ((np.ones(4), True), (np.arange(4), True), (np.ones(8)[::2], False),
                       (np.ones(4, dtype=np.float32), False), (np.ones((2, 2)).T, False)):
        kernel = njit(total)
        assert kernel(arg) == arg.sum()
        assert (entry_point(kernel) is not None) == bound, arg
