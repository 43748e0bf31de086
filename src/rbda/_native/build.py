"""Build the fast entries' C extension (``_entry.c``) in place, beside this file: for a checkout used through
``PYTHONPATH`` or an editable install made before the extension existed. ``pip install .`` and ``pip install -e .``
build it themselves (``setup.py``).

    python src/rbda/_native/build.py   (a file, not a module: it imports nothing of rbda)
"""

from __future__ import annotations

import os
import sys
import tempfile


def main() -> int:
    import numpy
    from setuptools import Distribution, Extension

    here = os.path.dirname(os.path.abspath(__file__))
    extension = Extension("_entry", [os.path.join(here, "_entry.c")], include_dirs=[numpy.get_include()])
    with tempfile.TemporaryDirectory() as temp:
        dist = Distribution({"name": "rbda-entry", "ext_modules": [extension]})
        build = dist.get_command_obj("build_ext")
        build.build_lib, build.build_temp = here, temp
        dist.run_command("build_ext")
    print(f"built {build.get_ext_fullpath('_entry')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
