"""Model (constants), Data (workspace), frames and sample models."""

from .data import Data
from .frame import Frame, FrameType
from .model import Model

__all__ = ["Model", "Data", "Frame", "FrameType"]
