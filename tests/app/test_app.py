"""The application loop: menus, the installer's PIN, settings, replays, digital dice,
the connection shown and regained, the simulated table under the mouse, the demo."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest

from kiosk.app.demo import run_demo
from kiosk.app.dice import DiceEntry, digital_throw, resolve_source
from kiosk.app.speech import KEEP_SPOKEN, Speaker, sentence
from kiosk.config import Config, SpeechSection, load_config
from kiosk.display import Calibration
from kiosk.events import Dice, Legal, Message
from kiosk.link.link import NOT_CONNECTED
from kiosk.simtable import STARTING_POSITION


def button(h, name: str, player: str | None = None, times: int = 1) -> None:
    h.press(name, player, times)


def ready(harness, config: Config | None = None, **kwargs):
    config = config or Config()
    config.referee.settle_ms = 200
    h = harness(config, **kwargs)
    h.sim.set_position(STARTING_POSITION)
    h.app.start()
    h.wait(400)
    assert "setup-ok" in h.kinds()
    return h


def test_digital_dice_start_the_game_and_the_view_follows(harness) -> None:
    config = Config()
    config.dice.source = "digital"
    h = ready(harness, config)
    assert h.app.view.connected
    for _ in range(20):  # a tie means throw again
        button(h, "done", "white")
        if h.last("opening").get("starter"):
            break
    opening = h.last("opening")
    d1, d2 = opening["dice"]
    assert 1 <= d1 <= 6 and 1 <= d2 <= 6 and d1 != d2
    assert h.app.view.turn == opening["starter"]


def test_the_menu_pin_and_settings_saved_to_the_file(harness, tmp_path: Path) -> None:
    config = Config()
    config.installer.pin = "2101"
    config.dice.source = "digital"
    path = tmp_path / "config.toml"
    h = ready(harness, config, config_file=path)
    button(h, "menu")
    assert h.app.view.menu_title == "Backgammon Table"
    settings = h.app.view.menu.index("Settings (installer)")
    button(h, "menu", times=settings)
    button(h, "select")
    assert h.app.view.menu_title == "Installer PIN" and h.app.view.menu == ("[0]",)
    assert h.app.modes.names() == ["game", "pin"]
    # a wrong PIN first: 0000; the card says so, and the digits start again
    button(h, "select", times=4)
    assert h.app.view.menu == ("[0]", "That PIN is not right.")
    # then 2101
    for digit in (2, 1, 0, 1):
        button(h, "menu", times=digit)
        button(h, "select")
    assert h.app.view.menu_title == "Settings"
    assert h.app.view.menu[0] == "Tutor: on"
    button(h, "select")  # tutor off
    assert h.app.view.menu[0] == "Tutor: off" and h.app.view.banner == "Tutor off"
    button(h, "menu")
    button(h, "select")  # dice: digital -> auto
    assert h.app.view.menu[1] == "Dice: auto"
    button(h, "menu", times=h.app.view.menu.index("Save these settings") - 1)
    assert h.app.view.menu[h.app.view.menu_cursor] == "Save these settings"
    button(h, "select")
    saved = load_config(path)
    assert saved.tutor.enabled is False and saved.dice.source == "auto"
    assert saved.installer.pin == "2101"


def test_select_opens_the_explanation_of_the_player_it_is_about(harness) -> None:
    h = ready(harness)
    button(h, "select")  # nothing to explain yet: Select does nothing and is not offered
    assert h.app.view.show_detail == {}
    assert "select" not in dict(h.app.view.legend["white"])
    # a verdict for black while white is on roll (after black's play, as the coach gives it)
    h.app.bus.publish(Message(to="black", text="Black: a bad play.", detail="13/7 8/7 was best."))
    h.wait(40)
    assert dict(h.app.view.legend["black"])["select"] == "explanation"
    assert "select" not in dict(h.app.view.legend["white"])
    button(h, "select")  # the window's Enter names no player
    assert h.app.view.show_detail == {"black": True}
    assert dict(h.app.view.legend["black"])["select"] == "close the explanation"
    button(h, "select")
    assert h.app.view.show_detail == {"black": False}


def test_choosing_a_new_game_without_the_tutor(harness) -> None:
    h = ready(harness)
    button(h, "menu")
    button(h, "menu", times=h.app.view.menu.index("New game without the tutor"))
    button(h, "select")
    assert h.last("new-game")["tutor"] is False
    assert h.app.view.banner == "Tutor off" and h.app.view.menu == ()
    h.wait(400)
    assert h.kinds().count("setup-ok") == 2


def test_replaying_crawleys_first_game_and_back_to_the_table(harness) -> None:
    h = ready(harness)
    button(h, "menu")
    button(h, "menu", times=h.app.view.menu.index("Replay a game"))
    button(h, "select")
    assert h.app.view.menu_title == "Replay a game"
    assert h.app.view.menu[0].startswith("Crawley, First Game")
    button(h, "select")
    assert h.app.view.banner.startswith("Replay: Crawley, First Game")
    start = h.app.view.position
    button(h, "done", "white")
    first = h.last("position")
    assert first["text"].startswith("Turn 1 of")
    assert h.app.view.position != start and h.app.view.last_play
    assert dict(h.app.view.legend["white"]) == {
        "done": "next turn",
        "select": "turn before",
        "back": "leave the replay",
        "menu": "menu",
    }
    button(h, "select")
    assert h.app.view.position == start
    assert h.app.modes.names() == ["game", "replay"]
    button(h, "back")  # before the start: the replay ends, the table is restored
    assert h.last("mode")["mode"] == "game"
    h.wait(400)
    assert h.last("setup-ok")["restored"] is True


def test_the_connection_is_shown_lost_and_regained(harness) -> None:
    h = ready(harness)
    assert h.app.view.connected
    h.sim.unplug()
    deadline = time.monotonic() + 10
    while h.app.view.connected and time.monotonic() < deadline:
        time.sleep(0.02)
        h.app.step(h.now)
    assert not h.app.view.connected
    # plain words for the visitors (issue 27, item 13), not pyserial's "device reports
    # readiness to read but returned no data (device disconnected or multiple access...)"
    assert h.app.view.connection_message == NOT_CONNECTED
    h.sim.replug()
    assert h.link.wait_connected(10)
    h.wait(400)
    assert h.app.view.connected and h.last("table")["status"] == "connected"


def test_the_mouse_drags_a_man_on_the_simulated_table(harness) -> None:
    config = Config()
    h = harness(config)
    # the app drives its own simulated table: hand it the harness's one
    h.app.simulator = h.sim
    h.app.calibration = Calibration.default(1280, 720)
    h.app.start()
    h.wait(400)
    cal = h.app.calibration
    h.app.input(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=cal.slot_xy("13", 4)))
    assert h.app.window.drag == ("13", "white")
    h.app.input(pygame.event.Event(pygame.MOUSEBUTTONUP, button=1, pos=cal.slot_xy("10", 0)))
    assert len(h.sim.men("13")) == 4 and len(h.sim.men("10")) == 1
    h.wait(400)
    assert h.app.view.board is not None and h.app.view.board["10"] == (1, 0)
    assert h.app.view.simulated  # the display draws the men of a simulated table
    assert h.last("illegal")["reason"] == "throw-first"
    h.app.input(pygame.event.Event(pygame.MOUSEBUTTONDOWN, button=1, pos=(3, 3)))
    assert h.app.window.drag is None  # nothing there


def test_dice_sources_and_button_entry() -> None:
    assert resolve_source("auto", simulated=True) == "digital"
    assert resolve_source("auto", simulated=False) == "buttons"  # until wells are proven
    assert resolve_source("buttons", simulated=True) == "buttons"
    with pytest.raises(ValueError, match="allowed: auto, wells, buttons, digital"):
        resolve_source("coins", simulated=False)
    throws = {digital_throw() for _ in range(400)}
    assert {d for pair in throws for d in pair} == {1, 2, 3, 4, 5, 6}
    entry = DiceEntry()
    for _ in range(7):
        entry.up()  # 1 -> ... -> 6 -> 1 -> 2
    assert entry.select() is None
    assert entry.back() and entry.value == 2 and not entry.back()
    entry.select()
    entry.up()
    assert entry.select() == (2, 2)


def test_speech_says_events_into_wav_files(tmp_path: Path) -> None:
    speaker = Speaker(SpeechSection(), record_dir=tmp_path)
    if speaker.problem:
        pytest.skip(speaker.problem)
    speaker.follow(Dice(player="black", dice=(6, 6)))
    speaker.follow(Legal(player="white"))  # nothing to say
    assert speaker.wait_idle()
    speaker.close()
    assert list(speaker.spoken) == ["Black threw 6 6."] and speaker.said == 1
    wav = tmp_path / "0001.wav"
    assert wav.read_bytes()[:4] == b"RIFF" and wav.stat().st_size > 1000
    silent = Speaker(SpeechSection(enabled=False))
    silent.say("nothing")
    assert "switched off" in silent.problem and not silent.spoken
    assert sentence({"event": "table", "status": "disconnected"}) == "The table is not connected."


def test_the_sentences_kept_are_bounded(tmp_path: Path) -> None:
    """Issue 27, item 12: Speaker.spoken kept every sentence said, for months."""
    speaker = Speaker(SpeechSection(), record_dir=tmp_path)
    if speaker.problem:
        pytest.skip(speaker.problem)
    for n in range(KEEP_SPOKEN + 10):
        speaker.say(f"{n}.")
        assert speaker.wait_idle()
    speaker.close()
    assert speaker.said == KEEP_SPOKEN + 10 and len(speaker.spoken) == KEEP_SPOKEN
    assert speaker.spoken[-1] == f"{KEEP_SPOKEN + 9}."
    assert (tmp_path / f"{KEEP_SPOKEN + 10:04d}.wav").exists()


def test_the_headless_demo_saves_its_screenshots(tmp_path: Path) -> None:
    events: list[dict] = []
    shots = run_demo(tmp_path, emit=events.append)
    names = [Path(p).stem.split("-", 2)[2] for p in shots]
    assert names == [
        "set-up",
        "opening-throw",
        "lifted-with-destinations",
        "wrong-placement",
        "corrected",
        "press-done",
        "coach-verdict",
        "coach-explanation",
        "black-hit",
        "game-end",
    ]
    for path in shots:
        assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    kinds = [e["event"] for e in events]
    assert {"destinations", "illegal", "legal", "play", "coach", "game-over"} <= set(kinds)
    plays = [e["move"] for e in events if e["event"] == "play"]
    assert plays == ["13/11 13/8", "24/14*"]
    assert any(e["event"] == "message" and e.get("complete") for e in events)
