"""The ``rbda`` command: ``rbda info [MODEL]`` and ``rbda bench [MODEL]``.

MODEL is the name of a bundled sample model (``manipulator``, ``humanoid``, ``every_joint``; the default is
``manipulator``) or the path of a robot file (URDF, MJCF, SDF), read with :func:`rbda.io.load_model`;
``--floating-base`` joins a file's root body to the universe with a free-flyer.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

SAMPLES = ("manipulator", "humanoid", "every_joint")


def load(name: str, floating_base: bool = False):
    """The bundled sample ``name``, or the model of the robot file at path ``name``."""
    from .model import sample_models

    if name in SAMPLES:
        return getattr(sample_models, name)()
    if not os.path.exists(name):
        raise SystemExit(f"rbda: {name!r} is neither a bundled model ({', '.join(SAMPLES)}) nor a file")
    from .io import ModelFileError, load_model

    try:
        return load_model(name, floating_base=floating_base)
    except (ModelFileError, ImportError) as exc:
        raise SystemExit(f"rbda: {exc}") from None


def info(model) -> str:
    """The tree, sizes, masses and frames of ``model`` as text."""
    lines = [f"model {model.name!r}: {model.njoints - 1} joints, nq = {model.nq}, nv = {model.nv}, "
             f"{model.nframes} frames, total mass {sum(Y.mass for Y in model.inertias):.3f} kg"]
    children = model.children

    def walk(i: int, depth: int) -> None:
        j = model.joints[i]
        kind = "universe" if j is None else j.shortname()
        mass = model.inertias[i].mass
        lines.append(f"{'  ' * depth}{i:3d} {model.names[i]:24s} {kind:36s} nq={model.nqs[i]} nv={model.nvs[i]} "
                     f"mass={mass:.3f}")
        for c in children[i]:
            walk(c, depth + 1)

    walk(0, 0)
    lines.append("frames:")
    for k, f in enumerate(model.frames):
        lines.append(f"  {k:3d} {f.name:28s} {f.type.name:12s} on joint {f.parent_joint}")
    return "\n".join(lines)


def _version() -> str:
    import numba
    import numpy

    from . import __version__

    return f"rbda {__version__} (numpy {numpy.__version__}, numba {numba.__version__})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rbda", description="Rigid-body dynamics: model information and timings.")
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True)
    p_info = sub.add_parser("info", help="print a model's tree, sizes, masses and frames")
    p_bench = sub.add_parser("bench", help="time the core algorithms (and Pinocchio's, when installed)")
    for p in (p_info, p_bench):
        p.add_argument("model", nargs="?", default="manipulator",
                       help=f"one of {', '.join(SAMPLES)}, or a URDF/MJCF/SDF file")
        p.add_argument("--floating-base", action="store_true", help="a free-flyer root joint for a model file")
    p_bench.add_argument("--number", type=int, default=2000, help="calls per timing run")
    args = parser.parse_args(argv)
    model = load(args.model, args.floating_base)
    if args.command == "info":
        print(info(model))
    else:
        from .bench import format_table, run

        np.set_printoptions(precision=3)
        print(format_table(model.name, run(model, number=args.number)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
