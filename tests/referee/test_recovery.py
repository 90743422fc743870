"""Recovery: the table is compared with the game after a disconnect or a restart."""

from kiosk.link import TableLayout
from kiosk.referee import Referee, RefereeConfig
from kiosk.rules import BLACK, Game, Phase, Position
from kiosk.table import TableReading, project
from tests.referee.hands import kinds, run


def test_unplugged_mid_turn_and_disturbed_table_is_restored():
    events = run(
        [
            "setup standard",
            "dice 3 1",
            "lift 8",
            "place 5",
            "wait 400",
            "unplug",
            "lift 13",
            "place 12",
            "replug",
            "wait 400",  # a man knocked while unplugged
            "lift 12",
            "place 13",
            "wait 400",
            "lift 6",
            "place 5",
            "press done",
        ]
    )
    statuses = [e["status"] for e in kinds(events, "table")]
    assert statuses[-2:] == ["disconnected", "connected"]
    guidance = kinds(events, "setup")
    assert guidance and guidance[0]["corrections"][0]["table"] in ("12", "13")
    assert {"event": "setup-ok", "restored": True} in events
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]


def test_a_move_made_while_unplugged_is_judged_on_reconnect():
    events = run(
        [
            "setup standard",
            "dice 3 1",
            "lift 8",
            "place 5",
            "unplug",
            "lift 6",
            "place 5",
            "replug",
            "wait 400",
            "press done",
        ]
    )
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]
    assert kinds(events, "illegal") == []


def test_restart_guides_the_players_back_to_the_stored_position():
    stored = Position.standard().parse_play(3, 1, "8/5 6/5").result  # black to throw
    game = Game(position=stored, phase=Phase.ROLL)
    events = []
    layout = TableLayout()
    referee = Referee(
        game, layout, RefereeConfig(settle_ms=100), emit=lambda e: events.append(e.to_json())
    )
    referee.set_up(stored, restoring=True)
    table = project(Position.standard(), layout)  # the table still shows the start
    referee.sense(TableReading.of(table, "polarity"), 0)
    referee.tick(200)
    [guide] = kinds(events, "setup")
    assert {c["table"] for c in guide["corrections"]} == {"8", "6", "5"}
    referee.sense(TableReading.of(project(stored, layout), "polarity"), 300)
    referee.tick(500)
    assert events[-1] == {"event": "setup-ok", "restored": True}
    referee.throw(6, 5, 600)
    assert kinds(events, "dice")[-1]["player"] == str(BLACK)
    assert game.phase == Phase.PLAY
