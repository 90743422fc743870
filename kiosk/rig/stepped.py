"""A simulated table on a virtual clock: the one stepping loop the scenario runner, the
lesson runner, the tests and the benchmarks share.

:class:`SteppedTable` serves the real firmware on a pseudo-terminal, links to it, and
lets virtual time pass in a hand's steps. After each step it waits, in real time,
until the link has delivered the frame the firmware last settled on (a reed still
chattering has not settled, so a man landing on it shows a step or two later, as on the
real table); if that does not happen within ``timeout`` seconds it raises
:class:`TableTimeout` rather than let a test judge a stale board.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from kiosk.errors import TableError
from kiosk.link import BoardFrame, QueueListener, TableLayout, TableLink
from kiosk.simtable import SimulatedTable

STEP_MS = 40  # a hand's movement: longer than the firmware's debounce, shorter than settling
WAIT_S = 10.0  # real time allowed for the link to catch up: generous for a loaded machine


class TableTimeout(TableError, RuntimeError):
    """The link did not show the simulated table in time (a busy machine or a dead link)."""


class WatchingListener(QueueListener):
    """A queue listener that also remembers the newest frame, to know when the link caught up."""

    def __init__(self) -> None:
        super().__init__()
        self.last: BoardFrame | None = None
        self.arrived = threading.Condition()

    def frame_received(self, frame: BoardFrame) -> None:
        super().frame_received(frame)
        with self.arrived:
            self.last = frame
            self.arrived.notify_all()


class SteppedTable:
    """A stepped simulated table, its link and a virtual clock ``now`` (ms)."""

    def __init__(
        self,
        layout: TableLayout | None = None,
        timeout: float = WAIT_S,
        firmware: str = "cpython",
        sensing: str | None = None,
    ) -> None:
        self.layout = layout or TableLayout()
        self.timeout = timeout
        self.now = 0
        # the table may sense otherwise than the kiosk's layout says: the link takes its word
        self.sim = SimulatedTable(self.layout, firmware=firmware, sensing=sensing)
        self.listener = WatchingListener()
        self.link = TableLink(
            self.sim.port_name, layout=self.layout, listener=self.listener, silence_timeout=None
        )
        self.link.start()
        if not self.link.wait_connected(timeout):
            self.close()
            raise TableTimeout("the simulated table did not answer on its pseudo-terminal")

    def close(self) -> None:
        """Stop the link and the simulated table."""
        self.link.stop()
        self.sim.close()

    def wait(self, ms: int, step: Callable[[int], None], step_ms: int = STEP_MS) -> None:
        """Let ``ms`` of virtual time pass in steps of ``step_ms``; after each step, once
        the link shows the table, call ``step(now)``."""
        end = self.now + ms
        while self.now < end:
            self.sim.advance(min(step_ms, end - self.now))
            self.now = min(self.now + step_ms, end)
            self.catch_up()
            step(self.now)

    def catch_up(self) -> None:
        """Wait until the link's newest frame shows the table; raises :class:`TableTimeout`."""
        if not self.sim.flush(self.timeout):
            raise TableTimeout("the simulated table could not send its frames")
        if not self.sim.plugged:
            return
        deadline = time.monotonic() + self.timeout
        with self.listener.arrived:
            while not self.shows_table(self.listener.last):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TableTimeout(f"the link did not show the table within {self.timeout:g} s")
                self.listener.arrived.wait(min(left, 0.05))

    def shows_table(self, frame: BoardFrame | None) -> bool:
        """Whether ``frame`` shows the simulated table as its firmware now reports it."""
        reported = self.sim.reported()
        return frame is not None and reported is not None and frame.to_payload() == reported
