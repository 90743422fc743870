"""Positions: where every man stands, whose turn it is, and what the roll allows.

Points are numbered from each side's own point of view, as the books and GNU
Backgammon do: 1 is the side's ace point, 6 its six point, 7 its bar point,
24 the adversary's ace point, where the two back men start. ``BAR`` (25) and
``OFF`` (0) complete the numbering.

As in python-chess, the position answers what is legal: :meth:`Position.legal_plays`
runs the move generator kept in this module (a *step* moves one man by one die; a
*play* is the steps of a whole turn).

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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from kiosk.rules.board import (
    BAR,
    BLACK,
    MEN,
    OFF,
    WHITE,
    Colour,
    InvalidPositionError,
    InvalidPositionIdError,
    decode_position_id,
    encode_position_id,
)
from kiosk.rules.notation import IllegalPlayError, Step, format_play, parse_moves
from kiosk.rules.profiles import RuleProfile, get_profile
from kiosk.rules.search import most_dice

__all__ = [
    "BAR",
    "BLACK",
    "MEN",
    "OFF",
    "WHITE",
    "Colour",
    "InvalidPositionError",
    "InvalidPositionIdError",
    "Play",
    "Position",
    "Step",
    "decode_position_id",
    "encode_position_id",
    "from_arrays",
    "generate",
    "roll_dice",
    "step_moves",
    "to_arrays",
]

_START = {6: 5, 8: 3, 13: 5, 24: 2}


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
    _hash: int | None

    def __init__(
        self,
        men: Sequence[Sequence[int]],
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

    @classmethod
    def _trusted(
        cls, men: tuple[tuple[int, ...], tuple[int, ...]], off: tuple[int, int], turn: Colour
    ) -> Position:
        """A position from parts already in final form (tuples, a ``Colour``): no checks."""
        self = object.__new__(cls)
        put = object.__setattr__
        put(self, "men", men)
        put(self, "off", off)
        put(self, "turn", turn)
        put(self, "_hash", None)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its parts (a position crosses to another process as they are)."""
        return (Position._trusted, (self.men, self.off, self.turn))

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

    def legal_plays(self, d1: int, d2: int, profile: str | RuleProfile | None = None) -> list[Play]:
        """Every legal play of ``d1``-``d2``, one per distinct resulting position.

        ``profile`` (a :class:`~kiosk.rules.profiles.RuleProfile` or its name)
        decides whether the larger die must be played; the default is ``modern``.
        """
        return list(_legal_plays(self, d1, d2, get_profile(profile).larger_die))

    def parse_play(
        self, d1: int, d2: int, text: str, profile: str | RuleProfile | None = None
    ) -> Play:
        """The legal play that ``text`` (GNU Backgammon notation) names for this roll.

        Raises ``InvalidNotationError`` for unreadable text and ``IllegalPlayError``
        for a readable play the rules do not allow (both ``ValueError``).
        """
        plays = self.legal_plays(d1, d2, profile)
        me, op = to_arrays(self)
        for path in parse_moves(text):
            for a, b in zip(path, path[1:], strict=False):
                if me[a] <= 0:
                    where = "on the bar" if a == BAR else f"on point {a}"
                    raise IllegalPlayError(f"{text.strip()}: there is no man of yours {where}")
                if b != OFF and op[b] >= 2:
                    raise IllegalPlayError(
                        f"{text.strip()}: point {b} is held by two or more adverse men"
                    )
                me[a] -= 1
                me[b] += 1
                if b != OFF and op[b] == 1:
                    op[b] = 0
                    op[0] += 1
        for play in plays:
            if to_arrays(play.result.swap_turn()) == (me, op):
                return play
        legal = ", ".join(str(p) or "no move" for p in plays[:6])
        more = " ..." if len(plays) > 6 else ""
        raise IllegalPlayError(
            f"{text.strip() or 'no move'} is not a legal play for this roll; legal plays "
            f"include: {legal}{more}"
        )

    # -- derived positions --------------------------------------------------

    def with_turn(self, turn: Colour) -> Position:
        """The same men with ``turn`` on roll."""
        return Position._trusted(self.men, self.off, Colour(turn))

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

    def _key(self) -> tuple[Any, ...]:
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


# -- the move generator ----------------------------------------------------

# Mover-side arrays (the hot path works on these, not on Position objects):
#   me[0] borne off, me[1..24] the points, me[25] the bar;
#   op[0] the adversary's bar, op[1..24] his men on *our* points, op[25] his borne-off men.


def to_arrays(position: Position) -> tuple[list[int], list[int]]:
    """The mover-side arrays of a position (see the module comment)."""
    c = position.turn
    mine, theirs = position.men[c], position.men[c.other]
    me = [position.off[c], *mine]
    op = [theirs[24], *theirs[23::-1], position.off[c.other]]
    return me, op


def from_arrays(
    me: list[int] | tuple[Any, ...], op: list[int] | tuple[Any, ...], mover: Colour
) -> Position:
    """A position from mover-side arrays, with ``mover`` still on roll."""
    mine = tuple(me[1:26])
    theirs = (*op[24:0:-1], op[0])
    if mover == WHITE:
        men, off = (mine, theirs), (me[0], op[25])
    else:
        men, off = (theirs, mine), (op[25], me[0])
    return Position._trusted(men, off, Colour(mover))


@dataclass(frozen=True, slots=True)
class Play:
    """The steps of one turn, in the order they were made, and the position they lead to.

    Two plays are equal when they lead to the same position: the board does not
    remember the order in which men were moved.

    >>> from kiosk.rules import Position
    >>> play = Position.standard().parse_play(3, 1, '8/5 6/5')
    >>> play.result.position_id()
    'sGfwATDgc/ABMA'
    """

    steps: tuple[Step, ...] = field(compare=False)
    result: Position

    def __str__(self) -> str:
        return format_play(self.steps)

    @property
    def dice_used(self) -> tuple[int, ...]:
        """The dice this play uses, in the order used."""
        return tuple(s.die for s in self.steps)


def roll_dice(d1: int, d2: int) -> tuple[int, ...]:
    """The dice to play for a roll: four of a doublet, else the two numbers, larger first."""
    for d in (d1, d2):
        if not isinstance(d, int) or not 1 <= d <= 6:
            raise ValueError(f"a die shows 1 to 6, not {d!r}")
    if d1 == d2:
        return (d1,) * 4
    return (max(d1, d2), min(d1, d2))


def step_moves(
    me: list[int], op: list[int], die: int, top: int = BAR
) -> Iterator[tuple[int, int, bool]]:
    """Every single step ``(src, dst, hit)`` for one die, sources from ``top`` downwards.

    Men on the bar must enter first; a point held by two or more adverse men is
    closed; bearing off needs every man home, and a die larger than the point
    bears from the highest occupied point only.
    """
    if me[BAR]:
        if top == BAR:
            t = BAR - die
            if op[t] < 2:
                yield BAR, t, op[t] == 1
        return
    home = not any(me[7:25])
    highest = 0
    if home:
        for highest in range(6, 0, -1):
            if me[highest]:
                break
    for s in range(min(top, 24), 0, -1):
        if not me[s]:
            continue
        t = s - die
        if t >= 1:
            if op[t] < 2:
                yield s, t, op[t] == 1
        elif home and (t == 0 or s == highest):
            yield s, OFF, False


def generate(position: Position, d1: int, d2: int, larger_die: bool = True) -> list[Play]:
    """Every legal play of ``d1``-``d2`` from ``position``, one per distinct resulting position.

    As many dice as possible must be used; when only one of two different dice
    can be used, the larger must be used if it can be (unless ``larger_die`` is
    false, as in Cady's rules, which leave the choice to the player).
    The results have the adversary on roll.
    """
    mover = position.turn
    return [
        Play(steps, _result(key, mover)) for key, steps in legal_ends(position, d1, d2, larger_die)
    ]


def legal_ends(
    position: Position, d1: int, d2: int, larger_die: bool = True
) -> list[tuple[tuple[int, ...], tuple[Step, ...]]]:
    """The legal plays of :func:`generate` before their positions are built: for each
    distinct result, its mover-side arrays ``(*me, *op)`` and the steps that reach it."""
    me, op = to_arrays(position)
    return most_dice(me, op, roll_dice(d1, d2), step_moves, Step, top=BAR, larger_die=larger_die)


def _result(key: tuple[int, ...], mover: Colour) -> Position:
    """The position a play leads to, from its mover-side arrays ``(*me, *op)``, with the
    adversary on roll (what :func:`from_arrays` gives, without the copies)."""
    mine = key[1:26]
    theirs = (*key[50:26:-1], key[26])
    if mover == WHITE:
        return Position._trusted((mine, theirs), (key[0], key[51]), BLACK)
    return Position._trusted((theirs, mine), (key[51], key[0]), WHITE)


@lru_cache(maxsize=512)
def _legal_plays(position: Position, d1: int, d2: int, larger_die: bool) -> tuple[Play, ...]:
    return tuple(generate(position, d1, d2, larger_die))
