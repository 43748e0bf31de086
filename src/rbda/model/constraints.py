"""Rigid constraints between two frames (Pinocchio's ``RigidConstraintModel`` / ``RigidConstraintData``) and the
settings of the proximal solver.

A constraint ties frame ``c1`` (``joint1_placement`` on joint ``joint1_id``) to frame ``c2`` (``joint2_placement``
on joint ``joint2_id``; joint 0 is the world, so a constraint on one joint is a contact, one between two joints of
the robot a loop closure). ``CONTACT_3D`` holds the origins of the two frames together (3 rows), ``CONTACT_6D``
the whole placements (6 rows). Rows are expressed in ``c1`` (``LOCAL``), in world axes at the origin of ``c1``
(``LOCAL_WORLD_ALIGNED``) or, for a 6D constraint, in the world frame (``WORLD``).

The rigid constraint is ``J ddq + gamma = a_c``: ``J`` its Jacobian, ``gamma`` the drift (the constraint
acceleration at ``ddq = 0``), ``a_c`` the Baumgarte corrector ``a_des - Kp e_p - Kd (e_v - v_des)``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

from ..spatial import SE3, ReferenceFrame


class ContactType(IntEnum):
    """Kind of rigid constraint (Pinocchio's values)."""

    CONTACT_3D = 0  # the origins of c1 and c2 coincide: 3 rows, a force
    CONTACT_6D = 1  # the placements of c1 and c2 coincide: 6 rows, a wrench


CONTACT_3D, CONTACT_6D = ContactType.CONTACT_3D, ContactType.CONTACT_6D


def _finite(x: float, name: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name}: expected a number, got {type(x).__name__}")
    if not np.isfinite(x):
        raise ValueError(f"{name}: must be finite, got {x}")
    return float(x)


@dataclass
class BaumgarteCorrectorParameters:
    """Baumgarte stabilisation gains: the corrector acceleration is ``-Kp e_p - Kd e_v`` (``Kp, Kd >= 0``)."""

    Kp: float = 0.0
    Kd: float = 0.0

    def __post_init__(self):
        for name in ("Kp", "Kd"):
            value = _finite(getattr(self, name), name)
            if value < 0.0:
                raise ValueError(f"{name}: must be >= 0, got {value}")
            setattr(self, name, value)


class ProximalSettings:
    """Settings of the proximal iterations of the constrained solvers (Pinocchio's ``ProximalSettings``).

    ``ProximalSettings(accuracy=1e-12, mu=0.0, max_iter=1)``: ``mu >= 0`` the proximal damping (``mu > 0`` solves
    redundant or conflicting constraint sets), ``accuracy`` the tolerance on both residuals, ``max_iter >= 1``.
    After a solve: ``iter`` the iterations taken, ``absolute_residual`` ``max |J ddq + gamma - a_c|`` and
    ``relative_residual`` ``max |lambda_k - lambda_(k-1)|`` at the last iteration.
    """

    def __init__(self, accuracy: float = 1e-12, mu: float = 0.0, max_iter: int = 1):
        self.absolute_accuracy = self.relative_accuracy = _finite(accuracy, "accuracy")
        if self.absolute_accuracy < 0.0:
            raise ValueError(f"accuracy: must be >= 0, got {accuracy}")
        self.mu = _finite(mu, "mu")
        if self.mu < 0.0:
            raise ValueError(f"mu: must be >= 0, got {mu}")
        if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 1:
            raise ValueError(f"max_iter: expected an integer >= 1, got {max_iter!r}")
        self.max_iter = int(max_iter)
        self.iter = 0
        self.absolute_residual = self.relative_residual = 0.0

    def __repr__(self) -> str:
        return (f"ProximalSettings(accuracy={self.absolute_accuracy:g}, mu={self.mu:g}, max_iter={self.max_iter}; "
                f"iter={self.iter}, absolute_residual={self.absolute_residual:.3g}, "
                f"relative_residual={self.relative_residual:.3g})")


def _joint(model, joint_id, name: str) -> int:
    if isinstance(joint_id, bool) or not isinstance(joint_id, (int, np.integer)):
        raise TypeError(f"{name}: expected a joint index (int), got {type(joint_id).__name__}")
    if not 0 <= joint_id < model.njoints:
        raise ValueError(f"{name}: joint {joint_id} is out of range, the model has joints 0..{model.njoints - 1}")
    return int(joint_id)


def _placement(M, name: str) -> SE3:
    if not isinstance(M, SE3):
        raise TypeError(f"{name}: expected an rbda.SE3, got {type(M).__name__}")
    if not (np.isfinite(M.rotation).all() and np.isfinite(M.translation).all()):
        raise ValueError(f"{name}: contains non-finite values (NaN or inf)")
    return M.copy()


def _support_columns(model, joint_id: int) -> np.ndarray:
    """The velocity indices of the joints supporting ``joint_id`` (root first)."""
    cols = [range(model.idx_v[j], model.idx_v[j] + model.nvs[j]) for j in model.supports[joint_id][1:]]
    return np.array([c for r in cols for c in r], dtype=np.int64)


def _se3_view(row: np.ndarray, offset: int) -> SE3:
    """An :class:`SE3` sharing the memory of ``row[offset:offset + 12]`` (``[R | p]``, row-major)."""
    M = SE3.__new__(SE3)
    block = row[offset:offset + 12].reshape(3, 4)
    M.rotation, M.translation = block[:, :3], block[:, 3]
    return M


def _packed_placement(offset: int, name: str):
    """A property: an SE3 view of the packed row, assigned by copy (so the compiled kernels see it)."""
    def get(self) -> SE3:
        return _se3_view(self.params, offset)

    def set(self, M) -> None:
        M = _placement(M, name)
        block = self.params[offset:offset + 12].reshape(3, 4)
        block[:, :3], block[:, 3] = M.rotation, M.translation

    return property(get, set, doc=f"``{name}`` (SE3; a view of the packed parameters, assign to change it).")


def _packed_vector(offset: int, name: str):
    def get(self) -> np.ndarray:
        return self.params[offset:offset + 6]

    def set(self, x) -> None:
        x = np.asarray(x, dtype=np.float64)
        if x.shape != (6,) or not np.isfinite(x).all():
            raise ValueError(f"{name}: expected 6 finite values, got shape {x.shape}")
        self.params[offset:offset + 6] = x

    return property(get, set, doc=f"``{name}`` ``(6,)`` (a view of the packed parameters).")


class RigidConstraintModel:
    """A rigid constraint between frame c1 on joint ``joint1_id`` and frame c2 on joint ``joint2_id``.

    ``RigidConstraintModel(contact_type, model, joint1_id, joint1_placement=SE3.Identity(), joint2_id=0,
    joint2_placement=SE3.Identity(), reference_frame=ReferenceFrame.LOCAL, name="")``: ``joint*_placement`` is
    the placement of the frame in its joint's frame; ``joint2_id = 0`` ties c1 to the world (then
    ``joint2_placement`` is c2's placement in the world). ``reference_frame`` is LOCAL or LOCAL_WORLD_ALIGNED
    (WORLD also for ``CONTACT_6D``). Fields: ``type``, ``size`` (3 or 6), ``corrector``
    (:class:`BaumgarteCorrectorParameters`; assign it or call :meth:`set_baumgarte_corrector_parameters`),
    ``desired_contact_placement`` (SE3, the target of ``c1Mc2``; identity), ``desired_contact_velocity`` and
    ``desired_contact_acceleration`` ``(6,)`` (zero; the first ``size`` entries are used, in the constraint's
    frame). The placements, gains and targets live in one packed row ``params`` ``(50,)`` that the compiled
    kernels read; the properties are views of it. After a constrained call, ``params`` (and ``ints``) are rows
    of the packed arrays of that call's Data, values kept, so that an edit (in place or through the properties)
    reaches the next call with no copy.

    Raises TypeError for a placement that is not an SE3 or a joint index that is not an int, ValueError for a
    joint out of range, an unknown type or frame, or non-finite placements.
    """

    joint1_placement = _packed_placement(0, "joint1_placement")
    joint2_placement = _packed_placement(12, "joint2_placement")
    desired_contact_placement = _packed_placement(26, "desired_contact_placement")
    desired_contact_velocity = _packed_vector(38, "desired_contact_velocity")
    desired_contact_acceleration = _packed_vector(44, "desired_contact_acceleration")

    def __init__(self, contact_type, model, joint1_id: int, joint1_placement: SE3 | None = None,
                 joint2_id: int = 0, joint2_placement: SE3 | None = None,
                 reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL, name: str = ""):
        try:
            kind = ContactType(contact_type)
        except (ValueError, TypeError):
            raise ValueError(f"contact_type: expected ContactType.CONTACT_3D or CONTACT_6D, got {contact_type!r}") \
                from None
        try:
            rf = ReferenceFrame(reference_frame)
        except (ValueError, TypeError):
            raise ValueError(f"reference_frame: expected a ReferenceFrame, got {reference_frame!r}") from None
        if kind == CONTACT_3D and rf == ReferenceFrame.WORLD:
            raise ValueError("reference_frame: a 3D contact is expressed in LOCAL or LOCAL_WORLD_ALIGNED (the "
                             "velocity of a point in world axes), not WORLD")
        j1, j2 = _joint(model, joint1_id, "joint1_id"), _joint(model, joint2_id, "joint2_id")
        if j1 == 0:
            raise ValueError("joint1_id: must be a joint of the robot (>= 1); put the world as joint 2")
        self.ints = np.array([int(kind), int(rf), j1, j2], dtype=np.int64)  # the packed integers
        self.params = np.zeros(50)
        self.joint1_placement = SE3() if joint1_placement is None else joint1_placement
        self.joint2_placement = SE3() if joint2_placement is None else joint2_placement
        self.desired_contact_placement = SE3()
        self.name = str(name)
        self.size = 3 if kind == CONTACT_3D else 6
        self.model_sizes = (model.njoints, model.nv)
        self.columns1 = _support_columns(model, j1)
        self.columns2 = _support_columns(model, j2)

    type = property(lambda self: ContactType(int(self.ints[0])), doc="``ContactType``.")
    reference_frame = property(lambda self: ReferenceFrame(int(self.ints[1])), doc="``ReferenceFrame``.")
    joint1_id = property(lambda self: int(self.ints[2]), doc="Joint of frame c1.")
    joint2_id = property(lambda self: int(self.ints[3]), doc="Joint of frame c2 (0: the world).")

    @property
    def corrector(self) -> BaumgarteCorrectorParameters:
        """The Baumgarte gains (a copy; assign a :class:`BaumgarteCorrectorParameters` to change them)."""
        return BaumgarteCorrectorParameters(float(self.params[24]), float(self.params[25]))

    @corrector.setter
    def corrector(self, parameters: BaumgarteCorrectorParameters) -> None:
        self.set_baumgarte_corrector_parameters(parameters)

    def set_baumgarte_corrector_parameters(self, parameters: BaumgarteCorrectorParameters) -> None:
        """Set the Baumgarte gains to ``parameters`` (a :class:`BaumgarteCorrectorParameters`; Pinocchio's
        ``setBaumgarteCorrectorParameters``)."""
        if not isinstance(parameters, BaumgarteCorrectorParameters):
            raise TypeError(f"parameters: expected BaumgarteCorrectorParameters, got {type(parameters).__name__}")
        checked = BaumgarteCorrectorParameters(parameters.Kp, parameters.Kd)
        self.params[24], self.params[25] = checked.Kp, checked.Kd

    def create_data(self) -> "RigidConstraintData":
        """A :class:`RigidConstraintData` for this constraint."""
        return RigidConstraintData(self)

    def __repr__(self) -> str:
        return (f"RigidConstraintModel({self.type.name}, joint1_id={self.joint1_id}, joint2_id={self.joint2_id}, "
                f"reference_frame={self.reference_frame.name})")


RECORD = 78  # a constraint data's packed record (kernels/constrained.py)


class RigidConstraintData:
    """The quantities of one constraint at the last solve (spatial vectors ``[linear; angular]``), made for the
    constraint model ``cmodel`` (``cmodel.create_data()``).

    ``oMc1``, ``oMc2``, ``c1Mc2`` (SE3) the placements of the two frames and their relative placement;
    ``contact1_velocity``, ``contact2_velocity`` ``(6,)`` the frames' velocities in their own frames;
    ``contact_placement_error``, ``contact_velocity_error`` ``(6,)`` the errors ``e_p``, ``e_v`` in the
    constraint's frame (3D: linear part, the rest zero); ``contact_acceleration_drift`` ``(size,)`` gamma;
    ``contact_acceleration_desired`` ``(size,)`` the corrector ``a_c``; ``contact_force`` ``(6,)`` the force
    (3D) or wrench (6D) that the constraint applies on joint 1's body at c1, in the constraint's frame (its
    opposite acts on joint 2's body); ``jacobian`` ``(size, nv)``. All are views of the packed ``record``
    ``(78,)`` and of the stacked Jacobian that the solvers fill.
    """

    oMc1 = property(lambda self: _se3_view(self.record, 0))
    oMc2 = property(lambda self: _se3_view(self.record, 12))
    c1Mc2 = property(lambda self: _se3_view(self.record, 24))
    contact1_velocity = property(lambda self: self.record[36:42])
    contact2_velocity = property(lambda self: self.record[42:48])
    contact_placement_error = property(lambda self: self.record[48:54])
    contact_velocity_error = property(lambda self: self.record[54:60])
    contact_force = property(lambda self: self.record[60:66])
    contact_acceleration_drift = property(lambda self: self.record[66:66 + self.size])
    contact_acceleration_desired = property(lambda self: self.record[72:72 + self.size])

    def __init__(self, cmodel: RigidConstraintModel):
        self.size = cmodel.size
        self.record = np.zeros(RECORD)
        self.jacobian = np.zeros((cmodel.size, cmodel.model_sizes[1]))
