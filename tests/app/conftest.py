"""Fixtures: the real App on a stepped simulated table over a pty, driven by a virtual clock."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from kiosk.app.main import App, table_layout  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.link import LOCATIONS, BoardFrame, QueueListener, TableLink  # noqa: E402
from kiosk.simtable import SimulatedTable  # noqa: E402

WAIT = 10.0  # generous for a loaded CI machine; never asserted on
STEP_MS = 40


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


class Harness:
    """An App wired to a stepped simulated table; ``wait(ms)`` runs the loop in virtual time."""

    def __init__(self, make_app: Callable[..., App], config: Config) -> None:
        self.sim = SimulatedTable(table_layout(config))
        self.listener = WatchingListener()
        self.link = TableLink(
            self.sim.port_name,
            layout=table_layout(config),
            listener=self.listener,
            silence_timeout=None,
        ).start()
        assert self.link.wait_connected(WAIT), "the simulated table did not answer"
        self.events: list[dict] = []
        self.app = make_app(link=self.link, listener=self.listener)
        self.app.bus.subscribe(self.events.append)
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

    def _catch_up(self) -> None:
        self.sim.flush()
        deadline = time.monotonic() + WAIT
        with self.listener.arrived:
            while not self._shows_table() and time.monotonic() < deadline:
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
        assert found, f"no {kind} event among {self.kinds()}"
        return found[-1]

    def close(self) -> None:
        self.app.close()
        self.sim.close()


@pytest.fixture
def harness() -> Iterator[Callable[..., Harness]]:
    """Build harnesses (``harness(config, **app_kwargs)``); all are closed after the test."""
    made: list[Harness] = []

    def build(config: Config, **kwargs: object) -> Harness:
        h = Harness(lambda **wired: App(config, **wired, **kwargs), config)
        made.append(h)
        return h

    yield build
    for h in made:
        h.close()
