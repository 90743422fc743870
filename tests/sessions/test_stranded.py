"""Parker's stranded-men scoring, options 1, 2 and 3, alone and combined with the games."""

from __future__ import annotations

import pytest

from kiosk.rules import BLACK, WHITE, Game, Position, Result, get_profile
from kiosk.rules.stranded import StrandedError, Zone, stranded_count

# White has borne off all but the men he is about to bear off; black (the loser) has borne
# off none and has men on the bar and in every zone: a backgammon under Parker's rule.
BEFORE = Position.from_points({1: 1, 2: 1, 4: -2, 11: -3, 15: -4, 22: -5}, bar=(0, 1), off=(13, 0))


def final_position() -> tuple[Position, Result]:
    game = Game(get_profile("parker"), position=BEFORE)
    game.start_with(WHITE)
    game.roll(2, 1)
    game.play("2/off 1/off")
    winner, result, _ = game.result
    assert winner == WHITE
    return game.position, result


def test_the_three_options_differ_on_one_position() -> None:
    final, result = final_position()
    assert result == Result.BACKGAMMON  # black men in white's inner table
    counts = {option: stranded_count(final, BLACK, option) for option in (1, 2, 3)}
    # black from his own side: bar 1, point 21 (winner's inner) 2, 14 3, 10 4, 3 5
    by_zone = {z.zone: z.men for z in counts[1].zones}
    assert by_zone == {
        Zone.BAR: 1,
        Zone.WINNER_INNER: 2,
        Zone.WINNER_OUTER: 3,
        Zone.LOSER_OUTER: 4,
        Zone.LOSER_INNER: 5,
    }
    assert counts[1].total == 15  # one a man
    assert counts[2].total == 1 * 4 + 2 * 4 + 3 * 3 + 4 * 2 + 5 * 1 == 34
    assert counts[3].total == 1 * 8 + 2 * 8 + 3 * 4 + 4 * 2 + 5 * 1 == 49
    combined = {o: stranded_count(final, BLACK, o, result=result, combined=True) for o in (1, 2, 3)}
    assert [c.total for c in combined.values()] == [45, 102, 147]


def test_a_gammon_combined() -> None:
    loser = Position.from_points({6: 1, 14: -15}, off=(14, 0))  # all fifteen in black's outer
    single = stranded_count(loser, BLACK, 3)
    gammon = stranded_count(loser, BLACK, 3, result=Result.GAMMON, combined=True)
    assert single.total == 15 * 2 == 30
    assert gammon.multiplier == 2 and gammon.total == 60
    assert gammon.lines() == [
        "15 in the loser's outer table x 2 = 30",
        "30 x 2 = 60",
        "option 3: 60",
    ]


def test_the_breakdown_for_the_display() -> None:
    final, _ = final_position()
    count = stranded_count(final, BLACK, 2)
    assert [z.zone for z in count.zones] == list(Zone)
    assert [z.held for z in count.zones] == [(25,), (21,), (14,), (10,), (3,)]
    assert count.men == 15 and count.subtotal == 34
    assert count.lines()[0] == "1 in the bar x 4 = 4"
    assert count.lines()[-1] == "option 2: 34"


def test_white_loser_counted_from_his_own_side() -> None:
    loser = Position.from_points({20: 2, 3: 1}, off=(0, 15))
    count = stranded_count(loser, WHITE, 2)
    assert count.total == 2 * 4 + 1 * 1  # white's 19-24 are black's inner table


def test_options_outside_the_leaflet_are_refused() -> None:
    with pytest.raises(StrandedError):
        stranded_count(Position.standard(), BLACK, 4)
    with pytest.raises(StrandedError):
        stranded_count(Position.standard(), BLACK, 1, result="triple")
