"""Reading and writing robot files: URDF, MJCF, SDF, SRDF (DESIGN.md §2, ``io/``).

Every reader raises :class:`ModelFileError` (a ``ValueError``) naming the file, the element and the reason.
"""

from .errors import ModelFileError

__all__ = ["ModelFileError"]
