"""Saved animations opened from disk in a real headless browser (chromium through playwright)."""

import json

import numpy as np
import pytest

import rbda
from rbda.spatial import matrix_to_quat, quat_slerp
from rbda.viewer import save_animation

from viewer_browser import browser, is_red, page, project, red_arm, screenshot  # noqa: F401 (fixtures)

CAMERA = {"position": [2.0, -2.4, 1.4], "target": [0.0, 0.0, 0.6], "up": [0.0, 0.0, 1.0], "fov": 40.0}


def sweep(model, T: int = 31):
    """Joint 2 (the shoulder) from 0 to 1.2 rad: the arm leans over."""
    Q = np.zeros((T, model.nq))
    Q[:, 1] = np.linspace(0.0, 1.2, T)
    return Q


def box_centre(model, q, joint: int) -> np.ndarray:
    """World position of the centre of the box on ``joint`` (10 cm up its z axis), from rbda.forward_kinematics."""
    data = model.create_data()
    rbda.forward_kinematics(model, data, q)
    M = data.oMi[joint]
    return M.translation + M.rotation @ [0.0, 0.0, 0.1]


def open_animation(page, path):
    outside = []
    page.route("**/*", lambda route: (outside.append(route.request.url), route.abort())
               if not route.request.url.startswith("file://") else route.continue_())
    page.goto(path.as_uri())
    page.wait_for_function("window.rbdaAnimation && window.rbdaAnimation.ready")
    page.evaluate("rbdaAnimation.pause()")
    return outside


def canvas_rect(page):
    r = page.evaluate("(() => { const r = document.getElementById('canvas').getBoundingClientRect(); "
                      "return [r.left, r.top, r.width, r.height]; })()")
    return tuple(r)


def test_frames_at_0_and_T_show_the_robot_where_it_is(page, tmp_path):
    model, visual = red_arm()
    Q = sweep(model)
    path = tmp_path / "arm.html"
    save_animation(model, visual, Q, 0.05, path, camera=CAMERA)
    outside = open_animation(page, path)
    rect = canvas_rect(page)
    images, tips = [], []
    for t, q in ((0.0, Q[0]), (1.5, Q[-1])):
        page.evaluate(f"rbdaAnimation.seek({t})")
        images.append(screenshot(page))
        tips.append(project(box_centre(model, q, 5), CAMERA["position"], CAMERA["target"], CAMERA["up"],
                            CAMERA["fov"], rect))
    for image, tip in zip(images, tips):
        assert is_red(image, tip), f"no red part at the projected box centre {tip}"
    assert np.linalg.norm(np.subtract(tips[0], tips[1])) > 40  # the wrist box moved on screen ...
    assert not is_red(images[1], tips[0])  # ... and left its first place empty
    corner = images[0][int(rect[1]) + 5, int(rect[0]) + 5]
    assert np.all(corner > 240), "the background is white"
    assert np.mean(np.any(images[0] != images[1], axis=2)) > 0.005
    assert outside == [], "the saved animation needs nothing from the network"


def test_interpolation_is_linear_in_position_and_slerp_in_rotation(page, tmp_path):
    model, visual = red_arm()
    Q = np.zeros((3, model.nq))
    Q[:, 0] = [0.0, 2.0, 2.5]  # joint 1 about z, coarse samples: slerp differs from a normalised lerp
    Q[:, 1] = [0.0, 0.7, 0.3]
    times = np.array([0.0, 0.4, 1.0])
    save_animation(model, visual, Q, times, tmp_path / "a.html")
    open_animation(page, tmp_path / "a.html")
    oMi = rbda.batch.forward_kinematics(model, Q)
    for part, joint in ((2, 3), (4, 5)):  # box{j} is part j - 1
        for t in (0.1, 0.25, 0.7):
            k = 0 if t < 0.4 else 1
            u = (t - times[k]) / (times[k + 1] - times[k])
            M0, M1 = oMi[k, joint], oMi[k + 1, joint]
            offset = np.array([0.0, 0.0, 0.1])
            p0, p1 = M0[:, 3] + M0[:, :3] @ offset, M1[:, 3] + M1[:, :3] @ offset
            expected_q = quat_slerp(matrix_to_quat(M0[:, :3]), matrix_to_quat(M1[:, :3]), u)
            p, q = page.evaluate(f"rbdaAnimation.pose({part}, {t})")
            np.testing.assert_allclose(p, (1 - u) * p0 + u * p1, atol=1e-6)
            assert min(np.linalg.norm(np.array(q) - expected_q), np.linalg.norm(np.array(q) + expected_q)) < 1e-6


def test_metadata_camera_and_controls(page, tmp_path):
    model, visual = red_arm()
    path = tmp_path / "meta.html"
    save_animation(model, visual, sweep(model), 0.05, path, title="Arm <sweep>", author="A. Person",
                   description="joint 2 from 0 to 1.2 rad", date="2026-11-24", camera=CAMERA, speed=0.5)
    text = path.read_text()
    assert '<meta name="author" content="A. Person">' in text and "<title>Arm &lt;sweep&gt;</title>" in text
    open_animation(page, path)
    assert page.inner_text("#title") == "Arm <sweep>"
    assert "A. Person" in page.inner_text("#meta") and "2026-11-24" in page.inner_text("#meta")
    assert page.inner_text("#description") == "joint 2 from 0 to 1.2 rad"
    camera = json.loads(page.evaluate("document.getElementById('rbda-data').textContent"))["camera"]
    for key in ("position", "target", "up"):
        np.testing.assert_allclose(camera[key], CAMERA[key])
    assert camera["fov"] == CAMERA["fov"] and page.input_value("#speed") == "0.5"
    # the time slider seeks; play advances the clock; pause stops it
    page.fill("#time", "5000")
    assert abs(page.evaluate("rbdaAnimation.time()") - 0.75) < 1e-3
    assert page.inner_text("#play") == "Play"
    page.click("#play")
    page.wait_for_timeout(400)
    page.click("#play")
    t1 = page.evaluate("rbdaAnimation.time()")
    assert t1 != pytest.approx(0.75, abs=1e-3)
    page.wait_for_timeout(200)
    assert page.evaluate("rbdaAnimation.time()") == t1
