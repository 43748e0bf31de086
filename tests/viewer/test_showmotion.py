"""rbda.featherstone.showmotion: spatial_v2 system models drawn from their appearance and camera."""

import numpy as np
import pytest

import rbda.featherstone as fs
from rbda.featherstone.model import core_of
from rbda.featherstone.showmotion import appearance_parts
from rbda.viewer import part_placements
from viewer_browser import browser, page, screenshot  # noqa: F401 (fixtures)

CONSTRUCTED = {"autoTree": lambda: fs.autoTree(5, 2, 0.3), "floatbase": lambda: fs.floatbase(fs.autoTree(3)),
               "planar": lambda: fs.planar(3), "gfxExample": lambda: fs.gfxExample(1), "vee": fs.vee,
               "singlebody": fs.singlebody, "scissor": fs.scissor, "doubleElbow": fs.doubleElbow,
               "rollingdisc": lambda: fs.rollingdisc(8)}


def world_points_spatial_v2(model, q, body: int, points: np.ndarray) -> np.ndarray:
    """Base coordinates ``(n, 3)`` of ``points`` ``(n, 3)`` fixed in ``body`` (1-based), from spatial_v2
    arithmetic alone: ``X_0i = XJ Xtree X_0,parent``, and ``p_0 = E^T p_i + r`` for ``X_0i = plux(E, r)``."""
    X = {0: np.eye(6)}
    for i in range(1, model.NB + 1):
        XJ, _ = fs.jcalc(model.jtype[i - 1], q[i - 1])
        X[i] = XJ @ model.Xtree[i - 1] @ X[model.parent[i - 1]]
    E, r = fs.plux(X[body])
    return points @ E + r


@pytest.mark.parametrize("name", CONSTRUCTED)
def test_every_constructor_is_drawn_where_spatial_v2_puts_its_bodies(name):
    model = CONSTRUCTED[name]()
    parts, _ = appearance_parts(model)
    assert len(parts) >= sum(1 for shapes in model.appearance["body"] if shapes) > 0
    if model.planar:
        return
    q = np.random.default_rng(1).normal(size=model.NB)
    placements = part_placements(core_of(model).model, parts, q[None])[0]
    for part, M in zip(parts, placements):
        if part.joint == 0:
            continue
        local = part.vertices @ part.placement.rotation.T + part.placement.translation  # in the body frame
        expected = world_points_spatial_v2(model, q, part.joint, local)
        np.testing.assert_allclose(part.vertices @ M[:, :3].T + M[:, 3], expected, atol=1e-12)


def test_rolling_disc_prism_corners_are_its_contact_points():
    model = fs.rollingdisc(6)
    parts, _ = appearance_parts(model)
    q = np.array([0.1, -0.2, 0.9, 0.3, 0.2, -0.4])
    corners = parts[0].vertices @ part_placements(core_of(model).model, parts, q[None])[0, 0, :, :3].T \
        + part_placements(core_of(model).model, parts, q[None])[0, 0, :, 3]
    contact = fs.gcPosVel(model, fs.fbkin(q, np.zeros(6)))[:3].T  # (12, 3)
    assert len(corners) == 12
    assert max(np.min(np.linalg.norm(contact - c, axis=1)) for c in corners) < 1e-12


def test_showmotion_errors(tmp_path):
    model = fs.planar(2)
    t = np.linspace(0, 1, 5)
    with pytest.raises(ValueError, match=r"q: expected shape \(NB, N\) = \(2, 5\)"):
        fs.showmotion(model, t, np.zeros((3, 5)), tmp_path / "x.html")
    with pytest.raises(ValueError, match="camera: unknown fields"):
        fs.showmotion(model, t, np.zeros((2, 5)), tmp_path / "x.html", camera={"eye": 1})
    model.appearance = {"body": [[("blob", [0, 0])], []]}
    with pytest.raises(ValueError, match=r"model.appearance\['body'\]\[0\]\[0\]: unknown shape 'blob'"):
        fs.showmotion(model, t, np.zeros((2, 5)), tmp_path / "x.html")


def test_showmotion_plays_in_the_browser(page, tmp_path):
    model = fs.gfxExample(1)  # a camera that follows body 2's tip
    t = np.linspace(0, 2, 41)
    q = np.vstack([np.sin(t), np.cos(t)])
    path = fs.showmotion(model, t, q, tmp_path / "gfx.html", title="gfx")
    page.goto((tmp_path / "gfx.html").as_uri())
    page.wait_for_function("window.rbdaAnimation && window.rbdaAnimation.ready")
    page.evaluate("rbdaAnimation.pause(); rbdaAnimation.seek(0)")
    first = screenshot(page)
    page.evaluate("rbdaAnimation.seek(2)")
    last = screenshot(page)
    assert path == str(tmp_path / "gfx.html") and page.inner_text("#title") == "gfx"
    assert np.mean(np.any(first != last, axis=2)) > 0.01
    colours = {tuple(c) for c in first.reshape(-1, 3)[::7].astype(int)}
    assert any(r > g + 80 and r > b + 80 for r, g, b in colours), "body 1 is drawn in its (red-orange) colour"
