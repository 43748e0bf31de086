"""Pinocchio's own Python test suite (``unittest/python`` of stack-of-tasks/pinocchio, v3.7.0) run against
``rbda.pinocchio``, as a user porting a script would run it: ``import pinocchio`` resolves to ``rbda.pinocchio``.

The suite's files are test data, read where they are at test time (never copied into this repository): a folder
``pinocchio-unittest`` (with ``unittest/python``, ``unittest/models`` and ``models``) beside this checkout, or the
one ``RBDA_PINOCCHIO_UNITTEST`` names. The test copies it to a temporary folder, links ``models/example-robot-data``
to the installed example-robot-data and runs :mod:`unittest_runner` in a process of its own (the real Pinocchio is
never shadowed in a process that uses it as an oracle).

Eligible: every test except those that need coal's (hpp-fcl's) own Python bindings, CasADi, CppAD or a C++ test
module (:data:`NOT_ELIGIBLE`). At least 95 % of the eligible tests pass; each one that does not is in
:data:`KNOWN_FAILURES` with its reason, and the list is exact (a listed test that passes fails this test too).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rbda

from tests.io.urdf_samples import robots_dir  # example-robot-data's robots folder, or a skip

NOT_ELIGIBLE = {
    "bindings_fcl_transform.TestFCLTransformConversion.test_from_SE3": "coal's own bindings (pin.hppfcl.Transform3f)",
    "bindings_fcl_transform.TestFCLTransformConversion.test_to_SE3": "coal's own bindings (pin.hppfcl.Transform3f)",
    "bindings_visualizer.<import>": "a C++ test module of Pinocchio's build (test_ext_bindings_visualizer)",
    "bindings_spatial.TestSpatial.test_NaN_log3_casadi": "pinocchio.casadi (it passes without running: "
                                                         "'from pinocchio import casadi' fails, as the test allows)",
}

KNOWN_FAILURES = {
    "bindings_aba.TestABA.test_assert_mimic_not_supported_function":
        "expects computeMinverse to raise RuntimeError on a model with a mimic joint; rbda computes it (checked "
        "against M^-1 from crba in rbda's tests)",
    "bindings_model.TestModel.test_rnea":
        "passes q = zeros(nq), a zero quaternion, to rnea; rbda raises a ValueError naming the joint where "
        "Pinocchio computes with it unchecked",
    "bindings_contact_inverse_dynamics.TestContactInverseDynamics.test_call_to_contact_inverse_dynamics":
        "contactInverseDynamics (and CoulombFrictionCone) are not in rbda",
    "robot_wrapper.TestRobotWrapper.test_mjcf_without_root_joint":
        "test_mjcf.xml's <connect> has no anchor: MuJoCo's compiler, which rbda's MJCF reader runs, rejects the "
        "file (Pinocchio's own parser ignores the equality section)",
    "robot_wrapper.TestRobotWrapper.test_mjcf_with_root_joint": "as test_mjcf_without_root_joint",
    "robot_wrapper.TestRobotWrapper.test_mjcf_with_root_joint_and_root_joint_name": "as test_mjcf_without_root_joint",
}


def suite_folder() -> Path | None:
    """The test-data folder: ``RBDA_PINOCCHIO_UNITTEST``, or a ``pinocchio-unittest`` folder in a sibling of one of
    the folders above this file."""
    named = os.environ.get("RBDA_PINOCCHIO_UNITTEST")
    if named:
        return Path(named)
    for parent in Path(__file__).resolve().parents:
        for candidate in sorted(parent.glob("*/pinocchio-unittest")):
            if (candidate / "unittest" / "python").is_dir():
                return candidate
    return None


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    source = suite_folder()
    if source is None or not (source / "unittest" / "python").is_dir():
        pytest.skip("Pinocchio's unittest/python suite is not here: set RBDA_PINOCCHIO_UNITTEST to its folder "
                    "(unittest/python, unittest/models and models of stack-of-tasks/pinocchio)")
    suite = tmp_path_factory.mktemp("pinocchio-suite") / "suite"
    shutil.copytree(source, suite)
    (suite / "models" / "example-robot-data").symlink_to(robots_dir().parent, target_is_directory=True)
    (suite / "unittest" / "python" / "serialization-data").mkdir(exist_ok=True)
    out = suite / "outcomes.json"
    src = str(Path(rbda.__file__).parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")]),
           "RBDA_COMPILE_NOTICE": "0"}
    runner = Path(__file__).with_name("unittest_runner.py")
    done = subprocess.run([sys.executable, str(runner), str(suite), str(out)], env=env, capture_output=True,
                          text=True, timeout=3000)
    assert out.exists(), f"the runner failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return {k: tuple(v) for k, v in json.loads(out.read_text()).items()}


def test_pinocchio_unittest_suite(outcomes):
    eligible = {k: v for k, v in outcomes.items() if k not in NOT_ELIGIBLE}
    failing = {k: v for k, v in eligible.items() if v[0] != "passed"}
    unexplained = {k: v[1].splitlines()[-1] if v[1] else v[0] for k, v in failing.items() if k not in KNOWN_FAILURES}
    now_passing = sorted(k for k in KNOWN_FAILURES if k in eligible and eligible[k][0] == "passed")
    passed = len(eligible) - len(failing)
    print(f"Pinocchio's unittest/python on rbda.pinocchio: {passed} / {len(eligible)} eligible tests pass "
          f"({100 * passed / len(eligible):.1f} %), {len(outcomes) - len(eligible)} not eligible")
    for k in sorted(failing):
        print(f"  {k}: {KNOWN_FAILURES.get(k, failing[k][1])}")
    assert not unexplained, f"failures without a reason in KNOWN_FAILURES: {json.dumps(unexplained, indent=1)}"
    assert not now_passing, f"listed in KNOWN_FAILURES but passing now: {now_passing}"
    assert len(outcomes) >= 200, f"only {len(outcomes)} tests ran"
    assert passed >= 0.95 * len(eligible)
