"""Exact figures the lessons quote, worked out by playing every roll with the rules engine.

The books give their odds from tables counted by hand; the lessons set those tables
beside these exact counts. A shot "at distance d" is the number of the 36 rolls that let
one adverse man ``d`` pips away land on a lone blot, with a single die or by stepping
with both dice (or up to four steps of a doublet), every stop in between open unless
it is named in ``stops``.

>>> shots_at_distance(6), shots_at_distance(12), shots_at_distance(8, stops=(4,))
(17, 3, 4)
>>> entering(2)
20
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from kiosk.rules import BLACK, WHITE, Position, all_rolls, entering_chances, shots

#: The farthest distance a lone man can travel in one throw (6-6 played four times).
MAX_DISTANCE = 24

#: The forms of a question's ``check``: the exact figure its right answer must equal.
CHECK_FORMS = ("shots D", "shots D stops S [S...]", "enter OPEN", "rolls")


@cache
def _shots(distance: int, stops: tuple[int, ...]) -> int:
    # White's blot stands on white's 24 point; the black man stands `distance` pips short of
    # it (black moves up white's numbering), on black's bar when the distance is 24.
    start = 24 - distance
    points: dict[int, int] = {24: 1}
    for stop in stops:
        where = start + stop
        if not 1 <= where <= 23:
            raise ValueError(f"a stop {stop} pips from the attacker is off the board")
        points[where] = 2
    bar = (0, 0)
    if start == 0:
        bar = (0, 1)
    else:
        points[start] = -1
    position = Position.from_points(points, bar=bar, turn=BLACK)
    return shots(position, WHITE, 24)


def shots_at_distance(distance: int, stops: Iterable[int] = ()) -> int:
    """How many of the 36 rolls hit a blot ``distance`` pips from one adverse man.

    ``stops`` are distances from the attacker at which the blot's side holds a point,
    so the attacker may not stop there on his way.
    """
    if not 1 <= distance <= MAX_DISTANCE:
        raise ValueError(f"a distance is 1 to {MAX_DISTANCE} pips, not {distance}")
    wanted = tuple(sorted(set(stops)))
    if any(not 0 < s < distance for s in wanted):
        raise ValueError(f"a stop lies between the attacker and the blot (1-{distance - 1})")
    return _shots(distance, wanted)


def entering(open_points: int) -> int:
    """How many of the 36 rolls enter a man from the bar with ``open_points`` of six open."""
    return entering_chances(open_points)


def rolls() -> int:
    """How many different throws two dice make (counting 6-1 and 1-6 apart)."""
    return sum(ways for _, _, ways in all_rolls())


def check(spec: str) -> int:
    """The exact figure a ``check`` string names (``"shots 8 stops 4"``, ``"enter 2"``).

    Raises ``ValueError`` with the accepted forms for anything else.
    """
    words = spec.split()
    usage = ", ".join(f"'{form}'" for form in CHECK_FORMS)
    try:
        if words[0] == "shots" and (len(words) == 2 or (len(words) > 3 and words[2] == "stops")):
            return shots_at_distance(int(words[1]), [int(w) for w in words[3:]])
        if words[0] == "enter" and len(words) == 2:
            return entering(int(words[1]))
        if words == ["rolls"]:
            return rolls()
    except (IndexError, ValueError) as err:
        raise ValueError(f"{spec!r}: {err} (the forms are {usage})") from None
    raise ValueError(f"{spec!r} is not a figure the lessons can work out (the forms are {usage})")
