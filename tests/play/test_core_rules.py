"""The rules of play through the game core alone: a :class:`~kiosk.play.GameCore` is handed
:class:`~kiosk.table.TableReading`s as the link would hand them, with no simulated table,
pty or firmware (those are the scenario tests' concern, ``tests/referee``): a turn costs
milliseconds here.

:class:`Hands` keeps the men on a table as ``(white, black)`` counts at each location and
hands the core a settled reading after every change, as a table that senses colour
(``polarity``) or only where men stand (``occupancy``, the hardware as designed) reads it.
"""

from __future__ import annotations

import pytest

from kiosk.events import Event
from kiosk.play import CoreSettings, GameCore
from kiosk.referee import RefereeConfig
from kiosk.rules import BAR, BLACK, OFF, WHITE, Colour, CubeAction, Phase, Position
from kiosk.table import TableLayout, TableReading, location, project
from kiosk.table.sensing import Sensed

SETTLE_MS = 300


class Hands:
    """Men moved by hand on a table read by ``core``; ``events`` holds what it published."""

    def __init__(self, sensing: str) -> None:
        self.sensing = sensing
        self.events: list[Event] = []
        settings = CoreSettings(referee=RefereeConfig(settle_ms=SETTLE_MS), dice_source="digital")
        self.core = GameCore(TableLayout(), self.events.append, settings)
        self.board: Sensed = {}
        self.now = 0

    def set_up(self, position: Position) -> None:
        """A new game from ``position``, its men laid out and judged."""
        self.core.new_game(position)
        self.board = dict(project(position, self.core.layout))
        self.settle()

    def settle(self) -> None:
        """The table is read, and stays still long enough to be judged."""
        self.core.sense(TableReading.of(self.board, self.sensing), self.now)
        self.now += SETTLE_MS + 10
        self.core.tick(self.now)

    def move(self, colour: Colour, src: int, dst: int) -> None:
        """One of ``colour``'s men from ``src`` to ``dst`` (its own numbering; BAR, OFF)."""
        side = 0 if colour == WHITE else 1
        for where, change in ((location(colour, src), -1), (location(colour, dst), +1)):
            counts = list(self.board.get(where, (0, 0)))
            counts[side] += change
            assert counts[side] >= 0, f"no {colour} man at {where}"
            self.board[where] = (counts[0], counts[1])
        self.settle()

    def names(self) -> list[str]:
        return [e.name for e in self.events]

    def last(self, name: str) -> Event:
        return [e for e in self.events if e.name == name][-1]


@pytest.fixture(params=["polarity", "occupancy"])
def hands(request: pytest.FixtureRequest) -> Hands:
    return Hands(request.param)


def _on_roll(hands: Hands, position: Position, d1: int, d2: int) -> None:
    hands.set_up(position)
    hands.core.skip_opening(position.turn)
    hands.core.throw(d1, d2)


def test_a_turn_played_and_done(hands: Hands) -> None:
    _on_roll(hands, Position.standard(WHITE), 3, 1)
    hands.move(WHITE, 8, 5)
    hands.move(WHITE, 6, 5)
    hands.core.press_done(WHITE)
    play = hands.last("play")
    assert play.to_json()["move"] == "8/5 6/5"
    assert hands.core.game.turn == BLACK and hands.core.game.phase == Phase.ROLL
    assert "illegal" not in hands.names()


def test_a_hit_goes_to_the_bar_and_enters(hands: Hands) -> None:
    # white's 4-1: 24/20* hits black's blot on white's 20 point
    position = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5, 20: -1, 19: -5, 12: -5, 1: -4})
    _on_roll(hands, position, 4, 1)
    hands.move(WHITE, 24, 20)
    hands.move(BLACK, 5, BAR)  # white's 20 is black's 5: the hit man to black's bar
    hands.move(WHITE, 24, 23)
    hands.core.press_done(WHITE)
    assert hands.last("play").to_json()["move"] == "24/23 24/20*"
    game = hands.core.game
    assert game.position.count(BLACK, BAR) == 1
    # black's 5-3: the man on the bar enters first (the 3, on white's empty 3 point)
    hands.core.throw(5, 3)
    hands.move(BLACK, 13, 8)  # not before the man on the bar has entered
    assert hands.last("illegal").to_json()["reason"] == "bar-first"
    hands.move(BLACK, 8, 13)
    hands.move(BLACK, BAR, 22)
    hands.move(BLACK, 13, 8)  # and now it may
    hands.core.press_done(BLACK)
    assert hands.last("play").to_json()["move"] == "bar/22 13/8"
    assert game.position.count(BLACK, BAR) == 0 and game.turn == WHITE


def test_an_illegal_placement_is_flagged_then_put_right(hands: Hands) -> None:
    _on_roll(hands, Position.standard(WHITE), 5, 2)
    hands.move(WHITE, 13, 7)  # neither a 5 nor a 2
    illegal = hands.last("illegal").to_json()
    assert illegal["reason"] == "wrong-distance" and illegal["table"] == "7"
    hands.core.press_done(WHITE)
    assert "play" not in hands.names()  # Done on a wrong board plays nothing
    hands.move(WHITE, 7, 13)
    assert hands.names()[-1] == "legal"
    hands.move(WHITE, 13, 8)
    hands.move(WHITE, 13, 11)
    hands.core.press_done(WHITE)
    assert hands.last("play").to_json()["move"] == "13/11 13/8"


def test_a_double_taken_and_a_man_moved_before_the_answer(hands: Hands) -> None:
    hands.set_up(Position.standard(WHITE))
    hands.core.skip_opening(WHITE)
    hands.core.cube.double()
    assert hands.core.game.legal_cube_actions() == [CubeAction.TAKE, CubeAction.PASS]
    hands.move(WHITE, 13, 10)  # nothing moves while a double waits
    illegal = hands.last("illegal").to_json()
    assert illegal["reason"] == "answer-the-double"
    assert illegal["message"].startswith("White has doubled: black takes or passes")
    hands.move(WHITE, 10, 13)
    hands.core.cube.answer(True)
    cubes = [e.to_json() for e in hands.events if e.name == "cube"]
    assert [(c["action"], c["player"]) for c in cubes] == [("double", "white"), ("take", "black")]
    assert hands.core.game.cube.value == 2 and hands.core.game.phase == Phase.ROLL
    hands.core.throw(6, 5)
    hands.move(WHITE, 24, 18)
    hands.move(WHITE, 18, 13)
    hands.core.press_done(WHITE)
    assert hands.last("play").to_json()["move"] == "24/13"


def test_bearing_off_ends_the_game(hands: Hands) -> None:
    position = Position.from_points({1: 1, 2: 1, 24: -1})
    _on_roll(hands, position, 2, 1)
    hands.move(WHITE, 2, OFF)
    hands.move(WHITE, 1, OFF)
    hands.core.press_done(WHITE)
    over = hands.last("game-over").to_json()
    assert over["winner"] == "white" and hands.core.game.phase == Phase.OVER
