"""Money sessions, Hoffmann's rubber, Cady's set, and who throws first in the next game."""

from __future__ import annotations

import pytest

from kiosk.rules import BLACK, WHITE, Position, Result
from kiosk.rules.session import Kind, Session, SessionError


def test_money_english_scoring_with_agreed_value_gammons_and_doubles() -> None:
    money = Session.money("parker", stake=5)
    money.record(WHITE, Result.SINGLE)  # 5
    money.record(BLACK, Result.GAMMON, cube=2)  # 5 x 2 x 2 = 20
    money.record(WHITE, Result.BACKGAMMON, cube=4)  # 5 x 3 x 4 = 60
    assert [g.points for g in money.games] == [5, 20, 60]
    assert money.score == (65, 20)
    assert money.tally == (45, -45)
    assert not money.over and money.winner is None and money.target is None
    with pytest.raises(SessionError):
        money.away(WHITE)


def test_backgammon_three_or_four_by_agreement() -> None:
    assert Session.money(backgammon=3).record(WHITE, Result.BACKGAMMON).score == (3, 0)
    assert Session.money(backgammon=4).record(WHITE, Result.BACKGAMMON).score == (4, 0)
    with pytest.raises(SessionError, match="3 or 4"):
        Session.money(backgammon=5)
    with pytest.raises(SessionError, match="agreed value"):
        Session.money(stake=0)


def test_american_scoring_counts_every_game_one() -> None:
    money = Session.money("foster-american", stake=2)
    money.record(WHITE, Result.BACKGAMMON).record(BLACK, Result.GAMMON)
    assert money.score == (2, 2)


def test_hoffmanns_rubber_won_two_nil_by_a_gammon() -> None:
    rubber = Session.rubber()
    assert rubber.kind == Kind.RUBBER and rubber.profile.name == "hoffmann"
    assert rubber.next_game().gammon_matters == (True, True)
    rubber.record(WHITE, Result.GAMMON)
    assert rubber.score == (2, 0) and rubber.over and rubber.winner == WHITE


def test_a_gammon_after_losing_the_first_game_wins_the_rubber() -> None:
    rubber = Session.rubber()
    rubber.record(BLACK, Result.SINGLE)
    plan = rubber.next_game()
    assert plan.gammon_matters == (True, False)  # black needs one game; white needs two
    assert plan.starter == BLACK  # Hoffmann: the winner of a hit throws first
    rubber.record(WHITE, Result.GAMMON)
    assert rubber.over and rubber.winner == WHITE and rubber.score == (2, 1)


def test_a_rubber_of_three_single_games() -> None:
    rubber = Session.rubber()
    rubber.record(WHITE).record(BLACK)
    assert not rubber.over and rubber.away(WHITE) == rubber.away(BLACK) == 1
    rubber.record(BLACK)
    assert rubber.winner == BLACK and len(rubber.games) == 3


def test_cadys_set_three_games_up() -> None:
    cady = Session.set()
    assert cady.target == 3 and not cady.gammons_count
    cady.record(WHITE, Result.GAMMON)  # a gammon still counts one game in the set
    assert cady.score == (1, 0)
    assert cady.next_game().starter is None  # Cady: after a gammon both throw again
    cady.record(BLACK).record(BLACK)
    assert cady.next_game().starter == BLACK
    cady.record(WHITE).record(WHITE)
    assert cady.winner == WHITE and cady.score == (3, 2) and len(cady.games) == 5
    counting = Session.set(gammons_count=True)
    assert counting.record(WHITE, Result.GAMMON).score == (2, 0)


@pytest.mark.parametrize(
    ("profile", "result", "starter"),
    [
        ("cady", Result.SINGLE, WHITE),
        ("cady", Result.GAMMON, None),
        ("crawley", Result.GAMMON, WHITE),
        ("modern", Result.SINGLE, None),
    ],
)
def test_who_throws_first_follows_the_profile(profile: str, result: Result, starter) -> None:
    session = Session.money(profile)
    assert session.next_game().starter is None  # the first game: a throw-off
    session.record(WHITE, result)
    assert session.next_game().starter == starter


def test_sets_and_rubbers_are_counted_in_games() -> None:
    with pytest.raises(SessionError, match="games"):
        Session.rubber(scoring="stranded2")


def test_stranded_scoring_in_a_money_session() -> None:
    loser = Position.from_points({1: 3, 3: -2, 10: -1, 16: -3, 21: -2}, off=(12, 0))
    plain = Session.money("parker", stake=2, scoring="stranded2")
    plain.record(WHITE, Result.GAMMON, cube=2, position=loser)
    # 2 x 4 + 1 x 3 + 3 x 2 + 2 x 1 = 19, times the stake 2 and the cube 2
    assert plain.games[0].stranded == 19 and plain.score == (76, 0)
    assert not plain.gammon_matters(WHITE)  # the count is not multiplied by a gammon
    combined = Session.money("parker", scoring="stranded2", stranded_multiply=True)
    combined.record(WHITE, Result.GAMMON, position=loser)
    assert combined.games[0].stranded == 38 and combined.gammon_matters(WHITE)
    with pytest.raises(SessionError, match="position"):
        combined.record(WHITE, Result.GAMMON)


def test_a_declined_double_under_stranded_scoring_scores_the_stake() -> None:
    money = Session.money("parker", stake=3, scoring="stranded3")
    money.record(BLACK, Result.SINGLE, cube=4, passed=True)
    assert money.games[0].points == 12 and money.games[0].stranded is None
    with pytest.raises(SessionError, match="single"):
        money.record(BLACK, Result.GAMMON, passed=True)
