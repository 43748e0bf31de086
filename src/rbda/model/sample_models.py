"""Sample models: a 6-dof manipulator, a ~30-joint free-flyer humanoid, a model with every joint type, and
random trees for tests. Masses and lengths are plausible for a real robot of each kind."""

from __future__ import annotations

import numpy as np

from ..joints import (
    JointModelComposite,
    JointModelFreeFlyer,
    JointModelHelicalUnaligned,
    JointModelHX,
    JointModelPlanar,
    JointModelPrismaticUnaligned,
    JointModelPX,
    JointModelPY,
    JointModelPZ,
    JointModelRevoluteUnaligned,
    JointModelRevoluteUnboundedUnaligned,
    JointModelRUBZ,
    JointModelRX,
    JointModelRY,
    JointModelRZ,
    JointModelSpherical,
    JointModelSphericalZYX,
    JointModelTranslation,
    JointModelUniversal,
)
from ..spatial import SE3, Inertia, rpy_to_matrix
from .frame import Frame, FrameType
from .model import Model


def _link(model: Model, parent: int, joint, placement: SE3, name: str, inertia: Inertia, **limits) -> int:
    """Add a joint, its JOINT frame, a body and its BODY frame, as a URDF reader would."""
    jid = model.add_joint(parent, joint, placement, name, **limits)
    model.add_joint_frame(jid)
    model.append_body_to_joint(jid, inertia)
    model.add_body_frame(name.replace("_joint", "") + "_link", jid)
    return jid


def _rod(mass: float, length: float, axis: int = 2, radius: float = 0.04) -> Inertia:
    """A cylinder of ``length`` along ``axis`` starting at the joint, CoM at mid-length."""
    Y = Inertia.FromCylinder(mass, radius, length)
    R = np.eye(3)[[(axis + 1) % 3, (axis + 2) % 3, axis]].T  # maps the cylinder's z to ``axis``
    c = np.zeros(3)
    c[axis] = 0.5 * length
    return SE3(R, c).act(Y)


def manipulator() -> Model:
    """A 6-dof anthropomorphic arm (shoulder yaw/pitch, elbow, spherical wrist), 1 m reach, with a tool frame."""
    model = Model("manipulator")
    pi = np.pi
    spec = [  # (joint, placement in parent, link mass, link length, limit)
        (JointModelRZ(), SE3(np.eye(3), [0.0, 0.0, 0.1]), 4.0, 0.25, pi),
        (JointModelRY(), SE3(np.eye(3), [0.0, 0.05, 0.25]), 3.5, 0.40, 2.0),
        (JointModelRY(), SE3(np.eye(3), [0.0, -0.05, 0.40]), 2.5, 0.35, 2.5),
        (JointModelRZ(), SE3(np.eye(3), [0.0, 0.0, 0.35]), 1.2, 0.10, pi),
        (JointModelRY(), SE3(np.eye(3), [0.0, 0.0, 0.10]), 0.8, 0.08, 2.0),
        (JointModelRZ(), SE3(np.eye(3), [0.0, 0.0, 0.08]), 0.4, 0.05, pi),
    ]
    parent = 0
    for k, (joint, placement, mass, length, limit) in enumerate(spec, start=1):
        parent = _link(model, parent, joint, placement, f"joint{k}", _rod(mass, length),
                       max_effort=150.0 / k, max_velocity=3.0, min_config=-limit, max_config=limit)
    model.add_frame(Frame("tool", parent, model.nframes - 1, SE3(np.eye(3), [0.0, 0.0, 0.12]), FrameType.OP_FRAME))
    model.armature = np.full(model.nv, 0.01)
    return model


def humanoid() -> Model:
    """A free-flyer humanoid: pelvis, two 6-dof legs, 2-dof torso, two 7-dof arms, 2-dof head (31 joints,
    nq = 36, nv = 35), about 70 kg."""
    model = Model("humanoid")
    root = _link(model, 0, JointModelFreeFlyer(), SE3(), "root_joint", Inertia.FromBox(10.0, 0.25, 0.35, 0.2))
    for side, y in (("left", 0.1), ("right", -0.1)):
        parent = root
        leg = [(JointModelRZ(), [0.0, y, -0.1], 1.5, 0.05), (JointModelRX(), [0, 0, -0.05], 1.5, 0.05),
               (JointModelRY(), [0, 0, -0.05], 6.0, 0.42), (JointModelRY(), [0, 0, -0.42], 3.5, 0.40),
               (JointModelRY(), [0, 0, -0.40], 1.0, 0.05), (JointModelRX(), [0, 0, -0.05], 1.2, 0.06)]
        for k, (joint, p, mass, length) in enumerate(leg, start=1):
            Y = _rod(mass, length)
            Y = SE3(rpy_to_matrix(np.pi, 0.0, 0.0), np.zeros(3)).act(Y)  # legs hang down
            parent = _link(model, parent, joint, SE3(np.eye(3), p), f"{side}_leg{k}_joint", Y,
                           min_config=-2.0, max_config=2.0)
    torso = _link(model, root, JointModelRZ(), SE3(np.eye(3), [0, 0, 0.12]), "torso1_joint", _rod(2.0, 0.1))
    torso = _link(model, torso, JointModelRY(), SE3(np.eye(3), [0, 0, 0.1]), "torso2_joint", _rod(15.0, 0.45, radius=0.15))
    for side, y in (("left", 0.22), ("right", -0.22)):
        parent = torso
        arm = [(JointModelRY(), [0, y, 0.4], 1.0, 0.05), (JointModelRX(), [0, 0, 0], 1.0, 0.05),
               (JointModelRZ(), [0, 0, 0], 2.0, 0.3), (JointModelRY(), [0, 0, -0.3], 1.2, 0.28),
               (JointModelRZ(), [0, 0, -0.28], 0.5, 0.05), (JointModelRY(), [0, 0, 0], 0.3, 0.05),
               (JointModelRX(), [0, 0, 0], 0.4, 0.1)]
        for k, (joint, p, mass, length) in enumerate(arm, start=1):
            Y = SE3(rpy_to_matrix(np.pi, 0.0, 0.0), np.zeros(3)).act(_rod(mass, length))
            parent = _link(model, parent, joint, SE3(np.eye(3), p), f"{side}_arm{k}_joint", Y,
                           min_config=-2.5, max_config=2.5)
    head = _link(model, torso, JointModelRZ(), SE3(np.eye(3), [0, 0, 0.5]), "head1_joint", _rod(0.5, 0.05))
    _link(model, head, JointModelRY(), SE3(np.eye(3), [0, 0, 0.05]), "head2_joint", Inertia.FromSphere(3.0, 0.1))
    return model


def all_joint_types() -> list:
    """One instance of every joint model (aligned and unaligned variants)."""
    rng = np.random.default_rng(7)
    return [
        JointModelRX(), JointModelRY(), JointModelRZ(), JointModelRevoluteUnaligned(rng.normal(size=3)),
        JointModelRUBZ(), JointModelRevoluteUnboundedUnaligned(rng.normal(size=3)),
        JointModelPX(), JointModelPY(), JointModelPZ(), JointModelPrismaticUnaligned(rng.normal(size=3)),
        JointModelHX(0.05), JointModelHelicalUnaligned(rng.normal(size=3), -0.1),
        JointModelUniversal([1.0, 0.0, 0.0], [0.0, 0.0, 1.0]), JointModelSpherical(), JointModelSphericalZYX(),
        JointModelTranslation(), JointModelPlanar(), JointModelFreeFlyer(),
        JointModelComposite([JointModelPX(), JointModelUniversal([1.0, 0.0, 0.0], [0.0, 0.0, 1.0]), JointModelRY()],
                            [SE3.Random(rng) for _ in range(3)]),
    ]


def every_joint() -> Model:
    """A branching tree that uses every joint type (free-flyer root)."""
    return random_tree(all_joint_types(), rng=np.random.default_rng(3))


def random_tree(joints: list, rng: np.random.Generator | None = None, root=None) -> Model:
    """A tree with the given joints (under ``root`` if given), each attached to a random earlier joint at a random
    placement, with a random physically consistent body; joints are numbered depth-first."""
    rng = np.random.default_rng() if rng is None else rng
    joints = list(joints)
    first = 1 if root is not None else 0
    parents = [int(rng.integers(first, k)) if k > first else 0 for k in range(1, len(joints) + 1)]
    if root is not None:
        joints, parents = [root] + joints, [0] + [p + 1 if p else 1 for p in parents]
    children = [[] for _ in range(len(joints) + 1)]
    for k, p in enumerate(parents, start=1):
        children[p].append(k)
    model = Model("random_tree")
    stack = [(k, 0) for k in reversed(children[0])]
    while stack:  # depth-first: a joint's subtree takes consecutive ids
        k, parent_id = stack.pop()
        jid = _link(model, parent_id, joints[k - 1], SE3.Random(rng), f"j{k}_joint", Inertia.Random(rng))
        stack.extend((c, jid) for c in reversed(children[k]))
    return model
