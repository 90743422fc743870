"""The four defects found at a real table (issue 11), each as the players met it."""

from kiosk.rules import Position
from tests.referee.hands import kinds, run


def test_tumbling_dice_count_only_once_both_have_rested():
    events = run(
        [
            "setup standard",
            "dice 1 4",
            "wait 63",
            "dice 4 3",
            "wait 66",
            "dice 3 1",
            "wait 400",
            "lift 8",
            "place 5",
            "lift 6",
            "place 5",
            "wait 400",
            "press done",
        ]
    )
    assert [e["dice"] for e in kinds(events, "dice")] == [[3, 1]]
    assert kinds(events, "error") == [] and kinds(events, "illegal") == []
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]
    settling = [e for e in kinds(events, "notice") if e["about"] == "dice-settling"]
    assert settling and "settle" in settling[0]["message"]


def test_done_with_the_hit_man_still_on_its_point():
    events = run(
        [
            "setup 0HPwATDgc/ABMA",
            "dice 4 1",
            "lift 24",
            "place 20",  # black's blot is still on 20
            "lift 6",
            "place 5",
            "wait 3000",
            "press done white",
            "lift 20 black",
            "place bar black",
            "wait 400",
            "press done white",
        ]
    )
    [illegal] = kinds(events, "illegal")
    assert illegal["reason"] == "hit-not-on-bar"
    assert [p["move"] for p in kinds(events, "play")] == ["24/20* 6/5"]


def test_a_throw_after_turn_white_with_nothing_to_move_is_not_swallowed():
    events = run(["setup 27YzAADgc/ARQA", "turn white", "dice 6 6", "wait 500", "press done white"])
    assert [e["dice"] for e in kinds(events, "dice")] == [[6, 6]]
    [play] = kinds(events, "play")
    assert play["move"] == "" and play["player"] == "white"


def test_one_wrong_placement_one_alarm():
    bar = Position.from_points({13: 5, 6: 5}, bar=(1, 0)).position_id()
    events = run([f"setup {bar}", "dice 3 1", "lift 13", "place 10", "wait 400"])
    illegal = kinds(events, "illegal")
    assert [e["reason"] for e in illegal] == ["bar-first"]
