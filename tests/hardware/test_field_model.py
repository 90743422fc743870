"""The field model (``hardware/field.py``, magpylib) run on the generated layout: every
slot reads its man and ignores its neighbours, stacks and a die; every die face reads in
its well across the seat's tolerance; the well jig switches the cell it tests and no other.
Fails if any of them falls below the margin ``geometry.MIN_MARGIN``."""

from __future__ import annotations

import math

import field
import geometry as g
import pytest

from kiosk.simtable.firmware import load_firmware

LOW, HIGH = g.ORDER_PULL_IN_MT


@pytest.fixture(scope="module")
def figures() -> dict:
    return field.figures()


def test_every_slot_reads_its_man_over_the_ordered_band(figures: dict) -> None:
    assert figures["slot_read_margin"] >= g.MIN_MARGIN
    slot = field.slot_figures()
    weakest = min(slot.own_min - slot.neighbours_against, slot.stack_min)
    assert weakest - field.die_on_point()["max"] >= HIGH * g.MIN_MARGIN


def test_no_slot_closes_for_its_neighbours_stacks_or_a_die(figures: dict) -> None:
    assert figures["slot_ignore_margin"] >= g.MIN_MARGIN
    assert figures["slot_neighbours_max_mT"] * g.MIN_MARGIN <= LOW
    assert figures["die_on_point_max_mT"] * g.MIN_MARGIN <= LOW  # a die is never a man


def test_the_ordered_band_lies_inside_the_reeds_whole_range() -> None:
    low, high = g.PULL_IN_MT
    assert low <= LOW < HIGH <= high


def test_the_point_dipoles_agree_with_magpylibs_exact_field() -> None:
    found = field.die_on_point()
    assert math.isclose(found["max"], found["exact_at_worst"], rel_tol=0.05)


def test_every_face_reads_in_its_well_across_the_seat(figures: dict) -> None:
    assert figures["well_on_min_mT"] >= g.HALL_ON_MT * g.MIN_WELL_MARGIN
    assert figures["well_off_max_mT"] * g.MIN_MARGIN <= g.HALL_OFF_MT
    assert figures["well_placements"] == 24 * 2 * len(field._seat_shifts())


def test_the_firmware_reads_each_face_as_the_magnets_land() -> None:
    dice = load_firmware("dice")
    for face in range(1, 7):
        masks = set()
        for quarter in range(4):
            cells = field.expected_cells(face, quarter)
            mask = sum(1 << k for k, on in enumerate(cells) if on)
            assert dice.read_well(mask) == 7 - face, (face, quarter, cells)
            masks.add(mask)
        assert masks == set(dice.orientations(face))
    assert dice.FACE_CELLS == g.FACE_CELLS
    assert dice.NAMES[: len(g.SPOT_NAMES)] == g.SPOT_NAMES and dice.CENTRE == g.CENTRE


def test_the_jig_switches_only_the_cell_it_tests(figures: dict) -> None:
    assert figures["jig_on_min_mT"] >= g.HALL_ON_MT * g.MIN_WELL_MARGIN
    assert figures["jig_off_max_mT"] * g.MIN_MARGIN <= g.HALL_OFF_MT


def test_the_die_is_balanced() -> None:
    balance = field.die_balance()
    assert balance["magnets"] < 1e-9  # the same magnets in the same places on every face
    assert balance["unfilled_pips"] < 0.05  # pips not yet painted: well under 0.1 mm


def test_leads_formed_as_designed_keep_the_signal() -> None:
    leads = field.lead_forming()
    designed = leads["as designed"]
    assert designed >= leads["straight 0 mm"]
    assert (
        leads["straight 10 mm"] < designed / 2
        and leads["bent down through the carrier"] < designed / 2
    )
    assert designed >= HIGH * 4


def test_every_display_offered_fits_with_its_reed_band(figures: dict) -> None:
    fits = figures["display_fits"]
    assert set(fits) == {"50in", "43in"} and [k for k, v in fits.items() if v["chosen"]] == ["50in"]
    for key, found in fits.items():
        assert found["fits"], key
        assert found["picture_spare_mm"] >= 2.0 and found["gap_mm"] >= 5.0
        assert found["slot_ignore_margin"] >= g.MIN_MARGIN, key
        assert found["slot_read_margin"] >= g.MIN_MARGIN, key
        low, high = found["reed_window_mT"]
        assert g.PULL_IN_MT[0] <= low < high <= g.PULL_IN_MT[1]
    assert fits["50in"]["reed_window_mT"] == list(g.ORDER_PULL_IN_MT)


def test_no_die_in_a_well_ever_reads_a_wrong_face(figures: dict) -> None:
    found = figures["wells"]
    assert figures["wells_wrong_faces"] == 0
    assert found["wrong_faces_thresholds_only"] == 0
    assert found["wrong_faces_with_a_dead_or_stuck_switch"] == 0
    assert found["offsets_mm"] == [-3.0, 3.0] and found["tilts_deg"] == [-10.0, 10.0]
    assert found["placements"] == 2 * 24 * 3 * 25 * 25  # both element depths
    assert found["read_right_seated"] == 1.0  # on its seat it reads, for sure


def test_the_misread_check_finds_the_misreads_of_a_more_sensitive_switch() -> None:
    # the DRV5023FA (B_OP max 6.8, B_RP min 0.5 mT): the return field of a die pushed off
    # its seat can switch cells it should not
    found = field.well_misreads((6.8, 0.5), (1.5, 3.0), (0.0, 5.0), (0.0,))
    assert found["wells_wrong_faces"] > 0


def test_every_single_wrong_cell_reads_cocked_never_another_face() -> None:
    dice = load_firmware("dice")
    words = field.codewords()
    assert len(words) == 14
    for mask in words:
        for cell in range(len(g.WELL_CELLS)):
            assert dice.read_well(mask ^ (1 << cell)) == dice.COCKED
    for a in words:  # faces' readings lie four cells apart or more
        for b in words:
            if words[a] != words[b]:
                assert bin(a ^ b).count("1") >= 4
