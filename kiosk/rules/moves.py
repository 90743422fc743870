"""Legal plays: every way to play a roll, one entry per distinct resulting position.

A *step* moves one man by one die; a *play* is the steps of a whole turn.
Points are counted from the mover's side: ``BAR`` is 25 and ``OFF`` is 0.

>>> from kiosk.rules import Position
>>> plays = Position.standard().legal_plays(3, 1)
>>> len(plays)
16
>>> '8/5 6/5' in [str(p) for p in plays]
True
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from kiosk.rules.position import BAR, OFF, Colour, Position

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


def from_arrays(me: list[int] | tuple, op: list[int] | tuple, mover: Colour) -> Position:
    """A position from mover-side arrays, with ``mover`` still on roll."""
    mine = tuple(me[1:26])
    theirs = (*op[24:0:-1], op[0])
    men = (mine, theirs) if mover == Colour.WHITE else (theirs, mine)
    off = (me[0], op[25]) if mover == Colour.WHITE else (op[25], me[0])
    return Position(men, off, mover, validate=False)


@dataclass(frozen=True, slots=True)
class Step:
    """One man moved by one die: from ``src`` to ``dst`` (mover's numbering), hitting or not."""

    src: int
    dst: int
    die: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{_point_name(self.src)}/{_point_name(self.dst)}{'*' if self.hit else ''}"


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
        from kiosk.rules.notation import format_play

        return format_play(self.steps)

    @property
    def dice_used(self) -> tuple[int, ...]:
        """The dice this play uses, in the order used."""
        return tuple(s.die for s in self.steps)


def _point_name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


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


def _apply(me: list[int], op: list[int], s: int, t: int, hit: bool) -> None:
    me[s] -= 1
    me[t] += 1
    if hit:
        op[t] = 0
        op[0] += 1


def _undo(me: list[int], op: list[int], s: int, t: int, hit: bool) -> None:
    me[s] += 1
    me[t] -= 1
    if hit:
        op[t] = 1
        op[0] -= 1


def apply_step(position: Position, step: Step) -> Position:
    """The position after one step of the side on roll (no legality check), still on roll."""
    me, op = to_arrays(position)
    _apply(me, op, step.src, step.dst, step.hit)
    return from_arrays(me, op, position.turn)


def generate(position: Position, d1: int, d2: int, larger_die: bool = True) -> list[Play]:
    """Every legal play of ``d1``-``d2`` from ``position``, one per distinct resulting position.

    As many dice as possible must be used; when only one of two different dice
    can be used, the larger must be used if it can be (unless ``larger_die`` is
    false, as in Cady's rules, which leave the choice to the player).
    The results have the adversary on roll.
    """
    dice = roll_dice(d1, d2)
    me, op = to_arrays(position)
    found: dict[tuple, tuple] = {}
    best = 0
    path: list[tuple[int, int, int, bool]] = []
    doublet = len(dice) == 4

    def search(seq: tuple[int, ...], i: int, top: int) -> None:
        nonlocal best, found
        moved = False
        if i < len(seq):
            die = seq[i]
            for s, t, hit in step_moves(me, op, die, top):
                moved = True
                _apply(me, op, s, t, hit)
                path.append((s, t, die, hit))
                search(seq, i + 1, s if doublet else BAR)
                path.pop()
                _undo(me, op, s, t, hit)
        if moved or i < best:
            return
        if i > best:
            best, found = i, {}
        key = (*me, *op)
        if key not in found:
            found[key] = tuple(path)

    if doublet:
        search(dice, 0, BAR)
    else:
        # Larger die first, so a one-die result reached by either die is kept as the larger's.
        search(dice, 0, BAR)
        search(dice[::-1], 0, BAR)
    items = list(found.items())
    if best == 1 and not doublet and larger_die:
        larger = [(k, p) for k, p in items if p[0][2] == dice[0]]
        items = larger or items
    mover = position.turn
    plays = []
    for key, steps in items:
        result = from_arrays(key[:26], key[26:], mover).swap_turn()
        plays.append(Play(tuple(Step(*s) for s in steps), result))
    return plays
