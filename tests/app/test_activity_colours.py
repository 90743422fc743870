"""Issue 35 item 4: every activity colours the men from the board it is given.

Through the real application on a stepped simulated table, on both sensings: a game
started from a position, lesson 11 laid out and its 1-1 played wrongly, Done, Menu and
lesson 5 from the Lessons menu. Lesson 5 opens with words, its men still on the table as
lesson 11 left them: fifteen white and fifteen black, never coloured from the waiting
game's position (that drew 28 of 30 men white on a table that senses only where men are).
"""

from __future__ import annotations

from pathlib import Path

from kiosk.app.modes.attract import NoticeMode
from kiosk.config import Config
from kiosk.rules import Position
from kiosk.simtable import STARTING_POSITION
from kiosk.store import Store
from tests.app.test_modes import button, throw

WRONG_1_1 = (("24", "23"), ("24", "23"), ("6", "5"), ("6", "5"))


def _men(board: dict[str, tuple[int, int]]) -> tuple[int, int]:
    return sum(w for w, _ in board.values()), sum(b for _, b in board.values())


def _app(harness, tmp_path: Path):
    config = Config()
    config.referee.settle_ms = 200
    config.installer.pin = "2468"
    config.tutor.enabled = False
    store = Store(tmp_path / "table.sqlite3")
    h = harness(config, store=store, start_position=Position.from_id("NwAAwA0AAAAAAA"))
    h.app.simulator = h.sim  # the simulated table lays out what the players are asked to
    h.app.start()
    h.wait(600)
    h.app.modes.drop(NoticeMode)
    return h, store


def _lessons_menu_pick(h, number: int) -> None:
    items = h.app.modes.top.card().items
    index = next(i for i, text in enumerate(items) if text.startswith(f"{number}. "))
    button(h, "menu", "white", times=index)  # Menu: next
    button(h, "select", "white")
    h.wait(600)


def test_a_lesson_chosen_after_another_left_part_way_colours_the_men_on_the_table(
    harness, tmp_path: Path
) -> None:
    h, store = _app(harness, tmp_path)
    assert _men(h.app.view.board) == (15, 15)
    store.save_lesson_step("guest-1", "openings", 4, False)  # the opening throw 1-1
    h.app.start_lesson("openings")
    h.sim.set_position(STARTING_POSITION)
    h.wait(600)
    assert h.last("dice")["dice"] == [1, 1]
    for src, dst in WRONG_1_1:
        h.sim.move(src, dst)
    h.wait(400)
    button(h, "done", "white")
    assert h.last("lesson-result")["correct"] is False
    button(h, "menu", "white")  # leave the lesson: the Lessons menu
    assert h.app.modes.top.card().title == "Lessons"
    _lessons_menu_pick(h, 5)
    assert h.last("lesson")["lesson"] == "bearing-off"
    assert h.app.view.mode == "lesson"
    assert _men(h.app.view.board) == (15, 15)
    assert h.app.view.board["23"] == (2, 0) and h.app.view.board["5"] == (2, 0)
    assert h.app.view.board["1"] == (0, 2)


def test_a_replay_and_russian_backgammon_and_back_colour_the_men_on_the_table(
    harness, tmp_path: Path
) -> None:
    h, _ = _app(harness, tmp_path)
    h.sim.set_position(STARTING_POSITION)  # not the game's men: a board it was not given
    h.app.play_russian("russian-cady")
    h.wait(600)
    assert h.app.view.mode == "russian"
    assert _men(h.app.view.board) == (15, 15)
    button(h, "back", "white")
    h.wait(600)  # the game takes the table back: its men are laid out again
    assert h.app.view.mode == "game" and "setup-ok" in h.kinds()[-12:]
    assert _men(h.app.view.board) == (15, 15)
    throw(h, 6, 5)
    assert _men(h.app.view.board) == (15, 15)


def test_a_new_game_started_during_a_lesson_is_shown_as_the_game(harness, tmp_path: Path) -> None:
    """The stack says the game has the table again when a new game drops a lesson (the
    view drew the new game as the lesson's, the turn label hidden)."""
    h, _ = _app(harness, tmp_path)
    h.app.start_lesson("the-board")
    h.wait(400)
    assert h.app.view.mode == "lesson" and h.app.lesson is not None
    h.sim.set_position(STARTING_POSITION)
    h.app.play_friends(tutor=False)
    h.wait(600)
    assert h.app.lesson is None and h.app.modes.names() == ["game"]
    assert h.app.view.mode == "game" and h.last("mode")["mode"] == "game"
    assert h.app.core.judge is h.app.core.referee
