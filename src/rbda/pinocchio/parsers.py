"""Pinocchio's model readers over rbda's (:mod:`rbda.io`): ``buildModelFromUrdf``, ``buildModelFromXML``,
``buildModelsFromUrdf``, ``buildModelFromMJCF``, ``buildModelsFromMJCF``, ``buildModelFromSdf``,
``loadReferenceConfigurations``, ``loadRotorParameters``, ``removeCollisionPairs``.

Pinocchio's forms that fill a given ``Model`` (``buildModelFromUrdf(path, root_joint, model)``) are accepted: the
model read replaces the given one's content, which is also returned. Package directories may be a path, a
string or a list of them.
"""

from __future__ import annotations

from ..io import mjcf as _mjcf
from ..io import sdf as _sdf
from ..io import srdf as _srdf
from ..io import urdf as _urdf
from ..model.geometry import GeometryType
from ..joints import JointModel
from ._convert import to_pin
from .geometry import GeometryModel, _package_dirs
from .model import Model


def _root_args(args, kwargs):
    """``(root_joint, root_joint_name, model_to_fill)`` from Pinocchio's positional forms ``([root_joint]
    [, root_joint_name | model])``."""
    root_joint, name, target = kwargs.pop("root_joint", None), kwargs.pop("root_joint_name", "root_joint"), None
    for a in args:
        if isinstance(a, Model):
            target = a
        elif isinstance(a, JointModel):
            root_joint = a
        elif isinstance(a, str):
            name = a
    return root_joint, name, target


def _fill(target, model):
    model = to_pin(model)
    if target is None:
        return model
    target.__setstate__(model.__getstate__())
    target._invalidate()
    return target


def buildModelFromUrdf(filename, *args, **kwargs) -> Model:
    """``(filename[, root_joint][, root_joint_name][, model])``, and ``mimic=`` as Pinocchio's keyword."""
    root_joint, name, target = _root_args(args, kwargs)
    return _fill(target, _urdf.build_model_from_urdf(filename, root_joint, name, mimic=kwargs.get("mimic", False)))


def buildModelFromXML(xml, *args, **kwargs) -> Model:
    """The model of a URDF file's text ``(xml[, root_joint][, root_joint_name][, model])``."""
    root_joint, name, target = _root_args(args, kwargs)
    return _fill(target, _urdf.build_model_from_urdf_string(xml, root_joint, name, mimic=kwargs.get("mimic", False)))


def buildModelsFromUrdf(filename, package_dirs=None, root_joint=None, verbose: bool = False, meshLoader=None,
                        geometry_types=None, root_joint_name: str = "root_joint"):
    """``(model, collision_model, visual_model)``; with ``geometry_types`` one type, ``(model, that model)``."""
    model, collision, visual = _urdf.build_models_from_urdf(filename, _package_dirs(package_dirs), root_joint,
                                                            root_joint_name)
    model, collision, visual = to_pin(model), GeometryModel.adopt(collision), GeometryModel.adopt(visual)
    if geometry_types is None:
        return model, collision, visual
    types = list(geometry_types) if isinstance(geometry_types, (list, tuple)) else [geometry_types]
    return (model, *[collision if GeometryType(int(t)) == GeometryType.COLLISION else visual for t in types])


def buildModelFromMJCF(filename, *args, **kwargs) -> Model:
    """``(filename[, root_joint][, root_joint_name])`` (rbda's reader, which runs MuJoCo's compiler)."""
    root_joint, name, target = _root_args(args, kwargs)
    return _fill(target, _mjcf.build_model_from_mjcf(filename, root_joint, name, composite=True))


def buildModelsFromMJCF(filename, *args, **kwargs):
    """``(model, collision_model, visual_model)`` of an MJCF file."""
    from ..io.mjcf_geometry import build_geom_from_mjcf

    model = buildModelFromMJCF(filename, *args, **kwargs)
    return (model, GeometryModel.adopt(build_geom_from_mjcf(model, filename, GeometryType.COLLISION)),
            GeometryModel.adopt(build_geom_from_mjcf(model, filename, GeometryType.VISUAL)))


def buildModelFromSdf(filename, root_joint=None, root_link_name: str = "", parent_guidance=(), *args,
                      root_joint_name: str = "root_joint", **kwargs) -> Model:
    """The model of an SDFormat file (rbda's reader; ``root_link_name`` and ``parent_guidance`` are accepted and
    not needed: the root link is the one no joint has as child)."""
    return to_pin(_sdf.build_model_from_sdf(filename, root_joint, root_joint_name))


buildModelFromSDF = buildModelFromSdf


def loadReferenceConfigurations(model, srdf, verbose: bool = False) -> None:
    _srdf.load_reference_configurations(model, str(srdf), verbose)


def loadRotorParameters(model, srdf, verbose: bool = False) -> bool:
    _srdf.load_rotor_parameters(model, str(srdf), verbose)
    return True


def removeCollisionPairs(model, geom_model, srdf, verbose: bool = False) -> None:
    _srdf.remove_collision_pairs(model, geom_model, str(srdf), verbose)
