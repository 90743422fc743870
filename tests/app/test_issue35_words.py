"""Issue 35, items 5-10: the words from the reader's side, each at the moment the issue
describes, on the real application drawn headless (both sensings, the ``harness``
fixture). Each test saves its screenshots (into ``$ISSUE35_SHOTS`` when set, to look at)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk.app.modes.attract import NoticeMode
from tests.app.test_issue23_screens import Screen
from tests.app.test_modes import button, throw
from tests.app.test_tutor import move


@pytest.fixture
def screen(harness, tmp_path: Path, monkeypatch):
    made: list[Screen] = []
    out = Path(os.environ.get("ISSUE35_SHOTS") or tmp_path)

    def build(**kw) -> Screen:
        made.append(Screen(harness, out, monkeypatch, **kw))
        made[-1].out = out
        return made[-1]

    return build


def shot(s: Screen, name: str) -> None:
    s.shot(name)
    sensing = s.h.sim.layout.sensing
    os.replace(s.out / f"issue23-{name}-{sensing}.png", s.out / f"issue35-{name}-{sensing}.png")


def _bad_opening(s: Screen) -> None:
    """White wins the opening with 6-1 and plays 13/6, a very bad play: the coach offers to
    take it back."""
    h = s.h
    throw(h, 6, 1)
    move(h, ("13", "6"))
    button(h, "done", "white")
    assert h.last("play")["move"] == "13/6"
    assert h.app.coach is not None and h.app.coach.wait(30)
    h.wait(40)
    assert h.app.modes.names()[-1] == "take-back-offer"


# -- 5 ----------------------------------------------------------------------------------------


def test_5_reading_why_a_play_was_very_bad_keeps_its_take_back(screen) -> None:
    s = screen(tutor=True)
    h = s.h
    h.app.modes.drop(NoticeMode)
    _bad_opening(s)
    button(h, "select", "white")  # read why
    assert h.app.view.show_detail.get("white")
    assert h.app.modes.names()[-1] == "take-back-offer"
    assert dict(h.app.view.legend["white"])["back"] == "take the play back"
    shot(s, "5-reading-why")
    button(h, "select", "white")  # close it
    assert not h.app.view.show_detail.get("white")
    assert "take it back" in h.app.view.messages["white"].text.lower()
    shot(s, "5-read")
    button(h, "back", "white")  # the offer is still there: the play is taken back
    taken = h.last("take-back")
    assert (taken["player"], taken["move"]) == ("white", "13/6")


# -- 6 ----------------------------------------------------------------------------------------


def _not_the_doublers(detail: str) -> None:
    for words in ("he should", "he takes", "he passes", "lose your market", "The cube is your"):
        assert words not in detail, (words, detail)


def test_6_the_cube_coach_speaks_to_the_taker_and_the_passer_in_their_own_terms(
    screen,
) -> None:
    from tests.app.test_cube_coach import _after_the_opening, _double_from_the_menu, _verdicts

    s = screen()
    h = s.h
    h.app.modes.drop(NoticeMode)
    _after_the_opening(h)  # white opened 3-1, black (behind) doubles all the same
    _double_from_the_menu(h, "black")
    button(h, "select", "black")
    h.app.coach.wait(60)
    [double] = _verdicts(h, "double")
    assert any(r["code"] == "chances" for r in double["reasons"])
    black_wins = next(r["win"] for r in double["reasons"] if r["code"] == "chances")
    button(h, "back", "white")  # white, well ahead, passes: the coach asks him again
    [passed] = _verdicts(h, "pass")
    assert passed["to"] == "white"
    chances = next(r for r in passed["reasons"] if r["code"] == "chances")
    assert chances["text"] == (
        f"You win {1 - black_wins:.0%} of games from here (your opponent {black_wins:.0%})"
    )
    take_point = next(r for r in passed["reasons"] if r["code"] == "take-point")
    assert take_point["text"].startswith("Taking leaves you ")
    assert take_point["text"].endswith(": you should take")
    _not_the_doublers(passed["detail"])
    shot(s, "6-pass-verdict")
    button(h, "back", "white")  # the pass taken back; white takes, and reads why
    button(h, "select", "white")
    [take] = _verdicts(h, "take")
    assert take["reasons"][0]["text"] == chances["text"]
    _not_the_doublers(take["detail"])
    if h.app.detail_player("white") == "white":
        button(h, "select", "white")
    shot(s, "6-take-verdict")


# -- 7 ----------------------------------------------------------------------------------------


def test_7_a_turn_with_no_play_shows_the_throw_and_says_why_it_is_lost(screen) -> None:
    from kiosk.app.main import simulator_layout
    from kiosk.rules import Colour, Position

    s = screen(tutor=True)
    h = s.h
    h.app.modes.drop(NoticeMode)
    # white has a man on the bar against black's closed board: no throw comes in
    shut = Position.from_points(
        {6: 5, 8: 3, 13: 5, 1: -3, 19: -2, 20: -2, 21: -2, 22: -2, 23: -2, 24: -2},
        bar=(1, 0),
    )
    h.sim.set_position(simulator_layout(shut))
    h.app.new_game(shut, tutor=True)
    h.app.core.skip_opening(Colour.WHITE)
    h.wait(400)
    assert not h.app.setting_up
    throw(h, 6, 5)
    played = h.last("play")
    assert (played["player"], played["move"]) == ("white", "")
    assert h.app.view.lost_throw == ("white", (6, 5))  # the throw stays in sight, his
    line = h.app.view.messages["white"].text
    assert line == (
        "No play with 6-5. White's man on the bar cannot come in: black holds his 5 and 6 points."
    )
    shot(s, "7-no-play")
    assert h.app.coach is None or h.app.coach.wait(30)
    h.wait(40)
    assert not [e for e in h.events if e["event"] == "coach"]  # no "Good play: no move."
    assert h.app.view.messages["white"].text == line


# -- 8 ----------------------------------------------------------------------------------------


def test_8_a_lessons_question_takes_the_menus_buttons_keeps_its_choices_and_its_end_is_seen(
    screen,
) -> None:
    s = screen()
    h = s.h
    h.app.modes.drop(NoticeMode)
    h.app.start_lesson("the-board")
    h.wait(200)
    h.app.lesson.go_to(9)  # "How many men does each side have?": 12, 15, 16
    h.wait(200)
    view = h.app.view
    assert view.answers == ("12", "15", "16") and view.answer_cursor == 0
    keys = dict(view.legend["white"])
    assert keys["menu"] == "next answer" and keys["select"] == "give this answer"
    assert keys["done"] == "read it all" and keys["back"] == "leave the lesson"
    button(h, "select", "white")  # "12": wrong
    result = h.last("lesson-result")
    assert result["correct"] is False and result["text"].startswith("“12” is not right.")
    assert view.answers == ("12", "15", "16")  # the choices stay, to answer again
    shot(s, "8-wrong-answer")
    button(h, "done", "white")  # the whole answer, however long
    assert view.show_detail.get("white")
    assert result["text"] in view.messages["white"].detail
    shot(s, "8-read-it-all")
    button(h, "done", "white")
    assert not view.show_detail.get("white")
    button(h, "menu", "white")  # the next answer: 15
    assert view.answer_cursor == 1 and h.app.lesson is not None  # Menu did not leave
    button(h, "select", "white")
    assert h.last("lesson-result")["correct"] is True
    button(h, "done", "white")  # on: the lesson's end
    assert h.last("lesson-end")["text"] == "Lesson 1 done: The board and the men."
    assert h.app.modes.names()[-1] == "menu"
    assert view.menu_title == "Lesson 1 done: The board and the men"
    assert view.menu[view.menu_cursor].startswith("2. ")  # the next lesson is offered
    shot(s, "8-lesson-done")


# -- 9 ----------------------------------------------------------------------------------------


def test_9a_a_done_out_of_turn_is_answered_on_the_pressers_own_line(screen) -> None:
    s = screen()
    h = s.h
    h.app.modes.drop(NoticeMode)
    throw(h, 3, 1)  # white opens: white plays
    move(h, ("8", "5"), ("6", "5"))
    asked = h.app.view.messages["white"].text
    assert "Done" in asked
    button(h, "done", "black")  # black's Done does nothing now
    assert h.app.view.messages["white"].text == asked  # white's line still asks him
    said = h.app.view.messages["black"]
    assert said.text == "It is white's turn: white presses Done." and not said.warning
    assert h.app.view.illegal is None  # no red card on anybody's side
    shot(s, "9a-done-out-of-turn")
    faced = s.words_faced()
    assert "illegal" not in faced


def test_9b_while_a_take_back_is_offered_the_other_player_is_told_of_it(screen) -> None:
    s = screen(tutor=True)
    h = s.h
    h.app.modes.drop(NoticeMode)
    _bad_opening(s)
    black = h.app.view.messages["black"].text
    assert black == "White may take the play back first; if not, throw."
    shot(s, "9b-take-back-offered")
    throw(h, 5, 2)  # black throws: the offer lapses, black plays
    assert h.app.modes.names() == ["game"]


def test_9c_the_name_card_faces_the_player_it_asks(screen) -> None:
    from tests.app.test_sessions import _name, _session

    s = screen()
    h = s.h
    h.app.modes.drop(NoticeMode)
    _session(h, "A match", "Match to 3 points")
    assert h.app.view.menu[0].startswith("White: ") and h.app.view.menu_player == "white"
    _name(h, "Ann")
    assert h.app.view.menu[0].startswith("Black: ") and h.app.view.menu_player == "black"
    shot(s, "9c-black-name")
    assert [n for n in s.words_faced() if n.startswith("menu")] == ["menu-black"]


# -- 10 ---------------------------------------------------------------------------------------


def test_10_the_menus_are_numbered_without_gaps_and_number_keys_work_in_the_lessons_menu(
    screen,
) -> None:
    import pygame

    s = screen()
    h = s.h
    h.app.modes.drop(NoticeMode)
    button(h, "menu")
    assert list(h.app.view.menu_numbers) == list(range(1, len(h.app.view.menu) + 1))
    shot(s, "10-main-menu")
    h.app.modes.top.pick(h.app.view.menu.index("Lessons: learn the game step by step") + 1)
    h.wait(40)
    assert h.app.view.menu_title == "Lessons"
    h.app.window.input(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, unicode="2"))
    h.wait(200)
    assert h.app.lesson is not None and h.app.lesson.lesson.info.number == 2


def test_10_the_pin_lock_out_offers_only_leaving(screen) -> None:
    s = screen()
    h = s.h
    h.app.modes.drop(NoticeMode)
    h.app.ask_pin()
    h.wait(40)
    for _ in range(3):
        button(h, "select", times=4)  # 0000, three times: locked out for 30 s
    assert h.app.view.menu[0] == "Wait 30 s: too many wrong PINs"
    assert h.app.view.menu_footer == "Back: leave"
    assert dict(h.app.view.legend["white"]) == {"back": "leave"}
    shot(s, "10-pin-locked")
    h.wait(30_000)
    assert h.app.view.menu_footer == "Menu: next digit   Select: take it   Back: leave"
    assert dict(h.app.view.legend["white"])["menu"] == "next digit"


def test_10_the_score_band_names_the_players_and_a_game_against_the_table_starts_at_nil(
    screen,
) -> None:
    from kiosk.app.main import simulator_layout
    from kiosk.display.view import score_lines
    from kiosk.rules import Colour, Position

    s = screen()
    h = s.h
    h.app.modes.drop(NoticeMode)
    # two players: white bears off his last man and wins a backgammon (3 points)
    men = tuple(1 if p == 1 else 0 for p in range(1, 26))
    black = tuple(5 if p in (19, 20, 21) else 0 for p in range(1, 26))
    end = Position((men, black), (14, 0), Colour.WHITE)
    h.sim.set_position(simulator_layout(end))
    h.app.new_game(end, tutor=False)
    h.app.core.skip_opening(Colour.WHITE)
    h.wait(400)
    throw(h, 3, 1)
    h.sim.move("1", "off-white")
    h.wait(300)
    button(h, "done", "white")
    assert h.last("game-over")["winner"] == "white"
    assert score_lines(h.app.view, "white")[0] == "You 3, Black 0"
    assert score_lines(h.app.view, "black")[0] == "You 0, White 3"
    shot(s, "10-score-two-players")
    # a game against the table: the two players' points are not the table's
    h.sim.set_position(simulator_layout(Position.standard()))
    h.app.play_the_table(Colour.BLACK, "expert")
    h.wait(400)
    assert h.app.view.score == (0, 0)
    assert score_lines(h.app.view, "white")[0] == "You 0, the table 0"
    shot(s, "10-score-against-the-table")


def test_10_a_resumed_game_says_whether_the_tutor_is_on(harness, tmp_path: Path) -> None:
    from kiosk.app.main import App
    from kiosk.app.stepped import SteppedApp
    from kiosk.config import Config
    from kiosk.simtable import STARTING_POSITION
    from kiosk.store import Store

    def table() -> SteppedApp:
        config = Config()
        config.referee.settle_ms = 200
        config.tutor.enabled = True
        config.tutor.evaluator = "builtin"
        h = harness(config, store=Store(tmp_path / "table.sqlite3"))
        h.sim.set_position(STARTING_POSITION)
        h.app.start()
        h.wait(400)
        return h

    h = table()
    assert h.app.view.banner == "Tutor on"
    throw(h, 3, 1)
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")
    h.close()
    again = table()  # the table restarts: the game is resumed
    assert again.last("resume")
    assert isinstance(again.app, App) and again.app.view.banner == "Tutor on"


def test_10_a_finished_game_laid_out_again_is_not_played_on(screen) -> None:
    from kiosk.app.main import simulator_layout
    from kiosk.rules import Colour, Position
    from tests.app.test_tutor import pick

    s = screen()
    h = s.h
    h.app.modes.drop(NoticeMode)
    men = tuple(1 if p == 1 else 0 for p in range(1, 26))
    black = tuple(5 if p in (19, 20, 21) else 0 for p in range(1, 26))
    end = Position((men, black), (14, 0), Colour.WHITE)
    h.sim.set_position(simulator_layout(end))
    h.app.new_game(end, tutor=False)
    h.app.core.skip_opening(Colour.WHITE)
    h.wait(400)
    throw(h, 3, 1)
    h.sim.move("1", "off-white")
    h.wait(300)
    button(h, "done", "white")
    assert h.last("game-over")["winner"] == "white"
    button(h, "menu", "white")
    pick(h, "Lessons")
    pick(h, "1. ")  # a lesson, left at once: then Back lays the game out again
    h.wait(200)
    button(h, "back")
    assert h.app.lesson is None and h.app.view.menu_title == "Lessons"
    button(h, "back")
    h.sim.set_position(simulator_layout(h.app.core.game.position))  # the men laid out again
    h.wait(400)
    said = [e for e in h.events if e["event"] == "setup-ok"][-1]
    assert said["restored"] is True
    for who in ("white", "black"):
        assert "Play on" not in h.app.view.messages[who].text
    assert h.app.view.messages["white"].text == (
        "The board is as the game ended: Done starts a new game."
    )
    shot(s, "10-finished-game-restored")


def test_10_the_installers_words_leave_the_visitors_lines_with_settings(screen) -> None:
    from tests.app.test_tutor import pick

    s = screen()
    h = s.h
    h.app.modes.drop(NoticeMode)
    before = {who: h.app.view.messages[who].text for who in ("white", "black")}
    h.app.ask_pin()
    h.wait(40)
    for digit in (2, 4, 6, 8):  # the installer's PIN (tests.app.test_modes.ready)
        button(h, "menu", times=digit)
        button(h, "select")
    assert h.app.modes.names()[-1] == "settings"
    pick(h, "Class companion")  # no teacher's PIN in the file: the installer is told
    said = "Set [companion] teacher_pin in the configuration file first."
    assert h.app.view.messages["white"].text == said
    shot(s, "10-installer-note")
    button(h, "back")  # the installer leaves Settings: the visitors' lines are theirs again
    assert h.app.modes.names() == ["game"]
    assert {who: h.app.view.messages[who].text for who in ("white", "black")} == before
    shot(s, "10-after-settings")
