"""Pinocchio's ``RobotWrapper``: a model, its collision and visual geometry, their data and shortcuts to the
common algorithms, over ``rbda.pinocchio``."""

from __future__ import annotations

import numpy as np

from . import algorithms as _alg
from . import geometry as _geo
from . import parsers as _parsers
from .model import Model
from .spatial import Force


class RobotWrapper:
    """``RobotWrapper(model, collision_model=None, visual_model=None)``, or ``RobotWrapper.BuildFromURDF``,
    ``BuildFromMJCF``, ``BuildFromSDF``. Fields ``model``, ``data``, ``collision_model``, ``visual_model``,
    their data, ``q0`` (the neutral configuration), ``nq``, ``nv``, ``viz``."""

    def __init__(self, model=None, collision_model=None, visual_model=None, verbose: bool = False):
        self.initFromData(model if model is not None else Model(), collision_model, visual_model)

    def initFromData(self, model, collision_model=None, visual_model=None, verbose: bool = False) -> None:
        self.model, self.collision_model, self.visual_model = model, collision_model, visual_model
        self.data = model.createData()
        self.collision_data = collision_model.createData() if collision_model is not None else None
        self.visual_data = visual_model.createData() if visual_model is not None else None
        self.v0 = np.zeros(model.nv)
        self.q0 = _alg.neutral(model)
        self.viz = None

    @classmethod
    def BuildFromURDF(cls, filename, package_dirs=None, root_joint=None, root_joint_name: str = "root_joint",
                      verbose: bool = False, meshLoader=None) -> "RobotWrapper":
        model, collision, visual = _parsers.buildModelsFromUrdf(filename, package_dirs, root_joint,
                                                                root_joint_name=root_joint_name)
        return cls(model, collision, visual)

    @classmethod
    def BuildFromMJCF(cls, filename, root_joint=None, root_joint_name: str = "root_joint", verbose: bool = False,
                      meshLoader=None) -> "RobotWrapper":
        args = () if root_joint is None else (root_joint, root_joint_name)
        model, collision, visual = _parsers.buildModelsFromMJCF(filename, *args)
        return cls(model, collision, visual)

    @classmethod
    def BuildFromSDF(cls, filename, package_dirs=None, root_joint=None, root_link_name: str = "",
                     parent_guidance=(), verbose: bool = False, meshLoader=None,
                     root_joint_name: str = "root_joint") -> "RobotWrapper":
        model = _parsers.buildModelFromSdf(filename, root_joint, root_link_name, parent_guidance,
                                           root_joint_name=root_joint_name)
        return cls(model)

    nq = property(lambda self: self.model.nq)
    nv = property(lambda self: self.model.nv)

    def rebuildData(self) -> None:
        self.data = self.model.createData()
        if self.collision_model is not None:
            self.collision_data = self.collision_model.createData()
        if self.visual_model is not None:
            self.visual_data = self.visual_model.createData()

    # shortcuts
    def mass(self, q):
        return _alg.crba(self.model, self.data, q)

    def nle(self, q, v):
        return _alg.nonLinearEffects(self.model, self.data, q, v)

    def gravity(self, q):
        return _alg.computeGeneralizedGravity(self.model, self.data, q)

    def com(self, q=None, v=None, a=None):
        if q is None:
            _alg.centerOfMass(self.model, self.data)
            return self.data.com[0]
        if v is None:
            return _alg.centerOfMass(self.model, self.data, q)
        _alg.centerOfMass(self.model, self.data, q, v, *(() if a is None else (a,)))
        return (self.data.com[0].copy(), self.data.vcom[0].copy()) if a is None else (
            self.data.com[0].copy(), self.data.vcom[0].copy(), self.data.acom[0].copy())

    def vcom(self, q, v):
        _alg.centerOfMass(self.model, self.data, q, v)
        return self.data.vcom[0].copy()

    def acom(self, q, v, a):
        _alg.centerOfMass(self.model, self.data, q, v, a)
        return self.data.acom[0].copy()

    def centroidalMomentum(self, q, v) -> Force:
        return _alg.computeCentroidalMomentum(self.model, self.data, q, v)

    def centroidalMap(self, q):
        return _alg.computeCentroidalMap(self.model, self.data, q)

    def centroidal(self, q, v):
        _alg.ccrba(self.model, self.data, q, v)
        return self.data.hg, self.data.Ag.copy(), self.data.Ig

    def centroidalMomentumVariation(self, q, v, a) -> Force:
        return _alg.computeCentroidalMomentumTimeVariation(self.model, self.data, q, v, a)

    def Jcom(self, q):
        return _alg.jacobianCenterOfMass(self.model, self.data, q)

    def computeJointJacobians(self, q):
        return _alg.computeJointJacobians(self.model, self.data, q)

    def updateGeometryPlacements(self, q=None, visual: bool = False):
        gm, gd = (self.visual_model, self.visual_data) if visual else (self.collision_model, self.collision_data)
        _geo.updateGeometryPlacements(self.model, self.data, gm, gd, q)

    def framesForwardKinematics(self, q):
        _alg.framesForwardKinematics(self.model, self.data, q)

    def forwardKinematics(self, q, v=None, a=None):
        _alg.forwardKinematics(self.model, self.data, q, v, a)

    def _after_kinematics(self, update_kinematics: bool, state: tuple, reader, index, reference_frame):
        """``reader(model, data, index, reference_frame)``, after the forward kinematics at ``state`` ``(q, v[, a])``
        if ``update_kinematics``."""
        if update_kinematics:
            _alg.forwardKinematics(self.model, self.data, *state)
        return reader(self.model, self.data, index, reference_frame)

    def placement(self, q, index, update_kinematics: bool = True):
        if update_kinematics:
            _alg.forwardKinematics(self.model, self.data, q)
        return self.data.oMi[index]

    def velocity(self, q, v, index, update_kinematics: bool = True, reference_frame=_alg.LOCAL):
        return self._after_kinematics(update_kinematics, (q, v), _alg.getVelocity, index, reference_frame)

    def acceleration(self, q, v, a, index, update_kinematics: bool = True, reference_frame=_alg.LOCAL):
        return self._after_kinematics(update_kinematics, (q, v, a), _alg.getAcceleration, index, reference_frame)

    def classicalAcceleration(self, q, v, a, index, update_kinematics: bool = True, reference_frame=_alg.LOCAL):
        return self._after_kinematics(update_kinematics, (q, v, a), _alg.getClassicalAcceleration,
                                     index, reference_frame)

    def framePlacement(self, q, index, update_kinematics: bool = True):
        if update_kinematics:
            _alg.forwardKinematics(self.model, self.data, q)
        return _alg.updateFramePlacement(self.model, self.data, index)

    def frameVelocity(self, q, v, index, update_kinematics: bool = True, reference_frame=_alg.LOCAL):
        return self._after_kinematics(update_kinematics, (q, v), _alg.getFrameVelocity, index, reference_frame)

    def frameAcceleration(self, q, v, a, index, update_kinematics: bool = True, reference_frame=_alg.LOCAL):
        return self._after_kinematics(update_kinematics, (q, v, a), _alg.getFrameAcceleration, index, reference_frame)

    def frameClassicalAcceleration(self, q, v, a, index, update_kinematics: bool = True,
                                   reference_frame=_alg.LOCAL):
        return self._after_kinematics(update_kinematics, (q, v, a), _alg.getFrameClassicalAcceleration,
                                     index, reference_frame)

    def computeJointJacobian(self, q, index):
        return _alg.computeJointJacobian(self.model, self.data, q, index)

    def getJointJacobian(self, index, rf_frame=_alg.LOCAL):
        return _alg.getJointJacobian(self.model, self.data, index, rf_frame)

    def computeFrameJacobian(self, q, frame_id):
        return _alg.computeFrameJacobian(self.model, self.data, q, frame_id)

    def getFrameJacobian(self, frame_id, rf_frame=_alg.LOCAL):
        return _alg.getFrameJacobian(self.model, self.data, frame_id, rf_frame)

    def getFrameId(self, name: str):
        return self.model.getFrameId(name)

    def getJointId(self, name: str):
        return self.model.getJointId(name)

    def index(self, name: str):
        return self.model.getJointId(name)

    # viewer
    def setVisualizer(self, visualizer, init: bool = True, copy_models: bool = False) -> None:
        self.viz = visualizer

    def initViewer(self, *args, **kwargs) -> None:
        from .visualize import MeshcatVisualizer

        if self.viz is None:
            self.viz = MeshcatVisualizer(self.model, self.collision_model, self.visual_model)
        self.viz.initViewer(*args, **kwargs)

    def loadViewerModel(self, *args, **kwargs) -> None:
        self.viz.loadViewerModel(*args, **kwargs)

    def display(self, q) -> None:
        self.viz.display(q)

    def displayCollisions(self, visibility: bool) -> None:
        self.viz.displayCollisions(visibility)

    def displayVisuals(self, visibility: bool) -> None:
        self.viz.displayVisuals(visibility)

    def play(self, q_trajectory, dt: float) -> None:
        self.viz.play(q_trajectory, dt)
