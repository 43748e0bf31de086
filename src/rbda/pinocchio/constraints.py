"""Pinocchio's constraint classes over rbda's (:mod:`rbda.model.constraints`): ``RigidConstraintModel`` with
``createData()`` and ``size()``, ``RigidConstraintData``, ``ProximalSettings`` with Pinocchio's two constructors,
``ContactType``, ``BaumgarteCorrectorParameters``."""

from __future__ import annotations

from ..model import constraints as _c
from ..spatial import ReferenceFrame

ContactType, CONTACT_3D, CONTACT_6D = _c.ContactType, _c.CONTACT_3D, _c.CONTACT_6D
BaumgarteCorrectorParameters, RigidConstraintData = _c.BaumgarteCorrectorParameters, _c.RigidConstraintData


class _Size(int):
    """A constraint's size: an int for rbda, callable for Pinocchio's ``size()``."""

    def __call__(self) -> int:
        return int(self)


class RigidConstraintModel(_c.RigidConstraintModel):
    """``RigidConstraintModel(contact_type, model, joint1_id, joint1_placement[, joint2_id, joint2_placement]
    [, reference_frame])`` (Pinocchio's forms, the reference frame also as the fifth argument)."""

    def __init__(self, contact_type, model, joint1_id, joint1_placement=None, *args, **kwargs):
        if args and isinstance(args[0], ReferenceFrame):  # (type, model, joint1_id, joint1_placement, rf)
            kwargs["reference_frame"], args = args[0], args[1:]
        super().__init__(contact_type, model, joint1_id, joint1_placement, *args, **kwargs)
        self.size = _Size(self.size)

    def createData(self) -> RigidConstraintData:
        return self.create_data()

    def setBaumgarteCorrectorParameters(self, parameters) -> None:
        self.set_baumgarte_corrector_parameters(parameters)


class ProximalSettings(_c.ProximalSettings):
    """``ProximalSettings(accuracy, mu, max_iter)`` or Pinocchio's ``ProximalSettings(absolute_accuracy,
    relative_accuracy, mu, max_iter)`` (rbda uses one accuracy for both residuals: the smaller)."""

    def __init__(self, *args):
        if len(args) == 4:
            args = (min(args[0], args[1]), args[2], args[3])
        super().__init__(*args)
