"""Model (constants), Data (workspace), frames and sample models."""

from .data import Data
from .frame import Frame, FrameType
from .model import Model
from .surgery import append_model, build_reduced_model, find_common_ancestor, transform_joint_into_mimic

__all__ = [
    "Model", "Data", "Frame", "FrameType", "append_model", "build_reduced_model", "find_common_ancestor",
    "transform_joint_into_mimic",
]
