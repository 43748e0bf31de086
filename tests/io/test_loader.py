"""``rbda.load_model``: the mistakes people make when loading a robot get the right behaviour or a clear error."""

import builtins

import numpy as np
import pytest

import rbda
from rbda.io import ModelFileError

XACRO = """<?xml version="1.0"?>
<robot xmlns:xacro="http://www.ros.org/wiki/xacro" name="arm">
  <xacro:property name="rod_length" value="0.5"/>
  <xacro:macro name="rod" params="name">
    <link name="${name}"><inertial><origin xyz="0 0 ${-rod_length}"/><mass value="2"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>
  </xacro:macro>
  <link name="base"/>
  <xacro:rod name="rod"/>
  <joint name="hinge" type="revolute"><parent link="base"/><child link="rod"/><axis xyz="0 1 0"/>
    <limit lower="-3" upper="3" effort="20" velocity="5"/></joint>
</robot>
"""


@pytest.fixture
def xacro_file(tmp_path):
    path = tmp_path / "arm.urdf.xacro"
    path.write_text(XACRO)
    return path


def test_a_xacro_file_is_expanded(xacro_file):
    pytest.importorskip("xacro")
    model = rbda.load_model(xacro_file)
    assert model.names == ["universe", "hinge"]
    assert model.inertias[1].mass == 2.0 and np.array_equal(model.inertias[1].lever, [0.0, 0.0, -0.5])


def test_without_xacro_the_error_says_what_to_install(xacro_file, monkeypatch):
    real_import = builtins.__import__

    def no_xacro(name, *args, **kwargs):
        if name == "xacro":
            raise ImportError("no module named xacro")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_xacro)
    with pytest.raises(ModelFileError, match=r"arm\.urdf\.xacro.*pip install 'rbda\[xacro\]'"):
        rbda.load_model(xacro_file)


def test_a_joint_model_as_second_argument_is_the_root_joint(xacro_file):
    pytest.importorskip("xacro")
    model = rbda.load_model(xacro_file, rbda.JointModelPlanar())  # Pinocchio's buildModel(path, root_joint)
    assert isinstance(model.joints[1], rbda.JointModelPlanar) and model.nq == 5
    with pytest.raises(ValueError, match="two root joints"):
        rbda.load_model(xacro_file, rbda.JointModelPlanar(), root_joint=rbda.JointModelFreeFlyer())
    with pytest.raises(TypeError, match="^floating_base: expected True or False"):
        rbda.load_model(xacro_file, "free")
