"""A recorded game shown turn by turn: an activity that judges nothing and records nothing."""

from __future__ import annotations

from kiosk.app.modes import Activity, Host, Legend
from kiosk.app.replay import Replay
from kiosk.events import Kind


class ReplayMode(Activity):
    """Done: the next turn; Select: the turn before; Back: leave the replay."""

    name = "replay"
    kind = Kind.REPLAY

    def __init__(self, app: Host, replay: Replay) -> None:
        self.app = app
        self.replay = replay

    def banner(self) -> str:
        """The line both players see while the replay is on."""
        return f"Replay: {self.replay.title}"

    def take(self) -> None:
        """Nothing on the table is judged while other positions are shown; the first is."""
        self.app.core.take(Kind.REPLAY)
        self.app.bus.publish(self.replay.event())

    def legend(self, player: str) -> Legend:
        keys = [("done", "next turn")]
        if self.replay.index:
            keys.append(("select", "turn before"))
        return (*keys, ("back", "leave the replay"), ("menu", "menu"))

    def press(self, button: str, player: str | None) -> None:
        replay = self.replay
        if button == "menu":
            self.app.open_menu(player)
            return
        if button == "back" or (button == "done" and not replay.forward()):
            self.leave()  # the game takes the table back
            return
        if button in ("select", "up") and not replay.backward():
            return
        self.app.bus.publish(replay.event())
