"""The real application on a simulated table stepped by a virtual clock: the demo and the
tests drive the whole stack (firmware, pty, link, referee, modes, display) this way.

``wait(ms)`` lets virtual time pass in steps: the table scans, the link catches up with
what the table shows (or :class:`LinkTimeout` says it did not), the app takes a turn of
its loop. Nothing depends on the machine's speed.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from kiosk.app.controls import button_event
from kiosk.app.main import App, table_layout
from kiosk.config import Config
from kiosk.link import LOCATIONS, BoardFrame, QueueListener, TableLink
from kiosk.simtable import SimulatedTable

WAIT_S = 10.0  # how long the link may take to show a step of the table (a loaded machine)
STEP_MS = 40


class LinkTimeout(RuntimeError):
    """The link did not deliver what the simulated table shows in time."""


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
    """An App wired to a stepped simulated table: ``make_app(link=..., listener=...)``."""

    def __init__(self, make_app: Callable[..., App], config: Config) -> None:
        self.sim = SimulatedTable(table_layout(config))
        self.listener = WatchingListener()
        self.link = TableLink(
            self.sim.port_name,
            layout=table_layout(config),
            listener=self.listener,
            silence_timeout=None,
        ).start()
        if not self.link.wait_connected(WAIT_S):
            self.sim.close()
            raise LinkTimeout("the simulated table did not answer")
        self.events: list[dict] = []  # every event so far, as JSON (what tests read)
        self.app = make_app(link=self.link, listener=self.listener)
        self.app.bus.subscribe(lambda event: self.events.append(event.to_json()))
        self.now = 0

    def wait(self, ms: int) -> None:
        """Let ``ms`` of virtual time pass on the table and in the app's loop."""
        end = self.now + ms
        while self.now < end:
            step = min(STEP_MS, end - self.now)
            self.sim.advance(step)
            self.now += step
            self._catch_up()
            self.app.step(self.now)
            self.app.frame(self.now)

    def press(self, name: str, player: str | None = None, times: int = 1) -> None:
        """Press a button ``times`` times, a turn of the loop after each."""
        for _ in range(times):
            self.app.bus.publish(button_event(name, player))
            self.wait(STEP_MS)

    def _catch_up(self) -> None:
        self.sim.flush()
        deadline = time.monotonic() + WAIT_S
        with self.listener.arrived:
            while not self._shows_table():
                if time.monotonic() >= deadline:
                    raise LinkTimeout(f"the link did not show the table within {WAIT_S:.0f} s")
                self.listener.arrived.wait(0.05)

    def _shows_table(self) -> bool:
        frame = self.listener.last
        if frame is None:
            return False
        return frame.dice == self.sim.dice() and all(
            frame.slots[where] == self.sim.sensed(where) for where in LOCATIONS
        )

    def kinds(self) -> list[str]:
        """The kinds of every event so far."""
        return [e["event"] for e in self.events]

    def last(self, kind: str) -> dict:
        """The latest event of ``kind``."""
        found = [e for e in self.events if e["event"] == kind]
        if not found:
            raise LookupError(f"no {kind} event among {self.kinds()}")
        return found[-1]

    def close(self) -> None:
        """Close the app and the simulated table."""
        self.app.close()
        self.sim.close()
