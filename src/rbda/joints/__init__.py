"""Joint models, one module per type: kinematics ``calc`` and the configuration Lie group."""

from .base import JointModel, JointType
from .composite import JointModelComposite
from .free_flyer import JointModelFreeFlyer
from .helical import JointModelHelicalUnaligned, JointModelHX, JointModelHY, JointModelHZ
from .mimic import JointModelMimic
from .planar import JointModelPlanar
from .prismatic import JointModelPrismaticUnaligned, JointModelPX, JointModelPY, JointModelPZ
from .revolute import JointModelRevoluteUnaligned, JointModelRX, JointModelRY, JointModelRZ
from .revolute_unbounded import (
    JointModelRevoluteUnboundedUnaligned,
    JointModelRUBX,
    JointModelRUBY,
    JointModelRUBZ,
)
from .spherical import JointModelSpherical
from .spherical_zyx import JointModelSphericalZYX
from .translation import JointModelTranslation
from .universal import JointModelUniversal

#: the X, Y, Z and unaligned joint classes of each one-axis family
AXIS_JOINT_FAMILIES = {
    "revolute": (JointModelRX, JointModelRY, JointModelRZ, JointModelRevoluteUnaligned),
    "revolute_unbounded": (JointModelRUBX, JointModelRUBY, JointModelRUBZ, JointModelRevoluteUnboundedUnaligned),
    "prismatic": (JointModelPX, JointModelPY, JointModelPZ, JointModelPrismaticUnaligned),
}


def axis_joint(family: str, axis, tol: float = 0.0) -> JointModel:
    """The joint of ``family`` (a key of :data:`AXIS_JOINT_FAMILIES`) about ``axis``: its X/Y/Z class when
    ``|axis - e| <= tol * min(|axis|, 1)`` for a unit axis ``e`` (exact equality for ``tol = 0``), otherwise its
    unaligned class on ``axis`` (normalised). How the model readers turn file axes into joints."""
    import numpy as np

    axis = np.asarray(axis, dtype=np.float64)
    classes = AXIS_JOINT_FAMILIES[family]
    for cls, e in zip(classes[:3], np.eye(3)):
        if np.linalg.norm(axis - e) <= tol * min(np.linalg.norm(axis), 1.0):
            return cls()
    return classes[3](axis)


__all__ = [
    "JointModel", "JointType", "JointModelComposite", "JointModelFreeFlyer", "JointModelHelicalUnaligned", "JointModelHX", "JointModelHY",
    "JointModelHZ", "JointModelMimic", "JointModelPlanar", "JointModelPrismaticUnaligned", "JointModelPX", "JointModelPY",
    "JointModelPZ", "JointModelRevoluteUnaligned", "JointModelRX", "JointModelRY", "JointModelRZ",
    "JointModelRevoluteUnboundedUnaligned", "JointModelRUBX", "JointModelRUBY", "JointModelRUBZ",
    "JointModelSpherical", "JointModelSphericalZYX", "JointModelTranslation", "JointModelUniversal",
]
