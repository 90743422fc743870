"""Issue 33's graded destinations and hint budget on the real application drawn headless
(both sensings, the ``harness`` fixture): a lifted man with graded destinations, a budget
used up, "think first" in a game and in a lesson. Each test saves its screenshots (into
``$HINT_SHOTS`` when set, to look at them)."""

from __future__ import annotations

import os
from pathlib import Path

import pygame
import pytest

from kiosk.config import Config, HintBudget
from kiosk.display import Calibration, Display
from kiosk.display.palette import GRADE_COLOURS, TARGET
from kiosk.rules import Colour, Position
from kiosk.tutor.lessons import model
from tests.app.test_issue23_screens import count_colour
from tests.app.test_modes import button, ready, throw


class Screen:
    """The application with a headless screen, its men drawn, the tutor on."""

    def __init__(self, harness, tmp_path: Path, hints: str) -> None:
        self.display = Display(Calibration.default(1280, 720), fullscreen=False, headless=True)
        config = Config()
        config.tutor.evaluator = "builtin"  # quick, and the same grades everywhere
        config.tutor.hints = hints
        self.h = ready(
            harness, config, display=self.display, calibration=self.display.calibration
        )
        self.h.app.tutor = True
        self.h.app.simulator = self.h.sim
        self.out = Path(os.environ.get("HINT_SHOTS") or tmp_path)
        self.out.mkdir(parents=True, exist_ok=True)

    def shot(self, name: str) -> pygame.Surface:
        """Draw the view now and save it; the screenshot as loaded back."""
        self.display.renderer.draw(self.h.app.view.copy(), self.h.now)
        sensing = self.h.sim.layout.sensing
        path = self.display.screenshot(self.out / f"hints-{name}-{sensing}.png")
        return pygame.image.load(path)

    def lift(self, where: str) -> None:
        """Lift a white man and wait until the hints for it are in (the coach's thread)."""
        h = self.h
        h.sim.lift(where, "white")
        h.wait(300)
        coach = h.app.tutoring.coach
        if coach is not None:
            assert coach.wait(30)
        h.wait(100)


@pytest.fixture
def screen(harness, tmp_path: Path):
    return lambda hints: Screen(harness, tmp_path, hints)


def test_a_lifted_man_shows_its_destinations_graded_with_shapes_and_a_legend(screen) -> None:
    s = screen("everything")
    h = s.h
    throw(h, 3, 1)
    s.lift("8")
    hints = h.last("hints")
    assert hints["state"] == "graded" and hints["from"] == "8"
    assert hints["grades"] == {"5": "best", "7": "costly", "4": "costly"}  # 8/5 6/5 is best
    assert s.h.app.view.grades == hints["grades"]
    picture = s.shot("graded")
    board = s.display.renderer.geometry.board
    assert count_colour(picture, GRADE_COLOURS["best"], board) > 100  # the tick's disc
    assert count_colour(picture, GRADE_COLOURS["costly"], board) > 100  # the crosses
    h.sim.place("5", "white")
    h.wait(300)
    s.lift("6")  # the second man of 8/5 6/5: graded from the play made so far
    assert h.last("hints")["grades"]["5"] == "best"
    s.shot("graded-second-man")


def test_a_budget_of_one_graded_lift_then_legal_only_said_hints_used_up(screen) -> None:
    s = screen("budget 1")
    h = s.h
    throw(h, 3, 1)
    s.lift("8")
    assert h.last("hints")["state"] == "graded" and h.last("hints")["left"] == 0
    h.sim.place("8", "white")  # put back: the next lift is past the budget
    h.wait(300)
    s.lift("6")
    assert h.last("hints")["state"] == "used-up"
    view = h.app.view
    assert set(view.targets) == {"5", "3", "2"} and view.grades == {}  # legal only
    assert view.messages["white"].text.startswith("Hints used up this turn")
    picture = s.shot("used-up")
    board = s.display.renderer.geometry.board
    assert count_colour(picture, TARGET, board) > 100  # the plain targets
    assert count_colour(picture, GRADE_COLOURS["best"], board) == 0


def test_think_first_shows_nothing_until_done_and_the_coach_still_rates(screen) -> None:
    s = screen("think")
    h = s.h
    throw(h, 3, 1)
    s.lift("8")
    assert h.last("hints")["state"] == "think"
    view = h.app.view
    assert view.lifted == "8" and view.targets == ()
    assert view.messages["white"].text.startswith("Think first")
    picture = s.shot("think-first")
    board = s.display.renderer.geometry.board
    assert count_colour(picture, TARGET, board) == 0  # no destination drawn
    h.sim.place("5", "white")
    h.wait(300)
    h.sim.move("6", "5", "white")
    h.wait(400)
    button(h, "done", "white")
    assert h.app.tutoring.coach is not None and h.app.tutoring.coach.wait(30)
    h.wait(200)
    assert h.last("coach")["text"] == "Good play: 8/5 6/5."  # the rating after Done as ever


def test_legal_the_default_publishes_no_hints(screen) -> None:
    s = screen("legal")
    h = s.h
    throw(h, 3, 1)
    s.lift("8")
    assert "hints" not in h.kinds() and set(h.app.view.targets) == {"7", "5", "4"}


def test_a_lessons_own_hint_budget_overrides_the_tables(
    screen, monkeypatch: pytest.MonkeyPatch
) -> None:
    read = model.parse_lesson

    def thinking(data, path):  # the opening lesson, as if it said hints = "think"
        return read({**data, "hints": "think"}, path)

    monkeypatch.setattr(model, "parse_lesson", thinking)
    s = screen("everything")
    h = s.h
    h.app.start_lesson("first-moves")
    h.wait(600)
    engine = h.app.lesson
    assert engine is not None and engine.lesson.hints == HintBudget("think")
    for _ in range(12):  # on through the steps to the first play at the table
        if engine.referee is not None and engine.referee.game.dice is not None:
            break
        button(h, "done", "white")
        h.wait(300)
    game = engine.referee.game
    assert game.dice is not None
    position: Position = game.position
    mover = position.turn
    src = next(p for p in range(24, 0, -1) if position.count(mover, p))
    where = str(src) if mover == Colour.WHITE else str(25 - src)
    h.sim.lift(where)
    h.wait(400)
    assert h.last("hints")["state"] == "think"
    assert h.app.view.targets == ()
    s.shot("lesson-think-first")
