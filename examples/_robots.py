"""Where the robot files of the examples come from: the example-robot-data package (``pip install
example-robot-data``, part of ``rbda[test]``)."""

from __future__ import annotations

import importlib.metadata
from pathlib import Path


def robot_file(relative: str) -> Path:
    """The path of ``relative`` (e.g. ``"panda_description/urdf/panda.urdf"``) in example-robot-data."""
    try:
        dist = importlib.metadata.distribution("example-robot-data")
    except importlib.metadata.PackageNotFoundError:
        raise SystemExit("these examples load real robots: pip install example-robot-data") from None
    path = Path(str(dist.locate_file("cmeel.prefix/share/example-robot-data/robots"))) / relative
    if not path.exists():
        raise SystemExit(f"{path}: not in the installed example-robot-data")
    return path
