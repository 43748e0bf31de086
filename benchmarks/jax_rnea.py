"""A plain JAX RNEA (Featherstone's Table 5.1 in local frames, ``[linear; angular]``) built from an rbda model, for
the autodiff row of ``bench_derivatives.py``: ``jax.jit(jax.jacfwd(...))`` of it gives dtau/dq (in the tangent
space, through ``q (+) dq``) and dtau/dv in one call. Supports the joints of ``rbda.sample_models.manipulator``
and ``humanoid``: free-flyer and revolute about any fixed axis. Not part of rbda (jax is not a dependency).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

import rbda

jax.config.update("jax_enable_x64", True)


def hat(w):
    return jnp.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def exp3(w):
    """Rodrigues' formula, differentiable at w = 0 (the double-where trick keeps the gradient finite)."""
    t2 = w @ w
    small = t2 < 1e-16
    t = jnp.sqrt(jnp.where(small, 1.0, t2))
    a = jnp.where(small, 1.0 - t2 / 6.0, jnp.sin(t) / t)
    b = jnp.where(small, 0.5 - t2 / 24.0, (1.0 - jnp.cos(t)) / jnp.where(small, 1.0, t2))
    W = hat(w)
    return jnp.eye(3) + a * W + b * W @ W, a, b, W


def quat_to_rotation(x, y, z, w):
    return jnp.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                      [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                      [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def motion_cross(a, b):
    v, w = a[:3], a[3:]
    return jnp.concatenate([jnp.cross(w, b[:3]) + jnp.cross(v, b[3:]), jnp.cross(w, b[3:])])


def force_cross(a, f):
    v, w = a[:3], a[3:]
    return jnp.concatenate([jnp.cross(w, f[:3]), jnp.cross(w, f[3:]) + jnp.cross(v, f[:3])])


def act_inv(R, p, m):
    """Motion expressed in the parent moved into the child frame (``pMc^-1 m``)."""
    w = R.T @ m[3:]
    return jnp.concatenate([R.T @ (m[:3] - jnp.cross(p, m[3:])), w])


def force_act(R, p, f):
    """Force expressed in the child moved into the parent frame (``pMc f``)."""
    lin = R @ f[:3]
    return jnp.concatenate([lin, jnp.cross(p, lin) + R @ f[3:]])


class JaxRNEA:
    """``tau = rnea(q, v, a)`` and ``tau_tangent(dq, q, v, a) = rnea(q (+) dq, v, a)`` in JAX for ``model``."""

    def __init__(self, model: rbda.Model):
        self.joints = []
        for i in range(1, model.njoints):
            joint, P, Y = model.joints[i], model.joint_placements[i], model.inertias[i]
            c, m = np.asarray(Y.lever), float(Y.mass)
            C = np.array(hat(c))
            inertia = np.block([[m * np.eye(3), -m * C], [m * C, np.asarray(Y.inertia) - m * C @ C]])
            if joint.type == rbda.JointType.FREE_FLYER:
                kind, axis = "free", None
            elif joint.type == rbda.JointType.REVOLUTE:  # RX, RY, RZ and unaligned axes
                kind, axis = "revolute", np.asarray(joint.params[:3], dtype=float)
            else:
                raise NotImplementedError(f"jax_rnea: joint type {joint.type.name}")
            self.joints.append((kind, axis, model.parents[i], model.idx_q[i], model.idx_v[i],
                                np.asarray(P.rotation), np.asarray(P.translation), inertia))
        self.gravity = np.asarray(model.gravity.vector, dtype=float)
        self.armature = np.asarray(model.armature, dtype=float)
        self.nv = model.nv

    def joint_motion(self, kind, axis, q, iq, iv, dq):
        """``(R, p, S)`` of the joint at ``q (+) dq``: its transform and motion subspace (6, nv_j)."""
        if kind == "revolute":
            R = exp3(axis * (q[iq] + dq[iv]))[0]
            return R, jnp.zeros(3), jnp.concatenate([jnp.zeros(3), axis])[:, None]
        R0 = quat_to_rotation(*q[iq + 3 : iq + 7])
        dR, a, b, W = exp3(dq[iv + 3 : iv + 6])  # SE(3) exp of the local twist: p += R0 V(w) v
        t2 = dq[iv + 3 : iv + 6] @ dq[iv + 3 : iv + 6]
        c = jnp.where(t2 < 1e-16, 1.0 / 6.0, (1.0 - a) / jnp.where(t2 < 1e-16, 1.0, t2))
        V = jnp.eye(3) + b * W + c * W @ W
        return R0 @ dR, q[iq : iq + 3] + R0 @ (V @ dq[iv : iv + 3]), jnp.eye(6)

    def tau_tangent(self, dq, q, v, a):
        vs, as_, fs = [jnp.zeros(6)], [-jnp.asarray(self.gravity)], [None]
        for kind, axis, parent, iq, iv, Rp, pp, inertia in self.joints:
            Rj, pj, S = self.joint_motion(kind, axis, q, iq, iv, dq)
            R, p = Rp @ Rj, pp + Rp @ pj  # parent <- child
            n = S.shape[1]
            vJ = S @ v[iv : iv + n]
            vi = act_inv(R, p, vs[parent]) + vJ
            ai = act_inv(R, p, as_[parent]) + S @ a[iv : iv + n] + motion_cross(vi, vJ)
            vs.append(vi)
            as_.append(ai)
            fs.append((inertia @ ai + force_cross(vi, inertia @ vi), R, p, S, iv, parent))
        tau = [None] * self.nv
        f = [None] + [x[0] for x in fs[1:]]
        for i in range(len(self.joints), 0, -1):
            _, R, p, S, iv, parent = fs[i]
            t = S.T @ f[i]
            for k in range(S.shape[1]):
                tau[iv + k] = t[k] + self.armature[iv + k] * a[iv + k]
            if parent > 0:
                f[parent] = f[parent] + force_act(R, p, f[i])
        return jnp.stack(tau)

    def rnea(self, q, v, a):
        return self.tau_tangent(jnp.zeros(self.nv), q, v, a)

    def derivatives(self):
        """``jit(jacfwd)`` of ``(dq, v) -> tau(q (+) dq, v, a)`` at ``dq = 0``: returns ``(dtau_dq, dtau_dv)``."""
        jac = jax.jacfwd(self.tau_tangent, argnums=(0, 2))
        zero = jnp.zeros(self.nv)
        return jax.jit(lambda q, v, a: jac(zero, q, v, a))
