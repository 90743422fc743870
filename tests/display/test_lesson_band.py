"""A lesson's Russian step (lesson 23, steps 11-13) shows the lesson's band, not the waiting
game's score and cube, however its events reach the display: after the lesson's mode, or
folded alone as the lesson engine gives them."""

from __future__ import annotations

import pygame
from test_renderer import count_colour, screenshot

from kiosk.display.palette import CUBE_FACE
from kiosk.display.view import TableView, score_lines
from kiosk.events import LessonEvent

RUSSIAN_STEP = {  # lesson 23's step 12 as the lesson engine announces it in the app
    "event": "lesson", "to": "both", "lesson": "russian", "title": "Russian backgammon",
    "step": 12, "steps": 13, "kind": "russian",
    "text": "By Cady's rules you throw double six. Play the four 6s and press Done.",
    "detail": "Cady, Russian Backgammon (Cady 1895)", "light": [],
    "pips": {"white": 375, "black": 375}, "russian": "R:w:h15,t,d:h15",
    "rules": "russian-cady",
}  # fmt: skip
LESSON_BAND = ("Lesson: not scored", "No cube in a lesson")


def _waiting_game() -> TableView:
    view = TableView(score=(0, 0))
    view.apply({"event": "new-game", "game": 1, "position": "4HPwATDgc/ABMA", "turn": "white",
                "profile": "modern", "tutor": False, "dice_source": "wells",
                "cube": [1, None]})  # fmt: skip
    assert score_lines(view, "white") == ("You 0, Black 0", "Cube in the middle")
    return view


def test_a_russian_step_folded_alone_shows_the_lessons_band(renderer, tmp_path) -> None:
    view = _waiting_game()
    game = screenshot(renderer, view, tmp_path, "game.png")
    assert count_colour(game, CUBE_FACE) > 0  # the waiting game's cube
    view.apply(LessonEvent(data=RUSSIAN_STEP))
    for colour in ("white", "black"):
        assert score_lines(view, colour) == LESSON_BAND
    assert view.in_lesson
    shot = screenshot(renderer, view, tmp_path, "russian-step.png")
    assert count_colour(shot, CUBE_FACE) == 0  # no cube in a lesson
    band = renderer.geometry.bands["white"]
    assert pygame.image.tobytes(game.subsurface(band), "RGB") != pygame.image.tobytes(
        shot.subsurface(band), "RGB"
    )
    view.apply(LessonEvent(data={"event": "lesson-end", "to": "both", "text": "Done."}))
    assert not view.in_lesson and score_lines(view, "white")[0] == "You 0, Black 0"


def test_after_the_lessons_mode_too(renderer, tmp_path) -> None:
    view = _waiting_game()
    view.apply({"event": "mode", "mode": "lesson", "lesson": "russian",
                "banner": "Lesson 23: Russian backgammon"})  # fmt: skip
    view.apply(LessonEvent(data=RUSSIAN_STEP))
    assert score_lines(view, "white") == LESSON_BAND
    assert count_colour(screenshot(renderer, view, tmp_path), CUBE_FACE) == 0
