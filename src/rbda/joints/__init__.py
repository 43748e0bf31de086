"""Joint models, one module per type (DESIGN.md §2): kinematics ``calc`` and the configuration Lie group."""

from .base import JointModel, JointType
from .composite import JointModelComposite
from .free_flyer import JointModelFreeFlyer
from .helical import JointModelHelicalUnaligned, JointModelHX, JointModelHY, JointModelHZ
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

__all__ = [
    "JointModel", "JointType", "JointModelComposite", "JointModelFreeFlyer", "JointModelHelicalUnaligned", "JointModelHX", "JointModelHY",
    "JointModelHZ", "JointModelPlanar", "JointModelPrismaticUnaligned", "JointModelPX", "JointModelPY",
    "JointModelPZ", "JointModelRevoluteUnaligned", "JointModelRX", "JointModelRY", "JointModelRZ",
    "JointModelRevoluteUnboundedUnaligned", "JointModelRUBX", "JointModelRUBY", "JointModelRUBZ",
    "JointModelSpherical", "JointModelSphericalZYX", "JointModelTranslation", "JointModelUniversal",
]
