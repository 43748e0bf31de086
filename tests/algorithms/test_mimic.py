"""Mimic joints (``q_i = scaling * q_ref + offset``): every algorithm on a model with mimic joints against
independent computations — the same tree with the mimic joints free and driven by the test, energy and power
balances, finite differences on the manifold, and Pinocchio's mimic joints where Pinocchio supports them."""

import numpy as np
import pytest

import rbda
from conftest import assert_close, jacobian_along_basis

ONE_DOF = [rbda.JointModelRX(), rbda.JointModelRY(), rbda.JointModelRZ(), rbda.JointModelPX(), rbda.JointModelPZ(),
           rbda.JointModelRevoluteUnaligned([0.3, -1.0, 0.5]), rbda.JointModelPrismaticUnaligned([1.0, 2.0, -0.5]),
           rbda.JointModelHZ(0.2)]


def plain_and_mimic(seed: int, floating: bool):
    """``(plain, model, pairs)``: a random tree of one-dof joints and a spherical joint, and the same tree with
    three of its joints made mimic joints (``pairs``: (mimicking, mimicked, scaling, offset)); one mimicked
    joint comes after the joint that mimics it."""
    rng = np.random.default_rng(seed)
    joints = [ONE_DOF[k] for k in rng.permutation(len(ONE_DOF))] + [rbda.JointModelSpherical()]
    plain = rbda.sample_models.random_tree(joints, rng, root=rbda.JointModelFreeFlyer() if floating else None)
    one_dof = [i for i in range(1, plain.njoints) if plain.nvs[i] == 1]
    a, b, c, d, e = one_dof[:5]
    pairs = [(b, a, 1.7, 0.3), (c, a, -0.6, 0.0), (d, e, 2.0, -0.4)]  # d mimics e, which comes after it
    model = plain
    for mimicking, mimicked, scaling, offset in pairs:
        model = rbda.transform_joint_into_mimic(model, mimicked, mimicking, scaling, offset)
    return plain, model, pairs


def expand(plain, model, pairs, q, v):
    """The plain tree's ``q`` and ``v``, driven by ``model``'s ``q`` and ``v`` (computed here, joint by joint)."""
    qp, vp = np.empty(plain.nq), np.empty(plain.nv)
    mimics = {i: (j, s, o) for i, j, s, o in pairs}
    for i in range(1, plain.njoints):
        sq, sv = slice(plain.idx_q[i], plain.idx_q[i] + plain.nqs[i]), slice(plain.idx_v[i], plain.idx_v[i] + plain.nvs[i])
        j, s, o = mimics.get(i, (i, 1.0, 0.0))
        qp[sq] = s * q[model.idx_q[j] : model.idx_q[j] + plain.nqs[i]] + o
        vp[sv] = s * v[model.idx_v[j] : model.idx_v[j] + plain.nvs[i]]
    return qp, vp


CASES = [(0, False), (1, True), (2, True)]


@pytest.fixture(params=CASES, ids=[f"seed{s}-{'floating' if f else 'fixed'}" for s, f in CASES])
def case(request):
    plain, model, pairs = plain_and_mimic(*request.param)
    rng = np.random.default_rng(request.param[0])
    q = rbda.random_configuration(model, rng=rng)
    return plain, model, pairs, q, rng.normal(size=model.nv), rng.normal(size=model.nv)


def energy(model, data, q, v):
    """Kinetic plus potential energy summed body by body from the forward kinematics (no rbda energy function)."""
    rbda.forward_kinematics(model, data, q, v)
    kinetic = sum(0.5 * data.v[i] @ model.inertias[i].matrix() @ data.v[i] for i in range(1, model.njoints))
    g = model.gravity.linear
    potential = -sum(model.inertias[i].mass * g @ data.oMi[i].act(model.inertias[i].lever) for i in range(1, model.njoints))
    return kinetic + potential


# ------------------------------------------------------------------------------------------------ structure
def test_sizes_indices_and_errors(case):
    plain, model, pairs, *_ = case
    assert (model.nq, model.nv, model.nv_extended) == (plain.nq - 3, plain.nv - 3, plain.nv)
    assert sorted(model.mimicking_joints) == model.mimicking_joints == sorted(p[0] for p in pairs)
    for i, j, s, o in pairs:
        assert (model.nqs[i], model.nvs[i], model.idx_q[i], model.idx_v[i]) == (0, 0, model.idx_q[j], model.idx_v[j])
        assert model.joints[i] == rbda.JointModelMimic(plain.joints[i], j, s, o)
    assert model.names == plain.names and list(model.frames) == list(plain.frames)
    spherical = next(i for i in range(1, model.njoints) if model.joints[i].type == rbda.JointType.SPHERICAL)
    with pytest.raises(ValueError, match="cannot be mimicked: only revolute, prismatic and helical"):
        rbda.transform_joint_into_mimic(plain, spherical, pairs[0][0])
    with pytest.raises(TypeError, match="a mimic joint must be a revolute, prismatic or helical joint"):
        rbda.transform_joint_into_mimic(plain, pairs[0][1], spherical)
    with pytest.raises(ValueError, match="is already a mimic joint"):
        rbda.transform_joint_into_mimic(model, pairs[0][1], pairs[0][0])
    with pytest.raises(ValueError, match="is itself a mimic joint"):
        rbda.transform_joint_into_mimic(model, pairs[0][0], model.parents[pairs[0][0]] or pairs[2][1])
    with pytest.raises(ValueError, match="q: expected shape"):
        rbda.rnea(model, model.create_data(), np.zeros(plain.nq), np.zeros(model.nv), np.zeros(model.nv))
    with pytest.raises(ValueError, match="tau: contains non-finite values"):
        rbda.aba(model, model.create_data(), rbda.neutral(model), np.zeros(model.nv), np.full(model.nv, np.nan))
    with pytest.raises(ValueError, match="state 1: TAU: contains non-finite values"):
        rbda.batch.aba(model, np.tile(rbda.neutral(model), (2, 1)), np.zeros((2, model.nv)),
                       np.array([np.zeros(model.nv), np.full(model.nv, np.inf)]))
    with pytest.raises(ValueError, match="data: was created for another model"):
        rbda.rnea(model, plain.create_data(), rbda.neutral(model), np.zeros(model.nv), np.zeros(model.nv))


def test_add_joint_builds_the_same_model_as_transform_and_pickles():
    plain = rbda.sample_models.manipulator()
    model = rbda.transform_joint_into_mimic(plain, 2, 4, 1.5, 0.2)
    built = rbda.Model(plain.name)
    for i in range(1, plain.njoints):
        joint = rbda.JointModelMimic(plain.joints[4], 2, 1.5, 0.2) if i == 4 else plain.joints[i]
        jid = built.add_joint(plain.parents[i], joint, plain.joint_placements[i], plain.names[i])
        built.inertias[jid] = plain.inertias[i]
    built.frames = list(plain.frames)
    for name in ("lower_position_limit", "upper_position_limit", "effort_limit", "velocity_limit", "friction",
                 "damping", "armature"):
        setattr(built, name, getattr(model, name).copy())
    built.reference_configurations = dict(model.reference_configurations)
    assert built == model
    import pickle

    again = pickle.loads(pickle.dumps(model))
    assert again == model and again.nv_extended == plain.nv
    with pytest.raises(ValueError, match="mimicked_id 9 is not the id of another joint"):
        built.add_joint(0, rbda.JointModelMimic(rbda.JointModelRX(), 9), rbda.SE3(), "late")


# ------------------------------------------------------------------------------------------------ kinematics
def test_kinematics_and_jacobians_are_those_of_the_driven_tree(case):
    plain, model, pairs, q, v, a = case
    d, dp = model.create_data(), plain.create_data()
    qp, vp = expand(plain, model, pairs, q, v)
    ap = expand(plain, model, pairs, q, a)[1]
    rbda.forward_kinematics(model, d, q, v, a)
    rbda.forward_kinematics(plain, dp, qp, vp, ap)
    assert_close(d.v, dp.v)
    assert_close(d.a, dp.a)
    for i in range(plain.njoints):
        assert_close(d.oMi[i].homogeneous, dp.oMi[i].homogeneous)
    rbda.compute_joint_jacobians(model, d, q)
    rbda.update_frame_placements(model, d)

    def placements(x):
        rbda.frames_forward_kinematics(model, d, x)
        return np.array([d.oMf[k].homogeneous for k in range(model.nframes)])

    H = placements(q)
    dH = jacobian_along_basis(lambda x, y: rbda.integrate(model, x, y), placements, q, model.nv)  # (nf, 4, 4, nv)
    rbda.compute_joint_jacobians(model, d, q)
    for k in range(1, model.nframes):
        J = rbda.get_frame_jacobian(model, d, k, rbda.LOCAL)
        twists = np.stack([np.linalg.inv(H[k]) @ dH[k, :, :, c] for c in range(model.nv)], axis=-1)
        expected = np.concatenate([twists[:3, 3], [twists[2, 1], twists[0, 2], twists[1, 0]]])
        assert_close(J, expected, 1e-6)


# ------------------------------------------------------------------------------------------------ dynamics
def test_inverse_dynamics_balances_power_and_crba_is_the_kinetic_energy(case):
    """``v . tau(q, v, a) == dE/dt`` along ``(q, v, a)``, ``1/2 v^T M v`` is the bodies' kinetic energy and ``g``
    is the gradient of the potential energy: three facts that pin down ``rnea`` and ``crba``."""
    plain, model, pairs, q, v, a = case
    d = model.create_data()
    tau = rbda.rnea(model, d, q, v, a).copy()
    eps = 1e-6
    dE = (energy(model, d, rbda.integrate(model, q, eps * v), v + eps * a)
          - energy(model, d, rbda.integrate(model, q, -eps * v), v - eps * a)) / (2 * eps)
    assert abs(v @ tau - dE) <= 1e-6 * max(1.0, abs(dE))
    M = rbda.crba(model, d, q).copy()
    kinetic = energy(model, d, q, v) - energy(model, d, q, np.zeros(model.nv))
    assert abs(0.5 * v @ M @ v - kinetic) <= 1e-9 * max(1.0, kinetic)
    assert_close(M, M.T, 1e-12)
    assert_close(rbda.compute_kinetic_energy(model, d, q, v), kinetic)
    g = rbda.compute_generalized_gravity(model, d, q).copy()
    dV = jacobian_along_basis(lambda x, y: rbda.integrate(model, x, y),
                              lambda x: energy(model, d, x, np.zeros(model.nv)), q, model.nv)
    assert_close(g, dV, 1e-6)
    assert_close(tau, M @ a + rbda.nonlinear_effects(model, d, q, v), 1e-9)


def test_forward_dynamics_inverse_and_cholesky(case):
    plain, model, pairs, q, v, a = case
    d = model.create_data()
    fext = np.random.default_rng(3).normal(size=(model.njoints, 6))
    tau = rbda.rnea(model, d, q, v, a, fext).copy()
    assert_close(rbda.aba(model, d, q, v, tau, fext), a, 1e-9)
    Minv = rbda.compute_minverse(model, d, q).copy()
    M = rbda.crba(model, d, q).copy()
    assert_close(M @ Minv, np.eye(model.nv), 1e-9)
    rbda.cholesky.decompose(model, d)
    assert_close(rbda.cholesky.solve(model, d, tau), Minv @ tau, 1e-9)
    assert_close(d.U @ np.diag(d.D) @ d.U.T, M, 1e-9)
    C = rbda.compute_coriolis_matrix(model, d, q, v).copy()
    assert_close(C @ v, rbda.nonlinear_effects(model, d, q, v) - rbda.compute_generalized_gravity(model, d, q), 1e-9)
    eps = 1e-6
    Mdot = (rbda.crba(model, d, rbda.integrate(model, q, eps * v)).copy()
            - rbda.crba(model, d, rbda.integrate(model, q, -eps * v)).copy()) / (2 * eps)
    assert_close(Mdot - 2 * C, -(Mdot - 2 * C).T, 1e-6)


def test_whole_body_quantities(case):
    plain, model, pairs, q, v, a = case
    d, dp = model.create_data(), plain.create_data()
    qp, vp = expand(plain, model, pairs, q, v)
    com = rbda.center_of_mass(model, d, q).copy()
    assert_close(com, rbda.center_of_mass(plain, dp, qp))
    Jcom = rbda.jacobian_center_of_mass(model, d, q).copy()
    assert_close(Jcom, jacobian_along_basis(lambda x, y: rbda.integrate(model, x, y),
                                            lambda x: rbda.center_of_mass(model, d, x).copy(), q, model.nv), 1e-6)
    Ag = rbda.compute_centroidal_map(model, d, q).copy()
    assert_close(Ag @ v, rbda.compute_centroidal_momentum(plain, dp, qp, vp), 1e-9)
    assert_close(rbda.compute_centroidal_momentum(model, d, q, v), Ag @ v, 1e-9)
    assert_close(rbda.ccrba(model, d, q, v), Ag, 1e-9)
    Y = rbda.compute_joint_torque_regressor(model, d, q, v, a).copy()
    pi = np.concatenate([model.inertias[i].to_dynamic_parameters() for i in range(1, model.njoints)])
    assert_close(Y @ pi, rbda.rnea(model, d, q, v, a), 1e-9)
    assert_close(rbda.compute_mechanical_energy(model, d, q, v), energy(model, d, q, v), 1e-9)


# ------------------------------------------------------------------------------------------------ derivatives
def test_derivatives_against_finite_differences(case):
    plain, model, pairs, q, v, a = case
    d = model.create_data()
    integrate = lambda x, y: rbda.integrate(model, x, y)  # noqa: E731
    dq, dv, M = (x.copy() for x in rbda.compute_rnea_derivatives(model, d, q, v, a))
    assert_close(dq, jacobian_along_basis(integrate, lambda x: rbda.rnea(model, d, x, v, a).copy(), q, model.nv), 2e-6)
    assert_close(M, rbda.crba(model, d, q), 1e-9)
    tau = rbda.rnea(model, d, q, v, a).copy()
    ddq_dq, ddq_dv, Minv = (x.copy() for x in rbda.compute_aba_derivatives(model, d, q, v, tau))
    assert_close(ddq_dq, jacobian_along_basis(integrate, lambda x: rbda.aba(model, d, x, v, tau).copy(), q, model.nv), 2e-6)
    fd_dv = np.stack([(rbda.aba(model, d, q, v + 1e-6 * e, tau).copy() - rbda.aba(model, d, q, v - 1e-6 * e, tau).copy())
                      / 2e-6 for e in np.eye(model.nv)], axis=1)
    assert_close(ddq_dv, fd_dv, 2e-6)
    rbda.compute_forward_kinematics_derivatives(model, d, q, v, a)
    j = pairs[0][0]  # a mimic joint
    v_dq, v_dv = (x.copy() for x in rbda.get_joint_velocity_derivatives(model, d, j, rbda.WORLD))

    def world_velocity(x):
        rbda.forward_kinematics(model, d, x, v)
        return rbda.get_velocity(model, d, j, rbda.WORLD).vector.copy()

    assert_close(v_dq, jacobian_along_basis(integrate, world_velocity, q, model.nv), 2e-6)
    rbda.compute_joint_jacobians(model, d, q)
    assert_close(v_dv, rbda.get_joint_jacobian(model, d, j, rbda.WORLD), 1e-9)


def test_second_order_derivatives_against_finite_differences(case):
    plain, model, pairs, q, v, a = case
    d = model.create_data()
    integrate = lambda x, y: rbda.integrate(model, x, y)  # noqa: E731
    dqdq, dvdv, dqdv, dadq = (x.copy() for x in rbda.compute_rnea_second_order_derivatives(model, d, q, v, a))
    assert dqdq.shape == (model.nv,) * 3
    assert_close(dqdq, jacobian_along_basis(integrate, lambda x: rbda.compute_rnea_derivatives(model, d, x, v, a)[0].copy(),
                                            q, model.nv), 2e-6)
    assert_close(dadq, jacobian_along_basis(integrate, lambda x: rbda.crba(model, d, x).copy(), q, model.nv), 2e-6)
    assert_close(dvdv, np.swapaxes(dvdv, 1, 2), 1e-9)


def test_configuration_space(case):
    plain, model, pairs, q, v, a = case
    v = 0.3 * v  # rotations below pi, so that difference(q, q (+) v) is v
    q1 = rbda.integrate(model, q, v)
    assert q1.shape == (model.nq,)
    assert_close(rbda.difference(model, q, q1), v, 1e-9)
    assert rbda.neutral(model).shape == (model.nq,) and rbda.is_normalized(model, q1, 1e-9)
    assert_close(rbda.interpolate(model, q, q1, 0.5), rbda.integrate(model, q, 0.5 * v), 1e-9)
    Jq, Jv = rbda.d_integrate(model, q, v)
    assert Jq.shape == Jv.shape == (model.nv, model.nv)


# ------------------------------------------------------------------------------------------------ Pinocchio
def test_against_pinocchio_mimic_joints():
    """Pinocchio 4.1 has mimic joints for kinematics, Jacobians, RNEA, CRBA and the centroidal map (not for ABA,
    M^-1, derivatives or regressors); its mimicking joints must come after the joints they mimic."""
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio

    plain = rbda.sample_models.humanoid()
    ids = [i for i in range(1, plain.njoints) if plain.nvs[i] == 1]
    model = rbda.transform_joint_into_mimic(plain, ids[2], ids[5], -1.3, 0.25)
    model = rbda.transform_joint_into_mimic(model, ids[2], ids[9], 0.5, 0.0)
    pm = to_pinocchio(model)
    assert (pm.nq, pm.nv, list(pm.mimicking_joints), list(pm.mimicked_joints)) == (
        model.nq, model.nv, model.mimicking_joints, model.mimicked_joints)
    d = model.create_data()
    rng = np.random.default_rng(0)
    for _ in range(3):
        q, v, a = rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
        pd = pm.createData()  # Pinocchio 4.1's crba with mimic joints is wrong on a reused data (stale entries)
        assert_close(rbda.rnea(model, d, q, v, a), pin.rnea(pm, pd, q, v, a))
        assert_close(rbda.crba(model, d, q), pin.crba(pm, pd, q))
        rbda.compute_joint_jacobians(model, d, q)
        pin.computeJointJacobians(pm, pd, q)
        for j in (ids[5], ids[9], model.njoints - 1):
            assert_close(rbda.get_joint_jacobian(model, d, j, rbda.WORLD), pin.getJointJacobian(pm, pd, j, pin.WORLD))
        assert_close(rbda.jacobian_center_of_mass(model, d, q), pin.jacobianCenterOfMass(pm, pd, q))
        assert_close(rbda.ccrba(model, d, q, v), pin.ccrba(pm, pd, q, v))
        assert_close(rbda.integrate(model, q, v), pin.integrate(pm, q, v))


# ------------------------------------------------------------------------------------------------ surgery, files
def test_reduced_model_keeps_or_locks_the_mimic_joints():
    """Locking a joint locks the joints that mimic it; the reduced model's inverse dynamics are the full model's
    with the locked joints at rest."""
    plain = rbda.sample_models.manipulator()
    model = rbda.transform_joint_into_mimic(rbda.transform_joint_into_mimic(plain, 2, 4, 1.5, 0.2), 1, 6, -0.7)
    rng = np.random.default_rng(1)
    q, v, a = rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
    reduced = rbda.build_reduced_model(model, ["joint3"], q)
    locked = {model.get_joint_id("joint3")} | {i for i, j in zip(model.mimicking_joints, model.mimicked_joints)
                                               if j == model.get_joint_id("joint3")}
    assert reduced.njoints == model.njoints - len(locked)
    kept_v = [k for k in range(model.nv) if not any(model.idx_v[i] == k for i in locked)]
    v[[k for k in range(model.nv) if k not in kept_v]] = 0.0
    a[[k for k in range(model.nv) if k not in kept_v]] = 0.0
    tau = rbda.rnea(model, model.create_data(), q, v, a)[kept_v]
    assert [reduced.names[i] for i in reduced.mimicking_joints] == [
        model.names[i] for i in model.mimicking_joints if i not in locked]
    assert_close(rbda.rnea(reduced, reduced.create_data(), q[kept_v], v[kept_v], a[kept_v]), tau, 1e-9)


def test_appended_model_keeps_both_models_mimic_joints():
    a_model = rbda.transform_joint_into_mimic(rbda.sample_models.manipulator(), 2, 4, 1.5, 0.2)
    b = rbda.sample_models.manipulator()
    b.names = [n if k == 0 else "b_" + n for k, n in enumerate(b.names)]
    b.frames = [rbda.Frame("b_" + f.name, f.parent_joint, f.parent_frame, f.placement, f.type) for f in b.frames]
    b_model = rbda.transform_joint_into_mimic(b, 1, 3, 2.0)
    out = rbda.append_model(a_model, b_model, a_model.nframes - 1)
    assert [out.names[i] for i in out.mimicking_joints] == ["joint4", "b_joint3"]
    assert [out.names[i] for i in out.mimicked_joints] == ["joint2", "b_joint1"]
    assert out.nv == a_model.nv + b_model.nv
    q = rbda.random_configuration(out, rng=np.random.default_rng(0))
    d, da = out.create_data(), a_model.create_data()
    rbda.forward_kinematics(out, d, q)
    rbda.forward_kinematics(a_model, da, q[: a_model.nq])
    for i in range(a_model.njoints):
        assert_close(d.oMi[out.get_joint_id(a_model.names[i])].homogeneous, da.oMi[i].homogeneous)


def test_urdf_mimic_joints_against_pinocchio():
    """``mimic=True`` on every example-robot-data file with <mimic> elements that Pinocchio loads with mimic
    joints; the written URDF reads back to the same model."""
    pin = pytest.importorskip("pinocchio")
    import warnings

    from tests.io.urdf_samples import robots_dir

    from rbda.io import build_model_from_urdf, build_model_from_urdf_string, write_urdf

    files = [p for p in sorted(robots_dir().rglob("*.urdf")) if "<mimic" in p.read_text(errors="ignore")]
    compared = 0
    for path in files:
        try:
            pm = pin.buildModelFromUrdf(str(path), pin.JointModelFreeFlyer(), mimic=True)
        except (ValueError, RuntimeError):
            continue  # Pinocchio 4.1 refuses a mimicked joint that comes after its mimic, or a fixed one
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = build_model_from_urdf(path, rbda.JointModelFreeFlyer(), mimic=True)
        assert (model.nq, model.nv, model.names) == (pm.nq, pm.nv, list(pm.names)), path.name
        assert (model.mimicking_joints, model.mimicked_joints) == (list(pm.mimicking_joints), list(pm.mimicked_joints))
        rng = np.random.default_rng(0)
        q, v, a = rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
        d, pd = model.create_data(), pm.createData()
        assert_close(rbda.rnea(model, d, q, v, a), pin.rnea(pm, pd, q, v, a), 1e-9, path.name)
        assert_close(np.triu(rbda.crba(model, d, q)), np.triu(pin.crba(pm, pd, q)), 1e-9, path.name)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            again = build_model_from_urdf_string(write_urdf(model), mimic=True)
        assert_close(rbda.rnea(again, again.create_data(), q, v, a), rbda.rnea(model, d, q, v, a), 1e-9, path.name)
        compared += 1
    assert compared >= 4  # panda, baxter, pr2, tiago_pro in example-robot-data 6.0


def test_urdf_mimic_errors():
    from rbda.io import ModelFileError, build_model_from_urdf_string

    def robot(mimic_of, kind="revolute"):
        return f"""<robot name="r"><link name="a"/><link name="b"/><link name="c"/>
        <joint name="j1" type="{kind}"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
          <limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
        <joint name="j2" type="revolute"><parent link="b"/><child link="c"/><axis xyz="1 0 0"/>
          <limit lower="-1" upper="1" effort="1" velocity="1"/><mimic joint="{mimic_of}" multiplier="2"/></joint>
        </robot>"""

    model = build_model_from_urdf_string(robot("j1"), mimic=True)
    assert (model.nq, model.mimicking_joints, model.joints[2].scaling) == (1, [2], 2.0)
    assert build_model_from_urdf_string(robot("j1")).nq == 2  # by default, as Pinocchio: an independent joint
    with pytest.raises(ModelFileError, match=r"joint 'j2' > mimic: joint 'nope' is not defined"):
        build_model_from_urdf_string(robot("nope"), mimic=True)
    with pytest.raises(ModelFileError, match=r"joint 'j2' > mimic: joint 'j1' is a fixed joint"):
        build_model_from_urdf_string(robot("j1", "fixed"), mimic=True)
    with pytest.raises(ModelFileError, match=r"joint 'j2' > mimic: .*cannot be mimicked"):
        build_model_from_urdf_string(robot("j1", "continuous"), mimic=True)


def test_batched_forms_agree_with_the_single_state_ones(case):
    """(The single-state algorithms are checked against independent computations above.)"""
    plain, model, pairs, q, v, a = case
    d = model.create_data()
    rng = np.random.default_rng(7)
    Q = np.stack([q] + [rbda.random_configuration(model, rng=rng) for _ in range(2)])
    V, A = rng.normal(size=(3, model.nv)), rng.normal(size=(3, model.nv))
    tau = rbda.batch.rnea(model, Q, V, A)
    assert_close(rbda.batch.aba(model, Q, V, tau), A, 1e-9)
    for b in range(3):
        assert_close(tau[b], rbda.rnea(model, d, Q[b], V[b], A[b]))
        assert_close(rbda.batch.crba(model, Q)[b], rbda.crba(model, d, Q[b]))
        assert_close(rbda.batch.compute_minverse(model, Q)[b], rbda.compute_minverse(model, d, Q[b]), 1e-8)
        assert_close(rbda.batch.jacobian_center_of_mass(model, Q)[b], rbda.jacobian_center_of_mass(model, d, Q[b]))
        assert_close(rbda.batch.ccrba(model, Q, V)[b], rbda.ccrba(model, d, Q[b], V[b]))
        for batched, single in zip(rbda.batch.compute_aba_derivatives(model, Q, V, tau),
                                   rbda.compute_aba_derivatives(model, d, Q[b], V[b], tau[b])):
            assert_close(batched[b], single, 1e-8)
        for batched, single in zip(rbda.batch.compute_rnea_derivatives(model, Q, V, A),
                                   rbda.compute_rnea_derivatives(model, d, Q[b], V[b], A[b])):
            assert_close(batched[b], single)
        for batched, single in zip(rbda.batch.compute_rnea_second_order_derivatives(model, Q, V, A),
                                   rbda.compute_rnea_second_order_derivatives(model, d, Q[b], V[b], A[b])):
            assert batched.shape == (3,) + (model.nv,) * 3
            assert_close(batched[b], single)


def test_in_place_gravity_and_armature_edits_reach_the_algorithms():
    model = rbda.transform_joint_into_mimic(rbda.sample_models.manipulator(), 2, 4, 1.5, 0.2)
    d = model.create_data()
    q = rbda.random_configuration(model, rng=np.random.default_rng(1))
    assert np.abs(rbda.compute_generalized_gravity(model, d, q)).max() > 1.0
    model.gravity.linear[:] = 0.0
    assert_close(rbda.compute_generalized_gravity(model, d, q), np.zeros(model.nv), 1e-12)
    M0, armature = rbda.crba(model, d, q).copy(), model.armature.copy()
    model.armature[:] = 0.5
    assert_close(rbda.crba(model, d, q), M0 + np.diag(0.5 - armature), 1e-12)


def test_derivatives_against_pinocchio_on_the_driven_tree(case):
    """Pinocchio 4.1 computes no derivative on a model with mimic joints: its derivatives of the plain tree at the
    driven state, mapped by the chain rule with ``v_plain = G v`` (``G`` built here from :func:`expand`), are the
    mimic model's: ``G^T X G`` for inverse dynamics, ``X G`` for the kinematics and centroidal derivatives,
    ``H G G`` for the kinematic Hessians, ``-M^-1 dID/dx`` at the forward dynamics for ABA's."""
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio

    plain, model, pairs, q, v, a = case
    pm = to_pinocchio(plain)
    pd, d = pm.createData(), model.create_data()
    G = np.stack([expand(plain, model, pairs, q, e)[1] for e in np.eye(model.nv)], axis=1)
    qp, vp = expand(plain, model, pairs, q, v)
    upper = lambda X: np.triu(X) + np.triu(X, 1).T  # noqa: E731  (Pinocchio fills M's upper triangle)
    dq, dv, da = pin.computeRNEADerivatives(pm, pd, qp, vp, G @ a)
    expected = G.T @ dq @ G, G.T @ dv @ G, G.T @ upper(da) @ G
    for x, y in zip(rbda.compute_rnea_derivatives(model, d, q, v, a), expected):
        assert x.shape == (model.nv, model.nv)
        assert_close(x, y, 1e-9)
    tau = rbda.rnea(model, d, q, v, a).copy()
    ddq = rbda.aba(model, d, q, v, tau).copy()
    dq, dv, da = pin.computeRNEADerivatives(pm, pd, qp, vp, G @ ddq)
    Minv = np.linalg.inv(G.T @ upper(da) @ G)
    for x, y in zip(rbda.compute_aba_derivatives(model, d, q, v, tau), (-Minv @ G.T @ dq @ G, -Minv @ G.T @ dv @ G, Minv)):
        assert_close(x, y, 1e-8)
    pin.computeForwardKinematicsDerivatives(pm, pd, qp, vp, G @ a)
    rbda.compute_forward_kinematics_derivatives(model, d, q, v, a)
    for j in (pairs[0][0], pairs[2][0], model.njoints - 1):
        for rf, prf in ((rbda.WORLD, pin.WORLD), (rbda.LOCAL, pin.LOCAL)):  # LWA: ours moves the origin too
            ours = rbda.get_joint_acceleration_derivatives(model, d, j, rf)
            theirs = pin.getJointAccelerationDerivatives(pm, pd, j, prf)
            for x, y in zip(ours, theirs):
                assert_close(x, y @ G, 1e-9)
    pin.computeJointJacobians(pm, pd, qp)
    pin.computeJointKinematicHessians(pm, pd, qp)
    rbda.compute_joint_kinematic_hessians(model, d, q)
    n = plain.nv
    for j in (pairs[0][0], pairs[2][0], model.njoints - 1):
        for rf, prf in ((rbda.WORLD, pin.WORLD), (rbda.LOCAL, pin.LOCAL), (rbda.LOCAL_WORLD_ALIGNED, pin.LOCAL_WORLD_ALIGNED)):
            # the binding returns the column-major Eigen tensor (6, nv, nv) read as a C-ordered array
            Hp = np.asarray(pin.getJointKinematicHessian(pm, pd, j, prf)).ravel(order="C").reshape((6, n, n), order="F")
            H = rbda.get_joint_kinematic_hessian(model, d, j, rf)
            assert_close(H, np.einsum("xab,ai,bj->xij", Hp, G, G), 1e-9)
    for x, y in zip(rbda.compute_centroidal_dynamics_derivatives(model, d, q, v, a),
                    pin.computeCentroidalDynamicsDerivatives(pm, pd, qp, vp, G @ a)):
        assert_close(x, y @ G, 1e-9)
