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
from kiosk.display.wording import HINTS_USED_UP_NOTE, THINK_FIRST_NOTE
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
        self.h = ready(harness, config, display=self.display, calibration=self.display.calibration)
        self.h.app.simulator = self.h.sim
        self.h.app.play_friends(tutor=True)  # two friends, the tutor watching
        self.h.wait(600)
        assert self.h.app.tutor and self.h.kinds().count("setup-ok") == 2
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
    board = s.display.renderer.geometry.board
    throw(h, 3, 2)  # white starts with 3-2: 13/10 13/11 is the best play
    s.lift("13")
    hints = h.last("hints")
    assert hints["state"] == "graded" and hints["from"] == "13" and "left" not in hints
    assert hints["grades"] == {"10": "best", "11": "best", "8": "fair"}
    assert h.app.view.grades == hints["grades"]
    picture = s.shot("graded-13")
    assert count_colour(picture, GRADE_COLOURS["best"], board) > 100  # the discs with ticks
    assert count_colour(picture, GRADE_COLOURS["fair"], board) > 100  # the diamond
    h.sim.place("13", "white")
    h.wait(300)
    s.lift("8")
    assert h.last("hints")["grades"] == {"5": "fair", "6": "fair", "3": "costly"}
    picture = s.shot("graded-8")
    assert count_colour(picture, GRADE_COLOURS["costly"], board) > 100  # the cross
    h.sim.place("8", "white")
    h.wait(300)
    s.lift("13")
    h.sim.place("10", "white")
    h.wait(300)
    s.lift("13")  # the second man of 13/10 13/11: graded from the play made so far
    assert h.last("hints")["grades"] == {"11": "best"}
    s.shot("graded-second-man")


def test_a_budget_of_one_graded_lift_then_legal_only_said_hints_used_up(screen) -> None:
    s = screen("budget 1")
    h = s.h
    throw(h, 3, 1)
    s.lift("8")
    assert h.last("hints")["state"] == "graded" and h.last("hints")["left"] == 0
    s.shot("budget-last-graded")
    h.sim.place("8", "white")  # put back: the next lift is past the budget
    h.wait(300)
    s.lift("6")
    assert h.last("hints")["state"] == "used-up"
    view = h.app.view
    assert set(view.targets) == {"5", "3", "2"} and view.grades == {}  # legal only
    assert view.messages["white"].text.startswith("Hints used up this turn")
    assert view.hint_note == HINTS_USED_UP_NOTE
    picture = s.shot("used-up")
    board = s.display.renderer.geometry.board
    assert count_colour(picture, TARGET, board) > 100  # the plain targets


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

    def thinking(data, path):  # the lesson on moving, as if it said hints = "think"
        return read({**data, "hints": "think"}, path)

    monkeypatch.setattr(model, "parse_lesson", thinking)
    s = screen("everything")
    h = s.h
    h.app.start_lesson("moving")
    h.wait(600)
    engine = h.app.lesson
    assert engine is not None and engine.lesson.hints == HintBudget("think")
    for _ in range(6):  # on through the steps to its first play at the table (5-2)
        if engine.referee is not None and engine.referee.game.dice is not None:
            break
        button(h, "done", "white")
        h.wait(400)
    assert engine.referee is not None and engine.referee.game.dice is not None
    h.sim.lift("13", "white")
    h.wait(400)
    assert h.last("hints")["state"] == "think"
    view = h.app.view
    assert view.lifted == "13" and view.targets == ()
    assert view.hint_note == THINK_FIRST_NOTE  # on the board: the lesson's text holds the line
    s.shot("lesson-think-first")


def test_a_learners_own_hint_budget_comes_between_the_lessons_and_the_tables(
    screen, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The learner sets his own hints in the main menu; they are kept in the records
    (a real SQLite file) and win over the table's, a lesson's own over both."""
    import sqlite3

    s = screen("legal")  # the table shows legal destinations only
    h = s.h
    app = h.app
    hints_item = app.menus.main.items[-1]  # the main menu's last line
    assert hints_item.shown is not None and hints_item.shown()  # a store is kept
    assert hints_item.text() == "Hints for guest-1: where a man may go (table's)"
    for _ in range(4):  # as the table -> legal -> everything -> budget 3 -> think first
        assert hints_item.action is not None
        hints_item.action()
    assert hints_item.text() == "Hints for guest-1: think first"
    assert app.store.learner_hints("guest-1") == HintBudget("think")  # after the writes
    path = app.store.path
    kept = sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute(
        "SELECT learner, hints FROM learner_settings"
    )
    assert kept.fetchall() == [("guest-1", "think")]
    app.play_friends(tutor=True)  # a game: the learner's "think" beats the table's "legal"
    h.wait(600)
    throw(h, 3, 1)
    s.lift("8")
    assert h.last("hints")["state"] == "think" and app.view.targets == ()
    s.shot("learner-think-first")
    h.sim.place("8", "white")
    h.wait(300)
    read = model.parse_lesson

    def everything(data, path):  # the lesson on moving, as if it said hints = "everything"
        return read({**data, "hints": "everything"}, path)

    monkeypatch.setattr(model, "parse_lesson", everything)
    app.start_lesson("moving")  # the lesson's own budget beats the learner's
    h.wait(600)
    engine = app.lesson
    assert engine is not None and engine.slot == "guest-1"
    for _ in range(6):
        if engine.referee is not None and engine.referee.game.dice is not None:
            break
        button(h, "done", "white")
        h.wait(400)
    turn = app._hint_turn()
    assert turn is not None and turn.budget == HintBudget("everything")
    monkeypatch.setattr(model, "parse_lesson", read)
    assert app.learners.set_hints("guest-1", None) is None  # forgotten: the table's again
    assert app.learners.hints() is None
