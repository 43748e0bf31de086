"""Seeing a model move: the browser viewer (:class:`Viewer`, on viser: ``pip install 'rbda[viewer]'``),
animations saved as self-contained HTML files (:func:`save_animation`) and plots of trajectories
(:mod:`rbda.viewer.plots`, on matplotlib)."""

from .animation import save_animation
from .scene import MeshFileWarning, Part, part_placements, parts_of

__all__ = ["Viewer", "save_animation", "parts_of", "part_placements", "Part", "MeshFileWarning"]


def __getattr__(name: str):
    if name == "Viewer":  # imported on use: viser is an optional dependency
        from .viewer import Viewer

        return Viewer
    raise AttributeError(f"module 'rbda.viewer' has no attribute {name!r}")
