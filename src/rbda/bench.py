"""Timing of the core algorithms, interleaved with Pinocchio's when it is installed.

``rbda bench [MODEL]`` and ``benchmarks/bench_core.py`` print the table this module measures: the best of
several repeats of many calls, rbda and Pinocchio alternating on the same states, and the ratio rbda / Pinocchio.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from .algorithms import (
    aba,
    compute_joint_jacobians,
    compute_minverse,
    crba,
    forward_kinematics,
    random_configuration,
    rnea,
)


def best_time(fn: Callable[[], object], number: int, repeat: int = 5) -> float:
    """Best mean time per call (seconds) over ``repeat`` runs of ``number`` calls."""
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def single_call_cases(model, rng: np.random.Generator):
    """``(name, rbda_fn, pinocchio_fn or None)`` for the core algorithms on one random state."""
    data = model.create_data()
    q = random_configuration(model, rng=rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    tau = rnea(model, data, q, v, a)
    cases = [
        ("forward_kinematics", lambda: forward_kinematics(model, data, q)),
        ("compute_joint_jacobians", lambda: compute_joint_jacobians(model, data, q)),
        ("rnea", lambda: rnea(model, data, q, v, a)),
        ("crba", lambda: crba(model, data, q)),
        ("aba", lambda: aba(model, data, q, v, tau)),
        ("compute_minverse", lambda: compute_minverse(model, data, q)),
    ]
    pin_cases = _pinocchio_cases(model, q, v, a, tau)
    return [(name, fn, pin_cases.get(name)) for name, fn in cases]


def _pinocchio_cases(model, q, v, a, tau) -> dict:
    try:
        import pinocchio as pin

        from .interop.pinocchio import to_pinocchio

        pm = to_pinocchio(model)
    except (ImportError, ValueError):
        return {}
    pd = pm.createData()
    return {
        "forward_kinematics": lambda: pin.forwardKinematics(pm, pd, q),
        "compute_joint_jacobians": lambda: pin.computeJointJacobians(pm, pd, q),
        "rnea": lambda: pin.rnea(pm, pd, q, v, a),
        "crba": lambda: pin.crba(pm, pd, q),
        "aba": lambda: pin.aba(pm, pd, q, v, tau),
        "compute_minverse": lambda: pin.computeMinverse(pm, pd, q),
    }


def run(model, number: int = 2000, repeat: int = 5, seed: int = 0) -> list[tuple[str, float, float | None]]:
    """``[(algorithm, rbda seconds, pinocchio seconds or None)]``, each pair timed interleaved."""
    rows = []
    for name, ours, theirs in single_call_cases(model, np.random.default_rng(seed)):
        ours()  # compile / warm up
        try:
            theirs and theirs()
        except Exception:  # Pinocchio does not support this case (e.g. its ABA and M^-1 with mimic joints)
            theirs = None
        t_ours, t_theirs = np.inf, (np.inf if theirs else None)
        for _ in range(repeat):
            t_ours = min(t_ours, best_time(ours, number, 1))
            if theirs:
                t_theirs = min(t_theirs, best_time(theirs, number, 1))
        rows.append((name, t_ours, t_theirs))
    return rows


def format_table(model_name: str, rows) -> str:
    lines = [f"{model_name}: one call from Python (best of repeats)",
             f"  {'algorithm':26s} {'rbda':>10s} {'pinocchio':>10s} {'ratio':>7s}"]
    for name, t_ours, t_theirs in rows:
        pin_txt = f"{t_theirs * 1e6:8.2f}us" if t_theirs else f"{'-':>10s}"
        ratio = f"{t_ours / t_theirs:7.2f}" if t_theirs else f"{'-':>7s}"
        lines.append(f"  {name:26s} {t_ours * 1e6:8.2f}us {pin_txt} {ratio}")
    if not any(t_theirs for _, _, t_theirs in rows):
        import importlib.util

        why = ("Pinocchio is not installed (pip install 'rbda[bench]')" if importlib.util.find_spec("pinocchio") is None
               else "Pinocchio cannot build this model")
        lines.append(f"  (no pinocchio column: {why})")
    return "\n".join(lines)


def cpu_name() -> str:
    """The processor's model name (``/proc/cpuinfo``), else what ``platform`` says."""
    import platform

    try:
        with open("/proc/cpuinfo") as f:
            return next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        return platform.processor() or platform.machine()


def environment() -> str:
    """The date and time (UTC), the machine (processor, cores, load average) and the versions of Python, rbda,
    numba, Pinocchio and MuJoCo (``not installed`` for a missing one), as one sentence for a generated page."""
    import datetime
    import importlib
    import os
    import sys

    from ._version import __version__

    def version(module: str) -> str:
        try:
            return importlib.import_module(module).__version__
        except ImportError:
            return "not installed"

    cpu = cpu_name()
    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"{now}, {cpu} ({os.cpu_count()} cores{load}), Python {sys.version.split()[0]}, rbda {__version__}, "
            f"numba {version('numba')}, Pinocchio {version('pinocchio')}, MuJoCo {version('mujoco')}")


def markdown_table(command: str, header, rows, note: str = "") -> str:
    """A Markdown table for ``docs/_generated/``: a line saying how it was made (``command``, then
    :func:`environment`), the table (``header``: column titles; ``rows``: sequences of cells, each turned into
    text with ``str``, None written as ``-``), and ``note`` under it when given. Returns the text, ending in a
    newline."""
    def cell(x) -> str:
        return "-" if x is None else str(x).replace("|", "\\|")

    lines = [f"Generated by `{command}` on {environment()}.", "",
             "| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(x) for x in row) + " |" for row in rows]
    if note:
        lines += ["", note]
    return "\n".join(lines) + "\n"


def write_one_call_markdown(path: str, script: str, tables: dict) -> None:
    """Write ``path`` (a page of ``docs/_generated/``): the one-call timings ``tables`` (``{model label: rows}``,
    each ``rows`` as :func:`run` returns them, the same algorithms in the same order) as one Markdown table, a row
    per algorithm and a column per model with rbda's and Pinocchio's times and their ratio, made by ``script``
    (the benchmark's path, run with this process's arguments)."""
    import sys

    labels = list(tables)
    header = ["algorithm"] + [f"{label}: rbda / Pinocchio" for label in labels]
    rows = []
    for k, (name, *_) in enumerate(tables[labels[0]]):
        cells = [f"`{name}`"]
        for label in labels:
            _, ours, theirs = tables[label][k]
            ratio = f" / {theirs * 1e6:.2f} us = **{ours / theirs:.2f}**" if theirs else ""
            cells.append(f"{ours * 1e6:.2f} us{ratio}")
        rows.append(cells)
    command = " ".join(["python", script, *sys.argv[1:]])
    note = ("One call from Python, the same state, rbda and Pinocchio interleaved, best of the repeats; ratios below 1 "
            "mean rbda is faster.")
    with open(path, "w") as f:
        f.write(markdown_table(command, header, rows, note))
