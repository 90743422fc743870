"""The movement rules asked one at a time (kiosk.rules.checks), as the referee asks them."""

import pytest

from kiosk.rules import BAR, OFF, Position
from kiosk.rules.checks import Breach, breach, routes

START = Position.standard()
ON_BAR = Position.from_points({13: 5, 6: 5}, bar=(1, 0))
BEARING = Position.from_points({6: 1, 2: 1, 19: -5})
NOT_HOME = Position.from_points({8: 1, 5: 3, 19: -5})


@pytest.mark.parametrize(
    ("position", "src", "dst", "dice", "expected"),
    [
        (START, 13, 8, (6, 5), None),
        (START, 24, 13, (6, 5), None),  # 24/18/13: the 18 point is open
        (START, 24, 19, (6, 5), Breach("blocked-point", 19)),
        (START, 13, 11, (3, 1), Breach("wrong-distance")),
        (START, 8, 9, (3, 1), Breach("backward")),
        (ON_BAR, 13, 10, (3, 1), Breach("bar-first")),
        (ON_BAR, BAR, 22, (3, 1), None),
        (NOT_HOME, 5, OFF, (5, 2), Breach("bear-off-not-home", 8)),
        (BEARING, 2, OFF, (5, 4), Breach("bear-off-higher", 6)),
        (BEARING, 6, OFF, (5, 4), Breach("wrong-distance")),
        (BEARING, 6, OFF, (6, 4), None),
    ],
)
def test_breach(position, src, dst, dice, expected):
    assert breach(position, src, dst, dice) == expected


def test_blocked_between_two_numbers():
    # 6-6 from white's 24 point: black holds the 18 point on the way to 12
    position = Position.from_points({24: 1, 6: 5, 18: -2, 1: -2})
    assert breach(position, 24, 12, (6, 6)) == Breach("blocked-point", 18)


def test_routes_orders_of_the_dice():
    assert sorted(routes([6, 5], 11)) == [[5, 6], [6, 5]]
    assert routes([3, 3, 3, 3], 9) == [[3, 3, 3]]
    assert routes([6, 5], 7) == []
