"""examples/contact_artefacts.py reaches what it claims, against the closed forms of the point mass."""

import importlib.util
import sys
from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_contact_artefacts_example():
    sys.path.insert(0, str(EXAMPLES))
    spec = importlib.util.spec_from_file_location("contact_artefacts", EXAMPLES / "contact_artefacts.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    r = module.main(verbose=False)
    phi = np.degrees(r["angles"])
    inside = (phi > 0) & (phi < 90)
    assert np.allclose(r["magnitude"]["ncp"], 1.0, atol=1e-8) and np.allclose(r["deviation"]["ncp"], 0.0, atol=1e-4)
    assert np.allclose(r["magnitude"]["lcp"][inside], np.sqrt(2.0), atol=1e-8)
    assert np.allclose(r["magnitude"]["lcp"][~inside], 1.0, atol=1e-8)
    assert np.allclose(r["deviation"]["lcp"][inside], np.abs(45.0 - phi[inside]), atol=1e-4)
    # CCP: v_n = mu ||v_t|| after the step; the CCP impulse is the projection of -g on the cone, in closed form
    s, mu, gdt = r["speeds"], module.MU, module.GRAVITY * module.DT
    # of -g = [-s, 0, g dt]: while s > mu g dt it lies outside the cone, and its normal part is
    # (mu s + g dt) / (1 + mu^2); inside, the impulse is -g itself and the point stops on the ground
    normal = (mu * s + gdt) / (1 + mu ** 2)
    assert np.allclose(r["lift"]["ccp"], np.where(s > mu * gdt, normal - gdt, 0.0), atol=1e-9)
    assert np.abs(r["lift"]["ncp"]).max() < 1e-9
