"""Sphinx configuration of rbda's documentation site.

Build it from the repository root with ``python -m sphinx -W -b html docs build/docs`` (the ``docs`` extra
installs Sphinx, the Furo theme and MyST for the Markdown pages).
"""

import importlib.util
import os
import sys

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "src")))

import rbda  # noqa: E402

project = "rbda"
author = "the rbda developers"
copyright = "2026, the rbda developers"
release = version = rbda.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.mathjax", "sphinx.ext.viewcode", "myst_parser"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "build", "_generated"]  # _generated: tables the benchmarks write, included by pages
myst_heading_anchors = 3

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {}  # a page lists a class's members where its directive says :members:
# The signatures name ``Model``, ``Data`` and numpy's ``ArrayLike`` only for type checkers; they are not
# importable at run time, so autodoc keeps them as strings.
autodoc_type_aliases = {}
nitpicky = False
suppress_warnings = ["myst.header"]

html_theme = "furo"
html_title = f"rbda {release}"
# rbda.jax and rbda.casadi document without their optional frameworks: mocked only when they are not installed.
autodoc_mock_imports = [m for m in ("jax", "casadi") if importlib.util.find_spec(m) is None]
