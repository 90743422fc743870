"""The simulated table's real-world faults, each seen through the real link over a pty.

The table is the designed one (one reed a slot); the faults of the reeds under the men
show alike on a table whose reeds tell a man's colour, and those tests run on both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from kiosk.link import LOCATIONS, DieReading, LinkStatus, SlotState
from kiosk.table.layout import SENSINGS

if TYPE_CHECKING:
    from conftest import Session

WHITE, EMPTY = SlotState.WHITE, SlotState.EMPTY
both_sensings = pytest.mark.parametrize("sensing", SENSINGS)


@both_sensings
def test_reeds_chatter_on_closing_and_opening(session: Session) -> None:
    session.sim.chatter = 2  # shorter than the three-scan debounce
    before = session.sim.firmware.bounces
    session.sim.place("9", "white")
    assert session.step(40).counts()["9"] == (session.man(WHITE), 1)
    session.sim.lift("9")
    assert session.step(40).counts()["9"] == (EMPTY, 0)
    assert session.drain() == []  # each change settled once, the chatter never
    assert session.sim.firmware.bounces - before >= 2


@both_sensings
def test_a_man_slid_across_points_closes_each_for_a_moment(session: Session) -> None:
    session.sim.place("13", "white")
    session.step()
    session.sim.slide("13", "9", ms_per_point=30)
    session.sim.advance(40)
    white = session.man(WHITE)
    seen = [frame.counts() for frame in session.drain()]
    for point in ("12", "11", "10"):
        assert any(counts[point] == (white, 1) for counts in seen), point
    assert seen[-1]["9"] == (white, 1) and seen[-1]["10"] == (EMPTY, 0)
    assert seen[-1]["13"] == (EMPTY, 0)


@both_sensings
def test_a_man_pushed_off_centre_reads_empty(session: Session) -> None:
    white = session.man(WHITE)
    for _ in range(3):
        session.sim.place("6", "white")
    assert session.step().counts()["6"] == (white, 3)
    session.sim.push_off_centre("6")
    assert session.step().counts()["6"] == (white, 2)
    assert len(session.sim.men("6")) == 3
    session.sim.recentre("6")
    assert session.step().counts()["6"] == (white, 3)


@both_sensings
def test_a_dead_reed_never_closes(session: Session) -> None:
    session.sim.kill_reed("5", 0)
    session.sim.place("5", "white")
    session.sim.place("5", "white")
    frame = session.step()
    assert frame.slots["5"][:2] == (EMPTY, session.man(WHITE))  # the edge slot is dead
    assert frame.occupancy()["5"] == 1  # two men, one read


@both_sensings
def test_the_self_test_of_a_full_table_names_a_dead_reed(session: Session) -> None:
    session.sim.kill_reed("5", 0)
    layout = session.sim.layout
    session.sim.set_position({where: ("white", layout.slots(where)) for where in LOCATIONS})
    session.sim.advance(20)
    assert session.link.request_self_test("full")
    report = session.self_test().self_test
    assert report is not None and not report.ok
    assert report.dead == ("5/1",) and report.closed == ()


@both_sensings
def test_a_welded_reed_reads_a_man_who_is_not_there(session: Session) -> None:
    session.sim.weld_reed("20", 2, "white")
    assert session.step().slots["20"][2] is session.man(WHITE)
    assert session.sim.men("20") == ()
    assert session.link.request_self_test("empty")
    report = session.self_test().self_test
    assert report is not None and report.closed == ("20/3",)


def test_tumbling_dice_show_several_faces_before_they_rest(session: Session) -> None:
    shown = session.sim.tumble(3, 5, faces=4, ms_per_face=30)
    session.sim.advance(40)
    readings = [frame.dice for frame in session.drain()]
    assert readings[-1] == (DieReading.THREE, DieReading.FIVE)
    distinct = {r for r in readings[:-1]}
    assert len(distinct) >= 2 and len(shown) == 4


def test_a_cocked_die_reads_cocked(session: Session) -> None:
    session.sim.set_dice(4, 2)
    session.step()
    session.sim.cock(2)
    assert session.step().dice == (DieReading.FOUR, DieReading.COCKED)


def test_the_usb_cable_pulled_and_put_back(session: Session) -> None:
    session.sim.unplug()
    assert "disconnected" in session.event(LinkStatus.DISCONNECTED).message
    session.sim.replug()
    session.sim.advance(20)
    assert session.event(LinkStatus.CONNECTED).info is not None
