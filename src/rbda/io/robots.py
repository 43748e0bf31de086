"""``load_robot``: a robot of the example-robot-data package by its name, with its geometry and SRDF postures."""

from __future__ import annotations

import difflib
import importlib.metadata
from pathlib import Path
from typing import NamedTuple

# name -> (URDF, SRDF or None, floating base), paths under example-robot-data's ``robots`` folder; the names are
# those of example-robot-data's own loader (``example_robot_data.load(name)``)
ROBOTS = {
    "panda": ("panda_description/urdf/panda.urdf", "panda_description/srdf/panda.srdf", False),
    "ur3": ("ur_description/urdf/ur3_robot.urdf", None, False),
    "ur5": ("ur_description/urdf/ur5_robot.urdf", "ur_description/srdf/ur5.srdf", False),
    "ur10": ("ur_description/urdf/ur10_robot.urdf", None, False),
    "kinova": ("kinova_description/robots/kinova.urdf", "kinova_description/srdf/kinova.srdf", False),
    "double_pendulum": ("double_pendulum_description/urdf/double_pendulum.urdf", None, False),
    "solo12": ("solo_description/robots/solo12.urdf", "solo_description/srdf/solo.srdf", True),
    "anymal": ("anymal_b_simple_description/robots/anymal.urdf", "anymal_b_simple_description/srdf/anymal.srdf", True),
    "hyq": ("hyq_description/robots/hyq_no_sensors.urdf", "hyq_description/srdf/hyq.srdf", True),
    "a1": ("a1_description/urdf/a1.urdf", "a1_description/srdf/a1.srdf", True),
    "go1": ("go1_description/urdf/go1.urdf", "go1_description/srdf/go1.srdf", True),
    "go2": ("go2_description/urdf/go2.urdf", "go2_description/srdf/go2.srdf", True),
    "talos": ("talos_data/robots/talos_reduced.urdf", "talos_data/srdf/talos.srdf", True),
    "talos_full": ("talos_data/robots/talos_full_v2.urdf", "talos_data/srdf/talos.srdf", True),
    "romeo": ("romeo_description/urdf/romeo.urdf", "romeo_description/srdf/romeo.srdf", True),
}


class Robot(NamedTuple):
    """What :func:`load_robot` returns: the model (its SRDF postures in ``model.reference_configurations``), its
    collision and visual geometry models (None when not asked for), the URDF and SRDF paths (SRDF None when the
    robot has none), and the folders its ``package://`` meshes are found in."""

    model: object
    collision_model: object
    visual_model: object
    urdf: Path
    srdf: Path | None
    package_dirs: list[str]


def robots_dir() -> Path:
    """The ``robots`` folder of the installed example-robot-data; ``ModuleNotFoundError`` naming the package when it
    is not installed."""
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        raise ModuleNotFoundError("rbda.io.load_robot needs the example-robot-data package: "
                                  "pip install example-robot-data") from None
    return Path(str(dist.locate_file("cmeel.prefix/share/example-robot-data/robots")))


def load_robot(name: str, geometry: bool = True, floating_base: bool | None = None) -> Robot:
    """The robot ``name`` of example-robot-data (``"panda"``, ``"ur5"``, ``"solo12"``, ``"anymal"``, ``"talos"``,
    ...; every name is a key of ``rbda.io.robots.ROBOTS``), read from the installed package.

    ``geometry``: also build its collision and visual geometry models (mesh files need ``rbda[meshes]``);
    ``floating_base``: a free-flyer root joint; None takes the robot's own (legged robots and humanoids float,
    arms do not). The SRDF's postures are loaded into ``model.reference_configurations`` (e.g. ``"standing"``,
    ``"half_sitting"``). Returns a :class:`Robot`. Raises ``KeyError`` for an unknown name (with the closest ones),
    ``ModuleNotFoundError`` when example-robot-data is not installed, ``FileNotFoundError`` when the installed
    version lacks the robot's file.
    """
    from .loader import load_model
    from .srdf import load_reference_configurations
    from ..model.geometry import GeometryType
    from .urdf import build_geom_from_urdf

    if name not in ROBOTS:
        close = difflib.get_close_matches(str(name), ROBOTS, n=3)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else f"; known: {sorted(ROBOTS)}"
        raise KeyError(f"name: no robot named {name!r} in rbda.io.load_robot's table{hint}")
    urdf_rel, srdf_rel, floating = ROBOTS[name]
    root = robots_dir()
    urdf = root / urdf_rel
    if not urdf.exists():
        raise FileNotFoundError(f"{urdf}: not in the installed example-robot-data")
    srdf = root / srdf_rel if srdf_rel is not None else None
    package_dirs = [str(root.parent.parent)]  # .../share, where package://example-robot-data/... resolves
    model = load_model(str(urdf), floating_base=floating if floating_base is None else floating_base)
    if srdf is not None:
        load_reference_configurations(model, str(srdf))
    collision = visual = None
    if geometry:
        collision = build_geom_from_urdf(model, str(urdf), GeometryType.COLLISION, package_dirs)
        visual = build_geom_from_urdf(model, str(urdf), GeometryType.VISUAL, package_dirs)
    return Robot(model, collision, visual, urdf, srdf, package_dirs)
