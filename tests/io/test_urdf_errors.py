"""Malformed URDF files give one ModelFileError naming the file, the element and the reason; mutated files
(elements and attributes deleted, duplicated or altered, text truncated) never raise anything else."""

import warnings
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rbda.io import InertiaWarning, ModelFileError, build_model_from_urdf, build_model_from_urdf_string, read_srdf
from rbda.io import load_reference_configurations
from urdf_samples import EVERY_JOINT_URDF

GOOD = """<robot name="r">
  <link name="base"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="arm"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="shoulder" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""


def replace(old: str, new: str) -> str:
    assert old in GOOD
    return GOOD.replace(old, new)


CASES = [  # (text, element named, reason matched)
    ("<robot name='r'><link name='a'></robot>", "", r"not well-formed XML \(mismatched tag: line 1"),
    ("<model name='r'/>", "<model>", "the root element must be <robot>"),
    (replace('<parent link="base"/>', '<parent link="torso"/>'), "joint 'shoulder' > parent", "link 'torso' is not defined"),
    (replace('<child link="arm"/>', '<child link="hand"/>'), "joint 'shoulder' > child", "link 'hand' is not defined"),
    (replace('<child link="arm"/>', ''), "joint 'shoulder'", "missing element <child>"),
    (replace('type="revolute"', 'type="ball"'), "joint 'shoulder'", "unknown joint type 'ball'"),
    (replace('type="revolute"', ''), "joint 'shoulder'", "missing attribute 'type'"),
    (replace('<mass value="1"/>', '<mass value="-2"/>'), "link 'base' > inertial > mass", "mass must be >= 0, got -2"),
    (replace('ixx="1" ixy="0"', 'ixx="1" ixy="3"'), "link 'base' > inertial > inertia", "not positive semi-definite"),
    (replace('iyy="1"', 'iyy="one"'), "link 'base' > inertial > inertia", "attribute 'iyy' is not numeric: 'one'"),
    (replace('iyy="1"', 'iyy="nan"'), "link 'base' > inertial > inertia", "attribute 'iyy' must be finite"),
    (replace('<axis xyz="0 0 1"/>', '<axis xyz="0 0"/>'), "joint 'shoulder' > axis", "must hold 3 numbers"),
    (replace('<axis xyz="0 0 1"/>', '<axis xyz="0 0 0"/>'), "joint 'shoulder' > axis", "non-zero vector"),
    (replace(' effort="1"', ''), "joint 'shoulder' > limit", "missing attribute 'effort'"),
    (replace('lower="-1" upper="1"', 'lower="2" upper="1"'), "joint 'shoulder' > limit", r"lower \(2.0\) is above upper"),
    (replace('<limit lower="-1" upper="1" effort="1" velocity="1"/>', ''), "joint 'shoulder'", "needs a <limit> element"),
    (replace('<link name="arm">', '<link>'), "<link>", "missing attribute 'name'"),
    (replace('<link name="arm">', '<link name="base">'), "link 'base'", "already defined"),
    (replace('</robot>', '<joint name="shoulder" type="fixed"><parent link="base"/><child link="arm"/></joint></robot>'),
     "joint 'shoulder'", "already defined"),
    (replace('</robot>', '<link name="x"/><joint name="j2" type="fixed"><parent link="base"/><child link="arm"/></joint>'
                         '</robot>'), "joint 'j2'", "link 'arm' already has a parent joint, 'shoulder'"),
    (replace('</robot>', '<link name="x"/></robot>'), "<robot>", "several root links: base, x"),
    (replace('</robot>', '<link name="x"/><link name="y"/><joint name="j2" type="fixed"><parent link="x"/>'
                         '<child link="y"/></joint><joint name="j3" type="fixed"><parent link="y"/><child link="x"/>'
                         '</joint></robot>'), "link 'x'", "form a cycle"),
    (replace('</robot>', '<joint name="universe" type="fixed"><parent link="arm"/><child link="x"/></joint>'
                         '<link name="x"/></robot>'), "joint 'universe'", "already exists"),
    (replace('<axis xyz="0 0 1"/>', '<axis xyz="0 0 1"/><origin xyz="0 0 1" rpy="0 0"/>'), "joint 'shoulder' > origin",
     "attribute 'rpy' must hold 3 numbers"),
    (replace('<link name="arm">', '<link name="arm"><visual><geometry><cone radius="1"/></geometry></visual>'),
     "link 'arm' > visual[0] > geometry > cone", "unknown shape"),
    (replace('<link name="arm">', '<link name="arm"><collision><geometry/></collision>'),
     "link 'arm' > collision[0] > geometry", "exactly one shape, got 0"),
    (replace('<link name="arm">', '<link name="arm"><collision><geometry><box size="1 -1 1"/></geometry></collision>'),
     "link 'arm' > collision[0] > geometry > box", "'size' must be >= 0"),
]


@pytest.mark.parametrize("text, element, reason", CASES, ids=[c[2][:40] for c in CASES])
def test_malformed_file(tmp_path, text, element, reason):
    path = tmp_path / "robot.urdf"
    path.write_text(text)
    with pytest.raises(ModelFileError, match=reason) as err:
        build_model_from_urdf(path, check_inertia=True)
    assert err.value.file == str(path) and err.value.element == element
    assert str(err.value).startswith(f"{path}: {element + ': ' if element else ''}")
    assert isinstance(err.value, ValueError)


def test_an_invalid_inertia_warns_by_default_and_the_check_can_be_strict_or_off():
    """Pinocchio loads such files (four robots of example-robot-data have one), so rbda loads them with a warning
    naming the element; ``check_inertia=True`` makes it an error, ``False`` silences it."""
    text = replace('ixx="1" ixy="0"', 'ixx="1" ixy="3"')
    with pytest.warns(InertiaWarning, match="link 'base' > inertial > inertia: the rotational inertia is not positive"):
        model = build_model_from_urdf_string(text)
    assert model.inertias[0].inertia[0, 1] == 3.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert build_model_from_urdf_string(text, check_inertia=False) == model
    with pytest.raises(ModelFileError, match="not positive semi-definite"):
        build_model_from_urdf_string(text, check_inertia=True)
    with pytest.raises(ValueError, match="check_inertia: expected True, False or 'warn'"):
        build_model_from_urdf_string(text, check_inertia="yes")


def test_srdf_errors(tmp_path):
    model = build_model_from_urdf_string(GOOD)
    bad = tmp_path / "bad.srdf"
    bad.write_text('<robot name="r"><group_state name="up"><joint name="shoulder" value="1 2"/></group_state></robot>')
    with pytest.raises(ModelFileError, match=r"group_state 'up' > joint 'shoulder': 2 value\(s\) for joint 'shoulder' with nq = 1"):
        load_reference_configurations(model, bad)
    bad.write_text('<robot name="r"><rotor_params><joint name="shoulder" mass="1"/></rotor_params></robot>')
    with pytest.raises(ModelFileError, match="rotor_params > joint 'shoulder': missing attribute 'gear_ratio'"):
        read_srdf(bad)
    with pytest.raises(ModelFileError, match="the root element must be <robot>"):
        read_srdf("<srdf/>", is_text=True)


# ------------------------------------------------------------------------------------------------ mutations
VALUES = ["", "x", "-1", "0", "1e400", "nan", "inf", "-inf", "0 0 0", "1 2", "1 2 3 4", "0 0 -1", "fixed",
          "floating", "planar", "continuous", "spherical", "base", "a", "b", "universe", "j_rev", "  1  0  0 "]


def elements(root):
    return [el for el in root.iter()]


@st.composite
def mutated_urdf(draw):
    root = ET.fromstring(EVERY_JOINT_URDF)
    for _ in range(draw(st.integers(1, 4))):
        els = elements(root)
        el = draw(st.sampled_from(els))
        action = draw(st.sampled_from(["delete", "duplicate", "drop_attr", "set_attr", "new_attr", "swap_tag"]))
        parent = next((p for p in els if el in list(p)), None)
        if action == "delete" and parent is not None:
            parent.remove(el)
        elif action == "duplicate" and parent is not None:
            parent.insert(list(parent).index(el), ET.fromstring(ET.tostring(el)))
        elif action == "drop_attr" and el.attrib:
            del el.attrib[draw(st.sampled_from(sorted(el.attrib)))]
        elif action == "set_attr" and el.attrib:
            el.set(draw(st.sampled_from(sorted(el.attrib))), draw(st.sampled_from(VALUES)))
        elif action == "new_attr":
            el.set(draw(st.sampled_from(["name", "type", "xyz", "rpy", "value", "link", "lower", "effort"])),
                   draw(st.sampled_from(VALUES)))
        elif action == "swap_tag":
            el.tag = draw(st.sampled_from(["link", "joint", "origin", "inertial", "limit", "mimic", "axis", "foo"]))
    text = ET.tostring(root, encoding="unicode")
    if draw(st.booleans()):
        text = text[: draw(st.integers(0, len(text)))]
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_urdf())
def test_mutations_raise_only_model_file_errors(text):
    try:
        model = build_model_from_urdf_string(text)
    except ModelFileError as err:
        assert err.file == "<string>" and err.reason
        return
    model.check()
    assert not np.isnan(model.packed[1]).any()
