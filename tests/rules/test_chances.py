"""The chances of the dice, checked against plain enumeration of the 36 rolls."""

import itertools

import pytest

from kiosk.rules import (
    WHITE,
    Position,
    all_rolls,
    entering_chances,
    hit_points,
    shots,
    shots_by_attacker,
)


def rolls_36():
    return list(itertools.product(range(1, 7), repeat=2))


def open_board_hits(distance):
    """Rolls that carry one man exactly ``distance`` on an empty board (no blocks)."""
    count = 0
    for d1, d2 in rolls_36():
        reach = {d1, d2, d1 + d2} if d1 != d2 else {d1 * k for k in range(1, 5)}
        count += distance in reach
    return count


def test_all_rolls_cover_the_36():
    assert sum(ways for _, _, ways in all_rolls()) == 36
    assert len(list(all_rolls())) == 21


@pytest.mark.parametrize("distance", range(1, 24))
def test_shots_by_distance_on_an_open_board(distance):
    blot = 1 + distance  # white's point; black's man stands on white's point 1 (black's 24)
    position = Position.from_points({blot: 1, 1: -1})
    assert shots(position, WHITE, blot) == open_board_hits(distance)


def test_known_figures():
    # the classic table: 11 rolls hit a blot 1 away, 17 at 6 away, 6 at 7 away, 3 at 12 away
    expected = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3}
    for distance, count in expected.items():
        assert open_board_hits(distance) == count


def test_blocked_intermediate_points_reduce_the_shots():
    # black man on white's 1 point; white blot 8 away on 9; white holds 5 and 7 (black's 20 and 18)
    open_count = shots(Position.from_points({9: 1, 1: -1}), WHITE, 9)
    blocked = Position.from_points({9: 1, 1: -1, 5: 2, 7: 2})
    # 6-2 can only go 1/3/9 (7 held), 4-4 needs the 5 (held), 5-3 needs 6 or 4: open -> fewer
    assert shots(blocked, WHITE, 9) < open_count
    assert shots(blocked, WHITE, 9) == 4  # 6-2 twice, 5-3 twice; 4-4 and 2-2 are blocked


def test_a_man_on_the_bar_must_enter_first():
    # black has a man up and white's home is closed but for the 6 point (black enters on
    # black's 19 = white's 6). A black man on white's 12 cannot hit white's blot on 13 with a 1
    # unless black first enters with the other die.
    home = {p: 2 for p in range(1, 6)}
    position = Position.from_points({**home, 13: 1, 12: -1}, bar=(0, 1))
    count = shots(position, WHITE, 13)
    # black must enter with a 6 (on white's 6): 6-1 hits (enter, then 12/13 with the 1);
    # 6-6 enters and goes on 6/12/18... the blot 7 away from white's 6: no 6-6 hit.
    assert count == 2


def test_shots_by_attacker_lights_each_hitter():
    position = Position.from_points({10: 1, 4: -1, 1: -1})
    counts = shots_by_attacker(position, WHITE, 10)
    # black's points: white's 4 = black's 21 (6 away), white's 1 = black's 24 (9 away)
    assert counts == {21: open_board_hits(6), 24: open_board_hits(9)}


def test_shots_needs_a_blot():
    with pytest.raises(ValueError, match="no blot"):
        shots(Position.standard(), WHITE, 6)


def test_entering_chances():
    assert [entering_chances(k) for k in range(7)] == [0, 11, 20, 27, 32, 35, 36]
    with pytest.raises(ValueError):
        entering_chances(7)
    # agree with the generator: with k open points, count rolls that enter
    for k in range(7):
        position = Position.from_points({p: -2 for p in range(19, 25 - k)}, bar=(1, 0))
        entering = sum(
            1
            for d1, d2 in rolls_36()
            if any(s.src == 25 for p in position.legal_plays(d1, d2) for s in p.steps)
        )
        assert entering == entering_chances(k)


def test_hit_points_follow_the_larger_die_rule():
    # White's last man out (on 10) can play the 6 or the 2 of 6-2, not both (black holds
    # white's 2 point): today's rules make it play the 6, so the blot on 8 is safe; under
    # rules that leave the choice (Cady's) the 2 may hit it.
    position = Position.from_points({10: 1, 1: 14, 8: -1, 2: -2, 24: -12})
    assert [str(p) for p in position.legal_plays(6, 2)] == ["10/4"]
    assert hit_points(position, 6, 2) == frozenset()
    assert hit_points(position, 6, 2, larger_die=False) == {8}
    assert hit_points(position, 2, 1) == {8}  # 10/8*/7: both dice, and the hit on the way
