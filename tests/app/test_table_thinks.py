"""The table's own side thinks off the loop: the picture keeps being drawn (with a sign that
the table is thinking) while it chooses, and its cube is decided at the start of its turn,
before anybody throws for it."""

from __future__ import annotations

import threading
import time

import pytest

import kiosk.app.main
from kiosk.display.prompts import Text
from kiosk.rules import Colour, Phase
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.opponent import CubeVerdict, Opponent
from tests.app.test_modes import button, ready, throw


class Hesitant(Opponent):
    """The table's player, held back from answering until ``go`` is set."""

    go = threading.Event()
    doubles = False

    def choose(self, position, dice):
        assert Hesitant.go.wait(30), "the test never let the table answer"
        return super().choose(position, dice)

    def cube_action(self, position, cube=None):
        if Hesitant.doubles:
            return CubeVerdict("double", 0.9, "test")
        return super().cube_action(position, cube)


@pytest.fixture
def hesitant(monkeypatch: pytest.MonkeyPatch):
    Hesitant.go.clear()
    Hesitant.doubles = False

    def make(level, evaluator=None, profile=None):
        return Hesitant(level, evaluator=BuiltinEvaluator(), seed=3, profile=profile)

    monkeypatch.setattr(kiosk.app.main, "Opponent", make)
    yield Hesitant
    Hesitant.go.set()


def _to_the_tables_throw(h) -> None:
    h.app.play_the_table(Colour.BLACK, "beginner")
    h.wait(400)
    throw(h, 3, 1)  # white, the visitor, wins the opening throw
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")


def test_the_picture_keeps_moving_while_the_table_thinks(harness, hesitant) -> None:
    h = ready(harness)
    _to_the_tables_throw(h)
    h.settle = False  # the loop as it runs at the table: it never waits for the table
    throw(h, 6, 5)  # the visitor throws for the table, which now thinks (and is held)
    assert h.app.core.side.thinking == "play"
    steps = 0
    for _ in range(25):  # the loop goes on turning while the table cannot answer
        h.wait(40)
        steps += 1
    assert h.app.view.busy == "The table is thinking..."
    assert h.app.view.animated()  # the spinner: the picture is redrawn each frame
    assert not [e for e in h.events if e["event"] == "opponent-play"]
    hesitant.go.set()
    deadline = time.monotonic() + 30
    while not [e for e in h.events if e["event"] == "opponent-play"]:
        assert time.monotonic() < deadline, "the table never showed its play"
        h.wait(40)
    assert h.app.view.busy == "" and steps == 25
    assert h.last("opponent-play")["dice"] == [6, 5]


def test_the_table_doubles_before_its_throw(harness, hesitant) -> None:
    hesitant.go.set()
    hesitant.doubles = True
    h = ready(harness)
    _to_the_tables_throw(h)
    # at the start of its turn, before the visitor throws for it, the table doubles
    cube = h.last("cube")
    assert (cube["action"], cube["player"], cube["cube"]) == ("double", "black", [1, None])
    assert h.app.core.game.phase == Phase.DOUBLE_OFFERED
    assert "take the double" in dict(h.app.view.legend["white"]).values()
    offer = h.app.view.messages["white"].text  # the visitor's own line asks him
    assert offer == "The table doubles to 2. Select: take, Back: pass."
    assert h.app.view.prompts.held["black"] == {"own": Text("I double.")}
    throw(h, 6, 5)  # dice thrown before the answer are no throw
    assert h.last("cube")["action"] == "double" and h.kinds().count("dice") == 0
    button(h, "select", "white")  # the visitor takes
    assert (h.last("cube")["action"], h.last("cube")["cube"]) == ("take", [2, "white"])
    throw(h, 6, 5)
    assert h.last("dice")["player"] == "black"
    assert h.last("opponent-play")["dice"] == [6, 5]


class Ranks(BuiltinEvaluator):
    """The built-in evaluator, noting each throw it ranks and when."""

    def __init__(self) -> None:
        super().__init__()
        self.ranked: list[tuple[int, int]] = []

    def evaluate_plays(self, position, d1, d2, keep=None, profile=None):
        self.ranked.append((d1, d2))
        return super().evaluate_plays(position, d1, d2, keep, profile)


def test_the_table_ranks_its_plays_while_its_dice_are_thrown(harness, monkeypatch) -> None:
    evaluator = Ranks()

    def make(level, evaluator_=None, profile=None):
        return Opponent(level, evaluator=evaluator, seed=3, profile=profile)

    monkeypatch.setattr(kiosk.app.main, "Opponent", make)
    h = ready(harness)
    _to_the_tables_throw(h)
    deadline = time.monotonic() + 30
    while len(evaluator.ranked) < 36:  # every throw, before anybody throws for the table
        assert time.monotonic() < deadline, f"ranked ahead: {evaluator.ranked}"
        time.sleep(0.02)  # the engine ranks on its own; the table's clock (and the idle
        # attract screen, which puts an unattended game away) does not run on meanwhile
    game = h.app.core.game
    assert (game.phase, game.turn) == (Phase.ROLL, Colour.BLACK)  # its dice not thrown yet
    throw(h, 6, 5)
    assert h.last("opponent-play")["dice"] == [6, 5]
    assert len(evaluator.ranked) == 36  # its play found ranked: nothing asked after the throw
