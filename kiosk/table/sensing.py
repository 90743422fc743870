"""What the switches see: positions projected onto the table's locations, and back.

A sensed board maps every location to ``(white men, black men)`` as the slots
read them, so a count is capped at the location's slot count. Locations are
named in white's numbering (``"1"``..``"24"``, ``"bar-white"``, ``"off-black"``,
see :mod:`kiosk.link`).

>>> from kiosk.table import TableLayout
>>> from kiosk.rules import Position
>>> board = project(Position.standard(), TableLayout())
>>> board["6"], board["19"], board["bar-white"]
((5, 0), (0, 5), (0, 0))
"""

from __future__ import annotations

from collections.abc import Mapping

from kiosk.rules import BAR, BLACK, OFF, WHITE, Colour, Position
from kiosk.table.layout import LOCATIONS, TableLayout

Sensed = dict[str, tuple[int, int]]
#: Men per location whatever their colour: all that an occupancy-sensing table reads.
Occupancy = dict[str, int]


def location(colour: Colour, point: int) -> str:
    """The table location of ``point`` in ``colour``'s own numbering (``BAR`` 25, ``OFF`` 0)."""
    if point == BAR:
        return f"bar-{colour}"
    if point == OFF:
        return f"off-{colour}"
    return str(point if colour == WHITE else 25 - point)


def point_of(colour: Colour, where: str) -> int:
    """The point in ``colour``'s numbering for a table location (inverse of :func:`location`)."""
    if where.startswith("bar-"):
        return BAR
    if where.startswith("off-"):
        return OFF
    n = int(where)
    return n if colour == WHITE else 25 - n


def true_counts(position: Position) -> Sensed:
    """Every location's ``(white, black)`` men in a position, uncapped."""
    board: Sensed = {where: (0, 0) for where in LOCATIONS}
    for colour in (WHITE, BLACK):
        for point in range(0, 26):
            n = position.count(colour, point)
            if n:
                where = location(colour, point)
                w, b = board[where]
                board[where] = (w + n, b) if colour == WHITE else (w, b + n)
    return board


def project(position: Position, layout: TableLayout) -> Sensed:
    """What the slots would read for ``position``: counts capped at each location's slots."""
    return cap(true_counts(position), layout)


def cap(board: Mapping[str, tuple[int, int]], layout: TableLayout) -> Sensed:
    """Counts as the slots read them: at most the slot count in all, first come first."""
    capped: Sensed = {}
    for where, (w, b) in board.items():
        slots = layout.slots(where)
        w2 = min(w, slots)
        capped[where] = (w2, min(b, slots - w2))
    return capped


def occupancy(board: Mapping[str, tuple[int, int]]) -> Occupancy:
    """The men per location of a sensed board, colour left out.

    >>> occupancy({"6": (5, 0), "19": (0, 5)})
    {'6': 5, '19': 5}
    """
    return {where: w + b for where, (w, b) in board.items()}


def key(board: Mapping[str, tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """A hashable form of a sensed board."""
    return tuple(board[where] for where in LOCATIONS)



def describe(where: str, colour: Colour) -> str:
    """A location as the player of ``colour`` would name it ("your 6 point", "the bar")."""
    if where.startswith("bar-"):
        owner = where[4:]
        return "your bar" if owner == str(colour) else f"{owner}'s bar"
    if where.startswith("off-"):
        owner = where[4:]
        return "your tray" if owner == str(colour) else f"{owner}'s tray"
    return f"your {point_of(colour, where)} point"
