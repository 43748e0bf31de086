"""Where the examples write their files: the folder given by ``--out DIR`` on the script's command line (made if
missing), else the current directory. Every path an example prints is absolute."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def output_dir() -> Path:
    """The absolute folder of ``--out DIR`` in ``sys.argv`` (made if missing), else the current directory."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--out", default=None)
    args, _ = parser.parse_known_args(sys.argv[1:])
    folder = Path(args.out or ".").resolve()
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def output_path(name) -> Path:
    """The absolute path an example writes ``name`` to: ``name`` itself when it is absolute, else ``name`` in
    :func:`output_dir`."""
    name = Path(name)
    return name if name.is_absolute() else output_dir() / name
