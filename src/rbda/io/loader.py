"""``load_model``: read a robot file with the reader its type calls for (URDF, MJCF, SDF)."""

from __future__ import annotations

import inspect
import os

from ..joints import JointModel, JointModelFreeFlyer
from ._xml import XmlSource
from ..model.errors import ModelFileError

FORMATS = {"robot": "urdf", "mujoco": "mjcf", "sdf": "sdf"}  # root element -> format
_EXTENSIONS = {".urdf": "urdf", ".sdf": "sdf", ".world": "sdf", ".mjcf": "mjcf"}


def _reader(fmt: str, is_text: bool):
    if fmt == "urdf":
        from . import urdf as module
    elif fmt == "mjcf":
        from . import mjcf as module
    else:
        from . import sdf as module
    return getattr(module, f"build_model_from_{fmt}{'_string' if is_text else ''}")


def _format(source, is_text: bool) -> str:
    """The format of a file (by extension, else by root element) or of text (by root element)."""
    if not is_text:
        extension = os.path.splitext(os.fspath(source))[1].lower()
        if extension == ".srdf":
            raise ModelFileError(os.fspath(source), "", "an SRDF file holds no kinematic tree: load the URDF, then "
                                                        "rbda.io.load_reference_configurations(model, srdf)")
        if extension in _EXTENSIONS:
            return _EXTENSIONS[extension]
    root = XmlSource(source, is_text).root
    if root.tag not in FORMATS:
        name = "<string>" if is_text else os.fspath(source)
        raise ModelFileError(name, f"<{root.tag}>", "unknown model format: the root element must be <robot> (URDF), "
                                                   "<mujoco> (MJCF) or <sdf> (SDF)")
    return FORMATS[root.tag]


def _expand_xacro(path) -> str:
    """The URDF text of the xacro file ``path``, expanded by the ``xacro`` package (``rbda[xacro]``)."""
    try:
        import xacro
    except ImportError:
        raise ModelFileError(os.fspath(path), "", "a xacro file must be expanded into URDF first: install the xacro "
                                                  "package (pip install 'rbda[xacro]'), or run "
                                                  "'xacro robot.urdf.xacro -o robot.urdf' and load the URDF") from None
    try:
        return xacro.process_file(os.fspath(path)).toxml()
    except Exception as exc:  # xacro reports its own errors (a missing include, an undefined property, ...)
        raise ModelFileError(os.fspath(path), "", f"xacro could not expand it ({exc})") from None


def _load(source, is_text: bool, floating_base, root_joint, root_joint_name: str, options: dict):
    if isinstance(floating_base, JointModel):  # Pinocchio's habit: the root joint as the second argument
        if root_joint is not None:
            raise ValueError("floating_base, root_joint: two root joints given")
        floating_base, root_joint = False, floating_base
    if not isinstance(floating_base, (bool, int)) or floating_base not in (0, 1):
        raise TypeError(f"floating_base: expected True or False (or a root JointModel), got {floating_base!r}")
    if root_joint is not None and not isinstance(root_joint, JointModel):
        raise TypeError(f"root_joint: expected a JointModel, got {type(root_joint).__name__}")
    if not isinstance(root_joint_name, str):
        raise TypeError(f"root_joint_name: expected a str, got {type(root_joint_name).__name__} (the readers return "
                        "a new Model; they do not fill one given to them)")
    if floating_base and root_joint is not None:
        raise ValueError("floating_base, root_joint: give one of them (floating_base=True is root_joint=JointModelFreeFlyer())")
    if floating_base:
        root_joint = JointModelFreeFlyer()
    if not is_text and os.fspath(source).lower().endswith(".xacro"):
        source, is_text = _expand_xacro(source), True
    fmt = _format(source, is_text)
    reader = _reader(fmt, is_text)
    kwargs = dict(options)
    if root_joint is not None:
        kwargs["root_joint"] = root_joint
    if root_joint_name != "root_joint":
        if "root_joint_name" not in inspect.signature(reader).parameters:
            raise TypeError(f"root_joint_name: the {fmt.upper()} reader names its root joint itself")
        kwargs["root_joint_name"] = root_joint_name
    return reader(source, **kwargs)


def load_model(path, floating_base: bool | JointModel = False, root_joint: JointModel | None = None,
               root_joint_name: str = "root_joint", **options):
    """The :class:`~rbda.model.Model` of the robot file ``path``: URDF (``.urdf`` or root ``<robot>``), MJCF
    (``<mujoco>``, needs ``rbda[mjcf]``) or SDF (``.sdf`` or root ``<sdf>``).

    ``floating_base=True`` joins the root body to the universe with a free-flyer (Pinocchio's
    ``JointModelFreeFlyer``); ``root_joint`` with any joint model, named ``root_joint_name`` (URDF); a joint model
    as the second argument is the root joint, as in Pinocchio's ``buildModel(path, root_joint)``. A ``.xacro``
    file is expanded into URDF by the ``xacro`` package (``pip install 'rbda[xacro]'``). Further
    keyword ``options`` go to the reader (e.g. ``mimic=True`` or ``check_inertia=False`` for URDF). Raises
    :class:`~rbda.io.ModelFileError` naming the file, the element and the reason.
    """
    return _load(path, False, floating_base, root_joint, root_joint_name, options)


def load_model_from_string(text: str, floating_base: bool | JointModel = False, root_joint: JointModel | None = None,
                           root_joint_name: str = "root_joint", **options):
    """:func:`load_model` on the ``text`` of a URDF, MJCF or SDF file (the format is read from its root element),
    with the same ``floating_base``, ``root_joint``, ``root_joint_name`` and reader options."""
    if not isinstance(text, str):
        raise TypeError(f"text: expected a str, got {type(text).__name__}")
    return _load(text, True, floating_base, root_joint, root_joint_name, options)
