"""The build compiles rbda's kernels into the wheel, so that an installed rbda never waits for a compiler.

After copying the sources, ``build_py`` runs ``rbda warmup`` on the copy (in new processes, one per core): numba
writes its cache beside the copied sources (``__pycache__/*.nbi``, ``*.nbc``), keyed on the content of every source
a kernel reaches, on numba's version and on this machine's processor, and the wheel carries it. Installed on this
machine with the same numba (``pip install .`` builds with the newest numba of the range the package depends on,
which is the one it installs), the first call of every kernel loads it; anywhere else numba does not use it and
compiles at first use, as without it. ``RBDA_BUILD_CACHE=0`` builds without it (minutes less);
``RBDA_BUILD_JOBS=N`` sets the processes. Editable installs compile at first use into the checkout.

The C extension ``rbda._native._entry`` (the fast entries' argument checks, through the CPython and numpy C API) is
built against the numpy of the build, before the warmup (which compiles the fast entries' bodies only where it
imports); it is optional: where it does not build (no C compiler), the package installs
without it and every call takes the ordinary path. ``python setup.py build_ext --inplace`` builds it in a checkout.
"""

from __future__ import annotations

import os
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class BuildWithCache(build_py):
    """``build_py``, then ``rbda warmup`` on the built copy of the package."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False) or os.environ.get("RBDA_BUILD_CACHE", "1") == "0":
            return
        self.run_command("build_ext")  # the C extension first: without it the fast entries would not compile
        built = os.path.abspath(self.build_lib)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([built, *filter(None, [os.environ.get("PYTHONPATH")])]))
        env.pop("NUMBA_CACHE_DIR", None)  # the cache beside the built sources, never a user's directory
        jobs = os.environ.get("RBDA_BUILD_JOBS", "")
        command = [sys.executable, "-c", "import sys; from rbda.cli import main; sys.exit(main(sys.argv[1:]))",
                   "warmup", "--prune", *(["--jobs", jobs] if jobs else [])]  # (a rebuild reuses build/lib)
        print("rbda: compiling the kernels into the wheel (rbda warmup; RBDA_BUILD_CACHE=0 skips it)", flush=True)
        if subprocess.run(command, env=env, cwd=built).returncode != 0:
            print("rbda: warning: the warmup failed; the wheel has no compiled cache (kernels compile at first use)",
                  file=sys.stderr, flush=True)


def extensions() -> list[Extension]:
    """The fast entries' C extension, built against the build's numpy (``pyproject.toml`` requires it)."""
    import numpy

    return [Extension("rbda._native._entry", ["src/rbda/_native/_entry.c"], include_dirs=[numpy.get_include()],
                      optional=True)]


setup(cmdclass={"build_py": BuildWithCache}, ext_modules=extensions())
