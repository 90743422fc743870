"""A short demonstration game, played through the whole stack without a screen.

``make run`` on a machine with no display runs this: a simulated table (real firmware
on a pseudo-terminal), the link, the referee and the display drawing headless. The
game has a lift with its destinations, a wrong placement and its correction, a hit and
an entry from the bar; a PNG screenshot is saved at each of those moments.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kiosk.app.events import EventBus
from kiosk.display.view import TableView
from kiosk.link import LOCATIONS, SlotState, TableLayout

# (script action, screenshot name or ""), see kiosk.referee.scenario for the actions.
SCRIPT: tuple[tuple[str, str], ...] = (
    ("setup standard", "set-up"),
    ("opening 5 2", "opening-throw"),
    ("lift 13", "lifted-with-destinations"),
    ("place 7", ""),
    ("wait 400", "wrong-placement"),
    ("lift 7", ""),
    ("place 8", ""),
    ("wait 400", "corrected"),
    ("lift 13", ""),
    ("place 11", ""),
    ("wait 400", ""),
    ("press done", "white-played"),
    ("dice 6 4", "black-threw"),
    ("lift 24", ""),
    ("lift 14 white", ""),
    ("place bar white", ""),
    ("place 14", ""),
    ("wait 400", "black-hit"),
    ("press done", "black-played"),
    ("dice 4 3", "white-on-the-bar"),
    ("lift bar", ""),
    ("place 21", ""),
    ("lift 24", ""),
    ("place 21", ""),
    ("wait 400", ""),
    ("press done", "white-entered"),
)


def run_demo(
    out_dir: Path,
    layout: TableLayout | None = None,
    size: tuple[int, int] = (1280, 720),
    emit: Callable[[dict], None] | None = None,
) -> list[str]:
    """Play the demonstration headless; returns the screenshots' paths in order."""
    from kiosk.display import Calibration, Display
    from kiosk.referee.scenario import ScenarioRunner

    layout = layout or TableLayout()
    bus = EventBus()
    view = TableView(simulated=True)  # no physical men: the picture shows them
    bus.subscribe(view.apply)
    if emit is not None:
        bus.subscribe(emit)
    display = Display(Calibration.default(*size, layout), fullscreen=False, headless=True)
    shots: list[str] = []
    try:
        with ScenarioRunner(bus.publish, layout) as runner:
            bus.publish(
                {"event": "table", "status": "connected", "message": "simulated table (demo)"}
            )
            bus.publish({"event": "mode", "mode": "demo", "banner": "Demonstration game"})
            for number, (action, shot) in enumerate(SCRIPT, start=1):
                runner.action(action)
                bus.publish({"event": "board", "board": _sensed(runner.sim)})
                bus.dispatch()
                display.frame(view, runner.now)
                if shot:
                    path = out_dir / f"demo-{number:02d}-{shot}.png"
                    shots.append(display.screenshot(path))
    finally:
        display.close()
    return shots


def _sensed(sim: object) -> dict[str, tuple[int, int]]:
    """The men on the simulated table, location by location, as (white, black)."""
    board = {}
    for where in LOCATIONS:
        men = sim.men(where)  # type: ignore[attr-defined]
        board[where] = (men.count(SlotState.WHITE), men.count(SlotState.BLACK))
    return board
