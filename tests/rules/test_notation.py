"""GNU Backgammon move notation: formatting, parsing, errors."""

import pytest

from kiosk.rules import (
    IllegalPlayError,
    InvalidNotationError,
    Position,
    Step,
    format_play,
    parse_moves,
)


def pos(points, bar=(0, 0)):
    return Position.from_points(points, bar=bar)


@pytest.mark.parametrize(
    "steps, text",
    [
        ([Step(24, 18, 6), Step(13, 8, 5)], "24/18 13/8"),
        ([Step(8, 5, 3), Step(8, 5, 3)], "8/5(2)"),
        ([Step(25, 22, 3, True)], "bar/22*"),
        ([Step(6, 0, 6)], "6/off"),
        ([Step(24, 18, 6, True), Step(18, 13, 5)], "24/18*/13"),
        ([Step(24, 18, 6), Step(18, 13, 5)], "24/13"),
        ([Step(13, 7, 6, True), Step(13, 7, 6)], "13/7*(2)"),
        ([Step(6, 5, 1), Step(8, 5, 3)], "8/5 6/5"),
        ([], ""),
    ],
)
def test_format(steps, text):
    assert format_play(steps) == text


def test_parse_resolves_against_the_legal_plays():
    start = Position.standard()
    play = start.parse_play(3, 1, "8/5 6/5")
    assert {(s.src, s.dst) for s in play.steps} == {(8, 5), (6, 5)}
    # order and spacing do not matter, and "25"/"0" are accepted for bar and off
    assert start.parse_play(3, 1, " 6/5, 8/5 ") == play
    p = pos({22: -1, 6: 2}, bar=(1, 0))
    assert str(p.parse_play(3, 1, "25/22* 6/5")) == "bar/22* 6/5"
    q = pos({6: 1, 5: 1})
    assert str(q.parse_play(6, 5, "6/0 5/0")) == "6/off 5/off"


def test_one_man_with_both_dice_written_either_way():
    start = Position.standard()
    assert start.parse_play(6, 5, "24/13") == start.parse_play(6, 5, "24/18/13")


def test_parse_moves_grammar():
    assert parse_moves("bar/20/16*(2)") == [[25, 20, 16], [25, 20, 16]]
    assert parse_moves("B/22 6/O") == [[25, 22], [6, 0]]


@pytest.mark.parametrize(
    "text, words",
    [
        ("24-18", "not a move"),
        ("18/24", "backwards"),
        ("26/20", "no point 26"),
        ("off/3", "enter from the bar"),
    ],
)
def test_bad_notation(text, words):
    with pytest.raises(InvalidNotationError, match=words):
        Position.standard().parse_play(6, 1, text)


def test_illegal_plays_explain():
    start = Position.standard()
    with pytest.raises(IllegalPlayError, match="no man of yours on point 20"):
        start.parse_play(3, 1, "20/17 6/5")
    with pytest.raises(IllegalPlayError, match="held by two or more"):
        start.parse_play(6, 1, "13/7 24/23 8/1")
    with pytest.raises(IllegalPlayError, match="not a legal play.*legal plays include"):
        start.parse_play(3, 1, "8/5")  # only one die: both can be played
    with pytest.raises(ValueError):  # both errors are ValueErrors
        start.parse_play(3, 1, "nonsense")
