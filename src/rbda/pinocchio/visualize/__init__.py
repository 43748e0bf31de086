"""Pinocchio's ``pinocchio.visualize``: a ``MeshcatVisualizer``-style viewer over rbda's own browser viewer
(:class:`rbda.viewer.Viewer`, on viser: ``pip install 'rbda[viewer]'``), not over meshcat.

``viz = MeshcatVisualizer(model, collision_model, visual_model)``, ``viz.initViewer(open=False,
loadModel=True)``, ``viz.display(q)``, ``viz.play(qs, dt)``, ``viz.displayCollisions(b)``,
``viz.displayVisuals(b)``, ``viz.displayFrames(b)``, ``viz.url``, ``viz.close()``. What meshcat's own objects do
(``viz.viewer[name].set_object(meshcat.geometry.Sphere(...))``) has no counterpart: ``viz.viewer`` is the viser
server (``rbda.viewer.Viewer.server``), with its own scene API.
"""

from __future__ import annotations

import numpy as np

from .._convert import vector


class BaseVisualizer:
    """The common part of Pinocchio's visualizers: the models, their data and ``display(q)``."""

    def __init__(self, model=None, collision_model=None, visual_model=None, copy_models: bool = False, data=None,
                 collision_data=None, visual_data=None):
        self.model, self.collision_model = model, collision_model
        self.visual_model = visual_model if visual_model is not None else collision_model
        self.data = data if data is not None else (model.createData() if model is not None else None)
        self.collision_data, self.visual_data = collision_data, visual_data
        self._viewer = None
        self._visual = True

    visualModel = property(lambda self: self.visual_model)
    collisionModel = property(lambda self: self.collision_model)

    def initViewer(self, viewer=None, open: bool = False, loadModel: bool = False, port: int = 0,
                   host: str = "127.0.0.1", **_) -> None:
        """Start rbda's viewer (on ``port``; 0: any free one) and, with ``loadModel``, show the model;
        ``open`` opens the page in the browser."""
        self._port, self._host = port, host
        if loadModel:
            self.loadViewerModel()
        if open:
            import webbrowser

            webbrowser.open(self.url)

    def loadViewerModel(self, *_, **__) -> None:
        from ...viewer.viewer import Viewer

        geometry = self.visual_model if self._visual or self.collision_model is None else self.collision_model
        if self._viewer is not None:
            self._viewer.close()
        self._viewer = Viewer(self.model, geometry, host=getattr(self, "_host", "127.0.0.1"),
                              port=getattr(self, "_port", 0), sliders=False)

    def _started(self):
        if self._viewer is None:
            self.loadViewerModel()
        return self._viewer

    @property
    def viewer(self):
        """The viser server of rbda's viewer (its scene API, not meshcat's)."""
        return self._started().server

    @property
    def url(self) -> str:
        return self._started().url

    def display(self, q=None) -> None:
        """Show configuration ``q`` (the last one shown when None)."""
        viewer = self._started()
        viewer.display(viewer.q if q is None else vector(q))

    def displayCollisions(self, visibility: bool) -> None:
        """Show the collision geometry (``True``) or the visual geometry (``False``)."""
        self._visual = not visibility
        if self._viewer is not None:
            q = self._viewer.q
            self.loadViewerModel()
            self._viewer.display(q)

    def displayVisuals(self, visibility: bool) -> None:
        self.displayCollisions(not visibility)

    def displayFrames(self, visibility: bool, frame_ids=None, axis_length: float = 0.2, axis_width: float = 2) -> None:
        self._started().show_frames(visibility)

    def play(self, q_trajectory, dt: float, callback=None, capture: bool = False, **_) -> None:
        """Show the configurations ``q_trajectory`` (rows, or columns as Pinocchio's ``(nq, T)``) every ``dt``."""
        Q = np.asarray(q_trajectory, dtype=float)
        if Q.ndim == 2 and Q.shape[0] == self.model.nq and Q.shape[1] != self.model.nq:
            Q = Q.T
        self._started().play(Q, dt)

    def close(self) -> None:
        if self._viewer is not None:
            self._viewer.close()
            self._viewer = None

    def rebuildData(self) -> None:
        self.data = self.model.createData()


class MeshcatVisualizer(BaseVisualizer):
    """Pinocchio's ``MeshcatVisualizer``, shown by rbda's viewer (see the module docstring)."""


class ViserVisualizer(BaseVisualizer):
    """The same visualizer under the name of the library it runs on."""


__all__ = ["BaseVisualizer", "MeshcatVisualizer", "ViserVisualizer"]
