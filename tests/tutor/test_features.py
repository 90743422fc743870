"""Board features: shots counted by playing every roll out, points, crowding, race, reasons."""

import random

import pytest

from kiosk.rules import BLACK, WHITE, Position, shots
from kiosk.tutor.evaluators.builtin_features import hit_counts, sides
from kiosk.tutor.features import (
    TACTICS,
    board_features,
    explain,
    has_contact,
    hits_by_roll,
    point_name,
)

# Catalogue 5.2: rolls of 36 that hit a blot d pips away, every stop open.
SHOTS_BY_DISTANCE = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2}


def enumerate_shots(position, colour, point):
    """Count by brute force over the 36 ordered rolls whether any legal play hits ``point``."""
    board = position.with_turn(colour.other)
    target = 25 - point
    count = 0
    for d1 in range(1, 7):
        for d2 in range(1, 7):
            plays = board.legal_plays(d1, d2)
            if any(s.hit and s.dst == target for p in plays for s in p.steps):
                count += 1
    return count


@pytest.mark.parametrize("distance", sorted(SHOTS_BY_DISTANCE))
def test_shots_on_an_open_board_match_the_books_table(distance):
    # A white blot on its 13 point, one black man `distance` pips behind it.
    position = Position.from_points({13: 1, 13 - distance: -1}, turn=BLACK)
    features = board_features(position, WHITE)
    assert [(b.point, b.shots) for b in features.blots] == [(13, SHOTS_BY_DISTANCE[distance])]
    assert features.hit_rolls == SHOTS_BY_DISTANCE[distance]


def test_blocked_stops_cut_the_combined_shots():
    # Catalogue 5.2: distance 8 with the 4-stop held leaves 6-2 and 5-3 only: 4 rolls.
    position = Position.from_points({13: 1, 9: 2, 5: -1}, turn=BLACK)
    assert board_features(position, WHITE).blots[0].shots == 4


def _game_positions(seed, turns):
    rng = random.Random(seed)
    position = Position.standard()
    seen = []
    for _ in range(turns):
        plays = position.legal_plays(rng.randint(1, 6), rng.randint(1, 6))
        position = rng.choice(plays).result
        if position.winner() is not None:
            position = Position.standard()
        seen.append(position)
    return seen


def test_shots_per_blot_agree_with_enumeration_of_every_roll():
    checked = 0
    for position in _game_positions(11, 60)[::4]:
        mover = position.turn.other
        features = board_features(position, mover)
        for blot in features.blots:
            assert blot.shots == enumerate_shots(position, mover, blot.point)
            assert blot.shots == shots(position, mover, blot.point)
            checked += 1
    assert checked >= 10


def test_hit_rolls_is_the_union_over_blots():
    for position in _game_positions(12, 40)[::5]:
        mover = position.turn.other
        by_roll = hits_by_roll(position, mover)
        union = sum((1 if a == b else 2) for (a, b), hit in by_roll.items() if hit)
        features = board_features(position, mover)
        assert features.hit_rolls == union
        assert features.hit_rolls >= max((b.shots for b in features.blots), default=0)


def test_evaluators_quick_shot_count_matches_the_enumeration_nearly_always():
    same = total = 0
    for position in _game_positions(13, 200):
        mover = position.turn.other
        exact = {b.point: b.shots for b in board_features(position, mover).blots}
        quick, _, _ = hit_counts(*sides(position))
        assert set(quick) == set(exact)
        for point, n in exact.items():
            total += 1
            same += quick[point] == n
    assert total >= 100
    assert same / total >= 0.95


def test_points_crowding_back_men_and_race():
    # White: 6x5, 5x2, 3x4, 2x3, one man back on 24; black two on his own 1 point and 13.
    position = Position.from_points({6: 5, 5: 2, 3: 4, 2: 3, 24: 1, 1: -2, 12: -13}, turn=BLACK)
    f = board_features(position, WHITE)
    assert f.made == frozenset({2, 3, 5, 6})
    assert f.home_points == 4
    assert f.low_men == 7
    assert f.stacks == ((3, 4), (6, 5))
    assert f.back_men == 1
    assert f.pips == position.pips(WHITE) and f.adversary_pips == position.pips(BLACK)
    assert f.contact and f.lead == f.adversary_pips - f.pips


def test_no_contact_is_a_race():
    position = Position.from_points({6: 5, 5: 5, 4: 5, 20: -5, 21: -5, 22: -5})
    assert not has_contact(position)
    assert not board_features(position, WHITE).contact
    assert has_contact(Position.standard())


def test_point_names_follow_the_books():
    assert point_name(5) == "your five point"
    assert point_name(7) == "your bar point"
    assert point_name(9) == "your 9 point"
    assert point_name(18) == "his bar point"
    assert point_name(20) == "his 5 point"


def test_explain_cites_the_five_point_and_the_blot():
    start = Position.standard()
    best = start.parse_play(3, 1, "8/5 6/5")
    slot = start.parse_play(3, 1, "13/10 6/5")
    good = explain(start, best, best)
    assert good[0].text == "Makes your five point" and good[0].tactic is TACTICS["C-I"]
    assert good[0].code == "makes-point" and good[0].facts == {"points": [5]}
    bad = explain(start, slot, best)
    texts = [str(r) for r in bad]
    assert texts[0].startswith("Leaves blots on your five point and your 10 point that 18 throws")
    assert bad[0].facts == {"points": [5, 10], "shots": 18, "best_shots": 0}
    assert "(Cady, Tactics VII)" in texts[0]
    assert any("Misses the chance to make your five point" in t for t in texts)
    assert bad[-1].code == "race" and "163 to 167" in texts[-1]


def test_explain_crowding_and_men_left_back():
    # White to play 4-2 with spare men: piling onto the 2 and 3 points against bringing
    # the back man out.
    position = Position.from_points(
        {24: 1, 8: 2, 6: 4, 5: 2, 4: 2, 3: 2, 2: 2, 19: -2, 17: -3, 12: -5, 1: -2}
    )
    crowd = position.parse_play(4, 2, "6/2 5/3")
    run = position.parse_play(4, 2, "24/18")
    texts = [str(r) for r in explain(position, crowd, run)]
    assert any("ace, deuce and trey" in t and "(Crawley, Hints 2)" in t for t in texts)
    assert "Leaves 1 man back in his home board; the best play leaves 0 (Cady, Tactics VI)" in texts
    texts = [str(r) for r in explain(position, run, crowd)]
    assert not any("ace, deuce and trey" in t for t in texts)


def test_the_quick_reach_never_misses_a_hit():
    """The evaluator's quick reach (bits by point) holds every hit the rules allow."""
    from kiosk.rules import hit_points
    from kiosk.tutor.evaluators.builtin_features import reach_masks

    hits = 0
    for position in _game_positions(14, 300)[::3]:
        # The side on roll hits the blots of the side that has just moved.
        reach = {(d1, d2): mask for d1, d2, _w, mask in reach_masks(*sides(position))}
        for (d1, d2), mask in reach.items():
            exact = {25 - t for t in hit_points(position, d1, d2)}
            assert all(mask >> p & 1 for p in exact), (position.position_id(), d1, d2)
            hits += bool(exact)
    assert hits >= 100
