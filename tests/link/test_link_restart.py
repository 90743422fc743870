"""Issue 27, item 2: a table that restarts without the USB device re-enumerating, and whose
first message (the identify with sequence 0) is lost, must not leave the kiosk blind.

A fake table on a bare pty (the test writes its bytes) answers ``i``, ``d`` and ``h`` as the
firmware does; it restarts with its numbering from 0 and its boot identify lost.
"""

from __future__ import annotations

import os
import queue
import threading
import time
import tty
from collections.abc import Iterator

import pytest

from kiosk.link import LOCATIONS, LinkStatus, QueueListener, SlotState, TableLayout, TableLink
from kiosk.link.protocol import FrameParser, encode

WAIT = 5.0
IDENTIFY = "fw=1.1.0 proto=2 layout=6,4,15 sense=polarity reset=power"


class FakeTable:
    """The table's side of a bare pty: answers commands, sends heartbeats and frames."""

    def __init__(self) -> None:
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.slave = slave
        self.port = os.ttyname(slave)
        self.seq = 0
        self.board = {where: "." * TableLayout().physical_slots(where) for where in LOCATIONS}
        self.commands: list[str] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def send(self, kind: str, payload: str = "", lose: bool = False) -> None:
        """One message with the next sequence number (``lose``: it never reaches the line)."""
        with self._lock:
            data = encode(kind, self.seq, payload)
            self.seq = (self.seq + 1) & 0xFFFF
            if not lose:
                os.write(self.master, data)

    def frame(self) -> str:
        return " ".join(self.board[where] for where in LOCATIONS) + " .."

    def restart(self) -> None:
        """The firmware restarts (a watchdog reset): numbering from 0, its identify lost."""
        with self._lock:
            self.seq = 0
        self.send("I", IDENTIFY.replace("power", "wdt"), lose=True)
        self.send("F", self.frame())

    def _serve(self) -> None:
        parser = FrameParser()
        while not self._stop.is_set():
            try:
                data = os.read(self.master, 1024)
            except OSError:
                return
            for command in parser.feed(data):
                self.commands.append(command.kind)
                if command.kind == "i":
                    self.send("I", IDENTIFY)
                elif command.kind == "d":
                    self.send("F", self.frame())
                elif command.kind == "h":
                    self.send("H", "up=1")

    def close(self) -> None:
        self._stop.set()
        os.close(self.slave)
        os.close(self.master)


@pytest.fixture
def table() -> Iterator[FakeTable]:
    fake = FakeTable()
    yield fake
    fake.close()


def _frame(listener: QueueListener, timeout: float) -> object | None:
    try:
        return listener.frames.get(timeout=timeout)
    except queue.Empty:
        return None


@pytest.mark.parametrize("earlier", [20, 60, 200])
def test_a_restart_whose_identify_is_lost_is_noticed_and_the_board_shown(
    table: FakeTable, earlier: int
) -> None:
    listener = QueueListener()
    with TableLink(table.port, listener=listener, silence_timeout=5.0) as link:
        assert link.wait_connected(WAIT)
        assert _frame(listener, WAIT) is not None  # the dump asked for at connecting
        for _ in range(earlier):
            table.send("H", "up=1")
        time.sleep(0.2)
        while not listener.events.empty():
            listener.events.get()
        table.board["9"] = "W....."  # moved while the table restarted
        started = time.monotonic()
        table.restart()
        for _ in range(5):  # the restarted table goes on talking
            table.send("H", "up=1")
            time.sleep(0.05)
        frame = None
        while time.monotonic() - started < 2.0:
            frame = _frame(listener, 0.1)
            if frame is not None and frame.counts()["9"] == (SlotState.WHITE, 1):
                break
        assert frame is not None and frame.counts()["9"] == (SlotState.WHITE, 1), (
            f"after {earlier} messages the restarted table's board was not shown within 2 s"
        )
        said = [listener.events.get_nowait() for _ in range(listener.events.qsize())]
        assert any(e.status is LinkStatus.CONNECTED and "restarted" in e.words for e in said)
        counters = link.counters()
        assert counters.renumbered == 1 and counters.repeats >= 1
        assert link.connected


def test_a_few_repeats_are_dropped_and_a_run_of_them_renumbers(table: FakeTable) -> None:
    listener = QueueListener()
    with TableLink(table.port, listener=listener, silence_timeout=5.0) as link:
        assert link.wait_connected(WAIT)
        assert _frame(listener, WAIT) is not None
        for _ in range(10):
            table.send("H", "up=1")
        time.sleep(0.2)
        last = table.seq - 1
        os.write(table.master, encode("H", last, "up=1") + encode("H", last - 1, "up=1"))
        time.sleep(0.2)
        assert (link.counters().repeats, link.counters().renumbered) == (2, 0)
        assert "i" not in table.commands[1:]  # two repeats: no more than repeats
        table.send("H", "up=1")
        os.write(table.master, b"".join(encode("H", last - k, "up=1") for k in range(3)))
        deadline = time.monotonic() + WAIT
        while link.counters().renumbered == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert link.counters().renumbered == 1  # a run of three: asked who it is
