"""rbda.featherstone model constructors (autoTree, floatbase, planar, gfxExample, vee, singlebody, scissor,
doubleElbow, rollingdisc): structure from their descriptions, checked through the core's kinematics."""

import warnings

import numpy as np
import pytest

import rbda
import rbda.featherstone as fs
from conftest import close


def _world_com_of_body(model, q, body):
    """Centre of mass of ``body`` (1-based) in base coordinates, from the core's placements."""
    core = fs.to_rbda(model)
    data = core.create_data()
    rbda.forward_kinematics(core, data, q)
    return data.oMi[body].rotation @ core.inertias[body].lever + data.oMi[body].translation


@pytest.mark.parametrize("nb, bf, expected", [
    (5, 1, [0, 1, 2, 3, 4]),
    (7, 2, [0, 1, 1, 2, 2, 3, 3]),
    (8, 1.5, [0, 1, 2, 2, 3, 4, 4, 5]),
    (6, 3, [0, 1, 1, 1, 2, 2]),
])
def test_autotree_parents(nb, bf, expected):
    assert fs.autoTree(nb, bf).parent == expected


def test_autotree_bodies_and_axes():
    taper, skew = 0.8, 0.5
    model = fs.autoTree(4, 1, skew, taper)
    for i in range(4):
        m, c, _ = fs.mcI(model.I[i])
        assert m == pytest.approx(taper ** (3 * i)) and close(c, [taper**i / 2, 0, 0])
    assert close(model.Xtree[0], np.eye(6))
    assert close(model.Xtree[2], fs.rotx(skew) @ fs.xlt([taper, 0, 0]))
    # skew = pi/4: the outboard axis points along (0, -1, 1)
    E, _ = fs.plux(fs.autoTree(2, 1, np.pi / 4).Xtree[1])
    assert close(E.T @ [0, 0, 1], np.array([0, -1, 1]) / np.sqrt(2))
    # skew = 0 is a planar mechanism: no joint moves anything out of the xy-plane
    flat = fs.autoTree(5, 2)
    q = np.random.default_rng(0).standard_normal(5)
    for body in range(1, 6):
        assert _world_com_of_body(flat, q, body)[2] == pytest.approx(0.0)


def test_autotree_wrong_arguments():
    for args, name in [((0,), "nb"), ((3, 0.5), "bf"), ((3, 1, 0, -1), "taper")]:
        with pytest.raises(ValueError, match=name):
            fs.autoTree(*args)


def test_floatbase_structure():
    tree = fs.autoTree(4, 2, 0.3)
    model = fs.floatbase(tree)
    assert model.NB == 9 and model.parent == [0, 1, 2, 3, 4, 5, 6, 6, 7]
    assert model.jtype[:6] == ["Px", "Py", "Pz", "Rx", "Ry", "Rz"]
    assert all(np.all(model.I[i] == 0) for i in range(5)) and close(model.I[5], tree.I[0])
    # the emulated 6-DoF joint at zero is the identity: same dynamics as the fixed tree when locked
    q = np.random.default_rng(1).standard_normal(4)
    H_fixed, _ = fs.HandC(tree, q, q)
    H_float, _ = fs.HandC(model, np.r_[np.zeros(6), q[1:]], np.zeros(9))
    assert close(H_float[6:, 6:], H_fixed[1:, 1:])


def test_floatbase_warnings_and_errors():
    tree = fs.autoTree(2)
    tree.Xtree[0] = fs.xlt([1, 0, 0])
    with pytest.warns(UserWarning, match="Xtree"):
        fs.floatbase(tree)
    with pytest.raises(ValueError, match="planar"):
        fs.floatbase(fs.planar(2))
    two_roots = fs.autoTree(3)
    two_roots.parent = [0, 0, 1]
    with pytest.raises(ValueError, match="one body"):
        fs.floatbase(two_roots)


def test_planar_robot_lines_up_on_x():
    model = fs.planar(3)
    assert model.planar and model.jtype == ["r"] * 3
    for body in (1, 2, 3):
        assert close(_world_com_of_body(model, np.zeros(3), body), [body - 0.5, 0, 0])
    m, c, I = fs.mcI(model.I[0])
    assert (m, I) == pytest.approx((1.0, 1 / 12)) and close(c, [0.5, 0])
    assert fs.EnerMo(model, np.zeros(3), np.zeros(3)).PE == 0.0  # spatial_v2's planar default: no gravity


def test_gfx_example_is_planar_2():
    q, qd = np.array([0.3, -0.4]), np.array([1.0, 2.0])
    for robot in (fs.gfxExample(), fs.gfxExample("track")):
        assert close(fs.HandC(robot, q, qd)[0], fs.HandC(fs.planar(2), q, qd)[0])
        assert robot.appearance
    assert fs.gfxExample("track").camera["body"] == 2


@pytest.mark.parametrize("L2", [1.0, 1.5])
def test_vee_rods_and_axis(L2):
    model = fs.vee(L2)
    assert model.NB == 7 and close(model.gravity, 0)
    q = np.zeros(7)
    assert close(_world_com_of_body(model, q, 6), [0.5, 0, 0])
    assert close(_world_com_of_body(model, q, 7), [0, L2 / 2, 0])
    em = fs.EnerMo(model, q, q)
    assert em.mass == pytest.approx(1 + L2)
    E, r = fs.plux(model.Xtree[6])
    assert close(E.T @ [0, 0, 1], np.array([1, 1, 0]) / np.sqrt(2)) and close(r, 0)


def test_singlebody_and_scissor():
    box = fs.singlebody()
    m, c, I = fs.mcI(box.I[5])
    assert box.NB == 6 and m == 1 and close(c, [1.5, 1, 0.5])
    assert close(I, np.diag([5, 10, 13]) / 12)
    sc = fs.scissor()
    em = fs.EnerMo(sc, np.zeros(7), np.zeros(7))
    assert sc.NB == 7 and em.mass == 2 and close(em.cm, 0)
    assert sc.jtype[6] == "Ry"
    _, _, I6 = fs.mcI(sc.I[5])
    assert I6[2, 2] < I6[0, 0] and I6[2, 2] < I6[1, 1]  # long axis along z


def test_double_elbow_gamma_q():
    model = fs.doubleElbow()
    q, qd, G, g = model.gamma_q(model, np.array([0.1, 0.2, 0.4]), np.array([1.0, 2.0, 2.0]))
    assert q[1] == q[2] == pytest.approx(0.3) and close(qd, [1, 2, 2]) and close(G @ [1, 2], qd)
    assert g[2] - g[1] == pytest.approx(-(0.4 - 0.2) / fs.constructors.DOUBLE_ELBOW_TSTAB**2)
    _, _, _, g = model.gamma_q(model, q, qd)  # on the constraint: no correction
    assert close(g, 0)


def test_rolling_disc_contact_points():
    model = fs.rollingdisc(8)
    assert model.NB == 6 and model.gc.point.shape == (3, 16) and np.all(model.gc.body == 6)
    assert close(np.hypot(model.gc.point[0], model.gc.point[2]), 1.0)
    assert close(np.abs(model.gc.point[1]), 0.1)
    m, c, I = fs.mcI(model.I[5])
    assert m == 1 and close(c, 0) and I[1, 1] == pytest.approx(0.5)
    with pytest.raises(ValueError, match="npt"):
        fs.rollingdisc(2)


def test_constructed_models_convert():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for model in (fs.vee(), fs.singlebody(), fs.scissor(), fs.rollingdisc(6), fs.doubleElbow(),
                      fs.gfxExample(), fs.autoTree(5, 1.5, 0.2, 0.9)):
            core = fs.to_rbda(model)
            assert core.nv == model.NB
