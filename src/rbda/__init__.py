"""rbda: rigid-body dynamics for Python.

Spatial algebra (:mod:`rbda.spatial`), kinematic trees (:class:`Model`, :class:`Data`, the joint models) and
Featherstone's algorithms compiled with numba, named as Pinocchio names them (``rnea``, ``aba``, ``crba``, ...).
"""

from . import joints, spatial
from .algorithms import *  # noqa: F401,F403  (the public algorithm functions)
from .joints import *  # noqa: F401,F403  (JointModelRX, ...)
from .model import Data, Frame, FrameType, Model
from .model import sample_models
from .model import append_model, build_reduced_model, find_common_ancestor
from .model import transform_joint_into_mimic
from . import batch
from ._native import fastcall as _fastcall  # noqa: F401  (fills the data's fast entries: model.data.FAST_ENTRIES)
from .spatial import SE3, ArticulatedBodyInertia, Force, Inertia, Motion, ReferenceFrame

LOCAL, WORLD, LOCAL_WORLD_ALIGNED = ReferenceFrame.LOCAL, ReferenceFrame.WORLD, ReferenceFrame.LOCAL_WORLD_ALIGNED
from .model.constraints import (  # constrained dynamics (rbda.constraint_dynamics, ...)
    CONTACT_3D,
    CONTACT_6D,
    BaumgarteCorrectorParameters,
    ContactType,
    ProximalSettings,
    RigidConstraintData,
    RigidConstraintModel,
)


def __getattr__(name):  # the file readers (rbda.io) load on first use, so that ``import rbda`` stays fast
    if name in ("jax", "casadi", "collision", "viewer", "featherstone"):  # loaded on first use
        import importlib

        return importlib.import_module(f".{name}", __name__)
    if name in ("simulation", "Simulator"):  # contact simulation, loaded on first use
        import importlib

        simulation = importlib.import_module(".simulation", __name__)
        return simulation if name == "simulation" else getattr(simulation, name)
    if name in ("io", "load_model", "load_model_from_string", "load_scene", "save_model", "load_model_file"):
        import importlib

        io = importlib.import_module(".io", __name__)
        return io if name == "io" else getattr(io, name)
    raise AttributeError(f"module 'rbda' has no attribute {name!r}")

from ._version import __version__  # noqa: E402
