"""Every reason code, provoked on the table and then put right."""

import pytest

from kiosk.rules import Position
from tests.referee.hands import kinds, run

RACE = Position.from_points({6: 2, 5: 3, 2: 2, 19: -5, 20: -5}).position_id()


def verdicts(events):
    return [(e["event"], e.get("reason")) for e in events if e["event"] in ("illegal", "legal")]


#: White has played; black, on roll, doubles: white answers before any man moves.
BLACK_DOUBLED = ["setup standard", "turn white", "dice 3 1", "lift 8", "place 5", "lift 6",
                 "place 5", "press done", "double"]  # fmt: skip

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
    "answer-the-double": (
        BLACK_DOUBLED,
        ["lift 13", "place 10", "wait 400"],
        ["lift 10", "place 13", "wait 400"],
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


#: White to play 4-1 with a black blot on white's 20 point: 24/20* hits it.
HIT_ON_20 = Position.from_points(
    {24: 2, 13: 5, 8: 3, 6: 5, 20: -1, 19: -5, 12: -5, 1: -4}
).position_id()


def test_hit_not_on_bar():
    events = run(
        [
            f"setup {HIT_ON_20}",
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


#: The words of what to do: where the man may go, or what to put right.
WHAT_TO_DO = (
    "It may go to",
    "Put it back",
    "put it back",
    "Put this man back",
    "Put the man back",
    "Put the men back",
    "put the man back",
    "put it on",
    "take it off",
    "enter",
    "Play the rest",
    "press Done",
    "presses Done",
    "play that man",
)


def _what_to_do(message: str) -> bool:
    return any(words in message for words in WHAT_TO_DO)


@pytest.mark.parametrize("code", sorted(CASES))
def test_every_refusal_says_why_and_what_to_do(code):
    start, wrong, _right = CASES[code]
    for event in kinds(run([*start, *wrong]), "illegal"):
        message = event["message"]
        assert _what_to_do(message), message
        assert " 1 points" not in message and "1 numbers" not in message


def test_a_wrong_distance_says_where_the_man_may_go():
    [illegal] = kinds(
        run(["setup standard", "dice 3 1", "lift 13", "place 11", "wait 400"]), "illegal"
    )
    assert "moved 2 points" in illegal["message"]
    assert "It may go to your 10 or 9 points." in illegal["message"], illegal["message"]
    [one] = kinds(run(["setup standard", "dice 6 4", "lift 8", "place 7", "wait 400"]), "illegal")
    assert "moved 1 point," in one["message"], one["message"]


def test_bearing_off_names_the_die_actually_left_and_one_man():
    # 6-3: the 6 is played 6/off first; then the 3 cannot bear the man on the 2 off while a
    # man stands on the 4 point: the words name the 3, not the 6, and "a man".
    position = Position.from_points({6: 1, 4: 1, 2: 1, 19: -5}).position_id()
    events = run(
        [
            f"setup {position}",
            "dice 6 3",
            "lift 6",
            "place off",
            "wait 400",
            "lift 2",
            "place off",
            "wait 400",
        ]
    )
    [illegal] = kinds(events, "illegal")
    assert illegal["reason"] == "bear-off-higher"
    assert illegal["message"].startswith("A 3 bears off"), illegal["message"]
    assert "a man on your 4 point" in illegal["message"]


def test_done_with_the_hit_man_still_on_its_point_names_the_hit():
    events = run(
        [
            f"setup {HIT_ON_20}",
            "dice 4 1",
            "lift 24",
            "place 20",
            "wait 400",
            "press done",
            "wait 400",
        ]
    )
    [illegal] = kinds(events, "illegal")
    assert illegal["reason"] == "hit-not-on-bar", illegal
    assert "put it on black's bar" in illegal["message"], illegal["message"]


def test_a_man_moved_while_a_double_waits_is_told_the_double_comes_first():
    start, wrong, _ = CASES["answer-the-double"]
    (illegal,) = kinds(run([*start, *wrong]), "illegal")
    assert illegal["message"] == (
        "Black has doubled: white takes or passes before any man moves. Put the men back."
    )
