"""Exact chances in a short race of men all home: a one-sided bear-off count.

When both sides have every man in their home tables, no contact is left and each has
borne off at least one man (so no gammon is possible), the race is decided by how many
throws each side needs. For one side's men on its points 1-6, :func:`rolls_to_finish`
gives the chance of bearing the last man off in exactly 1, 2, 3... throws, each throw
played to finish soonest on average; the side on roll wins when it needs no more throws
than the other. The chances of every home of up to :data:`MEN` men (8,008 of them) are
shipped in ``bearoff.npz``, counted by :func:`count_rolls_to_finish` and written by
``python -m kiosk.tutor.evaluators.bearoff`` (about five seconds here, which the coach
would otherwise spend in the middle of a game, the first time short races come up).

>>> round(win_chance((0, 1, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0)), 4)   # a 2 to bear off first
1.0
>>> round(win_chance((0, 0, 0, 0, 0, 2), (0, 0, 0, 0, 0, 1)), 4)   # two men on the six
0.2789
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np

from kiosk.rules import Colour, Position

MEN = 10  # the most men a side may have left for the count to be used
THROWS = 20  # the most throws any such home needs (ten men on the six point, 2-1 each time)
TABLE_FILE = Path(__file__).with_name("bearoff.npz")
ROLLS = [(a, b, 1 if a == b else 2) for a in range(1, 7) for b in range(a, 7)]

Home = tuple[int, int, int, int, int, int]


@cache
def _steps(home: Home, die: int) -> tuple[Home, ...]:
    """Every way to play one die: a man moved down, or borne off."""
    out = []
    highest = max((p for p in range(6) if home[p]), default=-1)
    for p in range(6):
        if not home[p]:
            continue
        point = p + 1
        if point > die:
            nxt = list(home)
            nxt[p] -= 1
            nxt[p - die] += 1
            out.append(home_counts(nxt))
        elif point == die or p == highest:
            nxt = list(home)
            nxt[p] -= 1
            out.append(home_counts(nxt))
    return tuple(out)


def home_counts(counts: Sequence[int]) -> Home:
    """Six counts as a home board, points 1 to 6."""
    a, b, c, d, e, f = counts
    return (a, b, c, d, e, f)


def home_of(position: Position, colour: Colour) -> Home:
    """``colour``'s men on its points 1 to 6 in ``position``, as a home board.

    >>> home_of(Position.standard(), Colour.parse("white"))
    (0, 0, 0, 0, 0, 5)
    """
    return home_counts(position.men[colour][:6])


def _plays(home: Home, dice: tuple[int, ...]) -> set[Home]:
    """The homes a throw can leave (as many dice used as can be)."""
    orders = [dice] if len(set(dice)) == 1 else [dice, dice[::-1]]
    ends: dict[Home, int] = {}
    for order in orders:
        frontier = {home: 0}
        for die in order:
            nxt: dict[Home, int] = {}
            for h, used in frontier.items():
                steps = _steps(h, die) if sum(h) else ()
                for after in steps:
                    nxt[after] = max(nxt.get(after, 0), used + 1)
                if not steps:
                    nxt[h] = max(nxt.get(h, 0), used)
            frontier = nxt
        for h, used in frontier.items():
            ends[h] = max(ends.get(h, 0), used)
    most = max(ends.values())
    return {h for h, used in ends.items() if used == most}


@cache
def count_rolls_to_finish(home: Home) -> tuple[float, ...]:
    """The chance of bearing the last man off in exactly 1, 2, 3... throws (index 0 is 1),
    counted throw by throw (what the shipped table holds)."""
    if not sum(home):
        return ()
    total: list[float] = []
    for a, b, weight in ROLLS:
        dice = (a,) * 4 if a == b else (a, b)
        best = min(_plays(home, dice), key=_expected)
        after = (1.0,) if not sum(best) else (0.0, *count_rolls_to_finish(best))
        for n, chance in enumerate(after):
            if n == len(total):
                total.append(0.0)
            total[n] += chance * weight / 36
    return tuple(total)


@cache
def _expected(home: Home) -> float:
    return sum((n + 1) * c for n, c in enumerate(count_rolls_to_finish(home)))


def expected_throws(home: Home) -> float:
    """The throws a side needs on average to bear off the men of ``home`` (its points 1-6),
    each throw played to finish soonest: what GNU Backgammon's one-sided bear-off database
    holds, counted for any number of men (0 when none is left).

    >>> expected_throws((0, 0, 0, 0, 0, 0)), round(expected_throws((0, 0, 0, 0, 0, 2)), 4)
    (0, 2.1096)
    """
    return _expected(home) if sum(home) else 0


def all_homes(men: int = MEN) -> list[Home]:
    """Every home of at most ``men`` men, in the shipped table's order (lowest points
    varying slowest)."""

    def fill(points: int, left: int) -> list[tuple[int, ...]]:  # the homes of ``points`` points
        if points == 0:
            return [()]
        return [(n, *rest) for n in range(left + 1) for rest in fill(points - 1, left - n)]

    return fill(6, men)  # type: ignore[return-value]


@cache
def _table() -> tuple[dict[Home, int], np.ndarray]:
    with np.load(TABLE_FILE) as data:
        chances = data["chances"]
    return {home: i for i, home in enumerate(all_homes())}, chances


def rolls_to_finish(home: Home) -> tuple[float, ...]:
    """The chance of bearing the last man off in exactly 1, 2, 3... throws (index 0 is 1),
    from the shipped table (trailing zeros included).

    >>> [round(c, 4) for c in rolls_to_finish((0, 0, 0, 0, 0, 2))[:3]]  # 3-3 to 6-6 in one
    [0.1111, 0.6713, 0.2145]
    """
    index, chances = _table()
    return tuple(chances[index[home]].tolist())


def write_table(path: Path = TABLE_FILE) -> None:
    """Count every home of up to :data:`MEN` men and write the table."""
    homes_ = all_homes()
    chances = np.zeros((len(homes_), THROWS), np.float32)
    for i, home in enumerate(homes_):
        row = count_rolls_to_finish(home)
        chances[i, : len(row)] = row
    np.savez_compressed(path, chances=chances)


def win_chance(on_roll: Home, other: Home) -> float:
    """The chance that the side on roll bears off all its men first."""
    mine, theirs = rolls_to_finish(on_roll), rolls_to_finish(other)
    later = 1.0  # the other side needs at least n throws
    win = 0.0
    for n, chance in enumerate(mine):
        win += chance * later
        if n < len(theirs):
            later -= theirs[n]
    return win


def homes(position: Position) -> tuple[Home, Home] | None:
    """Each side's home (on roll first) if the count applies: every man home, none on the
    bar, at least one borne off, at most :data:`MEN` left; else ``None``."""
    out = []
    for colour in (position.turn, position.turn.other):
        if position.bar(colour) or not position.off[colour]:
            return None
        home = home_of(position, colour)
        if sum(home) + position.off[colour] != 15 or sum(home) > MEN:
            return None
        out.append(home)
    return out[0], out[1]


if __name__ == "__main__":
    write_table(Path(sys.argv[1]) if len(sys.argv) > 1 else TABLE_FILE)
    print(f"wrote {len(all_homes())} homes of up to {MEN} men", file=sys.stderr)
