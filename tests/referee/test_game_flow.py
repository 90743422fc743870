"""Hits with the hit man put on the bar before and after, entering, and games played out."""

import pytest

from kiosk.rules import BLACK, WHITE, Position
from tests.referee.hands import kinds, play_actions, run

HIT = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5, 20: -1, 19: -5, 12: -5, 1: -4})


@pytest.mark.parametrize("hit_first", [False, True], ids=["bar-after", "bar-before"])
def test_hit_man_to_the_bar_before_or_after(hit_first):
    play = HIT.parse_play(4, 1, "24/20* 6/5")
    lines = [
        f"setup {HIT.position_id()}",
        "dice 4 1",
        *play_actions(play, WHITE, hit_first=hit_first),
    ]
    events = run([*lines, "wait 400", "press done"])
    assert kinds(events, "illegal") == []
    [played] = kinds(events, "play")
    assert played["move"] == "24/20* 6/5"
    assert Position.from_id(played["position"], BLACK).bar(BLACK) == 1


def test_hit_man_left_on_the_point_is_not_a_finished_play():
    events = run(
        [
            f"setup {HIT.position_id()}",
            "dice 4 1",
            "lift 24",
            "place 20",
            "lift 6",
            "place 5",
            "wait 400",
            "press done",
        ]
    )
    assert kinds(events, "play") == []
    assert kinds(events, "illegal")[-1]["reason"] == "hit-not-on-bar"


def test_closed_out_turn_ends_by_itself_then_entering():
    home = {p: 2 for p in range(1, 7)}
    position = Position.from_points({**home, 13: 3, 24: -14}, bar=(0, 1)).with_turn(BLACK)
    events = run(
        [
            "turn black",
            f"setup {position.position_id()}",
            "dice 6 5",  # black is closed out: the turn ends by itself
            "dice 3 1",
            "lift 13",
            "place 10",
            "lift 10",
            "place 9",
            "press done",
        ]
    )
    plays = kinds(events, "play")
    assert [(p["player"], p["move"]) for p in plays] == [("black", ""), ("white", "13/9")]


def _bear_last(black_points, black_bar=0):
    position = Position.from_points({1: 1, **black_points}, bar=(0, black_bar))
    return run([f"setup {position.position_id()}", "dice 2 1", "lift 1", "place off", "press done"])


@pytest.mark.parametrize(
    "black, result, points",
    [
        ({19: -3}, "single", 1),  # black has borne off 12
        ({19: -15}, "gammon", 2),  # none borne off, all in black's home
        ({19: -14, 3: -1}, "backgammon", 3),  # a straggler in white's home table
    ],
)
def test_bearing_off_ends_the_game_with_each_result(black, result, points):
    events = _bear_last(black)
    [over] = kinds(events, "game-over")
    assert over == {"event": "game-over", "winner": "white", "result": result, "points": points}


def test_a_whole_race_borne_off_by_hand():
    position = Position.from_points({6: 2, 5: 2, 4: 1, 19: -2, 20: -2})
    lines = [f"setup {position.position_id()}"]
    here = position
    rolls = iter([(6, 5), (2, 1), (4, 3), (6, 6), (5, 4), (3, 3)])
    while here.winner() is None:
        d1, d2 = next(rolls)
        play = here.legal_plays(d1, d2)[0]
        lines += [f"dice {d1} {d2}", *play_actions(play, here.turn), "press done"]
        here = play.result
    events = run(lines)
    assert kinds(events, "illegal") == []
    assert kinds(events, "game-over")[0]["winner"] == str(here.winner())
