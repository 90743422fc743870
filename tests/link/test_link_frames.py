"""Checkers and dice on the simulated table arrive as the right frames over the real pty."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.link import DieReading, LinkStatus, SlotState, TableLayout
from kiosk.simtable import STARTING_POSITION

if TYPE_CHECKING:
    from conftest import Session

EMPTY, WHITE, BLACK = SlotState.EMPTY, SlotState.WHITE, SlotState.BLACK


def test_connect_reports_the_firmware(session: Session) -> None:
    event = session.event(LinkStatus.CONNECTED)
    assert event.info is not None
    assert event.info.firmware == "1.2.0" and event.info.protocol == 2
    assert event.info.layout == TableLayout()
    assert session.link.info == event.info


def test_placing_and_lifting_arrive_as_frames(session: Session) -> None:
    session.sim.place("13", "white")
    frame = session.step()
    assert frame.slots["13"] == (WHITE, EMPTY, EMPTY, EMPTY, EMPTY, EMPTY)
    session.sim.place("13", "white")
    session.sim.place("bar-black", BLACK)
    frame = session.step()
    assert frame.counts()["13"] == (WHITE, 2)
    assert frame.counts()["bar-black"] == (BLACK, 1)
    session.sim.lift("13")
    assert session.step().counts()["13"] == (WHITE, 1)
    assert session.drain() == []
    assert session.link.counters().lost == 0


def test_starting_position_and_dice(session: Session) -> None:
    session.sim.set_position(STARTING_POSITION)
    session.sim.set_dice(6, 5)
    frame = session.step()
    counts = {loc: c for loc, c in frame.counts().items() if c[1]}
    assert counts == {
        "24": (WHITE, 2),
        "13": (WHITE, 5),
        "8": (WHITE, 3),
        "6": (WHITE, 5),
        "1": (BLACK, 2),
        "12": (BLACK, 5),
        "17": (BLACK, 3),
        "19": (BLACK, 5),
    }
    assert frame.dice == (DieReading.SIX, DieReading.FIVE)
    session.sim.cock(2)
    assert session.step().dice == (DieReading.SIX, DieReading.COCKED)
    session.sim.clear_dice()
    assert session.step().dice == (DieReading.EMPTY, DieReading.EMPTY)


def test_men_beyond_the_slots_stack_unseen(session: Session) -> None:
    session.sim.set_position({"6": (WHITE, 9)})
    assert session.step().counts()["6"] == (WHITE, 6)
    for _ in range(3):
        session.sim.lift("6")
    session.sim.advance(20)
    assert session.drain() == []  # still six sensed: the slots stay full
    assert len(session.sim.men("6")) == 6
    session.sim.lift("6")
    assert session.step().counts()["6"] == (WHITE, 5)


def test_mixed_colours_on_one_point_are_visible(session: Session) -> None:
    session.sim.place("20", "black")
    session.sim.place("20", "white")
    frame = session.step()
    assert frame.slots["20"][:2] == (BLACK, WHITE)
    assert frame.mixed() == ("20",)


def test_bouncing_contacts_never_produce_a_spurious_frame(session: Session) -> None:
    session.sim.place("5", "black", bounce=4)  # chatters, then settles once
    assert session.step(60).counts()["5"] == (BLACK, 1)
    session.sim.bounce("5", flips=8)  # chatter on an occupied slot
    session.sim.bounce("18", slot=2, flips=8)  # and on an empty one
    session.sim.advance(100)
    session.sim.place("7", "white")  # a real change marks the end
    frame = session.step()
    assert frame.counts()["7"] == (WHITE, 1)
    assert frame.counts()["5"] == (BLACK, 1) and frame.counts()["18"] == (EMPTY, 0)
    assert session.drain() == []
    assert session.sim.firmware.bounces >= 10
    assert session.link.counters().lost == 0


def test_self_test_reports_a_stuck_reed(session: Session) -> None:
    session.sim.stick_reed("2", 0, "white")
    session.sim.stick_reed("2", 0, "black")
    assert session.link.request_self_test()
    event = session.self_test()
    assert event.self_test is not None and not event.self_test.ok
    assert event.self_test.stuck == ("2/1",)


def test_self_test_of_an_empty_table_names_a_reed_closed_without_a_man(
    session: Session,
) -> None:
    session.sim.stick_reed("15", 3, "black")
    assert session.link.request_self_test("empty")
    report = session.self_test().self_test
    assert report is not None and not report.ok
    assert report.closed == ("15/4",) and report.dead == ()
