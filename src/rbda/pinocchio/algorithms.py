"""Pinocchio's algorithms under their camelCase names, with Pinocchio's overloads, over rbda's functions.

Each function translates its arguments (column vectors, ``StdVec`` containers, Pinocchio's optional and
positional forms), calls the rbda function of the same meaning on the ``rbda.Data`` that the ``Data`` holds, and
returns Pinocchio's types (``Motion``, ``Force``, ``SE3`` as ``rbda.pinocchio`` objects, arrays the caller owns).
No algorithm is written here. The forms that reuse a filled data (no ``q``) run rbda's algorithm again at the
configuration (velocity, acceleration) that the data recorded at its last call (see ``rbda.pinocchio.model``);
they raise, naming the call to make first, on a data that has none.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .. import algorithms as _a
from ..algorithms import cholesky as _cholesky
from ..algorithms import constrained as _constrained
from ..algorithms import derivatives as _derivatives
from ..algorithms import jacobian as _jacobian
from ..algorithms import kinematics as _kinematics
from ..model.constraints import RigidConstraintModel as _RigidConstraintModel
from ..spatial import ReferenceFrame
from . import spatial as _ps
from ._convert import native, to_pin, vector
from .model import KinematicLevel, record, recorded

LOCAL, WORLD, LOCAL_WORLD_ALIGNED = ReferenceFrame.LOCAL, ReferenceFrame.WORLD, ReferenceFrame.LOCAL_WORLD_ALIGNED
ArgumentPosition, ARG0, ARG1 = _a.ArgumentPosition, _a.ARG0, _a.ARG1


class Convention:
    """Pinocchio's ``Convention`` (the frame in which ABA and CRBA keep their intermediate quantities): accepted
    and ignored, the results do not depend on it."""

    LOCAL, WORLD = 0, 1


def _v(*xs):
    return tuple(vector(x) for x in xs)


def _is_array(x) -> bool:
    return isinstance(x, (np.ndarray, list, tuple)) and not isinstance(x, bool)


def _translate(function, state: str = ""):
    """Pinocchio's twin of rbda's ``function(model, data, *args)``: called on the data's rbda data with its first
    ``len(state)`` arguments as vectors (column vectors accepted), which the data records as its ``q``, ``v``,
    ``a`` where ``state`` says so (``t``: a vector not recorded, such as ``tau``); the result in Pinocchio's
    types."""

    def translated(model, data, *args, **kwargs):
        args = [vector(x) if k < len(state) else x for k, x in enumerate(args)]
        record(data, **{c: x for c, x in zip(state, args) if c in "qva"})
        return to_pin(function(model, native(data), *args, **kwargs))

    translated.__doc__ = f"Pinocchio's name of :func:`rbda.{function.__name__}`, on a Pinocchio data."
    return translated


# ------------------------------------------------------------------------------------------------------ kinematics
def forwardKinematics(model, data, q, v=None, a=None):
    q, v, a = _v(q, v, a)
    _a.forward_kinematics(model, native(data), q, v, a)
    record(data, q, v, a)
















def _frame_motion(model, data, field: str, args):
    """``getFrameVelocity``/``getFrameAcceleration``: ``(frame_id[, rf])`` or ``(joint_id, placement[, rf])``."""
    d = native(data)
    if len(args) >= 2 and isinstance(args[1], _ps._s.SE3):
        joint_id, placement, *rest = args
        joint_id = _kinematics._joint_id(model, d, joint_id)
        local = _ps._s.Motion(getattr(d, field)[joint_id])
        return to_pin(_kinematics._express(model, d, joint_id, local, rest[0] if rest else LOCAL, placement))
    get = _a.get_frame_velocity if field == "v" else _a.get_frame_acceleration
    return to_pin(get(model, d, *args))


def getFrameVelocity(model, data, *args):
    """``(model, data, frame_id[, reference_frame])`` or ``(model, data, joint_id, placement[, reference_frame])``."""
    return _frame_motion(model, data, "v", args)


def getFrameAcceleration(model, data, *args):
    return _frame_motion(model, data, "a", args)


def getFrameClassicalAcceleration(model, data, *args):
    """The classical acceleration (``a + w x v`` in its linear part) of a frame, in either form of
    :func:`getFrameVelocity`."""
    return to_pin(_kinematics._classical(_frame_motion(model, data, "v", args), _frame_motion(model, data, "a", args)))


# ------------------------------------------------------------------------------------------------------ Jacobians
def computeJointJacobians(model, data, q=None):
    q = vector(q)
    J = _a.compute_joint_jacobians(model, native(data), q)
    if q is not None:
        record(data, q)
    return J






def getFrameJacobian(model, data, *args):
    """``(model, data, frame_id, reference_frame)`` or ``(model, data, joint_id, placement, reference_frame)``."""
    d = native(data)
    if len(args) >= 2 and isinstance(args[1], _ps._s.SE3):
        joint_id, placement, reference_frame = args
        joint_id = _kinematics._joint_id(model, d, joint_id)
        cols = _jacobian._support_columns(model, joint_id)
        oM = d.oMi[joint_id] * placement
        return _jacobian._model_columns(model, cols, _jacobian._express_columns(d.J[:, cols], oM, reference_frame))
    return _a.get_frame_jacobian(model, d, *args)










def frameJacobianTimeVariation(model, data, q, v, frame_id, reference_frame):
    """``dJ/dt`` of a frame at ``(q, v)``, with the kinematics and the frame's placement updated."""
    computeJointJacobiansTimeVariation(model, data, q, v)
    _a.update_frame_placement(model, native(data), frame_id)
    return _a.get_frame_jacobian_time_variation(model, native(data), frame_id, reference_frame)


def computeJointKinematicHessians(model, data, q=None):
    q = vector(q) if q is not None else recorded(data, "q", "forwardKinematics(model, data, q)")
    record(data, q)
    return _a.compute_joint_kinematic_hessians(model, native(data), q)




# ------------------------------------------------------------------------------------------------------ dynamics


def aba(model, data, q, v, tau, fext=None, convention=None):
    """``aba(model, data, q, v, tau[, fext][, convention])``; the convention is accepted and does not change the
    result."""
    if isinstance(fext, int):  # aba(model, data, q, v, tau, convention)
        fext = None
    q, v, tau = _v(q, v, tau)
    record(data, q, v)
    return _a.aba(model, native(data), q, v, tau, fext)


def crba(model, data, q, convention=None):
    q = vector(q)
    record(data, q)
    return _a.crba(model, native(data), q)


def computeMinverse(model, data, q=None):
    q = vector(q) if q is not None else recorded(data, "q", "aba(model, data, q, v, tau) or crba(model, data, q)")
    record(data, q)
    return _a.compute_minverse(model, native(data), q)










def computeAllTerms(model, data, q, v):
    """What Pinocchio's ``computeAllTerms`` fills: the placements, ``M``, ``nle``, ``g``, the Jacobians ``J``,
    the centre of mass and its velocity and Jacobian, the centroidal map, momentum and inertia, and the kinetic and
    potential energies, each by its rbda function."""
    q, v = _v(q, v)
    d = native(data)
    _a.jacobian_center_of_mass(model, d, q)
    _a.ccrba(model, d, q, v)
    _a.compute_mechanical_energy(model, d, q, v)
    _a.center_of_mass(model, d, q, v)
    _a.compute_all_terms(model, d, q, v)
    _a.compute_joint_jacobians(model, d, q)
    record(data, q, v)


# ------------------------------------------------------------------------------------------------------ derivatives
















def _frame_derivatives(model, data, args, accel: bool):
    d = native(data)
    if len(args) >= 2 and isinstance(args[1], _ps._s.SE3):  # (joint_id, placement, reference_frame)
        joint_id, placement, reference_frame = args
        joint_id = _kinematics._joint_id(model, d, joint_id)
        out = _derivatives._motion_derivatives(model, d, joint_id, placement, reference_frame, accel)
        return tuple(out) if not accel else (out[0], out[2], out[3], out[4])
    get = _a.get_frame_acceleration_derivatives if accel else _a.get_frame_velocity_derivatives
    return get(model, d, *args)


def getFrameVelocityDerivatives(model, data, *args):
    """``(model, data, frame_id, reference_frame)`` or ``(model, data, joint_id, placement, reference_frame)``."""
    return _frame_derivatives(model, data, args, False)


def getFrameAccelerationDerivatives(model, data, *args):
    return _frame_derivatives(model, data, args, True)




def getCentroidalDynamicsDerivatives(model, data):
    """The centroidal derivatives at the data's last ``(q, v, a)`` (after ``computeRNEADerivatives``)."""
    q = recorded(data, "q", "computeRNEADerivatives(model, data, q, v, a)")
    v, a = recorded(data, "v", "computeRNEADerivatives"), recorded(data, "a", "computeRNEADerivatives")
    return _a.compute_centroidal_dynamics_derivatives(model, native(data), q, v, a)


def getCenterOfMassVelocityDerivatives(model, data):
    """``dvcom/dq`` ``(3, nv)`` at the data's last ``(q, v)`` (after ``computeAllTerms`` or ``centerOfMass``)."""
    q, v = recorded(data, "q", "computeAllTerms(model, data, q, v)"), recorded(data, "v", "computeAllTerms")
    scratch = model.create_data()
    _a.compute_centroidal_dynamics_derivatives(model, scratch, q, v, np.zeros(model.nv))
    return _a.get_center_of_mass_velocity_derivatives(model, scratch)


# ------------------------------------------------------------------------------------------------------ centre of mass
def computeTotalMass(model, data=None):
    return _a.compute_total_mass(model, None if data is None else native(data))


def computeSubtreeMasses(model, data):
    _a.compute_subtree_masses(model, native(data))


def centerOfMass(model, data, *args):
    """``(q[, v[, a]][, compute_subtree_coms])``, ``(kinematic_level[, compute_subtree_coms])`` (from the data's
    kinematics) or ``([compute_subtree_coms])`` (the data's whole state); returns the CoM ``(3,)``."""
    args = list(args)
    if args and isinstance(args[-1], (bool, np.bool_)):
        args.pop()
    if args and isinstance(args[0], (int, np.integer)) and not _is_array(args[0]):
        level = KinematicLevel(int(args[0]))
        state = [recorded(data, "q", "forwardKinematics(model, data, q)")]
        if level >= KinematicLevel.VELOCITY:
            state.append(recorded(data, "v", "forwardKinematics(model, data, q, v)"))
        if level >= KinematicLevel.ACCELERATION:
            state.append(recorded(data, "a", "forwardKinematics(model, data, q, v, a)"))
        args = state
    elif not args:
        args = [recorded(data, name, "forwardKinematics(model, data, q)") for name in ("q", "v", "a")
                if getattr(data, "_" + name, None) is not None]
    args = [vector(x) for x in args]
    com = _a.center_of_mass(model, native(data), *args)
    record(data, *args)
    return com


def jacobianCenterOfMass(model, data, q=None, compute_subtree_coms: bool = True):
    if q is None or isinstance(q, (bool, np.bool_)):
        q = recorded(data, "q", "forwardKinematics(model, data, q)")
    q = vector(q)
    record(data, q)
    return _a.jacobian_center_of_mass(model, native(data), q, compute_subtree_coms)


def jacobianSubtreeCenterOfMass(model, data, *args):
    """``(q, subtree_root_joint_id)`` or ``(subtree_root_joint_id)`` (the data's last configuration)."""
    if len(args) == 2:
        q, joint_id = vector(args[0]), args[1]
    else:
        q, joint_id = recorded(data, "q", "forwardKinematics(model, data, q)"), args[0]
    record(data, q)
    return _a.jacobian_subtree_center_of_mass(model, native(data), q, joint_id)


def getJacobianSubtreeCenterOfMass(model, data, subtree_root_joint_id):
    return jacobianSubtreeCenterOfMass(model, data, subtree_root_joint_id)


# ------------------------------------------------------------------------------------------------------ centroidal








def computeCentroidalMomentum(model, data, q=None, v=None):
    if q is None:
        q, v = recorded(data, "q", "forwardKinematics(model, data, q, v)"), recorded(data, "v", "forwardKinematics")
    q, v = _v(q, v)
    record(data, q, v)
    return _ps.Force(_a.compute_centroidal_momentum(model, native(data), q, v))


def computeCentroidalMomentumTimeVariation(model, data, q=None, v=None, a=None):
    if q is None:
        q, v, a = (recorded(data, n, "forwardKinematics(model, data, q, v, a)") for n in ("q", "v", "a"))
    q, v, a = _v(q, v, a)
    record(data, q, v, a)
    return _ps.Force(_a.compute_centroidal_momentum_time_variation(model, native(data), q, v, a))


# ------------------------------------------------------------------------------------------------------ energy
def computeKineticEnergy(model, data, q=None, v=None):
    if q is None:
        q, v = recorded(data, "q", "forwardKinematics(model, data, q, v)"), recorded(data, "v", "forwardKinematics")
    q, v = _v(q, v)
    record(data, q, v)
    return _a.compute_kinetic_energy(model, native(data), q, v)


def computePotentialEnergy(model, data, q=None):
    q = vector(q) if q is not None else recorded(data, "q", "forwardKinematics(model, data, q)")
    record(data, q)
    return _a.compute_potential_energy(model, native(data), q)


def computeMechanicalEnergy(model, data, q=None, v=None):
    if q is None:
        q, v = recorded(data, "q", "forwardKinematics(model, data, q, v)"), recorded(data, "v", "forwardKinematics")
    q, v = _v(q, v)
    record(data, q, v)
    return _a.compute_mechanical_energy(model, native(data), q, v)


# ------------------------------------------------------------------------------------------------------ regressors


def bodyRegressor(velocity, acceleration):
    return _a.body_regressor(vector(getattr(velocity, "vector", velocity)),
                             vector(getattr(acceleration, "vector", acceleration)))




















# ------------------------------------------------------------------------------------------------------ configuration
def integrate(model, q, v):
    return _a.integrate(model, *_v(q, v))


def difference(model, q0, q1):
    return _a.difference(model, *_v(q0, q1))


def interpolate(model, q0, q1, alpha):
    return _a.interpolate(model, *_v(q0, q1), alpha)


def squaredDistance(model, q0, q1):
    return _a.squared_distance(model, *_v(q0, q1))


squareDistance = squaredDistance  # the name in the Pinocchio cheat sheet


def distance(model, q0, q1):
    return _a.distance(model, *_v(q0, q1))


def neutral(model):
    return _a.neutral(model)


def normalize(model, q):
    return _a.normalize(model, vector(q))


def isNormalized(model, q, prec: float = 1e-12):
    return _a.is_normalized(model, vector(q), prec)


def isSameConfiguration(model, q0, q1, prec: float = 1e-12):
    return _a.is_same_configuration(model, *_v(q0, q1), prec)


def randomConfiguration(model, lower_limits=None, upper_limits=None):
    return _a.random_configuration(model, *_v(lower_limits, upper_limits), rng=_ps._rng)


def dIntegrate(model, q, v, arg=None):
    """``(J_q, J_v)`` without ``arg``; the one of ``arg`` (``ARG0``, ``ARG1``) with it."""
    return _a.d_integrate(model, *_v(q, v), arg)


def dDifference(model, q0, q1, arg=None):
    return _a.d_difference(model, *_v(q0, q1), arg)


def dIntegrateTransport(model, q, v, J, arg):
    return _a.d_integrate_transport(model, *_v(q, v), vector(J) if np.ndim(J) == 2 and 1 in np.shape(J) and
                                    np.shape(J)[0] == 1 else J, arg)


# ------------------------------------------------------------------------------------------------------ constrained
def _constraint_list(x) -> bool:
    return isinstance(x, Sequence) and not isinstance(x, (str, np.ndarray)) and len(x) > 0 and all(
        isinstance(c, _RigidConstraintModel) for c in x)


def forwardDynamics(model, data, *args):
    """``(q, v, tau, J, gamma[, inv_damping])`` or ``(tau, J, gamma[, inv_damping])`` (the data's last ``(q, v)``,
    after ``computeAllTerms``)."""
    if len(args) >= 3 and np.ndim(args[1]) == 2:  # (tau, J, gamma, ...)
        q = recorded(data, "q", "computeAllTerms(model, data, q, v)")
        v = recorded(data, "v", "computeAllTerms(model, data, q, v)")
        args = (q, v, *args)
    q, v, tau, J, gamma, *rest = args
    q, v, tau, gamma = _v(q, v, tau, gamma)
    record(data, q, v)
    return _a.forward_dynamics(model, native(data), q, v, tau, J, gamma, *rest)


def impulseDynamics(model, data, *args):
    """``(q, v, J[, r_coeff[, inv_damping]])``, ``(v, J[, r_coeff[, inv_damping]])`` (the data's last
    configuration, after ``crba``) or ``(q, v, contact_models, contact_datas[, r_coeff[, prox_settings]])``."""
    if len(args) >= 2 and np.ndim(args[1]) == 2:  # (v, J, ...)
        args = (recorded(data, "q", "crba(model, data, q)"), *args)
    q, v, *rest = args
    q, v = _v(q, v)
    record(data, q)
    if _constraint_list(rest[0]):
        return _a.impulse_dynamics(model, native(data), q, v, list(rest[0]), list(rest[1]), *rest[2:])
    J, *numbers = rest
    return _a.impulse_dynamics(model, native(data), q, v, J, *(numbers or [0.0]))




def getKKTContactDynamicMatrixInverse(model, data, J):
    """The KKT inverse at the data's last configuration (after ``forwardDynamics``)."""
    q = recorded(data, "q", "forwardDynamics(model, data, q, v, tau, J, gamma)")
    return _a.compute_kkt_contact_dynamic_matrix_inverse(model, native(data), q, J)


def initConstraintDynamics(model, data, contact_models, contact_datas=None):
    _a.init_constraint_dynamics(model, native(data), list(contact_models),
                                None if contact_datas is None else list(contact_datas))


def constraintDynamics(model, data, q, v, tau, contact_models, contact_datas, prox_settings=None):
    q, v, tau = _v(q, v, tau)
    record(data, q, v)
    return _a.constraint_dynamics(model, native(data), q, v, tau, list(contact_models), list(contact_datas),
                                  prox_settings)


def computeConstraintDynamicsDerivatives(model, data, contact_models, contact_datas, prox_settings=None):
    return _a.compute_constraint_dynamics_derivatives(model, native(data), list(contact_models), list(contact_datas),
                                                      prox_settings)


def computeImpulseDynamicsDerivatives(model, data, contact_models, contact_datas, r_coeff=None, prox_settings=None):
    """The derivatives of the last ``impulseDynamics`` (its restitution ``r_coeff``, which this argument repeats),
    into Pinocchio's fields: ``data.ddq_dq = dv_after/dq``, ``data.ddq_dv = dv_after/dv - 1`` (Pinocchio's field
    holds the derivative of ``v_after - v``; rbda's ``data.dvafter_dv`` the derivative of ``v_after``),
    ``data.dlambda_dq``, ``data.dlambda_dv`` the impulses'. Returns None, as Pinocchio's."""
    d = native(data)
    dv_dq, dv_dv, dP_dq, dP_dv = _a.compute_impulse_dynamics_derivatives(model, d, list(contact_models),
                                                                        list(contact_datas), prox_settings)
    d.ddq_dq[...], d.ddq_dv[...] = dv_dq, dv_dv - np.eye(model.nv)
    d.dlambda_dq, d.dlambda_dv = dP_dq, dP_dv


def computeDelassusMatrix(model, data, q, contact_models, contact_datas, mu: float = 0.0):
    q = vector(q)
    record(data, q)
    return _a.compute_delassus_matrix(model, native(data), q, list(contact_models), list(contact_datas), mu)


def computeDampedDelassusMatrixInverse(model, data, q, contact_models, contact_datas, mu: float = 0.0, *_):
    q = vector(q)
    record(data, q)
    return _a.compute_damped_delassus_matrix_inverse(model, native(data), q, list(contact_models),
                                                     list(contact_datas), mu)


def getConstraintJacobian(model, data, contact_model, contact_data):
    """The Jacobian ``(size, nv)`` of one constraint, or of a list of them stacked, at the data's last
    configuration (in each constraint's frame)."""
    single = isinstance(contact_model, _RigidConstraintModel)
    models, datas = ([contact_model], [contact_data]) if single else (list(contact_model), list(contact_data))
    q = recorded(data, "q", "forwardKinematics(model, data, q)")
    return _constrained._constraint_jacobian(model, native(data), q, models, datas).copy()


def getConstraintsJacobian(model, data, contact_models, contact_datas):
    return getConstraintJacobian(model, data, list(contact_models), list(contact_datas))


# ------------------------------------------------------------------------------------------------ plain translations
# Pinocchio's name = _translate(rbda's function, its leading vector arguments: q, v, a recorded, t not)
framesForwardKinematics = _translate(_a.frames_forward_kinematics, "q")
updateFramePlacements = _translate(_a.update_frame_placements)
updateFramePlacement = _translate(_a.update_frame_placement)
updateGlobalPlacements = _translate(_a.update_global_placements)
getVelocity = _translate(_a.get_velocity)
getAcceleration = _translate(_a.get_acceleration)
getClassicalAcceleration = _translate(_a.get_classical_acceleration)
computeJointJacobian = _translate(_a.compute_joint_jacobian, "q")
getJointJacobian = _translate(_a.get_joint_jacobian)
computeFrameJacobian = _translate(_a.compute_frame_jacobian, "q")
computeJointJacobiansTimeVariation = _translate(_a.compute_joint_jacobians_time_variation, "qv")
getJointJacobianTimeVariation = _translate(_a.get_joint_jacobian_time_variation)
getFrameJacobianTimeVariation = _translate(_a.get_frame_jacobian_time_variation)
getJointKinematicHessian = _translate(_a.get_joint_kinematic_hessian)
rnea = _translate(_a.rnea, "qva")
nonLinearEffects = _translate(_a.nonlinear_effects, "qv")
computeGeneralizedGravity = _translate(_a.compute_generalized_gravity, "q")
computeStaticTorque = _translate(_a.compute_static_torque, "q")
computeCoriolisMatrix = _translate(_a.compute_coriolis_matrix, "qv")
computeRNEADerivatives = _translate(_a.compute_rnea_derivatives, "qva")
computeABADerivatives = _translate(_a.compute_aba_derivatives, "qvt")
computeGeneralizedGravityDerivatives = _translate(_a.compute_generalized_gravity_derivatives, "q")
computeStaticTorqueDerivatives = _translate(_a.compute_static_torque_derivatives, "q")
computeRNEASecondOrderDerivatives = _translate(_a.compute_rnea_second_order_derivatives, "qva")
computeForwardKinematicsDerivatives = _translate(_a.compute_forward_kinematics_derivatives, "qva")
getJointVelocityDerivatives = _translate(_a.get_joint_velocity_derivatives)
getJointAccelerationDerivatives = _translate(_a.get_joint_acceleration_derivatives)
computeCentroidalDynamicsDerivatives = _translate(_a.compute_centroidal_dynamics_derivatives, "qva")
ccrba = _translate(_a.ccrba, "qv")
dccrba = _translate(_a.dccrba, "qv")
computeCentroidalMap = _translate(_a.compute_centroidal_map, "q")
computeCentroidalMapTimeVariation = _translate(_a.compute_centroidal_map_time_variation, "qv")
computeStaticRegressor = _translate(_a.compute_static_regressor, "q")
jointBodyRegressor = _translate(_a.joint_body_regressor)
frameBodyRegressor = _translate(_a.frame_body_regressor)
computeJointTorqueRegressor = _translate(_a.compute_joint_torque_regressor, "qva")
computeJointKinematicRegressor = _translate(_a.compute_joint_kinematic_regressor)
computeFrameKinematicRegressor = _translate(_a.compute_frame_kinematic_regressor)
computeKineticEnergyRegressor = _translate(_a.compute_kinetic_energy_regressor, "qv")
computePotentialEnergyRegressor = _translate(_a.compute_potential_energy_regressor, "q")
computeSupportedInertiaByFrame = _translate(_a.compute_supported_inertia_by_frame)
computeSupportedForceByFrame = _translate(_a.compute_supported_force_by_frame)
computeKKTContactDynamicMatrixInverse = _translate(_a.compute_kkt_contact_dynamic_matrix_inverse, "q")


# ------------------------------------------------------------------------------------------------------ cholesky
class cholesky:  # noqa: N801  (Pinocchio's namespace)
    """Pinocchio's ``pinocchio.cholesky``: rbda's :mod:`rbda.cholesky` under Pinocchio's names."""

    decompose = staticmethod(_translate(_cholesky.decompose))
    solve = staticmethod(_translate(_cholesky.solve, "t"))
    computeMinv = staticmethod(_translate(_cholesky.compute_minv))
    Mv, UDUtv = staticmethod(_translate(_cholesky.Mv)), staticmethod(_translate(_cholesky.UDUtv))
    Uv, Utv = staticmethod(_translate(_cholesky.Uv)), staticmethod(_translate(_cholesky.Utv))
    Uiv, Utiv = staticmethod(_translate(_cholesky.Uiv)), staticmethod(_translate(_cholesky.Utiv))


__all__ = sorted(name for name, x in list(globals().items()) if not name.startswith("_") and callable(x)
                 and getattr(x, "__module__", None) == __name__)
