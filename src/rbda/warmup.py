"""``rbda warmup``: compile every kernel ahead of time (for container images, CI and clusters), with progress.

Each step calls one family of algorithms on the bundled model that has every joint type, single-state and
batched, so that numba compiles their kernels for this machine and caches them; later processes load them from
the cache in milliseconds.
"""

from __future__ import annotations

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
    ]


def warmup(stream=sys.stderr) -> float:
    """Compile (or load from the cache) every kernel of rbda's algorithms, printing one progress line per family
    on ``stream`` (None: silent); returns the seconds it took."""
    import os

    import rbda

    os.environ.setdefault("RBDA_COMPILE_NOTICE", "0")  # the progress lines say it already
    model = rbda.sample_models.every_joint()
    rng = np.random.default_rng(0)
    q = rbda.random_configuration(model, rng=rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    data = model.create_data()
    steps = _steps(model, data, q, v, a)
    start = time.perf_counter()
    for k, (name, run) in enumerate(steps, start=1):
        t0 = time.perf_counter()
        run()
        if stream is not None:
            bar = "#" * k + "." * (len(steps) - k)
            print(f"\r[{bar}] {k}/{len(steps)} {name} ({time.perf_counter() - t0:.1f} s)".ljust(78), end="",
                  file=stream, flush=True)
    total = time.perf_counter() - start
    if stream is not None:
        print(f"\nrbda: every kernel is compiled and cached ({total:.0f} s)", file=stream, flush=True)
    return total
