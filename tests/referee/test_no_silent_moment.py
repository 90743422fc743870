"""Every press, throw and placement gets an answer: progress, a verdict or a plain reason."""

from kiosk.rules import Position
from tests.referee.hands import kinds, run


def notices(events, about):
    return [e for e in kinds(events, "notice") if e["about"] == about]


def test_done_before_the_throw_says_throw_first():
    events = run(["setup standard", "press done", "press done black"])
    answers = notices(events, "done-not-now")
    assert len(answers) == 2
    assert "Throw the opening dice first" in answers[0]["message"]
    assert "black: it is white's turn" in answers[1]["message"]


def _lay_out_standard_but_one():
    lines = []
    for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
        lines += [f"place {point} white"] * count + [f"place {25 - point} black"] * count
    return lines[:-1]  # black's last man on his 6 point is missing


def test_done_while_the_board_is_being_set_up():
    events = run(["setup empty", "press done"])
    assert kinds(events, "setup") and notices(events, "setup-first")


def test_done_twice_on_a_wrong_board_answers_twice():
    events = run(
        ["setup standard", "dice 3 1", "lift 13", "place 11", "wait 400", "press done",
         "press done"]
    )
    assert [e["reason"] for e in kinds(events, "illegal")] == ["wrong-distance"] * 3


def test_done_twice_with_the_hit_man_on_its_point_answers_twice():
    events = run(
        ["setup 0HPwATDgc/ABMA", "dice 4 1", "lift 24", "place 20", "lift 6", "place 5",
         "wait 400", "press done", "press done"]
    )
    assert [e["reason"] for e in kinds(events, "illegal")] == ["hit-not-on-bar"] * 2
    [hint] = notices(events, "hit-to-bar")
    assert hint["message"] == "Put black's hit man from your 20 point on black's bar."


def test_accept_with_nothing_to_accept():
    events = run(["setup standard", "accept"])
    assert notices(events, "nothing-to-accept")


def test_a_throw_during_set_up_is_held_until_the_board_is_right():
    events = run(
        ["setup empty", *_lay_out_standard_but_one(), "turn white", "wait 400", "dice 3 1",
         "wait 400", "place 19 black", "wait 400"]
    )
    assert notices(events, "setup-first")
    assert [e["dice"] for e in kinds(events, "dice")] == [[3, 1]]
    order = [e["event"] for e in events]
    assert order.index("setup-ok") < order.index("dice")


def test_a_new_game_on_an_unchanged_board_is_judged_at_once():
    blocked = Position.from_points({13: 2, 6: 3}, bar=(1, 0))
    closed = {p: -2 for p in range(19, 25)}
    position = Position.from_points({13: 2, 6: 3, **closed}, bar=(1, 0))
    assert blocked != position
    events = run([f"setup {position.position_id()}", "turn white", "dice 5 5", "wait 500"])
    assert [e["dice"] for e in kinds(events, "dice")] == [[5, 5]]
    [play] = kinds(events, "play")
    assert play["move"] == ""  # closed out: the turn passes by itself


def test_dice_left_in_the_wells_are_no_throw_of_the_next_game():
    events = run(
        ["setup standard", "dice 3 1", "lift 8", "place 5", "lift 6", "place 5", "press done",
         "setup standard", "wait 1000"]
    )
    assert [e["dice"] for e in kinds(events, "dice")] == [[3, 1]]
    assert kinds(events, "opening") == [] and notices(events, "setup-first") == []
