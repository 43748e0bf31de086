"""Operational frames attached to joints (Pinocchio's ``Frame``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntFlag

from ..spatial import SE3, Inertia


class FrameType(IntFlag):
    """Kind of a frame (Pinocchio's values)."""

    OP_FRAME = 1
    JOINT = 2
    FIXED_JOINT = 4
    BODY = 8
    SENSOR = 16


@dataclass(eq=False)
class Frame:
    """A frame named ``name``, rigidly attached to joint ``parent_joint`` at ``placement`` (in the joint frame).

    ``parent_frame`` is the frame it was declared relative to (for bookkeeping, as in Pinocchio); ``inertia``
    is the inertia it carries (appended to the parent joint when the frame is added with ``append_inertia``).
    """

    name: str
    parent_joint: int
    parent_frame: int = 0
    placement: SE3 = field(default_factory=SE3)
    type: FrameType = FrameType.OP_FRAME
    inertia: Inertia = field(default_factory=Inertia.Zero)

    def __post_init__(self):
        self.type = FrameType(self.type)
        if not isinstance(self.placement, SE3):
            raise TypeError(f"Frame {self.name!r}: placement must be an SE3, got {type(self.placement).__name__}")

    def __eq__(self, other) -> bool:
        return (
            isinstance(other, Frame)
            and (self.name, self.parent_joint, self.parent_frame, self.type)
            == (other.name, other.parent_joint, other.parent_frame, other.type)
            and self.placement == other.placement
            and self.inertia == other.inertia
        )

    __hash__ = None

    def copy(self) -> "Frame":
        """An independent copy, its placement and inertia copied too (also what ``copy.copy`` gives)."""
        return type(self)(self.name, self.parent_joint, self.parent_frame, self.placement.copy(), self.type,
                          self.inertia.copy())

    __copy__ = copy
