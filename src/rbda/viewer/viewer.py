"""The browser viewer: a model's geometry in a live 3D scene served by `viser <https://viser.studio>`_
(``pip install 'rbda[viewer]'``), with a slider per joint.

viser rather than meshcat: viser is maintained and has GUI widgets (the joint sliders); meshcat's Python package
has none, and viser starts its server in this process, where meshcat spawns one.
"""

from __future__ import annotations

import errno
import socket
import threading
import time

import numpy as np

from ..model.geometry import GeometryModel
from ..model import Model
from .animation import default_camera, sample_times
from .scene import part_placements, parts_of, trajectory

INSTALL = "pip install 'rbda[viewer]'"


class PortInUseError(OSError):
    """The viewer's port is taken by another program."""


def _viser():
    try:
        import viser
    except ImportError as err:
        raise ImportError(f"the viewer needs the viser package: {INSTALL}") from err
    return viser


def check_port(host: str, port: int) -> None:
    """Raise :class:`PortInUseError` if ``port`` cannot be bound on ``host`` (0 means any free port), and
    ``ValueError`` if it is not a port number."""
    if not (isinstance(port, (int, np.integer)) and 0 <= port <= 65535) or isinstance(port, bool):
        raise ValueError(f"port: expected a port number in 0..65535, got {port!r}")
    if port == 0:
        return
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, int(port)))
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                raise PortInUseError(errno.EADDRINUSE, f"port {port} on {host} is in use by another program: pass "
                                                       "another port (port=0 takes any free one)") from None
            raise


def _rgb255(color) -> tuple[int, int, int]:
    return tuple(int(round(255 * c)) for c in np.asarray(color, dtype=float)[:3])


def _wxyz(R: np.ndarray) -> np.ndarray:
    from ..spatial import matrix_to_quat

    x, y, z, w = matrix_to_quat(R)
    return np.array([w, x, y, z])


def _tangent_names(joint) -> list[str]:
    """Names of a joint's velocity components, for its sliders: translations ``x, y, z`` (m), rotations
    ``rot x, ...`` (rad), else ``[k]``."""
    kind = type(joint).__name__
    if "FreeFlyer" in kind:
        return ["x", "y", "z", "rot x", "rot y", "rot z"]
    if "Planar" in kind:
        return ["x", "y", "rot z"]
    if kind == "JointModelSpherical":
        return ["rot x", "rot y", "rot z"]
    if "Translation" in kind:
        return ["x", "y", "z"]
    return [f"[{k}]" for k in range(joint.nv)]


class Viewer:
    """A model in a browser: ``Viewer(model, visual_model)`` serves a 3D scene at :attr:`url`.

    Parameters:

    - ``model``: the :class:`~rbda.Model`.
    - ``visual_model``: its :class:`~rbda.io.GeometryModel` (meshes through :func:`rbda.model.meshes.load_mesh`, in
      the robot file's colours, else the mesh file's own; a missing or unreadable mesh is drawn as its
      body's inertia box, with one warning naming the file).
    - ``q``: ``(nq,)`` the configuration shown first (default: the model's neutral configuration).
    - ``host``, ``port``: where to serve (default ``127.0.0.1:8080``; ``port=0`` takes any free port).
    - ``sliders``: a slider per joint (one per degree of freedom; an angle for an unbounded revolute joint; for
      multi-dof joints, offsets in the tangent space of ``q``).
    - ``frames``: which frames to draw (x red, y green, z blue): ``False`` none, ``True`` every joint's frame,
      ``"all"`` every frame of ``model.frames`` (bodies, joints, operational frames, sensors), or a list of
      frame names. Raises ``ValueError`` naming an unknown frame.
    - ``com``: draw the centre of mass as a yellow sphere.

    Raises ``ImportError`` naming the extra if viser is missing, :class:`PortInUseError` if the port is taken,
    ``ValueError`` for a ``q`` of the wrong size, ``TypeError`` for a model or visual model of the wrong type.
    """

    def __init__(self, model: Model, visual_model: GeometryModel, q=None, *, host: str = "127.0.0.1",
                 port: int = 8080, sliders: bool = True, frames: bool | str | list = False, com: bool = False):
        viser = _viser()
        from ..algorithms import neutral

        self.model = model
        self.parts = parts_of(model, visual_model)
        self.data = model.create_data()
        if q is not None and np.ndim(q) != 1:
            raise ValueError(f"q: expected one configuration (nq,) = ({model.nq},), got shape {np.shape(q)}")
        self.q = trajectory(model, neutral(model) if q is None else q, "q")[0].copy()
        self._frame_ids = _frame_ids(model, frames)
        check_port(host, port)
        self.server = viser.ViserServer(host=host, port=int(port), verbose=False)
        self.host = host
        try:
            self._build_scene(frames, com, sliders)
        except BaseException:
            self.server.stop()  # no server left running behind an error
            raise

    def _build_scene(self, frames, com: bool, sliders: bool) -> None:
        model = self.model
        self.server.gui.configure_theme(show_logo=False, show_share_button=False)
        self.server.scene.set_up_direction("+z")
        placements = part_placements(model, self.parts, self.q)[0]
        points = np.concatenate([p.vertices @ M[:, :3].T + M[:, 3] for p, M in zip(self.parts, placements)]
                                or [np.zeros((1, 3))])
        self.camera = default_camera(points)
        cam = self.server.initial_camera
        cam.position, cam.look_at, cam.up, cam.fov = (self.camera["position"], self.camera["target"],
                                                      self.camera["up"], np.radians(self.camera["fov"]))
        lo, hi = points.min(axis=0), points.max(axis=0)
        size = float(max(np.max(hi[:2] - lo[:2]), 0.1)) * 2
        self.server.scene.add_grid("/ground", width=size, height=size, cell_size=10.0 ** np.floor(np.log10(size / 8)),
                                   position=(0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.0))
        self._meshes = []
        for k, part in enumerate(self.parts):
            self._meshes.append(self.server.scene.add_mesh_simple(
                f"/robot/{k}_{part.name}", part.vertices.astype(np.float32), part.faces.astype(np.uint32),
                color=_rgb255(part.color), opacity=None if part.color[3] >= 1 else float(part.color[3]),
                side="double", cast_shadow=False, receive_shadow=False))
        names = model.names if self._frame_ids is None else [model.frames[k].name for k in self._frame_ids]
        self._frames = [self.server.scene.add_frame(f"/frames/{k}_{name}", axes_length=0.1, axes_radius=0.004,
                                                    visible=bool(frames)) for k, name in enumerate(names)]
        self._com = self.server.scene.add_icosphere("/com", radius=0.025, color=(240, 200, 0), visible=com)
        self._contacts = None
        self._lock = threading.Lock()
        self.sliders, self._slider_joints, self._slider_origin = [], [], self.q.copy()
        if sliders:
            self.sliders = self._add_sliders()
        self.display(self.q)

    # ------------------------------------------------------------------------------------------------ scene
    @property
    def url(self) -> str:
        """The address to open in a browser."""
        return f"http://{self.host}:{self.server.get_port()}"

    @property
    def port(self) -> int:
        """The port served (the one chosen by the system when ``port=0`` was asked)."""
        return int(self.server.get_port())

    def display(self, q, contact_points=None, contact_forces=None, force_scale: float = 0.01) -> None:
        """Show configuration ``q`` ``(nq,)``, optionally with contact points ``(n, 3)`` (world frame, drawn as
        red dots) and the forces on them ``(n, 3)`` (world frame, N; drawn as segments of ``force_scale`` m
        per N from each point): ``contact_points`` and ``contact_forces``. Raises ``ValueError`` naming the argument for a wrong shape."""
        from ..algorithms import center_of_mass

        if len(np.shape(q)) != 1:
            raise ValueError(f"q: expected one configuration (nq,) = ({self.model.nq},), got shape {np.shape(q)}")
        q = trajectory(self.model, q, "q")[0]
        placements = part_placements(self.model, self.parts, q)[0]
        with self._lock, self.server.atomic():
            for handle, M in zip(self._meshes, placements):
                handle.position, handle.wxyz = M[:, 3], _wxyz(M[:, :3])
            if any(f.visible for f in self._frames):
                from .. import batch

                placements = (batch.forward_kinematics(self.model, q[None])[0] if self._frame_ids is None else
                              batch.frames_forward_kinematics(self.model, q[None])[0][self._frame_ids])
                for handle, M in zip(self._frames, placements):
                    handle.position, handle.wxyz = M[:, 3], _wxyz(M[:, :3])
            if self._com.visible:
                self._com.position = center_of_mass(self.model, self.data, q)
            self._draw_contacts(contact_points, contact_forces, force_scale)
        self.q = q.copy()
        for slider, value in zip(self.sliders, self._slider_values(q)):
            slider.value = value

    def show_frames(self, visible: bool = True) -> None:
        """Draw the frames chosen by the constructor's ``frames`` (every joint's if it was ``False`` or ``True``)
        (``visible``) or hide them."""
        for handle in self._frames:
            handle.visible = bool(visible)
        self.display(self.q)

    def show_com(self, visible: bool = True) -> None:
        """Draw the centre of mass (``visible``) or hide it."""
        self._com.visible = bool(visible)
        self.display(self.q)

    def _draw_contacts(self, points, forces, force_scale: float) -> None:
        if self._contacts is not None:
            for handle in self._contacts:
                handle.remove()
            self._contacts = None
        if points is None:
            if forces is not None:
                raise ValueError("contact_forces: given without contact_points")
            return
        points = np.asarray(points, dtype=float)
        if points.ndim != 2 or points.shape[1] != 3 or not np.all(np.isfinite(points)):
            raise ValueError(f"contact_points: expected finite (n, 3) world points, got shape {points.shape}")
        handles = [self.server.scene.add_point_cloud("/contacts/points", points.astype(np.float32),
                                                     colors=(220, 30, 30), point_size=0.02)]
        if forces is not None:
            forces = np.asarray(forces, dtype=float)
            if forces.shape != points.shape or not np.all(np.isfinite(forces)):
                raise ValueError(f"contact_forces: expected finite {points.shape} forces (one per contact point), "
                                 f"got shape {forces.shape}")
            segments = np.stack([points, points + force_scale * forces], axis=1).astype(np.float32)
            handles.append(self.server.scene.add_line_segments("/contacts/forces", segments, colors=(220, 30, 30),
                                                               thickness=4.0, thickness_units="screen"))
        self._contacts = handles

    # ------------------------------------------------------------------------------------------------ motion
    def play(self, Q, dt, speed: float = 1.0) -> None:
        """Show the configurations ``Q`` ``(T, nq)`` one after the other, ``dt`` (s, or the ``(T,)`` sample times)
        apart, at ``speed`` times real time; returns when done. Samples that fall behind are skipped."""
        Q = trajectory(self.model, Q)
        times = sample_times(dt, len(Q))
        if not (np.isfinite(speed) and speed > 0):
            raise ValueError(f"speed: expected a positive number, got {speed!r}")
        start = time.perf_counter()
        for k in range(len(Q)):
            late = (time.perf_counter() - start) * speed - (times[k] - times[0])
            if late > 0 and k + 1 < len(Q) and late > times[k + 1] - times[k]:
                continue
            if late < 0:
                time.sleep(-late / speed)
            self.display(Q[k])

    # ------------------------------------------------------------------------------------------------ sliders
    def _add_sliders(self) -> list:
        model, sliders = self.model, []
        folder = self.server.gui.add_folder("Joints")
        with folder:
            for j in range(1, model.njoints):
                nq, nv, iq = model.nqs[j], model.nvs[j], model.idx_q[j]
                for k in range(nv):
                    if nq == 1:
                        lo, hi = model.lower_position_limit[iq], model.upper_position_limit[iq]
                        if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
                            lo, hi = -np.pi, np.pi
                    else:  # unbounded revolute: its angle; other multi-dof joints: a tangent offset
                        lo, hi = (-1.0, 1.0) if _tangent_names(model.joints[j])[k] in "xyz" else (-np.pi, np.pi)
                    label = model.names[j] if nv == 1 else f"{model.names[j]} {_tangent_names(model.joints[j])[k]}"
                    slider = self.server.gui.add_slider(label, min=float(lo), max=float(hi),
                                                        step=float(hi - lo) / 1000, initial_value=float(lo + hi) / 2)
                    slider.on_update(self._on_slider)
                    sliders.append(slider)
                    self._slider_joints.append((j, k))
        return sliders

    def _slider_values(self, q: np.ndarray) -> list[float]:
        from ..algorithms import difference

        model, values = self.model, []
        dq = difference(model, self._slider_origin, q)
        for j, k in self._slider_joints:
            nq, iq = model.nqs[j], model.idx_q[j]
            if nq == 1:
                values.append(float(q[iq]))
            elif nq == 2 and model.nvs[j] == 1:
                values.append(float(np.arctan2(q[iq + 1], q[iq])))
            else:
                values.append(float(dq[model.idx_v[j] + k]))
        return values

    def slider_configuration(self) -> np.ndarray:
        """The configuration ``(nq,)`` the sliders show."""
        from ..algorithms import integrate

        model = self.model
        q = self._slider_origin.copy()
        offsets = np.zeros(model.nv)
        for slider, (j, k) in zip(self.sliders, self._slider_joints):
            nq, iq = model.nqs[j], model.idx_q[j]
            if nq == 1:
                q[iq] = slider.value
            elif nq == 2 and model.nvs[j] == 1:
                q[iq:iq + 2] = np.cos(slider.value), np.sin(slider.value)
            else:
                offsets[model.idx_v[j] + k] = slider.value
        moved = integrate(model, q, offsets)
        return np.asarray(moved, dtype=float).copy()

    def _on_slider(self, event) -> None:
        if event.client is None:  # set by display(), not by a person
            return
        self.display(self.slider_configuration())

    # ------------------------------------------------------------------------------------------------ life
    def close(self) -> None:
        """Stop serving the page and free its port."""
        self.server.stop()

    def __enter__(self) -> Viewer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _frame_ids(model, frames) -> list[int] | None:
    """The ids of the model frames ``frames`` asks to draw, or None for the joints' frames."""
    if isinstance(frames, bool):
        return None
    if isinstance(frames, str):
        if frames != "all":
            raise ValueError(f"frames: expected False, True, 'all' or a list of frame names, got {frames!r}")
        return list(range(model.nframes))
    ids = []
    for name in frames:
        if not model.exist_frame(name):
            raise ValueError(f"frames: the model has no frame named {name!r}")
        ids.append(model.get_frame_id(name))
    return ids
