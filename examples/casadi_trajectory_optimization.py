"""Trajectory optimisation by direct collocation in CasADi, with rbda's dynamics and analytical Jacobians.

    python examples/casadi_trajectory_optimization.py

Two problems share one transcription (:func:`collocate`): a cart-pole swings its pole up from hanging to
upright with the least force on the cart, and the 6-dof ``manipulator`` brings its tool to a target and stops
there, with the least torque, inside joint limits narrowed by a margin. The decision variables are the knot
values of ``q``, ``v``, ``a`` and the actuator efforts ``u``; the dynamics are imposed at every knot in inverse
form, ``rnea(q_k, v_k, a_k) = S u_k`` (``rbda.casadi.rnea``, whose Jacobian IPOPT takes from
``compute_rnea_derivatives``), and the knots are tied by the trapezoidal rule ``q_{k+1} = q_k + h (v_k +
v_{k+1}) / 2``, ``v_{k+1} = v_k + h (a_k + a_{k+1}) / 2``. The tool position of the reaching problem comes from
``rbda.casadi.frame_placement`` (its Jacobian from ``compute_frame_jacobian``). The reaching problem runs IPOPT
with a limited-memory Hessian (the frame placement gives first derivatives); the swing-up is solved twice, with
that approximation and with the exact Hessian of the Lagrangian, which CasADi assembles from rbda's second-order
RNEA derivatives (``rbda.casadi.rnea``'s Jacobian has a Jacobian of its own), and the two runs' iterations and
times are compared (both reach the same optimum in 2 s; over 2.5 s or 3 s the exact-Hessian run stops in
another local optimum of this nonconvex problem). Each solution is checked with plain ``rbda.rnea`` at every knot.
"""

from __future__ import annotations

import time

import casadi
import numpy as np

import rbda
import rbda.casadi
from _plotting import pyplot


def cart_pole(cart_mass: float = 1.0, pole_mass: float = 0.3, length: float = 0.6) -> rbda.Model:
    """A cart sliding along x (prismatic joint) carrying a pole about y (revolute joint); ``q = [x, theta]``,
    the pole upright at ``theta = 0`` and hanging at ``theta = pi``."""
    model = rbda.Model("cart_pole")
    cart = model.add_joint(0, rbda.JointModelPX(), rbda.SE3.Identity(), "cart")
    model.append_body_to_joint(cart, rbda.Inertia.FromBox(cart_mass, 0.3, 0.2, 0.1))
    pole = model.add_joint(cart, rbda.JointModelRY(), rbda.SE3.Identity(), "pole")
    rod = rbda.Inertia.FromCylinder(pole_mass, 0.02, length)
    model.append_body_to_joint(pole, rod, rbda.SE3(np.eye(3), [0.0, 0.0, length / 2]))
    return model


def collocate(model, N: int, T: float, S: np.ndarray, q0, q_bounds=None, u_max=None, terminal=None,
              acceleration_weight: float = 0.0, hessian: str = "limited-memory"):
    """``(opti, Q, V, A, U)``: a trapezoidal direct collocation of ``N`` intervals over ``T`` seconds for the
    efforts ``u`` ``(nu,)`` acting through ``S`` ``(nv, nu)``, starting at rest at ``q0``, ending at rest, cost
    ``h sum (|u_k|^2 + acceleration_weight |a_k|^2)``; ``q_bounds`` ``(lower, upper)``, ``u_max`` bound the
    knots; ``terminal(opti, q_N)`` adds the final condition; ``hessian``: IPOPT's ``hessian_approximation``
    (``"exact"`` needs second derivatives of every function in the problem)."""
    nq, nv, nu, h = model.nq, model.nv, S.shape[1], T / N
    rnea = rbda.casadi.rnea(model).map(N + 1)  # one symbolic call for all knots
    opti = casadi.Opti()
    Q, V, A, U = opti.variable(nq, N + 1), opti.variable(nv, N + 1), opti.variable(nv, N + 1), opti.variable(nu, N + 1)
    opti.subject_to(rnea(Q, V, A) == S @ U)  # inverse dynamics at every knot
    opti.subject_to(Q[:, 1:] == Q[:, :-1] + h / 2 * (V[:, :-1] + V[:, 1:]))  # trapezoidal rule
    opti.subject_to(V[:, 1:] == V[:, :-1] + h / 2 * (A[:, :-1] + A[:, 1:]))
    opti.subject_to(Q[:, 0] == q0)
    opti.subject_to(V[:, 0] == 0)
    opti.subject_to(V[:, -1] == 0)
    if q_bounds is not None:
        opti.subject_to(opti.bounded(np.tile(q_bounds[0][:, None], N + 1), Q, np.tile(q_bounds[1][:, None], N + 1)))
    if u_max is not None:
        opti.subject_to(opti.bounded(-u_max, U, u_max))
    terminal(opti, Q[:, -1])
    opti.minimize(h * (casadi.sumsqr(U) + acceleration_weight * casadi.sumsqr(A)))
    opti.solver("ipopt", {"print_time": False}, {"print_level": 0, "sb": "yes", "tol": 1e-9, "constr_viol_tol": 1e-10,
                                                 "hessian_approximation": hessian, "max_iter": 3000})
    return opti, Q, V, A, U


def solve(model, opti, Q, V, A, U, S, guess: dict) -> dict:
    """Solve with the initial ``guess`` (variable name -> array) and measure the dynamics residual
    ``max_k |rnea(q_k, v_k, a_k) - S u_k|`` with plain rbda."""
    for name, x in guess.items():
        opti.set_initial({"Q": Q, "V": V, "A": A, "U": U}[name], x)
    start = time.perf_counter()
    sol = opti.solve()
    seconds = time.perf_counter() - start
    q, v, a, u = (np.atleast_2d(sol.value(x)) for x in (Q, V, A, U))
    data = model.create_data()
    residual = max(np.abs(rbda.rnea(model, data, q[:, k], v[:, k], a[:, k]) - S @ u[:, k]).max()
                   for k in range(q.shape[1]))
    return {"q": q, "v": v, "a": a, "u": u, "residual": residual, "iterations": sol.stats()["iter_count"],
            "seconds": seconds, "cost": float(sol.value(opti.f))}


def swing_up(N: int = 60, T: float = 2.0, hessian: str = "limited-memory") -> dict:
    """The cart-pole from hanging (``theta = pi``) to upright (``theta = 0``), cart within 1 m, force <= 20 N;
    ``hessian``: IPOPT's Hessian, ``"limited-memory"`` or ``"exact"`` (rbda's second-order RNEA derivatives)."""
    model = cart_pole()
    S = np.array([[1.0], [0.0]])  # only the cart is pushed
    goal = np.array([0.0, 0.0])
    opti, Q, V, A, U = collocate(model, N, T, S, np.array([0.0, np.pi]),
                                 (np.array([-1.0, -2 * np.pi]), np.array([1.0, 2 * np.pi])), 20.0,
                                 lambda opti, qN: opti.subject_to(qN == goal), hessian=hessian)
    t = np.linspace(0.0, 1.0, N + 1)
    result = solve(model, opti, Q, V, A, U, S, {"Q": np.stack([0 * t, np.pi * (1 - t)])})
    result.update(model=model, t=np.linspace(0.0, T, N + 1), goal=goal)
    return result


def reach(N: int = 30, T: float = 1.5, margin: float = 0.2) -> dict:
    """The manipulator's tool from ``q0`` to a target point, stopping there, each joint ``margin`` rad inside its
    limits; the target is the tool position of a configuration whose elbow (joint 3) is beyond its narrowed
    limit, so that the elbow ends on that limit. The cost weighs accelerations (``100 |a|^2``) besides torques,
    for a smooth motion."""
    model = rbda.sample_models.manipulator()
    lower, upper = model.lower_position_limit + margin, model.upper_position_limit - margin
    q0 = np.array([0.0, -0.5, 1.2, 0.0, 0.5, 0.0])
    q_target = np.array([0.8, 0.3, 2.45, 0.0, 0.9, 0.0])  # the elbow (joint 3) beyond its narrowed limit (2.3)
    data = model.create_data()
    tool = model.get_frame_id("tool")
    rbda.frames_forward_kinematics(model, data, q_target)
    target = data.oMf[tool].translation.copy()
    oMf = rbda.casadi.frame_placement(model, tool)  # [R | p] of the tool, (3, 4)

    def at_target(opti, qN):
        opti.subject_to(oMf(qN)[:, 3] == target)

    opti, Q, V, A, U = collocate(model, N, T, np.eye(model.nv), q0, (lower, upper), None, at_target, 100.0)
    t = np.linspace(0.0, 1.0, N + 1)
    guess = np.clip(q0[:, None] + np.outer(q_target - q0, t), lower[:, None], upper[:, None])
    result = solve(model, opti, Q, V, A, U, np.eye(model.nv), {"Q": guess})
    rbda.frames_forward_kinematics(model, data, result["q"][:, -1])
    result.update(model=model, t=np.linspace(0.0, T, N + 1), lower=lower, upper=upper, target=target,
                  tool_error=float(np.linalg.norm(data.oMf[tool].translation - target)))
    return result


def main(verbose: bool = True, plot: str | None = "casadi_trajectory_optimization.png",
         animations: str | None = ".") -> dict:
    """Solve both problems; save the plot ``plot`` and, in the folder ``animations``, ``cart_pole_swing_up.html``
    and ``manipulator_reaching.html`` (the optimal motions, each body drawn as its inertia box); None skips each."""
    up, up_exact, arm = swing_up(), swing_up(hessian="exact"), reach()
    if animations is not None:
        from pathlib import Path

        from _animation import save_model_animation  # examples/_animation.py, next to this script

        for r, name, title in ((up, "cart_pole_swing_up", "cart-pole swing-up"),
                               (arm, "manipulator_reaching", "manipulator reaching inside its joint limits")):
            r["animation"] = save_model_animation(r["model"], r["q"].T, r["t"], Path(animations) / f"{name}.html",
                                                  title, "direct collocation in CasADi with rbda's dynamics",
                                                  verbose)
    if verbose:
        print(f"swing-up: {up['iterations']} IPOPT iterations, rnea residual {up['residual']:.1e} N, "
              f"final q {up['q'][:, -1].round(8)}")
        for r, name in ((up, "limited-memory (L-BFGS) Hessian"), (up_exact, "exact Hessian (rbda's 2nd order)")):
            print(f"  {name:34s} {r['iterations']:4d} iterations, {r['seconds']:.2f} s, cost "
                  f"{r['cost']:.8f}, rnea residual {r['residual']:.1e}")
        print(f"reaching: {arm['iterations']} IPOPT iterations, rnea residual {arm['residual']:.1e} N m, "
              f"tool error {arm['tool_error']:.1e} m")
    plt = pyplot() if plot else None
    if plt is not None:
        fig, ax = plt.subplots(1, 3, figsize=(14, 4))
        ax[0].plot(up["t"], up["q"][0], label="cart x [m]")
        ax[0].plot(up["t"], up["q"][1], label="pole angle [rad]")
        ax[0].plot(up["t"], up["u"][0] / 10, label="force / 10 [N]")
        ax[0].set_title("cart-pole swing-up")
        for j in range(arm["model"].nv):
            line, = ax[1].plot(arm["t"], arm["q"][j], label=f"q{j + 1}")
            ax[1].axhline(arm["upper"][j], color=line.get_color(), linestyle=":", linewidth=0.8)
            ax[2].plot(arm["t"], arm["u"][j], label=f"tau{j + 1}")
        ax[1].set_title("reaching: joints and upper limits (dotted)")
        ax[2].set_title("reaching: joint torques [N m]")
        for a in ax:
            a.set_xlabel("t [s]")
            a.legend(fontsize=7)
        fig.tight_layout()
        from _output import output_path  # examples/_output.py: the folder of --out

        saved = output_path(plot)
        fig.savefig(saved, dpi=100)
        if verbose:
            print(f"plot saved to {saved}")
    return {"swing_up": up, "swing_up_exact": up_exact, "reach": arm}


if __name__ == "__main__":
    main()
