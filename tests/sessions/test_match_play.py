"""Matches to N points: the score, the Crawford rule, gammons that cannot matter, match equity."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kiosk.rules import BLACK, WHITE, Result
from kiosk.rules.met import MatchEquityError, kazaross_xg2, match_equity
from kiosk.rules.session import Session, SessionError

GNUBG_MET = Path("/usr/share/gnubg/met/Kazaross-XG2.xml")


def test_a_three_point_match_through_the_crawford_game() -> None:
    match = Session.match(3)
    plan = match.next_game()
    assert (plan.number, plan.crawford, plan.post_crawford, plan.doubling) == (
        1,
        False,
        False,
        True,
    )
    assert plan.automatic_doubles is False
    match.record(BLACK, Result.SINGLE, cube=2)  # black to 1-away: the next game is Crawford
    assert match.score == (0, 2)
    plan = match.next_game()
    assert plan.crawford and not plan.doubling
    with pytest.raises(SessionError, match="Crawford"):
        match.record(WHITE, Result.SINGLE, cube=2)
    assert match.score == (0, 2)  # the refused record changed nothing
    match.record(WHITE, Result.SINGLE)
    assert not match.crawford and match.post_crawford
    plan = match.next_game()
    assert (plan.crawford, plan.post_crawford, plan.doubling) == (False, True, True)
    match.record(WHITE, Result.SINGLE, cube=2)
    assert match.score == (3, 2) and match.over and match.winner == WHITE
    assert [g.crawford for g in match.games] == [False, True, False]
    with pytest.raises(SessionError, match="over"):
        match.next_game()
    with pytest.raises(SessionError, match="over"):
        match.record(BLACK)


def test_crawford_comes_once_and_not_in_a_one_point_match() -> None:
    assert not Session.match(1).crawford
    match = Session.match(5)
    match.record(WHITE, Result.GAMMON, cube=2)  # 4-0: white is 1-away
    assert match.crawford
    match.record(BLACK, Result.GAMMON)  # the Crawford game, 4-2
    assert not match.crawford and match.post_crawford
    match.record(BLACK, Result.GAMMON)  # 4-4: double match point, still post-Crawford
    assert match.score == (4, 4) and not match.crawford and match.post_crawford


def test_gammons_that_cannot_matter() -> None:
    match = Session.match(5)
    assert match.next_game().gammon_matters == (True, True)
    match.record(WHITE, Result.SINGLE, cube=4)  # 4-0, Crawford game
    plan = match.next_game()
    assert plan.crawford
    assert plan.gammon_matters == (False, True)  # the leader needs one point
    assert plan.backgammon_matters == (False, True)  # the trailer needs five
    match.record(BLACK, Result.GAMMON)
    match.record(BLACK, Result.SINGLE)  # 4-3: the trailer needs two
    assert match.gammon_matters(BLACK) and not match.backgammon_matters(BLACK)
    assert not match.gammon_matters(BLACK, cube=2)  # doubled, a single win is enough
    money = Session.money()
    assert money.gammon_matters(WHITE) and money.backgammon_matters(BLACK)
    american = Session.money("foster-american")
    assert not american.gammon_matters(WHITE)


def test_bad_matches_and_results_are_refused() -> None:
    for length in (0, -3, 26, "5", True):
        with pytest.raises(SessionError):
            Session.match(length)
    with pytest.raises(SessionError, match="automatic doubles"):
        Session.match(5, automatic_doubles=True)
    with pytest.raises(SessionError, match="stranded"):
        Session.match(5, scoring="stranded1")
    match = Session.match(5)
    for bad in (
        {"winner": "red"},
        {"winner": WHITE, "result": "triple"},
        {"winner": WHITE, "cube": 3},
    ):
        with pytest.raises(SessionError):
            match.record(**bad)
    assert match.games == []


def test_match_equity_from_the_score() -> None:
    match = Session.match(7)
    assert match.equity() == (0.5, 0.5)
    match.record(WHITE, Result.GAMMON)  # 5-away against 7-away
    white, black = match.equity()
    assert white == kazaross_xg2().pre_crawford[4][6] and white + black == pytest.approx(1)
    match.record(WHITE, Result.GAMMON, cube=2)  # 6-0: white 1-away, Crawford
    assert match.equity()[0] == kazaross_xg2().pre_crawford[0][6]
    match.record(BLACK, Result.SINGLE)  # post-Crawford, white 1-away, black 6-away
    assert match.equity()[1] == kazaross_xg2().post_crawford[5]
    match.record(WHITE, Result.SINGLE)
    assert match.equity() == (1.0, 0.0)
    with pytest.raises(SessionError):
        Session.money().equity()


def test_the_table_is_symmetric_and_monotonic() -> None:
    table = kazaross_xg2()
    for i in range(table.length):
        for j in range(table.length):
            if i != j:
                assert table.pre_crawford[i][j] + table.pre_crawford[j][i] == pytest.approx(1)
        if i:
            assert match_equity(1, i + 1) > match_equity(1, i + 1, post_crawford=True)
            assert match_equity(i + 1, 1, post_crawford=True) < 0.5
    assert "Kazaross" in table.citation and "notice" in table.licence
    for bad in ((0, 3), (3, 26), (2.5, 3)):
        with pytest.raises(MatchEquityError):
            match_equity(*bad)


@pytest.mark.skipif(not GNUBG_MET.exists(), reason="GNU Backgammon's tables are not installed")
def test_the_shipped_table_is_gnubgs() -> None:
    root = ET.parse(GNUBG_MET).getroot()
    pre = [[float(me.text) for me in row.findall("me")] for row in root.iter("row")][:25]
    post_rows = root.find("post-crawford-table").findall("row")
    post = [float(me.text) for me in post_rows[0].findall("me")]
    table = kazaross_xg2()
    assert [list(row) for row in table.pre_crawford] == pre
    assert list(table.post_crawford) == post
    assert table.name == root.find("info/name").text
    assert "Copyright (C) 2011 Neil Kazaross" in GNUBG_MET.read_text()
    assert table.copyright.startswith("Copyright (C) 2011 Neil Kazaross")


def test_what_the_screen_and_coach_say() -> None:
    match = Session.match(3, players=("Ann", "Bob"))
    assert match.notes() == [
        "Match to 3: Ann 0, Bob 0.",
        "Chances to win the match: Ann 50%, Bob 50% (Kazaross XG2 table).",
    ]
    assert match.game_over_fields() == {"score": [0, 0], "match_over": False}
    match.record(BLACK, Result.GAMMON).record(WHITE, Result.SINGLE)  # 1-2 after the Crawford
    notes = match.notes()
    assert notes[1] == "After the Crawford game: the cube is back in play."
    assert notes[2] == "A gammon cannot help Bob: a single game wins the match."
    assert len(notes) == 4  # Ann needs two: her gammon would count
    match.record(BLACK, Result.SINGLE)
    assert match.notes() == ["Match to 3: Ann 1, Bob 3.", "Bob has won the match."]
    assert match.game_over_fields() == {"score": [1, 3], "match_over": True}
    money = Session.money(stake=2, players=("Ann", "Bob")).record(WHITE, Result.GAMMON)
    assert money.notes() == ["Money at 2 a game: Ann +4, Bob -4."]
    assert money.game_over_fields() == {"score": [4, 0]}
    rubber = Session.rubber(players=("Ann", "Bob")).record(BLACK)
    assert rubber.notes()[1] == "A gammon cannot help Bob: a single game wins the rubber."
    assert Session.set().record(BLACK).notes() == ["Set: white 0, black 1."]
