"""``rbda simulate``: a robot file on the ground, simulated, recorded and plotted from the command line."""

import numpy as np
import pytest

from rbda.cli import main, simulate

BOX_ROBOT = """<robot name="crate">
  <link name="body">
    <inertial><mass value="2"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.02"/></inertial>
    <collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision>
    <visual><geometry><box size="0.2 0.2 0.2"/></geometry></visual>
  </link>
  <link name="flap">
    <inertial><origin xyz="0.1 0 0"/><mass value="0.2"/>
      <inertia ixx="1e-4" ixy="0" ixz="0" iyy="1e-4" iyz="0" izz="1e-4"/></inertial>
  </link>
  <joint name="hinge" type="revolute"><parent link="body"/><child link="flap"/><origin xyz="0 0 0.1"/>
    <axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="10" velocity="10"/></joint>
</robot>"""


@pytest.fixture
def crate(tmp_path):
    path = tmp_path / "crate.urdf"
    path.write_text(BOX_ROBOT)
    return path


def test_a_floating_box_robot_comes_to_rest_on_the_ground(crate):
    t, Q, V, TAU = simulate(str(crate), duration=0.3, dt=1e-3, floating_base=True, progress=False)
    assert t[-1] == pytest.approx(0.3)
    assert Q[0, 2] == pytest.approx(0.1, abs=2e-3)  # started with its lowest face on the ground
    assert Q[-1, 2] == pytest.approx(0.1, abs=2e-3)  # and stays there: the ground carries it
    assert np.abs(V[-1, :6]).max() < 1e-3  # the base at rest
    assert abs(Q[-1, 7]) < 0.05  # the PD controller holds the hinge near its start (0) against the flap's weight
    assert np.allclose(TAU[:-1, :6], 0.0)  # the free flyer is not actuated


def test_the_command_records_and_plots(crate, tmp_path, capsys):
    pytest.importorskip("matplotlib")
    html, png = tmp_path / "crate.html", tmp_path / "crate.png"
    assert main(["simulate", str(crate), "--floating-base", "--time", "0.05", "--record", str(html),
                 "--plot", str(png)]) == 0
    assert html.stat().st_size > 1000 and "<html" in html.read_text().lower()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "simulated 0.050 s in 50 steps" in capsys.readouterr().out


def test_an_unknown_controller_is_refused(crate):
    with pytest.raises(SystemExit, match="--controller"):
        simulate(str(crate), controller="lqr")
