"""Legal plays: each rule of movement from the books, on a position where it matters."""

import pytest

from kiosk.rules import BAR, OFF, WHITE, Position


def results(position, d1, d2, profile=None):
    return sorted(str(p) for p in position.legal_plays(d1, d2, profile))


def pos(points, bar=(0, 0), off=None):
    """Signed counts in white's numbering, white on roll."""
    return Position.from_points(points, bar=bar, off=off)


def test_opening_rolls():
    start = Position.standard()
    counts = {(d1, d2): len(start.legal_plays(d1, d2)) for d1 in range(1, 7) for d2 in range(1, 7)}
    assert counts[(3, 1)] == counts[(1, 3)] == 16
    # black's two back men hold white's ace point, so 6/1 is never possible
    assert results(start, 6, 5) == [
        "13/2",
        "13/7 8/3",
        "13/8 13/7",
        "24/13",
        "24/18 13/8",
        "24/18 8/3",
        "8/3 8/2",
    ]
    assert counts[(6, 5)] == 7


def test_closed_point_cannot_be_landed_on():
    # black holds white's 5 point; a 1 from the 6 is blocked
    p = pos({6: 2, 5: -2})
    assert all("6/5" not in m for m in results(p, 1, 3))


def test_lone_man_is_hit():
    p = pos({6: 2, 4: -1})
    plays = p.legal_plays(2, 1)
    hits = [pl for pl in plays if any(s.hit for s in pl.steps)]
    assert hits
    after = hits[0].result
    assert after.bar(after.turn) == 1  # black (now on roll) has a man up


def test_intermediate_point_must_be_open():
    # Cady: 6-1 from the 13 must go 13/7/6 when the 12 is held
    p = pos({13: 1, 12: -2})
    assert results(p, 6, 1) == ["13/6"]
    play = p.parse_play(6, 1, "13/6")
    assert [(s.src, s.dst) for s in play.steps] == [(13, 7), (7, 6)]
    # Foster: 5-2 cannot move a man 24/17 when both stops are held
    q = pos({24: 1, 19: -2, 22: -2, 1: 1})
    assert all(not m.startswith("24/") for m in results(q, 5, 2))


def test_bar_first():
    p = pos({13: 5, 6: 5}, bar=(1, 0))
    for play in p.legal_plays(6, 1):
        assert play.steps[0].src == BAR


def test_entry_blocked_on_one_die_plays_the_other_after_entering():
    # black holds white's entry points 19 (for a 6)
    p = pos({13: 2, 19: -2}, bar=(1, 0))
    # the 6 cannot enter (19 held): enter with the 4, then the 6 is free for any man
    assert results(p, 6, 4) == ["bar/15", "bar/21 13/7"]


def test_closed_out_has_no_play():
    black_board = {p: -2 for p in range(19, 25)}
    p = pos({**black_board, 13: 5}, bar=(1, 0))
    plays = p.legal_plays(6, 5)
    assert len(plays) == 1 and plays[0].steps == () and str(plays[0]) == ""
    assert plays[0].result == p.swap_turn()


def test_two_men_up_one_entering_number():
    # only the 3 enters (22 open); the second man stays up and nothing else moves
    board = {p: -2 for p in (19, 20, 21, 23, 24)}
    p = pos({**board, 13: 5}, bar=(2, 0))
    assert results(p, 3, 5) == ["bar/22"]
    # with 3-3 both men enter; the other two threes cannot go on from 22 (19 held)
    assert results(p, 3, 3) == ["bar/22(2) 13/10(2)", "bar/22(2) 13/7"]


def test_must_use_both_dice_when_possible():
    # white men on 9 only; black holds 3. 6-4: 9/3 blocked, so play 9/5 then 5/... no: must use both
    p = pos({9: 1, 8: 1, 3: -2, 1: -2})
    for play in p.legal_plays(6, 2):
        assert len(play.steps) == 2


def test_larger_die_must_be_played_when_only_one_can():
    # one man on 12: the 6 (12/6) is blocked; the 4 goes 12/8 and then 8/2 is blocked,
    # so only the smaller die can be played, and it must be
    p = pos({12: 1, 6: -2, 2: -2})
    assert results(p, 6, 4) == ["12/8"]
    # one man on 10: 10/4 open, 10/7 open, but 10/4/1 and 10/7/1 both end on a held point
    q = pos({10: 1, 1: -2})
    assert results(q, 6, 3) == ["10/4"]
    assert results(q, 6, 3, "cady") == ["10/4", "10/7"]


def test_larger_die_rule_profiles_differ():
    # White man on 8; black holds 2 and 4 and 5... 6-1: 8/2 open? make both singles legal, both
    # together impossible: 8/2 then 2/1 blocked; 8/7 then 7/1 blocked.
    p = pos({8: 1, 1: -2, 3: -2, 7: 0})
    assert results(p, 6, 1) == ["8/2"]  # modern, Foster: the larger
    assert results(p, 6, 1, "foster") == ["8/2"]
    assert results(p, 6, 1, "cady") == ["8/2", "8/7"]  # Cady: the player's choice


def test_bearing_off_needs_all_men_home():
    p = pos({8: 1, 5: 2, 1: 1})
    for play in p.legal_plays(3, 5):
        # no man is borne off before the man on the 8 is home
        first_off = next((i for i, s in enumerate(play.steps) if s.dst == OFF), None)
        if first_off is not None:
            assert any(s.src == 8 for s in play.steps[:first_off])
    # the last man comes home and a man is borne off in the same throw (Crawley, game 1)
    assert results(p, 3, 5) == ["8/3 5/2", "8/off"]
    borne = p.parse_play(3, 5, "8/off").result
    assert borne.off[WHITE] == 12


def test_bearing_off_exact_and_from_highest():
    p = pos({5: 1, 3: 1})
    assert "5/off 3/off" in results(p, 6, 5)
    # a 6 with nothing on the six point bears from the highest (the 5), not the 3
    q = pos({5: 1, 3: 1, 1: -2})
    for play in q.legal_plays(6, 1):
        first_off = [s for s in play.steps if s.dst == OFF and s.die == 6]
        assert all(s.src == 5 or s.src == 4 for s in first_off)


def test_bearing_off_lower_die_must_move_up_when_higher_men():
    # Hoffmann: a trois with the trois point empty must be moved (5/2 or 4/1), not borne off
    p = pos({5: 1, 4: 1, 2: 2})
    for play in p.legal_plays(3, 3):
        for s in play.steps:
            if s.dst == OFF:
                assert s.src == 3 or s.src <= 3


def test_doublet_deuces_with_three_men_on_the_deuce():
    # Hoffmann: three men on the deuce point and deuces: three off, the fourth deuce moves a man
    p = pos({2: 3, 4: 1})
    moves = results(p, 2, 2)
    assert "4/2 2/off(3)" in moves or "4/off 2/off(2)" in moves


def test_hit_man_must_come_round_before_bearing_resumes():
    p = pos({3: 2, 2: 2}, bar=(1, 0), off=(10, 0))
    for play in p.legal_plays(6, 5):
        assert play.steps[0].src == BAR
        assert all(s.dst != OFF for s in play.steps)


def test_partial_doublet():
    # only two of four sixes can be played: 13/7/1 and then the point 1... black holds 7? no:
    p = pos({13: 1, 1: -2})
    moves = results(p, 6, 6)
    assert moves == ["13/7"]


def test_no_play_leaves_the_position_for_the_opponent():
    p = pos({24: 2, 23: -2, 22: -2, 21: -2, 20: -2, 19: -2, 18: -2})
    plays = p.legal_plays(6, 6)
    assert len(plays) == 1 and str(plays[0]) == ""
    assert plays[0].result.turn != WHITE


def test_results_are_distinct_and_other_side_on_roll():
    start = Position.standard()
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            plays = start.legal_plays(d1, d2)
            assert len({p.result for p in plays}) == len(plays)
            assert all(p.result.turn != WHITE for p in plays)


def test_bad_dice():
    with pytest.raises(ValueError, match="1 to 6"):
        Position.standard().legal_plays(7, 1)
