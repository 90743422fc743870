"""Positions: validation, Position IDs, pip counts."""

import pytest

from kiosk.rules import (
    BLACK,
    WHITE,
    InvalidPositionError,
    Position,
    decode_position_id,
)

START = "4HPwATDgc/ABMA"


def test_start_position_id_and_pips():
    start = Position.standard()
    assert start.position_id() == START
    assert start.pips(WHITE) == start.pips(BLACK) == 167
    assert start.total(WHITE) == start.total(BLACK) == 15


def test_position_id_after_a_play_matches_gnubg():
    after = Position.standard().parse_play(3, 1, "8/5 6/5").result
    assert after.turn == BLACK
    assert after.position_id() == "sGfwATDgc/ABMA"
    # and reading it back with black on roll gives the same position
    assert Position.from_id("sGfwATDgc/ABMA", turn=BLACK) == after


def test_id_roundtrip_with_bar_and_off():
    p = Position.from_points({1: 3, 2: 2, 20: -4, 24: -2}, bar=(1, 2))
    again = Position.from_id(p.position_id(), turn=WHITE)
    assert again == p
    assert again.bar(WHITE) == 1 and again.bar(BLACK) == 2
    assert again.off == (15 - 6, 15 - 8)


@pytest.mark.parametrize(
    "text, words",
    [
        ("abc", "14 characters"),
        ("4HPwATDgc/AB!A", "bad characters"),
        ("//////////////", "two complete sides"),
    ],
)
def test_bad_ids_are_refused_with_a_reason(text, words):
    with pytest.raises(InvalidPositionError, match=words):
        Position.from_id(text)


def test_decode_gives_side_on_roll_first():
    roller, other = decode_position_id("sGfwATDgc/ABMA")
    assert roller[5] == 5 and other[4] == 2  # black (on roll) untouched, white's two on its 5


def test_too_many_men():
    with pytest.raises(InvalidPositionError, match="16 men"):
        Position.from_points({6: 16})


def test_both_colours_on_one_point():
    white = [0] * 25
    black = [0] * 25
    white[5] = 2  # white's 6 point
    black[18] = 1  # black's 19 = white's 6
    with pytest.raises(InvalidPositionError, match="both have men on white's point 6"):
        Position((white, black), (13, 14))


def test_negative_counts():
    white = [0] * 25
    white[3] = -1
    with pytest.raises(InvalidPositionError, match="negative"):
        Position((white, [0] * 25), (0, 0))
    with pytest.raises(InvalidPositionError, match="negative borne-off"):
        Position(([0] * 25, [0] * 25), (-1, 0))


def test_partial_positions_are_allowed():
    p = Position.from_points({6: 2, 19: -1})
    assert p.total(WHITE) == 15 and p.on_board(WHITE) == 2
    fourteen = Position(([0] * 24 + [0], [0] * 25), (14, 0))
    assert fourteen.total(WHITE) == 14


def test_positions_are_immutable_and_hashable():
    p = Position.standard()
    with pytest.raises(AttributeError):
        p.turn = BLACK
    assert len({p, Position.standard(), p.swap_turn()}) == 2


def test_diagram_mentions_turn():
    assert "white on roll" in str(Position.standard())
