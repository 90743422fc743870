"""The tutor in the application: lessons from the menu, the coach, taking a play back, the cube.

Everything runs through the real App on the stepped simulated table (pty, firmware core,
link, referee), with a real SQLite store; the coach rates with the built-in evaluation.
"""

from __future__ import annotations

from pathlib import Path

from kiosk.app.main import App
from kiosk.app.speech import sentence
from kiosk.config import Config
from kiosk.rules import WHITE, Cube, Phase, Position
from kiosk.simtable import STARTING_POSITION
from kiosk.store import Store


def button(h, name: str, player: str | None = None, times: int = 1) -> None:
    h.press(name, player, times)


def pick(h, label: str) -> None:
    """Move the open menu's cursor to the item starting with ``label`` and take it."""
    items = h.app.view.menu
    index = next(i for i, item in enumerate(items) if item.startswith(label))
    button(h, "menu", times=(index - h.app.view.menu_cursor) % len(items))
    button(h, "select")


def move(h, *steps: tuple[str, str]) -> None:
    for source, target in steps:
        h.sim.move(source, target)
    h.wait(300)


def throw(h, d1: int, d2: int) -> None:
    """Lay both dice in the wells (taking out the ones lying there first)."""
    h.sim.clear_dice()
    h.wait(80)
    h.sim.set_dice(d1, d2)
    h.wait(400)  # the dice count once they have rested (the referee's dice_rest_ms)


def table(harness, tmp_path: Path, config: Config | None = None):
    config = config or Config()
    config.referee.settle_ms = 200
    config.tutor.evaluator = "builtin"
    store = Store(tmp_path / "table.sqlite3")
    h = harness(config, store=store)
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(400)
    assert "setup-ok" in h.kinds()
    return h, store


def since(h, start: int, kind: str) -> list[dict]:
    return [e for e in h.events[start:] if e["event"] == kind]


def test_a_lesson_from_the_menu_runs_saves_and_resumes_with_the_wells_ignored(
    harness, tmp_path: Path
) -> None:
    h, store = table(harness, tmp_path)
    game_id = h.app.game_id
    button(h, "menu")
    pick(h, "Lessons")
    assert h.app.view.menu_title == "Lessons"
    assert h.app.view.menu[0] == "1. The board and the men"
    pick(h, "2. Moving the men")
    assert h.app.view.banner == "Lesson 2: Moving the men · step 1 of 12"  # the step counter
    assert h.app.view.menu == ()
    lesson = h.last("lesson")
    assert (lesson["lesson"], lesson["step"]) == ("moving", 1)
    assert h.app.view.messages["white"].text == lesson["text"]

    # stale dice lying in the wells are not a throw while a lesson runs
    start = len(h.events)
    h.sim.set_dice(6, 6)
    h.wait(300)
    assert since(h, start, "dice") == [] and since(h, start, "opening") == []

    # Select opens the whole text and its source on the side of the table, and closes it.
    legend = dict(h.app.view.legend["white"])
    assert legend["done"] == "next" and legend["select"] == "read all, and the source"
    button(h, "select")
    assert h.last("lesson")["step"] == 1 and h.app.view.show_detail == {"white": True}
    shown = h.app.view.messages["white"]
    assert shown.detail.startswith(lesson["text"])
    assert shown.title == "Lesson 2: Moving the men · step 1 of 12"
    assert shown.detail.endswith(f"From {lesson['detail']}.") and "(Cady 1895" in shown.detail
    assert dict(h.app.view.legend["white"])["select"] == "close the text"
    button(h, "select")
    assert h.app.view.show_detail == {"white": False}
    button(h, "select")
    button(h, "done", "white")  # step 2: lay out a new game; the table already shows it
    assert h.app.view.show_detail == {}  # a new text starts closed
    h.wait(300)
    played = h.last("dice")
    assert played["dice"] == [5, 2] and played["lesson"] == "moving"  # the lesson's own throw
    assert h.last("lesson")["step"] == 3

    move(h, ("13", "8"), ("13", "11"))
    button(h, "done", "white")
    result = h.last("lesson-result")
    assert result["correct"] is True and result["step"] == 3 and result["best"] is True
    assert sentence(result) == result["text"]  # said aloud as well as shown
    assert [e["dice"] for e in since(h, start, "dice")] == [[5, 2]]  # the wells never counted
    assert store.lesson_progress("guest-1") == {"moving": (3, False)}

    button(h, "menu")  # leave: progress kept, back to the lessons menu
    assert h.last("lesson-exit")["step"] == 3 and h.app.lesson is None
    assert h.app.view.menu_title == "Lessons"
    assert "2. Moving the men (step 3)" in h.app.view.menu

    pick(h, "2. Moving the men")  # resumes at step 3: put the men back for the play
    again = h.last("lesson")
    assert again["step"] == 3 and again["position"] == Position.standard().position_id()
    button(h, "menu")
    button(h, "back")  # Back from the lessons menu: the game is laid out again
    assert h.app.view.banner == "Tutor on" and h.app.setting_up
    h.sim.clear_dice()
    move(h, ("8", "13"), ("11", "13"))
    assert h.last("setup-ok")["restored"] is True

    recorded = store.events(game_id)
    assert not [e for e in recorded if "lesson" in e or e["event"].startswith("lesson")]
    assert store.turns(game_id) == []


def _bad_opening(h) -> None:
    """White wins the opening with 6-1 and plays 13/6, a bad play."""
    throw(h, 6, 1)
    assert h.last("opening")["starter"] == "white"
    move(h, ("13", "6"))
    button(h, "done", "white")
    assert h.last("play")["move"] == "13/6"
    assert h.app.coach is not None and h.app.coach.wait(30)
    h.wait(40)


def test_the_coach_rates_a_bad_play_and_back_takes_it_back(harness, tmp_path: Path) -> None:
    h, store = table(harness, tmp_path)
    game_id = h.app.game_id
    _bad_opening(h)
    coach = h.last("coach")
    assert coach["to"] == "white" and coach["rating"] == "very bad" and coach["best"] == "13/7 8/7"
    assert coach["evaluator"] == "builtin" and coach["take_back"] is True and coach["turn"] == 1
    shown = h.app.view.messages["white"]
    assert shown.text == coach["text"] and "13/7 8/7" in shown.text
    assert shown.detail == coach["detail"]
    assert h.app.modes.names() == ["game", "take-back-offer"]
    assert dict(h.app.view.legend["white"])["back"] == "take the play back"
    assert "back" not in dict(h.app.view.legend["black"])

    button(h, "back")
    taken = h.last("take-back")
    assert (taken["player"], taken["move"], taken["dice"]) == ("white", "13/6", [6, 1])
    game = h.app.referee.game
    assert game.position == Position.standard() and game.dice == (6, 1)
    assert game.phase == Phase.PLAY and game.turns == ()
    assert h.app.view.position == Position.standard() and h.app.view.dice == (6, 1)
    h.wait(300)
    assert h.app.setting_up and h.last("setup")["corrections"]
    move(h, ("6", "13"))
    assert h.last("setup-ok")["restored"] is True

    move(h, ("13", "7"), ("8", "7"))  # the same player, the same dice, a better play
    button(h, "done", "white")
    assert h.last("play")["move"] == "13/7 8/7"
    assert h.app.coach.wait(30)
    h.wait(40)
    assert h.last("coach")["rating"] == "fine" and h.last("coach")["turn"] == 1
    button(h, "back")  # no offer now: Back does nothing to the game
    assert len(h.app.referee.game.turns) == 1
    kinds = [e["event"] for e in store.events(game_id)]
    assert kinds.count("coach") == 2 and kinds.count("take-back") == 1


def test_back_leaving_a_menu_never_takes_a_play_back(harness, tmp_path: Path) -> None:
    h, _ = table(harness, tmp_path)
    _bad_opening(h)
    assert h.app.modes.names() == ["game", "take-back-offer"]
    button(h, "menu")  # the offer lapses: Menu does what it does in the game
    assert h.app.modes.names() == ["game", "menu"]
    pick(h, "Lessons")
    button(h, "back", times=3)  # out of the lessons, out of the menu, and once more
    assert h.app.modes.names() == ["game"]
    assert "take-back" not in h.kinds() and len(h.app.referee.game.turns) == 1
    assert "back" not in dict(h.app.view.legend["white"])


def test_the_offer_lapses_when_the_next_player_throws(harness, tmp_path: Path) -> None:
    h, _ = table(harness, tmp_path)
    _bad_opening(h)
    throw(h, 5, 2)  # black throws: the game has gone on
    assert h.last("dice")["player"] == "black"
    assert h.app.modes.names() == ["game"]
    button(h, "back")
    assert "take-back" not in h.kinds()


def test_a_play_taken_back_stays_taken_back_after_a_restart(harness, tmp_path: Path) -> None:
    h, store = table(harness, tmp_path)
    game_id = h.app.game_id
    _bad_opening(h)
    button(h, "back")
    assert h.last("take-back")["move"] == "13/6"
    game = store.load_game(game_id)
    assert (game.position, game.dice, game.phase) == (Position.standard(), (6, 1), Phase.PLAY)
    assert store.turns(game_id) == []


def test_doubling_taking_and_passing_with_the_buttons(harness, tmp_path: Path) -> None:
    config = Config()
    config.tutor.enabled = False
    h, store = table(harness, tmp_path, config)
    game_id = h.app.game_id
    button(h, "menu")
    assert not any(item.startswith("Double") for item in h.app.view.menu)  # not before a throw
    button(h, "back")
    throw(h, 6, 1)
    move(h, ("13", "7"), ("8", "7"))
    button(h, "done", "white")

    button(h, "menu")  # black is on roll: the menu offers the double
    pick(h, "Double to 2 (black offers)")
    assert h.last("cube") == {
        "event": "cube",
        "action": "double",
        "player": "black",
        "cube": [1, None],
    }
    assert "Black doubles to 2. Select: take, Back: pass." in h.app.view.messages["white"].text
    button(h, "done", "black")  # no throw while the double is on offer
    assert h.app.referee.game.phase == Phase.DOUBLE_OFFERED
    button(h, "select")  # white takes
    assert h.last("cube")["action"] == "take" and h.last("cube")["player"] == "white"
    assert h.app.view.cube == (2, "white")
    assert store.load_game(game_id).cube == Cube(2, WHITE)

    throw(h, 6, 5)  # black brings two builders down: 13/7 13/8
    move(h, ("12", "18"), ("12", "17"))
    button(h, "done", "black")
    assert h.last("play")["player"] == "black"
    button(h, "menu")  # white owns the cube and redoubles
    pick(h, "Double to 4 (white offers)")
    button(h, "back")  # black passes: white wins what the cube held
    assert h.last("cube")["action"] == "pass" and h.last("cube")["player"] == "black"
    over = h.last("game-over")
    assert (over["winner"], over["points"]) == ("white", 2)
    assert h.app.view.score == (2, 0)
    summary = store.game(game_id)
    assert (summary.winner, summary.result, summary.points) == ("white", "single", 2)
    actions = [(e["action"], e["player"]) for e in store.events(game_id) if e["event"] == "cube"]
    assert actions == [
        ("double", "black"),
        ("take", "white"),
        ("double", "white"),
        ("pass", "black"),
    ]


def test_a_starter_who_refuses_the_opening_cast_throws_afresh(harness, tmp_path: Path) -> None:
    config = Config()
    config.rules.profile = "hoffmann"  # the winner may play the cast or throw afresh
    config.tutor.enabled = False
    h, store = table(harness, tmp_path, config)
    throw(h, 3, 1)
    assert h.last("opening")["option"] is True and h.last("opening")["starter"] == "white"
    throw(h, 6, 5)
    assert h.last("dice") == {"event": "dice", "player": "white", "dice": [6, 5]}
    game = store.load_game(h.app.game_id)
    assert (game.turn, game.dice, game.phase) == (WHITE, (6, 5), Phase.PLAY)


def test_the_coach_follows_the_tutor_section(harness, tmp_path: Path) -> None:
    config = Config()
    config.tutor.doubtful, config.tutor.bad, config.tutor.very_bad = 0.01, 0.02, 0.05
    h, _ = table(harness, tmp_path, config)
    assert isinstance(h.app, App) and h.app.coach is not None
    assert h.app.coach.evaluator == "builtin" and h.app.coach.teaching
    _bad_opening(h)
    assert h.last("coach")["rating"] == "very bad"  # 0.15 lost is very bad at 0.05


def test_a_lesson_started_over_another_shows_its_own_title(harness, tmp_path: Path) -> None:
    h, _ = table(harness, tmp_path)
    button(h, "menu")
    pick(h, "Lessons")
    pick(h, "2. Moving the men")
    assert h.app.view.banner == "Lesson 2: Moving the men · step 1 of 12"
    h.app.start_lesson("the-board")  # as the teacher's page starts one over another
    h.wait(100)
    assert h.app.view.banner.startswith("Lesson 1: The board and the men · step 1 of ")
