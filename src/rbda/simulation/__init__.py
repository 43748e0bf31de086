"""Contact simulation: friction cones, the Delassus operator and the contact solvers (PGS and ADMM on the NCP, the
CCP and the LCP), and the physical criteria of a contact solution.

A contact impulse is ``[f_t1, f_t2, f_n]`` in its contact frame, normal last; ``k`` contacts stack into ``(3k,)``.
"""

from .cones import (CoulombFrictionCone, DualCoulombFrictionCone, DualPyramidalFrictionCone,
                    PyramidalFrictionCone)
from .delassus import DelassusDense
from .metrics import (ContactMetrics, conic_complementarity, contact_metrics, dual_feasibility,
                      maximum_dissipation_gap, ncp_complementarity, primal_feasibility, signorini)
from .solvers import ADMMSolver, ConvergenceWarning, PGSSolver, SolverStats
from .contacts import ContactSet, compute_contacts
from .simulator import Simulator
from .world import add_free_body, add_ground_plane
from .constraints import ConstraintRows
from .control import StandingPD

__all__ = [
    "ADMMSolver", "ContactMetrics", "ConvergenceWarning", "CoulombFrictionCone", "DelassusDense", "DualCoulombFrictionCone",
    "DualPyramidalFrictionCone", "PGSSolver", "PyramidalFrictionCone", "SolverStats", "conic_complementarity",
    "contact_metrics", "dual_feasibility", "maximum_dissipation_gap", "ncp_complementarity", "primal_feasibility",
    "signorini",
    "ContactSet", "Simulator", "add_free_body", "add_ground_plane", "compute_contacts",
    "ConstraintRows",
    "StandingPD", "RolloutPool",
]

from . import pair_kernels  # noqa: E402, F401 (registers the bounded pairs' function in contacts.PAIR_FUNCTIONS)
from . import halfspace_contacts  # noqa: E402, F401 (a half-space against a cone, an ellipsoid, a convex polytope)


def __getattr__(name):  # RolloutPool loads its thread and process pools' modules (16 ms) on first use
    if name == "RolloutPool":
        from .rollout import RolloutPool

        return RolloutPool
    raise AttributeError(f"module 'rbda.simulation' has no attribute {name!r}")
