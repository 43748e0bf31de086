"""The one error type the model-file readers raise."""

from __future__ import annotations


class ModelFileError(ValueError):
    """A model file (URDF, MJCF, SDF, SRDF) that cannot be read: names the file, the element and the reason.

    ``str(err)`` reads ``"<file>: <element>: <reason>"``; the parts are also kept as attributes.
    """

    def __init__(self, file: str, element: str, reason: str):
        self.file, self.element, self.reason = file, element, reason
        super().__init__(f"{file}: {element}: {reason}" if element else f"{file}: {reason}")


ModelFileError.__module__ = "rbda.io"  # where users catch it (as its tracebacks spell it)
