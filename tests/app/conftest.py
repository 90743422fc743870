"""Fixtures: the real App on a stepped simulated table over a pty, driven by a virtual clock."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from kiosk.app.main import App, table_layout  # noqa: E402
from kiosk.config import Config  # noqa: E402
from kiosk.referee.stepped import SteppedTable  # noqa: E402


class Harness:
    """An App wired to a stepped simulated table; ``wait(ms)`` runs the loop in virtual time."""

    def __init__(self, make_app: Callable[..., App], config: Config) -> None:
        self.table = SteppedTable(table_layout(config))
        self.sim, self.link, self.listener = self.table.sim, self.table.link, self.table.listener
        self.events: list[dict] = []
        self.app = make_app(link=self.link, listener=self.listener)
        self.app.bus.subscribe(self.events.append)

    @property
    def now(self) -> int:
        """The virtual clock (ms)."""
        return self.table.now

    def wait(self, ms: int) -> None:
        """Let ``ms`` of virtual time pass on the table and in the app's loop."""
        self.table.wait(ms, self._step)

    def _step(self, now: int) -> None:
        self.app.step(now)
        self.app.frame(now)

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
        self.table.close()


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
