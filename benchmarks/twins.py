"""Every public rbda function that has a Pinocchio twin, and one call of each on the same state: the cases that
``bench_core.py`` times.

The functions are enumerated, not chosen: every function of ``rbda.algorithms.__all__`` whose name, without its
underscores, is the name of a Pinocchio function up to case (``compute_rnea_derivatives`` and
``computeRNEADerivatives``). :func:`cases` gives, for each, a preparation (what must have been computed before a
call, in both libraries' data) and the two calls; :data:`LEFT_OUT` says why a function has no case. A function
of the enumeration that has neither is reported by :func:`enumerate_twins`' caller, so that a new public function
cannot go untimed silently.
"""

from __future__ import annotations

import inspect
import os

import numpy as np

import rbda
import rbda.algorithms as algorithms

#: robot name -> (file below example-robot-data's ``robots``, floating base, the frame of the frame functions,
#: the contact frames and kind of the constrained functions)
ROBOTS = {
    "panda": ("panda_description/urdf/panda.urdf", False, "panda_hand_tcp", ("panda_hand_tcp",), "CONTACT_3D"),
    "talos": ("talos_data/robots/talos_reduced.urdf", True, "gripper_left_base_link",
              ("left_sole_link", "right_sole_link"), "CONTACT_6D"),
}

#: functions of the enumeration without a case, and why
LEFT_OUT = {
    "random_configuration": "a random draw: rbda's and Pinocchio's generators differ, nothing to compare",
}


def enumerate_twins() -> dict[str, str]:
    """``{rbda name: Pinocchio name}`` for every public rbda algorithm with a Pinocchio twin."""
    import pinocchio as pin

    by_key = {name.lower(): name for name in dir(pin) if callable(getattr(pin, name))}
    out = {}
    for name in algorithms.__all__:
        if inspect.isfunction(inspect.unwrap(getattr(algorithms, name))) and name.replace("_", "") in by_key:
            out[name] = by_key[name.replace("_", "")]
    return out


def load(robot: str):
    """The rbda model of ``robot`` (a key of :data:`ROBOTS`), from example-robot-data as installed with Pinocchio."""
    import pinocchio as pin

    root = os.path.join(os.path.dirname(pin.__file__), *[".."] * 4, "share", "example-robot-data", "robots")
    path, floating = ROBOTS[robot][:2]
    return rbda.load_model(os.path.join(root, path), floating_base=floating)


class State:
    """One random state of a model, and a data of each library (``pm``, ``pd``: Pinocchio's)."""

    def __init__(self, robot: str, model, seed: int = 0):
        import pinocchio as pin

        from rbda.interop.pinocchio import to_pinocchio

        rng = np.random.default_rng(seed)
        self.model, self.data = model, model.create_data()
        self.pm = to_pinocchio(model)
        self.pd = self.pm.createData()
        self.q, self.q1 = rbda.random_configuration(model, rng=rng), rbda.random_configuration(model, rng=rng)
        self.v, self.a, self.tau = (rng.normal(size=model.nv) for _ in range(3))
        frame, contacts, kind = ROBOTS[robot][2:]
        self.frame = model.get_frame_id(frame)
        assert self.pm.getFrameId(frame) == self.frame, "rbda's and Pinocchio's frame ids differ"
        self.joint = model.frames[self.frame].parent_joint
        self.placement = model.frames[self.frame].placement
        self.pin_placement = pin.SE3(self.placement.rotation.copy(), self.placement.translation.copy())
        self.subtree = model.parents[self.joint]  # a subtree root below the base
        self.Jt = rng.normal(size=(model.nv, 6))  # a matrix to transport (d_integrate_transport)
        self.fext = [rbda.Force(f) for f in rng.normal(size=(model.njoints, 6))]
        self.pin_fext = [pin.Force(f.vector.copy()) for f in self.fext]
        self._constraints(model, contacts, getattr(rbda, kind))

    def _constraints(self, model, names, kind):
        import pinocchio as pin

        frames = [model.frames[model.get_frame_id(n)] for n in names]
        self.cms = [rbda.RigidConstraintModel(kind, model, f.parent_joint, f.placement, 0, rbda.SE3(), rbda.LOCAL)
                    for f in frames]
        self.cds = [cm.create_data() for cm in self.cms]
        self.pcms = [pin.RigidConstraintModel(pin.ContactType(int(kind)), self.pm, f.parent_joint,
                                              pin.SE3(f.placement.rotation.copy(), f.placement.translation.copy()),
                                              pin.ReferenceFrame.LOCAL) for f in frames]
        self.pcds = [c.createData() for c in self.pcms]
        rbda.init_constraint_dynamics(model, self.data, self.cms, self.cds)
        pin.initConstraintDynamics(self.pm, self.pd, self.pcms, self.pcds)
        self.settings, self.pin_settings = rbda.ProximalSettings(1e-12, 0.0, 1), pin.ProximalSettings(1e-12, 0.0, 1)
        rows = 3 if kind == rbda.CONTACT_3D else 6
        self.Jc = np.vstack([rbda.compute_frame_jacobian(model, self.data, self.q, model.get_frame_id(n),
                                                         rbda.LOCAL)[:rows] for n in names])
        self.gamma = np.zeros(len(self.Jc))


def cases(s: State) -> dict:
    """``{rbda name: (prepare, rbda call, Pinocchio call)}`` on state ``s``: ``prepare()`` fills both data with what
    the call reads (None if it reads nothing), then each call is one call of the public function."""
    import pinocchio as pin

    m, d, pm, pd = s.model, s.data, s.pm, s.pd
    q, q1, v, a, tau, f, j, fx = s.q, s.q1, s.v, s.a, s.tau, s.frame, s.joint, s.fext
    L, W, LWA = rbda.LOCAL, rbda.WORLD, rbda.LOCAL_WORLD_ALIGNED
    pL, pW, pLWA = pin.LOCAL, pin.WORLD, pin.LOCAL_WORLD_ALIGNED
    r = rbda

    def both(ours, theirs):
        return lambda: (ours(), theirs())

    fk_qva = both(lambda: r.forward_kinematics(m, d, q, v, a), lambda: pin.forwardKinematics(pm, pd, q, v, a))
    jacobians = both(lambda: r.compute_joint_jacobians(m, d, q), lambda: pin.computeJointJacobians(pm, pd, q))
    time_variation = both(lambda: r.compute_joint_jacobians_time_variation(m, d, q, v),
                          lambda: pin.computeJointJacobiansTimeVariation(pm, pd, q, v))
    fk_derivatives = both(lambda: r.compute_forward_kinematics_derivatives(m, d, q, v, a),
                          lambda: pin.computeForwardKinematicsDerivatives(pm, pd, q, v, a))
    hessians = both(lambda: r.compute_joint_kinematic_hessians(m, d, q),
                    lambda: pin.computeJointKinematicHessians(pm, pd, q))
    centroidal_derivatives = both(lambda: r.compute_centroidal_dynamics_derivatives(m, d, q, v, a),
                                  lambda: (pin.computeCentroidalDynamicsDerivatives(pm, pd, q, v, a),
                                           pin.centerOfMass(pm, pd, q, v)))
    rnea_qva = both(lambda: r.rnea(m, d, q, v, a), lambda: pin.rnea(pm, pd, q, v, a))
    constrained = both(lambda: r.constraint_dynamics(m, d, q, v, tau, s.cms, s.cds, s.settings),
                       lambda: pin.constraintDynamics(pm, pd, q, v, tau, s.pcms, s.pcds, s.pin_settings))
    impulse = both(lambda: r.impulse_dynamics(m, d, q, v, s.cms, s.cds, 0.0, s.settings),
                   lambda: pin.impulseDynamics(pm, pd, q, v, s.pcms, s.pcds, 0.0, s.pin_settings))
    crba_q = both(lambda: r.crba(m, d, q), lambda: pin.crba(pm, pd, q))
    return {
        # kinematics and frames
        "forward_kinematics": (None, lambda: r.forward_kinematics(m, d, q), lambda: pin.forwardKinematics(pm, pd, q)),
        "frames_forward_kinematics": (None, lambda: r.frames_forward_kinematics(m, d, q),
                                      lambda: pin.framesForwardKinematics(pm, pd, q)),
        "update_frame_placements": (fk_qva, lambda: r.update_frame_placements(m, d),
                                    lambda: pin.updateFramePlacements(pm, pd)),
        "update_frame_placement": (fk_qva, lambda: r.update_frame_placement(m, d, f),
                                   lambda: pin.updateFramePlacement(pm, pd, f)),
        "update_global_placements": (fk_qva, lambda: r.update_global_placements(m, d),
                                     lambda: pin.updateGlobalPlacements(pm, pd)),
        "get_velocity": (fk_qva, lambda: r.get_velocity(m, d, j, W), lambda: pin.getVelocity(pm, pd, j, pW)),
        "get_acceleration": (fk_qva, lambda: r.get_acceleration(m, d, j, W),
                             lambda: pin.getAcceleration(pm, pd, j, pW)),
        "get_classical_acceleration": (fk_qva, lambda: r.get_classical_acceleration(m, d, j, LWA),
                                       lambda: pin.getClassicalAcceleration(pm, pd, j, pLWA)),
        "get_frame_velocity": (fk_qva, lambda: r.get_frame_velocity(m, d, f, LWA),
                               lambda: pin.getFrameVelocity(pm, pd, f, pLWA)),
        "get_frame_acceleration": (fk_qva, lambda: r.get_frame_acceleration(m, d, f, LWA),
                                   lambda: pin.getFrameAcceleration(pm, pd, f, pLWA)),
        "get_frame_classical_acceleration": (fk_qva, lambda: r.get_frame_classical_acceleration(m, d, f, LWA),
                                             lambda: pin.getFrameClassicalAcceleration(pm, pd, f, pLWA)),
        # Jacobians
        "compute_joint_jacobians": (None, lambda: r.compute_joint_jacobians(m, d, q),
                                    lambda: pin.computeJointJacobians(pm, pd, q)),
        "compute_joint_jacobian": (None, lambda: r.compute_joint_jacobian(m, d, q, j),
                                   lambda: pin.computeJointJacobian(pm, pd, q, j)),
        "get_joint_jacobian": (jacobians, lambda: r.get_joint_jacobian(m, d, j, LWA),
                               lambda: pin.getJointJacobian(pm, pd, j, pLWA)),
        "compute_frame_jacobian": (None, lambda: r.compute_frame_jacobian(m, d, q, f, LWA),
                                   lambda: pin.computeFrameJacobian(pm, pd, q, f, pLWA)),
        "get_frame_jacobian": (jacobians, lambda: r.get_frame_jacobian(m, d, f, LWA),
                               lambda: pin.getFrameJacobian(pm, pd, f, pLWA)),
        "compute_joint_jacobians_time_variation": (None, lambda: r.compute_joint_jacobians_time_variation(m, d, q, v),
                                                   lambda: pin.computeJointJacobiansTimeVariation(pm, pd, q, v)),
        "get_joint_jacobian_time_variation": (time_variation, lambda: r.get_joint_jacobian_time_variation(m, d, j, LWA),
                                              lambda: pin.getJointJacobianTimeVariation(pm, pd, j, pLWA)),
        "get_frame_jacobian_time_variation": (time_variation, lambda: r.get_frame_jacobian_time_variation(m, d, f, LWA),
                                              lambda: pin.getFrameJacobianTimeVariation(pm, pd, f, pLWA)),
        "compute_joint_kinematic_hessians": (None, lambda: r.compute_joint_kinematic_hessians(m, d, q),
                                             lambda: pin.computeJointKinematicHessians(pm, pd, q)),
        "get_joint_kinematic_hessian": (hessians, lambda: r.get_joint_kinematic_hessian(m, d, j, LWA),
                                        lambda: pin.getJointKinematicHessian(pm, pd, j, pLWA)),
        # dynamics
        "rnea": (None, lambda: r.rnea(m, d, q, v, a), lambda: pin.rnea(pm, pd, q, v, a)),
        "nonlinear_effects": (None, lambda: r.nonlinear_effects(m, d, q, v), lambda: pin.nonLinearEffects(pm, pd, q, v)),
        "compute_generalized_gravity": (None, lambda: r.compute_generalized_gravity(m, d, q),
                                        lambda: pin.computeGeneralizedGravity(pm, pd, q)),
        "compute_static_torque": (None, lambda: r.compute_static_torque(m, d, q, fx),
                                  lambda: pin.computeStaticTorque(pm, pd, q, s.pin_fext)),
        "compute_coriolis_matrix": (None, lambda: r.compute_coriolis_matrix(m, d, q, v),
                                    lambda: pin.computeCoriolisMatrix(pm, pd, q, v)),
        "crba": (None, lambda: r.crba(m, d, q), lambda: pin.crba(pm, pd, q)),
        "aba": (None, lambda: r.aba(m, d, q, v, tau), lambda: pin.aba(pm, pd, q, v, tau)),
        "compute_minverse": (None, lambda: r.compute_minverse(m, d, q), lambda: pin.computeMinverse(pm, pd, q)),
        "compute_all_terms": (None, lambda: r.compute_all_terms(m, d, q, v), lambda: pin.computeAllTerms(pm, pd, q, v)),
        # derivatives
        "compute_rnea_derivatives": (None, lambda: r.compute_rnea_derivatives(m, d, q, v, a),
                                     lambda: pin.computeRNEADerivatives(pm, pd, q, v, a)),
        "compute_aba_derivatives": (None, lambda: r.compute_aba_derivatives(m, d, q, v, tau),
                                    lambda: pin.computeABADerivatives(pm, pd, q, v, tau)),
        "compute_generalized_gravity_derivatives": (None, lambda: r.compute_generalized_gravity_derivatives(m, d, q),
                                                    lambda: pin.computeGeneralizedGravityDerivatives(pm, pd, q)),
        "compute_static_torque_derivatives": (None, lambda: r.compute_static_torque_derivatives(m, d, q, fx),
                                              lambda: pin.computeStaticTorqueDerivatives(pm, pd, q, s.pin_fext)),
        "compute_forward_kinematics_derivatives": (None, lambda: r.compute_forward_kinematics_derivatives(m, d, q, v, a),
                                                   lambda: pin.computeForwardKinematicsDerivatives(pm, pd, q, v, a)),
        "get_joint_velocity_derivatives": (fk_derivatives, lambda: r.get_joint_velocity_derivatives(m, d, j, LWA),
                                           lambda: pin.getJointVelocityDerivatives(pm, pd, j, pLWA)),
        "get_joint_acceleration_derivatives": (fk_derivatives,
                                               lambda: r.get_joint_acceleration_derivatives(m, d, j, LWA),
                                               lambda: pin.getJointAccelerationDerivatives(pm, pd, j, pLWA)),
        "get_frame_velocity_derivatives": (fk_derivatives, lambda: r.get_frame_velocity_derivatives(m, d, f, LWA),
                                           lambda: pin.getFrameVelocityDerivatives(pm, pd, f, pLWA)),
        "get_frame_acceleration_derivatives": (fk_derivatives,
                                               lambda: r.get_frame_acceleration_derivatives(m, d, f, LWA),
                                               lambda: pin.getFrameAccelerationDerivatives(pm, pd, f, pLWA)),
        "get_point_velocity_derivatives": (fk_derivatives,
                                           lambda: r.get_point_velocity_derivatives(m, d, j, s.placement, LWA),
                                           lambda: pin.getPointVelocityDerivatives(pm, pd, j, s.pin_placement, pLWA)),
        "get_point_classic_acceleration_derivatives": (
            fk_derivatives, lambda: r.get_point_classic_acceleration_derivatives(m, d, j, s.placement, LWA),
            lambda: pin.getPointClassicAccelerationDerivatives(pm, pd, j, s.pin_placement, pLWA)),
        "compute_centroidal_dynamics_derivatives": (
            None, lambda: r.compute_centroidal_dynamics_derivatives(m, d, q, v, a),
            lambda: pin.computeCentroidalDynamicsDerivatives(pm, pd, q, v, a)),
        "get_center_of_mass_velocity_derivatives": (centroidal_derivatives,
                                                    lambda: r.get_center_of_mass_velocity_derivatives(m, d),
                                                    lambda: pin.getCenterOfMassVelocityDerivatives(pm, pd)),
        # centre of mass
        "compute_total_mass": (None, lambda: r.compute_total_mass(m, d), lambda: pin.computeTotalMass(pm, pd)),
        "compute_subtree_masses": (None, lambda: r.compute_subtree_masses(m, d),
                                   lambda: pin.computeSubtreeMasses(pm, pd)),
        "center_of_mass": (None, lambda: r.center_of_mass(m, d, q), lambda: pin.centerOfMass(pm, pd, q)),
        "jacobian_center_of_mass": (None, lambda: r.jacobian_center_of_mass(m, d, q),
                                    lambda: pin.jacobianCenterOfMass(pm, pd, q)),
        "jacobian_subtree_center_of_mass": (None, lambda: r.jacobian_subtree_center_of_mass(m, d, q, s.subtree),
                                            lambda: pin.jacobianSubtreeCenterOfMass(pm, pd, q, s.subtree)),
        # centroidal
        "ccrba": (None, lambda: r.ccrba(m, d, q, v), lambda: pin.ccrba(pm, pd, q, v)),
        "dccrba": (None, lambda: r.dccrba(m, d, q, v), lambda: pin.dccrba(pm, pd, q, v)),
        "compute_centroidal_map": (None, lambda: r.compute_centroidal_map(m, d, q),
                                   lambda: pin.computeCentroidalMap(pm, pd, q)),
        "compute_centroidal_map_time_variation": (None, lambda: r.compute_centroidal_map_time_variation(m, d, q, v),
                                                  lambda: pin.computeCentroidalMapTimeVariation(pm, pd, q, v)),
        "compute_centroidal_momentum": (None, lambda: r.compute_centroidal_momentum(m, d, q, v),
                                        lambda: pin.computeCentroidalMomentum(pm, pd, q, v)),
        "compute_centroidal_momentum_time_variation": (
            None, lambda: r.compute_centroidal_momentum_time_variation(m, d, q, v, a),
            lambda: pin.computeCentroidalMomentumTimeVariation(pm, pd, q, v, a)),
        # energy
        "compute_kinetic_energy": (None, lambda: r.compute_kinetic_energy(m, d, q, v),
                                   lambda: pin.computeKineticEnergy(pm, pd, q, v)),
        "compute_potential_energy": (None, lambda: r.compute_potential_energy(m, d, q),
                                     lambda: pin.computePotentialEnergy(pm, pd, q)),
        "compute_mechanical_energy": (None, lambda: r.compute_mechanical_energy(m, d, q, v),
                                      lambda: pin.computeMechanicalEnergy(pm, pd, q, v)),
        # regressors
        "body_regressor": (None, lambda: r.body_regressor(v[:6], a[:6]),
                           lambda: pin.bodyRegressor(pin.Motion(v[:6]), pin.Motion(a[:6]))),
        "joint_body_regressor": (rnea_qva, lambda: r.joint_body_regressor(m, d, j),
                                 lambda: pin.jointBodyRegressor(pm, pd, j)),
        "frame_body_regressor": (rnea_qva, lambda: r.frame_body_regressor(m, d, f),
                                 lambda: pin.frameBodyRegressor(pm, pd, f)),
        "compute_joint_torque_regressor": (None, lambda: r.compute_joint_torque_regressor(m, d, q, v, a),
                                           lambda: pin.computeJointTorqueRegressor(pm, pd, q, v, a)),
        "compute_static_regressor": (None, lambda: r.compute_static_regressor(m, d, q),
                                     lambda: pin.computeStaticRegressor(pm, pd, q)),
        "compute_joint_kinematic_regressor": (fk_qva, lambda: r.compute_joint_kinematic_regressor(m, d, j, LWA),
                                              lambda: pin.computeJointKinematicRegressor(pm, pd, j, pLWA)),
        "compute_frame_kinematic_regressor": (
            both(lambda: r.frames_forward_kinematics(m, d, q), lambda: pin.framesForwardKinematics(pm, pd, q)),
            lambda: r.compute_frame_kinematic_regressor(m, d, f, LWA),
            lambda: pin.computeFrameKinematicRegressor(pm, pd, f, pLWA)),
        "compute_kinetic_energy_regressor": (None, lambda: r.compute_kinetic_energy_regressor(m, d, q, v),
                                             lambda: pin.computeKineticEnergyRegressor(pm, pd, q, v)),
        "compute_potential_energy_regressor": (None, lambda: r.compute_potential_energy_regressor(m, d, q),
                                               lambda: pin.computePotentialEnergyRegressor(pm, pd, q)),
        "compute_supported_inertia_by_frame": (fk_qva, lambda: r.compute_supported_inertia_by_frame(m, d, f, True),
                                               lambda: pin.computeSupportedInertiaByFrame(pm, pd, f, True)),
        "compute_supported_force_by_frame": (rnea_qva, lambda: r.compute_supported_force_by_frame(m, d, f),
                                             lambda: pin.computeSupportedForceByFrame(pm, pd, f)),
        # configuration
        "integrate": (None, lambda: r.integrate(m, q, v), lambda: pin.integrate(pm, q, v)),
        "difference": (None, lambda: r.difference(m, q, q1), lambda: pin.difference(pm, q, q1)),
        "interpolate": (None, lambda: r.interpolate(m, q, q1, 0.3), lambda: pin.interpolate(pm, q, q1, 0.3)),
        "distance": (None, lambda: r.distance(m, q, q1), lambda: pin.distance(pm, q, q1)),
        "squared_distance": (None, lambda: r.squared_distance(m, q, q1), lambda: pin.squaredDistance(pm, q, q1)),
        "neutral": (None, lambda: r.neutral(m), lambda: pin.neutral(pm)),
        "normalize": (None, lambda: r.normalize(m, q), lambda: pin.normalize(pm, q)),
        "is_normalized": (None, lambda: r.is_normalized(m, q), lambda: pin.isNormalized(pm, q)),
        "is_same_configuration": (None, lambda: r.is_same_configuration(m, q, q1),
                                  lambda: pin.isSameConfiguration(pm, q, q1, 1e-12)),
        "d_integrate": (None, lambda: r.d_integrate(m, q, v), lambda: pin.dIntegrate(pm, q, v)),
        "d_difference": (None, lambda: r.d_difference(m, q, q1), lambda: pin.dDifference(pm, q, q1)),
        "d_integrate_transport": (None, lambda: r.d_integrate_transport(m, q, v, s.Jt, r.ARG0),
                                  lambda: pin.dIntegrateTransport(pm, q, v, s.Jt, pin.ARG0)),
        # constrained dynamics
        "forward_dynamics": (crba_q, lambda: r.forward_dynamics(m, d, q, v, tau, s.Jc, s.gamma),
                             lambda: pin.forwardDynamics(pm, pd, q, v, tau, s.Jc, s.gamma)),
        "compute_kkt_contact_dynamic_matrix_inverse": (
            None, lambda: r.compute_kkt_contact_dynamic_matrix_inverse(m, d, q, s.Jc),
            lambda: pin.computeKKTContactDynamicMatrixInverse(pm, pd, q, s.Jc)),
        "init_constraint_dynamics": (None, lambda: r.init_constraint_dynamics(m, d, s.cms, s.cds),
                                     lambda: pin.initConstraintDynamics(pm, pd, s.pcms, s.pcds)),
        "constraint_dynamics": (None, lambda: r.constraint_dynamics(m, d, q, v, tau, s.cms, s.cds, s.settings),
                                lambda: pin.constraintDynamics(pm, pd, q, v, tau, s.pcms, s.pcds, s.pin_settings)),
        "compute_constraint_dynamics_derivatives": (
            constrained, lambda: r.compute_constraint_dynamics_derivatives(m, d, s.cms, s.cds, s.settings),
            lambda: pin.computeConstraintDynamicsDerivatives(pm, pd, s.pcms, s.pcds, s.pin_settings)),
        "impulse_dynamics": (None, lambda: r.impulse_dynamics(m, d, q, v, s.cms, s.cds, 0.0, s.settings),
                             lambda: pin.impulseDynamics(pm, pd, q, v, s.pcms, s.pcds, 0.0, s.pin_settings)),
        "compute_impulse_dynamics_derivatives": (
            impulse, lambda: r.compute_impulse_dynamics_derivatives(m, d, s.cms, s.cds, s.settings),
            lambda: pin.computeImpulseDynamicsDerivatives(pm, pd, s.pcms, s.pcds, 0.0, s.pin_settings)),
        "compute_delassus_matrix": (None, lambda: r.compute_delassus_matrix(m, d, q, s.cms, s.cds),
                                    lambda: pin.computeDelassusMatrix(pm, pd, q, s.pcms, s.pcds)),
        "compute_damped_delassus_matrix_inverse": (
            None, lambda: r.compute_damped_delassus_matrix_inverse(m, d, q, s.cms, s.cds, 1e-6),
            lambda: pin.computeDampedDelassusMatrixInverse(pm, pd, q, s.pcms, s.pcds, 1e-6)),
    }
