"""The contacts of every pair of bounded shapes (simulation/pair_kernels.py) and their place in the compiled step.

- Against coal: each pair of sphere, capsule, box, cylinder, cone, ellipsoid and convex hull at random placements,
  separated within the margin, touching and penetrating: the deepest contact's signed distance and normal are
  coal's, every contact's witnesses satisfy ``p2 = p1 + d n`` and no contact is deeper than the shapes are.
- Against MuJoCo (``mj_collision`` on the same MJCF, geoms with a margin): the deepest distance and normal of the
  pairs MuJoCo has closed forms for.
- Patches: a box on a box gives 4 points and rests for 2 s without drift; a capsule lying on a box, a cylinder on
  its side, 2 points; a cylinder standing on its cap, a patch; a hull's face on a box, 4 points.
- In the step: a pile of 32 mixed bodies steps in one kernel call each step without NaN, with nothing below the
  floor; the compiled step's contacts equal the Python stages' (reference_step) for every pair type; a pair
  without a contact function is refused when the simulator is built, naming it; the broad phase finds every pair of
  overlapping boxes, bounds every margin, and in a scene of 120 bodies leaves most pairs untested.
"""

import os
import sys
import zlib

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

import rbda
from rbda.simulation.step_state import InSet
from rbda.collision.shapes import Cone, Convex, Ellipsoid, Plane, pack_shapes, shape_row
from rbda.io import Box, Capsule, Cylinder, GeometryModel, GeometryObject, Halfspace, Sphere
from rbda.simulation import Simulator, add_free_body, add_ground_plane
from rbda.simulation.contacts import bounding_radius, pair_contacts

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "collision"))
from coal_oracle import coal_distance, random_rotation, random_shape, to_coal  # noqa: E402

KINDS = ["sphere", "capsule", "box", "cylinder", "cone", "ellipsoid", "convex"]
CLOSED = {("sphere", "sphere"), ("sphere", "capsule"), ("capsule", "capsule"), ("sphere", "box"),
          ("capsule", "box"), ("box", "box"), ("sphere", "cylinder")}
MARGIN = 0.05
TIGHT = dict(max_iter=5000, absolute_feasibility_tol=1e-12, relative_feasibility_tol=1e-12,
             absolute_complementarity_tol=1e-14, relative_complementarity_tol=1e-12)


def placed(k1, k2, target, rng):
    """Two random shapes of kinds ``k1``, ``k2``, turned at random, the second moved along coal's normal to a
    signed distance of about ``target`` times the smaller bounding radius; with coal's distance and normal there."""
    s1, s2 = random_shape(k1, rng), random_shape(k2, rng)
    g1, g2 = to_coal(s1, shape_row(s1)[2]), to_coal(s2, shape_row(s2)[2])
    M1 = np.column_stack([random_rotation(rng), rng.normal(scale=0.3, size=3)])
    u = rng.normal(size=3)
    M2 = np.column_stack([random_rotation(rng), M1[:, 3] + 3.0 * u / np.linalg.norm(u)])
    d, _, _, n = coal_distance(g1, M1, g2, M2)
    size = min(bounding_radius(s1), bounding_radius(s2))
    M2[:, 3] += (target * size - d) * np.asarray(n)
    d, _, _, n = coal_distance(g1, M1, g2, M2)
    return s1, (M1[:, :3], M1[:, 3]), s2, (M2[:, :3], M2[:, 3]), d, np.asarray(n)


@pytest.mark.parametrize("k1, k2", [(a, b) for i, a in enumerate(KINDS) for b in KINDS[i:]],
                         ids=[f"{a}-{b}" for i, a in enumerate(KINDS) for b in KINDS[i:]])
def test_every_pair_against_coal(k1, k2):
    """20 placements each separated (0.3 of the margin), touching (1e-4 of the smaller size apart) and penetrating
    (2 % of the smaller size): the deepest contact's distance is coal's (1e-9 for the closed forms, 1e-6 for GJK
    and EPA, which stop at their tolerances: GJK's on a curved surface, 1e-10 relative, leaves up to 4e-7 here), or,
    where coal is off (its EPA's -DBL_MAX on cones and ellipsoids, its GJK's 0 for some separated polytopes and
    cones), the signed distance by its definition (the least support gap of ``A - B`` over the directions, as
    test_narrowphase finds it); its normal coal's where it is the only contact (a patch's normal is its face's,
    within the feature angle of the deepest point's; coal's within 0.03 rad near touching and for penetrating
    curved pairs, where it is ill-conditioned); p2 = p1 + d n for each contact, and none deeper than the shapes
    are."""
    from test_narrowphase import _signed_distance_by_definition

    rng = np.random.default_rng(zlib.crc32(f"{k1}-{k2}".encode()))
    closed = (k1, k2) in CLOSED
    tol = 1e-9 if closed else 1e-6
    worst, coal_off = 0.0, 0
    for target in (0.3 * MARGIN, 1e-4, -0.02):
        for _ in range(20):
            s1, M1, s2, M2, d, n = placed(k1, k2, target, rng)
            contacts = pair_contacts(s1, M1, s2, M2, MARGIN)
            deepest = min(contacts, key=lambda c: c[0]) if contacts else (np.inf,)
            if abs(deepest[0] - d) > tol:  # coal or us: the definition decides
                pk = pack_shapes([s1, s2])
                a = (pk.types[0], pk.params[0], pk.vertices_of(0), pk.graph_of(0), pk.types[1], pk.params[1],
                     pk.vertices_of(1), pk.graph_of(1))
                d = _signed_distance_by_definition(a, np.column_stack(M1), np.column_stack(M2),
                                                   n if not contacts else deepest[3].copy())
                n = None
                coal_off += 1
            if d > MARGIN:
                assert not contacts
                continue
            assert deepest[0] == pytest.approx(d, abs=tol), (k1, k2, target)
            worst = max(worst, abs(deepest[0] - d))
            if n is not None and len(contacts) == 1 and d > 1e-3:
                assert deepest[3] @ n > 1.0 - (1e-9 if closed else 1e-5)
            elif n is not None:  # (near touching, a distance 1e-10 off turns a normal on a curved surface by
                assert deepest[3] @ n > np.cos(0.03)  # sqrt(2e-10 / d): 4e-3 at d = 1e-5)
            for dist, p1, p2, normal in contacts:
                np.testing.assert_allclose(p2, p1 + dist * normal, atol=1e-12)
                assert np.linalg.norm(normal) == pytest.approx(1.0, abs=1e-12)
                assert d - tol <= dist <= MARGIN
    assert coal_off <= 12
    print(f"{k1}-{k2}: worst |d - coal| {worst:.1e}, {coal_off} placements where coal is off")


MUJOCO_TYPES = {Sphere: ("sphere", lambda s: [s.radius]), Capsule: ("capsule", lambda s: [s.radius, s.half_length]),
                Box: ("box", lambda s: list(s.half_side)), Cylinder: ("cylinder", lambda s: [s.radius, s.half_length])}


@pytest.mark.parametrize("k1, k2", sorted(CLOSED | {("capsule", "cylinder")}),
                         ids=[f"{a}-{b}" for a, b in sorted(CLOSED | {("capsule", "cylinder")})])
def test_pairs_against_mujoco(k1, k2):
    """The pairs MuJoCo has closed forms for (and capsule-cylinder, its general convex one), 20 placements each
    within the margin: MuJoCo's deepest contact (``mj_collision``, both geoms with margin 0.05) has our deepest
    distance (1e-6) and normal (1e-4). Two boxes apart only penetrating: apart, MuJoCo's distance is their
    separation along its separating axis, a lower bound of theirs."""
    mujoco = pytest.importorskip("mujoco")
    rng = np.random.default_rng(7)
    for target in ((0.5 * MARGIN,) if (k1, k2) != ("box", "box") else ()) + (-0.01,):
        for _ in range(10):
            s1, M1, s2, M2, d, _ = placed(k1, k2, target, rng)
            geoms = ""
            for k, (s, (R, p)) in enumerate(((s1, M1), (s2, M2))):
                kind, size = MUJOCO_TYPES[type(s)]
                quat = np.empty(4)
                mujoco.mju_mat2Quat(quat, np.ascontiguousarray(R).reshape(-1))
                numbers = lambda x: " ".join(f"{float(a):.17g}" for a in x)  # noqa: E731
                geoms += (f'<body pos="{numbers(p)}" quat="{numbers(quat)}"><freejoint/><geom name="g{k}" '
                          f'type="{kind}" size="{numbers(size(s))}" margin="{MARGIN}"/></body>')
            mj = mujoco.MjModel.from_xml_string(f"<mujoco><worldbody>{geoms}</worldbody></mujoco>")
            data = mujoco.MjData(mj)
            mujoco.mj_forward(mj, data)
            assert data.ncon > 0
            c = min(data.contact[:data.ncon], key=lambda c: c.dist)
            normal = c.frame[:3] * (1.0 if c.geom[0] == 0 else -1.0)
            ours = min(pair_contacts(s1, M1, s2, M2, MARGIN), key=lambda c: c[0])
            assert ours[0] == pytest.approx(c.dist, abs=1e-6), (k1, k2, target)
            assert ours[3] @ normal > 1.0 - 1e-4


def _on_table(shape, R, height, mass=1.0, mu=0.5, dt=1e-3):
    """A free body of ``shape`` turned by ``R`` with its centre at ``height`` above a fixed 2 x 2 x 0.5 box whose
    top is z = 0."""
    model, cm = rbda.Model(), GeometryModel()
    cm.add_geometry_object(GeometryObject("table", 0, 0, rbda.SE3(np.eye(3), [0.0, 0.0, -0.25]), Box((2.0, 2.0, 0.5))))
    add_free_body(model, cm, "body", shape, mass)
    sim = Simulator(model, cm, dt, mu=mu, solver_options=TIGHT)
    q = rbda.neutral(model)
    q[2] = height
    q[3:7] = Rotation.from_matrix(R).as_quat()  # x, y, z, w
    return sim, q, np.zeros(6)


LYING = np.array([[0.0, 0.0, 1.0], [0.0, 1.0, 0.0], [-1.0, 0.0, 0.0]])  # the shape's z axis along x


@pytest.mark.parametrize("shape, R, height, points", [
    (Box((0.2, 0.3, 0.1)), np.eye(3), 0.05, 4),
    (Capsule(0.05, 0.3), LYING, 0.05, 2),
    (Cylinder(0.05, 0.3), LYING, 0.05, 2),
    (Cylinder(0.1, 0.1), np.eye(3), 0.05, 4),
    (Convex(np.array([[x, y, z] for x in (-0.1, 0.1) for y in (-0.1, 0.1) for z in (-0.05, 0.05)])), np.eye(3),
     0.05, 4),
], ids=["box", "capsule lying", "cylinder lying", "cylinder standing", "hull"])
def test_patches_rest_on_a_box(shape, R, height, points):
    """A shape resting on a fixed box through a face, its side or its axis: the patch's points (a box's or a hull's
    four corners, a capsule's or a lying cylinder's two axis ends, a standing cylinder's cap: the four corners of
    the square inscribed in its rim), all at the surface, normal +z (from the table to the body), carrying m g dt
    together, and the body still after 2 s (no drift)."""
    sim, q, v = _on_table(shape, R, height)
    q1, v1 = sim.step(q, v, np.zeros(6))
    assert sim.contacts.size == points
    np.testing.assert_allclose(sim.contacts.distances, 0.0, atol=1e-12)
    np.testing.assert_allclose(sim.contacts.normals, np.tile([0.0, 0.0, 1.0], (points, 1)), atol=1e-12)
    assert sim.impulses[2::3].sum() == pytest.approx(9.81e-3, rel=1e-6)
    Q, V = sim.rollout(q, v, np.zeros((2000, 6)))
    assert sim.contacts.size == points
    assert np.abs(V).max() < 1e-6 and np.abs(Q[-1, :3] - q[:3]).max() < 1e-6


def test_a_box_on_a_box_on_the_floor_rests_for_2_s():
    """Two free boxes stacked on the floor: 4 points under each, the stack still after 2 s (positions within 1e-6,
    velocities 1e-6)."""
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "lower", Box((0.4, 0.4, 0.2)), 4.0)
    add_free_body(model, cm, "upper", Box((0.2, 0.2, 0.2)), 1.0)
    add_ground_plane(model, cm)
    sim = Simulator(model, cm, 1e-3, mu=0.5, solver_options=TIGHT)
    q = rbda.neutral(model)
    q[2], q[9] = 0.1, 0.3
    Q, V = sim.rollout(q, np.zeros(12), np.zeros((2000, 12)))
    pairs = [tuple(p) for p in sim.contacts.pairs]
    assert pairs.count((0, 1)) == 4 and pairs.count((0, 2)) == 4
    assert np.abs(V[-1]).max() < 1e-6 and np.abs(Q[-1] - q).max() < 1e-6


def _pile(n, rng, kinds=(Box, Sphere, Capsule, Cylinder, Ellipsoid, Cone, Convex), spacing=0.09):
    """``n`` random bodies of every kind (2 to 5 cm, up to 10 cm long) on a grid ``spacing`` apart (at 9 cm their
    bounding balls overlap their neighbours'), turned at random, above the floor."""
    model, cm = rbda.Model(), GeometryModel()
    for k in range(n):
        kind = kinds[k % len(kinds)]
        s = lambda: rng.uniform(0.02, 0.05)  # noqa: E731
        shape = {Box: lambda: Box((2 * s(), 2 * s(), 2 * s())), Sphere: lambda: Sphere(s()),
                 Capsule: lambda: Capsule(s(), 2 * s()), Cylinder: lambda: Cylinder(s(), 2 * s()),
                 Ellipsoid: lambda: Ellipsoid((s(), s(), s())), Cone: lambda: Cone(s(), 3 * s()),
                 Convex: lambda: Convex(rng.normal(size=(12, 3)) * 0.03)}[kind]()
        add_free_body(model, cm, f"b{k}", shape, rng.uniform(0.1, 1.0))
    add_ground_plane(model, cm)
    q = rbda.neutral(model)
    side = int(np.ceil(n ** (1 / 3)))
    for k in range(n):
        i, j, h = k % side, (k // side) % side, k // side**2
        q[7 * k:7 * k + 3] = spacing * (i + 0.2 * h), spacing * (j + 0.2 * h), 0.1 + spacing * h
        u = rng.normal(size=4)
        q[7 * k + 3:7 * k + 7] = u / np.linalg.norm(u)
    return model, cm, q


def test_a_pile_of_32_mixed_bodies_steps_compiled_without_nan():
    """32 bodies of every kind dropped in a grid 20 cm apart, each layer shifted onto the one below: 1.5 s, every
    step one kernel call (no Python contact stage), every state finite, no body's centre below the floor, the
    deepest penetration below 5 mm."""
    model, cm, q = _pile(32, np.random.default_rng(0), spacing=0.2)
    sim = Simulator(model, cm, 1e-3, mu=0.5)
    v, deepest = np.zeros(model.nv), 0.0
    for _ in range(1500):
        q, v = sim.step(q, v, np.zeros(model.nv))
        assert isinstance(sim.step_state.last, InSet)  # the one-call step
        assert np.all(np.isfinite(q)) and np.all(np.isfinite(v))
        deepest = min(deepest, sim.contacts.distances.min(initial=0.0))
    assert q[2::7][:32].min() > 0.0
    assert deepest > -5e-3
    print(f"32 bodies: {sim.contacts.size} contacts at the end, deepest penetration {-deepest:.1e} m")


def test_the_compiled_step_equals_the_python_stages_on_every_pair():
    """A pile of 14 bodies, two of each kind, starting as they overlap, 150 steps: at each state of the compiled
    step's trajectory, the Python stages' contacts (``simulator.contacts``, whose pair functions call pair_kernels
    one pair at a time, on placements equal to the bit) are the compiled step's: the same keys, points, normals and
    distances (1e-12); and reference_step's own trajectory follows the compiled one for 50 steps (1e-6, relative to
    the largest speed: EPA's witness points and normals on curved shapes move by up to its tolerance with the
    rounding of the placements they start from, and the pile's collisions amplify it: 1e-5 after 150 steps)."""
    from rbda.simulation.simulator import contacts, kinematics, reference_step

    def make():
        model, cm, q = _pile(14, np.random.default_rng(3))
        return Simulator(model, cm, 1e-3, mu=0.5, solver_options=TIGHT), q, np.zeros(model.nv)

    (a, q, v), (b, _, _), (c, _, _) = make(), make(), make()
    assert len({type(g.geometry) for g in a.collision_model.geometry_objects}) == 8
    tau = np.zeros(a.model.nv)
    qc, vc = q, v
    touching = set()
    for step in range(150):
        v_free = kinematics(b, q, v, tau, None)
        expected = contacts(b, v, v_free)
        q, v = a.step(q, v, tau)
        assert a.contacts.keys == expected.keys
        for field in ("points", "normals", "distances", "mu"):
            np.testing.assert_allclose(getattr(a.contacts, field), getattr(expected, field), atol=1e-12)
        np.testing.assert_array_equal(a.contacts.pairs, expected.pairs)
        touching |= {tuple(sorted((type(a.collision_model.geometry_objects[i].geometry).__name__,
                                   type(a.collision_model.geometry_objects[j].geometry).__name__)))
                     for i, j in a.contacts.pairs}
        if step < 50:
            qc, vc = reference_step(c, qc, vc, tau)
            qa, va = q, v
    assert np.abs(qc - qa).max() < 1e-6 and np.abs(vc - va).max() < 1e-6 * (1.0 + np.abs(va).max())
    assert len(touching) >= 8, touching


def test_a_pair_without_a_contact_function_is_refused():
    """Two half-spaces on different joints, a two-sided plane: ValueError when the simulator is built, naming the
    pair (its geometry objects and their shapes)."""
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "ball", Sphere(0.1), 1.0)
    joint = model.add_joint(0, rbda.JointModelFreeFlyer(), rbda.SE3.Identity(), "slab")
    cm.add_geometry_object(GeometryObject("slab", joint, 0, rbda.SE3.Identity(), Halfspace()))
    add_ground_plane(model, cm)
    with pytest.raises(ValueError, match=r"'slab' Halfspace, 'ground' Halfspace"):
        Simulator(model, cm, 1e-3)
    model, cm = rbda.Model(), GeometryModel()
    add_free_body(model, cm, "ball", Sphere(0.1), 1.0)
    cm.add_geometry_object(GeometryObject("sheet", 0, 0, rbda.SE3.Identity(), Plane((0.0, 0.0, 1.0))))
    cm.add_collision_pair(0, 1)
    with pytest.raises(ValueError, match=r"'ball' Sphere, 'sheet' Plane"):
        Simulator(model, cm, 1e-3)


def test_the_sweep_finds_every_pair_of_overlapping_boxes():
    """Random boxes moved over 20 calls, the order kept from call to call: the sweep's candidates are the
    collision pairs (a random half of all pairs) whose boxes overlap when grown, found by testing every pair."""
    from rbda.simulation.broad_phase import heap_sort, partner_table, sweep

    rng = np.random.default_rng(0)
    n = 120
    pairs = np.array([(i, j) for i in range(n) for j in range(i + 1, n)], dtype=np.int64)
    listed = rng.random(len(pairs)) < 0.5
    start, partners = partner_table(pairs, listed, n)
    order, boxes = np.arange(n, dtype=np.int64), np.zeros((n, 6))
    centres, half = rng.uniform(-1, 1, (n, 3)), rng.uniform(0.02, 0.15, (n, 3))
    candidates = np.zeros(len(pairs), dtype=np.int64)
    for _ in range(20):
        centres += rng.normal(scale=0.05, size=(n, 3))
        boxes[:, :3], boxes[:, 3:] = centres - half, centres + half
        grow = rng.uniform(0.0, 0.05)
        count = sweep(order, boxes, grow, start, partners, candidates, 0)
        heap_sort(candidates, count)
        lo, hi = boxes[pairs[:, 0]], boxes[pairs[:, 1]]
        overlap = np.all((hi[:, :3] <= lo[:, 3:] + grow) & (lo[:, :3] <= hi[:, 3:] + grow), axis=1)
        np.testing.assert_array_equal(candidates[:count], np.flatnonzero(overlap & listed))
        assert np.all(np.diff(boxes[order, 0]) >= 0.0)


def test_the_sweep_growth_bounds_every_margin():
    """Random bodies with random velocities (up to 5 m/s and 50 rad/s): every pair within its speculative margin
    (its balls closer than it) has a margin no larger than the sweep's growth."""
    from rbda.simulation import compiled
    from rbda.simulation.broad_phase import sweep_growth
    from rbda.simulation.speculative import closing_speed, joint_twists

    rng = np.random.default_rng(1)
    model, cm, q = _pile(40, rng, kinds=(Box, Sphere, Capsule))
    sim = Simulator(model, cm, 1e-3)
    scene = sim._scene
    v, v_free = rng.normal(size=(2, model.nv)) * np.tile([5.0, 5.0, 5.0, 50.0, 50.0, 50.0], 40) / 2
    rbda.compute_joint_jacobians(model, sim.data, q)
    R, p = np.empty((cm.ngeoms, 3, 3)), np.empty((cm.ngeoms, 3))
    compiled.geometry_placements(sim.data._views.oMi, scene.gint, scene.gR, scene.gp, R, p)
    twists = np.empty((2, model.njoints, 6))
    joint_twists(np.ascontiguousarray(sim.data.J.T), scene.tree, np.stack([v, v_free]), twists)
    G = sweep_growth(scene.bounded, scene.parents, scene.radius, p, twists, sim.margin, sim.dt)
    within = 0
    for i, j, code, _ in scene.pairs:
        if code != compiled.SHAPES:
            continue
        m = max(sim.margin, sim.dt * closing_speed(i, j, scene.parents, scene.plane, scene.radius, scene.normals, R, p,
                                                  twists))
        if np.linalg.norm(p[i] - p[j]) - scene.radius[i] - scene.radius[j] <= m:
            within += 1
            assert m <= G
    assert within > 20 and np.isfinite(G)


def test_a_scene_of_120_bodies_runs_the_narrow_phase_on_few_pairs():
    """120 spheres and boxes on a grid (7140 pairs between them, 120 with the floor): the broad phase's
    candidates are the floor's pairs and the neighbours' (under 20 % of the pairs: 13 neighbours each on the grid),
    and the step's contacts are
    the Python stages', which test every pair."""
    from rbda.simulation import compiled
    from rbda.simulation.simulator import contacts, kinematics

    model, cm, q = _pile(120, np.random.default_rng(2), kinds=(Box, Sphere))
    sim = Simulator(model, cm, 1e-3)
    v = np.zeros(model.nv)
    q, v = sim.step(q, v, np.zeros(model.nv))
    scene = sim._scene
    v_free = kinematics(sim, q, v, np.zeros(model.nv), None)
    compiled.geometry_placements(sim.data._views.oMi, scene.gint, scene.gR, scene.gp, scene.R, scene.p)
    count = compiled.candidate_pairs(scene.pairs, scene.plane_pairs, scene.bounded, scene.order, scene.local_box,
                                     scene.world_box, scene.partner_start, scene.partners, scene.parents,
                                     scene.plane, scene.radius, scene.normals, scene.tree,
                                     np.ascontiguousarray(sim.data.J.T), v, v_free, scene.R, scene.p, sim.margin,
                                     sim.dt, True, scene.velocities, scene.twists, scene.candidates, scene.margins)
    assert len(scene.pairs) == 120 * 119 // 2 + 120 and count < 0.2 * len(scene.pairs)
    q1, v1 = sim.step(q, v, np.zeros(model.nv))
    compiled_keys = sim.contacts.keys
    reference = contacts(sim, v, kinematics(sim, q, v, np.zeros(model.nv), None))
    assert compiled_keys == reference.keys and len(compiled_keys) > 100


def test_a_mesh_file_rests_on_a_box_on_its_face(tmp_path):
    """A mesh file of a box (its hull's faces) on a fixed box: the 4 corners of its face, at rest after 1 s."""
    pytest.importorskip("trimesh")
    from rbda.io import Mesh

    corners = np.array([[x, y, z] for x in (-0.1, 0.1) for y in (-0.2, 0.2) for z in (-0.05, 0.05)])
    faces = [(0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1), (2, 3, 7), (2, 7, 6), (0, 2, 6),
             (0, 6, 4), (1, 5, 7), (1, 7, 3)]
    path = tmp_path / "box.obj"
    path.write_text("".join(f"v {x} {y} {z}\n" for x, y, z in corners) + "".join(
        f"f {a + 1} {b + 1} {c + 1}\n" for a, b, c in faces))
    sim, q, v = _on_table(Mesh(str(path)), np.eye(3), 0.05)
    Q, V = sim.rollout(q, v, np.zeros((1000, 6)))
    assert sim.contacts.size == 4
    np.testing.assert_allclose(np.sort(np.abs(sim.contacts.points[:, :2]), axis=0), [[0.1, 0.2]] * 4, atol=1e-9)
    assert np.abs(V[-1]).max() < 1e-6 and np.abs(Q[-1, :3] - q[:3]).max() < 1e-6


@pytest.mark.parametrize("path", ["step", "rollout"])
def test_a_step_with_more_contacts_than_its_buffers_enlarges_them(monkeypatch, path):
    """Output buffers made for no contact (``CONTACTS_PER_OBJECT`` 0): the first steps find the stacked boxes'
    contacts, enlarge the buffers (twice the room each time) and run again, and the trajectory is the one of
    buffers large enough from the start, to the bit."""
    from rbda.simulation import packed

    def make():
        model, cm = rbda.Model(), GeometryModel()
        cm.add_geometry_object(GeometryObject("table", 0, 0, rbda.SE3(np.eye(3), [0.0, 0.0, -0.25]),
                                              Box((2.0, 2.0, 0.5))))
        add_free_body(model, cm, "lower", Box((0.4, 0.4, 0.2)), 4.0)
        add_free_body(model, cm, "upper", Box((0.2, 0.2, 0.2)), 1.0)
        return Simulator(model, cm, 1e-3, mu=0.5)

    reference = make()
    monkeypatch.setattr(packed, "CONTACTS_PER_OBJECT", 0)
    small = make()
    assert small._scene.capacity == 0 and reference._scene.capacity >= 8
    q = rbda.neutral(small.model)
    q[2], q[9] = 0.1, 0.3
    taus = np.zeros((50, 12))
    taus[:, 0] = 2.0
    if path == "rollout":
        Qa, Va = small.rollout(q, np.zeros(12), taus)
        Qb, Vb = reference.rollout(q, np.zeros(12), taus)
    else:
        Qa, Va, Qb, Vb = [q], [np.zeros(12)], [q], [np.zeros(12)]
        for tau in taus:
            for Q, V, sim in ((Qa, Va, small), (Qb, Vb, reference)):
                qn, vn = sim.step(Q[-1], V[-1], tau)
                Q.append(qn)
                V.append(vn)
    np.testing.assert_array_equal(np.array(Qa), np.array(Qb))
    np.testing.assert_array_equal(np.array(Va), np.array(Vb))
    assert small.contacts.keys == reference.contacts.keys and small.contacts.size == 8
    assert 8 <= small._scene.capacity <= 16
