"""The referee on its own, fed boards directly: timing options and out-of-turn dice."""

from kiosk.link import TableLayout
from kiosk.referee import Referee, RefereeConfig
from kiosk.rules import WHITE, Game, Phase, Position
from kiosk.table import TableReading, project
from tests.referee.hands import kinds


def _referee(**config):
    events = []
    game = Game(position=Position.standard(), phase=Phase.ROLL)
    referee = Referee(
        game, TableLayout(), RefereeConfig(**config), emit=lambda e: events.append(e.to_json())
    )
    return game, referee, events


def test_auto_done_ends_a_complete_play_after_it_stays_settled():
    game, referee, events = _referee(settle_ms=100, auto_done_ms=2000)
    referee.throw(3, 1, 0)
    done = Position.standard().parse_play(3, 1, "8/5 6/5").result.swap_turn()
    referee.sense(TableReading.of(project(done, TableLayout()), "polarity"), 10)
    referee.tick(200)
    assert kinds(events, "play") == []  # settled, but not yet for two seconds
    referee.tick(2300)
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]
    assert game.turn != WHITE


def test_settle_time_keeps_a_passing_hand_from_being_judged():
    game, referee, events = _referee(settle_ms=300)
    referee.throw(3, 1, 0)
    wrong = project(
        Position.from_points({24: 2, 13: 4, 11: 1, 8: 3, 6: 5, 19: -5, 17: -3, 12: -5, 1: -2}),
        TableLayout(),
    )
    referee.sense(TableReading.of(wrong, "polarity"), 10)
    referee.tick(200)
    assert kinds(events, "illegal") == []
    referee.tick(320)
    assert kinds(events, "illegal")[0]["reason"] == "wrong-distance"


def test_dice_thrown_before_the_play_is_finished_are_refused():
    game, referee, events = _referee()
    referee.throw(3, 1, 0)
    referee.throw(6, 6, 10)
    assert game.dice == (3, 1)
    assert "not finished" in kinds(events, "error")[0]["message"]
