"""Checkers and dice on the simulated table arrive as the right frames over the real pty.

The table is the designed one (one reed a slot); where a test's point holds as well for a
table whose reeds tell a man's colour, it runs on both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from kiosk.link import DieReading, LinkStatus, SlotState, TableLayout
from kiosk.rules import Position
from kiosk.simtable import STARTING_POSITION
from kiosk.table import project
from kiosk.table.layout import SENSINGS

if TYPE_CHECKING:
    from conftest import Session

EMPTY, WHITE, BLACK = SlotState.EMPTY, SlotState.WHITE, SlotState.BLACK
OCCUPIED = SlotState.OCCUPIED
both_sensings = pytest.mark.parametrize("sensing", SENSINGS)


def test_connect_reports_the_firmware(session: Session) -> None:
    event = session.event(LinkStatus.CONNECTED)
    assert event.info is not None
    assert event.info.firmware == "1.2.0" and event.info.protocol == 2
    assert event.info.layout == TableLayout()
    assert event.info.layout.sensing == "occupancy"  # the design: one reed a slot
    assert session.link.info == event.info


@both_sensings
def test_placing_and_lifting_arrive_as_frames(session: Session) -> None:
    white, black = session.man(WHITE), session.man(BLACK)
    session.sim.place("13", "white")
    frame = session.step()
    assert frame.slots["13"] == (white, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    session.sim.place("13", "white")
    session.sim.place("bar-black", BLACK)
    frame = session.step()
    assert frame.counts()["13"] == (white, 2)
    assert frame.counts()["bar-black"] == (black, 1)
    assert frame.occupancy()["13"] == 2 and frame.occupancy()["bar-black"] == 1
    session.sim.lift("13")
    assert session.step().counts()["13"] == (white, 1)
    assert session.drain() == []
    assert session.link.counters().lost == 0


@both_sensings
def test_starting_position_and_dice(session: Session) -> None:
    white, black = session.man(WHITE), session.man(BLACK)
    session.sim.set_position(STARTING_POSITION)
    session.sim.set_dice(6, 5)
    frame = session.step()
    counts = {loc: c for loc, c in frame.counts().items() if c[1]}
    assert counts == {
        "24": (white, 2),
        "13": (white, 5),
        "8": (white, 3),
        "6": (white, 5),
        "1": (black, 2),
        "12": (black, 5),
        "17": (black, 3),
        "19": (black, 5),
    }
    assert frame.dice == (DieReading.SIX, DieReading.FIVE)
    # The kiosk's reading: the men at every location, their colours only where sensed.
    reading = frame.reading(session.sensing)
    assert reading.counts == frame.occupancy() and reading.dice == frame.dice
    assert reading.sees_colour is (session.sensing == "polarity")
    assert reading.shows(project(Position.standard(), session.sim.layout))
    if reading.colours is not None:
        assert reading.colours["6"] == (5, 0) and reading.colours["19"] == (0, 5)
    session.sim.cock(2)
    assert session.step().dice == (DieReading.SIX, DieReading.COCKED)
    session.sim.clear_dice()
    assert session.step().dice == (DieReading.EMPTY, DieReading.EMPTY)


@both_sensings
def test_men_beyond_the_slots_stack_unseen(session: Session) -> None:
    white = session.man(WHITE)
    session.sim.set_position({"6": (WHITE, 9)})
    assert session.step().counts()["6"] == (white, 6)
    for _ in range(3):
        session.sim.lift("6")
    session.sim.advance(20)
    assert session.drain() == []  # still six sensed: the slots stay full
    assert len(session.sim.men("6")) == 6
    session.sim.lift("6")
    assert session.step().counts()["6"] == (white, 5)


@pytest.mark.parametrize("sensing", ["polarity"])
def test_mixed_colours_on_one_point_are_visible(session: Session) -> None:
    session.sim.place("20", "black")
    session.sim.place("20", "white")
    frame = session.step()
    assert frame.slots["20"][:2] == (BLACK, WHITE)
    assert frame.mixed() == ("20",)
    colours = frame.reading("polarity").colours
    assert colours is not None and colours["20"] == (1, 1)


def test_on_the_designed_table_two_colours_on_one_point_read_as_two_men(
    session: Session,
) -> None:
    """One reed a slot cannot tell a hit in progress from two men of one side: the frame
    reads two men, no colour and no mixture, and the referee colours them from the game."""
    session.sim.place("20", "black")
    session.sim.place("20", "white")
    frame = session.step()
    assert frame.slots["20"][:3] == (OCCUPIED, OCCUPIED, EMPTY)
    assert frame.mixed() == () and frame.sensed()["20"] == (0, 0)
    reading = frame.reading("occupancy")
    assert reading.counts["20"] == 2 and reading.colours is None


@both_sensings
def test_bouncing_contacts_never_produce_a_spurious_frame(session: Session) -> None:
    white, black = session.man(WHITE), session.man(BLACK)
    session.sim.place("5", "black", bounce=4)  # chatters, then settles once
    assert session.step(60).counts()["5"] == (black, 1)
    session.sim.bounce("5", flips=8)  # chatter on an occupied slot
    session.sim.bounce("18", slot=2, flips=8)  # and on an empty one
    session.sim.advance(100)
    session.sim.place("7", "white")  # a real change marks the end
    frame = session.step()
    assert frame.counts()["7"] == (white, 1)
    assert frame.counts()["5"] == (black, 1) and frame.counts()["18"] == (EMPTY, 0)
    assert session.drain() == []
    assert session.sim.firmware.bounces >= 10
    assert session.link.counters().lost == 0


@pytest.mark.parametrize("sensing", ["polarity"])
def test_self_test_reports_a_slot_with_both_reeds_closed(session: Session) -> None:
    """Two reeds a slot: both closed is no state a man can cause, so the self-test names
    the slot as stuck whatever stands on the table."""
    session.sim.stick_reed("2", 0, "white")
    session.sim.stick_reed("2", 0, "black")
    assert session.link.request_self_test()
    event = session.self_test()
    assert event.self_test is not None and not event.self_test.ok
    assert event.self_test.stuck == ("2/1",)


def test_on_the_designed_table_a_welded_reed_is_named_once_the_table_is_cleared(
    session: Session,
) -> None:
    """One reed a slot has no 'both reeds closed': a welded reed reads a man, which the
    table may well hold, so the self-test that knows nothing of the table passes it (it
    looks for chatter and shorted lines), and the self-test of a cleared table names it."""
    session.sim.weld_reed("2", 0)
    assert session.step().slots["2"][0] is OCCUPIED
    assert session.link.request_self_test()
    plain = session.self_test().self_test
    assert plain is not None and plain.ok and plain.stuck == () and plain.closed == ()
    assert session.link.request_self_test("empty")
    cleared = session.self_test().self_test
    assert cleared is not None and not cleared.ok
    assert cleared.closed == ("2/1",) and cleared.stuck == ()


@both_sensings
def test_self_test_of_an_empty_table_names_a_reed_closed_without_a_man(
    session: Session,
) -> None:
    session.sim.stick_reed("15", 3, "black")  # an occupancy slot's one reed, whatever colour
    assert session.link.request_self_test("empty")
    report = session.self_test().self_test
    assert report is not None and not report.ok
    assert report.closed == ("15/4",) and report.dead == ()
