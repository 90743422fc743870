"""The dice roll fair: the tower simulation's stored figures (``hardware/throws.json``,
written by ``python hardware/throws.py N``) hold every face to 1/6 within its statistical
bound, and a few throws run again here land as stored."""

from __future__ import annotations

import math

import field
import geometry
import numpy as np
import pytest
import throws


@pytest.fixture(scope="module")
def rolled() -> dict:
    return throws.stored()


def test_every_face_comes_up_a_sixth_within_its_bound(rolled: dict) -> None:
    count = rolled["throws"]
    assert count >= 2000
    bound = 3 * math.sqrt((1 / 6) * (5 / 6) / count)
    assert rolled["share_bound"] == pytest.approx(bound, abs=1e-4)
    shares = rolled["dice_face_shares"]
    assert set(shares) == {"1", "2", "3", "4", "5", "6"}
    assert sum(shares.values()) == pytest.approx(1.0, abs=1e-3)
    assert all(abs(share - 1 / 6) <= bound for share in shares.values()), shares
    assert rolled["chi_square"] < rolled["chi_square_limit"]


def test_the_die_comes_to_rest_in_its_seat(rolled: dict) -> None:
    assert rolled["seated_share"] >= 0.95


def test_the_summary_counts_what_it_is_given() -> None:
    fake = [{"face_up": 1 + n % 6, "seated": True, "off_seat_mm": 0.1} for n in range(600)]
    found = throws.summary(fake)  # type: ignore[arg-type]
    assert found["chi_square"] == 0.0 and found["seated_share"] == 1.0
    loaded = fake + [{"face_up": 6, "seated": False, "off_seat_mm": 9.0}] * 120
    assert throws.summary(loaded)["chi_square"] > 20.52  # a loaded die fails the test


def test_a_few_throws_run_again_land_as_stored(rolled: dict) -> None:
    pytest.importorskip("pybullet")
    tower = throws.Tower()
    try:
        again = [tower.throw(sample["seed"]) for sample in rolled["samples"][:12]]
    finally:
        tower.close()
    assert [t["face_up"] for t in again] == [s["face_up"] for s in rolled["samples"][:12]]
    assert sum(t["seated"] for t in again) >= 10


def test_no_magnetic_pull_lifts_a_die() -> None:
    pulls = field.cling()
    weight = pulls["die_weight_N"]
    assert weight == pytest.approx(throws.die_mass()[0] * 9.81, rel=0.01)
    # two dice face to face, any faces, turned and slid; a man's magnet anywhere on a face
    assert 0 < pulls["die_die_N"] <= geometry.MAX_CLING * weight, pulls
    assert 0 < pulls["die_man_N"] <= geometry.MAX_CLING * weight, pulls


def test_the_pull_between_two_magnets_agrees_with_magpylibs_force() -> None:
    magpy = pytest.importorskip("magpylib")
    d, h = geometry.DIE_MAGNET
    mm = 1e-3
    for gap, size in ((2 * geometry.DIE_SKIN, geometry.DIE_MAGNET), (0.5, geometry.MAN_MAGNET)):
        below = (0.0, 0.0, -(size[1] + h) / 2 - gap)
        source = magpy.magnet.Cylinder(
            dimension=(size[0] * mm, size[1] * mm),
            polarization=(0, 0, 1.2),
            position=tuple(x * mm for x in below),
        )
        target = magpy.magnet.Cylinder(dimension=(d * mm, h * mm), polarization=(0, 0, 1.2))
        force, _ = magpy.getFT(source, target, meshing=200)
        ours = field._pull(
            np.array([[below]]), np.array([[1.2]]), size, np.zeros((1, 1, 3)), np.array([[1.2]])
        )
        assert ours[0] == pytest.approx(force[2], rel=0.02)
        assert ours[0] < 0  # magnetised the same way, one above the other: they attract


def test_the_dense_core_fits_inside_the_magnets() -> None:
    inside = geometry.DIE - 2 * (geometry.DIE_SKIN + geometry.DIE_MAGNET[1])
    assert 0 < geometry.DIE_CORE < inside - 2  # 1 mm of plastic round it at least


def test_no_passage_in_the_tower_can_wedge_a_die() -> None:
    found = throws.clearances()
    diagonal = geometry.DIE * math.sqrt(3)
    assert found["narrowest_passage_mm"] > diagonal + 3, found
    assert found["ramp_cross_deg"] > found["friction_deg"] + 3, found


def test_a_pip_engraved_over_a_magnet_leaves_plastic_over_it() -> None:
    # the centre pip lies over the centre magnet, the others overlap the ring's
    assert geometry.PIP[1] <= geometry.DIE_SKIN - 0.2
