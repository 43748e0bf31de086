"""numba's on-disk cache, keyed on every rbda source a compiled function can reach.

numba keys a cached function on its own file's contents and its own bytecode. A kernel's machine code also holds
every helper it calls, inlined or linked in, and those live in other files: with numba's key alone, editing a
helper in ``spatial/compiled.py`` would leave every cached caller in ``kernels/`` running the old helper. Here the
source stamp of a function defined in rbda is a hash of its module's file and of every rbda module that module
imports, transitively (the import statements read from the source text, anywhere in the file), so that an edit to any of
them invalidates it, and an edit to a module it cannot reach does not.

:func:`install` puts the locators first in numba's list (numba's own locators stay behind them for every function
outside rbda). It runs when rbda loads numba (``rbda._native.jit.load``), never at ``import rbda``.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from pathlib import Path

from numba.core import caching

ROOT = Path(__file__).resolve().parents[1]  # the rbda package directory
_ROOT = str(ROOT)
_TOP = ROOT.name  # "rbda"


@functools.lru_cache(maxsize=None)
def _module_file(name: str) -> str | None:
    """The source file of module ``name`` (``rbda.kernels.dynamics``), relative to :data:`ROOT`
    (``kernels/dynamics.py``), or None if it is no module of the package."""
    parts = name.split(".")
    if parts[0] != _TOP:
        return None
    base = "/".join(parts[1:])
    for rel in (f"{base}.py", f"{base}/__init__.py".lstrip("/")):
        if os.path.isfile(os.path.join(_ROOT, rel)):
            return rel
    return None


#: an import statement at the start of a line: ``import a.b, c`` or ``from .x import (y, z)`` (a match inside a
#: docstring only adds a file to the stamp, never leaves one out)
_IMPORT = re.compile(r"^[ \t]*(?:import[ \t]+(?P<modules>[\w., \t]+)|from[ \t]+(?P<source>\.*[\w.]*)[ \t]+import[ \t]+"
                     r"(?P<names>\((?:[^)#]|#[^\n]*)*\)|[^\n]*))", re.M)


@functools.lru_cache(maxsize=None)
def _read(rel: str) -> tuple[bytes, tuple[str, ...]]:
    """The sha256 of the contents of ``rel`` (a file relative to :data:`ROOT`) and the rbda source files it
    imports (any import statement in the file), read once per process."""
    with open(os.path.join(_ROOT, rel), "rb") as f:
        text = f.read()
    parts = [_TOP, *rel.removesuffix(".py").split("/")]
    package = ".".join(parts[:-1])  # the package a relative import starts from (for an __init__, its own)
    found: set[str] = set()
    for match in _IMPORT.finditer(text.decode()):
        source, names = match.group("source"), match.group("names")
        if source is None:  # import a.b, c
            targets = [n.split()[0] for n in match.group("modules").split(",") if n.strip()]
        else:
            level = len(source) - len(source.lstrip("."))
            if level:
                base = package.split(".")[: len(package.split(".")) - level + 1]
                source = ".".join(base + ([source[level:]] if source[level:] else []))
            targets = []
            names = re.sub(r"#[^\n]*", "", names).strip("()").replace("\\", " ")
            for alias in (a.split() for a in names.split(",")):  # a submodule if there is one, else a name of the
                if alias:  # module itself
                    sub = f"{source}.{alias[0]}"
                    targets.append(sub if _module_file(sub) is not None else source)
        for target in targets:
            file = _module_file(target)
            if file is not None and file != rel:
                found.add(file)
    return hashlib.sha256(text).digest(), tuple(sorted(found))


def _relative(path: str | Path) -> str:
    return Path(path).resolve().relative_to(ROOT).as_posix()


#: files that generate no compiled code (this keying and the compile notices): left out of every stamp, so that
#: editing them does not recompile every kernel
NO_CODE = frozenset({"_native/cache.py", "_native/notice.py"})


def _closure(rel: str) -> list[str]:
    seen, todo = set(), [rel]
    while todo:
        file = todo.pop()
        if file not in seen and (file == rel or file not in NO_CODE):
            seen.add(file)
            todo.extend(_read(file)[1])
    return sorted(seen)


def sources(path: str | Path) -> list[Path]:
    """The rbda source files that the module at ``path`` reaches through its imports, itself included, sorted."""
    return [ROOT / rel for rel in _closure(_relative(path))]


@functools.lru_cache(maxsize=None)
def source_stamp(path: str | Path) -> str:
    """A hash of the contents of every file in :func:`sources` (and of their paths inside the package), once per
    process and module: the functions a process compiles come from the sources it imported."""
    digest = hashlib.sha256()
    for rel in _closure(_relative(path)):
        digest.update(rel.encode() + b"\0" + _read(rel)[0])
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def _inside(py_file: str) -> bool:
    """Whether ``py_file`` is a source file of rbda."""
    return py_file.endswith(".py") and Path(py_file).resolve().is_relative_to(ROOT)


class _TransitiveStamp:
    """A locator mixin: the source stamp covers the imports (:func:`source_stamp`); only for files in rbda."""

    def get_source_stamp(self):
        return source_stamp(self._py_file)

    def get_disambiguator(self):
        """numba's (the function's line) and the start of the source stamp: each version of the sources has index
        files of its own, so that an index written from other sources (an older rbda, another branch) is never
        read; reading one can fail outright, as its pickled types may name modules that no longer exist."""
        return f"{super().get_disambiguator()}-{source_stamp(self._py_file)[:12]}"

    @classmethod
    def from_function(cls, py_func, py_file):
        return super().from_function(py_func, py_file) if _inside(py_file) else None


class UserProvidedLocator(_TransitiveStamp, caching.UserProvidedCacheLocator):
    """``NUMBA_CACHE_DIR``, when set."""


class InTreeLocator(_TransitiveStamp, caching.InTreeCacheLocator):
    """The ``__pycache__`` beside the source (a writable checkout or install)."""


class UserWideLocator(_TransitiveStamp, caching.UserWideCacheLocator):
    """The user's cache directory (a read-only install)."""


LOCATORS = (UserProvidedLocator, InTreeLocator, UserWideLocator)


def install() -> None:
    """Put :data:`LOCATORS` ahead of numba's own (once). A user's ``NUMBA_CACHE_LOCATOR_CLASSES`` still wins."""
    current = caching.CacheImpl._locator_classes
    if current[: len(LOCATORS)] != list(LOCATORS):
        caching.CacheImpl._locator_classes = [*LOCATORS, *(c for c in current if c not in LOCATORS)]


#: a cache file's name: ``<module>.<function>-<line>-<stamp>.py<version>[.<n>].nbi|nbc`` (the stamp: 12 hex digits)
_CACHE_FILE = re.compile(r"^(?P<module>[^.]+)\..*-(?P<stamp>[0-9a-f]{12})\.py\d+(?:\.\d+)?\.nb[ic]$")


def prune(root: str | Path = ROOT) -> int:
    """Delete the cache files under ``root`` (the package's ``__pycache__`` folders) written from other versions of
    the sources than these: their stamp is not their module's :func:`source_stamp`. Returns how many were deleted.
    (Files from other versions are never read, as their names differ; this only frees the disk.)"""
    deleted = 0
    for path in Path(root).rglob("__pycache__/*.nb[ic]"):
        match = _CACHE_FILE.match(path.name)
        source = path.parent.parent / f"{match['module']}.py" if match else None
        if source is not None and source.is_file() and source.resolve().is_relative_to(ROOT):
            if source_stamp(source)[:12] != match["stamp"]:
                path.unlink()
                deleted += 1
    return deleted
