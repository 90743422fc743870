"""The quiet screens: an invitation after a few idle minutes, and notices to read once.

>>> from kiosk.app.modes import Mode, ModeStack
>>> stack = ModeStack(lambda e: None, Mode())
>>> stack.push(NoticeMode(["Speech: espeak-ng is missing."], show_ms=1000))
>>> stack.tick(5000); stack.tick(5999); stack.names()
['mode', 'notice']
>>> stack.tick(6000); stack.names()
['mode']
"""

from __future__ import annotations

from kiosk.app.modes import Card, Legend, Mode

IDLE_MS = 3 * 60 * 1000  # no button and no man moved for this long: the attract screen
INVITATION = (
    "Come and play backgammon!",
    "Learn it step by step: Menu, then Lessons.",
    "Or play a friend, with the tutor watching.",
)


class AttractMode(Mode):
    """Shown when nobody has played for a while; any button or a man moved ends it."""

    name = "attract"

    def legend(self, player: str) -> Legend:
        return (("done", "start"), ("menu", "start"), ("select", "start"))

    def card(self) -> Card:
        return Card("Backgammon Table", INVITATION, -1, "Press any button to start")

    def press(self, button: str, player: str | None) -> None:
        self.leave()  # the press wakes the table; it does nothing else


class NoticeMode(Mode):
    """Things the players should know once (what is missing): shown until a button is
    pressed, which then does what it does below, or for ``show_ms`` from the first tick."""

    name = "notice"

    def __init__(self, lines: list[str], show_ms: int) -> None:
        self.lines = tuple(lines)
        self.show_ms = show_ms
        self.until: int | None = None

    def legend(self, player: str) -> Legend:
        below = self.stack.below(self)
        return below.legend(player) if below is not None else ()

    def card(self) -> Card:
        return Card("Please note", self.lines, -1, "Any button: carry on")

    def press(self, button: str, player: str | None) -> None:
        self.leave()
        self.stack.press(button, player)

    def tick(self, now: int) -> None:
        if self.until is None:
            self.until = now + self.show_ms
        elif now >= self.until:
            self.leave()
