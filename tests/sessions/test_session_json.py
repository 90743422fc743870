"""A session survives a restart: its state goes to JSON and back unchanged."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.rules import BLACK, WHITE, Position, Result
from kiosk.rules.chouette import Chouette, ChouetteError
from kiosk.rules.session import Session, SessionError


def test_a_match_in_the_crawford_game_round_trips() -> None:
    match = Session.match(5, players=("Ann", "Bob"))
    match.record(WHITE, Result.GAMMON, cube=2)
    text = match.to_json()
    again = Session.from_json(text)
    assert again == match
    assert again.crawford and again.score == (4, 0) and again.players == ("Ann", "Bob")
    assert again.next_game() == match.next_game()
    again.record(BLACK)
    assert again.post_crawford and not match.post_crawford


def test_money_with_agreed_rules_round_trips() -> None:
    loser = Position.from_points({1: 1, 20: -2}, off=(14, 13))
    money = Session.money(
        "cady", stake=3, backgammon=4, scoring="stranded3", stranded_multiply=True
    )
    money.record(WHITE, Result.SINGLE, cube=2, position=loser)
    again = Session.from_json(money.to_json())
    assert again == money
    assert again.profile.backgammon_value == 4 and again.profile.name == "cady"
    assert again.score == money.score == (2 * 1 * 3 * 2, 0)


@pytest.mark.parametrize("make", [Session.rubber, Session.set])
def test_rubbers_and_sets_round_trip(make) -> None:
    session = make()
    session.record(BLACK, Result.GAMMON)
    assert Session.from_json(session.to_json()) == session


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[]",
        "{}",
        '{"format": 99}',
        json.dumps({**Session.match(3).to_dict(), "kind": "league"}),
        json.dumps({**Session.match(3).to_dict(), "length": 40}),
        json.dumps({**Session.match(3).to_dict(), "games": [{"winner": "red"}]}),
    ],
)
def test_a_damaged_saved_session_gives_one_clear_error(text: str) -> None:
    with pytest.raises(SessionError):
        Session.from_json(text)


def seated() -> Chouette:
    game = Chouette(["Ann", "Bob", "Cy", "Dee"])
    game.box_doubles(declines=["Dee"])
    return game


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from(sorted(Session.match(3).to_dict())),
    json_values,
)
def test_a_saved_session_with_any_field_damaged_is_refused_or_read(key: str, value) -> None:
    saved = Session.match(3).record(WHITE, Result.GAMMON).to_dict()
    saved[key] = value
    try:
        Session.from_json(json.dumps(saved))
    except SessionError:
        pass


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(sorted(json.loads(seated().to_json()))), json_values)
def test_a_saved_chouette_with_any_field_damaged_is_refused_or_read(key: str, value) -> None:
    saved = json.loads(seated().to_json())
    saved[key] = value
    try:
        Chouette.from_json(json.dumps(saved))
    except ChouetteError:
        pass
