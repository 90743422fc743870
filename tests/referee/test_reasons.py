"""Every reason code, provoked on the table and then put right."""

import pytest

from kiosk.rules import Position
from tests.referee.hands import kinds, run

RACE = Position.from_points({6: 2, 5: 3, 2: 2, 19: -5, 20: -5}).position_id()


def verdicts(events):
    return [(e["event"], e.get("reason")) for e in events if e["event"] in ("illegal", "legal")]


CASES = {
    "blocked-point": (
        ["setup standard", "dice 6 5"],
        ["lift 24", "place 19", "wait 400"],  # black's six point
        ["lift 19", "place 18", "wait 400"],
    ),
    "wrong-distance": (
        ["setup standard", "dice 3 1"],
        ["lift 13", "place 11", "wait 400"],
        ["lift 11", "place 10", "wait 400"],
    ),
    "bar-first": (
        [f"setup {Position.from_points({13: 5, 6: 5}, bar=(1, 0)).position_id()}", "dice 3 1"],
        ["lift 13", "place 10", "wait 400"],
        ["lift 10", "place 13", "wait 400"],
    ),
    "bear-off-not-home": (
        [f"setup {Position.from_points({8: 1, 5: 3, 19: -5}).position_id()}", "dice 5 2"],
        ["lift 5", "place off", "wait 400"],
        ["lift off", "place 5", "wait 400"],
    ),
    "bear-off-higher": (
        [f"setup {Position.from_points({6: 1, 2: 1, 19: -5}).position_id()}", "dice 5 4"],
        ["lift 2", "place off", "wait 400"],
        ["lift off", "place 2", "wait 400"],
    ),
    "wrong-checker": (
        ["setup standard", "dice 3 1"],
        ["lift 12 black", "place 11 black", "wait 400"],
        ["lift 11 black", "place 12 black", "wait 400"],
    ),
    "must-use-larger": (
        [f"setup {Position.from_points({10: 1, 1: -2, 19: -5}).position_id()}", "dice 6 3"],
        ["lift 10", "place 7", "wait 400"],
        ["lift 7", "place 4", "wait 400"],
    ),
    "cannot-move": (
        ["setup standard", "dice 6 5"],
        ["lift 6", "wait 400"],  # 6/1 and 6/0 are both impossible
        ["place 6", "wait 400"],
    ),
    "throw-first": (
        ["setup standard", "turn white"],
        ["lift 13", "place 10", "wait 400"],
        ["lift 10", "place 13", "wait 400"],
    ),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_reason_provoked_and_put_right(code):
    start, wrong, right = CASES[code]
    events = run([*start, *wrong, *right])
    illegal = kinds(events, "illegal")
    assert code in [e["reason"] for e in illegal], f"no {code} verdict: {events}"
    assert all(e["message"] and e["law"] for e in illegal)
    assert verdicts(events)[-1] == ("legal", None)


def test_hit_not_on_bar():
    position = Position.from_points({24: 2, 13: 5, 8: 3, 6: 5, 20: -1, 19: -5, 12: -5, 1: -4})
    events = run(
        [
            f"setup {position.position_id()}",
            "dice 4 1",
            "lift 24",
            "place 20",
            "lift 20 black",
            "place 21 black",
            "wait 400",
            "lift 21 black",
            "place bar black",
            "wait 400",
        ]
    )
    assert verdicts(events) == [("illegal", "hit-not-on-bar"), ("legal", None)]


def test_must_use_both_refused_at_done_then_finished():
    events = run(
        [
            "setup standard",
            "dice 3 1",
            "lift 8",
            "place 5",
            "wait 400",
            "press done",
            "lift 6",
            "place 5",
            "press done",
        ]
    )
    assert kinds(events, "illegal")[0]["reason"] == "must-use-both"
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 6/5"]


def test_must_use_both_when_a_step_spoils_the_second_die():
    # 8/4 with the 4 leaves the 3 unplayable (4/1 is held, and a 3 cannot bear from the 4),
    # while 8/5 and then 4/off uses both dice
    position = Position.from_points({4: 1, 8: 1, 10: -2, 14: -2, 1: -2, 24: -1})
    assert [str(p) for p in position.legal_plays(4, 3)] == ["8/5 4/off"]
    events = run(
        [
            f"setup {position.position_id()}",
            "dice 4 3",
            "lift 8",
            "place 4",
            "wait 400",
            "lift 4",
            "place 5",
            "wait 400",
            "lift 4",
            "place off",
            "press done",
        ]
    )
    assert kinds(events, "illegal")[0]["reason"] == "must-use-both"
    assert [p["move"] for p in kinds(events, "play")] == ["8/5 4/off"]


def test_not_your_turn():
    events = run(
        [
            "setup standard",
            "dice 3 1",
            "lift 8",
            "place 5",
            "lift 6",
            "place 5",
            "press done black",
            "press done",
            # black is on roll now; white moves a man before black has thrown
            "lift 20 white",
            "place 18 white",
            "wait 400",
            "lift 18 white",
            "place 20 white",
            "wait 400",
        ]
    )
    reasons = [e["reason"] for e in kinds(events, "illegal")]
    assert reasons == ["not-your-turn", "not-your-turn"]
    assert verdicts(events)[-1] == ("legal", None)
    assert len(kinds(events, "play")) == 1


def test_illegal_board_refused_at_done_and_game_state_kept():
    events = run(["setup standard", "dice 3 1", "lift 13", "place 11", "press done", "wait 400"])
    assert kinds(events, "play") == []
    assert {e["reason"] for e in kinds(events, "illegal")} == {"wrong-distance"}


def test_the_verdict_names_where_the_man_was_wrongly_put():
    events = run(["setup standard", "dice 5 2", "lift 13", "place 7", "wait 400"])
    [illegal] = kinds(events, "illegal")
    assert illegal["reason"] == "wrong-distance" and illegal["table"] == "7"
    lifted = run(["setup standard", "dice 6 5", "lift 6", "wait 400"])
    assert kinds(lifted, "illegal")[0]["table"] == "6"
