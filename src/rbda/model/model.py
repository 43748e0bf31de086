"""The kinematic tree: topology, joint models, placements, inertias, limits and frames.

A :class:`Model` is built once (``add_joint``, ``append_body_to_joint``, ``add_frame``) and never modified by the
algorithms. For the compiled kernels it packs itself into two flat arrays (``model/layout.py``), rebuilt
lazily after any change made through its methods or by assigning one of its fields. ``gravity`` and ``armature``
are views into the packed floats, so in-place edits (``model.gravity.linear[:] = 0``) are seen too; the elements
of ``joint_placements``, ``inertias`` and ``frames`` must be *replaced* (``model.inertias[i] = Y``) rather than
edited in place.
"""

from __future__ import annotations

import numpy as np

from ..joints import JointModel, JointModelComposite, JointModelMimic
from ..joints.mimic import MIMIC_TYPES
from ..joints.base import NPARAMS
from .layout import HEADER, JOINT_FLOATS, JOINT_INTS, SUB_INTS
from ..spatial import SE3, Inertia, Motion
from ..spatial._validate import as_array
from .frame import Frame, FrameType

_DEFAULT_GRAVITY = (0.0, 0.0, -9.81)
_PACKED_FIELDS = {"joints", "parents", "joint_placements", "inertias", "frames", "idx_q", "idx_v", "nqs", "nvs"}


class _TrackedList(list):
    """A list that tells its model when an element is replaced, so that the packed arrays are rebuilt."""

    __slots__ = ("_owner",)

    def __init__(self, items, owner):
        super().__init__(items)
        self._owner = owner

    def __setitem__(self, i, value):
        super().__setitem__(i, value)
        self._owner._invalidate()

    def __reduce__(self):
        return (list, (list(self),))


class _Derived:
    """A form derived from the model (its packed arrays, its elementary twin), built on first access by ``build(model)`` and
    then kept in the instance's ``__dict__``, where a plain attribute read finds it (about 20 ns, against 90 for a
    property); any edit of the model drops every derived form (``Model._invalidate``)."""

    def __init__(self, build):
        self.build = build

    def __set_name__(self, owner, name):
        self.name = name
        DERIVED.append(name)

    def __get__(self, model, owner=None):
        if model is None:
            return self
        value = model.__dict__[self.name] = self.build(model)
        return value


def _unknown(kind: str, name, names: list) -> str:
    """The message for a name that is not among ``names``: the closest names, or the first few of them."""
    import difflib

    close = difflib.get_close_matches(str(name), names, n=3, cutoff=0.6)
    if close:
        return f"no {kind} named {name!r}; did you mean {' or '.join(map(repr, close))}?"
    shown = ", ".join(map(repr, names[:8])) + (f", ... ({len(names)} in all)" if len(names) > 8 else "")
    return f"no {kind} named {name!r}; {kind}s are {shown}"


def frame_id_arg(model: "Model", frame_id: int | str, name: str = "frame_id") -> int:
    """``frame_id`` (a frame id, or a frame's name) as the id of a frame of ``model``; the one rule for the frame
    arguments of every function. Raises ``KeyError`` for an unknown name (with the closest names),
    ``ValueError`` for an id out of range, ``TypeError`` for anything else, each naming the argument."""
    if isinstance(frame_id, str):
        names = [f.name for f in model.frames]
        if frame_id in names:
            return names.index(frame_id)
        raise KeyError(f"{name}: {_unknown('frame', frame_id, names)} (model.get_frame_id(name) gives a "
                       "frame's id)")
    if isinstance(frame_id, (bool, np.bool_)) or not isinstance(frame_id, (int, np.integer)):
        raise TypeError(f"{name}: expected a frame id (int) or a frame name (str), got {type(frame_id).__name__}")
    if not 0 <= frame_id < model.nframes:
        raise ValueError(f"{name}: {frame_id} is not a frame id of this model (0..{model.nframes - 1}); "
                         "model.get_frame_id(name) gives a frame's id from its name")
    return int(frame_id)


def _fast_bindings():
    from .data import Bindings

    return Bindings()


DERIVED: list[str] = []  # the names of the derived forms, filled as Model declares them


class Model:
    """A kinematic tree of joints and bodies; joint 0 is the universe.

    Per joint ``i``: ``names[i]``, ``parents[i]``, ``joints[i]`` (the :class:`~rbda.joints.JointModel`, ``None``
    for the universe), ``joint_placements[i]`` (placement of the joint input frame in the parent joint frame),
    ``inertias[i]`` (body inertia in the joint frame), ``idx_q[i]``, ``idx_v[i]``, ``nqs[i]``, ``nvs[i]``.
    Per configuration/velocity entry: position limits ``lower_position_limit``/``upper_position_limit`` (nq),
    ``velocity_limit``, ``effort_limit``, ``armature``, ``damping``, ``friction`` (nv); joint springs
    ``stiffness`` (nv) and their rest configuration ``springref`` (nq): a one-dof joint (``nq = nv = 1``) with
    ``stiffness k > 0`` feels ``-k (q - springref)``, applied by the simulator (as ``damping``; the algorithms
    leave both to the caller). Entries of other joints are 0 (``rbda.Simulator`` refuses a spring on them).

    ``Model(name="")`` is an empty tree (the universe only) called ``name``; add joints with :meth:`add_joint`,
    bodies with :meth:`append_body_to_joint`, frames with :meth:`add_frame`, or read a robot file with
    :func:`rbda.load_model`.
    """

    def __init__(self, name: str = ""):
        self.name = name
        self.names = ["universe"]
        self.parents = [0]
        self.joints = _TrackedList([None], self)
        self.joint_placements = _TrackedList([SE3()], self)
        self.inertias = _TrackedList([Inertia.Zero()], self)
        self.idx_q, self.idx_v, self.nqs, self.nvs = [0], [0], [0], [0]
        self.nq = self.nv = 0
        self.lower_position_limit = np.zeros(0)
        self.upper_position_limit = np.zeros(0)
        self.velocity_limit = np.zeros(0)
        self.effort_limit = np.zeros(0)
        self.damping = np.zeros(0)
        self.friction = np.zeros(0)
        self.stiffness = np.zeros(0)
        self.springref = np.zeros(0)
        self._gravity = np.array([*_DEFAULT_GRAVITY, 0.0, 0.0, 0.0])
        self._armature = np.zeros(0)
        self.frames = _TrackedList([Frame("universe", 0, 0, SE3(), FrameType.FIXED_JOINT)], self)
        self.reference_configurations: dict[str, np.ndarray] = {}
        self.mimicking_joints: list[int] = []  # ids of the mimic joints, and of the joints they mimic
        self.mimicked_joints: list[int] = []
        self.nbodies = 1  # the universe's body, then one per append_body_to_joint (Pinocchio's count)

    # ---------------------------------------------------------------------------------------- sizes
    @property
    def njoints(self) -> int:
        return len(self.joints)


    @property
    def nframes(self) -> int:
        return len(self.frames)

    # ---------------------------------------------------------------------------------------- gravity, armature
    @property
    def gravity(self) -> Motion:
        """Gravity as a :class:`Motion` ``[g; 0]`` whose storage is the model's own (edits in place are seen)."""
        m = Motion.__new__(Motion)
        m.vector = self._gravity
        return m

    @gravity.setter
    def gravity(self, value) -> None:
        g = value.vector if isinstance(value, Motion) else np.asarray(value, dtype=np.float64)
        if g.shape == (3,):
            g = np.concatenate([g, np.zeros(3)])
        self._gravity[:] = as_array(g, (6,), "gravity")

    @property
    def armature(self) -> np.ndarray:
        """Rotor inertia added to the diagonal of M, ``(nv,)`` (a view of the model's storage)."""
        return self._armature

    @armature.setter
    def armature(self, value) -> None:
        self._armature[:] = as_array(value, (self.nv,), "armature")

    # ---------------------------------------------------------------------------------------- building
    def add_joint(
        self,
        parent_id: int,
        joint_model: JointModel,
        joint_placement: SE3,
        joint_name: str,
        max_effort=None,
        max_velocity=None,
        min_config=None,
        max_config=None,
        friction=None,
        damping=None,
    ) -> int:
        """Add the joint ``joint_model`` (a :class:`~rbda.joints.JointModel`) named ``joint_name`` under joint
        ``parent_id``, its input frame at ``joint_placement`` (an :class:`SE3`) in the parent joint's frame; returns
        its id.

        ``max_effort``, ``max_velocity`` (``(nv,)`` or a scalar), ``min_config``, ``max_config`` (``(nq,)`` or a
        scalar) default to infinite limits, ``friction`` and ``damping`` (``(nv,)`` or a scalar) to 0. Raises
        ``TypeError`` for a joint model or placement of the wrong type, ``ValueError`` for an unknown parent, a
        name already taken, NaN limits or limits of the wrong size."""
        if not isinstance(joint_model, JointModel):
            raise TypeError(f"joint_model: expected a JointModel, got {type(joint_model).__name__}")
        if not 0 <= int(parent_id) < self.njoints:
            raise ValueError(f"parent_id: {parent_id} is not a joint id of this model (0..{self.njoints - 1})")
        if not isinstance(joint_placement, SE3):
            raise TypeError(f"joint_placement: expected an SE3, got {type(joint_placement).__name__}")
        if joint_name in self.names:
            raise ValueError(f"joint_name: a joint named {joint_name!r} already exists")
        nq, nv = joint_model.nq, joint_model.nv
        mimicked = self._check_mimic(joint_model, self.njoints) if isinstance(joint_model, JointModelMimic) else None
        if nv == 0 and mimicked is None:
            raise ValueError(f"joint_model: {joint_model!r} has no degree of freedom")

        def per(value, n, default, name):  # limits may be infinite (their default), not NaN
            if value is None:
                return np.full(n, default)
            a = np.asarray(value, dtype=np.float64)
            if a.ndim > 1 or a.size not in (1, n):
                raise ValueError(f"{name}: expected shape ({n},), got {a.shape}")
            if np.isnan(a).any():
                raise ValueError(f"{name}: contains NaN")
            return np.array(np.broadcast_to(a, (n,)))

        limits = (per(max_effort, nv, np.inf, "max_effort"), per(max_velocity, nv, np.inf, "max_velocity"),
                  per(min_config, nq, -np.inf, "min_config"), per(max_config, nq, np.inf, "max_config"),
                  per(friction, nv, 0.0, "friction"), per(damping, nv, 0.0, "damping"))  # checked before any change
        self.names.append(joint_name)
        self.parents.append(int(parent_id))
        self.joints.append(joint_model)
        self.joint_placements.append(joint_placement.copy())
        self.inertias.append(Inertia.Zero())
        self.idx_q.append(self.nq if mimicked is None else self.idx_q[mimicked])  # a mimic joint reads its reference's
        self.idx_v.append(self.nv if mimicked is None else self.idx_v[mimicked])
        if mimicked is not None:
            self.mimicking_joints.append(self.njoints - 1)
            self.mimicked_joints.append(mimicked)
        self.nqs.append(nq)
        self.nvs.append(nv)
        self.nq += nq
        self.nv += nv
        self.effort_limit = np.concatenate([self.effort_limit, limits[0]])
        self.velocity_limit = np.concatenate([self.velocity_limit, limits[1]])
        self.lower_position_limit = np.concatenate([self.lower_position_limit, limits[2]])
        self.upper_position_limit = np.concatenate([self.upper_position_limit, limits[3]])
        self.friction = np.concatenate([self.friction, limits[4]])
        self.damping = np.concatenate([self.damping, limits[5]])
        self.stiffness = np.concatenate([self.stiffness, np.zeros(nv)])
        self.springref = np.concatenate([self.springref, np.zeros(nq)])
        self._armature = np.concatenate([self._armature, np.zeros(nv)])
        self._invalidate()
        return self.njoints - 1

    def _check_mimic(self, joint: JointModelMimic, joint_id: int) -> int:
        """The id of the joint that ``joint`` (to be joint ``joint_id``) mimics, checked."""
        ref = joint.mimicked_id
        if not 0 < ref < self.njoints or ref == joint_id:
            raise ValueError(f"joint_model: mimicked_id {ref} is not the id of another joint of this model")
        if self.joints[ref].type not in MIMIC_TYPES:
            raise ValueError(f"joint_model: joint {ref} ({self.names[ref]!r}, {self.joints[ref]!r}) cannot be mimicked: "
                             "only revolute, prismatic and helical joints can")
        return ref

    @property
    def nv_extended(self) -> int:
        """Size of the extended velocity, one entry per joint dof, mimic joints included (Pinocchio's
        ``nvExtended``); the width of ``data.J``."""
        return self.nv + len(self.mimicking_joints)

    def append_body_to_joint(self, joint_id: int, body_inertia: Inertia, body_placement: SE3 = None) -> None:
        """Rigidly attach a body of inertia ``body_inertia`` (given in its own frame) to joint ``joint_id``, at
        ``body_placement`` in the joint frame; counts it in ``nbodies`` (as Pinocchio does: ``nbodies`` is 1, the
        universe, plus one per appended body; a frame's inertia merged by :meth:`add_frame` is not a body)."""
        self.merge_inertia(joint_id, body_inertia, body_placement)
        self.nbodies += 1

    def merge_inertia(self, joint_id: int, inertia: Inertia, placement: SE3 = None) -> None:
        """Add ``inertia`` (given in its own frame, at ``placement`` in the frame of joint ``joint_id``) to that
        joint's body, without counting a new body: a fixed link or a frame's inertia."""
        self._check_joint_id(joint_id, "joint_id")
        Y = inertia if placement is None else placement.act(inertia)
        self.inertias[joint_id] = self.inertias[joint_id] + Y

    def add_frame(self, frame: Frame, append_inertia: bool = True) -> int:
        """Add ``frame`` (a :class:`Frame`); returns its id (the existing id if a frame of the same name and type
        exists). With ``append_inertia``, the frame's own inertia is added to its parent joint's body."""
        if not isinstance(frame, Frame):
            raise TypeError(f"frame: expected a Frame, got {type(frame).__name__}")
        self._check_joint_id(frame.parent_joint, "frame.parent_joint")
        for k, f in enumerate(self.frames):
            if f.name == frame.name and f.type == frame.type:
                return k
        self.frames.append(frame)
        if append_inertia and (frame.inertia.mass != 0.0 or np.any(frame.inertia.inertia != 0.0)):  # massless may still rotate
            self.merge_inertia(frame.parent_joint, frame.inertia, frame.placement)
        self._invalidate()
        return self.nframes - 1

    def add_joint_frame(self, joint_id: int, previous_frame_id: int = -1) -> int:
        """Add a JOINT frame named after joint ``joint_id``, at the joint frame, after frame ``previous_frame_id``
        (-1: the parent joint's frame); returns its id."""
        self._check_joint_id(joint_id, "joint_id")
        parent_frame = previous_frame_id if previous_frame_id >= 0 else self._parent_frame_of(joint_id)
        return self.add_frame(Frame(self.names[joint_id], joint_id, parent_frame, SE3(), FrameType.JOINT))

    def add_body_frame(self, body_name: str, parent_joint: int, body_placement: SE3 = None, previous_frame: int = -1) -> int:
        """Add a BODY frame ``body_name`` on joint ``parent_joint`` at ``body_placement`` (identity when None) in
        the joint frame, after frame ``previous_frame`` (-1: the joint's own frame); returns its id."""
        parent_frame = previous_frame if previous_frame >= 0 else self._parent_frame_of(parent_joint)
        placement = SE3() if body_placement is None else body_placement
        return self.add_frame(Frame(body_name, parent_joint, parent_frame, placement, FrameType.BODY))

    def _parent_frame_of(self, joint_id: int) -> int:
        for k in range(self.nframes - 1, -1, -1):
            if self.frames[k].parent_joint == self.parents[joint_id] or k == 0:
                return k
        return 0

    # ---------------------------------------------------------------------------------------- queries
    def get_joint_id(self, name: str) -> int:
        """Id of the joint ``name``; raises ``KeyError`` listing the joint names if there is none."""
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(_unknown("joint", name, self.names)) from None

    def exist_joint_name(self, name: str) -> bool:
        """Whether a joint called ``name`` exists."""
        return name in self.names

    def get_frame_id(self, name: str, type: FrameType | None = None) -> int:
        """Id of the frame ``name`` (of ``type`` if given); raises ``KeyError`` with the closest names if
        there is none."""
        for k, f in enumerate(self.frames):
            if f.name == name and (type is None or f.type & type):
                return k
        raise KeyError(_unknown("frame", name, [f.name for f in self.frames if type is None or f.type & type]))

    def exist_frame(self, name: str, type: FrameType | None = None) -> bool:
        """Whether a frame called ``name`` (of ``type``, any type when None) exists."""
        return any(f.name == name and (type is None or f.type & type) for f in self.frames)

    @property
    def dof_parents(self) -> np.ndarray:
        """``(nv,)`` int64, the expanded parent array (Featherstone's ``expandLambda``, 0-based): ``dof_parents[k]``
        is the dof before dof ``k`` on its path to the root (the previous dof of the same joint, or the last dof of
        the parent joint), -1 at the root. The nonzeros of row ``k`` of the factor of ``M`` below the diagonal are
        in the columns ``dof_parents[k]``, ``dof_parents[dof_parents[k]]``, .... With mimic joints, ``M`` has no
        tree sparsity (a mimic joint couples two branches): the dofs form one chain."""
        if self.mimicking_joints:
            return np.arange(self.nv, dtype=np.int64) - 1
        lam = np.empty(self.nv, dtype=np.int64)
        for i in range(1, self.njoints):
            parent, iv = self.parents[i], self.idx_v[i]
            lam[iv] = self.idx_v[parent] + self.nvs[parent] - 1 if parent > 0 else -1
            lam[iv + 1 : iv + self.nvs[i]] = np.arange(iv, iv + self.nvs[i] - 1)
        return lam

    @property
    def children(self) -> list[list[int]]:
        """``children[i]``: the joints whose parent is ``i``, in id order."""
        out = [[] for _ in range(self.njoints)]
        for i in range(1, self.njoints):
            out[self.parents[i]].append(i)
        return out

    @property
    def supports(self) -> list[list[int]]:
        """``supports[i]``: the joints from the universe to ``i``, both included."""
        out = [[0]]
        for i in range(1, self.njoints):
            out.append(out[self.parents[i]] + [i])
        return out

    @property
    def subtrees(self) -> list[list[int]]:
        """``subtrees[i]``: ``i`` and every joint below it, in id order."""
        out = [[i] for i in range(self.njoints)]
        for i in range(self.njoints - 1, 0, -1):
            out[self.parents[i]] += out[i]
        return [sorted(s) for s in out]

    def create_data(self):
        """A new :class:`~rbda.model.Data` workspace for this model."""
        from .data import Data

        return Data(self)

    def check(self, data=None) -> bool:
        """Raise ``ValueError`` on an inconsistent model (or data); returns True otherwise."""
        nj = self.njoints
        for name, seq in (("names", self.names), ("parents", self.parents), ("joint_placements", self.joint_placements),
                          ("inertias", self.inertias), ("idx_q", self.idx_q), ("idx_v", self.idx_v)):
            if len(seq) != nj:
                raise ValueError(f"model.{name}: has {len(seq)} entries for {nj} joints")
        for i in range(1, nj):
            if not 0 <= self.parents[i] < i:
                raise ValueError(f"model.parents[{i}] = {self.parents[i]}: a parent must come before its child")
            if isinstance(self.joints[i], JointModelMimic):
                ref = self._check_mimic(self.joints[i], i)
                if (self.idx_q[i], self.idx_v[i], self.nqs[i], self.nvs[i]) != (self.idx_q[ref], self.idx_v[ref], 0, 0):
                    raise ValueError(f"model.idx_q/idx_v[{i}]: a mimic joint takes the indices of joint {ref}")
            elif self.idx_q[i] != sum(self.nqs[:i]) or self.idx_v[i] != sum(self.nvs[:i]):
                raise ValueError(f"model.idx_q/idx_v[{i}]: inconsistent with nqs/nvs")
        mimics = [i for i in range(1, nj) if isinstance(self.joints[i], JointModelMimic)]
        if mimics != list(self.mimicking_joints) or [self.joints[i].mimicked_id for i in mimics] != list(self.mimicked_joints):
            raise ValueError("model.mimicking_joints/mimicked_joints: inconsistent with the mimic joints of model.joints")
        if (self.nq, self.nv) != (sum(self.nqs), sum(self.nvs)):
            raise ValueError("model.nq/nv: inconsistent with nqs/nvs")
        for name, arr, n in (("lower_position_limit", self.lower_position_limit, self.nq),
                             ("upper_position_limit", self.upper_position_limit, self.nq),
                             ("velocity_limit", self.velocity_limit, self.nv), ("effort_limit", self.effort_limit, self.nv),
                             ("armature", self.armature, self.nv), ("damping", self.damping, self.nv),
                             ("friction", self.friction, self.nv), ("stiffness", self.stiffness, self.nv),
                             ("springref", self.springref, self.nq)):
            if np.shape(arr) != (n,):
                raise ValueError(f"model.{name}: expected shape ({n},), got {np.shape(arr)}")
        for k, f in enumerate(self.frames):
            if not 0 <= f.parent_joint < nj:
                raise ValueError(f"model.frames[{k}] ({f.name!r}): parent_joint {f.parent_joint} out of range")
        if data is not None and data.model_sizes != (nj, self.nv, self.nframes):
            raise ValueError("data: was created for a model of other sizes; call model.create_data() again")
        return True

    # ---------------------------------------------------------------------------------------- packing
    def _invalidate(self) -> None:
        bindings = self.__dict__.get("fast_bindings")
        if bindings is not None:  # the fast entries bound to the packed arrays fall back, then bind again
            bindings.unbind()
        for name in DERIVED:
            self.__dict__.pop(name, None)

    def __setattr__(self, name, value):
        if name in ("joints", "joint_placements", "inertias", "frames") and not isinstance(value, _TrackedList):
            value = _TrackedList(value, self)
        super().__setattr__(name, value)
        if name in _PACKED_FIELDS:
            self._invalidate()

    # ---------------------------------------------------------------------------------------- derived forms
    def _elementary(self):
        from .elementary import elementary_model

        return elementary_model(self)

    def _columns(self):
        from .layout import model_views_py

        m = model_views_py(*self.packed)
        mimic = m.nq_mimic > 0
        return (np.array(m.idx_v), np.array(m.nvs), np.array(m.v_col) if mimic else None,
                np.array(m.v_scale) if mimic else None)

    #: ``(idx_v, nvs, col, scale)``: per joint its first column and number of columns in ``data.J`` (one per joint
    #: dof, mimic joints included), and with mimic joints, per column of ``data.J`` the model dof it moves and the
    #: scale (``J = J_ext G``, ``G[k, col[k]] = scale[k]``; None without)
    columns = _Derived(_columns)
    #: ``(I, F)``, the flat int64 and float64 arrays the kernels read (``model/layout.py``)
    packed = _Derived(lambda model: model._pack())
    #: ``(model_e, last)``: the elementary twin, whose joints all have constant motion subspaces (``model/elementary.py``)
    elementary = _Derived(_elementary)
    #: the data whose fast entries are bound to the packed arrays, and their token (``data.Bindings``)
    fast_bindings = _Derived(lambda model: _fast_bindings())

    def _fast_entries(self):
        from .data import ModelFastEntries

        return ModelFastEntries()

    #: the fast entries of the functions that take no data (``data.ModelFastEntries``), bound at their first call;
    #: read on a model passed where a data belongs, every entry is the ordinary path, which names the mistake
    fast_entries = _Derived(_fast_entries)

    #: values that the upper layers derive from the model and keep (e.g. the neutral configuration), by name
    derived_values = _Derived(lambda model: {})

    def _frame_supported_inertias(self):
        out, count = np.zeros((self.nframes, 16)), np.ones(self.nframes, dtype=int)
        for k in range(self.nframes - 1, -1, -1):  # a frame after the frame it hangs from: summed before it is added
            frame = self.frames[k]
            Y = frame.placement.act(frame.inertia)  # in the joint frame
            out[k, :13] += np.concatenate([[Y.mass], Y.mass * Y.lever, Y.inertia_about_origin().ravel()])
            out[k, 13:] = Y.lever if count[k] == 1 else 0.0
            p = frame.parent_frame
            if p < k and self.frames[p].parent_joint == frame.parent_joint:
                out[p, :13] += out[k, :13]
                count[p] += count[k]
        return out

    #: ``(nframes, 16)`` (the kernels read it; not to be written): per frame, the inertia of the frame and of the
    #: frames that hang from it on the same joint (``parent_frame`` chain, later ids), in the joint frame as
    #: ``(m, m c, I_o)`` (the packed layout; Pinocchio's part of a body that a frame supports), then the point a
    #: massless sum is centred at (the frame's own centre if it has no such frame, else the joint's origin, as
    #: Pinocchio's sum of inertias keeps it)
    frame_supported_inertias = _Derived(_frame_supported_inertias)

    def _masses(self):
        total = float(sum(Y.mass for Y in self.inertias[1:]))
        subtree = np.array([float(Y.mass) for Y in self.inertias])
        subtree[0] = 0.0
        for i in range(self.njoints - 1, 0, -1):  # children after their parent: each subtree summed before it is added
            subtree[self.parents[i]] += subtree[i]
        subtree.flags.writeable = False
        return total, subtree

    #: ``(total, subtree)``: the total mass (a float, summed over the bodies in id order) and the mass of every
    #: subtree ``(njoints,)`` (read-only; entry 0 the total, summed child by child)
    masses = _Derived(_masses)

    def _pack(self) -> tuple[np.ndarray, np.ndarray]:
        self.check()
        if self.mimicking_joints:
            return self._pack_mimic()
        nj, nf = self.njoints, self.nframes
        subs = [(i, table) for i, j in enumerate(self.joints) if isinstance(j, JointModelComposite) for table in [j.table()]]
        ns = sum(len(table[0]) for _, table in subs)
        I = np.zeros(HEADER + JOINT_INTS * nj + nf + SUB_INTS * ns + self.nv, dtype=np.int64)
        I[:HEADER] = nj, self.nq, self.nv, nf, ns, self.nq, self.nv
        T = I[HEADER : HEADER + JOINT_INTS * nj].reshape(nj, JOINT_INTS)
        T[:, 0], T[:, 2], T[:, 3], T[:, 4], T[:, 5] = self.parents, self.idx_q, self.idx_v, self.nqs, self.nvs
        T[1:, 1] = [int(j.type) for j in self.joints[1:]]
        I[HEADER + JOINT_INTS * nj : HEADER + JOINT_INTS * nj + nf] = [f.parent_joint for f in self.frames]
        sub_ints = I[HEADER + JOINT_INTS * nj + nf : HEADER + JOINT_INTS * nj + nf + SUB_INTS * ns].reshape(ns, SUB_INTS)
        I[HEADER + JOINT_INTS * nj + nf + SUB_INTS * ns :] = self.dof_parents

        F = np.zeros(6 + self.nv + JOINT_FLOATS * nj + 12 * nf + (12 + NPARAMS) * ns)
        F[:6] = self._gravity
        F[6 : 6 + self.nv] = self._armature
        o = 6 + self.nv
        placements = F[o : o + 12 * nj].reshape(nj, 3, 4)
        inertias = F[o + 12 * nj : o + 25 * nj].reshape(nj, 13)
        params = F[o + 25 * nj : o + JOINT_FLOATS * nj].reshape(nj, NPARAMS)
        frame_placements = F[o + JOINT_FLOATS * nj : o + JOINT_FLOATS * nj + 12 * nf].reshape(nf, 3, 4)
        for i in range(nj):
            M, Y = self.joint_placements[i], self.inertias[i]
            placements[i] = np.column_stack([M.rotation, M.translation])
            inertias[i] = np.concatenate([[Y.mass], Y.mass * Y.lever, Y.inertia_about_origin().ravel()])
            if i > 0:
                params[i] = self.joints[i].params
        for k, f in enumerate(self.frames):
            frame_placements[k] = np.column_stack([f.placement.rotation, f.placement.translation])
        o += JOINT_FLOATS * nj + 12 * nf
        sub_placements = F[o : o + 12 * ns].reshape(ns, 3, 4)
        sub_params = F[o + 12 * ns :].reshape(ns, NPARAMS)
        row = 0
        for i, (types, nqs, nvs, params, placements) in subs:  # composite joints: their sub-joint table
            K = len(types)
            T[i, 6], T[i, 7] = row, K
            sub_ints[row : row + K] = np.column_stack([types, nqs, nvs])
            sub_params[row : row + K], sub_placements[row : row + K] = params, placements
            row += K
        # gravity and armature live in the packed floats from now on, so that in-place edits reach the kernels
        self.__dict__["_gravity"] = F[:6]
        self.__dict__["_armature"] = F[6 : 6 + self.nv]
        return I, F

    def _pack_mimic(self) -> tuple[np.ndarray, np.ndarray]:
        """The packed arrays of a model with mimic joints: the tree with one coordinate per joint dof (the tables of
        the tree with its mimic joints freed, ``model/mimic.py``: the kernels' recursion runs over ``nv_extended``
        columns, as Pinocchio's), the model's sizes in the header, then the map from the model's ``q``, ``v`` to the
        extended ones (``model/layout.py``) and the model's armature, which the kernels add to the model's dofs."""
        from .mimic import free_mimic_joints

        ext, mm = free_mimic_joints(self)
        Ie, Fe = ext._pack()
        col = np.argmax(mm.G != 0.0, axis=1)  # the model dof of each extended column, and its scale
        I = np.concatenate([Ie, mm.q_src, col, mm.keep_v]).astype(np.int64)
        I[5], I[6] = self.nq, self.nv
        dof_parents = len(Ie) - ext.nv  # the freed tree's packed ints end with its dof_parents: the model's M's instead
        I[dof_parents : dof_parents + self.nv] = self.dof_parents
        F = np.concatenate([Fe, mm.q_scale, mm.q_offset, mm.G[np.arange(len(col)), col], self._armature])
        F[6 : 6 + ext.nv] = 0.0  # the armature acts on the model's dofs, after the mimic joints' accumulate
        self.__dict__["_gravity"] = F[:6]
        self.__dict__["_armature"] = F[len(F) - self.nv :]
        return I, F

    def __getattr__(self, name):  # only reached for a missing attribute: a Model passed where a Data belongs
        from .data import DATA_ATTRIBUTES, ArgumentOrderError

        if name in DATA_ATTRIBUTES:
            raise ArgumentOrderError("data: expected an rbda.Data (model.create_data()), got a Model; the algorithms "
                                     "take (model, data, ...)")
        raise AttributeError(f"'Model' object has no attribute {name!r}")

    # ---------------------------------------------------------------------------------------- equality, pickling
    def __eq__(self, other) -> bool:
        if not isinstance(other, Model):
            return NotImplemented
        same_arrays = all(
            np.array_equal(getattr(self, k), getattr(other, k))
            for k in ("lower_position_limit", "upper_position_limit", "velocity_limit", "effort_limit", "damping",
                      "friction", "stiffness", "springref", "armature", "_gravity")
        )
        return (
            same_arrays
            and (self.name, self.names, list(self.parents), self.nq, self.nv) == (other.name, other.names, list(other.parents), other.nq, other.nv)
            and list(self.joints) == list(other.joints)
            and list(self.joint_placements) == list(other.joint_placements)
            and list(self.inertias) == list(other.inertias)
            and list(self.frames) == list(other.frames)
            and self.reference_configurations.keys() == other.reference_configurations.keys()
            and all(np.array_equal(v, other.reference_configurations[k]) for k, v in self.reference_configurations.items())
        )

    __hash__ = None

    def __getstate__(self):
        state = dict(self.__dict__)
        for name in DERIVED:
            state.pop(name, None)
        state["_gravity"] = np.array(self._gravity)
        state["_armature"] = np.array(self._armature)
        for k in ("joints", "joint_placements", "inertias", "frames"):
            state[k] = list(state[k])
        return state

    def __setstate__(self, state):
        for name in ("_packed_cache", "_elementary", "_extended"):  # derived caches of pickles of earlier versions
            state.pop(name, None)
        self.__dict__.update(state)
        self.__dict__.setdefault("mimicking_joints", [])
        self.__dict__.setdefault("mimicked_joints", [])
        self.__dict__.setdefault("stiffness", np.zeros(self.nv))  # files and pickles without joint springs
        self.__dict__.setdefault("springref", np.zeros(self.nq))
        self.__dict__.setdefault("nbodies", len(state["joints"]))
        for k in ("joints", "joint_placements", "inertias", "frames"):
            self.__dict__[k] = _TrackedList(state[k], self)

    def __repr__(self) -> str:
        return f"Model(name={self.name!r}, njoints={self.njoints}, nq={self.nq}, nv={self.nv}, nframes={self.nframes})"

    def _check_joint_id(self, joint_id: int, name: str) -> None:
        if not (isinstance(joint_id, (int, np.integer)) and 0 <= joint_id < self.njoints):
            raise ValueError(f"{name}: {joint_id!r} is not a joint id of this model (0..{self.njoints - 1})")
