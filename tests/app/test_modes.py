"""The table as a stack of modes, and a visitor who always knows what to do next: each
point checked on the event stream and the view the display draws."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from kiosk.app.doctor import store_path
from kiosk.app.modes.attract import NoticeMode
from kiosk.app.modes.entry import PinEntryMode, PinLock
from kiosk.config import Config, load_config_text
from kiosk.display import Calibration, Display
from kiosk.display.screen import SETTLING_FRAMES
from kiosk.events import CoachVerdict
from kiosk.rules import Position
from kiosk.simtable import STARTING_POSITION
from kiosk.store import Store


def button(h, name: str, player: str | None = None, times: int = 1) -> None:
    h.press(name, player, times)


def ready(harness, config: Config | None = None, **kwargs):
    config = config or Config()
    config.referee.settle_ms = 200
    config.installer.pin = "2468"
    config.tutor.enabled = False
    h = harness(config, **kwargs)
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(400)
    assert "setup-ok" in h.kinds()
    h.app.modes.drop(NoticeMode)  # "no database" (most tests run without one): read
    return h


def throw(h, d1: int, d2: int) -> None:
    h.sim.clear_dice()
    h.wait(80)
    h.sim.set_dice(d1, d2)
    h.wait(400)  # the dice count once they have rested (the referee's dice_rest_ms)


def legend(h, player: str) -> dict[str, str]:
    return dict(h.app.view.legend[player])


def test_the_legend_names_what_each_button_does_on_each_side(harness) -> None:
    h = ready(harness)
    assert h.app.modes.names() == ["game"]
    assert legend(h, "white") == {"menu": "menu"}  # the dice go in the wells: no Done
    throw(h, 6, 1)
    assert h.last("opening")["starter"] == "white"
    assert legend(h, "white") == {"done": "end your turn", "menu": "menu"}
    assert legend(h, "black") == {"menu": "menu"}
    button(h, "menu", "black")
    assert h.app.modes.names() == ["game", "menu"]
    assert legend(h, "white") == {
        "menu": "next item",
        "select": "choose",
        "back": "leave the menu",
    }
    button(h, "back")
    assert h.app.modes.names() == ["game"] and h.app.view.menu == ()


def test_a_whole_play_down_says_press_done_and_clears_the_ring(harness) -> None:
    h = ready(harness)
    throw(h, 6, 1)
    h.sim.lift("13")
    h.wait(300)
    assert h.app.view.lifted == "13" and h.app.view.targets
    h.sim.place("7", "white")
    h.wait(300)
    assert h.app.view.lifted is None and h.app.view.targets == ()  # the man is down
    h.sim.move("8", "7")
    h.wait(300)
    said = h.last("message")
    assert said["to"] == "white" and "press Done" in said["text"] and said["complete"]
    assert h.app.view.messages["white"].text == said["text"]
    assert h.app.view.lifted is None and h.app.view.targets == ()
    button(h, "done", "white")
    assert h.last("play")["move"] == "13/7 8/7"


def test_the_end_of_a_game_stays_until_a_button(harness, tmp_path: Path) -> None:
    config = Config()
    h = ready(harness, config, store=Store(tmp_path / "t.sqlite3"))
    throw(h, 6, 1)
    h.sim.move("13", "7")
    h.sim.move("8", "7")
    h.wait(300)
    button(h, "done", "white")
    button(h, "menu")
    items = h.app.view.menu
    button(h, "menu", times=next(i for i, t in enumerate(items) if t.startswith("Double")))
    button(h, "select")  # black doubles
    assert h.app.modes.names() == ["game", "double-offer"]
    assert legend(h, "white") == {"select": "take the double", "back": "pass", "menu": "menu"}
    button(h, "back")  # white passes
    over = h.last("game-over")
    assert over["winner"] == "black"
    h.wait(5000)  # time passes: the result stays on the screen
    said = {p: h.app.view.messages[p].text for p in ("white", "black")}
    assert said == {
        "white": "Black wins 1 point: you passed the double.",  # the result on each line
        "black": "You won 1 point: White passed the double.",
    }
    for player in ("white", "black"):
        assert legend(h, player) == {"done": "new game", "menu": "menu"}
    assert h.app.modes.names() == ["game", "game-end"]
    button(h, "done", "white")
    assert h.last("new-game") and h.app.modes.names() == ["game"]


def test_the_opening_throw_shows_both_dice(harness) -> None:
    h = ready(harness)
    assert h.app.view.opening  # both bands say "FIRST THROW": nobody's turn yet
    throw(h, 2, 5)
    assert h.last("opening")["starter"] == "black"
    assert h.app.view.dice == (2, 5) and h.app.view.turn == "black"
    assert not h.app.view.opening
    said = h.app.view.messages
    assert said["black"].text == (
        "You start: you threw 5, white threw 2. Play 2-5: move your men, then press Done."
    )
    assert said["white"].text == "Black starts and plays 2-5."


def test_the_attract_screen_after_idle_minutes(harness) -> None:
    config = Config()
    config.display.invite_after_s = 3
    h = ready(harness, config)
    h.wait(3200)
    assert h.app.modes.names() == ["game", "attract"]
    assert h.app.view.menu_title == "Backgammon Table"
    assert "Come and play backgammon!" in h.app.view.menu
    button(h, "select")  # wakes the table: the choice of what to do, and nothing else
    assert h.app.modes.names() == ["game", "menu"] and h.app.view.show_detail == {}
    assert h.app.view.menu_title == "Welcome: what would you like to do?"
    assert h.app.view.menu == (  # no game under way yet: nothing to carry on with
        "A new game, the tutor watching",
        "Lessons: learn the game step by step",
        "Play against the table",
        "Everything else: the main menu",
    )
    button(h, "back")
    h.wait(3200)
    assert h.app.modes.names() == ["game", "attract"]
    h.sim.move("13", "12")  # a man moved wakes it too
    h.wait(200)
    assert h.app.modes.names() == ["game", "menu"]


def test_a_game_left_long_is_put_away_after_a_warning(harness) -> None:
    config = Config()
    config.display.invite_after_s, config.display.put_away_after_s = 3, 10
    h = ready(harness, config)
    throw(h, 3, 1)
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")  # a game under way, then nobody at the table
    h.wait(10_500)
    assert h.app.modes.names() == ["game", "attract", "abandon-warning"]
    assert h.app.view.menu_title == "Is anybody still playing?"
    assert h.app.view.menu[1].startswith("In 60 s it is put away")
    h.wait(20_000)  # the countdown on the card (WCAG 2.2.1: time to answer)
    assert h.app.view.menu[1].startswith("In 40 s")
    button(h, "done", "black")  # somebody is: the game is kept, the press does nothing else
    assert h.app.modes.names() == ["game"] and len(h.app.core.game.turns) == 1
    assert h.kinds().count("dice") == 0  # that Done threw nothing
    h.wait(10_500 + 60_500)  # left again, and nobody answers this time
    assert h.app.modes.names() == ["game", "attract"]
    assert h.last("new-game") and h.app.core.game.turns == ()
    assert h.app.view.menu_title == "Backgammon Table"


def test_what_is_missing_is_for_the_installer_not_the_visitor(harness) -> None:
    config = Config()
    config.referee.settle_ms = 200
    h = harness(config, store_problem="database is locked")
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(200)
    assert h.app.modes.names() == ["game"]  # nothing put before the visitor
    assert h.app.installer_notes == [
        "Games are not being saved: no database.",
        "'kiosk doctor' says why.",
        "The installer's PIN is still the default.",
    ]
    h.app.ask_pin()
    h.wait(40)
    for digit in (1, 2, 3, 4):  # the default PIN
        button(h, "menu", times=digit)
        button(h, "select")
    assert h.app.view.menu_title == "Settings"
    notes = h.app.view.menu.index("Notes for the installer (3)")
    button(h, "menu", times=notes)
    button(h, "select")
    assert h.app.view.menu == tuple(h.app.installer_notes)


def test_the_simulated_tables_note_closes_with_a_button_that_does_nothing_else(harness) -> None:
    config = Config()
    config.referee.settle_ms = 200
    config.installer.pin = "2468"
    h = harness(config)
    h.app.simulator = h.sim
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(400)
    assert h.app.modes.names() == ["game", "notice"]
    assert h.app.view.menu == ("A simulated table: drag the men with the mouse.",)
    button(h, "done", "white")  # closes the note, and throws no dice
    assert h.app.modes.names() == ["game"] and "opening" not in h.kinds()
    h.wait(40_000)
    notes = [e for e in h.events if e["event"] == "menu" and e["title"] == "Please note"]
    assert len(notes) == 1  # said once


def test_number_keys_pick_the_items_shown_numbered_without_gaps(harness) -> None:
    h = ready(harness)
    button(h, "menu")
    numbers = dict(zip(h.app.view.menu, h.app.view.menu_numbers, strict=True))
    assert numbers["Lessons: learn the game step by step"] == 2  # near the top
    assert "Double to 2 (white offers)" not in numbers  # nobody may double yet
    assert list(numbers.values()) == list(range(1, len(numbers) + 1))  # issue 35: no gaps
    h.app.modes.top.pick(2)
    h.wait(40)
    assert h.app.view.menu_title == "Lessons"
    button(h, "back")
    button(h, "back")
    throw(h, 3, 1)
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")
    button(h, "menu", "black")  # black may double now: the item shows, numbered 2
    shown = dict(zip(h.app.view.menu, h.app.view.menu_numbers, strict=True))
    assert shown["Double to 2 (black offers)"] == 2
    assert shown["Lessons: learn the game step by step"] == 3  # the double comes before it
    assert list(shown.values()) == list(range(1, len(shown) + 1))
    h.app.modes.top.pick(3)
    h.wait(40)
    assert h.app.view.menu_title == "Lessons"


def test_the_keyboards_number_row_picks_a_long_menus_tenth_item(harness) -> None:
    h = ready(harness)
    throw(h, 3, 1)
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")
    button(h, "menu", "black")  # black may double: the main menu's items fill the row
    assert max(h.app.view.menu_numbers) > 9  # the main menu has more items than digits
    keys = dict(zip(h.app.view.menu, h.app.view.menu_numbers, strict=True))
    assert keys["Replay a game"] == 9 and keys["Settings (installer)"] == 10
    h.app.window.input(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_0, unicode="0"))
    h.wait(40)
    assert h.app.modes.names()[-1] == PinEntryMode.name  # 0 is the tenth key of the row


def test_the_pin_has_an_attempt_limit_and_a_back_off(harness) -> None:
    h = ready(harness)
    h.app.ask_pin()
    h.wait(40)
    for _ in range(3):
        button(h, "select", times=4)  # 0000
    assert h.app.view.menu[0] == "Wait 30 s: too many wrong PINs"
    for digit in (2, 4, 6, 8):  # the right PIN, too early: not taken
        button(h, "menu", times=digit)
        button(h, "select")
    assert h.app.modes.names() == ["game", "pin"]
    h.wait(30_000)
    assert h.app.view.menu[0] == "[0]"
    for digit in (2, 4, 6, 8):
        button(h, "menu", times=digit)
        button(h, "select")
    assert h.app.modes.names() == ["game", "settings"]
    lock = PinLock()
    assert [lock.wrong(0) for _ in range(6)] == [0, 0, 30, 60, 120, 240]


def test_an_unfinished_game_and_a_position_given_asks_which(harness, tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    with Store(path) as store:
        store.start_game("modern", Position.standard().position_id(), "white")
    given = Position.from_id("4HPwATDgc/ABMA")
    h = ready(harness, store=Store(path), start_position=given)
    assert h.last("resume")
    assert h.app.view.menu_title == "An unfinished game was found"
    assert h.app.view.menu == ("Go on with the unfinished game", "Start the position given")
    button(h, "menu")
    button(h, "select")
    assert h.last("new-game")["position"] == given.position_id()


def test_the_database_named_in_the_environment_is_used(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BACKGAMMON_TABLE_DB", str(tmp_path / "x.sqlite3"))
    assert store_path(Config()) == tmp_path / "x.sqlite3"
    monkeypatch.delenv("BACKGAMMON_TABLE_DB")
    assert store_path(Config()) == Path(Config().store.path).expanduser()


@pytest.mark.parametrize("fullscreen", [False, True])
def test_visitors_cannot_quit_only_the_installer_can(harness, fullscreen: bool) -> None:
    """Issue 27, item 7: with ``fullscreen = false`` (the built-in default) the visitors'
    menu had Quit, which exits 0 and is not restarted. Quit is the installer's, behind the PIN."""
    config = Config()
    config.display.fullscreen = fullscreen
    h = ready(harness, config)
    button(h, "menu")
    assert not any("quit" in item.lower() for item in h.app.view.menu)
    button(h, "back")
    h.app.ask_pin()
    h.wait(40)
    for digit in (2, 4, 6, 8):
        button(h, "menu", times=digit)
        button(h, "select")
    assert h.app.view.menu[-1] == "Quit the application"
    button(h, "menu", times=len(h.app.view.menu) - 1)
    button(h, "select")
    assert not h.app.running


def test_dropping_a_man_on_a_blot_hits_it_and_done_ends_the_turn(harness) -> None:
    h = ready(harness)
    h.app.simulator = h.sim
    h.app.calibration = cal = Calibration.default(1280, 720)
    throw(h, 3, 1)  # white: 8/5 6/5
    h.sim.move("8", "5")
    h.sim.move("6", "5")
    h.wait(300)
    button(h, "done", "white")
    throw(h, 6, 4)  # black: 24/14, a blot on white's 11 point
    h.sim.move("1", "11")
    h.wait(300)
    button(h, "done", "black")
    assert h.last("play")["move"] == "24/14"
    throw(h, 2, 1)  # white hits it with the mouse: 13/11*, then 6/5
    h.app.input(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=cal.slot_xy("13", 4)))
    h.app.input(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=cal.slot_xy("11", 0)))
    assert [m.name for m in h.sim.men("11")] == ["WHITE"]
    assert [m.name for m in h.sim.men("bar-black")] == ["BLACK"]
    h.sim.move("6", "5")
    h.wait(300)
    assert "press Done" in h.app.view.messages["white"].text
    button(h, "done", "white")
    assert h.last("play")["move"] == "13/11* 6/5"
    assert "put the man down" not in str(h.events)


def test_nothing_is_drawn_while_nothing_changes(harness) -> None:
    display = Display(Calibration.default(1280, 720), fullscreen=False, headless=True)
    drawn = []
    real = display.renderer.draw
    display.renderer.draw = lambda view, now: (drawn.append(now), real(view, now))[1]
    h = ready(harness, display=display)
    h.wait(SETTLING_FRAMES * 40)  # a new window is drawn every frame while it is mapped
    drawn.clear()
    h.wait(2000)  # fifty turns of the loop, nobody at the table
    assert drawn == []
    button(h, "menu")
    assert drawn  # a change is drawn at once


@pytest.mark.parametrize("pressed", ["done", "select"])
def test_a_wrong_players_done_or_select_keeps_the_coachs_verdict(harness, pressed) -> None:
    h = ready(harness)
    throw(h, 6, 1)
    h.sim.move("13", "7")
    h.sim.move("8", "7")
    h.wait(300)
    button(h, "done", "white")
    verdict = {"event": "coach", "to": "white", "text": "Good play: 13/7 8/7.", "detail": "x"}
    h.app.bus.publish(CoachVerdict(data=verdict))
    h.wait(40)
    button(h, pressed, "white")  # W (black is on roll) or Select (opens the explanation)
    assert h.app.view.messages["white"].text == "Good play: 13/7 8/7."


def test_the_dice_rest_time_is_a_setting(harness) -> None:
    config = load_config_text("[referee]\ndice_rest_ms = 800\n")
    h = ready(harness, config)
    assert h.app.referee is not None and h.app.referee.config.dice_rest == 800


def _played_long_ago(path: Path, monkeypatch, hours: float) -> None:
    """A store holding a game with one turn played, last touched ``hours`` ago."""
    from datetime import UTC, datetime, timedelta

    import kiosk.store.store as store_module

    then = (datetime.now(UTC) - timedelta(hours=hours)).isoformat(timespec="milliseconds")
    with monkeypatch.context() as m:
        m.setattr(store_module, "_now", lambda: then)
        with Store(path) as store:
            game = store.start_game("modern", Position.standard().position_id(), "white")
            store.record(game, {"event": "opening", "starter": "white", "dice": [3, 1],
                                "message": "white plays 3-1."})
            store.record(game, {"event": "play", "player": "white", "dice": [3, 1],
                                "move": "8/5 6/5", "position": "4HPwATDgc/ABMA"})


@pytest.mark.parametrize("answered", [True, False])
def test_a_game_found_old_after_a_restart_is_not_resumed_silently(
    harness, tmp_path: Path, monkeypatch, answered: bool
) -> None:
    path = tmp_path / "t.sqlite3"
    _played_long_ago(path, monkeypatch, hours=2)
    h = ready(harness, store=Store(path))
    assert h.last("resume")["turns"] == 1
    assert h.app.modes.names() == ["game", "abandon-warning"]
    assert h.app.view.menu[0] == "This game was left 2 hours ago."
    if answered:
        button(h, "select")  # somebody is playing it: kept
        h.wait(70_000)
        assert h.app.modes.names()[:1] == ["game"] and len(h.app.core.game.turns) == 1
        assert "new-game" not in h.kinds()
    else:
        h.wait(61_000)
        assert h.last("new-game") and h.app.core.game.turns == ()
        assert "attract" in h.app.modes.names()


def test_a_game_played_a_moment_ago_is_resumed_after_a_restart(
    harness, tmp_path: Path, monkeypatch
) -> None:
    path = tmp_path / "t.sqlite3"
    _played_long_ago(path, monkeypatch, hours=0.01)  # a power cut in the middle of play
    h = ready(harness, store=Store(path))
    assert h.app.modes.names() == ["game"] and h.last("resume")["turns"] == 1
