"""rbda's own model file: a versioned JSON document of plain data (numbers, strings, lists), never code.

``save_model`` writes ``{"format": "rbda-model", "version": 2, "model": ...}``; the model is its fields, with
typed values tagged by a single key: ``{"array": [...], "dtype": ...}``, ``{"SE3": [R, p]}``,
``{"Inertia": [m, c, I]}``, ``{"Frame": {...}}``, ``{"joint": class name, "state": {...}}`` and
``{"record": class name, "fields": {...}}`` for the readers' records (MJCF layout, equalities, physics and
actuators). Reading builds
only those classes, from a fixed list, and checks the model (``Model.check``) before returning it: a file cannot
run code, unlike a pickle (version 1 of the format, read only with ``allow_pickle=True``).
"""

from __future__ import annotations

import dataclasses
import json
import os
import pickle

import numpy as np

from .. import joints as joint_models
from ..joints import JointModel
from ..spatial import SE3, Inertia
from ..model.frame import Frame, FrameType
from ..model.model import DERIVED, Model

FORMAT, VERSION = "rbda-model", 2


def _records() -> dict:
    """The plain records a model may hold (from the readers), by name."""
    from .mjcf import MjcfEquality, MjcfLayout
    from .mjcf_physics import MjcfActuators, MjcfPhysics

    return {cls.__name__: cls for cls in (MjcfLayout, MjcfEquality, MjcfPhysics, MjcfActuators)}


def _joint_classes() -> dict:
    return {name: cls for name, cls in vars(joint_models).items()
            if isinstance(cls, type) and issubclass(cls, JointModel) and cls is not JointModel}


def encode(x, where: str):
    """``x`` as JSON-ready data; ``where`` names it in errors."""
    if x is None or isinstance(x, (bool, str)):
        return x
    if isinstance(x, (int, np.integer)) and not isinstance(x, FrameType):
        return int(x)
    if isinstance(x, (float, np.floating)):
        return float(x)
    if isinstance(x, FrameType):
        return {"FrameType": int(x)}
    if isinstance(x, np.ndarray):
        return {"array": x.tolist(), "dtype": str(x.dtype), "shape": list(x.shape)}
    if isinstance(x, SE3):
        return {"SE3": [x.rotation.tolist(), x.translation.tolist()]}
    if isinstance(x, Inertia):
        return {"Inertia": [float(x.mass), x.lever.tolist(), x.inertia.tolist()]}
    if isinstance(x, Frame):
        return {"Frame": {f.name: encode(getattr(x, f.name), f"{where}.{f.name}") for f in dataclasses.fields(x)}}
    if isinstance(x, JointModel):
        return {"joint": type(x).__name__, "state": encode(dict(vars(x)), where)}
    if dataclasses.is_dataclass(x) and type(x).__name__ in _records():
        return {"record": type(x).__name__,
                "fields": {f.name: encode(getattr(x, f.name), f"{where}.{f.name}") for f in dataclasses.fields(x)}}
    if isinstance(x, dict) and all(isinstance(k, str) for k in x):
        return {"dict": {k: encode(v, f"{where}[{k!r}]") for k, v in x.items()}}
    if isinstance(x, (list, tuple)):
        return {"tuple" if isinstance(x, tuple) else "list": [encode(v, f"{where}[{k}]") for k, v in enumerate(x)]}
    raise TypeError(f"{where}: a {type(x).__name__} cannot be saved in a model file (plain data only)")


def decode(x, where: str):
    """The value encoded by :func:`encode`; raises ``ValueError`` on anything else."""
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if not (isinstance(x, dict) and len(x) in (1, 2, 3)):
        raise ValueError(f"{where}: not a value of an rbda model file")
    tag = next(iter(x))
    body = x[tag]
    if tag == "array":
        dtype = np.dtype(x.get("dtype", "float64"))
        if dtype.kind not in "biuf":
            raise ValueError(f"{where}: arrays of {dtype} are not model data")
        return np.array(body, dtype=dtype).reshape(x.get("shape", (-1,)))
    if tag == "FrameType":
        return FrameType(body)
    if tag == "SE3":
        return SE3(np.array(body[0], dtype=float), np.array(body[1], dtype=float))
    if tag == "Inertia":
        return Inertia(float(body[0]), np.array(body[1], dtype=float), np.array(body[2], dtype=float))
    if tag == "Frame":
        return Frame(**{k: decode(v, f"{where}.{k}") for k, v in body.items()})
    if tag == "joint":
        cls = _joint_classes().get(body)
        if cls is None:
            raise ValueError(f"{where}: {body!r} is not a joint model of rbda")
        joint = cls.__new__(cls)
        vars(joint).update(decode(x["state"], f"{where}.state"))
        return joint
    if tag == "record":
        cls = _records().get(body)
        if cls is None:
            raise ValueError(f"{where}: {body!r} is not a record of an rbda model")
        return cls(**{k: decode(v, f"{where}.{k}") for k, v in x["fields"].items()})
    if tag == "dict":
        return {k: decode(v, f"{where}[{k!r}]") for k, v in body.items()}
    if tag in ("list", "tuple"):
        items = [decode(v, f"{where}[{k}]") for k, v in enumerate(body)]
        return tuple(items) if tag == "tuple" else items
    raise ValueError(f"{where}: unknown tag {tag!r}")


def save_model(model: Model, path: str | os.PathLike) -> None:
    """Write ``model`` to ``path`` as rbda's model file: versioned JSON of plain data (joints, placements,
    inertias, limits, frames, reference configurations, mimic and composite joints, the readers' records), which
    :func:`load_model_file` reads back equal. Raises ``TypeError`` if ``model`` is not a Model or holds a field
    that is not plain data."""
    if not isinstance(model, Model):
        raise TypeError(f"model: expected an rbda.Model, got {type(model).__name__}")
    state = {k: v for k, v in model.__getstate__().items() if k not in DERIVED}
    document = {"format": FORMAT, "version": VERSION, "model": encode(state, "model")}
    with open(os.fspath(path), "w", encoding="utf-8") as stream:
        json.dump(document, stream)


def load_model_file(path: str | os.PathLike, allow_pickle: bool = False) -> Model:
    """Read the model file at ``path`` written by :func:`save_model`; returns the :class:`Model`. Files of rbda 0.1's pickle format (version 1) run code when
    loaded: they are refused unless ``allow_pickle=True`` (for files you trust; save them again to convert them).
    Raises :class:`~rbda.io.ModelFileError` naming the file when it is missing, not a model file, of a newer
    format version, or holds an inconsistent model."""
    from ..model.errors import ModelFileError

    path = os.fspath(path)
    try:
        with open(path, "rb") as stream:
            raw = stream.read()
    except FileNotFoundError:
        raise ModelFileError(path, "", "no such file") from None
    if raw[:1] == b"\x80":  # a pickle (version 1)
        if not allow_pickle:
            raise ModelFileError(path, "", "a pickle (rbda model file version 1), which can run code when loaded: "
                                           "load it with allow_pickle=True only if you trust it, then save it again")
        content = pickle.loads(raw)
        if isinstance(content, dict) and content.get("format") == FORMAT and isinstance(content.get("model"), Model):
            return content["model"]
        raise ModelFileError(path, "format", "not an rbda model file")
    try:
        content = json.loads(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ModelFileError(path, "", f"not an rbda model file (not JSON: {exc})") from None
    if not (isinstance(content, dict) and content.get("format") == FORMAT):
        raise ModelFileError(path, "format", "not an rbda model file")
    if content.get("version") != VERSION:
        raise ModelFileError(path, "version", f"format version {content.get('version')!r}, this rbda reads "
                                              f"version {VERSION}")
    try:
        state = decode(content.get("model"), "model")
        if not isinstance(state, dict):
            raise ValueError("model: not a model's fields")
        model = Model.__new__(Model)
        model.__setstate__(state)
        model.check()
        model.packed  # noqa: B018  (packing checks the joints and sizes once more)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise ModelFileError(path, "model", f"not a valid model ({exc})") from None
    return model
