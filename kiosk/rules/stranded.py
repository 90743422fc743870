"""Parker's scoring by the loser's stranded men: options 1, 2 and 3, alone or with the games.

Parker Brothers' leaflet *Modern Backgammon*, "Scoring by Loser's Stranded Men" and
"Scoring by Stranded Men and Games Combined" (``shared/books/CATALOGUE.md`` §1.14):

* Option 1: one point for each of the loser's men still on the board, wherever it is.
  The leaflet says "on the board"; a man on the bar is counted too (it is still in play).
* Option 2: 1 in the loser's own inner table, 2 in his outer table, 3 in the winner's outer
  table, 4 in the winner's inner table **or on the bar**.
* Option 3: 1, 2, 4 and 8 for the same four zones. The leaflet does not mention the bar;
  a man there is counted as in the winner's inner table (8), where he must enter.
* Combined with games: the count is doubled for a gammon and tripled for a backgammon —
  for option 1 by the leaflet, for options 2 and 3 "as the players may elect".

Zones are counted from the loser's side: his points 1-6 are his inner table, 7-12 his outer,
13-18 the winner's outer, 19-24 the winner's inner.

>>> from kiosk.rules import BLACK, Position, Result
>>> loser = Position.from_points({1: 14, 3: -1, 10: -1, 16: -1, 21: -1}, bar=(0, 1))
>>> [stranded_count(loser, BLACK, option).total for option in (1, 2, 3)]
[5, 14, 23]
>>> stranded_count(loser, BLACK, 2, result=Result.GAMMON, combined=True).total
28
>>> for zone in stranded_count(loser, BLACK, 3).zones:
...     print(zone.label, zone.men, zone.each, zone.points_scored, zone.held)
the bar 1 8 8 (25,)
the winner's inner table 1 8 8 (22,)
the winner's outer table 1 4 4 (15,)
the loser's outer table 1 2 2 (9,)
the loser's inner table 1 1 1 (4,)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from kiosk.errors import TableError
from kiosk.rules import Colour, Position, Result


class StrandedError(TableError, ValueError):
    """Stranded-men scoring asked for in a way the leaflet does not give (says why)."""


class Zone(StrEnum):
    """Where a loser's man stands, from the loser's side."""

    BAR = "bar"
    WINNER_INNER = "winner-inner"  # the loser's points 19-24
    WINNER_OUTER = "winner-outer"  # 13-18
    LOSER_OUTER = "loser-outer"  # 7-12
    LOSER_INNER = "loser-inner"  # 1-6


ZONE_LABELS = {
    Zone.BAR: "the bar",
    Zone.WINNER_INNER: "the winner's inner table",
    Zone.WINNER_OUTER: "the winner's outer table",
    Zone.LOSER_OUTER: "the loser's outer table",
    Zone.LOSER_INNER: "the loser's inner table",
}

# The loser's points of each zone (25 is the bar).
ZONE_POINTS = {
    Zone.BAR: range(25, 26),
    Zone.WINNER_INNER: range(19, 25),
    Zone.WINNER_OUTER: range(13, 19),
    Zone.LOSER_OUTER: range(7, 13),
    Zone.LOSER_INNER: range(1, 7),
}

# Points per man in each zone, by option (Parker's leaflet).
VALUES: dict[int, dict[Zone, int]] = {
    1: dict.fromkeys(Zone, 1),
    2: {
        Zone.BAR: 4,
        Zone.WINNER_INNER: 4,
        Zone.WINNER_OUTER: 3,
        Zone.LOSER_OUTER: 2,
        Zone.LOSER_INNER: 1,
    },
    3: {
        Zone.BAR: 8,
        Zone.WINNER_INNER: 8,
        Zone.WINNER_OUTER: 4,
        Zone.LOSER_OUTER: 2,
        Zone.LOSER_INNER: 1,
    },
}

MULTIPLIERS = {Result.SINGLE: 1, Result.GAMMON: 2, Result.BACKGAMMON: 3}


@dataclass(frozen=True)
class ZoneCount:
    """The loser's men in one zone, what each is worth, and the points they make."""

    zone: Zone
    men: int
    each: int
    held: tuple[int, ...] = ()  # the loser's points in this zone that hold men (25: bar)

    @property
    def label(self) -> str:
        """The zone in words, for the screen."""
        return ZONE_LABELS[self.zone]

    @property
    def points_scored(self) -> int:
        """What the men of this zone score before any multiplier."""
        return self.men * self.each


@dataclass(frozen=True)
class StrandedCount:
    """The count made at the end of a game: zone by zone, the multiplier, the total."""

    option: int
    zones: tuple[ZoneCount, ...]
    multiplier: int = 1

    @property
    def men(self) -> int:
        """The loser's men still on the board or the bar."""
        return sum(z.men for z in self.zones)

    @property
    def subtotal(self) -> int:
        """The count before the gammon or backgammon multiplier."""
        return sum(z.points_scored for z in self.zones)

    @property
    def total(self) -> int:
        """What the winner scores by this option (before the stake and any double)."""
        return self.subtotal * self.multiplier

    def lines(self) -> list[str]:
        """The count in words, one line per zone that holds men, then the total."""
        out = [f"{z.men} in {z.label} x {z.each} = {z.points_scored}" for z in self.zones if z.men]
        if self.multiplier > 1:
            out.append(f"{self.subtotal} x {self.multiplier} = {self.total}")
        out.append(f"option {self.option}: {self.total}")
        return out


def stranded_count(
    position: Position,
    loser: Colour,
    option: int,
    *,
    result: Result = Result.SINGLE,
    combined: bool = False,
) -> StrandedCount:
    """Count the loser's stranded men by Parker's ``option`` (1, 2 or 3).

    ``combined``: multiply by 2 for a gammon and 3 for a backgammon (``result``).
    Zones with no men are listed too (``men`` 0), from the bar down to the loser's inner
    table, so the display can lay the count under the loser's men.
    """
    if option not in VALUES:
        raise StrandedError(f"Parker gives stranded-men options 1, 2 and 3, not {option!r}")
    if result not in MULTIPLIERS:
        raise StrandedError(f"a game is won single, gammon or backgammon, not {result!r}")
    side = position.men[loser]
    zones = []
    for zone, points in ZONE_POINTS.items():
        held = tuple(p for p in points if side[p - 1])
        zones.append(ZoneCount(zone, sum(side[p - 1] for p in points), VALUES[option][zone], held))
    multiplier = MULTIPLIERS[Result(result)] if combined else 1
    return StrandedCount(option, tuple(zones), multiplier)
