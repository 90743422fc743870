"""Russian backgammon at the table: its own referee takes the board while the game waits.

Every man starts in its tray; Done ends each part of a throw (or throws digital dice);
after Cady's deuce-ace the caster picks the doublet with Menu (next) and Select; Back
leaves the Russian game and the standard game is laid out again. The coach is silent: it
has no evaluator for this game, and the banner says so. Russian games are not stored.
"""

from __future__ import annotations

from kiosk.app.dice import digital_throw
from kiosk.app.modes import Card, Host, Legend, Mode
from kiosk.events import ModeChanged
from kiosk.referee.referee import RefereeConfig
from kiosk.referee.russian import RussianReferee
from kiosk.rules.russian import RussianPosition, get_russian_profile


class RussianMode(Mode):
    """A game of Russian backgammon by one book's rules (``russian-cady``, ``russian-foster``)."""

    name = "russian"

    def __init__(self, app: Host, variant: str) -> None:
        self.app = app
        self.profile = get_russian_profile(variant)
        config = RefereeConfig(
            settle_ms=app.config.referee.settle_ms, dice_rest_ms=app.config.referee.dice_rest_ms
        )
        self.referee = RussianReferee(self.profile, app.layout, config, emit=app.bus.publish)
        self.doublet = 1  # the doublet shown for a deuce-ace choice

    def entered(self) -> None:
        book = self.profile.title.split(",")[0]
        self.app.bus.publish(
            ModeChanged(
                mode="russian",
                banner=f"Russian backgammon ({book}) · the coach is silent: it has no "
                "evaluator for this game",
            )
        )
        self.app.say("both", "Russian backgammon: put all fifteen of your men in your tray.")
        self.referee.set_up(RussianPosition.start())
        simulator = self.app.simulator
        if simulator is not None:  # the simulated table lays the men out itself
            simulator.set_position({"off-white": ("white", 15), "off-black": ("black", 15)})

    @property
    def choosing(self) -> bool:
        """Whether the caster of a deuce-ace is naming his doublet."""
        turn = self.referee.turn
        return turn is not None and turn.needs_choice

    def legend(self, player: str) -> Legend:
        if self.choosing:
            return (("menu", "next doublet"), ("select", "choose it"), ("back", "leave"))
        turn = self.referee.turn
        playing = turn is not None and not turn.over
        done = "end this part" if playing else _throw_words(self.app.dice_source)
        if self.referee.over:
            done = "play again"
        elif self.referee.setting_up:
            done = ""
        keys: Legend = (("done", done),) if done else ()
        return (*keys, ("back", "leave Russian backgammon"))

    def card(self) -> Card | None:
        if not self.choosing:
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
            self.leave()
            app.restore_game()
        elif self.choosing and button in ("menu", "up"):
            self.doublet = self.doublet % 6 + 1
        elif self.choosing and button == "select":
            referee.choose_doublet(self.doublet)
        elif button == "done":
            turn = referee.turn
            if referee.over:
                self.entered()  # a new game: every man back to its tray
            elif turn is not None and not turn.over:
                referee.press_done(None, app.now)
            elif app.dice_source == "digital":
                referee.throw(*digital_throw())
            elif app.dice_source == "buttons":
                app.transitions.dice_entry(referee.throw)

    def tick(self, now: int) -> None:
        """The table's board and dice to the Russian referee, and time."""
        app = self.app
        if app.sensed is not None:
            self.referee.board(app.sensed, now)
        if app.wells is not None and app.dice_source == "wells":
            self.referee.dice(app.wells, now)
        self.referee.tick(now)


def _throw_words(source: str) -> str:
    return {"digital": "throw the dice", "buttons": "enter your throw"}.get(source, "")
