"""Mesh files (STL, OBJ, DAE, PLY, ...) as triangle arrays, and their convex hulls.

Reading is delegated to `trimesh <https://trimesh.org>`_ (the optional extra ``rbda[meshes]``; DAE files also
need ``pycollada``, which the extra installs). rbda keeps only plain arrays: a :class:`TriangleMesh` holds the
scaled vertices and the triangles, and :func:`convex_hull` gives the hull the collision code works with.
A file is read once per process and scale; the arrays returned are shared and must not be modified.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from .errors import ModelFileError

INSTALL = "pip install 'rbda[meshes]'"


@dataclass(frozen=True)
class TriangleMesh:
    """A triangle mesh: ``vertices`` ``(n, 3)`` float64 in the geometry's frame (already scaled) and ``faces``
    ``(m, 3)`` int64 indices into ``vertices``, counter-clockwise seen from outside where the file says so;
    ``path`` is the file it came from."""

    vertices: np.ndarray
    faces: np.ndarray
    path: str = ""

    @property
    def bounds(self) -> np.ndarray:
        """``(2, 3)``: the lower and upper corners of the axis-aligned bounding box."""
        return np.stack([self.vertices.min(axis=0), self.vertices.max(axis=0)])


_CACHE: dict[tuple, TriangleMesh] = {}


def _trimesh():
    try:
        import trimesh
    except ImportError as err:
        raise ImportError(f"reading mesh files needs the trimesh package: {INSTALL}") from err
    return trimesh


def load_mesh(path: str | os.PathLike, scale=(1.0, 1.0, 1.0)) -> TriangleMesh:
    """Read a mesh file into a :class:`TriangleMesh`, every part of a multi-part file (a DAE scene) merged in the
    file's own frame, vertices multiplied by ``scale`` ``(3,)`` (or a scalar).

    Raises :class:`~rbda.io.ModelFileError` naming the file if it is missing, unreadable or has no triangle, a
    ``ValueError`` if ``scale`` is not three finite non-zero numbers (a negative one mirrors), and
    ``ImportError`` with the command to install trimesh if it is absent.
    """
    path = os.fspath(path)
    s = np.broadcast_to(np.asarray(scale, dtype=float), (3,)).copy()
    if not (np.all(np.isfinite(s)) and np.all(s != 0)):  # a negative factor mirrors (URDF files use it)
        raise ValueError(f"scale: expected three finite non-zero numbers, got {scale!r}")
    if not os.path.isfile(path):
        raise ModelFileError(path, "", "mesh file not found")
    key = (os.path.abspath(path), os.path.getmtime(path), tuple(s))
    if key in _CACHE:
        return _CACHE[key]
    trimesh = _trimesh()
    try:
        loaded = trimesh.load(path, force="mesh", process=False)
    except Exception as err:  # noqa: BLE001 (trimesh raises many types for a broken file)
        raise ModelFileError(path, "", f"cannot read the mesh: {type(err).__name__}: {err}") from None
    vertices = np.asarray(getattr(loaded, "vertices", np.zeros((0, 3))), dtype=float).reshape(-1, 3)
    faces = np.asarray(getattr(loaded, "faces", np.zeros((0, 3))), dtype=np.int64).reshape(-1, 3)
    if len(faces) == 0 or len(vertices) < 3:
        raise ModelFileError(path, "", "the mesh has no triangle")
    if not np.all(np.isfinite(vertices)):
        raise ModelFileError(path, "", "the mesh has non-finite vertices")
    mesh = TriangleMesh(np.ascontiguousarray(vertices * s), np.ascontiguousarray(faces), path)
    mesh.vertices.setflags(write=False)
    mesh.faces.setflags(write=False)
    _CACHE[key] = mesh
    return mesh


def convex_hull(vertices: np.ndarray) -> TriangleMesh:
    """The convex hull of points ``(n, 3)`` as a :class:`TriangleMesh` of its corner vertices, triangles
    oriented outwards (computed by qhull through scipy). Raises ``ValueError`` if the points are fewer than
    four or all in one plane."""
    from scipy.spatial import ConvexHull, QhullError

    pts = np.asarray(vertices, dtype=float).reshape(-1, 3)
    if len(pts) < 4:
        raise ValueError(f"vertices: a convex hull needs at least 4 points, got {len(pts)}")
    try:
        hull = ConvexHull(pts)
    except QhullError:
        raise ValueError("vertices: the points are in one plane (or line); their convex hull has no volume") from None
    corners = hull.vertices
    index = -np.ones(len(pts), dtype=np.int64)
    index[corners] = np.arange(len(corners))
    faces = index[hull.simplices]
    # qhull's simplices are not consistently oriented: make each normal point away from the centroid
    v = pts[corners]
    a, b, c = v[faces[:, 0]], v[faces[:, 1]], v[faces[:, 2]]
    outward = np.einsum("ij,ij->i", np.cross(b - a, c - a), a - v.mean(axis=0)) >= 0
    faces[~outward] = faces[~outward][:, ::-1]
    return TriangleMesh(np.ascontiguousarray(v), np.ascontiguousarray(faces))


def load_convex_hull(path: str | os.PathLike, scale=(1.0, 1.0, 1.0)) -> TriangleMesh:
    """The convex hull of a mesh file's vertices (see :func:`load_mesh` and :func:`convex_hull`); errors name
    the file."""
    mesh = load_mesh(path, scale)
    try:
        return convex_hull(mesh.vertices)
    except ValueError as err:
        raise ModelFileError(os.fspath(path), "", str(err).removeprefix("vertices: ")) from None
