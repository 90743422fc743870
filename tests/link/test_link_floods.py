"""Issue 36 item 7: floods of self-test reports (``T``) and "I restarted" identifies (``I``
seq 0) were taken in one by one (39,593 messages shown in 16 s; 47,834 dumps asked), frames
far above the firmware's rate dropped the table to 4.5 fps, and a table that stopped reading
could hang the link's threads for minutes. Over a real pty pair; every flood bounded."""

from __future__ import annotations

import os
import queue
import threading
import time
import tty
from collections.abc import Iterator

import pytest

from kiosk.link import LOCATIONS, LinkStatus, QueueListener, SlotState, TableLayout, TableLink
from kiosk.link.frames import BoardFrame
from kiosk.link.protocol import FrameParser, encode
from kiosk.table.sensing import NO_DICE

IDENTIFY = "fw=1.2.0 proto=2 layout=6,4,15 sense=occupancy"
WAIT = 5.0


@pytest.fixture
def table() -> Iterator[tuple[int, TableLink, QueueListener]]:
    """A link connected to a pty whose master side the test plays as the table."""
    master, slave = os.openpty()
    tty.setraw(slave)
    listener = QueueListener(max_frames=100_000, max_events=100_000)
    link = TableLink(
        os.ttyname(slave), listener=listener, silence_timeout=None, backoff=(5.0, 5.0)
    ).start()
    try:
        parser = FrameParser()
        deadline = time.monotonic() + WAIT
        while not any(m.kind == "i" for m in parser.feed(os.read(master, 1024))):
            assert time.monotonic() < deadline
        os.write(master, encode("I", 1, IDENTIFY))
        assert listener.events.get(timeout=WAIT).status is LinkStatus.CONNECTED
        yield master, link, listener
    finally:
        link.stop()
        os.close(master)
        os.close(slave)


def _events(listener: QueueListener, seconds: float) -> list:
    seen = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            seen.append(listener.events.get(timeout=0.05))
        except queue.Empty:
            continue
    return seen


def _flood(master: int, messages: list[bytes]) -> None:
    """Write the messages, reading what the kiosk sends meanwhile (bounded: one pass)."""
    data = b"".join(messages)
    for start in range(0, len(data), 4096):
        os.write(master, data[start : start + 4096])


def _asked(master: int) -> list[str]:
    os.set_blocking(master, False)
    parser, data = FrameParser(), b""
    try:
        while chunk := os.read(master, 65536):
            data += chunk
    except BlockingIOError:
        pass
    finally:
        os.set_blocking(master, True)
    return [m.kind for m in parser.feed(data)]


def test_a_flood_of_self_test_reports_is_taken_in_once_a_second(table) -> None:
    master, link, listener = table
    _asked(master)
    reports = [encode("T", 2 + n, "ok=1 stuck= chatter= lines=0") for n in range(5000)]
    reports.append(encode("T", 5002, "ok=0 stuck=6.1 chatter= lines=0"))  # the latest
    _flood(master, reports)
    seen = [e for e in _events(listener, 1.6) if e.status is LinkStatus.SELF_TEST]
    assert 1 <= len(seen) <= 3, len(seen)
    assert seen[-1].self_test is not None and seen[-1].self_test.stuck == ("6.1",)
    assert link.counters().reports_dropped >= 4990


def test_a_flood_of_restarts_is_taken_in_once_a_second(table) -> None:
    master, link, listener = table
    _asked(master)
    _flood(master, [encode("I", 0, IDENTIFY) for _ in range(5000)])
    restarts = [e for e in _events(listener, 1.6) if e.status is LinkStatus.CONNECTED]
    assert 1 <= len(restarts) <= 3, len(restarts)
    assert _asked(master).count("d") <= 3  # a dump for each restart taken in, no more
    assert link.counters().reports_dropped >= 4990


def _frame(seq: int, men: int) -> bytes:
    layout = TableLayout()
    slots = {
        where: tuple(
            [SlotState.OCCUPIED] * (men if where == "6" else 0)
            + [SlotState.EMPTY] * (layout.slots(where) - (men if where == "6" else 0))
        )
        for where in LOCATIONS
    }
    return encode("F", seq, BoardFrame(seq, slots, NO_DICE).to_payload())


def test_frames_far_above_the_firmwares_rate_are_dropped_counted_and_the_latest_kept(
    table,
) -> None:
    master, link, listener = table
    frames = [_frame(2 + n, 1 + n % 4) for n in range(20_000)]
    frames.append(_frame(20_002, 5))
    _flood(master, frames)
    time.sleep(0.5)
    delivered = []
    while True:
        try:
            delivered.append(listener.frames.get_nowait())
        except queue.Empty:
            break
    assert link.counters().frames_dropped > 5000
    assert len(delivered) < 20_000 - 5000
    assert delivered[-1].seq == 20_002 and delivered[-1].occupancy()["6"] == 5


def test_a_table_that_stops_reading_ends_the_session_in_words(table) -> None:
    """The table never reads: the kiosk's writes fill the line and wait; after the write
    timeout the session ends, said in words, and no thread hangs."""
    master, link, listener = table
    stuck = threading.Event()

    def ask() -> None:
        for _ in range(20_000):  # bounded: enough to fill any pty buffer many times
            if not link.request_dump():
                break
        stuck.set()

    asker = threading.Thread(target=ask, daemon=True)
    asker.start()
    assert stuck.wait(30), "a write to a table that does not read never ended"
    lost = [e for e in _events(listener, WAIT) if e.status is LinkStatus.DISCONNECTED]
    assert lost and "stopped reading" in lost[0].message, [e.message for e in lost]
