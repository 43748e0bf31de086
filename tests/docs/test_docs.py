"""The documentation site: every public name has its place and a complete docstring, every field of a Data is
described, and the site builds without a warning."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

import rbda
from tests.viewer.viewer_browser import browser  # noqa: F401 (a fixture: headless Chromium or a skip)

DOCS = Path(__file__).resolve().parents[2] / "docs"
PUBLIC_MODULES = ("rbda", "rbda.batch", "rbda.io", "rbda.featherstone", "rbda.spatial", "rbda.simulation", "rbda.viewer",
                  "rbda.collision")
PUBLIC_MODULES += tuple(f"rbda.{m}" for m in ("jax", "casadi") if importlib.util.find_spec(m))  # optional extras
# Parameters whose meaning every page states once (the model, its workspace, their geometric twins, the receiver).
SELF_EVIDENT = {"self", "cls", "model", "data", "geom_model", "geom_data"}


def public_names(module_name: str) -> dict[str, object]:
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    return {n: getattr(module, n) for n in names if not inspect.ismodule(getattr(module, n))}


def documented_names() -> set[str]:
    """Every object an autodoc directive of docs/api names, as ``module.name``."""
    found = set()
    for page in (DOCS / "api").glob("*.rst"):
        found.update(re.findall(r"^\.\. auto(?:function|class|data)::\s+(\S+)", page.read_text(), re.M))
    return found


def public_objects():
    seen = {}
    for module_name in PUBLIC_MODULES:
        for name, obj in public_names(module_name).items():
            seen.setdefault(id(obj), (f"{module_name}.{name}", obj))
    return sorted(seen.values(), key=lambda x: x[0])


def test_every_public_name_is_in_the_api_reference():
    documented = documented_names()
    objects = {}
    for full in documented:
        module, _, name = full.rpartition(".")
        try:
            owner = importlib.import_module(module)
        except ImportError:  # rbda.sample_models.x, rbda.cholesky.x: attributes, not modules
            owner = eval(module, {"rbda": rbda})
        objects[id(getattr(owner, name))] = full
    missing = [full for full, obj in public_objects() if id(obj) not in objects]
    assert not missing, f"public names missing from docs/api/*.rst: {missing}"


def callables():
    for full, obj in public_objects():
        if inspect.isfunction(inspect.unwrap(obj)):
            yield full, obj
        elif inspect.isclass(obj) and obj.__module__.startswith("rbda"):
            yield full, obj
            for attr, member in vars(obj).items():
                if not attr.startswith("_") and inspect.isfunction(member):
                    yield f"{full}.{attr}", member


def missing_parameters(obj) -> list[str]:
    doc = inspect.getdoc(obj) or ""
    if inspect.isclass(obj):
        doc += "\n" + (inspect.getdoc(obj.__init__) or "")
        obj = obj.__init__
    try:
        params = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        return []
    return [p for p in params if p not in SELF_EVIDENT and not p.startswith("_")
            and params[p].kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
            and not re.search(rf"\b{re.escape(p)}\b", doc)]


def test_every_public_function_has_a_docstring_naming_its_parameters():
    incomplete = {}
    for full, obj in callables():
        doc = inspect.getdoc(obj)
        if not doc or len(doc) < 20:
            incomplete[full] = "no docstring"
            continue
        missing = missing_parameters(obj)
        if missing:
            incomplete[full] = f"does not describe {missing}"
    assert not incomplete, "\n".join(f"{k}: {v}" for k, v in sorted(incomplete.items()))


def test_every_data_field_is_described():
    page = (DOCS / "data_fields.md").read_text()
    described = set(re.findall(r"`(\w+)`", page))
    for model in (rbda.sample_models.manipulator(), rbda.sample_models.humanoid()):
        fields = [k for k in vars(model.create_data()) if not k.startswith("_")]
        missing = [k for k in fields if k not in described]
        assert not missing, f"Data fields missing from docs/data_fields.md: {missing}"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The documentation site built with ``-W`` (warnings are errors) into a temporary folder: its status and the
    folder of its HTML pages."""
    sphinx = pytest.importorskip("sphinx.cmd.build", reason="the docs extra: pip install 'rbda[docs]'")
    pytest.importorskip("furo")
    pytest.importorskip("myst_parser")
    html = tmp_path_factory.mktemp("docs") / "html"
    return sphinx.build_main(["-W", "-q", "-b", "html", str(DOCS), str(html)]), html


def test_the_site_builds_without_warnings(site):
    status, html = site
    assert status == 0
    page = (html / "api" / "simulation.html").read_text()  # a class's members, where it lists them
    for member in ("rbda.Simulator.step", "rbda.Simulator.rollout", "rbda.Simulator.dt"):
        assert f'id="{member}"' in page, member


# the index and three guide pages, each with its title and the number of figures it shows at least
PAGES = {"index.html": ("rbda", 0), "simulation.html": ("Simulation", 3), "viewing.html": ("Viewing and plots", 2),
         "models.html": ("Models and robot files", 0)}


def test_the_pages_open_in_a_browser_with_their_title_and_figures(site, browser):
    """Headless Chromium opens the built index and three guide pages from disk: each shows its title, and every
    ``<img>`` has loaded (a broken image has ``naturalWidth == 0``)."""
    status, html = site
    assert status == 0
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    try:
        page = context.new_page()
        for name, (title, figures) in PAGES.items():
            page.goto((html / name).as_uri(), wait_until="load")
            assert page.title().startswith(title), (name, page.title())
            assert page.locator("h1").first.inner_text().strip().rstrip("#¶").strip() == title, name
            images = page.eval_on_selector_all(
                "article img", "imgs => imgs.map(i => [i.getAttribute('src'), i.complete, i.naturalWidth])")
            assert len(images) >= figures, (name, images)
            broken = [src for src, complete, width in images if not complete or width == 0]
            assert not broken, f"{name}: images not drawn: {broken}"
    finally:
        context.close()
