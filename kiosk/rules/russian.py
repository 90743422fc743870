"""Russian backgammon: both sides enter on an empty board and race the same way round.

As Cady (*Russian Backgammon* [000:841-877]) and Foster (the section after his laws,
heading lost [004:115-123]) give it, catalogued in ``CATALOGUE.md`` section 1.15:

- every man starts **in hand** and is entered by the dice into the same entering table
  for both sides; all men then move the same way round to the table opposite, the
  common home, and are borne off from it "as in the ordinary game";
- a side need not enter all its men before moving others, and may hit before all are
  entered (Cady [000:853-855]; Foster [004:117]); a man that is hit goes to the **bar**
  and must be entered before any other man moves (Cady [000:857]; Foster [004:117]);
- a doublet earns a bonus: the thrown doublet played four times, then the opposite
  faces (7 - n) four times, then a fresh throw (Cady [000:859]; Foster [004:119]).

Locations are counted along the common track, the same for both sides: ``1``-``24``
from the first point of the entering table (points 1-6) to the last of the home table
(points 19-24), plus :data:`RUSSIAN_HAND` (not yet entered), :data:`RUSSIAN_BAR` (hit)
and :data:`RUSSIAN_OFF` (named apart from the ordinary game's ``BAR`` and ``OFF``, which
number other places).
A man entering with a die of ``n`` lands on point ``n``; a man on point ``p`` moves to
``p + n``; bearing off takes ``25 - p`` (a larger number bears off the rearmost man once
no man stands behind, as in the ordinary game).

Where the books differ, :data:`RUSSIAN_PROFILES` holds each book's answer; where a book
is silent, the choice made here is said at the switch (see :class:`RussianProfile`).

>>> start = RussianPosition.start()
>>> start.notation()
'R:w:h15:h15'
>>> [str(p) for p in start.legal_plays((3, 1))]
['hand/1 hand/3', 'hand/4']
>>> [str(p) for p in start.legal_plays((3, 1), enter_two=True)]  # Foster's first throw
['hand/1 hand/3']
>>> turn = RussianTurn(start.with_history(WHITE, thrown=True, doubled=True), 6, 6,
...                    get_russian_profile('russian-cady'))
>>> [(part.dice, part.bonus) for part in turn.parts]
[((6, 6, 6, 6), False), ((1, 1, 1, 1), True)]
>>> turn.throws_again
True
"""

from __future__ import annotations

import copy
import dataclasses
import re
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import groupby
from typing import Any

from kiosk.rules.board import BLACK, MEN, WHITE, Colour, InvalidPositionError
from kiosk.rules.search import most_dice

RUSSIAN_HAND = -1
RUSSIAN_BAR = 0
RUSSIAN_OFF = 25
POINTS = 24
HOME = range(19, 25)  # the common home table, opposite the entering table (points 1-6)


class FirstDoublet(StrEnum):
    """Which doublet of a side's is played as in the ordinary game, without the bonus."""

    FIRST_DOUBLET = "first-doublet"  # Cady: each side's first doublet of the game
    FIRST_THROW = "first-throw"  # Foster: only a doublet on the side's first throw


@dataclass(frozen=True)
class RussianProfile:
    """One book's Russian game, with Cady's optional customs as switches.

    ``larger_die``: when only one of two different numbers can be played, the larger must
    be. Neither Russian section says; each book's ordinary rule is kept ("in other
    respects, the game is similar to ordinary backgammon", Cady [000:873]): Cady leaves
    the choice free, Foster's law 12 wants the larger.

    ``bonus_mandatory``: Cady says the caster is "bound to" play the bonus [000:859];
    Foster says he "can" [004:119] but writes failure rules as for a sequence. Both
    profiles make it compulsory; with the switch off the opposite faces may be declined,
    and the extra throw goes with them.

    ``deuce_ace``: Cady's privilege [000:865]: after 2-1 the caster chooses any doublet,
    plays it and its opposite, and throws again. Cady does not say whether the 2-1 itself
    is played first; ``deuce_ace_plays_throw`` (on: as acey-deucey does) plays it first.

    ``opponent_completes``: Cady's optional custom [000:867-875]: a part the caster
    cannot finish is finished by the opponent with his own men, one man at a time.

    ``first_throw_enters_two``: Foster [004:117]: the first throw must enter two men.
    """

    name: str
    title: str
    first_doublet: FirstDoublet
    larger_die: bool
    bonus_mandatory: bool = True
    deuce_ace: bool = False
    deuce_ace_plays_throw: bool = True
    opponent_completes: bool = False
    first_throw_enters_two: bool = False
    citation: str = ""

    def replace(self, **changes: Any) -> RussianProfile:
        """A copy with some switches changed (``deuce_ace=False``...)."""
        return dataclasses.replace(self, **changes)


RUSSIAN_PROFILES: dict[str, RussianProfile] = {
    p.name: p
    for p in (
        RussianProfile(
            "russian-cady",
            "Cady, Russian Backgammon (1895)",
            first_doublet=FirstDoublet.FIRST_DOUBLET,
            larger_die=False,
            deuce_ace=True,
            citation="Cady, Russian Backgammon: entering and hitting [000:853-857]; the "
            "doublet bonus, bound to be played [000:859, 863]; no bonus for each player's "
            "first doublet [000:861]; deuce-ace [000:865]; the opponent completing a throw, "
            "an optional custom [000:867-875].",
        ),
        RussianProfile(
            "russian-foster",
            "Foster's Complete Hoyle (1897), the Russian game",
            first_doublet=FirstDoublet.FIRST_THROW,
            larger_die=True,
            first_throw_enters_two=True,
            citation="Foster, after law 13: two men entered on the first throw, then enter "
            "or move at will [004:117]; the doublet bonus and what a part left unplayed "
            "loses [004:119]; no bonus for a doublet on a player's first throw [004:121].",
        ),
    )
}


def get_russian_profile(name: str | RussianProfile) -> RussianProfile:
    """The Russian profile of that name; a clear error for an unknown one."""
    if isinstance(name, RussianProfile):
        return name
    try:
        return RUSSIAN_PROFILES[name.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(RUSSIAN_PROFILES))
        raise ValueError(f"unknown Russian profile {name!r}; choose one of: {known}") from None


class InvalidRussianNotationError(InvalidPositionError):
    """Text that is not a Russian position in this module's notation."""


# -- positions -----------------------------------------------------------------------


def _name(location: int) -> str:
    return {RUSSIAN_HAND: "hand", RUSSIAN_BAR: "bar", RUSSIAN_OFF: "off"}.get(
        location, str(location)
    )


@dataclass(frozen=True, slots=True)
class RussianStep:
    """One man moved by one die along the common track (:data:`RUSSIAN_HAND`,
    :data:`RUSSIAN_BAR`, points, :data:`RUSSIAN_OFF`), hitting or not."""

    src: int
    dst: int
    die: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{_name(self.src)}/{_name(self.dst)}{'*' if self.hit else ''}"


def _rank(location: int) -> int:
    """Order of writing: the bar (its men enter first), the hand, then the points from
    the farthest from home."""
    return -2 if location == RUSSIAN_BAR else -1 if location == RUSSIAN_HAND else location


def format_russian(steps: tuple[RussianStep, ...] | list[RussianStep]) -> str:
    """A play's notation in GNU Backgammon's style on the common track: ``hand/3 1/7*``.

    Moves are written bar first (its men enter before any other moves), then the hand,
    then from the lowest point; the steps of one man are joined (an intermediate point
    kept where the man hit) and repeated moves counted: ``hand/6(2)``.

    >>> format_russian([RussianStep(RUSSIAN_HAND, 3, 3, True), RussianStep(3, 4, 1)])
    'hand/3*/4'
    """
    hit_points = {s.dst for s in steps if s.hit}
    moves: list[list[int] | None] = [
        [s.src, s.dst] for s in sorted(steps, key=lambda s: (_rank(s.src), s.dst))
    ]
    texts = []
    for i, move in enumerate(moves):
        if move is None:
            continue
        for j in range(i + 1, len(moves)):
            other = moves[j]
            if other is not None and other[0] == move[-1]:
                if move[-1] in hit_points:
                    move.append(other[1])
                else:
                    move[-1] = other[1]
                moves[j] = None
        texts.append(
            _name(move[0])
            + "".join(f"/{_name(p)}{'*' if p in hit_points else ''}" for p in move[1:])
        )
    out = []
    for text, same in groupby(texts):
        count = len(list(same))
        out.append(text if count == 1 else f"{text}({count})")
    return " ".join(out)


@dataclass(frozen=True, slots=True)
class RussianPlay:
    """The steps of one part of a turn and the position they lead to (the mover still on
    roll). Two plays are equal when they lead to the same position."""

    steps: tuple[RussianStep, ...] = field(compare=False)
    result: RussianPosition

    def __str__(self) -> str:
        return format_russian(self.steps)


_ITEM = re.compile(r"^(?:h(\d+)|b(\d+)|o(\d+)|(\d+)x(\d+)|(t)|(d))$")


@dataclass(frozen=True)
class RussianPosition:
    """An immutable Russian position: where each side's men stand on the common track,
    how many are in hand, on the bar and borne off, who is on roll, and the history the
    rules ask about (whether each side has thrown yet and has had its first doublet).

    ``points[c]`` holds 24 counts for colour ``c`` (index ``p - 1`` for point ``p``);
    ``hand``, ``bar``, ``off``, ``thrown`` and ``doubled`` are pairs indexed by colour.
    """

    points: tuple[tuple[int, ...], tuple[int, ...]]
    hand: tuple[int, int]
    bar: tuple[int, int] = (0, 0)
    off: tuple[int, int] = (0, 0)
    turn: Colour = WHITE
    thrown: tuple[bool, bool] = (False, False)
    doubled: tuple[bool, bool] = (False, False)

    def __post_init__(self) -> None:
        for colour in (WHITE, BLACK):
            side = self.points[colour]
            if len(side) != POINTS:
                raise InvalidPositionError(f"{colour} needs 24 point counts, got {len(side)}")
            counts = (*side, self.hand[colour], self.bar[colour], self.off[colour])
            if any(not isinstance(n, int) or n < 0 for n in counts):
                raise InvalidPositionError(f"{colour} has a negative count")
            if sum(counts) != MEN:
                raise InvalidPositionError(
                    f"{colour} has {sum(counts)} men; a side has {MEN} (in hand, on the "
                    "points, on the bar and borne off)"
                )
        for p in range(POINTS):
            if self.points[WHITE][p] and self.points[BLACK][p]:
                raise InvalidPositionError(f"white and black both have men on point {p + 1}")

    @classmethod
    def start(cls, turn: Colour = WHITE) -> RussianPosition:
        """The empty board: every man in hand."""
        return cls(((0,) * POINTS, (0,) * POINTS), (MEN, MEN), turn=turn)

    def count(self, colour: Colour, location: int) -> int:
        """Men of ``colour`` at ``location`` (a point, :data:`RUSSIAN_HAND`,
        :data:`RUSSIAN_BAR`, :data:`RUSSIAN_OFF`)."""
        if location == RUSSIAN_HAND:
            return self.hand[colour]
        if location == RUSSIAN_BAR:
            return self.bar[colour]
        if location == RUSSIAN_OFF:
            return self.off[colour]
        return self.points[colour][location - 1]

    def with_turn(self, turn: Colour) -> RussianPosition:
        """The same men with ``turn`` on roll."""
        return dataclasses.replace(self, turn=turn)

    def with_history(
        self, colour: Colour, *, thrown: bool | None = None, doubled: bool | None = None
    ) -> RussianPosition:
        """The same men with ``colour``'s history changed."""

        def put(pair: tuple[bool, bool], value: bool | None) -> tuple[bool, bool]:
            if value is None:
                return pair
            return (value, pair[1]) if colour == WHITE else (pair[0], value)

        return dataclasses.replace(
            self, thrown=put(self.thrown, thrown), doubled=put(self.doubled, doubled)
        )

    def pips(self, colour: Colour) -> int:
        """``colour``'s pip count along the common track: what its men still have to
        travel to bear off (a man in hand or on the bar has all 24 points and off ahead).

        >>> RussianPosition.start().pips(WHITE)
        375
        >>> p = RussianPosition((((0,) * 5 + (4,) + (0,) * 18), (0,) * 24), (11, 15))
        >>> p.pips(WHITE), p.pips(BLACK)
        (351, 375)
        """
        on_points = sum((25 - p) * n for p, n in enumerate(self.points[colour], start=1))
        return on_points + 25 * (self.hand[colour] + self.bar[colour])

    def winner(self) -> Colour | None:
        """The side that has borne off all its men, if any."""
        for colour in (WHITE, BLACK):
            if self.off[colour] == MEN:
                return colour
        return None

    def score(self) -> int:
        """The finished game's worth: 1, a gammon 2, a backgammon 3.

        "As in the ordinary game" (Cady [000:873]): a gammon when the loser has borne off
        no man. Neither book says where a backgammon's straggler stands when both sides
        share one home; chosen here: the ordinary game's rule read along the common
        track, a man of the loser's still in hand, on the bar or in the entering table
        (points 1-6), the part of the track farthest from home.
        """
        winner = self.winner()
        if winner is None:
            raise ValueError("the game is not over: no side has borne off all its men")
        loser = winner.other
        if self.off[loser]:
            return 1
        behind = self.hand[loser] + self.bar[loser] + sum(self.points[loser][:6])
        return 3 if behind else 2

    # -- notation ------------------------------------------------------------------

    def notation(self) -> str:
        """This position as text: ``R:<turn>:<white>:<black>``.

        Each side is a comma-separated list: ``h<n>`` men in hand, ``b<n>`` on the bar,
        ``<point>x<n>`` men on a point of the common track, ``o<n>`` borne off, and the
        flags ``t`` (the side has made its first throw) and ``d`` (it has had its first
        doublet). Items with no men are left out; the men always add up to fifteen, so
        the text tells men in hand from men borne off, which a GNU Backgammon Position ID
        cannot.

        >>> p = RussianPosition.start().with_history(WHITE, thrown=True)
        >>> p.notation()
        'R:w:h15,t:h15'
        >>> RussianPosition.from_notation(p.notation()) == p
        True
        """
        sides = []
        for c in (WHITE, BLACK):
            items = [f"h{self.hand[c]}"] if self.hand[c] else []
            items += [f"b{self.bar[c]}"] if self.bar[c] else []
            items += [f"{p + 1}x{n}" for p, n in enumerate(self.points[c]) if n]
            items += [f"o{self.off[c]}"] if self.off[c] else []
            items += ["t"] if self.thrown[c] else []
            items += ["d"] if self.doubled[c] else []
            sides.append(",".join(items))
        return f"R:{'w' if self.turn == WHITE else 'b'}:{sides[0]}:{sides[1]}"

    @classmethod
    def from_notation(cls, text: str) -> RussianPosition:
        """Read :meth:`notation`'s text; :class:`InvalidRussianNotationError` if unreadable."""
        if not isinstance(text, str):
            raise InvalidRussianNotationError("a Russian position is text")
        words = text.strip().split(":")
        if len(words) != 4 or words[0] != "R" or words[1] not in ("w", "b"):
            raise InvalidRussianNotationError(
                f"{text.strip()!r} is not a Russian position: write R:<w|b>:<white>:<black>, "
                "for example R:w:h15:h15"
            )
        parts: list[dict[str, Any]] = []
        for spec in words[2:]:
            side: dict[str, Any] = {"points": [0] * POINTS, "hand": 0, "bar": 0, "off": 0}
            side.update(thrown=False, doubled=False)
            seen = set()
            for item in spec.split(",") if spec else []:
                m = _ITEM.match(item)
                if not m:
                    raise InvalidRussianNotationError(
                        f"{text.strip()!r}: {item!r} is not h<n>, b<n>, <point>x<n>, o<n>, t or d"
                    )
                key = item if m.group(4) is None else f"point {int(m.group(4))}"
                key = re.sub(r"\d+$", "", key) if m.group(4) is None else key
                if key in seen:
                    raise InvalidRussianNotationError(f"{text.strip()!r}: {item!r} given twice")
                seen.add(key)
                if m.group(1) is not None:
                    side["hand"] = int(m.group(1))
                elif m.group(2) is not None:
                    side["bar"] = int(m.group(2))
                elif m.group(3) is not None:
                    side["off"] = int(m.group(3))
                elif m.group(4) is not None:
                    point = int(m.group(4))
                    if not 1 <= point <= POINTS:
                        raise InvalidRussianNotationError(
                            f"{text.strip()!r}: there is no point {point} (1-24)"
                        )
                    side["points"][point - 1] = int(m.group(5))
                elif m.group(6):
                    side["thrown"] = True
                else:
                    side["doubled"] = True
            parts.append(side)
        w, b = parts
        try:
            return cls(
                (tuple(w["points"]), tuple(b["points"])),
                (w["hand"], b["hand"]),
                (w["bar"], b["bar"]),
                (w["off"], b["off"]),
                WHITE if words[1] == "w" else BLACK,
                (w["thrown"], b["thrown"]),
                (w["doubled"], b["doubled"]),
            )
        except InvalidPositionError as err:
            raise InvalidRussianNotationError(f"{text.strip()!r}: {err}") from None

    # -- plays ---------------------------------------------------------------------

    def legal_plays(
        self, dice: tuple[int, ...], larger_die: bool = True, enter_two: bool = False
    ) -> list[RussianPlay]:
        """Every legal play of one part of a turn, one per distinct resulting position.

        ``dice``: two different numbers, or a doublet as two or four equal numbers (four
        moves). As many dice as possible must be played; ``larger_die`` as in the
        ordinary game; ``enter_two`` (Foster's first throw [004:117]): the plays must
        enter two men from the hand where that can be done (if only one can be entered,
        the plays entering one). The results have the mover still on roll.
        """
        return _generate(self, _part_dice(dice), larger_die, enter_two)

    def __str__(self) -> str:
        return self.notation()


def _part_dice(dice: tuple[int, ...]) -> tuple[int, ...]:
    if len(dice) not in (2, 4) or any(not isinstance(d, int) or not 1 <= d <= 6 for d in dice):
        raise ValueError(f"a part is two dice or four equal ones, each 1 to 6, not {dice!r}")
    if len(dice) == 4 and len(set(dice)) != 1:
        raise ValueError(f"four dice are a doublet's four moves, not {dice!r}")
    if len(dice) == 2 and dice[0] == dice[1]:
        return (dice[0],) * 4
    return tuple(sorted(dice, reverse=True))


# -- the generator (mover-side arrays: 0 bar, 1-24 points, 25 off, 26 hand) -------------

_HAND_INDEX = 26


def _arrays(position: RussianPosition) -> tuple[list[int], list[int]]:
    sides = []
    for c in (position.turn, position.turn.other):
        sides.append([position.bar[c], *position.points[c], position.off[c], position.hand[c]])
    return sides[0], sides[1]


def _position(
    me: list[int] | tuple[Any, ...], op: list[int] | tuple[Any, ...], like: RussianPosition
) -> RussianPosition:
    mover = like.turn
    mine, theirs = tuple(me[1:25]), tuple(op[1:25])

    def pair(a: int, b: int) -> tuple[int, int]:
        return (a, b) if mover == WHITE else (b, a)

    return RussianPosition(
        (mine, theirs) if mover == WHITE else (theirs, mine),
        pair(me[_HAND_INDEX], op[_HAND_INDEX]),
        pair(me[RUSSIAN_BAR], op[RUSSIAN_BAR]),
        pair(me[RUSSIAN_OFF], op[RUSSIAN_OFF]),
        mover,
        like.thrown,
        like.doubled,
    )


def step_moves(me: list[int], op: list[int], die: int) -> list[tuple[int, int, bool]]:
    """Every single step ``(src, dst, hit)`` for one die (the source :data:`RUSSIAN_HAND` is
    index 26 of ``me``).

    A man on the bar enters before any other moves; otherwise a man may enter from the
    hand or move on; a point held by two or more adverse men is closed; bearing off needs
    every man home (none in hand, on the bar or short of point 19).
    """
    if me[RUSSIAN_BAR]:
        return [(RUSSIAN_BAR, die, op[die] == 1)] if op[die] < 2 else []
    found = []
    if me[_HAND_INDEX] and op[die] < 2:
        found.append((RUSSIAN_HAND, die, op[die] == 1))
    home = not me[_HAND_INDEX] and not any(me[1:19])
    rearmost = next((p for p in HOME if me[p]), 0) if home else 0
    for s in range(1, POINTS + 1):
        if not me[s]:
            continue
        t = s + die
        if t <= POINTS:
            if op[t] < 2:
                found.append((s, t, op[t] == 1))
        elif home and (t == RUSSIAN_OFF or s == rearmost):
            found.append((s, RUSSIAN_OFF, False))
    return found


def single_steps(position: RussianPosition, die: int) -> list[RussianPlay]:
    """Every single step of one die for the side on roll, as one-step plays (the side
    still on roll): what a hand may do with one die, hits included.

    >>> [str(p) for p in single_steps(RussianPosition.start(), 3)]
    ['hand/3']
    """
    me, op = _arrays(position)
    plays = []
    for s, t, hit in step_moves(me, op, die):
        after_me, after_op = list(me), list(op)
        after_me[_HAND_INDEX if s == RUSSIAN_HAND else s] -= 1
        after_me[t] += 1
        if hit:
            after_op[t] = 0
            after_op[RUSSIAN_BAR] += 1
        plays.append(
            RussianPlay((RussianStep(s, t, die, hit),), _position(after_me, after_op, position))
        )
    return plays


def _generate(
    position: RussianPosition, dice: tuple[int, ...], larger_die: bool, enter_two: bool
) -> list[RussianPlay]:
    me, op = _arrays(position)
    # the hand is the arrays' last index, so a step from RUSSIAN_HAND (-1) moves it
    items = most_dice(me, op, dice, _moves, RussianStep, top=0, larger_die=larger_die, memo=True)
    if enter_two:
        entries = [sum(1 for s in p if s.src == RUSSIAN_HAND) for _, p in items]
        need = min(2, max(entries, default=0))
        items = [item for item, n in zip(items, entries, strict=True) if n >= need]
    return [RussianPlay(steps, _position(key[:27], key[27:], position)) for key, steps in items]


def _moves(me: list[int], op: list[int], die: int, top: int) -> list[tuple[int, int, bool]]:
    """:func:`step_moves` for the search (which orders a doublet's steps by ``top``: the
    Russian search remembers the states it has searched instead)."""
    return step_moves(me, op, die)


# -- a turn: the parts of a throw ---------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One part of a turn: the dice to play, and whether it is the doublets' bonus."""

    dice: tuple[int, ...]
    bonus: bool = False

    def describe(self) -> str:
        """In words: ``four 6s`` or ``3-1``."""
        if len(self.dice) == 4:
            return f"four {self.dice[0]}s"
        return f"{self.dice[0]}-{self.dice[1]}"


class RussianTurn:
    """One throw played out: its parts in order, what a part left unplayed loses, and
    whether the caster throws again.

    A doublet with the privilege is two parts, the thrown doublet four times then the
    opposite faces four times, and earns another throw (Cady [000:859]; Foster [004:119]).
    Each profile's first-doublet exception plays a doublet as in the ordinary game.
    Failure rules (Foster [004:119], and Cady [000:863], who forbids the opposite faces
    before the thrown set is finished and the new throw before both are): if the thrown
    doublet cannot be played four times, the opposite faces and the new throw are lost;
    if the opposites cannot all be played, the new throw is lost.

    Cady's deuce-ace [000:865]: after 2-1 the caster names a doublet with
    :meth:`choose_doublet`; it and its opposite are then played as bonus parts and earn
    a new throw; 2-1 neither is a doublet nor lifts the first-doublet exception.

    Cady's optional custom, ``opponent_completes`` [000:867-875]: the dice of a part the
    caster cannot finish (:attr:`remainder`) are played by the opponent with his own men,
    one man a die (:attr:`player` says who plays). As soon as the caster can take up a
    blot with a die still to play, he comes back in and plays on (his play takes up a
    blot). If he finishes the part, the turn goes on as if he had played it all; if the
    opponent finishes it, or neither can, the rest of the turn and the new throw are
    lost. Cady does not say whether the opposite faces are still played after the
    opponent finished the thrown doublet; chosen here: they are lost with the new throw
    (the caster "may not throw again", and the sequence stops where he stopped).

    >>> cady = get_russian_profile('russian-cady')
    >>> first = RussianTurn(RussianPosition.start(), 6, 6, cady)
    >>> [p.describe() for p in first.parts], first.throws_again
    (['four 6s'], False)
    """

    def __init__(
        self, position: RussianPosition, d1: int, d2: int, profile: RussianProfile | str
    ) -> None:
        for d in (d1, d2):
            if not isinstance(d, int) or not 1 <= d <= 6:
                raise ValueError(f"a die shows 1 to 6, not {d!r}")
        self.profile = get_russian_profile(profile)
        self.mover = position.turn
        self.roll = (d1, d2)
        self.first_throw = not position.thrown[self.mover]
        self.doubled_before = position.doubled[self.mover]
        doublet = d1 == d2
        # the history the rules ask about is written as soon as the dice are thrown
        self.position = position.with_history(
            self.mover, thrown=True, doubled=True if doublet else None
        )
        self.deuce_ace = self.profile.deuce_ace and {d1, d2} == {1, 2}
        self.parts: list[Part] = []
        self.throws_again = False
        self.index = 0
        self.lost: list[Part] = []
        self.remainder: list[int] = []  # dice of an unfinished part, opponent_completes
        self.resuming = False  # the caster is back in, taking up a blot
        if doublet:
            self.parts.append(Part((d1,) * 4))
            if self.privileged:
                self.parts.append(Part((7 - d1,) * 4, bonus=True))
                self.throws_again = True
        elif self.deuce_ace:
            if self.profile.deuce_ace_plays_throw:
                self.parts.append(Part((2, 1)))
            self.throws_again = True
        else:
            self.parts.append(Part((max(d1, d2), min(d1, d2))))

    @property
    def privileged(self) -> bool:
        """Whether this throw, a doublet, earns the bonus under the profile."""
        d1, d2 = self.roll
        if d1 != d2:
            return False
        if self.profile.first_doublet == FirstDoublet.FIRST_THROW:
            return not self.first_throw
        return self.doubled_before

    @property
    def needs_choice(self) -> bool:
        """Whether the caster must now name the doublet of a deuce-ace."""
        chosen = any(p.bonus for p in self.parts)
        waiting = self.index == len(self.parts) and not self.remainder
        return self.deuce_ace and waiting and not chosen

    def choose_doublet(self, n: int) -> None:
        """Deuce-ace: play doublet ``n`` and its opposite next (Cady [000:865])."""
        if not self.deuce_ace:
            raise ValueError("only a deuce-ace lets the caster choose a doublet")
        if not self.needs_choice:
            raise ValueError("the doublet is chosen once, after the 2-1 is played")
        if not isinstance(n, int) or not 1 <= n <= 6:
            raise ValueError(f"choose a doublet of 1 to 6, not {n!r}")
        self.parts += [Part((n,) * 4, bonus=True), Part((7 - n,) * 4, bonus=True)]

    @property
    def over(self) -> bool:
        """Whether every part is played (or lost)."""
        return self.index >= len(self.parts) and not self.remainder and not self.needs_choice

    @property
    def part(self) -> Part | None:
        """The part being played now (``None`` when the turn is over, a choice is due or
        a remainder is being completed)."""
        if self.remainder:
            return None
        return self.parts[self.index] if self.index < len(self.parts) else None

    @property
    def player(self) -> Colour:
        """Who plays now: the caster, or the opponent completing a remainder."""
        return self.mover.other if self.remainder and not self.resuming else self.mover

    def legal_plays(self) -> list[RussianPlay]:
        """The legal plays of the part being played now (or of the remainder: a single
        step of the opponent's, or the caster's play taking up a blot)."""
        if self.remainder:
            if self.resuming:
                dice = tuple(sorted(self.remainder, reverse=True))
                plays = _generate(self.position, dice, self.profile.larger_die, False)
                return [p for p in plays if any(step.hit for step in p.steps)] or plays
            return self._completer_steps()
        part = self.part
        if part is None:
            why = "choose a doublet" if self.needs_choice else "the turn is over"
            raise ValueError(f"no part to play: {why}")
        enter_two = self.profile.first_throw_enters_two and self.first_throw and self.index == 0
        return self.position.legal_plays(part.dice, self.profile.larger_die, enter_two)

    def play(self, play: RussianPlay) -> None:
        """Play one part; a part not played in full loses what follows it (or, with
        ``opponent_completes``, leaves its remainder to the opponent)."""
        if self.remainder:
            self._play_remainder(play)
            return
        part = self.part
        if part is None or play not in self.legal_plays():
            what = part.describe() if part else "this turn"
            raise ValueError(f"{play or 'no move'} is not a legal play of {what}")
        self.position = play.result
        self.index += 1
        if len(play.steps) < len(part.dice):
            if self.profile.opponent_completes:
                self.remainder = list(part.dice)
                for step in play.steps:
                    self.remainder.remove(step.die)
                self._after_completer_step()
            else:
                self._lose_the_rest()

    def _lose_the_rest(self) -> None:
        self.remainder = []
        self.lost = self.parts[self.index :]
        del self.parts[self.index :]
        self.throws_again = False
        self.deuce_ace = False  # a 2-1 not played in full loses the chosen doublets too

    def _completer_steps(self) -> list[RussianPlay]:
        here = self.position.with_turn(self.mover.other)
        return [
            RussianPlay(play.steps, play.result.with_turn(self.mover))
            for die in sorted(set(self.remainder), reverse=True)
            for play in single_steps(here, die)
        ]

    def _play_remainder(self, play: RussianPlay) -> None:
        legal = self.legal_plays()
        if not any(p == play and p.steps == play.steps for p in legal):
            who = "the caster, taking up a blot" if self.resuming else "the opponent"
            raise ValueError(f"{play or 'no move'} is not a legal play for {who}")
        self.position = play.result
        for step in play.steps:
            self.remainder.remove(step.die)
        if self.resuming:
            self.resuming = False
            if self.remainder:
                self._after_completer_step()
            return  # the caster finished the part: the turn goes on
        if not self.remainder:
            self._lose_the_rest()  # the opponent finished it: no new throw
            return
        self._after_completer_step()

    def _after_completer_step(self) -> None:
        """The caster comes back in if he can take up a blot; else the opponent plays on,
        or, if he cannot, the remainder is lost."""
        me, op = _arrays(self.position)
        if any(hit for die in set(self.remainder) for _, _, hit in step_moves(me, op, die)):
            self.resuming = True
        elif not self._completer_steps():
            self._lose_the_rest()

    def after(self, play: RussianPlay) -> RussianPosition:
        """The position ``play`` of the part now leads to, with whoever plays next on roll
        (the caster while parts or a new throw remain), this turn left unchanged."""
        trial = copy.copy(self)
        trial.parts, trial.remainder = list(self.parts), list(self.remainder)
        trial.play(play)
        return trial.position if not trial.over else trial.next_position()

    def describe(self) -> str:
        """The throw's parts in words: ``four 6s, then four 1s (bonus), then throw again``."""
        words = [p.describe() + (" (bonus)" if p.bonus else "") for p in self.parts]
        if self.deuce_ace and not any(p.bonus for p in self.parts):
            words.append("choose a doublet, play it and its opposite (bonus)")
        if self.throws_again:
            words.append("throw again")
        return ", then ".join(words)

    def decline(self) -> None:
        """Decline the bonus (only where the profile does not make it compulsory): the
        bonus parts and the new throw are given up."""
        part = self.part
        if part is None or not part.bonus:
            raise ValueError("only the bonus can be declined")
        if self.profile.bonus_mandatory:
            raise ValueError(f"{self.profile.title}: the bonus must be played")
        self.lost = self.parts[self.index :]
        del self.parts[self.index :]
        self.throws_again = False

    def next_position(self) -> RussianPosition:
        """The position once the turn is over: the caster on roll again if he throws again."""
        if not self.over:
            raise ValueError("the turn is not over")
        if self.throws_again or self.position.winner() is not None:
            return self.position
        return self.position.with_turn(self.mover.other)
