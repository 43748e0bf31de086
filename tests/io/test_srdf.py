"""SRDF: reference configurations, rotor parameters and disabled collision pairs, against Pinocchio on
example-robot-data's files and against hand-written expectations."""

import numpy as np
import pytest

import rbda
from rbda.io import (
    GeometryType,
    build_geom_from_urdf,
    build_model_from_urdf,
    build_model_from_urdf_string,
    load_reference_configurations,
    load_rotor_parameters,
    read_srdf,
    remove_collision_pairs,
)
from urdf_samples import EVERY_JOINT_URDF, robots_dir, share_dir

SRDF = """<robot name="every_joint">
  <group_state name="home" group="all">
    <joint name="root_joint" value="1 2 3 0 0 0.6 0.8"/>
    <joint name="j_cont" value="0.5"/>
    <joint name="j_rev" value="-0.25"/>
    <joint name="not_in_model" value="1"/>
  </group_state>
  <group_state name="home" group="all"><joint name="j_rev" value="1"/></group_state>
  <rotor_params>
    <joint name="j_rev" mass="2e-5" gear_ratio="100"/>
    <joint name="j_pris" mass="1e-4" gear_ratio="10"/>
  </rotor_params>
  <disable_collisions link1="a" link2="b" reason="Adjacent"/>
</robot>"""


def test_reference_configuration_textbook(tmp_path):
    model = build_model_from_urdf_string(EVERY_JOINT_URDF, root_joint=rbda.JointModelFreeFlyer())
    (tmp_path / "r.srdf").write_text(SRDF)
    added = load_reference_configurations(model, tmp_path / "r.srdf")
    q = model.reference_configurations["home"]
    assert list(added) == ["home"] and q is added["home"]
    expected = rbda.neutral(model)
    expected[:7] = [1, 2, 3, 0, 0, 0.6, 0.8]
    expected[7:9] = [np.cos(0.5), np.sin(0.5)]  # a continuous joint's angle becomes (cos, sin)
    expected[9] = -0.25  # the first group_state of a name counts, as in Pinocchio
    np.testing.assert_array_equal(q, expected)


def test_rotor_parameters_set_armature():
    model = build_model_from_urdf_string(EVERY_JOINT_URDF)
    inertia, ratio = load_rotor_parameters(model, read_srdf(SRDF, is_text=True))
    v_rev, v_pris = model.idx_v[model.get_joint_id("j_rev")], model.idx_v[model.get_joint_id("j_pris")]
    assert model.armature[v_rev] == pytest.approx(2e-5 * 100**2) and model.armature[v_pris] == pytest.approx(1e-4 * 10**2)
    assert np.count_nonzero(model.armature) == 2 and inertia[v_rev] == 2e-5 and ratio[v_pris] == 10
    assert np.count_nonzero(ratio != 1) == 2


SRDF_ROBOTS = [  # (urdf, srdf): rotor parameters in talos and simple_humanoid, continuous joints in kinova
    ("talos_data/robots/talos_reduced.urdf", "talos_data/srdf/talos.srdf"),
    ("simple_humanoid_description/urdf/simple_humanoid.urdf", "simple_humanoid_description/srdf/simple_humanoid.srdf"),
    ("kinova_description/robots/kinova.urdf", "kinova_description/srdf/kinova.srdf"),
    ("panda_description/urdf/panda.urdf", "panda_description/srdf/panda.srdf"),
    ("anymal_c_simple_description/urdf/anymal.urdf", "anymal_c_simple_description/srdf/anymal.srdf"),
    ("solo_description/robots/solo12.urdf", "solo_description/srdf/solo.srdf"),
]


@pytest.mark.parametrize("urdf, srdf", SRDF_ROBOTS, ids=[u.split("/")[-1] for u, _ in SRDF_ROBOTS])
def test_against_pinocchio(urdf, srdf):
    pin = pytest.importorskip("pinocchio")
    urdf, srdf = str(robots_dir() / urdf), str(robots_dir() / srdf)
    model = build_model_from_urdf(urdf, rbda.JointModelFreeFlyer())
    pm = pin.buildModelFromUrdf(urdf, pin.JointModelFreeFlyer())
    pin.loadReferenceConfigurations(pm, srdf, False)
    load_reference_configurations(model, srdf)
    theirs = {item.key(): np.array(item.data()) for item in pm.referenceConfigurations}
    assert model.reference_configurations.keys() == theirs.keys() and theirs
    for name, q in theirs.items():
        np.testing.assert_allclose(model.reference_configurations[name], q, atol=1e-15)
    if "rotor_params" in open(srdf).read():
        pin.loadRotorParameters(pm, srdf, False)
        inertia, ratio = load_rotor_parameters(model, srdf)
        np.testing.assert_allclose(model.armature, pm.armature)
        np.testing.assert_allclose(inertia, pm.rotorInertia)
        np.testing.assert_allclose(ratio, pm.rotorGearRatio)
    geometry = build_geom_from_urdf(model, urdf, GeometryType.COLLISION, package_dirs=[str(share_dir())])
    pg = pin.buildGeomFromUrdf(pm, urdf, pin.GeometryType.COLLISION, package_dirs=[str(share_dir())])
    geometry.add_all_collision_pairs()
    pg.addAllCollisionPairs()
    assert sorted(geometry.collision_pairs) == sorted((p.first, p.second) for p in pg.collisionPairs)
    remove_collision_pairs(model, geometry, srdf)
    pin.removeCollisionPairs(pm, pg, srdf, False)
    assert sorted(geometry.collision_pairs) == sorted((p.first, p.second) for p in pg.collisionPairs)
    assert len(read_srdf(srdf).disabled_collisions) == 0 or len(pg.collisionPairs) < pg.ngeoms * (pg.ngeoms - 1) / 2
