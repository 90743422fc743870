"""The real application on a simulated table stepped by a virtual clock: the demo and the
tests drive the whole stack (firmware, pty, link, referee, modes, display) this way.

``wait(ms)`` lets virtual time pass in the steps of :class:`kiosk.rig.stepped.SteppedTable`
(the one stepping loop: the table scans, the link catches up with what the table shows or
:class:`~kiosk.rig.stepped.TableTimeout` says it did not), and the app takes a turn of
its loop after each. Nothing depends on the machine's speed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kiosk.app.controls import button_event
from kiosk.app.main import App, table_layout
from kiosk.config import Config
from kiosk.rig.stepped import STEP_MS, SteppedTable


class SteppedApp:
    """An App wired to a stepped simulated table: ``make_app(link=..., listener=...)``."""

    def __init__(
        self, make_app: Callable[..., App], config: Config, sensing: str | None = None
    ) -> None:
        self.table = SteppedTable(table_layout(config), sensing=sensing)
        self.sim, self.link, self.listener = self.table.sim, self.table.link, self.table.listener
        self.events: list[dict[str, Any]] = []  # every event so far, as JSON (what tests read)
        self.settle = True  # wait for the table's side to think at each step
        # the table's side thinks in this process: a test's opponent, the same every run
        self.app = make_app(link=self.link, listener=self.listener, think_apart=False)
        if config.dice.source == "auto":  # the stepped table's dice lie in its wells
            self.app.dice_source = "wells"
        self.app.bus.subscribe(lambda event: self.events.append(event.to_json()))

    @property
    def now(self) -> int:
        """The virtual clock (ms)."""
        return self.table.now

    def wait(self, ms: int) -> None:
        """Let ``ms`` of virtual time pass on the table and in the app's loop."""
        self.table.wait(ms, self._step)

    def _step(self, now: int) -> None:
        self.app.step(now)
        if self.settle:
            self.app.core.settle()  # the table's side has thought: the same every run
            self.app.bus.dispatch()
        self.app.frame(now)

    def press(self, name: str, player: str | None = None, times: int = 1) -> None:
        """Press a button ``times`` times, a turn of the loop after each."""
        for _ in range(times):
            self.app.bus.publish(button_event(name, player))
            self.wait(STEP_MS)

    def kinds(self) -> list[str]:
        """The kinds of every event so far."""
        return [e["event"] for e in self.events]

    def last(self, kind: str) -> dict[str, Any]:
        """The latest event of ``kind``."""
        found = [e for e in self.events if e["event"] == kind]
        if not found:
            raise LookupError(f"no {kind} event among {self.kinds()}")
        return found[-1]

    def close(self) -> None:
        """Close the app and the simulated table."""
        self.app.close()
        self.table.close()
