"""Issue 23's problems 1-9, each at the moment the issue describes, on the real application
drawn headless (both sensings, the ``harness`` fixture): checked by the events and the view
model, and by what the renderer drew where (whom each card faces, pixels of the board).
Each test saves its screenshots (into ``$ISSUE23_SHOTS`` when set, to look at them)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pygame
import pytest

from kiosk.app.main import simulator_layout
from kiosk.config import Config
from kiosk.display import Calibration, Display, Renderer
from kiosk.display.palette import ACCENT, ARROW, CURSOR
from kiosk.display.view import TableView, play_arrows
from kiosk.rules import Colour, Position
from kiosk.simtable import STARTING_POSITION
from kiosk.store import Store
from kiosk.tutor.opponent import CubeVerdict
from tests.app.test_modes import button, legend, ready, throw
from tests.app.test_table_thinks import hesitant  # noqa: F401 (a fixture)


def count_colour(surface: pygame.Surface, colour, area: pygame.Rect | None = None) -> int:
    """How many pixels (of ``area``) are exactly ``colour``."""
    part = surface.subsurface(area) if area else surface
    return pygame.mask.from_threshold(part, (*colour, 255), (1, 1, 1, 255)).count()


def _config(tutor: bool = False) -> Config:
    config = Config()
    config.tutor.evaluator = "builtin"  # quick, and the same verdicts everywhere
    config.tutor.enabled = tutor
    return config


class Screen:
    """The application at the table with a headless screen, its men drawn, and a record
    of every panel the renderer draws and whom it faces."""

    def __init__(self, harness, tmp_path: Path, monkeypatch, tutor: bool = False, **kw) -> None:
        self.display = Display(Calibration.default(1280, 720), fullscreen=False, headless=True)
        config = _config(tutor)
        self.h = ready(
            harness, config, display=self.display, calibration=self.display.calibration, **kw
        )
        self.h.app.tutor = tutor
        self.h.app.simulator = self.h.sim  # the men are drawn where the simulated table has them
        self.out = Path(os.environ.get("ISSUE23_SHOTS") or tmp_path)
        self.out.mkdir(parents=True, exist_ok=True)
        self.faced: list[tuple[str, str]] = []
        blit, faced = Renderer._blit_panel, self.faced

        def recorded(renderer, name, build, view, colour):
            faced.append((name, colour))
            blit(renderer, name, build, view, colour)

        monkeypatch.setattr(Renderer, "_blit_panel", recorded)

    @property
    def view(self) -> TableView:
        return self.h.app.view

    def shot(self, name: str) -> pygame.Surface:
        """Draw the view now and save it; the screenshot as loaded back."""
        self.faced.clear()
        self.display.renderer.draw(self.view.copy(), self.h.now)
        sensing = self.h.sim.layout.sensing
        path = self.display.screenshot(self.out / f"issue23-{name}-{sensing}.png")
        return pygame.image.load(path)

    def words_faced(self) -> dict[str, str]:
        """Every panel of words drawn in the last shot, and whom it faced."""
        return {n: c for n, c in self.faced if not n.startswith(("band-", "cube"))}


@pytest.fixture
def screen(harness, tmp_path: Path, monkeypatch):
    made: list[Screen] = []

    def build(**kw) -> Screen:
        made.append(Screen(harness, tmp_path, monkeypatch, **kw))
        return made[-1]

    return build


def _gap(screen: Screen, colour: str) -> pygame.Rect:
    """The half of the centre strip on ``colour``'s side (his banner, the result...)."""
    gap = screen.display.renderer.geometry.gap
    half = gap.height // 2
    return pygame.Rect(gap.left, gap.top + (half if colour == "white" else 0), gap.width, half)


# -- 1 ----------------------------------------------------------------------------------------


def test_1_the_tables_double_faces_the_visitor_and_back_cannot_take_a_play_back(
    screen, hesitant, monkeypatch  # noqa: F811
) -> None:
    """Against the table, after a very bad play (a take-back offered), the table doubles:
    the visitor's own line asks him, Back means pass and nothing else, the table's side
    shows only its own words."""
    hesitant.go.set()
    decided = threading.Event()

    def doubles(self, position, cube=None):  # the table thinks a while, then doubles
        assert decided.wait(30), "the test never let the table decide"
        return CubeVerdict("double", 0.9, "test")

    monkeypatch.setattr(hesitant, "cube_action", doubles)
    s = screen(tutor=True)
    h = s.h
    h.app.play_the_table(Colour.BLACK, "beginner")
    h.wait(400)
    throw(h, 3, 1)
    h.sim.move("8", "4")  # 8/4: a very bad play
    h.wait(300)
    h.settle = False  # the loop as at the table: it never waits for the table to think
    button(h, "done", "white")
    h.app.coach.wait(60)
    h.wait(40)
    offer = h.last("coach")
    assert offer["take_back"] and h.app.modes.names()[-1] == "take-back-offer"
    decided.set()  # at the start of its turn the table doubles
    for _ in range(100):
        if "cube" in h.kinds():
            break
        time.sleep(0.02)
        h.wait(40)
    h.settle = True
    assert h.last("cube") == {"event": "cube", "action": "double", "player": "black",
                              "cube": [1, None]}
    assert h.app.modes.names() == ["game", "double-offer"]  # the take-back offer lapsed
    line = s.view.messages["white"]
    assert line.text == "The table doubles to 2. Select: take, Back: pass."
    assert legend(h, "white") == {"select": "take the double", "back": "pass", "menu": "menu"}
    assert "The coach: Very bad play." in line.detail  # the verdict: one Select away
    assert s.view.prompts.held["black"] == {"own": s.view.prompts.get("black", "own")}
    assert s.view.messages["black"].text == "I double."
    picture = s.shot("1-the-tables-double")
    assert count_colour(picture, ACCENT, s.display.renderer.geometry.bands["white"]) > 100
    button(h, "back", "white")  # passes: the game is over, no play taken back
    assert h.last("game-over")["passed"] and "take-back" not in h.kinds()
    assert s.view.messages["white"].text == "The table wins 1 point: you passed the double."


# -- 2 ----------------------------------------------------------------------------------------


def test_2_the_visitors_mistakes_and_the_result_face_the_visitor(screen) -> None:
    s = screen()
    h = s.h
    h.app.play_the_table(Colour.BLACK, "intermediate")
    h.wait(400)
    throw(h, 3, 1)
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")
    throw(h, 6, 5)  # the visitor throws for the table, and moves its men wrongly
    h.sim.move("19", "24")
    h.wait(400)
    assert h.last("illegal")["reason"] == "not-the-tables-move"
    assert s.view.messages["white"].text.startswith("That is not the table's move")
    s.shot("2-a-wrong-move-of-the-tables-men")
    assert s.words_faced()["illegal"] == "white"  # the red card faces the visitor
    assert set(s.words_faced().values()) == {"white"}
    assert set(s.view.prompts.held["black"]) <= {"own"}
    # the end of a game the visitor wins: the result faces him, YOU WON on his band
    men = tuple(1 if p == 1 else 0 for p in range(1, 26))
    black = tuple(5 if p in (19, 20, 21) else 0 for p in range(1, 26))
    end = Position((men, black), (14, 0), Colour.WHITE)
    h.sim.set_position(simulator_layout(end))
    h.app.play_the_table(Colour.BLACK, "expert", end)
    h.wait(400)
    throw(h, 3, 1)
    h.sim.move("1", "off-white")
    h.wait(300)
    button(h, "done", "white")
    h.wait(400)
    assert h.last("game-over")["winner"] == "white"
    assert s.view.messages["white"].text == "You won a backgammon game (3 points)."
    assert "Review" in s.view.messages["white"].detail
    assert set(s.view.prompts.held["black"]) <= {"own"}
    picture = s.shot("2-the-visitor-won")
    assert s.words_faced() == {"gap-white": "white"}  # the result on the board, his way up
    assert count_colour(picture, ACCENT, _gap(s, "white")) > 100


# -- 3 ----------------------------------------------------------------------------------------


def _lesson_at(s: Screen, lesson: str, step: int) -> None:
    s.h.app.store.save_lesson_step("guest-1", lesson, step, False)
    s.h.app.start_lesson(lesson)
    s.h.wait(400)


def test_3_a_wrong_opening_play_shows_the_play_wanted_until_a_button(
    screen, tmp_path: Path
) -> None:
    s = screen(store=Store(tmp_path / "table.sqlite3"))
    h = s.h
    _lesson_at(s, "openings", 4)  # opening throw 1-1
    assert h.last("lesson")["step"] == 4 and h.last("dice")["dice"] == [1, 1]
    for src, dst in (("24", "23"), ("24", "23"), ("6", "5"), ("6", "5")):
        h.sim.move(src, dst)
    h.wait(400)
    button(h, "done", "white")
    h.wait(3000)  # seconds later: still the play wanted, with its reason and arrows
    result = h.last("lesson-result")
    assert not result["correct"]
    line = s.view.messages["white"]
    # the learner's own play rated first (issue 33), then the play wanted
    assert line.text.startswith("You played 24/23(2) 6/5(2), ")
    assert ("The play wanted is 8/7(2) 6/5(2) (24/22 6/5(2) as good), "
            "shown by the arrows: Hoyle") in line.text
    wanted = play_arrows(Position.standard().parse_play(1, 1, "8/7(2) 6/5(2)"), Colour.WHITE)
    assert s.view.last_play == wanted and s.view.lesson_result is False
    assert legend(h, "white")["done"] == "put the men back and try again"
    assert "setup" not in h.kinds()[-5:]  # no red correction hurried over it
    picture = s.shot("3-the-play-wanted")
    assert count_colour(picture, ARROW) > 200
    button(h, "done", "white")  # the men go back, drawn pale where they belong
    h.wait(400)
    assert s.view.setup and s.view.messages["white"].text == (
        "Lay the men out as the pale men show: move the 4 marked with a cross onto them."
    )
    assert not s.view.messages["white"].warning  # an instruction, not a telling-off
    s.shot("3-put-the-men-back")
    for src, dst in (("23", "24"), ("23", "24"), ("5", "6"), ("5", "6")):
        h.sim.move(src, dst)
    h.wait(600)
    for src, dst in (("8", "7"), ("8", "7"), ("6", "5"), ("6", "5")):
        h.sim.move(src, dst)
    h.wait(400)
    button(h, "done", "white")
    h.wait(200)
    right = s.view.messages["white"]  # the lesson's point first, its books on Select
    assert right.text.startswith("Right: 8/7(2) 6/5(2). Hoyle, Hoffmann, Crawley and today's")
    assert "Played so by Hoyle, for a hit" in right.detail
    s.shot("3-right")


# -- 4 ----------------------------------------------------------------------------------------


def test_4_a_man_held_is_not_a_man_to_push(screen) -> None:
    s = screen()
    h = s.h
    throw(h, 3, 1)
    h.sim.lift("8")  # a visitor holds a man, thinking
    h.wait(5000)
    assert not [e for e in h.events if e["event"] == "notice" and e["about"] == "off-centre"]
    assert s.view.lifted == "8" and s.view.targets  # where it may go: shown all along
    assert "push" not in s.view.messages["white"].text.lower()
    s.shot("4-a-man-held")
    h.wait(2500)  # a long while: named, in words right for a man held or off his reed
    notice = h.last("notice")
    assert notice["about"] == "off-centre"
    assert notice["message"].startswith("The man from your 8 point is not read yet: put it down")
    assert s.view.prompts.kind("white") == "notice"
    h.sim.place("5", "white")  # put down legally: the notice goes at once
    h.wait(400)
    assert s.view.prompts.kind("white") != "notice"
    assert "not read yet" not in s.view.messages["white"].text
    s.shot("4-put-down")


# -- 5 ----------------------------------------------------------------------------------------


def test_5_the_result_on_the_winners_line_and_the_board_until_a_button(screen) -> None:
    s = screen(tutor=True)
    h = s.h
    men = tuple(1 if p == 1 else 0 for p in range(1, 26))
    black = tuple(2 if p in (1, 2) else 0 for p in range(1, 26))
    end = Position((men, black), (14, 11), Colour.WHITE)
    h.sim.set_position(simulator_layout(end))
    h.app.new_game(end, tutor=True)
    h.wait(400)
    throw(h, 3, 1)
    h.sim.move("1", "off-white")
    h.wait(300)
    button(h, "done", "white")
    h.app.coach.wait(60)
    h.wait(5000)  # the coach's late verdict, and time passing
    assert h.last("coach")["to"] == "white"  # it came after the end
    assert s.view.messages["white"].text == "You won a single game (1 point)."
    assert s.view.messages["black"].text == "White wins a single game (1 point)."
    assert "The coach: Good play" in s.view.messages["white"].detail
    picture = s.shot("5-the-end")
    for colour in ("white", "black"):  # the result in the board's centre, each way up
        assert count_colour(picture, ACCENT, _gap(s, colour)) > 100
        assert s.words_faced()[f"gap-{colour}"] == colour
    button(h, "done", "white")  # a button: the next game
    assert h.last("new-game") and s.view.winner is None


# -- 6 ----------------------------------------------------------------------------------------


def test_6_the_invitation_leads_to_a_choice_and_menu_numbers_stay(screen, monkeypatch) -> None:
    s = screen()
    h = s.h
    h.app.config.display.invite_after_s = 3
    throw(h, 3, 1)  # a visitor leaves in the middle of a play
    h.sim.move("8", "5")
    h.wait(3400)
    assert h.app.modes.names()[-1] == "attract"
    s.shot("6-the-invitation")
    button(h, "done", "white")  # wakes the table: a choice, and nothing else
    assert h.app.view.menu_title == "Welcome: what would you like to do?"
    assert h.app.view.menu[0] == "Carry on with the game on the table"
    assert "play" not in h.kinds()  # that Done ended no play
    s.shot("6-the-choice")
    button(h, "back")
    button(h, "menu")
    numbers = dict(zip(s.view.menu, s.view.menu_numbers, strict=True))
    assert numbers["Lessons: learn the game step by step"] == 2  # near the top (no double)
    assert list(numbers).index("Lessons: learn the game step by step") <= 2
    s.shot("6-the-main-menu")


# -- 7 ----------------------------------------------------------------------------------------


def test_7_russian_backgammon_shows_where_to_enter_and_says_it_plainly(screen) -> None:
    s = screen()
    h = s.h
    plain = s.shot("7-before")  # the standard board's numbers
    h.app.play_russian("russian-cady")
    h.wait(600)
    assert h.last("setup-ok")
    picture = s.shot("7-russian-start")
    assert s.view.messages["white"].text.startswith("Both sides enter on points 1 to 6")
    gap = s.display.renderer.geometry.gap
    entering = pygame.Rect(gap.centerx, 0, gap.right - gap.centerx, gap.centery)
    assert count_colour(picture, ACCENT, entering) > count_colour(plain, ACCENT, entering) + 200
    throw(h, 6, 4)
    h.sim.lift("off-white")  # a man lifted from the tray: where it may enter
    h.wait(300)
    assert h.last("destinations")["to"] == ["point 4", "point 6"]
    assert set(s.view.targets) == {"19", "21"}
    s.shot("7-lifted-from-the-tray")
    h.sim.place("20", "white")  # on point 5: refused, with the reason and what to do
    h.wait(400)
    refusal = h.last("illegal")
    assert "the numbers to play are 6 and 4" in refusal["message"]
    assert "It may go to point 4 or point 6." in refusal["message"]
    assert s.view.illegal is not None
    s.shot("7-refused")
    h.sim.move("20", "21", "white")  # put right: the red card goes
    h.wait(400)
    assert s.view.illegal is None
    h.sim.move("off-white", "19", "white")
    h.wait(400)
    button(h, "done", "white")
    assert h.last("play")["move"] == "hand/4 hand/6"
    assert s.view.prompts.get("white", "said").text == "You entered men on points 4 and 6."
    assert "hand/4 hand/6" in s.view.prompts.get("white", "said").detail  # the notation: Select
    s.shot("7-played")


# -- 8 ----------------------------------------------------------------------------------------


def test_8_a_wrong_placement_says_what_to_do_and_the_man_lifted_again_shows_where(
    screen,
) -> None:
    s = screen()
    h = s.h
    throw(h, 6, 1)
    h.sim.lift("13")
    h.wait(300)
    shown = [e for e in h.events if e["event"] == "destinations"]
    h.sim.place("9", "white")  # four points: no die shows 4
    h.wait(400)
    said = h.last("illegal")["message"]
    assert said.startswith("That man moved 4 points, from 13 to 9")
    assert said.endswith("It may go to your 7 or 6 points.")  # what to do
    assert s.view.messages["white"].warning and s.view.illegal[0] == "9"
    s.shot("8-the-wrong-placement")
    h.sim.lift("9")  # lifted again: where it may go, shown again
    h.wait(300)
    again = [e for e in h.events if e["event"] == "destinations"]
    assert len(again) == len(shown) + 1 and set(s.view.targets) == {"7", "6"}
    s.shot("8-lifted-again")
    h.sim.place("7", "white")
    h.wait(400)
    assert s.view.illegal is None
    button(h, "done", "white")  # not the whole throw: what is left, in words
    assert "1" in h.last("illegal")["message"]
    h.sim.move("8", "7")
    h.wait(300)
    button(h, "done", "white")
    throw(h, 3, 3)  # a doublet: played four times, and the line says so
    assert s.view.messages["black"].text == "You threw 3-3: a doublet, so you move 3 four times."


# -- 9 ----------------------------------------------------------------------------------------


def test_9_a_lesson_set_up_is_drawn_with_a_count_a_step_counter_and_a_clear_quiz(
    screen, tmp_path: Path
) -> None:
    s = screen(store=Store(tmp_path / "table.sqlite3"))
    h = s.h
    _lesson_at(s, "openings", 5)  # 6-6, from the standard position: played rightly
    for src, dst in (("24", "18"), ("24", "18"), ("13", "7"), ("13", "7")):
        h.sim.move(src, dst)
    h.wait(400)
    button(h, "done", "white")
    h.wait(200)
    assert s.view.last_play  # this lesson's arrows
    button(h, "back")  # leave it
    h.sim.set_position(STARTING_POSITION)
    h.wait(400)
    partial = {**STARTING_POSITION, "6": ("white", 3), "8": ("white", 2), "10": ("white", 1)}
    h.sim.set_position(partial)
    _lesson_at(s, "the-board", 7)  # the set-up step
    assert s.view.last_play == ()  # a clean start: none of the last lesson's arrows
    assert s.view.banner == "Lesson 1: The board and the men · step 7 of 9"
    assert s.view.messages["white"].text == (
        "Lay the men out as the pale men show: 3 men to place and 1 marked with a cross to "
        "take away."
    )
    assert not s.view.messages["white"].warning
    s.shot("9-the-set-up")
    h.sim.set_position(STARTING_POSITION)  # laid out: the step ends, the pips quiz follows
    h.wait(600)
    lesson = h.last("lesson")
    assert (lesson["step"], lesson["kind"]) == (8, "count") and s.view.answers
    picture = s.shot("9-the-pips-quiz")
    # the answers along the centre line, off the men being counted
    assert s.words_faced()["answers-white"] == "white"
    strip = s.display.renderer._answers_strip("white", s.view.answers, s.view.answer_cursor)
    assert strip is not None
    panel, (x, y) = strip
    placed = pygame.Rect(x, y, *panel.get_size())
    assert s.display.renderer.geometry.gap.contains(placed)
    below = s.display.renderer.geometry.halves["white"].copy()
    below.top = s.display.renderer.geometry.gap.bottom
    assert count_colour(picture, CURSOR, below) == 0  # no card over the white men
    assert count_colour(picture, CURSOR, placed) > 50  # the chosen answer, in the strip
