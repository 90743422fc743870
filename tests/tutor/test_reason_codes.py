"""Each reason code of the coach, given where its condition holds and only there: for every
code a position where it must appear and one where it must not (issue 25: reasons that
held nowhere, such as a home point "made" that was already held, or the openings' tactics
cited in a pure race)."""

from __future__ import annotations

import pytest

from kiosk.rules import Position
from kiosk.tutor.coach import Coach
from kiosk.tutor.evaluators.builtin import BuiltinEvaluator
from kiosk.tutor.features import REASON_CODES, TACTICS, WRONG_CODES, explain, explain_error

START = Position.standard()
#: A race: every man has passed (white home and on his 7 and 8 points; black far away).
RACE = Position.from_points({8: 2, 7: 2, 6: 3, 5: 2, 4: 2, 3: 2, 2: 2, 18: -5, 19: -5, 20: -5})
#: Black on the bar against white's builders.
BAR = Position.from_points(
    {13: 5, 8: 3, 6: 4, 5: 1, 24: 2, 12: -5, 17: -3, 19: -5, 1: -1}, bar=(0, 1)
)
#: White holding his 3 point, with men to spare.
THREE = Position.from_points({13: 4, 8: 3, 6: 4, 3: 2, 24: 2, 12: -5, 17: -3, 19: -5, 4: -2})
#: Black on the bar; white holds his 4 and 5 points.
HELD = Position.from_points(
    {6: 4, 5: 2, 4: 2, 8: 3, 13: 4, 12: -5, 17: -3, 19: -5, 1: -1}, bar=(0, 1)
)
#: White with men on his low points already, and black's anchor on white's 4 point.
LOW = Position.from_points({13: 3, 8: 3, 6: 3, 3: 3, 2: 1, 24: 2, 12: -5, 17: -3, 19: -5, 4: -2})
#: White bearing off against nothing (black far away).
BEAROFF = Position.from_points({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2, 19: -5, 20: -5, 21: -5})


def codes(position: Position, dice: tuple[int, int], move: str, best: str) -> dict[str, dict]:
    """The reasons ``explain`` gives for ``move`` against ``best``, by code."""
    play = position.parse_play(*dice, move)
    reasons = explain(position, play, position.parse_play(*dice, best))
    return {r.code: {**r.facts, "tactic": r.tactic, "text": r.text} for r in reasons}


# code: (where it must appear), (where it must not): (position, dice, move, best play)
CASES = {
    "blot": ((START, (3, 1), "13/10 6/5", "8/5 6/5"), (START, (3, 1), "8/5 6/5", "13/10 6/5")),
    "safe": ((START, (3, 1), "8/5 6/5", "13/10 6/5"), (START, (3, 1), "13/10 6/5", "8/5 6/5")),
    "fewer-shots": (
        (START, (6, 4), "24/14", "24/18 13/9"),
        (START, (6, 4), "24/18 13/9", "24/14"),
    ),
    "makes-point": ((START, (3, 1), "8/5 6/5", "13/10 6/5"), (RACE, (3, 1), "8/5 6/5", "7/4 7/6")),
    "breaks-point": (
        (HELD, (3, 1), "4/1 4/3", "8/5 6/5"),
        (RACE, (3, 1), "5/2 5/4", "8/5 8/7"),
    ),
    "misses-point": (
        (START, (3, 1), "13/10 6/5", "8/5 6/5"),
        (START, (6, 5), "24/13", "24/18 13/8"),
    ),
    "home-point": ((START, (5, 3), "8/3 6/3", "13/8 13/10"), (RACE, (3, 1), "7/4 8/7", "7/6 7/4")),
    "best-home-point": (
        (START, (5, 3), "13/8 13/10", "8/3 6/3"),
        # The 3 point was held before: breaking it is not the best play "making" it.
        (THREE, (4, 2), "6/2 3/1", "13/9 13/11"),
    ),
    "hits": ((BAR, (4, 1), "6/5 5/1*", "13/9 6/5"), (START, (3, 1), "8/5 6/5", "13/10 6/5")),
    "misses-hit": ((BAR, (4, 1), "13/9 6/5", "6/5 5/1*"), (START, (3, 1), "13/10 6/5", "8/5 6/5")),
    "crowds": (
        (LOW, (5, 3), "8/3 6/3", "13/8 13/10"),
        (RACE, (5, 3), "8/3 6/3", "8/5 7/2"),
    ),
    "stacks": ((START, (5, 2), "13/8 8/6", "13/11 13/8"), (START, (6, 4), "24/14", "8/2 6/2")),
    "leaves-back": (
        (START, (6, 5), "13/7 13/8", "24/13"),
        (RACE, (6, 5), "8/2 7/2", "8/3 7/1"),
    ),
    "bears-off-fewer": (
        (BEAROFF, (6, 5), "6/1 6/off", "6/off 5/off"),
        (START, (6, 5), "24/13", "24/18 13/8"),
    ),
}


@pytest.mark.parametrize("code", sorted(CASES), ids=str)
def test_each_reason_appears_where_its_condition_holds_and_only_there(code) -> None:
    must, must_not = CASES[code]
    assert code in codes(*must), f"{code} missing: {codes(*must)}"
    assert code not in codes(*must_not), f"{code} given where it does not hold"


#: White holding his 9 point beside the usual start.
NINE = Position.from_points({13: 4, 9: 2, 8: 2, 6: 5, 24: 2, 12: -5, 17: -3, 19: -5, 1: -2})

# What explain_error adds to an error no other reason names: (must appear), (must not).
ERROR_CASES = {
    "new-blot": (
        (START, (3, 1), "13/10 6/5", "8/5 6/5"),
        (START, (3, 1), "8/5 6/5", "13/10 6/5"),
    ),
    "breaks-outer-point": (
        (NINE, (4, 1), "9/5 9/8", "13/9 6/5"),
        (NINE, (4, 1), "13/9 6/5", "9/5 9/8"),
    ),
}


@pytest.mark.parametrize("code", sorted(ERROR_CASES), ids=str)
def test_each_error_reason_appears_where_its_condition_holds_and_only_there(code) -> None:
    must, must_not = ERROR_CASES[code]

    def error_codes(position, dice, move, best) -> set[str]:
        found = explain_error(
            position, position.parse_play(*dice, move), position.parse_play(*dice, best)
        )
        return {r.code for r in found}

    assert code in error_codes(*must)
    assert code not in error_codes(*must_not)


def test_a_blot_the_best_play_also_draws_more_shots_elsewhere_is_not_blamed() -> None:
    # 24/14 leaves fewer shots in all than 24/18 13/9: its blot is no fault of the play.
    play, best = START.parse_play(6, 4, "24/14"), START.parse_play(6, 4, "24/18 13/9")
    assert "new-blot" not in {r.code for r in explain_error(START, play, best)}


def test_every_code_has_a_case_or_a_test_of_its_own() -> None:
    own = {"best", "only-play", "race", "gives-up"}  # tested below, with the coach
    assert set(CASES) | set(ERROR_CASES) | own == set(REASON_CODES)


def test_every_error_names_what_the_play_does_wrong_first() -> None:
    # Issue 33: errors explained only by what they do well (a very bad 6-6 by "Makes your
    # bar point"), or by nothing. 13/2 does what the best play does not (fewer shots) and
    # still leaves a man behind: that comes first.
    coach = Coach(BuiltinEvaluator())
    for position, dice, move in [
        (START, (6, 5), "13/2"),
        (START, (3, 1), "13/10 24/23"),
        (BAR, (4, 1), "24/20 24/23"),
    ]:
        rating = coach.rate(position, dice, move)
        assert rating.equity_loss is not None and rating.equity_loss >= 0.03, rating
        assert rating.reasons[0]["code"] in WRONG_CODES, rating.reasons


def test_hitting_cites_cady_x_only_when_no_single_die_hits_back() -> None:
    # Black's man on the bar can enter straight onto white's blots: a direct return shot.
    direct = codes(BAR, (4, 1), "6/5 5/1*", "13/9 6/5")["hits"]
    assert direct["direct"] and direct["tactic"] is not TACTICS["C-X"]
    assert "single die" not in direct["text"]
    # A hit out in the field, the men it leaves seven or more pips from his: only combined
    # dice hit back.
    far = Position.from_points({13: 6, 8: 4, 6: 5, 10: -1, 1: -2, 12: -5, 19: -7})
    hit = codes(far, (3, 2), "13/10* 13/11", "13/11 6/3")["hits"]
    assert not hit["direct"] and hit["tactic"] is TACTICS["C-X"], hit


def test_race_reason_says_whether_the_men_have_passed() -> None:
    assert codes(RACE, (3, 1), "8/5 6/5", "7/4 7/6")["race"]["contact"] is False
    assert "have passed" in codes(RACE, (3, 1), "8/5 6/5", "7/4 7/6")["race"]["text"]
    assert codes(START, (3, 1), "8/5 6/5", "13/10 6/5")["race"]["contact"] is True


@pytest.fixture(scope="module")
def coach() -> Coach:
    return Coach(BuiltinEvaluator())


def test_best_only_for_the_best_play(coach) -> None:
    best = coach.rate(START, (3, 1), "8/5 6/5")
    assert best.reasons[0]["code"] == "best"
    worse = coach.rate(START, (3, 1), "24/21 24/23")
    assert "best" not in [r["code"] for r in worse.reasons]


def test_only_play_only_when_there_is_one(coach) -> None:
    # White's man on the bar against a closed board: no play at all.
    shut = Position.from_points(
        {13: 14, 19: -2, 20: -2, 21: -2, 22: -2, 23: -2, 24: -2, 12: -3}, bar=(1, 0)
    )
    (play,) = shut.legal_plays(6, 5)
    assert [r["code"] for r in coach.rate(shut, (6, 5), play).reasons] == ["only-play"]
    assert "only-play" not in [r["code"] for r in coach.rate(START, (3, 1), "8/5 6/5").reasons]


def test_every_bad_play_names_what_it_gives_up(coach) -> None:
    """Every play the coach rates bad or worse has a reason naming what it gave up, gammons
    and backgammons included; a fine play has no such reason."""
    for dice in ((3, 1), (6, 4), (5, 2), (6, 6)):
        for play in START.legal_plays(*dice):
            rating = coach.rate(START, dice, play)
            given = [r for r in rating.reasons if r["code"] == "gives-up"]
            if rating.rating in ("bad", "very bad"):
                assert given, (dice, str(play), rating.reasons)
                assert any(given[0].get(k) for k in ("wins", "gammons", "loses_gammons"))
            if rating.rating == "fine":
                assert not given
