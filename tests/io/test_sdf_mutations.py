"""Mutated SDF files: whatever hypothesis does to a valid file, the reader returns a model or raises ModelFileError,
never another exception (``mutated`` also serves the MJCF twin of this test)."""

import os
import xml.etree.ElementTree as ET

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

import rbda  # noqa: E402
from rbda.io import ModelFileError  # noqa: E402
from rbda.io.sdf import build_model_from_sdf_string  # noqa: E402

from test_sdf import ARM_SDF, BALL_UNIVERSAL_SDF, POSES_SDF  # noqa: E402

TOKENS = ["", " ", "x", "nan", "inf", "-inf", "-1", "0", "1e300", "-1e-300", "0 0", "1 2 3", "0 0 0 0 0 0",
          "0 0 0 0 0 0 0", "world", "__model__", "base", "l1", "j1", "f1", "tool", "body", "torso", "true", "false",
          "quat_xyzw", "revolute", "ball", "fixed", "universal", "hinge", "slide", "free", "1.7", "1.5"]


@st.composite
def mutated(draw, text: str) -> str:
    """``text`` (XML) after a few random edits of its elements, attributes and texts, or cut short."""
    root = ET.fromstring(text)
    for _ in range(draw(st.integers(1, 3))):
        elements = list(root.iter())
        e = elements[draw(st.integers(0, len(elements) - 1))]
        parents = {c: p for p in root.iter() for c in p}
        op = draw(st.sampled_from(["delete", "text", "attribute", "duplicate", "rename", "move"]))
        if op == "delete" and e in parents:
            parents[e].remove(e)
        elif op == "text":
            e.text = draw(st.sampled_from(TOKENS) | st.floats(allow_nan=True).map(repr))
        elif op == "attribute":
            names = sorted(e.attrib) + ["name", "type", "relative_to", "attached_to", "pos", "axis", "expressed_in",
                                        "class", "childclass", "range", "mass", "degrees", "rotation_format"]
            e.set(draw(st.sampled_from(names)), draw(st.sampled_from(TOKENS)))
        elif op == "duplicate" and e in parents:
            parents[e].append(ET.fromstring(ET.tostring(e)))
        elif op == "rename":
            e.tag = draw(st.sampled_from(["link", "joint", "frame", "pose", "body", "geom", "inertial", "axis",
                                          "model", "include", "xyz", "mass", "parent", "child"]))
        elif op == "move" and e in parents:
            target = elements[draw(st.integers(0, len(elements) - 1))]
            if target is not e and e not in target.iter() and e in parents:
                parents[e].remove(e)
                target.append(e)
    out = ET.tostring(root, encoding="unicode")
    if draw(st.booleans()) and draw(st.integers(0, 9)) == 0:
        out = out[: draw(st.integers(0, len(out)))]
    return out


def read_or_model_file_error(read, text):
    try:
        model = read(text)
    except ModelFileError as exc:
        assert exc.file == "<string>" and exc.reason
        return
    assert isinstance(model, rbda.Model)
    model.check()


# RBDA_MUTATIONS=5000 runs a longer, random search (the default is a short, reproducible one)
SETTINGS = settings(max_examples=int(os.environ.get("RBDA_MUTATIONS", 150)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow], derandomize="RBDA_MUTATIONS" not in os.environ)


@SETTINGS
@given(st.sampled_from([ARM_SDF, BALL_UNIVERSAL_SDF, POSES_SDF]).flatmap(mutated))
def test_mutated_sdf_gives_a_model_or_model_file_error(text):
    read_or_model_file_error(build_model_from_sdf_string, text)
