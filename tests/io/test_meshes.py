"""Mesh files: read through trimesh, scaled, hulled; errors name the file."""

import glob

import numpy as np
import pytest
from urdf_samples import robots_dir

from rbda.io import ModelFileError
from rbda.model.meshes import convex_hull, load_convex_hull, load_mesh

trimesh = pytest.importorskip("trimesh", reason="pip install 'rbda[meshes]'")


def cube_file(tmp_path, ext):
    path = str(tmp_path / f"cube.{ext}")
    trimesh.creation.box(extents=(2.0, 4.0, 6.0)).export(path)
    return path


@pytest.mark.parametrize("ext", ["stl", "obj", "ply"])
def test_box_file_scaled(tmp_path, ext):
    mesh = load_mesh(cube_file(tmp_path, ext), scale=(0.5, 0.5, 2.0))
    np.testing.assert_allclose(mesh.bounds, [[-0.5, -1.0, -6.0], [0.5, 1.0, 6.0]], atol=1e-6)
    assert mesh.faces.shape[1] == 3 and mesh.faces.max() < len(mesh.vertices)


def test_hull_of_points_is_outward_and_has_the_volume():
    rng = np.random.default_rng(0)
    pts = rng.normal(size=(200, 3))
    hull = convex_hull(pts)
    v, f = hull.vertices, hull.faces
    a, b, c = v[f[:, 0]], v[f[:, 1]], v[f[:, 2]]
    n = np.cross(b - a, c - a)
    # every point lies behind every outward face plane
    assert np.all(np.einsum("kj,ij->ik", n, pts) - np.einsum("ij,ij->i", n, a)[None, :] <= 1e-9)
    from scipy.spatial import ConvexHull
    volume = np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6.0
    assert volume == pytest.approx(ConvexHull(pts).volume, rel=1e-12)


@pytest.mark.parametrize("pattern", ["panda_description/meshes/collision/link4.stl",
                                     "go1_description/meshes/hip.dae", "solo_description/meshes/**/*.obj"])
def test_real_robot_meshes_have_triangles(pattern):
    files = sorted(glob.glob(str(robots_dir() / pattern), recursive=True))
    if not files:
        pytest.skip(f"no file matches {pattern}")
    mesh = load_mesh(files[0])
    assert len(mesh.faces) > 10 and np.all(np.isfinite(mesh.vertices))
    hull = load_convex_hull(files[0])
    lo, hi = mesh.bounds
    assert np.all(hull.bounds[0] >= lo - 1e-12) and np.all(hull.bounds[1] <= hi + 1e-12)
    np.testing.assert_allclose(hull.bounds, mesh.bounds, atol=1e-12)


def test_missing_empty_and_broken_files_name_the_file(tmp_path):
    with pytest.raises(ModelFileError, match="nothere.stl.*not found"):
        load_mesh(tmp_path / "nothere.stl")
    empty = tmp_path / "empty.obj"
    empty.write_text("# no vertices\n")
    with pytest.raises(ModelFileError, match="empty.obj"):
        load_mesh(empty)
    broken = tmp_path / "broken.stl"
    broken.write_bytes(b"solid x\nfacet normal nonsense\n")
    with pytest.raises(ModelFileError, match="broken.stl"):
        load_mesh(broken)
    with pytest.raises(ValueError, match="scale"):
        load_mesh(cube_file(tmp_path, "stl"), scale=(1.0, 0.0, 1.0))


def test_flat_points_have_no_hull():
    with pytest.raises(ValueError, match="one plane"):
        convex_hull(np.c_[np.random.default_rng(1).normal(size=(10, 2)), np.zeros(10)])
