"""A short demonstration game, played through the whole application without a screen.

``make run`` on a machine with no display runs this: the real application (modes, legend,
referee, coach, display drawing headless) on a simulated table (the real firmware on a
pseudo-terminal) stepped by a virtual clock. A PNG screenshot is saved at each of the
main moments: the set-up, the opening throw, a lifted man with its destinations, a wrong
placement with its reason and its correction, "press Done", the coach's verdict and its
explanation, a hit, and the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from kiosk.app.main import App
from kiosk.app.stepped import SteppedApp
from kiosk.app.transitions import NOTICE_MS
from kiosk.config import Config
from kiosk.display import Calibration, Display
from kiosk.link import TableLayout
from kiosk.simtable import STARTING_POSITION

SETTLE_MS = 400  # the referee's settle time plus a scan or two


def run_demo(
    out_dir: Path,
    layout: TableLayout | None = None,
    size: tuple[int, int] = (1280, 720),
    emit: Callable[[dict[str, Any]], None] | None = None,
) -> list[str]:
    """Play the demonstration headless; returns the screenshots' paths in order."""
    config = Config()
    layout = layout or TableLayout()
    config.table.point_slots, config.table.bar_slots, config.table.tray_slots = (
        layout.point_slots,
        layout.bar_slots,
        layout.tray_slots,
    )
    config.tutor.evaluator = "builtin"  # quick, and the same verdict everywhere
    display = Display(Calibration.default(*size, layout), fullscreen=False, headless=True)
    table = SteppedApp(
        lambda **wired: App(config, display=display, calibration=display.calibration, **wired),
        config,
    )
    table.app.simulator = table.sim  # the men are drawn; the dice still go in its wells
    if emit is not None:
        table.app.bus.subscribe(lambda event: emit(event.to_json()))
    shots: list[str] = []

    def shot(name: str) -> None:
        table.app.frame(table.now)
        path = out_dir / f"demo-{len(shots) + 1:02d}-{name}.png"
        shots.append(display.screenshot(path))

    def settle() -> None:
        table.wait(SETTLE_MS)

    sim = table.sim
    try:
        sim.set_position(STARTING_POSITION)
        table.app.start()
        table.wait(NOTICE_MS + SETTLE_MS)  # the start-up notices stay half a minute
        shot("set-up")
        sim.set_dice(5, 2)
        settle()
        shot("opening-throw")
        sim.lift("13")
        settle()
        shot("lifted-with-destinations")
        sim.place("7", "white")
        settle()
        shot("wrong-placement")
        sim.move("7", "8", "white")
        settle()
        shot("corrected")
        sim.move("13", "11", "white")
        settle()
        shot("press-done")
        table.press("done", "white")
        coach = table.app.coach
        if coach is not None:
            coach.wait(60)
        settle()
        shot("coach-verdict")
        table.press("select", "white")
        shot("coach-explanation")
        table.press("select", "white")
        sim.clear_dice()
        table.wait(80)
        sim.set_dice(6, 4)
        settle()
        sim.lift("1", "black")
        sim.move("11", "bar-white", "white")
        sim.place("11", "black")
        settle()
        shot("black-hit")
        table.press("done", "black")
        settle()
        table.press("menu", "white")
        double = next(i for i, t in enumerate(table.app.view.menu) if t.startswith("Double"))
        table.press("menu", times=double)
        table.press("select")
        table.press("back", "black")  # black passes the double
        settle()
        shot("game-end")
    finally:
        table.close()
    return shots
