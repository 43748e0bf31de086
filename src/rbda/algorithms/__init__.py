"""The public algorithms, one module per family; all are re-exported at the top level of ``rbda``."""

from .configuration import (
    ARG0,
    ARG1,
    ArgumentPosition,
    d_difference,
    d_integrate,
    d_integrate_transport,
    difference,
    distance,
    integrate,
    interpolate,
    is_normalized,
    is_same_configuration,
    neutral,
    normalize,
    random_configuration,
    squared_distance,
)
from .dynamics import (
    aba,
    compute_all_terms,
    compute_coriolis_matrix,
    compute_generalized_gravity,
    compute_minverse,
    compute_static_torque,
    crba,
    nonlinear_effects,
    rnea,
)
from .jacobian import (
    compute_frame_jacobian,
    compute_joint_jacobian,
    compute_joint_jacobians,
    compute_joint_jacobians_time_variation,
    compute_joint_kinematic_hessians,
    get_frame_jacobian,
    get_frame_jacobian_time_variation,
    get_joint_jacobian,
    get_joint_jacobian_time_variation,
    get_joint_kinematic_hessian,
)
from .kinematics import (
    forward_kinematics,
    frames_forward_kinematics,
    get_acceleration,
    get_classical_acceleration,
    get_frame_acceleration,
    get_frame_classical_acceleration,
    get_frame_velocity,
    get_velocity,
    update_frame_placement,
    update_frame_placements,
    update_global_placements,
)
from .derivatives import (
    compute_aba_derivatives,
    compute_generalized_gravity_derivatives,
    compute_rnea_derivatives,
    compute_rnea_second_order_derivatives,
    compute_static_torque_derivatives,
)
from .center_of_mass import (
    center_of_mass,
    compute_subtree_masses,
    compute_total_mass,
    jacobian_center_of_mass,
    jacobian_subtree_center_of_mass,
)
from .centroidal import (
    ccrba,
    compute_centroidal_map,
    compute_centroidal_map_time_variation,
    compute_centroidal_momentum,
    compute_centroidal_momentum_time_variation,
    dccrba,
)
from .energy import compute_kinetic_energy, compute_mechanical_energy, compute_potential_energy
from .derivatives import (
    compute_centroidal_dynamics_derivatives,
    compute_forward_kinematics_derivatives,
    get_center_of_mass_velocity_derivatives,
    get_frame_acceleration_derivatives,
    get_frame_velocity_derivatives,
    get_joint_acceleration_derivatives,
    get_joint_velocity_derivatives,
    get_point_classic_acceleration_derivatives,
    get_point_velocity_derivatives,
)
from .regressor import (
    body_regressor,
    compute_frame_kinematic_regressor,
    compute_joint_kinematic_regressor,
    compute_joint_torque_regressor,
    compute_kinetic_energy_regressor,
    compute_potential_energy_regressor,
    compute_static_regressor,
    frame_body_regressor,
    joint_body_regressor,
)
from .supported import compute_supported_force_by_frame, compute_supported_inertia_by_frame
from . import cholesky  # noqa: E402  (Pinocchio's ``cholesky`` namespace: rbda.cholesky.decompose, ...)
from .constrained import (  # constrained dynamics: contacts, loop closures, impulses (rbda.model.constraints)
    compute_damped_delassus_matrix_inverse,
    compute_delassus_matrix,
    compute_kkt_contact_dynamic_matrix_inverse,
    constraint_dynamics,
    forward_dynamics,
    impulse_dynamics,
    init_constraint_dynamics,
)
from .delassus import DelassusOperator  # noqa: E402  (the Delassus operator that contact solvers take)
from .constrained_derivatives import (  # noqa: E402  (their analytical derivatives)
    compute_constraint_dynamics_derivatives,
    compute_impulse_dynamics_derivatives,
)

# What ``from rbda.algorithms import *`` (and so ``rbda``) exports: the functions, not their modules (a module
# and its function share names such as ``center_of_mass``, which type checkers would otherwise confuse).
__all__ = [
    "aba", "ARG0", "ARG1", "ArgumentPosition", "body_regressor", "ccrba", "center_of_mass", "cholesky",
    "compute_aba_derivatives", "compute_all_terms", "compute_centroidal_dynamics_derivatives",
    "compute_centroidal_map", "compute_centroidal_map_time_variation", "compute_centroidal_momentum",
    "compute_centroidal_momentum_time_variation", "compute_coriolis_matrix",
    "compute_forward_kinematics_derivatives", "compute_frame_jacobian", "compute_frame_kinematic_regressor",
    "compute_generalized_gravity", "compute_generalized_gravity_derivatives", "compute_joint_jacobian",
    "compute_joint_jacobians", "compute_joint_jacobians_time_variation", "compute_joint_kinematic_hessians",
    "compute_joint_kinematic_regressor", "compute_joint_torque_regressor", "compute_kinetic_energy",
    "compute_kinetic_energy_regressor", "compute_mechanical_energy", "compute_minverse",
    "compute_potential_energy", "compute_potential_energy_regressor", "compute_rnea_derivatives",
    "compute_rnea_second_order_derivatives", "compute_static_regressor", "compute_static_torque",
    "compute_static_torque_derivatives", "compute_subtree_masses", "compute_supported_force_by_frame",
    "compute_supported_inertia_by_frame", "compute_total_mass", "crba", "d_difference", "d_integrate",
    "d_integrate_transport", "dccrba", "difference", "distance", "forward_kinematics", "frame_body_regressor",
    "frames_forward_kinematics", "get_acceleration", "get_center_of_mass_velocity_derivatives",
    "get_classical_acceleration", "get_frame_acceleration", "get_frame_acceleration_derivatives",
    "get_frame_classical_acceleration", "get_frame_jacobian", "get_frame_jacobian_time_variation",
    "get_frame_velocity", "get_frame_velocity_derivatives", "get_joint_acceleration_derivatives",
    "get_joint_jacobian", "get_joint_jacobian_time_variation", "get_joint_kinematic_hessian",
    "get_joint_velocity_derivatives", "get_point_classic_acceleration_derivatives",
    "get_point_velocity_derivatives", "get_velocity", "integrate", "interpolate", "is_normalized",
    "is_same_configuration", "jacobian_center_of_mass", "jacobian_subtree_center_of_mass", "joint_body_regressor",
    "neutral", "nonlinear_effects", "normalize", "random_configuration", "rnea", "squared_distance",
    "update_frame_placement", "update_frame_placements", "update_global_placements",
    # constrained dynamics
    "compute_constraint_dynamics_derivatives", "compute_damped_delassus_matrix_inverse", "compute_delassus_matrix",
    "compute_impulse_dynamics_derivatives", "compute_kkt_contact_dynamic_matrix_inverse", "constraint_dynamics",
    "DelassusOperator", "forward_dynamics", "impulse_dynamics", "init_constraint_dynamics",
]
