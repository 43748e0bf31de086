"""``rbda info`` and ``rbda bench`` on robot files."""

import subprocess
import sys

import pytest

from rbda import cli
from urdf_samples import EVERY_JOINT_URDF


@pytest.fixture
def urdf(tmp_path):
    path = tmp_path / "robot.urdf"
    path.write_text(EVERY_JOINT_URDF)
    return path


def test_info_on_a_file(urdf, capsys):
    assert cli.main(["info", str(urdf)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("model 'every_joint': 7 joints, nq = 18, nv = 14")
    assert "j_float" in out and "JointModelFreeFlyer" in out and "FIXED_JOINT" in out
    assert cli.main(["info", str(urdf), "--floating-base"]) == 0
    assert "nq = 25, nv = 20" in capsys.readouterr().out


def test_bench_on_a_file(urdf, capsys):
    assert cli.main(["bench", str(urdf), "--number", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("every_joint: one call from Python") and "aba" in out


def test_bad_files(tmp_path):
    bad = tmp_path / "bad.urdf"
    bad.write_text("<robot name='r'><link name='a'></robot>")
    with pytest.raises(SystemExit, match=r"rbda: .*bad.urdf: not well-formed XML"):
        cli.main(["info", str(bad)])
    with pytest.raises(SystemExit, match="neither a bundled model"):
        cli.main(["info", str(tmp_path / "missing.urdf")])


def test_command_line(urdf):
    result = subprocess.run([sys.executable, "-m", "rbda.cli", "info", str(urdf)], capture_output=True, text=True,
                            check=True)
    assert "j_cont_unaligned" in result.stdout
