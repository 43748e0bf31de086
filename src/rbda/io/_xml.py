"""Reading XML model files (URDF, SRDF): parse a file or a string, read typed attributes.

Every failure is a :class:`ModelFileError` naming the file, the element (``"joint 'elbow' > limit"``) and the
reason; the standard library's ``xml.etree.ElementTree`` does the parsing.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET

import numpy as np

from ..model.errors import ModelFileError

_REQUIRED = object()


class XmlSource:
    """An XML document being read: its display name (``file``), its directory and its root element."""

    def __init__(self, source: str, is_text: bool, display_name: str | None = None):
        if not isinstance(source, (str, os.PathLike)):
            raise TypeError(f"source: expected a path or a string of XML, got {type(source).__name__}")
        if is_text:
            self.file = display_name or "<string>"
            self.directory = os.getcwd()
            text = source
        else:
            self.file = os.fspath(source)
            self.directory = os.path.dirname(os.path.abspath(self.file))
            try:
                with open(self.file, "rb") as stream:
                    text = stream.read()
            except OSError as exc:
                raise ModelFileError(self.file, "", f"cannot read the file ({exc.strerror or exc})") from None
        try:
            self.root = ET.fromstring(text)
        except ET.ParseError as exc:
            raise ModelFileError(self.file, "", f"not well-formed XML ({exc})") from None
        except (ValueError, LookupError) as exc:  # e.g. an unknown encoding declared
            raise ModelFileError(self.file, "", f"cannot be parsed as XML ({exc})") from None

    def error(self, element: str, reason: str) -> ModelFileError:
        return ModelFileError(self.file, element, reason)

    def expect_root(self, tag: str) -> ET.Element:
        if self.root.tag != tag:
            raise self.error(f"<{self.root.tag}>", f"the root element must be <{tag}>")
        return self.root

    # ------------------------------------------------------------------------------------------ attributes
    def text(self, el: ET.Element, key: str, where: str, default=_REQUIRED) -> str:
        """Attribute ``key`` of ``el`` as a string; missing -> ``default`` (an error if there is none)."""
        value = el.get(key)
        if value is None:
            if default is _REQUIRED:
                raise self.error(where, f"missing attribute '{key}'")
            return default
        return value

    def numbers(self, el: ET.Element, key: str, where: str, n: int | None, default=_REQUIRED, allow_inf: bool = False):
        """Attribute ``key`` as ``n`` whitespace-separated floats, ``(n,)`` (any count if ``n`` is None)."""
        raw = el.get(key)
        if raw is None:
            if default is _REQUIRED:
                raise self.error(where, f"missing attribute '{key}'")
            return None if default is None else np.array(default, dtype=float)
        parts = raw.split()
        if n is not None and len(parts) != n:
            raise self.error(where, f"attribute '{key}' must hold {n} number{'s' if n > 1 else ''}, got {raw!r}")
        try:
            values = np.array([float(p) for p in parts], dtype=float)
        except ValueError:
            raise self.error(where, f"attribute '{key}' is not numeric: {raw!r}") from None
        bad = np.isnan(values) if allow_inf else ~np.isfinite(values)
        if bad.any():
            raise self.error(where, f"attribute '{key}' must be {'a number' if allow_inf else 'finite'}, got {raw!r}")
        return values

    def number(self, el: ET.Element, key: str, where: str, default=_REQUIRED, allow_inf: bool = False) -> float:
        """Attribute ``key`` as one float."""
        if el.get(key) is None and default is not _REQUIRED:
            return float(default) if default is not None else None
        return float(self.numbers(el, key, where, 1, allow_inf=allow_inf)[0])

