"""Loop closures and welds of model files as rigid constraints (:class:`rbda.RigidConstraintModel`).

MJCF ``<equality>`` elements, which :func:`rbda.load_model` keeps in ``model.mjcf_equality``:

* ``connect`` (``body1``, ``body2``, ``anchor``) -> a ``CONTACT_3D`` constraint between the anchor point on
  body 1 and the same point on body 2 as MuJoCo computes it at ``qpos0`` (``eq_data[3:6]``);
* ``weld`` (``body1``, ``body2``, ``relpose``, ``anchor``) -> a ``CONTACT_6D`` constraint that holds body 2 at
  ``relpose`` from body 1, taken at ``anchor`` on body 2.

The world body (``world``) is joint 0. Equalities between sites use the sites' frames. ``joint``, ``tendon`` and
``flex`` equalities are not rigid frame constraints: they are left out with a warning, as are inactive ones.

SDFormat joints that close a loop, which the SDF reader keeps in ``model.sdf_loop_joints``:

* ``fixed`` -> a ``CONTACT_6D`` constraint between the joint frame on the child link and on the parent link;
* ``ball``, ``revolute``, ``continuous``, ``universal`` -> a ``CONTACT_3D`` constraint that keeps the joint
  origin common to both links (the rotations it allows are not restricted: on a planar mechanism the third,
  out-of-plane row is redundant and needs proximal damping, ``ProximalSettings(mu > 0)``).
"""

from __future__ import annotations

import warnings

import numpy as np

from ..model.constraints import CONTACT_3D, CONTACT_6D, RigidConstraintModel
from ..spatial import SE3, ReferenceFrame, quat_to_matrix


def _frame_of(model, name: str, equality: str) -> tuple[int, SE3]:
    """``(joint id, placement in the joint frame)`` of the body or site ``name``."""
    if name in ("world", "universe"):
        return 0, SE3()
    for f in model.frames:
        if f.name == name:
            return f.parent_joint, f.placement
    raise ValueError(f"model.mjcf_equality: equality {equality!r} names {name!r}, which is not a frame of the model")


def constraints_from_mjcf(model, reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> list:
    """The rigid constraints of the MJCF equalities of ``model`` (read by :func:`rbda.load_model` from an MJCF
    file), in file order, each named after its equality, rows expressed in ``reference_frame``.

    Returns a list of :class:`rbda.RigidConstraintModel` to pass to :func:`rbda.constraint_dynamics` with
    ``[cm.create_data() for cm in constraints]``. Raises ValueError if ``model`` was not read from MJCF.
    """
    equalities = getattr(model, "mjcf_equality", None)
    if equalities is None:
        raise ValueError("model: has no MJCF equalities (model.mjcf_equality); load it from an MJCF file")
    out = []
    for k, eq in enumerate(equalities):
        name = eq.name or f"equality {k}"
        if eq.type not in ("connect", "weld") or eq.objtype not in ("body", "site") or not eq.active:
            reason = "inactive" if eq.active is False else f"a {eq.type} equality between {eq.objtype}s"
            warnings.warn(f"constraints_from_mjcf: {name!r} is {reason}, not a rigid frame constraint; left out",
                          stacklevel=2)
            continue
        j1, M1 = _frame_of(model, eq.obj1, name)
        j2, M2 = _frame_of(model, eq.obj2, name)
        data = np.asarray(eq.data, dtype=float)
        if eq.type == "connect":
            P1, P2 = M1 * SE3(np.eye(3), data[0:3]), M2 * SE3(np.eye(3), data[3:6])
            kind = CONTACT_3D
        else:  # weld: body1 M body2 = relpose, taken at the anchor on body 2
            w, x, y, z = data[6:10]
            relpose = SE3(quat_to_matrix(np.array([x, y, z, w]) / np.linalg.norm(data[6:10])), data[3:6])
            anchor = SE3(np.eye(3), data[0:3])
            P1, P2 = M1 * relpose * anchor, M2 * anchor
            kind = CONTACT_6D
        if j1 == 0:  # the world as joint 2
            j1, P1, j2, P2 = j2, P2, j1, P1
        out.append(RigidConstraintModel(kind, model, j1, P1, j2, P2, reference_frame, name=name))
    return out


def constraints_from_sdf(model, reference_frame: ReferenceFrame | int = ReferenceFrame.LOCAL) -> list:
    """The rigid constraints of the loop-closing joints of ``model`` (read by :func:`rbda.load_model` from an
    SDFormat file, ``model.sdf_loop_joints``; see the module docstring), in file order, each named after its joint,
    with joint 1 moving the joint's child link and joint 2 its parent link (0 for the world), rows expressed in
    ``reference_frame``.

    Returns a list of :class:`rbda.RigidConstraintModel` (empty for a tree) to pass to
    :func:`rbda.constraint_dynamics` with ``[cm.create_data() for cm in constraints]``. Raises ValueError if
    ``model`` was not read from SDFormat.
    """
    loops = getattr(model, "sdf_loop_joints", None)
    if loops is None:
        raise ValueError("model: has no SDFormat loop joints (model.sdf_loop_joints); load it from an SDFormat file")
    return [RigidConstraintModel(CONTACT_6D if j.type == "fixed" else CONTACT_3D, model, j.joint1, j.P1, j.joint2,
                                 j.P2, reference_frame, name=j.name) for j in loops]
