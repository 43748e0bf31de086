"""Constrained dynamics, rbda against Pinocchio 4.1 in one process, interleaved, on the same states: one call of
``constraint_dynamics``, of ``impulse_dynamics`` and of their derivatives on a quadruped standing on four 3D feet
(solo12, LOCAL_WORLD_ALIGNED) and a humanoid on two 6D feet (talos), and a batch of states
(``rbda.batch.constraint_dynamics``, ``rbda.batch.compute_constraint_dynamics_derivatives``) against a loop of
Pinocchio calls. Prints ratios rbda / Pinocchio (lower is
better). Needs ``pin`` (it also provides the example-robot-data files).

    python benchmarks/bench_constrained.py [--number 500] [--batch 2000]
"""

from __future__ import annotations

import argparse
import os

import numpy as np
import pinocchio as pin

import rbda
from rbda import CONTACT_3D, CONTACT_6D, LOCAL_WORLD_ALIGNED, RigidConstraintModel
from rbda.bench import best_time, format_table
from rbda.interop.pinocchio import to_pinocchio

ROBOTS = os.path.join(os.path.dirname(pin.__file__), *[".."] * 4, "share", "example-robot-data", "robots")


def feet(model, kind, names, rf):
    frames = [model.frames[model.get_frame_id(n)] for n in names]
    return [RigidConstraintModel(kind, model, f.parent_joint, f.placement, 0, rbda.SE3(), rf) for f in frames]


def cases():
    solo = rbda.load_model(os.path.join(ROBOTS, "solo_description/robots/solo12.urdf"), floating_base=True)
    talos = rbda.load_model(os.path.join(ROBOTS, "talos_data/robots/talos_reduced.urdf"), floating_base=True)
    return [("solo12, 4 feet 3D", solo, feet(solo, CONTACT_3D, ("FL_FOOT", "FR_FOOT", "HL_FOOT", "HR_FOOT"),
                                             LOCAL_WORLD_ALIGNED)),
            ("talos, 2 feet 6D", talos, feet(talos, CONTACT_6D, ("left_sole_link", "right_sole_link"),
                                             rbda.LOCAL))]


def pinocchio_twins(pm, cms):
    out = []
    for cm in cms:
        P1, P2 = cm.joint1_placement, cm.joint2_placement
        out.append(pin.RigidConstraintModel(pin.ContactType(int(cm.type)), pm, cm.joint1_id,
                                            pin.SE3(P1.rotation.copy(), P1.translation.copy()), cm.joint2_id,
                                            pin.SE3(P2.rotation.copy(), P2.translation.copy()),
                                            pin.ReferenceFrame(int(cm.reference_frame))))
    return out, [c.createData() for c in out]


def single_calls(model, cms, number: int, repeat: int = 5):
    rng = np.random.default_rng(0)
    q = rbda.random_configuration(model, rng=rng)
    v, tau = rng.normal(size=model.nv), rng.normal(size=model.nv)
    data, cds = model.create_data(), [cm.create_data() for cm in cms]
    pm = to_pinocchio(model)
    pd = pm.createData()
    pcms, pcds = pinocchio_twins(pm, cms)
    pin.initConstraintDynamics(pm, pd, pcms, pcds)
    ours_s, theirs_s = rbda.ProximalSettings(1e-12, 0.0, 1), pin.ProximalSettings(1e-12, 0.0, 1)

    def ours_derivatives():
        rbda.constraint_dynamics(model, data, q, v, tau, cms, cds, ours_s)
        rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds, ours_s)

    def theirs_derivatives():
        pin.constraintDynamics(pm, pd, q, v, tau, pcms, pcds, theirs_s)
        pin.computeConstraintDynamicsDerivatives(pm, pd, pcms, pcds, theirs_s)

    def ours_impulse_derivatives():
        rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.0, ours_s)
        rbda.compute_impulse_dynamics_derivatives(model, data, cms, cds, ours_s)

    def theirs_impulse_derivatives():
        pin.impulseDynamics(pm, pd, q, v, pcms, pcds, 0.0, theirs_s)
        pin.computeImpulseDynamicsDerivatives(pm, pd, pcms, pcds, 0.0, theirs_s)

    pairs = [("constraint_dynamics", lambda: rbda.constraint_dynamics(model, data, q, v, tau, cms, cds, ours_s),
              lambda: pin.constraintDynamics(pm, pd, q, v, tau, pcms, pcds, theirs_s)),
             ("  + its derivatives", ours_derivatives, theirs_derivatives),
             ("impulse_dynamics", lambda: rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.0, ours_s),
              lambda: pin.impulseDynamics(pm, pd, q, v, pcms, pcds, 0.0, theirs_s)),
             ("  + its derivatives ", ours_impulse_derivatives, theirs_impulse_derivatives)]
    rows = []
    for name, ours, theirs in pairs:
        ours(), theirs()
        n = number if "deriv" not in name else max(1, number // 20)
        t_ours = t_theirs = np.inf
        for _ in range(repeat):  # interleaved
            t_ours = min(t_ours, best_time(ours, n, 1))
            t_theirs = min(t_theirs, best_time(theirs, n, 1))
        rows.append((name, t_ours, t_theirs))
    return rows


def batch_line(model, cms, batch: int) -> str:
    rng = np.random.default_rng(1)
    Q = np.stack([rbda.random_configuration(model, rng=rng) for _ in range(batch)])
    V, TAU = rng.normal(size=(batch, model.nv)), rng.normal(size=(batch, model.nv))
    rbda.batch.constraint_dynamics(model, Q, V, TAU, cms)
    t_ours = best_time(lambda: rbda.batch.constraint_dynamics(model, Q, V, TAU, cms), 1, 5)
    pm = to_pinocchio(model)
    pd = pm.createData()
    pcms, pcds = pinocchio_twins(pm, cms)
    pin.initConstraintDynamics(pm, pd, pcms, pcds)
    s = pin.ProximalSettings(1e-12, 0.0, 1)

    def loop():
        for b in range(batch):
            pin.constraintDynamics(pm, pd, Q[b], V[b], TAU[b], pcms, pcds, s)

    t_theirs = best_time(loop, 1, 5)
    rbda.batch.compute_constraint_dynamics_derivatives(model, Q[:2], V[:2], TAU[:2], cms)
    t_ours_d = best_time(lambda: rbda.batch.compute_constraint_dynamics_derivatives(model, Q, V, TAU, cms), 1, 5)

    def loop_derivatives():
        for b in range(batch):
            pin.constraintDynamics(pm, pd, Q[b], V[b], TAU[b], pcms, pcds, s)
            pin.computeConstraintDynamicsDerivatives(pm, pd, pcms, pcds, s)

    t_theirs_d = best_time(loop_derivatives, 1, 5)
    threads = rbda.batch.numba.get_num_threads()
    return (f"  batch of {batch}, per state: rbda.batch.constraint_dynamics {t_ours / batch * 1e6:.2f}us "
            f"({threads} threads), a loop of pin.constraintDynamics {t_theirs / batch * 1e6:.2f}us; ratio "
            f"{t_ours / t_theirs:.2f}\n  batch of {batch}, per state: rbda.batch.compute_constraint_dynamics_derivatives "
            f"{t_ours_d / batch * 1e6:.2f}us, a loop of pin.constraintDynamics + computeConstraintDynamicsDerivatives "
            f"{t_theirs_d / batch * 1e6:.2f}us; ratio {t_ours_d / t_theirs_d:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=500)
    parser.add_argument("--batch", type=int, default=2000)
    args = parser.parse_args()
    for name, model, cms in cases():
        print(format_table(name, single_calls(model, cms, args.number)))
        print(batch_line(model, cms, args.batch))


if __name__ == "__main__":
    main()
