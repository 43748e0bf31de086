"""Helpers for the viewer's tests; a real headless browser for those that need one: Debian's chromium driven
by playwright.

Without them the browser tests skip, saying what to install: ``apt-get install chromium`` and
``pip install playwright`` (playwright's own browser download is not used: the system browser is).
"""

import os
import shutil

import numpy as np
import pytest

import rbda
from rbda.io import Box, GeometryModel, GeometryObject

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  "--enable-unsafe-swiftshader", "--use-angle=swiftshader"]  # WebGL on the CPU
RED = np.array([0.9, 0.1, 0.1, 1.0])


def chromium_path():
    for name in (os.environ.get("RBDA_CHROMIUM", ""), "chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name) if name else None
        if path:
            return path
    return None


@pytest.fixture(scope="module")  # module: each test module imports it
def browser():
    """A headless chromium, or a skip naming what to install."""
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="browser tests need playwright: pip install playwright")
    path = chromium_path()
    if path is None:
        pytest.skip("browser tests need chromium: apt-get install chromium (or set RBDA_CHROMIUM to a Chromium "
                    "binary)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 640, "height": 480}, device_scale_factor=1)
    pg = context.new_page()
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, f"the page raised: {errors}"


def red_arm():
    """The bundled 6-dof manipulator with one red box (8 x 8 x 20 cm) on each joint, 10 cm up its z axis."""
    model = rbda.sample_models.manipulator()
    visual = GeometryModel()
    for j in range(1, model.njoints):
        visual.add_geometry_object(GeometryObject(f"box{j}", j, 0, rbda.SE3(np.eye(3), [0.0, 0.0, 0.1]),
                                                  Box((0.08, 0.08, 0.2)), mesh_color=RED.copy(),
                                                  override_material=True))
    return model, visual


def project(point, position, target, up, fov_deg, rect):
    """The pixel ``(x, y)`` of the world ``point`` for a pinhole camera at ``position`` looking at ``target`` with
    vertical field of view ``fov_deg``, drawing in the page rectangle ``rect = (left, top, width, height)``."""
    position, target, up, point = (np.asarray(a, dtype=float) for a in (position, target, up, point))
    z = position - target
    z /= np.linalg.norm(z)
    x = np.cross(up, z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    d = point - position
    depth = -d @ z
    f = 1.0 / np.tan(np.radians(fov_deg) / 2)
    left, top, width, height = rect
    ndc = np.array([f * (d @ x) / depth / (width / height), f * (d @ y) / depth])
    return left + (ndc[0] + 1) / 2 * width, top + (1 - ndc[1]) / 2 * height


def screenshot(page) -> np.ndarray:
    """The page as an ``(H, W, 3)`` uint8 array."""
    import io

    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB"))


def is_red(image, xy, radius: int = 2) -> bool:
    """Whether the pixels around ``xy`` are red (a lit or shaded face of a red part; not white, not grey)."""
    x, y = int(round(xy[0])), int(round(xy[1]))
    patch = image[y - radius:y + radius + 1, x - radius:x + radius + 1].reshape(-1, 3).astype(int)
    return bool(np.all(patch[:, 0] > patch[:, 1] + 60) and np.all(patch[:, 0] > patch[:, 2] + 60))
