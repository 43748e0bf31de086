"""rbda: rigid-body dynamics for Python."""

from . import spatial
from .spatial import SE3, ArticulatedBodyInertia, Force, Inertia, Motion, ReferenceFrame

__version__ = "0.1.0"
