"""The quiet screens: an invitation after a few idle minutes, notices to read once, and a
warning before a long-abandoned game is put away for the next visitor.

>>> from kiosk.app.modes import Activity, ModeStack
>>> stack = ModeStack(lambda e: None, Activity())
>>> stack.push(NoticeMode(["A simulated table: drag the men with the mouse."], show_ms=1000))
>>> stack.tick(5000); stack.tick(5999); stack.names()
['mode', 'notice']
>>> stack.tick(6000); stack.names()
['mode']
"""

from __future__ import annotations

from collections.abc import Callable

from kiosk.app.modes import Card, Legend, Mode

WARN_MS = 60_000  # the warning's time to answer (WCAG 2.2.1 asks for at least 20 s)
INVITATION = (
    "Come and play backgammon!",
    "Any button: start a new game, learn it in a lesson,",
    "or carry on with the game on the table.",
)


class AttractMode(Mode):
    """Shown when nobody has played for a while; a button or a man moved ends it and
    leads to the choice of what to do (the press does nothing else)."""

    name = "attract"

    def legend(self, player: str) -> Legend:
        return (("done", "start"), ("menu", "start"), ("select", "start"))

    def card(self) -> Card:
        return Card("Backgammon Table", INVITATION, -1, "Press any button to start")

    def press(self, button: str, player: str | None) -> None:
        self.leave()


class NoticeMode(Mode):
    """Things the players should know once (a simulated table is played with the mouse):
    shown until a button closes it (the press does nothing else), or for ``show_ms`` from
    the first tick."""

    name = "notice"

    def __init__(self, lines: list[str], show_ms: int) -> None:
        self.lines = tuple(lines)
        self.show_ms = show_ms
        self.until: int | None = None

    def legend(self, player: str) -> Legend:
        return (("done", "close this note"), ("select", "close this note"))

    def card(self) -> Card:
        return Card("Please note", self.lines, -1, "Any button: close this note")

    def press(self, button: str, player: str | None) -> None:
        self.leave()

    def tick(self, now: int) -> None:
        if self.until is None:
            self.until = now + self.show_ms
        elif now >= self.until:
            self.leave()


class AbandonWarningMode(Mode):
    """A game left a long while (``left``: how it is said, "10 minutes ago"): put away for
    the next visitor after ``warn_ms`` unless somebody presses a button (``put_away`` then
    runs). The countdown shows on the card."""

    name = "abandon-warning"

    def __init__(self, left: str, put_away: Callable[[], None], warn_ms: int = WARN_MS) -> None:
        self.left = left
        self.put_away = put_away
        self.warn_ms = warn_ms
        self.until: int | None = None
        self.now = 0

    def legend(self, player: str) -> Legend:
        return (("done", "keep the game"), ("select", "keep the game"), ("back", "keep it"))

    def card(self) -> Card:
        left = self.warn_ms if self.until is None else max(0, self.until - self.now)
        seconds = -(-left // 1000)
        return Card(
            "Is anybody still playing?",
            (
                f"This game was left {self.left}.",
                f"In {seconds} s it is put away and a new game is laid out.",
                "Press any button to keep playing it.",
            ),
            -1,
            "Any button: keep this game",
        )

    def press(self, button: str, player: str | None) -> None:
        self.leave()  # kept: the press does nothing else

    def tick(self, now: int) -> None:
        self.now = now
        if self.until is None:
            self.until = now + self.warn_ms
        if now >= self.until:
            self.leave()
            self.put_away()
        elif self.stack.top is self:
            self.stack.refresh()  # the countdown on the card
