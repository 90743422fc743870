"""Fixtures: a stepped simulated table and a link connected to it over a real pty.

The table is the one designed (one reed a slot: ``occupancy`` sensing). A test whose
point holds as well for a table whose reeds tell a man's colour parametrizes
``sensing`` over ``kiosk.table.layout.SENSINGS``; a test about something only that
table shows parametrizes it with ``polarity`` alone.
"""

from __future__ import annotations

import queue
from collections.abc import Iterator

import pytest

from kiosk.link import BoardFrame, LinkEvent, LinkStatus, QueueListener, SlotState, TableLink
from kiosk.simtable import SimulatedTable

WAIT = 5.0  # generous: a loaded CI machine; tests never assert on time
DESIGN = "occupancy"  # one reed a slot: hardware/README.md, firmware/board.py


class Session:
    """A simulated table, a link to it and helpers to read what the link delivered."""

    def __init__(self, sim: SimulatedTable, link: TableLink, listener: QueueListener) -> None:
        self.sim = sim
        self.link = link
        self.listener = listener

    @property
    def sensing(self) -> str:
        """How the table's slots sense their men."""
        return self.sim.layout.sensing

    def man(self, colour: SlotState) -> SlotState:
        """What a slot holding a man of ``colour`` reads on this table: his colour where
        the reeds tell it, else ``OCCUPIED``."""
        return colour if self.sensing == "polarity" else SlotState.OCCUPIED

    def frame(self) -> BoardFrame:
        """The next delivered frame."""
        return self.listener.frames.get(timeout=WAIT)

    def event(self, status: LinkStatus) -> LinkEvent:
        """The next event with ``status``, skipping others."""
        while True:
            event = self.listener.events.get(timeout=WAIT)
            if event.status is status:
                return event

    def drain(self, quiet: float = 0.2) -> list[BoardFrame]:
        """Every frame that arrives until the line has been quiet for ``quiet`` seconds."""
        found = []
        while True:
            try:
                found.append(self.listener.frames.get(timeout=quiet))
            except queue.Empty:
                return found

    def self_test(self) -> LinkEvent:
        """Run the stepped table until its self-test report arrives (the command races the
        clock)."""
        for _ in range(500):
            self.sim.advance(50)
            try:
                event = self.listener.events.get(timeout=0.01)
            except queue.Empty:
                continue
            if event.status is LinkStatus.SELF_TEST:
                return event
        raise AssertionError("no self-test report")

    def step(self, ms: float = 20) -> BoardFrame:
        """Advance the table by ``ms`` and return the one frame that must result."""
        self.sim.advance(ms)
        return self.frame()


@pytest.fixture
def sensing() -> str:
    """How the session's table senses its men: the design, unless a test parametrizes it."""
    return DESIGN


@pytest.fixture
def session(sensing: str) -> Iterator[Session]:
    """A connected session whose table has settled its first (empty) picture."""
    with SimulatedTable(seed=7, sensing=sensing) as sim:
        listener = QueueListener()
        link = TableLink(
            sim.port_name,
            layout=sim.layout,
            listener=listener,
            silence_timeout=1.0,
            backoff=(0.05, 0.2),
        )
        with link:
            assert link.wait_connected(WAIT)
            assert link.info is not None and link.info.layout.sensing == sensing
            connected = Session(sim, link, listener)
            sim.advance(20)
            assert connected.drain()  # the first settled picture, answering the dump
            yield connected
