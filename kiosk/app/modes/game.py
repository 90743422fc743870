"""The game's modes: the game itself (always at the bottom of the stack), the end of a
game, a double on offer and the coach's offer to take a play back."""

from __future__ import annotations

from kiosk.app.dice import digital_throw
from kiosk.app.modes import Host, Legend, Mode
from kiosk.events import CoachVerdict, CubeMoved, Detail, GameOver, PositionShown, TakeBack
from kiosk.rules import Colour, CubeAction, Game, Phase


class GameMode(Mode):
    """Play: Done throws or ends the play of the player on roll, Menu opens the menu,
    Select opens (or closes) the full explanation of the latest message that has one."""

    name = "game"

    def __init__(self, app: Host) -> None:
        self.app = app

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
                app.bus.publish(Detail(player=who))


class GameEndMode(Mode):
    """A game is over: who won, how and for how many points stay shown until a button."""

    name = "game-end"

    def __init__(self, app: Host) -> None:
        self.app = app

    def legend(self, player: str) -> Legend:
        session = self.app.session
        going_on = session is not None and not session.over
        return (("done", "next game" if going_on else "new game"), ("menu", "menu"))

    def press(self, button: str, player: str | None) -> None:
        if button == "done":
            self.leave()
            self.app.new_game(tutor=self.app.tutor)
        elif button == "menu":
            self.app.open_menu(player)


def cube_json(game: Game) -> tuple[int, str | None]:
    """The cube as events carry it: (value, owner or None)."""
    owner = game.cube.owner
    return (game.cube.value, None if owner is None else str(owner))


def offer_double(app: Host, made: bool = False) -> None:
    """The player on roll doubles (``made``: now, from the menu; else the double was already
    on offer, as in a game resumed): the adversary is asked to take or pass."""
    assert app.referee is not None
    game = app.referee.game
    if made:
        game.double()
        app.bus.publish(CubeMoved(action="double", player=game.turn, cube=cube_json(game)))
    taker = str(game.turn.other)
    stake = 2 * game.cube.value
    app.say(taker, f"{str(game.turn).capitalize()} doubles to {stake}. Select: take, Back: pass.")
    app.transitions.double_offered(taker)


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
        """The adversary takes (the cube changes hands) or passes (the game is over)."""
        app = self.app
        assert app.referee is not None
        game = app.referee.game
        doubler, taker = game.turn, game.turn.other
        if app.session is not None:  # a chouette settles a double at once
            app.session.cube_answered(doubler, take)
        if take:
            game.take()
            app.bus.publish(CubeMoved(action="take", player=taker, cube=cube_json(game)))
            app.say(
                "both",
                f"{str(taker).capitalize()} takes: the cube is at "
                f"{game.cube.value}. {str(doubler).capitalize()}, throw the dice.",
            )
            return
        game.pass_()
        app.bus.publish(CubeMoved(action="pass", player=taker, cube=cube_json(game)))
        app.bus.publish(
            GameOver(winner=doubler, result="single", points=game.cube.value, passed=True)
        )


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
        self.leave()
        if button == "back":
            self.take_back()
        else:
            self.stack.press(button, player)

    def take_back(self) -> None:
        """The game as it was before the play, the same dice to play again."""
        app, offer = self.app, self.offer
        assert app.referee is not None
        game = app.referee.game
        if app.setting_up or game.phase != Phase.ROLL or len(game.turns) != offer.turn:
            app.say(offer.to, "Too late to take that play back: the game has gone on.")
            return
        turn = game.take_back()
        mover, (d1, d2) = str(turn.colour), turn.dice
        before = turn.before.position_id()
        app.bus.publish(
            TakeBack(
                player=turn.colour,
                dice=turn.dice,
                move=str(turn.play),
                position=before,
                number=offer.turn,
            )
        )
        app.bus.publish(
            PositionShown(
                position=before,
                turn=turn.colour,
                dice=turn.dice,
                text=f"{mover.capitalize()} takes back {turn.play or 'the play'}: put the "
                f"men back as shown, then play {d1}-{d2} again.",
            )
        )
        app.set_up(turn.before, restoring=True)


def done_meaning(app: Host, player: str) -> str:
    """What ``player``'s Done button does in the game now ("" for nothing)."""
    referee = app.referee
    if referee is None or app.setting_up:
        return ""
    if app.table_player is not None and player == str(app.table_player.colour):
        return ""  # the table's own side: nobody sits there, and its turn ends by itself
    game = referee.game
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
    referee = app.referee
    if referee is None:
        return
    game = referee.game
    if game.phase == Phase.OVER:
        app.new_game(tutor=app.tutor)
        return
    if app.setting_up:
        app.say("both", "Lay the men out as shown first.")
        return
    if game.phase == Phase.DOUBLE_OFFERED:
        offer_double(app)
        return
    who = Colour.parse(player) if player else None
    if game.phase in (Phase.OPENING, Phase.OPENING_OPTION, Phase.ROLL):
        if game.phase == Phase.ROLL and who is not None and who != game.turn:
            if not _throws_for_the_table(app, str(who)):
                return  # not this player's throw: the legend shows whose it is
        if app.dice_source == "digital":
            referee.throw(*digital_throw(), app.now)
        elif app.dice_source == "buttons":
            app.transitions.dice_entry(lambda d1, d2: referee.throw(d1, d2, app.now))
        else:
            app.say("both", "Throw both dice into the dice wells.")
    elif game.phase == Phase.PLAY:
        referee.press_done(who, app.now)


def _throws_for_the_table(app: Host, player: str | None) -> bool:
    """Whether ``player`` is the visitor, throwing for the table on its turn."""
    table = app.table_player
    referee = app.referee
    return (
        table is not None
        and referee is not None
        and referee.game.turn == table.colour
        and player == str(table.colour.other)
    )


def may_double(app: Host) -> bool:
    """Whether the player on roll may offer a double now."""
    return (
        app.referee is not None
        and app.lesson is None
        and app.replay is None
        and not app.setting_up
        and CubeAction.DOUBLE in app.referee.game.legal_cube_actions()
    )


def double(app: Host) -> None:
    """The player on roll offers a double (from the menu)."""
    if not may_double(app):
        app.say("both", "A double cannot be offered now.")
        return
    offer_double(app, made=True)
