"""Playing against the table: the table's own side, whose men the visitor moves for it.

On the table's turn the visitor throws for it (the dice wells) or presses Done (digital or
button dice); the table then shows its play (arrows from each man to its destination and
"I play 13/7 8/7", spoken too) and the referee expects that play (its men in any order,
any other placement ``not-the-tables-move``; the turn ends by itself once the men stand
as shown). Before its throw the table doubles when its evaluation says so (the visitor
takes with Select or passes with Back), and it answers the visitor's doubles at once. At
the end of the game it shows the visitor's three worst plays with the better ones.

A game against the table is stored with the table named as a player, ``Table
(intermediate)``: that name is how a game resumed after a restart knows its opponent,
and how the exported ``.mat`` file names it.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from kiosk.app.modes.game import DoubleOfferMode, offer_double
from kiosk.events import (
    CubeMoved,
    Dice,
    Event,
    GameOver,
    Message,
    Opening,
    OpponentPlayShown,
    SetupOk,
)
from kiosk.rules import Colour, CubeAction, GameError, Phase
from kiosk.table import location
from kiosk.tutor.opponent import LEVELS, Opponent, review

if TYPE_CHECKING:
    from kiosk.app.modes import Host

log = logging.getLogger(__name__)

DEFAULT_LEVEL = "intermediate"  # a friendly level: it slips now and then


def table_name(level: str) -> str:
    """The table as a player's name in the store and the ``.mat`` file.

    >>> table_name("expert"), level_of(table_name("expert"))
    ('Table (expert)', 'expert')
    """
    return f"Table ({level})"


def level_of(name: str) -> str | None:
    """The level of a player named by :func:`table_name`; None for a person."""
    for level in LEVELS:
        if name == table_name(level):
            return level
    return None


class TablePlayer:
    """The table's side in one game: it follows the events and plays its turns."""

    def __init__(self, app: Host, colour: Colour, level: str = DEFAULT_LEVEL) -> None:
        self.app = app
        self.colour = colour
        self.level = level
        self.opponent = Opponent(level, profile=app.config.rules.profile)
        self._cube_asked: int | None = None  # the turn it last thought of doubling

    @property
    def players(self) -> tuple[str, str]:
        """White's and black's names for the store."""
        me, visitor = table_name(self.level), "visitor"
        return (me, visitor) if self.colour == Colour.WHITE else (visitor, me)

    def follow(self, event: Event) -> None:
        """An event of the table: the table's turn, a double to answer, the game's end."""
        referee = self.app.referee
        if referee is None or self.app.lesson is not None or self.app.replay is not None:
            return
        game = referee.game
        match event:
            case Dice(player=player) | Opening(starter=player) if (
                player == self.colour and game.phase == Phase.PLAY
            ):
                self.show_play()  # its throw, or the opening throw it won
            case SetupOk() if game.phase == Phase.PLAY and game.turn == self.colour:
                self.show_play()  # a game resumed in the middle of the table's turn
            case CubeMoved(action="double", player=player) if player != self.colour:
                verdict = self.opponent.answer_double(game.position, game.cube)
                self.app.say("both", verdict.text)
                mode = self.app.modes.find(DoubleOfferMode)
                if isinstance(mode, DoubleOfferMode):
                    mode.leave()
                    mode.answer(take=verdict.action == "take")
            case GameOver():
                self.show_review()
        self.consider_double()

    def show_play(self) -> None:
        """The table's play of the dice thrown: shown, said, and expected by the referee."""
        referee = self.app.referee
        assert referee is not None
        game = referee.game
        assert game.dice is not None
        chosen = self.opponent.choose(game.position, game.dice)
        play = chosen.play
        if not play.steps:
            return  # no legal move: the referee passes the turn by itself
        try:
            referee.expect(play)
        except GameError as err:  # a play already under way that is not the table's
            log.warning("the table's play cannot be expected: %s", err)
            return
        arrows = tuple(
            (location(self.colour, s.src), location(self.colour, s.dst)) for s in play.steps
        )
        self.app.bus.publish(
            OpponentPlayShown(
                player=self.colour,
                dice=game.dice,
                move=str(play),
                position=play.result.position_id(),
                arrows=arrows,
                text=f"{chosen.text} Move my men as the arrows show.",
            )
        )

    def consider_double(self) -> None:
        """Before its throw, once a turn: the table doubles when its evaluation says so."""
        app = self.app
        referee = app.referee
        if referee is None or app.setting_up:
            return
        game = referee.game
        if game.phase != Phase.ROLL or game.turn != self.colour:
            return
        if (
            self._cube_asked == len(game.turns)
            or CubeAction.DOUBLE not in game.legal_cube_actions()
        ):
            return
        self._cube_asked = len(game.turns)
        verdict = self.opponent.cube_action(game.position, game.cube)
        if verdict.action == "double":
            offer_double(app, made=True)
            app.say(str(self.colour), verdict.text)

    def show_review(self) -> None:
        """The visitor's three worst plays of the game, with the better play, in words."""
        referee = self.app.referee
        if referee is None:
            return
        visitor = self.colour.other
        turns = [(t.before, t.dice, t.play) for t in referee.game.turns if t.colour == visitor]
        try:
            items = review(turns, evaluator=self.opponent.evaluator, profile=self.opponent.profile)
        except Exception as err:  # the review is a courtesy: never the game's end
            log.warning("no review: %s", err)
            return
        if not items:
            text = "Review: none of your plays gave anything away. Well played!"
        else:
            parts = [
                f"with {i.dice[0]}-{i.dice[1]} you played {i.play}, better {i.best}" for i in items
            ]
            text = "Review, your costliest plays: " + "; ".join(parts) + "."
        self.app.bus.publish(Message(to=str(visitor), text=text))
