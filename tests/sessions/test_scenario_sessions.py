"""Sessions through ``kiosk scenario`` (issue 14's contract): a match through its Crawford
game, Parker's stranded-men options, and a rubber, each game played at the table."""

from __future__ import annotations

from tests.referee.hands import kinds, run

# White bears its last man off; black has borne none off (a gammon: none in white's home).
WHITE_GAMMON = "APD/BwABAAAAAA"  # white: one man on its 1 point; black: 15 on its 13
BLACK_SINGLE = "4AMAQAAAAAAAAA"  # (black on roll) black's last man on its 1 point
WHITE_SINGLE = "4AMAQAAAAAAAAA"  # (white on roll) white's last man; black has 10 off
# Black, the loser, with none off: one on the bar, one in white's inner table (its 20),
# one in white's outer table (its 15), two in its own outer table (its 9), ten in its
# inner table (its 3): a backgammon.
STRANDED = "/A8MBEEBAAAAAA"
STRANDED_GAMMON = "/A8cGAABAAAAAA"  # two on its 15, three on its 9, ten on its 3: a gammon

BEAR_LAST_MAN = ["dice 3 1", "lift 1", "place off", "wait 400", "press done"]


def game(colour: str, position: str, *extra: str) -> list[str]:
    return [f"turn {colour}", f"setup {position}", *extra, *BEAR_LAST_MAN]


def test_a_three_point_match_through_its_crawford_game() -> None:
    events = run(
        ["match 3", *game("white", WHITE_GAMMON),
         *game("black", BLACK_SINGLE, "double"),
         *game("white", WHITE_SINGLE, "double", "take")]
    )  # fmt: skip
    over = kinds(events, "game-over")
    assert [(e["winner"], e["result"], e["points"]) for e in over] == [
        ("white", "gammon", 2), ("black", "single", 1), ("white", "single", 2)
    ]  # fmt: skip
    assert [e["score"] for e in over] == [[2, 0], [2, 1], [4, 1]]
    assert [e["match_over"] for e in over] == [False, False, True]
    # the Crawford game is announced before its first throw, and its cube refused
    crawford = [i for i, e in enumerate(events) if e["event"] == "crawford"]
    assert len(crawford) == 1
    first_throw = next(i for i, e in enumerate(events) if i > crawford[0] and e["event"] == "dice")
    assert events.index(over[0]) < crawford[0] < first_throw
    (refused,) = kinds(events, "error")
    assert "Crawford game is played without the cube" in refused["message"]
    # after it the cube is back: white doubles, black takes, and the game counts 2
    assert [(c["action"], c["player"], c["cube"]) for c in kinds(events, "cube")] == [
        ("double", "white", [1, None]), ("take", "black", [2, "black"])
    ]  # fmt: skip


def _points(*lines: str, position: str = STRANDED) -> int:
    (over,) = kinds(run([*lines, *game("white", position)]), "game-over")
    return over["points"]


def test_each_stranded_men_option_counts_as_parker_gives_it() -> None:
    # option 1: a point a man (15 men); option 2: 1 in the loser's inner table, 2 in his
    # outer, 3 in the winner's outer, 4 in the winner's inner or on the bar; option 3: 1, 2,
    # 4, 8 for the same zones, the bar as the winner's inner table
    one = 10 + 2 + 1 + 1 + 1
    two = 10 * 1 + 2 * 2 + 1 * 3 + 1 * 4 + 1 * 4
    three = 10 * 1 + 2 * 2 + 1 * 4 + 1 * 8 + 1 * 8
    assert (one, two, three) == (15, 25, 34)
    assert _points("scoring stranded1") == one
    assert _points("scoring stranded2") == two
    assert _points("scoring stranded3") == three
    # combined with games: x3 for this backgammon, x2 for a gammon
    assert _points("stranded-multiply on", "scoring stranded1") == 3 * one
    gammon_two = 10 * 1 + 3 * 2 + 2 * 3
    assert _points("stranded-multiply on", "scoring stranded2", position=STRANDED_GAMMON) == (
        2 * gammon_two
    )
    assert _points("scoring games") == 3  # by games: a backgammon counts 3


def test_a_rubber_won_two_nil_by_a_gammon() -> None:
    events = run(["profile hoffmann", "rubber", *game("white", WHITE_GAMMON)])
    (over,) = kinds(events, "game-over")
    assert (over["result"], over["points"], over["score"]) == ("gammon", 2, [2, 0])
    assert "match_over" not in over
    # the rubber is over: a further game is not counted
    more = run(["profile hoffmann", "rubber", *game("white", WHITE_GAMMON),
                *game("white", WHITE_GAMMON)])  # fmt: skip
    assert [e["score"] for e in kinds(more, "game-over") if "score" in e] == [[2, 0]]


def test_a_stranded_count_is_refused_for_a_match() -> None:
    events = run(["match 3", "scoring stranded2"])
    assert "counted in games" in kinds(events, "error")[0]["message"]


def test_a_chouette_of_four_with_a_partner_declining_the_boxs_double() -> None:
    throw_off = ["chouette 4", "throw 1 3", "throw 2 6", "throw 3 4", "throw 4 1"]
    events = run(
        [*throw_off,
         # the box (white) doubles before its last throw; player 4 declines by himself,
         # the captain takes for the rest; the box bears its last man off
         *game("white", WHITE_SINGLE, "double", "decline 4", "take"),
         # then the partnership (black) wins a single game
         *game("black", BLACK_SINGLE)]
    )  # fmt: skip
    seatings = [(e["box"], e["captain"], e["order"]) for e in kinds(events, "chouette")]
    assert seatings == [
        ("Player 2", "Player 3", ["Player 2", "Player 3", "Player 1", "Player 4"]),
        # the box won: it stays, the next partner captains, the beaten captain goes last
        ("Player 2", "Player 1", ["Player 2", "Player 1", "Player 4", "Player 3"]),
        # the box lost: the captain takes the box, the old box goes last
        ("Player 1", "Player 4", ["Player 1", "Player 4", "Player 3", "Player 2"]),
    ]
    first, second = kinds(events, "game-over")
    # player 4 paid the stake before the double (1) to the captain and left; at 2 a share,
    # the captain pays two shares (4), player 1 one (2): box +6, captain 1 - 4, p1 -2, p4 -1
    assert first["score"] == [-2, 6, -3, -1]
    # the box pays each of the three partners 1
    assert second["score"] == [-1, 3, -2, 0]
