"""Second-order RNEA derivatives against central finite differences of the first-order ones on the manifold (every
joint type, with and without free-flyer and external forces), against exact identities of the dynamics, and
against Pinocchio 4.1's C++ ComputeRNEASecondOrderDerivatives where it can be built (it has no Python binding)."""

import ctypes
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest
from conftest import SEEDS, assert_close, jacobian_along_basis, random_model, random_state

import rbda

FD_TOL = 1e-6  # central differences (eps = 1e-6) of the first-order derivatives, relative to the largest entry


def second_order(model, q, v, a, fext=None):
    return [x.copy() for x in rbda.compute_rnea_second_order_derivatives(model, model.create_data(), q, v, a, fext)]


def first_order(model, fext=None):
    data = model.create_data()
    return lambda q, v, a: np.stack([x.copy() for x in rbda.compute_rnea_derivatives(model, data, q, v, a, fext)])


@pytest.mark.parametrize("use_fext", [False, True])
def test_second_order_matches_finite_differences_of_the_first_order(model, use_fext):
    model.armature = np.random.default_rng(0).uniform(0.0, 0.2, model.nv)
    q, v, a = random_state(model, seed=1)
    fext = np.random.default_rng(3).normal(size=(model.njoints, 6)) if use_fext else None
    d2q, d2v, dqv, daq = second_order(model, q, v, a, fext)
    first = first_order(model, fext)
    along_q = jacobian_along_basis(lambda x, d: rbda.integrate(model, x, d), lambda x: first(x, v, a), q, model.nv)
    along_v = jacobian_along_basis(lambda x, d: x + d, lambda x: first(q, x, a), v, model.nv)
    assert_close(d2q, along_q[0], FD_TOL)  # d(dtau_dq)/dq_k on page k
    assert_close(daq, along_q[2], FD_TOL)  # dM/dq_k
    assert_close(dqv, along_v[0], FD_TOL)  # d(dtau_dq)/dv_k
    assert_close(d2v, along_v[1], FD_TOL)  # d(dtau_dv)/dv_k
    assert_close(dqv, np.swapaxes(along_q[1], 1, 2), FD_TOL)  # = d(dtau_dv)/dq: mixed partials commute


def test_exact_identities_of_the_dynamics(model):
    """tau = M(q) a + h(q, v) with h quadratic in v: so d2tau/dv2 is symmetric and free of v and a, dtau/dv is
    d2tau/dv2 . v, the v-quadratic part of dtau/dq is dtau_dqdv . v / 2, and the a-linear part is dM/dq . a."""
    q, v, a = random_state(model, seed=2)
    d2q, d2v, dqv, daq = second_order(model, q, v, a)
    first = first_order(model)
    scale = max(1.0, np.abs(d2q).max())
    assert_close(d2v, np.swapaxes(d2v, 1, 2), 1e-12 * scale)
    assert_close(daq, np.swapaxes(daq, 0, 1), 1e-12 * scale)
    assert_close(second_order(model, q, 2.0 * v + 1.0, -a)[1], d2v, 1e-12 * scale)
    assert_close(d2v @ v, first(q, v, a)[1] - first(q, 0 * v, a)[1], 1e-11 * scale)
    assert_close(dqv @ v, 2.0 * (first(q, v, a)[0] - first(q, 0 * v, a)[0]), 1e-11 * scale)
    assert_close(np.einsum("ijk,j->ik", daq, a), first(q, v, a)[0] - first(q, v, 0 * a)[0], 1e-11 * scale)
    # tangent directions of different joints commute: d2tau_dqdq is symmetric across joints
    joint_of = np.repeat(np.arange(model.njoints), model.nvs)
    across = joint_of[:, None] != joint_of[None, :]
    assert_close(d2q[:, across], np.swapaxes(d2q, 1, 2)[:, across], 1e-11 * scale)


def test_second_order_inputs_are_checked_and_stored_in_data():
    model = rbda.sample_models.humanoid()
    data = model.create_data()
    q, v, a = random_state(model)
    with pytest.raises(ValueError, match="a: expected shape"):
        rbda.compute_rnea_second_order_derivatives(model, data, q, v, a[:-1])
    out = rbda.compute_rnea_second_order_derivatives(model, data, q, v, a)
    for x, name in zip(out, ("d2tau_dqdq", "d2tau_dvdv", "d2tau_dqdv", "d2tau_dadq")):
        assert x is not getattr(data, name) and np.array_equal(x, getattr(data, name)) and x.shape == (model.nv,) * 3


@pytest.mark.parametrize("floating", [False, True])
def test_batched_second_order_equals_the_single_state_one(floating):
    model = random_model(2, floating)
    rng = np.random.default_rng(0)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(3)])
    V, A = rng.normal(size=(3, model.nv)), rng.normal(size=(3, model.nv))
    batched = rbda.batch.compute_rnea_second_order_derivatives(model, Q, V, A)
    for b in range(3):
        for x, y in zip(batched, second_order(model, Q[b], V[b], A[b])):
            assert_close(x[b], y, 1e-12)


# ------------------------------------------------------------------------------------------------ Pinocchio
SHIM = r"""
#include <chrono>
#include <string>
#include "pinocchio/multibody.hpp"
#include "pinocchio/algorithm/rnea.hpp"
#include "pinocchio/serialization.hpp"
#include "pinocchio/algorithm/rnea-second-order-derivatives.hpp"

extern "C" double rnea_second_order(const char *model_text, const double *q, const double *v, const double *a,
                                    double *out, int repeats) {
  pinocchio::Model model;
  model.loadFromString(std::string(model_text));
  pinocchio::Data data(model);
  const int n = model.nv;
  Eigen::Map<const Eigen::VectorXd> Q(q, model.nq), V(v, n), A(a, n);
  pinocchio::ComputeRNEASecondOrderDerivatives(model, data, Q, V, A);
  auto start = std::chrono::steady_clock::now();  // seconds per call over `repeats` more calls, for benchmarks/
  for (int r = 0; r < repeats; ++r) pinocchio::ComputeRNEASecondOrderDerivatives(model, data, Q, V, A);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const pinocchio::Data::Tensor3x *T[4] = {&data.d2tau_dqdq, &data.d2tau_dvdv, &data.d2tau_dqdv, &data.d2tau_dadq};
  for (int t = 0; t < 4; ++t)
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        for (int k = 0; k < n; ++k) out[((t * n + i) * n + j) * n + k] = (*T[t])(i, j, k);
  return repeats > 0 ? seconds / repeats : 0.0;
}
"""
DEFINES = ["BOOST_MPL_LIMIT_LIST_SIZE=30", "BOOST_MPL_LIMIT_VECTOR_SIZE=30", "BOOST_MPL_CFG_NO_PREPROCESSED_HEADERS",
           "BOOST_FUSION_INVOKE_MAX_ARITY=12", "PINOCCHIO_ENABLE_TEMPLATE_INSTANTIATION", "NDEBUG"]


def pinocchio_shim():
    """``(second_order, None)`` or ``(None, reason)``: ``second_order(pmodel, q, v, a, repeats=0) -> (out, seconds
    per call)``, ``out`` ``(4, nv, nv, nv)``, Pinocchio's C++ second-order derivatives through a small shim,
    compiled once (about 2 minutes) against the installed Pinocchio and Eigen headers (``pip install cmeel-eigen``)
    and cached in the temporary directory. Also used by ``benchmarks/bench_derivatives.py``."""
    try:
        import pinocchio as pin
    except ImportError:
        return None, "pinocchio is not installed"
    prefix = os.path.join(sys.prefix, "lib", f"python{sys.version_info[0]}.{sys.version_info[1]}", "site-packages",
                          "cmeel.prefix")
    compiler = shutil.which("g++")
    if compiler is None or not os.path.isfile(os.path.join(prefix, "include", "eigen3", "Eigen", "Core")):
        return None, "needs g++ and the Eigen headers (pip install cmeel-eigen) to build Pinocchio's C++ function"
    key = hashlib.sha1((SHIM + pin.__version__ + prefix).encode()).hexdigest()[:12]
    lib = os.path.join(tempfile.gettempdir(), f"rbda-pinocchio-second-order-{key}.so")
    if not os.path.isfile(lib):
        src = lib[:-3] + ".cpp"
        with open(src, "w") as f:
            f.write(SHIM)
        cmd = [compiler, "-O2", "-std=c++17", "-shared", "-fPIC", src, "-o", lib + ".tmp", *(f"-D{d}" for d in DEFINES),
               f"-I{prefix}/include", f"-I{prefix}/include/eigen3", f"-L{prefix}/lib", "-lpinocchio_default",
               "-lboost_serialization", f"-Wl,-rpath,{prefix}/lib"]
        if subprocess.run(cmd, capture_output=True).returncode != 0:
            return None, "could not compile the Pinocchio shim"
        os.replace(lib + ".tmp", lib)
    shim = ctypes.CDLL(lib)
    shim.rnea_second_order.restype = ctypes.c_double
    ptr = lambda x: np.ascontiguousarray(x, dtype=np.float64).ctypes.data_as(ctypes.POINTER(ctypes.c_double))

    def run(pmodel, q, v, a, repeats=0):
        out = np.zeros((4,) + (pmodel.nv,) * 3)
        seconds = shim.rnea_second_order(pmodel.saveToString().encode(), ptr(q), ptr(v), ptr(a), ptr(out), repeats)
        return out, seconds

    return run, None


@pytest.fixture(scope="module")
def pinocchio_second_order():
    run, reason = pinocchio_shim()
    if run is None:
        pytest.skip(reason)
    return lambda pmodel, q, v, a: run(pmodel, q, v, a)[0]


PIN_CASES = ["manipulator", "humanoid"] + [f"constS-seed{s}-{r}" for s in SEEDS for r in ("tree", "floating")]


@pytest.mark.parametrize("case", PIN_CASES)
def test_second_order_agrees_with_pinocchio(case, pinocchio_second_order):
    from test_against_pinocchio import make_model

    from rbda.interop.pinocchio import to_pinocchio

    model = make_model(case)
    q, v, a = random_state(model, seed=5)
    theirs = pinocchio_second_order(to_pinocchio(model), q, v, a)
    for x, y in zip(second_order(model, q, v, a), theirs):  # same names, same index layout
        assert_close(x, y, 1e-10)


@pytest.mark.parametrize("joint", [
    rbda.JointModelSphericalZYX(), rbda.JointModelUniversal([1, 0, 0], [0, 1, 0]),
    rbda.JointModelComposite([rbda.JointModelRX(), rbda.JointModelRY()], [rbda.SE3(), rbda.SE3.Random(np.random.default_rng(1))]),
], ids=["zyx", "universal", "composite"])
def test_where_pinocchio_second_order_is_off_ours_match_its_own_finite_differences(joint, pinocchio_second_order):
    """As its first order (test_derivatives_dynamics.py), Pinocchio 4.1's second order ignores that these joints'
    motion subspace moves with q: its dM/dq differs from finite differences of its own crba, and its d2tau/dq2
    from nested finite differences of its own rnea; ours match both."""
    import pinocchio as pin

    from rbda.interop.pinocchio import to_pinocchio

    model = random_model(0, False, [joint, rbda.JointModelRZ()])
    pmodel = to_pinocchio(model)
    pdata = pmodel.createData()
    q, v, a = random_state(model, seed=1)
    integrate = lambda x, d: pin.integrate(pmodel, x, d)
    upper = lambda M: np.triu(M) + np.triu(M, 1).T  # Pinocchio's crba fills the upper triangle
    dM = jacobian_along_basis(integrate, lambda x: upper(pin.crba(pmodel, pdata, x)), q, model.nv)
    dtau_dq = lambda x: jacobian_along_basis(integrate, lambda y: pin.rnea(pmodel, pdata, y, v, a).copy(), x,
                                             model.nv, 1e-5)
    d2q = jacobian_along_basis(integrate, dtau_dq, q, model.nv, 1e-4)
    ours, theirs = second_order(model, q, v, a), pinocchio_second_order(pmodel, q, v, a)
    assert_close(ours[3], dM, FD_TOL)
    assert_close(ours[0], d2q, 1e-5)
    assert np.abs(theirs[3] - dM).max() > 1e-2
    assert np.abs(theirs[0] - d2q).max() > 1e-2
