"""Animations saved as one self-contained HTML file that plays in any browser, with no server and no network.

The file embeds the parts' triangle meshes, the pose of every part at every sample (position and unit
quaternion), the camera and the metadata, and a small WebGL renderer of its own (``animation.html``) with play,
pause, speed and a time slider; between samples it interpolates positions linearly and rotations by slerp.
"""

from __future__ import annotations

import base64
import datetime
import html
import json
import os
from importlib import resources

import numpy as np

from ..model.geometry import GeometryModel
from ..model import Model
from ..spatial import matrix_to_quat
from .scene import Part, part_placements, parts_of, trajectory

CAMERA_KEYS = ("position", "target", "up", "fov", "track", "trackpoint")
SPEEDS = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0)


def _b64(array, dtype) -> str:
    return base64.b64encode(np.ascontiguousarray(array, dtype=dtype).tobytes()).decode("ascii")


def sample_times(dt, count: int) -> np.ndarray:
    """The times ``(count,)`` of ``count`` samples: ``dt`` is the step (a positive number) or the times
    themselves (``(count,)``, increasing). Raises ``ValueError`` naming ``dt``."""
    dt_array = np.asarray(dt, dtype=float)
    if dt_array.ndim == 0:
        if not (np.isfinite(dt_array) and dt_array > 0):
            raise ValueError(f"dt: expected a positive time step (s), got {dt!r}")
        return float(dt_array) * np.arange(count)
    if dt_array.shape != (count,):
        raise ValueError(f"dt: expected a time step or {count} sample times (one per row of Q), got shape "
                         f"{dt_array.shape}")
    if not (np.all(np.isfinite(dt_array)) and np.all(np.diff(dt_array) > 0)):
        raise ValueError("dt: the sample times must be finite and strictly increasing")
    return dt_array.copy()


def quaternions(rotations: np.ndarray) -> np.ndarray:
    """Unit quaternions ``(..., 4)`` ``(x, y, z, w)`` of rotation matrices ``(..., 3, 3)``, each sign chosen
    to continue the previous one along the first axis (so that interpolation takes the short way)."""
    flat = rotations.reshape(-1, 3, 3)
    quats = np.array([matrix_to_quat(R) for R in flat]).reshape(*rotations.shape[:-2], 4)
    for k in range(1, len(quats)):
        flip = np.einsum("...i,...i->...", quats[k], quats[k - 1]) < 0
        quats[k][flip] *= -1
    return quats


def default_camera(world_points: np.ndarray, direction=(1.0, -1.4, 0.8), up=(0.0, 0.0, 1.0),
                   fov: float = 45.0) -> dict:
    """A camera that sees all of ``world_points`` ``(n, 3)``: looking at their bounding box's centre from
    ``direction``, far enough for the bounding sphere to fit in the vertical field of view ``fov`` (degrees)."""
    lo, hi = world_points.min(axis=0), world_points.max(axis=0)
    centre, radius = 0.5 * (lo + hi), max(0.5 * float(np.linalg.norm(hi - lo)), 1e-3)
    direction = np.asarray(direction, dtype=float) / np.linalg.norm(direction)
    distance = 1.15 * radius / np.sin(np.radians(fov) / 2)
    return {"position": centre + distance * direction, "target": centre, "up": np.asarray(up, dtype=float),
            "fov": float(fov)}


def world_points(parts: list[Part], placements: np.ndarray) -> np.ndarray:
    """Every vertex of every part at up to 20 of the samples, in world coordinates ``(n, 3)``."""
    rows = np.unique(np.linspace(0, len(placements) - 1, min(len(placements), 20)).astype(int))
    points = [np.zeros((1, 3))] if not parts else []
    for k, part in enumerate(parts):
        for M in placements[rows, k]:
            points.append(part.vertices @ M[:, :3].T + M[:, 3])
    return np.concatenate(points)


def _camera(camera, parts: list[Part], placements: np.ndarray, track_positions) -> dict:
    """The camera to embed: ``camera``'s entries over the default one; ``track_positions`` ``(T, 3)`` or None."""
    cam = default_camera(world_points(parts, placements))
    given = {} if camera is None else dict(camera)
    unknown = sorted(set(given) - set(CAMERA_KEYS))
    if unknown:
        raise ValueError(f"camera: unknown keys {unknown}; expected some of {list(CAMERA_KEYS)}")
    if "target" in given and "position" not in given:  # keep the default viewing direction and distance
        cam["position"] = np.asarray(given["target"], dtype=float) + cam["position"] - cam["target"]
    for key in ("position", "target", "up"):
        if key in given:
            value = np.asarray(given[key], dtype=float)
            if value.shape != (3,) or not np.all(np.isfinite(value)):
                raise ValueError(f"camera[{key!r}]: expected 3 finite numbers, got {given[key]!r}")
            cam[key] = value
    if "fov" in given:
        fov = float(given["fov"])
        if not 1.0 <= fov <= 170.0:
            raise ValueError(f"camera['fov']: expected a vertical field of view in degrees in [1, 170], got {fov}")
        cam["fov"] = fov
    if np.linalg.norm(cam["position"] - cam["target"]) == 0 or np.linalg.norm(np.cross(cam["up"], cam["position"]
                                                                                      - cam["target"])) == 0:
        raise ValueError("camera: the position must differ from the target, and the up direction from the line "
                         "of sight")
    out = {key: np.asarray(cam[key], dtype=float).tolist() for key in ("position", "target", "up")}
    out["fov"] = cam["fov"]
    if track_positions is not None:
        out["track"] = _b64(track_positions, np.float32)
    return out


def _grid(world_points: np.ndarray, height) -> dict | None:
    if height is None:
        return None
    lo, hi = world_points.min(axis=0), world_points.max(axis=0)
    extent = max(float(np.max(hi[:2] - lo[:2])), 1e-2)
    cell = 10.0 ** np.floor(np.log10(extent / 4))
    return {"center": (np.round(0.5 * (lo[:2] + hi[:2]) / cell) * cell).tolist(), "cell": cell,
            "cells": int(np.ceil(0.75 * extent / cell)) + 1, "height": float(height)}


def animation_document(parts: list[Part], times: np.ndarray, placements: np.ndarray, *, title: str = "rbda",
                       author: str = "", description: str = "", date: str | None = None, camera=None,
                       track_positions=None, ground: float | None = 0.0, speed: float = 1.0, loop: bool = True,
                       autoplay: bool = True, background=(1.0, 1.0, 1.0)) -> str:
    """The HTML text of an animation of ``parts`` at world ``placements`` ``(T, len(parts), 3, 4)`` sampled at
    ``times`` ``(T,)``; see :func:`save_animation` for the other arguments. ``track_positions`` ``(T, 3)``: the
    camera's target at each sample (it follows them), or None for a fixed target."""
    for name, value in (("title", title), ("author", author), ("description", description)):
        if not isinstance(value, str):
            raise TypeError(f"{name}: expected a str, got {type(value).__name__}")
    if float(speed) not in SPEEDS:
        raise ValueError(f"speed: expected one of {SPEEDS}, got {speed!r}")
    date = datetime.datetime.now(datetime.timezone.utc).date().isoformat() if date is None else str(date)
    poses = np.concatenate([placements[..., :, 3], quaternions(placements[..., :, :3])], axis=-1)
    points = world_points(parts, placements)
    data = {
        "meta": {"title": title, "author": author, "date": date, "description": description},
        "parts": [{"name": p.name, "vertices": _b64(p.vertices, np.float32), "faces": _b64(p.faces, np.uint32),
                   "color": np.asarray(p.color, dtype=float).tolist()} for p in parts],
        "times": _b64(times, np.float32), "poses": _b64(poses, np.float32),
        "camera": _camera(camera, parts, placements, track_positions), "grid": _grid(points, ground),
        "speed": float(speed), "loop": bool(loop), "autoplay": bool(autoplay),
        "background": [float(c) for c in background],
    }
    template = resources.files("rbda.viewer").joinpath("animation.html").read_text(encoding="utf-8")
    text = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
    for key, value in (("__TITLE__", title), ("__AUTHOR__", author), ("__DESCRIPTION__", description),
                       ("__DATE__", date)):
        template = template.replace(key, html.escape(value))
    return template.replace("__DATA__", text)


def save_animation(model: Model, visual_model: GeometryModel, Q, dt, path, *, title: str = "rbda animation",
                   author: str = "", description: str = "", date: str | None = None, camera: dict | None = None,
                   ground: float | None = 0.0, speed: float = 1.0, loop: bool = True) -> str:
    """Write the motion ``Q`` of ``model`` as one self-contained HTML file that plays in any browser.

    Parameters:

    - ``model``: the :class:`~rbda.Model`.
    - ``visual_model``: its :class:`~rbda.io.GeometryModel` (e.g. the visual model of
      :func:`rbda.io.build_models_from_urdf`); meshes are read with :func:`rbda.model.meshes.load_mesh`, a
      missing or unreadable one is drawn as its body's inertia box (one warning naming the file).
    - ``Q``: ``(T, nq)`` configurations (one ``(nq,)`` gives a still picture).
    - ``dt``: the time between samples (s), or the ``(T,)`` increasing sample times.
    - ``path``: the ``.html`` file to write.
    - ``title``, ``author``, ``description``, ``date``: the animation's metadata, shown in the page and kept in
      its ``<meta>`` tags (``date`` defaults to today, UTC, ISO format).
    - ``camera``: a dict with any of ``position``, ``target``, ``up`` (world ``(3,)`` each; defaults: the whole
      motion in view, z up), ``fov`` (vertical field of view, degrees, default 45), ``track`` (a joint id or
      name whose origin, moved by ``trackpoint`` ``(3,)`` in the joint's frame, the camera follows).
    - ``ground``: the height of a grid drawn in the world xy-plane, or None for none.
    - ``speed``: the initial playback speed, one of 0.1, 0.25, 0.5, 1, 2, 4.
    - ``loop``: whether playing starts again at the end.

    The page plays at once; the viewer drags to orbit, shift-drags to pan, scrolls to zoom. Between samples it
    interpolates positions linearly and rotations by quaternion slerp. Returns the path written.

    Raises ``ValueError`` for ``Q`` of the wrong width or non-finite, a ``dt`` that is not positive (or times not
    increasing), an unknown camera key or joint; ``TypeError`` for a model or visual model of the wrong type.
    """
    Q = trajectory(model, Q)
    times = sample_times(dt, len(Q))
    parts = parts_of(model, visual_model)
    placements = part_placements(model, parts, Q)
    camera = None if camera is None else dict(camera)
    track_positions = None
    if camera is not None and "track" in camera:
        track_positions = joint_track(model, Q, camera.pop("track"), camera.pop("trackpoint", (0.0, 0.0, 0.0)))
    elif camera is not None and "trackpoint" in camera:
        raise ValueError("camera['trackpoint']: needs camera['track'], the joint to follow")
    text = animation_document(parts, times, placements, title=title, author=author, description=description,
                              date=date, camera=camera, track_positions=track_positions, ground=ground, speed=speed,
                              loop=loop)
    with open(os.fspath(path), "w", encoding="utf-8") as f:
        f.write(text)
    return os.fspath(path)


def joint_track(model: Model, Q: np.ndarray, joint, point=(0.0, 0.0, 0.0)) -> np.ndarray:
    """World positions ``(T, 3)`` of ``point`` ``(3,)`` fixed in joint ``joint``'s frame (an id or a name)
    along ``Q`` ``(T, nq)``."""
    from .. import batch

    if isinstance(joint, str):
        if not model.exist_joint_name(joint):
            raise ValueError(f"camera['track']: the model has no joint named {joint!r}")
        joint = model.get_joint_id(joint)
    if not (isinstance(joint, (int, np.integer)) and 0 <= joint < model.njoints):
        raise ValueError(f"camera['track']: expected a joint name or an id in 0..{model.njoints - 1}, got {joint!r}")
    point = np.asarray(point, dtype=float).reshape(-1)
    if point.shape != (3,):
        raise ValueError(f"camera['trackpoint']: expected 3 numbers, got {point.shape}")
    oMi = batch.forward_kinematics(model, Q)[:, joint]
    return oMi[:, :, :3] @ point + oMi[:, :, 3]
