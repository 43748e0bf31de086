"""What compiling rbda costs, family by family: each family of ``rbda warmup`` (``rbda.warmup._steps``) run alone in a
new process with an empty compile cache, and what numba compiled for it.

    python benchmarks/compile_cost.py [FAMILY ...] [--list] [--top N] [--signatures NAME] [--markdown PATH]

``FAMILY`` selects families by a part of their name (``simulator``, ``JAX``; case-insensitive); none: all of them,
one after the other (about 20 minutes of CPU on 2 cores). Each family runs in a subprocess with ``NUMBA_CACHE_DIR``
pointed at a new empty folder, so that it compiles everything it reaches, including what another family would have
compiled first in ``rbda warmup``. Per family the table gives the CPU seconds of the step alone
(``time.process_time``: importing rbda and building the inputs are not counted), the peak resident memory of the
process, the number of compiles numba reported (one per dispatcher and signature) and the dispatchers compiled for
the most signatures. ``--top N`` lists the N dispatchers that took the most CPU seconds in each family, with their
number of signatures; their seconds are exclusive (a compile's time less that of the compiles nested in it, its
callees'). ``--signatures NAME`` also prints the argument types of each signature compiled for the dispatchers whose
qualified name contains ``NAME``: two signatures that differ only in a literal, a layout or an integer width are one
function compiled twice. ``--list`` prints the families' names.

The counts and seconds come from numba's compile events (``numba.core.event``, ``"numba:compile"``), which numba
broadcasts around the compile of each dispatcher and signature its cache could not serve. A ``cfunc`` (the XLA
handlers, the fast entries) broadcasts none: its own compile shows in ``outside`` (the family's seconds that no
compile event covers: the cfuncs, the calls that ran, loading the compiled code). Compiles that run in several
threads at once (a thread-backed rollout) share one clock, so their exclusive seconds are approximate.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CHILD = r"""
import json, os, resource, sys, threading, time
from collections import defaultdict
from numba.core import event

import rbda.warmup as w

name = sys.argv[1]
steps = dict(w._steps(*w._inputs()))
stats = defaultdict(lambda: {"signatures": [], "seconds": 0.0})
local = threading.local()


class Listener(event.Listener):
    def on_start(self, ev):
        if not hasattr(local, "stack"):
            local.stack = []
        local.stack.append([time.process_time(), 0.0])

    def on_end(self, ev):
        start, nested = local.stack.pop()
        took = time.process_time() - start
        if local.stack:
            local.stack[-1][1] += took
        d = ev.data["dispatcher"]
        key = f"{d.py_func.__module__}.{d.py_func.__qualname__}"
        stats[key]["signatures"].append(", ".join(str(a) for a in ev.data["args"]))
        stats[key]["seconds"] += took - nested


event.register("numba:compile", Listener())
t0 = time.process_time()
steps[name]()
seconds = time.process_time() - t0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
print("RESULT " + json.dumps({"family": name, "seconds": seconds, "rss_mb": rss, "dispatchers": stats}))
"""


def families() -> list[str]:
    """The names of ``rbda warmup``'s families, in its order."""
    os.environ["RBDA_COMPILE_NOTICE"] = "0"
    import rbda.warmup as w

    return [name for name, _ in w._steps(*w._inputs())]


def measure(name: str) -> dict:
    """Run family ``name`` in a new process with an empty cache; its result (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="rbda-compile-cost-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, RBDA_COMPILE_NOTICE="0")
        run = subprocess.run([sys.executable, "-c", CHILD, name], env=env, capture_output=True, text=True)
    for line in run.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    raise RuntimeError(f"family {name!r} failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")


def _short(key: str) -> str:
    return key.removeprefix("rbda.")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", nargs="*", help="parts of family names (default: every family)")
    parser.add_argument("--list", action="store_true", help="print the families' names and stop")
    parser.add_argument("--top", type=int, default=5, help="dispatchers listed per family by CPU seconds")
    parser.add_argument("--signatures", metavar="NAME", help="print the signatures of the dispatchers named so")
    parser.add_argument("--markdown", metavar="PATH", help="also write the table as Markdown")
    args = parser.parse_args(argv)
    names = families()
    if args.list:
        print("\n".join(names))
        return 0
    chosen = [n for n in names if not args.family or any(f.lower() in n.lower() for f in args.family)]
    if not chosen:
        parser.error(f"no family matches {args.family}; --list prints them")
    rows, total = [], {"seconds": 0.0, "compiles": 0}
    for name in chosen:
        r = measure(name)
        ds = r["dispatchers"]
        compiles = sum(len(d["signatures"]) for d in ds.values())
        inside = sum(d["seconds"] for d in ds.values())
        by_time = sorted(ds.items(), key=lambda kv: -kv[1]["seconds"])[:args.top]
        multi = sorted(((k, d) for k, d in ds.items() if len(d["signatures"]) > 1),
                       key=lambda kv: (-len(kv[1]["signatures"]), -kv[1]["seconds"]))[:3]
        print(f"\n{name}: {r['seconds']:.1f} s CPU, peak RSS {r['rss_mb']:.0f} MB, {compiles} compiles of "
              f"{len(ds)} dispatchers, outside compile events {r['seconds'] - inside:.1f} s", flush=True)
        for k, d in by_time:
            print(f"    {d['seconds']:7.1f} s  {len(d['signatures']):3d} sig  {_short(k)}")
        for k, d in ds.items():
            if args.signatures and args.signatures in k:
                print(f"  signatures of {_short(k)}:")
                for s in d["signatures"]:
                    print(f"      ({s})")
        total["seconds"] += r["seconds"]
        total["compiles"] += compiles
        rows.append((name, r["seconds"], r["rss_mb"], compiles,
                     ", ".join(f"{_short(k)} x{len(d['signatures'])}" for k, d in multi) or "-"))
    header = ("family", "CPU s", "peak RSS MB", "compiles", "most signatures")
    table = [header] + [(n, f"{s:.1f}", f"{m:.0f}", str(c), x) for n, s, m, c, x in rows]
    table.append(("total", f"{total['seconds']:.1f}", "", str(total["compiles"]), ""))
    print()
    widths = [max(len(row[i]) for row in table) for i in range(4)]
    for row in table:
        print("  ".join(row[i].ljust(widths[i]) for i in range(4)) + "  " + row[4])
    if args.markdown:
        from rbda.bench import markdown_table

        with open(args.markdown, "w") as f:
            command = " ".join(["python benchmarks/compile_cost.py", *(argv if argv is not None else sys.argv[1:])])
            f.write(markdown_table(command,
                                   list(header), [list(row) for row in table[1:]],
                                   "CPU seconds of each family alone in a new process with an empty compile cache."))
    return 0


if __name__ == "__main__":
    sys.exit(main())
