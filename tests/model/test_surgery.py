"""Model surgery: append_model, build_reduced_model, find_common_ancestor against Pinocchio's twins and against
identities between the full and the derived models; save_model/load_model_file round trips and errors."""

from pathlib import Path

import numpy as np
import pytest

import rbda
from rbda.io import ModelFileError

from conftest import assert_close

MJCF_FILE = "humanoid_like.xml"

# Pinocchio's Python bindings cannot build an unaligned unbounded revolute joint
JOINTS = [j for j in rbda.sample_models.all_joint_types() if j.shortname() != "JointModelRevoluteUnboundedUnaligned"]


def model_a(seed=1) -> rbda.Model:
    rng = np.random.default_rng(seed)
    model = rbda.sample_models.random_tree(JOINTS[:9], np.random.default_rng(seed))
    model.add_frame(rbda.Frame("tool_a", 1, 2, rbda.SE3.Random(rng)))
    model.reference_configurations["home"] = rbda.random_configuration(model, rng=rng)
    model.damping = rng.uniform(size=model.nv)
    model.lower_position_limit[:] = -2.0
    model.upper_position_limit[:] = 2.0
    return model


def model_b(seed=2) -> rbda.Model:
    rng = np.random.default_rng(seed)
    model = rbda.sample_models.random_tree(JOINTS[9:], np.random.default_rng(seed), root=rbda.JointModelFreeFlyer())
    model.names = [name if i == 0 else "b_" + name for i, name in enumerate(model.names)]
    for f in model.frames:
        f.name = "b_" + f.name
    model.add_frame(rbda.Frame("b_on_universe", 0, 0, rbda.SE3.Random(rng), inertia=rbda.Inertia.Random(rng)))
    model.add_frame(rbda.Frame("b_tool", 2, 3, rbda.SE3.Random(rng)))
    model.reference_configurations["b_only"] = rbda.random_configuration(model, rng=rng)
    model.friction = rng.uniform(size=model.nv)
    return model


def frame_table(frames, pinocchio=False):
    if pinocchio:
        return [(f.name, f.parentJoint, f.parentFrame, int(f.type)) for f in frames]
    return [(f.name, f.parent_joint, f.parent_frame, int(f.type)) for f in frames]


def assert_same_as_pinocchio(model, pmodel, seeds=(0, 1)):
    """Names, parents, frames, limits, reference configurations and rnea/crba on random states."""
    pin = pytest.importorskip("pinocchio")
    assert (model.nq, model.nv) == (pmodel.nq, pmodel.nv)
    assert model.names == list(pmodel.names) and model.parents == list(pmodel.parents)
    assert frame_table(model.frames) == frame_table(pmodel.frames, pinocchio=True)
    for f, pf in zip(model.frames, pmodel.frames):
        assert_close(f.placement.homogeneous, pf.placement.homogeneous, 1e-12)
    for ours, theirs in ((model.lower_position_limit, pmodel.lowerPositionLimit),
                         (model.upper_position_limit, pmodel.upperPositionLimit),
                         (model.damping, pmodel.damping), (model.friction, pmodel.friction)):
        np.testing.assert_array_equal(ours, theirs)
    theirs = {item.key(): item.data() for item in pmodel.referenceConfigurations}
    assert model.reference_configurations.keys() == theirs.keys()
    for name, q in model.reference_configurations.items():
        np.testing.assert_allclose(q, theirs[name], atol=1e-15)
    data, pdata = model.create_data(), pmodel.createData()
    for seed in seeds:
        rng = np.random.default_rng(seed)
        q, v, a = rbda.random_configuration(model, rng=rng), rng.normal(size=model.nv), rng.normal(size=model.nv)
        assert_close(rbda.rnea(model, data, q, v, a), pin.rnea(pmodel, pdata, q, v, a))
        assert_close(rbda.crba(model, data, q), pin.crba(pmodel, pdata, q))


def to_pinocchio_with_universe(model):
    """``to_pinocchio`` plus the inertia carried by the universe (bodies welded to the world)."""
    pin = pytest.importorskip("pinocchio")
    from rbda.interop.pinocchio import to_pinocchio

    pmodel = to_pinocchio(model)
    Y = model.inertias[0]
    pmodel.appendBodyToJoint(0, pin.Inertia(Y.mass, Y.lever.copy(), Y.inertia.copy()), pin.SE3.Identity())
    for name, q in model.reference_configurations.items():
        pmodel.referenceConfigurations[name] = q.copy()
    return pmodel


# ------------------------------------------------------------------------------------------------- append_model
@pytest.mark.parametrize("frame", ["universe", "j3_link", "tool_a", "j5_joint"])
def test_append_model_matches_pinocchio(frame):
    pin = pytest.importorskip("pinocchio")
    a, b = model_a(), model_b()
    placement = rbda.SE3.Random(np.random.default_rng(3))
    appended = rbda.append_model(a, b, frame, placement)
    pa, pb = to_pinocchio_with_universe(a), to_pinocchio_with_universe(b)
    theirs = pin.appendModel(pa, pb, pa.getFrameId(frame), pin.SE3(placement.rotation, placement.translation))
    assert_same_as_pinocchio(appended, theirs)


def test_append_model_kinematics_and_armature():
    """b's frames sit at ``frame_in_a * placement * (b's own placement)``; armature follows its joints
    (Pinocchio 4.1's appendModel drops it, so this is checked here by name)."""
    a, b = model_a(), model_b()
    rng = np.random.default_rng(4)
    a.armature = rng.uniform(size=a.nv)
    b.armature = rng.uniform(size=b.nv)
    placement = rbda.SE3.Random(rng)
    c = rbda.append_model(a, b, "j3_link", placement)
    for src in (a, b):
        for i in range(1, src.njoints):
            k = c.get_joint_id(src.names[i])
            np.testing.assert_array_equal(c.armature[c.idx_v[k] : c.idx_v[k] + c.nvs[k]],
                                          src.armature[src.idx_v[i] : src.idx_v[i] + src.nvs[i]])
    qa, qb = rbda.random_configuration(a, rng=rng), rbda.random_configuration(b, rng=rng)
    q = np.empty(c.nq)
    for src, qs in ((a, qa), (b, qb)):
        for i in range(1, src.njoints):
            k = c.get_joint_id(src.names[i])
            q[c.idx_q[k] : c.idx_q[k] + c.nqs[k]] = qs[src.idx_q[i] : src.idx_q[i] + src.nqs[i]]
    da, db, dc = a.create_data(), b.create_data(), c.create_data()
    rbda.frames_forward_kinematics(a, da, qa)
    rbda.frames_forward_kinematics(b, db, qb)
    rbda.frames_forward_kinematics(c, dc, q)
    oMattach = da.oMf[a.get_frame_id("j3_link")] * placement
    for k, f in enumerate(b.frames[1:], start=1):
        assert_close(dc.oMf[c.get_frame_id(f.name)].homogeneous, (oMattach * db.oMf[k]).homogeneous, 1e-12)
    for k, f in enumerate(a.frames):
        assert_close(dc.oMf[c.get_frame_id(f.name)].homogeneous, da.oMf[k].homogeneous, 1e-12)
    total = sum(Y.mass for Y in c.inertias)
    assert np.isclose(total, sum(Y.mass for Y in a.inertias) + sum(Y.mass for Y in b.inertias))


def test_append_model_errors():
    a, b = model_a(), model_b()
    with pytest.raises(ValueError, match="joint names"):
        rbda.append_model(a, a, 0)
    b.frames[3].name = "tool_a"
    with pytest.raises(ValueError, match="frame names"):
        rbda.append_model(a, b, 0)
    with pytest.raises(ValueError, match="frame_in_a"):
        rbda.append_model(a, model_b(), "no_such_frame")
    with pytest.raises(ValueError, match="frame_in_a"):
        rbda.append_model(a, model_b(), a.nframes)
    with pytest.raises(TypeError, match="placement"):
        rbda.append_model(a, model_b(), 0, np.eye(4))
    with pytest.raises(TypeError, match="model_b"):
        rbda.append_model(a, "b", 0)


# ------------------------------------------------------------------------------------------------- reduced model
def full_model() -> rbda.Model:
    rng = np.random.default_rng(5)
    model = rbda.sample_models.random_tree(JOINTS, np.random.default_rng(1), root=rbda.JointModelFreeFlyer())
    model.add_frame(rbda.Frame("tool", 3, 2, rbda.SE3.Random(rng)))
    model.reference_configurations["home"] = rbda.random_configuration(model, rng=rng)
    model.armature = rng.uniform(size=model.nv)
    model.damping = rng.uniform(size=model.nv)
    return model


LOCKS = {"one": [3], "root": [1], "chain": [2, 5, 7], "every_other": list(range(2, 20, 2)),
         "by_name": ["j5_joint", "j12_joint"]}


@pytest.mark.parametrize("lock", sorted(LOCKS))
def test_build_reduced_model_matches_pinocchio(lock):
    pin = pytest.importorskip("pinocchio")
    model = full_model()
    q_ref = rbda.random_configuration(model, rng=np.random.default_rng(6))
    reduced = rbda.build_reduced_model(model, LOCKS[lock], q_ref)
    ids = [model.get_joint_id(j) if isinstance(j, str) else j for j in LOCKS[lock]]
    theirs = pin.buildReducedModel(to_pinocchio_with_universe(model), ids, q_ref)
    assert_same_as_pinocchio(reduced, theirs)
    np.testing.assert_array_equal(reduced.armature, theirs.armature)


def kept_indices(model, locked, sizes):
    idx = model.idx_q if sizes == "q" else model.idx_v
    n = model.nqs if sizes == "q" else model.nvs
    return np.concatenate([np.arange(idx[i], idx[i] + n[i]) for i in range(1, model.njoints) if i not in locked])


@pytest.mark.parametrize("lock", ["chain", "every_other"])
def test_reduced_model_is_full_model_with_locked_joints_at_rest(lock):
    """rnea/crba/frames of the reduced model equal the full model's at q_ref on locked joints, with their v = a = 0."""
    model = full_model()
    rng = np.random.default_rng(7)
    q_ref = rbda.random_configuration(model, rng=rng)
    reduced = rbda.build_reduced_model(model, LOCKS[lock], q_ref)
    locked = set(LOCKS[lock])
    iq, iv = kept_indices(model, locked, "q"), kept_indices(model, locked, "v")
    dr, df = reduced.create_data(), model.create_data()
    for _ in range(2):
        qr = rbda.random_configuration(reduced, rng=rng)
        vr, ar = rng.normal(size=reduced.nv), rng.normal(size=reduced.nv)
        q, v, a = q_ref.copy(), np.zeros(model.nv), np.zeros(model.nv)
        q[iq], v[iv], a[iv] = qr, vr, ar
        assert_close(rbda.rnea(reduced, dr, qr, vr, ar), rbda.rnea(model, df, q, v, a)[iv])
        assert_close(rbda.crba(reduced, dr, qr), rbda.crba(model, df, q)[np.ix_(iv, iv)])
        rbda.frames_forward_kinematics(reduced, dr, qr)
        rbda.frames_forward_kinematics(model, df, q)
        for k in range(model.nframes):
            assert_close(dr.oMf[k].homogeneous, df.oMf[k].homogeneous, 1e-12)
    for name, q in model.reference_configurations.items():
        np.testing.assert_array_equal(reduced.reference_configurations[name], q[iq])
    for i in locked:
        assert reduced.frames[reduced.get_frame_id(model.names[i])].type == rbda.FrameType.FIXED_JOINT


def test_build_reduced_model_errors():
    model = full_model()
    q = rbda.neutral(model)
    with pytest.raises(ValueError, match="universe"):
        rbda.build_reduced_model(model, [0], q)
    with pytest.raises(ValueError, match="joints_to_lock"):
        rbda.build_reduced_model(model, ["nope"], q)
    with pytest.raises(ValueError, match="joints_to_lock"):
        rbda.build_reduced_model(model, [model.njoints], q)
    with pytest.raises(ValueError, match="reference_configuration"):
        rbda.build_reduced_model(model, [2], q[:-1])
    with pytest.raises(ValueError, match="reference_configuration"):
        rbda.build_reduced_model(model, [2], np.full(model.nq, np.nan))


# ------------------------------------------------------------------------------------------------- common ancestor
def test_find_common_ancestor_matches_pinocchio_and_supports():
    pin = pytest.importorskip("pinocchio")
    model = full_model()
    pmodel = to_pinocchio_with_universe(model)
    supports = model.supports
    for j1 in range(model.njoints):
        for j2 in range(model.njoints):
            ancestor, k1, k2 = rbda.find_common_ancestor(model, j1, j2)
            assert (ancestor, k1, k2) == tuple(pin.findCommonAncestor(pmodel, j1, j2))
            assert supports[j1][k1] == supports[j2][k2] == ancestor
            deepest = k1 + 1 == len(supports[j1]) or k2 + 1 == len(supports[j2])
            assert deepest or supports[j1][k1 + 1] != supports[j2][k2 + 1]
    assert rbda.find_common_ancestor(model, "j5_joint", "j7_joint")[0] == rbda.find_common_ancestor(
        model, model.get_joint_id("j5_joint"), model.get_joint_id("j7_joint"))[0]
    with pytest.raises(ValueError, match="joint2_id"):
        rbda.find_common_ancestor(model, 1, "nope")


# ------------------------------------------------------------------------------------------------- files
def test_save_and_load_model_round_trip(tmp_path):
    mimic = rbda.transform_joint_into_mimic(rbda.sample_models.manipulator(), 2, 3, -0.5, 0.1)
    mjcf = pytest.importorskip("mujoco") and rbda.load_model(Path(__file__).parents[1] / "io" / "mjcf_files" / MJCF_FILE)
    for model in (full_model(), rbda.sample_models.every_joint(), mimic, mjcf):  # composite, mimic, MJCF records
        model.gravity = [0.1, 0.2, -9.0]
        model.armature = np.linspace(0.0, 0.1, model.nv)
        path = tmp_path / "robot.rbda"
        rbda.save_model(model, path)
        assert path.read_bytes()[:1] == b"{"  # JSON: data, never code
        loaded = rbda.load_model_file(path)
        assert loaded == model and loaded is not model
        for name in ("mjcf_layout", "mjcf_equality", "mjcf_physics", "mjcf_actuators"):
            assert repr(getattr(loaded, name, None)) == repr(getattr(model, name, None))
        q, v, a = (rbda.random_configuration(model, rng=np.random.default_rng(8)), np.ones(model.nv), np.ones(model.nv))
        np.testing.assert_array_equal(rbda.rnea(loaded, loaded.create_data(), q, v, a),
                                      rbda.rnea(model, model.create_data(), q, v, a))


class _Exploit:
    def __reduce__(self):
        return (exec, ("import pathlib; pathlib.Path(__import__('os').environ['RBDA_EXPLOIT']).write_text('ran')",))


def test_load_model_file_errors_and_files_that_would_run_code(tmp_path, monkeypatch):
    import json
    import pickle

    with pytest.raises(ModelFileError, match="no such file"):
        rbda.load_model_file(tmp_path / "missing.rbda")
    garbage = tmp_path / "garbage.rbda"
    garbage.write_bytes(b"<robot/>")
    with pytest.raises(ModelFileError, match="garbage.rbda.*not JSON"):
        rbda.load_model_file(garbage)
    other = tmp_path / "other.rbda"
    other.write_text(json.dumps({"format": "something"}))
    with pytest.raises(ModelFileError, match="format"):
        rbda.load_model_file(other)
    newer = tmp_path / "newer.rbda"
    newer.write_text(json.dumps({"format": "rbda-model", "version": 99, "model": None}))
    with pytest.raises(ModelFileError, match="version"):
        rbda.load_model_file(newer)
    with pytest.raises(TypeError, match="model"):
        rbda.save_model("robot", tmp_path / "x.rbda")
    # a pickle that runs code when unpickled is refused without being unpickled
    marker = tmp_path / "marker"
    monkeypatch.setenv("RBDA_EXPLOIT", str(marker))
    crafted = tmp_path / "crafted.rbda"
    crafted.write_bytes(pickle.dumps({"format": "rbda-model", "version": 1, "model": _Exploit()}))
    with pytest.raises(ModelFileError, match="pickle .* can run code"):
        rbda.load_model_file(crafted)
    assert not marker.exists()
    # a JSON file naming a class that is not a joint model, or an inconsistent model, is refused
    good = tmp_path / "good.rbda"
    rbda.save_model(rbda.sample_models.manipulator(), good)
    document = json.loads(good.read_text())
    document["model"]["dict"]["joints"]["list"][1]["joint"] = "Popen"
    good.write_text(json.dumps(document))
    with pytest.raises(ModelFileError, match="'Popen' is not a joint model"):
        rbda.load_model_file(good)
    rbda.save_model(rbda.sample_models.manipulator(), good)
    document = json.loads(good.read_text())
    document["model"]["dict"]["parents"]["list"][2] = 5
    good.write_text(json.dumps(document))
    with pytest.raises(ModelFileError, match="not a valid model"):
        rbda.load_model_file(good)


# ------------------------------------------------------------------------------------------------- geometry
def geometry_of(model, prefix, seed):
    """A GeometryModel with a sphere on the universe and on a few joints (declared on a frame of that joint)."""
    from rbda.io import GeometryModel, GeometryObject, Sphere

    rng = np.random.default_rng(seed)
    geom = GeometryModel()
    for j in (0, 1, 3, model.njoints - 1):
        frame = next(k for k, f in enumerate(model.frames) if f.parent_joint == j)
        geom.add_geometry_object(GeometryObject(f"{prefix}{j}", j, frame, rbda.SE3.Random(rng), Sphere(0.1)))
    geom.add_collision_pair(0, 2)
    geom.add_collision_pair(1, 3)
    return geom


def to_pinocchio_geometry(geom):
    pin = pytest.importorskip("pinocchio")
    try:
        import coal as fcl
    except ImportError:
        fcl = pytest.importorskip("hppfcl")
    out = pin.GeometryModel()
    for g in geom.geometry_objects:
        placement = pin.SE3(g.placement.rotation, g.placement.translation)
        out.addGeometryObject(pin.GeometryObject(g.name, g.parent_joint, g.parent_frame, placement, fcl.Sphere(0.1)))
    for i, j in geom.collision_pairs:
        out.addCollisionPair(pin.CollisionPair(i, j))
    return out


def test_append_model_with_geometry_matches_pinocchio():
    pin = pytest.importorskip("pinocchio")
    a, b = model_a(), model_b()
    ga, gb = geometry_of(a, "a", 1), geometry_of(b, "b", 2)
    placement = rbda.SE3.Random(np.random.default_rng(9))
    model, geom = rbda.append_model(a, b, "j3_link", placement, ga, gb)
    pa, pb = to_pinocchio_with_universe(a), to_pinocchio_with_universe(b)
    _, theirs = pin.appendModel(pa, pb, to_pinocchio_geometry(ga), to_pinocchio_geometry(gb), pa.getFrameId("j3_link"),
                                pin.SE3(placement.rotation, placement.translation))
    assert [(g.name, g.parent_joint, g.parent_frame) for g in geom.geometry_objects] == [
        (g.name, g.parentJoint, g.parentFrame) for g in theirs.geometryObjects]
    for g, pg in zip(geom.geometry_objects, theirs.geometryObjects):
        assert_close(g.placement.homogeneous, pg.placement.homogeneous, 1e-12)
    assert geom.collision_pairs == [tuple(sorted((p.first, p.second))) for p in theirs.collisionPairs]
    with pytest.raises(ValueError, match="geom_model_b"):
        rbda.append_model(a, b, 0, None, ga)


def test_reduced_model_moves_geometry_with_its_joints():
    pin = pytest.importorskip("pinocchio")
    model = full_model()
    geom = geometry_of(model, "g", 3)
    q_ref = rbda.random_configuration(model, rng=np.random.default_rng(10))
    locked = [1, 3, model.njoints - 1]
    reduced, (moved, again) = rbda.build_reduced_model(model, locked, q_ref, [geom, geom])
    _, theirs = pin.buildReducedModel(to_pinocchio_with_universe(model), to_pinocchio_geometry(geom), locked, q_ref)
    assert [(g.name, g.parent_joint) for g in moved.geometry_objects] == [
        (g.name, g.parentJoint) for g in theirs.geometryObjects]
    assert moved.collision_pairs == geom.collision_pairs and again.geometry_objects == moved.geometry_objects
    # the objects stay where they were: same world placements as in the full model at q_ref
    dr, df = reduced.create_data(), model.create_data()
    rbda.forward_kinematics(model, df, q_ref)
    iq = kept_indices(model, set(locked), "q")
    rbda.forward_kinematics(reduced, dr, q_ref[iq])
    for g, h in zip(geom.geometry_objects, moved.geometry_objects):
        oMg_reduced, oMg_full = dr.oMi[h.parent_joint] * h.placement, df.oMi[g.parent_joint] * g.placement
        assert_close(oMg_reduced.homogeneous, oMg_full.homogeneous, 1e-12)
        assert reduced.frames[h.parent_frame].name == model.frames[g.parent_frame].name
