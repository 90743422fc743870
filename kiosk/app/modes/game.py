"""The game's modes: the game itself (always at the bottom of the stack), the end of a
game, a double on offer and the coach's offer to take a play back."""

from __future__ import annotations

from kiosk.app.modes import Host, Legend, Mode
from kiosk.events import CoachVerdict, Detail


class GameMode(Mode):
    """Play: Done throws or ends the play of the player on roll, Menu opens the menu,
    Select opens (or closes) the full explanation of the latest message that has one."""

    name = "game"

    def __init__(self, app: Host) -> None:
        self.app = app

    def legend(self, player: str) -> Legend:
        app = self.app
        keys: list[tuple[str, str]] = []
        done = app.done_meaning(player)
        if done:
            keys.append(("done", done))
        keys.append(("menu", "menu"))
        if app.detail_player() == player:
            shown = app.view.show_detail.get(player)
            keys.append(("select", "close the explanation" if shown else "explanation"))
        return tuple(keys)

    def press(self, button: str, player: str | None) -> None:
        app = self.app
        if button == "menu":
            app.open_menu(player)
        elif button == "done":
            app.done(player)
        elif button == "select":
            who = app.detail_player(player)
            if who is not None:
                app.bus.publish(Detail(player=who))


class GameEndMode(Mode):
    """A game is over: who won, how and for how many points stay shown until a button."""

    name = "game-end"

    def __init__(self, app: Host) -> None:
        self.app = app

    def legend(self, player: str) -> Legend:
        return (("done", "new game"), ("menu", "menu"))

    def press(self, button: str, player: str | None) -> None:
        if button == "done":
            self.stack.pop(self)
            self.app.new_game(tutor=self.app.tutor)
        elif button == "menu":
            self.app.open_menu(player)


class DoubleOfferMode(Mode):
    """A double on offer: the adversary takes with Select or passes with Back."""

    name = "double-offer"

    def __init__(self, app: Host, taker: str) -> None:
        self.app = app
        self.taker = taker

    def legend(self, player: str) -> Legend:
        if player != self.taker:
            return (("menu", "menu"),)
        return (("select", "take the double"), ("back", "pass"), ("menu", "menu"))

    def press(self, button: str, player: str | None) -> None:
        if button in ("select", "back") and player in (None, self.taker):
            self.stack.pop(self)
            self.app.answer_double(take=button == "select")
        elif button == "menu":
            self.app.open_menu(player)


class TakeBackOfferMode(Mode):
    """The coach offers to take a bad play back: Back takes it back while this is on
    screen; any other button lets the offer lapse and does what it does in the game."""

    name = "take-back-offer"

    def __init__(self, app: Host, offer: CoachVerdict) -> None:
        self.app = app
        self.offer = offer
        self.mover = offer.to

    def legend(self, player: str) -> Legend:
        below = self.stack.below(self)
        keys = below.legend(player) if below is not None else ()
        if player == self.mover:
            return (("back", "take the play back"), *keys)
        return keys

    def press(self, button: str, player: str | None) -> None:
        self.stack.pop(self)
        if button == "back":
            self.app.take_back(self.offer)
        else:
            self.stack.press(button, player)
