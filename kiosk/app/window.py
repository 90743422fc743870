"""The window's own input: closing it, the keys that stand for the buttons, and the mouse
moving the men of the simulated table (as a hand would on the real one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from kiosk.app.controls import key_event
from kiosk.app.menu import MenuMode
from kiosk.app.modes.entry import NameEntryMode
from kiosk.app.mouse import lift_at, put_down
from kiosk.display.view import MENU_KEYS
from kiosk.events import Event

if TYPE_CHECKING:
    from kiosk.app.modes import ModeStack
    from kiosk.display import Calibration
    from kiosk.display.view import TableView
    from kiosk.simtable import SimulatedTable


class Window:
    """Turns the window's pygame events into the table's: button presses and men moved."""

    def __init__(
        self,
        publish: Callable[[Event], None],
        modes: ModeStack,
        view: TableView,
        quit: Callable[[], None],
        table: Callable[[], tuple[SimulatedTable | None, Calibration | None]],
    ) -> None:
        self.publish, self.modes, self.view, self.quit = publish, modes, view, quit
        self.table = table  # the simulated table (None at a real one) and the calibration
        self.drag: tuple[str, str] | None = None  # simulator: (location lifted from, colour)

    def input(self, event: Any) -> None:
        """A pygame event: quit, a key, or the mouse on the simulated table."""
        import pygame

        if event.type == pygame.QUIT:
            self.quit()
        elif event.type == pygame.KEYDOWN:
            pressed = key_event(event.key, self.view.turn)
            top = self.modes.top
            typed = getattr(event, "unicode", "")
            if isinstance(top, NameEntryMode) and typed and (typed.isalpha() or typed in "\r\b"):
                top.type(typed)  # a keyboard at the window types the names
            elif pressed is not None:
                self.publish(pressed)
            elif isinstance(top, MenuMode) and len(typed) == 1 and typed in MENU_KEYS:
                top.pick(MENU_KEYS.index(typed) + 1)  # the key shown beside the item
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.grab(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            self.drop(event.pos)

    def grab(self, pos: tuple[int, int]) -> None:
        """Mouse down on the simulated table: lift the top man there."""
        simulator, calibration = self.table()
        if simulator is not None and calibration is not None:
            self.drag = lift_at(simulator, calibration, pos)

    def drop(self, pos: tuple[int, int]) -> None:
        """Mouse up: put the lifted man down there (a blot there is hit, as a hand would)."""
        simulator, calibration = self.table()
        if simulator is not None and calibration is not None and self.drag:
            put_down(simulator, calibration, self.drag, pos)
        self.drag = None
