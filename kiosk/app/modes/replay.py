"""A recorded game shown turn by turn."""

from __future__ import annotations

from kiosk.app.modes import Host, Legend, Mode
from kiosk.app.replay import Replay
from kiosk.events import ModeChanged


class ReplayMode(Mode):
    """Done: the next turn; Select: the turn before; Back: leave the replay."""

    name = "replay"

    def __init__(self, app: Host, replay: Replay) -> None:
        self.app = app
        self.replay = replay

    def entered(self) -> None:
        self.app.bus.publish(ModeChanged(mode="replay", banner=self.banner()))
        self.app.bus.publish(self.replay.event())

    def banner(self) -> str:
        """The line both players see while the replay is on."""
        return f"Replay: {self.replay.title}"

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
            self.leave()
            self.app.restore_game()
            return
        if button in ("select", "up") and not replay.backward():
            return
        self.app.bus.publish(replay.event())
