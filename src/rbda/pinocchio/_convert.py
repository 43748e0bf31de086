"""The conversions between rbda's objects and ``rbda.pinocchio``'s, in one place.

``rbda.pinocchio``'s classes (``SE3``, ``Motion``, ``Force``, ``Inertia``, ``Frame``, ``Model``) are subclasses of
rbda's that add Pinocchio's names and nothing else (no field of their own). An rbda object that crosses into the
Pinocchio API is therefore *re-classed* in place (:func:`to_pin`): the same object, the same arrays, with the
Pinocchio methods on top; rbda's functions take the subclasses as they are. ``Data`` is the exception: Pinocchio's
fields (``data.v[i]`` a ``Motion``, ``data.com[i]`` a 3-vector) differ in type from rbda's arrays of rows, so
``rbda.pinocchio.Data`` holds an rbda ``Data`` and shows its fields in Pinocchio's types (:func:`native`).
"""

from __future__ import annotations

import numpy as np

#: rbda class -> its rbda.pinocchio subclass, filled by the modules that declare them (:func:`register`)
PIN_CLASSES: dict[type, type] = {}


def register(pin_class: type) -> type:
    """Class decorator: ``pin_class`` (a direct subclass of an rbda class, with no field of its own; its other
    bases are ``rbda.pinocchio``'s mixins) is what :func:`to_pin` turns instances of that rbda class into."""
    rbda_class = next(b for b in pin_class.__bases__ if not b.__module__.startswith(__package__))
    PIN_CLASSES[rbda_class] = pin_class
    return pin_class


def to_pin(x):
    """``x`` with every rbda spatial object, frame or model in it (also inside tuples and lists) re-classed as its
    ``rbda.pinocchio`` subclass, in place; returns ``x`` (a new tuple or list for those)."""
    cls = PIN_CLASSES.get(type(x))
    if cls is not None:
        x.__class__ = cls
        adopt = getattr(x, "_adopt", None)
        if adopt is not None:
            adopt()
        return x
    if type(x) is tuple:
        return tuple(to_pin(v) for v in x)
    if type(x) is list:
        return [to_pin(v) for v in x]
    return x


#: id of an SE3 or Inertia held by a model (a joint placement, a body inertia) -> a weak reference to that model
_HELD_BY: dict[int, object] = {}


def hold(x, model_ref) -> None:
    """Remember that the model ``model_ref()`` holds ``x`` (an ``rbda.pinocchio`` SE3 or Inertia): an edit of ``x``'s
    fields then reaches the model (:func:`edited`), as Pinocchio's in-place edits of ``model.inertias[i]`` do."""
    _HELD_BY[id(x)] = model_ref


def edited(x) -> None:
    """``x`` was edited in place: if a model holds it (the object itself, not another at the same address), the
    model's packed arrays are rebuilt at its next use."""
    ref = _HELD_BY.get(id(x))
    model = ref() if ref is not None else None
    if model is not None and any(y is x for y in (*model.__dict__.get("inertias", ()),
                                                   *model.__dict__.get("joint_placements", ()))):
        model._invalidate()


def vector(x):
    """An array argument as rbda takes it: Pinocchio accepts column ``(n, 1)`` and row ``(1, n)`` vectors where it
    takes a vector; rbda takes ``(n,)``. Anything else is passed on unchanged (rbda checks it)."""
    if isinstance(x, np.ndarray) and x.ndim == 2 and 1 in x.shape:
        return x.reshape(-1)
    return x


def native(data):
    """The rbda ``Data`` of an ``rbda.pinocchio.Data`` (or the argument itself: an rbda ``Data`` is accepted)."""
    return getattr(data, "_data", data)
