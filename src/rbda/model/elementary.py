"""The elementary twin of a model: the same tree with every joint whose motion subspace moves with ``q``
(universal, spherical-ZYX, composite) split into a chain of joints whose subspace is constant in their own frame
(massless between them).

The twin has the same ``q``, ``v``, dynamics and tangent space; the derivative kernels, which need constant
subspaces, run on it. ``last[i]`` is the joint of the twin that carries the body of joint ``i``.
"""

from __future__ import annotations

import numpy as np

from ..joints import JointModelRevoluteUnaligned, JointModelRX, JointModelRY, JointModelRZ, JointType
from ..spatial import SE3

MOVING_SUBSPACE = (JointType.UNIVERSAL, JointType.SPHERICAL_ZYX, JointType.COMPOSITE)


def elementary_chain(joint, placement) -> list:
    """``[(joint, placement), ...]``: ``joint`` at ``placement`` as a chain of joints with constant subspaces."""
    if joint.type == JointType.UNIVERSAL:
        p = joint.params
        return [(JointModelRevoluteUnaligned(p[0:3]), placement), (JointModelRevoluteUnaligned(p[3:6]), SE3())]
    if joint.type == JointType.SPHERICAL_ZYX:
        return [(JointModelRZ(), placement), (JointModelRY(), SE3()), (JointModelRX(), SE3())]
    if joint.type == JointType.COMPOSITE:
        chain = []
        for k, (sub, P) in enumerate(zip(joint.joints, joint.placements)):
            chain += elementary_chain(sub, placement * P if k == 0 else P)
        return chain
    return [(joint, placement)]


def elementary_model(model) -> tuple:
    """``(model_e, last)``: the elementary twin of ``model`` (``model`` itself when no joint needs splitting) and,
    per joint of ``model``, the id of the joint of ``model_e`` that carries its body. Read it as
    ``model.elementary``, which builds it once per change of the model."""
    if not any(j is not None and j.type in MOVING_SUBSPACE for j in model.joints):
        return model, np.arange(model.njoints)
    if model.mimicking_joints:  # the twin of the tree with the mimic joints freed, whose mimic joints are set again
        from .mimic import free_mimic_joints
        from .surgery import transform_joint_into_mimic

        me, last = elementary_model(free_mimic_joints(model)[0])
        for i, ref in zip(model.mimicking_joints, model.mimicked_joints):
            me = transform_joint_into_mimic(me, int(last[ref]), int(last[i]), model.joints[i].scaling,
                                            model.joints[i].offset)
        me.armature = model.armature.copy()
        me.gravity = model.gravity
        return me, last
    from .model import Model

    me = Model(model.name)
    last = [0]
    for i in range(1, model.njoints):
        parent = last[model.parents[i]]
        chain = elementary_chain(model.joints[i], model.joint_placements[i])
        for k, (joint, placement) in enumerate(chain):
            name = model.names[i] if k == len(chain) - 1 else f"{model.names[i]}/{k}"
            parent = me.add_joint(parent, joint, placement, name)
        me.inertias[parent] = model.inertias[i]
        last.append(parent)
    me.armature = model.armature.copy()
    me.gravity = model.gravity
    return me, np.array(last)


def sync_elementary(model) -> tuple:
    """``model.elementary`` with the model's current gravity and armature (both may be edited in place)."""
    me, last = model.elementary
    if me is not model:
        me.gravity.vector[:] = model.gravity.vector
        me.armature[:] = model.armature
    return me, last
