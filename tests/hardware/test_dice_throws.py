"""The dice roll fair: the tower simulation's stored figures (``hardware/throws.json``,
written by ``python hardware/throws.py N``) hold every face to 1/6 within its statistical
bound, and a few throws run again here land as stored."""

from __future__ import annotations

import math

import field
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


def test_the_magnetic_pulls_are_reported_against_a_dies_weight() -> None:
    pulls = field.cling()
    assert pulls["die_weight_N"] == pytest.approx(0.33, abs=0.01)
    # face to face the ring's poles pull more than a die weighs: the figure the documents
    # report as an open problem (hardware/README.md); a man pulls about his own die's weight
    assert 0 < pulls["die_man_N"] < pulls["die_die_N"]
