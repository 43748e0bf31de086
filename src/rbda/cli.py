"""The ``rbda`` command: ``rbda info [MODEL]``, ``rbda bench [MODEL]`` and ``rbda view [MODEL]``.

MODEL is the name of a bundled sample model (``manipulator``, ``humanoid``, ``every_joint``; the default is
``manipulator``), the path of a robot file (URDF, MJCF, SDF), read with :func:`rbda.io.load_model`, or the name
of one of example-robot-data's robots (``panda``, ``talos``, ...: :func:`rbda.io.load_robot`);
``--floating-base`` joins a file's root body to the universe with a free-flyer. ``rbda view`` serves the model
in a browser (:class:`rbda.viewer.Viewer`) at its SRDF reference configuration or the neutral one, with a slider
per joint, until interrupted.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

SAMPLES = ("manipulator", "humanoid", "every_joint")


def example_robot(name: str, floating_base: bool = False, srdf: str | None = None, package_dirs=None):
    """``(name, floating_base, srdf, package_dirs)`` for a command's MODEL: for the name of one of
    example-robot-data's robots (:func:`rbda.io.load_robot`'s, not a file), its URDF path, its own floating base
    (or ``floating_base`` when set), its SRDF (or ``srdf`` when given) and the folder of its meshes added to
    ``package_dirs``; anything else as given. Exits with a message when example-robot-data is not installed."""
    from .io.robots import ROBOTS, robots_dir

    if name in SAMPLES or os.path.exists(name) or name not in ROBOTS:
        return name, floating_base, srdf, package_dirs
    try:
        root = robots_dir()
    except ModuleNotFoundError as exc:
        raise SystemExit(f"rbda: {exc}") from None
    urdf, robot_srdf, floating = ROBOTS[name]
    srdf = srdf or (str(root / robot_srdf) if robot_srdf else None)
    return str(root / urdf), floating_base or floating, srdf, [*(package_dirs or []), str(root.parent.parent)]


def load(name: str, floating_base: bool = False):
    """The bundled sample ``name``, the model of the robot file at path ``name``, or example-robot-data's robot
    ``name`` (see :func:`example_robot`)."""
    from .io.robots import ROBOTS
    from .model import sample_models

    if name in SAMPLES:
        return getattr(sample_models, name)()
    name, floating_base, _, _ = example_robot(name, floating_base)
    if not os.path.exists(name):
        raise SystemExit(f"rbda: {name!r} is neither a bundled model ({', '.join(SAMPLES)}), nor a file, nor a robot "
                         f"of example-robot-data ({', '.join(ROBOTS)})")
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


def find_srdf(path: str) -> str | None:
    """The SRDF file beside a robot file: ``robot.srdf`` next to it, or ``../srdf/robot.srdf`` (the layout of
    ROS description packages), or the only SRDF file in ``../srdf/``; None if there is none."""
    stem, folder = os.path.splitext(os.path.basename(path))[0], os.path.dirname(os.path.abspath(path))
    srdf_folder = os.path.join(folder, os.pardir, "srdf")
    for candidate in (os.path.join(folder, stem + ".srdf"), os.path.join(srdf_folder, stem + ".srdf")):
        if os.path.isfile(candidate):
            return os.path.normpath(candidate)
    others = sorted(f for f in os.listdir(srdf_folder) if f.endswith(".srdf")) if os.path.isdir(srdf_folder) else []
    return os.path.normpath(os.path.join(srdf_folder, others[0])) if len(others) == 1 else None


def view(name: str, floating_base: bool = False, srdf: str | None = None, config: str | None = None,
         host: str = "127.0.0.1", port: int = 8080, package_dirs=None):
    """The :class:`rbda.viewer.Viewer` of ``rbda view``: the model ``name`` (see :func:`load`) with the visual
    geometry of its URDF file or the geoms of its MJCF file (the boxes of its bodies' inertias for other files or
    when it has none), shown at the
    SRDF reference configuration ``config`` (the SRDF ``srdf``, else the one found by :func:`find_srdf`; the
    first of its configurations by default) or else the neutral configuration. Exits with a message for a missing
    extra, a port in use, or an unknown configuration."""
    import warnings

    from .algorithms import neutral
    from .viewer.scene import MeshFileWarning, inertia_geometry

    name, floating_base, srdf, package_dirs = example_robot(name, floating_base, srdf, package_dirs)
    model = load(name, floating_base)
    visual = None
    if name not in SAMPLES:
        from .io import GeometryType, ModelFileError, build_geom_from_urdf
        from .io.loader import _format

        try:
            fmt = _format(name, False) if not name.lower().endswith(".xacro") else "xacro"
            if fmt == "urdf":
                visual = build_geom_from_urdf(model, name, GeometryType.VISUAL, package_dirs, missing_meshes="keep")
            elif fmt == "mjcf":
                from .io.mjcf_geometry import build_geom_from_mjcf

                visual = build_geom_from_mjcf(model, name)
        except ModelFileError as exc:
            raise SystemExit(f"rbda: {exc}") from None
    if visual is None or visual.ngeoms == 0:
        visual = inertia_geometry(model)
    q = neutral(model)
    srdf = srdf or (find_srdf(name) if name not in SAMPLES else None)
    if srdf is not None:
        from .io import load_reference_configurations

        load_reference_configurations(model, srdf)
    if config is not None and config not in model.reference_configurations:
        raise SystemExit(f"rbda: no reference configuration {config!r}; known: "
                         f"{', '.join(model.reference_configurations) or 'none (give an SRDF with --srdf)'}")
    if model.reference_configurations:
        config = config or next(iter(model.reference_configurations))
        q = model.reference_configurations[config]
    try:
        from .viewer import Viewer
        from .viewer.viewer import PortInUseError

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", MeshFileWarning)
            viewer = Viewer(model, visual, q, host=host, port=port)
        for w in caught:
            print(f"rbda: warning: {w.message}", file=sys.stderr)
    except ImportError as exc:
        raise SystemExit(f"rbda: {exc}") from None
    except PortInUseError as exc:
        raise SystemExit(f"rbda: {exc.strerror}") from None
    print(f"rbda: {model.name!r} at {'configuration ' + repr(config) if config else 'the neutral configuration'}: "
          f"open {viewer.url} in a browser (Ctrl-C to stop)")
    return viewer


def simulate(name: str, duration: float = 2.0, dt: float = 1e-3, floating_base: bool = False,
             controller: str = "pd", record: str | None = None, plot: str | None = None, srdf: str | None = None,
             config: str | None = None, package_dirs=None, solver: str = "admm", formulation: str = "ncp",
             progress: bool = True):
    """``rbda simulate``: the robot file ``name`` (see :func:`load`; ``floating_base`` gives it a free flyer) on a
    ground plane, started at its SRDF reference configuration ``config`` (the SRDF ``srdf``, else the one found
    by :func:`find_srdf`; the neutral configuration without one) with a floating base lowered or raised until its
    lowest collision geometry touches the ground, simulated for ``duration`` seconds in steps of ``dt`` by
    :class:`rbda.Simulator` (``solver``, ``formulation``). ``controller``: ``"pd"`` holds the start configuration
    with :class:`rbda.simulation.StandingPD` (20 rad/s, critically damped on the inertia each joint moves when
    standing, plus the gravity compensation that carries the weight through the contact points of the start;
    the free flyer is not actuated), ``"none"`` applies no torque.
    ``record``: an HTML animation file to write (:func:`rbda.viewer.save_animation`); ``plot``: an image of q, v
    and tau (:func:`rbda.viewer.plots.plot_trajectory`); ``progress``: a tqdm progress bar on
    stderr when it is a terminal (silent without the extra ``rbda[progress]``). Returns ``(t, Q, V, TAU)``. Exits with a message for an unknown controller, a file it cannot read or
    a missing extra."""
    import numpy as np

    from .algorithms import neutral
    from .collision import GeometryData, compute_distances
    from .io import GeometryType, ModelFileError, build_geom_from_urdf
    from .simulation import Simulator, StandingPD, add_ground_plane
    from .simulation.progress import progress_bar

    if controller not in ("pd", "none"):
        raise SystemExit(f"rbda: --controller: expected 'pd' or 'none', got {controller!r}")
    if plot:  # before the simulation, not after it
        import importlib.util

        if importlib.util.find_spec("matplotlib") is None:
            raise SystemExit("rbda: --plot needs matplotlib: pip install 'rbda[viewer]'")
    name, floating_base, srdf, package_dirs = example_robot(name, floating_base, srdf, package_dirs)
    model = load(name, floating_base)
    try:
        collision = build_geom_from_urdf(model, name, GeometryType.COLLISION, package_dirs)
        visual = build_geom_from_urdf(model, name, GeometryType.VISUAL, package_dirs, missing_meshes="keep")
    except ModelFileError as exc:
        raise SystemExit(f"rbda: {exc}") from None
    add_ground_plane(model, collision)
    q0 = neutral(model)
    srdf = srdf or find_srdf(name)
    if srdf is not None:
        from .io import load_reference_configurations

        load_reference_configurations(model, srdf)
    if model.reference_configurations:
        q0 = model.reference_configurations[config or next(iter(model.reference_configurations))].copy()
    data = model.create_data()
    if model.nqs[1] == 7:  # a floating base: put the lowest collision geometry on the ground
        geom_data = GeometryData(collision)
        compute_distances(model, data, collision, geom_data, q0)
        q0[2] -= float(np.min(geom_data.distances)) - 1e-4
    nv, steps = model.nv, int(round(duration / dt))
    sim = Simulator(model, collision, dt, solver=solver, formulation=formulation)
    pd = StandingPD(sim, q0) if controller == "pd" else None
    Q, V, TAU = np.empty((steps + 1, model.nq)), np.empty((steps + 1, nv)), np.zeros((steps + 1, nv))
    Q[0], V[0] = q0, 0.0
    forces = []
    with progress_bar(steps, f"rbda: simulating {model.name}", None if progress else False, long=0) as bar:
        for k in range(steps):
            if pd is not None:
                TAU[k] = pd(Q[k])
            Q[k + 1], V[k + 1] = sim.step(Q[k], V[k], TAU[k])
            forces.append(sim.forces.copy())
            bar.update()
    t = dt * np.arange(steps + 1)
    if record:
        from .viewer import save_animation

        stride = max(1, int(round(1.0 / (60.0 * dt))))
        save_animation(model, visual, Q[::stride], stride * dt, record, title=f"{model.name}: rbda simulate",
                       description=f"{duration} s, dt {dt}, {solver.upper()} on the {formulation.upper()}, "
                                   f"controller {controller}")
    if plot:
        from .viewer.plots import plot_trajectory

        plot_trajectory(model, t, Q, V, TAU, path=plot, title=f"{model.name}: rbda simulate")
    return t, Q, V, TAU


def _version() -> str:
    import numba
    import numpy

    from ._version import __version__

    return f"rbda {__version__} (numpy {numpy.__version__}, numba {numba.__version__})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="rbda", description="Rigid-body dynamics: model information, timings and "
                                                              "a viewer.")
    parser.add_argument("--version", action="version", version=_version())
    sub = parser.add_subparsers(dest="command", required=True)
    p_info = sub.add_parser("info", help="print a model's tree, sizes, masses and frames")
    p_bench = sub.add_parser("bench", help="time the core algorithms (and Pinocchio's, when installed)")
    p_view = sub.add_parser("view", help="show a model in the browser, with a slider per joint (rbda[viewer])")
    p_view.add_argument("--srdf", help="the SRDF file of its reference configurations (default: found beside it)")
    p_view.add_argument("--config", help="the SRDF reference configuration to show (default: its first)")
    p_view.add_argument("--host", default="127.0.0.1", help="the address to serve on (default 127.0.0.1)")
    p_view.add_argument("--port", type=int, default=8080, help="the port to serve on (default 8080; 0: any free one)")
    p_view.add_argument("--package-dir", action="append", dest="package_dirs",
                        help="a directory where package:// mesh paths are looked up (repeatable)")
    for p in (p_info, p_bench, p_view):
        p.add_argument("model", nargs="?", default="manipulator",
                       help=f"one of {', '.join(SAMPLES)}, a URDF/MJCF/SDF file, or a robot of "
                            "example-robot-data by name (panda, talos, ...)")
        p.add_argument("--floating-base", action="store_true", help="a free-flyer root joint for a model file")
    p_bench.add_argument("--number", type=int, default=2000, help="calls per timing run")
    p_sim = sub.add_parser("simulate", help="simulate a robot file on the ground (rbda.Simulator), record and plot it")
    p_sim.add_argument("model", help="a robot file (URDF), or a robot of example-robot-data by name (solo12, ...)")
    p_sim.add_argument("--floating-base", action="store_true", help="a free-flyer root joint")
    p_sim.add_argument("--time", type=float, default=2.0, help="simulated time in seconds (default 2)")
    p_sim.add_argument("--dt", type=float, default=1e-3, help="time step in seconds (default 1e-3)")
    p_sim.add_argument("--controller", default="pd", choices=("pd", "none"),
                       help="pd: hold the start configuration (default); none: no torque")
    p_sim.add_argument("--solver", default="admm", choices=("admm", "pgs"))
    p_sim.add_argument("--formulation", default="ncp", choices=("ncp", "ccp", "lcp"))
    p_sim.add_argument("--record", help="write the motion as a self-contained HTML animation (rbda[viewer])")
    p_sim.add_argument("--plot", help="write a figure of q, v and tau (rbda[viewer], matplotlib)")
    p_sim.add_argument("--srdf", help="the SRDF file of its reference configurations (default: found beside it)")
    p_sim.add_argument("--config", help="the SRDF reference configuration to start from (default: its first)")
    p_sim.add_argument("--package-dir", action="append", dest="package_dirs", help="where package:// meshes are")
    warm = sub.add_parser("warmup", help="compile every kernel ahead of time, with a progress bar (for images and CI)")
    warm.add_argument("--jobs", "-j", type=int, default=None,
                      help="processes compiling at once (default: one per core, at most 8)")
    warm.add_argument("--prune", action="store_true",
                      help="first delete the cache files compiled from other versions of rbda's sources")
    args = parser.parse_args(argv)
    if args.command == "warmup":
        from .warmup import default_jobs, warmup

        if args.prune:
            from ._native import cache

            print(f"rbda: {cache.prune()} cache files of other source versions deleted", file=sys.stderr)
        warmup(sys.stderr, default_jobs() if args.jobs is None else args.jobs)
        return 0
    if args.command == "view":
        import time

        viewer = view(args.model, args.floating_base, args.srdf, args.config, args.host, args.port, args.package_dirs)
        try:
            while True:
                time.sleep(1.0)
        except KeyboardInterrupt:
            viewer.close()
        return 0
    if args.command == "simulate":
        t, Q, V, TAU = simulate(args.model, args.time, args.dt, args.floating_base, args.controller, args.record,
                                args.plot, args.srdf, args.config, args.package_dirs, args.solver, args.formulation)
        base = f", base height {Q[0, 2]:.3f} -> {Q[-1, 2]:.3f} m" if args.floating_base else ""
        print(f"rbda: simulated {t[-1]:.3f} s in {len(t) - 1} steps{base}"
              + (f"; animation: {args.record}" if args.record else "") + (f"; plot: {args.plot}" if args.plot else ""))
        return 0
    model = load(args.model, args.floating_base)
    if args.command == "info":
        print(info(model))
    else:
        from .bench import format_table, run

        with np.printoptions(precision=3):  # for this table only: main() also runs inside other programs
            print(format_table(model.name, run(model, number=args.number)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
