"""Parts of a geometry model (tessellated primitives, mesh files, bad meshes), their placements, and the
saved animation's file, without a browser."""

import base64
import json
import re
import warnings

import numpy as np
import pytest

import rbda
from rbda.io import Box, Capsule, Cylinder, GeometryModel, GeometryObject, Mesh, Sphere
from rbda.viewer import MeshFileWarning, part_placements, parts_of, save_animation
from rbda.viewer.scene import (box_mesh, capsule_mesh, cone_mesh, cylinder_mesh, ellipsoid_mesh, halfspace_mesh,
                               hull_mesh, inertia_box, sphere_mesh)
from viewer_browser import red_arm

N = 32  # segments around an axis (rbda.viewer.scene.SEGMENTS)


def volume_and_area(vertices, faces):
    """Signed volume (divergence theorem: positive when the triangles face outwards) and area of a closed mesh."""
    a, b, c = (vertices[faces[:, k]] for k in range(3))
    area = 0.5 * np.linalg.norm(np.cross(b - a, c - a), axis=1).sum()
    return np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6, area


def test_primitives_are_closed_outward_meshes_of_the_right_size():
    polygon = N / (2 * np.pi) * np.sin(2 * np.pi / N)  # area of the inscribed N-gon over pi r^2
    volume, area = volume_and_area(*box_mesh((0.2, 0.3, 0.5)))
    assert volume == pytest.approx(0.03, rel=1e-12) and area == pytest.approx(2 * (0.06 + 0.1 + 0.15), rel=1e-12)
    volume, _ = volume_and_area(*cylinder_mesh(0.1, 0.4))
    assert volume == pytest.approx(np.pi * 0.01 * 0.4 * polygon, rel=1e-12)
    v, f = sphere_mesh(0.3)
    assert np.allclose(np.linalg.norm(v, axis=1), 0.3)
    assert 0.9 * 4 / 3 * np.pi * 0.027 < volume_and_area(v, f)[0] < 4 / 3 * np.pi * 0.027
    v, f = capsule_mesh(0.1, 0.5)
    assert v[:, 2].min() == pytest.approx(-0.35) and v[:, 2].max() == pytest.approx(0.35)
    assert 0.95 * np.pi * 0.01 * (0.5 + 4 / 3 * 0.1) < volume_and_area(v, f)[0] < np.pi * 0.01 * (0.5 + 4 / 3 * 0.1)


def test_ellipsoids_cones_hulls_and_half_spaces_are_drawn_as_their_shapes():
    polygon = N / (2 * np.pi) * np.sin(2 * np.pi / N)
    radii = np.array([0.1, 0.2, 0.3])
    v, f = ellipsoid_mesh(radii)
    np.testing.assert_allclose(np.sum((v / radii) ** 2, axis=1), 1.0, rtol=1e-12)  # on the surface
    assert 0.9 * 4 / 3 * np.pi * radii.prod() < volume_and_area(v, f)[0] < 4 / 3 * np.pi * radii.prod()
    v, f = cone_mesh(0.1, 0.3)
    assert volume_and_area(v, f)[0] == pytest.approx(np.pi * 0.01 * 0.3 / 3 * polygon, rel=1e-12)
    assert v[:, 2].min() == pytest.approx(-0.15) and v[:, 2].max() == pytest.approx(0.15)
    cube = np.array([[x, y, z] for x in (0, 1) for y in (0, 2) for z in (0, 3)], dtype=float)
    points = np.vstack([cube, [[0.5, 1.0, 1.5], [0.2, 0.3, 0.4]]])  # inner points are not drawn
    v, f = hull_mesh(points)
    assert volume_and_area(v, f) == pytest.approx((6.0, 2 * (2 + 3 + 6)), rel=1e-12)
    assert set(f.ravel()) == set(range(8))
    normal = np.array([0.0, 0.6, 0.8])
    v, f = halfspace_mesh(normal, 0.5)
    assert v @ normal == pytest.approx(np.where(v @ normal > 0.499, 0.5, 0.498), abs=1e-12)  # a slab just below
    assert volume_and_area(v, f)[0] == pytest.approx(10 * 10 * 0.002, rel=1e-12)
    visual = GeometryModel()
    for k, shape in enumerate([rbda.collision.Ellipsoid(tuple(radii)), rbda.collision.Cone(0.1, 0.3),
                               rbda.collision.Convex(points), rbda.io.Halfspace()]):
        visual.add_geometry_object(GeometryObject(f"g{k}", 0, 0, rbda.SE3.Identity(), shape))
    assert len(parts_of(rbda.sample_models.manipulator(), visual)) == 4


def test_inertia_box_has_the_body_inertia():
    model = rbda.Model("box")
    j = model.add_joint(0, rbda.JointModelRX(), rbda.SE3.Identity(), "j")
    R = rbda.spatial.rpy_to_matrix(0.3, -0.2, 0.9)
    model.append_body_to_joint(j, rbda.SE3(R, [0.1, 0.2, 0.3]).act(rbda.Inertia.FromBox(2.0, 0.1, 0.4, 0.25)),
                               rbda.SE3.Identity())
    placement, sides = inertia_box(model, j)
    assert np.allclose(sorted(sides), [0.1, 0.25, 0.4])
    np.testing.assert_allclose(placement.translation, [0.1, 0.2, 0.3], atol=1e-12)
    Y = placement.act(rbda.Inertia.FromBox(2.0, *sides))
    np.testing.assert_allclose(Y.matrix(), model.inertias[j].matrix(), atol=1e-12)


def test_missing_and_unreadable_meshes_become_inertia_boxes_with_one_warning(tmp_path):
    model, visual = red_arm()
    broken = tmp_path / "broken.stl"
    broken.write_bytes(b"solid nothing\nthis is not an STL file\n")
    for k, path in enumerate([tmp_path / "missing.obj", tmp_path / "missing.obj", broken]):
        visual.add_geometry_object(GeometryObject(f"mesh{k}", 2, 0, rbda.SE3.Identity(), Mesh(str(path))))
    with pytest.warns(MeshFileWarning) as record:
        parts = parts_of(model, visual)
    messages = [str(w.message) for w in record]
    assert len(messages) == 2, messages  # one per file
    assert messages[0].startswith(str(tmp_path / "missing.obj")) and "not found" in messages[0]
    assert messages[1].startswith(str(broken))
    placement, sides = inertia_box(model, 2)
    for part in parts[-3:]:
        assert part.placement == placement
        np.testing.assert_allclose(np.ptp(part.vertices, axis=0), sides)


def test_mesh_files_are_read_with_their_scale(tmp_path):
    trimesh = pytest.importorskip("trimesh")
    path = tmp_path / "box.stl"
    trimesh.creation.box(extents=(1.0, 2.0, 3.0)).export(path)
    model, visual = red_arm()
    visual.add_geometry_object(GeometryObject("m", 1, 0, rbda.SE3.Identity(), Mesh(str(path), (0.1, 0.1, 0.1))))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        part = parts_of(model, visual)[-1]
    np.testing.assert_allclose(np.ptp(part.vertices, axis=0), [0.1, 0.2, 0.3])


def test_part_placements_follow_forward_kinematics(model):
    visual = GeometryModel()
    rng = np.random.default_rng(0)
    shapes = [Box((0.1, 0.2, 0.3)), Cylinder(0.1, 0.2), Sphere(0.1), Capsule(0.05, 0.2)]
    for j in range(model.njoints):
        placement = rbda.SE3(rbda.spatial.exp3(rng.normal(size=3)), rng.normal(size=3))
        visual.add_geometry_object(GeometryObject(f"g{j}", j, 0, placement, shapes[j % 4]))
    parts = parts_of(model, visual)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(3)])
    placements = part_placements(model, parts, Q)
    data = model.create_data()
    for q, at_q in zip(Q, placements):
        rbda.forward_kinematics(model, data, q)
        for part, M in zip(parts, at_q):
            expected = data.oMi[part.joint] * part.placement
            np.testing.assert_allclose(M[:, :3], expected.rotation, atol=1e-12)
            np.testing.assert_allclose(M[:, 3], expected.translation, atol=1e-12)


def embedded(path) -> dict:
    text = path.read_text()
    return json.loads(re.search(r'<script id="rbda-data" type="application/json">(.*?)</script>', text, re.S)
                      .group(1).replace("<\\/", "</"))


def test_saved_animation_embeds_meshes_poses_and_tracking_camera(tmp_path):
    model, visual = red_arm()
    Q = np.zeros((4, model.nq))
    Q[:, 0] = np.linspace(0, 1, 4)
    save_animation(model, visual, Q, 0.1, tmp_path / "a.html", title="</script><b>", camera={"track": "joint3"})
    text = (tmp_path / "a.html").read_text()
    assert "http://" not in text and "https://" not in text and "<script src" not in text
    data = embedded(tmp_path / "a.html")
    assert data["meta"]["title"] == "</script><b>" and len(data["parts"]) == 6
    poses = np.frombuffer(base64.b64decode(data["poses"]), np.float32).reshape(4, 6, 7)
    track = np.frombuffer(base64.b64decode(data["camera"]["track"]), np.float32).reshape(4, 3)
    oMi = rbda.batch.forward_kinematics(model, Q)
    np.testing.assert_allclose(track, oMi[:, 3, :, 3], atol=1e-6)
    np.testing.assert_allclose(poses[:, 2, :3], oMi[:, 3, :, 3] + oMi[:, 3, :, 2] * 0.1, atol=1e-6)
    assert np.all(np.abs(np.linalg.norm(poses[..., 3:], axis=-1) - 1) < 1e-6)


def test_save_animation_errors(tmp_path):
    model, visual = red_arm()
    out = tmp_path / "x.html"
    with pytest.raises(ValueError, match=r"Q: expected configurations of width nq = 6 .* got shape \(10, 7\)"):
        save_animation(model, visual, np.zeros((10, 7)), 0.1, out)
    with pytest.raises(ValueError, match="Q: sample 2 is not finite"):
        save_animation(model, visual, np.array([[0.0] * 6, [0.0] * 6, [np.nan] * 6]), 0.1, out)
    with pytest.raises(ValueError, match="dt: expected a positive time step"):
        save_animation(model, visual, np.zeros((3, 6)), 0.0, out)
    with pytest.raises(ValueError, match="dt: the sample times must be finite and strictly increasing"):
        save_animation(model, visual, np.zeros((3, 6)), [0.0, 0.2, 0.1], out)
    with pytest.raises(ValueError, match=r"camera: unknown keys \['eye'\]"):
        save_animation(model, visual, np.zeros((3, 6)), 0.1, out, camera={"eye": [1, 2, 3]})
    with pytest.raises(ValueError, match="camera\\['track'\\]: the model has no joint named 'elbow'"):
        save_animation(model, visual, np.zeros((3, 6)), 0.1, out, camera={"track": "elbow"})
    with pytest.raises(TypeError, match="visual_model: expected an rbda.io.GeometryModel"):
        save_animation(model, [], np.zeros((3, 6)), 0.1, out)
    assert not out.exists()


def triangles(vertices, faces) -> set:
    """The triangles of a mesh as a set of rounded corner triples, whatever the vertex numbering."""
    return {tuple(np.round(vertices[f], 9).ravel()) for f in faces}


def test_a_coloured_mesh_file_is_drawn_in_its_colours_with_the_same_triangles(tmp_path):
    trimesh = pytest.importorskip("trimesh")
    from rbda.model.meshes import load_mesh

    box = trimesh.creation.box(extents=(1.0, 2.0, 3.0))
    box.visual.face_colors = np.where(np.arange(12)[:, None] < 4, [255, 0, 0, 255], [0, 0, 255, 255])
    path = tmp_path / "box.ply"
    box.export(path)
    model, visual = red_arm()
    scale = (0.1, -0.2, 0.3)  # a mirror too
    visual.add_geometry_object(GeometryObject("file", 2, 0, rbda.SE3.Identity(), Mesh(str(path), scale)))
    visual.add_geometry_object(GeometryObject("painted", 2, 0, rbda.SE3.Identity(), Mesh(str(path), scale),
                                              mesh_color=np.array([0.0, 1.0, 0.0, 1.0]), override_material=True))
    parts = parts_of(model, visual)
    pieces = [p for p in parts if p.name.startswith("file/")]
    assert sorted(tuple(p.color) for p in pieces) == [(0.0, 0.0, 1.0, 1.0), (1.0, 0.0, 0.0, 1.0)]
    assert sorted(len(p.faces) for p in pieces) == [4, 8]
    painted = [p for p in parts if p.name == "painted"]
    assert len(painted) == 1 and tuple(painted[0].color) == (0.0, 1.0, 0.0, 1.0)  # the robot file's colour wins
    assert set().union(*(triangles(p.vertices, p.faces) for p in pieces)) == triangles(painted[0].vertices,
                                                                                       painted[0].faces)
    reference = load_mesh(path, np.abs(scale))
    mirrored = reference.vertices * np.sign(scale)
    assert triangles(painted[0].vertices, painted[0].faces) == triangles(mirrored, reference.faces[:, ::-1])
    # still facing outwards after the mirror: the volume 1 x 2 x 3 x (0.1 x 0.2 x 0.3) comes out positive
    assert volume_and_area(painted[0].vertices, painted[0].faces)[0] == pytest.approx(0.036, rel=1e-9)
