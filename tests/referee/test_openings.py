"""The 21 opening throws, played by hand on the simulated table the ways hands really play."""

import pytest

from kiosk.rules import BLACK, WHITE, Position
from tests.referee.hands import kinds, play_actions, run

MODERN = {
    (2, 1): "13/11 6/5",
    (3, 1): "8/5 6/5",
    (4, 1): "24/23 13/9",
    (5, 1): "13/8 6/5",
    (6, 1): "13/7 8/7",
    (3, 2): "24/21 13/11",
    (4, 2): "8/4 6/4",
    (5, 2): "13/8 13/11",
    (6, 2): "24/18 13/11",
    (4, 3): "24/20 13/10",
    (5, 3): "8/3 6/3",
    (6, 3): "24/18 13/10",
    (5, 4): "24/20 13/8",
    (6, 4): "24/18 13/9",
    (6, 5): "24/13",
    (1, 1): "8/7(2) 6/5(2)",
    (2, 2): "13/11(2) 6/4(2)",
    (3, 3): "8/5(2) 6/3(2)",
    (4, 4): "24/20(2) 13/9(2)",
    (5, 5): "13/3(2)",
    (6, 6): "24/18(2) 13/7(2)",
}


def _start_lines(d1, d2):
    if d1 == d2:  # doublets come with a fresh throw, never from the starting cast
        return ["setup standard", f"dice {d1} {d2}"]
    return ["setup standard", f"opening {d1} {d2}"]  # white's die is the higher: white starts


@pytest.mark.parametrize("roll", sorted(MODERN), ids=lambda r: f"{r[0]}{r[1]}")
def test_opening_played_in_order_and_reversed(roll):
    d1, d2 = roll
    play = Position.standard().parse_play(d1, d2, MODERN[roll])
    n = len(play.steps)
    for order in (list(range(n)), list(reversed(range(n)))):
        if order != list(range(n)) and any(
            play.steps[i].dst == play.steps[j].src for i in range(n) for j in range(n)
        ):
            continue  # one man with both dice: its steps have one order only
        events = run([*_start_lines(d1, d2), *play_actions(play, WHITE, order), "press done"])
        plays = kinds(events, "play")
        assert kinds(events, "illegal") == []
        assert [p["move"] for p in plays] == [str(play)]
        assert plays[0]["player"] == "white" and plays[0]["dice"] == [d1, d2]


@pytest.mark.parametrize("roll", [(3, 1), (6, 5), (6, 6)], ids=lambda r: f"{r[0]}{r[1]}")
def test_pauses_and_a_man_put_down_and_picked_up(roll):
    d1, d2 = roll
    play = Position.standard().parse_play(d1, d2, MODERN[roll])
    first = play.steps[0]
    actions = [
        f"lift {first.src}",
        "wait 2000",  # a hand holding a man for two seconds: no false alarm
        f"place {first.src - 1 if first.src - 1 != first.dst else first.src - 2}",
        f"lift {first.src - 1 if first.src - 1 != first.dst else first.src - 2}",
        f"place {first.dst}",
        "wait 500",
        *play_actions(play, WHITE)[2:],
        "wait 500",
        "press done",
    ]
    events = run([*_start_lines(d1, d2), *actions])
    assert [p["move"] for p in kinds(events, "play")] == [str(play)]
    # the man set down on a wrong point and picked up at once was never judged
    assert kinds(events, "illegal") == []
    assert kinds(events, "destinations")[0]["from"] == str(first.src)


def test_black_opens_and_white_answers():
    events = run(
        [
            "setup standard",
            "opening 1 6",  # black's six beats white's ace: black plays 6-1
            "lift 13",
            "place 7",
            "lift 8",
            "place 7",
            "press done",
            "dice 4 2",
            "lift 8",
            "place 4",
            "lift 6",
            "place 4",
            "press done",
        ]
    )
    assert kinds(events, "opening")[0]["starter"] == "black"
    plays = kinds(events, "play")
    assert [(p["player"], p["move"]) for p in plays] == [
        ("black", "13/7 8/7"),
        ("white", "8/4 6/4"),
    ]
    after = Position.from_id(plays[-1]["position"], BLACK)
    assert after.count(BLACK, 7) == 2 and after.count(WHITE, 4) == 2


def test_parkers_starting_cast_is_two_dice_each_white_first():
    """Parker's leaflet: each side casts both dice, the higher total throws both dice to
    begin. At the table's wells white casts, then black; equal totals cast again."""
    events = run(
        [
            "profile parker",
            "setup standard",
            "opening 6 5",  # white's cast, 11
            "opening 5 6",  # black's, 11: both cast again
            "opening 3 1",
            "opening 2 1",
            "dice 5 2",
        ]
    )
    openings = kinds(events, "opening")
    assert [o["starter"] for o in openings] == [None, None, None, "white"]
    assert openings[0]["message"] == "White cast 6-5 (11): now black casts both dice."
    assert openings[1]["message"] == "Both cast 11: white casts again first."
    assert openings[3]["dice"] == [[3, 1], [2, 1]]
    assert openings[3]["message"] == "white casts higher (4 to 3) and throws both dice to start."
    assert kinds(events, "error") == []
    assert kinds(events, "dice")[-1] == {"event": "dice", "player": "white", "dice": [5, 2]}
