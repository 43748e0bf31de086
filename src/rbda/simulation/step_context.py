"""The arrays of one simulator's compiled step in one object (a numba structref), so that a step is one kernel call
with a few arguments: :func:`rbda.simulation.compiled.step` reads the model's and the workspace's arrays, the
packed scene and the joint-limit tables from it, and writes the step's results into its output buffers instead
of returning new arrays.

Why: at the kernel boundary each array argument costs about 0.05 us to unbox and each returned array about 0.25 us
to box; a step's stages read some 80 arrays and write 11, which as arguments and results would cost 5 to 6 us a
step. A structref is unboxed in about 0.5 us.

The output buffers come in two sets (leading axis of size 2): a step writes the set ``parity`` and reads its warm
start (the previous step's keys, impulses and their counts) from the other; the step alternates the sets itself
(the field ``parity`` names the last step's) and, after a step that ran otherwise, the simulator writes the warm
start into the set the next one reads (``packed.stage_warm``).

The context does not own its arrays: it holds them borrowed (``_native.views.borrowed_all``: no owner, so that
reading a field, passing it to a kernel and cutting views of it count no reference; each count is an atomic
operation, and they were a fifth of a small scene's step), and whoever builds it keeps the arrays alive for as long
as it is used (``packed.context`` keeps them with it on the simulator).

This module imports numba when it is imported: :mod:`rbda.simulation.packed` imports it when a simulator first
steps, not with ``import rbda``.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.experimental import structref

from .._native.jit import njit
from .._native.views import borrowed_all
from .compiled import COUNTS
from .solvers import STEP_STATS

FIELDS = (
    # the model's packed arrays and the workspace's (sim.data)
    "I", "F", "ws", "M", "L", "D", "Dinv", "lam", "nle", "oMi", "Jw",
    # the packed scene (PackedScene): shapes, pairs, vertices and their leaves' boxes, the joint tree, room
    "pairs", "gint", "gR", "gp", "gparam", "vertices", "boxes", "tree", "work",
    # the speculative margins' tables and room, and the geometry placements' room
    "R", "p", "margins", "plane", "radius", "normals", "velocities", "twists",
    # joint limits and dry friction
    "gparent", "limit_q", "limit_v", "lower_limit", "upper_limit", "friction_v", "friction",
    # the passive forces (simulation/passive.PassiveForces): joint springs, fixed tendons (their springs, dampers and
    # limits), gravity compensation, fluid forces, and their room
    "spring_q", "spring_v", "spring_k", "spring_ref", "tendon_q", "tendon_v", "tendon_k", "tendon_d",
    "tendon_length0", "tendon_limited", "tendon_lower", "tendon_upper", "gravcomp_joint", "gravcomp", "fluid_joint",
    "fluid_R", "fluid_p", "fluid_viscous", "fluid_quadratic", "wind", "passive_room", "passive_velocities",
    # zeros (nv,), the kernels' "no external forces", the joints' supports (njoints, nv)
    "zeros", "no_fext", "support",
    # the contact stage's room: a patch's kept rows (PATCH_POINTS,), a half-space's world normal (3,)
    "keep", "normal",
    # the simulator's joint damping (nv,) and settings (one compiled.SETTINGS record), which their setters change;
    # the solver's options (one SOLVER_OPTIONS record, copied from the solver's when they change: packed.ready)
    "damping", "settings", "options",
    # the bounded shapes' tables (pair_kernels.shape_tables) and a pair's room (pair_kernels.pair_room, its kept
    # rows "keep"), and its rows
    "sparam", "hull", "graph", "faces", "face_ranges", "polygons",
    "simplex", "simplex_weights", "hull_starts", "witness", "iterations", "epa_polytope", "epa_faces", "epa_planes",
    "epa_alive", "epa_edges", "pair_placements", "features", "clipped", "patch", "end_sphere", "pair_rows",
    # the broad phase (broad_phase.py): the half-space pairs, the bounded objects and their order of the sweep, their
    # partners, their boxes in their frames and in the world, the candidate pairs
    "plane_pairs", "bounded", "order", "partner_start", "partners", "local_box", "world_box", "candidates",
    # room for the contact stage's scratch arrays, floats and integers (compiled.room_sizes, views.take)
    "room", "iroom",
    # the bilateral constraints (kernels/constrained.py's packed constraints: ints, floats, records, their rows of
    # J, their biases, work) and their rows' keys (BILATERAL, constraint, row); none: no rows
    "CI", "CF", "CR", "cJ", "cbias", "cwork", "ckeys",
    # the output buffers, two sets: contacts (2, cap, 8), keys (2, cap, 4), frames (2, cap, 3, 3), J (2, m, nv),
    # bias, lower, upper (2, r), row keys (2, r, 3), impulses, velocities (2, m), statistics (2,: solvers.STEP_STATS
    # records), v_free (2, nv), counts (2,: compiled.COUNTS records)
    "out_contacts", "out_keys", "out_frames", "out_J", "out_bias", "out_lower", "out_upper", "out_rows",
    "out_impulses", "out_velocities", "out_stats", "out_v_free", "out_counts",
    # which output set holds the last step's results (parity (1,) int: 0 or 1; the next step writes the other)
    "parity",
)


@structref.register
class StepContextType(types.StructRef):
    """The numba type of :class:`StepContext` (its fields typed as the arrays it is built with)."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class StepContext(structref.StructRefProxy):
    """The arrays of a simulator's compiled step (see the module): build with :func:`step_context`."""


structref.define_proxy(StepContext, StepContextType, list(FIELDS))


def step_context(arrays: dict) -> StepContext:
    """A :class:`StepContext` of ``arrays`` (a dict holding every name of :data:`FIELDS`). The context refers to the
    same memory without owning it: the caller keeps the arrays alive while it uses the context, and reads the output
    buffers' results through them."""
    missing = [name for name in FIELDS if name not in arrays]
    if missing:
        raise KeyError(f"step_context: missing {missing}")
    return new_context(tuple(arrays[name] for name in FIELDS))


@njit(cache=True)
def new_context(arrays):
    """The :class:`StepContext` of the tuple ``arrays`` (in the order of :data:`FIELDS`), borrowed (see the module:
    the caller keeps them alive), built in a compiled, cached function: the proxy's own constructor would be
    compiled again in every new process."""
    return StepContext(*borrowed_all(arrays))


def output_buffers(capacity: int, rows: int, nv: int) -> dict:
    """The two sets of output buffers for at most ``capacity`` contacts and ``rows`` one-dimensional rows."""
    m = 3 * capacity + rows
    return {"out_contacts": np.zeros((2, capacity, 8)), "out_keys": np.zeros((2, capacity, 4), dtype=np.int64),
            "out_frames": np.zeros((2, capacity, 3, 3)), "out_J": np.zeros((2, m, nv)),
            "out_bias": np.zeros((2, rows)), "out_lower": np.zeros((2, rows)), "out_upper": np.zeros((2, rows)),
            "out_rows": np.zeros((2, rows, 3), dtype=np.int64), "out_impulses": np.zeros((2, m)),
            "out_velocities": np.zeros((2, m)), "out_stats": np.zeros(2, STEP_STATS), "out_v_free": np.zeros((2, nv)),
            "out_counts": np.zeros(2, COUNTS)}
