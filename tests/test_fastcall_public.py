"""The public functions as one C call (``_native/public.py``, ``_entry.c``'s Public): the same results, errors and
introspection as the Python functions they wrap."""

import copy
import inspect
import pickle
import pydoc

import numpy as np
import pytest

import rbda
from rbda._native import fastcall, public

pytestmark = pytest.mark.skipif(not fastcall.ENABLED, reason="fast entries disabled (RBDA_FASTCALL=0, "
                                "RBDA_NUMBA_DISPATCH or the C extension not built: python src/rbda/_native/build.py)")

PUBLIC = sorted(name for name in rbda.algorithms.__all__
                if type(getattr(rbda.algorithms, name)).__name__ == "Public")


def test_the_fast_functions_are_public_objects():
    assert {"rnea", "aba", "crba", "integrate", "get_velocity", "get_frame_jacobian", "is_normalized"} <= set(PUBLIC)
    assert len(PUBLIC) >= 40


@pytest.mark.parametrize("name", PUBLIC)
def test_introspection_is_the_function(name):
    f = getattr(rbda, name)
    g = f.__wrapped__
    assert inspect.isfunction(g) and g.__name__ == name
    assert f.__name__ == name and f.__qualname__ == g.__qualname__ and f.__module__ == g.__module__
    assert f.__doc__ == g.__doc__ and inspect.getdoc(f) == inspect.getdoc(g)
    assert inspect.signature(f) == inspect.signature(g)
    assert inspect.isroutine(f)
    text = pydoc.render_doc(f, renderer=pydoc.plaintext)
    assert f"{name}(model" in text and g.__doc__.split()[0] in text
    assert pickle.loads(pickle.dumps(f)) is f and copy.deepcopy(f) is f and copy.copy(f) is f
    assert repr(f) == f"<function {g.__module__}.{name}>"


def test_results_errors_and_fallbacks_equal_the_python_function():
    model = rbda.sample_models.humanoid()
    data, other = model.create_data(), model.create_data()
    rng = np.random.default_rng(3)
    q, v, a = rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
    tau = rbda.rnea(model, data, q, v, a)
    np.testing.assert_array_equal(tau, rbda.rnea.__wrapped__(model, other, q, v, a))
    assert tau is not data.tau and not np.shares_memory(tau, data.ws)  # a copy
    assert rbda.rnea(model, data, q, v, a) is not tau  # a new array each call
    # keywords, defaults, other argument counts: the Python function itself
    np.testing.assert_array_equal(rbda.rnea(model, data, q, v, a=a), tau)
    np.testing.assert_array_equal(rbda.rnea(model, data, q, v, a, None), tau)
    fext = np.zeros((model.njoints, 6))
    np.testing.assert_array_equal(rbda.rnea(model, data, q, v, a, fext), tau)
    with pytest.raises(TypeError):
        rbda.rnea(model, data, q, v)
    with pytest.raises(TypeError):
        rbda.rnea(model, data, q, v, a, fext, fext)
    with pytest.raises(TypeError, match="data: expected an rbda.Data"):
        rbda.rnea(model, model, q, v, a)
    with pytest.raises(TypeError, match="model: expected an rbda.Model, got a Data"):
        rbda.integrate(data, q, v)
    with pytest.raises(ValueError, match="q: expected shape"):
        rbda.rnea(model, data, q[:-1], v, a)
    # a default filled in, a constant appended (compute_joint_jacobian passes LOCAL), a wrapped result
    assert rbda.is_normalized(model, q) is True and rbda.is_normalized(model, 2 * q) is False
    assert rbda.is_normalized(model, 2 * q, 10.0) is True and rbda.is_normalized(model, q, prec=1e-12) is True
    np.testing.assert_array_equal(rbda.compute_joint_jacobian(model, data, q, 3),
                                  rbda.compute_joint_jacobian.__wrapped__(model, other, q, 3))
    rbda.forward_kinematics(model, data, q, v)
    rbda.forward_kinematics(model, other, q, v)
    m = rbda.get_velocity(model, data, 3)
    assert type(m) is rbda.Motion and m.vector.flags.owndata and m.vector.flags.writeable
    np.testing.assert_array_equal(m.vector, rbda.get_velocity.__wrapped__(model, other, 3, rbda.LOCAL).vector)
    np.testing.assert_array_equal(rbda.get_velocity(model, data, 3, rbda.WORLD).vector,
                                  rbda.get_velocity.__wrapped__(model, other, 3, rbda.WORLD).vector)
    assert rbda.update_frame_placements(model, data) is None
    out = rbda.integrate(model, q, v)
    assert out is not rbda.integrate(model, q, v) and np.array_equal(out, rbda.integrate.__wrapped__(model, q, v))


def test_without_the_extension_public_returns_the_function(monkeypatch):
    monkeypatch.setattr(public, "_EXTENSION", None)

    def f(model, data, q):
        """A function."""
        return q

    assert public.public("copy")(f) is f


def test_an_entry_per_number_of_arguments():
    """center_of_mass and forward_kinematics: one entry for (q), (q, v), (q, v, a); None for v or a, the extra
    flag, keywords: the Python function."""
    model = rbda.sample_models.humanoid()
    data, other = model.create_data(), model.create_data()
    rng = np.random.default_rng(5)
    q, v, a = rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
    for args in ((q,), (q, v), (q, v, a), (q, None, None), (q, v, None), (q, v, a, False)):
        com = rbda.center_of_mass(model, data, *args)
        np.testing.assert_array_equal(com, rbda.center_of_mass.__wrapped__(model, other, *args))
        assert com is not data.com[0] and not np.shares_memory(com, data.wb)
        np.testing.assert_array_equal(data.com, other.com)
    for args in ((q,), (q, v), (q, v, a)):
        assert rbda.forward_kinematics(model, data, *args) is None
        rbda.forward_kinematics.__wrapped__(model, other, *args)
        np.testing.assert_array_equal(data.oMi.array, other.oMi.array)
    with pytest.raises(ValueError, match="a: an acceleration needs a velocity v"):
        rbda.center_of_mass(model, data, q, None, a)
    with pytest.raises(ValueError, match="a: an acceleration needs a velocity v"):
        rbda.forward_kinematics(model, data, q, None, a)
    np.testing.assert_array_equal(rbda.center_of_mass(model, data, q, v=v), rbda.center_of_mass(model, other, q, v))
