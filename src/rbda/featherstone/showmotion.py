"""``showmotion``: a system model's motion as a self-contained HTML animation (spatial_v2 ``showmotion``).

The bodies are drawn from the model's ``appearance`` (shapes per body, and on the base), the view from its
``camera``; the file is written by :func:`rbda.viewer.animation.animation_document`.

Appearance shapes (coordinates in the body's frame; planar models draw in the xy-plane):

- ``("box", [lo, hi])``: the box with opposite corners ``lo`` and ``hi`` (3-D, or 2-D for a flat planar box);
- ``("cylinder", [p0, p1], r)``: a cylinder of radius ``r`` from ``p0`` to ``p1``; planar
  ``("cylinder", [centre, r])``: a disc;
- ``("rod", p0, p1)``: a rod of radius ``|p1 - p0| / 20``; ``("line", [p0, p1])``: a thin rod;
- ``("prism", points)``: the convex hull of ``points`` ``(3, n)``; ``("triangle", [a, b, c])`` (planar);
- ``("sphere", centre, r)``;
- ``("colour", [r, g, b])``: the colour of the shapes that follow (in [0, 1]);
- ``("tiles", ...)`` on the base: a ground grid (the xy-plane, under a planar model).

Camera fields: ``body`` (0: fixed; ``i``: follow body ``i``), ``trackpoint`` (the point followed, body
coordinates), ``direction`` (from the target towards the camera), ``up``, ``zoom`` (> 1 comes closer).
"""

from __future__ import annotations

import os

import numpy as np

from rbda.spatial import SE3

from .model import SystemModel, _z_to, check_model, core_of

LINE_RADIUS = 0.025  # of a planar "line" (m)
FLAT = 0.02  # thickness of planar boxes, triangles and discs (m)


def _point(p, planar: bool, where: str) -> np.ndarray:
    p = np.asarray(p, dtype=float).reshape(-1)
    if p.shape != ((2,) if planar else (3,)) and p.shape != (3,):
        raise ValueError(f"{where}: expected a {'2-D' if planar else '3-D'} point, got {p.tolist()}")
    return np.append(p, 0.0) if p.shape == (2,) else p


def _segment(p0: np.ndarray, p1: np.ndarray, radius: float, where: str):
    from rbda.viewer.scene import cylinder_mesh

    length = float(np.linalg.norm(p1 - p0))
    if length == 0 or radius <= 0:
        raise ValueError(f"{where}: a cylinder needs two different end points and a positive radius")
    vertices, faces = cylinder_mesh(radius, length)
    return SE3(_z_to(p1 - p0), 0.5 * (p0 + p1)), vertices, faces


def _shape(item, planar: bool, where: str):
    """``(placement, vertices, faces)`` of one appearance shape, or None for a non-drawing entry."""
    from rbda.model.meshes import convex_hull
    from rbda.viewer.scene import box_mesh, cylinder_mesh, sphere_mesh

    label, args = item[0], item[1:]
    if label == "box":
        lo, hi = (_point(p, planar, where) for p in args[0])
        if planar:
            lo[2], hi[2] = -FLAT / 2, FLAT / 2
        return SE3(np.eye(3), 0.5 * (lo + hi)), *box_mesh(np.abs(hi - lo))
    if label == "cylinder" and planar and len(args) == 1:
        centre, radius = _point(args[0][0], planar, where), float(args[0][1])
        return SE3(np.eye(3), centre), *cylinder_mesh(radius, FLAT)
    if label == "cylinder":
        p0, p1 = (_point(p, planar, where) for p in args[0])
        return _segment(p0, p1, float(args[1]), where)
    if label == "rod":
        p0, p1 = _point(args[0], planar, where), _point(args[1], planar, where)
        return _segment(p0, p1, float(np.linalg.norm(p1 - p0)) / 20, where)
    if label == "line":
        p0, p1 = (_point(p, planar, where) for p in args[0])
        return _segment(p0, p1, LINE_RADIUS, where)
    if label == "sphere":
        return SE3(np.eye(3), _point(args[0], planar, where)), *sphere_mesh(float(args[1]))
    if label in ("prism", "triangle"):
        points = np.asarray(args[0], dtype=float)
        points = points.T if label == "prism" else points
        if points.shape[1] == 2:
            points = np.vstack([np.column_stack([points, np.full(len(points), z)]) for z in (-FLAT / 2, FLAT / 2)])
        try:
            hull = convex_hull(points)
        except ValueError as err:
            raise ValueError(f"{where}: {err}") from None
        return SE3.Identity(), hull.vertices, hull.faces
    if label in ("tiles", "colour"):
        return None
    raise ValueError(f"{where}: unknown shape {label!r}; expected box, cylinder, rod, line, sphere, prism, triangle, "
                     "colour or tiles")


def appearance_parts(model: SystemModel) -> tuple[list, bool]:
    """The :class:`~rbda.viewer.Part` list of ``model.appearance`` (body ``i`` on core joint ``i``, the base on
    joint 0), and whether the base asks for ground tiles. Raises ``ValueError`` naming a malformed entry."""
    from rbda.viewer.scene import PALETTE, Part

    planar = check_model(model)
    appearance = model.appearance or {}
    if not isinstance(appearance, dict):
        raise ValueError(f"model.appearance: expected a dict with 'base' and 'body' lists, got "
                         f"{type(appearance).__name__}")
    bodies = list(appearance.get("body", []))
    if len(bodies) > model.NB:
        raise ValueError(f"model.appearance['body']: {len(bodies)} entries for {model.NB} bodies")
    groups = [("base", 0, appearance.get("base", []))] + [(f"body'][{i}", i + 1, b) for i, b in enumerate(bodies)]
    parts, tiles = [], False
    for where, joint, shapes in groups:
        color = np.array([*PALETTE[(joint - 1) % len(PALETTE)], 1.0]) if joint else np.array([0.6, 0.6, 0.6, 1.0])
        for k, item in enumerate(shapes):
            at = f"model.appearance['{where}][{k}]"
            if not isinstance(item, (tuple, list)) or not item or not isinstance(item[0], str):
                raise ValueError(f"{at}: expected a tuple (label, arguments...), got {item!r}")
            if item[0] == "colour":
                color = np.array([*np.clip(np.asarray(item[1], dtype=float)[:3], 0, 1), 1.0])
            tiles |= item[0] == "tiles" and joint == 0
            try:
                shape = _shape(item, planar, at)
            except (IndexError, TypeError) as err:
                raise ValueError(f"{at}: malformed {item[0]!r} entry ({err})") from None
            if shape is not None:
                parts.append(Part(f"{where}-{k}-{item[0]}".replace("'][", ""), joint, shape[0],
                                  np.asarray(shape[1], dtype=float), np.asarray(shape[2], dtype=np.int64), color))
    return parts, tiles


def _motion(model: SystemModel, t, q) -> tuple[np.ndarray, np.ndarray]:
    t = np.asarray(t, dtype=float).reshape(-1)
    q = np.asarray(q, dtype=float)
    if q.ndim == 3 and q.shape[1] == 1:  # Simulink's (NB, 1, N)
        q = q[:, 0, :]
    if q.ndim == 1 and model.NB == 1:
        q = q[None, :]
    if q.ndim != 2 or model.NB not in q.shape or len(t) not in q.shape:
        raise ValueError(f"q: expected shape (NB, N) = ({model.NB}, {len(t)}), one column per time in t, got "
                         f"{np.shape(q)}")
    Q = q.T if q.shape[0] == model.NB and q.shape[1] == len(t) else q
    if Q.shape != (len(t), model.NB):
        raise ValueError(f"q: expected shape ({model.NB}, {len(t)}), got {np.shape(q)}")
    return t, Q


def showmotion(model: SystemModel, t, q, path="showmotion.html", *, title: str | None = None, author: str = "",
               description: str = "", date: str | None = None, camera: dict | None = None, speed: float = 1.0,
               loop: bool = True) -> str:
    """Write the motion ``q`` of the system model ``model`` as a self-contained HTML animation (spatial_v2
    ``showmotion``, saved to a file instead of opening a window).

    Parameters:

    - ``model``: a :class:`SystemModel`, drawn from its ``appearance`` (see the module's documentation; bodies
      without an appearance are not drawn) and viewed with its ``camera``.
    - ``t``: ``(N,)`` increasing times (s).
    - ``q``: ``(NB, N)`` joint positions, one column per time (spatial_v2's layout; ``(NB, 1, N)`` and ``(N, NB)``
      are accepted too), e.g. from ``fbanim`` for a floating base.
    - ``path``: the ``.html`` file to write.
    - ``title``, ``author``, ``description``, ``date``: the animation's metadata (title defaults to "showmotion").
    - ``camera``: a dict of camera fields that replaces ``model.camera``.
    - ``speed``, ``loop``: the initial playback speed (0.1 to 4) and whether it loops.

    The page interpolates between samples (rotations by slerp). Returns the path written. Raises ``ValueError``
    naming a malformed appearance entry, camera field or a ``q``/``t`` of the wrong shape.
    """
    from rbda.viewer.animation import animation_document, default_camera, joint_track, sample_times, world_points
    from rbda.viewer.scene import part_placements

    t, Q = _motion(model, t, q)
    times = sample_times(t, len(t)) if len(t) > 1 else np.zeros(1)
    core = core_of(model).model
    parts, tiles = appearance_parts(model)
    placements = part_placements(core, parts, Q)
    planar = check_model(model)
    cam = dict(model.camera or {}) if camera is None else dict(camera)
    unknown = sorted(set(cam) - {"body", "trackpoint", "direction", "up", "zoom", "fov"})
    if unknown:
        raise ValueError(f"camera: unknown fields {unknown}; expected body, trackpoint, direction, up, zoom, fov")
    direction = np.asarray(cam.get("direction", (0.0, 0.0, 1.0) if planar else (1.0, -1.4, 0.8)), dtype=float)
    up = np.asarray(cam.get("up", (0.0, 1.0, 0.0) if planar else (0.0, 0.0, 1.0)), dtype=float)
    view = default_camera(world_points(parts, placements), direction, up, float(cam.get("fov", 45.0)))
    zoom = float(cam.get("zoom", 1.0))
    if not zoom > 0:
        raise ValueError(f"camera['zoom']: expected a positive number, got {zoom}")
    body = int(cam.get("body", 0))
    if not 0 <= body <= model.NB:
        raise ValueError(f"camera['body']: expected 0 (fixed) or a body number 1..{model.NB}, got {body}")
    track = None
    if body > 0:
        point = _point(cam.get("trackpoint", (0.0, 0.0, 0.0)), planar, "camera['trackpoint']")
        track = joint_track(core, Q, body, point)
        view["target"] = track[0]
    position = view["target"] + (view["position"] - view["target"]) / zoom
    text = animation_document(parts, times, placements, title="showmotion" if title is None else title,
                              author=author, description=description, date=date,
                              camera={"position": position, "target": view["target"], "up": up, "fov": view["fov"]},
                              track_positions=track, ground=(-FLAT if planar else 0.0) if tiles else None,
                              speed=speed, loop=loop)
    with open(os.fspath(path), "w", encoding="utf-8") as f:
        f.write(text)
    return os.fspath(path)
