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

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

from kiosk.rules import BAR, BLACK, OFF, WHITE, Colour, Position
from kiosk.table.layout import LOCATIONS, DieReading, TableLayout

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


def colour_in(
    counts: Mapping[str, int],
    reference: Mapping[str, tuple[int, int]],
    mover: Colour,
    hit: Collection[str] = (),
) -> tuple[Sensed, list[str]]:
    """Give an occupancy board's men their colours, from location and from history.

    ``reference`` is the last board known to be right (the last legal partial play, or
    the position being set up); ``mover`` is the side whose men move now. Bars and
    trays belong to one side each. A point keeps the colour it had: men added to the
    adversary's point are the mover's (a hit in progress, or a wrong landing), men
    taken from it are the adversary's. Men on a point that was empty belong to the side
    missing men elsewhere (the mover's when both or neither are).

    Returns the coloured board and the points where the count alone cannot tell: men on
    an adversary's blot may include that blot, or be the mover's men that hit it, the
    blot gone to the hand or the bar. Points named in ``hit`` are read the second way.

    >>> ref = {"1": (0, 0), "2": (0, 1), "3": (2, 0), "bar-white": (0, 0), "bar-black": (0, 0)}
    >>> colour_in({"1": 1, "2": 1, "3": 1, "bar-white": 0, "bar-black": 0}, ref, WHITE)
    ({'1': (1, 0), '2': (0, 1), '3': (1, 0), 'bar-white': (0, 0), 'bar-black': (0, 0)}, ['2'])
    """
    side = 0 if mover == WHITE else 1
    board: Sensed = {}
    unsure: list[str] = []
    newcomers: list[str] = []
    for where, n in counts.items():
        w, b = reference[where]
        mine, theirs = (w, b) if side == 0 else (b, w)
        if where.startswith(("bar-", "off-")):
            board[where] = (n, 0) if where.endswith(str(WHITE)) else (0, n)
            continue
        if theirs and not mine:
            kept = min(n, theirs)
            if theirs == 1 and n:
                unsure.append(where)
                kept = 0 if where in hit else 1
            mine, theirs = n - kept, kept
        elif mine:
            mine, theirs = n, 0
        elif n:
            newcomers.append(where)
            continue
        else:
            mine = theirs = 0
        board[where] = (mine, theirs) if side == 0 else (theirs, mine)
    missing = [sum(pair[i] for pair in reference.values()) for i in (0, 1)]
    for pair in board.values():
        missing = [missing[0] - pair[0], missing[1] - pair[1]]
    adv_only = missing[1 - side] > 0 and missing[side] <= 0
    for where in newcomers:
        n = counts[where]
        board[where] = (n, 0) if (side == 0) != adv_only else (0, n)
    return {where: board[where] for where in counts}, unsure


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


NO_DICE = (DieReading.EMPTY, DieReading.EMPTY)


@dataclass(frozen=True)
class TableReading:
    """One settled picture of the table, read once where it comes in: the men at every
    location (``counts``, all a table with one reed a slot can tell), their colours where
    the table senses them (``colours``, else ``None``), and the dice wells.

    Everything above the link takes this, never a raw frame; a referee turns it into the
    board it judges (coloured from the game where the table cannot see colour).

    >>> reading = TableReading.of({"6": (5, 0), "19": (0, 5)}, "occupancy")
    >>> reading.counts, reading.colours, reading.sees_colour
    ({'6': 5, '19': 5}, None, False)
    >>> reading.shows({"6": (5, 0), "19": (0, 5)}), reading.shows({"6": (4, 1), "19": (0, 5)})
    (True, True)
    >>> TableReading.of({"6": (5, 0)}, "polarity").shows({"6": (4, 1)})
    False
    """

    counts: Mapping[str, int]
    colours: Mapping[str, tuple[int, int]] | None = None
    dice: tuple[DieReading, DieReading] = NO_DICE
    #: each location's slots from the edge (0: empty), where the reading came from a frame:
    #: what the referee's reed watch (kiosk.referee.faults) reads; not part of equality
    slots: Mapping[str, tuple[int, ...]] | None = field(default=None, compare=False)

    @classmethod
    def of(
        cls,
        board: Mapping[str, tuple[int, int]],
        sensing: str,
        dice: tuple[DieReading, DieReading] = NO_DICE,
    ) -> TableReading:
        """The reading a table sensing ``sensing`` gives of ``board`` (colours as they are)."""
        colours = dict(board) if sensing == "polarity" else None
        return cls(occupancy(board), colours, dice)

    @property
    def sees_colour(self) -> bool:
        """Whether the table tells white men from black ones."""
        return self.colours is not None

    def shows(self, board: Mapping[str, tuple[int, int]]) -> bool:
        """Whether the table shows ``board`` as far as it can tell (its colours where it
        senses them, else its counts)."""
        if self.colours is not None:
            return all(self.colours.get(w, (0, 0)) == pair for w, pair in board.items())
        return all(self.counts.get(w, 0) == sum(pair) for w, pair in board.items())
