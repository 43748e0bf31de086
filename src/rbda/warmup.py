"""``rbda warmup``: compile every kernel ahead of time (for container images, CI and clusters), with progress.

Each step calls one family of algorithms on the bundled model that has every joint type, single-state and
batched, so that numba compiles their kernels for this machine and caches them; later processes load them from
the cache in milliseconds.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np


def _steps(model, data, q, v, a):
    import rbda

    B = 2
    Q, V, A = np.stack([q] * B), np.stack([v] * B), np.stack([a] * B)
    frame = model.nframes - 1
    return [
        ("forward kinematics", lambda: (rbda.forward_kinematics(model, data, q, v, a), rbda.frames_forward_kinematics(
            model, data, q), rbda.update_global_placements(model, data))),
        ("Jacobians", lambda: (rbda.compute_joint_jacobians(model, data, q), rbda.compute_frame_jacobian(
            model, data, q, frame), rbda.compute_joint_jacobians_time_variation(model, data, q, v),
            rbda.compute_joint_kinematic_hessians(model, data, q))),
        ("rnea, crba, aba", lambda: (rbda.rnea(model, data, q, v, a), rbda.crba(model, data, q),
                                     rbda.aba(model, data, q, v, a), rbda.compute_minverse(model, data, q),
                                     rbda.compute_coriolis_matrix(model, data, q, v))),
        ("derivatives", lambda: (rbda.compute_rnea_derivatives(model, data, q, v, a),
                                 rbda.compute_aba_derivatives(model, data, q, v, a),
                                 rbda.compute_forward_kinematics_derivatives(model, data, q, v, a),
                                 rbda.get_frame_acceleration_derivatives(model, data, frame),
                                 rbda.compute_centroidal_dynamics_derivatives(model, data, q, v, a))),
        ("second-order derivatives", lambda: rbda.compute_rnea_second_order_derivatives(model, data, q, v, a)),
        ("configuration space", lambda: (rbda.integrate(model, q, v), rbda.difference(model, q, q),
                                         rbda.neutral(model), rbda.normalize(model, q),
                                         rbda.d_integrate(model, q, v), rbda.d_difference(model, q, q),
                                         rbda.d_integrate_transport(model, q, v, np.eye(model.nv), rbda.ARG0))),
        ("whole body", lambda: (rbda.center_of_mass(model, data, q, v, a), rbda.jacobian_center_of_mass(model, data, q),
                                rbda.ccrba(model, data, q, v), rbda.dccrba(model, data, q, v),
                                rbda.compute_centroidal_momentum_time_variation(model, data, q, v, a),
                                rbda.compute_mechanical_energy(model, data, q, v),
                                rbda.compute_joint_torque_regressor(model, data, q, v, a))),
        ("sparse Cholesky", lambda: (rbda.crba(model, data, q), rbda.cholesky.decompose(model, data),
                                     rbda.cholesky.solve(model, data, v), rbda.cholesky.compute_minv(model, data))),
        ("batched dynamics", lambda: (rbda.batch.rnea(model, Q, V, A), rbda.batch.aba(model, Q, V, A),
                                      rbda.batch.crba(model, Q), rbda.batch.compute_minverse(model, Q))),
        ("batched kinematics", lambda: (rbda.batch.forward_kinematics(model, Q), rbda.batch.compute_joint_jacobians(
            model, Q), rbda.batch.frames_forward_kinematics(model, Q), rbda.batch.compute_frame_jacobian(
            model, Q, frame), rbda.batch.center_of_mass(model, Q), rbda.batch.ccrba(model, Q, V))),
        ("batched derivatives", lambda: (rbda.batch.compute_rnea_derivatives(model, Q, V, A),
                                         rbda.batch.compute_aba_derivatives(model, Q, V, A))),
        ("batched configuration space", lambda: (rbda.batch.integrate(model, Q, V), rbda.batch.difference(model, Q, Q),
                                                 rbda.batch.d_integrate(model, Q, V, rbda.ARG0))),
        ("forward dynamics with mimic joints", lambda: _mimic_forward_dynamics(Q, V, A)),
        ("batched dynamics at SIMD width", _simd_step),
        *_constrained_steps(q, v, a),
        *_contact_steps(),
        ("fast entries of one call", _fast_entries),
        ("JAX's handlers", _xla_handlers),
    ]


def _xla_handlers():
    """The XLA FFI handlers of ``rbda.jax`` (``_native/xla_ffi.py``): compiled without JAX, registered at its use."""
    from ._native import xla_ffi

    for name in xla_ffi.HANDLERS:
        xla_ffi.handler(name)


def _fast_entries():
    """The builtins that one call of the core algorithms goes through (``_native/fastcall.py``)."""
    from ._native import fastcall

    fastcall.compile_all()


def _mimic_forward_dynamics(Q, V, A):
    """aba on a model with a mimic joint, single-state and batched: without ABA it runs its own kernel
    (``forward_dynamics_through_factor``), which the every-joint model does not reach."""
    import rbda

    model = rbda.transform_joint_into_mimic(rbda.sample_models.manipulator(), 1, 2, 0.5, 0.1)
    q, v = rbda.neutral(model), np.zeros(model.nv)
    rbda.aba(model, model.create_data(), q, v, v)
    rbda.batch.aba(model, np.stack([q] * len(Q)), np.stack([v] * len(Q)), np.stack([v] * len(Q)))


def _simd_step():
    """The structure-of-arrays kernels (``kernels/simd.py``, ``kernels/simd_derivatives.py``), which take
    revolute/prismatic models only."""
    import rbda

    arm = rbda.sample_models.manipulator()
    Q, Z = np.stack([rbda.neutral(arm)] * 2), np.zeros((2, arm.nv))
    return (rbda.batch.rnea(arm, Q, Z, Z), rbda.batch.aba(arm, Q, Z, Z), rbda.batch.crba(arm, Q),
            rbda.batch.compute_minverse(arm, Q), rbda.batch.forward_kinematics(arm, Q),
            rbda.batch.compute_joint_jacobians(arm, Q), rbda.batch.compute_rnea_derivatives(arm, Q, Z, Z),
            rbda.batch.compute_aba_derivatives(arm, Q, Z, Z))  # (kernels/simd_derivatives.py)


def _constrained_steps(q, v, tau):
    """Constrained dynamics on the every-joint model: a 6D contact on joint 6 and a 3D loop between two
    joints, in the proximal and the exact solve; its derivatives, the Delassus forms and the batched twin."""
    import rbda

    model = rbda.sample_models.every_joint()
    data = model.create_data()
    cms = [rbda.RigidConstraintModel(rbda.CONTACT_6D, model, 6, rbda.SE3.Identity()),  # 6 dof below joint 6
           rbda.RigidConstraintModel(rbda.CONTACT_3D, model, 2, rbda.SE3.Identity(), 1, rbda.SE3.Identity())]
    cds = [cm.create_data() for cm in cms]
    prox = rbda.ProximalSettings(1e-12, 1e-8, 20)
    J = np.zeros((6, model.nv))
    J[:, :6] = np.eye(6)
    B = 2

    def dynamics():
        rbda.init_constraint_dynamics(model, data, cms, cds)
        rbda.constraint_dynamics(model, data, q, v, tau, cms, cds, prox)
        rbda.compute_constraint_dynamics_derivatives(model, data, cms, cds, prox)
        rbda.impulse_dynamics(model, data, q, v, cms, cds, 0.5, prox)
        rbda.compute_impulse_dynamics_derivatives(model, data, cms, cds, prox)
        rbda.constraint_dynamics(model, data, q, v, tau, cms[:1], [cms[0].create_data()])  # exact (mu = 0)

    def batched(Q, V, TAU):
        rbda.batch.constraint_dynamics(model, Q, V, TAU, cms, prox)
        rbda.batch.compute_constraint_dynamics_derivatives(model, Q, V, TAU, cms, prox)
        rbda.batch.impulse_dynamics(model, Q, V, cms, 0.5, prox)
        rbda.batch.compute_impulse_dynamics_derivatives(model, Q, V, cms, 0.5, prox)

    def delassus():
        rbda.compute_delassus_matrix(model, data, q, cms, cds, 1e-8)
        rbda.compute_damped_delassus_matrix_inverse(model, data, q, cms, cds, 1e-8)
        rbda.forward_dynamics(model, data, q, v, tau, J, np.zeros(6), 1e-8)
        rbda.impulse_dynamics(model, data, q, v, J, 0.5, 1e-8)
        rbda.compute_kkt_contact_dynamic_matrix_inverse(model, data, q, J, 1e-8)
        rbda.DelassusOperator(model, data, q, J).solve(np.ones(6), 1e-8)

    return [
        ("constrained dynamics", dynamics),
        ("Delassus and KKT forms", delassus),
        ("batched constrained dynamics", lambda: batched(np.stack([q] * B), np.stack([v] * B), np.stack([tau] * B))),
    ]


def _contact_steps():
    """Collision (one object of each shape type on a free body, against each other and the ground), the contact
    solvers (PGS and ADMM on the NCP, the CCP and the LCP) and the simulator's step."""
    import rbda
    from rbda import collision
    from rbda.io import Box, Capsule, Cylinder, GeometryModel, GeometryObject, Sphere
    from rbda.collision import Ellipsoid
    from rbda.simulation import (ADMMSolver, CoulombFrictionCone, DelassusDense, PGSSolver, Simulator,
                                 add_free_body, add_ground_plane, contact_metrics)
    from rbda.simulation.simulator import reference_step

    model, geometry = rbda.Model(), GeometryModel()
    add_free_body(model, geometry, "box", Box((0.2, 0.2, 0.2)), 1.0)
    for k, shape in enumerate((Capsule(0.05, 0.2), Cylinder(0.05, 0.2), Ellipsoid((0.1, 0.05, 0.08)))):
        geometry.add_geometry_object(GeometryObject(f"shape{k}", 1, 0, rbda.SE3.Random(), shape))
    add_free_body(model, geometry, "ball", Sphere(0.1), 1.0)
    add_free_body(model, geometry, "ball2", Sphere(0.1), 1.0)
    ground = add_ground_plane(model, geometry)
    geometry.add_all_collision_pairs()
    q = rbda.neutral(model)
    q[2], q[7:10], q[14:17] = 0.099, (0.05, 0.1, 0.12), (0.05, 0.25, 0.12)
    data = model.create_data()
    Q = np.stack([q, q])

    def collide():  # (its own GeometryData: simulate, which may run first in a worker, changes the pairs)
        geom_data = collision.GeometryData(geometry)
        collision.compute_distances(model, data, geometry, geom_data, q)
        collision.compute_collisions(model, data, geometry, geom_data, q)
        collision.compute_distance(geometry, geom_data, 0)
        collision.compute_collision(geometry, geom_data, 0)
        rbda.batch.compute_distances(model, geometry, Q)
        rbda.batch.compute_collisions(model, geometry, Q)
        collision.distance(Sphere(0.1), rbda.SE3.Identity(), Box((0.2, 0.2, 0.2)), rbda.SE3.Random())

    G = np.eye(6) + 0.1
    g = np.array([0.1, 0.0, -0.5, 0.0, 0.2, -0.5])

    def solve():
        for Solver in (PGSSolver, ADMMSolver):
            for formulation in ("ncp", "ccp", "lcp"):
                lam = Solver(formulation, max_iter=20).solve(DelassusDense(G), g, 0.4)
        contact_metrics(lam, G @ lam + g, 0.4)
        CoulombFrictionCone(0.4).project(np.ones(3))

    def simulate():  # the pairs that have a contact function: the ground against the box, the balls, the capsule
        geometry.remove_all_collision_pairs()  # and the cylinder; ball against ball
        for name in ("box", "shape0", "shape1", "ball", "ball2"):
            geometry.add_collision_pair(ground, geometry.get_geometry_id(name))
        geometry.add_collision_pair(geometry.get_geometry_id("ball"), geometry.get_geometry_id("ball2"))
        zero = np.zeros(model.nv)
        for solver in ("admm", "pgs"):
            sim = Simulator(model, geometry, 1e-3, solver=solver)
            sim.step(*sim.step(q, zero, zero), zero)
            sim.rollout(q, zero, np.zeros((2, model.nv)))
            rbda.batch.rollout(model, geometry, Q, np.zeros_like(Q[:, :model.nv]), np.zeros((2, 2, model.nv)), 1e-3,
                               solver=solver, backend="thread")
        reference_step(sim, q, np.zeros(model.nv), np.zeros(model.nv))  # the stages in Python (StandingPD's)

    return [("collision", collide), ("contact solvers", solve), ("simulator", simulate)]


def _inputs():
    """The every-joint model, its data and a random state (the same in every process)."""
    import rbda

    model = rbda.sample_models.every_joint()
    rng = np.random.default_rng(0)
    q = rbda.random_configuration(model, rng=rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    return model, model.create_data(), q, v, a


_WORKER: dict = {}  # in a worker process: its steps, built once


def _run_step(k: int) -> float:
    """Run step ``k`` of :func:`_steps` in this (worker) process; returns its seconds."""
    if "steps" not in _WORKER:
        os.environ["RBDA_COMPILE_NOTICE"] = "0"  # the parent's progress lines say it
        _WORKER["steps"] = _steps(*_inputs())
    t0 = time.perf_counter()
    _WORKER["steps"][k][1]()
    return time.perf_counter() - t0


def default_jobs() -> int:
    """Processes for :func:`warmup`: one per core (each compiles alone, about 1 to 2 GB at its peak), at most 8."""
    return max(1, min(os.cpu_count() or 1, 8))


def warmup(stream=sys.stderr, jobs: int = 1) -> float:
    """Compile (or load from the cache) every kernel of rbda's algorithms, printing one progress line per family
    on ``stream`` (None: silent); returns the seconds it took.

    ``jobs > 1`` runs the families in that many new processes at once (numba compiles on one core; the processes
    share the on-disk cache), the longest ones first."""
    os.environ.setdefault("RBDA_COMPILE_NOTICE", "0")  # the progress lines say it already
    names = [name for name, _ in _steps(*_inputs())]
    start = time.perf_counter()

    def progress(k, name, seconds):
        if stream is not None:
            bar = "#" * k + "." * (len(names) - k)
            print(f"\r[{bar}] {k}/{len(names)} {name} ({seconds:.1f} s)".ljust(78), end="", file=stream, flush=True)

    if jobs <= 1:
        steps = _steps(*_inputs())
        for k, (name, run) in enumerate(steps, start=1):
            t0 = time.perf_counter()
            run()
            progress(k, name, time.perf_counter() - t0)
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor, as_completed

        order = list(range(len(names)))[::-1]  # the contact, collision and simulator families (the longest) first
        context = multiprocessing.get_context("spawn")
        # the workers import this rbda, whose cache this fills: spawn hands them this process's sys.path, which
        # may name another copy first (a source tree beside an installed rbda)
        here, path = os.path.dirname(os.path.dirname(os.path.abspath(__file__))), list(sys.path)
        sys.path.insert(0, here)
        try:
            with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
                futures = {pool.submit(_run_step, k): k for k in order}
                for done, future in enumerate(as_completed(futures), start=1):
                    progress(done, names[futures[future]], future.result())
        finally:
            sys.path[:] = path
    total = time.perf_counter() - start
    if stream is not None:
        print(f"\nrbda: every kernel is compiled and cached ({total:.0f} s)", file=stream, flush=True)
    return total
