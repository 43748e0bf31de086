"""Every URDF that example-robot-data ships and Pinocchio can load also loads in rbda, with Pinocchio's joints,
frames, limits and inertias, and rnea, crba, aba and joint Jacobians equal to Pinocchio's to 1e-9 relative."""

import warnings

import pytest

import rbda
from rbda.io import InertiaWarning, ModelFileError, build_model_from_urdf
from urdf_samples import assert_same_structure, dynamics_errors, robots_dir

pin = pytest.importorskip("pinocchio")

# files whose inertias are not positive semi-definite: Pinocchio loads them, rbda too, with an InertiaWarning
BAD_INERTIAS = {"romeo_laas_small.urdf", "tiago.urdf", "tiago_dual.urdf", "tiago_no_hand.urdf"}


def urdf_files():
    root = robots_dir()
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.urdf"))


def pinocchio_model(path, floating: bool):
    try:
        return pin.buildModelFromUrdf(path, pin.JointModelFreeFlyer()) if floating else pin.buildModelFromUrdf(path)
    except (ValueError, RuntimeError):
        return None


@pytest.mark.parametrize("floating", [False, True], ids=["fixed", "free-flyer"])
@pytest.mark.parametrize("relative", urdf_files())
def test_robot_agrees_with_pinocchio(relative, floating):
    path = str(robots_dir() / relative)
    pm = pinocchio_model(path, floating)
    if pm is None:
        pytest.skip("Pinocchio cannot load this file")
    root_joint = rbda.JointModelFreeFlyer() if floating else None
    if relative.split("/")[-1] in BAD_INERTIAS:
        with pytest.raises(ModelFileError, match="not positive semi-definite"):
            build_model_from_urdf(path, root_joint, check_inertia=True)
        with pytest.warns(InertiaWarning):
            model = build_model_from_urdf(path, root_joint)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("error", InertiaWarning)
            model = build_model_from_urdf(path, root_joint)
    assert_same_structure(model, pm)
    errors = dynamics_errors(model, pm, pin)
    assert max(errors.values()) <= 1e-9, errors


def test_files_pinocchio_cannot_load_give_a_model_file_error():
    """(In example-robot-data 6.0: ur3.urdf, whose <robot> has no name.)"""
    failing = [f for f in urdf_files() if pinocchio_model(str(robots_dir() / f), False) is None]
    for relative in failing:
        with pytest.raises(ModelFileError) as err:
            build_model_from_urdf(robots_dir() / relative)
        assert err.value.file.endswith(relative) and err.value.reason
