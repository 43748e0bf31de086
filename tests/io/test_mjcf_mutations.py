"""Mutated MJCF files: whatever hypothesis does to a valid file, the reader returns a model or raises
ModelFileError (MuJoCo's own errors included), never another exception."""

from pathlib import Path

import pytest

pytest.importorskip("mujoco")
pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

from rbda.io.mjcf import build_model_from_mjcf_string  # noqa: E402

from test_sdf_mutations import SETTINGS, mutated, read_or_model_file_error  # noqa: E402

MJCF_FILES = Path(__file__).parent / "mjcf_files"


@pytest.mark.filterwarnings("ignore:.*MuJoCo")
@SETTINGS
@given(st.sampled_from(sorted(p.read_text() for p in MJCF_FILES.glob("*.xml"))).flatmap(mutated))
def test_mutated_mjcf_gives_a_model_or_model_file_error(text):
    read_or_model_file_error(build_model_from_mjcf_string, text)
