"""The live viewer (viser) in a real headless browser, and its errors."""

import socket
import time

import numpy as np
import pytest

import rbda

pytest.importorskip("viser", reason="the viewer needs viser: pip install 'rbda[viewer]'")

from rbda.viewer import Viewer  # noqa: E402
from rbda.spatial import quat_to_matrix  # noqa: E402
from rbda.viewer.viewer import PortInUseError  # noqa: E402
from viewer_browser import browser, is_red, page, project, red_arm, screenshot  # noqa: E402,F401 (fixtures)

CAMERA = {"position": [1.6, -2.2, 1.3], "target": [0.0, 0.0, 0.55], "up": [0.0, 0.0, 1.0], "fov": 45.0}


def box_centre(model, q, joint: int) -> np.ndarray:
    data = model.create_data()
    rbda.forward_kinematics(model, data, q)
    M = data.oMi[joint]
    return M.translation + M.rotation @ [0.0, 0.0, 0.1]


def wait_for(condition, timeout: float = 20.0):
    end = time.time() + timeout
    while not condition():
        if time.time() > end:
            raise TimeoutError("the viewer did not answer in time")
        time.sleep(0.05)


def screenshot_when(page, condition, timeout: float = 20.0) -> np.ndarray:
    """A screenshot for which ``condition(image)`` holds (the renderer may lag behind), or the last one taken
    when ``timeout`` s have passed."""
    end = time.time() + timeout
    image = screenshot(page)
    while not condition(image) and time.time() < end:
        page.wait_for_timeout(250)
        image = screenshot(page)
    return image


def connect(page, viewer):
    """Open the viewer's page, point the browser's camera at CAMERA; returns the 3D canvas' rectangle."""
    page.set_viewport_size({"width": 1000, "height": 600})  # room for the robot beside the control panel
    page.goto(viewer.url)
    wait_for(lambda: len(viewer.server.get_clients()) == 1)
    client = next(iter(viewer.server.get_clients().values()))
    page.get_by_text("Connected").wait_for()
    client.camera.up_direction = CAMERA["up"]
    client.camera.position = CAMERA["position"]
    client.camera.look_at = CAMERA["target"]
    client.camera.fov = np.radians(CAMERA["fov"])
    wait_for(lambda: np.allclose(client.camera.position, CAMERA["position"], atol=1e-6)
             and np.allclose(client.camera.look_at, CAMERA["target"], atol=1e-6))
    for button in page.locator(".mantine-Notification-root button").all():  # "software WebGL" notice
        button.click()
    rect = page.evaluate("(() => { const c = Array.from(document.querySelectorAll('canvas'))"
                         ".find((c) => c.getBoundingClientRect().width > 100).getBoundingClientRect(); "
                         "return [c.left, c.top, c.width, c.height]; })()")
    return tuple(rect)


def test_page_shows_the_robot_and_a_slider_moves_it(page):
    model, visual = red_arm()
    with Viewer(model, visual, port=0) as viewer:
        rect = connect(page, viewer)
        q0 = rbda.neutral(model)
        tip0 = project(box_centre(model, q0, 5), CAMERA["position"], CAMERA["target"], CAMERA["up"], CAMERA["fov"],
                       rect)
        before = screenshot_when(page, lambda image: is_red(image, tip0))
        assert is_red(before, tip0), f"no red part at the projected wrist box {tip0}"
        assert np.all(before[int(rect[1]) + 5, int(rect[0]) + 5] > 200), "the background is light"
        # a person moves joint 2's slider to its upper end with the keyboard
        thumb = page.get_by_role("slider").nth(1)
        thumb.focus()
        thumb.press("End")
        wait_for(lambda: viewer.q[1] == pytest.approx(2.0))
        q1 = q0.copy()
        q1[1] = 2.0
        np.testing.assert_allclose(viewer.q, q1)
        tip1 = project(box_centre(model, q1, 5), CAMERA["position"], CAMERA["target"], CAMERA["up"], CAMERA["fov"],
                       rect)
        after = screenshot_when(page, lambda image: is_red(image, tip1) and not is_red(image, tip0))
        assert is_red(after, tip1), f"no red part at the wrist box's new projection {tip1}"
        assert not is_red(after, tip0), "the wrist box left its first place"


def test_display_draws_frames_com_and_contacts_where_the_algorithms_say():
    model, visual = red_arm()
    q = rbda.random_configuration(model, rng=np.random.default_rng(3))
    with Viewer(model, visual, port=0, frames=True, com=True) as viewer:
        points = np.array([[0.1, 0.0, 0.0], [0.0, 0.2, 0.0]])
        forces = np.array([[0.0, 0.0, 10.0], [1.0, 0.0, 5.0]])
        viewer.display(q, points, forces)
        data = model.create_data()
        rbda.forward_kinematics(model, data, q)
        for j in range(model.njoints):
            np.testing.assert_allclose(viewer._frames[j].position, data.oMi[j].translation, atol=1e-12)
        np.testing.assert_allclose(viewer._com.position, rbda.center_of_mass(model, data, q), atol=1e-12)
        np.testing.assert_allclose(viewer._contacts[1].points[:, 1], points + 0.01 * forces, atol=1e-6)
        with pytest.raises(ValueError, match="contact_forces"):
            viewer.display(q, points, forces[:1])
        with pytest.raises(ValueError, match=r"contact_points: expected finite \(n, 3\) world points, got shape"):
            viewer.display(q, np.zeros((2, 2)))
        with pytest.raises(ValueError, match=r"q: expected configurations of width nq = 6"):
            viewer.display(np.zeros(5))
        with pytest.raises(ValueError, match=r"Q: expected configurations of width nq = 6.*got shape \(4, 7\)"):
            viewer.play(np.zeros((4, 7)), 0.01)
        viewer.play(np.zeros((3, 6)), 0.001)
        np.testing.assert_allclose(viewer.q, 0.0)


def test_every_model_frame_or_a_chosen_few_are_drawn_where_the_algorithms_say():
    model, visual = red_arm()
    q = rbda.random_configuration(model, rng=np.random.default_rng(4))
    data = model.create_data()
    rbda.frames_forward_kinematics(model, data, q)
    chosen = [model.frames[-1].name, model.frames[2].name]
    for frames, ids in (("all", range(model.nframes)), (chosen, [model.nframes - 1, 2])):
        with Viewer(model, visual, q, port=0, frames=frames) as viewer:
            assert len(viewer._frames) == len(ids)
            for handle, k in zip(viewer._frames, ids):
                np.testing.assert_allclose(handle.position, data.oMf[k].translation, atol=1e-12)
                w, x, y, z = handle.wxyz
                np.testing.assert_allclose(quat_to_matrix(np.array([x, y, z, w])), data.oMf[k].rotation, atol=1e-9)
    with pytest.raises(ValueError, match="frames: the model has no frame named 'nope'"):
        Viewer(model, visual, port=0, frames=["nope"])
    with pytest.raises(ValueError, match="frames: expected False, True, 'all'"):
        Viewer(model, visual, port=0, frames="some")


def test_a_port_in_use_is_named():
    model, visual = red_arm()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(PortInUseError, match=f"port {port} on 127.0.0.1 is in use"):
            Viewer(model, visual, port=port)
    with pytest.raises(ValueError, match="port: expected a port number"):
        Viewer(model, visual, port=70000)
    with pytest.raises(ValueError, match=r"q: expected one configuration \(nq,\) = \(6,\), got shape \(2, 6\)"):
        Viewer(model, visual, np.zeros((2, 6)), port=0)
