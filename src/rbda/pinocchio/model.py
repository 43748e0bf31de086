"""Pinocchio's ``Model``, ``Data`` and ``Frame`` over rbda's, the enums and the ``StdVec_*`` containers.

``Model`` and ``Frame`` are rbda's classes with Pinocchio's names added (``addJoint``, ``jointPlacements``,
``lowerPositionLimit``, ``parentJoint``, ...): an ``rbda.pinocchio.Model`` *is* an :class:`rbda.Model` and goes to
rbda's own functions unchanged. Its frames, inertias and joint placements are shown as ``rbda.pinocchio`` objects
(re-classed, not copied), and an edit of one of their fields (``model.frames[i].placement = M``,
``model.inertias[i].mass = 2``) reaches the algorithms, as in Pinocchio; an edit *inside* a field's array
(``model.inertias[i].lever[0] = 1``) does not: assign the field (or replace the object, ``model.inertias[i] =
Y``), as rbda asks.

``Data`` holds an :class:`rbda.Data` and shows its fields as Pinocchio types them: ``data.oMi[i]`` an ``SE3``,
``data.v[i]`` a ``Motion`` and ``data.f[i]`` a ``Force`` (views: writing into them writes the data),
``data.com[i]`` a 3-vector, ``data.hg`` a ``Force``, ``data.Ig`` an ``Inertia``; every other field is rbda's
array under the same name (``data.M``, ``data.tau``, ``data.J``, ...) or its Pinocchio alias
(``data.staticRegressor``). It also records the configuration, velocity and acceleration of the last call that
took them, for Pinocchio's forms that reuse a filled data (``computeMinverse(model, data)``,
``forwardDynamics(model, data, tau, J, gamma)``): those run rbda's algorithm again at the recorded state.
"""

from __future__ import annotations

import pickle
import weakref
from collections.abc import MutableMapping, Sequence
from enum import IntEnum

import numpy as np

from .. import joints as _joints
from .. import model as _m
from ..model.data import SE3Views as _SE3Views
from ..io.model_file import load_model_file, save_model
from . import spatial as _ps
from ._convert import hold, native, register, to_pin, vector

FrameType = _m.FrameType
OP_FRAME, JOINT, FIXED_JOINT, BODY, SENSOR = (FrameType.OP_FRAME, FrameType.JOINT, FrameType.FIXED_JOINT,
                                              FrameType.BODY, FrameType.SENSOR)


class KinematicLevel(IntEnum):
    """Pinocchio's ``KinematicLevel``: the order of the kinematics a data holds (``centerOfMass(model, data,
    level)``)."""

    POSITION = 0
    VELOCITY = 1
    ACCELERATION = 2


POSITION, VELOCITY, ACCELERATION = KinematicLevel.POSITION, KinematicLevel.VELOCITY, KinematicLevel.ACCELERATION


# ------------------------------------------------------------------------------------------------------ Frame
@register
class Frame(_m.Frame):
    """Pinocchio's ``Frame``: ``Frame(name, parent_joint, parent_frame, placement, type, inertia=Inertia.Zero())``,
    ``Frame(name, parent_joint, placement, type, inertia=...)`` (Pinocchio 3's form without the parent frame) or
    ``Frame(other)``; ``parentJoint``, ``parentFrame`` (``parent``, ``previousFrame``: older names)."""

    def __init__(self, name, *args, **kwargs):
        if isinstance(name, _m.Frame) and not args:
            other = name
            super().__init__(other.name, other.parent_joint, other.parent_frame, other.placement.copy(), other.type,
                             other.inertia.copy())
            return
        if len(args) >= 2 and isinstance(args[1], _ps._s.SE3):  # (name, parent_joint, placement, type, ...)
            args = (args[0], 0, *args[1:])
        super().__init__(name, *args, **kwargs)

    def __post_init__(self):
        super().__post_init__()
        to_pin(self.placement)
        to_pin(self.inertia)

    def __setattr__(self, name, value):
        object.__setattr__(self, name, to_pin(value))
        owner = self.__dict__.get("_owner")
        model = owner() if owner is not None else None
        if model is not None and name != "_owner":
            model._invalidate()

    parentJoint = property(lambda self: self.parent_joint, lambda self, j: setattr(self, "parent_joint", int(j)))
    parentFrame = property(lambda self: self.parent_frame, lambda self, f: setattr(self, "parent_frame", int(f)))
    parent = parentJoint
    previousFrame = parentFrame

    def __ne__(self, other) -> bool:
        return not self == other

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k != "_owner"}

    def __setstate__(self, state):
        self.__dict__.update(state)


# ------------------------------------------------------------------------------------------------------ Model
def _array_field(name: str) -> property:
    return property(lambda self: getattr(self, name), lambda self, value: setattr(self, name, np.array(
        vector(value), dtype=np.float64)))


@register
class Model(_m.Model):
    """Pinocchio's ``Model``: an :class:`rbda.Model` with Pinocchio's names (``addJoint``, ``appendBodyToJoint``,
    ``addFrame``, ``addBodyFrame``, ``getJointId``, ``getFrameId``, ``existJointName``, ``existFrame``,
    ``createData``, ``jointPlacements``, ``lowerPositionLimit``, ``referenceConfigurations``, ...) and its
    serialisation methods, which write rbda's own model file (versioned JSON of plain data) under Pinocchio's
    names: ``saveToText``, ``saveToXML``, ``saveToBinary``, ``saveToString`` and their ``loadFrom*``.

    As in Pinocchio, ``getJointId`` and ``getFrameId`` return ``njoints`` and ``nframes`` for an unknown name.
    """

    def __init__(self, other=None):
        if isinstance(other, _m.Model):
            self.__setstate__(pickle.loads(pickle.dumps(other)).__getstate__())
            self._adopt()
            return
        super().__init__("" if other is None else other)
        self._adopt()

    def _adopt(self) -> None:
        """Show the model's frames, inertias and joint placements as ``rbda.pinocchio`` objects (re-classed in
        place); a frame edited in place then tells the model."""
        ref = weakref.ref(self)
        for name in ("joint_placements", "inertias"):
            for x in self.__dict__.get(name, ()):
                hold(to_pin(x), ref)
        for frame in self.__dict__.get("frames", ()):
            to_pin(frame)
            frame.__dict__["_owner"] = ref

    def _invalidate(self) -> None:
        super()._invalidate()
        self._adopt()

    def __setstate__(self, state) -> None:
        super().__setstate__(state)
        self._adopt()

    # sizes and fields under Pinocchio's names
    jointPlacements = property(lambda self: self.joint_placements, lambda self, v: setattr(self, "joint_placements", v))
    placements = jointPlacements
    lowerPositionLimit = _array_field("lower_position_limit")
    upperPositionLimit = _array_field("upper_position_limit")
    velocityLimit = _array_field("velocity_limit")
    effortLimit = _array_field("effort_limit")
    rotorInertia = property(lambda self: self.armature, lambda self, v: setattr(self, "armature", v))
    referenceConfigurations = property(lambda self: self.reference_configurations)
    idx_qs = property(lambda self: self.idx_q)
    idx_vs = property(lambda self: self.idx_v)
    nvExtended = property(lambda self: self.nv_extended)
    nvExtendeds = property(lambda self: list(self.columns[1]))

    @property
    def gravity(self) -> _ps.Motion:
        """Gravity ``[g; 0]`` as a Motion whose storage is the model's (edits in place are seen)."""
        return to_pin(_m.Model.gravity.fget(self))

    @gravity.setter
    def gravity(self, value) -> None:
        _m.Model.gravity.fset(self, value)

    # building
    def addJoint(self, parent_id, joint_model, joint_placement, joint_name, max_effort=None, max_velocity=None,
                 min_config=None, max_config=None, friction=None, damping=None) -> int:
        return self.add_joint(int(parent_id), joint_model, joint_placement, joint_name,
                              *(None if x is None else vector(x) for x in (max_effort, max_velocity, min_config,
                                                                           max_config, friction, damping)))

    def appendBodyToJoint(self, joint_id, body_inertia, body_placement=None) -> None:
        self.append_body_to_joint(int(joint_id), body_inertia, body_placement)

    def addFrame(self, frame, append_inertia: bool = True) -> int:
        return self.add_frame(frame, append_inertia)

    def addBodyFrame(self, body_name, parentJoint, body_placement=None, previousFrame: int = -1) -> int:
        return self.add_body_frame(body_name, int(parentJoint), body_placement, int(previousFrame))

    def addJointFrame(self, joint_id, frame_id: int = -1) -> int:
        return self.add_joint_frame(int(joint_id), int(frame_id))

    # queries
    def getJointId(self, name: str) -> int:
        return self.names.index(name) if name in self.names else self.njoints

    def existJointName(self, name: str) -> bool:
        return self.exist_joint_name(name)

    def getFrameId(self, name: str, type=None) -> int:
        kind = FrameType(int(FrameType.OP_FRAME | FrameType.JOINT | FrameType.FIXED_JOINT | FrameType.BODY |
                             FrameType.SENSOR)) if type is None else type
        return next((k for k, f in enumerate(self.frames) if f.name == name and f.type & kind), self.nframes)

    def existFrame(self, name: str, type=None) -> bool:
        return self.exist_frame(name, type)

    def getJointIdFromName(self, name: str) -> int:
        return self.getJointId(name)

    def createData(self) -> "Data":
        return Data(self)

    def check(self, data=None) -> bool:
        """Whether the model (and ``data``, if given) are consistent (Pinocchio's answer; rbda's ``check`` raises
        with the reason)."""
        try:
            return _m.Model.check(self, None if data is None else native(data))
        except ValueError:
            return False

    def copy(self) -> "Model":
        return Model(self)

    def __copy__(self) -> "Model":
        return Model(self)

    def __deepcopy__(self, memo) -> "Model":
        return Model(self)

    def __ne__(self, other) -> bool:
        return not self == other

    def appendModel(self, other, frame, placement=None) -> "Model":
        """:func:`rbda.append_model` of ``other`` at ``frame`` of this model, as a new model."""
        return to_pin(_m.append_model(self, other, frame, placement))

    def buildReducedModel(self, joints_to_lock, reference_configuration) -> "Model":
        """:func:`rbda.build_reduced_model` of this model, as a new model."""
        return to_pin(_m.build_reduced_model(self, list(joints_to_lock), vector(reference_configuration)))

    # serialisation: rbda's model file under Pinocchio's names
    def saveToText(self, filename) -> None:
        """Write the model to ``filename`` as rbda's model file (JSON; not Pinocchio's text format)."""
        save_model(self, filename)

    def loadFromText(self, filename) -> None:
        """Read a file written by :meth:`saveToText` (or any of the ``saveTo*``) into this model."""
        self.__setstate__(load_model_file(filename).__getstate__())
        self._invalidate()

    def saveToXML(self, filename, tag_name: str = "model") -> None:
        """As :meth:`saveToText` (the tag name is not used: the file is rbda's model file)."""
        save_model(self, filename)

    def loadFromXML(self, filename, tag_name: str = "model") -> None:
        self.loadFromText(filename)

    saveToBinary, loadFromBinary = saveToText, loadFromText

    def saveToString(self) -> str:
        import os
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "model.json")
            save_model(self, path)
            with open(path, encoding="utf-8") as stream:
                return stream.read()

    def loadFromString(self, text: str) -> None:
        import os
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "model.json")
            with open(path, "w", encoding="utf-8") as stream:
                stream.write(text)
            self.loadFromText(path)

    def __str__(self) -> str:
        lines = [f"Nb joints = {self.njoints} (nq={self.nq},nv={self.nv})"]
        lines += [f"  Joint {i} {self.names[i]}: parent={self.parents[i]}" for i in range(self.njoints)]
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------------------ Data views
class _Views(Sequence):
    """A Pinocchio ``StdVec`` over the rows of one of rbda's arrays: ``make(row)`` gives the item (a view),
    ``store(row, value)`` writes one; Pinocchio's errors for a bad index."""

    __slots__ = ("rows",)
    make = staticmethod(lambda row: row)

    def __init__(self, rows: np.ndarray):
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    def _index(self, i) -> int:
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"Invalid index type: expected an int, got {type(i).__name__}")
        n = len(self.rows)
        if not -n <= i < n:
            raise IndexError(f"Index out of range: {i} for {n} items")
        return int(i) % n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        return self.make(self.rows[self._index(i)])

    def __setitem__(self, i, value) -> None:
        self.rows[self._index(i)] = np.asarray(getattr(value, "vector", value), dtype=np.float64).reshape(
            self.rows.shape[1:])

    def tolist(self) -> list:
        return [self[k] for k in range(len(self))]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({len(self)} items)"


def _motion_view(row):
    m = _ps.Motion.__new__(_ps.Motion)
    _ps._s.motion._SpatialVector.vector.__set__(m, row)
    return m


def _force_view(row):
    f = _ps.Force.__new__(_ps.Force)
    _ps._s.motion._SpatialVector.vector.__set__(f, row)
    return f


class _MotionViews(_Views):
    __slots__ = ()
    make = staticmethod(_motion_view)


class _ForceViews(_Views):
    __slots__ = ()
    make = staticmethod(_force_view)


class _Vector3Views(_Views):
    __slots__ = ()


class _PinSE3Views(_SE3Views):
    """Pinocchio's ``data.oMi``: rbda's placements shown as ``rbda.pinocchio.SE3`` (views)."""

    __slots__ = ()

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
            raise TypeError(f"Invalid index type: expected an int, got {type(i).__name__}")
        if not -len(self) <= i < len(self):
            raise IndexError(f"Index out of range: {i} for {len(self)} placements")
        return to_pin(super().__getitem__(int(i) % len(self)))


def _inertia_of_row(row) -> _ps.Inertia:
    """The inertia of a composite-inertia row ``(m, m c, I_o)`` (``data.oYcrb``)."""
    m, h, Io = row[0], row[1:4], row[4:13].reshape(3, 3)
    c = h / m if m > 0.0 else np.zeros(3)
    C = _ps._s.skew(c)
    return _ps.Inertia(m, c, Io + m * (C @ C))


class _JointData:
    """Pinocchio's ``data.joints[i]``: the joint's placement ``M`` (child frame in the joint's input frame),
    motion subspace ``S`` ``(6, nv_i)`` and velocity ``v``, read from rbda's data."""

    def __init__(self, model, data, i: int):
        nat = native(data)
        self.M = to_pin(model.joint_placements[i].inverse() * nat.liMi[i]) if i else _ps.SE3()
        cols = model.columns
        self.S = nat.S[:, cols[0][i] : cols[0][i] + cols[1][i]].copy() if i else np.zeros((6, 0))
        self.v = _ps.Motion(nat.v[i])


# ------------------------------------------------------------------------------------------------------ Data
_ALIASES = {"staticRegressor": "static_regressor", "jointTorqueRegressor": "joint_torque_regressor",
            "kineticEnergyRegressor": "kinetic_energy_regressor",
            "potentialEnergyRegressor": "potential_energy_regressor", "dtau_dq": "dtau_dq", "dq_after": "dq_after",
            "kinematic_hessians": "kinematic_hessians", "contact_chol": "U", "nvSubtree_fromRow": "dof_parents",
            "dvc_dq": "dvcom_dq", "KA": "constraint_jacobian", "oYaba": "oYaba", "Ycrb": "oYcrb"}


def _typed_field(name: str, typed) -> property:
    """A read-only property: ``typed(data.<name>)`` of the wrapped rbda data."""
    return property(lambda self: typed(getattr(self._data, name)))


class Data:
    """Pinocchio's ``Data``: ``Data(model)`` or ``model.createData()``; see the module docstring. ``copy()`` is an
    independent data; ``==`` compares every field; a data pickles."""

    __slots__ = ("_data", "_model", "_q", "_v", "_a", "__weakref__")

    def __init__(self, model=None):
        object.__setattr__(self, "_data", model.create_data() if model is not None else None)
        object.__setattr__(self, "_model", weakref.ref(model) if model is not None else None)
        for name in ("_q", "_v", "_a"):
            object.__setattr__(self, name, None)

    @classmethod
    def wrap(cls, data, model=None) -> "Data":
        """A ``Data`` over the rbda data ``data``."""
        out = cls()
        object.__setattr__(out, "_data", data)
        object.__setattr__(out, "_model", weakref.ref(model) if model is not None else None)
        return out

    # Pinocchio's typed fields: the rbda data's, read through Pinocchio's types
    oMi, oMf, liMi = (_typed_field(n, lambda x: _PinSE3Views(x.array)) for n in ("oMi", "oMf", "liMi"))
    v, a, a_gf, ov, oa, oa_gf = (_typed_field(n, _MotionViews) for n in ("v", "a", "a_gf", "ov", "oa", "oa_gf"))
    f, of = (_typed_field(n, _ForceViews) for n in ("f", "of"))
    com, vcom, acom = (_typed_field(n, _Vector3Views) for n in ("com", "vcom", "acom"))
    hg, dhg = (_typed_field(n, _force_view) for n in ("hg", "dhg"))
    oYcrb = _typed_field("oYcrb", lambda rows: [_inertia_of_row(r) for r in rows])

    @property
    def Ig(self) -> _ps.Inertia:
        """The centroidal inertia ``[[m 1, 0], [0, I_c]]`` as an Inertia (its lever is zero: it is about the CoM)."""
        Ig = self._data.Ig
        return _ps.Inertia(Ig[0, 0], np.zeros(3), Ig[3:, 3:])

    @property
    def joints(self) -> list:
        model = self._model() if self._model is not None else None
        if model is None:
            raise ValueError("data.joints: the model of this data is gone")
        return [_JointData(model, self, i) for i in range(model.njoints)]

    def __getattr__(self, name):
        data = object.__getattribute__(self, "_data")
        return getattr(data, _ALIASES.get(name, name))

    def __setattr__(self, name, value):
        setattr(self._data, _ALIASES.get(name, name), value)

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(dir(self._data)) | set(_ALIASES))

    def copy(self) -> "Data":
        out = Data.wrap(self._data.copy())
        for name in ("_model", "_q", "_v", "_a"):
            value = getattr(self, name)
            object.__setattr__(out, name, value.copy() if isinstance(value, np.ndarray) else value)
        return out

    __copy__ = copy

    def __deepcopy__(self, memo) -> "Data":
        return self.copy()

    def __eq__(self, other) -> bool:
        if not isinstance(other, Data):
            return NotImplemented
        a, b = self._data, other._data
        return a.model_sizes == b.model_sizes and all(
            (x is None and y is None) or (x is not None and y is not None and np.array_equal(x, y))
            for x, y in ((a.ws, b.ws), (a.wb, b.wb), (a.dws, b.dws)))

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = None

    def __getstate__(self):
        return {"data": self._data, "q": self._q, "v": self._v, "a": self._a}

    def __setstate__(self, state):
        object.__setattr__(self, "_data", state["data"])
        object.__setattr__(self, "_model", None)
        for name in ("q", "v", "a"):
            object.__setattr__(self, "_" + name, state[name])

    def __repr__(self) -> str:
        return f"pinocchio {self._data!r}"


def record(data, q=None, v=None, a=None) -> None:
    """Remember the state of the last call on ``data`` (an ``rbda.pinocchio.Data``), for the forms that reuse a
    filled data; a new configuration forgets the velocity and acceleration unless given with it."""
    if not isinstance(data, Data):
        return
    if q is not None:
        object.__setattr__(data, "_q", np.array(q, dtype=np.float64))
        object.__setattr__(data, "_v", None if v is None else np.array(v, dtype=np.float64))
        object.__setattr__(data, "_a", None if a is None else np.array(a, dtype=np.float64))


def recorded(data, name: str, call: str) -> np.ndarray:
    """The recorded ``q``, ``v`` or ``a`` of ``data``; raises naming the call that fills it when there is none."""
    value = getattr(data, "_" + name, None) if isinstance(data, Data) else None
    if value is None:
        raise ValueError(f"data: this form reuses the data's {name} of an earlier call; call {call} first "
                         "(an rbda.pinocchio.Data records them)")
    return value


# ------------------------------------------------------------------------------------------------------ containers
class _StdVec(list):
    """Pinocchio's ``StdVec_*`` containers: Python lists (of the type their name says)."""


StdVec_Force, StdVec_Motion, StdVec_SE3, StdVec_Inertia, StdVec_Frame, StdVec_Vector3, StdVec_StdString, \
    StdVec_Index, StdVec_Double, StdVec_Bool, StdVec_RigidConstraintModel, StdVec_RigidConstraintData, \
    StdVec_CollisionPair, StdVec_GeometryObject = (
        type(name, (_StdVec,), {"__module__": __name__, "__qualname__": name}) for name in (
            "StdVec_Force", "StdVec_Motion", "StdVec_SE3", "StdVec_Inertia", "StdVec_Frame", "StdVec_Vector3",
            "StdVec_StdString", "StdVec_Index", "StdVec_Double", "StdVec_Bool", "StdVec_RigidConstraintModel",
            "StdVec_RigidConstraintData", "StdVec_CollisionPair", "StdVec_GeometryObject"))


class StdMap_String_VectorXd(MutableMapping):
    """Pinocchio's ``StdMap_String_VectorXd``: a dict of name -> vector (copied on assignment)."""

    def __init__(self, items=()):
        self._items = {}
        self.update(items)

    def __getitem__(self, key):
        return self._items[key]

    def __setitem__(self, key, value):
        self._items[key] = np.array(vector(value), dtype=np.float64)

    def __delitem__(self, key):
        del self._items[key]

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)


# ------------------------------------------------------------------------------------------------------ joints
class JointModelComposite(_joints.JointModelComposite):
    """Pinocchio's ``JointModelComposite``: ``JointModelComposite()``, ``JointModelComposite(n)`` (n reserved,
    empty), ``JointModelComposite(joint[, placement])``; ``addJoint`` returns the composite, ``njoints``,
    ``jointPlacements``."""

    def __init__(self, joint=None, placement=None):
        if joint is None or (isinstance(joint, (int, np.integer)) and not isinstance(joint, bool)):
            super().__init__()
        else:
            super().__init__([joint], [placement if placement is not None else _ps.SE3()])

    def addJoint(self, joint, placement=None) -> "JointModelComposite":
        return self.add_joint(joint, placement)

    njoints = property(lambda self: len(self.joints))
    jointPlacements = property(lambda self: self.placements)
