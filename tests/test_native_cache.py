"""numba's cache never serves machine code compiled from an old version of any rbda source (rbda/_native/cache.py).

A copy of the package in a temporary directory fills its cache by calling a kernel; later processes edit a helper
that the kernel calls from another file (the result must change) or a module the kernel cannot reach (the cache
must still be used)."""

import ast
import json
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from rbda._native import cache

# joints/spherical.py's integrate calls spatial/compiled.py's quat_exp: q * exp(v), normalised
CALL = textwrap.dedent("""
    import json, numpy as np
    from rbda._native.jit import real
    from rbda.joints import spherical
    kernel = real(spherical.integrate)
    out = np.empty(4)
    q = np.array([0.1, -0.2, 0.3, 0.9])
    kernel(q / np.linalg.norm(q), np.array([0.4, 0.5, -0.6]), out)
    hits, misses = kernel.stats.cache_hits, kernel.stats.cache_misses
    print(json.dumps({"out": out.tolist(), "hits": sum(hits.values()), "misses": sum(misses.values())}))
""")


def quat_mul(a, b):
    """Hamilton product of quaternions stored ``[x, y, z, w]``."""
    (ax, ay, az, aw), (bx, by, bz, bw) = a, b
    return np.array([aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz])


def expected(w_scale):
    """The integrate above in numpy, with the real part of exp(v) scaled by ``w_scale`` (the edit below)."""
    q = np.array([0.1, -0.2, 0.3, 0.9]) / np.linalg.norm([0.1, -0.2, 0.3, 0.9])
    v = np.array([0.4, 0.5, -0.6])
    t = np.linalg.norm(v)
    dq = np.r_[np.sin(t / 2) / t * v, w_scale * np.cos(t / 2)]
    out = quat_mul(q, dq)
    return out / np.linalg.norm(out)


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """A copy of rbda without any cache, importable from the returned directory."""
    root = tmp_path_factory.mktemp("copy")
    shutil.copytree(cache.ROOT, root / "rbda", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    return root


def run(root):
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")}
    env.update(PYTHONPATH=str(root), RBDA_COMPILE_NOTICE="0")
    result = subprocess.run([sys.executable, "-c", CALL], env=env, cwd=root, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def edit(path, old, new):
    text = path.read_text()
    assert text.count(old) == 1, f"{old!r} not once in {path}"
    path.write_text(text.replace(old, new))


def test_an_edited_helper_in_another_file_recompiles_its_cached_caller(package):
    first = run(package)
    assert first["misses"] == 1 and first["hits"] == 0
    np.testing.assert_allclose(first["out"], expected(1.0), rtol=0, atol=1e-15)
    assert run(package)["hits"] == 1  # the cache is used...

    unrelated = package / "rbda" / "io" / "urdf.py"
    assert cache.ROOT / "io" / "urdf.py" not in cache.sources(cache.ROOT / "joints" / "spherical.py")  # (same files)
    unrelated.write_text(unrelated.read_text() + "\n# an edit that joints/spherical.py cannot reach\n")
    again = run(package)
    assert again["hits"] == 1 and again["out"] == first["out"]  # ...also after an edit it cannot reach

    edit(package / "rbda" / "spatial" / "compiled.py", "k * w[2], np.cos(half)", "k * w[2], 2.0 * np.cos(half)")
    edited = run(package)
    assert edited["misses"] == 1 and edited["hits"] == 0  # compiled again, from the edited helper
    np.testing.assert_allclose(edited["out"], expected(2.0), rtol=0, atol=1e-15)
    assert np.abs(np.subtract(edited["out"], first["out"])).max() > 1e-3


def _imports_by_ast(rel):
    """The rbda files that ``rel`` imports, read with Python's own parser (the reference for the fast scan)."""
    parts = ["rbda", *rel.removesuffix(".py").split("/")]
    package = ".".join(parts[:-1])
    found = set()
    for node in ast.walk(ast.parse((cache.ROOT / rel).read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            source = ".".join(base + [node.module] if node.module else base) if node.level else node.module
            targets = [f"{source}.{a.name}" if cache._module_file(f"{source}.{a.name}") else source for a in node.names]
        else:
            continue
        found.update(f for f in map(cache._module_file, targets) if f is not None and f != rel)
    return found


def test_the_import_scan_finds_every_import_that_python_parses():
    files = sorted(path.relative_to(cache.ROOT).as_posix() for path in cache.ROOT.rglob("*.py"))
    assert "kernels/dynamics.py" in files and "__init__.py" in files
    for rel in files:
        missing = _imports_by_ast(rel) - set(cache._read(rel)[1])
        assert not missing, f"{rel}: the stamp misses {sorted(missing)}"


def test_the_stamp_of_a_kernel_module_covers_its_helpers():
    spherical = cache.sources(cache.ROOT / "joints" / "spherical.py")
    assert cache.ROOT / "spatial" / "compiled.py" in spherical
    dynamics = cache.sources(cache.ROOT / "kernels" / "dynamics.py")
    for helper in ("spatial/compiled.py", "joints/dispatch.py", "joints/revolute.py", "_native/views.py"):
        assert cache.ROOT / helper in dynamics
    assert cache.ROOT / "simulation" / "simulator.py" not in dynamics


def test_prune_deletes_the_cache_files_of_other_source_versions_only(tmp_path):
    folder = cache.ROOT / "joints" / "__pycache__"
    folder.mkdir(exist_ok=True)
    current = cache.source_stamp(cache.ROOT / "joints" / "spherical.py")[:12]
    other = "0" * 12 if current != "0" * 12 else "1" * 12
    names = {"old_index": f"spherical.integrate-12-{other}.py311.nbi",
             "old_data": f"spherical.integrate-12-{other}.py311.3.nbc",
             "new_index": f"spherical.integrate-12-{current}.py311.nbi",
             "unknown": f"nosuchmodule.f-3-{other}.py311.nbi"}
    paths = {key: folder / name for key, name in names.items()}
    created = [p for p in paths.values() if not p.exists()]
    try:
        for path in created:
            path.write_bytes(b"")
        deleted = cache.prune(cache.ROOT / "joints")
        assert not paths["old_index"].exists() and not paths["old_data"].exists()
        assert paths["new_index"].exists()  # this version's
        assert paths["unknown"].exists()  # no source of that name: left alone
        assert deleted >= 2
    finally:
        for path in created:
            path.unlink(missing_ok=True)
