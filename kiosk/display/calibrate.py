"""The calibration mode: a mark under every slot, one location at a time, for the installer
to confirm or nudge until each mark sits under its slot on the glass.

Keys: arrows nudge the selected mark 1 pixel (with Shift, 10); with Ctrl the arrows move
every mark of the location; Tab and Shift+Tab pick the next or previous slot; Enter
confirms the location and goes to the next one; Backspace goes back; S saves; Esc quits
(twice when there are unsaved changes). A mouse click puts the selected mark there.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from kiosk.display.calibration import Calibration, save_calibration
from kiosk.display.palette import ACCENT, CONNECTED, DIM, TEXT
from kiosk.display.renderer import Renderer
from kiosk.link import LOCATIONS, TableLayout

MARK: tuple[int, int, int] = (230, 230, 230)
CURRENT: tuple[int, int, int] = (80, 200, 255)
PANEL: tuple[int, int, int] = (8, 14, 12)

HELP = (
    "Arrows: nudge 1 px (Shift: 10 px)   Ctrl+arrows: move the whole location   "
    "Tab: next slot   Enter: confirm   Backspace: back   S: save   Esc: quit"
)


def describe(location: str) -> str:
    """A location's name for the installer."""
    if location.startswith("bar-"):
        return f"{location[4:].capitalize()}'s bar"
    if location.startswith("off-"):
        return f"{location[4:].capitalize()}'s tray"
    return f"Point {location} (white's numbering)"


class CalibrationSession:
    """The state of a calibration: the marks, the location and slot selected, what is saved."""

    def __init__(
        self, calibration: Calibration, path: str | Path, layout: TableLayout | None = None
    ) -> None:
        self.layout = layout or TableLayout()
        calibration.check(self.layout)
        self.calibration = calibration
        self.saved: Calibration | None = None
        self.path = Path(path)
        self.index = 0
        self.slot = 0
        self.confirmed: set[str] = set()
        self.message = "Check each mark lies under its slot; nudge it if not."
        self.finished = False
        self._quit_warned = False

    @property
    def location(self) -> str:
        """The location being calibrated."""
        return LOCATIONS[self.index]

    @property
    def unsaved(self) -> bool:
        """Whether the marks differ from what was last saved."""
        return self.saved != self.calibration

    def go_to(self, index: int) -> None:
        """Select location ``index`` (in wire order) and its edge slot."""
        self.index = index % len(LOCATIONS)
        self.slot = 0

    def handle(self, event: pygame.event.Event) -> None:
        """Apply one key press or mouse click."""
        if event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 1:
            x, y = self.calibration.slot_xy(self.location, self.slot)
            self._nudge(event.pos[0] - x, event.pos[1] - y, whole=False)
            return
        if event.type != pygame.KEYDOWN:
            return
        key, mod = event.key, getattr(event, "mod", 0)
        if key != pygame.K_ESCAPE:
            self._quit_warned = False
        step = 10 if mod & pygame.KMOD_SHIFT else 1
        moves = {
            pygame.K_LEFT: (-step, 0),
            pygame.K_RIGHT: (step, 0),
            pygame.K_UP: (0, -step),
            pygame.K_DOWN: (0, step),
        }
        count = self.calibration.slot_count(self.location)
        if key in moves:
            self._nudge(*moves[key], whole=bool(mod & pygame.KMOD_CTRL))
        elif key == pygame.K_TAB:
            self.slot = (self.slot + (-1 if mod & pygame.KMOD_SHIFT else 1)) % count
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self._confirm()
        elif key == pygame.K_BACKSPACE:
            self.go_to(self.index - 1)
            self.message = f"Back to {describe(self.location)}."
        elif key == pygame.K_s:
            self.save()
        elif key in (pygame.K_ESCAPE, pygame.K_q):
            if self.unsaved and not self._quit_warned:
                self._quit_warned = True
                self.message = "Unsaved changes: press S to save, or Esc again to leave them."
            else:
                self.finished = True

    def save(self) -> None:
        """Write the calibration file; the message says where, or why it failed."""
        try:
            save_calibration(self.path, self.calibration)
        except OSError as error:
            self.message = f"Could not save to {self.path}: {error.strerror or error}"
            return
        self.saved = self.calibration
        self.message = f"Saved to {self.path}."

    def _nudge(self, dx: int, dy: int, whole: bool) -> None:
        if whole:
            self.calibration = self.calibration.shifted(self.location, dx, dy)
        else:
            self.calibration = self.calibration.nudged(self.location, self.slot, dx, dy)
        self.confirmed.discard(self.location)
        x, y = self.calibration.slot_xy(self.location, self.slot)
        self.message = f"Slot {self.slot + 1} is at {x}, {y}."

    def _confirm(self) -> None:
        self.confirmed.add(self.location)
        remaining = [i for i, where in enumerate(LOCATIONS) if where not in self.confirmed]
        if not remaining:
            self.message = "Every location is confirmed: press S to save, then Esc."
            return
        following = [i for i in remaining if i > self.index] or remaining
        self.go_to(following[0])
        self.message = f"Confirmed. Now {describe(self.location)}."


class CalibrationScreen:
    """Draws a session: the bare board, every mark, the location being set, instructions."""

    def __init__(self, surface: pygame.Surface, layout: TableLayout | None = None) -> None:
        self.surface = surface
        self.layout = layout or TableLayout()
        self._renderer: Renderer | None = None

    def draw(self, session: CalibrationSession) -> None:
        """Draw one frame of the calibration screen."""
        renderer = self._renderer
        if renderer is None or renderer.calibration != session.calibration:
            renderer = self._renderer = Renderer(self.surface, session.calibration, self.layout)
        renderer.draw_board()
        calibration = session.calibration
        r = calibration.slot_radius
        for where in LOCATIONS:
            if where == session.location:
                continue
            colour = CONNECTED if where in session.confirmed else MARK
            for x, y in calibration.slots[where]:
                pygame.draw.line(self.surface, colour, (x - r // 3, y), (x + r // 3, y), 2)
                pygame.draw.line(self.surface, colour, (x, y - r // 3), (x, y + r // 3), 2)
        text = renderer.text
        ring = renderer.geometry.strips[session.location].ring_radius(r)
        for i, (x, y) in enumerate(calibration.slots[session.location]):
            selected = i == session.slot
            colour = ACCENT if selected else CURRENT
            reach = int(ring * 1.6) if selected else ring
            pygame.draw.circle(self.surface, colour, (x, y), ring, 3 if selected else 2)
            pygame.draw.line(self.surface, colour, (x - reach, y), (x + reach, y), 2)
            pygame.draw.line(self.surface, colour, (x, y - reach), (x, y + reach), 2)
            label = text.render(str(i + 1), max(10, ring // 2 + 4), colour)
            self.surface.blit(label, (x + ring * 0.7, y - ring * 0.95))
        self._instructions(session, renderer)

    def _instructions(self, session: CalibrationSession, renderer: Renderer) -> None:
        text = renderer.text
        width = self.surface.get_width()
        band = renderer.geometry.bands["white"]
        big = max(12, int(band.height * 0.3))
        small = max(10, int(band.height * 0.16))
        pygame.draw.rect(self.surface, PANEL, band)
        count = session.calibration.slot_count(session.location)
        title = (
            f"{describe(session.location)}: slot {session.slot + 1} of {count}"
            f"      {len(session.confirmed)} of {len(LOCATIONS)} confirmed"
        )
        pad = max(6, band.height // 10)
        title_surface = text.render(title, big, TEXT)
        self.surface.blit(title_surface, (pad, band.top + pad))
        y = band.top + pad + title_surface.get_height()
        message = text.render(session.message, small, ACCENT)
        self.surface.blit(message, (pad, y))
        size, lines = text.fit(
            HELP, width - 2 * pad, band.bottom - y - message.get_height(), small, 9, 2
        )
        self.surface.blit(text.block(lines, size, DIM), (pad, y + message.get_height()))
        top = renderer.geometry.bands["black"]
        pygame.draw.rect(self.surface, PANEL, top)
        header = text.render("Calibration: the installer works from this side", small, DIM)
        self.surface.blit(header, header.get_rect(center=top.center))
