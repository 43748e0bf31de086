"""Make the README's pictures with rbda itself: ``python docs/images/make_images.py`` (needs rbda[viewer],
example-robot-data, playwright and a Chromium: ``apt-get install chromium``).

- ``viewer_talos.png``: ``rbda view`` on Talos (example-robot-data) at its SRDF ``half_sitting`` posture, as the
  browser shows it, joint sliders included;
- ``animation_rolling_disc.png``: the saved animation of examples/featherstone_rolling_disc.py at t = 1.2 s;
- ``simulation_solo12.png``: the animation that examples/solo12_stand.py saves (rbda.Simulator, solo12 standing
  and pushed by 10 N) at t = 0.65 s, while it sways, and ``solo12_stand.png``, the plot the example writes;
- ``contact_artefacts.png`` and ``simulated_contact_artefacts.png``: the plots of examples/contact_artefacts.py
  (one solver step) and examples/simulated_contact_artefacts.py (rbda.Simulator).
"""

import importlib.metadata
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--enable-unsafe-swiftshader", "--use-angle=swiftshader"]


def viewer_talos(browser) -> None:
    from rbda import cli

    robots = Path(importlib.metadata.distribution("example-robot-data")
                  .locate_file("cmeel.prefix/share/example-robot-data/robots"))
    viewer = cli.view(str(robots / "talos_data/robots/talos_reduced.urdf"), floating_base=True, port=0)
    try:
        page = browser.new_page(viewport={"width": 1100, "height": 720})
        page.goto(viewer.url)
        page.get_by_text("Connected").wait_for()
        while not viewer.server.get_clients():
            time.sleep(0.05)
        camera = next(iter(viewer.server.get_clients().values())).camera
        camera.up_direction = (0.0, 0.0, 1.0)
        camera.position = (2.6, -1.7, 1.35)
        camera.look_at = (0.0, 0.3, 0.68)
        camera.fov = np.radians(40.0)
        for button in page.locator(".mantine-Notification-root button").all():
            button.click()
        page.wait_for_timeout(4000)
        page.screenshot(path=str(HERE / "viewer_talos.png"))
        page.close()
    finally:
        viewer.close()


def run_example(example: str, out: str, plots: tuple = ()) -> None:
    """Run ``examples/<example>`` in the directory ``out`` and copy the plots ``plots`` it writes here."""
    script = HERE.parents[1] / "examples" / example
    path = os.pathsep.join(filter(None, [str(HERE.parents[1] / "src"), os.environ.get("PYTHONPATH")]))
    subprocess.run([sys.executable, str(script)], cwd=out, check=True, env={**os.environ, "PYTHONPATH": path})
    for plot in plots:
        shutil.copy(Path(out) / plot, HERE / plot)


def example_plots(example: str, *plots: str) -> None:
    """Run ``examples/<example>`` in a temporary directory and copy its plots ``plots`` here."""
    with tempfile.TemporaryDirectory() as out:
        run_example(example, out, plots)


def example_animation(browser, example: str, html: str, t: float, image: str, plots: tuple = ()) -> None:
    """Run ``examples/<example>`` in a temporary directory, save the frame at time ``t`` of the animation ``html``
    it writes as ``image`` and copy its plots ``plots`` here."""
    with tempfile.TemporaryDirectory() as out:
        run_example(example, out, plots)
        page = browser.new_page(viewport={"width": 900, "height": 560})
        page.goto((Path(out) / html).as_uri())
        page.wait_for_function("window.rbdaAnimation && window.rbdaAnimation.ready")
        page.evaluate(f"rbdaAnimation.pause(); rbdaAnimation.seek({t})")
        page.screenshot(path=str(HERE / image))
        page.close()


def main() -> None:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("needs chromium: apt-get install chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=FLAGS, headless=True)
        viewer_talos(browser)
        example_animation(browser, "featherstone_rolling_disc.py", "featherstone_rolling_disc.html", 1.2,
                          "animation_rolling_disc.png")
        example_animation(browser, "solo12_stand.py", "solo12_stand.html", 0.65, "simulation_solo12.png",
                          plots=("solo12_stand.png",))
        browser.close()
    example_plots("contact_artefacts.py", "contact_artefacts.png")
    example_plots("simulated_contact_artefacts.py", "simulated_contact_artefacts.png")
    print("saved every picture in", HERE)


if __name__ == "__main__":
    main()
