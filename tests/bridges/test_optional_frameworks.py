"""The bridges are optional: ``import rbda`` loads neither JAX nor CasADi, ``rbda.jax`` / ``rbda.casadi`` load on
first use, and a missing framework gives an ImportError naming the extra to install."""

import importlib
import subprocess
import sys

import pytest


def test_import_rbda_loads_no_framework():
    code = "import sys, rbda; print('jax' in sys.modules, 'casadi' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split() \
        == ["False", "False"]


@pytest.mark.parametrize("name", ["jax", "casadi"])
def test_bridge_loads_on_first_use(name):
    pytest.importorskip(name)
    import rbda

    assert getattr(rbda, name) is importlib.import_module(f"rbda.{name}")


@pytest.mark.parametrize("name", ["jax", "casadi"])
def test_missing_framework_names_the_extra(monkeypatch, name):
    monkeypatch.setitem(sys.modules, name, None)  # ``import name`` now raises ImportError
    monkeypatch.delitem(sys.modules, f"rbda.{name}", raising=False)
    with pytest.raises(ImportError, match=rf"rbda\.{name} needs .*pip install 'rbda\[{name}\]'"):
        importlib.import_module(f"rbda.{name}")
