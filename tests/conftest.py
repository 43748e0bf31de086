"""Helpers shared by the core tests: random models of every joint type and finite differences on the manifold."""

import sys
from pathlib import Path

import numpy as np
import pytest

import rbda

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the scene suite, benchmarks/scenes, shared by the tests and the benchmarks
    sys.path.insert(0, str(ROOT))

SEEDS = (0, 1, 2)
MODEL_CASES = [(seed, floating) for seed in SEEDS for floating in (False, True)]
MIMIC_CASES = [(0, True, True), (1, False, True)]  # (seed, floating, mimic)


def random_model(seed: int, floating: bool, joints=None, mimic: bool = False) -> rbda.Model:
    """A random tree of ``joints`` (default: every joint type) in a seed-dependent order, under a free-flyer root
    if ``floating``; bodies and placements are random too. With ``mimic``, two of its one-dof joints follow
    others (``q = scaling * q_ref + offset``), one of them mimicking a joint that comes after it."""
    rng = np.random.default_rng(seed)
    joints = rbda.sample_models.all_joint_types() if joints is None else list(joints)
    joints = [joints[k] for k in rng.permutation(len(joints))]
    model = rbda.sample_models.random_tree(joints, rng, root=rbda.JointModelFreeFlyer() if floating else None)
    if mimic:
        one_dof = [i for i in range(1, model.njoints) if model.joints[i].type in rbda.joints.mimic.MIMIC_TYPES]
        a, b, c, d = one_dof[:4]
        model = rbda.transform_joint_into_mimic(model, a, b, 1.3, 0.2)  # b follows a, which comes before it
        model = rbda.transform_joint_into_mimic(model, d, c, -0.7, 0.0)  # c follows d, which comes after it
    return model


def model_case_id(case) -> str:
    seed, floating, *mimic = case
    return f"seed{seed}-{'floating' if floating else 'tree'}{'-mimic' if mimic else ''}"


@pytest.fixture(params=MODEL_CASES + MIMIC_CASES, ids=model_case_id)
def model(request) -> rbda.Model:
    """A fresh random model of every joint type (with and without free-flyer root, several seeds; two with mimic
    joints)."""
    seed, floating, *mimic = request.param
    return random_model(seed, floating, mimic=bool(mimic))


def random_state(model, seed: int = 0):
    """``(q, v, a)``: a random configuration and random velocity and acceleration."""
    rng = np.random.default_rng(seed)
    return rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)


def derivative_along(integrate, f, q, dq, eps: float = 1e-6):
    """Central difference ``(f(q (+) eps dq) - f(q (+) -eps dq)) / (2 eps)`` on the manifold, for an
    array-valued ``f``; ``integrate(q, v)`` is the Lie-group map (``rbda.integrate`` or a joint's)."""
    dq = np.asarray(dq, dtype=float)
    return (np.asarray(f(integrate(q, eps * dq))) - np.asarray(f(integrate(q, -eps * dq)))) / (2.0 * eps)


def jacobian_along_basis(integrate, f, q, nv: int, eps: float = 1e-6) -> np.ndarray:
    """``(..., nv)``: column ``k`` is :func:`derivative_along` the unit velocity ``e_k``."""
    return np.stack([derivative_along(integrate, f, q, np.eye(nv)[k], eps) for k in range(nv)], axis=-1)


def vee(X) -> np.ndarray:
    """Twists ``(..., 6)`` ``[v; w]`` of se(3) matrices ``(..., 4, 4)`` ``[[w_x, v], [0, 0]]``."""
    X = np.asarray(X)
    return np.concatenate([X[..., :3, 3], np.stack([X[..., 2, 1], X[..., 0, 2], X[..., 1, 0]], axis=-1)], axis=-1)


def local_twist(H, dH) -> np.ndarray:
    """Body-frame twist ``vee(H^-1 dH)`` of a placement ``H`` ``(..., 4, 4)`` moving at ``dH = dH/dt``."""
    return vee(np.linalg.inv(H) @ dH)


def world_twist(H, dH) -> np.ndarray:
    """World-frame twist ``vee(dH H^-1)`` of a placement ``H`` moving at ``dH``."""
    return vee(dH @ np.linalg.inv(H))


def assert_close(actual, desired, tol: float = 1e-9, err_msg: str = ""):
    """``|actual - desired| <= tol * max(1, max |desired|)`` entry-wise (relative to the desired's scale)."""
    actual, desired = np.asarray(actual, dtype=float), np.asarray(desired, dtype=float)
    scale = max(1.0, float(np.max(np.abs(desired)))) if desired.size else 1.0
    np.testing.assert_allclose(actual, desired, rtol=0.0, atol=tol * scale, err_msg=err_msg)


def close(actual, desired, atol: float = 1e-12) -> bool:
    """``|actual - desired| <= atol * max(1, max |desired|)`` entry-wise: a tolerance relative to the desired's
    scale, machine precision by default (for identities that hold exactly)."""
    actual, desired = np.asarray(actual, dtype=float), np.asarray(desired, dtype=float)
    scale = max(1.0, float(np.max(np.abs(desired)))) if desired.size else 1.0
    return bool(np.all(np.abs(actual - desired) <= atol * scale))


def joint_placements(model, data, q) -> np.ndarray:
    """``(njoints, 4, 4)`` homogeneous ``oMi`` at ``q``."""
    rbda.forward_kinematics(model, data, q)
    return np.array([data.oMi[i].homogeneous for i in range(model.njoints)])


def frame_placements(model, data, q) -> np.ndarray:
    """``(nframes, 4, 4)`` homogeneous ``oMf`` at ``q``."""
    rbda.frames_forward_kinematics(model, data, q)
    return np.array([data.oMf[k].homogeneous for k in range(model.nframes)])


def load_example(name: str):
    """The module of ``examples/<name>.py``, loaded as when the script runs (its helpers importable)."""
    import importlib.util
    import sys
    from pathlib import Path

    examples = Path(__file__).resolve().parents[1] / "examples"
    if str(examples) not in sys.path:
        sys.path.insert(0, str(examples))
    spec = importlib.util.spec_from_file_location(f"example_{name}", examples / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pytest_addoption(parser):
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow (the scene suite's "
                     "hundreds of seeds)")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long runs (hundreds of random scenes); run with --slow")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
