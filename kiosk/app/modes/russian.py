"""Russian backgammon at the table: its own referee takes the board while the game waits.

Every man starts in its tray; Done ends each part of a throw (or throws digital dice);
after Cady's deuce-ace the caster picks the doublet with Menu (next) and Select; Back
leaves the Russian game and the standard game is laid out again. The game core plays it
(:meth:`kiosk.play.GameCore.play_variant`), on a table that senses colour or only where
men are alike. The coach is silent: it has no evaluator for this game, and the banner
says so. Russian games are not stored.
"""

from __future__ import annotations

from kiosk.app.dice import digital_throw
from kiosk.app.modes import Activity, Card, Host, Legend
from kiosk.events import Kind
from kiosk.referee.russian import RussianReferee
from kiosk.referee.variants import variant


class RussianMode(Activity):
    """A game of Russian backgammon by one book's rules (``russian-cady``, ``russian-foster``):
    not recorded, not coached, no cube, no "press Done"."""

    name = "russian"
    kind = Kind.RUSSIAN

    def __init__(self, app: Host, name: str) -> None:
        self.app = app
        self.variant = variant(name)
        self.doublet = 1  # the doublet shown for a deuce-ace choice
        self._referee: RussianReferee | None = None

    @property
    def referee(self) -> RussianReferee:
        """The referee of the Russian game being played."""
        assert self._referee is not None, "the Russian game starts when its mode is entered"
        return self._referee

    def banner(self) -> str:
        return f"{self.variant.title} · the coach is silent: it has no evaluator for this game"

    def take(self) -> None:
        """A new Russian game takes the table: every man to its tray."""
        self.app.say("both", "Russian backgammon: put all fifteen of your men in your tray.")
        self._referee = self.app.core.play_variant(self.variant.name)

    @property
    def choosing(self) -> bool:
        """Whether the caster of a deuce-ace is naming his doublet."""
        turn = self.referee.turn
        return turn is not None and turn.needs_choice

    @property
    def on_roll(self) -> str:
        """Who plays now, or throws next: whose Done button ends a part or throws."""
        turn = self.referee.turn
        playing = turn is not None and not turn.over
        return str(turn.player if playing and turn else self.referee.position.turn)

    def legend(self, player: str) -> Legend:
        if self.choosing:
            return (("menu", "next doublet"), ("select", "choose it"), ("back", "leave"))
        turn = self.referee.turn
        playing = turn is not None and not turn.over
        done = "end this part" if playing else _throw_words(self.app.dice_source)
        if self.referee.over:
            done = "play again"
        elif self.referee.setting_up or player != self.on_roll:
            done = ""
        keys: Legend = (("done", done),) if done else ()
        return (*keys, ("back", "leave Russian backgammon"))

    def card(self) -> Card | None:
        if self._referee is None or not self.choosing:
            return None
        return Card(
            "Deuce-ace: choose your doublet",
            (f"Double {self.doublet}, then double {7 - self.doublet}",),
            0,
            "Menu: next doublet   Select: choose it   Back: leave",
        )

    def press(self, button: str, player: str | None) -> None:
        app, referee = self.app, self.referee
        if button == "back":
            self.leave()  # the game takes the table back
        elif self.choosing and button in ("menu", "up"):
            self.doublet = self.doublet % 6 + 1
        elif self.choosing and button == "select":
            referee.choose_doublet(self.doublet)
        elif button == "done":
            turn = referee.turn
            if referee.over:
                self.stack.announce()
                self.take()  # a new game: every man back to its tray
            elif player is not None and player != self.on_roll:
                return  # not this player's part or throw: the legend shows whose it is
            elif turn is not None and not turn.over:
                app.core.press_done(None)
            elif app.dice_source == "digital":
                app.core.throw(*digital_throw())
            elif app.dice_source == "buttons":
                app.transitions.dice_entry(app.core.throw)


def _throw_words(source: str) -> str:
    return {"digital": "throw the dice", "buttons": "enter your throw"}.get(source, "")
