"""The game's modes: the game itself (always at the bottom of the stack), the end of a
game, a double on offer, the coach's offer to take a play back, and its offer to take back
a bad double or pass before it stands."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from kiosk.app.dice import digital_throw
from kiosk.app.modes import Activity, Card, Host, Legend, Mode
from kiosk.events import CoachVerdict, Detail, Kind, PositionShown
from kiosk.play import CubeError, TooLate
from kiosk.play.side import REVIEW
from kiosk.rules import Colour, Phase


class GameMode(Activity):
    """Play: Done throws or ends the play of the player on roll, Menu opens the menu,
    Select opens (or closes) the full explanation of the latest message that has one.
    The game is recorded, coached, has the cube and is told to press Done."""

    name = "game"
    recorded = coached = cube = says_done = True

    def __init__(self, app: Host) -> None:
        self.app = app

    def banner(self) -> str:
        return self.app.banner()

    def take(self) -> None:
        """The game takes the table back (after a lesson, a replay or another variant):
        shown where it stands, its men laid out again. A new game has it already."""
        core = self.app.core
        if core.owner.kind is Kind.GAME:
            return
        game = core.game
        self.app.bus.publish(
            PositionShown(
                position=game.position.position_id(), turn=game.turn, dice=game.dice or None
            )
        )
        core.resume_game()

    def legend(self, player: str) -> Legend:
        app = self.app
        keys: list[tuple[str, str]] = []
        done = done_meaning(app, player)
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
            press_done(app, player)
        elif button == "select":
            who = app.detail_player(player)
            if who is not None:
                app.bus.publish(Detail(player=Colour.parse(who)))


class GameEndMode(Mode):
    """A game is over: who won, how and for how many points stay shown until a button."""

    name = "game-end"

    def __init__(self, app: Host) -> None:
        self.app = app

    def legend(self, player: str) -> Legend:
        session = self.app.session
        going_on = session is not None and not session.over
        keys: Legend = (("done", "next game" if going_on else "new game"), ("menu", "menu"))
        if self.app.detail_player() == player:  # the score's lines, the table's review
            shown = self.app.view.show_detail.get(player)
            line = self.app.view.messages.get(player)
            reviewed = line is not None and f"\n{REVIEW}" in f"\n{line.detail}"
            what = ("the review", "your review") if reviewed else ("the explanation", "explanation")
            keys += (("select", f"close {what[0]}" if shown else what[1]),)
        return keys

    def press(self, button: str, player: str | None) -> None:
        if button == "done":
            self.leave()
            self.app.new_game(tutor=self.app.tutor)
        elif button == "menu":
            self.app.open_menu(player)
        elif button == "select":
            who = self.app.detail_player(player)
            if who is not None:
                self.app.bus.publish(Detail(player=Colour.parse(who)))


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
            self.leave()
            self.answer(take=button == "select")
        elif button == "menu":
            self.app.open_menu(player)

    def answer(self, take: bool) -> None:
        """The adversary takes (the cube changes hands) or passes (the game is over); the
        coach rates it, and in a teaching game a bad pass may be taken back first."""
        app = self.app
        verdict = app.tutoring.rate_cube("take" if take else "pass", self.taker)
        if not take and verdict is not None and verdict["take_back"]:
            rethink = CubeRethinkMode(app, verdict, lambda: self._answer(False), self._again)
            app.transitions.rethink(rethink)
            return
        self._answer(take)
        if verdict is not None:
            app.bus.publish(CoachVerdict(data=verdict))

    def _answer(self, take: bool) -> None:
        try:
            self.app.core.cube.answer(take)
        except CubeError as err:
            self.app.say("both", f"{str(err).capitalize()}.")

    def _again(self) -> None:
        """The pass taken back: the double is on offer again."""
        self.app.transitions.double_offered(self.taker)


class CubeRethinkMode(Mode):
    """The coach offers to take back a bad double or pass before it stands (a teaching
    game): Back takes it back; Select (or Done) lets it stand. The verdict shows on the
    player's line and a card asks him."""

    name = "cube-rethink"

    def __init__(
        self,
        app: Host,
        verdict: Mapping[str, Any],
        stand: Callable[[], None],
        taken_back: Callable[[], None] = lambda: None,
    ) -> None:
        self.app = app
        self.verdict = verdict
        self.player = str(verdict["to"])
        self.decision = str(verdict["cube"])
        self.stand = stand
        self.taken_back = taken_back

    def entered(self) -> None:
        self.app.bus.publish(CoachVerdict(data=self.verdict))

    def legend(self, player: str) -> Legend:
        if player != self.player:
            return ()
        return (
            ("back", f"take the {self.decision} back"),
            ("select", f"{self.decision} all the same"),
        )

    def card(self) -> Card:
        words = str(self.verdict["text"]).split(" (it costs")[0]
        return Card(
            f"The coach: {words}",
            (
                f"Back: take the {self.decision} back and think again",
                f"Select: {self.decision} all the same",
            ),
            -1,
            "Back: take it back   Select: let it stand",
            self.player,
        )

    def press(self, button: str, player: str | None) -> None:
        if player not in (None, self.player) or button not in ("back", "select", "done"):
            return
        self.leave()
        if button == "back":
            self.app.bus.publish(
                CoachVerdict(
                    data={
                        **self.verdict,
                        "text": f"{self.decision.capitalize()} taken back: think again.",
                        "take_back": False,
                    }
                )
            )
            self.taken_back()
        else:
            self.stand()


class TakeBackOfferMode(Mode):
    """The coach offers to take a bad play back: Back takes it back while this is on
    screen; Menu lets the offer lapse and opens the menu; Select (reading why) and Done do
    what they do in the game and the offer stays until the game goes on."""

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
        below = self.stack.below(self)
        if button in ("select", "done") and below is not None:
            below.press(button, player)  # the game going on makes the offer lapse
            return
        self.leave()
        if button == "back":
            self.take_back()
        else:
            self.stack.press(button, player)

    def take_back(self) -> None:
        """The game as it was before the play, the same dice to play again."""
        app, offer = self.app, self.offer
        try:
            turn = app.core.take_back(offer.turn or 0)
        except TooLate as err:
            app.say(offer.to, str(err))
            return
        mover, (d1, d2) = str(turn.colour), turn.dice
        app.bus.publish(
            PositionShown(
                position=turn.before.position_id(),
                turn=turn.colour,
                dice=turn.dice,
                text=f"{mover.capitalize()} takes back {turn.play or 'the play'}: put the "
                f"men back as shown, then play {d1}-{d2} again.",
            )
        )


def done_meaning(app: Host, player: str) -> str:
    """What ``player``'s Done button does in the game now ("" for nothing)."""
    core = app.core
    if core.setting_up:
        return ""
    side = core.side
    if side is not None and player == str(side.colour):
        return ""  # the table's own side: nobody sits there, and its turn ends by itself
    game = core.game
    if game.phase == Phase.OVER:
        return "new game"
    if game.phase == Phase.PLAY:
        return "end your turn" if player == str(game.turn) else ""
    if game.phase == Phase.ROLL and player != str(game.turn):
        if _throws_for_the_table(app, player) and app.dice_source in ("digital", "buttons"):
            return "throw for the table"
        return ""
    if game.phase in (Phase.OPENING, Phase.OPENING_OPTION, Phase.ROLL):
        return {"digital": "throw the dice", "buttons": "enter your throw"}.get(app.dice_source, "")
    return ""


def press_done(app: Host, player: str | None) -> None:
    """Done in the game: throw (digital or button dice), finish the play, or start again."""
    core = app.core
    game = core.game
    if game.phase == Phase.OVER:
        app.new_game(tutor=app.tutor)
        return
    if core.setting_up:
        app.say("both", "Lay the men out as shown first.")
        return
    if game.phase == Phase.DOUBLE_OFFERED:
        app.say(str(game.turn.other), "Answer the double first: Select takes it, Back passes.")
        return
    who = Colour.parse(player) if player else None
    if game.phase in (Phase.OPENING, Phase.OPENING_OPTION, Phase.ROLL):
        if game.phase == Phase.ROLL and who is not None and who != game.turn:
            if not _throws_for_the_table(app, str(who)):
                return  # not this player's throw: the legend shows whose it is
        if core.holding:
            app.say("both", "The table is deciding whether to double: a moment.")
        elif app.dice_source == "digital":
            core.throw(*digital_throw())
        elif app.dice_source == "buttons":
            app.transitions.dice_entry(core.throw)
        else:
            app.say("both", "Throw both dice into the dice wells.")
    elif game.phase == Phase.PLAY:
        if who is not None and who != game.turn and not _throws_for_the_table(app, str(who)):
            # said on the presser's own line: the mover's line keeps what it asks of him
            app.say(str(who), f"It is {game.turn}'s turn: {game.turn} presses Done.")
            return
        core.press_done(who)


def _throws_for_the_table(app: Host, player: str | None) -> bool:
    """Whether ``player`` is the visitor, throwing for the table on its turn."""
    side = app.core.side
    return (
        side is not None and app.core.game.turn == side.colour and player == str(side.colour.other)
    )


def may_double(app: Host) -> bool:
    """Whether the player on roll may offer a double now."""
    side = app.core.side
    return (
        app.modes.activity.cube
        and app.core.cube.may_double
        and (side is None or app.core.game.turn != side.colour)
    )


def double(app: Host) -> None:
    """The player on roll offers a double (from the menu); the coach rates it, and in a
    teaching game a bad double may be taken back before the adversary is asked."""
    if not may_double(app):
        app.say("both", "A double cannot be offered now.")
        return
    verdict = app.tutoring.rate_cube("double", str(app.core.game.turn))
    if verdict is not None and verdict["take_back"]:
        app.transitions.rethink(CubeRethinkMode(app, verdict, lambda: _double(app)))
        return
    _double(app)
    if verdict is not None:
        app.bus.publish(CoachVerdict(data=verdict))


def _double(app: Host) -> None:
    try:
        app.core.cube.double()
    except CubeError as err:
        app.say("both", f"{str(err).capitalize()}.")
