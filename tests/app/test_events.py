"""Typed events: the JSON of every event the table makes reads back to the same event and
writes out exactly as before (same keys, same order); a play carries its Play."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kiosk.app.demo import run_demo
from kiosk.display.view import TableView
from kiosk.events import (
    EVENTS,
    MISSING,
    Button,
    Dice,
    LessonEvent,
    Played,
    event_for,
    from_json,
)
from kiosk.rig.scenario import run_script
from kiosk.rules import Colour, Position


def test_every_event_of_a_whole_demo_round_trips_key_for_key(tmp_path: Path) -> None:
    seen: list[dict] = []
    run_demo(tmp_path, emit=seen.append)
    kinds = {e["event"] for e in seen}
    assert {"dice", "destinations", "illegal", "legal", "play", "coach", "game-over"} <= kinds
    for data in seen:
        again = from_json(data).to_json()
        assert again == data and list(again) == list(data)
        assert json.dumps(again) == json.dumps(data)


def test_the_scenario_contract_writes_the_same_json() -> None:
    out = io.StringIO()
    script = [
        "setup standard",
        "opening 3 1",
        "lift 8",
        "place 5",
        "lift 6",
        "place 5",
        "press done",
    ]
    run_script(script, out)
    lines = [json.loads(line) for line in out.getvalue().splitlines() if line]
    play = next(e for e in lines if e["event"] == "play")
    assert list(play) == ["event", "player", "dice", "move", "position"]
    assert play["move"] == "8/5 6/5" and play["player"] == "white"
    for data in lines:
        if data["event"] in EVENTS:
            assert list(from_json(data).to_json()) == list(data)


def test_colours_stay_colours_and_the_play_is_carried() -> None:
    event = event_for("dice", player="black", dice=[6, 5])
    assert event == Dice(player=Colour.BLACK, dice=(6, 5))
    assert Button(button="menu").player is MISSING
    assert Button(button="done", player="white").to_json()["player"] == "white"
    with pytest.raises(ValueError, match="no event is called"):
        event_for("dance")


def test_the_view_draws_arrows_from_the_play_without_the_move_generator(monkeypatch) -> None:
    start = Position.standard()
    play = start.parse_play(3, 1, "8/5 6/5")
    event = Played(
        player="white",
        dice=(3, 1),
        move="8/5 6/5",
        position=play.result.position_id(),
        play=play,
    )
    view = TableView()
    monkeypatch.setattr(Position, "parse_play", lambda *a, **k: pytest.fail("parsed again"))
    monkeypatch.setattr(Position, "legal_plays", lambda *a, **k: pytest.fail("generated"))
    view.apply(event)
    assert view.last_play == (("8", "5"), ("6", "5"))
    assert view.turn == "black"


def test_a_lessons_event_keeps_its_json_and_its_typed_inside() -> None:
    data = {"event": "dice", "player": "white", "dice": [5, 2], "lesson": "moving"}
    event = from_json(data)
    assert isinstance(event, LessonEvent) and event.kind == "dice" and event.lesson == "moving"
    assert event.inner == Dice(player=Colour.WHITE, dice=(5, 2))
    assert event.to_json() == data
