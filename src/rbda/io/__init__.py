"""Reading and writing robot files: URDF, MJCF, SDF, SRDF, MJCF scenes for the simulator, rbda's own model file.

:func:`load_model` picks the reader by file type. Every reader raises :class:`ModelFileError` (a
``ValueError``) naming the file, the element and the reason.
"""

from ..model.errors import ModelFileError
from ..model.geometry import (Box, Capsule, Cylinder, Ellipsoid, GeometryModel, GeometryObject, GeometryType,
                              Halfspace, Mesh, Sphere)
from .loader import load_model, load_model_from_string
from .robots import Robot, load_robot  # example-robot-data's robots by name
from .srdf import Srdf, load_reference_configurations, load_rotor_parameters, read_srdf, remove_collision_pairs
from .urdf import (
    build_geom_from_urdf,
    build_model_from_urdf,
    build_model_from_urdf_string,
    build_models_from_urdf,
    InertiaWarning,
    read_urdf,
)
from .urdf_writer import write_urdf
from .model_file import load_model_file, save_model  # rbda's own model file
from .scene import load_scene  # an MJCF scene for the simulator: (model, collision_model)
from .constraints import constraints_from_mjcf  # MJCF connect/weld equalities as RigidConstraintModel
from .mjcf_physics import actuator_torques  # MJCF actuators' joint torques of their controls
from .constraints import constraints_from_sdf  # SDFormat loop-closing joints as RigidConstraintModel

__all__ = [
    "ModelFileError", "load_model", "load_model_from_string", "load_robot", "Robot",
    "build_model_from_urdf", "build_model_from_urdf_string", "build_geom_from_urdf", "build_models_from_urdf",
    "read_urdf", "write_urdf", "InertiaWarning",
    "Srdf", "read_srdf", "load_reference_configurations", "load_rotor_parameters", "remove_collision_pairs",
    "GeometryModel", "GeometryObject", "GeometryType", "Box", "Cylinder", "Sphere", "Capsule", "Ellipsoid", "Mesh",
    "Halfspace",
    "constraints_from_mjcf", "actuator_torques",
    "constraints_from_sdf", "load_scene", "save_model", "load_model_file",
]
