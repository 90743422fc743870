"""Positions: where every man stands, and whose turn it is.

Points are numbered from each side's own point of view, as the books and GNU
Backgammon do: 1 is the side's ace point, 6 its six point, 7 its bar point,
24 the adversary's ace point, where the two back men start. ``BAR`` (25) and
``OFF`` (0) complete the numbering.

>>> from kiosk.rules import Position, WHITE
>>> start = Position.standard()
>>> start.position_id()
'4HPwATDgc/ABMA'
>>> start.count(WHITE, 13), start.count(WHITE, 6)
(5, 5)
>>> start.pips(WHITE)
167
"""

from __future__ import annotations

import base64
from enum import IntEnum
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kiosk.rules.moves import Play
    from kiosk.rules.tree import PlayTree

MEN = 15
BAR = 25
OFF = 0

_START = {6: 5, 8: 3, 13: 5, 24: 2}


class Colour(IntEnum):
    """The two sides. White plays first unless the opening throw says otherwise."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Colour:
        """The adversary."""
        return Colour(1 - self)

    def __str__(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Colour:
        """``"white"`` or ``"black"`` (any case) as a colour."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown colour {text!r}: say white or black") from None


WHITE = Colour.WHITE
BLACK = Colour.BLACK


class InvalidPositionError(ValueError):
    """A position that cannot stand on a backgammon board."""


class InvalidPositionIdError(InvalidPositionError):
    """Text that is not a GNU Backgammon Position ID (wrong length, characters or bits)."""


class Position:
    """An immutable backgammon position with the side on roll.

    ``men[c]`` holds 25 counts for colour ``c`` from that colour's side:
    index ``p - 1`` for point ``p`` (1..24) and index 24 for the bar.
    ``off[c]`` is how many men colour ``c`` has borne off.

    >>> Position.standard().count(BLACK, 24)
    2
    """

    __slots__ = ("men", "off", "turn", "_hash")

    men: tuple[tuple[int, ...], tuple[int, ...]]
    off: tuple[int, int]
    turn: Colour

    def __init__(
        self,
        men: tuple[tuple[int, ...], tuple[int, ...]] | list,
        off: tuple[int, int] | None = None,
        turn: Colour = WHITE,
        *,
        validate: bool = True,
    ) -> None:
        white, black = (tuple(side) for side in men)
        if off is None:
            off = (max(0, MEN - sum(white)), max(0, MEN - sum(black))) if validate else (0, 0)
        object.__setattr__(self, "men", (white, black))
        object.__setattr__(self, "off", (off[0], off[1]))
        object.__setattr__(self, "turn", Colour(turn))
        object.__setattr__(self, "_hash", None)
        if validate:
            self.validate()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    # -- construction ----------------------------------------------------

    @classmethod
    def standard(cls, turn: Colour = WHITE) -> Position:
        """The starting position of every book: 24x2, 13x5, 8x3, 6x5 for each side."""
        side = [0] * 25
        for point, count in _START.items():
            side[point - 1] = count
        return cls((side, side), (0, 0), turn)

    @classmethod
    def empty(cls, turn: Colour = WHITE) -> Position:
        """A board with no men on it (lessons build on it)."""
        return cls(([0] * 25, [0] * 25), (0, 0), turn)

    @classmethod
    def from_points(
        cls,
        points: dict[int, int],
        bar: tuple[int, int] = (0, 0),
        off: tuple[int, int] | None = None,
        turn: Colour = WHITE,
    ) -> Position:
        """A position from signed counts in WHITE's numbering: ``+n`` white men, ``-n`` black.

        ``off`` defaults to the men missing from fifteen.

        >>> p = Position.from_points({6: 2, 19: -3})
        >>> p.count(BLACK, 6), p.off
        (3, (13, 12))
        """
        white, black = [0] * 25, [0] * 25
        for point, n in points.items():
            if not 1 <= point <= 24:
                raise InvalidPositionError(f"point {point} is not on the board (1-24)")
            if n > 0:
                white[point - 1] = n
            elif n < 0:
                black[24 - point] = -n
        white[24], black[24] = bar
        if off is None:
            off = (max(0, MEN - sum(white)), max(0, MEN - sum(black)))
        return cls((white, black), off, turn)

    @classmethod
    def from_id(cls, position_id: str, turn: Colour = WHITE) -> Position:
        """Decode a GNU Backgammon Position ID; ``turn`` is the colour of the side on roll.

        >>> Position.from_id('4HPwATDgc/ABMA') == Position.standard()
        True
        """
        roller, other = decode_position_id(position_id)
        men = (roller, other) if turn == WHITE else (other, roller)
        return cls(men, None, turn)

    # -- queries ----------------------------------------------------------

    def count(self, colour: Colour, point: int) -> int:
        """Men of ``colour`` on ``point``, in that colour's numbering (``BAR``, ``OFF`` too)."""
        if point == OFF:
            return self.off[colour]
        return self.men[colour][point - 1]

    def bar(self, colour: Colour) -> int:
        """Men of ``colour`` on the bar."""
        return self.men[colour][24]

    def on_board(self, colour: Colour) -> int:
        """Men of ``colour`` on the points or the bar."""
        return sum(self.men[colour])

    def total(self, colour: Colour) -> int:
        """All men of ``colour``, borne off included."""
        return sum(self.men[colour]) + self.off[colour]

    def pips(self, colour: Colour) -> int:
        """The pip count: how far ``colour`` still has to travel (a man on the bar counts 25).

        Crawley's "who is forwardest": the lower count leads the race.
        """
        side = self.men[colour]
        return sum((i + 1) * n for i, n in enumerate(side))

    def all_home(self, colour: Colour) -> bool:
        """Whether every man of ``colour`` still in play is in its home table (points 1-6)."""
        return not any(self.men[colour][6:])

    def owner(self, white_point: int) -> tuple[Colour | None, int]:
        """Who holds a point given in WHITE's numbering, and how many men."""
        w = self.men[WHITE][white_point - 1]
        if w:
            return WHITE, w
        b = self.men[BLACK][24 - white_point]
        return (BLACK, b) if b else (None, 0)

    def is_blot(self, colour: Colour, point: int) -> bool:
        """Whether ``colour`` has exactly one man on ``point`` (its own numbering)."""
        return 1 <= point <= 24 and self.men[colour][point - 1] == 1

    def winner(self) -> Colour | None:
        """The side that has borne off all its men, if any."""
        for colour in (WHITE, BLACK):
            if self.on_board(colour) == 0 and self.off[colour] > 0:
                return colour
        return None

    def position_id(self) -> str:
        """The GNU Backgammon Position ID, written with the side on roll to move."""
        roller = self.men[self.turn]
        other = self.men[self.turn.other]
        return encode_position_id(roller, other)

    # -- plays (python-chess style: the board answers what is legal) ------------

    def legal_plays(self, d1: int, d2: int, profile: object = None) -> list[Play]:
        """Every legal play of ``d1``-``d2``, one per distinct resulting position.

        ``profile`` (a :class:`~kiosk.rules.profiles.RuleProfile` or its name)
        decides whether the larger die must be played; the default is ``modern``.
        """
        from kiosk.rules.profiles import get_profile

        return list(_legal_plays(self, d1, d2, get_profile(profile).larger_die))

    def parse_play(self, d1: int, d2: int, text: str, profile: object = None) -> Play:
        """The legal play that ``text`` (GNU Backgammon notation) names for this roll.

        Raises ``InvalidNotationError`` or ``IllegalPlayError`` (both ``ValueError``).
        """
        from kiosk.rules.notation import parse_play

        return parse_play(self, self.legal_plays(d1, d2, profile), text)

    def play_tree(self, d1: int, d2: int, profile: object = None) -> PlayTree:
        """The roll's legal plays step by step, for judging a play made by hand."""
        from kiosk.rules.profiles import get_profile
        from kiosk.rules.tree import PlayTree

        return PlayTree(self, d1, d2, get_profile(profile).larger_die)

    # -- derived positions --------------------------------------------------

    def with_turn(self, turn: Colour) -> Position:
        """The same men with ``turn`` on roll."""
        return Position(self.men, self.off, turn, validate=False)

    def swap_turn(self) -> Position:
        """The same men with the other side on roll."""
        return self.with_turn(self.turn.other)

    # -- validation ---------------------------------------------------------

    def validate(self) -> None:
        """Raise :class:`InvalidPositionError` with a plain reason if the position is impossible."""
        for colour in (WHITE, BLACK):
            side = self.men[colour]
            if len(side) != 25:
                raise InvalidPositionError(
                    f"{colour} needs 25 counts (24 points and the bar), got {len(side)}"
                )
            for i, n in enumerate(side):
                if not isinstance(n, int) or n < 0:
                    where = "the bar" if i == 24 else f"point {i + 1}"
                    raise InvalidPositionError(f"{colour} has a negative count ({n}) on {where}")
            if self.off[colour] < 0:
                raise InvalidPositionError(f"{colour} has a negative borne-off count")
            if self.total(colour) > MEN:
                raise InvalidPositionError(
                    f"{colour} has {self.total(colour)} men; a side has at most {MEN}"
                )
        white, black = self.men
        for i in range(24):
            if white[i] and black[23 - i]:
                raise InvalidPositionError(
                    f"white and black both have men on white's point {i + 1}"
                )

    # -- dunder ---------------------------------------------------------------

    def _key(self) -> tuple:
        return (self.men, self.off, self.turn)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(self._key())
            object.__setattr__(self, "_hash", h)
        return h

    def __repr__(self) -> str:
        return f"Position.from_id({self.position_id()!r}, turn={self.turn.name})"

    def __str__(self) -> str:
        """A small text diagram in WHITE's numbering (``O`` white, ``X`` black)."""

        def cell(point: int) -> str:
            colour, n = self.owner(point)
            if colour is None:
                return "  . "
            return f"{n:>3}{'O' if colour == WHITE else 'X'}"

        top = "".join(cell(p) for p in range(13, 25))
        bottom = "".join(cell(p) for p in range(12, 0, -1))
        return (
            f" 13  14  15  16  17  18  19  20  21  22  23  24\n{top}\n{bottom}\n"
            f" 12  11  10   9   8   7   6   5   4   3   2   1\n"
            f"bar O{self.bar(WHITE)} X{self.bar(BLACK)}  off O{self.off[WHITE]} "
            f"X{self.off[BLACK]}  {self.turn} on roll"
        )


# -- GNU Backgammon Position ID --------------------------------------------------


def encode_position_id(roller: tuple[int, ...], other: tuple[int, ...]) -> str:
    """Encode two 25-count sides as GNU Backgammon writes them: the side not on roll first.

    >>> side = [0] * 25
    >>> for p, n in {6: 5, 8: 3, 13: 5, 24: 2}.items():
    ...     side[p - 1] = n
    >>> encode_position_id(side, side)
    '4HPwATDgc/ABMA'
    """
    # each point: a run of ones (its men) closed by a zero, least significant bit first
    bits = "".join("1" * n + "0" for side in (other, roller) for n in side)
    key = int(bits[::-1], 2).to_bytes(10, "little")
    return base64.b64encode(key).decode("ascii")[:14]


_ID_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def decode_position_id(position_id: str) -> tuple[list[int], list[int]]:
    """Decode a Position ID into (side on roll, side not on roll), each 25 counts.

    Raises :class:`InvalidPositionIdError` with a plain reason for text that is not a
    valid ID (never anything else).

    >>> try:
    ...     decode_position_id('4HPwATDgc/AB==')
    ... except InvalidPositionIdError as err:
    ...     print(err)
    '4HPwATDgc/AB==' is not a Position ID (bad characters '=': ...)
    """
    if not isinstance(position_id, str):
        raise InvalidPositionIdError(f"a Position ID is text, not {type(position_id).__name__}")
    text = position_id.strip()
    if len(text) != 14:
        raise InvalidPositionIdError(f"a Position ID has 14 characters, {text!r} has {len(text)}")
    bad = "".join(sorted(set(text) - _ID_ALPHABET))
    if bad:
        raise InvalidPositionIdError(
            f"{text!r} is not a Position ID (bad characters {bad!r}: it is written with "
            "letters, digits, + and / only)"
        )
    key = int.from_bytes(base64.b64decode(text + "=="), "little")
    # 80 bits, least significant first: each point a run of ones (its men) closed by a zero
    runs = format(key, "080b")[::-1].split("0")
    if len(runs) < 51:
        raise InvalidPositionIdError(f"{text!r} does not describe two complete sides")
    if any(runs[50:]):
        raise InvalidPositionIdError(f"{text!r} has men beyond both sides")
    other = [len(r) for r in runs[:25]]
    roller = [len(r) for r in runs[25:50]]
    for name, s in (("the side on roll", roller), ("the side not on roll", other)):
        if sum(s) > MEN:
            raise InvalidPositionIdError(f"{text!r} gives {name} {sum(s)} men (at most 15)")
    return roller, other


@lru_cache(maxsize=512)
def _legal_plays(position: Position, d1: int, d2: int, larger_die: bool) -> tuple[Play, ...]:
    from kiosk.rules.moves import generate

    return tuple(generate(position, d1, d2, larger_die))
