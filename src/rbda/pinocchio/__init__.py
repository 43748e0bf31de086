"""Pinocchio's Python API over rbda: ``import rbda.pinocchio as pin`` runs Pinocchio code unchanged.

camelCase names and Pinocchio's overloads (``pin.forwardKinematics(model, data, q)``,
``pin.computeABADerivatives(...)``, the forms that reuse a filled data), its classes (``SE3``, ``Motion``,
``Force``, ``Inertia``, ``Quaternion``, ``AngleAxis``, ``Frame``, ``Model``, ``Data``, ``GeometryModel``, ...) and
enums, ``pin.utils``, ``pin.rpy``, ``pin.explog``, ``pin.liegroups``, ``pin.cholesky``, ``RobotWrapper``, the
sample models with Pinocchio's names, the URDF/MJCF/SDF/SRDF readers and ``pin.visualize.MeshcatVisualizer``
(shown by rbda's own viewer). A thin translation layer: every computation is rbda's, called with Pinocchio's
arguments translated and its results returned in Pinocchio's types (``rbda.pinocchio.model`` says how the data's
fields are shown; each module says what it converts where the conventions differ).

What differs from Pinocchio, by design:

- results are arrays the caller owns (as Pinocchio's Python bindings return copies);
- rbda computes what Pinocchio 4.1 refuses or omits (``computeMinverse`` and the derivatives with mimic joints,
  the motion subspace's time variation of universal, spherical-ZYX and composite joints);
- ``Model.saveToText``/``saveToXML``/``saveToBinary`` write rbda's own model file (versioned JSON of plain data),
  which Pinocchio cannot read;
- the sample models have Pinocchio's names and structure, rbda's own placements and inertias;
- what needs coal's (hpp-fcl's) own bindings (``pin.hppfcl``, broad-phase managers), CasADi or CppAD types
  (``pinocchio.casadi``, ``pinocchio.cppad``) is not there.
"""

from __future__ import annotations

from .._version import __version__ as _rbda_version
from ..joints import (JointModelFreeFlyer, JointModelHelicalUnaligned, JointModelHX, JointModelHY, JointModelHZ,
                      JointModelMimic, JointModelPlanar, JointModelPrismaticUnaligned, JointModelPX, JointModelPY,
                      JointModelPZ, JointModelRevoluteUnaligned, JointModelRevoluteUnboundedUnaligned,
                      JointModelRUBX, JointModelRUBY, JointModelRUBZ, JointModelRX, JointModelRY, JointModelRZ,
                      JointModelSpherical, JointModelSphericalZYX, JointModelTranslation, JointModelUniversal)
from .constraints import (CONTACT_3D, CONTACT_6D, BaumgarteCorrectorParameters, ContactType, ProximalSettings,
                          RigidConstraintData, RigidConstraintModel)
from . import explog, liegroups, rpy, utils, visualize
from .algorithms import *  # noqa: F401,F403
from .algorithms import ARG0, ARG1, LOCAL, LOCAL_WORLD_ALIGNED, WORLD, ArgumentPosition, Convention, cholesky
from .explog import exp, log
from .geometry import (COLLISION, VISUAL, CollisionPair, GeometryData, GeometryModel, GeometryNoMaterial,
                       GeometryObject, GeometryPhongMaterial, GeometryType, buildGeomFromUrdf,
                       buildSampleGeometryModelHumanoid, buildSampleGeometryModelManipulator, computeBodyRadius,
                       computeCollision, computeCollisions, computeDistance, computeDistances, createDatas,
                       updateGeometryPlacements)
from .model import (ACCELERATION, BODY, FIXED_JOINT, JOINT, OP_FRAME, POSITION, SENSOR, VELOCITY, Data, Frame,
                    FrameType, JointModelComposite, KinematicLevel, Model, StdMap_String_VectorXd, StdVec_Bool,
                    StdVec_CollisionPair, StdVec_Double, StdVec_Force, StdVec_Frame, StdVec_GeometryObject,
                    StdVec_Index, StdVec_Inertia, StdVec_Motion, StdVec_RigidConstraintData,
                    StdVec_RigidConstraintModel, StdVec_SE3, StdVec_StdString, StdVec_Vector3)
from .parsers import (buildModelFromMJCF, buildModelFromSdf, buildModelFromSDF, buildModelFromUrdf,
                      buildModelFromXML, buildModelsFromMJCF, buildModelsFromUrdf, loadReferenceConfigurations,
                      loadRotorParameters, removeCollisionPairs)
from .robot_wrapper import RobotWrapper
from .rpy import (computeRpyJacobian, computeRpyJacobianInverse, computeRpyJacobianTimeDerivative, matrixToRpy,
                  rotate, rpyToMatrix)
from .sample_models import buildSampleModelHumanoid, buildSampleModelHumanoidRandom, buildSampleModelManipulator
from .spatial import (AngleAxis, Force, Inertia, Jexp3, Jexp6, Jlog3, Jlog6, LogCholeskyParameters, Motion,
                      PseudoInertia, Quaternion, ReferenceFrame, SE3, SE3ToXYZQUAT, SE3ToXYZQUATtuple, Symmetric3,
                      XYZQUATToSE3, classicAcceleration, exp3, exp3_quat, exp6, log3, log6, log6_quat,
                      se3ToXYZQUAT, skew, skewSquare, unSkew)


def appendModel(modelA, modelB, frame_in_modelA, aMb):
    """:func:`rbda.append_model` as Pinocchio's ``appendModel`` (a new model)."""
    return modelA.appendModel(modelB, frame_in_modelA, aMb)


def buildReducedModel(model, list_of_joints_to_lock, reference_configuration):
    """:func:`rbda.build_reduced_model` as Pinocchio's ``buildReducedModel`` (a new model)."""
    return model.buildReducedModel(list_of_joints_to_lock, reference_configuration)


__version__ = __raw_version__ = _rbda_version
WITH_URDFDOM = WITH_SDFORMAT = True  # rbda reads URDF and SDFormat itself
WITH_HPP_FCL = WITH_COLL = True  # rbda's own collision: geometry models, distances, collisions
WITH_HPP_FCL_BINDINGS = WITH_CASADI = WITH_CPPAD = WITH_OPENMP = False
