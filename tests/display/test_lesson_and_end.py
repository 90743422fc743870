"""The display honours a lesson's pip counts and preview arrows, and the game's end (issue 9):
a quiz's answer is not shown beside it, the book's play is drawn before the learner makes
it, and at the end nobody is told it is their turn."""

from __future__ import annotations

import pygame
from test_renderer import count_colour, screenshot

from kiosk.display.palette import ACCENT, ARROW
from kiosk.display.view import TableView
from kiosk.events import LessonEvent

COUNT_STEP = {  # as the lesson engine announces a count step (tests/tutor check its shape)
    "event": "lesson", "to": "both", "lesson": "the-board", "title": "T", "step": 3,
    "steps": 9, "kind": "count", "text": "How many pips does White need?", "detail": "",
    "light": [], "choices": ["160", "167", "170"], "selected": 0, "hide_pips": True,
}  # fmt: skip
PREVIEW_STEP = {
    "event": "lesson", "to": "both", "lesson": "crawley-games", "title": "T", "step": 4,
    "steps": 200, "kind": "replay", "text": "Crawley plays 8/5 6/5 with 3-1.", "detail": "",
    "light": [], "pips": {"white": 163, "black": 167}, "dice": [3, 1], "player": "white",
    "preview": {"move": "8/5 6/5", "arrows": [["8", "5"], ["6", "5"]], "words": "Make a point."},
}  # fmt: skip


def _band(renderer, colour: str) -> pygame.Rect:
    return renderer.geometry.bands[colour]


def test_a_count_question_hides_the_pip_counts(renderer, tmp_path) -> None:
    shown, hidden = TableView(), TableView()
    hidden.apply({"event": "dice", "player": "black", "dice": [2, 4]})
    hidden.apply({"event": "illegal", "reason": "not-your-turn", "message": "It is black's turn.",
                  "law": "", "player": "black", "table": None})  # fmt: skip
    hidden.apply({"event": "mode", "mode": "lesson", "lesson": "the-board", "banner": "Lesson 1"})
    assert hidden.mode == "lesson"  # the bands say LESSON, not the game's turn
    assert hidden.illegal is None and hidden.dice is None  # the waiting game's marks go
    hidden.apply(LessonEvent(data=COUNT_STEP))
    assert hidden.hide_pips and not shown.hide_pips
    band = _band(renderer, "white")
    a = screenshot(renderer, shown, tmp_path, "shown.png").subsurface(band).copy()
    b = screenshot(renderer, hidden, tmp_path, "hidden.png").subsurface(band).copy()
    assert pygame.image.tobytes(a, "RGB") != pygame.image.tobytes(b, "RGB")
    hidden.apply(LessonEvent(data={"event": "lesson-end", "to": "both", "text": "Done."}))
    assert not hidden.hide_pips


def test_a_preview_draws_the_books_play_as_arrows(renderer, tmp_path) -> None:
    view = TableView()
    plain = count_colour(screenshot(renderer, view, tmp_path, "plain.png"), ARROW)
    view.apply(LessonEvent(data=PREVIEW_STEP))
    assert view.last_play == (("8", "5"), ("6", "5")) and view.last_move == "8/5 6/5"
    assert view.pips == (163, 167)
    assert count_colour(screenshot(renderer, view, tmp_path, "preview.png"), ARROW) > plain + 200
    view.apply(LessonEvent(data={**PREVIEW_STEP, "kind": "question", "preview": None}))
    assert view.last_play == () and not view.preview


def test_the_games_end_names_the_winner_and_nobodys_turn(renderer, tmp_path) -> None:
    view = TableView()
    view.apply({"event": "dice", "player": "white", "dice": [6, 5]})
    playing = screenshot(renderer, view, tmp_path, "playing.png")
    lit = count_colour(playing, ACCENT, _band(renderer, "white"))
    view.apply({"event": "game-over", "winner": "white", "result": "gammon", "points": 2})
    assert view.winner == "white" and view.dice is None
    assert "White wins a gammon game (2 points)" in view.messages["black"].text
    over = screenshot(renderer, view, tmp_path, "over.png")
    assert count_colour(over, ACCENT, _band(renderer, "black")) < lit  # no "YOUR TURN" there
    view.apply({"event": "new-game", "game": 2, "position": "4HPwATDgc/ABMA", "turn": "white",
                "profile": "modern", "tutor": True, "dice_source": "wells",
                "cube": [1, None]})  # fmt: skip
    assert view.winner is None
