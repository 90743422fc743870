"""Line noise, damaged frames, a pulled cable, a silent port and old firmware, over real ptys.

The table is the designed one (one reed a slot, ``sense=occupancy`` in its identify); the
faults on the line are survived alike by a table whose reeds tell a man's colour.
"""

from __future__ import annotations

import os
import queue
import tty
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from kiosk.link import LOCATIONS, LinkStatus, QueueListener, SlotState, TableLayout, TableLink
from kiosk.link.protocol import FrameParser, encode
from kiosk.table.layout import SENSINGS

if TYPE_CHECKING:
    from conftest import Session

WAIT = 5.0
both_sensings = pytest.mark.parametrize("sensing", SENSINGS)


@both_sensings
def test_garbage_between_frames_is_counted_and_skipped(session: Session) -> None:
    session.sim.inject(b"\x00\xffnoise without a frame start\r\n")
    session.sim.place("9", "white")
    assert session.step().counts()["9"] == (session.man(SlotState.WHITE), 1)
    counters = session.link.counters()
    assert counters.garbage_bytes == 31
    assert counters.corrupt == 0 and counters.lost == 0


@both_sensings
def test_random_noise_is_survived(session: Session) -> None:
    for _ in range(5):
        session.sim.noise(200)
    session.sim.place("9", "black")
    assert session.step().counts()["9"] == (session.man(SlotState.BLACK), 1)
    assert session.link.connected
    assert session.link.counters().garbage_bytes > 0


@both_sensings
def test_flipped_bit_drops_the_frame_and_counts_it(session: Session) -> None:
    session.sim.corrupt_next(1, "flip")
    session.sim.place("10", "white")
    session.sim.advance(20)
    session.sim.place("11", "white")
    frame = session.step()  # the damaged frame never arrives; the next one does
    white = session.man(SlotState.WHITE)
    assert frame.counts()["10"] == (white, 1)
    assert frame.counts()["11"] == (white, 1)
    (dump,) = session.drain()  # the gap made the link ask for a full dump
    assert dump.slots == frame.slots
    counters = session.link.counters()
    assert (counters.corrupt, counters.lost, counters.resyncs) == (1, 1, 1)


@both_sensings
def test_truncated_frame_is_dropped_and_counted(session: Session) -> None:
    session.sim.corrupt_next(1, "truncate")
    session.sim.place("14", "black")
    session.sim.advance(20)
    session.sim.lift("14")
    assert session.step().counts()["14"] == (SlotState.EMPTY, 0)
    assert [f.counts()["14"] for f in session.drain()] == [(SlotState.EMPTY, 0)]  # the dump
    counters = session.link.counters()
    assert (counters.corrupt, counters.lost) == (1, 1)


@both_sensings
def test_unplugged_cable_is_reported_and_the_link_recovers(session: Session) -> None:
    session.sim.place("4", "white")
    session.step()
    session.sim.unplug()
    event = session.event(LinkStatus.DISCONNECTED)
    assert event.message.startswith("table disconnected")
    assert not session.link.connected
    session.sim.place("4", "white")  # moved while the cable was out
    session.sim.replug()
    assert session.event(LinkStatus.CONNECTED).info is not None
    session.sim.advance(20)
    frames = session.drain()  # the fresh firmware's first picture, answering the dump
    assert frames and frames[-1].counts()["4"] == (session.man(SlotState.WHITE), 2)
    counters = session.link.counters()
    assert (counters.connects, counters.disconnects) == (2, 1)


@pytest.fixture
def raw_pty() -> Iterator[tuple[int, str]]:
    """A bare pseudo-terminal: the test plays the table on the master side."""
    master, slave = os.openpty()
    tty.setraw(slave)
    yield master, os.ttyname(slave)
    os.close(master)
    os.close(slave)


def _answer_identify(master: int, payload: str) -> None:
    parser = FrameParser()
    while not any(m.kind == "i" for m in parser.feed(os.read(master, 1024))):
        pass
    os.write(master, encode("I", 1, payload))


def test_incompatible_firmware_is_refused_with_a_clear_message(raw_pty: tuple[int, str]) -> None:
    master, port = raw_pty
    listener = QueueListener()
    with TableLink(port, listener=listener, backoff=(5.0, 5.0)) as link:
        _answer_identify(master, "fw=3.0.0 proto=3 layout=6,4,15 sense=occupancy")
        event = listener.events.get(timeout=WAIT)
        assert event.status is LinkStatus.INCOMPATIBLE
        assert "protocol 3" in event.message and "update the firmware" in event.message
        assert not link.connected


def test_wrong_layout_is_refused(raw_pty: tuple[int, str]) -> None:
    master, port = raw_pty
    listener = QueueListener()
    with TableLink(port, listener=listener, layout=TableLayout(), backoff=(5.0, 5.0)):
        _answer_identify(master, "fw=1.1.0 proto=2 layout=8,4,15 sense=occupancy")
        event = listener.events.get(timeout=WAIT)
        assert event.status is LinkStatus.INCOMPATIBLE
        assert "8,4,15" in event.message


def test_a_silent_table_is_reported_disconnected(raw_pty: tuple[int, str]) -> None:
    master, port = raw_pty
    listener = QueueListener()
    with TableLink(port, listener=listener, silence_timeout=0.3, backoff=(5.0, 5.0)):
        _answer_identify(master, "fw=1.1.0 proto=2 layout=6,4,15 sense=occupancy")
        assert listener.events.get(timeout=WAIT).status is LinkStatus.CONNECTED
        event = listener.events.get(timeout=WAIT)
        assert event.status is LinkStatus.DISCONNECTED
        assert "no message for" in event.message


def test_a_port_that_does_not_answer_is_not_a_table(raw_pty: tuple[int, str]) -> None:
    _, port = raw_pty
    listener = QueueListener()
    with TableLink(port, listener=listener, handshake_timeout=0.2, backoff=(5.0, 5.0)) as link:
        event = listener.events.get(timeout=WAIT)
        assert event.status is LinkStatus.DISCONNECTED
        assert "no answer" in event.message and not link.connected


def test_a_missing_port_is_reported_once_and_retried() -> None:
    listener = QueueListener()
    with TableLink("/nonexistent/backgammon-table", listener=listener, backoff=(0.01, 0.02)):
        event = listener.events.get(timeout=WAIT)
        assert event.status is LinkStatus.DISCONNECTED
        assert "cannot open" in event.message
        with pytest.raises(queue.Empty):
            listener.events.get(timeout=0.2)


@pytest.mark.parametrize(("kiosk", "table"), [("occupancy", "polarity"), ("polarity", "occupancy")])
def test_a_table_sensing_otherwise_is_taken_at_its_word(
    raw_pty: tuple[int, str], kiosk: str, table: str
) -> None:
    master, port = raw_pty
    listener = QueueListener()
    layout = TableLayout(sensing=kiosk)
    with TableLink(port, listener=listener, layout=layout, backoff=(5.0, 5.0)) as link:
        _answer_identify(master, f"fw=1.1.0 proto=2 layout=6,4,15 sense={table}")
        event = listener.events.get(timeout=WAIT)
        assert event.status is LinkStatus.CONNECTED
        assert link.info is not None and link.info.layout.sensing == table
        letter = "O" if table == "occupancy" else "W"
        groups = ["." * layout.slots(where) for where in LOCATIONS]
        groups[LOCATIONS.index("6")] = letter * 2 + "...."
        os.write(master, encode("F", 2, " ".join(groups) + " .."))
        frame = listener.frames.get(timeout=WAIT)  # decoded as the table senses
        assert frame.occupancy()["6"] == 2
        assert frame.sensed()["6"] == ((2, 0) if table == "polarity" else (0, 0))


@pytest.mark.parametrize("table", SENSINGS)
def test_a_table_of_other_slot_counts_is_still_refused(
    raw_pty: tuple[int, str], table: str
) -> None:
    master, port = raw_pty
    listener = QueueListener()
    with TableLink(port, listener=listener, layout=TableLayout(), backoff=(5.0, 5.0)):
        _answer_identify(master, f"fw=1.1.0 proto=2 layout=5,4,15 sense={table}")
        event = listener.events.get(timeout=WAIT)
        assert event.status is LinkStatus.INCOMPATIBLE
        assert "differs" in event.message and "configuration" in event.message


def test_the_boot_identify_crossing_the_handshake_is_no_restart(raw_pty: tuple[int, str]) -> None:
    """A table that boots as the link opens sends its own identify (sequence 0) and then
    answers the link's (sequence 1): one connection, no 'table restarted'. A later
    identify of sequence 0 is a restart."""
    master, port = raw_pty
    listener = QueueListener()
    hello = "fw=1.1.0 proto=2 layout=6,4,15 sense=occupancy reset=power"
    with TableLink(port, listener=listener, backoff=(5.0, 5.0)) as link:
        parser = FrameParser()
        while not any(m.kind == "i" for m in parser.feed(os.read(master, 1024))):
            pass
        os.write(master, encode("I", 0, hello))  # the boot identify, then the answer
        assert listener.events.get(timeout=WAIT).status is LinkStatus.CONNECTED
        os.write(master, encode("I", 1, hello))
        with pytest.raises(queue.Empty):
            listener.events.get(timeout=0.5)
        assert link.connected
        os.write(master, encode("I", 0, hello))  # the table really restarted
        event = listener.events.get(timeout=WAIT)
        assert event.status is LinkStatus.CONNECTED and "restarted" in event.message
