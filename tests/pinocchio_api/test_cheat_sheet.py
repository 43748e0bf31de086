"""Every line of the Python cheat sheet of the Pinocchio lecture ("Pinocchio Cheat Sheet", in the lecture
"Simulation #1: rigid body dynamic models and algorithms") run as written through ``rbda.pinocchio``, each
checked against Pinocchio 4.1 on the same robot file and state.

A row is ``(the cheat sheet's line, the statement that runs it, the expression compared)``; optional arguments in
brackets are run with and without. Both libraries read example-robot-data's UR5 on a free-flyer, so their models
are the same; collision geometry is built from the same primitive shapes in both. Pinocchio 4.1's Python functions return views of its data (``computeRNEADerivatives``, ``computeMinverse``): its
side copies them at once; its ``computeMinverse(model, data)`` fills the upper triangle only, and is right only after
``aba(..., Convention.WORLD)`` (after the default ``aba`` it is not M^-1): its side does both. The frame derivatives are compared in ``LOCAL`` and ``WORLD``; in ``LOCAL_WORLD_ALIGNED`` Pinocchio 4.1's
``dv/dq`` is not the derivative of the velocity it returns (:func:`test_frame_derivatives_local_world_aligned`
checks rbda's against finite differences). Where Pinocchio 4.1 lacks the name the cheat sheet uses (``pin.se3ToXYZQUAT``, ``pin.squareDistance``, ``model.placements``,
``model.appendModel``, ``model.buildReducedModel``, ``pin.buildModelFromSdf``), the row names the 4.1 spelling it is
compared with. The rows that cannot run in either library are in :data:`NOT_RUN`, with the reason.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import rbda
import rbda.pinocchio as rpin

from tests.io.urdf_samples import robots_dir  # example-robot-data's robots folder, or a skip

NOT_RUN = {
    "documentation pin.Model?": "IPython's help syntax, not Python",
    "BroadPhase pin.computeCollisions(broadphase_manager, callback)": "needs coal's broad-phase managers",
    "pin.computeCollisions(broadphase_manager, stop_at_first_collision)": "needs coal's broad-phase managers",
    "pin.computeCollisions(model, data, broadphase_manager, q, stop_at_first_collision)":
        "needs coal's broad-phase managers",
    "sphere viz.viewer[name].set_object(meshcat.geometry.Sphere(size), material)":
        "needs the meshcat package (not installed; rbda's viewer is viser's)",
    "box viz.viewer[name].set_object(meshcat.geometry.Box([sizex, sizey, sizez]), material)":
        "needs the meshcat package",
    "change placement of geometry [name] viz.viewer[name].set_transform(meshcat_transform(xyzquat_placement))":
        "needs the meshcat package",
}


def _ur5() -> str:
    return str(robots_dir() / "ur_description" / "urdf" / "ur5_robot.urdf")


SETUP = """
import numpy as np
model = pin.buildModelFromUrdf(URDF, pin.JointModelFreeFlyer())
data = model.createData()
frame_id, joint_id, ref_frame = model.getFrameId("tool0"), model.njoints - 1, pin.LOCAL_WORLD_ALIGNED
placement = pin.SE3(RPY(0.1, 0.2, 0.3), np.array([0.05, 0.0, 0.1]))
aRb, apb = RPY(0.3, -0.2, 0.5), np.array([0.1, 0.2, 0.3])
aMb, bMc = pin.SE3(aRb, apb), pin.SE3(RPY(-0.4, 0.1, 0.2), np.array([-0.2, 0.1, 0.0]))
M = aMb
v_, w_, l_, n_ = np.array([0.1, -0.2, 0.3]), np.array([0.4, 0.5, -0.6]), np.array([1.0, 2.0, 3.0]), np.array([-1.0, 0.5, 0.2])
vb, fb = pin.Motion(v_, w_), pin.Force(l_, n_)
mass, com, I = 2.0, np.array([0.1, 0.0, -0.1]), np.diag([0.1, 0.2, 0.3])
R, angle, axis = aRb, 0.7, np.array([0.0, 0.6, 0.8])
vec = np.array([0.1, 0.2, 0.3, 0.0, 0.0, np.sin(0.35), np.cos(0.35)])
lower_bound, upper_bound = -np.ones(model.nq), np.ones(model.nq)
f_ext = [pin.Force(np.full(6, 0.1 * k)) for k in range(model.njoints)]
geometry_model = pin.GeometryModel()
for k, (j, r) in enumerate([(3, 0.08), (4, 0.06), (5, 0.05), (7, 0.05), (0, 0.1)]):
    geometry_model.addGeometryObject(pin.GeometryObject(f"ball{k}", j, 0, pin.SE3(np.eye(3), np.array([0.0, 0.05 * k, 0.1])), BALL(r)))
geometry_model.addAllCollisionPairs()
geometry_data = pin.GeometryData(geometry_model)
collision_model = visual_model = geometry_model
pair_index = 1
contact_models = [pin.RigidConstraintModel(pin.ContactType.CONTACT_6D, model, joint_id, placement),
                  pin.RigidConstraintModel(pin.ContactType.CONTACT_3D, model, 4, placement)]
contact_datas = [cm.createData() for cm in contact_models]
contact_model, contact_data = contact_models[0], contact_datas[0]
prox_settings = pin.ProximalSettings(1e-12, 1e-12, 0.0, 1)
r_coeff, mu, damping, restitution_coefficient = 0.5, 0.0, 1e-6, 0.2
"""

# (cheat sheet line, statement, compared expression, Pinocchio 4.1's spelling of the statement if it differs)
ROWS = [
    # spatial quantities
    ("SE3 aMb = pin.SE3(aRb, apb)", "aMb = pin.SE3(aRb, apb)", "aMb", None),
    ("unit transformation M = pin.SE3(1) or pin.SE3.Identity()", "M1, M2 = pin.SE3(1), pin.SE3.Identity()",
     "(M1, M2)", None),
    ("random transformation pin.SE3.Random()", "Mr = pin.SE3.Random()", "Mr.rotation.T @ Mr.rotation", None),
    ("rotation matrix M.rotation", "x = M.rotation", "x", None),
    ("translation vector M.translation", "x = M.translation", "x", None),
    ("SE3 inverse bMa = aMb.inverse()", "bMa = aMb.inverse()", "bMa", None),
    ("SE3 action aMc = aMb * bMc", "aMc = aMb * bMc", "aMc", None),
    ("action matrix aXb = aMb.action", "aXb = aMb.action", "aXb", None),
    ("homogeneous matrix aHb = aMb.homogeneous", "aHb = aMb.homogeneous", "aHb", None),
    ("log operation SE3 -> 6D pin.log(M)", "nu = pin.log(M)", "nu", None),
    ("exp operation pin.exp(M)", "Me = pin.exp(pin.log(M))", "Me", None),
    ("Motion m = pin.Motion(v, w)", "m = pin.Motion(v_, w_)", "m", None),
    ("linear acceleration m.linear", "x = m.linear", "x", None),
    ("angular acceleration m.angular", "x = m.angular", "x", None),
    ("SE3 action v.a = aMb * v.b", "va = aMb * vb", "va", None),
    ("get classical acceleration pin.classicAcceleration(v, a, [aMb])",
     "x = (pin.classicAcceleration(vb, pin.Motion(w_, v_)), pin.classicAcceleration(vb, pin.Motion(w_, v_), aMb))",
     "x", None),
    ("Force f = pin.Force(l, n)", "f = pin.Force(l_, n_)", "f", None),
    ("linear force f.linear", "x = f.linear", "x", None),
    ("torque f.angular", "x = f.angular", "x", None),
    ("SE3 action f.a = aMb * f.b", "fa = aMb * fb", "fa", None),
    ("Inertia Y = pin.Inertia(mass, com, I)", "Y = pin.Inertia(mass, com, I)", "Y", None),
    ("mass Y.mass", "x = Y.mass", "x", None),
    ("center of mass pos. Y.lever", "x = Y.lever", "x", None),
    ("rotational inertia Y.inertia", "x = Y.inertia", "x", None),
    ("Quaternion quat = pin.Quaternion(R)", "quat = pin.Quaternion(R)", "quat.coeffs()", None),
    ("Angle Axis aa = pin.AngleAxis(angle, axis)", "aa = pin.AngleAxis(angle, axis)", "aa.matrix()", None),
    ("SE3 -> (x,y,z,quat) pin.se3ToXYZQUAT(M)", "x = pin.se3ToXYZQUAT(M)", "x", "x = pin.SE3ToXYZQUAT(M)"),
    ("(x,y,z,quat) -> SE3 pin.XYZQUATToSE3(vec)", "x = pin.XYZQUATToSE3(vec)", "x", None),
    # data
    ("Data related to the model data = pin.Data(model)", "data = pin.Data(model)", "data.M.shape", None),
    ("data = model.createData()", "data = model.createData()", "data.M.shape", None),
    ("joint data data.joints", "pin.forwardKinematics(model, data, q); x = len(data.joints)", "x", None),
    ("joint/[frame] placements data.oMi / [data.oMf]",
     "pin.framesForwardKinematics(model, data, q); x = ([M.homogeneous for M in data.oMi], [M.homogeneous for M in data.oMf])",
     "x", None),
    ("joint velocities data.v", "pin.forwardKinematics(model, data, q, v, a); x = [m.vector for m in data.v]", "x", None),
    ("joint accelerations data.a", "x = [m.vector for m in data.a]", "x", None),
    ("joint forces data.f", "pin.rnea(model, data, q, v, a); x = [f.vector for f in data.f]", "x", None),
    ("mass matrix data.M", "pin.crba(model, data, q); x = data.M", "x", None),
    ("non linear effects data.nle", "pin.nonLinearEffects(model, data, q, v); x = data.nle", "x", None),
    ("centroidal momentum data.hg", "pin.ccrba(model, data, q, v); x = data.hg", "x", None),
    ("centroidal matrix data.Ag", "x = data.Ag", "x", None),
    ("centroidal inertia data.Ig", "x = data.Ig", "x", None),
    # model
    ("Model of the kinematic tree model = pin.Model()", "empty = pin.Model()", "(empty.nq, empty.njoints)", None),
    ("model name model.name", "x = model.name", "x", None),
    ("joint names model.names", "x = list(model.names)", "x", None),
    ("joint models model.joints", "x = [j.nq for j in list(model.joints)[1:]]", "x", None),
    ("joint placements model.placements", "x = [M.homogeneous for M in model.placements]", "x",
     "x = [M.homogeneous for M in model.jointPlacements]"),
    ("link inertias model.inertias", "x = [Y.matrix() for Y in model.inertias]", "x", None),
    ("frames model.frames", "x = [(f.name, f.parentJoint) for f in model.frames]", "x", None),
    ("# position variables model.nq", "x = model.nq", "x", None),
    ("# velocity variables model.nv", "x = model.nv", "x", None),
    ("add joint model.addJoint",
     "built = pin.Model(); j1 = built.addJoint(0, pin.JointModelRX(), placement, 'j1')", "(j1, built.nq)", None),
    ("append body model.appendBodyToJoint", "built.appendBodyToJoint(j1, Y, placement)",
     "built.inertias[1].matrix()", None),
    ("add frame model.addFrame", "k = built.addFrame(pin.Frame('tip', j1, 0, placement, pin.FrameType.OP_FRAME))",
     "(k, built.nframes)", None),
    ("append child into parent model model.appendModel", "merged = model.appendModel(built, frame_id, placement)",
     "(merged.nq, list(merged.names))", "merged = pin.appendModel(model, built, frame_id, placement)"),
    ("build reduced body model.buildReducedModel", "reduced = model.buildReducedModel([2, 3], q)",
     "(reduced.nq, list(reduced.names))", "reduced = pin.buildReducedModel(model, [2, 3], q)"),
    # parsers
    ("load an URDF file pin.buildModelFromUrdf(filename, [root_joint])",
     "x = (pin.buildModelFromUrdf(URDF).nq, pin.buildModelFromUrdf(URDF, pin.JointModelFreeFlyer()).nq)", "x", None),
    ("load a SDF file pin.buildModelFromSdf(filename, [root_joint], root_link_name, parent_guidance)",
     "x = (pin.buildModelFromSdf(SDF).nq, pin.buildModelFromSdf(SDF, pin.JointModelFreeFlyer(), 'base', []).nq)",
     "x", "x = (1, 8)"),
    # frames
    ("placement of all operational frames pin.updateFramePlacements(model, data)",
     "pin.forwardKinematics(model, data, q, v, a); pin.updateFramePlacements(model, data)",
     "[M.homogeneous for M in data.oMf]", None),
    ("current frame placements wrt origin data.oMf", "x = data.oMf[frame_id]", "x", None),
    ("frame velocity pin.getFrameVelocity(model, data, frame_id, ref_frame)",
     "x = pin.getFrameVelocity(model, data, frame_id, ref_frame)", "x", None),
    ("frame acceleration pin.getFrameAcceleration(model, data, frame_id, ref_frame)",
     "x = pin.getFrameAcceleration(model, data, frame_id, ref_frame)", "x", None),
    ("frame acceleration pin.getFrameClassicalAcceleration(model, data, frame_id, ref_frame)",
     "x = pin.getFrameClassicalAcceleration(model, data, frame_id, ref_frame)", "x", None),
    ("frames placement pin.framesForwardKinematics(model, data, q)", "pin.framesForwardKinematics(model, data, q)",
     "[M.homogeneous for M in data.oMf]", None),
    ("frame jacobian pin.computeFrameJacobian(model, data, q, frame_id, ref_frame)",
     "x = pin.computeFrameJacobian(model, data, q, frame_id, ref_frame)", "x", None),
    ("frame jacobian time variation pin.frameJacobianTimeVariation(model, data, q, v, frame_id, ref_frame)",
     "x = pin.frameJacobianTimeVariation(model, data, q, v, frame_id, ref_frame)", "x", None),
    ("partial derivatives of the spatial velocity pin.getFrameVelocityDerivatives(model, data, frame_id, ref_frame)",
     "pin.computeForwardKinematicsDerivatives(model, data, q, v, a); "
     "x = [pin.getFrameVelocityDerivatives(model, data, frame_id, rf) for rf in (pin.LOCAL, pin.WORLD)]", "x", None),
    ("pin.getFrameVelocityDerivatives(model, data, joint_id, placement ref_frame)",
     "x = [pin.getFrameVelocityDerivatives(model, data, joint_id, placement, rf) for rf in (pin.LOCAL, pin.WORLD)]",
     "x", None),
    ("partial derivatives of the spatial acceleration pin.getFrameVelocityDerivatives(model, data, frame_id, ref_frame)",
     "x = [pin.getFrameAccelerationDerivatives(model, data, frame_id, rf) for rf in (pin.LOCAL, pin.WORLD)]", "x",
     None),
    ("pin.getFrameAccelerationDerivatives(model, data, joint_id, placement ref_frame)",
     "x = [pin.getFrameAccelerationDerivatives(model, data, joint_id, placement, rf) for rf in (pin.LOCAL, "
     "pin.WORLD)]", "x", None),
    # configuration
    ("random configuration pin.randomConfiguration(model, [lower_bound, upper_bound])",
     "x = (pin.randomConfiguration(model), pin.randomConfiguration(model, lower_bound, upper_bound))",
     "[pin.isNormalized(model, y, 1e-9) for y in x] + [bool(np.all(np.abs(x[1][:3]) <= 1))]", None),
    ("neutral configuration pin.neutral(model)", "x = pin.neutral(model)", "x", None),
    ("normalized configuration pin.normalize(model, q)", "x = pin.normalize(model, 2 * q)", "x", None),
    ("difference configurations pin.difference(model, q1, q2)", "x = pin.difference(model, q1, q2)", "x", None),
    ("distance configurations pin.distance(model, q1, q2)", "x = pin.distance(model, q1, q2)", "x", None),
    ("squared distance configurations pin.squareDistance(model, q1, q2)", "x = pin.squareDistance(model, q1, q2)",
     "x", "x = pin.squaredDistance(model, q1, q2)"),
    ("interpolate configuration pin.interpolate(model, q1, q2, alpha)", "x = pin.interpolate(model, q1, q2, 0.3)",
     "x", None),
    ("integrate configuration pin.integrate(model, q, v)", "x = pin.integrate(model, q, v)", "x", None),
    ("partial derivatives of difference pin.dDifference(model, q1, q2, [arg_pos])",
     "x = (pin.dDifference(model, q1, q2), pin.dDifference(model, q1, q2, pin.ARG1))", "x", None),
    ("partial derivatives of integration pin.dIntegrate(model, q, v, [arg_pos])",
     "x = (pin.dIntegrate(model, q, v), pin.dIntegrate(model, q, v, pin.ARG0))", "x", None),
    # collision
    ("placement collision obj pin.updateGeometryPlacements(model, data, geometry_model, geometry_data, [q])",
     "pin.updateGeometryPlacements(model, data, geometry_model, geometry_data, q); "
     "pin.updateGeometryPlacements(model, data, geometry_model, geometry_data)",
     "[M.homogeneous for M in geometry_data.oMg]", None),
    ("collisions detection for all pairs pin.computeCollisions(model, data, geometry_model, geometry_data, q)",
     "x = pin.computeCollisions(model, data, geometry_model, geometry_data, q)",
     "(x, [r.isCollision() for r in geometry_data.collisionResults])", None),
    ("collisions detection for a pair pin.computeCollisions(geometry_model, geometry_data, pair_index)",
     "x = pin.computeCollisions(geometry_model, geometry_data, pair_index)", "x", None),
    ("distance from collision pin.computeDistance(geometry_model, geometry_data, [pair_index])",
     "x = pin.computeDistance(geometry_model, geometry_data, pair_index).min_distance", "x", None),
    ("distance from collision each pair pin.computeDistances([model, data], geometry_model, geometry_data, [q])",
     "x = (pin.computeDistances(model, data, geometry_model, geometry_data, q), "
     "pin.computeDistances(geometry_model, geometry_data), "
     "[r.min_distance for r in geometry_data.distanceResults])", "x", None),
    ("geometry volume radius pin.computeBodyRadius(model, geometry_model, geometry_data)",
     "pin.computeBodyRadius(model, geometry_model, geometry_data)", "list(geometry_data.radius)", None),
    # centre of mass
    ("total mass of model pin.computeTotalMass(model, [data])",
     "x = (pin.computeTotalMass(model), pin.computeTotalMass(model, data))", "x", None),
    ("mass of each subtree pin.computeSubtreeMasses(model, data)", "pin.computeSubtreeMasses(model, data)",
     "data.mass", None),
    ("center of mass (COM) pin.centerOfMass(model, data, q, [v, a], [compute_subtree_com])",
     "x = (pin.centerOfMass(model, data, q), pin.centerOfMass(model, data, q, v, a), "
     "pin.centerOfMass(model, data, q, v, a, False), data.vcom[0].copy(), data.acom[0].copy())", "x", None),
    ("Jacobian COM pin.jacobianCenterOfMass(model, data, [q], [compute_subtree_com])",
     "x = (pin.jacobianCenterOfMass(model, data, q), pin.jacobianCenterOfMass(model, data, q, False))", "x", None),
    # energy
    ("FK and kinetic Energy pin.computeKineticEnergy(model, data, [q, v])",
     "x = pin.computeKineticEnergy(model, data, q, v); pin.forwardKinematics(model, data, q, v); "
     "x = (x, pin.computeKineticEnergy(model, data))", "x", None),
    ("FK and potential Energy pin.computePotentialEnergy(model, data, [q, v])",
     "x = pin.computePotentialEnergy(model, data, q); pin.forwardKinematics(model, data, q, v); "
     "x = (x, pin.computePotentialEnergy(model, data))", "x", None),
    ("FK and mechanical Energy pin.computeMechanicalEnergy(model, data, [q, v])",
     "x = pin.computeMechanicalEnergy(model, data, q, v); pin.forwardKinematics(model, data, q, v); "
     "x = (x, pin.computeMechanicalEnergy(model, data))", "x", None),
    # kinematics
    ("forward kinematics (FK) pin.forwardKinematics(model, data, q, [v,[a]])",
     "pin.forwardKinematics(model, data, q); pin.forwardKinematics(model, data, q, v); "
     "pin.forwardKinematics(model, data, q, v, a)", "[(M.homogeneous, m.vector) for M, m in zip(data.oMi, data.a)]",
     None),
    ("FK derivatives pin.computeForwardKinematicsDerivatives(model, data, q, v, a)",
     "pin.computeForwardKinematicsDerivatives(model, data, q, v, a)", "[m.vector for m in data.v]", None),
    ("pin.getJointVelocityDerivatives(model, data, joint_id, pin.ReferenceFrame.WORLD)",
     "x = pin.getJointVelocityDerivatives(model, data, joint_id, pin.ReferenceFrame.WORLD)", "x", None),
    ("pin.getJointAccelerationDerivatives(model, data, joint_id, pin.ReferenceFrame.LOCAL)",
     "x = pin.getJointAccelerationDerivatives(model, data, joint_id, pin.ReferenceFrame.LOCAL)", "x", None),
    # Jacobians
    ("full model Jacobian -> data.J pin.computeJointJacobians(model, data, [q])",
     "x = pin.computeJointJacobians(model, data, q); pin.forwardKinematics(model, data, q); "
     "x = (x, pin.computeJointJacobians(model, data), data.J)", "x", None),
    ("joint Jacobian pin.getJointJacobian(model, data, joint_id, ref_frame)",
     "x = pin.getJointJacobian(model, data, joint_id, ref_frame)", "x", None),
    ("full model dJ/dt pin.computeJointJacobiansTimeVariation(model, data, q, v)",
     "x = pin.computeJointJacobiansTimeVariation(model, data, q, v)", "x", None),
    ("joint dJ/dt pin.getJointJacobianTimeVariation(model, data, joint_id, ref_frame)",
     "x = pin.getJointJacobianTimeVariation(model, data, joint_id, ref_frame)", "x", None),
    # forward and inverse dynamics
    ("Articulated-Body Algorithm pin.aba(model, data, q, v, tau, [f_ext])",
     "x = (pin.aba(model, data, q, v, tau), pin.aba(model, data, q, v, tau, f_ext))", "x", None),
    ("Joint Space Inertia Matrix Inv pin.computeMinverse(model, data, [q])",
     "x = pin.computeMinverse(model, data, q); pin.aba(model, data, q, v, tau); "
     "x = (x, pin.computeMinverse(model, data))", "x",
     "x = pin.computeMinverse(model, data, q).copy(); pin.aba(model, data, q, v, tau); "
     "pin.aba(model, data, q, v, tau, pin.Convention.WORLD); y = pin.computeMinverse(model, data); "
     "x = (x, np.triu(y) + np.triu(y, 1).T)"),
    ("Composite Rigid-Body Algorithm pin.crba(model, data, q)", "x = pin.crba(model, data, q)", "x", None),
    ("Recursive Newton-Euler Algorithm pin.rnea(model, data, q, v, a, [f_ext])",
     "x = (pin.rnea(model, data, q, v, a), pin.rnea(model, data, q, v, a, f_ext))", "x", None),
    ("generalized gravity pin.computeGeneralizedGravity(model, data, q)",
     "x = pin.computeGeneralizedGravity(model, data, q)", "x", None),
    ("pin.computeRNEADerivatives(model, data, q, v, a, [f_ext])",
     "x = (pin.computeRNEADerivatives(model, data, q, v, a), pin.computeRNEADerivatives(model, data, q, v, a, f_ext))",
     "x", "x = ([y.copy() for y in pin.computeRNEADerivatives(model, data, q, v, a)], "
     "pin.computeRNEADerivatives(model, data, q, v, a, f_ext))"),
    # centroidal
    ("Centroidal momentum pin.computeCentroidalMomentum(model, data, [q, v])",
     "x = pin.computeCentroidalMomentum(model, data, q, v); pin.forwardKinematics(model, data, q, v); "
     "x = (x, pin.computeCentroidalMomentum(model, data))", "x", None),
    ("Centroidal momentum + time derivatives pin.computeCentroidalMomentumTimeVariation(model, data, [q, v, a])",
     "x = pin.computeCentroidalMomentumTimeVariation(model, data, q, v, a); "
     "pin.forwardKinematics(model, data, q, v, a); x = (x, pin.computeCentroidalMomentumTimeVariation(model, data))",
     "x", None),
    ("all terms (check doc) pin.computeAllTerms(model, data, q, v)", "pin.computeAllTerms(model, data, q, v)",
     "(data.M, data.nle, data.J, data.com[0], data.vcom[0], data.Jcom, data.Ag, data.hg, data.kinetic_energy, "
     "data.potential_energy)", None),
    # regressors
    ("kinematic regressor pin.computeJointKinematicRegressor(model, data, joint_id, ref_frame, [placement])",
     "pin.forwardKinematics(model, data, q); x = (pin.computeJointKinematicRegressor(model, data, joint_id, ref_frame), "
     "pin.computeJointKinematicRegressor(model, data, joint_id, ref_frame, placement))", "x", None),
    ("kinematic regressor pin.computeFrameKinematicRegressor(model, data, frame_id, ref_frame)",
     "x = pin.computeFrameKinematicRegressor(model, data, frame_id, ref_frame)", "x", None),
    ("static regressor pin.computeStaticRegressor(model, data, q)", "x = pin.computeStaticRegressor(model, data, q)",
     "x", None),
    ("body regressor pin.bodyRegressor(velocity, acceleration)", "x = pin.bodyRegressor(vb, pin.Motion(w_, v_))", "x",
     None),
    ("body attached to joint regressor pin.jointBodyRegressor(model, data, joint_id)",
     "pin.rnea(model, data, q, v, a); x = pin.jointBodyRegressor(model, data, joint_id)", "x", None),
    ("body attached to frame regressor pin.frameBodyRegressor(model, data, frame_id)",
     "x = pin.frameBodyRegressor(model, data, frame_id)", "x", None),
    ("joint torque regressor pin.computeJointTorqueRegressor(model, data, q, v, a)",
     "x = pin.computeJointTorqueRegressor(model, data, q, v, a)", "x", None),
    # constraints
    ("kinematic Jacobian of constraint model pin.getConstraintJacobian(model, data, contact_model, contact_data)",
     "pin.initConstraintDynamics(model, data, contact_models, contact_datas); "
     "pin.constraintDynamics(model, data, q, v, tau, contact_models, contact_datas); "
     "x = pin.getConstraintJacobian(model, data, contact_model, contact_data)", "x", None),
    ("kinematic Jacobian of set of constraint models pin.getConstraintJacobian(model, data, contact_models, contact_datas)",
     "x = pin.getConstraintJacobian(model, data, contact_models, contact_datas)", "x",
     "x = np.vstack([pin.getConstraintJacobian(model, data, cm, cd) for cm, cd in zip(contact_models, "
     "contact_datas)])"),
    ("constrained dynamics with contacts pin.forwardDynamics(model, data, [q, v,] tau, constraint_jacobian, "
     "constraint_drift, damping)",
     "J = pin.computeFrameJacobian(model, data, q, frame_id, pin.LOCAL); gamma = np.zeros(6); "
     "x = pin.forwardDynamics(model, data, q, v, tau, J, gamma, damping); pin.computeAllTerms(model, data, q, v); "
     "x = (x, pin.forwardDynamics(model, data, tau, J, gamma, damping))", "x", None),
    ("impact dynamics with contacts pin.impulseDynamics(model, data, [q,] v.before, constraint_jacobian, "
     "restitution_coefficient, damping)",
     "x = pin.impulseDynamics(model, data, q, v, J, restitution_coefficient, damping); pin.crba(model, data, q); "
     "x = (x, pin.impulseDynamics(model, data, v, J, restitution_coefficient, damping))", "x", None),
    ("inverse of the constraint matrix pin.computeKKTContactDynamicMatrixInverse(model, data, q, constraint_jac, damping)",
     "x = pin.computeKKTContactDynamicMatrixInverse(model, data, q, J, damping)", "x", None),
    ("allocate memory pin.initConstraintDynamics(model, data, contact_models)",
     "pin.initConstraintDynamics(model, data, contact_models, contact_datas)", "0", None),
    ("forward dynamics with contact constraints pin.constraintDynamics(model, data, q, v, tau, contact_models, "
     "contact_datas, [prox_settings])",
     "x = (pin.constraintDynamics(model, data, q, v, tau, contact_models, contact_datas), "
     "pin.constraintDynamics(model, data, q, v, tau, contact_models, contact_datas, prox_settings))", "x", None),
    ("derivatives of the forward dynamics with kinematic constraints pin.computeConstraintDynamicsDerivatives(model, "
     "data, contact_models, contact_datas, prox_settings)",
     "pin.constraintDynamics(model, data, q, v, tau, contact_models, contact_datas, prox_settings); "
     "pin.computeConstraintDynamicsDerivatives(model, data, contact_models, contact_datas, prox_settings)",
     "(data.ddq_dq, data.ddq_dv, data.ddq_dtau)", None),
    ("impulse dynamics with contact constraints pin.impulseDynamics(model, data, q, v, contact_models, contact_datas, "
     "r_coeff, mu)",
     "x = pin.impulseDynamics(model, data, q, v, contact_models, contact_datas, r_coeff, prox_settings)", "x", None),
    ("impulse dynamics derivatives pin.computeImpulseDynamicsDerivatives(model, data, contact_models, contact_datas, "
     "r_coeff, prox_settings)",
     "pin.computeImpulseDynamicsDerivatives(model, data, contact_models, contact_datas, r_coeff, prox_settings)",
     "(data.ddq_dq, data.ddq_dv)", None),
    # cholesky
    ("Cholesky decomposition of the joint space inertia matrix pin.cholesky.decompose(model, data)",
     "pin.crba(model, data, q); x = pin.cholesky.decompose(model, data)", "data.M", None),
    ("x of Mx = y pin.cholesky.solve(model, data, v)", "x = pin.cholesky.solve(model, data, v)", "x", None),
    ("inverse of the joint space inertia matrix pin.cholesky.computeMinv(model, data)",
     "x = pin.cholesky.computeMinv(model, data)", "x", None),
]

VIEWER = [
    ("create viewer mv = pin.visualize.MeshcatVisualizer", "mv = pin.visualize.MeshcatVisualizer"),
    ("load model viz = mv(model, collision_model, visual_model)", "viz = mv(model, collision_model, visual_model)"),
    ("initialize viz.initViewer(loadModel=True)", "viz.initViewer(loadModel=True)"),
    ("display viz.display(q)", "viz.display(q)"),
]

SDF_TEXT = """<sdf version="1.7"><model name="m">
<link name="base"><inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
<link name="arm"><pose>0 0 0.5 0 0 0</pose><inertial><mass>1</mass><inertia><ixx>0.1</ixx><iyy>0.1</iyy><izz>0.1</izz></inertia></inertial></link>
<joint name="hinge" type="revolute"><parent>base</parent><child>arm</child><axis><xyz>0 1 0</xyz></axis></joint>
</model></sdf>"""


def _freeze(x):
    """``x`` as plain data copied now: a Motion or Force as its vector, an SE3 as its homogeneous matrix, an
    Inertia as its matrix, arrays copied, tuples and lists item by item."""
    if isinstance(x, (tuple, list)):
        return [_freeze(y) for y in x]
    if isinstance(x, (str, bool, int, float)) or x is None:
        return x
    for name in ("vector", "homogeneous"):
        if hasattr(x, name) and not callable(getattr(x, name)):
            return np.array(getattr(x, name), dtype=float)
    if hasattr(x, "lever") and callable(getattr(x, "matrix", None)):
        return np.array(x.matrix(), dtype=float)
    return np.array(x, dtype=float)


def _close(a, b, path="x") -> list[str]:
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        if len(a) != len(b):
            return [f"{path}: {len(a)} items against {len(b)}"]
        return [d for k, (x, y) in enumerate(zip(a, b)) for d in _close(x, y, f"{path}[{k}]")]
    if isinstance(a, str) or isinstance(b, str):
        return [] if a == b else [f"{path}: {a!r} against {b!r}"]
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.shape != y.shape:
        return [f"{path}: shape {x.shape} against {y.shape}"]
    if not np.allclose(x, y, rtol=1e-8, atol=1e-9):
        return [f"{path}: differs by {np.max(np.abs(x - y))}"]
    return []


def _namespaces(tmp_path):
    import pinocchio
    import coal

    from rbda.model.geometry import Sphere
    from rbda.spatial import rpy_to_matrix

    sdf = tmp_path / "arm.sdf"
    sdf.write_text(SDF_TEXT)
    rng = np.random.default_rng(7)
    out = []
    for pin, ball in ((rpin, Sphere), (pinocchio, coal.Sphere)):
        ns = {"pin": pin, "URDF": _ur5(), "SDF": str(sdf), "RPY": rpy_to_matrix, "BALL": ball}
        exec(SETUP, ns)  # noqa: S102
        out.append(ns)
    model = out[0]["model"]
    q1 = rbda.random_configuration(model, -np.ones(model.nq), np.ones(model.nq), rng=rng)  # the same every run
    state = {"q": q1, "q1": q1, "q2": rpin.integrate(model, q1, rng.normal(size=model.nv)),
             "v": rng.normal(size=model.nv), "a": rng.normal(size=model.nv), "tau": rng.normal(size=model.nv)}
    for ns in out:
        ns.update({k: x.copy() for k, x in state.items()})
    return out


def test_models_are_the_same(tmp_path):
    pytest.importorskip("pinocchio")
    ours, theirs = _namespaces(tmp_path)
    assert list(ours["model"].names) == list(theirs["model"].names)
    assert [f.name for f in ours["model"].frames] == [f.name for f in theirs["model"].frames]


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory):
    """Each row's ``(ours, Pinocchio's)`` compared values, or the error it raised, the rows run in order in both
    libraries (each starts from the state the rows above leave)."""
    pytest.importorskip("pinocchio")
    ours_ns, theirs_ns = _namespaces(tmp_path_factory.mktemp("cheat-sheet"))
    results = {}
    for line, statement, compared, theirs in ROWS:
        try:
            exec(statement, ours_ns)  # noqa: S102  (as written, through rbda.pinocchio)
            mine = _freeze(eval(compared, ours_ns))  # noqa: S307
        except Exception as exc:  # noqa: BLE001  (reported by the row's test)
            results[line] = exc
            continue
        try:
            exec(theirs or statement, theirs_ns)  # noqa: S102  (Pinocchio 4.1)
            results[line] = (mine, _freeze(eval(compared, theirs_ns)))  # noqa: S307
        except Exception as exc:  # noqa: BLE001
            results[line] = (mine, _PinocchioFailed(f"{type(exc).__name__}: {str(exc).splitlines()[0]}"))
    return results


class _PinocchioFailed(str):
    """Pinocchio 4.1 raised on the row (what it raised)."""


@pytest.mark.parametrize("line", [r[0] for r in ROWS])
def test_cheat_sheet_line(outcomes, line):
    result = outcomes[line]
    if isinstance(result, Exception):
        raise result
    mine, reference = result
    assert not isinstance(reference, _PinocchioFailed), f"Pinocchio 4.1 raised on this row: {reference}"
    differences = _close(mine, reference)
    assert not differences, f"{line}: " + "; ".join(differences[:5])


def test_cheat_sheet_viewer(tmp_path):
    pytest.importorskip("viser")
    ns = _namespaces(tmp_path)[0]
    try:
        for _, statement in VIEWER:
            exec(statement, ns)  # noqa: S102
        viz = ns["viz"]
        assert viz.url.startswith("http://")
        np.testing.assert_allclose(viz._viewer.q, ns["q"])
    finally:
        if "viz" in ns:
            ns["viz"].close()


def test_not_run_lines_are_explained():
    assert all(reason for reason in NOT_RUN.values())


def test_frame_derivatives_local_world_aligned():
    """rbda's ``getFrameVelocityDerivatives(..., LOCAL_WORLD_ALIGNED)`` against a central finite difference of
    ``getFrameVelocity(..., LOCAL_WORLD_ALIGNED)`` on the manifold (Pinocchio 4.1's differs from both)."""
    model = rpin.buildModelFromUrdf(_ur5(), rpin.JointModelFreeFlyer())
    rng = np.random.default_rng(3)
    q, v, a = rpin.randomConfiguration(model), rng.normal(size=model.nv), rng.normal(size=model.nv)
    frame = model.getFrameId("tool0")
    data = model.createData()
    rpin.computeForwardKinematicsDerivatives(model, data, q, v, a)
    v_dq, v_dv = rpin.getFrameVelocityDerivatives(model, data, frame, rpin.LOCAL_WORLD_ALIGNED)

    def velocity(qq, vv):
        d = model.createData()
        rpin.forwardKinematics(model, d, qq, vv)
        return rpin.getFrameVelocity(model, d, frame, rpin.LOCAL_WORLD_ALIGNED).vector

    eps = 1e-6
    fd_q = np.stack([(velocity(rpin.integrate(model, q, eps * e), v) - velocity(rpin.integrate(model, q, -eps * e), v))
                     / (2 * eps) for e in np.eye(model.nv)], axis=1)
    np.testing.assert_allclose(v_dq, fd_q, atol=1e-7)
    np.testing.assert_allclose(v_dv, rpin.computeFrameJacobian(model, model.createData(), q, frame,
                                                               rpin.LOCAL_WORLD_ALIGNED), atol=1e-12)


def test_cheat_sheet_imports_as_written():
    """``import pinocchio as pin`` and ``from pinocchio.utils import *`` (the cheat sheet's first lines), where the
    name ``pinocchio`` resolves to ``rbda.pinocchio`` (a process of its own, as the unittest runner's)."""
    import os
    import subprocess

    import rbda

    code = ("import sys; sys.path.insert(0, sys.argv[1]); from unittest_runner import _Alias; "
            "sys.meta_path.insert(0, _Alias()); import pinocchio as pin; from pinocchio.utils import *; "
            "assert pin.__name__ == 'rbda.pinocchio', pin.__name__; "
            "assert isapprox(zero(3), eye(3)[0] * 0) and callable(rand) and npl is not None; "
            "print(pin.SE3.Identity().isIdentity())")
    env = {**os.environ, "PYTHONPATH": str(Path(rbda.__file__).parent.parent), "RBDA_COMPILE_NOTICE": "0"}
    done = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0 and done.stdout.strip() == "True", done.stderr[-2000:]
